"""Position files: one small JSON document a person can read and write by hand
(docs/POSITION.md)::

    {"format": "poolsim-position", "version": 1,
     "game": "ten-ball", "table": "9ft", "turn": "A", "cue_ball_in_hand": "kitchen",
     "balls": {"cue": [0.635, 0.4], "1": [0.635, 1.905], ...}}

Read strictly, as game files are: only a regular file of at most
:data:`MAX_FILE_BYTES`, UTF-8 JSON, every key known and none missing or given twice (two
cue balls), numbers finite, and the position one the table can play
(:class:`sim.play.position.Position`); anything else is one
:class:`PositionFileError` line naming the file and the place (``balls.3: ...``).
Written atomically (:func:`sim.files.write_atomically`).
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path
from typing import Any

from rules import GAMES, BallInHand, Player
from rules.errors import FormatError
from rules.facts import BALL_IDS
from rules.reading import (
    MAX_SHOWN,
    Reader,
    at,
    converted,
    is_finite_number,
    one_line,
    shown_text,
    whole_number,
)
from rules.userfile import FileRefused, read_regular
from sim.files import write_atomically
from sim.physics.table import table_spec
from sim.play.position import Position

FORMAT = "poolsim-position"
VERSION = 1
SUFFIX = ".json"
MAX_FILE_BYTES = 64 * 2**10  # a position of 16 balls, written by hand with comments, is 1 KB
POSITION_KEYS = ("game", "table", "turn", "cue_ball_in_hand", "balls")
KEYS = ("format", "version", *POSITION_KEYS)
# What a game keeps of a position alone (8-ball's groups, EB-7): its own keys, which
# the game reads and writes (GameState.position_keys); refused in another game's file.
OPTIONAL_KEYS = frozenset(key for kind in GAMES.values() for key in kind.position_keys)


class PositionFileError(ValueError):
    """A position file that cannot be read (one line: the file, where, what is wrong)."""


# -- writing --------------------------------------------------------------------------------


def position_to_json(position: Position) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": position.game,
        "table": position.table.value,
        "turn": position.turn.value,
        "cue_ball_in_hand": position.in_hand.value if position.in_hand else None,
        **position.state().position_extras(),  # the game's own keys, as it writes them
        "balls": {ball: [x, y] for ball, (x, y) in position.balls.items()},
    }


def position_text(position: Position) -> str:
    """The file's text: indented, one ball a line, every coordinate to the last bit."""
    document = position_to_json(position)
    balls = document.pop("balls")
    lines = [f"    {json.dumps(ball)}: {json.dumps(point)}" for ball, point in balls.items()]
    head = json.dumps(document, indent=2).removesuffix("\n}")
    return head + ',\n  "balls": {\n' + ",\n".join(lines) + "\n  }\n}\n"


def save_position(position: Position, path: Path) -> None:
    """Write ``position`` to ``path`` atomically (the old file stays whole until then)."""
    write_atomically(Path(path), position_text(position).encode())


# -- reading --------------------------------------------------------------------------------


class _Object(dict[str, Any]):
    """A JSON object as read, with the first key it gives twice (json keeps the last
    value without a word: two cue balls would be one)."""

    repeated: str | None = None


def _object(pairs: list[tuple[str, Any]]) -> _Object:
    found = _Object()
    for key, value in pairs:
        if key in found and found.repeated is None:
            found.repeated = key
        found[key] = value
    return found


class StrictReader(Reader):
    """An object read strictly, a key given twice refused too (the drill file's reader
    too: ``document`` names the document itself in a refusal)."""

    __slots__ = ()

    def __init__(self, data: Any, where: str, document: str = "the position") -> None:
        super().__init__(data, where, document)
        repeated = getattr(data, "repeated", None)
        if repeated is not None:
            raise FormatError(at(where, repeated), "given twice")


def load_position(path: Path) -> Position:
    """The position in ``path``; :class:`PositionFileError` (one line) for anything wrong."""
    path = Path(path)
    document = read_json_file(path, MAX_FILE_BYTES, PositionFileError, "a position")
    try:
        return _position(document)
    except FormatError as error:
        raise PositionFileError(f"{path}: {error.key}: {error.problem}") from None


