"""Scripted play: a list of actions the window carries out as if a player did them, for
tests and bug reports (``poolsim play --script FILE``).

A script is a JSON list; each step is an object with one action key:

    {"breaker": "A"}                     who breaks, with no lag (GEN-3)
    {"place": [x, y]}                    put the cue ball in hand down (metres)
    {"aim": 92.5}                        aim direction in degrees (0 = +x, 90 = up the table)
    {"aim_at": "3"} / {"aim_at": [x, y]} aim straight at a ball or a point
    {"power": 0.6}                       the power meter, 0..1
    {"tip": [a, b]}                      cue-tip offset in ball radii (a: + left, b: + follow)
    {"elevation": 10}                    cue elevation, degrees
    {"call": ["3", "rt"]}                10-ball call: ball and pocket
    {"declare": "safety" | "push-out" | null}
    {"shoot": true}                      strike; waits until the balls stop (or
    {"shoot": "skip"}                    skips the animation to the ruling)
    {"choose": "pass"}                   the incoming player's option
    {"take_again": true}                 take it again (Backspace, the Take it again
                                         button): the balls back as before the last
                                         shot, its stroke loaded; the first try kept
    {"replay": 2} / {"replay": null}     open the replay viewer at that entry of its
                                         shot list (0 first; null: the last shot played)
    {"play_from_here": true}             the viewer's Play from here: the table before
                                         the shot shown, its stroke loaded; a new branch
    {"camera": "overhead"}               behind, overhead, broadcast
    {"wait": 30}                         frames
    {"screenshot": "out.png"}            save the window as it is now
    {"click": [px, py]}                  a mouse click at window pixels (x right, y down)
    {"key": "space"}                     a key press (Panda3D key names)
    {"layout": "out.json"}               write where the pockets, the balls and the
                                         HUD's panels are on the screen now (pixels)
    {"computer": {"seat": "B", "level": 3}}  the computer plays that seat from now, at
                                         level 1..5 or "perfect" (level null: a person)
    {"wait_for_computer": true}          frames until the computer has played and a
                                         person is to act (or the match is over);
                                         "thinking": until it thinks, "showing": until
                                         its stroke is on the cue, before it strokes
    {"hint": true}                       the hint (/ or ?, the Hint button): frames
                                         until the computer's stroke is on the cue

Steps run one after another, each when the table is ready for it; a step the game
refuses stops the script with a :class:`ScriptError` naming the step.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules import Choice, Declaration, Player
from rules.userfile import FileRefused, read_regular
from sim.play.controller import Stage
from sim.play.game import GameError

if TYPE_CHECKING:
    from sim.app.main import PoolApp

ACTIONS = {
    "breaker",
    "place",
    "aim",
    "aim_at",
    "power",
    "tip",
    "elevation",
    "call",
    "declare",
    "shoot",
    "choose",
    "take_again",
    "replay",
    "play_from_here",
    "camera",
    "wait",
    "screenshot",
    "click",
    "key",
    "layout",
    "computer",
    "wait_for_computer",
    "hint",
}
CAMERAS = ("behind", "overhead", "broadcast")
BUSY = (Stage.SIMULATING, Stage.WATCH)
MAX_SCRIPT_BYTES = 2**20  # a script is a list of steps typed by hand: a few KB
MAX_WAIT_FRAMES = 60 * 120  # two minutes of frames for one step (a cold first compile)
MAX_THINKING_S = 600.0  # real seconds the computer may take over its turns (a slow machine)


class ScriptError(ValueError):
    """A script that cannot be read or a step the game refuses (one line)."""


def load_script(path: Path) -> list[dict[str, Any]]:
    try:
        steps = json.loads(read_regular(Path(path), MAX_SCRIPT_BYTES, "a script").decode("utf-8"))
    except FileRefused as error:
        raise ScriptError(f"{path}: {error}") from None
    except OSError as error:
        raise ScriptError(f"{path}: cannot read: {error.strerror or error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ScriptError(f"{path}: not valid JSON: {error}") from None
    except RecursionError:
        raise ScriptError(f"{path}: nested too deep to be a script") from None
    if not isinstance(steps, list):
        raise ScriptError(f"{path}: a script is a JSON list of steps")
    for index, step in enumerate(steps):
        if not isinstance(step, dict) or len(step) != 1 or next(iter(step)) not in ACTIONS:
            raise ScriptError(
                f"{path}: step {index + 1}: one action of {', '.join(sorted(ACTIONS))}"
            )
    return steps


def run_script(app: PoolApp, steps: list[dict[str, Any]]) -> None:
    """Carry out ``steps`` now, stepping the window's frames as they need."""
    for index, step in enumerate(steps):
        ((action, value),) = step.items()
        try:
            _run(app, action, value)
        # LookupError: a list or a name too short or unknown ({"click": [10]}, a ball).
        except (GameError, ValueError, TypeError, LookupError, AttributeError) as error:
            raise ScriptError(f"step {index + 1} ({action}): {error}") from None


