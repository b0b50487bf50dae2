"""Game files, version 2: the branches of a match (shots taken back, shots played again
from a replay) are saved with it and come back as they were, where the match was; every
branch is read as strictly as the main line; version 1 files still open and verify; and
``poolsim verify`` checks every branch, to the last bit."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules import Player
from sim.play.game import Game, GameSetup, ShotRecord
from sim.play.selfplay import play_turn
from sim.store.gamefile import VERSION, GameFileError, load, save
from sim.store.savedgames import summarise
from sim.store.verify import verify_game
from tests.gamezip import rewrite
from tests.store.test_system_agreement import OLD_FILE

pytestmark = pytest.mark.physics
ROOT = Path(__file__).resolve().parents[2]


def branched() -> Game:
    """Ten shots; the 10th taken back and played again (the first a branch); then from
    the 4th shot a branch of three more shots, where the match is left."""
    match = Game(GameSetup(game="ten-ball", race_to=3, seed=5, players=("Ann", "Bob")))
    match.start(Player.A)
    rng = random.Random(5)
    while len(match.shots) < 10:
        play_turn(match, rng)
    match.shoot(match.take_back().stroke)
    fourth = next(n for n in match.current.path() if n.record is match.shots[3])
    assert fourth.parent is not None
    match.go_to(fourth.parent)
    while len(match.shots) < 6:
        play_turn(match, rng)
    return match


@pytest.fixture(scope="module")
def game() -> Game:
    return branched()


@pytest.fixture
def saved(game: Game, tmp_path: Path) -> Path:
    path = tmp_path / "branched.poolsim"
    save(game, path)
    return path


def document_of(path: Path) -> dict[str, Any]:
    with zipfile.ZipFile(path) as zf:
        document: dict[str, Any] = json.loads(zf.read("game.json"))
    return document


def shape(game: Game) -> list[tuple[int, int, list[str]]]:
    """Each line: where it starts (its depth), and its steps' kinds."""
    return [
        (len(line.start.path()), len(line.nodes), [type(n.record).__name__ for n in line.nodes])
        for line in game.lines()
    ]


def test_branches_come_back_as_they_were_where_the_match_was(game: Game, saved: Path) -> None:
    loaded = load(saved)
    assert shape(loaded) == shape(game) and len(loaded.lines()) == 3
    assert loaded.match == game.match and len(loaded.records) == len(game.records)
    assert not loaded.current.is_mainline() and loaded.next_is_main == game.next_is_main
    for old, new in zip(game.root.nodes(), loaded.root.nodes(), strict=True):
        if isinstance(old.record, ShotRecord):
            assert isinstance(new.record, ShotRecord)
            assert new.record.simulated.facts == old.record.simulated.facts
            assert new.record.ruling == old.record.ruling
    document = document_of(saved)
    assert document["version"] == VERSION
    # The branches in the order they leave the main line: from the 4th shot, the 10th.
    assert [b["from"] for b in document["branches"]] == [
        {"line": 0, "step": len(game.lines()[1].start.path())},
        {"line": 0, "step": len(document["records"]) - 1},
    ]
    assert document["in_play"] == {"line": 1, "step": 3, "next_is_main": False}
    # Saved again, the same document: one way to write a tree.
    again = saved.with_name("again.poolsim")
    save(loaded, again)
    first, second = document_of(saved), document_of(again)
    assert {**first, "created": ""} == {**second, "created": ""}


def test_a_take_back_waiting_for_its_next_shot_is_kept(tmp_path: Path) -> None:
    match = branched()
    match.go_to(match.lines()[0].nodes[-1])
    taken = match.take_back()
    path = tmp_path / "taken.poolsim"
    save(match, path)
    loaded = load(path)
    assert loaded.next_is_main and loaded.current.variations
    played = loaded.shoot(taken.stroke)
    assert loaded.lines()[0].nodes[-1].record is played  # the new attempt is the main line


def test_the_saved_games_list_summarises_the_line_in_play(game: Game, saved: Path) -> None:
    summary = summarise(saved)
    assert summary.problem is None and summary.shots == len(game.shots) == 6


