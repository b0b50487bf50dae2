"""The saved-games list: each file summarised from its game.json (game, players, racks,
shots), newest first, a damaged file listed with its problem, never hidden or raised."""

from __future__ import annotations

import datetime as dt
import os
import random
import zipfile
from pathlib import Path

import pytest

from rules import Player
from sim.physics.simulate import CueAction
from sim.play.game import Game, GameSetup, Stroke
from sim.play.position import Position
from sim.play.selfplay import play_racks
from sim.store.autosave import Autosave
from sim.store.gamefile import save
from sim.store.savedgames import copy_name, saved_games, summarise
from tests.run import ROOT

pytestmark = pytest.mark.physics


@pytest.fixture(scope="module")
def one_rack() -> Game:
    """A rotation match to 2 racks, one rack played: one player leads 1-0."""
    game = Game(GameSetup(game="rotation", race_to=2, seed=4, players=("Ann", "Bob")))
    game.start(Player.A)
    play_racks(game, 1, random.Random(4))
    return game


def test_a_game_file_is_summarised_from_its_header_and_rulings(
    one_rack: Game, tmp_path: Path
) -> None:
    path = tmp_path / "match.poolsim"
    save(one_rack, path)
    summary = summarise(path)
    assert summary.problem is None
    assert (summary.game, summary.players, summary.race_to) == ("rotation", ("Ann", "Bob"), 2)
    assert sorted(summary.racks) == [0, 1] and not summary.finished
    assert summary.shots == len(one_rack.shots)
    game, match, race, progress, _ = summary.columns()
    assert (game, race, progress) == ("61-point rotation", "race to 2", f"{summary.shots} shots")
    winner = next(s.ruling.winner for s in one_rack.shots if s.ruling.rack_over)
    assert match == ("Ann 1-0 Bob" if winner is Player.A else "Ann 0-1 Bob")


def test_a_9_ball_match_is_listed_as_9_ball(tmp_path: Path) -> None:
    """A whole 9-ball match (race to 1) is listed by the game's name, finished."""
    game = Game(GameSetup(game="nine-ball", race_to=1, seed=3, players=("Ann", "Bob")))
    game.start(Player.A)
    play_racks(game, 1, random.Random(3))
    path = tmp_path / "nine.poolsim"
    save(game, path)
    name, _, race, progress, _ = summarise(path).columns()
    assert (name, race, progress) == ("9-ball", "race to 1", "finished")


def test_the_list_is_newest_first_and_keeps_unreadable_files(
    one_rack: Game, tmp_path: Path
) -> None:
    older, newer = tmp_path / "older.poolsim", tmp_path / "newer.poolsim"
    save(one_rack, older)
    save(one_rack, newer)
    os.utime(older, (1_700_000_000, 1_700_000_000))
    (tmp_path / "broken.poolsim").write_bytes(b"PK\x03\x04 not really a zip")
    (tmp_path / "notes.txt").write_text("not a game")
    listed = saved_games([tmp_path, tmp_path / "missing-folder"])
    names = [game.path.name for game in listed]
    assert set(names) == {"older.poolsim", "newer.poolsim", "broken.poolsim"}
    assert names.index("newer.poolsim") < names.index("older.poolsim")
    broken = next(game for game in listed if game.path.name == "broken.poolsim")
    assert broken.problem is not None
    assert broken.columns()[:2] == ("unreadable", "broken.poolsim: damaged: File is not a zip file")


def test_a_zip_that_is_not_a_game(tmp_path: Path) -> None:
    path = tmp_path / "other.poolsim"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("game.json", '{"format": "something-else", "setup": {}, "records": []}')
    assert summarise(path).problem == "not a poolsim game: unknown format"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("readme.txt", "hello")
    assert summarise(path).problem == "no game.json"


