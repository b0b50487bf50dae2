"""The desktop's logic without a window: stages of a turn, ball in hand, calls, the
stroke through the physics, previews, watching, choices, the lag.

The physics is the in-process simulator (no child process to start), except where the
test is about the worker process itself: one that dies, one left with a shot nobody
collects."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rules import CUE, Choice, Declaration, Phase, Player
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.physics.simulators.simulator import Simulator
from sim.physics.simulators.worker import PhysicsWorker
from sim.play.game import Game, GameError, GameSetup, ShotRecord
from sim.play.said import record_line
from sim.play.table.controller import TableController
from sim.play.table.turn import Stage
from sim.store.autosave import Autosave
from sim.store.gamefile import load

pytestmark = pytest.mark.physics


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def worker() -> Iterator[InProcessSimulator]:
    physics = InProcessSimulator()
    yield physics
    physics.close()


@pytest.fixture
def process() -> Iterator[PhysicsWorker]:
    physics = PhysicsWorker(warm_up=False).start()
    yield physics
    physics.close()


def run_until(
    controller: TableController, clock: Clock, stages: set[Stage], limit: float = 60.0
) -> None:
    """Step the controller (with a fake clock that also lets shots play out) until it
    reaches one of ``stages``."""
    import time

    deadline = time.monotonic() + limit
    while controller.stage not in stages:
        assert time.monotonic() < deadline, f"stuck at {controller.stage}"
        clock.now += 0.05
        controller.update()
        if controller.stage is Stage.SIMULATING:
            time.sleep(0.005)


def new_controller(
    worker: Simulator, tmp_path: Path, game: str = "ten-ball"
) -> tuple[TableController, Clock]:
    clock = Clock()
    match = Game(GameSetup(game=game, race_to=2, seed=3))
    controller = TableController(match, worker, Autosave(tmp_path / "auto.poolsim"), clock=clock)
    return controller, clock


def test_break_from_hand_then_the_next_turn(worker: InProcessSimulator, tmp_path: Path) -> None:
    controller, clock = new_controller(worker, tmp_path)
    assert controller.stage is Stage.LAG
    controller.lag.skip(Player.A)
    assert controller.stage is Stage.PLACE and controller.shooter is Player.A
    state = controller.state
    assert state is not None and state.phase is Phase.BREAK
    # In hand behind the head string: a spot in front of it is refused and ignored.
    cue = controller.cue_ball()
    assert cue is not None and state.table.in_kitchen(cue)
    assert controller.legal_placement((0.6, 1.0)) is not None
    assert not controller.move_cue_ball((0.6, 1.0))
    assert controller.cue_ball() == cue
    assert controller.move_cue_ball((0.5, 0.4))
    controller.confirm_placement()
    assert controller.stage is Stage.AIM
    controller.aim_at(state.balls["1"])
    controller.set_power(0.9)
    controller.strike()
    assert controller.stage is Stage.SIMULATING
    run_until(controller, clock, {Stage.WATCH})
    watching = controller.watching
    assert watching is not None and watching.duration > 1.0
    # The referee speaks when the balls stop, not while the shot plays out.
    assert controller.last_ruling is None and controller.reasons == ()
    run_until(controller, clock, {Stage.AIM, Stage.PLACE, Stage.CHOOSE})
    assert controller.last_ruling is not None and controller.last_ruling.turn == 0
    assert controller.reasons == controller.last_ruling.reasons
    controller.flush()
    assert len(load(tmp_path / "auto.poolsim").records) == 2  # the agreed breaker, the break


class KeptInMemory:
    """An autosaver that is not the store's: the controller needs only the protocol."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.games: list[Game] = []

    def archive(self) -> Path | None:
        self.calls.append("archive")
        return None

    def save(self, game: Game) -> None:
        self.calls.append("save")
        self.games.append(game)