def test_verify_checks_every_branch_bit_for_bit(game: Game, saved: Path) -> None:
    checks = verify_game(load(saved))
    shots = sum(isinstance(n.record, ShotRecord) for n in game.root.nodes())
    assert len(checks) == shots == 10 + 1 + 3
    assert all(check.identical for check in checks)
    assert sum(check.label.startswith("branch 1, rack 1, shot ") for check in checks) == 3
    assert sum(check.label.startswith("branch 2, ") for check in checks) == 1
    result = subprocess.run(
        [sys.executable, "-c", "from sim.cli import main; main()", "verify", str(saved)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == (
        "14 shots re-simulated, in the main line and 2 branches: all bit-identical"
    )


def test_a_version_1_file_opens_verifies_and_saves_as_version_2(tmp_path: Path) -> None:
    assert document_of(OLD_FILE)["version"] == 1
    old = load(OLD_FILE)
    assert len(old.lines()) == 1 and old.current is old.root.end()
    result = subprocess.run(
        [sys.executable, "-c", "from sim.cli import main; main()", "verify", str(OLD_FILE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].endswith(
        "re-simulated, in the main line, no branches: all bit-identical"
    )
    path = tmp_path / "now.poolsim"
    save(old, path)
    assert document_of(path)["version"] == VERSION and shape(load(path)) == shape(old)


BAD: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    (
        "from-a-later-line",
        lambda d: d["branches"][0]["from"].update(line=2),
        "branches[0].from: line 2: expected 0 (the main line) to 0",
    ),
    (
        "from-the-end-of-a-line",
        lambda d: d["branches"][0]["from"].update(step=len(d["records"])),
        "branches[0].from: step",
    ),
    (
        "from-a-branch-start",
        lambda d: d["branches"][1]["from"].update(line=1, step=0),
        "branches[1].from: step 0: line 1 has steps 1 to 2 here",
    ),
    (
        "empty-branch",
        lambda d: d["branches"][0].update(records=[]),
        "branches[0].records: a branch has at least one step",
    ),
    ("branch-key", lambda d: d["branches"][0].update(note="x"), "branches[0].note: unknown key"),
    (
        "in-play-past-the-end",
        lambda d: d["in_play"].update(step=4),
        "in_play: step 4: line 1 has steps 1 to 3 here",
    ),
    ("in-play-missing", lambda d: d.pop("in_play"), "in_play: missing"),
    (
        "next-is-main-not-a-bool",
        lambda d: d["in_play"].update(next_is_main=1),
        "in_play.next_is_main: expected true or false",
    ),
    (
        "a-branch-shot-tampered",
        lambda d: d["branches"][0]["records"][0]["action"].update(speed=1e9),
        "branches[0].records[0].action: speed must be in",
    ),
    (
        "a-branch-ruling-tampered",
        lambda d: d["branches"][1]["records"][0]["ruling"].update(turn=99),
        "branches[1].records[0].ruling: is not the referee's ruling",
    ),
    (
        "version-1-with-branches",
        lambda d: d.update(version=1) or d.pop("arithmetic"),
        "branches: unknown key",
    ),
]


@pytest.mark.parametrize(("name", "edit", "message"), BAD, ids=[case[0] for case in BAD])
def test_a_bad_branch_is_one_line_naming_the_place(
    saved: Path, tmp_path: Path, name: str, edit: Callable[[dict[str, Any]], None], message: str
) -> None:
    bad = rewrite(saved, tmp_path / f"{name}.poolsim", edit)
    with pytest.raises(GameFileError) as caught:
        load(bad)
    text = str(caught.value)
    assert "\n" not in text and text.startswith(str(bad))
    assert message in text, text


def test_a_branch_from_before_the_first_step(tmp_path: Path) -> None:
    """Who breaks agreed one way, then the other: a branch from the main line's step 0."""
    match = Game(GameSetup(seed=2))
    match.start(Player.A)
    match.go_to(match.root)
    match.start(Player.B)
    path = tmp_path / "two-starts.poolsim"
    save(match, path)
    assert document_of(path)["branches"][0]["from"] == {"line": 0, "step": 0}
    loaded = load(path)
    assert shape(loaded) == shape(match) and loaded.rack is not None
    assert loaded.rack.shooter is Player.B and len(loaded.root.variations) == 2
