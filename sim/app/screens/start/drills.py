"""The drills' two screens: the list the start screen's "Drills" button opens (each
drill's title, game, attempts and the player's best; one click opens it), and the
summary over the table when a session ends (each attempt, the best, the player's
history; Try again starts a new session)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from direct.gui.DirectGui import DGG, DirectButton, DirectFrame
from panda3d.core import TextNode

from sim.app.hud.listpanel import Columns, ListPanel, ListRow
from sim.app.hud.widgets import BACKDROP, DIM, GOLD, WHITE, button, label
from sim.app.screens.base import Screen
from sim.app.screens.start.opening import OnStart, Opener, StartHost
from sim.play.drill import DrillSession
from sim.play.game import GameSetup
from sim.store.drillfile import ShippedDrill
from sim.store.drillhistory import DrillHistory

VEIL = (0.0, 0.0, 0.0, 0.35)
SCREEN_SORT = 10  # above the HUD, as the menu
ROWS = 8  # drills on a page (eight are shipped; more turn the page)
COLUMNS = Columns(
    headings=("Drill", "Game", "Attempts", "Your best"),
    starts=(0.03, 0.95, 1.35, 1.65),
    half_width=1.05,
)


def best_words(history: DrillHistory, drill: str, player: str) -> str:
    """The player's best attempt at ``drill`` ("20 of 20"), or "-" before any session."""
    best = history.best(drill, player)
    return "-" if best is None else f"{best.best} of {best.max_points}"


def history_lines(history: DrillHistory, drill: str, player: str, last: int = 3) -> list[str]:
    """The player's history of ``drill`` in a few lines: the best session and the last
    few (this one among them)."""
    sessions = history.of(drill, player)
    if not sessions:
        return []
    best = history.best(drill, player)
    assert best is not None
    lines = [f"{player}'s best session: {best.words}"]
    if len(sessions) > 1:
        lines.append(f"{len(sessions)} sessions so far; the last {min(last, len(sessions))}:")
        lines.extend(f"  {entry.words}" for entry in reversed(sessions[-last:]))
    return lines


class DrillList:
    """Every shipped drill, a row each; ``on_open(shipped)`` opens one at the table."""

    def __init__(
        self,
        parent: Any,
        drills: list[ShippedDrill],
        history: DrillHistory,
        player: str,
        on_open: Callable[[ShippedDrill], None],
        on_close: Callable[[], None],
    ) -> None:
        self.drills = drills
        rows = [
            ListRow(
                (
                    shipped.drill.title,
                    shipped.drill.position.kind.display_name,
                    str(shipped.drill.attempts),
                    best_words(history, shipped.drill.name, player),
                )
            )
            for shipped in drills
        ]
        self.list = ListPanel(
            parent,
            "Drills",
            f"a position, a goal and a number of attempts; {player}'s best beside each",
            COLUMNS,
            rows,
            lambda index: on_open(drills[index]),
            on_close,
            per_page=ROWS,
        )
        self.frame = self.list.frame
        self.rows: list[DirectButton] = self.list.rows
        self.back = self.list.back

    def say(self, text: str) -> None:
        self.list.say(text)

    def destroy(self) -> None:
        self.list.destroy()


class DrillsScreen(Screen):
    """The drills' list in the start screen's place (Esc or Back: the form again); a
    drill picked opens at its table for ``player``."""

    name = "drills"
    over_table = False

    def __init__(
        self,
        window: StartHost,
        on_start: OnStart,
        practice: Callable[[], GameSetup],
        drills: list[ShippedDrill],
        player: str,
    ) -> None:
        super().__init__(window)
        self.host = window
        self.drills, self.player = drills, player
        self.opener = Opener(window, on_start, self.note, practice)
        self.list: DrillList  # made as it comes up

    def key_map(self) -> dict[str, Callable[[], None]]:
        return {"escape": self.close}

    def enter(self) -> None:
        self.list = DrillList(
            self.host.base.aspect2d,
            self.drills,
            DrillHistory(),
            self.player,
            lambda shipped: self.opener.open_drill(shipped, self.player),
            self.close,
        )

    def note(self, text: str, colour: tuple[float, ...]) -> None:
        """The line under the list: what is being opened, or why it cannot be."""
        self.list.list.say(text, colour)

    def frame(self, dt: float) -> None:
        """No table polls the physics' worker while the list is up: the screen does."""
        if self.host.controller is None:
            self.host.worker.poll()

    def exit(self) -> None:
        self.opener.cancel()
        self.list.destroy()

    def closed(self) -> None:
        self.host.show_start_screen()

    def script_actions(self) -> Mapping[str, Callable[[Any], None]]:
        return {"drills": self._pick}

    def _pick(self, value: Any) -> None:
        """A drill of the list by its name (a click on its row), or false: Back."""
        if value is False:
            self.close()
            return
        names = [shipped.drill.name for shipped in self.drills]
        if value not in names:
            raise ValueError(f"drills: one of {', '.join(names)}, or false")
        self.opener.open_drill(self.drills[names.index(value)], self.player)


class DrillSummary:
    """The end of a session, over the table: each attempt's points and words, the
    session's summary, and the player's history of the drill."""

    def __init__(
        self,
        parent: Any,
        session: DrillSession,
        history: list[str],
        on_again: Callable[[], None],
        on_close: Callable[[], None],
    ) -> None:
        self.veil = DirectFrame(
            parent=parent,
            frameColor=VEIL,
            frameSize=BACKDROP,
            state=DGG.NORMAL,
            sortOrder=SCREEN_SORT,
        )
        self.frame = DirectFrame(parent=self.veil, frameColor=(0.02, 0.03, 0.03, 0.92))
        # Laid out from y = 0 down, then the panel sized to it and centred.
        content = self.frame.attachNewNode("summary")
        y = -0.1
        title = f"{session.drill.title}: the drill is over"
        label(content, title, (0, y), 0.06, GOLD, TextNode.ACenter)
        y -= 0.09
        self.summary = label(content, session.summary, (0, y), 0.045, WHITE, TextNode.ACenter)
        y -= 0.08
        self.lines = []
        for number, score in enumerate(session.scores, 1):
            text = f"{number}. {score.verdict} {score.words}"
            line = label(content, text, (-0.93, y), 0.032, WHITE if score.made else DIM)
            line.setWordwrap(1.86 / 0.032)
            self.lines.append(line)
            y -= 0.04 * max(1, line.textNode.getNumRows()) + 0.008
        y -= 0.03
        for text in history:
            self.lines.append(label(content, text, (-0.93, y), 0.034, DIM))
            y -= 0.045
        y -= 0.06
        self.buttons = [
            button(content, "Try again", (-0.3, y), on_again, scale=0.05, pad=(0.8, 0.4)),
            button(content, "Close", (0.3, y), on_close, scale=0.05, pad=(0.8, 0.4)),
        ]
        height = -y + 0.08
        self.frame["frameSize"] = (-1.0, 1.0, -height / 2, height / 2)
        content.setZ(height / 2)
        # Within the window whatever its shape: render2d spans -1..1 both ways, so the
        # parent's scale says how far its units reach across and down.
        sx, _, sz = parent.getScale()
        reach = min((1 / sx - 0.03) / 1.0, (1 / sz - 0.03) / (height / 2))
        self.frame.setScale(min(1.0, reach))

    def destroy(self) -> None:
        self.veil.destroy()
