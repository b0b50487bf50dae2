"""The statistics database: an index of game files, one row a match whichever files hold
it, rebuilt when missing or damaged, read-only when a newer poolsim wrote it; and
``poolsim stats`` agrees with a count by hand from the game files."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from sim.store.stats.database import (
    REINDEXED_AT,
    SCHEMA_VERSION,
    StatsDatabase,
    StatsError,
    opened,
)
from sim.store.stats.report import players, report
from tests.run import ROOT, poolsim

GAME = ROOT / "tests" / "data" / "games" / "ten-ball-saved-by-56f7334.poolsim"


def _document(path: Path) -> Any:
    with zipfile.ZipFile(path) as zf:
        return json.loads(zf.read("game.json"))


def _by_hand(paths: list[Path]) -> dict[str, Counter[str]]:
    """Per player, counted straight from the main lines' records: shots, fouls (shots
    with one), racks won, breaks (a rack's first shot), safeties and pots made (the called
    ball in its pocket, or without a call the lowest ball down, without a foul)."""
    counts: dict[str, Counter[str]] = {}
    for path in paths:
        document = _document(path)
        names = dict(zip("AB", document["setup"]["players"], strict=True))
        racks_seen: set[int] = set()
        for record in document["records"]:
            if record["type"] != "shot":
                continue
            who = counts.setdefault(names[record["shooter"]], Counter())
            ruling = record["ruling"]
            who["shots"] += 1
            who["fouls"] += bool(ruling["foul_codes"])
            is_break = record["rack"] not in racks_seen
            who["breaks"] += is_break
            racks_seen.add(record["rack"])
            who["safeties"] += record["declaration"] == "safety"
            went = {e["ball"]: e["pocket"] for e in record["events"] if e["type"] == "pocket"}
            call = record["call"]
            if is_break or record["declaration"] or ruling["foul_codes"]:
                pass
            elif call:  # the called ball in the called pocket
                who["pots_made"] += went.get(call["ball"]) == call["pocket"]
            else:  # the lowest ball, anywhere
                lowest = min((b for b in record["start"] if b != "cue"), key=int)
                who["pots_made"] += lowest in went
            if ruling["rack_over"] and ruling["winner"]:
                counts.setdefault(names[ruling["winner"]], Counter())["racks_won"] += 1
    return counts


def test_a_match_is_one_row_whichever_files_hold_it(tmp_path: Path) -> None:
    autosave, copy = tmp_path / "autosave.poolsim", tmp_path / "saved" / "copy.poolsim"
    copy.parent.mkdir()
    shutil.copy(GAME, autosave)
    shutil.copy(GAME, copy)
    with opened(tmp_path / "stats.sqlite3", [tmp_path]) as database:
        assert database.note is None
        assert players(database) == ["Ann", "Bob"]
        assert database.connection.execute("SELECT COUNT(*) FROM matches").fetchone() == (1,)
        assert report(database, "Ann").counts.shots == 10
        database.index_file(copy)  # as far on: it takes the match's row, not a second one
        assert database.connection.execute("SELECT COUNT(*) FROM matches").fetchone() == (1,)


def _practice_copy(tmp_path: Path) -> Path:
    """GAME as a practice session's file (``"practice": true`` in its set-up)."""
    path = tmp_path / "practice.poolsim"
    with zipfile.ZipFile(GAME) as source, zipfile.ZipFile(path, "w") as copy:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "game.json":
                document = json.loads(data)
                document["setup"]["practice"] = True
                data = json.dumps(document).encode()
            copy.writestr(info, data)
    return path


def test_practice_is_no_match_and_is_not_indexed(tmp_path: Path) -> None:
    """Issue 28, friction 14: a practice (or drill) file adds nothing to the figures."""
    practice = _practice_copy(tmp_path)
    with opened(tmp_path / "stats.sqlite3", [practice]) as database:
        assert not database.index_file(practice)
        assert database.connection.execute("SELECT COUNT(*) FROM matches").fetchone() == (0,)
        assert players(database) == []