def _controller(app: PoolApp) -> Any:
    if app.controller is None:
        raise ScriptError("no game on the table")
    return app.controller


def _settle(app: PoolApp) -> None:
    """Frames until no shot is in flight or playing out."""
    controller = _controller(app)
    for _ in range(MAX_WAIT_FRAMES):
        if controller.stage not in BUSY:
            return
        app.step()
    raise ScriptError("the shot did not finish")


def _run(app: PoolApp, action: str, value: Any) -> None:
    from panda3d.core import KeyboardButton, MouseButton

    controller = _controller(app)
    if action not in (
        "wait",
        "screenshot",
        "camera",
        "click",
        "key",
        "layout",
        "play_from_here",
        "computer",
        "wait_for_computer",
    ):
        _settle(app)
    if action == "breaker":
        controller.skip_lag(Player(value))
    elif action == "place":
        x, y = float(value[0]), float(value[1])
        reason = controller.legal_placement((x, y))
        if reason is not None:
            raise GameError(f"the cue ball cannot go at ({x}, {y}): {reason}")
        controller.placement = (x, y)
        controller.confirm_placement()
    elif action == "aim":
        controller.set_direction(float(value))
    elif action == "aim_at":
        balls = controller.balls()
        point = balls[str(value)] if isinstance(value, str) else (float(value[0]), float(value[1]))
        controller.aim_at(point)
    elif action == "power":
        controller.set_power(float(value))
    elif action == "tip":
        controller.set_tip(float(value[0]), float(value[1]))
    elif action == "elevation":
        controller.set_elevation(float(value))
    elif action == "call":
        controller.call_shot(str(value[0]), str(value[1]))
    elif action == "declare":
        controller.declare(None if value is None else Declaration(value))
    elif action == "shoot":
        controller.strike()
        for _ in range(MAX_WAIT_FRAMES):
            app.step()
            if controller.stage is Stage.WATCH and value == "skip":
                controller.finish_watching()
            if controller.stage not in BUSY:
                break
        else:
            raise ScriptError("the shot did not finish")
        app.step()
    elif action == "choose":
        controller.choose(Choice(value))
    elif action == "take_again":
        controller.take_back()
        app.step()
    elif action == "replay":
        if app.replay is not None:
            raise ScriptError("the replay viewer is open already")
        app.open_replay(None if value is None else int(value))
        if app.replay is None:
            raise ScriptError(controller.message or "the replay viewer did not open")
        app.step()
    elif action == "play_from_here":
        view = app.replay
        if view is None:
            raise ScriptError("the replay viewer is not open: a replay step first")
        if view.item.node is None:
            raise ScriptError(f"{view.item.label} cannot be played from (a lag shot)")
        view.play_from_here()
        app.step()
    elif action == "camera":
        if value not in CAMERAS:  # the rig would quietly show the overhead view
            raise ScriptError(f"a camera is one of {', '.join(CAMERAS)}, not {value!r}")
        app.step()  # the mode of the stage the last step left comes up (and sets its view)
        app.show_view(str(value))
        assert app.rig is not None
        app.rig.jump()
    elif action == "wait":
        app.step(int(value))
    elif action == "screenshot":
        app.step()
        app.screenshot(Path(value))
    elif action == "computer":
        _seat_computer(app, value)
    elif action == "wait_for_computer":
        waits = {
            True: lambda: _persons_turn(controller),
            "thinking": lambda: controller.thinking is not None,
            "showing": lambda: controller.showing is not None,
        }
        if value not in waits or (isinstance(value, int) and value is not True):
            raise ScriptError('wait_for_computer: true, "thinking" or "showing"')
        if value is not True and _persons_turn(controller):  # it would wait for ever
            raise ScriptError(f"it is a person's turn: the computer is not {value}")
        _until(app, waits[value], f"the computer did not come to {value!r}")
    elif action == "hint":
        controller.ask_hint()
        _until(app, lambda: controller.thinking is None, "the hint did not come")
        app.step()
        if controller.hint is None:
            raise ScriptError(controller.message or "no hint came")
    elif action == "layout":
        app.step()
        path = Path(value)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(on_screen(app), indent=1))
    elif action == "click":
        mouse = app.virtual_mouse()
        mouse.setMousePos(int(value[0]), int(value[1]))
        app.step()
        mouse.pressButton(MouseButton.one())
        app.step()
        mouse.releaseButton(MouseButton.one())
        app.step()
    elif action == "key":
        mouse = app.virtual_mouse()
        button = (
            KeyboardButton.asciiKey(value) if len(value) == 1 else getattr(KeyboardButton, value)()
        )
        mouse.pressButton(button)
        app.step()
        mouse.releaseButton(button)
        app.step()


