"""A drill at the table (the turn's logic the window drives): the practice table set up at
the drill, each attempt scored once its balls stop and the balls put back with its first
stroke loaded, a run out's shots one attempt, the session finished and kept, and a new
session on Try again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules import CUE
from sim.physics.simulate import CueAction, aim_towards
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.play.drill import DrillSession
from sim.play.drillrun import DrillRun
from sim.play.game import Game, GameError, GameSetup
from sim.play.table.controller import TableController
from sim.play.table.turn import Aim, Stage
from sim.store.drillfile import ShippedDrill, drill_named
from tests.play.test_controller import Clock, run_until

pytestmark = pytest.mark.physics
READY = {Stage.AIM, Stage.PLACE}


@pytest.fixture
def worker() -> Iterator[InProcessSimulator]:
    physics = InProcessSimulator()
    yield physics
    physics.close()


def _run(
    worker: InProcessSimulator, shipped: ShippedDrill
) -> tuple[DrillRun, Clock, list[DrillSession]]:
    position = shipped.drill.position
    game = Game(GameSetup(game=position.game, table=position.table, practice=True))
    clock = Clock()
    controller = TableController(game, worker, clock=clock)
    kept: list[DrillSession] = []

    def keep(session: DrillSession) -> list[str]:
        kept.append(session)
        return ["best 20 of 20"]

    return DrillRun(shipped.drill, controller, "Ann", keep), clock, kept


def _shoot(run: DrillRun, clock: Clock, action: CueAction) -> None:
    run.controller.aim = Aim.of(action)
    run.controller.strike()
    run_until(run.controller, clock, READY)
    run.update()


def test_attempts_are_scored_put_back_and_the_session_kept(worker: InProcessSimulator) -> None:
    shipped = drill_named("stop-shot")
    run, clock, kept = _run(worker, shipped)
    controller = run.controller
    assert controller.balls() == dict(shipped.drill.position.balls)
    assert run.headline == "Drill: Stop shot · attempt 1 of 5"
    assert controller.message == (
        f"{shipped.drill.instruction} Tracking lines and the hint are off in this drill."
    )
    assert not controller.aids.tracking and not controller.aids.hint  # the drill's say
    with pytest.raises(GameError, match="tracking lines are off in this drill"):
        controller.switch_tracking()
    with pytest.raises(GameError, match="the hint is off in this drill"):
        controller.seat.ask_hint()
    balls = shipped.drill.position.balls
    assert controller.aim.direction == pytest.approx(aim_towards(balls[CUE], balls["3"]))
    (reference,) = shipped.reference
    _shoot(run, clock, reference)
    assert run.last is not None and run.last.made
    assert controller.message == (
        "Attempt 1: The 3 went in the foot-right corner; the cue ball stopped in the zone. "
        "Made it: 20 of 20 points. The balls are back for attempt 2."
    )
    assert controller.balls() == dict(shipped.drill.position.balls)  # put back
    assert controller.aim.action() == reference  # its stroke loaded, as take it again
    assert run.headline == "Drill: Stop shot · attempt 2 of 5 · best so far 20 of 20"
    miss = CueAction(speed=1.6, aim=reference.aim + 6)
    for _ in range(4):
        _shoot(run, clock, miss)
    assert run.last is not None and not run.last.made
    assert run.session.finished and kept == [run.session]
    assert run.session.made == 1 and run.headline.startswith("Drill: Stop shot · finished")
    assert controller.message.endswith("The drill is over.")
    assert run.update() is None  # scored once
    run.try_again()
    assert run.session.scores == () and controller.balls() == dict(shipped.drill.position.balls)


def test_a_run_out_is_one_attempt_of_its_shots(worker: InProcessSimulator) -> None:
    shipped = drill_named("three-ball-run-out")
    run, clock, _ = _run(worker, shipped)
    first, second, third = shipped.reference
    _shoot(run, clock, first)
    assert run.session.scores == () and "shot 1 of up to 3 done" in run.controller.message
    _shoot(run, clock, second)
    _shoot(run, clock, third)
    assert run.last is not None and run.last.made and run.last.points == 30
    assert run.session.attempt == 2 and run.controller.balls() == dict(shipped.drill.position.balls)
    _shoot(run, clock, CueAction(speed=1.0, aim=(first.aim + 90) % 360))  # pockets nothing
    assert len(run.session.scores) == 2 and not run.session.scores[1].made
    assert CUE in run.controller.balls()


def test_a_table_set_up_again_by_hand_is_no_longer_the_drills(worker: InProcessSimulator) -> None:
    shipped = drill_named("three-ball-run-out")
    run, clock, _ = _run(worker, shipped)
    _shoot(run, clock, shipped.reference[0])
    assert len(run.attempt_nodes()) == 1
    run.controller.set_up.begin()
    run.controller.set_up.done()
    assert run.attempt_nodes() == []
    _shoot(run, clock, CueAction(speed=1.0, aim=90.0))
    assert run.attempt_nodes() == [] and run.session.scores == ()
    run.try_again()  # back at the drill's own set-up
    assert run.controller.balls() == dict(shipped.drill.position.balls)
