"""Shots read back by hand (``sim.physics.systemcodec``): the very systems pooltool's own decoding
gives, to the last bit; frozen parts shared, mutable ones not; every damaged member one
clear line naming the place."""

from __future__ import annotations

import struct
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import msgpack
import msgpack_numpy
import numpy as np
import pytest

from sim.physics.pooltool_setup import pt
from sim.physics.simulate import SimulatedShot
from sim.physics.systemcodec import SharedParts, ShotDataError, system_from_bytes, system_to_bytes
from sim.play.game import Game, GameSetup, LagRecord
from sim.store.gamefile import GameFileError, load, read_pooltool_system, save
from tests.gamezip import rewrite
from tests.play.matches import lag_then_racks

pytestmark = pytest.mark.physics


@pytest.fixture(scope="module")
def played() -> Game:
    """A lag, then a whole ten-ball rack: every kind of event, pockets that hold balls."""
    return lag_then_racks(GameSetup(game="ten-ball", race_to=2, seed=3))


def simulated_shots(game: Game) -> list[SimulatedShot]:
    lags = [shot for r in game.records if isinstance(r, LagRecord) for shot in r.simulated]
    return lags + [record.simulated for record in game.shots]


def pooltools_own_reading(data: bytes) -> pt.System:
    """pooltool's System.load for msgpack (fine on bytes we wrote: it would unpickle)."""
    converter = pt.serialize.conversion.converters[pt.serialize.SerializeFormat.MSGPACK]
    return converter.structure(msgpack.unpackb(data, object_hook=msgpack_numpy.decode), pt.System)


def assert_identical(ours: Any, theirs: Any, where: str = "system") -> None:
    """Same types all the way down, same keys in the same order, same bits."""
    assert type(ours) is type(theirs), f"{where}: {type(ours).__name__} / {type(theirs).__name__}"
    if isinstance(ours, np.ndarray):
        assert (ours.dtype, ours.shape) == (theirs.dtype, theirs.shape), where
        assert ours.tobytes() == theirs.tobytes(), where
    elif isinstance(ours, float):
        assert struct.pack("<d", ours) == struct.pack("<d", theirs), where
    elif attrs.has(type(ours)):
        for field in attrs.fields(type(ours)):
            name = field.name
            assert_identical(getattr(ours, name), getattr(theirs, name), f"{where}.{name}")
    elif isinstance(ours, dict):
        assert list(ours) == list(theirs), where
        for key in ours:
            assert_identical(ours[key], theirs[key], f"{where}[{key!r}]")
    elif isinstance(ours, list | tuple):
        assert len(ours) == len(theirs), where
        for index, (mine, other) in enumerate(zip(ours, theirs, strict=True)):
            assert_identical(mine, other, f"{where}[{index}]")
    else:
        assert ours == theirs, where


def test_a_hand_read_system_is_pooltools_own_reading(played: Game) -> None:
    shared = SharedParts()  # as a game file's load shares them
    for simulated in simulated_shots(played):
        data = system_to_bytes(simulated.system)
        ours, theirs = system_from_bytes(data, shared), pooltools_own_reading(data)
        for ball_id, ball in ours.balls.items():
            rvws, motions, times = ball.history.vectorize()
            their_rvws, their_motions, their_times = theirs.balls[ball_id].history.vectorize()
            assert rvws.tobytes() == their_rvws.tobytes()
            assert motions.tobytes() == their_motions.tobytes()
            assert times.tobytes() == their_times.tobytes()
            assert [type(s.s) for s in ball.history] == [int] * len(ball.history)
            assert ball.history_cts.empty
        assert [(e.event_type, e.ids, e.time) for e in ours.events] == [
            (e.event_type, e.ids, e.time) for e in theirs.events
        ]
        assert ours.cue == theirs.cue and ours.table == theirs.table
        assert_identical(ours, theirs)
        # And equal in content to the system that was saved.
        assert ours == simulated.system
    assert any(
        event.event_type == pt.EventType.BALL_POCKET
        for simulated in simulated_shots(played)
        for event in simulated.system.events
    )


def test_the_bytes_of_a_system_read_back_pack_to_themselves(played: Game) -> None:
    """What the physics worker packs is what a save of the system read back would write
    (event times are floats both ways, though pooltool opens a shot at ``time=0``)."""
    for simulated in simulated_shots(played):
        data = system_to_bytes(simulated.system)
        assert system_to_bytes(system_from_bytes(data)) == data
    assert type(simulated_shots(played)[0].system.events[0].time) is int  # pooltool's 0


class _BackwardSet(set[str]):
    """A set that iterates in reverse sorted order: what a process's string hashing may
    do to a pocket's balls (one hash seed in some thirty did, in the fuzz test)."""

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(set.__iter__(self), reverse=True))


