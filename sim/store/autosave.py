"""The game in progress, saved after every step to the player's data folder.

Each save is atomic (see :mod:`sim.store.gamefile`), so killing poolsim at any moment loses at
most the shot in flight; ``poolsim play --resume`` picks the game up again.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

from sim.files import remove_leftovers
from sim.paths import data_dir
from sim.play.game import Game
from sim.store.gamefile import SUFFIX, load, save


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
        copy_of = None if copy is None else copy[0]
        if copy_of is not None and copy_of.is_file():
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
