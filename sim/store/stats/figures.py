"""A game file's figures: its records (``game.json``'s line in play) read as the steps
the players' figures are counted from (:class:`rules.figures.Step`), and counted by the
one definition of each (:mod:`sim.play.figures`), as the match summary and the duel
count a game in memory. Read from the JSON alone, with no physics, so that indexing a
folder of games stays quick."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rules import Call, Declaration, GameState, Player, PocketId, Positions, Tally, game_kind
from rules.facts import facts_from_json
from rules.figures import Step, StepKind
from sim.physics.table import TableSpec
from sim.play.figures.counts import GameFigures, game_figures
from sim.store.savedgames import line_in_play

# A game file's record types that a figure reads, as steps (a lag and a choice of
# breaker read as none).
KINDS = {kind.value: kind for kind in StepKind}


def file_figures(document: Mapping[str, Any], spec: TableSpec) -> GameFigures:
    """The figures of the game ``document`` (a game file's ``game.json``) played on the
    table ``spec``; KeyError, TypeError or ValueError for a document not shaped as a game
    file."""
    setup = document["setup"]
    return game_figures(
        list(steps_of_document(document)),
        game=str(setup["game"]),
        players=(str(setup["players"][0]), str(setup["players"][1])),
        race_to=int(setup["race_to"]),
        spec=spec,
    )


def steps_of_document(document: Mapping[str, Any]) -> Iterator[Step]:
    """The line in play's records, each as a step."""
    game = game_kind(str(document["setup"]["game"]))
    for record in line_in_play(document):
        if isinstance(record, dict) and record.get("type") in KINDS:
            yield step_of_record(record, game)


def step_of_record(record: Mapping[str, Any], game: type[GameState] = GameState) -> Step:
    """A game file's record (a shot, time foul, choice, stalemate or set-up) as a step,
    a shot's with the balls it scored as its ``game`` counts them (``balls_scored``, from
    the ruling's JSON and its extras read back by the game's ``extras_type``)."""
    kind = KINDS[str(record["type"])]
    if kind is StepKind.SETUP:
        return Step(kind=kind, breaking=record.get("break") is True)
    who = record.get("shooter", record.get("player"))
    ruled = _ruled(record["ruling"])
    if kind is not StepKind.SHOT:
        return Step(kind=kind, rack=int(record["rack"]), shooter=_player(who), **ruled)
    call = record.get("call")
    declaration = record.get("declaration")
    return Step(
        kind=kind,
        rack=int(record["rack"]),
        shooter=Player(who),
        start=_positions(record["start"]),
        after=_positions(record["after"]),
        facts=facts_from_json(record["events"]),
        call=None if call is None else Call(str(call["ball"]), PocketId(call["pocket"])),
        declaration=None if declaration is None else Declaration(declaration),
        scored=_scored(game, record["ruling"], ruled),
        **ruled,
    )


def _ruled(ruling: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of a ruling's JSON a step keeps (see :class:`rules.figures.Step`)."""
    score = ruling["score"]
    return {
        "foul_codes": tuple(str(code) for code in ruling["foul_codes"]),
        "pocketed": tuple(str(ball) for ball in ruling["pocketed"]),
        "rack_over": bool(ruling["rack_over"]),
        "winner": _player(ruling["winner"]),
        "rerack": bool(ruling["rerack"]),
        "next_shooter": _player(ruling["next_shooter"]),
        "in_hand": ruling["ball_in_hand"] is not None,
        "positions": _positions(ruling["positions"]),
        "score": Tally(int(score["A"]), int(score["B"])),
    }


def _scored(game: type[GameState], ruling: Mapping[str, Any], parts: Mapping[str, Any]) -> int:
    """The balls a shot's ruling (its JSON, and the step's ``parts`` read from it)
    scored, as ``game`` counts them."""
    extras = None if game.extras_type is None else game.extras_type.from_json(ruling)
    return game.balls_scored(bool(parts["foul_codes"]), parts["pocketed"], extras)


def _player(value: Any) -> Player | None:
    return None if value is None else Player(value)


def _positions(value: Mapping[str, Any]) -> Positions:
    """Balls' positions; ValueError for a ball or a point that is none."""
    return Positions({str(ball): (float(xy[0]), float(xy[1])) for ball, xy in value.items()})
