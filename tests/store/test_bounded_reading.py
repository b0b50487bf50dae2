"""Every reader of a user's file refuses what is not a regular file and reads no more
than its kind can hold (issue 15, items 6 and 7): ``/dev/zero`` grew ``poolsim verify``
to 21 GB, a FIFO hung it, a lying zip member took 2.3 GB and 7 s to refuse, and 900 MB
of whitespace in game.json loaded at 1.9 GB."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules.scenarios import ScenarioError, read_scenarios
from rules.userfile import FileRefused
from sim.app.screens.preferences import Preferences
from sim.app.script import ScriptError, load_script
from sim.store import gamefile
from sim.store.gamefile import GameFileError, load, read_member, read_pooltool_system
from sim.store.savedgames import summarise
from tests.store.bombs import CHUNK, deflated_repeat, lying_member, whitespace_around, write_zip

ROOT = Path(__file__).resolve().parents[2]


def _fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo.poolsim"
    os.mkfifo(path)
    return path


def _folder(tmp_path: Path) -> Path:
    path = tmp_path / "folder.poolsim"
    path.mkdir()
    return path


SPECIAL: dict[str, Callable[[Path], Path]] = {
    "a character device": lambda _: Path("/dev/zero"),
    "a FIFO": _fifo,
    "a folder": _folder,
}


def _problem(read: Callable[[Path], Any], path: Path) -> str:
    """The one line each reader gives for a file it refuses."""
    try:
        result = read(path)
    except (GameFileError, ScriptError, ScenarioError) as error:
        return str(error)
    if isinstance(result, list):  # read_scenarios: the file's one error, in its place
        (entry,) = result
        assert isinstance(entry, ScenarioError)
        return entry.line()
    if isinstance(result, dict):  # preferences: refused is the defaults
        assert result == {}
        return "not a regular file (the defaults)"
    assert result.problem is not None  # the saved-games list shows the problem
    return result.problem


READERS: dict[str, Callable[[Path], Any]] = {
    "game file": load,
    "pooltool shot": read_pooltool_system,
    "scenario file": read_scenarios,
    "saved-games list": summarise,
    "preferences": lambda path: Preferences(path).load(),
    "script": load_script,
}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX special files")
@pytest.mark.parametrize("special", SPECIAL)
@pytest.mark.parametrize("reader", READERS)
def test_every_reader_refuses_a_special_file(reader: str, special: str, tmp_path: Path) -> None:
    line = _problem(READERS[reader], SPECIAL[special](tmp_path))
    assert "\n" not in line
    assert "not a regular file" in line, line
    if reader != "preferences":
        assert f"({special})" in line, line


@pytest.mark.parametrize(
    ("reader", "size", "words"),
    [
        ("scenario file", 5 * 2**20, "larger than a scenario file can be (at most 4.0 MB)"),
        ("script", 2 * 2**20, "larger than a script can be (at most 1.0 MB)"),
        ("pooltool shot", 33 * 2**20, "larger than a pooltool shot can be (at most 32.0 MB)"),
        ("preferences", 65 * 2**10, "not a regular file (the defaults)"),
    ],
)
def test_a_file_larger_than_its_kind_is_refused_unread(
    reader: str, size: int, words: str, tmp_path: Path
) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as file:
        file.truncate(size)  # sparse: nothing to read but zeros
    assert words in _problem(READERS[reader], path)


def test_a_member_that_inflates_past_its_declared_size_is_refused_there(tmp_path: Path) -> None:
    """zipfile's own ``read`` inflates up to 2 GB in one call before it looks at the
    declared size; here the member is refused one byte past its declared 1 KB, whether
    its CRC is that of the 1 KB (only inflating further shows the lie) or not."""
    data = deflated_repeat(b"", bytes(CHUNK), 64)  # 64 MB of zeros
    declared = 1024
    path = write_zip(
        tmp_path / "lie.zip",
        [
            ("shots/0001.msgpack", data, declared, zlib.crc32(bytes(declared))),
            ("shots/0002.msgpack", data, declared, 0),
        ],
    )
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            with pytest.raises(FileRefused, match="inflates past the 1 KB it declares"):
                read_member(zf, info, 2**20, "a shot")


def test_a_member_of_its_declared_size_with_a_wrong_crc_is_damaged(tmp_path: Path) -> None:
    content = b"{}"
    data = zlib.compress(content)[2:-4]  # raw deflate
    path = write_zip(tmp_path / "crc.zip", [("game.json", data, 2, zlib.crc32(content) ^ 1)])
    with zipfile.ZipFile(path) as zf, pytest.raises(zipfile.BadZipFile, match="Bad CRC-32"):
        read_member(zf, zf.getinfo("game.json"), 2**20, "game.json")
    with zipfile.ZipFile(path) as zf:
        assert zlib.crc32(content) ^ 1 == zf.getinfo("game.json").CRC  # the entry untouched


def test_a_member_shorter_than_it_declares_is_refused(tmp_path: Path) -> None:
    content = b"{}"
    data = zlib.compress(content)[2:-4]  # raw deflate
    path = write_zip(tmp_path / "short.zip", [("game.json", data, 100, zlib.crc32(content))])
    with zipfile.ZipFile(path) as zf, pytest.raises(FileRefused, match="ends before the"):
        read_member(zf, zf.getinfo("game.json"), 2**20, "game.json")


def test_a_game_json_of_more_values_than_a_game_holds_is_refused_unparsed(
    tmp_path: Path,
) -> None:
    """32 MB of ``[{},{},...]`` would parse to some 800 MB of empty objects: a game.json is
    refused past 2,097,152 values (a game holds some 224 a shot, 9,000 shots)."""
    text = b"[" + b",".join([b"{}"] * (gamefile.MAX_GAME_JSON_VALUES + 1)) + b"]"
    path = tmp_path / "many.poolsim"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("game.json", text)
    with pytest.raises(GameFileError, match=r"game\.json: more than 2,097,152 values"):
        load(path)
    assert "more than 2,097,152 values" in str(summarise(path).problem)


def test_a_member_past_its_cap_is_refused_before_inflating(tmp_path: Path) -> None:
    path = whitespace_around(tmp_path / "spaces.poolsim", b"{}", megabytes=40)
    with pytest.raises(GameFileError, match=r"game.json: 40\.0 MB is larger than game.json can"):
        load(path)


# The peak of this process's memory, in KB: VmHWM, as ru_maxrss on Linux keeps the peak
# of the process that forked it (here pytest's, which would hide the load's).
_CHILD = """
import json, resource, sys, time
from pathlib import Path
from sim.store.gamefile import GameFileError, load
def peak_kb():
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
before = peak_kb()
start = time.perf_counter()
try:
    load(sys.argv[1])
    error = None
