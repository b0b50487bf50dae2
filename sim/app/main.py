"""The desktop table: one Panda3D window where two players share the mouse.

:class:`PoolApp` owns the window, the 3D table (:mod:`sim.app.scene`), the camera, the
HUD and the input; the game's logic is the :class:`~sim.play.controller.TableController`.
The physics runs in a worker process that starts (and, on a machine's first run,
compiles) while the start screen is up.

Input (also in the in-game help, key H):
- aim: drag with the left button (Shift: fine), or arrows left/right;
- power: the wheel over the meter, dragging the meter, arrows up/down;
- tip: click/drag the cue-ball widget, or I J K L; elevation: E / D;
- shoot: Space or the Shoot button; skip a shot playing out: Space;
- 10-ball call: click a ball then a pocket; S safety; P push out;
- ball in hand: the cue ball follows the mouse over legal spots; click to put it down;
- camera: right drag orbits, middle drag pans, the wheel zooms; 1 behind, 2 overhead,
  3 broadcast; G toggles the aiming aid; Esc opens the menu.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from direct.showbase.DirectObject import DirectObject
from direct.showbase.ShowBase import ShowBase
from direct.task.Task import Task
from panda3d.core import CardMaker, ClockObject, NodePath, Point3, TextNode, TransparencyAttrib

from rules import CUE, BallId, BallInHand, Declaration, PocketId
from rules.geometry import Point, TableGeometry, distance
from sim.app.camera import CameraRig
from sim.app.cue import CueStick
from sim.app.hud import Hud
from sim.app.preferences import Preferences
from sim.app.scene import LAG_BALL, Quality, TableScene
from sim.app.sound import SoundBoard, SoundCue, cues_between, sound_cues
from sim.app.widgets import typing
from sim.paths import assets_dir
from sim.physics.simulator import Simulator
from sim.physics.table import pocket_centre
from sim.physics.worker import PhysicsWorker
from sim.play.controller import Stage, TableController, Watching
from sim.play.game import Game, GameError
from sim.store.autosave import Autosave

CLICK_PIXELS = 5  # a press and release closer than this is a click, not a drag
AIM_DEGREES_PER_SCREEN = 90.0  # a drag across the whole window turns the aim this much
FINE = 0.1  # Shift: fine aim


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


class PoolApp(DirectObject):  # type: ignore[misc]
    """The desktop table on a ShowBase (one per process). ``game`` to play (None: the
    start screen comes first); ``resumed``: it is the autosaved game."""

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
    ) -> None:
        super().__init__()
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
        self.kitchen: Any = None
        self.rig: CameraRig | None = None
        self.hud: Hud | None = None
        self.cue: CueStick | None = None
        self.menu: Any = None
        self.replay: Any = None
        self.start_screen: Any = None
        self._buttons: set[str] = set()
        self._press: tuple[str, float, float] | None = None  # button, x, y at press
        self._last_mouse: tuple[float, float] | None = None
        self._drag_target: str | None = None  # "aim", "power", "tip", "hud", "orbit", "pan"
        self._preset_before_watch = ""  # the view to go back to after a shot
        self._last_stage: Stage | None = None
        self._last_frame = time.monotonic()
        self._virtual_mouse: Any = None
        self.frame_times: list[float] = []
        # What the player chose last time (None: nothing is remembered, as in tests).
        self.preferences = preferences
        remembered = preferences.load() if preferences is not None else {}
        self.sounds = SoundBoard(base, enabled=remembered.get("sound") is not False)
        # The shot being watched, its sounds (one list a timeline) and the time heard up to.
        self._heard: tuple[Watching, list[tuple[SoundCue, ...]], float] | None = None
        self._bind_input()
        self.base.taskMgr.add(self._frame, "poolsim-frame")
        if game is not None:
            self.play(game, resumed=resumed)

    # -- screens ---------------------------------------------------------------------------

    def play(self, game: Game, *, resumed: bool = False, save: bool = True) -> None:
        """Put ``game`` on the table. ``resumed``: it is the autosaved game. Any other
        game takes the autosave's place at its first save (the game there is archived,
        never lost), at once if it has steps already (a breaker agreed, a saved game
        opened) unless ``save`` is False (opened only to be replayed): Resume then finds
        the game that is on the table."""
        self.close_start_screen()
        self.close_table()
        self.controller = TableController(
            game, self.worker, self.autosave, clock=self._clock, resumed=resumed
        )
        if game.records and save and not resumed:
            self.controller.save()
        spec = game.setup.spec
        self.scene = TableScene(self.base, spec, quality=self.quality)
        self.rig = CameraRig(self.base, spec.geometry)
        self.hud = self._new_hud(self.controller)
        self.cue = CueStick(self.base, spec.geometry)
        self.kitchen = kitchen_overlay(self.base, spec.geometry, self.quality)
        self.show_view("behind")
        self.rig.jump()

    def _new_hud(self, controller: TableController) -> Hud:
        actions = {"New game": self.show_start_screen, "Replay the shots": self.open_replay}
        hud = Hud(self.base, controller, self.show_view, actions)
        hud.refresh()  # filled in at once, whenever in the frame the table was laid out
        return hud

    def show_start_screen(self) -> None:
        from sim.app.start import StartScreen

        self.close_table()
        self.start_screen = StartScreen(self, on_start=self.play)

    def close_table(self) -> None:
        """Take the game off the table: its autosave finished, the HUD, menu, replay,
        scene, cue and camera gone (the physics worker stays for the next game)."""
        if self.controller is not None:
            self.controller.close()
            self.worker = self.controller.worker  # it may have been restarted
        self._heard = None
        for part in (self.hud, self.menu, self.replay, self.scene):
            if part is not None:
                part.destroy()
        if self.cue is not None:
            self.cue.focus.removeNode()
            self.cue.aid.removeNode()
        if self.kitchen is not None:
            self.kitchen.removeNode()
        self.hud = self.menu = self.replay = self.scene = self.cue = self.kitchen = None
        self.controller = self.rig = None

    def close_start_screen(self) -> None:
        if self.start_screen is not None:
            self.start_screen.destroy()
            self.start_screen = None

    def show_view(self, preset: str) -> None:
        if self.rig is None or self.controller is None:
            return
        cue = self.controller.cue_ball()
        self.rig.show(preset, cue, self.controller.aim.direction)

    def _clock(self) -> float:
        """Game time: real seconds, or in tests the frame clock (fixed steps)."""
        return time.monotonic() if self.realtime else ClockObject.getGlobalClock().getFrameTime()

    # -- input -----------------------------------------------------------------------------

    def _bind_input(self) -> None:
        for button in ("mouse1", "mouse2", "mouse3"):
            self.accept(button, self._on_press, [button])
            self.accept(f"shift-{button}", self._on_press, [button])
            self.accept(f"{button}-up", self._on_release, [button])
        self.accept("wheel_up", self._on_wheel, [1])
        self.accept("wheel_down", self._on_wheel, [-1])
        keys: dict[str, Callable[[], None]] = {
            "space": self._space,
            "enter": self._space,
            "arrow_left": lambda: self._turn(1.0),
            "arrow_right": lambda: self._turn(-1.0),
            "shift-arrow_left": lambda: self._turn(0.1),
            "shift-arrow_right": lambda: self._turn(-0.1),
            "arrow_left-repeat": lambda: self._turn(1.0),
            "arrow_right-repeat": lambda: self._turn(-1.0),
            "shift-arrow_left-repeat": lambda: self._turn(0.1),
            "shift-arrow_right-repeat": lambda: self._turn(-0.1),
            "arrow_up": lambda: self._power(0.02),
            "arrow_down": lambda: self._power(-0.02),
            "arrow_up-repeat": lambda: self._power(0.02),
            "arrow_down-repeat": lambda: self._power(-0.02),
            "i": lambda: self._tip(0.0, 0.05),
            "k": lambda: self._tip(0.0, -0.05),
            "j": lambda: self._tip(0.05, 0.0),
            "l": lambda: self._tip(-0.05, 0.0),
            "e": lambda: self._elevate(2.0),
            "d": lambda: self._elevate(-2.0),
            "s": lambda: self._declare(Declaration.SAFETY),
            "p": lambda: self._declare(Declaration.PUSH_OUT),
            "b": self._pick_up,
            "g": self._toggle_aid,
            "h": self._help,
            "r": self.open_replay,
            "x": self._extension,
            "1": lambda: self.show_view("behind"),
            "2": lambda: self.show_view("overhead"),
            "3": lambda: self.show_view("broadcast"),
        }
        for key, action in keys.items():
            self.accept(key, self._guard, [action])
        self.accept("escape", self._escape)
        self.accept("m", self._sound_key)  # also during a replay or in the menu
        self.accept("window-event", self.window_changed)

    @property
    def _table_has_input(self) -> bool:
        """Keys and the mouse are the table's, not a menu's, a replay's or a text field's."""
        return (
            self.controller is not None
            and self.replay is None
            and self.menu is None
            and self.start_screen is None
        )

    def _guard(self, action: Callable[[], None]) -> None:
        if not self._table_has_input:
            return
        try:
            action()
        except GameError as error:
            if self.controller is not None:
                self.controller.message = str(error)

    def _mouse(self) -> tuple[float, float] | None:
        """The pointer in render2d coordinates (-1..1 both ways), if over the window."""
        watcher = self.base.mouseWatcherNode
        if watcher is None or not watcher.hasMouse():
            return None
        mouse = watcher.getMouse()
        return (float(mouse.x), float(mouse.y))

    def _aspect_point(self, mouse: tuple[float, float]) -> tuple[float, float]:
        return (mouse[0] * self.base.getAspectRatio(), mouse[1])

    def table_point(self, mouse: tuple[float, float] | None = None) -> Point | None:
        """Where the pointer meets the plane of the ball centres."""
        mouse = mouse or self._mouse()
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

    def _on_press(self, button: str) -> None:
        mouse = self._mouse()
        if mouse is None or self.menu is not None or self.start_screen is not None:
            return
        if self.controller is None and self.replay is None:
            return
        self._buttons.add(button)
        self._press = (button, *mouse)
        self._last_mouse = mouse
        self._drag_target = None
        if button == "mouse1" and self.replay is not None:
            return  # the replay's own controls take the left button
        if button == "mouse1" and self.hud is not None and self.controller is not None:
            x, y = self._aspect_point(mouse)
            stage = self.controller.stage
            power = self.hud.over_power_meter(x, y)
            tip = self.hud.over_tip_widget(x, y)
            if stage not in (Stage.AIM, Stage.LAG):
                # The meter and the cue-ball widget are not the table under them (a click
                # on the widget with the cue ball in hand put it down there).
                if power is not None or tip is not None:
                    self._drag_target = "hud"
            elif power is not None:
                self._drag_target = "power"
                self.controller.set_power(power)
            elif tip is not None:
                self._drag_target = "tip"
                self.controller.set_tip(*tip)
            else:
                self._drag_target = "aim"
        elif button == "mouse3":
            self._drag_target = "orbit"
        elif button == "mouse2":
            self._drag_target = "pan"

    def _on_release(self, button: str) -> None:
        self._buttons.discard(button)
        mouse = self._mouse()
        press = self._press
        self._press = None
        target = self._drag_target
        self._drag_target = None
        if press is None or mouse is None or press[0] != button or self.controller is None:
            return
        width, height = self.base.win.getXSize(), self.base.win.getYSize()
        moved = math.hypot((mouse[0] - press[1]) * width / 2, (mouse[1] - press[2]) * height / 2)
        if button == "mouse1" and moved < CLICK_PIXELS and target in ("aim", None):
            self._guard(lambda: self._click(mouse))

    def _click(self, mouse: tuple[float, float]) -> None:
        """A click on the table: put the cue ball down, call a ball and pocket, or aim."""
        controller = self.controller
        assert controller is not None
        point = self.table_point(mouse)
        if point is None:
            return
        stage = controller.stage
        if stage is Stage.PLACE:
            reason = controller.legal_placement(point)
            if reason is not None:
                raise GameError(f"the cue ball cannot go there: {reason}")
            controller.move_cue_ball(point)
            controller.confirm_placement()
            return
        if stage is not Stage.AIM:
            return
        balls = controller.balls()
        radius = controller.game.setup.spec.ball_radius
        hit = min(
            (b for b in balls if b != CUE and distance(balls[b], point) <= radius * 1.3),
            key=lambda b: distance(balls[b], point),
            default=None,
        )
        if hit is not None:
            controller.aim_at(balls[hit])
            if controller.can_call:  # 10-ball: the ball, then its pocket, is a call
                controller.call_ball = hit
                controller.message = f"the {hit}: click its pocket to call it"
            return
        pocket = self._pocket_near(point)
        if pocket is not None and controller.call_ball is not None:
            controller.call_shot(controller.call_ball, pocket)
            return
        controller.aim_at(point)

    def _pocket_near(self, point: Point) -> PocketId | None:
        assert self.controller is not None
        table = self.controller.game.setup.spec.build()
        nearest = min(PocketId, key=lambda p: distance(pocket_centre(table, p), point))
        return nearest if distance(pocket_centre(table, nearest), point) < 0.14 else None

    def _on_wheel(self, step: int) -> None:
        mouse = self._mouse()
        if self.rig is None or self.menu is not None or self.start_screen is not None:
            return
        if self.controller is None or self.replay is not None:
            self.rig.zoom(0.9 if step > 0 else 1.0 / 0.9)
            return
        if mouse is not None and self.hud is not None:
            x, y = self._aspect_point(mouse)
            if self.hud.over_power_meter(x, y) is not None:
                self._power(0.02 * step)
                return
        self.rig.zoom(0.9 if step > 0 else 1.0 / 0.9)

    def _drag(self) -> None:
        """Follow a drag in progress (called every frame)."""
        mouse = self._mouse()
        controller = self.controller
        if mouse is None or self._last_mouse is None or self.rig is None:
            return
        dx, dy = mouse[0] - self._last_mouse[0], mouse[1] - self._last_mouse[1]
        self._last_mouse = mouse
        if not self._buttons or (dx == 0 and dy == 0):
            return
        fine = FINE if self.base.mouseWatcherNode.isButtonDown("shift") else 1.0
        x, y = self._aspect_point(mouse)
        target = self._drag_target
        aiming = controller is not None and controller.stage in (Stage.AIM, Stage.LAG)
        if target == "aim" and controller is not None and aiming:
            # Dragging right turns the aim to the right (clockwise seen from above).
            controller.turn(-dx / 2 * AIM_DEGREES_PER_SCREEN * fine)
        elif target == "power" and self.hud is not None and controller is not None:
            power = self.hud.over_power_meter(x, y)
            if power is not None:
                controller.set_power(power)
        elif target == "tip" and self.hud is not None and controller is not None:
            tip = self.hud.over_tip_widget(x, y)
            if tip is not None:
                controller.set_tip(*tip)
        elif target == "orbit":
            self.rig.orbit(-dx * 120.0, dy * 60.0)
        elif target == "pan":
            self.rig.pan(-dx * self.rig.goal.distance, -dy * self.rig.goal.distance)

    # -- keys -----------------------------------------------------------------------------------

    def _space(self) -> None:
        controller = self.controller
        if controller is None:
            return
        if controller.stage is Stage.SIMULATING:
            return  # struck already: a second Space is impatience, not a refused stroke
        if controller.stage is Stage.WATCH:
            controller.finish_watching()
        elif controller.stage is Stage.PLACE:
            controller.confirm_placement()
        else:
            controller.strike()

    def _turn(self, degrees: float) -> None:
        if self.controller is not None and self.controller.stage in (Stage.AIM, Stage.LAG):
            self.controller.turn(degrees)

    def _power(self, step: float) -> None:
        if self.controller is not None:
            self.controller.set_power(self.controller.aim.power + step)

    def _tip(self, da: float, db: float) -> None:
        if self.controller is not None:
            aim = self.controller.aim
            self.controller.set_tip(aim.a + da, aim.b + db)

    def _elevate(self, degrees: float) -> None:
        if self.controller is not None:
            self.controller.set_elevation(self.controller.aim.elevation + degrees)

    def _declare(self, declaration: Declaration) -> None:
        if self.controller is not None:
            current = self.controller.declaration
            self.controller.declare(None if current is declaration else declaration)

    def _sound_key(self) -> None:
        if not typing():  # an M typed into a name or a path is a letter
            self.toggle_sound()

    def toggle_sound(self) -> None:
        if not self.sounds.available:
            message = "no sound: poolsim found no audio device"
        else:
            enabled = self.sounds.toggle()
            message = "sound on" if enabled else "sound off (M turns it on)"
            if self.preferences is not None:
                self.preferences.update(sound=enabled)
        if self.controller is not None:
            self.controller.message = message

    def _extension(self) -> None:
        if self.controller is not None:
            self.controller.take_extension()

    def _pick_up(self) -> None:
        if self.controller is not None:
            self.controller.pick_up_cue_ball()

    def _toggle_aid(self) -> None:
        if self.cue is not None:
            self.cue.show_aid = not self.cue.show_aid

    def _help(self) -> None:
        if self.hud is not None:
            self.hud.toggle_help()

    def open_replay(self, index: int | None = None) -> None:
        """Replay a shot of this game (the last one by default)."""
        from sim.app.replay import ReplayView, game_items

        controller = self.controller
        if (
            controller is None
            or self.replay is not None
            or controller.stage in (Stage.SIMULATING, Stage.WATCH)
        ):
            return
        items = game_items(controller.game)
        if not items:
            controller.message = "no shot to replay yet"
            return
        if self.hud is not None:
            self.hud.root.hide()
        assert self.cue is not None and self.rig is not None
        self.cue.hide()
        self.kitchen.hide()
        self.rig.show("broadcast")  # the whole table, whatever view the player had
        controller.pause_clock()
        self.replay = ReplayView(self, items, index)

    def view_shots(self, items: list[Any], spec: Any) -> None:
        """Replay shots that belong to no game here (a pooltool file): a table, no play."""
        from sim.app.replay import ReplayView

        self.scene = TableScene(self.base, spec, quality=self.quality)
        self.rig = CameraRig(self.base, spec.geometry)
        self.rig.show("broadcast")
        self.rig.jump()
        self.replay = ReplayView(self, items, 0)

    def replay_closed(self) -> None:
        self.replay = None
        if self.hud is not None:
            self.hud.root.show()
        if self.controller is not None:
            self.controller.resume_clock()
        if self.controller is None:  # shots with no game: closing the viewer quits
            self.stop()
            self.base.userExit()

    def _escape(self) -> None:
        """Esc opens or closes the menu (the replay viewer closes itself on Esc)."""
        if self.replay is not None:
            return
        if self.menu is not None:
            self.close_menu()
        elif self.controller is not None:
            self.open_menu()

    def open_menu(self) -> None:
        from sim.app.menu import GameMenu

        assert self.controller is not None
        self.controller.pause_clock()
        self.menu = GameMenu(self)

    def close_menu(self) -> None:
        if self.menu is not None:
            self.menu.destroy()
            self.menu = None
        if self.controller is not None:
            self.controller.resume_clock()

    def window_changed(self, window: Any) -> None:
        """A resized window: the HUD and the replay viewer are laid out again for its new
        shape (the start screen and the menu sit in the middle and fit any shape)."""
        if window is not self.base.win:
            return
        aspect = self.base.getAspectRatio()
        hud = self.hud
        if hud is not None and self.controller is not None and abs(aspect - hud.aspect) >= 1e-3:
            shown = not hud.root.isHidden()
            hud.destroy()
            self.hud = self._new_hud(self.controller)
            if not shown:  # the replay viewer hides it
                self.hud.root.hide()
        if self.replay is not None and abs(aspect - self.replay.aspect) >= 1e-3:
            self.replay = self.replay.rebuilt()

    # -- every frame ------------------------------------------------------------------------------

    def _frame(self, task: Task) -> int:
        now = time.monotonic()
        dt = ClockObject.getGlobalClock().getDt()
        self.frame_times.append(now - self._last_frame)
        self._last_frame = now
        del self.frame_times[:-240]
        controller = self.controller
        if self.replay is not None and self.rig is not None:  # the viewer draws the balls
            if controller is not None:
                controller.update()
            self.rig.update(dt)
            self._drag()
            return int(Task.cont)
        if controller is None or self.scene is None or self.rig is None:
            return int(Task.cont)
        self._drag()
        watching = controller.watching
        if watching is not None:
            # Before the update, which ends a shot that has played out: its last sounds
            # (often a ball dropping at the very end) are due this frame. A skipped shot
            # ended already, and stays silent.
            self._hear(watching, min(self._clock() - watching.started, watching.duration))
        controller.update()
        stage = controller.stage
        self._follow_stage(stage)
        if stage is Stage.PLACE:
            point = self.table_point()
            if point is not None:
                controller.move_cue_ball(point)
        self._draw(stage)
        self.rig.update(dt)
        assert self.hud is not None
        self.hud.refresh()
        return int(Task.cont)

    def _follow_stage(self, stage: Stage) -> None:
        """The camera through a turn: a shot is watched from the broadcast view (and the
        camera leans toward the balls), then the player's view comes back; the behind
        view stays behind the cue ball, along the aim."""
        assert self.rig is not None
        previous, self._last_stage = self._last_stage, stage
        if stage is Stage.WATCH and previous is not Stage.WATCH:
            self._preset_before_watch = self.rig.preset
            if self.rig.preset in ("behind", "free"):
                self.rig.show("broadcast")
        elif previous is Stage.WATCH and stage is not Stage.WATCH:
            if self._preset_before_watch in ("behind", "overhead", "broadcast"):
                self.show_view(self._preset_before_watch)
            self._preset_before_watch = ""
        if stage in (Stage.AIM, Stage.LAG) and self.rig.preset == "behind":
            self.show_view("behind")

    def _draw(self, stage: Stage) -> None:
        controller = self.controller
        assert (
            controller is not None
            and self.scene is not None
            and self.cue is not None
            and self.rig is not None
        )
        watching = controller.watching
        if watching is not None:
            self.cue.hide()
            t = min(self._clock() - watching.started, watching.duration)
            moving: list[Point] = []
            ids: list[BallId] = []
            parts: list[Any] = []
            # Both lag balls are pooltool's "cue": B's is drawn as the tinted second one.
            for number, timeline in enumerate(watching.timelines):
                states = timeline.at(min(t, timeline.duration))
                names = [LAG_BALL if number and b == CUE else b for b in timeline.ball_ids]
                ids += names
                parts.append(states)
                for i in range(len(timeline.ball_ids)):
                    if not states.pocketed[i] and np.linalg.norm(states.velocities[i]) > 1e-3:
                        moving.append(
                            (float(states.positions[i][0]), float(states.positions[i][1]))
                        )
            self.scene.set_balls(
                ids,
                np.concatenate([p.positions for p in parts]),
                np.concatenate([p.orientations for p in parts]),
                ~np.concatenate([p.pocketed for p in parts]),
            )
            if self.rig.preset == "broadcast":
                self.rig.follow(moving)  # the camera follows the action
            return
        balls = controller.balls()
        if stage is Stage.LAG:  # both lag balls wait behind the head string
            a, b = controller.lag_balls()
            self._show_balls({CUE: a, LAG_BALL: b})
        else:
            self._show_balls(balls)
        cue = balls.get(CUE)
        if stage in (Stage.AIM, Stage.LAG) and cue is not None:
            self.cue.place(cue, controller.aim)
            self.cue.draw_aid(cue, controller.aim, balls if stage is Stage.AIM else {})
        else:
            self.cue.hide()
        state = controller.state
        in_kitchen = stage is Stage.PLACE and state is not None
        if in_kitchen and state is not None and state.ball_in_hand is BallInHand.KITCHEN:
            self.kitchen.show()
        else:
            self.kitchen.hide()

    def _hear(self, watching: Watching, t: float) -> None:
        """Play the sounds of the shot being watched from the last frame's time to ``t``
        (computed once a shot, when it starts to play out)."""
        if self._heard is None or self._heard[0] is not watching:
            cues = [sound_cues(timeline) for timeline in watching.timelines]
            self._heard = (watching, cues, -1.0)
        _, cues, heard = self._heard
        for shot in cues:
            self.sounds.play(cues_between(shot, heard, t))
        # At the end the shot is over (this frame's update ends it): nothing to keep.
        self._heard = None if t >= watching.duration else (watching, cues, t)

    def _show_balls(self, balls: dict[BallId, Point]) -> None:
        """The balls at rest, each turned as the last shot left it."""
        assert self.scene is not None and self.controller is not None
        ids = list(balls)
        radius = self.controller.game.setup.spec.ball_radius
        positions = [(x, y, radius) for x, y in balls.values()]
        turned = self.controller.orientations
        orientations = [turned.get(ball, (1.0, 0.0, 0.0, 0.0)) for ball in ids]
        self.scene.set_balls(ids, positions, orientations)

    # -- automation -------------------------------------------------------------------------------

    def virtual_mouse(self) -> Any:
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
        self.worker.close()

    def destroy(self) -> None:
        """Take the table, the HUD, the input and the frame task off the ShowBase."""
        self.ignoreAll()
        self.base.taskMgr.remove("poolsim-frame")
        self.close_start_screen()
        for part in (self.hud, self.menu, self.replay):
            if part is not None:
                part.destroy()
        self.hud = self.menu = self.replay = None
        for node in (
            self.kitchen,
            self.cue.focus if self.cue else None,
            self.cue.aid if self.cue else None,
        ):
            if node is not None:
                node.removeNode()
        if self.scene is not None:
            self.scene.destroy()
        self.scene = self.controller = self.cue = self.rig = None
