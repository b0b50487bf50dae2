"""One list panel for the start screen's lists (the saved games, the drills): a title and
a line under it, the columns' headings, a page of rows (each a flat button of cells: one
click picks it; a row shown but not to be picked is dimmed and takes no click), Newer
and Older when the list is longer than a page, a line under the list for what is
happening, and Back."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs
from direct.gui.DirectGui import DGG, DirectButton, DirectFrame
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import TextNode

from sim.app.hud.widgets import BACKDROP, BUTTON, DIM, GOLD, NOTICE, WHITE, button, label

ROW_HEIGHT = 0.1  # aspect2d units
TEXT = 0.04  # the rows' and headings' text size
FIRST_ROW = 0.53  # the first row's middle
HEADINGS = 0.62
NOTE = 0.04  # the line under the list's text size
NOTE_MOST = 200  # characters of it shown (its end: two lines, above Back)
BACKGROUND = (0.02, 0.05, 0.04, 1.0)
CELL_GAP = 0.03  # between a cell's words and the next column
WIDEST = 0.98  # the rows' half width at most, a margin inside a square window


def fitted(text: TextNode, words: str, width: float) -> str:
    """``words``, cut with an ellipsis to ``width`` (in ``text``'s own units) if longer:
    a long name stops short of the next column ("Computer (lev…") rather than
    running into it."""
    if text.calcWidth(words) <= width:
        return words
    while words and text.calcWidth(words + "…") > width:
        words = words[:-1]
    return words.rstrip() + "…"


@attrs.frozen
class ListRow:
    """One entry: its cells, a column each, and whether a click picks it."""

    cells: tuple[str, ...]
    pickable: bool = True


@attrs.frozen
class Columns:
    """The list's columns: their headings and where each starts from the row's left
    edge, and the rows' half width (aspect2d units)."""

    headings: tuple[str, ...]
    starts: tuple[float, ...]
    half_width: float


class ListPanel:
    """``rows`` a page at a time (``per_page``); ``on_pick(index)`` with the row's index
    in ``rows`` when one is clicked; ``on_close`` for Back. ``note_y``, ``back_y`` and
    ``pager_y``: where the line, Back and the pages' buttons go, under the list."""

    def __init__(
        self,
        parent: Any,
        title: str,
        subtitle: str,
        columns: Columns,
        rows: Sequence[ListRow],
        on_pick: Callable[[int], None],
        on_close: Callable[[], None],
        *,
        per_page: int,
        empty: str = "",
        pager_y: float = -0.27,
        note_y: float = -0.72,
        back_y: float = -0.86,
    ) -> None:
        self.items = list(rows)
        self.per_page = per_page
        self.on_pick = on_pick
        self.page = 0
        self.frame = DirectFrame(parent=parent, frameColor=BACKGROUND, frameSize=BACKDROP)
        label(self.frame, title, (0, 0.78), 0.07, GOLD, TextNode.ACenter)
        label(self.frame, subtitle, (0, 0.71), 0.035, DIM, TextNode.ACenter)
        left, half = -columns.half_width, columns.half_width
        # Drawn smaller if wider than a square window (aspect2d is 2 across on a window
        # as wide as tall or narrower): the rows are whole on every window shape.
        self.frame.setScale(min(1.0, WIDEST / half))
        for heading, x in zip(columns.headings, columns.starts, strict=True):
            label(self.frame, heading, (left + x, HEADINGS), TEXT, DIM)
        self.rows: list[DirectButton] = []
        self.cells: list[list[OnscreenText]] = []
        for i in range(per_page):
            row = DirectButton(
                parent=self.frame,
                frameSize=(-half, half, -0.04, 0.045),
                frameColor=BUTTON,
                relief=DGG.FLAT,
                pos=(0, 0, FIRST_ROW - i * ROW_HEIGHT),
                command=self._pick,
                extraArgs=[i],
            )
            self.cells.append([label(row, "", (left + x, -0.012), TEXT) for x in columns.starts])
            self.rows.append(row)
        # Each cell's room: up to the next column's start, the last to the row's end.
        ends = (*columns.starts[1:], 2 * half)
        self.widths = [
            end - start - CELL_GAP for start, end in zip(columns.starts, ends, strict=True)
        ]
        shown_empty = empty if not self.items else ""
        self.empty = label(self.frame, shown_empty, (0, 0.25), 0.045, DIM, TextNode.ACenter)
        self.previous = button(self.frame, "< Newer", (-0.55, pager_y), self.newer, 0.045)
        self.page_label = label(self.frame, "", (0, pager_y - 0.015), 0.04, DIM, TextNode.ACenter)
        self.next = button(self.frame, "Older >", (0.55, pager_y), self.older, 0.045)
        self.note = label(self.frame, "", (0, note_y), NOTE, NOTICE, TextNode.ACenter)
        # A long line (a file's path and what is wrong with it) wraps within the rows'
        # width rather than running off the window's edge (issue 28, friction 5).
        self.note.setWordwrap((2 * half - 0.1) / NOTE)
        self.back = button(self.frame, "Back", (0, back_y), on_close, 0.05, (0.8, 0.4))
        self.show_page()

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.items) // self.per_page))

    def shown(self) -> range:
        """The indices (in ``rows``) of the rows on the page showing."""
        first = self.page * self.per_page
        return range(first, min(len(self.items), first + self.per_page))

    def show_page(self) -> None:
        shown = self.shown()
        for i, (row, cells) in enumerate(zip(self.rows, self.cells, strict=True)):
            if i >= len(shown):
                row.hide()
                continue
            item = self.items[shown[i]]
            for cell, text, width in zip(cells, item.cells, self.widths, strict=True):
                cell.setText(fitted(cell.textNode, text, width / TEXT))
                cell.setFg(WHITE if item.pickable else DIM)
            row["state"] = DGG.NORMAL if item.pickable else DGG.DISABLED
            row.show()
        self.page_label.setText(f"page {self.page + 1} of {self.pages}" if self.pages > 1 else "")
        for widget, usable in (
            (self.previous, self.page > 0),
            (self.next, self.page + 1 < self.pages),
        ):
            if usable:
                widget.show()
            else:
                widget.hide()

    def newer(self) -> None:
        self.page = max(0, self.page - 1)
        self.show_page()

    def older(self) -> None:
        self.page = min(self.pages - 1, self.page + 1)
        self.show_page()

    def _pick(self, row: int) -> None:
        shown = self.shown()
        if row < len(shown) and self.items[shown[row]].pickable:
            self.on_pick(shown[row])

    def say(self, text: str, colour: tuple[float, ...] = NOTICE) -> None:
        """The line under the list: what is happening, or why a pick could not be done."""
        self.note.setFg(colour)
        self.note.setText(text if len(text) <= NOTE_MOST else "…" + text[1 - NOTE_MOST :])

    def destroy(self) -> None:
        self.frame.destroy()