def test_a_pockets_balls_are_written_sorted_whatever_the_sets_order(played: Game) -> None:
    """The same system packs to the same bytes however its pockets' sets iterate, so a
    system read back (its sets built anew) packs to the bytes it was read from."""
    shot = next(
        s
        for s in reversed(simulated_shots(played))
        if sum(len(p.contains) for p in s.system.table.pockets.values()) >= 2
    )
    data = system_to_bytes(shot.system)
    backward = shot.system.copy()
    everything = {ball for pocket in backward.table.pockets.values() for ball in pocket.contains}
    pockets = [*backward.table.pockets.values()]
    pockets += [
        part
        for event in backward.events
        for agent in event.agents
        for part in (agent.initial, agent.final)
        if isinstance(part, pt.objects.Pocket)
    ]
    for pocket in pockets:  # a frozen attrs class around a set pooltool fills in place
        object.__setattr__(pocket, "contains", _BackwardSet(everything))
    assert [*pockets[0].contains] == sorted(everything, reverse=True)  # the other way round
    packed = msgpack.unpackb(system_to_bytes(backward), raw=False, strict_map_key=False)
    for pocket in packed["table"]["pockets"].values():
        assert pocket["contains"] == sorted(everything)
    pocketings = [
        agent["final"]["contains"]
        for event in packed["events"]
        for agent in event["agents"]
        if agent["agent_type"] == "pocket"
    ]
    assert pocketings and all(balls == sorted(everything) for balls in pocketings)
    assert system_to_bytes(system_from_bytes(data)) == data


def test_frozen_parts_are_shared_and_the_rest_is_not(played: Game) -> None:
    shared = SharedParts()
    first, second = (
        system_from_bytes(system_to_bytes(simulated.system), shared)
        for simulated in simulated_shots(played)[-2:]
    )
    cue, other = first.balls["cue"], second.balls["cue"]
    assert cue.params is other.params and cue.initial_orientation is other.initial_orientation
    linear = first.table.cushion_segments.linear
    assert linear["3"] is second.table.cushion_segments.linear["3"]
    assert linear is not second.table.cushion_segments.linear
    for pocket_id, pocket in first.table.pockets.items():
        assert pocket is not second.table.pockets[pocket_id]
        assert pocket.contains is not second.table.pockets[pocket_id].contains
    assert cue.state is not other.state and cue.state.rvw.flags.writeable
    cue.state.rvw[0, 0] = 99.0  # a loaded system is the caller's to change
    assert other.state.rvw[0, 0] != 99.0
    assert cue.history.states[0].rvw.base is cue.history.states[1].rvw.base  # as pooltool


def test_a_shot_pooltool_saved_with_its_continuized_history(played: Game, tmp_path: Path) -> None:
    system = played.shots[0].simulated.system.copy()
    pt.continuize(system, inplace=True)
    path = tmp_path / "break.msgpack"
    system.save(path)  # pooltool's own file
    read, _spec = read_pooltool_system(path)
    assert not read.balls["cue"].history_cts.empty
    assert_identical(read, pooltools_own_reading(path.read_bytes()))


def _first_ball(system: dict[str, Any]) -> dict[str, Any]:
    ball: dict[str, Any] = next(iter(system["balls"].values()))
    return ball


