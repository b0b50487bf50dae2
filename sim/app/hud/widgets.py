"""The few kinds of 2D widget poolsim draws (labels, buttons, text fields), in one look."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from direct.gui.DirectGui import DGG, DirectButton, DirectEntry, DirectOptionMenu
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import TextNode

WHITE = (0.95, 0.95, 0.93, 1.0)
DIM = (0.7, 0.72, 0.7, 1.0)
FADED = (0.42, 0.45, 0.43, 1.0)  # what cannot be used now (a row a game does not have)
GOLD = (1.0, 0.82, 0.3, 1.0)
RED = (1.0, 0.38, 0.32, 1.0)  # fouls only: the referee's colour, never a notice's
NOTICE = (1.0, 0.72, 0.42, 1.0)  # a refusal or a problem, which is no foul
PANEL = (0.02, 0.03, 0.03, 0.72)
BUTTON = (0.16, 0.34, 0.26, 0.95)
FIELD = (0.12, 0.2, 0.16, 1.0)
POPUP_RIM = (0.5, 0.6, 0.55, 1.0)  # round an open drop-down's list
RIM = 0.12  # the rim's width, in the drop-down's text units
# A full-window backdrop in aspect2d units, large enough for any window shape (aspect2d
# spans ±aspect across a wide window and ±1/aspect down a tall one), so a resize never
# uncovers what is behind it.
BACKDROP = (-4.0, 4.0, -4.0, 4.0)


def label(
    parent: Any,
    text: str,
    pos: tuple[float, float],
    scale: float = 0.045,
    colour: tuple[float, ...] = WHITE,
    align: int = TextNode.ALeft,
) -> OnscreenText:
    """A line of text in ``parent`` (aspect2d units), shadowed to read over the table."""
    return OnscreenText(
        parent=parent,
        text=text,
        pos=pos,
        scale=scale,
        fg=colour,
        align=align,
        mayChange=True,
        shadow=(0, 0, 0, 0.8),
    )


def fit_width(text: OnscreenText, width: float, scale: float) -> None:
    """Draw ``text`` at ``scale``, or smaller if a line of it would be wider than
    ``width`` (a long prompt on a narrow window stays inside its bar)."""
    natural = text.textNode.getWidth()  # in the text's own units (scale 1)
    fitted = min(scale, width / natural) if natural > 0 else scale
    if abs(text.getTextScale()[0] - fitted) > 1e-6:
        text.setTextScale(fitted)


def button(
    parent: Any,
    text: str,
    pos: tuple[float, float],
    command: Callable[[], None],
    scale: float = 0.05,
    pad: tuple[float, float] = (0.6, 0.35),
    width: float | None = None,
) -> DirectButton:
    """A button at ``pos``: as wide as its text and ``pad``, or ``width`` wide (parent
    units) so a column of buttons lines up."""
    size: dict[str, Any] = {}
    if width is not None:
        half = width / 2 / scale
        size["frameSize"] = (-half, half, -pad[1] - 0.25, 0.75 + pad[1])
    return DirectButton(
        parent=parent,
        text=text,
        pos=(pos[0], 0, pos[1]),
        scale=scale,
        frameColor=BUTTON,
        text_fg=WHITE,
        pad=pad,
        relief=DGG.FLAT,
        command=command,
        **size,
    )


def entry(
    parent: Any,
    text: str,
    pos: tuple[float, float],
    width: int,
    scale: float = 0.045,
    focus: bool = False,
    command: Callable[[str], None] | None = None,
) -> DirectEntry:
    """A one-line text field."""
    return DirectEntry(
        parent=parent,
        initialText=text,
        pos=(pos[0], 0, pos[1]),
        scale=scale,
        width=width,
        frameColor=FIELD,
        text_fg=WHITE,
        numLines=1,
        focus=int(focus),
        command=command,
    )


def typing() -> bool:
    """A text field has the keyboard's focus: keys are letters typed into it, not
    commands (a player's name with an M in it must not turn the sound off)."""
    from direct.gui.DirectGuiBase import DirectGuiWidget

    return any(
        isinstance(widget, DirectEntry) and widget.guiItem.getFocus()
        for widget in list(DirectGuiWidget.guiDict.values())
    )


def widget_of(node: Any) -> Any | None:
    """The DirectGUI widget ``node`` is, if it is one: DirectGUI names a widget's node
    after its class and its id ("DirectButton-pg12") and registers it by the id."""
    from direct.gui.DirectGuiBase import DirectGuiWidget

    name = node.getName()
    return DirectGuiWidget.guiDict.get(name) or DirectGuiWidget.guiDict.get(name.split("-")[-1])


def destroy_under(root: Any) -> None:
    """Destroy every DirectGUI widget under ``root`` (a plain node), then the node.
    Removing the node alone would leave the widgets in DirectGUI's registry, and with
    them the buttons' commands and all they hold (a whole game). Widgets at any depth:
    some hang under plain nodes (a panel that folds away)."""
    for node in root.findAllMatches("**"):
        widget = widget_of(node)  # None too once destroyed with the widget it is in
        if widget is not None:
            widget.destroy()
    root.removeNode()


class OptionMenu(DirectOptionMenu):  # type: ignore[misc]
    """A drop-down whose list opens over its own button, the chosen item on it, as a
    desktop's does. Panda3D's opens from the button's middle, half over whatever lies to
    its right, so it reads as belonging to no row in particular."""

    def __init__(self, parent: Any = None, **options: Any) -> None:
        super().__init__(parent, **options)
        self.initialiseoptions(OptionMenu)  # DirectGui finishes a subclass's options here

    def setItems(self) -> None:
        """The list drawn as one opaque panel with a rim, a little larger than its
        items: it reads as lying over the fields beneath, which it hides."""
        super().setItems()
        popup = self.popupMenu
        x0, x1, y0, y1 = popup["frameSize"]
        popup["frameColor"] = POPUP_RIM
        popup["relief"] = DGG.FLAT
        popup["frameSize"] = (x0 - RIM, x1 + RIM, y0 - RIM, y1 + RIM)

    def showPopupMenu(self, event: Any = None) -> None:
        super().showPopupMenu(event)
        button, popup = self.getBounds(), self.popupMenu.getBounds()
        self.popupMenu.setX(self, button[0] - popup[0])

    def enable(self, enabled: bool) -> None:
        """Open to a click, or shown dimmed and closed to clicks."""
        self["state"] = DGG.NORMAL if enabled else DGG.DISABLED
        self["text_fg"] = WHITE if enabled else FADED
