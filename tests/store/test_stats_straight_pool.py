"""14.1's own figures (SP-17: the balls of the runs, the innings, the high run), counted
from a game file's JSON and from the live game alike, as ``poolsim stats`` shows them."""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from pathlib import Path

from rules import GameState, Player
from rules.figures import innings_runs
from sim.physics.table import table_spec
from sim.play.figures.live import figures_of, steps_of
from sim.store.gamefile import load
from sim.store.stats.figures import file_figures, steps_of_document
from tests.run import poolsim

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "tests/data/games/selfplay-straight-pool-seed1.poolsim"
OWN = ("balls", "innings", "high_run")


def document() -> dict[str, object]:
    with zipfile.ZipFile(GAME) as zf:
        data: dict[str, object] = json.loads(zf.read("game.json"))
    return data


def test_the_file_and_the_live_game_count_the_same_runs() -> None:
    game = load(GAME)
    live = figures_of(game)
    counted = file_figures(document(), table_spec(game.setup.table))
    assert [f.name for f in live.own_figures] == list(OWN)
    assert live.own == counted.own
    # The steps carry the same balls scored, shot by shot, read either way.
    from_file = [s.scored for s in steps_of_document(document())]
    assert from_file == [s.scored for s in steps_of(game.records, game.setup.kind)]
    # A game that counts only the balls pocketed (every game but 14.1) would miss none
    # here, and the points are read from the extras: some shot scored.
    assert sum(from_file) > 0


def test_the_high_run_is_the_referees_and_the_balls_are_the_runs() -> None:
    game = load(GAME)
    figures = figures_of(game)
    state = game.rack
    assert state is not None
    steps = list(steps_of(game.records, game.setup.kind))
    for index, player in enumerate(Player):
        own = figures.own[index]
        runs = innings_runs(steps, player)
        assert own["high_run"] == max(runs) == state.high_run[player]  # type: ignore[attr-defined]
        assert own["balls"] == sum(runs) and own["innings"] == len(runs)
        # Every ball a player scored is in their score but for the penalties taken.
        assert own["balls"] >= state.score[player]


def test_a_game_of_only_balls_pocketed_scores_each_unfouled_pot() -> None:
    assert GameState.balls_scored(False, ("1", "2"), None) == 2
    assert GameState.balls_scored(True, ("1",), None) == 0


def test_poolsim_stats_shows_the_runs_of_a_folder_holding_a_game(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    shutil.copy(GAME, games)
    env = {**os.environ, "POOLSIM_DATA_DIR": str(tmp_path / "user")}
    result = poolsim("stats", "--import", str(games), "--json", env=env)
    assert result.returncode == 0, result.stderr
    shown = {p["player"]: p["own_figures"] for p in json.loads(result.stdout)["players"]}
    game = load(GAME)
    live = figures_of(game)
    assert shown == {
        name: {key: own[key] for key in sorted(OWN)}
        for name, own in zip(game.setup.players, live.own, strict=True)
    }
    table = poolsim("stats", env=env)
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    for words in ("balls in runs", "innings", "balls per inning", "high run"):
        assert any(line.startswith(words) for line in lines), words
    per_inning = next(line for line in lines if line.startswith("balls per inning")).split()[3:]
    expected = [f"{own['balls'] / own['innings']:.2f}" for own in live.own]
    assert per_inning == expected


def test_the_match_summary_shows_the_runs_and_balls_per_inning() -> None:
    from sim.app.screens.summary import summary_rows

    figures = figures_of(load(GAME))
    rows = {what: (left, right) for left, what, right in summary_rows(figures)}
    a, b = figures.own
    assert rows["balls in runs"] == (str(a["balls"]), str(b["balls"]))
    assert rows["innings"] == (str(a["innings"]), str(b["innings"]))
    assert rows["high run"] == (str(a["high_run"]), str(b["high_run"]))
    assert rows["balls per inning"] == tuple(
        f"{own['balls'] / own['innings']:.2f}" for own in (a, b)
    )


def test_a_14_1_duel_reports_its_runs_once_under_its_own_keys() -> None:
    """The duel reads 14.1's own figures from the runs it keeps for every game: its
    report has balls per inning and the high run, not the game's names again."""
    from sim.play.duel import DuelSetup, figures

    report = figures(DuelSetup(game="straight-pool", levels=("1", "1"), racks=0, seed=1), [])
    a = report["players"]["A"]
    assert "own_figures" not in report and "balls" not in a
    assert (a["innings"], a["balls_per_inning"], a["high_run"]) == (0, 0.0, 0)


def test_a_database_of_schema_3_is_indexed_again_for_14_1s_runs(tmp_path: Path) -> None:
    """A 14.1 game indexed before its runs were its own figures gets them."""
    from sim.store.stats.database import opened
    from sim.store.stats.report import report

    path = tmp_path / "stats.sqlite3"
    shutil.copy(GAME, tmp_path / "game.poolsim")
    with opened(path, [tmp_path]) as database:
        database.connection.execute("DELETE FROM own_figures")  # as schema 3 indexed it
        database.connection.execute("PRAGMA user_version = 3")
        database.connection.commit()
    with opened(path, []) as database:
        assert report(database, "Player A").own["high_run"] > 0
