"""The start screen's "Open saved game" panel: the player's saved games, newest first,
one click to open; any other file by its path."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from direct.gui.DirectGui import DirectButton, DirectEntry

from sim.app.hud.listpanel import TEXT, Columns, ListPanel, ListRow
from sim.app.hud.widgets import NOTICE, WHITE, entry, label
from sim.store.savedgames import SavedGame, saved_games

ROWS = 8  # games on a page
# Where each column of SavedGame.columns() starts, from the row's left edge (room for
# "61-point rotation").
COLUMNS = Columns(
    headings=("Game", "Match", "Race", "Played", "Saved"),
    starts=(0.03, 0.43, 1.1, 1.33, 1.56),
    half_width=1.0,
)


class OpenGamePanel:
    """Lists the games in ``folders``; ``on_open(path)`` opens one (and tells the panel,
    through :meth:`say`, that it is opening, or why it could not)."""

    def __init__(
        self,
        parent: Any,
        folders: list[Path],
        on_open: Callable[[Path], None],
        on_close: Callable[[], None],
    ) -> None:
        self.on_open = on_open
        self.on_close = on_close
        self.games: list[SavedGame] = saved_games(folders)
        where = folders[0] if folders else None
        self.list = ListPanel(
            parent,
            "Open a saved game",
            f"saved games in {where}" if where is not None else "",
            COLUMNS,
            [ListRow(game.columns(), game.problem is None) for game in self.games],
            lambda index: self.open(self.games[index].path),
            self.close,
            per_page=ROWS,
            empty="no saved games yet",
            note_y=-0.68,
            back_y=-0.83,
        )
        self.frame = self.list.frame
        self.rows: list[DirectButton] = self.list.rows
        self.previous, self.next, self.back = self.list.previous, self.list.next, self.list.back
        self.error = self.list.note
        left = -COLUMNS.half_width
        label(self.frame, "Another file (its path, then Enter):", (left, -0.45), TEXT, WHITE)
        self.path: DirectEntry = entry(
            self.frame, str(Path.home()) + "/", (left, -0.55), 47, TEXT, False, self._open_typed
        )

    def shown(self) -> list[SavedGame]:
        """The games on the page showing."""
        return [self.games[index] for index in self.list.shown()]

    def _open_typed(self, text: str) -> None:
        try:
            path = Path(text.strip()).expanduser()
        except RuntimeError as error:  # ~someone who is not a user here
            self.say(str(error), NOTICE)
            return
        self.open(path)

    def open(self, path: Path) -> None:
        self.on_open(path)

    def say(self, text: str, colour: tuple[float, ...]) -> None:
        """A line under the list: what is happening, or why a file could not be opened."""
        self.list.say(text, colour)

    def close(self) -> None:
        self.on_close()

    def destroy(self) -> None:
        self.list.destroy()
