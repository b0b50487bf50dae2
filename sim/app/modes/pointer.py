"""The mouse between a press and its release: which buttons are down, where the press
was, and what a drag moves (the aim, the power meter, the tip, the camera). A drag goes
on whichever mode is up meanwhile (Esc with the button held opens the menu over it)."""

from __future__ import annotations

import math
from typing import Literal

import attrs

CLICK_PIXELS = 5  # a press and release closer than this is a click, not a drag

# What a drag moves: "hud" is a press on the meter or the tip widget that moves nothing
# (and is no click on the table under it either).
DragTarget = Literal["aim", "power", "tip", "hud", "orbit", "pan"]


@attrs.define
class Pointer:
    buttons: set[str] = attrs.field(factory=set)
    press: tuple[str, float, float] | None = None  # button, x, y at press
    last: tuple[float, float] | None = None  # the pointer at the last frame's drag
    target: DragTarget | None = None

    def pressed(self, button: str, mouse: tuple[float, float]) -> None:
        self.buttons.add(button)
        self.press = (button, *mouse)
        self.last = mouse
        self.target = None

    def released(
        self, button: str, mouse: tuple[float, float] | None, size: tuple[int, int]
    ) -> bool:
        """The press of ``button`` is over; True if it was a left click (not a drag) on
        something that answers one (the table, not the HUD's meter or widget)."""
        self.buttons.discard(button)
        press, target = self.press, self.target
        self.press = self.target = None
        if press is None or mouse is None or press[0] != button:
            return False
        width, height = size
        moved = math.hypot((mouse[0] - press[1]) * width / 2, (mouse[1] - press[2]) * height / 2)
        return button == "mouse1" and moved < CLICK_PIXELS and target in ("aim", None)

    def moved(self, mouse: tuple[float, float] | None) -> tuple[float, float] | None:
        """How far a drag in progress moved since the last frame (None: no drag, or no
        move); called every frame."""
        if mouse is None or self.last is None:
            return None
        dx, dy = mouse[0] - self.last[0], mouse[1] - self.last[1]
        self.last = mouse
        if not self.buttons or (dx == 0 and dy == 0):
            return None
        return (dx, dy)
