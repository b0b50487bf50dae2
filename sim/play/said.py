"""What the referee said about a step of the game: its plain line, in the players' names
(:mod:`rules.lead`), and its reasons, each with its rule ID, for the details."""

from __future__ import annotations

from rules import Reason
from rules.lead import lag_line, ruling_line
from rules.practice import practice_kind
from rules.words import BALL_IN_HAND_WORDS
from sim.names import with_names
from sim.play.game import (
    BreakerRecord,
    ChoiceRecord,
    GameSetup,
    LagRecord,
    Record,
    SetupRecord,
    ShotRecord,
    StalemateRecord,
    TimeFoulRecord,
)


def record_line(record: Record, setup: GameSetup) -> str:
    """The plain line for ``record``: "Foul: scratch. Bob has ball in hand anywhere."."""
    names, kind = setup.players, setup.kind
    match record:
        case ShotRecord():
            declaration = record.stroke.declaration
            played = kind if record.refereed else practice_kind(kind)
            table = setup.spec.geometry  # where the game says what the shot racks
            return ruling_line(record.ruling, played, names, declaration=declaration, table=table)
        case ChoiceRecord():
            return ruling_line(record.ruling, kind, names, choice=record.choice)
        case StalemateRecord():
            return ruling_line(record.ruling, kind, names, stalemate=True)
        case TimeFoulRecord():
            return ruling_line(record.ruling, kind, names)
        case LagRecord():
            return lag_line(record.result, names)
        case BreakerRecord():
            return f"{setup.name(record.breaker)} breaks."
        case SetupRecord():
            return setup_line(record, setup)
    raise TypeError(f"not a game record: {record!r}")


def setup_line(record: SetupRecord, setup: GameSetup) -> str:
    """A set-up in a line: "The table is set up: referee off, Ann has ball in hand
    anywhere."."""
    who = setup.name(record.turn)
    if record.in_hand is not None:
        turn = f"{who} has ball in hand {BALL_IN_HAND_WORDS[record.in_hand]}"
    else:
        turn = f"{who} to shoot"
    referee = "the referee on" if record.refereed else "referee off"
    return f"The table is set up, {referee}: {turn}."


def record_reasons(record: Record) -> tuple[Reason, ...]:
    """The referee's reasons for ``record`` (none for the choice of a breaker)."""
    if isinstance(record, LagRecord):
        return record.result.reasons
    if isinstance(record, BreakerRecord | SetupRecord):
        return ()
    return record.ruling.reasons


def detail_lines(reasons: tuple[Reason, ...], names: tuple[str, str]) -> list[tuple[str, bool]]:
    """The reasons in the players' names, each with its rule ID and whether it is a foul:
    the details behind the plain line."""
    return [(with_names(str(reason), names), reason.foul) for reason in reasons]