def test_any_autosaver_keeps_the_game_after_every_step(worker: InProcessSimulator) -> None:
    """The game that was there is put aside once, before this one's first save."""
    clock = Clock()
    autosaver = KeptInMemory()
    match = Game(GameSetup(game="rotation", race_to=2, seed=3))
    controller = TableController(match, worker, autosaver, clock=clock)
    controller.lag.skip(Player.A)
    controller.confirm_placement()
    controller.strike()
    run_until(controller, clock, {Stage.WATCH})
    controller.flush()
    assert autosaver.calls == ["archive", "save", "save"]
    assert [len(game.records) for game in autosaver.games] == [1, 2]


def test_refusals_change_nothing(worker: InProcessSimulator, tmp_path: Path) -> None:
    controller, _clock = new_controller(worker, tmp_path)
    with pytest.raises(GameError, match="no breaker to choose"):
        controller.lag.choose_breaker(Player.A)
    controller.lag.skip(Player.B)
    with pytest.raises(GameError, match="no call is needed"):
        controller.call_shot("1", "rt")
    with pytest.raises(GameError, match="cannot be declared"):
        controller.declare(Declaration.PUSH_OUT)
    with pytest.raises(GameError, match="the cue ball is in hand: put it down first"):
        controller.strike()  # still placing the cue ball
    with pytest.raises(GameError, match="no choice"):
        controller.choose(Choice.PASS)
    assert controller.stage is Stage.PLACE and len(controller.game.records) == 1


def test_a_resting_aim_is_simulated_ahead_and_the_stroke_is_instant(
    worker: InProcessSimulator, tmp_path: Path
) -> None:
    controller, clock = new_controller(worker, tmp_path)
    controller.lag.skip(Player.A)
    controller.confirm_placement()
    controller.set_power(0.7)
    clock.now += 1.0
    controller.update()  # the aim has rested: a preview goes to the simulator
    controller.update()  # ... and comes back (in this process, at the next poll)
    controller.strike()
    controller.update()
    assert controller.stage is Stage.WATCH
    assert controller.latencies[-1] == 0.0  # no clock time passed between stroke and motion


def test_tracking_lines_come_from_the_preview_and_go_with_any_change(
    worker: InProcessSimulator, tmp_path: Path
) -> None:
    controller, clock = new_controller(worker, tmp_path)
    controller.lag.skip(Player.A)
    controller.confirm_placement()
    controller.update()
    clock.now += 1.0
    controller.update()  # the aim has rested: previewed (off: no lines, nothing pending)
    assert controller.preview.lines is None and not controller.preview.pending
    controller.tracking = True  # on: the preview already back gives them at once
    controller.update()
    lines = controller.preview.lines
    preview = worker.preview_result()
    assert lines is not None and preview is not None
    assert lines.cue.end == preview.shot.after[CUE] and lines.object_ball is not None
    for change in (
        lambda: controller.turn(0.5),
        lambda: controller.set_power(0.6),
        lambda: controller.set_tip(0.0, 0.2),
        lambda: controller.set_elevation(5.0),
    ):
        change()
        assert controller.preview.lines is None and controller.preview.pending
        controller.update()  # not rested yet: still none
        assert controller.preview.lines is None
        clock.now += 1.0
        controller.update()
        controller.update()
        assert controller.preview.lines is not None and not controller.preview.pending
    lines = controller.preview.lines
    struck = worker.preview_result()
    assert struck is not None
    preview_of_stroke = struck.shot
    controller.strike()  # the previewed stroke: the shot played is the lines' shot
    assert controller.preview.lines is None  # not while the shot plays
    controller.update()
    assert controller.stage is Stage.WATCH
    record = controller.watching.record if controller.watching else None
    assert isinstance(record, ShotRecord) and lines is not None
    assert record.simulated is preview_of_stroke  # the preview's own shot, not another
    assert record.simulated.after[CUE] == lines.cue.end  # so the lines end there, to the bit


