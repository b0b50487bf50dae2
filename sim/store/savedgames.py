"""The player's saved games at a glance: what each file holds (game, players, score,
shots, when: of the line the match is at), read from its ``game.json`` alone so that a
list of them shows at once.

The summary is for choosing a game, not for trusting one: opening it goes through
:func:`sim.store.gamefile.load`, which checks everything. A file that cannot be summarised is
listed with its problem rather than hidden.
"""

from __future__ import annotations

import datetime as dt
import json
import zipfile
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from rules import GAMES
from rules.userfile import FileRefused, open_regular
from sim.store.gamefile import MAX_FILE_BYTES, SUFFIX, read_game_json


@attrs.frozen
class SavedGame:
    """One game file as the list of saved games shows it."""

    path: Path
    modified: dt.datetime
    game: str = ""  # the game's name in the file, one of rules.GAMES
    players: tuple[str, str] = ("", "")
    race_to: int = 0
    racks: tuple[int, int] = (0, 0)  # racks won by each player
    # A match of one game that keeps score (14.1 to its points, rotation to 61): the
    # score, listed in the racks' place as the scoreboard shows it; None otherwise.
    score: tuple[int, int] | None = None
    shots: int = 0
    practice: bool = False  # a practice session: set-ups and free play, not a match
    drill: str = ""  # a drill's session: the drill's title
    problem: str | None = None  # why the file could not be summarised

    @property
    def finished(self) -> bool:
        return self.race_to > 0 and max(self.racks) >= self.race_to

    def columns(self) -> tuple[str, str, str, str, str]:
        """What a list shows of it: game, match ('Ann 3-2 Bob'), race, progress, saved
        when; for a file that cannot be read, its name and the problem in place of the
        match."""
        when = self.modified.strftime("%d %b %Y %H:%M")
        if self.problem is not None:
            return ("unreadable", _short(f"{self.path.name}: {self.problem}", 52), "", "", when)
        (a, b), (won_a, won_b) = self.players, self.score or self.racks
        kind = GAMES.get(self.game)
        game = kind.display_name if kind is not None else self.game
        shots = shots_words(self.shots)
        if self.drill:  # a drill by its title, a practice table by whose it was
            return (game, _short(f"Drill: {self.drill}", 26), "", shots, when)
        if self.practice:
            return (game, _short(f"Practice: {a}", 26), "", shots, when)
        return (
            game,
            f"{_short(a)} {won_a}-{won_b} {_short(b)}",
            f"race to {self.race_to}",
            "finished" if self.finished else shots,
            when,
        )


def shots_words(count: int) -> str:
    """'1 shot', '16 shots'."""
    return f"{count} shot{'' if count == 1 else 's'}"


def _short(name: str, most: int = 16) -> str:
    return name if len(name) <= most else name[: most - 1] + "…"


def summarise(path: Path) -> SavedGame:
    """What ``path`` holds, or the reason it cannot be read (never raises for a bad file)."""
    try:
        stat = path.stat()
    except OSError as error:
        return SavedGame(path, dt.datetime.fromtimestamp(0), problem=error.strerror or "gone")
    modified = dt.datetime.fromtimestamp(stat.st_mtime)
    try:
        with open_regular(path, MAX_FILE_BYTES, "a game file") as file, zipfile.ZipFile(file) as zf:
            if "game.json" not in zf.namelist():
                return SavedGame(path, modified, problem="no game.json")
            info = zf.getinfo("game.json")
            document = json.loads(read_game_json(zf, info))
    except FileRefused as error:  # not a regular file, or too large
        return SavedGame(path, modified, problem=str(error))
    # Not JSON, or absurdly nested (before RuntimeError: RecursionError is one).
    except (ValueError, RecursionError) as error:
        return SavedGame(path, modified, problem=f"not a poolsim game: {error}")
    # RuntimeError: an encrypted member; NotImplementedError: an unknown compression.
    except (
        zipfile.BadZipFile,
        zlib.error,
        OSError,
        EOFError,
        RuntimeError,
        NotImplementedError,
    ) as error:
        return SavedGame(path, modified, problem=f"damaged: {error}")
    try:
        return _summary(path, modified, document)
    except KeyError as error:
        return SavedGame(path, modified, problem=f"not a poolsim game: no {error.args[0]!r}")
    except Exception as error:  # a listing only: whatever is odd is shown, not raised
        return SavedGame(path, modified, problem=f"not a poolsim game: {error}")


