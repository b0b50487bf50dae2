"""Self-play: both seats of a match played by the built-in shot picker
(:mod:`sim.play.picker`), rack after rack, and the figures of each rack. The same seed
plays the same games.

A long run is played as a series of matches of at most :data:`RACKS_PER_MATCH` racks
each (a game file holds one match, and a match in memory grows with every shot): the
first match has the run's own seed, so a run of that many racks or fewer is the one
match it always was."""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs

from rules import Player
from rules.figures import racks_of
from sim.play.figures.counts import rack_figures
from sim.play.figures.live import steps_of
from sim.play.game import MAX_RACE, ChoiceRecord, Game, GameError, Record, ShotRecord
from sim.play.picker import choose_choice, choose_stroke, placements

RACKS_PER_MATCH = MAX_RACE


def match_sizes(racks: int) -> list[int]:
    """The racks of each match of a run of ``racks`` racks."""
    full, rest = divmod(racks, RACKS_PER_MATCH)
    return [RACKS_PER_MATCH] * full + ([rest] if rest else [])


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` (from 0) of a run seeded ``seed``: the same runs
    play the same matches, and different matches play different racks."""
    return seed if index == 0 else random.Random(f"{seed}:match {index}").getrandbits(63)


def play_turn(game: Game, rng: random.Random) -> Record:
    """One step of the rack in play: a choice or a shot."""
    state = game.rack
    assert state is not None
    spec = game.setup.spec
    if state.pending is not None:
        return game.choose(choose_choice(state, spec, rng))
    stroke = choose_stroke(state, spec, rng)
    try:
        return game.shoot(stroke)
    except GameError:
        if stroke.placement is None:
            raise
        # A spot the rules or the physics refuse (too near a ball or a cushion): try the
        # other candidate spots for the cue ball in hand.
        for spot in placements(state, spec, rng):
            try:
                return game.shoot(attrs.evolve(stroke, placement=spot))
            except GameError:
                continue
        raise


@attrs.frozen
class RackSummary:
    number: int
    winner: str | None  # a player's name; None for a re-rack or an unfinished rack
    shots: int
    fouls: int
    break_and_run: bool
    rerack: bool


def summarize(game: Game) -> list[RackSummary]:
    """Per rack: winner, shots, fouls, break-and-run, as the players' figures count them
    (:mod:`sim.play.figures`)."""
    steps = list(steps_of(game.records, game.setup.kind))
    counted = rack_figures(steps, game.setup.spec)
    summaries = []
    for number, turns in sorted(racks_of(steps).items()):
        last = turns[-1]
        both = counted[number][Player.A] + counted[number][Player.B]
        summaries.append(
            RackSummary(
                number=number,
                winner=game.setup.name(last.winner) if last.rack_over and last.winner else None,
                shots=both.shots,
                fouls=both.fouls,
                break_and_run=both.break_and_runs > 0,
                rerack=last.rack_over and last.rerack,
            )
        )
    return summaries


def play_racks(
    game: Game,
    racks: int,
    rng: random.Random,
    *,
    on_record: Callable[[Game, Record], None] | None = None,
    on_rack_end: Callable[[Game], None] | None = None,
    max_records_per_rack: int = 400,
) -> Game:
    """Play until ``racks`` racks have ended (won or re-racked) or the match is over.
    ``on_record`` is told of every record, ``on_rack_end`` of every rack ended (the
    moment to save: a rack is never saved half played)."""
    from rules import MatchPhase

    if game.phase is MatchPhase.LAG:
        game.start(Player.A if rng.random() < 0.5 else Player.B)
    ended = 0
    steps = 0
    while game.phase is MatchPhase.RACK and ended < racks:
        number = game.match.rack_number
        record = play_turn(game, rng)
        steps += 1
        if on_record is not None:
            on_record(game, record)
        rack_ended = game.match.rack_number != number or game.winner() is not None
        if isinstance(record, ShotRecord | ChoiceRecord) and game.setup.kind.reracked_around(
            record.ruling
        ):
            steps = 0  # balls racked again within the rack (14.1): the rack goes on
        if not rack_ended and steps >= max_records_per_rack:
            game.declare_stalemate(agreed=True)  # GEN-16: no progress in a long while
            rack_ended = True
        if rack_ended:
            ended += 1
            steps = 0
            if on_rack_end is not None:
                on_rack_end(game)
    return game