def _set_rvw(value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(system: dict[str, Any]) -> None:
        _first_ball(system)["state"]["rvw"] = value

    return edit


def _nan_in_history(system: dict[str, Any]) -> None:
    rvws = _first_ball(system)["history"][0]
    data = bytearray(rvws[b"data"])
    data[8:16] = struct.pack("<d", float("nan"))
    rvws[b"data"] = bytes(data)


def _times_backwards(system: dict[str, Any]) -> None:
    times = _first_ball(system)["history"][2]
    values = np.frombuffer(times[b"data"], dtype="<f8").copy()
    values[1] = -1.0
    times[b"data"] = values.tobytes()


def _motion(value: float) -> Callable[[dict[str, Any]], None]:
    def edit(system: dict[str, Any]) -> None:
        motions = _first_ball(system)["history"][1]
        values = np.frombuffer(motions[b"data"], dtype="<f8").copy()
        values[0] = value
        motions[b"data"] = values.tobytes()

    return edit


def _swap_agents(system: dict[str, Any]) -> None:
    stroke = next(e for e in system["events"] if e["event_type"] == "stick_ball")
    stroke["agents"].reverse()  # (ball, cue): not pooltool's order


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(system: dict[str, Any]) -> None:
        node: Any = system
        for key in path[:-1]:
            node = _first_ball(node) if key == "first-ball" else node[key]
        node[path[-1]] = value

    return edit


def _delete(path: list[str]) -> Callable[[dict[str, Any]], None]:
    def edit(system: dict[str, Any]) -> None:
        node: Any = system
        for key in path[:-1]:
            node = _first_ball(node) if key == "first-ball" else node[key]
        del node[path[-1]]

    return edit


DAMAGED: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("missing-events", _delete(["events"]), "system: missing 'events'"),
    ("unknown-key", _set(["balls_cts"], {}), "system: unknown key 'balls_cts'"),
    ("missing-state", _delete(["first-ball", "state"]), "['cue']: missing 'state'"),
    ("rvw-shape", _set_rvw({**msgpack_numpy.encode(np.zeros((2, 3)))}), "a 3 x 3 array"),
    ("rvw-ints", _set_rvw(msgpack_numpy.encode(np.zeros((3, 3), int))), "array type '<i8'"),
    ("rvw-short-data", _set_rvw({**msgpack_numpy.encode(np.zeros((3, 3))), b"data": b"x"}), "fit"),
    ("rvw-not-array", _set_rvw([[0.0] * 3] * 3), "rvw: expected an array, got a list"),
    ("nan-in-history", _nan_in_history, "history[0]: not all finite numbers"),
    ("times-backwards", _times_backwards, "history[2]: times must"),
    ("motion-state-7", _motion(7.0), "history[1]: not a pooltool motion state"),
    ("motion-state-half", _motion(1.5), "history[1]: not a pooltool motion state"),
    ("state-s", _set(["first-ball", "state", "s"], "rolling"), "state.s: not a pooltool"),
    ("negative-time", _set(["t"], -1.0), "t: a time cannot be negative"),
    ("t-string", _set(["t"], "1.5"), "t: expected a number, got str"),
    (
        "t-empty-scalar",
        _set(["t"], {b"nd": False, b"type": b"<f8", b"kind": b"", b"data": b""}),
        "t: a number of 0 bytes",
    ),
    ("ball-id", _set(["first-ball", "id"], "17"), "['cue'].id: '17' under another id"),
    ("ballset", _set(["first-ball", "ballset"], {"name": "../.."}), "unknown ball set '../..'"),
    ("params", _set(["first-ball", "params", "u_s"], -0.2), "u_s must be positive"),
    ("cue-ball", _set(["cue", "cue_ball_id"], "ghost"), "no ball 'ghost'"),
    ("event-type", _set(["events", 1, "event_type"], "teleport"), "unknown value 'teleport'"),
    ("agents-swapped", _swap_agents, "agents[0].agent_type: expected cue, got ball"),
    ("table-type", _set(["table", "table_type"], 3), "table.table_type: unknown value 3"),
]


def _last_shot_member(contents: dict[str, bytes]) -> str:
    return max(name for name in contents if name.startswith("shots/"))


@pytest.fixture(scope="module")
def saved(played: Game, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("codec") / "match.poolsim"
    save(played, path)
    return path


@pytest.mark.parametrize(("name", "edit", "message"), DAMAGED, ids=[d[0] for d in DAMAGED])
def test_a_damaged_shot_is_one_clear_line(
    saved: Path,
    tmp_path: Path,
    name: str,
    edit: Callable[[dict[str, Any]], None],
    message: str,
) -> None:
    def damage(contents: dict[str, bytes]) -> None:
        member = _last_shot_member(contents)
        system = msgpack.unpackb(contents[member], strict_map_key=False)
        edit(system)
        contents[member] = msgpack.packb(system)

    bad = rewrite(saved, tmp_path / f"{name}.poolsim", members=damage)
    with pytest.raises(GameFileError) as caught:
        load(bad)
    text = str(caught.value)
    assert "\n" not in text and text.startswith(f"{bad}: records[")
    assert ".system: " in text and message.removeprefix("system: ") in text, text


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "not msgpack data (Unpack failed: incomplete input)"),
        (b"\xc1", "not msgpack data"),
        (msgpack.packb([1, 2]), "expected a map, got a list"),
        (msgpack.packb({"cue": 1}), "missing 'balls'"),
    ],
)
def test_bytes_that_are_no_system(data: bytes, message: str) -> None:
    with pytest.raises(ShotDataError, match=message.replace("(", r"\(").replace(")", r"\)")):
        system_from_bytes(data)


def test_a_truncated_shot(saved: Path, tmp_path: Path) -> None:
    def truncate(contents: dict[str, bytes]) -> None:
        member = _last_shot_member(contents)
        contents[member] = contents[member][: len(contents[member]) // 2]

    with pytest.raises(GameFileError, match=r"\.system: not msgpack data"):
        load(rewrite(saved, tmp_path / "cut.poolsim", members=truncate))


def test_saving_a_loaded_game_writes_its_shots_as_read(saved: Path, tmp_path: Path) -> None:
    """The shots of a loaded game are not packed again (the first autosave after resuming
    a long match would be): the members are written back byte for byte."""
    again = tmp_path / "again.poolsim"
    save(load(saved), again)
    with zipfile.ZipFile(saved) as before, zipfile.ZipFile(again) as after:
        shots = [name for name in before.namelist() if name.startswith("shots/")]
        assert shots and sorted(shots) == sorted(
            name for name in after.namelist() if name.startswith("shots/")
        )
        assert all(before.read(name) == after.read(name) for name in shots)
