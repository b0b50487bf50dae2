"""A shot from the physics worker is saved with the worker's own bytes: the system it
packed travels with the shot (``SimulatedShot.packed``) and the game file writes it as it
came, instead of packing the system the window read back a second time. The file is the
same to the bit as one saved the old way."""

from __future__ import annotations

import datetime as dt
import time
import types
import zipfile
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from rules import Player
from sim.physics import systemcodec
from sim.physics.simulate import CueAction, aim_towards
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.physics.simulators.simulator import ShotRequest, ShotResult
from sim.physics.simulators.worker import PhysicsWorker
from sim.physics.systemcodec import system_from_bytes, system_to_bytes
from sim.play.game import Game, GameSetup, ShotRecord, Stroke
from sim.store import gamefile
from sim.store.gamefile import load, save

pytestmark = pytest.mark.physics


@pytest.fixture(scope="module")
def worker() -> Iterator[PhysicsWorker]:
    physics = PhysicsWorker(warm_up=False).start()
    yield physics
    physics.close()


def break_through(
    simulator: PhysicsWorker | InProcessSimulator,
) -> tuple[Game, ShotResult]:
    """A rotation match whose break was simulated by ``simulator``."""
    game = Game(GameSetup(game="rotation", race_to=2, seed=5))
    game.start(Player.A)
    state = game.rack
    assert state is not None
    geometry = state.table
    placement = (geometry.width * 0.5, geometry.head_string_y * 0.8)
    action = CueAction(7.0, aim_towards(placement, state.balls["1"]))
    stroke = Stroke(action=action, placement=placement)
    prepared = game.prepare(stroke)
    request = ShotRequest.of(game.setup.table.value, prepared.start, prepared.stroke.action)
    result = simulator.wait(simulator.shoot(request))
    game.commit(prepared, result.shot)
    return game, result


@pytest.fixture(scope="module")
def broken(worker: PhysicsWorker) -> tuple[Game, ShotResult]:
    return break_through(worker)


def test_the_worker_bytes_are_kept_and_read_back_pack_to_themselves(
    broken: tuple[Game, ShotResult],
) -> None:
    _game, result = broken
    packed = result.shot.packed
    assert packed is not None
    assert system_to_bytes(result.shot.system) == packed
    assert system_to_bytes(system_from_bytes(packed)) == packed


def test_the_worker_and_the_in_process_simulator_give_the_same_shot(
    broken: tuple[Game, ShotResult],
) -> None:
    _game, from_worker = broken
    _game, here = break_through(InProcessSimulator())
    assert here.request == from_worker.request
    assert here.shot.facts == from_worker.shot.facts
    assert here.shot.after == from_worker.shot.after
    assert system_to_bytes(here.shot.system) == from_worker.shot.packed


def test_a_save_writes_the_worker_bytes_without_packing_again(
    broken: tuple[Game, ShotResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, result = broken

    def no_packing(_system: object) -> bytes:
        raise AssertionError("a worker's shot was packed again")

    monkeypatch.setattr(systemcodec, "system_to_bytes", no_packing)  # the one packer
    path = tmp_path / "worker.poolsim"
    save(game, path)
    with zipfile.ZipFile(path) as zf:
        shots = [name for name in zf.namelist() if name.startswith("shots/")]
        assert [zf.read(name) for name in shots] == [result.shot.packed]
    assert load(path).shots[-1].simulated.packed == result.shot.packed


def test_the_file_is_bit_identical_to_one_saved_the_old_way(
    broken: tuple[Game, ShotResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old way: the system the window read back, packed again by the save."""
    game, _result = broken
    the_old_way = game.snapshot()
    for node in the_old_way.current.path():
        if isinstance(node.record, ShotRecord):
            unpacked = attrs.evolve(node.record.simulated, packed=None)
            node.record = attrs.evolve(node.record, simulated=unpacked)
    assert all(record.simulated.packed is None for record in the_old_way.shots)

    # Both saved at the same moment: the file's "created" and the members' times agree.
    class Frozen(dt.datetime):
        @classmethod
        def now(cls, tz: dt.tzinfo | None = None) -> Frozen:
            return cls(2026, 12, 1, 12, 0, 0, tzinfo=tz)

    monkeypatch.setattr(gamefile, "dt", types.SimpleNamespace(datetime=Frozen, UTC=dt.UTC))
    moment = time.mktime((2026, 12, 1, 12, 0, 0, 0, 0, -1))
    clock = types.SimpleNamespace(time=lambda: moment, localtime=time.localtime)
    monkeypatch.setattr(zipfile, "time", clock)
    save(game, tmp_path / "kept.poolsim")
    save(the_old_way, tmp_path / "packed-again.poolsim")
    kept = (tmp_path / "kept.poolsim").read_bytes()
    assert kept == (tmp_path / "packed-again.poolsim").read_bytes()