def test_a_database_of_schema_1_is_indexed_again_from_its_files(tmp_path: Path) -> None:
    """The migration to schema 2 empties the figures indexed by the old rules and indexes
    again every file they came from (a practice file among them is left out now)."""
    path, practice = tmp_path / "stats.sqlite3", _practice_copy(tmp_path)
    with opened(path, []) as database:
        database.connection.execute("PRAGMA user_version = 1")
        database.connection.execute(
            "INSERT INTO matches (key, path, steps, game, played) VALUES (?, ?, 1, ?, ?)",
            ("old practice", str(practice), "ten-ball", "2026-01-01"),
        )
        database.connection.execute(
            "INSERT INTO matches (key, path, steps, game, played) VALUES (?, ?, 1, ?, ?)",
            ("old match", str(GAME), "ten-ball", "2026-01-01"),
        )
        database.connection.commit()
    with opened(path, []) as database:
        rows = database.connection.execute("SELECT key, path FROM matches").fetchall()
        assert [Path(p) for _, p in rows] == [GAME.resolve()]
        assert "old match" not in {key for key, _ in rows}  # indexed again, by its key
        assert report(database, "Ann").counts.breaks == 1


def test_a_damaged_database_is_rebuilt_from_the_game_files(tmp_path: Path) -> None:
    shutil.copy(GAME, tmp_path / "game.poolsim")
    path = tmp_path / "stats.sqlite3"
    path.write_bytes(b"not a database at all" * 100)
    with opened(path, [tmp_path]) as database:
        assert database.note is not None and "rebuilt" in database.note
        assert report(database, "Bob").counts.racks_won == 1


def test_a_database_from_a_newer_poolsim_is_read_only(tmp_path: Path) -> None:
    path = tmp_path / "stats.sqlite3"
    with opened(path, [GAME]):
        pass
    with sqlite3.connect(path) as connection:
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    with opened(path, [GAME]) as database:
        assert database.read_only and database.note is not None
        assert "newer poolsim" in database.note and "read-only" in database.note
        assert not database.index_file(GAME)
        assert report(database, "Ann").counts.breaks == 1  # still read
    assert path.read_bytes() == before


def test_a_file_that_is_no_game_is_skipped_with_its_reason(tmp_path: Path) -> None:
    (tmp_path / "bad.poolsim").write_bytes(b"PK\x03\x04 truncated")
    database = StatsDatabase.open(tmp_path / "stats.sqlite3", [])
    with pytest.raises(StatsError, match=r"bad\.poolsim"):
        database.index_file(tmp_path / "bad.poolsim")
    done = database.index_folders([tmp_path])
    assert done.indexed == 0 and len(done.problems) == 1
    database.close()


@pytest.mark.physics
def test_poolsim_stats_agrees_with_a_count_by_hand_of_self_played_games(tmp_path: Path) -> None:
    games = tmp_path / "games"
    played = poolsim("selfplay", "--racks", "2", "--seed", "5", "--save", str(games))
    assert played.returncode == 0, played.stderr
    files = [*sorted(games.glob("*.poolsim")), GAME]
    shutil.copy(GAME, games)
    env = {**os.environ, "POOLSIM_DATA_DIR": str(tmp_path / "user")}
    result = poolsim("stats", "--import", str(games), "--json", env=env)
    assert result.returncode == 0, result.stderr
    figures = {p["player"]: p for p in json.loads(result.stdout)["players"]}
    hand = _by_hand(files)
    assert set(figures) == set(hand)
    for name, counted in hand.items():
        shown = figures[name]
        for key in ("shots", "fouls", "breaks", "safeties", "racks_won", "pots_made"):
            assert shown[key] == counted[key], (name, key)
    table = poolsim("stats", "--player", "Ann", env=env)
    assert table.returncode == 0 and "pots made" in table.stdout and "Bob" not in table.stdout


def test_a_database_that_cannot_be_read_is_one_line_and_status_2(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "statistics.sqlite3") as connection:
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")  # and no tables
    result = poolsim("stats", env={**os.environ, "POOLSIM_DATA_DIR": str(tmp_path)})
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and "rebuilt from your game files" in result.stderr


