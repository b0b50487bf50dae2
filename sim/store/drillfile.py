"""Drill files: one small JSON document a person can read and write by hand
(docs/DRILLS.md)::

    {"format": "poolsim-drill", "version": 1, "name": "stop-shot", "title": "Stop shot",
     "instruction": "...", "attempts": 5,
     "position": {"game": "ten-ball", "table": "9ft", "turn": "A",
                  "cue_ball_in_hand": null, "balls": {"cue": [...], "3": [...]}},
     "goal": {"balls": {"3": ["rt"]}, "zone": {"centre": [x, y], "radius": 0.1}},
     "scoring": {"ball": 10, "zone": 10, "near": 0.3}}

Read as strictly as position files, with their reader's pieces
(``sim.store.positionfile``) and the checks of :class:`~sim.play.position.Position` and
:class:`~sim.play.drill.Drill`: anything wrong is one :class:`DrillFileError` line naming
the file and the place (``goal.balls.7: the 7 is not on the table``).

The drills poolsim ships are the files of ``assets/drills/`` (:func:`shipped_drills`),
each with a reference stroke the tests play to show it can be made.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import attrs

from rules import PocketId
from rules.errors import FormatError
from rules.facts import BALL_IDS
from rules.reading import converted, is_finite_number, is_whole
from sim.limits import MAX_AIM_DEGREES
from sim.paths import assets_dir
from sim.physics.simulate import CueAction
from sim.play.drill import (
    CircleZone,
    Drill,
    Goal,
    PotGoal,
    RectangleZone,
    Scoring,
    Zone,
)
from sim.play.position import PositionError
from sim.store.positionfile import (
    POSITION_KEYS,
    StrictReader,
    point,
    position_of,
    read_json_file,
    shown,
)

FORMAT = "poolsim-drill"
VERSION = 1
SUFFIX = ".json"
MAX_FILE_BYTES = 64 * 2**10
NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")  # a drill's name: the file's, on the command line
REQUIRED = ("format", "version", "name", "title", "instruction", "position", "goal", "attempts")
OPTIONAL = ("shots", "scoring", "reference", "aids")
AIDS = ("tracking", "hint")  # the aids a drill may allow, each off unless it says so
STROKE_KEYS = ("speed", "aim", "elevation", "a", "b")


class DrillFileError(ValueError):
    """A drill file that cannot be read (one line: the file, where, what is wrong)."""


@attrs.frozen
class ShippedDrill:
    """A drill and its reference strokes (the strokes that make it, one per shot of the
    attempt; empty when the file gives none)."""

    drill: Drill
    path: Path
    reference: tuple[CueAction, ...] = ()


def load_drill(path: Path) -> ShippedDrill:
    """The drill in ``path``; :class:`DrillFileError` (one line) for anything wrong."""
    path = Path(path)
    document = read_json_file(path, MAX_FILE_BYTES, DrillFileError, "a drill")
    try:
        drill, reference = _drill(document)
    except FormatError as error:
        raise DrillFileError(f"{path}: {error.key}: {error.problem}") from None
    return ShippedDrill(drill, path, reference)


def drills_dir() -> Path:
    return assets_dir() / "drills"


def shipped_drills() -> list[ShippedDrill]:
    """Every drill poolsim ships, in the order of their files' names (a numbered prefix
    orders them easiest first)."""
    return [load_drill(path) for path in sorted(drills_dir().glob(f"*{SUFFIX}"))]


def drill_named(name: str) -> ShippedDrill:
    """The shipped drill called ``name``; DrillFileError naming the drills there are."""
    drills = shipped_drills()
    for shipped in drills:
        if shipped.drill.name == name:
            return shipped
    names = ", ".join(s.drill.name for s in drills)
    raise DrillFileError(f"no drill called {shown(name)}; the drills are {names}")


# -- reading --------------------------------------------------------------------------------


def _drill(document: Any) -> tuple[Drill, tuple[CueAction, ...]]:
    top = StrictReader(document, "", "the drill")
    if top.data.get("format") != FORMAT:
        raise FormatError("format", f"not a poolsim drill file (format {top.data.get('format')!r})")
    version = top.data.get("version")
    if not is_whole(version) or version != VERSION:
        raise FormatError(
            "version", f"unknown version {shown(version)}; this poolsim reads {VERSION}"
        )
    top.keys(REQUIRED, OPTIONAL)
    position = top.sub("position").keys(POSITION_KEYS)
    try:
        at_position = position_of(position)
    except PositionError as error:  # the position's own checks name its parts alone
        raise error.under("position") from None
    drill = Drill(
        name=top.convert("name", _name),
        title=_printable(top, "title"),
        instruction=_printable(top, "instruction"),
        position=at_position,
        goal=_goal(top.sub("goal")),
        attempts=top.get("attempts", int),
        shots=top.get("shots", int) if "shots" in top.data else 1,
        scoring=_scoring(top.sub("scoring")) if "scoring" in top.data else Scoring(),
        **_aids(top.sub("aids") if "aids" in top.data else None),
    )
    reference: tuple[CueAction, ...] = ()
    if "reference" in top.data:
        reference = _reference(top.data["reference"], drill)
    return drill, reference


def _printable(reader: StrictReader, key: str) -> str:
    """Text the table shows: a NUL, an escape or a line break in it would be drawn as
    Panda3D's warnings, or not at all."""
    text = reader.get(key, str)
    if not text.isprintable():
        raise FormatError(
            reader.at(key), f"expected text of printable characters on one line, got {shown(text)}"
        )
    return text