def line_in_play(document: Any) -> list[Any]:
    """The records of the line the match is at (version 2 keeps branches beside the
    main line, ``records``): the main line's start, then each branch's own steps."""
    records = document["records"]
    if "in_play" not in document:  # version 1: one line
        return list(records)
    branches = document["branches"]
    line, step = document["in_play"]["line"], document["in_play"]["step"]
    parts = []
    while line != 0:
        branch = branches[line - 1]
        parts.append(branch["records"][:step])
        start = branch["from"]
        if not 0 <= start["line"] < line:  # each branch starts on an earlier line
            raise ValueError(f"branch {line} starts on a later line")
        line, step = start["line"], start["step"]
    parts.append(records[:step])
    return [record for part in reversed(parts) for record in part]


def _summary(path: Path, modified: dt.datetime, document: Any) -> SavedGame:
    setup = document["setup"]
    if document.get("format") != "poolsim-game" or not isinstance(document["records"], list):
        raise ValueError("unknown format")
    records = line_in_play(document)
    players = setup["players"]
    won = {"A": 0, "B": 0}
    score = None
    kind = GAMES.get(str(setup["game"]))
    one_game = kind is not None and kind.keeps_score and setup["race_to"] == 1
    for record in records:
        ruling = record.get("ruling") if isinstance(record, dict) else None
        if isinstance(ruling, dict) and ruling.get("rack_over") and ruling.get("winner") in won:
            won[ruling["winner"]] += 1
        points = ruling.get("score") if one_game and isinstance(ruling, dict) else None
        if isinstance(points, dict):
            score = (int(points["A"]), int(points["B"]))
    return SavedGame(
        path=path,
        modified=modified,
        game=str(setup["game"]),
        players=(str(players[0]), str(players[1])),
        race_to=int(setup["race_to"]),
        racks=(won["A"], won["B"]),
        score=score,
        shots=_shots(document if setup.get("drill") else None, records),
        practice=setup.get("practice") is True,
        drill=str(setup.get("drill") or ""),
    )


def _shots(drill: Any, records: list[Any]) -> int:
    """The shots of the line in play; of a drill's session (``drill``: its document),
    every attempt's, each of which the drill starts on a line of its own."""
    if drill is not None:
        lines = [drill["records"], *(branch["records"] for branch in drill.get("branches", ()))]
        records = [record for line in lines for record in line]
    return sum(1 for r in records if isinstance(r, dict) and r.get("type") == "shot")


def saved_games(folders: Iterable[Path]) -> list[SavedGame]:
    """The game files in ``folders``, newest first."""
    files = {
        path.resolve()
        for folder in folders
        if folder.is_dir()
        for path in folder.glob(f"*{SUFFIX}")
        if path.is_file()
    }
    return sorted(map(summarise, files), key=lambda game: game.modified, reverse=True)


def copy_name(players: tuple[str, str], when: dt.datetime) -> str:
    """A file name for a saved copy: 'Ann-vs-Bob-2026-11-30-1405.poolsim' (each run of
    other characters one hyphen: 'Computer-level-3', not 'Computer--level-3-')."""
    safe = [
        "-".join("".join(c if c.isalnum() else " " for c in name).split()) or "player"
        for name in players
    ]
    return f"{safe[0]}-vs-{safe[1]}-{when:%Y-%m-%d-%H%M}{SUFFIX}"