def test_the_lag_then_the_breaker_choice(worker: InProcessSimulator, tmp_path: Path) -> None:
    """GEN-2: both players set a lag stroke; both balls go together; the winner chooses."""
    controller, clock = new_controller(worker, tmp_path, game="rotation")
    for speed_power in (0.33, 0.36, 0.39, 0.42, 0.45):
        assert controller.stage is Stage.LAG and controller.shooter is Player.A
        assert controller.cue_ball() == controller.lag.start()
        controller.set_power(speed_power)
        controller.strike()  # A's lag
        assert controller.shooter is Player.B
        start_b = controller.lag.start()
        assert start_b[0] > controller.game.setup.spec.width / 2
        controller.set_power(speed_power + 0.02)  # the same stroke would tie: replayed
        controller.strike()  # B's lag: both are simulated
        run_until(controller, clock, {Stage.WATCH})
        assert len(controller.watching.timelines) == 2  # type: ignore[union-attr]
        run_until(controller, clock, {Stage.LAG, Stage.BREAKER})
        if controller.stage is Stage.BREAKER:
            break
    else:
        pytest.fail("no lag was won")
    winner = controller.shooter
    with pytest.raises(GameError, match="first the choice"):
        controller.strike()  # Space before choosing who breaks says what is awaited
    assert controller.spoken is not None
    assert "chooses who breaks" in record_line(controller.spoken, controller.game.setup)
    controller.lag.choose_breaker(winner.other)
    assert controller.stage is Stage.PLACE
    assert controller.shooter is winner.other
    # The referee's line says the choice now (it said "chooses who breaks" through the
    # break, seen at the table under Xvfb).
    breaker = controller.game.setup.name(winner.other)
    assert controller.spoken is not None
    assert record_line(controller.spoken, controller.game.setup) == f"{breaker} breaks."


def test_calls_and_declarations_in_ten_ball(worker: InProcessSimulator, tmp_path: Path) -> None:
    controller, clock = new_controller(worker, tmp_path)
    controller.lag.skip(Player.A)
    controller.confirm_placement()
    controller.set_power(0.95)
    controller.strike()
    run_until(controller, clock, {Stage.WATCH})
    run_until(controller, clock, {Stage.AIM, Stage.PLACE, Stage.CHOOSE})
    state = controller.state
    assert state is not None
    if controller.stage is Stage.CHOOSE:
        pytest.skip("the break ended in a choice")
    assert state.phase is Phase.AFTER_BREAK
    assert controller.needs_call
    assert controller.can_declare(Declaration.PUSH_OUT) and controller.can_declare(
        Declaration.SAFETY
    )
    lowest = state.lowest
    assert lowest is not None
    controller.call_shot(lowest, "rt")
    assert controller.stroke().call is not None
    controller.declare(Declaration.PUSH_OUT)
    assert controller.stroke().call is None and not controller.needs_call
    with pytest.raises(GameError, match="not on the table"):
        controller.call_shot(CUE, "rt")


def test_gen_17_the_shot_clock_runs_from_the_start_of_the_turn(
    worker: InProcessSimulator, tmp_path: Path
) -> None:
    """A stroke after the clock ran out is a shot-clock foul; the clock is in the record."""
    from rules import FoulCode, Options

    clock = Clock()
    setup = GameSetup(game="rotation", race_to=2, seed=3, options=Options(shot_clock_s=10.0))
    controller = TableController(Game(setup), worker, None, clock=clock)
    controller.lag.skip(Player.A)
    controller.confirm_placement()
    controller.set_power(0.9)
    clock.now += 4.0
    left = controller.shot_clock.left()
    assert left is not None and abs(left - 6.0) < 1e-9
    clock.now += 8.0
    controller.strike()
    run_until(controller, clock, {Stage.WATCH})
    run_until(controller, clock, {Stage.AIM, Stage.PLACE, Stage.CHOOSE})
    ruling = controller.last_ruling
    assert ruling is not None and FoulCode.SHOT_CLOCK in ruling.foul_codes
    record = controller.game.shots[-1]
    assert record.stroke.clock_s is not None and abs(record.stroke.clock_s - 12.0) < 1e-9


