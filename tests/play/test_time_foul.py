"""The shot clock run out (GEN-17): the controller calls the time foul on the table's own
clock the moment it expires, with no stroke; a paused clock never expires; the computer's
turn runs no clock; take it again takes the time foul back."""

from __future__ import annotations

import pytest

from rules import BallInHand, FoulCode, Options, Player
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.play.game import Game, GameSetup, TimeFoulRecord
from sim.play.said import record_line
from sim.play.table.controller import TableController
from sim.play.table.turn import Stage
from tests.play.test_controller import Clock

pytestmark = pytest.mark.physics
CLOCK = Options(shot_clock_s=10.0, shot_clock_extension_s=10.0, shot_clock_extensions_per_rack=1)


def at_the_break(game: str = "ten-ball") -> tuple[TableController, Clock]:
    clock = Clock()
    setup = GameSetup(game=game, race_to=2, seed=3, players=("Ann", "Bob"), options=CLOCK)
    controller = TableController(Game(setup), InProcessSimulator(), None, clock=clock)
    controller.lag.skip(Player.A)
    return controller, clock


def test_the_clock_running_out_is_a_foul_called_at_once() -> None:
    controller, clock = at_the_break()
    clock.now += 9.9
    controller.update()
    assert not controller.game.records[-1:] or not isinstance(
        controller.game.records[-1], TimeFoulRecord
    )
    clock.now += 0.1  # the clock expires: not "before" it, so the foul (S000 10-h)
    controller.update()
    record = controller.game.records[-1]
    assert isinstance(record, TimeFoulRecord) and record.shooter is Player.A
    assert controller.last_ruling is record.ruling
    assert record.ruling.foul_codes == (FoulCode.SHOT_CLOCK,)
    assert record_line(record, controller.game.setup) == (
        "Foul: the shot clock ran out. Bob has ball in hand anywhere."
    )
    assert controller.shooter is Player.B and controller.stage is Stage.PLACE
    state = controller.state
    assert state is not None and state.ball_in_hand is BallInHand.ANYWHERE
    left = controller.shot_clock.left()  # Bob's turn has a clock of its own
    assert left is not None and abs(left - 10.0) < 1e-9
    assert not controller.game.shots  # no stroke was played


def test_an_extension_taken_runs_on_and_is_recorded() -> None:
    controller, clock = at_the_break()
    controller.shot_clock.take_extension()
    clock.now += 15.0
    controller.update()
    assert not any(isinstance(r, TimeFoulRecord) for r in controller.game.records)
    clock.now += 5.0
    controller.update()
    record = controller.game.records[-1]
    assert isinstance(record, TimeFoulRecord) and record.extension


def test_a_paused_clock_never_runs_out() -> None:
    """The menu or the replay open: the clock stands still, and the foul waits."""
    controller, clock = at_the_break()
    clock.now += 5.0
    controller.shot_clock.pause()
    clock.now += 100.0
    controller.update()
    assert not any(isinstance(r, TimeFoulRecord) for r in controller.game.records)
    left = controller.shot_clock.left()
    assert left is not None and abs(left - 5.0) < 1e-9
    controller.shot_clock.resume()
    clock.now += 5.0
    controller.update()
    assert isinstance(controller.game.records[-1], TimeFoulRecord)


def test_the_computer_runs_no_clock() -> None:
    controller, clock = at_the_break()
    controller.computers = {Player.A: "1"}
    assert controller.shot_clock.left() is None
    clock.now += 60.0
    controller.shot_clock.frame()
    assert not any(isinstance(r, TimeFoulRecord) for r in controller.game.records)


def test_take_it_again_takes_the_time_foul_back() -> None:
    controller, clock = at_the_break("nine-ball")
    clock.now += 10.0
    controller.update()
    called = controller.game.records[-1]
    assert isinstance(called, TimeFoulRecord) and called.ruling.next_shooter is Player.B
    taken = controller.branches.take_back()
    assert isinstance(taken, TimeFoulRecord)
    assert controller.shooter is Player.A and controller.stage is Stage.PLACE
    assert controller.message.startswith("Time foul taken back: Ann to shoot it again.")
    left = controller.shot_clock.left()
    assert left is not None and abs(left - 10.0) < 1e-9  # a fresh clock
    assert len(controller.game.lines()) == 1  # kept, as a branch once play goes on
    clock.now += 10.0
    controller.update()
    assert len(controller.game.lines()) == 2


class LoadingPhysics(InProcessSimulator):
    """Physics still loading (the window's worker before its warm-up is over)."""

    loading = True

    @property
    def ready(self) -> bool:
        return not self.loading


def test_the_clock_waits_for_the_physics() -> None:
    """No turn is lost while no stroke could play out: the clock starts from full once
    the physics is ready."""
    clock = Clock()
    physics = LoadingPhysics()
    setup = GameSetup(game="ten-ball", race_to=2, seed=3, options=CLOCK)
    controller = TableController(Game(setup), physics, None, clock=clock)
    controller.lag.skip(Player.A)
    clock.now += 30.0
    controller.update()
    assert controller.shot_clock.left() == pytest.approx(10.0)
    physics.loading = False
    clock.now += 9.0
    controller.update()
    assert controller.shot_clock.left() == pytest.approx(1.0)
    assert not any(isinstance(r, TimeFoulRecord) for r in controller.game.records)