def read_json_file(path: Path, limit: int, refusal: type[ValueError], kind: str) -> Any:
    """The JSON document of the file a user named, read strictly (a regular file of at
    most ``limit`` bytes, then :func:`parse_json`); ``refusal`` with one line naming the
    file for anything wrong (``kind``: what the file should hold, "a position")."""
    try:
        data = read_regular(path, limit, f"{kind} file")
    except FileRefused as error:
        raise refusal(f"{path}: {error}") from None
    except OSError as error:
        raise refusal(f"{path}: cannot read: {error.strerror or error}") from None
    return parse_json(path, data, refusal, kind)


def parse_json(path: Path, data: bytes, refusal: type[ValueError], kind: str) -> Any:
    """The JSON document of a file's bytes, read strictly (UTF-8 only, keys given twice
    remembered, whole numbers of sane length); ``refusal`` with one line naming the
    file for anything else (``kind``: what the file should hold, "a position")."""
    if data.startswith(codecs.BOM_UTF8) or b"\x00" in data:
        raise refusal(f"{path}: not UTF-8 text (UTF-16, UTF-32 or a BOM)")
    try:
        return json.loads(data.decode("utf-8"), object_pairs_hook=_object, parse_int=whole_number)
    except UnicodeDecodeError as error:
        raise refusal(f"{path}: not UTF-8 text ({error.reason})") from None
    except json.JSONDecodeError as error:
        raise refusal(f"{path}: not valid JSON: {error}") from None
    except ValueError as error:  # whole_number's refusal
        raise refusal(f"{path}: {one_line(error)}") from None
    except RecursionError:
        raise refusal(f"{path}: nested too deep to be {kind}") from None


def _position(document: Any) -> Position:
    top = StrictReader(document, "")
    if top.data.get("format") != FORMAT:
        raise FormatError(
            "format", f"not a poolsim position file (format {top.data.get('format')!r})"
        )
    version = top.data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version != VERSION:
        raise FormatError(
            "version", f"unknown version {shown(version)}; this poolsim reads {VERSION}"
        )
    top.keys(KEYS, optional=OPTIONAL_KEYS)
    return position_of(top)


def position_of(reader: StrictReader) -> Position:
    """The position the object of ``reader`` gives by the keys :data:`POSITION_KEYS`
    (its keys checked by the caller: a position file's top, a drill's ``position``)."""
    return Position(
        game=reader.get("game", str),
        table=reader.convert("table", lambda value: table_spec(value).size),
        turn=reader.convert("turn", lambda value: one_of(value, [p.value for p in Player])),
        in_hand=reader.convert(
            "cue_ball_in_hand",
            lambda value: None if value is None else one_of(value, [b.value for b in BallInHand]),
        ),
        balls=_balls(reader.sub("balls")),
        extras={key: value for key, value in reader.data.items() if key in OPTIONAL_KEYS},
    )


def one_of(value: Any, allowed: list[str]) -> str:
    if not isinstance(value, str) or value not in allowed:
        words = " or ".join(json.dumps(word) for word in allowed)
        raise ValueError(f"expected {words}, got {shown(value)}")
    return value


def shown(value: Any, limit: int = MAX_SHOWN) -> str:
    """A refused value as JSON, as :func:`~rules.reading.shown_text` shows it."""
    return shown_text(json.dumps(value), limit)


def _balls(reader: StrictReader) -> dict[str, tuple[float, float]]:
    balls = {}
    for ball, value in reader.data.items():
        if ball not in BALL_IDS:
            raise FormatError(reader.at(ball), "unknown ball (the balls are cue and 1 to 15)")
        balls[ball] = converted(reader.at(ball), value, point)
    return balls


def point(value: Any) -> tuple[float, float]:
    if not isinstance(value, list) or len(value) != 2 or not all(map(is_finite_number, value)):
        raise ValueError(f"expected [x, y], two finite numbers of metres, got {shown(value)}")
    return (float(value[0]), float(value[1]))
