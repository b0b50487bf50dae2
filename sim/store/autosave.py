"""The game in progress, saved after every step to the player's data folder.

Each save is atomic (see :mod:`sim.store.gamefile`), so killing poolsim at any moment loses at
most the shot in flight; ``poolsim play --resume`` picks the game up again.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from sim.files import remove_leftovers
from sim.paths import data_dir
from sim.play.game import Game
from sim.store.gamefile import SUFFIX, load, save


def autosave_path() -> Path:
    return data_dir() / f"autosave{SUFFIX}"


class Autosave:
    """Saves a game to one file after every step; the file outlives the process."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else autosave_path()
        # The player's other games: each autosave a new game replaced, and copies saved
        # from the menu (listed by the start screen's "Open saved game").
        self.saved_dir = self.path.parent / "saved"

    def save(self, game: Game) -> None:
        save(game, self.path)

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
        to ``saved_dir`` as ``game-<when>.poolsim``, so no game is ever lost. Returns
        where it went, or None when there was none."""
        if not self.exists():
            return None
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        target = self.saved_dir / f"game-{stamp}{SUFFIX}"
        target.parent.mkdir(parents=True, exist_ok=True)
        counter = 1
        while target.exists():
            counter += 1
            target = target.with_name(f"game-{stamp}-{counter}{SUFFIX}")
        self.path.replace(target)
        return target
