"""Each player's accuracy over time, by game, in the statistics (issue 33): a match's
review found by its file's digest as the file is indexed, or recorded by the window as
it makes it; kept when the match is indexed again from a file further on; ``poolsim
stats`` shows it; and a database of schema 5 brought forward by several processes at
once finds every match's digest and review."""

from __future__ import annotations

import json
import os
import time
import zipfile
from pathlib import Path

import attrs
import pytest

from sim.play.game import Game
from sim.play.review import Review, StepReview, Tag, accuracy
from sim.play.review.steps import steps_of
from sim.store.gamefile import document_digest, game_digest, game_document, load, save
from sim.store.reviewfile import keep_review
from sim.store.stats.database import SCHEMA_VERSION, match_key, opened
from sim.store.stats.report import players, report, table_lines
from tests.run import ROOT, poolsim
from tests.store.test_stats_database import _indexers_at_once

GAME = ROOT / "tests" / "data" / "games" / "ten-ball-saved-by-56f7334.poolsim"


def made_up_review(game: Game, a_loss: float, b_loss: float) -> Review:
    """A review of ``game``'s main line whose every shot of A's cost ``a_loss`` and of
    B's ``b_loss`` (the statistics keep what a review says; the review is tested in
    tests/play)."""
    marks = []
    for step in steps_of(game):
        loss = a_loss if step.player.value == "A" else b_loss
        marks.append(
            StepReview(
                place=step.place,
                rack=step.rack,
                name=step.name,
                kind=step.kind.value,
                player=step.player.value,
                best=0.6,
                chosen=0.6 - loss,
                actual=0.5,
                skill=loss,
                luck=0.0,
                decision=loss,
                execution=0.0,
                tag=Tag.BEST if loss == 0 else Tag.INACCURACY,
                accuracy=accuracy(loss),
                best_option="pot the 1",
                played="pot the 1",
            )
        )
    return Review(game_digest(game), "5", 0, tuple(marks))


def as_saved_now(tmp_path: Path, names: tuple[str, str] = ("Ann", "Bob")) -> tuple[Game, Path]:
    """GAME between ``names``, saved in this poolsim's format (its file's digest is the
    game's)."""
    game = load(GAME)
    game.setup = attrs.evolve(game.setup, players=names)
    path = tmp_path / f"{'-'.join(names)}.poolsim"
    save(game, path)
    return load(path), path


def _document(path: Path) -> dict[str, object]:
    with zipfile.ZipFile(path) as zf:
        data: dict[str, object] = json.loads(zf.read("game.json"))
        return data


def test_a_kept_review_gives_each_players_accuracy_and_poolsim_stats_shows_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path / "user"))
    game, path = as_saved_now(tmp_path)
    assert document_digest(_document(path)) == game_digest(game)
    keep_review(made_up_review(game, 0.0, 0.1))
    with opened(tmp_path / "stats.sqlite3", ()) as database:
        assert database.index_file(path)
        ann, bob = report(database, "Ann"), report(database, "Bob")
    assert ann.accuracy == pytest.approx(accuracy(0.0)) and len(ann.reviewed) == 1
    assert bob.accuracy == pytest.approx(accuracy(0.1))
    assert bob.reviewed[0].level == "5" and bob.reviewed[0].shots > 0
    # Match by match beside the pots (the statistics screen's line of it).
    assert [session.accuracy for session in bob.sessions] == [pytest.approx(accuracy(0.1))]
    lines = table_lines([ann, bob])
    assert any(
        line.startswith("accuracy (reviewed)") and "100% (1 match)" in line for line in lines
    )
    assert any(line.startswith("Bob, ") and "64%" in line for line in lines)


