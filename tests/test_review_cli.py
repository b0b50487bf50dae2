"""``poolsim review``: a game reviewed, as lines or one JSON object, saved with the
game's digest; a review of another game at --save refused; bad input one line, status
2, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.run import ROOT, poolsim

GAMES = ROOT / "tests" / "data" / "games"
PRACTICE = str(GAMES / "practice-nine-ball.poolsim")  # one refereed shot: quick at level 1


def _refused(result: object, said: str) -> None:
    assert result.returncode == 2, result.stderr  # type: ignore[attr-defined]
    lines = [
        line
        for line in result.stderr.splitlines()  # type: ignore[attr-defined]
        if not line.startswith("Bytecode compiled")
    ]
    assert len(lines) == 1 and said in lines[0], lines


def test_a_game_reviewed_as_json_and_saved_with_its_digest(tmp_path: Path) -> None:
    out = tmp_path / "review.json"
    result = poolsim(
        "review", PRACTICE, "--level", "1", "--workers", "1", "--json", "--save", str(out)
    )
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    assert set(printed["players"]) == {"A", "B"}
    (shot,) = printed["shots"]
    assert {"best", "chosen", "actual", "tag", "skill", "luck", "best_option"} <= set(shot)
    assert shot["tag"] in ("best", "good", "inaccuracy", "mistake", "blunder")
    assert json.loads(out.read_text()) == printed  # the file is the review, digest and all
    again = poolsim("review", PRACTICE, "--level", "1", "--workers", "1")
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("rack 2, shot 1 (A): best ")
    assert "accuracy" in again.stdout and again.stderr.count("\n") <= 3  # no bar when piped


def test_a_review_of_another_game_is_not_written_over(tmp_path: Path) -> None:
    out = tmp_path / "review.json"
    other = {
        "format": "poolsim-review",
        "version": 1,
        "game": "0" * 64,
        "level": "5",
        "line": 0,
        "players": {},
        "shots": [],
    }
    out.write_text(json.dumps(other))
    before = out.read_bytes()
    result = poolsim("review", PRACTICE, "--level", "1", "--save", str(out))
    _refused(result, "is the review of another game")
    assert out.read_bytes() == before
    (tmp_path / "notes.txt").write_text("my notes")
    result = poolsim("review", PRACTICE, "--level", "1", "--save", str(tmp_path / "notes.txt"))
    _refused(result, "not a poolsim review")
    assert (tmp_path / "notes.txt").read_text() == "my notes"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["review", "/nonexistent.poolsim"], "/nonexistent.poolsim: cannot read"),
        (["review", "/dev/null"], "not a regular file"),
        (["review", str(GAMES)], "not a regular file"),
        (["review", PRACTICE, "--branch", "7"], "the game has no branch 7"),
        (["review", PRACTICE, "--level", "6"], "'6' is not one of"),
        (
            ["review", PRACTICE, "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
            "--workers and --scheduler",
        ),
        (["review", PRACTICE, "--scheduler", "nowhere"], "is not a scheduler address"),
        (["review"], "give a game FILE or --racks DIR"),
        (["review", "--racks", str(GAMES), "--branch", "1"], "--branch applies to one game FILE"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], said: str, tmp_path: Path) -> None:
    out = tmp_path / "review.json"
    _refused(poolsim(*args, "--save", str(out)) if args[-1] != "1" else poolsim(*args), said)
    assert not out.exists()


def test_a_corrupt_game_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.poolsim"
    bad.write_bytes((GAMES / "practice-nine-ball.poolsim").read_bytes()[:200])
    _refused(poolsim("review", str(bad)), "not a poolsim game file")


def test_a_folder_of_games_reviewed_by_who_played(tmp_path: Path) -> None:
    folder = tmp_path / "racks"
    folder.mkdir()
    (folder / "one.poolsim").write_bytes((GAMES / "practice-nine-ball.poolsim").read_bytes())
    result = poolsim("review", "--racks", str(folder), "--level", "1", "--workers", "1", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["games"] == 1 and report["level"] == "1"
    person = report["levels"]["person"]
    assert person["shots"] == 1 and 0 <= person["accuracy"] <= 100
    assert person["luck_standard_error"] == 0.0  # one shot: no spread to speak of


def test_a_folder_review_keeps_each_game_and_goes_on_from_what_it_kept(tmp_path: Path) -> None:
    folder = tmp_path / "racks"
    folder.mkdir()
    (folder / "one.poolsim").write_bytes((GAMES / "practice-nine-ball.poolsim").read_bytes())
    args = ("review", "--racks", str(folder), "--level", "1", "--workers", "1", "--json")
    first = poolsim(*args)
    assert first.returncode == 0, first.stderr
    kept = folder / "one.review-level1.json"
    data = json.loads(kept.read_text())
    assert data["level"] == "1" and len(data["shots"]) == 1
    # A run stopped part way starts again from the reviews kept: marked here so that
    # the figure printed can only have come from the kept file.
    data["shots"][0]["accuracy"] = 12.5
    kept.write_text(json.dumps(data))
    again = poolsim(*args)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["levels"]["person"]["accuracy"] == 12.5
    # A kept review of another game is not used: the game is reviewed again.
    data["game"] = "0" * 64
    kept.write_text(json.dumps(data))
    third = poolsim(*args)
    assert json.loads(third.stdout) == json.loads(first.stdout)
    assert json.loads(kept.read_text())["game"] != "0" * 64
