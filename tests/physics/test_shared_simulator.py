"""Shots shared with helper processes (sim.physics.simulators.shared) come back as the
same bits as shots simulated here, and a helper that falls silent costs its patience
once, then nothing."""

from __future__ import annotations

import time

import pytest

from rules import CUE
from rules.geometry import TableGeometry
from sim.physics.facts import first_heading
from sim.physics.racks import opening_position
from sim.physics.simulate import CueAction, SimulatedShot, aim_towards, simulate_shot
from sim.physics.simulators import shared
from sim.physics.simulators.shared import (
    HelperLink,
    SharedSimulator,
    new_links,
    start_helper,
    stop_helper,
)
from sim.physics.simulators.simulator import ShotReady, ShotRequest
from sim.physics.table import table_spec

pytestmark = pytest.mark.physics


def requests() -> list[ShotRequest]:
    """Breaks of a full rack and a 10-ball rack at a few paces and aims, with spin."""
    geometry = TableGeometry()
    asked = []
    for game, speed, a in (("rotation", 8.0, 0.0), ("ten-ball", 7.0, 0.2), ("rotation", 5.5, -0.3)):
        balls = opening_position(game, geometry, 3)
        balls[CUE] = (geometry.width / 2 - 0.15, 0.45)
        for turn in (-1.0, 0.0, 1.5):
            aim = aim_towards(balls[CUE], balls["1"]) + turn
            asked.append(ShotRequest.of("9ft", balls, CueAction(speed, aim, a=a)))
    return asked


def collected(simulator: SharedSimulator, asked: list[ShotRequest]) -> list[SimulatedShot]:
    """Each request's shot, the simulator polled until all are in (as the search does)."""
    jobs = [simulator.shoot(request) for request in asked]
    shots: dict[int, SimulatedShot] = {}
    deadline = time.monotonic() + 300
    while len(shots) < len(jobs) and time.monotonic() < deadline:
        for reply in simulator.poll():
            assert isinstance(reply, ShotReady), reply
            result = simulator.result(reply.job)
            assert result is not None
            shots[reply.job] = result.shot
        time.sleep(0.001)
    return [shots[job] for job in jobs]


def helped(link: HelperLink) -> SharedSimulator:
    """A simulator lending to the helper on ``link``, once that helper is warmed up."""
    simulator = SharedSimulator([link])
    deadline = time.monotonic() + 300  # a cold machine compiles first
    while not simulator.helpers_ready and time.monotonic() < deadline:
        simulator.poll()
        time.sleep(0.05)
    assert simulator.helpers_ready == 1
    return simulator


def assert_same(shot: SimulatedShot, request: ShotRequest) -> None:
    here = simulate_shot(table_spec(request.table), dict(request.positions), request.action)
    assert shot.facts == here.facts
    assert (shot.before, shot.after, shot.stopped_early) == (here.before, here.after, False)
    assert len(shot.system.events) == len(here.system.events)
    for ball in here.system.balls:
        assert first_heading(shot.system, ball) == first_heading(here.system, ball)


def test_shots_a_helper_simulated_are_the_bits_simulated_here() -> None:
    (link,) = new_links(1)
    process = start_helper(link)
    try:
        simulator = helped(link)
        asked = requests()
        shots = collected(simulator, asked)
        assert simulator.lent > 0  # the helper had its share
        for shot, request in zip(shots, asked, strict=True):
            assert_same(shot, request)
    finally:
        stop_helper(process, link)


def test_a_silent_helper_is_waited_for_once_and_its_shots_simulated_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A helper that said it was ready and then never answers (no process behind its
    queues): its shots are taken back after its patience and it is lent nothing more."""
    monkeypatch.setattr(shared, "HELPER_PATIENCE", 0.5)
    (link,) = new_links(1)
    link.replies.put(("progress", 0, (1, 1, "done")))
    simulator = SharedSimulator([link])
    deadline = time.monotonic() + 10
    while not simulator.helpers_ready and time.monotonic() < deadline:
        simulator.poll()
    asked = requests()[:3]
    shots = collected(simulator, asked)
    assert simulator.helpers_ready == 0 and simulator.lent == 0
    for shot, request in zip(shots, asked, strict=True):
        assert_same(shot, request)
    collected(simulator, requests()[3:5])
    sent = []
    while not link.requests.empty():
        sent.append(link.requests.get(timeout=1))
    assert len(sent) == shared.IN_FLIGHT  # lent once, then nothing more
