"""What the modes see of the window: the table's parts and the few operations they call
(a Protocol, so that no mode imports the window that runs them)."""

from __future__ import annotations

from typing import Protocol

from direct.showbase.ShowBase import ShowBase
from panda3d.core import NodePath

from rules.geometry import Point
from sim.app.hud.hud import Hud
from sim.app.marks.callmarker import CallMarker
from sim.app.marks.hintghost import HintGhost
from sim.app.marks.rackarea import RackArea
from sim.app.marks.tracking import TrackingOverlay
from sim.app.modes.pointer import Pointer
from sim.app.scene.camera import CameraRig
from sim.app.scene.cue import CueStick
from sim.app.scene.scene import TableScene
from sim.app.scene.sound import SoundBoard
from sim.play.table.controller import TableController

Mouse = tuple[float, float]  # the pointer in render2d coordinates (-1..1 both ways)


class Window(Protocol):
    """The desktop table as its modes use it (``PoolApp``)."""

    @property
    def base(self) -> ShowBase: ...
    @property
    def controller(self) -> TableController | None: ...
    @property
    def scene(self) -> TableScene | None: ...
    @property
    def rig(self) -> CameraRig | None: ...
    @property
    def hud(self) -> Hud | None: ...
    @property
    def cue(self) -> CueStick | None: ...
    @property
    def kitchen(self) -> NodePath | None: ...
    @property
    def call_marker(self) -> CallMarker | None: ...
    @property
    def tracking_lines(self) -> TrackingOverlay | None: ...
    @property
    def hint_ghost(self) -> HintGhost | None: ...
    @property
    def rack_area(self) -> RackArea | None: ...
    @property
    def sounds(self) -> SoundBoard: ...
    @property
    def pointer(self) -> Pointer: ...
    @property
    def view(self) -> str:
        """The player's camera preset (behind, overhead, broadcast)."""

    def mouse(self) -> Mouse | None:
        """The pointer, if it is over the window."""

    def clock(self) -> float:
        """Game time (real seconds, or the frame clock in tests)."""

    def aspect_point(self, mouse: Mouse) -> tuple[float, float]:
        """``mouse`` in aspect2d coordinates, where the HUD's widgets are."""

    def table_point(self, mouse: Mouse | None = None) -> Point | None:
        """Where the pointer meets the plane of the ball centres."""

    def show_view(self, preset: str) -> None: ...
    def choose_view(self, preset: str) -> None:
        """The player picks ``preset``: shown, and remembered as their view."""

    def toggle_panels(self) -> None:
        """Fold the cue-ball widget and the referee's panel away, or back."""

    def toggle_tracking(self) -> None:
        """Tracking lines on or off (remembered for the next match)."""

    def open_replay(self, index: int | None = None) -> None: ...
    def show_match_summary(self) -> bool:
        """The match summary over the table (a match over only, and no other screen
        up): whether it is up now."""

    def open_menu(self) -> None: ...
