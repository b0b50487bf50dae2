"""A stalemate offered and answered (GEN-16, issue 12): the pure rule of when the
computer offers (and agrees), when a person may offer, and what an offer declined
leaves on the line; then at the table, without a window: the computer's offer asked of
a person (agree: re-racked; play on: it plays its shot, recorded with the offer
declined, and decides the same way again), two computers agreeing at once, a person's
offer answered by the computer's judgement or by the other person."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from rules import Choice, Player, TenBall
from rules.state import Decision
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.play.game import ComputerPlayer, Game, GameError, StalemateRecord
from sim.play.opponent.levels import level_named
from sim.play.opponent.player import Kind, decide
from sim.play.stalemate import (
    COMPUTER_OFFERS,
    OFFER_AGAIN_AFTER,
    PERSON_MAY_OFFER,
    computer_offers,
    innings_to_offer,
    last_declined,
    person_may_offer,
)
from sim.play.table.controller import TableController
from sim.play.table.turn import Stage
from sim.store.gamefile import load, save
from sim.store.verify import verify_decisions
from tests.gamezip import rewrite
from tests.play.quiet import quiet_game, quiet_stroke
from tests.play.test_controller import Clock
from tests.play.test_opponent import NO_POT, SPEC, rng, state_of

# -- the pure rule -------------------------------------------------------------------------


def test_the_computer_offers_after_twelve_quiet_innings() -> None:
    assert not computer_offers(state_of(TenBall, NO_POT, quiet_innings=COMPUTER_OFFERS - 1))
    assert computer_offers(state_of(TenBall, NO_POT, quiet_innings=COMPUTER_OFFERS))


def test_a_choice_waiting_is_no_time_to_offer() -> None:
    choosing = state_of(
        TenBall,
        NO_POT,
        quiet_innings=COMPUTER_OFFERS + 5,
        pending=Decision(chooser=Player.B, offender=Player.A, choices=frozenset({Choice.SHOOT})),
    )
    assert not computer_offers(choosing)


def test_an_offer_declined_is_not_made_again_for_six_innings() -> None:
    declined = COMPUTER_OFFERS
    waits = range(declined, declined + OFFER_AGAIN_AFTER)
    for quiet in waits:
        assert not computer_offers(state_of(TenBall, NO_POT, quiet_innings=quiet), declined)
    again = state_of(TenBall, NO_POT, quiet_innings=declined + OFFER_AGAIN_AFTER)
    assert computer_offers(again, declined)


def test_a_person_may_offer_after_three_innings_each() -> None:
    early = state_of(TenBall, NO_POT, quiet_innings=PERSON_MAY_OFFER - 2)
    assert not person_may_offer(early) and innings_to_offer(early) == 2
    ready = state_of(TenBall, NO_POT, quiet_innings=PERSON_MAY_OFFER)
    assert person_may_offer(ready) and innings_to_offer(ready) == 0


def test_after_an_offer_declined_the_computer_decides_a_shot_the_same_for_its_seed() -> None:
    quiet = state_of(TenBall, NO_POT, quiet_innings=COMPUTER_OFFERS)
    level = level_named("1")
    assert decide(quiet, SPEC, level, rng()).kind is Kind.STALEMATE
    first = decide(quiet, SPEC, level, rng(), declined=COMPUTER_OFFERS)
    again = decide(quiet, SPEC, level, rng(), declined=COMPUTER_OFFERS)
    assert first.kind is not Kind.STALEMATE and first.stroke is not None
    assert first.stroke == again.stroke


@pytest.mark.physics
def test_the_offer_declined_is_read_back_from_the_computers_shots() -> None:
    game = quiet_game(COMPUTER_OFFERS)
    assert last_declined(game.current) is None
    prepared, simulated = quiet_stroke(game)
    computer = ComputerPlayer("1", (1,), declined=COMPUTER_OFFERS)
    game.commit(
        attrs.evolve(prepared, stroke=attrs.evolve(prepared.stroke, player=computer)), simulated
    )
    game.commit(*quiet_stroke(game))  # a person's shot: the offer declined still holds
    assert last_declined(game.current) == COMPUTER_OFFERS
    game.declare_stalemate(agreed=True)  # a new rack: nothing declined in it
    assert last_declined(game.current) is None


# -- at the table ----------------------------------------------------------------------------


@pytest.fixture
def worker() -> Iterator[InProcessSimulator]:
    physics = InProcessSimulator()
    yield physics
    physics.close()


def seated(
    worker: InProcessSimulator, game: Game, computers: dict[Player, str]
) -> tuple[TableController, Clock]:
    clock = Clock()
    return TableController(game, worker, None, clock=clock, computers=computers), clock


def run(controller: TableController, clock: Clock, until: Callable[[], object]) -> None:
    """Frames (a twentieth of a second each) until ``until()``."""
    deadline = time.monotonic() + 120.0
    while not until():
        assert time.monotonic() < deadline, f"stuck at {controller.stage}"
        clock.now += 0.05
        controller.update()
        if controller.stage is Stage.WATCH:
            controller.finish_watching()


def computer_to_shoot_at(quiet: int) -> tuple[Game, Player]:
    """A quiet rack with at least ``quiet`` innings, and whose shot it is."""
    game = quiet_game(quiet)
    assert game.rack is not None
    return game, game.rack.shooter


@pytest.mark.physics
def test_the_computers_offer_declined_it_plays_its_shot_and_decides_it_again(
    worker: InProcessSimulator, tmp_path: Path
) -> None:
    game, seat = computer_to_shoot_at(COMPUTER_OFFERS)
    controller, clock = seated(worker, game, {seat: "1"})
    run(controller, clock, lambda: controller.stage is Stage.OFFER)
    offer = controller.stalemate.pending
    assert offer is not None and offer.by is seat and offer.quiet == COMPUTER_OFFERS
    assert controller.shooter is seat.other and controller.computer_level is None
    with pytest.raises(GameError, match="not ready to shoot"):
        controller.strike()  # the answer first
    controller.stalemate.answer(False)
    assert "plays on" in controller.message and controller.stage is not Stage.OFFER
    shots = len(game.shots)
    run(controller, clock, lambda: len(game.shots) > shots and not controller.shot_in_play)
    played = game.shots[-1].stroke.player
    assert played is not None and played.declined == COMPUTER_OFFERS
    assert not any(isinstance(r, StalemateRecord) for r in game.records)
    assert all(check.same for check in verify_decisions(game))
    # The offer declined is a part of that decision: without it, the file's shot is not
    # the one the computer decides (it would offer the stalemate again).
    path = tmp_path / "declined.poolsim"
    save(game, path)
    assert all(check.same for check in verify_decisions(load(path)))

    def forgotten(document: dict[str, Any]) -> None:
        shots = [r for r in document["records"] if r["type"] == "shot"]
        del shots[-1]["player"]["declined"]

    stripped = load(rewrite(path, tmp_path / "forgotten.poolsim", forgotten))
    assert not verify_decisions(stripped)[-1].same


@pytest.mark.physics
def test_the_computers_offer_agreed_re_racks(worker: InProcessSimulator) -> None:
    game, seat = computer_to_shoot_at(COMPUTER_OFFERS)
    controller, clock = seated(worker, game, {seat: "1"})
    run(controller, clock, lambda: controller.stage is Stage.OFFER)
    controller.stalemate.answer(True)
    record = game.records[-1]
    assert isinstance(record, StalemateRecord) and record.agreed
    assert game.match.rack_number == 2 and "agreed" in controller.message


@pytest.mark.physics
def test_two_computers_agree_at_once(worker: InProcessSimulator) -> None:
    game, _ = computer_to_shoot_at(COMPUTER_OFFERS)
    controller, clock = seated(worker, game, {Player.A: "1", Player.B: "1"})
    run(controller, clock, lambda: isinstance(game.records[-1], StalemateRecord))
    assert "both computers agreed" in controller.message


@pytest.mark.physics
def test_a_persons_offer_the_computer_answers_by_its_own_rule(worker: InProcessSimulator) -> None:
    game, seat = computer_to_shoot_at(PERSON_MAY_OFFER)
    controller, _ = seated(worker, game, {seat.other: "1"})
    assert controller.stalemate.may_offer
    controller.stalemate.make_offer()  # too early for the computer: it plays on
    assert "declines the stalemate" in controller.message
    assert controller.stage in (Stage.AIM, Stage.PLACE) and controller.shooter is seat
    game, seat = computer_to_shoot_at(COMPUTER_OFFERS)
    controller, _ = seated(worker, game, {seat.other: "1"})
    controller.stalemate.make_offer()
    assert isinstance(game.records[-1], StalemateRecord)
    assert "agreed" in controller.message


@pytest.mark.physics
def test_a_person_may_not_offer_before_the_rack_has_been_quiet(worker: InProcessSimulator) -> None:
    game = quiet_game(0)
    controller, _ = seated(worker, game, {})
    assert not controller.stalemate.may_offer
    with pytest.raises(GameError, match="more to go"):
        controller.stalemate.make_offer()


@pytest.mark.physics
def test_between_two_people_the_other_is_asked(worker: InProcessSimulator) -> None:
    game, seat = computer_to_shoot_at(PERSON_MAY_OFFER)
    controller, _ = seated(worker, game, {})
    controller.stalemate.make_offer()
    assert controller.stage is Stage.OFFER and controller.shooter is seat.other
    controller.stalemate.answer(False)
    assert controller.stage in (Stage.AIM, Stage.PLACE) and controller.shooter is seat
    controller.stalemate.make_offer()
    controller.stalemate.answer(True)
    assert isinstance(game.records[-1], StalemateRecord)
