"""Where the table keeps the game in progress after every step, as play sees it.

The turn's logic saves after every shot and choice, but files are the store floor's
business, above play: the controller is handed an :class:`Autosaver` (in the desktop,
:class:`sim.store.autosave.Autosave`) and never imports the store.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from sim.play.game import Game


class Autosaver(Protocol):
    def archive(self) -> Path | None:
        """Put aside the game saved so far (another game is about to take its place), so
        no game is lost; where it went, or None when there was none. Raises OSError if it
        could not be moved (then it must not be replaced)."""
        ...

    def save(self, game: Game) -> None:
        """Keep ``game`` (a snapshot: it does not change while it is written, possibly in
        another thread); raises OSError if it could not be written."""
        ...
