"""A game file's stored pooltool systems are held against its records: a system edited
apart from its record (the cue's speed, a pocket, a ball's path, the balls at the start)
is refused on loading with one line naming the shot and what disagrees; ``poolsim verify``
compares the system it simulates again with the stored one. Files saved by an earlier
poolsim still load and verify."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest

from sim.play.game import GameSetup
from sim.store.gamefile import GameFileError, load, save
from sim.store.verify import verify_game
from tests.play.matches import lag_then_racks

pytestmark = pytest.mark.physics
ROOT = Path(__file__).resolve().parents[2]
# Saved by poolsim at commit 56f7334 (the lag and one rack of a ten-ball match): its first
# event's time is written as the integer 0, as poolsim wrote it then.
OLD_FILE = ROOT / "tests" / "data" / "games" / "ten-ball-saved-by-56f7334.poolsim"

Raw = dict[Any, Any]


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("agreement") / "match.poolsim"
    save(
        lag_then_racks(GameSetup(game="ten-ball", race_to=3, seed=21, players=("Ann", "Bob"))),
        path,
    )
    return path


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def _lag_at_2_8(document: Raw) -> tuple[int, str]:
    """The lag whose first stroke is 2.8 m/s (the issue's), and its first shot's member."""
    for index, record in enumerate(document["records"]):
        if record["type"] == "lag" and record["strokes"][0]["speed"] == 2.8:
            return index, record["shots"][0]["system"]
    raise AssertionError("no lag at 2.8 m/s")


def _break(document: Raw) -> tuple[int, str]:
    """The first shot of the rack (the break: every ball moves or is hit)."""
    for index, record in enumerate(document["records"]):
        if record["type"] == "shot":
            return index, record["system"]
    raise AssertionError("no shot")


def tampered(
    source: Path,
    target: Path,
    which: Callable[[Raw], tuple[int, str]],
    edit: Callable[[Raw], None],
) -> tuple[Path, str]:
    """``source`` with one shot's system edited by ``edit`` (on its decoded msgpack map);
    the path, and the place of the record whose system it is."""
    members = _members(source)
    document = json.loads(members["game.json"])
    index, name = which(document)
    raw = msgpack.unpackb(members[name], strict_map_key=False)
    edit(raw)
    members[name] = msgpack.packb(raw)
    with zipfile.ZipFile(target, "w") as zf:
        for member, data in members.items():
            zf.writestr(member, data)
    record = document["records"][index]
    place = f"records[{index}]" + (".shots[0]" if record["type"] == "lag" else "")
    return target, place


def _numbers(array: Raw) -> list[float]:
    data = array[b"data"]
    return list(struct.unpack(f"<{len(data) // 8}d", data))


def _set_numbers(array: Raw, numbers: list[float]) -> None:
    array[b"data"] = struct.pack(f"<{len(numbers)}d", *numbers)


def _cue_speed(raw: Raw) -> None:
    raw["cue"]["V0"] = 9.9


def _pocket_radius(raw: Raw) -> None:
    raw["table"]["pockets"]["lb"]["radius"] = 0.3


def _moved(raw: Raw, ball: str, states: slice) -> None:
    """Ball ``ball``'s history states ``states`` moved 30 cm along x."""
    rvws = raw["balls"][ball]["history"][0]
    numbers = _numbers(rvws)
    for state in range(len(numbers) // 9)[states]:
        numbers[state * 9] += 0.3
    _set_numbers(rvws, numbers)


def _whole_history_moved(raw: Raw) -> None:
    _moved(raw, "cue", slice(None))


def _path_moved(raw: Raw) -> None:
    """The cue ball's path after the stick, to the last state (which stays put)."""
    _moved(raw, "cue", slice(2, -1))


def _cushion_moved(raw: Raw) -> None:
    p1 = raw["table"]["cushion_segments"]["linear"]["3"]["p1"]
    numbers = _numbers(p1)
    numbers[0] += 0.05
    _set_numbers(p1, numbers)


def _cloth(raw: Raw) -> None:
    raw["balls"]["3"]["params"]["u_s"] = 0.5


def _heavy_cue(raw: Raw) -> None:
    raw["cue"]["specs"]["M"] = 2.0


def _pocket_holds_a_ball(raw: Raw) -> None:
    raw["table"]["pockets"]["lc"]["contains"] = ["3"]


CASES = [
    pytest.param(
        _lag_at_2_8,
        _cue_speed,
        "is not the recorded shot: the cue's V0 is 9.9, the stroke's speed 2.8",
        id="cue-V0-9.9-against-2.8",
    ),
    pytest.param(
        _lag_at_2_8,
        _pocket_radius,
        "is not the recorded shot: table.pockets['lb'].radius is 0.3, the 9ft table's 0.062",
        id="pocket-radius-0.3",
    ),
    pytest.param(
        _lag_at_2_8,
        _whole_history_moved,
        "is not the recorded shot: balls['cue'] starts at (0.6500, 0.3000, 0.0286), "
        "the start has it at (0.3500, 0.3000) on the cloth",
        id="cue-ball-history-moved-30cm",
    ),
    pytest.param(
        _break,
        _path_moved,
        "is not the recorded shot: events[2] (ball_ball at 0.1075 s), ball 'cue': "
        "its history[2] is not where the event left it",
        id="cue-ball-path-moved-30cm",
    ),
    pytest.param(
        _break,
        _cushion_moved,
        "is not the recorded shot: table.cushion_segments.linear['3'].p1 is",
        id="cushion-moved",
    ),
    pytest.param(
        _break,
        _cloth,
        "is not the recorded shot: balls['3'].params is BallParams(",
        id="ball-friction",
    ),
    pytest.param(
        _break,
        _heavy_cue,
        "is not the recorded shot: the cue's specs is not poolsim's cue",
        id="cue-mass",
    ),
    pytest.param(
        _break,
        _pocket_holds_a_ball,
        "is not the recorded shot: table.pockets['lc'] holds ['3'], the events pocket [] there",
        id="pocket-holds-an-unpocketed-ball",
    ),
]


@pytest.mark.parametrize(("which", "edit", "problem"), CASES)
def test_a_system_that_disagrees_with_its_record_is_refused(
    saved: Path,
    tmp_path: Path,
    which: Callable[[Raw], tuple[int, str]],
    edit: Callable[[Raw], None],
    problem: str,
) -> None:
    path, place = tampered(saved, tmp_path / "tampered.poolsim", which, edit)
    with pytest.raises(GameFileError) as refused:
        load(path)
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: {place}.system: {problem}"), message


def test_the_issues_tampering_is_refused_by_the_command_line(saved: Path, tmp_path: Path) -> None:
    path, place = tampered(saved, tmp_path / "fast-cue.poolsim", _lag_at_2_8, _cue_speed)
    for command in ("verify", "replay"):
        refused = subprocess.run(
            [sys.executable, "-c", "from sim.cli import main; main()", command, str(path)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=600,
        )
        assert refused.returncode == 2, refused.stderr
        assert refused.stderr.splitlines() == [
            f"poolsim: error: {path}: {place}.system: is not the recorded shot: "
            "the cue's V0 is 9.9, the stroke's speed 2.8"
        ]


def test_an_untampered_file_repacked_loads_and_verifies(saved: Path, tmp_path: Path) -> None:
    """The tampering above changes only what it edits: unpacked and packed again without
    an edit, every system still agrees."""
    path, _ = tampered(saved, tmp_path / "repacked.poolsim", _break, lambda raw: None)
    checks = verify_game(load(path))
    assert checks and all(check.identical for check in checks)


def test_verify_compares_the_stored_system(saved: Path, tmp_path: Path) -> None:
    """A moving ball's state just before an event (which loading does not hold against
    anything cheaper than the physics) edited: the file loads, and verify finds the stored
    system is not the one the stroke simulates."""

    def nudge_the_cue_before_it_hits(raw: Raw) -> None:
        event = next(e for e in raw["events"] if e["event_type"] == "ball_ball")
        assert event["agents"][0]["id"] == "cue"
        rvw = event["agents"][0]["initial"]["state"]["rvw"]
        numbers = _numbers(rvw)
        numbers[0] += 1e-6
        _set_numbers(rvw, numbers)

    path, _ = tampered(saved, tmp_path / "nudged.poolsim", _break, nudge_the_cue_before_it_hits)
    checks = verify_game(load(path))
    differing = [check for check in checks if not check.identical]
    assert [check.label for check in differing] == ["rack 1, shot 1 (A)"]
    assert differing[0].facts_equal and differing[0].resting_equal and differing[0].ruling_equal
    assert not differing[0].system_equal


def test_a_file_saved_by_an_earlier_poolsim_loads_and_verifies() -> None:
    game = load(OLD_FILE)
    checks = verify_game(game)
    assert len(checks) == 2 * 5 + len(game.shots)  # five lags of two shots, and the rack
    assert all(check.identical for check in checks)
