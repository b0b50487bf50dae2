"""A match's steps as the players' figures read them, in the referee's terms, and the
figures a game keeps of its own.

The figures every game shares (racks, breaks, break-and-runs, pots, ...) need the
table's pockets, which the referee does not know, so they are defined a floor up, in
:mod:`sim.play.figures`. What they read is here: a :class:`Step`, one step of a match
with the parts of its ruling and of its shot they count, which the live game's records
and a game file's records both become (the referee's terms are the one language the two
share). A game adds figures of its own by naming them in its class attribute
``own_figures`` (:class:`OwnFigure`: a name, its words, and a pure count over the
steps), as python-chess's variants describe themselves: the figures code asks the game
class, never its name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import Any

import attrs

from rules.facts import BallId, ShotFacts
from rules.positions import Positions
from rules.ruling import Ruling
from rules.shot import Call
from rules.terms import Declaration, Player, Tally


class StepKind(StrEnum):
    """A step of a match that a figure reads (the lag and the choice of breaker count
    for none)."""

    SHOT = "shot"
    TIME_FOUL = "time-foul"  # the shot clock ran out before the stroke (GEN-17)
    CHOICE = "choice"
    STALEMATE = "stalemate"
    SETUP = "setup"  # a table set up by hand (a practice table)


@attrs.frozen(kw_only=True, eq=False)
class Step:
    """One step of a match, as the figures read it.

    ``rack``, ``shooter``: the rack it is in and who took it (the chooser of a choice;
    None for a stalemate or a set-up). The ruling's parts (:class:`rules.Ruling`):
    ``foul_codes`` (the codes' values), ``pocketed``, ``rack_over``, ``winner``,
    ``rerack``, ``next_shooter``, ``in_hand`` (the next shot is from ball in hand),
    ``positions`` (the balls after the ruling) and ``score``. A shot's: ``start`` (the
    balls at the stroke), ``after`` (where the balls still on the table came to rest),
    ``facts`` (what happened, in order), ``call`` and ``declaration``. A set-up's:
    ``breaking``, a rack racked to be broken (then its next shot is a break).
    ``scored``: a shot's balls to its shooter's run, as the game's
    ``GameState.balls_scored`` counts them (14.1's points; 0 for any other step).
    """

    kind: StepKind
    rack: int = 0
    shooter: Player | None = None
    foul_codes: tuple[str, ...] = ()
    pocketed: tuple[BallId, ...] = ()
    rack_over: bool = False
    winner: Player | None = None
    rerack: bool = False
    next_shooter: Player | None = None
    in_hand: bool = False
    positions: Positions = attrs.field(factory=Positions)
    score: Tally = attrs.field(factory=Tally)
    start: Positions = attrs.field(factory=Positions)
    after: Positions = attrs.field(factory=Positions)
    facts: ShotFacts = ()
    call: Call | None = None
    declaration: Declaration | None = None
    breaking: bool = False
    scored: int = 0

    @property
    def foul(self) -> bool:
        return bool(self.foul_codes)

    @property
    def is_turn(self) -> bool:
        """A turn at the table: a shot, or a time foul in its place."""
        return self.kind in (StepKind.SHOT, StepKind.TIME_FOUL)


def ruled(kind: StepKind, ruling: Ruling, **parts: Any) -> Step:
    """The step of ``kind`` that ``ruling`` ruled on, with its other ``parts`` (the
    rack, the shooter, a shot's)."""
    return Step(
        kind=kind,
        foul_codes=tuple(code.value for code in ruling.foul_codes),
        pocketed=ruling.pocketed,
        rack_over=ruling.rack_over,
        winner=ruling.winner,
        rerack=ruling.rerack,
        next_shooter=ruling.next_shooter,
        in_hand=ruling.ball_in_hand is not None,
        positions=ruling.positions,
        score=ruling.score,
        **parts,
    )


Count = Callable[[Sequence[Step], Player], int]


@attrs.frozen
class OwnFigure:
    """A figure a game keeps of its own: ``name`` (its key wherever it is written),
    ``words`` (as a player reads it), ``count`` (the player's figure over a match's
    steps, in order), and ``best``: over many matches the largest counts (a high run),
    not the sum."""

    name: str
    words: str
    count: Count
    best: bool = False
    # Shown with its mean over another figure of the game's, where a report has room:
    # that figure's name and the mean's words (the balls over the innings: balls per
    # inning). The figures themselves stay whole numbers, so the mean of many matches is
    # their sums' ratio.
    per: tuple[str, str] | None = None

    def mean_words(self, values: Mapping[str, int]) -> tuple[str, str] | None:
        """The mean's words and its value among a player's ``values`` (by name); None
        for a figure shown without one."""
        if self.per is None:
            return None
        over, words = self.per
        count = values.get(over, 0)
        return words, (f"{values.get(self.name, 0) / count:.2f}" if count else "0.00")


def racks_of(steps: Sequence[Step]) -> dict[int, list[Step]]:
    """Each rack's turns (shots and time fouls), in order, by rack number."""
    racks: dict[int, list[Step]] = {}
    for step in steps:
        if step.is_turn:
            racks.setdefault(step.rack, []).append(step)
    return racks


def points_scored(steps: Sequence[Step], player: Player) -> int:
    """A game that keeps score: the points ``player`` ended each rack with (a rack in
    play: has now), over the racks not replayed (ROT-9; a re-rack resets the score)."""
    return sum(
        turns[-1].score[player] for turns in racks_of(steps).values() if not turns[-1].rerack
    )


def innings_runs(steps: Sequence[Step], player: Player) -> tuple[int, ...]:
    """The balls ``player`` scored in each of their innings, in order (``Step.scored``):
    an inning is the player's shots in a row (across racks, as a run goes on after a
    rack won); balls per inning and the high run are read from it (SP-17)."""
    runs: list[int] = []
    last: Player | None = None
    for step in steps:
        if step.kind is not StepKind.SHOT:
            continue
        if step.shooter is player:
            if last is not player:
                runs.append(0)
            runs[-1] += step.scored
        last = step.shooter
    return tuple(runs)


def balls_in_runs(steps: Sequence[Step], player: Player) -> int:
    """The balls ``player`` scored over all their innings."""
    return sum(innings_runs(steps, player))


def innings(steps: Sequence[Step], player: Player) -> int:
    """``player``'s innings (a miss on their first shot is one, of no balls)."""
    return len(innings_runs(steps, player))


def high_run(steps: Sequence[Step], player: Player) -> int:
    """``player``'s best inning: the most balls in a run."""
    return max(innings_runs(steps, player), default=0)
