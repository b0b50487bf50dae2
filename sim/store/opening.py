"""A file the player names, opened for what it is: a game file (a zip archive,
docs/GAMEFILE.md), a position (docs/POSITION.md) or a drill (docs/DRILLS.md), the two
JSON documents told apart by their ``format``. Each is then read by its own reader,
which says in one line what is wrong with it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import attrs

from rules.userfile import FileRefused, open_regular
from sim.play.game import Game, GameSetup
from sim.play.position import Position
from sim.store import drillfile, gamefile, positionfile

FileKind = Literal["game", "position", "drill"]
FORMATS: dict[str, FileKind] = {"poolsim-position": "position", "poolsim-drill": "drill"}
ZIP_MAGIC = b"PK"


class NotOurFile(ValueError):
    """A file that is none of poolsim's (one line, naming it)."""


def kind_of_file(path: Path) -> FileKind:
    """What ``path`` holds, by its first bytes (a zip archive: a game file) or its JSON
    document's ``format``; :class:`NotOurFile` for anything else, or a file that cannot
    be read at all. A damaged file of a known kind is its reader's to refuse."""
    limit = max(positionfile.MAX_FILE_BYTES, drillfile.MAX_FILE_BYTES)
    try:
        with open_regular(path, gamefile.MAX_FILE_BYTES, "a poolsim file") as file:
            data = file.read(limit + 1)
    except FileRefused as error:
        raise NotOurFile(f"{path}: {error}") from None
    except OSError as error:
        raise NotOurFile(f"{path}: cannot read: {error.strerror or error}") from None
    if data.startswith(ZIP_MAGIC):
        return "game"
    try:
        document = json.loads(data)
    except (ValueError, RecursionError):  # not JSON (UnicodeDecodeError is a ValueError)
        document = None
    named = document.get("format") if isinstance(document, dict) else None
    kind = FORMATS.get(named) if isinstance(named, str) else None
    if kind is None:
        raise NotOurFile(f"{path.name}: not a poolsim game, position or drill file")
    return kind


def practice_at(setup: GameSetup, position: Position) -> Game:
    """A practice session of ``setup`` on the position's game and table, set up as the
    position says (GameError if the table cannot be)."""
    practice = attrs.evolve(setup, game=position.game, table=position.table, practice=True)
    session = Game(practice)
    session.set_up(position)
    return session
