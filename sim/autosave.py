"""The game in progress, saved after every step to the player's data folder.

Each save is atomic (see :mod:`sim.gamefile`), so killing poolsim at any moment loses at
most the shot in flight; ``poolsim play --resume`` picks the game up again.
"""

from __future__ import annotations

from pathlib import Path

from sim.game import Game
from sim.gamefile import SUFFIX, load, save
from sim.paths import data_dir


def autosave_path() -> Path:
    return data_dir() / f"autosave{SUFFIX}"


class Autosave:
    """Saves a game to one file after every step; the file outlives the process."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else autosave_path()

    def save(self, game: Game) -> None:
        save(game, self.path)

    def exists(self) -> bool:
        return self.path.is_file()

    def resume(self) -> Game:
        """The autosaved game (GameFileError if it cannot be read; the file is kept)."""
        return load(self.path)

    def discard(self) -> None:
        """Forget the autosaved game (a match that has ended, a new one begun)."""
        self.path.unlink(missing_ok=True)
