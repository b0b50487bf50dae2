"""Position files: written atomically and read back to the last bit; read strictly, each
bad file (overlapping balls, a ball off the bed or touching a cushion, an unknown ball,
two cue balls, NaN, wrong types, a huge or special file) one line naming the file and
the place."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rules import CUE
from sim.physics.table import BALL_RADIUS
from sim.play.position import Position
from sim.store.positionfile import (
    MAX_FILE_BYTES,
    PositionFileError,
    load_position,
    position_to_json,
    save_position,
)

pytestmark = pytest.mark.physics
R = BALL_RADIUS

GOOD = Position(
    game="rotation",
    table="8ft",
    turn="B",
    in_hand="anywhere",
    balls={CUE: (0.4, 0.9), "1": (0.5, 1.7), "15": (0.123456789012345, 1.98765432109876)},
)


def test_a_position_goes_to_its_file_and_back_to_the_last_bit(tmp_path: Path) -> None:
    path = tmp_path / "drills" / "mine.json"
    save_position(GOOD, path)
    assert load_position(path) == GOOD
    text = path.read_text()
    assert '    "15": [0.123456789012345, 1.98765432109876]' in text.splitlines()  # a ball a line
    assert json.loads(text) == position_to_json(GOOD)
    save_position(Position(game="ten-ball", table="9ft", turn="A", balls={CUE: (0.6, 0.5)}), path)
    assert load_position(path).game == "ten-ball"  # replaced whole
    assert [p.name for p in path.parent.iterdir()] == ["mine.json"]  # no temporary left


def _document(**changes: object) -> str:
    document = position_to_json(GOOD)
    document.update(changes)
    return json.dumps(document)


def _balls(**balls: object) -> str:
    return _document(balls={CUE: [0.4, 0.9], **balls})


BAD_TEXT: list[tuple[str, str, str]] = [
    (
        "overlapping",
        _balls(**{"1": [0.5, 1.7], "2": [0.5 + R, 1.7]}),
        "balls.1: the 1 overlaps the 2",
    ),
    ("into-a-cushion", _balls(**{"3": [0.01, 1.0]}), "balls.3: the 3 overlaps a cushion by"),
    (
        "off-the-table",
        _balls(**{"3": [5.0, 1.0]}),
        "balls.3: the 3 at (5.0000, 1.0000) is off the table",
    ),
    ("unknown-ball", _balls(**{"16": [0.5, 1.0]}), "balls.16: unknown ball"),
    (
        "two-cue-balls",
        _balls().replace('"cue": [0.4, 0.9]', '"cue": [0.4, 0.9], "cue": [0.5, 0.5]'),
        "balls.cue: given twice",
    ),
    ("touching-a-cushion", _balls(**{"4": [R, 1.0]}), "balls.4: the 4 touches a cushion"),
    (
        "nan",
        _balls(**{"5": [0.5, 1.0]}).replace("[0.5, 1.0]", "[NaN, 1.0]"),
        "balls.5: expected [x, y]",
    ),
    (
        "infinity",
        _balls(**{"5": [0.5, 1.0]}).replace("1.0]", "Infinity]"),
        "balls.5: expected [x, y]",
    ),
    (
        "a-ball-as-text",
        _balls(**{"6": "0.5, 1.0"}),
        'balls.6: expected [x, y], two finite numbers of metres, got "0.5, 1.0"',
    ),
    ("three-coordinates", _balls(**{"6": [0.5, 1.0, 0.0]}), "balls.6: expected [x, y]"),
    ("true-as-a-number", _balls(**{"6": [True, 1.0]}), "balls.6: expected [x, y]"),
    ("balls-a-list", _document(balls=[]), "balls: expected an object, got list"),
    ("turn", _document(turn=1), 'turn: expected "A" or "B", got 1'),
    (
        "in-hand",
        _document(cue_ball_in_hand="behind"),
        'cue_ball_in_hand: expected "anywhere" or "kitchen"',
    ),
    ("game-a-number", _document(game=10), "game: expected a string, got int"),
    ("unknown-game", _document(game="snooker"), "game: unknown game 'snooker'"),
    ("unknown-table", _document(table="10ft"), "table: unknown table '10ft'"),
    ("unknown-key", _document(notes="mine"), "notes: unknown key"),
    ("other-format", _document(format="poolsim-game"), "format: not a poolsim position file"),
    ("future-version", _document(version=2), "version: unknown version 2"),
    ("a-float-version", _document(version=1.0), "version: unknown version 1.0"),
    (
        "a-huge-integer",
        _document(version=1).replace('"version": 1', '"version": ' + "9" * 5000),
        "a whole number of 5000 digits",
    ),
    ("not-json", "{", "not valid JSON"),
    ("a-list", "[]", "the position: expected an object, got list"),
    ("nested", "[" * 100_000 + "]" * 100_000, ""),
    ("utf-16", _document().encode("utf-16").decode("latin-1"), "not UTF-8 text"),
]


@pytest.mark.parametrize(("name", "text", "message"), BAD_TEXT, ids=[c[0] for c in BAD_TEXT])
def test_a_bad_position_file_is_one_line_naming_the_place(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    path = tmp_path / f"{name}.json"
    path.write_bytes(text.encode("latin-1") if name == "utf-16" else text.encode())
    with pytest.raises(PositionFileError) as refused:
        load_position(path)
    said = str(refused.value)
    assert said.startswith(f"{path}: ") and "\n" not in said, said
    assert message in said, said


def test_a_missing_huge_or_special_file_is_one_line(tmp_path: Path) -> None:
    huge = tmp_path / "huge.json"
    huge.write_text(_document() + " " * MAX_FILE_BYTES)
    os.mkfifo(tmp_path / "fifo.json")
    for path, words in [
        (huge, "larger than a position file can be"),
        (tmp_path / "gone.json", "cannot read"),
        (tmp_path / "fifo.json", "not a regular file (a FIFO)"),
        (Path("/dev/zero"), "not a regular file (a character device)"),
        (tmp_path, "not a regular file (a folder)"),
    ]:
        with pytest.raises(PositionFileError) as refused:
            load_position(path)
        assert words in str(refused.value) and "\n" not in str(refused.value)


def test_the_example_in_the_documentation_is_a_position(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "POSITION.md").read_text()
    example = text.split("```json\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "example.json"
    path.write_text(example)
    taken = load_position(path)
    assert taken.in_hand is not None and taken.state().ball_in_hand is taken.in_hand