except GameFileError as refused:
    error = str(refused)
seconds = time.perf_counter() - start
peak = peak_kb()
print(json.dumps({"error": error, "seconds": seconds, "before": before, "peak": peak}))
"""


def _load_in_a_child(path: Path) -> dict[str, Any]:
    """Load ``path`` in a child process: the error, the time of the load, and the peak
    memory in KB before (the imports) and after it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path)], capture_output=True, text=True, env=env,
        timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    figures: dict[str, Any] = json.loads(result.stdout)
    return figures


def test_the_issues_two_files_are_refused_in_bounded_memory_and_time(
    saved_json: bytes, tmp_path: Path
) -> None:
    """The 4.3 MB file whose game.json declares 258 KB and inflates to 4 GB of zeros, and
    900 MB of whitespace around a valid game.json: before, 7 s and 2.3 GB, and a load at
    1.9 GB; now each is one line, at once, in a few MB beyond the imports."""
    lie = lying_member(tmp_path / "lie.poolsim")
    assert lie.stat().st_size < 5 * 2**20
    spaces = whitespace_around(tmp_path / "spaces.poolsim", saved_json)
    for path, words in (
        (lie, "inflates past the 258 KB it declares"),
        (spaces, "larger than game.json"),
    ):
        figures = _load_in_a_child(path)
        assert figures["error"] is not None and words in figures["error"], figures
        assert "\n" not in figures["error"]
        assert figures["seconds"] < 2.0, figures
        assert (figures["peak"] - figures["before"]) / 1024 < 50, figures  # MB
        assert figures["peak"] / 1024 < 300, figures  # the issue's bound, imports and all


@pytest.fixture
def saved_json(tmp_path: Path) -> bytes:
    """A valid game.json: the start of a match, no shot played."""
    from rules import Options
    from sim.play.game import Game, GameSetup

    path = tmp_path / "start.poolsim"
    gamefile.save(Game(GameSetup(game="rotation", race_to=3, options=Options())), path)
    with zipfile.ZipFile(path) as zf:
        return zf.read("game.json")
