"""The heads-up display: scoreboard, the referee's words, what to do now, the power
meter, the cue-tip widget, the choice buttons. Drawn in ``aspect2d`` with DirectGUI; it
reads the controller (through :mod:`sim.app.texts`) and calls it back from buttons.
"""

from __future__ import annotations

import math
import textwrap
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from direct.gui.DirectGui import DGG, DirectButton, DirectFrame
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import (
    Geom,
    GeomNode,
    GeomTriangles,
    GeomVertexData,
    GeomVertexFormat,
    GeomVertexWriter,
    NodePath,
    TextNode,
)

from rules import Choice, Declaration, Player
from sim.app.texts import choice_label, physics_status, prompt, referee_words, scoreboard
from sim.app.widgets import (
    BUTTON,
    DIM,
    GOLD,
    NOTICE,
    PANEL,
    RED,
    WHITE,
    button,
    destroy_under,
    label,
)
from sim.play.controller import Stage, TableController

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase


# The choice bar: centred right of the cue-tip widget, over the near rail; each button
# CHOICE_WIDTH wide (aspect2d units), its meaning wrapped at CHOICE_WRAP characters.
CHOICE_BAR_AT = (0.25, 0, -0.62)
CHOICE_WIDTH = 0.62
CHOICE_STEP = 0.66
CHOICE_WRAP = 26
CHOICE_TEXT = 0.036
# A choice button's frame in text units around its first line's baseline: the name's
# cap height above, three wrapped lines of meaning below (the longest meaning's three).
CHOICE_ABOVE, CHOICE_BELOW = 1.1, 4.41
# Bottom left, measured from the window's left edge (x = -aspect) so any shape fits.
POWER_METER = (0.10, -0.92, 0.06, 0.50)  # x from the left edge, bottom y, width, height
TIP_WIDGET = (0.32, -0.70, 0.17)  # centre x from the left edge, y, radius
TIP_TEXT_LINE = 0.046  # a line of the tip widget's words, to move it up by
TAKE_AGAIN_Y = -0.67  # the Take it again button, just over the Shoot button
# Where the last shot can be taken again: its balls at rest, the referee's words shown.
AFTER_A_SHOT = (Stage.AIM, Stage.PLACE, Stage.CHOOSE, Stage.OVER)


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


# The HUD's centre band, in aspect2d units: the corners hold the camera buttons (out to
# -aspect + 0.81) and the referee's panel (from aspect - 0.86) at the top, the cue-ball
# widget and the stroke buttons (from aspect - 0.88) below; a line centred in the band and
# wrapped to its width never runs under them, on any window shape.
BAND_CENTRE = -0.025
BAND_MARGINS = 1.72  # what the corners take of the window's width (2 * aspect)
MESSAGE_Y = -0.86  # the message's last line, just above the prompt's bar


def _set(text: OnscreenText, value: str) -> None:
    """Change a text only when it changes: Panda3D rebuilds a text's geometry on every
    setText, and the HUD refreshes every frame."""
    if text.getText() != value:
        text.setText(value)


def _rows(text: OnscreenText) -> int:
    """How many rows a wrapped text takes (none when empty)."""
    return text.textNode.getNumRows() if text.getText() else 0


def tip_words(a: float, b: float) -> str:
    """The tip offset as a player says it: "centre", "left 0.20, draw 0.30"."""
    parts = []
    if abs(a) >= 0.005:
        parts.append(f"{'left' if a > 0 else 'right'} {abs(a):.2f}")
    if abs(b) >= 0.005:
        parts.append(f"{'follow' if b > 0 else 'draw'} {abs(b):.2f}")
    return ", ".join(parts) or "centre ball"


