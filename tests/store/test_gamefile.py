"""Game files: a round trip, strict loading (each corrupt case with its one-line message,
nothing executed, nothing overwritten), atomic saves, autosave surviving a kill, and
``poolsim verify``."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import time
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest

from rules import Player
from sim.play.game import Game, GameSetup, LagRecord, ShotRecord
from sim.play.selfplay import play_racks
from sim.store import gamefile
from sim.store.autosave import Autosave
from sim.store.gamefile import VERSION, GameFileError, load, save
from sim.store.verify import verify_game
from tests.gamezip import rewrite
from tests.play.matches import lag_then_racks
from tests.store.bombs import write_zip

pytestmark = pytest.mark.physics
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def played() -> Game:
    """A ten-ball match with a lag, a breaker choice and one whole rack."""
    return lag_then_racks(GameSetup(game="ten-ball", race_to=3, seed=21, players=("Ann", "Bob")))


@pytest.fixture
def saved(played: Game, tmp_path: Path) -> Path:
    path = tmp_path / "match.poolsim"
    save(played, path)
    return path


def first(document: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(r for r in document["records"] if r["type"] == kind)


def test_round_trip(played: Game, saved: Path) -> None:
    loaded = load(saved)
    assert loaded.setup == played.setup
    assert loaded.match == played.match
    assert len(loaded.records) == len(played.records)
    assert any(isinstance(r, LagRecord) for r in loaded.records)
    for old, new in zip(played.shots, loaded.shots, strict=True):
        assert new.simulated.facts == old.simulated.facts
        assert new.ruling == old.ruling
        assert len(new.simulated.system.events) == len(old.simulated.system.events)
    with zipfile.ZipFile(saved) as zf:
        document = json.loads(zf.read("game.json"))
    assert document["format"] == "poolsim-game" and document["version"] == VERSION
    assert document["branches"] == [] and document["in_play"]["line"] == 0
    assert document["setup"]["players"] == ["Ann", "Bob"]
    assert {"poolsim", "pooltool", "created"} <= set(document)


def test_a_loaded_game_plays_on(saved: Path) -> None:
    loaded = load(saved)
    before = len(loaded.shots)
    play_racks(loaded, 1, random.Random(2))
    assert len(loaded.shots) > before


def test_verify_finds_every_shot_bit_identical(played: Game, saved: Path) -> None:
    checks = verify_game(load(saved))
    shots = sum(
        2 if isinstance(r, LagRecord) else 1
        for r in played.records
        if isinstance(r, ShotRecord | LagRecord)
    )
    assert len(checks) == shots
    assert all(check.identical for check in checks)
    assert all(
        check.max_position_difference == 0 and check.max_time_difference == 0 for check in checks
    )


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(document: dict[str, Any]) -> None:
        node: Any = document
        for key in path[:-1]:
            node = (
                first(node, key)
                if isinstance(key, str) and key in ("shot", "choice", "lag", "breaker")
                else node[key]
            )
        node[path[-1]] = value

    return edit


def _delete(path: list[Any]) -> Callable[[dict[str, Any]], None]:
    def edit(document: dict[str, Any]) -> None:
        node: Any = document
        for key in path[:-1]:
            node = first(node, key) if key in ("shot", "choice", "lag", "breaker") else node[key]
        del node[path[-1]]

    return edit


def _tamper_ruling(document: dict[str, Any]) -> None:
    first(document, "shot")["ruling"]["fouls"]["A"] = 2


CORRUPT_JSON: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("future-version", _set(["version"], 7), "written by a newer poolsim"),
    ("other-format", _set(["format"], "chess-pgn"), "not a poolsim game file"),
    ("missing-setup", _delete(["setup"]), "setup: missing"),
    ("unknown-key", _set(["cheat"], True), "cheat: unknown key"),
    ("missing-action", _delete(["shot", "action"]), "action: missing"),
    ("nan-speed", _set(["shot", "action", "speed"], float("nan")), "speed"),
    ("absurd-speed", _set(["shot", "action", "speed"], 1e9), "speed must be in"),
    ("absurd-race", _set(["setup", "race_to"], 10_000), "race_to"),
    ("unknown-option", _set(["setup", "options", "house_rule"], 1), "house_rule: unknown option"),
    ("placement-off-table", _set(["shot", "placement"], [9.0, 9.0]), "not on the bed"),
    ("unknown-ball", _set(["shot", "call"], {"ball": "16", "pocket": "rt"}), "16"),
    ("tampered-ruling", _tamper_ruling, "is not the referee's ruling"),
    (
        "tampered-start",
        _set(["shot", "start", "cue"], [0.1, 0.1]),
        "start: is not where the balls were",
    ),
    ("unknown-record", _set(["records", 0, "type"], "teleport"), "unknown record type"),
]


@pytest.mark.parametrize(
    ("name", "edit", "message"), CORRUPT_JSON, ids=[c[0] for c in CORRUPT_JSON]
)
def test_corrupt_content_is_one_clear_line(
    saved: Path, tmp_path: Path, name: str, edit: Callable[[dict[str, Any]], None], message: str
) -> None:
    bad = rewrite(saved, tmp_path / f"{name}.poolsim", edit)
    with pytest.raises(GameFileError) as caught:
        load(bad)
    text = str(caught.value)
    assert "\n" not in text
    assert message in text, text
    assert text.startswith(str(bad))


def test_not_a_zip_truncated_and_bad_json(saved: Path, tmp_path: Path) -> None:
    text = tmp_path / "notes.poolsim"
    text.write_text("hello")
    with pytest.raises(GameFileError, match="not a poolsim game file"):
        load(text)
    truncated = tmp_path / "cut.poolsim"
    truncated.write_bytes(saved.read_bytes()[: saved.stat().st_size // 2])
    with pytest.raises(GameFileError, match="damaged or truncated"):
        load(truncated)
    broken = tmp_path / "broken.poolsim"
    with zipfile.ZipFile(broken, "w") as zf:
        zf.writestr("game.json", '{"format": "poolsim-game", "version": 1, ')
    with pytest.raises(GameFileError, match="not valid JSON"):
        load(broken)
    with pytest.raises(GameFileError, match="cannot read"):
        load(tmp_path / "missing.poolsim")


def test_too_large_a_file(saved: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gamefile, "MAX_FILE_BYTES", 1000)
    with pytest.raises(GameFileError, match="larger than a game file can be"):
        load(saved)


def test_unexpected_members_and_shots(saved: Path, tmp_path: Path) -> None:
    def add_evil(members: dict[str, bytes]) -> None:
        members["../../etc/evil"] = b"x"

    with pytest.raises(GameFileError, match="unexpected member"):
        load(rewrite(saved, tmp_path / "evil.poolsim", members=add_evil))

    def drop_shot(members: dict[str, bytes]) -> None:
        del members["shots/0003.msgpack"]

    with pytest.raises(GameFileError, match="no member"):
        load(rewrite(saved, tmp_path / "dropped.poolsim", members=drop_shot))


def test_a_pickle_inside_a_shot_is_never_unpickled(saved: Path, tmp_path: Path) -> None:
    """msgpack-numpy would unpickle an object array; poolsim's decoder refuses it, where
    a ball's state should be and in place of a whole shot."""
    marker = tmp_path / "pwned"
    payload = (
        b"cos\nsystem\n(S'touch " + str(marker).encode() + b"'\ntR."
    )  # pickle protocol 0: os.system("touch ...")
    evil = {b"nd": True, b"type": "|O", b"kind": b"O", b"shape": [1], b"data": payload}

    def poison_a_state(members: dict[str, bytes]) -> None:
        system = msgpack.unpackb(members["shots/0003.msgpack"], strict_map_key=False)
        next(iter(system["balls"].values()))["state"]["rvw"] = evil
        members["shots/0003.msgpack"] = msgpack.packb(system)

    def poison_the_shot(members: dict[str, bytes]) -> None:
        members["shots/0003.msgpack"] = msgpack.packb(evil)

    with pytest.raises(GameFileError, match="unsupported array type"):
        load(rewrite(saved, tmp_path / "pickle.poolsim", members=poison_a_state))
    with pytest.raises(GameFileError, match="expected a map, got an array"):
        load(rewrite(saved, tmp_path / "pickled.poolsim", members=poison_the_shot))
    assert not marker.exists()


