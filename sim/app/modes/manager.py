"""The manager that changes modes and hands each input to the mode that is up."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from sim.app.hud.texts import refusal
from sim.app.modes.base import OPENING_TASK, IdleMode, Mode
from sim.app.modes.stages import TableModes
from sim.app.modes.table import TableMode
from sim.app.modes.window import Window
from sim.play.game import GameError
from sim.play.table.turn import Stage

AIM_DEGREES_PER_SCREEN = 90.0  # a drag across the whole window turns the aim this much
FINE = 0.1  # Shift: fine aim


class ModeManager:
    """The mode up: the screen on top (the start screen, the menu, the replay viewer, the
    practice set-up), else the table's mode for the controller's stage as it is at this
    moment (a key may change the stage, and the next key in the same frame answers the
    new one). The table's modes are entered and left once a frame, after the
    controller's update, where the camera follows the turn; they keep their state from
    game to game.

    Screens stack: one opens over another (the menu over the set-up), which stays as it
    was under it, its widgets kept, and takes the input again when the one over it
    closes. A stage may have a screen of its own (``stage_screens``: the set-up's),
    opened as the controller enters the stage and closed as it leaves it; like the
    table's modes, it is made once and kept from game to game."""

    def __init__(self, window: Window, stage_screens: Mapping[Stage, Mode] | None = None) -> None:
        self.window = window
        self.idle = IdleMode(window)
        self.table_modes = TableModes(window)
        self.screens: list[Mode] = []  # the screens up, the one on top last
        self.stage_screens = dict(stage_screens or {})
        self.staged: Mode | None = None  # the screen of the controller's stage, up
        self.staged_for: Stage | None = None  # ... and that stage
        self.table: TableMode | None = None  # the table's mode entered last
        self.held: list[str] = []  # keys pressed while a table was opening, for it

    @property
    def screen(self) -> Mode | None:
        """The screen on top (None: none up)."""
        return self.screens[-1] if self.screens else None

    @property
    def active(self) -> Mode:
        screen = self.blocking
        if screen is not None:
            return screen
        controller = self.window.controller
        if controller is None:
            return self.idle
        return self.table_modes.for_stage(controller)

    @property
    def blocking(self) -> Mode | None:
        """The screen up that takes the input (not one that yields it to the table)."""
        screen = self.screen
        return None if screen is None or screen.yields else screen

    @property
    def covering(self) -> Mode | None:
        """The screen that takes the input, if it is not the stage's own (the menu and
        the replay viewer open over the set-up, and over no other screen)."""
        screen = self.blocking
        return None if screen is self.staged else screen

    def key_names(self) -> set[str]:
        """Every key the table's modes and the stages' screens answer: the window listens
        for these once, and hands each to the mode up. (A screen's own widgets take their
        keys themselves; the keys a screen's mode answers are among these: Esc closes
        the menu.)"""
        names = set(self.idle.keys)
        for mode in [*self.table_modes.all(), *self.stage_screens.values()]:
            names |= set(mode.keys)
        return names

    def answer(self, action: Callable[[], object]) -> None:
        """Do what the player asked; a move the game refuses is said on the HUD."""
        try:
            action()
        except GameError as error:
            self.say(refusal(error))

    def say(self, text: str) -> None:
        """The window's own line on the HUD (nowhere with no table)."""
        if self.window.hud is not None:
            self.window.hud.say(text)

    def key(self, name: str) -> None:
        action = self.active.keys.get(name)
        if action is None and self.opening:
            self.held.append(name)  # a table is on its way: the key is its (1, /, Space)
        elif action is not None:
            self.answer(action)

    @property
    def opening(self) -> bool:
        """A table is about to open from the start screen (its frame is on the way)."""
        return bool(self.window.base.taskMgr.hasTaskNamed(OPENING_TASK))

    # -- screens ---------------------------------------------------------------------------

    def open(self, screen: Mode) -> None:
        """The one way a screen comes up: over the table, the idle window or the screen
        up (which stays under it), in place of a screen that yields (the match summary)."""
        if self.screen is not None and self.screen.yields:
            self.close()
        assert screen not in self.screens, f"{screen.name} is up already"
        assert set(screen.keys) <= self.key_names(), "a key the window does not listen for"
        self.screens.append(screen)
        screen.enter()

    def close(self, screen: Mode | None = None) -> Mode | None:
        """Close ``screen`` (by default the one on top; its widgets destroyed), and give
        the input back to the screen under it; it is returned (None: it was not up)."""
        screen = self.screen if screen is None else screen
        if screen is None or screen not in self.screens:
            return None
        self.screens.remove(screen)
        if screen is self.staged:
            self.staged = self.staged_for = None
        screen.exit()
        return screen

    def table_closed(self) -> None:
        """The game is off the table: the screens over it go (the menu, the replay
        viewer, the set-up; the start screen stays), and so does the record of the
        watched shot's sounds."""
        for screen in list(reversed(self.screens)):
            if screen.over_table:
                self.close(screen)
        self.table_modes.watch.heard = None

    # -- every frame -------------------------------------------------------------------------

    def frame(self, dt: float) -> None:
        if self.held and self.window.controller is None and not self.opening:
            self.held.clear()  # the opening came to nothing (a file refused): no table
        mode = self.active
        if mode.table_underneath:
            self.table_frame(dt)
        else:
            mode.frame(dt)

    def table_frame(self, dt: float) -> None:
        """The table's frame: the drag followed, the controller updated, its stage's mode
        entered, and the table drawn as that mode shows it."""
        window = self.window
        controller, rig = window.controller, window.rig
        if controller is None or window.scene is None or rig is None:
            return
        self.drag()
        self.table_modes.for_stage(controller).before_update()
        controller.update()
        held, self.held = self.held, []
        for name in held:  # pressed while the table was opening, in order
            self.key(name)
        mode = self.follow()
        mode.frame(dt)
        mode.draw()
        for screen in list(self.screens):  # what each screen over the table draws on it
            if screen.table_underneath:
                screen.frame(dt)
        if window.call_marker is not None:
            window.call_marker.update(controller)
        if window.hint_ghost is not None:
            window.hint_ghost.update(controller)
        if window.rack_area is not None:
            window.rack_area.update(controller)
        rig.update(dt)
        assert window.hud is not None
        window.hud.refresh()

    def follow(self) -> TableMode:
        """Change the table's mode to the controller's stage (after its update), then
        the stage's own screen: opened as the stage begins, closed as it ends."""
        controller = self.window.controller
        assert controller is not None
        mode = self.table_modes.for_stage(controller)
        if mode is not self.table:
            if self.table is not None:
                self.table.exit()
            self.table = mode
            mode.enter()
        stage = controller.stage
        if self.staged is not None and self.staged_for is not stage:
            self.close(self.staged)
        screen = self.stage_screens.get(stage)
        if self.staged is None and screen is not None:
            self.open(screen)
            self.staged, self.staged_for = screen, stage
        return mode

    def drag(self) -> None:
        """Follow a drag in progress (every frame the table or the viewer is up)."""
        window = self.window
        point = window.mouse()
        rig = window.rig
        if rig is None:
            return
        moved = window.pointer.moved(point)
        if moved is None or point is None:
            return
        dx, dy = moved
        fine = FINE if window.base.mouseWatcherNode.isButtonDown("shift") else 1.0
        x, y = window.aspect_point(point)
        target = window.pointer.target
        controller, hud = window.controller, window.hud
        aiming = controller is not None and self.table_modes.for_stage(controller).aiming
        if target == "aim" and controller is not None and aiming:
            # Dragging right turns the aim to the right (clockwise seen from above).
            controller.turn(-dx / 2 * AIM_DEGREES_PER_SCREEN * fine)
        elif target == "power" and hud is not None and controller is not None:
            power = hud.over_power_meter(x, y)
            if power is not None:
                controller.set_power(power)
        elif target == "tip" and hud is not None and controller is not None:
            tip = hud.over_tip_widget(x, y)
            if tip is not None:
                controller.set_tip(*tip)
        elif target == "orbit":
            rig.orbit(-dx * 120.0, dy * 60.0)
        elif target == "pan":
            rig.pan(-dx * rig.goal.distance, -dy * rig.goal.distance)
