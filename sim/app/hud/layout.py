"""Where the HUD's panels go, and the part of the window left to the table (no Panda3D).

The panels live in bands along the top and the bottom of the window, never over the
table: the scoreboard across the top; along the bottom the prompt's bar and, above it,
the dock, which holds the stroke's controls (power, cue tip and the stroke buttons, or
the choice buttons when a choice is open) on the left, the camera buttons on the right,
and the table's words (the physics' warm-up, the message, the referee's panel) between.
A window too narrow for the words between gives them a row of their own above.

What is left between the bands is :attr:`HudLayout.table`: the camera frames the table
into it (:mod:`sim.app.scene.camera`), so no panel covers a pocket or a ball. The table is
about twice as long as it is wide and windows are less so: the room a band takes is
room the table did not need across the window's height.

Units are the HUD's: the window's shorter side spans 2, its middle is (0, 0), y up
(Panda3D's ``aspect2d`` on a window wider than tall).
"""

from __future__ import annotations

import attrs

TOP_BAR = 0.20  # the scoreboard
PROMPT_BAR = 0.10  # what to do now
DOCK = 0.42  # the dock's height, over the prompt's bar
ROW = 0.30  # the words' own row, on a narrow window
GAP = 0.03  # between the dock's blocks and the window's edges
CONTROLS = 0.86  # the stroke's controls: power, cue tip, the stroke buttons
CAMERAS = 0.36  # the camera buttons, one above another, the tracking lines' switch, Fold
WORDS_MIN = 0.9  # the narrowest the words may be beside the rest
TABLE_MARGIN = 0.02  # between the table's pockets and the panels around it


@attrs.frozen
class Box:
    """A rectangle: left, right, bottom, top."""

    x0: float
    x1: float
    y0: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    def overlaps(self, other: Box) -> bool:
        return (
            self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1
        )

    def shrunk(self, margin: float) -> Box:
        return Box(self.x0 + margin, self.x1 - margin, self.y0 + margin, self.y1 - margin)

    def scaled(self, sx: float, sy: float) -> Box:
        return Box(self.x0 * sx, self.x1 * sx, self.y0 * sy, self.y1 * sy)


@attrs.frozen
class HudLayout:
    """The HUD's blocks on a window of ``half_width`` x ``half_height`` (HUD units)."""

    half_width: float
    half_height: float
    top_bar: Box
    prompt_bar: Box
    controls: Box  # power meter, cue-tip widget and stroke buttons; or the choices
    cameras: Box
    words: Box  # the warm-up line, the message, the referee's panel
    table: Box  # the rest: the table is framed into it

    @staticmethod
    def for_window(aspect: float) -> HudLayout:
        """The layout of a window ``aspect`` times as wide as it is tall."""
        return HudLayout.build(max(aspect, 1.0), max(1.0, 1.0 / aspect))

    @staticmethod
    def build(half_width: float, half_height: float) -> HudLayout:
        hw, hh = half_width, half_height
        top_bar = Box(-hw, hw, hh - TOP_BAR, hh)
        prompt_bar = Box(-hw, hw, -hh, -hh + PROMPT_BAR)
        dock_bottom = prompt_bar.y1
        dock_top = dock_bottom + DOCK
        controls = Box(-hw + GAP, -hw + GAP + CONTROLS, dock_bottom, dock_top)
        cameras = Box(hw - GAP - CAMERAS, hw - GAP, dock_bottom, dock_top)
        words = Box(controls.x1 + GAP, cameras.x0 - GAP, dock_bottom, dock_top)
        if words.width < WORDS_MIN:  # a row of their own, above the dock
            words = Box(-hw + GAP, hw - GAP, dock_top, dock_top + ROW)
        table = Box(-hw, hw, words.y1, top_bar.y0)
        return HudLayout(
            half_width=hw,
            half_height=hh,
            top_bar=top_bar,
            prompt_bar=prompt_bar,
            controls=controls,
            cameras=cameras,
            words=words,
            table=table,
        )

    def table_on_screen(self) -> Box:
        """:attr:`table` in the window's own units (-1..1 both ways, Panda3D's
        ``render2d``), less a margin: where the camera fits the table."""
        inner = self.table.shrunk(TABLE_MARGIN)
        return inner.scaled(1.0 / self.half_width, 1.0 / self.half_height)