def test_a_turn_that_starts_behind_the_menu_starts_its_clock_paused(
    worker: InProcessSimulator, tmp_path: Path
) -> None:
    """The menu opened while a shot played out: the next turn began behind the menu, and
    closing it credited the whole pause to that turn, so the clock showed more than its
    limit (35 s + the time the shot took to finish)."""
    from rules import Options

    clock = Clock()
    setup = GameSetup(game="rotation", race_to=2, seed=3, options=Options(shot_clock_s=10.0))
    controller = TableController(Game(setup), worker, None, clock=clock)
    controller.lag.skip(Player.A)
    controller.confirm_placement()
    controller.strike()
    run_until(controller, clock, {Stage.WATCH})
    controller.shot_clock.pause()  # the menu opens as the balls roll
    run_until(controller, clock, {Stage.AIM, Stage.PLACE, Stage.CHOOSE})
    clock.now += 30.0  # the menu stays open a while
    controller.shot_clock.resume()
    left = controller.shot_clock.left()
    assert left is not None and abs(left - 10.0) < 1e-9


def test_a_physics_process_that_dies_is_restarted_and_the_shot_goes_on(tmp_path: Path) -> None:
    clock = Clock()
    physics = PhysicsWorker(warm_up=False).start()
    try:
        controller = TableController(Game(GameSetup(seed=4)), physics, None, clock=clock)
        controller.lag.skip(Player.A)
        controller.confirm_placement()
        controller.set_power(0.9)
        controller.strike()
        physics._process.kill()  # the physics process dies with the stroke in flight
        physics._process.join()
        run_until(controller, clock, {Stage.WATCH}, limit=120.0)
        assert "restarted" in controller.message
        assert controller.worker is not physics and controller.worker.alive
    finally:
        controller.worker.close()
        physics.close()


def test_a_failed_preview_does_not_cancel_the_stroke(
    worker: InProcessSimulator, tmp_path: Path
) -> None:
    """Only an error about the stroke in flight abandons it."""
    from sim.physics.simulators.simulator import ShotFailed

    controller, clock = new_controller(worker, tmp_path)
    controller.lag.skip(Player.A)
    controller.confirm_placement()
    controller.strike()
    flight = controller.waiting
    assert flight is not None
    stale = ShotFailed(job=10_000, message="a stale preview failed")
    original = worker.poll
    # A frame in which only the stale failure arrives (this simulator would also hand
    # the stroke back at once: the worker process is slower than a frame).
    worker.poll = lambda: [stale]  # type: ignore[method-assign]
    try:
        controller.update()
    finally:
        worker.poll = original  # type: ignore[method-assign]
    assert controller.waiting is not None
    run_until(controller, clock, {Stage.WATCH})


def test_a_game_taken_off_the_table_mid_shot_leaves_nothing_in_the_worker(
    process: PhysicsWorker, tmp_path: Path
) -> None:
    """New game while the physics works: the shot's result is dropped when it comes."""
    import time

    from sim.physics.simulators.simulator import ShotReady

    worker = process
    controller, _clock = new_controller(worker, tmp_path)
    controller.lag.skip(Player.A)
    controller.confirm_placement()
    controller.set_power(0.9)
    controller.strike()
    assert controller.waiting is not None
    jobs = controller.waiting.jobs
    controller.close()
    assert controller.waiting is None
    arrived: set[int] = set()
    deadline = time.monotonic() + 60
    while not set(jobs) <= arrived and time.monotonic() < deadline:
        arrived |= {r.job for r in worker.poll() if isinstance(r, ShotReady)}
        time.sleep(0.01)
    assert set(jobs) <= arrived
    assert all(worker.result(job) is None for job in jobs)
