"""Game files simulated with another arithmetic (:mod:`sim.store.verify`): the two saved
by poolsim on another computer on 2026-12-01 (shared/games, copied into
tests/data/elsewhere) and the project's duel file verify, their differing shots
judged event by event; a doctored copy of each is refused; version 4 files record the
arithmetic, and a shot keeps its own through a save."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import attrs
import pytest

from sim.numerics import Arithmetic, here
from sim.physics.systemcodec import system_from_bytes, system_to_bytes
from sim.play.game import ShotRecord
from sim.store.gamefile import VERSION, load, save
from sim.store.verify import verify_game

pytestmark = pytest.mark.physics
ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "tests" / "data" / "games"
ELSEWHERE = [
    GAMES.parent / "elsewhere" / "selfplay-ten-ball-seed31.poolsim",
    GAMES.parent / "elsewhere" / "selfplay-rotation-seed32.poolsim",
    GAMES / "duel-ten-ball-won.poolsim",
]


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from sim.cli import main; main()", "verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.parametrize("path", ELSEWHERE, ids=lambda p: p.name)
def test_a_file_from_another_arithmetic_verifies_with_its_own_verdict(path: Path) -> None:
    checks = verify_game(load(path))
    assert all(check.consistent for check in checks)
    others = [check for check in checks if not check.identical]
    assert others, "these files were simulated with OpenBLAS's SkylakeX dot products"
    assert all(check.arithmetic is None and check.events is not None for check in others)
    result = _verify(path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "DIFFERS" not in result.stdout
    *_, note, last = result.stdout.splitlines()
    assert note.startswith(f"{len(others)} shots simulated with an arithmetic the file does not")
    assert note.endswith(f"this computer's: {here().words()}")
    assert last.endswith(
        f"{len(checks) - len(others)} bit-identical, {len(others)} from another arithmetic with "
        "every event consistent with the physics (largest difference "
        f"{max(c.events.largest_difference for c in others if c.events):.2g})"
    )


def _doctored(source: Path, target: Path) -> Path:
    """``source`` with one ball of its longest shot a micrometre off its path at one
    event: a change the file's own checks at loading cannot see (the event does not name
    the ball, and its history goes on from there as stored)."""
    with zipfile.ZipFile(source) as zf:
        contents = {name: zf.read(name) for name in zf.namelist()}
    name = max((n for n in contents if n.startswith("shots/")), key=lambda n: len(contents[n]))
    system = system_from_bytes(contents[name])
    k = len(system.events) // 2
    named = set(system.events[k].ids)
    ball = next(b for b in system.balls.values() if b.id not in named)
    ball.history[k].rvw[0][1] += 1e-6
    contents[name] = system_to_bytes(system)
    with zipfile.ZipFile(target, "w") as zf:
        for member, data in contents.items():
            zf.writestr(member, data)
    return target


@pytest.mark.parametrize("path", ELSEWHERE, ids=lambda p: p.name)
def test_a_doctored_copy_is_refused(path: Path, tmp_path: Path) -> None:
    result = _verify(_doctored(path, tmp_path / path.name))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "from another arithmetic, but event" in result.stdout
    assert "the balls do not leave it as stored" in result.stdout
    assert result.stdout.splitlines()[-1].startswith("1 of ")


def test_a_saved_game_records_this_computers_arithmetic(tmp_path: Path) -> None:
    game = load(GAMES / "practice-nine-ball.poolsim")  # version 2: records none
    assert all(
        node.record.simulated.arithmetic is None
        for node in game.shot_nodes()
        if isinstance(node.record, ShotRecord)
    )
    path = tmp_path / "again.poolsim"
    save(game, path)
    document = json.loads(zipfile.ZipFile(path).read("game.json"))
    assert document["version"] == VERSION
    assert Arithmetic.from_json(document["arithmetic"]) == here()
    # Each shot keeps its own: not recorded (null), not this computer's.
    shots = [r for r in document["records"] if r["type"] == "shot"]
    assert shots and all(r["arithmetic"] is None for r in shots)
    again = load(path)
    assert all(node.record.simulated.arithmetic is None for node in again.shot_nodes())


def test_a_shot_from_another_recorded_arithmetic_keeps_it(tmp_path: Path) -> None:
    game = load(GAMES / "practice-nine-ball.poolsim")
    elsewhere = Arithmetic("fixed-dot-1", "glibc 2.31, FMA", "aarch64", "Neoverse-N1")
    node = game.shot_nodes()[0]
    assert isinstance(node.record, ShotRecord)
    simulated = attrs.evolve(node.record.simulated, arithmetic=elsewhere)
    node.record = attrs.evolve(node.record, simulated=simulated)
    path = tmp_path / "mixed.poolsim"
    save(game, path)
    again = load(path)
    first = again.shot_nodes()[0].record
    assert isinstance(first, ShotRecord) and first.simulated.arithmetic == elsewhere
    assert (
        first.simulated.arithmetic.words()
        == "fixed-dot-1 on glibc 2.31, FMA, aarch64 (Neoverse-N1)"
    )


@pytest.mark.parametrize(
    "value",
    [{"physics": "x"}, {"physics": 1, "libm": "", "machine": "", "processor": ""}, "text"],
)
def test_a_bad_arithmetic_is_refused_in_one_line(value: object, tmp_path: Path) -> None:
    game = load(GAMES / "practice-nine-ball.poolsim")
    path = tmp_path / "game.poolsim"
    save(game, path)
    with zipfile.ZipFile(path) as zf:
        contents = {name: zf.read(name) for name in zf.namelist()}
    document = json.loads(contents["game.json"])
    document["arithmetic"] = value
    contents["game.json"] = json.dumps(document).encode()
    with zipfile.ZipFile(path, "w") as zf:
        for member, data in contents.items():
            zf.writestr(member, data)
    result = _verify(path)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and "arithmetic" in result.stderr


def test_a_shot_cut_short_is_refused_at_loading(tmp_path: Path) -> None:
    """Its events and histories ended halfway, balls still rolling, as if they stopped
    there: not a shot pooltool simulated (it ends with its null event)."""
    source = ELSEWHERE[0]
    with zipfile.ZipFile(source) as zf:
        contents = {name: zf.read(name) for name in zf.namelist()}
    name = max((n for n in contents if n.startswith("shots/")), key=lambda n: len(contents[n]))
    system = system_from_bytes(contents[name])
    half = len(system.events) // 2
    del system.events[half:]
    for ball in system.balls.values():
        del ball.history.states[half:]
        ball.state = ball.history[-1].copy()
    system.t = system.events[-1].time
    contents[name] = system_to_bytes(system)
    target = tmp_path / source.name
    with zipfile.ZipFile(target, "w") as zf:
        for member, data in contents.items():
            zf.writestr(member, data)
    result = _verify(target)
    assert result.returncode == 2
    assert "does not end with pooltool's null event (cut short)" in result.stderr
