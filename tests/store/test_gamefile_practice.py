"""Practice sessions in game files (still version 2): the ``setup`` records and
``setup.practice`` come back as they were, a set-up is read as strictly as a position
file, the saved-games list says "Practice", and ``poolsim verify`` checks a practice
file's shots (tests/data/games/practice-nine-ball.poolsim: a set-up, a shot taken again,
the table set up again with the referee on)."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from rules import CUE, Player
from sim.play.game import SetupRecord
from sim.store.gamefile import GameFileError, load, save
from sim.store.savedgames import summarise
from sim.store.verify import verify_game
from tests.gamezip import rewrite

pytestmark = pytest.mark.physics
ROOT = Path(__file__).resolve().parents[2]
PRACTICE_FILE = ROOT / "tests" / "data" / "games" / "practice-nine-ball.poolsim"


def test_a_saved_practice_file_opens_with_its_set_ups_and_branch() -> None:
    session = load(PRACTICE_FILE)
    assert session.setup.practice
    setups = [r for r in session.records if isinstance(r, SetupRecord)]
    assert [s.refereed for s in setups] == [False, True]
    assert setups[0].turn is Player.A and setups[0].in_hand is None
    assert setups[1].in_hand is not None and CUE in setups[1].balls
    assert len(session.lines()) == 2  # the shot taken again is a branch
    assert all(check.identical for check in verify_game(session))


def test_a_practice_file_saves_and_opens_as_it_was(tmp_path: Path) -> None:
    session = load(PRACTICE_FILE)
    again = tmp_path / "again.poolsim"
    save(session, again)
    reopened = load(again)

    def setups(game: Any) -> list[SetupRecord]:
        return [r for r in game.records if isinstance(r, SetupRecord)]

    assert setups(reopened) == setups(session) and len(reopened.records) == 4
    assert reopened.match == session.match and reopened.setup == session.setup


def test_the_saved_games_list_says_practice() -> None:
    listed = summarise(PRACTICE_FILE)
    name = listed.players[0]
    assert listed.practice and listed.columns()[:2] == ("9-ball", f"Practice: {name}")


def _first_setup(document: dict[str, Any]) -> dict[str, Any]:
    return next(r for r in document["records"] if r["type"] == "setup")


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (
            lambda d: _first_setup(d)["balls"].update({"3": [0.36, 1.83]}),
            "records[0].balls.cue: the cue ball overlaps the 3",
        ),
        (lambda d: _first_setup(d)["balls"].update({"12": [0.5, 1.0]}), "not a ball of 9-ball"),
        (lambda d: _first_setup(d)["balls"].update({"3": [-1.0, 1.0]}), "off the table"),
        (lambda d: _first_setup(d).update(turn="C"), "records[0]"),
        (lambda d: _first_setup(d).update(refereed="no"), "records[0].refereed"),
        (lambda d: _first_setup(d).update(extra=1), "records[0].extra: unknown key"),
        (lambda d: d["setup"].update(practice=1), "setup.practice"),
    ],
)
def test_a_wrong_set_up_is_one_line_naming_the_place(tmp_path: Path, edit: Any, said: str) -> None:
    bad = rewrite(PRACTICE_FILE, tmp_path / "bad.poolsim", edit)
    with pytest.raises(GameFileError, match=re.escape(said)) as caught:
        load(bad)
    assert "\n" not in str(caught.value)


def test_poolsim_verify_checks_a_practice_file() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sim.cli", "verify", str(PRACTICE_FILE)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "3 shots re-simulated, in the main line and 1 branch: all bit-identical" in done.stdout


def test_a_break_set_up_on_the_practice_table_is_kept_as_one(tmp_path: Path) -> None:
    from rules import Phase
    from sim.play.game import Game, GameSetup
    from sim.play.table.tablesetup import TableSetup

    setup = GameSetup(game="ten-ball", practice=True)
    setting = TableSetup(setup=setup, balls={})
    setting.set_referee(True)
    setting.rack()
    session = Game(setup)
    session.set_up(setting.position(), refereed=True, breaking=True)
    path = tmp_path / "break.poolsim"
    save(session, path)
    assert '"break": true' in zipfile.ZipFile(path).read("game.json").decode()
    reopened = load(path)
    (record,) = [r for r in reopened.records if isinstance(r, SetupRecord)]
    assert record.breaking and reopened.rack is not None and reopened.rack.phase is Phase.BREAK
