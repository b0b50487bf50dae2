"""The practice table's set-up panel, in the HUD's controls block (never over the table):
a rack button for each game, Clear, the referee off or on (and then whose turn and the
cue ball in hand), the tray of the balls off the table (a click brings one back), Save
position and Done."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Protocol

from direct.gui.DirectGui import DirectButton, DirectFrame
from panda3d.core import TextNode

from rules import CUE, PLAYABLE_GAMES, BallId, BallInHand, Player
from sim.app.hud.layout import Box
from sim.app.hud.texts import refusal
from sim.app.hud.widgets import DIM, GOLD, PANEL, WHITE, button, label
from sim.play.game import GameError
from sim.play.table.controller import TableController

ROW = 0.082  # between the panel's rows
TEXT = 0.032
TRAY_TEXT = 0.03
# The cue ball in hand with the referee on, in the order the button steps through them.
IN_HAND_STEPS: tuple[BallInHand | None, ...] = (None, BallInHand.KITCHEN, BallInHand.ANYWHERE)
IN_HAND_WORDS = {None: "no", BallInHand.KITCHEN: "kitchen", BallInHand.ANYWHERE: "anywhere"}


def row_scale(texts: list[str], width: float, scale: float) -> float:
    """``scale``, or smaller so the widest of ``texts`` fits a button ``width`` wide with
    a little room at each end."""
    measure = TextNode("measure")
    widest = 0.0
    for text in texts:
        measure.setText(text)
        widest = max(widest, measure.getWidth())
    return min(scale, 0.85 * width / widest) if widest > 0 else scale


class PracticeHost(Protocol):
    """What the panel asks of the window (``PoolApp``) beyond the controller: a rack of
    any game (another game's rack sets up a practice table of that game) and saving
    the position to a file."""

    def practice_rack(self, game: str) -> None: ...
    def save_position(self) -> object: ...


class SetupPanel:
    def __init__(
        self,
        parent: object,
        block: Box,
        controller: TableController,
        host: PracticeHost,
        say: Callable[[str], None],
    ) -> None:
        self.controller = controller
        self.host = host
        self.say = say  # the HUD's line for the window's own words
        self.block = block
        self.frame = DirectFrame(
            parent=parent,
            frameColor=PANEL,
            frameSize=(block.x0, block.x1, block.y0, block.y1),
        )
        x0, top = block.x0 + 0.02, block.y1
        inner = block.width - 0.04
        self.title = label(self.frame, "Set up the table", (x0, top - 0.045), 0.038, GOLD)
        y = top - 0.045 - ROW
        # "Rack" and a button a game, named short (GameState.short_name).
        label(self.frame, "Rack", (x0, y - 0.01), TEXT, DIM)
        racks = [(kind.short_name(), name) for name, kind in PLAYABLE_GAMES.items()]
        left, gap = x0 + 0.09, 0.01
        # Each button as wide as its word asks (five games and Clear share one row).
        words = [len(text) + 2 for text, _ in racks] + [len("Clear") + 2]
        unit = (block.x1 - 0.02 - left - gap * len(racks)) / sum(words)
        self.buttons: dict[str, DirectButton] = {}
        commands = [*(self._rack(name) for _, name in racks), self._clear]
        keys = [*(f"rack {name}" for _, name in racks), "clear"]
        texts = [*(text for text, _ in racks), "Clear"]
        x = left
        for key, text, weight, command in zip(keys, texts, words, commands, strict=True):
            self.buttons[key] = self._button(text, x + unit * weight / 2, y, unit * weight, command)
            x += unit * weight + gap
        y -= ROW
        third = (inner - 0.02) / 3
        self.buttons["referee"] = self._button("", x0 + third / 2, y, third, self._referee)
        self.buttons["turn"] = self._button("", x0 + third * 1.5 + 0.01, y, third, self._turn)
        self.buttons["in_hand"] = self._button("", x0 + third * 2.5 + 0.02, y, third, self._in_hand)
        y -= ROW
        self.tray_y = y
        self.tray_label = label(self.frame, "Off the table:", (x0, y - 0.01), TEXT, DIM)
        self.tray: dict[BallId, DirectButton] = {}  # each ball off the table, its button
        self._tray_shown: tuple[BallId, ...] | None = None
        half = (inner - 0.02) / 2
        bottom = block.y0 + 0.045
        self.buttons["save"] = self._button(
            "Save position", x0 + half / 2, bottom, half, self._guard(host.save_position)
        )
        self.buttons["done"] = self._button(
            "Done: shoot (Space)",
            x0 + half * 1.5 + 0.02,
            bottom,
            half,
            self._guard(controller.set_up.done),
        )
        self.frame.hide()

    def _button(
        self,
        text: str,
        x: float,
        y: float,
        width: float,
        command: Callable[[], None],
        scale: float = TEXT,
    ) -> DirectButton:
        return button(self.frame, text, (x, y), command, scale, width=width)

    # -- the actions -------------------------------------------------------------------------

    def _guard(self, action: Callable[[], object]) -> Callable[[], None]:
        def run() -> None:
            try:
                action()
            except GameError as error:
                self.say(refusal(error))

        return run

    def _rack(self, game: str) -> Callable[[], None]:
        return self._guard(partial(self.host.practice_rack, game))

    def _clear(self) -> None:
        self._guard(lambda: self.controller.set_up.current().clear())()

    def _referee(self) -> None:
        table = self.controller.set_up.current()
        self._guard(lambda: table.set_referee(not table.refereed))()

    def _turn(self) -> None:
        table = self.controller.set_up.current()
        self._guard(lambda: table.set_turn(table.turn.other))()

    def _in_hand(self) -> None:
        table = self.controller.set_up.current()
        steps = IN_HAND_STEPS
        following = steps[(steps.index(table.in_hand_choice) + 1) % len(steps)]
        self._guard(lambda: table.set_in_hand(following))()

    def _bring_back(self, ball: BallId) -> None:
        self._guard(lambda: self.controller.set_up.current().add(ball))()

    # -- every frame -------------------------------------------------------------------------

    def refresh(self, shown: bool) -> None:
        table = self.controller.set_up.table
        if not shown or table is None:
            if not self.frame.isHidden():
                self.frame.hide()
            return
        if self.frame.isHidden():
            self.frame.show()
        names = self.controller.game.setup.players
        referee = "Referee: on" if table.refereed else "Referee: off"
        turn = f"Turn: {names[0] if table.turn is Player.A else names[1]}"
        in_hand = f"In hand: {IN_HAND_WORDS[table.in_hand_choice]}"
        for key, text in (("referee", referee), ("turn", turn), ("in_hand", in_hand)):
            if self.buttons[key]["text"] != text:
                self.buttons[key]["text"] = text
        for key in ("turn", "in_hand"):
            self.buttons[key]["text_fg"] = WHITE if table.refereed else DIM
        self._refresh_tray(table.off_table)

    def _refresh_tray(self, off: tuple[BallId, ...]) -> None:
        if off == self._tray_shown:
            return
        self._tray_shown = off
        for old in self.tray.values():
            old.destroy()
        self.tray = {}
        block = self.block
        start = block.x0 + 0.26
        room = block.x1 - 0.02 - start
        step = min(0.075, room / max(1, len(off)))
        for i, ball in enumerate(off):
            text = "cue" if ball == CUE else ball
            self.tray[ball] = button(
                self.frame,
                text,
                (start + step * (i + 0.5), self.tray_y),
                partial(self._bring_back, ball),
                TRAY_TEXT,
                width=step - 0.008,
            )
        self.tray_label.setText("Off the table:" if off else "Every ball is on the table")
        self.tray_label.setAlign(TextNode.ALeft)

    def destroy(self) -> None:
        self.frame.destroy()