@pytest.mark.parametrize(
    ("game_json", "problem"),
    [
        ('{"format": "poolsim-game", "records": []}', "not a poolsim game: no 'setup'"),
        ("[" * 100_000, "not a poolsim game: maximum recursion depth"),
        (
            '{"format": "poolsim-game", "records": [], "setup": {"game": "rotation",'
            ' "players": ["A", "B"], "race_to": Infinity}}',
            "not a poolsim game: cannot convert float infinity",
        ),
        ("\xff not text", "not a poolsim game"),
    ],
)
def test_whatever_a_file_holds_it_is_listed_never_raised(
    tmp_path: Path, game_json: str, problem: str
) -> None:
    path = tmp_path / "odd.poolsim"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("game.json", game_json.encode("latin-1"))
    summary = summarise(path)
    assert summary.problem is not None and summary.problem.startswith(problem)


def test_archived_autosaves_are_in_the_saved_games_list(one_rack: Game, tmp_path: Path) -> None:
    """A new game moves the autosave aside; the list of saved games shows it."""
    autosave = Autosave(tmp_path / "autosave.poolsim")
    autosave.save(one_rack)
    kept = autosave.archive()
    assert kept is not None
    assert [game.path for game in saved_games([autosave.saved_dir])] == [kept.resolve()]


def test_a_saved_copy_is_named_after_the_players_and_the_time() -> None:
    when = dt.datetime(2026, 11, 30, 14, 5)
    assert copy_name(("Ann", "Bob"), when) == "Ann-vs-Bob-2026-11-30-1405.poolsim"
    assert copy_name(("Jo/../x", " "), when) == "Jo-x-vs-player-2026-11-30-1405.poolsim"
    assert copy_name(("Ann", "Computer (level 3)"), when).startswith("Ann-vs-Computer-level-3-")


def test_resuming_the_autosave_removes_what_a_killed_save_left_beside_it(tmp_path: Path) -> None:
    """A save killed mid-write leaves the autosave whole and a temporary file beside it;
    the table that resumes the game removes the temporary, and nothing else."""
    game = play_racks(Game(GameSetup(seed=3)), 1, random.Random(3))
    autosave = Autosave(tmp_path / "autosave.poolsim")
    autosave.save(game)
    leftover = tmp_path / ".autosave.poolsim.k1ll3d.tmp"
    leftover.write_bytes(b"half a zip")
    other = tmp_path / ".other.poolsim.abc.tmp"
    other.write_bytes(b"not ours")
    resumed = autosave.resume()
    assert len(resumed.records) == len(game.records)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".other.poolsim.abc.tmp",
        "autosave.poolsim",
    ]


def test_practice_and_drill_sessions_are_named_for_what_they_are(tmp_path: Path) -> None:
    """Issue 28, friction 13: a drill's session by the drill's title, a practice table's
    as practice with its game and shots (not 'Practice · 0 shots' for both)."""
    from sim.store.drillfile import drill_named

    drill = drill_named("stop-shot").drill
    position = drill.position
    for title, match in ((drill.title, f"Drill: {drill.title}"), ("", "Practice: Ann")):
        setup = GameSetup(
            game=position.game, table=position.table, players=("Ann", "Player 2"),
            practice=True, drill=title,
        )  # fmt: skip
        game = Game(setup)
        game.set_up(position)
        path = tmp_path / f"{title or 'practice'}.poolsim"
        save(game, path)
        summary = summarise(path)
        assert summary.drill == title
        name, shown, race, played, _ = summary.columns()
        assert (name, shown, race, played) == (setup.kind.display_name, match, "", "0 shots")