def _name(value: Any) -> str:
    if not isinstance(value, str) or NAME.fullmatch(value) is None:
        raise ValueError(
            f"a name of lower-case letters, digits and '-', at most 40, got {shown(value)}"
        )
    return value


def _goal(reader: StrictReader) -> Goal:
    reader.keys(("balls", "zone"))
    balls = reader.sub("balls")
    pots = []
    for ball, value in balls.data.items():
        if ball not in BALL_IDS:
            raise FormatError(balls.at(ball), "unknown ball (the balls are 1 to 15)")
        pots.append(PotGoal(ball, converted(balls.at(ball), value, _pockets)))
    zone = None if reader.data["zone"] is None else _zone(reader.sub("zone"))
    return Goal(tuple(pots), zone)


def _pockets(value: Any) -> frozenset[PocketId] | None:
    """``"any"`` or a list of pocket ids."""
    ids = [p.value for p in PocketId]
    if value == "any":
        return None
    if not isinstance(value, list) or not value:
        raise ValueError(
            f'expected "any" or a list of pockets ({", ".join(ids)}), got {shown(value)}'
        )
    pockets = set()
    for index, pocket in enumerate(value):
        if not isinstance(pocket, str) or pocket not in ids:
            raise FormatError(
                f"[{index}]", f"unknown pocket {shown(pocket)} (the pockets are {', '.join(ids)})"
            )
        if pocket in pockets:
            raise FormatError(f"[{index}]", f"pocket {shown(pocket)} given twice")
        pockets.add(pocket)
    return frozenset(PocketId(p) for p in pockets)


def _zone(reader: StrictReader) -> Zone:
    if "corners" in reader.data:
        reader.keys(("corners",))
        corners = reader.data["corners"]
        if not isinstance(corners, list) or len(corners) != 2:
            raise FormatError(
                reader.at("corners"), f"expected [[x, y], [x, y]], got {shown(corners)}"
            )
        low = converted(f"{reader.at('corners')}[0]", corners[0], point)
        high = converted(f"{reader.at('corners')}[1]", corners[1], point)
        return RectangleZone(low, high)
    reader.keys(("centre", "radius"))
    radius = reader.data["radius"]
    if not is_finite_number(radius):
        raise FormatError(
            reader.at("radius"), f"expected metres, a finite number, got {shown(radius)}"
        )
    return CircleZone(reader.convert("centre", point), float(radius))


def _aids(reader: StrictReader | None) -> dict[str, bool]:
    """The aids the drill allows: ``{"tracking": true, "hint": false}``, each optional."""
    if reader is None:
        return {}
    reader.keys((), AIDS)
    return {aid: reader.get(aid, bool) for aid in AIDS if aid in reader.data}


def _scoring(reader: StrictReader) -> Scoring:
    reader.keys(("ball", "zone", "near"))
    near = reader.data["near"]
    if not is_finite_number(near):
        raise FormatError(reader.at("near"), f"expected metres, a finite number, got {shown(near)}")
    return Scoring(ball=reader.get("ball", int), zone=reader.get("zone", int), near=float(near))


def _reference(value: Any, drill: Drill) -> tuple[CueAction, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= drill.shots:
        raise FormatError(
            "reference", f"expected a list of 1 to {drill.shots} strokes, got {shown(value)}"
        )
    strokes = []
    for index, stroke in enumerate(value):
        reader = StrictReader(stroke, f"reference[{index}]").keys(("speed", "aim"), STROKE_KEYS)
        numbers = {}
        for key in STROKE_KEYS:
            if key in reader.data:
                number = reader.data[key]
                if not is_finite_number(number):
                    raise FormatError(
                        reader.at(key), f"expected a finite number, got {shown(number)}"
                    )
                if key == "aim" and not -MAX_AIM_DEGREES <= number <= MAX_AIM_DEGREES:
                    raise FormatError(
                        reader.at(key),
                        f"expected degrees from {-MAX_AIM_DEGREES:g} to {MAX_AIM_DEGREES:g},"
                        f" got {shown(number)}",
                    )
                numbers[key] = float(number)
        strokes.append(converted(reader.where, numbers, lambda n: CueAction(**n)))
    return tuple(strokes)
