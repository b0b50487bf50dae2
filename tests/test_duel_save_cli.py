"""``poolsim duel --save DIR`` keeps every rack as a game file, and ``poolsim stats
--import DIR`` counts from them what the duel counted."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.run import poolsim


@pytest.mark.physics
def test_the_racks_a_duel_saves_give_the_statistics_the_duel_counted(tmp_path: Path) -> None:
    saved = tmp_path / "racks"
    duel = poolsim(
        "duel", "--a", "1", "--b", "2", "--racks", "1", "--seed", "3", "--workers", "1",
        "--save", str(saved), "--json",
    )  # fmt: skip
    assert duel.returncode == 0, duel.stderr
    assert [p.name for p in saved.iterdir()] == ["duel-ten-ball-seed3-rack00001.poolsim"]
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
