"""An impatient player, fuzzed: the desktop table driven headless (EGL) by random but
seeded sequences of its real inputs (mouse moves, clicks anywhere, drags with each
button, the wheel, every bound key, the menu, the start screen and its saved-games
panel, the replay viewer, window resizes), at any moment: while a shot is simulated or
plays out, in the replay viewer, with the menu open, during ball in hand, at the
incoming player's choice, at match over, right after New game.

After every frame the invariants hold: no exception escaped a task (``app.step``
raises them), the controller's stage agrees with the game and the referee's state, the
game's steps (in every branch: a take-back or a play from here shortens only the line
in play) only grow, the HUD says what to do when a player must act, and the autosave
reads back (``sim.store.gamefile.load``) with as many steps and the same line in play.

The physics is the worker fixture's, paced (:class:`PacedWorker`): each struck shot
comes back a seeded number of frames later, so a seed is one sequence of inputs *and*
of game states, whatever the machine's speed. The regression tests at the bottom are
the failures the fuzzer found, each reduced to a few deterministic steps.
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from panda3d.core import KeyboardButton, MouseButton

from rules import CUE, MatchPhase, Options, Player
from rules.offered import shot_clock_fields
from sim.app.headless import world_to_pixel
from sim.app.hud.texts import prompt
from sim.app.main import PoolApp
from sim.app.screens.menu import GameMenu
from sim.app.screens.start import StartScreen
from sim.app.screens.start.savedgames import SavedGamesScreen
from sim.physics.simulators.simulator import ShotFailed, ShotRequest, ShotResult
from sim.physics.simulators.worker import PhysicsWorker
from sim.physics.table import pocket_centre
from sim.play.game import Game, GameError, GameSetup
from sim.play.selfplay import play_racks
from sim.play.table.turn import Stage
from sim.store.autosave import Autosave
from sim.store.gamefile import load
from tests.app.test_table_app import after_break, press

pytestmark = pytest.mark.app

# -- the physics, paced ------------------------------------------------------------------


class PacedWorker:
    """The worker fixture with a deterministic delay: a struck shot's result is handed
    over ``delay()`` polls (frames) after the stroke, waiting for the real worker if it
    is not done by then. Previews pass through (they only make a shot start sooner)."""

    def __init__(self, inner: PhysicsWorker, delay: Callable[[], int]) -> None:
        self.inner = inner
        self.delay = delay
        self.polls = 0
        self.due: dict[int, int] = {}  # job -> the poll it is handed over at
        self.done: dict[int, ShotResult] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def shoot(self, request: ShotRequest) -> int:
        job = self.inner.shoot(request)
        self.due[job] = self.polls + self.delay()
        return job

    def poll(self) -> list[Any]:
        self.polls += 1
        replies: list[Any] = list(self.inner.poll())
        for job, due in list(self.due.items()):
            if due > self.polls:
                continue
            del self.due[job]
            deadline = time.monotonic() + 120.0
            while time.monotonic() < deadline:
                result = self.inner.result(job)
                if result is not None:
                    self.done[job] = result
                    break
                if any(isinstance(r, ShotFailed) and r.job == job for r in replies):
                    break  # passed on: the controller abandons the stroke
                time.sleep(0.002)
                replies += self.inner.poll()
        return replies

    def result(self, job: int) -> ShotResult | None:
        if job in self.due:
            return None
        return self.done.pop(job, None) or self.inner.result(job)

    def forget(self, jobs: Iterable[int]) -> None:
        """A game left the table mid-shot: nobody waits for these any more."""
        jobs = list(jobs)
        for job in jobs:
            self.due.pop(job, None)
            self.done.pop(job, None)
        self.inner.forget(jobs)


# -- input --------------------------------------------------------------------------------

SPECIAL_KEYS: dict[str, Callable[[], Any]] = {
    "space": KeyboardButton.space,
    "enter": KeyboardButton.enter,
    "escape": KeyboardButton.escape,
    "arrow_left": KeyboardButton.left,
    "arrow_right": KeyboardButton.right,
    "arrow_up": KeyboardButton.up,
    "arrow_down": KeyboardButton.down,
    "page_up": KeyboardButton.pageUp,
    "page_down": KeyboardButton.pageDown,
    "backspace": KeyboardButton.backspace,
}
# Every key the table, the replay viewer and the menu bind (sim/app/main.py, replay.py).
KEYS = [*SPECIAL_KEYS, *"ijkledspbghrx123m[]-=+tc"]
BUTTONS = {"mouse1": MouseButton.one, "mouse2": MouseButton.two, "mouse3": MouseButton.three}


def steps(game: Game) -> int:
    """Every step of a game, in every branch."""
    return sum(1 for node in game.root.nodes() if node.record is not None)


def _uncounted(line: str) -> str:
    """A prompt without the seconds of a thinking counter ("thinking… 12 s")."""
    return re.sub(r"thinking… \d+ s", "thinking…", line)


def key_button(name: str) -> Any:
    return SPECIAL_KEYS[name]() if name in SPECIAL_KEYS else KeyboardButton.asciiKey(name)


def quiet_exits(monkeypatch: pytest.MonkeyPatch, seed: int) -> list[str]:
    """The menu's Quit and the start screen's (its button, or Esc) only note that they
    were asked (they would stop the shared worker and end the process); New game on the
    start screen draws its rack from ``seed``."""
    quits: list[str] = []
    monkeypatch.setattr(GameMenu, "quit", lambda self: quits.append("quit"))
    monkeypatch.setattr(StartScreen, "quit", lambda self: quits.append("quit"))
    seeds = random.Random(seed)
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(seeds.random()))
    return quits


class Fuzzer:
    """Drives ``app`` with inputs drawn from ``rng`` and checks the invariants after
    every frame; ``log`` is what it did, for a failure's report."""

    def __init__(self, app: PoolApp, rng: random.Random, autosave: Autosave) -> None:
        self.app = app
        self.rng = rng
        self.autosave = autosave
        self.mouse = app.virtual_mouse()
        self.width, self.height = app.base.win.getXSize(), app.base.win.getYSize()
        self.records: dict[int, int] = {}  # id(game) -> steps seen (in every branch)
        self.saved: tuple[int, int] = (-1, -1)  # steps and changes at the last autosave check
        self.log: list[str] = []
        self.frames = 0
        self.stages: set[str] = set()
        self.aspect_faked: float | None = None
        self.last: tuple[int, Stage, bool] | None = None  # game, stage, table had input

    # -- frames and invariants -----------------------------------------------------------

    def frame(self, count: int = 1) -> None:
        for _ in range(count):
            self.app.step()
            self.frames += 1
            self.check()

    def check(self) -> None:
        app = self.app
        where = f"after {self.log[-8:]}"
        if app.start_screen is not None:
            assert app.controller is None and app.hud is None and app.menu is None, where
            return
        controller = app.controller
        if controller is None:
            return
        game = controller.game
        # A shot taken back, or a shot played from in the replay, leaves the line in play
        # shorter; no step of any branch is ever lost.
        count = steps(game)
        assert count >= self.records.get(id(game), 0), f"steps lost {where}"
        stage = controller.stage
        self.stages.add(f"{game.setup.game}:{stage.value}")
        # Away from the table (the menu, the replay viewer), the game only goes on by
        # itself: a shot in flight lands and plays out; no stroke, placement or choice.
        away = app.menu is not None or app.replay is not None
        last, self.last = self.last, (id(game), stage, not away)
        if away and last is not None and last[0] == id(game) and not last[2]:
            moving = (Stage.SIMULATING, Stage.WATCH)
            assert stage is last[1] or last[1] in moving, f"{last[1]} -> {stage} {where}"
            assert last[1] is Stage.SIMULATING or count == self.records[id(game)], where
        self.records[id(game)] = count
        state = controller.state
        assert (stage is Stage.OVER) == (game.phase is MatchPhase.OVER), where
        if stage is Stage.WATCH:
            assert controller.watching is not None
            assert controller.watching.record in game.records, where
        if stage is Stage.SIMULATING:
            assert controller.waiting is not None, where
        if stage in (Stage.PLACE, Stage.AIM, Stage.CHOOSE):
            assert state is not None and game.phase is MatchPhase.RACK, where
            others = {b: p for b, p in controller.balls().items() if b != CUE}
            assert others == {b: p for b, p in state.balls.items() if b != CUE}, where
        if stage is Stage.CHOOSE:
            assert state is not None and state.pending is not None, where
        if stage is Stage.PLACE:
            assert state is not None and state.ball_in_hand is not None, where
            assert state.pending is None, where
        left = controller.shot_clock.left()
        if left is not None:  # never more than the limit, with the extension if taken
            assert state is not None and state.options.shot_clock_s is not None
            limit = state.options.shot_clock_s + (state.options.shot_clock_extension_s or 0)
            assert left <= limit + 1e-6, f"shot clock {left} {where}"
        if stage is Stage.AIM:
            assert state is not None and state.pending is None, where
            assert controller.cue_ball() is not None, where
            if state.ball_in_hand is not None:
                assert controller.placed and controller.placement is not None, where
                assert controller.legal_placement(controller.placement) is None, where
        hud = app.hud
        assert hud is not None, where
        if app.replay is not None:
            assert hud.root.isHidden(), where
        elif stage is not Stage.WATCH:
            # Whoever must act is told what to do, in the words the controller implies.
            # (the thinking's seconds count on between the HUD's frame and this check)
            text = _uncounted(hud.prompt.getText())
            assert text and _uncounted(prompt(controller)) in text, f"prompt {text!r} {where}"
            assert hud.title.getText(), where
            if stage in (Stage.CHOOSE, Stage.BREAKER, Stage.OVER):
                assert hud.choice_buttons and not hud.choice_frame.isHidden(), where
        if (count, game.changes) != self.saved and stage is not Stage.SIMULATING:
            self.check_autosave(controller)

    def check_autosave(self, controller: Any) -> None:
        controller.flush()
        game = controller.game
        count = steps(game)
        path = self.autosave.path
        if count:
            assert path.is_file(), f"{count} steps but no autosave, after {self.log[-8:]}"
            saved = load(path)
            assert steps(saved) == count, f"autosave behind, after {self.log[-8:]}"
            assert len(saved.records) == len(game.records), f"line in play, {self.log[-8:]}"
        self.saved = (count, game.changes)

    # -- where things are --------------------------------------------------------------------

    def aspect2d_pixel(self, x: float, y: float) -> tuple[int, int]:
        aspect = self.app.base.getAspectRatio()
        return (int((x / aspect + 1) / 2 * self.width), int((1 - y) / 2 * self.height))

    def widgets(self) -> list[Any]:
        """The DirectGUI buttons and the like showing now."""
        app, found = self.app, []
        if app.hud is not None:
            hud = app.hud
            found += [*hud.buttons.values(), *hud.camera_buttons, *hud.choice_buttons]
        if app.menu is not None:
            found += app.menu.buttons
            if app.menu.path is not None:
                found.append(app.menu.path)
        if app.start_screen is not None:
            start = app.start_screen
            found += start.buttons
            found += [start.fields[k] for k in ("race_to", "player_a", "player_b")]
        screen = app.modes.screen
        if isinstance(screen, SavedGamesScreen):  # the start screen's, in its place
            panel = screen.panel
            found += [*panel.rows, panel.previous, panel.next, panel.back, panel.path]
        if app.replay is not None:
            found += [*app.replay.shot_buttons, app.replay.slider, app.replay.compare_button]
        return [w for w in found if not w.isEmpty() and not w.isHidden()]

    def target(self) -> tuple[int, int]:
        """A pixel worth clicking: a ball, a pocket, a widget, the HUD's meters, or any."""
        app, rng = self.app, self.rng
        kind = rng.choice(
            ["any", "any", "ball", "ball", "pocket", "widget", "widget", "widget", "hud"]
        )
        controller = app.controller
        if kind == "ball" and controller is not None and app.scene is not None:
            balls = controller.balls()
            if balls:
                ball = rng.choice(sorted(balls))
                radius = controller.game.setup.spec.ball_radius
                x, y = balls[ball]
                where = world_to_pixel(app.base, (x, y, radius))
                if where is not None:
                    return where
        if kind == "pocket" and controller is not None:
            table = controller.game.setup.spec.build()
            pockets = sorted(table.pockets)
            x, y = pocket_centre(table, rng.choice(pockets))
            where = world_to_pixel(app.base, (x, y, 0.03))
            if where is not None:
                return where
        if kind == "widget":
            widgets = self.widgets()
            if widgets:
                widget = rng.choice(widgets)
                pos = widget.getPos(app.base.aspect2d)
                return self.aspect2d_pixel(float(pos[0]), float(pos[2]))
        if kind == "hud" and app.hud is not None:
            x, y, w, h = app.hud.power_meter
            cx, cy, r = app.hud.tip_widget
            if rng.random() < 0.5:
                return self.aspect2d_pixel(x + w / 2, y + rng.random() * h)
            return self.aspect2d_pixel(cx + rng.uniform(-r, r), cy + rng.uniform(-r, r))
        return (rng.randrange(self.width), rng.randrange(self.height))

    # -- actions -------------------------------------------------------------------------------

    def move(self) -> None:
        where = self.target()
        self.log.append(f"move {where}")
        self.mouse.setMousePos(*where)
        self.frame()

    def click(self, button: str = "mouse1") -> None:
        where = self.target()
        self.log.append(f"click {button} {where}")
        self.mouse.setMousePos(*where)
        self.frame()
        self.mouse.pressButton(BUTTONS[button]())
        self.frame()
        self.mouse.releaseButton(BUTTONS[button]())
        self.frame()

    def drag(self) -> None:
        button = self.rng.choice(list(BUTTONS))
        start, end = self.target(), self.target()
        steps = self.rng.randint(1, 6)
        shift = self.rng.random() < 0.2
        self.log.append(f"drag {button} {start}->{end} in {steps}{' shift' if shift else ''}")
        self.mouse.setMousePos(*start)
        self.frame()
        if shift:
            self.mouse.pressButton(KeyboardButton.shift())
        self.mouse.pressButton(BUTTONS[button]())
        self.frame()
        for i in range(1, steps + 1):
            x = start[0] + (end[0] - start[0]) * i // steps
            y = start[1] + (end[1] - start[1]) * i // steps
            self.mouse.setMousePos(x, y)
            self.frame()
        self.mouse.releaseButton(BUTTONS[button]())
        if shift:
            self.mouse.releaseButton(KeyboardButton.shift())
        self.frame()

    def wheel(self) -> None:
        where = self.target()
        up = self.rng.random() < 0.5
        self.log.append(f"wheel {'up' if up else 'down'} {where}")
        self.mouse.setMousePos(*where)
        self.frame()
        button = MouseButton.wheelUp() if up else MouseButton.wheelDown()
        self.mouse.pressButton(button)
        self.mouse.releaseButton(button)
        self.frame()

    def key(self, name: str | None = None) -> None:
        name = name or self.rng.choice(KEYS)
        shift = self.rng.random() < 0.1
        self.log.append(f"key {'shift-' if shift else ''}{name}")
        if shift:
            self.mouse.pressButton(KeyboardButton.shift())
        button = key_button(name)
        self.mouse.pressButton(button)
        self.frame()
        if self.rng.random() < 0.2:  # held: the key repeats... as far as a frame goes
            self.frame(self.rng.randint(1, 5))
        self.mouse.releaseButton(button)
        if shift:
            self.mouse.releaseButton(KeyboardButton.shift())
        self.frame()

    def wait(self) -> None:
        frames = self.rng.choice([1, 2, 5, 10, 30, 60])
        self.log.append(f"wait {frames}")
        self.frame(frames)

    def play_on(self) -> None:
        """What a player mostly does: at the table, click the lowest ball (aim, and the
        call's ball), maybe its pocket, and shoot; in hand, click a spot; choose."""
        app, rng = self.app, self.rng
        controller = app.controller
        if controller is None or app.menu is not None or app.replay is not None:
            self.key(rng.choice(["escape", "space"]))
            return
        stage, state = controller.stage, controller.state
        self.log.append(f"play_on at {stage.value}")
        if stage is Stage.PLACE:
            self.click()
        elif stage is Stage.AIM and state is not None and state.lowest is not None:
            radius = controller.game.setup.spec.ball_radius
            x, y = state.balls[state.lowest]
            where = world_to_pixel(app.base, (x, y, radius))
            if where is not None:
                self.mouse.setMousePos(*where)
                self.frame()
                self.mouse.pressButton(MouseButton.one())
                self.frame()
                self.mouse.releaseButton(MouseButton.one())
                self.frame()
            if rng.random() < 0.5:
                self.click()  # a pocket, maybe
            self.key("space")
        elif stage in (Stage.CHOOSE, Stage.BREAKER, Stage.OVER) and app.hud is not None:
            centres = app.hud.choice_button_centres()
            if centres:
                self.mouse.setMousePos(*self.aspect2d_pixel(*rng.choice(centres)))
                self.frame()
                self.mouse.pressButton(MouseButton.one())
                self.frame()
                self.mouse.releaseButton(MouseButton.one())
                self.frame()
        else:
            self.key("space")

    def start_form(self) -> None:
        """On the start screen, pick another game or who breaks (the drop-downs)."""
        start = self.app.start_screen
        if start is None:
            self.key()
            return
        field, value = self.rng.choice(
            [
                ("game", "10-ball"),
                ("game", "61-point rotation"),
                ("breaker", "Player 1 breaks"),
                ("breaker", "Lag for it"),
                ("race_to", "1"),
                ("race_to", "x"),
            ]
        )
        self.log.append(f"form {field}={value}")
        if field == "race_to":
            start.fields[field].enterText(value)
        else:
            start.fields[field].set(value)
        self.frame()

    def resize(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A window-event of another shape (and, the next time, back to the real one)."""
        base = self.app.base
        if self.aspect_faked is None:
            aspect = float(base.getAspectRatio()) * self.rng.choice([0.7, 1.3])
            self.aspect_faked = aspect
            monkeypatch.setattr(base, "getAspectRatio", lambda *_: aspect)
        else:
            self.aspect_faked = None
            monkeypatch.undo()
        self.log.append(f"resize {self.aspect_faked}")
        self.app.window_changed(base.win)
        self.frame()

    def run(self, actions: int, monkeypatch: pytest.MonkeyPatch) -> None:
        rng = self.rng
        choices: list[tuple[float, Callable[[], None]]] = [
            (3, self.move),
            (12, self.click),
            (2, lambda: self.click("mouse3")),
            (1, lambda: self.click("mouse2")),
            (4, self.drag),
            (3, self.wheel),
            (14, self.key),
            (3, lambda: self.key("escape")),
            (5, self.wait),
            (12, self.play_on),
            (2, self.start_form),
            (1, lambda: self.resize(monkeypatch)),
        ]
        weights = [w for w, _ in choices]
        for _ in range(actions):
            action = rng.choices([a for _, a in choices], weights)[0]
            action()
        if self.aspect_faked is not None:
            self.resize(monkeypatch)


# -- the fuzz runs ---------------------------------------------------------------------------


def new_game(game: str, seed: int, race_to: int = 2) -> Game:
    """Rotation with a shot clock (35 s and an extension), 10-ball without."""
    clock = shot_clock_fields(35.0 if game == "rotation" else None)
    setup = GameSetup(
        game=game,
        race_to=race_to,
        seed=seed,
        players=("Ann", "Bob"),
        options=Options.from_mapping(clock),
    )
    played = Game(setup)
    played.start(Player.A)
    return played


def game_at_match_over(seed: int) -> Game:
    """A race to 1 of 10-ball played to its end by the built-in player."""
    for attempt in range(10):
        game = new_game("ten-ball", seed + attempt, race_to=1)
        play_racks(game, 1, random.Random(seed + attempt), max_records_per_rack=60)
        if game.phase is MatchPhase.OVER:
            return game
    pytest.fail("no rack won in 10 tries")


@pytest.fixture
def fuzz_table(table: PoolApp, tmp_path: Path) -> Iterator[PoolApp]:
    """The table on a paced worker, autosaving into ``tmp_path``, a broken file among
    its saved games."""
    real = table.worker
    paced = PacedWorker(real, lambda: 0)
    table.worker = paced  # type: ignore[assignment]
    table.autosave = Autosave(tmp_path / "autosave.poolsim")
    table.autosave.saved_dir.mkdir(parents=True)
    (table.autosave.saved_dir / "broken.poolsim").write_bytes(b"not a zip")
    yield table
    table.worker = real


def fuzz(
    app: PoolApp, game: Game | None, seed: int, actions: int, monkeypatch: pytest.MonkeyPatch
) -> Fuzzer:
    rng = random.Random(seed)
    worker = app.worker
    assert isinstance(worker, PacedWorker)
    worker.delay = lambda: rng.choice([0, 1, 3, 10, 40])
    autosave = app.autosave
    assert autosave is not None
    fuzzer = Fuzzer(app, rng, autosave)
    if game is None:
        app.show_start_screen()
    else:
        app.play(game)
    fuzzer.frame(2)
    with monkeypatch.context() as resizes:
        fuzzer.run(actions, resizes)
    if app.controller is not None:
        fuzzer.check_autosave(app.controller)
    return fuzzer


# More seeds to explore with: POOLSIM_FUZZ_SEEDS=10,11,12 (each plays all three starts).
EXTRA_SEEDS = [int(s) for s in os.environ.get("POOLSIM_FUZZ_SEEDS", "").split(",") if s.strip()]
RUNS = [("ten-ball", 1), ("rotation", 2), ("start-screen", 3)] + [
    (name, seed) for seed in EXTRA_SEEDS for name in ("ten-ball", "rotation", "start-screen")
]


@pytest.mark.parametrize(("game_name", "seed"), RUNS)
def test_an_impatient_player(
    fuzz_table: PoolApp, monkeypatch: pytest.MonkeyPatch, game_name: str, seed: int
) -> None:
    quiet_exits(monkeypatch, seed)
    game = None if game_name == "start-screen" else new_game(game_name, seed)
    actions = 150 if game else 120
    fuzzer = fuzz(fuzz_table, game, seed, actions, monkeypatch)
    assert fuzzer.frames > actions  # every action ran, each for a frame or more


def test_an_impatient_player_at_match_over(
    fuzz_table: PoolApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    quiet_exits(monkeypatch, 4)
    fuzz(fuzz_table, game_at_match_over(4), 4, 60, monkeypatch)


# -- what the fuzzer found, reduced ------------------------------------------------------------


def click_widget(app: PoolApp, widget: Any) -> None:
    """A left click on the middle of a DirectGUI widget."""
    x, _, y = widget.getPos(app.base.aspect2d)
    width, height = app.base.win.getXSize(), app.base.win.getYSize()
    aspect = app.base.getAspectRatio()
    mouse = app.virtual_mouse()
    mouse.setMousePos(int((x / aspect + 1) / 2 * width), int((1 - y) / 2 * height))
    app.step()
    mouse.pressButton(MouseButton.one())
    app.step()
    mouse.releaseButton(MouseButton.one())
    app.step()


@pytest.mark.parametrize("resized", [False, True])
def test_the_menu_takes_the_huds_buttons_away_too(
    table: PoolApp, monkeypatch: pytest.MonkeyPatch, resized: bool
) -> None:
    """With the menu open the keys do nothing at the table, and neither does a click on
    the HUD's Shoot button beside the menu (it struck the shot), also on a HUD laid out
    again for a resized window while the menu is open."""
    table.play(after_break(70))
    table.step(2)
    controller = table.controller
    assert controller is not None and controller.stage is Stage.AIM
    table.open_menu()
    if resized:
        aspect = table.base.getAspectRatio() + 0.01
        monkeypatch.setattr(table.base, "getAspectRatio", lambda *_: aspect)
        table.window_changed(table.base.win)
        table.step()
    hud = table.hud
    assert hud is not None and not hud.buttons["shoot"].isHidden()
    click_widget(table, hud.buttons["shoot"])
    table.step(3)
    assert controller.stage is Stage.AIM and controller.waiting is None
    menu = table.menu
    assert menu is not None
    click_widget(table, menu.buttons[0])  # Resume: the menu's own buttons still work
    assert table.menu is None
    click_widget(table, hud.buttons["shoot"])
    assert controller.stage in (Stage.SIMULATING, Stage.WATCH)


def test_opening_a_saved_game_keeps_the_autosaved_one(table: PoolApp, tmp_path: Path) -> None:
    """The unfinished autosaved game was overwritten by the first shot of a game opened
    from the saved games (lost); and until then the autosave was not the game on the
    table. Now the opened game is autosaved at once and the other one archived."""
    autosave = table.autosave = Autosave(tmp_path / "autosave.poolsim")
    unfinished = after_break(90)
    autosave.save(unfinished)
    other = after_break(110)
    opened = tmp_path / "other.poolsim"
    Autosave(opened).save(other)
    table.show_start_screen()
    start = table.start_screen
    assert start is not None
    start.open_saved().opener.open_path(opened)  # the saved games' field
    table.step(3)  # said, then read
    controller = table.controller
    assert controller is not None
    controller.flush()
    assert len(load(autosave.path).records) == len(other.records)
    (archived,) = autosave.saved_dir.glob("game-*.poolsim")
    assert len(load(archived).records) == len(unfinished.records)


def test_a_new_game_with_its_breaker_chosen_is_autosaved_at_once(
    table: PoolApp, tmp_path: Path
) -> None:
    """No lag: the breaker is agreed, a step the autosave had only after the break (Resume
    last game was not offered until then)."""
    autosave = table.autosave = Autosave(tmp_path / "autosave.poolsim")
    table.show_start_screen()
    start = table.start_screen
    assert start is not None
    start.fields["breaker"].set("Player 1 breaks")
    start.start()
    controller = table.controller
    assert controller is not None and controller.stage is Stage.PLACE
    controller.flush()
    assert len(load(autosave.path).records) == 1


def test_resumed_or_only_replayed_the_autosave_stays(table: PoolApp, tmp_path: Path) -> None:
    """The autosaved game resumed is not archived as if it were another; a game opened to
    be replayed (``poolsim replay``) leaves the autosave alone until it is played on."""
    autosave = table.autosave = Autosave(tmp_path / "autosave.poolsim")
    unfinished = after_break(90)
    autosave.save(unfinished)
    table.play(autosave.resume(), resumed=True)
    controller = table.controller
    assert controller is not None
    controller.set_power(0.2)
    controller.strike()
    wait_until(table, lambda: controller.stage is Stage.WATCH)
    controller.flush()
    assert not autosave.saved_dir.exists()  # nothing archived
    assert len(load(autosave.path).records) == len(unfinished.records) + 1
    table.play(after_break(110), save=False)
    assert table.controller is not None
    table.controller.flush()
    assert len(load(autosave.path).records) == len(unfinished.records) + 1


def wait_until(app: PoolApp, done: Callable[[], bool], frames: int = 60 * 60) -> None:
    for _ in range(frames):
        if done():
            return
        app.step()
    pytest.fail("waited in vain")


def test_scripts_refuse_bad_steps_in_one_line(table: PoolApp) -> None:
    """A click with one coordinate escaped as an IndexError (a traceback from ``poolsim
    play --script``), an unknown camera was quietly the overhead one, and a shot with
    the cue ball still in hand said only "not ready to shoot"."""
    from sim.app.script import ScriptError, run_script

    table.play(new_game("ten-ball", 5))
    table.step(2)
    with pytest.raises(ScriptError, match=r"step 1 \(click\)"):
        run_script(table, [{"click": [10]}])
    with pytest.raises(ScriptError, match="a camera is one of behind, overhead, broadcast"):
        run_script(table, [{"camera": "sideways"}])
    with pytest.raises(ScriptError, match="the cue ball is in hand: put it down first"):
        run_script(table, [{"shoot": True}])


def test_typing_an_m_into_a_text_field_is_a_letter(
    table: PoolApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """M toggles the sound everywhere, and did so too while a player typed a name with
    an M (or a path in the menu's Save a copy) into a text field."""
    toggles: list[bool] = []
    monkeypatch.setattr(table.sounds, "available", True)
    monkeypatch.setattr(type(table.sounds), "toggle", lambda self: toggles.append(True) or True)
    table.show_start_screen()
    table.step(2)
    start = table.start_screen
    assert start is not None
    click_widget(table, start.fields["player_a"])  # the name field has the focus
    press(table, KeyboardButton.asciiKey("m"))
    assert toggles == []
    start.fields["breaker"].set("Player 1 breaks")
    start.start()
    table.step(2)
    press(table, KeyboardButton.asciiKey("m"))  # at the table: the sound key
    assert toggles == [True]
    table.open_menu()
    menu = table.menu
    assert menu is not None
    menu.save_copy()  # the path field, focused
    press(table, KeyboardButton.asciiKey("m"))
    assert toggles == [True]


def test_space_again_while_the_physics_works_is_no_error(table: PoolApp) -> None:
    """An impatient double Space: the second one, while the shot was being simulated,
    was refused in red ("not ready to shoot"), left on screen as the shot played out."""
    table.worker = PacedWorker(table.worker, lambda: 5)  # type: ignore[assignment]
    table.play(after_break(70))
    table.step(2)
    controller = table.controller
    assert controller is not None and controller.stage is Stage.AIM
    press(table, KeyboardButton.space())
    assert controller.stage is Stage.SIMULATING
    press(table, KeyboardButton.space())
    assert controller.message == "" and table.hud.shown_message() == ""
    table.worker = table.worker.inner  # type: ignore[attr-defined]


def test_a_click_on_the_cue_ball_widget_in_hand_does_not_put_it_down(table: PoolApp) -> None:
    """With the cue ball in hand, a click on the HUD's cue-ball widget put the cue ball
    down on the table hidden under the widget."""
    table.play(new_game("ten-ball", 5))
    table.step(3)
    controller, hud = table.controller, table.hud
    assert controller is not None and hud is not None and controller.stage is Stage.PLACE
    cx, cy, _ = hud.tip_widget
    mouse = table.virtual_mouse()
    width, height = table.base.win.getXSize(), table.base.win.getYSize()
    aspect = table.base.getAspectRatio()
    mouse.setMousePos(int((cx / aspect + 1) / 2 * width), int((1 - cy) / 2 * height))
    table.step()
    assert table.table_point() is not None  # the table is there, under the widget
    mouse.pressButton(MouseButton.one())
    table.step()
    mouse.releaseButton(MouseButton.one())
    table.step()
    assert controller.stage is Stage.PLACE


def test_space_at_match_over_says_the_match_is_over(table: PoolApp) -> None:
    table.play(game_at_match_over(4))
    table.step(2)
    controller = table.controller
    assert controller is not None and controller.stage is Stage.OVER
    with pytest.raises(GameError, match="the match is over"):
        controller.strike()
