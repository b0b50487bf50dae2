"""The start screen's "Open saved game" panel: the player's saved games, newest first,
one click to open; any other file by its path."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from direct.gui.DirectGui import DGG, DirectButton, DirectEntry, DirectFrame
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import TextNode

from sim.app.hud.widgets import BACKDROP, BUTTON, DIM, GOLD, NOTICE, WHITE, button, entry, label
from sim.store.savedgames import SavedGame, saved_games

ROWS = 8  # games on a page
ROW_HALF_WIDTH = 1.0  # aspect2d units
ROW_HEIGHT = 0.1
TEXT = 0.04  # text size
# Where each column of SavedGame.columns() starts, from the row's left edge.
COLUMNS = ("Game", "Match", "Race", "Played", "Saved")
COLUMN_X = (0.03, 0.43, 1.02, 1.28, 1.55)  # room for "61-point rotation"


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
        self.page = 0
        self.frame = DirectFrame(
            parent=parent, frameColor=(0.02, 0.05, 0.04, 1.0), frameSize=BACKDROP
        )
        label(self.frame, "Open a saved game", (0, 0.78), 0.07, GOLD, TextNode.ACenter)
        where = folders[0] if folders else None
        label(
            self.frame,
            f"saved games in {where}" if where is not None else "",
            (0, 0.71),
            0.035,
            DIM,
            TextNode.ACenter,
        )
        left = -ROW_HALF_WIDTH
        for title, x in zip(COLUMNS, COLUMN_X, strict=True):
            label(self.frame, title, (left + x, 0.62), TEXT, DIM)
        self.rows: list[DirectButton] = []
        self.cells: list[list[OnscreenText]] = []
        for i in range(ROWS):
            row = DirectButton(
                parent=self.frame,
                frameSize=(-ROW_HALF_WIDTH, ROW_HALF_WIDTH, -0.04, 0.045),
                frameColor=BUTTON,
                relief=DGG.FLAT,
                pos=(0, 0, 0.53 - i * ROW_HEIGHT),
                command=self._open_row,
                extraArgs=[i],
            )
            self.cells.append([label(row, "", (left + x, -0.012), TEXT) for x in COLUMN_X])
            self.rows.append(row)
        self.empty = label(self.frame, "", (0, 0.25), 0.045, DIM, TextNode.ACenter)
        self.previous = button(self.frame, "< Newer", (-0.55, -0.27), self._newer, 0.045)
        self.page_label = label(self.frame, "", (0, -0.285), 0.04, DIM, TextNode.ACenter)
        self.next = button(self.frame, "Older >", (0.55, -0.27), self._older, 0.045)
        label(self.frame, "Another file (its path, then Enter):", (left, -0.45), TEXT, WHITE)
        self.path: DirectEntry = entry(
            self.frame, str(Path.home()) + "/", (left, -0.55), 47, TEXT, False, self._open_typed
        )
        self.error = label(self.frame, "", (0, -0.68), 0.04, NOTICE, TextNode.ACenter)
        self.back = button(self.frame, "Back", (0, -0.83), self.close, 0.05, (0.8, 0.4))
        self._show_page()

    # -- paging ------------------------------------------------------------------------------

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.games) // ROWS))

    def shown(self) -> list[SavedGame]:
        """The games on the page showing."""
        return self.games[self.page * ROWS : (self.page + 1) * ROWS]

    def _show_page(self) -> None:
        shown = self.shown()
        for i, (row, cells) in enumerate(zip(self.rows, self.cells, strict=True)):
            if i >= len(shown):
                row.hide()
                continue
            game = shown[i]
            readable = game.problem is None
            for cell, text in zip(cells, game.columns(), strict=True):
                cell.setText(text)
                cell.setFg(WHITE if readable else DIM)
            row["state"] = DGG.NORMAL if readable else DGG.DISABLED
            row.show()
        self.empty.setText("" if self.games else "no saved games yet")
        self.page_label.setText(f"page {self.page + 1} of {self.pages}" if self.pages > 1 else "")
        pages = ((self.previous, self.page > 0), (self.next, self.page + 1 < self.pages))
        for widget, usable in pages:
            if usable:
                widget.show()
            else:
                widget.hide()

    def _newer(self) -> None:
        self.page = max(0, self.page - 1)
        self._show_page()

    def _older(self) -> None:
        self.page = min(self.pages - 1, self.page + 1)
        self._show_page()

    # -- opening ------------------------------------------------------------------------------

    def _open_row(self, index: int) -> None:
        shown = self.shown()
        if index < len(shown):
            self.open(shown[index].path)

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
        self.error.setFg(colour)
        self.error.setText(text[-110:])

    def close(self) -> None:
        self.on_close()

    def destroy(self) -> None:
        self.frame.destroy()
