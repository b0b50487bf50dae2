"""The start screen's "Statistics" screen: one player's figures at a time (the players
indexed, ``<`` and ``>`` to go through them), with their pictures
(:func:`sim.media.statscharts.statistics_picture`) beside the numbers.

The figures are read once, as the panel opens, from the statistics database
(:mod:`sim.store.stats`); a database that cannot be read is said in one line, never a
reason to keep the player from the start screen.
"""

from __future__ import annotations

import io
import sqlite3
from collections.abc import Callable, Mapping
from typing import Any

from direct.gui.DirectGui import DirectFrame
from direct.gui.OnscreenImage import OnscreenImage
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import PNMImage, StringStream, TextNode, Texture, TransparencyAttrib

from sim.app.hud.widgets import BACKDROP, DIM, GOLD, NOTICE, WHITE, button, label
from sim.app.screens.base import Screen, ScreenWindow
from sim.media.statscharts import Bar, statistics_picture
from sim.physics.table import table_spec
from sim.store.stats.database import opened
from sim.store.stats.report import PlayerReport, figure_rows, players, report

PICTURE = (1000, 900)  # pixels of the pictures' image
PICTURE_WIDTH = 1.45  # aspect2d units: within a 4:3 window beside the figures
TEXT = 0.036


def read_reports() -> tuple[list[PlayerReport], str | None]:
    """Every player's statistics, and a note (a rebuilt or newer database, or why none
    could be read)."""
    try:
        with opened() as database:
            return [report(database, name) for name in players(database)], database.note
    except (sqlite3.Error, OSError) as error:
        return [], f"the statistics cannot be read: {error}"


def picture_of(figures: PlayerReport) -> Texture:
    """The player's pictures as a texture."""
    bars = [Bar(f"{t.low:.0f}-{t.high:.0f}°", t.attempted, t.made) for t in figures.by_cut]
    spec = table_spec("9ft")  # the stops are drawn on the table most games are played on
    image = statistics_picture(
        bars,
        figures.cue_after_pots,
        [(s.attempted, s.made) for s in figures.sessions],
        (spec.width, spec.length),
        PICTURE,
        [s.accuracy for s in figures.sessions],
    )
    data = io.BytesIO()
    image.save(data, "PNG")
    pnm = PNMImage()
    pnm.read(StringStream(data.getvalue()), "statistics.png")
    texture = Texture("statistics")
    texture.load(pnm)
    return texture


WIDEST = 1.31  # the panel's half width: the figures' left edge, the picture's right


class StatisticsPanel:
    """The statistics of each player indexed, one at a time (see the module)."""

    def __init__(
        self, parent: Any, on_close: Callable[[], None], player: str | None = None
    ) -> None:
        self.on_close = on_close
        self.reports, note = read_reports()
        names = [r.player for r in self.reports]
        self.index = names.index(player) if player in names else 0
        self.frame = DirectFrame(
            parent=parent, frameColor=(0.02, 0.05, 0.04, 1.0), frameSize=BACKDROP
        )
        # Laid out for a window at least 4:3 (the figures from x -1.28, the picture to
        # 1.3): drawn smaller on a narrower one (aspect2d 2 across), so nothing is cut.
        across = 1.0 / parent.getSx() if parent.getSx() > 0 else 1.0
        self.frame.setScale(min(1.0, (across - 0.02) / WIDEST))
        label(self.frame, "Statistics", (0, 0.86), 0.07, GOLD, TextNode.ACenter)
        self.name = label(self.frame, "", (-0.79, 0.72), 0.055, WHITE, TextNode.ACenter)
        self.previous = button(self.frame, "<", (-1.24, 0.735), self._previous, 0.05)
        self.next = button(self.frame, ">", (-0.34, 0.735), self._next, 0.05)
        self.labels: OnscreenText = label(self.frame, "", (-1.28, 0.6), TEXT, DIM)
        self.values: OnscreenText = label(self.frame, "", (-0.3, 0.6), TEXT, WHITE, TextNode.ARight)
        self.note = label(self.frame, note or "", (0, -0.93), 0.035, NOTICE, TextNode.ACenter)
        self.picture: OnscreenImage | None = None
        self.back = button(self.frame, "Back", (-0.79, -0.8), self.close, 0.05, (0.8, 0.4))
        self.show()

    @property
    def player(self) -> str | None:
        return self.reports[self.index].player if self.reports else None

    def show(self, player: str | None = None) -> bool:
        """Show ``player`` (default: the one showing); False if nobody of that name has
        a game indexed."""
        names = [r.player for r in self.reports]
        if player is not None:
            if player not in names:
                return False
            self.index = names.index(player)
        for widget in (self.previous, self.next):
            (widget.show if len(self.reports) > 1 else widget.hide)()
        if self.picture is not None:
            self.picture.destroy()
            self.picture = None
        if not self.reports:
            self.name.setText("no games yet")
            self.labels.setText(
                "Matches you play (finished or autosaved) are counted here, not\n"
                "practice or drills; poolsim stats --import DIR adds game files."
            )
            self.values.setText("")
            return True
        figures = self.reports[self.index]
        self.name.setText(figures.player)
        rows = figure_rows(figures)
        self.labels.setText("\n".join(label_ for label_, _ in rows))
        self.values.setText("\n".join(value for _, value in rows))
        height = PICTURE_WIDTH * PICTURE[1] / PICTURE[0]
        self.picture = OnscreenImage(
            parent=self.frame,
            image=picture_of(figures),
            pos=(1.3 - PICTURE_WIDTH / 2, 0, 0.0),
            scale=(PICTURE_WIDTH / 2, 1, height / 2),
        )
        self.picture.setTransparency(TransparencyAttrib.MNone)
        return True

    def _previous(self) -> None:
        if self.reports:
            self.index = (self.index - 1) % len(self.reports)
            self.show()

    def _next(self) -> None:
        if self.reports:
            self.index = (self.index + 1) % len(self.reports)
            self.show()

    def close(self) -> None:
        self.on_close()

    def destroy(self) -> None:
        self.frame.destroy()


class StatisticsScreen(Screen):
    """The statistics in the start screen's place (Esc or Back: the form again)."""

    name = "statistics"
    over_table = False

    def __init__(self, window: ScreenWindow, player: str | None = None) -> None:
        super().__init__(window)
        self.player = player
        self.panel: StatisticsPanel  # made as it comes up

    def key_map(self) -> dict[str, Callable[[], None]]:
        return {"escape": self.close}

    def enter(self) -> None:
        self.panel = StatisticsPanel(self.app.base.aspect2d, self.close, self.player)

    def exit(self) -> None:
        self.panel.destroy()

    def closed(self) -> None:
        self.app.show_start_screen()

    def script_actions(self) -> Mapping[str, Callable[[Any], None]]:
        return {"statistics": self._show}

    def _show(self, player: Any) -> None:
        """``player``'s figures, or (null) Back."""
        if player is None:
            self.close()
        elif not self.panel.show(str(player)):
            raise ValueError(f"no statistics for {player!r}: no game of theirs is indexed")
