"""The desktop table: one Panda3D window where two players share the mouse.

:class:`PoolApp` owns the window, the 3D table (:mod:`sim.app.scene.scene`), the camera and
the HUD; the game's logic is the :class:`~sim.play.table.controller.TableController`. What the
keys and the mouse do, and the work of each frame, belong to the mode that is up
(:mod:`sim.app.modes`: one for each stage of the turn, and the start screen, the menu
and the replay viewer over the table).
The physics runs in a worker process that starts (and, on a machine's first run,
compiles) while the start screen is up.

Input (also in the in-game help, key H):
- aim: drag with the left button (Shift: fine), or arrows left/right;
- power: the wheel over the meter, dragging the meter, arrows up/down;
- tip: click/drag the cue-ball widget, or I J K L; elevation: E / D;
- shoot: Space or the Shoot button; skip a shot playing out: Space;
- 10-ball call: click a ball then a pocket; S safety; P push out;
- ball in hand: the cue ball follows the mouse over legal spots; click to put it down;
- take it again: Backspace or the Take it again button (the last shot back, its stroke
  loaded, the first try kept as a branch); in the replay, P plays from the shot shown;
- the practice table: U or Set up sets the table up by hand (drag a ball, drag it off the
  cloth, right-click or Delete to take it off, the tray brings it back); Space: Done;
- camera: right drag orbits, middle drag pans, the wheel zooms; 1 behind, 2 overhead,
  3 broadcast; G toggles the aiming aid; T the tracking lines; Esc opens the menu.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

from direct.showbase.ShowBase import ShowBase
from direct.task.Task import Task
from panda3d.core import (
    CardMaker,
    ClockObject,
    NodePath,
    Point3,
    TextNode,
    TransparencyAttrib,
    VirtualMouse,
)

from rules import Player, PocketId
from rules.geometry import Point, TableGeometry
from sim.app.controls import WindowInput
from sim.app.hud.hud import Hud
from sim.app.hud.texts import physics_status
from sim.app.marks.callmarker import CallMarker
from sim.app.marks.hintghost import HintGhost
from sim.app.marks.rackarea import RackArea
from sim.app.marks.tracking import TrackingOverlay
from sim.app.modes.manager import ModeManager
from sim.app.modes.pointer import Pointer
from sim.app.practice import PracticeTable
from sim.app.rest import RestingWindow
from sim.app.scene.camera import CameraRig
from sim.app.scene.cue import CueStick
from sim.app.scene.scene import Quality, TableScene
from sim.app.scene.sound import SoundBoard
from sim.app.screens.drilltable import DrillTable
from sim.app.screens.menu import GameMenu
from sim.app.screens.modes import MatchSummaryMode, MenuMode, ReplayMode, StartMode
from sim.app.screens.preferences import Preferences
from sim.app.screens.replay import ReplayItem, ReplayView, game_items, last_in_play, table_box
from sim.app.screens.review.keeper import GameReviews
from sim.app.screens.setup import SetupScreen
from sim.app.screens.start import StartScreen
from sim.paths import assets_dir
from sim.physics.simulators.simulator import Simulator
from sim.physics.simulators.worker import PhysicsWorker
from sim.physics.table import TableSpec, pocket_centre
from sim.play.game import Game, SetupRecord
from sim.play.opponent.thinker_process import ThinkerProcess, Thinking
from sim.play.table.controller import TableController
from sim.play.table.turn import Stage
from sim.store.autosave import Autosave

VIEWS = ("behind", "overhead", "broadcast")  # the camera presets a player picks (keys 1 2 3)
DEFAULT_VIEW = "behind"

# How strongly the kitchen is washed over, by graphics preset: simplepbr blends in linear
# light before its tone mapping, where the same alpha reads several times brighter.
KITCHEN_WASH = {"fast": 0.13, "quality": 0.02}


def kitchen_overlay(base: ShowBase, geometry: TableGeometry, quality: Quality) -> NodePath:
    """A light wash over the kitchen, shown while the cue ball is in hand there."""
    card = CardMaker("kitchen")
    card.setFrame(0.0, geometry.width, 0.0, geometry.head_string_y)
    node = base.render.attachNewNode(card.generate())
    node.setP(-90)  # the card lies in x-z; turn it flat onto the cloth
    node.setZ(0.0015)
    node.setColor(1.0, 1.0, 0.85, KITCHEN_WASH[quality])
    node.setTransparency(TransparencyAttrib.MAlpha)
    node.setLightOff()
    node.setDepthWrite(False)
    node.hide()
    return node


class PoolApp:
    """The desktop table on a ShowBase (one per process). ``game`` to play (None: the
    start screen comes first); ``resumed``: it is the autosaved game; ``computers``: the
    seats the computer plays in it, and at which level."""

    def __init__(
        self,
        base: ShowBase,
        game: Game | None = None,
        *,
        quality: Quality = "fast",
        worker: Simulator | None = None,
        autosave: Autosave | None = None,
        preferences: Preferences | None = None,
        realtime: bool = True,
        resumed: bool = False,
        computers: Mapping[Player, str] | None = None,
        thinker: Thinking | None = None,
    ) -> None:
        self.base = base
        self.base.disableMouse()
        self.base.setBackgroundColor(0.03, 0.035, 0.04, 1)
        self.base.camLens.setFov(50)
        self.base.camLens.setNearFar(0.02, 60.0)
        self.quality = quality
        self.realtime = realtime
        self.font = self.base.loader.loadFont(str(assets_dir() / "fonts" / "DejaVuSans.ttf"))
        TextNode.setDefaultFont(self.font)
        self.worker = worker if worker is not None else PhysicsWorker().start()
        self.autosave = autosave
        self.controller: TableController | None = None
        self.scene: TableScene | None = None
        self.kitchen: NodePath | None = None
        self.rig: CameraRig | None = None
        self.hud: Hud | None = None
        self.cue: CueStick | None = None
        self.call_marker: CallMarker | None = None
        self.tracking_lines: TrackingOverlay | None = None
        # A drill on the practice table, and the practice table's own actions.
        self.drills = DrillTable(self)
        self.practice = PracticeTable(self)
        self.hint_ghost: HintGhost | None = None
        self.rack_area: RackArea | None = None  # the area the game marks (14.1's rack)
        # The computer's thinking, in a process of its own: started when a table first
        # needs it (a computer seated, a hint asked), then kept for the session (or
        # handed in, as the worker can be: the bench times a thinker without helpers).
        self.thinker: Thinking | None = thinker
        # The game reviews: found saved, or made in a process of their own (issue 33).
        self.reviews = GameReviews(unasked=realtime, keep=realtime)
        self.pointer = Pointer()
        # The set-up's screen comes up as the practice table is set up by hand.
        self.modes = ModeManager(self, {Stage.SETUP: SetupScreen(self)})
        self._last_frame = time.monotonic()
        self._aspect = base.getAspectRatio()  # the window's shape the views are laid out for
        self._virtual_mouse: VirtualMouse | None = None
        self.frame_times: list[float] = []
        # What the player chose last time (None: nothing is remembered, as in tests).
        self.preferences = preferences
        remembered = preferences.load() if preferences is not None else {}
        self.sounds = SoundBoard(base, enabled=remembered.get("sound") is not False)
        # The player's view (a preset): the camera comes back to it after placing the cue
        # ball and after watching a shot, and the next table and session start from it.
        camera = remembered.get("camera")
        self.view = camera if isinstance(camera, str) and camera in VIEWS else DEFAULT_VIEW
        # The cue-ball widget and the referee's panel folded away (F), for every table.
        self.panels_folded = remembered.get("panels_folded") is True
        # Tracking lines in a match: off unless the player turned them on (T), which is
        # remembered; a practice table has them on whatever this says.
        self.tracking_in_matches = remembered.get("tracking_lines") is True
        self.input = WindowInput(self)
        # On a screen, a window at rest stops drawing (offscreen, every frame is drawn).
        self.rest = RestingWindow(base) if realtime else None
        self.base.taskMgr.add(self._frame, "poolsim-frame")
        if game is not None:
            self.play(game, resumed=resumed, computers=computers)

    # -- screens ---------------------------------------------------------------------------

    def play(
        self,
        game: Game,
        *,
        resumed: bool = False,
        save: bool = True,
        computers: Mapping[Player, str] | None = None,
    ) -> None:
        """Put ``game`` on the table; ``computers``: the seats the computer plays, and at
        which level (None: the seats its shots say it played). ``resumed``: it is the
        autosaved game. Any other game takes the autosave's place at its first save (the
        game there is archived, never lost), at once if it has steps already (a breaker
        agreed, a saved game opened) unless ``save`` is False (opened only to be
        replayed): Resume then finds the game that is on the table."""
        self._close_start_screen()
        self.close_table()
        if computers is None:  # not said: as the game was played (resumed, opened)
            computers = game.computer_seats()
        self.controller = TableController(
            game,
            self.worker,
            self.autosave,
            clock=self.clock,
            resumed=resumed,
            computers=computers,
            thinker=self._thinker,
        )
        self.controller.tracking = self.tracking_in_matches
        if computers:  # its process loads the physics while the table is laid out
            self.controller.seat.start()
        if game.records and save and not resumed:
            self.controller.save()
        if game.setup.practice:
            self.controller.tracking = True  # the stroke's paths, drawn as it is aimed
            if not any(isinstance(record, SetupRecord) for record in game.records):
                self.controller.set_up.begin()  # a new practice table: set it up first
        spec = game.setup.spec
        self.scene = TableScene(self.base, spec, quality=self.quality)
        self.rig = CameraRig(self.base, spec)
        self.hud = self._new_hud(self.controller)
        self.cue = CueStick(self.base, spec.geometry)
        self.kitchen = kitchen_overlay(self.base, spec.geometry, self.quality)
        plan = spec.plan()
        pockets = {pocket: pocket_centre(plan, pocket) for pocket in PocketId}
        self.call_marker = CallMarker(self.base, spec.geometry, pockets)
        self.tracking_lines = TrackingOverlay(self.base, spec.ball_radius, self.quality)
        self.hint_ghost = HintGhost(self.base, spec.geometry)
        self.rack_area = RackArea(self.base, spec.geometry)
        # The cue ball in hand is placed from overhead (the place mode's view), else the
        # player's own view: the camera starts there, not eased into it.
        in_hand = self.controller.stage is Stage.PLACE
        self.show_view("overhead" if in_hand else self.view)
        self.rig.jump()

    def _thinker(self) -> Thinking:
        if self.thinker is None:
            self.thinker = ThinkerProcess().start()
        return self.thinker

    def _new_hud(self, controller: TableController) -> Hud:
        actions: dict[str, Callable[[], object]] = {
            "New game": self.show_start_screen,
            "Replay the shots": self.open_replay,
            "Match summary": self.show_match_summary,
        }
        if controller.practice:  # a rack won with the referee on: set up again, or replay
            actions = {
                "Set up again": lambda: self.modes.answer(controller.set_up.begin),
                "Replay the shots": self.open_replay,
            }
        hud = Hud(
            self.base,
            controller,
            self.choose_view,
            actions,
            folded=self.panels_folded,
            on_fold=self.toggle_panels,
            practice=self.practice,
            on_tracking=partial(self.modes.answer, self.toggle_tracking),
        )
        hud.refresh()  # filled in at once, whenever in the frame the table was laid out
        if self.rig is not None:  # the table between the HUD's bands
            self.rig.set_free(hud.layout.table_on_screen())
        return hud

    def show_start_screen(self) -> None:
        self._close_start_screen()
        self.close_table()
        self.modes.open(StartMode(self, self, on_start=self.play))

    def _close_start_screen(self) -> None:
        """The start screen goes, or the panel of it that is up (the screens that are not
        over a table): a table, or the start screen again, takes the window."""
        screen = self.modes.screen
        if screen is not None and not screen.over_table:
            self.modes.close()

    def close_table(self) -> None:
        """Take the game off the table: its autosave finished, the HUD, menu, replay,
        scene, cue and camera gone (the physics worker stays for the next game)."""
        if self.controller is not None:
            self.controller.close()
            self.worker = self.controller.worker  # it may have been restarted
            self.thinker = self.controller.seat.thinker or self.thinker
        if self.hud is not None:
            self.hud.destroy()
        self.modes.table_closed()
        if self.scene is not None:
            self.scene.destroy()
        if self.cue is not None:
            self.cue.focus.removeNode()
            self.cue.aid.removeNode()
        if self.kitchen is not None:
            self.kitchen.removeNode()
        if self.call_marker is not None:
            self.call_marker.destroy()
        if self.tracking_lines is not None:
            self.tracking_lines.destroy()
        self.drills.close()
        if self.hint_ghost is not None:
            self.hint_ghost.destroy()
        if self.rack_area is not None:
            self.rack_area.destroy()
        self.hud = self.scene = self.cue = self.kitchen = self.call_marker = None
        self.tracking_lines = None
        self.hint_ghost = self.rack_area = None
        self.controller = self.rig = None

    def show_match_summary(self) -> bool:
        """The match's summary over the table, once the match is over, unless another
        screen is up (the menu): whether it is up now."""
        controller = self.controller
        if controller is None or controller.stage is not Stage.OVER:
            return False
        if self.modes.screen is None:
            self.modes.open(MatchSummaryMode(self, controller))
        return isinstance(self.modes.screen, MatchSummaryMode)

    def show_view(self, preset: str) -> None:
        if self.rig is None or self.controller is None:
            return
        cue = self.controller.cue_ball()
        elevation = self.controller.cue_clearance().elevation  # the cue as drawn
        self.rig.show(preset, cue, self.controller.aim.direction, elevation)

    def choose_view(self, preset: str) -> None:
        """The player picks a camera preset (keys 1 2 3, the HUD's buttons): shown now,
        and remembered as their view, for this table, the next and the next session."""
        if preset not in VIEWS:
            return
        self.view = preset
        if self.preferences is not None:
            self.preferences.update(camera=preset)
        self.show_view(preset)

    def toggle_panels(self) -> None:
        """Fold the cue-ball widget and the referee's panel away, or back (F, the HUD's
        fold button and tabs); remembered for the next table and session."""
        self.panels_folded = not self.panels_folded
        if self.hud is not None:
            self.hud.set_folded(self.panels_folded)
        if self.preferences is not None:
            self.preferences.update(panels_folded=self.panels_folded)

    def toggle_tracking(self) -> None:
        """Tracking lines on or off (T, the HUD's button). In a match the choice is
        remembered for the next match and session; on the practice table (where they
        start on) it is for this table only."""
        controller = self.controller
        if controller is None:
            return
        controller.switch_tracking()  # refused where they are off (a drill's)
        if controller.practice:
            return
        self.tracking_in_matches = controller.tracking
        if self.preferences is not None:
            self.preferences.update(tracking_lines=controller.tracking)

    def clock(self) -> float:
        """Game time: real seconds, or in tests the frame clock (fixed steps)."""
        return time.monotonic() if self.realtime else ClockObject.getGlobalClock().getFrameTime()

    # -- input -----------------------------------------------------------------------------

    def mouse(self) -> tuple[float, float] | None:
        """The pointer in render2d coordinates (-1..1 both ways), if over the window."""
        watcher = self.base.mouseWatcherNode
        if watcher is None or not watcher.hasMouse():
            return None
        mouse = watcher.getMouse()
        return (float(mouse.x), float(mouse.y))

    def aspect_point(self, mouse: tuple[float, float]) -> tuple[float, float]:
        """``mouse`` in the HUD's units (``aspect2d``'s on a window wider than tall)."""
        if self.hud is not None:
            return self.hud.point(mouse)
        return (mouse[0] * self.base.getAspectRatio(), mouse[1])

    def table_point(self, mouse: tuple[float, float] | None = None) -> Point | None:
        """Where the pointer meets the plane of the ball centres."""
        mouse = mouse or self.mouse()
        if mouse is None or self.scene is None:
            return None
        near, far = Point3(), Point3()
        self.base.camLens.extrude(mouse, near, far)
        near = self.base.render.getRelativePoint(self.base.cam, near)
        far = self.base.render.getRelativePoint(self.base.cam, far)
        z = self.controller.game.setup.spec.ball_radius if self.controller else 0.0
        if abs(far.z - near.z) < 1e-9:
            return None
        share = (z - near.z) / (far.z - near.z)
        if share < 0:
            return None
        return (near.x + share * (far.x - near.x), near.y + share * (far.y - near.y))

    # -- the screens over the table ---------------------------------------------------------

    @property
    def start_screen(self) -> StartScreen | None:
        screen = self.modes.screen
        return screen.screen if isinstance(screen, StartMode) else None

    @property
    def menu(self) -> GameMenu | None:
        screen = self.modes.screen
        return screen.menu if isinstance(screen, MenuMode) else None

    @property
    def replay(self) -> ReplayView | None:
        screen = self.modes.screen
        return screen.view if isinstance(screen, ReplayMode) else None

    def open_replay(self, index: int | None = None) -> None:
        """Replay a shot of this game (``index`` in the viewer's shot list; by default
        the last one played)."""
        controller = self.controller
        if (
            controller is None
            or self.modes.covering is not None
            or controller.stage in (Stage.SIMULATING, Stage.WATCH)
        ):
            return
        items = game_items(controller.game)
        if not items:
            self.modes.say("no shot to replay yet")
            return
        if index is None:  # the last shot played, not a branch after it
            index = last_in_play(items)
        self.modes.open(ReplayMode(self, items, index))

    def view_shots(self, items: list[ReplayItem], spec: TableSpec) -> None:
        """Replay shots that belong to no game here (a pooltool file): a table, no play."""
        self.scene = TableScene(self.base, spec, quality=self.quality)
        self.rig = CameraRig(self.base, spec)
        self.rig.set_free(table_box(self.base.getAspectRatio()))
        self.rig.show("broadcast")
        self.rig.jump()
        self.modes.open(ReplayMode(self, items, 0))

    def open_menu(self) -> None:
        """The menu over the table (Esc), and over the set-up; not over another screen."""
        assert self.controller is not None
        if self.modes.covering is None:
            self.modes.open(MenuMode(self))

    def window_changed(self, window: Any) -> None:
        """A resized window: the HUD and the replay viewer are laid out again for its new
        shape (the start screen and the menu sit in the middle and fit any shape)."""
        # Another wrapper of the same window each time: compared, not identical.
        if window != self.base.win:
            return
        aspect = self.base.getAspectRatio()
        if abs(aspect - self._aspect) < 1e-3:  # moved, focused: the same shape
            return
        self._aspect = aspect
        hud = self.hud
        if hud is not None and self.controller is not None:
            shown = not hud.root.isHidden()
            hud.destroy()
            self.hud = self._new_hud(self.controller)
            self.hud.carry_on_from(hud)
            if not shown:  # the replay viewer hides it: the table between its panels
                self.hud.root.hide()
                if self.rig is not None:
                    self.rig.set_free(table_box(aspect))
        if self.rig is not None:
            self.rig.reframe()  # the lens is another shape
        for screen in self.modes.screens:
            screen.resized()

    # -- every frame ------------------------------------------------------------------------------

    def _frame(self, task: Task) -> int:
        now = time.monotonic()
        dt = ClockObject.getGlobalClock().getDt()
        self.frame_times.append(now - self._last_frame)
        self._last_frame = now
        del self.frame_times[:-240]
        # The reviews first: a screen showing one draws what came in the same frame as
        # the window at rest sees its words change (then it draws that frame).
        self.reviews.poll()
        self.modes.frame(dt)
        self.drills.frame()
        if self.rest is not None:
            self.rest.frame(busy=playing(self), mouse=self.mouse(), words=moving_words(self))
        return int(Task.cont)

    # -- automation -------------------------------------------------------------------------------

    def virtual_mouse(self) -> VirtualMouse:
        """A virtual mouse and keyboard driving this window (scripts, tests)."""
        if self._virtual_mouse is None:
            from sim.app.headless import attach_virtual_mouse

            # One per ShowBase: a test harness may have attached it already.
            existing = getattr(self.base, "virtual_mouse", None)
            self._virtual_mouse = existing or attach_virtual_mouse(self.base)
            self.base.virtual_mouse = self._virtual_mouse
        return self._virtual_mouse

    def step(self, frames: int = 1) -> None:
        for _ in range(frames):
            self.base.taskMgr.step()

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.base.win.saveScreenshot(str(path))

    def stop(self) -> None:
        """Finish the autosave in progress and stop the physics worker."""
        if self.controller is not None:
            self.controller.flush()
            self.worker = self.controller.worker  # it may have been restarted
            self.thinker = self.controller.seat.thinker or self.thinker
        self.worker.close()
        if self.thinker is not None:
            self.thinker.close()
        self.reviews.close()

    def quit(self) -> None:
        """End the program: the window closed, then the window's work stopped (:meth:`stop`:
        the autosave finished, the child processes stopped) and Panda3D's loop. The window
        goes first: stopping the child processes waits on each (the thinker may be in the
        middle of a decision), and a window left on the screen meanwhile looked frozen for
        seconds."""
        if self.base.win is not None:
            self.base.closeWindow(self.base.win)
        self.stop()
        self.base.userExit()

    def destroy(self) -> None:
        """Take the table, the HUD, the input and the frame task off the ShowBase."""
        self.input.ignoreAll()
        if self.rest is not None:
            self.rest.ignoreAll()
        self.base.taskMgr.remove("poolsim-frame")
        self.modes.close()
        self.close_table()  # the table and all drawn over it, the match summary too
        if self.thinker is not None:  # the computer's process is this table's own
            self.thinker.close()
        self.thinker = None
        self.reviews.close()


def moving_words(app: PoolApp) -> tuple[object, ...]:
    """What the window at rest watches, the lines that change with nobody touching
    anything: the physics' warm-up (on the start screen and the HUD), the shot clock's
    seconds, every line the HUD shows (the computer's and the hint's thinking seconds
    among them: a counter that stood still while the mouse did, issue 28), and tracking
    lines come back from the physics (one frame draws them)."""
    controller = app.controller
    clock = controller.shot_clock.left() if controller is not None else None
    return (
        physics_status(app.worker, time.monotonic()),
        None if clock is None else math.ceil(clock),
        app.hud.shown_lines() if app.hud is not None else None,
        controller is not None and controller.preview.lines is not None,
        app.reviews.status(),  # a review's progress in the background
    )


def playing(app: PoolApp) -> bool:
    """Something moves on its own: a shot in the physics or playing out, a replay."""
    controller = app.controller
    stage = controller.stage if controller is not None else None
    replay = app.replay
    return stage in (Stage.SIMULATING, Stage.WATCH) or (replay is not None and replay.playing)