def test_a_game_copied_from_the_menu_is_not_archived_again(tmp_path: Path) -> None:
    """Issue 28, friction 13: the same match twice in the list was the copy saved from
    the menu and, at the next new game, the autosave of the same game moved beside it.
    Unchanged since the copy, the autosave goes; played on, it is kept as a game of its
    own."""
    autosave = Autosave(tmp_path / "autosave.poolsim")
    game = Game(GameSetup(players=("Ann", "Bob")))
    game.start(Player.A)
    autosave.save(game)
    copy = autosave.saved_dir / "Ann-vs-Bob.poolsim"
    copy.parent.mkdir()
    save(game, copy)
    autosave.copied_to(copy, game)
    autosave.save(game)  # saved again, unchanged
    assert autosave.archive() == copy and not autosave.exists()
    assert [saved.path for saved in saved_games([autosave.saved_dir])] == [copy.resolve()]
    position = drill_position()
    other = Game(GameSetup(game=position.game, players=("Cy", "Di"), practice=True))
    other.set_up(position)
    autosave.save(other)
    second = autosave.saved_dir / "Cy-practice.poolsim"
    save(other, second)
    autosave.copied_to(second, other)
    other.set_up(position)  # played on since the copy: a game of its own
    autosave.save(other)
    kept = autosave.archive()
    assert kept is not None and kept != second and second.is_file()


def test_a_copy_saved_in_an_earlier_session_is_not_archived_again(tmp_path: Path) -> None:
    """The copy saved from the menu, poolsim quit and started again: the new game's
    archive finds the autosave's twin among the saved games (the same game.json but
    for when it was written) and keeps no second copy; a game played on is kept."""
    game = Game(GameSetup(players=("Ann", "Bob")))
    game.start(Player.A)
    Autosave(tmp_path / "autosave.poolsim").save(game)
    autosave = Autosave(tmp_path / "autosave.poolsim")  # the next session's
    copy = autosave.saved_dir / "Ann-vs-Bob.poolsim"
    copy.parent.mkdir()
    save(game, copy)
    (autosave.saved_dir / "broken.poolsim").write_bytes(b"PK not a zip")
    assert autosave.archive() == copy and not autosave.exists()
    other = Game(GameSetup(players=("Ann", "Bob"), seed=2))
    other.start(Player.A)
    autosave.save(other)
    kept = autosave.archive()
    assert kept is not None and kept != copy and kept.is_file()


def drill_position() -> Position:
    from sim.store.drillfile import drill_named

    return drill_named("stop-shot").drill.position


def test_a_drills_shots_are_every_attempts(tmp_path: Path) -> None:
    """Each attempt of a drill starts on a line of its own (the balls back): the list
    counts the shots of every attempt, not only of the line the session ended on."""
    import json

    shot = {"type": "shot", "ruling": {}}
    document = {
        "format": "poolsim-game",
        "setup": {"game": "ten-ball", "race_to": 1, "table": "9ft", "options": {},
                  "players": ["Ann", "Player 2"], "seed": 1, "practice": True,
                  "drill": "Stop shot"},
        "records": [{"type": "setup"}, shot],
        "branches": [{"from": {"line": 0, "step": 1}, "records": [shot]}],
        "in_play": {"line": 1, "step": 0, "next_is_main": False},
    }  # fmt: skip
    path = tmp_path / "drill.poolsim"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("game.json", json.dumps(document))
    assert summarise(path).columns()[1:4] == ("Drill: Stop shot", "", "2 shots")


def test_a_game_of_one_shot_says_1_shot(tmp_path: Path) -> None:
    """Not "1 shots" (issue 28, friction 12)."""
    game = Game(GameSetup(game="nine-ball", race_to=3, players=("Ann", "Bob"), seed=2))
    game.start(Player.A)
    game.shoot(Stroke(action=CueAction(2.0, 90.0), placement=(0.635, 0.5)))
    path = tmp_path / "one.poolsim"
    save(game, path)
    assert summarise(path).columns()[3] == "1 shot"


def test_a_game_of_one_that_keeps_score_is_listed_by_its_score() -> None:
    """A 14.1 game to its points (a race of one game) is listed as its scoreboard shows
    it, "Player A 20-3 Player B", not by the games won (1-0)."""
    summary = summarise(ROOT / "tests" / "data" / "games" / "selfplay-straight-pool-seed1.poolsim")
    assert summary.columns()[1:4] == ("Player A 20-3 Player B", "race to 1", "finished")
