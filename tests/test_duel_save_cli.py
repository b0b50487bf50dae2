"""``poolsim duel --save DIR`` keeps every rack as a game file, and ``poolsim stats
--import DIR`` counts from them what the duel counted. Seed 2: its first two racks
between levels 1 and 2 are short ones (24 and 38 shots; seed 3's first is 60)."""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import pytest

from sim.play.duel import DuelSetup, RackOutcome, SideFigures
from sim.store.duelfile import save_rack
from tests.run import poolsim


@pytest.mark.physics
def test_the_racks_a_duel_saves_give_the_statistics_the_duel_counted(tmp_path: Path) -> None:
    saved = tmp_path / "racks"
    duel = poolsim(
        "duel", "--a", "1", "--b", "2", "--racks", "1", "--seed", "2", "--workers", "1",
        "--save", str(saved), "--json",
    )  # fmt: skip
    assert duel.returncode == 0, duel.stderr
    assert sorted(p.name for p in saved.iterdir()) == [
        "duel-ten-ball-seed2-rack00001.json",
        "duel-ten-ball-seed2-rack00001.poolsim",
    ]
    env = {**os.environ, "POOLSIM_DATA_DIR": str(tmp_path / "user")}
    stats = poolsim("stats", "--import", str(saved), "--json", env=env)
    assert stats.returncode == 0, stats.stderr
    counted = json.loads(duel.stdout)["players"]
    players = {p["player"]: p for p in json.loads(stats.stdout)["players"]}
    assert set(players) == {"computer 1", "computer 2"}
    for side, name in (("A", "computer 1"), ("B", "computer 2")):
        figures, theirs = players[name], counted[side]
        assert figures["racks_won"] == theirs["racks_won"]
        assert figures["breaks"] == theirs["breaks"]
        assert figures["shots"] == theirs["shots"]
        assert figures["fouls"] == theirs["fouls"]
        assert figures["pots_attempted"] == theirs["called_pots_attempted"]
        assert figures["pots_made"] == theirs["called_pots_made"]
    _every_decision_is_made_again(saved / "duel-ten-ball-seed2-rack00001.poolsim")


def _every_decision_is_made_again(rack: Path) -> None:
    """``poolsim verify --decisions`` on a duel's rack decides every computer's shot and
    choice again (the rack records its players as the window does), all the same."""
    with zipfile.ZipFile(rack) as zf:
        records = json.loads(zf.read("game.json"))["records"]
    decided = [r for r in records if r["type"] in ("shot", "choice")]
    # A shot's computer is its "player"; a choice's, its "computer" ("player" is the seat).
    computers = [r["player"] if r["type"] == "shot" else r["computer"] for r in decided]
    assert decided and all(computer["kind"] == "computer" for computer in computers)
    verified = poolsim("verify", "--decisions", str(rack))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.splitlines()[-1] == (
        f"{len(decided)} computer's decisions made again: all the same"
    )


@pytest.mark.physics
def test_a_duel_started_again_with_its_folder_plays_only_the_racks_missing(
    tmp_path: Path,
) -> None:
    saved = tmp_path / "racks"
    duel = ("duel", "--a", "1", "--b", "2", "--seed", "2", "--workers", "1", "--save", str(saved))
    first = poolsim(*duel, "--racks", "1", "--json")
    assert first.returncode == 0, first.stderr
    kept = (saved / "duel-ten-ball-seed2-rack00001.json").read_bytes()
    more = poolsim(*duel, "--racks", "2", "--json")
    assert more.returncode == 0, more.stderr
    assert "1 of 2 racks already played" in more.stderr
    assert (saved / "duel-ten-ball-seed2-rack00001.json").read_bytes() == kept
    assert sorted(p.name for p in saved.iterdir()) == [
        "duel-ten-ball-seed2-rack00001.json",
        "duel-ten-ball-seed2-rack00001.poolsim",
        "duel-ten-ball-seed2-rack00002.json",
        "duel-ten-ball-seed2-rack00002.poolsim",
    ]
    once, both = json.loads(first.stdout)["players"], json.loads(more.stdout)["players"]
    assert json.loads(more.stdout)["racks"] == 2
    for side in ("A", "B"):
        assert both[side]["shots"] > once[side]["shots"]  # rack 2 counted on top of rack 1


def test_a_folder_of_another_duel_is_refused_before_any_rack_is_played(tmp_path: Path) -> None:
    saved = tmp_path / "racks"
    saved.mkdir()
    other = DuelSetup(game="ten-ball", levels=("4", "3"), racks=1, seed=2)
    save_rack(saved, other, RackOutcome(0, None, (SideFigures(), SideFigures())))
    before = sorted((p.name, p.read_bytes()) for p in saved.iterdir())
    duel = poolsim(
        "duel", "--a", "1", "--b", "2", "--racks", "1", "--seed", "2", "--save", str(saved)
    )  # fmt: skip
    assert duel.returncode == 2
    assert duel.stderr.count("\n") == 1
    assert "a rack of another duel (its levels is not this duel's)" in duel.stderr
    assert sorted((p.name, p.read_bytes()) for p in saved.iterdir()) == before
