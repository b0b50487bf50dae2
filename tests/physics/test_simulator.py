"""The in-process simulator answers as the worker process does (sim.physics.simulators.simulator):
nothing before a poll, a result handed over once, only the newest preview simulated, a
struck preview kept as the shot's job, forgotten jobs dropped, failures told."""

from __future__ import annotations

import pytest

from rules import CUE
from rules.geometry import TableGeometry
from sim.physics.racks import opening_position
from sim.physics.simulate import CueAction, aim_towards, simulate_shot
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.physics.simulators.simulator import ShotFailed, ShotReady, ShotRequest
from sim.physics.table import table_spec

pytestmark = pytest.mark.physics


def break_request(speed: float = 8.0) -> ShotRequest:
    geometry = TableGeometry()
    balls = opening_position("ten-ball", geometry, 3)
    balls[CUE] = (geometry.width / 2 - 0.1, 0.45)
    return ShotRequest.of("9ft", balls, CueAction(speed, aim_towards(balls[CUE], balls["1"])))


def test_a_shot_comes_back_after_a_poll_once_and_as_simulated_here() -> None:
    simulator = InProcessSimulator()
    request = break_request()
    job = simulator.shoot(request)
    assert simulator.result(job) is None  # nothing is answered before a poll
    assert simulator.poll() == [ShotReady(job)]
    result = simulator.result(job)
    assert result is not None and result.job == job and result.request == request
    assert simulator.result(job) is None  # handed over once
    direct = simulate_shot(table_spec("9ft"), dict(request.positions), request.action)
    assert result.shot.facts == direct.facts and result.shot.after == direct.after
    assert result.shot.packed is None  # never packed: a save packs it once
    assert simulator.poll() == []


def test_only_the_newest_preview_is_simulated_and_striking_it_takes_its_result() -> None:
    simulator = InProcessSimulator()
    stale, resting = break_request(6.0), break_request(7.0)
    simulator.preview(stale)
    simulator.preview(resting)
    simulator.preview(resting)  # the same aim again asks for nothing more
    replies = simulator.poll()
    assert len(replies) == 1 and isinstance(replies[0], ShotReady)
    job = simulator.shoot(resting)
    assert job == replies[0].job  # the preview became the shot's job
    result = simulator.result(job)  # already there: no poll needed
    assert result is not None and result.request == resting


def test_a_preview_not_struck_is_dropped_when_a_newer_one_comes() -> None:
    simulator = InProcessSimulator()
    simulator.preview(break_request(6.0))
    (first,) = simulator.poll()
    assert isinstance(first, ShotReady)
    simulator.preview(break_request(7.0))
    assert simulator.result(first.job) is None


def test_forgotten_shots_are_dropped_simulated_or_not() -> None:
    simulator = InProcessSimulator()
    done = simulator.shoot(break_request(6.0))
    simulator.poll()
    waiting = simulator.shoot(break_request(7.0))
    simulator.forget([done, waiting])
    assert simulator.poll() == [ShotReady(waiting)]  # announced, as the worker does
    assert simulator.result(done) is None and simulator.result(waiting) is None


def test_a_shot_the_physics_refuses_is_told_and_the_simulator_goes_on() -> None:
    simulator = InProcessSimulator()
    off_the_bed = ShotRequest.of("9ft", {CUE: (-1.0, 0.5)}, CueAction(2.0, 90.0))
    bad = simulator.shoot(off_the_bed)
    good = simulator.shoot(break_request())
    failed, ready = simulator.poll()
    assert isinstance(failed, ShotFailed) and failed.job == bad and failed.message
    assert ready == ShotReady(good) and simulator.result(good) is not None
    assert simulator.result(bad) is None and simulator.alive
    with pytest.raises(RuntimeError):
        simulator.wait(simulator.shoot(off_the_bed))


def test_wait_simulates_now_and_restart_gives_a_fresh_one() -> None:
    simulator = InProcessSimulator()
    assert simulator.ready and simulator.progress is None
    request = break_request()
    assert simulator.wait(simulator.shoot(request)).request == request
    simulator.shoot(request)
    fresh = simulator.restart()
    assert not simulator.alive and fresh.alive and fresh is not simulator
    assert fresh.poll() == []  # the old one's jobs went with it