class Hud:
    def __init__(
        self,
        base: ShowBase,
        controller: TableController,
        on_camera: Callable[[str], None],
        on_over: dict[str, Callable[[], None]] | None = None,
    ) -> None:
        self.base = base
        self.controller = controller
        self.on_over = on_over or {}
        self.root = base.aspect2d.attachNewNode("hud")
        aspect = base.getAspectRatio()
        self.aspect = aspect
        self.power_meter = (POWER_METER[0] - aspect, *POWER_METER[1:])
        self.tip_widget = (TIP_WIDGET[0] - aspect, *TIP_WIDGET[1:])
        # Scoreboard across the top.
        self.top = DirectFrame(
            parent=self.root, frameColor=PANEL, frameSize=(-aspect, aspect, 0.80, 1.0)
        )
        self.title = label(self.root, "", (0, 0.94), 0.045, DIM, TextNode.ACenter)
        self.names = [
            label(self.root, "", (-aspect + 0.06, 0.895), 0.06, WHITE, TextNode.ALeft),
            label(self.root, "", (aspect - 0.06, 0.895), 0.06, WHITE, TextNode.ARight),
        ]
        self.details = [
            label(self.root, "", (-aspect + 0.06, 0.835), 0.042, DIM, TextNode.ALeft),
            label(self.root, "", (aspect - 0.06, 0.835), 0.042, DIM, TextNode.ARight),
        ]
        self.status = label(self.root, "", (0, 0.85), 0.042, WHITE, TextNode.ACenter)
        # The referee's panel on the right: the details behind the plain line (every
        # reason with its rule ID), shown on request (the Details button, W).
        self.referee_frame = DirectFrame(
            parent=self.root, frameColor=PANEL, frameSize=(aspect - 0.86, aspect - 0.02, 0.05, 0.76)
        )
        self.referee_title = label(
            self.root, "Referee", (aspect - 0.83, 0.70), 0.048, GOLD, TextNode.ALeft
        )
        self.referee_lines: list[OnscreenText] = []
        self.show_details = False
        self.details_button = self._button(
            "Details", (aspect - 0.15, 0.72), self.toggle_details, scale=0.04
        )
        # What to do now, at the bottom.
        self.bottom = DirectFrame(
            parent=self.root, frameColor=PANEL, frameSize=(-aspect, aspect, -1.0, -0.90)
        )
        self.prompt = label(self.root, "", (0, -0.955), 0.048, WHITE, TextNode.ACenter)
        self.message = label(
            self.root, "", (BAND_CENTRE, MESSAGE_Y), 0.045, NOTICE, TextNode.ACenter
        )
        self.warmup = label(self.root, "", (BAND_CENTRE, 0.74), 0.045, GOLD, TextNode.ACenter)
        # The referee's plain line, just above the prompt (and under the message): what
        # happened and what the next player may do.
        self.verdict = label(
            self.root, "", (BAND_CENTRE, MESSAGE_Y), 0.045, WHITE, TextNode.ACenter
        )
        # Both wrap inside the band between the corners' widgets (the camera buttons and
        # the referee's panel up top, the cue-ball widget and the stroke buttons below),
        # so a long line never runs under them: the warm-up grows down over the cloth,
        # the message up, away from the prompt's bar.
        band = max(0.6, 2 * aspect - BAND_MARGINS)
        self.warmup.setWordwrap(band / 0.045)
        self.message.setWordwrap(band / 0.045)
        self.verdict.setWordwrap(band / 0.045)
        # Power meter and cue tip.
        x, y, w, h = self.power_meter
        DirectFrame(
            parent=self.root, frameColor=(0.1, 0.1, 0.1, 0.85), frameSize=(x, x + w, y, y + h)
        )
        self.power_fill = DirectFrame(
            parent=self.root, frameColor=(0.9, 0.55, 0.15, 0.95), frameSize=(x, x + w, y, y + h)
        )
        self.power_text = label(
            self.root, "", (x + w / 2, y + h + 0.03), 0.04, WHITE, TextNode.ACenter
        )
        cx, cy, r = self.tip_widget
        self.tip_root = self.root.attachNewNode("tip")
        self.tip_root.setPos(cx, 0, cy)
        disc(r, (0.92, 0.92, 0.88, 1.0)).reparentTo(self.tip_root)
        ring = disc(r * 0.5, (0.82, 0.82, 0.78, 1.0))  # the miscue limit
        ring.reparentTo(self.tip_root)
        disc(r * 0.48, (0.92, 0.92, 0.88, 1.0)).reparentTo(self.tip_root)
        self.tip_dot = disc(r * 0.09, (0.85, 0.1, 0.1, 1.0))
        self.tip_dot.reparentTo(self.tip_root)
        self.tip_text_at = (cx, cy + r + 0.03)
        self.tip_text = label(self.root, "", self.tip_text_at, 0.038, WHITE, TextNode.ACenter)
        # Buttons on the right of the bottom bar.
        self.buttons: dict[str, DirectButton] = {}
        right = aspect - 0.14
        for text, key, action in (
            ("Shoot", "shoot", self._shoot),
            ("Safety", "safety", partial(self._declare, Declaration.SAFETY)),
            ("Push out", "push", partial(self._declare, Declaration.PUSH_OUT)),
        ):
            self.buttons[key] = self._button(text, (right, -0.80), action)
            right -= 0.30
        # Take it again, over the Shoot button, its right end at the window's edge.
        again = self._button("Take it again", (aspect, TAKE_AGAIN_Y), self._take_again)
        right_end = again.getBounds()[1]
        again.setX(aspect - 0.03 - right_end * again.getSx())
        self.buttons["again"] = again
        self.camera_buttons = [
            self._button(
                label, (-aspect + 0.16 + i * 0.26, 0.72), partial(on_camera, preset), scale=0.04
            )
            for i, (label, preset) in enumerate(
                (("Behind", "behind"), ("Overhead", "overhead"), ("Broadcast", "broadcast"))
            )
        ]
        # Choice buttons (a decision turn): a bar along the bottom, so the position the
        # choice is about stays in view, and the referee's reasons beside it.
        self.choice_frame = DirectFrame(parent=self.root, frameColor=PANEL, pos=CHOICE_BAR_AT)
        self.choice_title = OnscreenText(
            parent=self.choice_frame,
            text="",
            pos=(0, 0.05),
            scale=0.05,
            fg=GOLD,
            align=TextNode.ACenter,
            mayChange=True,
        )
        self.choice_buttons: list[DirectButton] = []
        self.help = OnscreenText(
            parent=self.root,
            text=HELP_TEXT,
            pos=(-aspect + 0.08, 0.6),
            scale=0.042,
            fg=WHITE,
            align=TextNode.ALeft,
            mayChange=False,
        )
        self.help.hide()
        self.choice_frame.hide()
        self.referee_frame.hide()
        self.referee_title.hide()
        self.details_button.hide()
        self._shown_choices: tuple[Any, ...] = ()
        self._shown_reasons: object = self  # nothing shown yet

    # -- building blocks ---------------------------------------------------------------

    def _button(
        self, text: str, pos: tuple[float, float], command: Callable[[], None], scale: float = 0.05
    ) -> DirectButton:
        return button(self.root, text, pos, command, scale)

    def _shoot(self) -> None:
        self._guard(self.controller.strike)

    def _take_again(self) -> None:
        self._guard(self.controller.take_back)

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
            self.controller.message = str(error)

    def toggle_details(self) -> None:
        """The referee's details (every reason, with its rule ID) on or off."""
        self.show_details = not self.show_details
        self._shown_reasons = self  # redraw the panel

    def toggle_help(self) -> None:
        if self.help.isHidden():
            self.help.show()
        else:
            self.help.hide()

    def over_power_meter(self, x: float, y: float) -> float | None:
        """The power at aspect2d point (x, y) when it is on the meter, else None."""
        mx, my, w, h = self.power_meter
        if mx - 0.03 <= x <= mx + w + 0.03 and my - 0.03 <= y <= my + h + 0.03:
            return min(1.0, max(0.0, (y - my) / h))
        return None

    def over_tip_widget(self, x: float, y: float) -> tuple[float, float] | None:
        """The tip offset (a, b) at aspect2d point (x, y) on the cue-ball widget."""
        cx, cy, r = self.tip_widget
        dx, dy = (x - cx) / r, (y - cy) / r
        if math.hypot(dx, dy) > 1.1:
            return None
        return (-dx, dy)  # pooltool's +a is the left of the ball as the shooter sees it

    # -- every frame ---------------------------------------------------------------------

    def refresh(self) -> None:
        controller = self.controller
        if controller.stage is Stage.WATCH:
            # The shot is playing out: the board says what it said at the stroke until
            # the balls stop and the referee speaks; the prompt says how to skip ahead.
            _set(self.prompt, prompt(controller))
            self._refresh_aim()
            return
        board = scoreboard(controller)
        _set(self.title, board.title)
        _set(self.status, board.status)
        for i, panel in enumerate(board.players):
            marker = "▶ " if panel.at_table and i == 0 else ""
            suffix = " ◀" if panel.at_table and i == 1 else ""
            _set(
                self.names[i],
                f"{marker}{panel.name}  {panel.racks}{suffix}"
                if i == 0
                else f"{marker}{panel.racks}  {panel.name}{suffix}",
            )
            self.names[i].setFg(GOLD if panel.at_table else WHITE)
            parts = []
            if panel.points is not None:
                parts.append(f"{panel.points} points")
            if panel.fouls:
                parts.append(f"{panel.fouls} foul{'s' if panel.fouls > 1 else ''}")
            if panel.warned:
                parts.append("WARNED")
            _set(self.details[i], " · ".join(parts))
            self.details[i].setFg(RED if panel.warned else DIM)
        clock = controller.shot_clock_left()
        text = prompt(controller)
        if clock is not None:
            text = (
                f"shot clock {max(0.0, clock):.0f} s  ·  {text}"
                if clock > 0
                else f"TIME — a stroke now is a foul  ·  {text}"
            )
        _set(self.prompt, text)
        _set(self.message, controller.message)
        _set(self.warmup, physics_status(controller.worker, time.monotonic()))
        self._refresh_referee()
        self._refresh_aim()
        self._refresh_choices()
        self._stack_lines()

    def _refresh_referee(self) -> None:
        """The referee's plain line over the prompt; the panel of details on request."""
        reasons = self.controller.reasons
        if reasons is self._shown_reasons:
            return
        self._shown_reasons = reasons
        words = referee_words(self.controller)
        _set(self.verdict, words.lead)
        self.verdict.setFg(RED if words.foul else WHITE)
        for line in self.referee_lines:
            line.destroy()
        self.referee_lines = []
        shown = bool(words.details) and self.show_details
        for widget, visible in (
            (self.referee_frame, shown),
            (self.referee_title, shown),
            (self.details_button, bool(words.details)),
        ):
            if visible:
                widget.show()
            else:
                widget.hide()
        self.details_button["text"] = "Hide" if shown else "Details"
        if not shown:
            return
        y = 0.63
        x = self.aspect - 0.83
        for text, foul in words.details:
            wrapped = textwrap.wrap(text, 40)
            for i, part in enumerate(wrapped):
                if y < -0.72:
                    break
                indent = 0.03 if i else 0.0
                colour = RED if foul else WHITE
                line = label(self.root, part, (x + indent, y), 0.036, colour, TextNode.ALeft)
                self.referee_lines.append(line)
                y -= 0.045
            y -= 0.012
        # The panel ends under its last line.
        self.referee_frame["frameSize"] = (self.aspect - 0.86, self.aspect - 0.02, y - 0.01, 0.76)

    def _stack_lines(self) -> None:
        """The referee's line just above the prompt's bar (above the choice bar while it
        is up), and the message above it; each grows up as it wraps, away from the bars."""
        bottom = MESSAGE_Y
        if not self.choice_frame.isHidden():
            bottom = self.choice_frame.getZ() + self.choice_frame["frameSize"][3] + 0.035
        row = 0.045 * 1.2
        said = _rows(self.verdict)
        self.verdict.setY(bottom + max(0, said - 1) * row)
        self.message.setY(bottom + (said + max(1, _rows(self.message)) - 1) * row)

    def _refresh_aim(self) -> None:
        controller = self.controller
        aiming = controller.stage in (Stage.AIM, Stage.LAG)
        aim = controller.aim
        x, y, w, h = self.power_meter
        self.power_fill["frameSize"] = (x, x + w, y, y + h * max(0.01, aim.power))
        _set(self.power_text, f"{aim.speed:.1f} m/s")
        r = self.tip_widget[2]
        self.tip_dot.setPos(-aim.a * r, 0, aim.b * r)
        raised = controller.cue_clearance() if aiming else None
        if raised is not None and raised.over is not None:
            # A line of its own above the tip's words: the cue is raised over a ball.
            words = f"cue {raised.elevation:.0f}° over the {raised.over}\n{tip_words(aim.a, aim.b)}"
        else:
            elevation = f" · cue {aim.elevation:.0f}°" if aim.elevation else ""
            words = tip_words(aim.a, aim.b) + elevation
        if self.tip_text.getText() != words:
            lines = words.count("\n")
            x, y = self.tip_text_at
            self.tip_text.setPos(x, y + lines * TIP_TEXT_LINE)
        _set(self.tip_text, words)
        for key, widget in self.buttons.items():
            if key == "shoot":
                visible = aiming
            elif key == "again":
                visible = controller.can_take_back and controller.stage in AFTER_A_SHOT
            elif key == "safety":
                visible = controller.can_declare(Declaration.SAFETY)
            else:
                visible = controller.can_declare(Declaration.PUSH_OUT)
            if visible:
                widget.show()
            else:
                widget.hide()
        for key, declaration in (("safety", Declaration.SAFETY), ("push", Declaration.PUSH_OUT)):
            on = controller.declaration is declaration
            self.buttons[key]["frameColor"] = (0.55, 0.42, 0.1, 0.95) if on else BUTTON

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
        count = len(options)
        half = (count * CHOICE_STEP - (CHOICE_STEP - CHOICE_WIDTH)) / 2
        self.choice_frame["frameSize"] = (-half - 0.04, half + 0.04, -0.235, 0.12)
        for i, option in enumerate(options):
            command: Callable[[], None]
            # Choice and Player are str enums too: test them before plain strings.
            if isinstance(option, Choice):
                label, explanation = choice_label(option)
                text = "\n".join([label, *textwrap.wrap(explanation, CHOICE_WRAP)])
                command = partial(self._guard, partial(controller.choose, option))
            elif isinstance(option, Player):
                text = f"{controller.game.setup.name(option)} breaks"
                command = partial(self._guard, partial(controller.choose_breaker, option))
            else:
                text = option
                command = self.on_over[option]
            x = -half + CHOICE_WIDTH / 2 + i * CHOICE_STEP
            self.choice_buttons.append(self._choice_button(text, x, command))

    def _choice_button(self, text: str, x: float, command: Callable[[], None]) -> DirectButton:
        """A button of the choice bar: its name on top, its meaning under it; all the
        same size, so a row of them reads as one set."""
        scale = CHOICE_TEXT
        half_width = CHOICE_WIDTH / 2 / scale
        return DirectButton(
            parent=self.choice_frame,
            text=text,
            pos=(x, 0, -0.04),
            scale=scale,
            frameSize=(-half_width, half_width, -CHOICE_BELOW, CHOICE_ABOVE),
            frameColor=BUTTON,
            text_fg=WHITE,
            relief=DGG.FLAT,
            command=command,
        )

    def choice_button_centres(self) -> list[tuple[float, float]]:
        """Where the choice buttons are (aspect2d), for tests and scripted clicks."""
        return [
            (float(b.getPos(self.base.aspect2d)[0]), float(b.getPos(self.base.aspect2d)[2]))
            for b in self.choice_buttons
        ]

    def destroy(self) -> None:
        destroy_under(self.root)


HELP_TEXT = """Aim: drag with the left button (Shift: fine), arrows left/right, or click a ball
Power: mouse wheel over the meter, drag the meter, arrows up/down
English: click the cue ball at bottom left, or I J K L  ·  elevation: E / D
Shoot: Space or the Shoot button (Space again skips the shot playing out)
Call (10-ball): click a ball, then a pocket  ·  S: safety  ·  P: push out (after the break)
Ball in hand: move the mouse, click to put the cue ball down (B: pick it up)
Camera: right drag orbits, middle drag pans, wheel zooms  ·  1 behind, 2 overhead, 3 broadcast
Backspace (or Take it again): the last shot back, its stroke loaded; the first try is kept
R: replay the shots (P there: play from that shot)  ·  G: aiming aid  ·  X: shot-clock extension
W: the referee's details (every reason, with its rule)
M: sound on/off  ·  H: this help  ·  Esc: menu"""
