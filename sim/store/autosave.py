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
        # The saved file the game here was opened from, while the game is unchanged since
        # (no step played, none taken back, no branch opened or deleted: ``Game.changes``
        # counts them): archiving it would only make a second copy of the same game. Set
        # by the first save after :meth:`opened_from` (the archive before it is of the game
        # that was here before).
        self._opening: tuple[Path, int] | None = None
        self._copy_of: Path | None = None

    def opened_from(self, path: Path, game: Game) -> None:
        """``game`` was read from the saved file ``path``; its first save here follows."""
        self._opening = (path, game.changes)

    def save(self, game: Game) -> None:
        save(game, self.path)
        if self.on_saved is not None:
            self.on_saved(self.path)
        if self._opening is not None:
            path, changes = self._opening
            self._opening = None
            self._copy_of = path if game.changes == changes else None
        elif self._copy_of is not None:
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
        from a saved file and not played on is there already, and is not copied again.
        Returns where the game is kept, or None when there was none."""
        if not self.exists():
            return None
        copy_of, self._copy_of = self._copy_of, None
        if copy_of is not None and copy_of.is_file():
            self.path.unlink()  # the same game as the saved file it was opened from
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