def _seat_computer(app: PoolApp, value: Any) -> None:
    from sim.play.opponent.levels import level_named

    controller = _controller(app)
    if not isinstance(value, dict) or set(value) != {"seat", "level"}:
        raise ScriptError('expected {"seat": "A" or "B", "level": 1..5, "perfect" or null}')
    seat = Player(value["seat"])
    if value["level"] is None:
        controller.computers.pop(seat, None)
        return
    level = level_named(value["level"]).name
    controller.computers[seat] = level
    controller.start_thinking()


def _persons_turn(controller: Any) -> bool:
    """A person is to act (or nobody is: the match is over)."""
    return controller.stage is Stage.OVER or (
        controller.computer_level is None and controller.stage not in BUSY
    )


def _until(app: PoolApp, done: Any, failure: str) -> None:
    """Frames until ``done()`` (in real time: the computer thinks in another process)."""
    import time

    deadline = time.monotonic() + MAX_THINKING_S
    while not done():
        if time.monotonic() > deadline:
            raise ScriptError(failure)
        app.step()
        time.sleep(0.002)  # the thinker's process has the CPU it needs


def on_screen(app: PoolApp) -> dict[str, Any]:
    """Where things are in the window now, in pixels (x right, y down from the top-left):
    each pocket's centre and each ball's (None: not in front of the camera), and every
    part the HUD draws as a box [left, top, right, bottom], from its nodes' own bounds."""
    from rules import PocketId
    from sim.app.headless import world_to_pixel
    from sim.physics.table import pocket_centre

    controller = _controller(app)
    if app.hud is None or app.rig is None:
        raise ScriptError("no table on the screen")
    width, height = app.base.win.getXSize(), app.base.win.getYSize()
    spec = controller.game.setup.spec
    table = spec.build()
    pockets = {}
    for pocket in PocketId:
        x, y = pocket_centre(table, pocket)
        pockets[pocket.value] = world_to_pixel(app.base, (x, y, 0.0))
    balls = {
        ball: world_to_pixel(app.base, (x, y, spec.ball_radius))
        for ball, (x, y) in controller.balls().items()
    }
    panels = [
        {
            "name": name,
            "box": [
                (box.x0 + 1) / 2 * width,
                (1 - box.y1) / 2 * height,
                (box.x1 + 1) / 2 * width,
                (1 - box.y0) / 2 * height,
            ],
        }
        for name, box in app.hud.drawn()
    ]
    return {
        "window": [width, height],
        "camera": app.rig.preset,
        "stage": controller.stage.name.lower(),
        "folded": app.hud.folded,
        "pockets": pockets,
        "balls": balls,
        "panels": panels,
    }