def test_loading_writes_nothing(saved: Path, tmp_path: Path) -> None:
    bad = rewrite(saved, tmp_path / "tampered.poolsim", _tamper_ruling)
    contents = bad.read_bytes()
    listing = sorted(tmp_path.iterdir())
    with pytest.raises(GameFileError):
        load(bad)
    assert bad.read_bytes() == contents
    assert sorted(tmp_path.iterdir()) == listing


def test_save_is_atomic(played: Game, saved: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save that fails half-way leaves the previous file whole and no temporary."""
    original = saved.read_bytes()

    def crash(*_args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(OSError, match="disk full"):
        save(played, saved)
    assert saved.read_bytes() == original
    assert sorted(p.name for p in saved.parent.iterdir()) == [saved.name]


AUTOSAVE_SCRIPT = """
import random, sys
from pathlib import Path
from sim.store.autosave import Autosave
from sim.play.game import Game, GameSetup
from sim.play.selfplay import play_racks

autosave = Autosave(Path(sys.argv[1]))
game = Game(GameSetup(game="rotation", race_to=5, seed=5))

def keep(played, record):
    autosave.save(played)
    print(len(played.records), flush=True)

play_racks(game, 5, random.Random(5), on_record=keep)
"""


def test_autosave_survives_a_kill_mid_match(tmp_path: Path) -> None:
    """SIGKILL at some moment of a match: the autosave loads, verifies and plays on."""
    path = tmp_path / "autosave.poolsim"
    process = subprocess.Popen(
        [sys.executable, "-c", AUTOSAVE_SCRIPT, str(path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    steps = 0
    deadline = time.monotonic() + 300
    while steps < 12 and time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        steps = int(line)
    time.sleep(random.Random().uniform(0.0, 0.2))  # somewhere inside the next shot or save
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert steps >= 12, "the match did not get going"
    resumed = Autosave(path).resume()
    assert len(resumed.records) >= steps
    assert all(check.identical for check in verify_game(resumed))
    played = len(resumed.shots)
    play_racks(resumed, 1, random.Random(1))
    assert len(resumed.shots) > played
    assert [p.name for p in tmp_path.iterdir()] == ["autosave.poolsim"]  # no stray temporaries


def test_verify_command(saved: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", "from sim.cli import main; main()", "verify", str(saved)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].endswith("all bit-identical")
    bad = rewrite(saved, tmp_path / "bad.poolsim", _tamper_ruling)
    refused = subprocess.run(
        [sys.executable, "-c", "from sim.cli import main; main()", "verify", str(bad)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert refused.returncode == 2
    assert len(refused.stderr.splitlines()) == 1 and "is not the referee's ruling" in refused.stderr


def test_verify_reports_a_shot_that_differs(played: Game, tmp_path: Path) -> None:
    """A recorded shot whose physics no longer comes out the same (here: the recorded
    system is another shot's) is reported, and the command exits 1."""
    path = tmp_path / "swapped.poolsim"
    save(played, path)

    def swap(members: dict[str, bytes]) -> None:
        names = sorted(n for n in members if n.startswith("shots/"))
        members[names[3]], members[names[4]] = members[names[4]], members[names[3]]

    # Swapping two shots' systems is caught at load: the system is not the record's stroke.
    with pytest.raises(GameFileError, match="system: is not the recorded shot: the cue's V0"):
        load(rewrite(path, tmp_path / "x.poolsim", members=swap))
    loaded = load(path)
    shot = loaded.shots[2]
    slower = attrs_evolve_action(shot, speed=shot.stroke.action.speed * 0.9)
    next(node for node in loaded.current.path() if node.record is shot).record = slower
    checks = verify_game(loaded)
    assert not all(check.identical for check in checks)


def attrs_evolve_action(record: ShotRecord, **changes: float) -> ShotRecord:
    import attrs

    return attrs.evolve(
        record,
        stroke=attrs.evolve(record.stroke, action=attrs.evolve(record.stroke.action, **changes)),
    )


def test_file_bytes_stay_json_readable(saved: Path) -> None:
    with zipfile.ZipFile(saved) as zf:
        document = json.load(io.BytesIO(zf.read("game.json")))
    shot = first(document, "shot")
    assert {"action", "start", "events", "after", "ruling", "system"} <= set(shot)
    assert shot["ruling"]["reasons"] and all(
        "rule" in r and "text" in r for r in shot["ruling"]["reasons"]
    )


def test_a_file_whose_reasons_are_worded_differently_still_loads(
    saved: Path, tmp_path: Path
) -> None:
    """A newer poolsim may word the referee's reasons better; an older file still opens
    (only decisions are checked), while a changed decision is refused (above)."""

    def reword(document: dict[str, Any]) -> None:
        for record in document["records"]:
            if "ruling" in record:
                record["ruling"]["reasons"] = [
                    {"rule": "GEN-1", "text": "older words", "foul": False}
                ]
                record["ruling"]["choice_rule"] = None

    loaded = load(rewrite(saved, tmp_path / "reworded.poolsim", reword))
    assert len(loaded.shots) > 0


def test_a_new_game_keeps_the_previous_autosave_aside(played: Game, tmp_path: Path) -> None:
    """Starting another game never loses the one in progress: it is archived."""
    autosave = Autosave(tmp_path / "autosave.poolsim")
    assert autosave.archive() is None  # nothing to keep yet
    autosave.save(played)
    kept = autosave.archive()
    assert kept is not None and kept.parent == tmp_path / "saved" and not autosave.exists()
    assert len(load(kept).records) == len(played.records)
    # The same game again is the saved one already (issue 28, friction 13: no twins).
    autosave.save(played)
    assert autosave.archive() == kept and kept.exists() and not autosave.exists()
    other = Game(GameSetup(seed=99))
    other.start(Player.A)
    autosave.save(other)
    again = autosave.archive()
    assert again is not None and again != kept and kept.exists() and again.exists()


def test_a_shot_member_that_inflates_past_its_size_is_refused_in_its_place(
    saved: Path, tmp_path: Path
) -> None:
    """A shot's member is read when its record takes it, and no further than it declares:
    64 MB of zeros behind a member that declares its real size stop there."""
    with zipfile.ZipFile(saved) as zf:
        contents = {name: zf.read(name) for name in zf.namelist()}

    def deflated(data: bytes) -> bytes:
        compressor = zlib.compressobj(1, zlib.DEFLATED, -15)
        return compressor.compress(data) + compressor.flush()

    lie = "shots/0002.msgpack"
    members = [
        (name, deflated(data), len(data), zlib.crc32(data)) for name, data in contents.items()
    ]
    members = [
        (name, deflated(contents[name] + bytes(64 * 2**20)), size, crc)
        if name == lie
        else (name, data, size, crc)
        for name, data, size, crc in members
    ]
    path = write_zip(tmp_path / "lying-shot.poolsim", members)
    with pytest.raises(GameFileError) as refused:
        load(path)
    assert str(refused.value).startswith(f"{path}: {lie}: inflates past the ")
