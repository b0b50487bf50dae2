"""The live game's records as the figures' steps (:class:`rules.figures.Step`): the
match summary and the duel count a game in memory without writing it out as a game
file first."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rules import GameState, Positions
from rules.figures import Step, StepKind, ruled
from sim.play.figures.counts import GameFigures, game_figures
from sim.play.game import (
    ChoiceRecord,
    Game,
    Record,
    SetupRecord,
    ShotRecord,
    StalemateRecord,
    TimeFoulRecord,
)


def figures_of(game: Game) -> GameFigures:
    """The figures of ``game``'s line in play."""
    setup = game.setup
    return game_figures(
        list(steps_of(game.records, setup.kind)),
        game=setup.game,
        players=setup.players,
        race_to=setup.race_to,
        spec=setup.spec,
    )


def steps_of(records: Iterable[Record], kind: type[GameState]) -> Iterator[Step]:
    """Each record of a game of ``kind`` that a figure reads, as a step (the lag and the
    choice of breaker read as none), with the balls it scored (``kind.balls_scored``)."""
    for record in records:
        match record:
            case ShotRecord():
                stroke = record.stroke
                ruling = record.ruling
                yield ruled(
                    StepKind.SHOT,
                    ruling,
                    scored=kind.balls_scored(ruling.foul, ruling.pocketed, ruling.extras),
                    rack=record.rack,
                    shooter=record.shooter,
                    start=record.start,
                    after=Positions(record.simulated.after),
                    facts=record.simulated.facts,
                    call=stroke.call,
                    declaration=stroke.declaration,
                )
            case TimeFoulRecord():
                yield ruled(
                    StepKind.TIME_FOUL, record.ruling, rack=record.rack, shooter=record.shooter
                )
            case ChoiceRecord():
                yield ruled(StepKind.CHOICE, record.ruling, rack=record.rack, shooter=record.player)
            case StalemateRecord():
                yield ruled(StepKind.STALEMATE, record.ruling, rack=record.rack)
            case SetupRecord():
                yield Step(kind=StepKind.SETUP, breaking=record.breaking)
