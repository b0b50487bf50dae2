"""The game in progress, saved after every step to the player's data folder.

Each save is atomic (see :mod:`sim.store.gamefile`), so killing poolsim at any moment loses at
most the shot in flight; ``poolsim play --resume`` picks the game up again.
"""

from __future__ import annotations

import datetime as dt
import json
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rules.userfile import FileRefused, open_regular
from sim.files import remove_leftovers
from sim.paths import data_dir
from sim.play.game import Game
from sim.store.gamefile import MAX_FILE_BYTES, SUFFIX, load, read_game_json, save


def autosave_path() -> Path:
    return data_dir() / f"autosave{SUFFIX}"


class Autosave:
    """Saves a game to one file after every step; the file outlives the process."""

    def __init__(
        self, path: Path | None = None, on_saved: Callable[[Path], None] | None = None
    ) -> None:
        self.path = path if path is not None else autosave_path()
        # Told of each file saved (the statistics index it); it must not raise.
        self.on_saved = on_saved
        # The player's other games: each autosave a new game replaced, and copies saved
        # from the menu (listed by the start screen's "Open saved game").
        self.saved_dir = self.path.parent / "saved"
        # A saved file that holds the game here as it is (the one it was opened from, or a
        # copy saved into ``saved_dir`` from the menu), with the game's ``Game.changes``
        # then: while the game is unchanged since (no step played, none taken back, no
        # branch opened or deleted), archiving it would only list the same game twice.
        # The file it was opened from counts from its first save here (the archive before
        # that is of the game that was here before).
        self._opening: tuple[Path, int] | None = None
        self._copy_of: tuple[Path, int] | None = None

    def opened_from(self, path: Path, game: Game) -> None:
        """``game`` was read from the saved file ``path``; its first save here follows."""
        self._opening = (path, game.changes)

    def copied_to(self, path: Path, game: Game) -> None:
        """``game`` (the one here) was saved as a copy at ``path``: kept in place of the
        autosave when a new game archives it unchanged, if it is among the saved games."""
        if path.parent.resolve() == self.saved_dir.resolve():
            self._copy_of = (path, game.changes)

    def save(self, game: Game) -> None:
        save(game, self.path)
        if self.on_saved is not None:
            self.on_saved(self.path)
        if self._opening is not None:
            self._copy_of, self._opening = self._opening, None
        if self._copy_of is not None and self._copy_of[1] != game.changes:
            self._copy_of = None  # played on: the autosave is a game of its own now

    def exists(self) -> bool:
        return self.path.is_file()

    def resume(self) -> Game:
        """The autosaved game (GameFileError if it cannot be read; the file is kept). The
        table that resumes it owns the autosave now: a save killed mid-write (the file
        itself stays whole) left a temporary file beside it, removed here."""
        remove_leftovers(self.path)
        return load(self.path)

    def archive(self) -> Path | None:
        """Keep the autosaved game aside (a new game is about to take its place): moved
        to ``saved_dir`` as ``game-<when>.poolsim``, so no game is ever lost. A game opened
        from a saved file, or copied there from the menu, and not played on since is
        there already, and is not copied again.
        Returns where the game is kept, or None when there was none."""
        if not self.exists():
            return None
        copy, self._copy_of = self._copy_of, None
        copy_of = copy[0] if copy is not None and copy[0].is_file() else self._twin()
        if copy_of is not None:
            self.path.unlink()  # the same game as the saved file there
            return copy_of
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        target = self.saved_dir / f"game-{stamp}{SUFFIX}"
        target.parent.mkdir(parents=True, exist_ok=True)
        counter = 1
        while target.exists():
            counter += 1
            target = target.with_name(f"game-{stamp}-{counter}{SUFFIX}")
        self.path.replace(target)
        return target

    def _twin(self) -> Path | None:
        """A saved game holding the autosaved game as it is (its ``game.json`` the same
        but for when it was written): a copy saved from the menu, or the file it was
        opened from, in an earlier session, which :meth:`copied_to` cannot know of."""
        mine = _game_document(self.path)
        if mine is None or not self.saved_dir.is_dir():
            return None
        document, size = mine
        for path in sorted(self.saved_dir.glob(f"*{SUFFIX}")):
            other = _game_document(path, size)
            if other is not None and other[0] == document:
                return path
        return None


def _game_document(path: Path, size: int | None = None) -> tuple[dict[str, Any], int] | None:
    """A game file's ``game.json`` but for its ``created``, as parsed, and its length;
    None if it cannot be read, or its ``game.json`` is not ``size`` bytes long (its
    ``created`` is always as long: a game's twin is as long)."""
    try:
        with open_regular(path, MAX_FILE_BYTES, "a game file") as file, zipfile.ZipFile(file) as zf:
            info = zf.getinfo("game.json")
            if size is not None and info.file_size != size:
                return None
            text = read_game_json(zf, info)
        document = json.loads(text)
    # Whatever makes a file unreadable (see sim.store.savedgames.summarise) makes it no twin.
    except (
        KeyError, FileRefused, ValueError, RecursionError, OSError, EOFError,
        zlib.error, zipfile.BadZipFile, RuntimeError, NotImplementedError,
    ):  # fmt: skip
        return None
    if not isinstance(document, dict):
        return None
    document.pop("created", None)
    return document, len(text)