def test_the_windows_review_recorded_by_the_match_stays_as_the_match_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path / "user"))
    game, path = as_saved_now(tmp_path)
    database_path = tmp_path / "stats.sqlite3"
    review = made_up_review(game, 0.04, 0.0)
    document = game_document(game)
    with opened(database_path, ()) as database:
        # Before its file is indexed: nothing to record it against yet.
        assert not database.index_review(review, match_key(document), game.setup.players)
        assert database.index_file(path)
        assert report(database, "Ann").reviewed == ()  # no review kept by its digest
        assert database.index_review(review, match_key(document), game.setup.players)
        assert report(database, "Ann").accuracy == pytest.approx(accuracy(0.04))
    # The match further on in another file (the main line's last shot taken back and
    # kept as a branch): indexed again, its review stays with it.
    node = game.last_shot()
    assert node is not None and node.parent is not None
    game.go_to(node.parent, main=False)
    further = tmp_path / "further.poolsim"
    save(game, further)
    with opened(database_path, ()) as database:
        assert database.index_file(further)
        (steps,) = database.connection.execute("SELECT steps FROM matches").fetchone()
        assert report(database, "Ann").accuracy == pytest.approx(accuracy(0.04))
        assert report(database, "Bob").accuracy == pytest.approx(accuracy(0.0))
    assert steps >= 1


def test_poolsim_stats_prints_the_accuracy_over_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = tmp_path / "user"
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(user))
    game, _ = as_saved_now(tmp_path)
    keep_review(made_up_review(game, 0.1, 0.0))
    env = {**os.environ, "POOLSIM_DATA_DIR": str(user)}
    done = poolsim(
        "stats",
        "--import",
        str(tmp_path),
        "--player",
        "Ann",
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "accuracy over time (reviewed matches)" in done.stdout
    assert "Ann, " in done.stdout and "64%" in done.stdout
    as_json = poolsim("stats", "--player", "Ann", "--json", env=env)
    (ann,) = json.loads(as_json.stdout)["players"]
    assert ann["accuracy"] == pytest.approx(accuracy(0.1))
    assert ann["reviewed"][0]["shots"] > 0


@pytest.mark.parametrize("processes", [2, 4])
def test_processes_bringing_a_schema_5_database_forward_find_every_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, processes: int
) -> None:
    """A database of schema 5 (no digests, no reviews) opened by several processes at
    the same moment, each indexing a match of its own: each match once, and every
    match's review found by its digest, the old ones' too."""
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path / "user"))
    database = tmp_path / "statistics.sqlite3"
    old = [as_saved_now(tmp_path, (f"Old{i}", "Bob")) for i in range(2)]
    with opened(database, ()) as before:
        for _, path in old:
            assert before.index_file(path)
        before.connection.execute("DROP TABLE reviews")
        before.connection.execute("ALTER TABLE matches DROP COLUMN digest")
        before.connection.execute("PRAGMA user_version = 5")
        before.connection.commit()
    for game, _ in old:  # reviewed once the database was of schema 5
        keep_review(made_up_review(game, 0.1, 0.0))
    new = [as_saved_now(tmp_path, (f"P{n}", "Q")) for n in range(processes)]
    for game, _ in new:
        keep_review(made_up_review(game, 0.0, 0.04))
    started = time.monotonic()
    children = _indexers_at_once(database, [[path] for _, path in new])
    for child in children:
        _, stderr = child.communicate(timeout=120)
        assert child.returncode == 0, stderr
    with opened(database, ()) as again:
        assert again.note is None
        assert again.connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        (count,) = again.connection.execute("SELECT COUNT(*) FROM matches").fetchone()
        assert count == len(old) + processes  # each match once
        names = players(again)
        for i in range(2):
            assert report(again, f"Old{i}").accuracy == pytest.approx(accuracy(0.1))
        for n in range(processes):
            assert report(again, f"P{n}").accuracy == pytest.approx(accuracy(0.0))
        (missing,) = again.connection.execute(
            "SELECT COUNT(*) FROM matches WHERE digest IS NULL"
        ).fetchone()
    assert missing == 0 and "Bob" in names
    assert time.monotonic() - started < 120
