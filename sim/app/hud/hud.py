"""The heads-up display: scoreboard, the referee's words, what to do now, the power
meter, the cue-tip widget, the choice buttons. Drawn in ``aspect2d`` with DirectGUI, in
the bands :mod:`sim.app.hud.layout` lays out (never over the table); it reads the
controller (through :mod:`sim.app.hud.texts`) and calls it back from buttons.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import attrs
from direct.gui.DirectGui import DGG, DirectButton, DirectFrame
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import (
    CardMaker,
    Geom,
    GeomNode,
    GeomTriangles,
    GeomVertexData,
    GeomVertexFormat,
    GeomVertexWriter,
    NodePath,
    Point3,
    TextNode,
)

from rules import Choice, Declaration, Player
from sim.app.hud.layout import TOP_BAR, Box, HudLayout
from sim.app.hud.setuppanel import PracticeHost, SetupPanel
from sim.app.hud.texts import (
    choice_label,
    physics_status,
    prompt,
    referee_words,
    refusal,
    scoreboard,
    stalemate_answers,
)
from sim.app.hud.widgets import (
    BUTTON,
    DIM,
    GOLD,
    NOTICE,
    PANEL,
    RED,
    WHITE,
    button,
    destroy_under,
    fit_width,
    label,
    widget_of,
)
from sim.play.table.controller import TableController
from sim.play.table.turn import Stage

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase


# The choice buttons: in the dock's controls block (a choice and a stroke never share a
# turn), two to a row, each with its name on top and its meaning wrapped under it.
CHOICE_TEXT = 0.03
CHOICE_COLUMNS = 2
CHOICE_HEIGHT = 0.18  # at most: a name and three lines of meaning
# Inside the controls block, from its bottom-left corner (HUD units).
POWER_METER = (0.02, 0.03, 0.05, 0.27)  # x, y, width, height
TIP_WIDGET = (0.24, 0.17, 0.14)  # centre x, y, radius
STROKE_BUTTON = (0.28, 0.085)  # width, height; the buttons stand at the block's right
STROKE_KEYS = ("push", "safety", "shoot", "hint")  # the stroke buttons, from the foot up
TRACKING_TEXT = 0.028  # the tracking lines' switch: smaller words than a camera's
TRACKING_ON = (0.55, 0.42, 0.1, 0.95)  # lit as a declared safety is
NAME_TEXT = 0.06  # the players' names on the scoreboard
NAME_SHARE = 0.5  # of the board's half width, at most, for a name and its score
LINE = 0.036  # the dock's small lines (the stroke's words, the message)
REFEREE_SCALES = (0.034, 0.030, 0.026)  # the referee's lines shrink to fit, then are cut
# Where the last shot can be taken again: its balls at rest, the referee's words shown.
AFTER_A_SHOT = (Stage.AIM, Stage.PLACE, Stage.CHOOSE, Stage.OVER)
# The bands' ground: the room's floor as the fast preset draws it there, so the HUD looks
# as it did when the floor showed through (in the quality preset too), with nothing 3D.
BAND = (0.09, 0.055, 0.04, 1.0)
BAND_TAG = "hud-band"


def disc(radius: float, colour: tuple[float, float, float, float], segments: int = 48) -> NodePath:
    """A flat filled circle in the x-z plane (aspect2d's screen plane)."""
    data = GeomVertexData("disc", GeomVertexFormat.getV3c4(), Geom.UHStatic)
    vertex, color = GeomVertexWriter(data, "vertex"), GeomVertexWriter(data, "color")
    vertex.addData3(0, 0, 0)
    color.addData4(*colour)
    for i in range(segments + 1):
        angle = 2 * math.pi * i / segments
        vertex.addData3(radius * math.cos(angle), 0, radius * math.sin(angle))
        color.addData4(*colour)
    triangles = GeomTriangles(Geom.UHStatic)
    for i in range(1, segments + 1):
        triangles.addVertices(0, i + 1, i)
    geom = Geom(data)
    geom.addPrimitive(triangles)
    node = GeomNode("disc")
    node.addGeom(geom)
    return NodePath(node)


def _set(text: OnscreenText, value: str) -> None:
    """Change a text only when it changes: Panda3D rebuilds a text's geometry on every
    setText, and the HUD refreshes every frame."""
    if text.getText() != value:
        text.setText(value)


def tip_words(a: float, b: float) -> str:
    """The tip offset as a player says it: "centre", "left 0.20, draw 0.30"."""
    parts = []
    if abs(a) >= 0.005:
        parts.append(f"{'left' if a > 0 else 'right'} {abs(a):.2f}")
    if abs(b) >= 0.005:
        parts.append(f"{'follow' if b > 0 else 'draw'} {abs(b):.2f}")
    return ", ".join(parts) or "centre ball"


class Hud:
    """The HUD over the table, laid out by :class:`~sim.app.hud.layout.HudLayout` for the
    window's shape: bands along the top and the bottom, the table framed between them.
    ``folded``: the cue-tip and power widget and the referee's panel are folded away to
    tabs (``on_fold`` is called when the player folds or unfolds them)."""

    def __init__(
        self,
        base: ShowBase,
        controller: TableController,
        on_camera: Callable[[str], None],
        on_over: dict[str, Callable[[], object]] | None = None,
        *,
        folded: bool = False,
        on_fold: Callable[[], None] | None = None,
        practice: PracticeHost | None = None,
        on_tracking: Callable[[], None] | None = None,
    ) -> None:
        self.base = base
        self.controller = controller
        self.on_over = on_over or {}
        # A line of the window's own, and the table as it was when it was said: shown in
        # place of the table's message until the table moves on (:meth:`say`).
        self.notice: tuple[str, tuple[object, ...]] | None = None
        self.aspect = base.getAspectRatio()
        self.layout = layout = HudLayout.for_window(self.aspect)
        self.folded = folded
        self.root = base.aspect2d.attachNewNode("hud")
        self._fit_root()
        self.bands = draw_bands(self.root, layout)  # first: under every widget
        hw, hh = layout.half_width, layout.half_height
        self._build_top(layout.top_bar)
        self._build_prompt(layout.prompt_bar)
        self._build_controls(layout.controls)
        self._build_cameras(layout.cameras, on_camera, on_fold, on_tracking)
        self._build_words(layout.words)
        # The practice table's set-up panel, in the controls' block while setting up.
        self.setup_panel = (
            SetupPanel(self.root, layout.controls, controller, practice, self.say)
            if practice is not None and controller.practice
            else None
        )
        self.help = OnscreenText(
            parent=self.root,
            text=HELP_TEXT,
            pos=(-hw + 0.08, hh - TOP_BAR - 0.1),
            scale=0.042,
            fg=WHITE,
            bg=PANEL,
            align=TextNode.ALeft,
            mayChange=True,  # measured to fit the window
        )
        fit_width(self.help, 2 * hw - 0.16, 0.042)
        self.help.hide()
        self._shown_choices: tuple[Any, ...] = ()
        self._shown_reasons: object = self  # nothing shown yet
        self._shown_spoken: object = self  # the step they are about (a set-up has none)
        # What the board's title and status say instead, while a drill is on the table:
        # "Drill: Stop shot · attempt 2 of 5 · best so far 18 of 20", and its goal.
        self.headline: Callable[[], tuple[str, str] | None] | None = None
        self._show_folded()

    # -- building --------------------------------------------------------------------------

    def _fit_root(self) -> None:
        """Scale the HUD's root so its units are the layout's whatever ``aspect2d`` is:
        Panda3D widens a tall window's ``aspect2d`` vertically only once the window has
        said it is tall (an offscreen buffer never does)."""
        sx, _, sz = self.base.aspect2d.getScale()
        scale = (
            1.0 / (self.layout.half_width * sx),
            1.0,
            1.0 / (self.layout.half_height * sz),
        )
        if any(abs(a - b) > 1e-6 for a, b in zip(self.root.getScale(), scale, strict=True)):
            self.root.setScale(*scale)

    def _build_top(self, bar: Box) -> None:
        """The scoreboard across the top: the players at the sides, the game between."""
        self.top = DirectFrame(
            parent=self.root, frameColor=PANEL, frameSize=(bar.x0, bar.x1, bar.y0, bar.y1)
        )
        top = bar.y1
        self.title = label(self.root, "", (0, top - 0.06), 0.045, DIM, TextNode.ACenter)
        self.names = [
            label(self.root, "", (bar.x0 + 0.06, top - 0.105), NAME_TEXT, WHITE, TextNode.ALeft),
            label(self.root, "", (bar.x1 - 0.06, top - 0.105), NAME_TEXT, WHITE, TextNode.ARight),
        ]
        self.details = [
            label(self.root, "", (bar.x0 + 0.06, top - 0.165), 0.042, DIM, TextNode.ALeft),
            label(self.root, "", (bar.x1 - 0.06, top - 0.165), 0.042, DIM, TextNode.ARight),
        ]
        self.status = label(self.root, "", (0, top - 0.15), 0.042, WHITE, TextNode.ACenter)

    def _build_prompt(self, bar: Box) -> None:
        self.bottom = DirectFrame(
            parent=self.root, frameColor=PANEL, frameSize=(bar.x0, bar.x1, bar.y0, bar.y1)
        )
        self.prompt = label(self.root, "", (0, bar.y0 + 0.035), 0.048, WHITE, TextNode.ACenter)

    def _build_controls(self, block: Box) -> None:
        """The stroke's controls: the power meter, the cue-tip widget and their words,
        the stroke buttons; or, while a choice is open, the choice buttons."""
        x0, y0 = block.x0, block.y0
        self.stroke_widget = self.root.attachNewNode("stroke-widget")  # folds away
        mx, my, w, h = POWER_METER
        self.power_meter = (x0 + mx, y0 + my, w, h)
        x, y = x0 + mx, y0 + my
        DirectFrame(
            parent=self.stroke_widget,
            frameColor=(0.1, 0.1, 0.1, 0.85),
            frameSize=(x, x + w, y, y + h),
        )
        self.power_fill = DirectFrame(
            parent=self.stroke_widget,
            frameColor=(0.9, 0.55, 0.15, 0.95),
            frameSize=(x, x + w, y, y + h),
        )
        tx, ty, r = TIP_WIDGET
        self.tip_widget = (x0 + tx, y0 + ty, r)
        self.tip_root = self.stroke_widget.attachNewNode("tip")
        self.tip_root.setPos(x0 + tx, 0, y0 + ty)
        disc(r, (0.92, 0.92, 0.88, 1.0)).reparentTo(self.tip_root)
        ring = disc(r * 0.5, (0.82, 0.82, 0.78, 1.0))  # the miscue limit
        ring.reparentTo(self.tip_root)
        disc(r * 0.48, (0.92, 0.92, 0.88, 1.0)).reparentTo(self.tip_root)
        self.tip_dot = disc(r * 0.09, (0.85, 0.1, 0.1, 1.0))
        self.tip_dot.reparentTo(self.tip_root)
        words_y = block.y1 - 0.045
        self.power_text = label(
            self.stroke_widget, "", (x0 + mx, words_y), LINE, WHITE, TextNode.ALeft
        )
        self.tip_text = label(
            self.stroke_widget, "", (x0 + 0.2, words_y), LINE, WHITE, TextNode.ALeft
        )
        # Up to the stroke buttons' column (the Hint button stands level with it).
        self._tip_text_width = block.x1 - STROKE_BUTTON[0] - 0.02 - (x0 + 0.2)
        # Folded, the widget is a tab with its words on it; a click unfolds it.
        self.stroke_tab = self._fold_tab("▸", (x0 + mx, words_y), WHITE)
        # The stroke buttons, one above another at the block's right.
        self.buttons: dict[str, DirectButton] = {}
        width, height = STROKE_BUTTON
        x = block.x1 - width / 2
        y = y0 + 0.04
        for text, key, action in (
            ("Push out", "push", partial(self._declare, Declaration.PUSH_OUT)),
            ("Safety", "safety", partial(self._declare, Declaration.SAFETY)),
            ("Shoot", "shoot", self._shoot),
            ("Hint", "hint", self._hint),
        ):
            self.buttons[key] = button(self.root, text, (x, y), action, 0.045, width=width)
            y += height + 0.02
        # A choice (a decision turn) in the same block; the referee's reasons beside it.
        self.choice_block = block
        self.choice_frame = DirectFrame(
            parent=self.root,
            frameColor=PANEL,
            frameSize=(block.x0, block.x1, block.y0, block.y1),
        )
        self.choice_title = OnscreenText(
            parent=self.choice_frame,
            text="",
            pos=(block.x0 + 0.02, block.y1 - 0.05),
            scale=0.04,
            fg=GOLD,
            align=TextNode.ALeft,
            mayChange=True,
        )
        self.choice_buttons: list[DirectButton] = []
        self.choice_frame.hide()

    def _build_cameras(
        self,
        block: Box,
        on_camera: Callable[[str], None],
        on_fold: Callable[[], None] | None,
        on_tracking: Callable[[], None] | None,
    ) -> None:
        """The camera buttons, one above another; under them the tracking lines' switch
        (it says whether they are on, and its key) and the fold button."""
        x = (block.x0 + block.x1) / 2
        width = block.width
        self.camera_buttons = [
            button(
                self.root,
                text,
                (x, block.y1 - 0.055 - i * 0.085),
                partial(on_camera, preset),
                0.04,
                width=width,
            )
            for i, (text, preset) in enumerate(
                (("Behind", "behind"), ("Overhead", "overhead"), ("Broadcast", "broadcast"))
            )
        ]
        self._on_fold = on_fold or self.toggle_fold
        self.tracking_button = button(
            self.root,
            "",
            (x, block.y0 + 0.115),
            on_tracking or (lambda: None),
            TRACKING_TEXT,
            width=width,
        )
        self.fold_button = button(
            self.root, "", (x, block.y0 + 0.035), self._on_fold, 0.036, width=width
        )

    def _build_words(self, block: Box) -> None:
        """The table's words: the physics' warm-up, the message, the referee's panel
        (its backdrop first, so the words are drawn over it)."""
        self.words_block = block
        self.referee = self.root.attachNewNode("referee")  # folds away
        self.referee_frame = DirectFrame(
            parent=self.referee,
            frameColor=PANEL,
            frameSize=(block.x0, block.x1, block.y0, block.y1),
        )
        self.referee_title = label(
            self.referee, "Referee", (block.x0 + 0.02, block.y1 - 0.045), 0.04, GOLD
        )
        self.referee_lines: list[OnscreenText] = []
        # The details behind the referee's plain line (every reason with its rule ID),
        # shown on request (this button, W).
        self.show_details = False
        self.details_button = button(
            self.root,
            "Details (W)",
            (block.x1 - 0.13, block.y1 - 0.04),
            self.toggle_details,
            0.032,
            width=0.22,
        )
        self.details_button.hide()
        self.referee_tab = self._fold_tab("▸ Referee", (block.x0 + 0.02, block.y1 - 0.045), GOLD)
        self.referee.hide()
        self.referee_tab.hide()
        wrap = block.width - 0.04
        self.warmup = label(
            self.root, "", (block.x0 + 0.02, block.y1 - 0.045), LINE, GOLD, TextNode.ALeft
        )
        self.warmup.setWordwrap(wrap / LINE)
        self.message = label(
            self.root, "", (block.x0 + 0.02, block.y1 - 0.045), LINE, NOTICE, TextNode.ALeft
        )
        self.message.setWordwrap((wrap - 0.25) / LINE)  # beside the Details button too
        # The referee's plain line: what happened and what the next player may do.
        self.verdict = label(
            self.root, "", (block.x0 + 0.02, block.y1 - 0.045), 0.04, WHITE, TextNode.ALeft
        )
        self.verdict.setWordwrap((wrap - 0.25) / 0.04)  # beside the Details button
        # Take it again, under the referee's words at the right: the last shot back, its
        # stroke loaded (at a choice too, where the stroke's block holds the choices).
        width, height = STROKE_BUTTON
        self.buttons["again"] = button(
            self.root,
            "Take it again",
            (block.x1 - width / 2 - 0.02, block.y0 + height / 2),
            self._take_again,
            0.04,
            width=width,
        )
        # Set up (U), beside it on the practice table: the set-up from the balls as they lie.
        self.buttons["setup"] = button(
            self.root,
            "Set up (U)",
            (block.x1 - width * 1.5 - 0.04, block.y0 + height / 2),
            self._set_up,
            0.04,
            width=width,
        )

    # -- building blocks ---------------------------------------------------------------

    def _fold_tab(
        self, text: str, pos: tuple[float, float], colour: tuple[float, float, float, float]
    ) -> DirectButton:
        """A folded panel's tab: its words on a flat button; a click unfolds the panels."""
        return DirectButton(
            parent=self.root,
            text=text,
            text_align=TextNode.ALeft,
            pos=(pos[0], 0, pos[1]),
            scale=LINE,
            frameColor=BUTTON,
            text_fg=colour,
            pad=(0.4, 0.3),
            relief=DGG.FLAT,
            command=self._unfold,
        )

    def _shoot(self) -> None:
        self._guard(self.controller.strike)

    def _hint(self) -> None:
        self._guard(self.controller.seat.ask_hint)

    def _take_again(self) -> None:
        self._guard(self.controller.branches.take_back)

    def _set_up(self) -> None:
        self._guard(self.controller.set_up.begin)

    def _declare(self, declaration: Declaration) -> None:
        current = self.controller.declaration
        self._guard(
            lambda: self.controller.declare(None if current is declaration else declaration)
        )

    def _guard(self, action: Callable[[], object]) -> None:
        from sim.play.game import GameError

        try:
            action()
        except GameError as error:
            self.say(refusal(error))

    def say(self, text: str) -> None:
        """A line of the window's own (a move refused, in its keys; a file saved; the
        sound on or off), shown in place of the table's message until the table moves
        on: the table says something else, its stage changes, a step is taken, or the
        call or declaration changes."""
        self.notice = (text, self._moment())

    def carry_on_from(self, old: Hud) -> None:
        """What the player had on the HUD this one replaces (a resized window's): the
        window's notice, the drill's headline, the referee's details shown or not."""
        self.notice = old.notice
        self.headline = old.headline
        self.show_details = old.show_details
        self._shown_reasons = self  # the referee's panel drawn again, as it was
        self.refresh()

    def shown_lines(self) -> tuple[str, ...]:
        """Every line the HUD shows now, as drawn: a window at rest draws a frame when
        one changes on its own (the computer's "thinking… 1.2 s", the shot clock)."""
        nodes = (self.title, self.status, self.prompt, self.warmup, self.message, self.verdict)
        return tuple(node.getText() for node in (*nodes, *self.names, *self.details))

    def shown_message(self) -> str:
        """The message line as the HUD shows it: the window's notice, or the table's."""
        if self.notice is not None and self.notice[1] == self._moment():
            return self.notice[0]
        return self.controller.message

    def _moment(self) -> tuple[object, ...]:
        controller = self.controller
        return (
            controller.message,
            controller.stage,
            len(controller.game.records),
            controller.call,
            controller.call_ball,
            controller.declaration,
        )

    def toggle_details(self) -> None:
        """The referee's details (every reason, with its rule ID) on or off; unfolded
        first if the panels are folded away."""
        self.show_details = not self.show_details
        if self.show_details and self.folded:
            self._on_fold()
        self._shown_reasons = self  # redraw the panel

    def toggle_help(self) -> None:
        if self.help.isHidden():
            self.help.show()
        else:
            self.help.hide()

    # -- folding -------------------------------------------------------------------------

    def toggle_fold(self) -> None:
        self.set_folded(not self.folded)

    def set_folded(self, folded: bool) -> None:
        """Fold the cue-tip and power widget and the referee's panel away to tabs, or
        unfold them."""
        self.folded = folded
        self._show_folded()

    def _unfold(self) -> None:
        if self.folded:
            self._on_fold()

    def _show_folded(self) -> None:
        self.fold_button["text"] = "▴ Unfold (F)" if self.folded else "▾ Fold (F)"
        self._shown_reasons = self  # the referee's panel is drawn again, as it now is
        self._refresh_aim()
        self._refresh_referee()

    # -- where things are ------------------------------------------------------------------

    def point(self, mouse: tuple[float, float]) -> tuple[float, float]:
        """A render2d point (the mouse) in the HUD's units."""
        return (mouse[0] * self.layout.half_width, mouse[1] * self.layout.half_height)

    def covers(self, x: float, y: float) -> bool:
        """Whether HUD point (x, y) is on the HUD's bands (not on the table's part)."""
        return not self.layout.table.contains(x, y)

    def over_power_meter(self, x: float, y: float) -> float | None:
        """The power at HUD point (x, y) when it is on the meter, else None."""
        if self.stroke_widget.isHidden():
            return None
        mx, my, w, h = self.power_meter
        if mx - 0.03 <= x <= mx + w + 0.03 and my - 0.03 <= y <= my + h + 0.03:
            return min(1.0, max(0.0, (y - my) / h))
        return None

    def over_tip_widget(self, x: float, y: float) -> tuple[float, float] | None:
        """The tip offset (a, b) at HUD point (x, y) on the cue-ball widget."""
        if self.stroke_widget.isHidden():
            return None
        cx, cy, r = self.tip_widget
        dx, dy = (x - cx) / r, (y - cy) / r
        if math.hypot(dx, dy) > 1.1:
            return None
        return (-dx, dy)  # pooltool's +a is the left of the ball as the shooter sees it

    def drawn(self) -> list[tuple[str, Box]]:
        """What the HUD draws now, each part's name and where it is in render2d units
        (-1..1 both ways), from the nodes themselves: a DirectGUI widget's frame, the
        tight bounds of a text or a shape. The help aside, which the player calls up
        over everything."""
        render2d = self.base.render2d
        found: list[tuple[str, Box]] = []
        for node in self.root.findAllMatches("**"):
            if node.isHidden() or node == self.help or node.hasNetTag(BAND_TAG):
                continue  # (the bands are what the parts lie on, not a part)
            widget = widget_of(node)
            if widget is not None:
                x0, x1, y0, y1 = widget.guiItem.getFrame()
                a = render2d.getRelativePoint(node, Point3(x0, 0, y0))
                b = render2d.getRelativePoint(node, Point3(x1, 0, y1))
            elif isinstance(node.node(), (TextNode, GeomNode)) and not node.getNumChildren():
                bounds = node.getTightBounds(render2d)
                if bounds is None:
                    continue
                a, b = bounds
            else:
                continue
            box = Box(min(a[0], b[0]), max(a[0], b[0]), min(a[2], b[2]), max(a[2], b[2]))
            if box.width > 0 and box.height > 0:
                part = node.node()
                name = f"text {part.getText()[:24]!r}" if isinstance(part, TextNode) else None
                found.append((name or node.getName(), box))
        return found

    # -- every frame ---------------------------------------------------------------------

    def refresh(self) -> None:
        self._fit_root()
        controller = self.controller
        if controller.stage is Stage.WATCH:
            # The shot is playing out: the board says what it said at the stroke until
            # the balls stop and the referee speaks; the prompt says how to skip ahead.
            self._set_prompt(prompt(controller))
            self._refresh_aim()
            return
        board = scoreboard(controller)
        headline = self.headline() if self.headline is not None else None
        if headline is not None:
            title, goal = headline  # the goal alone: the prompt says the cue ball in hand
            board = attrs.evolve(board, title=title, status=goal)
        _set(self.title, board.title)
        _set(self.status, board.status)  # fitted between the names (_fit_board)
        for i, panel in enumerate(board.players):
            marker = "▶ " if panel.at_table and i == 0 else ""
            suffix = " ◀" if panel.at_table and i == 1 else ""
            if board.solo:  # the one player at the table, named on the left; no score
                name = board.players[0] if board.players[0].at_table else board.players[1]
                _set(self.names[i], f"{name.name}" if i == 0 else "")
                self.names[i].setFg(WHITE)
                _set(self.details[i], "")
                continue
            _set(
                self.names[i],
                f"{marker}{panel.name}  {panel.racks}{suffix}"
                if i == 0
                else f"{marker}{panel.racks}  {panel.name}{suffix}",
            )
            self.names[i].setFg(GOLD if panel.at_table else WHITE)
            parts = [panel.words] if panel.words else []  # the game's (group, points)
            if panel.fouls:
                parts.append(f"{panel.fouls} foul{'s' if panel.fouls > 1 else ''}")
            if panel.warned:
                parts.append("WARNED")
            _set(self.details[i], " · ".join(parts))
            self.details[i].setFg(RED if panel.warned else DIM)
        self._fit_board()
        clock = controller.shot_clock.left()
        text = prompt(controller)
        if clock is not None:  # whole seconds left, as a shot clock shows them
            text = f"shot clock {max(0, math.ceil(clock))} s  ·  {text}"
        self._set_prompt(text)
        warmup = physics_status(controller.worker, time.monotonic())
        message = self.shown_message()
        if self.warmup.getText() != warmup or self.message.getText() != message:
            _set(self.warmup, warmup)
            _set(self.message, message)
            self._shown_reasons = self  # the referee's lines start under these
        self._refresh_referee()
        self._refresh_aim()
        self._refresh_choices()
        if self.setup_panel is not None:
            self.setup_panel.refresh(controller.stage is Stage.SETUP)

    def _fit_board(self) -> None:
        """The players' names and the game's words under them at most a share of the
        board each, and the title and the status between them: a long name never runs
        into the game's line, nor a player's words (rotation's points, 8-ball's group,
        the fouls) into the status beside them."""
        hw = self.layout.half_width
        widest, widest_words = 0.0, 0.0
        for name, words in zip(self.names, self.details, strict=True):
            fit_width(name, NAME_SHARE * hw, NAME_TEXT)
            fit_width(words, NAME_SHARE * hw, 0.042)
            if name.getText():
                widest = max(widest, name.textNode.getWidth() * name.getTextScale()[0])
            if words.getText():
                width = words.textNode.getWidth() * words.getTextScale()[0]
                widest_words = max(widest_words, width)
        room = 2 * (hw - 0.06 - widest - 0.05)
        fit_width(self.title, room, 0.045)
        beside_words = 2 * (hw - 0.06 - widest_words - 0.05)
        fit_width(self.status, min(room, beside_words, 2 * hw - 0.9), 0.042)

    def _set_prompt(self, text: str) -> None:
        if self.prompt.getText() != text:
            self.prompt.setText(text)
            fit_width(self.prompt, 2 * self.layout.half_width - 0.1, 0.048)

    def _words_top(self) -> float:
        """Where the referee's details start in the words' block: under the warm-up line,
        the message and the referee's plain line, whichever show, each under the last."""
        block = self.words_block
        y = block.y1 - 0.045
        for text in (self.warmup, self.message, self.verdict):
            if text.getText():
                text.setTextY(y)
                scale = text.getTextScale()[1]
                y -= max(1, text.textNode.getNumRows()) * scale * 1.2 + 0.012
        return y

    def _refresh_referee(self) -> None:
        """The referee's plain line; the panel of details on request (unless folded)."""
        reasons, spoken = self.controller.reasons, self.controller.spoken
        if reasons is self._shown_reasons and spoken is self._shown_spoken:
            return
        self._shown_reasons, self._shown_spoken = reasons, spoken
        words = referee_words(self.controller)
        _set(self.verdict, words.lead)
        self.verdict.setFg(RED if words.foul else WHITE)
        for line in self.referee_lines:
            line.destroy()
        self.referee_lines = []
        top = self._words_top()
        self.referee_tab.setZ(top)
        shown = bool(words.details) and self.show_details and not self.folded
        _shown(self.referee, shown)
        _shown(self.referee_tab, bool(words.details) and self.folded)
        _shown(self.details_button, bool(words.details) and not self.folded)
        self.details_button["text"] = "Hide (W)" if shown else "Details (W)"
        if not shown:
            return
        for scale in REFEREE_SCALES:
            if self._lay_referee(words.details, top, scale, cut=scale == REFEREE_SCALES[-1]):
                break

    def _lay_referee(
        self, lines: list[tuple[str, bool]], top: float, scale: float, cut: bool
    ) -> bool:
        """The referee's title and lines from ``top`` down the words' block at ``scale``;
        False (and nothing left drawn) if they do not all fit, unless ``cut``: then the
        lines that do, and an ellipsis."""
        block = self.words_block
        self.referee_title.setTextY(top)
        y = top - 0.05
        for text, foul in lines:
            line = label(self.referee, text, (block.x0 + 0.02, y), scale, RED if foul else WHITE)
            line.setWordwrap((block.width - 0.04) / scale)
            rows = max(1, line.textNode.getNumRows())
            bottom = y - (rows - 1) * scale * 1.2
            if bottom < block.y0 + STROKE_BUTTON[1] + 0.015:  # over Take it again's row
                line.destroy()
                if not cut:
                    for old in self.referee_lines:
                        old.destroy()
                    self.referee_lines = []
                    return False
                if self.referee_lines:
                    last = self.referee_lines[-1]
                    last.setText(last.getText() + " …")
                break
            self.referee_lines.append(line)
            y = bottom - scale * 1.2 - 0.006
        # The panel ends under its last line (less of it over the view behind the ball).
        bottom = max(block.y0, y + scale * 0.6)
        self.referee_frame["frameSize"] = (block.x0, block.x1, bottom, block.y1)
        return True

    def _refresh_aim(self) -> None:
        controller = self.controller
        stage = controller.stage
        aiming = stage in (Stage.AIM, Stage.LAG)
        choosing = stage in (Stage.CHOOSE, Stage.BREAKER, Stage.OVER, Stage.SETUP, Stage.OFFER)
        aim = controller.aim
        x, y, w, h = self.power_meter
        self.power_fill["frameSize"] = (x, x + w, y, y + h * max(0.01, aim.power))
        r = self.tip_widget[2]
        self.tip_dot.setPos(-aim.a * r, 0, aim.b * r)
        speed = f"{aim.speed:.1f} m/s"
        raised = controller.cue_clearance() if aiming else None
        if raised is not None and raised.over is not None:  # the cue rises over a ball
            elevation = f"cue {raised.elevation:.0f}° over the {raised.over}"
        else:
            elevation = f"cue {aim.elevation:.0f}°" if aim.elevation else ""
        # The elevation on a line of its own, under the tip's offset.
        tip = "\n".join(part for part in (tip_words(aim.a, aim.b), elevation) if part)
        _set(self.power_text, speed)
        if self.tip_text.getText() != tip:
            self.tip_text.setText(tip)
            fit_width(self.tip_text, self._tip_text_width, LINE)
        one_line = tip.replace("\n", " · ")
        tab = f"▸ {speed} · {one_line}"
        if self.stroke_tab["text"] != tab:
            self.stroke_tab["text"] = tab
            self.stroke_tab.resetFrameSize()  # the tab as long as its words
        # While the computer chooses its stroke, the cue shows none (modes.aim): nor does
        # the stroke's widget, whose power and tip would be the cue's as it lay.
        thinking = stage in (Stage.AIM, Stage.PLACE) and controller.seat.choosing
        _shown(self.stroke_widget, not choosing and not thinking and not self.folded)
        _shown(self.stroke_tab, not choosing and not thinking and self.folded)
        person = controller.computer_level is None  # the buttons are a person's
        for key, widget in self.buttons.items():
            if key == "shoot":
                visible = aiming and person
            elif key == "hint":  # where it is allowed (a drill may switch it off)
                visible = stage in (Stage.AIM, Stage.PLACE) and person and controller.aids.hint
            elif key == "again":
                visible = controller.branches.can_take_back and controller.stage in AFTER_A_SHOT
            elif key == "setup":
                visible = controller.practice and controller.stage in AFTER_A_SHOT
            elif key == "safety":
                visible = controller.can_declare(Declaration.SAFETY) and person
            else:
                visible = controller.can_declare(Declaration.PUSH_OUT) and person
            _shown(widget, visible)
        self._stack_stroke_buttons()
        self._refresh_tracking()
        for key, declaration in (("safety", Declaration.SAFETY), ("push", Declaration.PUSH_OUT)):
            on = controller.declaration is declaration
            colour = (0.55, 0.42, 0.1, 0.95) if on else BUTTON
            if self.buttons[key]["frameColor"] != colour:
                self.buttons[key]["frameColor"] = colour

    def _stack_stroke_buttons(self) -> None:
        """The stroke buttons shown, one above another from the block's foot with no gap
        where one is hidden (Shoot while the cue ball is in hand)."""
        y = self.choice_block.y0 + 0.04
        for key in STROKE_KEYS:
            widget = self.buttons[key]
            if widget.isHidden():
                continue
            if abs(widget.getZ() - y) > 1e-6:
                widget.setZ(y)
            y += STROKE_BUTTON[1] + 0.02

    def _refresh_tracking(self) -> None:
        """The switch says whether the tracking lines are on, and lights up when so."""
        on = self.controller.tracking
        text = tracking_words(on)
        if self.tracking_button["text"] != text:
            self.tracking_button["text"] = text
            self.tracking_button["frameColor"] = TRACKING_ON if on else BUTTON

    def _refresh_choices(self) -> None:
        controller = self.controller
        stage = controller.stage
        if stage is Stage.CHOOSE:
            state = controller.state
            assert state is not None
            # In the order the referee's line offers them ("shoot or pass it back").
            options: tuple[Any, ...] = tuple(c for c in Choice if c in state.legal_choices)
            title = f"{controller.game.setup.name(controller.shooter)} chooses"
        elif stage is Stage.BREAKER:
            options = tuple(Player)
            title = f"{controller.game.setup.name(controller.shooter)} won the lag: who breaks?"
        elif stage is Stage.OFFER:
            answers = stalemate_answers(controller)
            options = tuple(answers)
            title = f"{controller.seat_name(controller.shooter)} answers"
        elif stage is Stage.OVER:
            options = tuple(self.on_over)
            game = controller.game
            winner = game.winner()
            won = game.match.racks_won
            score = f"{max(won.a, won.b)}-{min(won.a, won.b)}"
            title = f"{game.setup.name(winner)} wins the match {score}" if winner else "Match over"
        else:
            options = ()
            title = ""
        if options == self._shown_choices:
            return
        self._shown_choices = options
        for old in self.choice_buttons:
            old.destroy()
        self.choice_buttons = []
        if not options:
            self.choice_frame.hide()
            return
        self.choice_frame.show()
        self.choice_title.setText(title)
        fit_width(self.choice_title, self.choice_block.width - 0.04, 0.04)
        for i, option in enumerate(options):
            command: Callable[[], object]
            # Choice and Player are str enums too: test them before plain strings.
            if isinstance(option, Choice):
                assert controller.state is not None  # a choice is of a rack in play
                name, explanation = choice_label(option, controller.state)
                command = partial(self._guard, partial(controller.choose, option))
            elif isinstance(option, Player):
                name, explanation = f"{controller.game.setup.name(option)} breaks", ""
                command = partial(self._guard, partial(controller.lag.choose_breaker, option))
            elif stage is Stage.OFFER:
                name, explanation, agree = option
                command = partial(self._guard, partial(controller.stalemate.answer, agree))
            else:
                name, explanation = option, ""
                command = self.on_over[option]
            self.choice_buttons.append(
                self._choice_button(name, explanation, i, len(options), command)
            )

    def _choice_button(
        self, name: str, explanation: str, index: int, count: int, command: Callable[[], object]
    ) -> DirectButton:
        """A button of the choice block: its name on top, its meaning under it; all the
        same size, two to a row under the block's title, so a set of them reads as one."""
        block = self.choice_block
        rows = math.ceil(count / CHOICE_COLUMNS)
        gap = 0.02
        width = (block.width - 0.04 - gap * (CHOICE_COLUMNS - 1)) / CHOICE_COLUMNS
        height = min(CHOICE_HEIGHT, (block.height - 0.09 - gap * (rows - 1)) / rows)
        column, row = index % CHOICE_COLUMNS, index // CHOICE_COLUMNS
        left = block.x0 + 0.02 + column * (width + gap)
        top = block.y1 - 0.08 - row * (height + gap)
        text = f"{name}\n{explanation}" if explanation else name
        scale = _fitting_scale(text, width - 0.03, height - 0.03, CHOICE_TEXT)
        # The words in the button's middle: the name's baseline half the room left by
        # the words (their rows' height) under the button's top, and an ascent.
        measure = TextNode("measure")
        measure.setWordwrap((width - 0.03) / scale)
        measure.setText(text)
        words = measure.getNumRows() * measure.getLineHeight() * scale
        baseline = max(0.015, (height - words) / 2) + 0.8 * scale
        return DirectButton(
            parent=self.choice_frame,
            text=text,
            text_wordwrap=(width - 0.03) / scale,
            pos=(left + width / 2, 0, top - baseline),
            scale=scale,
            frameSize=(
                -width / 2 / scale,
                width / 2 / scale,
                -(height - baseline) / scale,
                baseline / scale,
            ),
            frameColor=BUTTON,
            text_fg=WHITE,
            relief=DGG.FLAT,
            command=command,
        )

    def choice_button_centres(self) -> list[tuple[float, float]]:
        """Where the choice buttons are (aspect2d), for tests and scripted clicks."""
        centres = []
        for widget in self.choice_buttons:
            x0, x1, y0, y1 = widget["frameSize"]
            centre = self.base.aspect2d.getRelativePoint(
                widget, Point3((x0 + x1) / 2, 0, (y0 + y1) / 2)
            )
            centres.append((float(centre[0]), float(centre[2])))
        return centres

    def destroy(self) -> None:
        destroy_under(self.root)


def draw_bands(parent: NodePath, layout: HudLayout) -> NodePath:
    """The bands above and below the table's part of the window, opaque: the 3D scene
    under them is hidden (the cue seen from overhead or from behind ran on under the
    HUD's lines and buttons: issue 28, friction 12). Plain cards, not widgets: they
    take no clicks. Drawn before the HUD's widgets, so under them."""
    bands = parent.attachNewNode("bands")
    bands.setTag(BAND_TAG, "1")
    free = layout.table
    hw, hh = layout.half_width, layout.half_height
    for name, (y0, y1) in (("band-top", (free.y1, hh)), ("band-bottom", (-hh, free.y0))):
        card = CardMaker(name)
        card.setFrame(-hw, hw, y0, y1)
        bands.attachNewNode(card.generate())
    bands.setColor(*BAND)
    return bands


def tracking_words(on: bool) -> str:
    """The tracking lines' switch: "Tracking lines: on (T)"."""
    return f"Tracking lines: {'on' if on else 'off'} (T)"


def _fitting_scale(text: str, width: float, height: float, scale: float) -> float:
    """The largest of ``scale`` and a few smaller ones at which ``text``, wrapped to
    ``width``, is no taller than ``height`` (the smallest if none is)."""
    measure = TextNode("measure")
    for tried in (scale, scale * 0.9, scale * 0.8):
        measure.setWordwrap(width / tried)
        measure.setText(text)
        if measure.getNumRows() * measure.getLineHeight() * tried <= height:
            return tried
    return scale * 0.8


def _shown(node: Any, visible: bool) -> None:
    """Show or hide ``node``, touching it only on a change."""
    if visible and node.isHidden():
        node.show()
    elif not visible and not node.isHidden():
        node.hide()


HELP_TEXT = """Aim: drag with the left button (Shift: fine), arrows left/right, or click a ball
Power: mouse wheel over the meter, drag the meter, arrows up/down
English: click the cue ball at bottom left, or I J K L  ·  elevation: E / D
Shoot: Space or the Shoot button (Space again skips the shot playing out)
Call (10-ball): click a ball, then a pocket (seen from overhead if some are not in view)
S: safety  ·  P: push out (after the break)  ·  F: fold the cue-ball widget and the referee away
Ball in hand: move the mouse, click to put the cue ball down (B: pick it up)
Camera: right drag orbits, middle drag pans, wheel zooms  ·  1 behind, 2 overhead, 3 broadcast
Backspace (or Take it again): the last shot back, its stroke loaded; the first try is kept
Practice table: U (or Set up) sets the table up: drag balls, drag one off the cloth or
  right-click it to take it off, the tray brings it back; Space (Done) shoots, U leaves it
R: replay the shots (P there: play from that shot)  ·  G: aiming aid  ·  X: shot-clock extension
W: the referee's details (every reason, with its rule)  ·  T: tracking lines (where the balls go)
/ or ?: a hint: what the computer would play here, loaded on the cue
O: offer a stalemate (no ball down for 6 innings)  ·  Y / N: agree to one offered, or play on
M: sound on/off  ·  H: this help  ·  Esc: menu"""
