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
    {"call": ["3", "rt"]}                a call (10-ball, 8-ball): ball and pocket
    {"declare": "safety" | "push-out" | null}
    {"shoot": true}                      strike; waits until the balls stop (or
    {"shoot": "skip"}                    skips the animation to the ruling)
    {"choose": "pass"}                   the incoming player's option (8-ball's break:
                                         "rerack", "rerack-other", "kitchen", ...)
    {"take_again": true}                 take it again (Backspace, the Take it again
                                         button): the balls back as before the last
                                         shot, its stroke loaded; the first try kept
    {"replay": 2} / {"replay": null}     open the replay viewer at that entry of its
                                         shot list (0 first; null: the last shot played)
    {"play_from_here": true}             the viewer's Play from here: the table before
                                         the shot shown, its stroke loaded; a new branch
    {"practice": true}                   a practice table of this table's game (set up
    {"practice": {"game": "nine-ball",    first, the referee off); or of another game or
      "table": "8ft", "position": FILE}}  table, or set up from a position file
    {"set_up": true}                     U (or Set up): set the practice table up by
                                         hand, from the balls as they lie
    {"set_up": false}                    U again: leave the set-up, the table as it was
    {"move_ball": ["3", x, y]}           drag a ball (on the table or not) to (x, y)
    {"remove_ball": "3"}                 take a ball off the table (to the tray)
    {"add_ball": "3"}                    bring a ball back from the tray, at its spot
    {"add_ball": ["3", x, y]}            (the first free place near it), or at (x, y)
    {"rack": "nine-ball"} / {"rack": null}  a rack button: that game's rack (another
                                         game's sets up a practice table of it), or the
                                         table's own game's
    {"clear": true}                      Clear: every object ball off
    {"referee": "on" | "off"}            the set-up's referee; with the referee on,
    {"referee": {"on": true, "turn": "B", "in_hand": "kitchen" | "anywhere" | null}}
                                         whose turn and the cue ball in hand too
    {"setup_done": true}                 Done (Space): shoot from the table as set up
    {"save_position": "pos.json"}        Save position: the table as a position file
    {"save_position": null}              (null: the user data folder's positions/)
    {"tracking": true} / false           tracking lines on or off (T, the HUD's switch):
                                         the paths of the cue ball and of the first
                                         object ball, drawn while aiming once the aim
                                         rests and its preview is back
    {"drill": "stop-shot"}               open a shipped drill by name on a practice table
                                         (poolsim drill --list names them), or a drill
    {"drill": "mine.json"}               file; its attempts are ordinary shoots, each
                                         scored as its balls stop
    {"drill_again": true}                the drill's Try again: a new session, the balls back
    {"compare": 0} / {"compare": null}   the viewer's side by side with the Nth other
                                         attempt at the shot shown (0 first, as C cycles
                                         through them; null: off)
    {"replay_line": "play_on"}           the viewer's line buttons for the shot shown:
    {"replay_line": "main"}              Play on (O: the table at the end of its line),
    {"replay_line": "delete"}            Main line (V), Delete (Del, pressed twice)
    {"save": "game.poolsim"}             the menu's Save a copy: the game as it is now
    {"camera": "overhead"}               behind, overhead, broadcast
    {"wait": 30}                         frames
    {"screenshot": "out.png"}            save the window as it is now
    {"click": [px, py]}                  a mouse click at window pixels (x right, y down)
    {"key": "space"}                     a key press (Panda3D key names)
    {"layout": "out.json"}               write where the pockets, the balls and the
                                         HUD's panels are on the screen now (pixels)
    {"statistics": "Ann"}                the start screen's Statistics at Ann's figures
                                         (the table closes for the start screen, as its
                                         New game does); {"statistics": null} closes it
    {"saved_games": true}                the start screen's Open saved game (the table
    {"saved_games": 0}                   closes for it); a number: the game at that
    {"saved_games": false}               place of the list opened (0: the newest); false:
                                         Back to the start screen
    {"open_file": "pos.json"}            the saved games' Another file field: a game, a
                                         position (a practice table at it) or a drill
                                         file, each opened to its own table
    {"drills": true}                     the start screen's Drills list; a name: that
    {"drills": "stop-shot"}              drill of the list opened (for the form's first
    {"drills": false}                    player); false: Back to the start screen
    {"summary": true}                    the match summary (shown by itself when a
                                         match ends) opened; false closes it
    {"computer": {"seat": "B", "level": 3}}  the computer plays that seat from now, at
                                         level 1..5 or "perfect" (level null: a person)
    {"wait_for_computer": true}          frames until the computer has played and a
                                         person is to act (or the match is over);
                                         "thinking": until it thinks, "showing": until
                                         its stroke is on the cue, before it strokes
    {"hint": true}                       the hint (/ or ?, the Hint button): frames
                                         until the computer's stroke is on the cue
    {"offer_stalemate": true}            the person at the table offers a stalemate (O,
                                         or the menu's Offer a stalemate; GEN-16): the
                                         other person is asked; the computer answers
                                         at once, and the HUD says what it answered
    {"answer_stalemate": "agree"}        the person asked answers a stalemate offered
    {"answer_stalemate": "play_on"}      (Y / N, or the two buttons): agree and re-rack,
                                         or play on (a computer that offered plays its
                                         shot)

Steps run one after another, each when the table is ready for it (a screenshot or a
layout with tracking lines on waits for the lines of the aim as it rests); a step the
game refuses stops the script with a :class:`ScriptError` naming the step. Each action
is registered under its name in :data:`ACTIONS` with what it needs first; the actions
of a screen (the replay viewer's, the practice set-up's, the match summary's, the start
screen's and its panels') are answered by the screen up that has them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from rules import Choice, Declaration, Player
from rules.userfile import FileRefused, read_regular
from sim.play.game import GameError
from sim.play.table.controller import TableController
from sim.play.table.turn import Stage

if TYPE_CHECKING:
    from sim.app.main import PoolApp

CAMERAS = ("behind", "overhead", "broadcast")
ANSWERS = {"agree": True, "play_on": False}  # a stalemate offered: agree, or play on
BUSY = (Stage.SIMULATING, Stage.WATCH)
MAX_SCRIPT_BYTES = 2**20  # a script is a list of steps typed by hand: a few KB
MAX_WAIT_FRAMES = 60 * 120  # two minutes of frames for one step (a cold first compile)
TRACKING_WAIT_S = 30.0  # the longest a screenshot waits for tracking lines (real seconds)
MAX_THINKING_S = 600.0  # real seconds the computer may take over its turns (a slow machine)


class ScriptError(ValueError):
    """A script that cannot be read or a step the game refuses (one line)."""


@attrs.frozen
class Action:
    """What a script's action does (``run``), and what it needs first: a game on the
    table (``table``), the shot in flight finished (``settle``), the tracking lines of
    the resting aim drawn (``tracked``)."""

    run: Callable[[PoolApp, Any], None]
    table: bool = True
    settle: bool = True
    tracked: bool = False


# The registry of the script's actions, by name: each action below registers itself
# (:func:`action`); the actions of a screen are the screen's own (:func:`screen_action`).
ACTIONS: dict[str, Action] = {}


def action(
    *names: str, table: bool = True, settle: bool = True, tracked: bool = False
) -> Callable[[Callable[[PoolApp, Any], None]], Callable[[PoolApp, Any], None]]:
    """Register the function it decorates as the action(s) ``names``."""

    def register(run: Callable[[PoolApp, Any], None]) -> Callable[[PoolApp, Any], None]:
        for name in names:
            assert name not in ACTIONS, f"{name} is registered twice"
            ACTIONS[name] = Action(run, table=table, settle=settle, tracked=tracked)
        return run

    return register


def screen_action(
    name: str,
    missing: str,
    otherwise: Callable[[PoolApp, Any], None] | None = None,
    *,
    settle: bool = False,
) -> None:
    """Register ``name`` as an action of a screen up, which answers it (the one on top
    first: :meth:`sim.app.screens.base.Screen.script_actions`); the table's stage's own
    screen is brought up first, as the next frame would. With no screen up that answers
    it: ``otherwise`` (the step as the table takes it, before its screen is up), else
    ``missing`` is said. ``settle``: the shot in flight finished first."""

    def run(app: PoolApp, value: Any) -> None:
        from sim.app.screens.base import Screen  # the window's, loaded by now

        if app.controller is not None:
            app.modes.follow()  # the set-up's screen, on a table just set up
        for screen in reversed(app.modes.screens):
            actions = screen.script_actions() if isinstance(screen, Screen) else {}
            if name in actions:
                actions[name](value)
                break
        else:
            if otherwise is None:
                raise ScriptError(missing)
            otherwise(app, value)
        app.step()

    assert name not in ACTIONS, f"{name} is registered twice"
    ACTIONS[name] = Action(run, settle=settle)


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
        ((name, value),) = step.items()
        try:
            _run(app, ACTIONS[name], value)
        # LookupError: a list or a name too short or unknown ({"click": [10]}, a ball).
        except (GameError, ValueError, TypeError, LookupError, AttributeError) as error:
            raise ScriptError(f"step {index + 1} ({name}): {error}") from None


def _run(app: PoolApp, step: Action, value: Any) -> None:
    """The table made ready for ``step`` as it asks, then the step."""
    if step.table:
        _controller(app)
    if step.table and step.settle:
        _settle(app)
    if step.tracked and app.controller is not None:
        _await_tracking(app)
    step.run(app, value)


def _controller(app: PoolApp) -> TableController:
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


def _await_tracking(app: PoolApp) -> None:
    """Frames until the tracking lines of the aim as it rests are drawn, if they are on
    their way (the preview comes back from the physics in its own time, not in frames)."""
    import time

    controller = _controller(app)
    if app.modes.blocking is not None:  # the replay viewer, the menu: no lines drawn
        return
    deadline = time.monotonic() + TRACKING_WAIT_S
    while controller.preview.pending or (
        app.tracking_lines is not None
        and app.tracking_lines.showing is not controller.preview.lines
    ):
        if time.monotonic() > deadline:
            raise ScriptError("the tracking lines did not come back from the physics")
        app.step()


# -- the stroke -------------------------------------------------------------------------------


@action("breaker")
def _breaker(app: PoolApp, value: Any) -> None:
    _controller(app).lag.skip(Player(value))


@action("place")
def _place(app: PoolApp, value: Any) -> None:
    controller = _controller(app)
    x, y = float(value[0]), float(value[1])
    reason = controller.legal_placement((x, y))
    if reason is not None:
        raise GameError(f"the cue ball cannot go at ({x}, {y}): {reason}")
    controller.placement = (x, y)
    controller.confirm_placement()


@action("aim")
def _aim(app: PoolApp, value: Any) -> None:
    _controller(app).set_direction(float(value))


@action("aim_at")
def _aim_at(app: PoolApp, value: Any) -> None:
    controller = _controller(app)
    balls = controller.balls()
    point = balls[str(value)] if isinstance(value, str) else (float(value[0]), float(value[1]))
    controller.aim_at(point)


@action("power")
def _power(app: PoolApp, value: Any) -> None:
    _controller(app).set_power(float(value))


@action("tip")
def _tip(app: PoolApp, value: Any) -> None:
    _controller(app).set_tip(float(value[0]), float(value[1]))


@action("elevation")
def _elevation(app: PoolApp, value: Any) -> None:
    _controller(app).set_elevation(float(value))


@action("call")
def _call(app: PoolApp, value: Any) -> None:
    _controller(app).call_shot(str(value[0]), str(value[1]))


@action("declare")
def _declare(app: PoolApp, value: Any) -> None:
    _controller(app).declare(None if value is None else Declaration(value))


@action("shoot")
def _shoot(app: PoolApp, value: Any) -> None:
    controller = _controller(app)
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


@action("choose")
def _choose(app: PoolApp, value: Any) -> None:
    _controller(app).choose(Choice(value))


@action("offer_stalemate")
def _offer_stalemate(app: PoolApp, value: Any) -> None:
    if value is not True:
        raise ScriptError(f"offer_stalemate is true, not {value!r}")
    _controller(app).stalemate.make_offer()
    app.step()


@action("answer_stalemate")
def _answer_stalemate(app: PoolApp, value: Any) -> None:
    if value not in ANSWERS:
        raise ScriptError(f'answer_stalemate is "agree" or "play_on", not {value!r}')
    _controller(app).stalemate.answer(ANSWERS[value])
    app.step()


@action("take_again")
def _take_again(app: PoolApp, value: Any) -> None:
    _controller(app).branches.take_back()
    app.step()


@action("tracking")
def _tracking(app: PoolApp, value: Any) -> None:
    if not isinstance(value, bool):
        raise ScriptError(f"tracking is true or false, not {value!r}")
    if _controller(app).tracking != value:
        app.toggle_tracking()
    app.step()


@action("save")
def _save(app: PoolApp, value: Any) -> None:
    from sim.store.gamefile import save

    save(_controller(app).game.snapshot(), Path(value))


# -- the screens over the table -------------------------------------------------------------


@action("replay")
def _replay(app: PoolApp, value: Any) -> None:
    if app.replay is not None:
        raise ScriptError("the replay viewer is open already")
    app.open_replay(None if value is None else int(value))
    if app.replay is None:
        said = app.hud.shown_message() if app.hud is not None else ""
        raise ScriptError(said or "the replay viewer did not open")
    app.step()


NO_VIEWER = "the replay viewer is not open: a replay step first"
screen_action("play_from_here", NO_VIEWER)
screen_action("compare", NO_VIEWER)
screen_action("replay_line", NO_VIEWER)


def _open_summary(app: PoolApp, value: Any) -> None:
    """The match summary, with none up (false: nothing to close)."""
    if not value:
        return
    app.show_match_summary()
    if app.modes.screen is None or app.modes.screen.name != "match-summary":
        raise ScriptError("no match summary: the match is not over")


screen_action("summary", "", _open_summary, settle=True)


@action("drill", table=False)  # also where no table is up yet (the start screen)
def _open_drill(app: PoolApp, name: Any) -> None:
    from sim.store.drillfile import DrillFileError, drill_named, load_drill

    if app.controller is not None:
        _settle(app)
    name = str(name)
    try:
        shipped = load_drill(Path(name)) if name.endswith(".json") else drill_named(name)
    except DrillFileError as error:
        raise ScriptError(str(error)) from None
    run = app.drills.run
    if app.start_screen is not None:
        app.modes.close()
    if run is None:
        app.drills.open(shipped)
    else:
        app.drills.open(shipped, run.player)
    app.step()


def _drill_again(app: PoolApp, value: Any) -> None:
    """The menu's Try the drill again, with no drill summary up (it answers its own)."""
    if app.drills.run is None:
        raise ScriptError("no drill on the table: a drill step first")
    app.drills.again()


screen_action("drill_again", "", _drill_again, settle=True)


def start_screen_action(name: str, missing: str) -> None:
    """Register ``name`` as a step of the start screen or of its panel that is up, which
    answers it; with neither up, the table closes for the start screen (as its New game
    does) first. ``missing``: what to say when the panel up does not answer it. What it
    opens (a game, a position, a drill) is on the table when the step is done."""

    def run(app: PoolApp, value: Any) -> None:
        from sim.app.screens.base import Screen  # the window's, loaded by now

        screen = app.modes.screen
        if screen is None or screen.over_table:  # a table, and what is over it
            if value is None or value is False:  # Back, with no panel up: nothing to do
                app.step()
                return
            app.show_start_screen()
            screen = app.modes.screen
        actions = screen.script_actions() if isinstance(screen, Screen) else {}
        if name not in actions:
            raise ScriptError(missing)
        actions[name](value)
        _await_opening(app)
        app.step()

    assert name not in ACTIONS, f"{name} is registered twice"
    ACTIONS[name] = Action(run, table=False, settle=False)


def _await_opening(app: PoolApp) -> None:
    """Frames until what the start screen is opening is open (or has said why not)."""
    from sim.app.modes.base import OPENING_TASK

    for _ in range(MAX_WAIT_FRAMES):
        if not app.base.taskMgr.hasTaskNamed(OPENING_TASK):
            return
        app.step()
    raise ScriptError("the file did not open")


start_screen_action("statistics", "statistics: not on this screen")
start_screen_action("saved_games", "saved_games: from the start screen or its saved games")
start_screen_action("drills", "drills: from the start screen or its drills' list")
start_screen_action("open_file", "open_file: the saved games' field (a saved_games step first)")


# -- the window: the camera, frames, pictures, the mouse and the keys ------------------------


@action("camera", settle=False)
def _camera(app: PoolApp, value: Any) -> None:
    if value not in CAMERAS:  # the rig would quietly show the overhead view
        raise ScriptError(f"a camera is one of {', '.join(CAMERAS)}, not {value!r}")
    app.step()  # the mode of the stage the last step left comes up (and sets its view)
    app.show_view(str(value))
    assert app.rig is not None
    app.rig.jump()


@action("wait", table=False)  # a screen with no table waits too
def _wait(app: PoolApp, value: Any) -> None:
    app.step(int(value))


@action("screenshot", table=False, tracked=True)
def _screenshot(app: PoolApp, value: Any) -> None:
    app.step()
    app.screenshot(Path(value))


@action("layout", settle=False, tracked=True)
def _layout(app: PoolApp, value: Any) -> None:
    app.step()
    path = Path(value)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(on_screen(app), indent=1))


@action("click", settle=False)
def _click(app: PoolApp, value: Any) -> None:
    from panda3d.core import MouseButton

    mouse = app.virtual_mouse()
    mouse.setMousePos(int(value[0]), int(value[1]))
    app.step()
    mouse.pressButton(MouseButton.one())
    app.step()
    mouse.releaseButton(MouseButton.one())
    app.step()


@action("key", settle=False)
def _key(app: PoolApp, value: Any) -> None:
    from panda3d.core import KeyboardButton

    mouse = app.virtual_mouse()
    button = KeyboardButton.asciiKey(value) if len(value) == 1 else getattr(KeyboardButton, value)()
    mouse.pressButton(button)
    app.step()
    mouse.releaseButton(button)
    app.step()


# -- the practice table ------------------------------------------------------------------------


@action("practice")
def _open_practice(app: PoolApp, value: Any) -> None:
    """A practice table: of this table's game and size, or as ``value`` says."""
    from sim.play.game import Game
    from sim.store.positionfile import PositionFileError, load_position

    setup = _controller(app).game.setup
    options = {} if value is True else value
    if not isinstance(options, dict) or not set(options) <= {"game", "table", "position"}:
        raise ValueError('practice: true, or {"game", "table", "position"}')
    practice = attrs.evolve(
        setup,
        practice=True,
        drill="",  # a practice table, whatever table it is opened from
        race_to=1,
        options=attrs.evolve(  # practice is untimed
            setup.options,
            shot_clock_s=None,
            shot_clock_extension_s=None,
            shot_clock_extensions_per_rack=0,
        ),
        game=str(options.get("game", setup.game)),
        table=str(options.get("table", setup.table.value)),
    )
    game = Game(practice)
    if "position" in options:
        try:
            position = load_position(Path(options["position"]))
        except PositionFileError as error:
            raise GameError(str(error)) from None
        game.set_up(position)
    app.play(game)
    app.step()


@action("save_position")
def _save_position(app: PoolApp, value: Any) -> None:
    """The set-up panel's and the menu's Save position, from any moment of the table."""
    app.practice.save_position(None if value is None else Path(value))
    app.step()


def _begin_set_up(app: PoolApp, value: Any) -> None:
    """U from the table (true; false: no set-up to leave), before the set-up's screen."""
    controller = _controller(app)
    if value is False:
        controller.set_up.cancel()
    else:
        controller.set_up.begin()


def _set_up_first(app: PoolApp, value: Any) -> None:
    """A rack from the table: U first, then the set-up's screen racks."""
    _controller(app).set_up.begin()
    ACTIONS["rack"].run(app, value)


# The set-up's own steps, answered by its screen (sim.app.screens.setup).
NOT_SET_UP = "the table is not being set up: set it up first"
screen_action("set_up", NOT_SET_UP, _begin_set_up, settle=True)
screen_action("rack", NOT_SET_UP, _set_up_first, settle=True)
for _name in ("move_ball", "remove_ball", "add_ball", "clear", "referee", "setup_done"):
    screen_action(_name, NOT_SET_UP, settle=True)


# -- the computer ---------------------------------------------------------------------------------


@action("computer", settle=False)
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
    controller.seat.start()


@action("wait_for_computer", settle=False)
def _wait_for_computer(app: PoolApp, value: Any) -> None:
    controller = _controller(app)
    waits = {
        True: lambda: _persons_turn(controller),
        "thinking": lambda: controller.seat.thinking is not None,
        "showing": lambda: controller.seat.showing is not None,
    }
    if value not in waits or (isinstance(value, int) and value is not True):
        raise ScriptError('wait_for_computer: true, "thinking" or "showing"')
    if value is not True and _persons_turn(controller):  # it would wait for ever
        raise ScriptError(f"it is a person's turn: the computer is not {value}")
    _until(app, waits[value], f"the computer did not come to {value!r}")


@action("hint")
def _hint(app: PoolApp, value: Any) -> None:
    controller = _controller(app)
    controller.seat.ask_hint()
    _until(app, lambda: controller.seat.thinking is None, "the hint did not come")
    app.step()
    if controller.seat.hint is None:
        raise ScriptError(controller.message or "no hint came")


def _persons_turn(controller: TableController) -> bool:
    """A person is to act (or nobody is: the match is over)."""
    return controller.stage is Stage.OVER or (
        controller.computer_level is None and controller.stage not in BUSY
    )


def _until(app: PoolApp, done: Callable[[], bool], failure: str) -> None:
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
    table = spec.plan()
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
