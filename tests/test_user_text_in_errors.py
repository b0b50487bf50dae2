"""What an error prints of a user's text: every piece through one function
(``rules.reading.shown_text``), so a key holding ESC[2J or a newline neither clears the
terminal nor splits the line, and a 50,000-character key is cut with its length said;
at every command that reads a user's file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules.reading import at, shown_text
from tests.gamezip import rewrite
from tests.run import ROOT, poolsim

GAME = ROOT / "tests" / "data" / "games" / "ten-ball-saved-by-56f7334.poolsim"
DRILL = ROOT / "assets" / "drills" / "01-stop-shot.json"
CLEARS_THE_SCREEN = "\x1b[2J\nX"
LONG = "k" * 50_000


def test_control_characters_are_escaped_and_long_text_cut_with_its_length() -> None:
    assert shown_text("cue") == "cue"
    assert shown_text(CLEARS_THE_SCREEN) == "\\x1b[2J\\nX"
    assert shown_text("a\x00b\u2028c\td") == "a\\x00b\\u2028c\\td"
    assert shown_text(LONG) == "k" * 60 + "... (50,000 characters)"
    shown = shown_text(CLEARS_THE_SCREEN * 100, limit=10)
    assert shown.isprintable() and shown.endswith("... (600 characters)")
    assert shown_text(shown_text(CLEARS_THE_SCREEN)) == shown_text(CLEARS_THE_SCREEN)
    assert at("balls", CLEARS_THE_SCREEN) == "balls.\\x1b[2J\\nX"


def _position(path: Path, key: str) -> list[str]:
    document = {
        "format": "poolsim-position",
        "version": 1,
        "game": "nine-ball",
        "table": "9ft",
        "turn": "A",
        "cue_ball_in_hand": None,
        "balls": {"cue": [0.635, 0.4], "1": [0.635, 1.905]},
        key: 1,
    }
    path.write_text(json.dumps(document))
    return [str(path)]


def _drill(path: Path, key: str) -> list[str]:
    document = json.loads(DRILL.read_text())
    document["goal"][key] = 1
    path.write_text(json.dumps(document))
    return [str(path)]


def _game(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    rewrite(GAME, path, change)


def _game_key(path: Path, key: str) -> list[str]:
    _game(path.with_suffix(".poolsim"), lambda document: document.update({key: 1}))
    return [str(path.with_suffix(".poolsim"))]


def _option_key(path: Path, key: str) -> list[str]:
    _game(path.with_suffix(".poolsim"), lambda d: d["setup"]["options"].update({key: 1}))
    return [str(path.with_suffix(".poolsim"))]


@pytest.mark.parametrize(
    ("command", "write", "place"),
    [
        (["export", "--diagram", "out.png"], _position, ""),
        (["play", "--practice", "--position"], _position, ""),
        (["drill"], _drill, "goal."),
        (["verify"], _game_key, ""),
        (["verify"], _option_key, "setup.options."),
    ],
)
@pytest.mark.parametrize("key", [CLEARS_THE_SCREEN, LONG])
def test_a_key_from_a_users_file_is_shown_escaped_and_cut(
    tmp_path: Path,
    command: list[str],
    write: Callable[[Path, str], list[str]],
    place: str,
    key: str,
) -> None:
    files = write(tmp_path / "file.json", key)
    result = poolsim(*command, *files)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].isprintable(), result.stderr
    assert f": {place}{shown_text(key)}: unknown" in lines[0]
    assert len(lines[0]) < 300