def test_the_autosave_indexes_each_game_it_saves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sim.store.autosave import Autosave
    from sim.store.gamefile import load
    from sim.store.stats.database import index_quietly

    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path))
    autosave = Autosave(tmp_path / "autosave.poolsim", on_saved=index_quietly)
    autosave.save(load(GAME))
    with opened() as database:
        assert players(database) == ["Ann", "Bob"]
        assert report(database, "Bob").counts.racks_won == 1
    (tmp_path / "statistics.sqlite3").write_bytes(b"damaged")
    autosave.save(load(GAME))  # a damaged index never fails a save: it is rebuilt
    with opened() as database:
        assert report(database, "Ann").counts.shots == 10


# Each process opens the database at the same moment (all ready, then told to go at once)
# and indexes its own files.
_INDEXER = """
import sys
import time
from pathlib import Path
from sim.store.stats.database import opened
print("ready", flush=True)
sys.stdin.readline()
with opened(Path(sys.argv[1]), ()) as database:
    for name in sys.argv[2:]:
        assert database.index_file(Path(name))
"""


def _indexers_at_once(database: Path, files: list[list[Path]]) -> list[subprocess.Popen[str]]:
    """A process for each list of ``files``, each indexing its own into ``database``,
    all started, all ready, then all told to go at once."""
    children = [
        subprocess.Popen(
            [sys.executable, "-c", _INDEXER, str(database), *map(str, mine)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for mine in files
    ]
    for child in children:
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
    for child in children:  # go, all of them
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    return children


def _match_of_players(tmp_path: Path, names: list[str]) -> Path:
    """GAME as another match: the same shots between other players (the match's key is
    its set-up), written as a new game file."""
    path = tmp_path / f"{'-'.join(names)}.poolsim"
    with zipfile.ZipFile(GAME) as source, zipfile.ZipFile(path, "w") as copy:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "game.json":
                document = json.loads(data)
                document["setup"]["players"] = names
                data = json.dumps(document).encode()
            copy.writestr(info, data)
    return path


@pytest.mark.parametrize("processes", [2, 4, 8])
def test_processes_opening_a_fresh_database_at_once_lose_no_match(
    tmp_path: Path, processes: int
) -> None:
    database = tmp_path / "statistics.sqlite3"
    files = [
        [_match_of_players(tmp_path, [f"P{n}", f"Q{n}{i}"]) for i in range(2)]
        for n in range(processes)
    ]
    children = _indexers_at_once(database, files)
    for child in children:
        _, stderr = child.communicate(timeout=60)
        assert child.returncode == 0, stderr
    with opened(database, ()) as opened_again:
        assert opened_again.note is None
        keys = opened_again.connection.execute("SELECT COUNT(*) FROM matches").fetchone()
        assert keys == (2 * processes,)
        assert len(players(opened_again)) == 3 * processes  # P{n}, Q{n}0, Q{n}1
    assert not list(tmp_path.glob("*.damaged*"))


@pytest.mark.parametrize("seed", range(6))
def test_a_database_with_random_bytes_changed_is_rebuilt_in_one_line(
    tmp_path: Path, seed: int
) -> None:
    """As a disk might damage it: 200 bytes changed anywhere (the schema's text among them,
    which SQLite then quotes in messages Python cannot decode)."""
    path = tmp_path / "statistics.sqlite3"
    with opened(path, [GAME]):
        pass
    data = bytearray(path.read_bytes())
    rng = random.Random(seed)
    for _ in range(200):
        data[rng.randrange(len(data))] = rng.randrange(256)
    path.write_bytes(data)
    result = poolsim("stats", env={**os.environ, "POOLSIM_DATA_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    assert len(result.stderr.splitlines()) == 1 and "rebuilt from the game files" in result.stderr
    assert (tmp_path / "statistics.sqlite3.damaged").read_bytes() == data


def test_a_locked_database_is_one_line_and_never_moved_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holding a new database's lock past the busy timeout: a refusal
    in one line, not damage (the move aside would take its live database away)."""
    monkeypatch.setattr("sim.store.stats.database.BUSY_TIMEOUT_S", 0.2)
    path = tmp_path / "statistics.sqlite3"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    other.execute("CREATE TABLE being_made (x)")
    try:
        with pytest.raises(StatsError, match="locked"):
            StatsDatabase.open(path, ())
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert not list(tmp_path.glob("*.damaged*"))


@pytest.mark.parametrize("folder", ["/sys/kernel", "A_FILE/sub"])
def test_a_data_folder_that_cannot_be_used_is_one_line_and_status_2(
    tmp_path: Path, folder: str
) -> None:
    (tmp_path / "A_FILE").write_text("a file, not a folder")
    result = subprocess.run(
        [sys.executable, "-c", "from sim.cli import main; main()", "stats"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "POOLSIM_DATA_DIR": folder, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and folder in result.stderr
    assert "Traceback" not in result.stderr
    assert (tmp_path / "A_FILE").read_text() == "a file, not a folder"


ROTATION = ROOT / "tests" / "data" / "elsewhere" / "selfplay-rotation-seed32.poolsim"


def test_a_games_own_figures_are_indexed_and_reported(tmp_path: Path) -> None:
    """Rotation's points (``Rotation.own_figures``) go into the database with the match
    and come out in each player's report, as the match summary counts them."""
    from sim.physics.table import table_spec
    from sim.store.stats.figures import file_figures
    from sim.store.stats.report import table_lines

    counted = file_figures(_document(ROTATION), table_spec("9ft"))
    with opened(tmp_path / "stats.sqlite3", []) as database:
        assert database.index_file(ROTATION)
        assert database.index_file(GAME)  # 10-ball: no points
        reports = {name: report(database, name) for name in counted.players}
        lines = table_lines([*reports.values(), report(database, "Ann")])
    for name, own in zip(counted.players, counted.own, strict=True):
        assert reports[name].own == own == {"points": own["points"]}
        assert reports[name].to_json()["own_figures"] == own
    (points,) = [line for line in lines if line.startswith("points")]
    assert points.split()[1:] == [str(own["points"]) for own in counted.own] + ["0"]


def test_a_database_of_schema_2_is_indexed_again_for_the_games_own_figures(
    tmp_path: Path,
) -> None:
    path = tmp_path / "stats.sqlite3"
    shutil.copy(ROTATION, tmp_path / "rotation.poolsim")
    with opened(path, [tmp_path]) as database:
        database.connection.execute("DROP TABLE own_figures")
        database.connection.execute("PRAGMA user_version = 2")
        database.connection.commit()
    with opened(path, []) as database:
        (name, *_) = players(database)
        assert report(database, name).own["points"] > 0


@pytest.mark.parametrize("kill_after", [None, 0.0, 0.05, 0.2])
def test_processes_bringing_an_old_database_forward_at_once_lose_no_match(
    tmp_path: Path, kill_after: float | None
) -> None:
    """A database of schema 3 (emptied and indexed again when opened) opened by four
    processes at the same moment,
    each indexing its own matches, one of them killed mid-way when ``kill_after`` says
    (seconds after the go): the migration empties and re-indexes in one transaction, so
    every match indexed before, and each survivor's, is there once, nothing set aside."""
    database = tmp_path / "statistics.sqlite3"
    before = [_match_of_players(tmp_path, [f"Old{i}", "Bob"]) for i in range(3)]
    with opened(database, ()) as old:
        for path in before:
            assert old.index_file(path)
        # As schema 3 left it: no table of files to index again, and emptied on opening.
        old.connection.execute("DROP TABLE reindex")
        old.connection.execute(f"PRAGMA user_version = {REINDEXED_AT - 1}")
        old.connection.commit()
    files = [[_match_of_players(tmp_path, [f"P{n}", "Q"])] for n in range(4)]
    children = _indexers_at_once(database, files)
    if kill_after is not None:
        time.sleep(kill_after)
        children[0].kill()
    for child in children:
        _, stderr = child.communicate(timeout=60)
        killed = child is children[0] and kill_after is not None
        assert child.returncode == 0 or killed, stderr
    with opened(database, ()) as again:
        assert again.note is None
        names = set(players(again))
        (count,) = again.connection.execute("SELECT COUNT(*) FROM matches").fetchone()
    survivors = {f"P{n}" for n in range(4) if n or kill_after is None}
    indexed = {name for name in names if name.startswith("P")}  # the killed one's, or not
    assert {f"Old{i}" for i in range(3)} <= names and survivors <= indexed
    assert count == len(before) + len(indexed)  # each match once
    assert not list(tmp_path.glob("*.damaged*"))
