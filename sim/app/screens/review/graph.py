"""The review's evaluation graph for a rack, as a chess engine draws one: the chance that
the first player (A, on top) wins the rack, before and after each shot, a column a
shot; the line falls towards B's side (the bottom) as B gains. Each shot's column ends in
a dot of its tag's colour; the shot shown is lit."""

from __future__ import annotations

from collections.abc import Sequence

from direct.gui.DirectGui import DirectFrame
from panda3d.core import LineSegs, NodePath, TextNode

from sim.app.hud.listpanel import fitted
from sim.app.hud.widgets import DIM, WHITE, label
from sim.play.review import StepReview, Tag

# The tags in colours read at a glance, as chess engines colour them: the best and a good
# shot green, an inaccuracy yellow, a mistake orange, a blunder red.
TAG_COLOURS: dict[Tag, tuple[float, float, float, float]] = {
    Tag.BEST: (0.3, 0.85, 0.45, 1.0),
    Tag.GOOD: (0.62, 0.8, 0.62, 1.0),
    Tag.INACCURACY: (0.98, 0.85, 0.25, 1.0),
    Tag.MISTAKE: (1.0, 0.55, 0.15, 1.0),
    Tag.BLUNDER: (0.95, 0.22, 0.18, 1.0),
}
GRAPH_BACK = (0.08, 0.1, 0.1, 0.9)
LINE = (0.92, 0.92, 0.9, 1.0)
MIDDLE = (0.45, 0.48, 0.46, 1.0)
LIT = (0.55, 0.42, 0.1, 0.6)  # the shot shown's column: the shot list's gold, dimmer
DOT = 0.012  # half a tag dot's side


def a_side(step: StepReview, value: float) -> float:
    """A value of the shooter's as A's chance (the rack is won by one of the two)."""
    return value if step.player == "A" else 1.0 - value


def draw_graph(
    parent: NodePath,
    steps: Sequence[StepReview],
    shown: StepReview | None,
    box: tuple[float, float, float, float],
) -> None:
    """``steps`` (one rack's) drawn in ``box`` (left, right, bottom, top; aspect2d)."""
    left, right, bottom, top = box
    DirectFrame(parent=parent, frameColor=GRAPH_BACK, frameSize=(left, right, bottom, top))
    if not steps:
        return
    width = (right - left) / len(steps)

    def y(value: float) -> float:
        return bottom + (top - bottom) * min(1.0, max(0.0, value))

    for i, step in enumerate(steps):
        if step is shown:
            x = left + i * width
            DirectFrame(parent=parent, frameColor=LIT, frameSize=(x, x + width, bottom, top))
    lines = LineSegs("review-graph")
    lines.setThickness(1.0)
    lines.setColor(*MIDDLE)
    lines.moveTo(left, 0, y(0.5))
    lines.drawTo(right, 0, y(0.5))
    lines.setThickness(2.0)
    lines.setColor(*LINE)
    for i, step in enumerate(steps):
        x = left + i * width
        before, after = y(a_side(step, step.best)), y(a_side(step, step.actual))
        (lines.moveTo if i == 0 else lines.drawTo)(x, 0, before)
        lines.drawTo(x + width, 0, after)
    parent.attachNewNode(lines.create())
    for i, step in enumerate(steps):
        x, at = left + (i + 1) * width, y(a_side(step, step.actual))
        DirectFrame(
            parent=parent,
            frameColor=TAG_COLOURS[step.tag],
            frameSize=(x - DOT, x + DOT, at - DOT, at + DOT),
        )


def draw_axis(
    parent: NodePath, names: tuple[str, str], box: tuple[float, float, float, float], room: float
) -> None:
    """Whose side is whose, in the ``room`` left of the graph: A's name over "100 %" at
    its top, B's under it at the bottom, each name cut with an ellipsis to fit (a seat
    named "computer 5 A" ran out of the band and over the graph)."""
    left, _, bottom, top = box
    x, size, right = left - 0.01, 0.026, TextNode.ARight
    for name, at in ((names[0], top - 0.03), (names[1], bottom + 0.005)):
        text = label(parent, name, (x, at), size, WHITE, right)
        text.setText(fitted(text.textNode, name, room / size))
    label(parent, "100 %", (x, top - 0.06), size, DIM, right)
    label(parent, "50 %", (x, (top + bottom) / 2 - 0.01), size, DIM, right)
    label(parent, "100 %", (x, bottom + 0.035), size, DIM, right)


def draw_legend(parent: NodePath, x: float, y: float) -> None:
    """The tags' colours in a row from ``x``: a dot and the tag's word each."""
    for tag, colour in TAG_COLOURS.items():
        DirectFrame(parent=parent, frameColor=colour, frameSize=(x, x + 0.024, y, y + 0.024))
        text = label(parent, tag.value, (x + 0.032, y + 0.002), 0.028, DIM, TextNode.ALeft)
        x += 0.032 + text.textNode.getWidth() * 0.028 + 0.035
