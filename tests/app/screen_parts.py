"""What the window shows, read from the scene graph (aspect2d and pixel2d), and what is
wrong with its layout: a text cut by the window's edge or by its panel's, or a text over
another text or a control. Nothing here knows a screen by name: it walks whatever is
on the screen, so a screen that moves to another module or class is walked all the same.

Boxes are in render2d's units (-1..1 both ways across the window).
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs
from direct.gui.DirectGui import (
    DirectButton,
    DirectCheckButton,
    DirectEntry,
    DirectScrollBar,
    DirectSlider,
)
from direct.gui.DirectGuiBase import DirectGuiWidget
from direct.showbase.ShowBase import ShowBase
from panda3d.core import NodePath, Point3, TextNode

from sim.app.hud.layout import Box
from sim.app.hud.widgets import widget_of

CONTROLS = (DirectButton, DirectEntry, DirectCheckButton, DirectSlider, DirectScrollBar)
TOLERANCE = 0.004  # render2d units (about 1.5 pixels of an 800-pixel window)
WINDOW = Box(-1.0, 1.0, -1.0, 1.0)
OPAQUE = 0.95  # a panel this opaque hides what is drawn under it


@attrs.frozen(eq=False)
class Part:
    """A thing drawn: a ``text`` (its words), a ``control`` (a button, a field) or a
    ``panel`` (a frame drawn behind other parts); its box; its node; and for a text, the
    widget it is the words of (a button's label), if any."""

    kind: str
    name: str
    box: Box
    node: NodePath
    owner: NodePath | None = None


def _box(corners: list[Point3]) -> Box:
    xs, zs = [c.x for c in corners], [c.z for c in corners]
    return Box(min(xs), max(xs), min(zs), max(zs))


def _frame_box(render2d: NodePath, widget: DirectGuiWidget) -> Box | None:
    x0, x1, y0, y1 = widget.guiItem.getFrame()
    if x1 - x0 <= 0 or y1 - y0 <= 0:
        return None
    return _box(
        [render2d.getRelativePoint(widget, Point3(x, 0, y)) for x in (x0, x1) for y in (y0, y1)]
    )


def _drawn_colour(widget: DirectGuiWidget) -> bool:
    """The widget's frame is drawn (a colour that shows, and a relief)."""
    try:
        colour = widget["frameColor"]
    except KeyError:
        return False
    return widget["relief"] is not None and len(colour) == 4 and colour[3] > 0.05


def _text_box(
    render2d: NodePath, text: NodePath, root: NodePath, frame: NodePath | None = None
) -> Box | None:
    """``text``'s tight bounds in render2d: measured in ``root``'s units and drawn with
    ``frame``'s transform (a button's state is a graph of its own, drawn with the
    button's; anything else is measured where it is)."""
    frame = root if frame is None else frame
    bounds = text.getTightBounds(root)
    if bounds is None:
        return None
    low, high = bounds
    return _box(
        [
            render2d.getRelativePoint(frame, Point3(x, 0, z))
            for x in (low.x, high.x)
            for z in (low.z, high.z)
        ]
    )


def _entry_text(render2d: NodePath, entry: DirectEntry) -> Box | None:
    """A text field's words as they would be drawn whole: a field shows only what fits
    its width, so a name longer than the field is cut (its end hidden)."""
    words = entry.get()
    if not words.strip():
        return None
    measure = TextNode("measure")
    font = entry.onscreenText.textNode.getFont()
    if font is not None:
        measure.setFont(font)
    width = measure.calcWidth(words)
    # The words start at the field's origin on their baseline (the field's own units).
    return _box(
        [render2d.getRelativePoint(entry, Point3(x, 0, z)) for x in (0, width) for z in (-0.2, 0.8)]
    )


def parts(base: ShowBase) -> list[Part]:
    """Every visible text, control and panel under aspect2d and pixel2d, in the order
    they are drawn (a parent before its children)."""
    render2d = base.render2d
    found: list[Part] = []
    for root in (base.aspect2d, base.pixel2d):
        for node in root.findAllMatches("**"):
            if node.isHidden():
                continue
            found.extend(_parts_of(render2d, node))
    return found


def _parts_of(render2d: NodePath, node: NodePath) -> Iterator[Part]:
    widget = widget_of(node)
    if widget is not None and widget == node:
        box = _frame_box(render2d, widget)
        control = isinstance(widget, CONTROLS)
        if box is not None and (control or _drawn_colour(widget)):
            yield Part("control" if control else "panel", node.getName(), box, node)
        if isinstance(widget, DirectEntry):
            words = _entry_text(render2d, widget)
            if words is not None:
                yield Part("text", f"field {widget.get()[:24]!r}", words, node, node)
            return
        state = widget.guiItem.getState()
        if state < len(widget.stateNodePath):  # the words of a button as drawn now
            shown = widget.stateNodePath[state]
            for text in shown.findAllMatches("**/+TextNode"):
                words = text.node().getText()
                if words.strip() and not text.isHidden():
                    box = _text_box(render2d, text, shown, widget)
                    if box is not None:
                        yield Part("text", f"{words[:24]!r}", box, text, node)
        return
    part = node.node()
    if isinstance(part, TextNode) and part.getText().strip():
        box = _text_box(render2d, node, render2d)
        if box is not None:
            yield Part("text", f"{part.getText()[:24]!r}", box, node)


def on_top(found: list[Part]) -> list[Part]:
    """The parts not covered by a panel over the whole window drawn over them (the
    start screen's backdrop, the menu's veil): the topmost such panel's, by its sort
    and then the order drawn."""
    covers = [
        (i, p)
        for i, p in enumerate(found)
        if p.kind != "text"
        and p.box.x0 <= -1 + TOLERANCE
        and p.box.x1 >= 1 - TOLERANCE
        and p.box.y0 <= -1 + TOLERANCE
        and p.box.y1 >= 1 - TOLERANCE
    ]
    if not covers:
        return found
    _, top = max(covers, key=lambda c: (_sort(c[1].node), c[0]))
    return [p for p in found if top.node in (p.node, p.owner) or top.node.isAncestorOf(_where(p))]


def _where(part: Part) -> NodePath:
    """Where a part is in the scene graph: a button's words are where the button is."""
    return part.owner or part.node


def _sort(node: NodePath) -> int:
    widget = widget_of(node)
    return int(widget["sortOrder"]) if widget is not None else 0


def _inside(inner: Box, outer: Box) -> bool:
    return (
        inner.x0 >= outer.x0 - TOLERANCE
        and inner.x1 <= outer.x1 + TOLERANCE
        and inner.y0 >= outer.y0 - TOLERANCE
        and inner.y1 <= outer.y1 + TOLERANCE
    )


def _overlap(a: Box, b: Box) -> bool:
    return a.shrunk(TOLERANCE / 2).overlaps(b.shrunk(TOLERANCE / 2))


def _related(a: Part, b: Part) -> bool:
    """One is in the other (a button's words, a label on a panel), or both are one
    widget's words."""
    na, nb = _where(a), _where(b)
    return bool(na == nb or na.isAncestorOf(nb) or nb.isAncestorOf(na))


def _panel_of(text: Part, panels: list[Part]) -> Part | None:
    """The panel a text is on: the nearest widget it is in (a button, a field, a frame);
    else the smallest panel drawn under its middle (a HUD line on its band)."""
    holder = text.owner or text.node
    holders = [p for p in panels if p.node == holder or p.node.isAncestorOf(holder)]
    if holders:
        return max(holders, key=lambda p: len(str(p.node)))  # the deepest
    x, y = (text.box.x0 + text.box.x1) / 2, (text.box.y0 + text.box.y1) / 2
    under = [p for p in panels if p.box.contains(x, y) and p.kind == "panel"]
    return min(under, key=lambda p: p.box.width * p.box.height) if under else None


def problems(base: ShowBase) -> list[str]:
    """What is wrong with the layout on the screen now, one line each (none: nothing):
    a text cut by the window or its panel, a text over another text or a control, a
    control over another."""
    shown = on_top(parts(base))
    texts = [p for p in shown if p.kind == "text"]
    panels = [p for p in shown if p.kind != "text"]
    found = []
    for text in texts:
        if not _inside(text.box, WINDOW):
            found.append(f"{text.name} is cut by the window's edge: {_fmt(text.box)}")
            continue
        panel = _panel_of(text, panels)
        if panel is not None and not _inside(text.box, panel.box):
            found.append(
                f"{text.name} runs out of its panel {panel.name}: "
                f"{_fmt(text.box)} in {_fmt(panel.box)}"
            )
    popups = [p for p in panels if p.kind == "panel" and _popup(p)]
    for i, text in enumerate(texts):
        others = [*texts[i + 1 :], *(p for p in panels if p.kind == "control")]
        for other in others:
            if _under_popup(text, other, popups):
                continue
            if not _related(text, other) and _overlap(text.box, other.box):
                found.append(
                    f"{text.name} overlaps {other.name}: {_fmt(text.box)} and {_fmt(other.box)}"
                )
    controls = [p for p in panels if p.kind == "control"]
    for i, control in enumerate(controls):
        for other in controls[i + 1 :]:
            if _under_popup(control, other, popups) or _related(control, other):
                continue
            if _overlap(control.box, other.box):
                found.append(
                    f"{control.name} overlaps {other.name}: "
                    f"{_fmt(control.box)} and {_fmt(other.box)}"
                )
    return found


def _popup(panel: Part) -> bool:
    """An open drop-down's list, drawn over everything (Panda3D's gui-popup bin) on an
    opaque panel: what lies beneath it is hidden, not overlapped."""
    widget = widget_of(panel.node)
    return (
        panel.node.getBinName() == "gui-popup"
        and widget is not None
        and widget["frameColor"][3] >= OPAQUE
    )


def _under_popup(a: Part, b: Part, popups: list[Part]) -> bool:
    """One part is on an open drop-down's list and the other lies beneath it."""
    for popup in popups:
        inside = [popup.node == _where(p) or popup.node.isAncestorOf(_where(p)) for p in (a, b)]
        if inside[0] != inside[1]:
            return True
    return False


def _fmt(box: Box) -> str:
    return f"[{box.x0:.3f}..{box.x1:.3f} x {box.y0:.3f}..{box.y1:.3f}]"
