"""Drill files, read strictly: a good file gives its drill and reference strokes; each bad
one (a goal ball not on the table, an unknown pocket, a zone off the bed, NaN, a wrong
or missing key, a bad position, a bad stroke) is one line naming the file and the place."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from rules import PocketId
from sim.play.drill import CircleZone, RectangleZone
from sim.store.drillfile import DrillFileError, drill_named, load_drill, shipped_drills

pytestmark = pytest.mark.physics

GOOD: dict[str, Any] = {
    "format": "poolsim-drill",
    "version": 1,
    "name": "my-stop",
    "title": "My stop shot",
    "instruction": "Pocket the 3 and stop.",
    "attempts": 4,
    "position": {
        "game": "ten-ball",
        "table": "9ft",
        "turn": "A",
        "cue_ball_in_hand": None,
        "balls": {"cue": [0.6, 1.5], "3": [0.9, 2.1]},
    },
    "goal": {"balls": {"3": ["rt", "lt"]}, "zone": {"centre": [0.9, 2.1], "radius": 0.08}},
}


def _write(tmp_path: Path, document: Any, name: str = "drill.json") -> Path:
    path = tmp_path / name
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return path


def _changed(where: str, value: Any) -> dict[str, Any]:
    """GOOD with the value at ``where`` (``goal.zone.radius``) set, or removed (...)."""
    document = copy.deepcopy(GOOD)
    *path, last = where.split(".")
    target = document
    for key in path:
        target = target[key]
    if value is ...:
        del target[last]
    else:
        target[last] = value
    return document


def test_a_good_file_gives_its_drill(tmp_path: Path) -> None:
    shipped = load_drill(_write(tmp_path, GOOD))
    drill = shipped.drill
    assert (drill.name, drill.title, drill.attempts, drill.shots) == (
        "my-stop",
        "My stop shot",
        4,
        1,
    )
    assert drill.goal.pots[0].pockets == frozenset({PocketId.RT, PocketId.LT})
    assert drill.goal.zone == CircleZone((0.9, 2.1), 0.08)
    assert shipped.reference == ()
    rectangle = _changed("goal.zone", {"corners": [[0.2, 0.3], [0.5, 0.6]]})
    rectangle["goal"]["balls"] = {"3": "any"}
    rectangle["reference"] = [{"speed": 2, "aim": 45.5, "b": -0.2}]
    shipped = load_drill(_write(tmp_path, rectangle))
    assert shipped.drill.goal.zone == RectangleZone((0.2, 0.3), (0.5, 0.6))
    assert shipped.drill.goal.pots[0].pockets is None
    assert shipped.reference[0].b == -0.2
    assert not (drill.tracking or drill.hint)  # a drill allows no aids unless it says so
    aided = load_drill(_write(tmp_path, _changed("aids", {"tracking": True}))).drill
    assert aided.tracking and not aided.hint


BAD: list[tuple[str, Any, str]] = [
    ("goal.balls", {"7": "any"}, "goal.balls.7: the 7 is not on the table"),
    ("goal.balls", {"16": "any"}, "goal.balls.16: unknown ball"),
    ("goal.balls", {"3": ["xx"]}, 'goal.balls.3[0]: unknown pocket "xx"'),
    ("goal.balls", {"3": ["rt", "rt"]}, 'goal.balls.3[1]: pocket "rt" given twice'),
    ("goal.balls", {"3": []}, 'goal.balls.3: expected "any" or a list of pockets'),
    ("goal.zone", {"centre": [1.2, 2.1], "radius": 0.2}, "goal.zone: off the bed"),
    ("goal.zone.radius", float("nan"), "goal.zone.radius: expected metres, a finite number"),
    ("goal.zone.centre", [0.5, "x"], "goal.zone.centre: expected [x, y]"),
    (
        "goal.zone",
        {"centre": [0.5, 1.0], "radius": 0.1, "shape": "o"},
        "goal.zone.shape: unknown key",
    ),
    ("goal.zone", {"corners": [[0.1, 0.1]]}, "goal.zone.corners: expected [[x, y], [x, y]]"),
    ("goal.zone", ..., "goal.zone: missing"),
    ("goal.extra", 1, "goal.extra: unknown key"),
    ("attempts", 0, "attempts: from 1 to 100"),
    ("attempts", True, "attempts: expected a number, got True"),
    ("shots", 99, "shots: from 1 to 15"),
    ("name", "Stop Shot!", "name: a name of lower-case letters"),
    ("title", 3, "title: expected a string, got int"),
    ("instruction", ..., "instruction: missing"),
    (
        "instruction",
        "stop\x00here",
        'instruction: expected text of printable characters on one line, got "stop\\u0000here"',
    ),
    ("title", "Stop\nshot", "title: expected text of printable characters on one line"),
    ("reference", [{"speed": 2, "aim": 1e308}], "reference[0].aim: expected degrees from -360"),
    ("reference", [{"speed": 2, "aim": -361}], "reference[0].aim: expected degrees from -360"),
    ("colour", "red", "colour: unknown key"),
    ("aids", {"tracking": 1}, "aids.tracking: expected true or false, got int"),
    ("aids", {"ghost": True}, "aids.ghost: unknown key"),
    ("format", "poolsim-position", "format: not a poolsim drill file"),
    ("version", 2, "version: unknown version 2"),
    (
        "position.balls",
        {"cue": [0.6, 1.5], "3": [0.61, 1.5]},
        "position.balls.cue: the cue ball overlaps the 3",
    ),
    (
        "position.balls",
        {"cue": [0.6, 1.5], "3": [0.9, 2.1], "12": [0.3, 0.3]},
        "position.balls.12: not a ball",
    ),
    ("position.turn", "C", 'position.turn: expected "A" or "B"'),
    ("position.format", "x", "position.format: unknown key"),
    ("scoring", {"ball": 10, "zone": 10}, "scoring.near: missing"),
    ("scoring", {"ball": 10, "zone": 10, "near": -1}, "scoring.near: metres from 0 to 3"),
    ("reference", [{"speed": 99, "aim": 0}], "reference[0]: speed must be in"),
    ("reference", [{"speed": 2, "aim": 0, "spin": 1}], "reference[0].spin: unknown key"),
    (
        "reference",
        [{"speed": 2, "aim": 0}, {"speed": 2, "aim": 0}],
        "reference: expected a list of 1 to 1",
    ),
]


@pytest.mark.parametrize(("where", "value", "said"), BAD)
def test_a_bad_drill_is_one_line_naming_the_file_and_the_place(
    tmp_path: Path, where: str, value: Any, said: str
) -> None:
    path = _write(tmp_path, _changed(where, value))
    with pytest.raises(DrillFileError) as caught:
        load_drill(path)
    line = str(caught.value)
    assert "\n" not in line
    assert line.startswith(f"{path}: {said}"), line


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"format": "poolsim-drill", "format": "x"}', "format: given twice"),
        ("[1, 2]", "the drill: expected an object"),
        ("{", "not valid JSON"),
        ('{"attempts": NaN}', "format: not a poolsim drill file"),
    ],
)
def test_text_that_is_no_drill_is_one_line(tmp_path: Path, text: str, said: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(DrillFileError, match=said):
        load_drill(path)
    with pytest.raises(DrillFileError, match=r"cannot read|not a regular file|no such"):
        load_drill(tmp_path / "missing.json")


def test_the_shipped_drills_read_and_are_found_by_name() -> None:
    drills = shipped_drills()
    names = [s.drill.name for s in drills]
    assert len(names) >= 8 and len(set(names)) == len(names)
    for shipped in drills:
        assert shipped.path.name.endswith(f"-{shipped.drill.name}.json")
        assert shipped.reference, f"{shipped.path.name} has no reference stroke"
    assert drill_named("stop-shot").drill.title == "Stop shot"
    with pytest.raises(DrillFileError, match='no drill called "nope"; the drills are stop-shot'):
        drill_named("nope")
