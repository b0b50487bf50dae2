"""The layout test (issue 28): every text of every screen a script can reach, on four
window shapes (a common laptop's, an old 4:3's, an ultrawide's and a window snapped to
half a screen, taller than wide), is inside the window and inside its panel, and over
no other text or control. The screens are walked from the scene graph
(:mod:`tests.app.screen_parts`), not by name.

One ShowBase serves every test (its offscreen buffer keeps its size): a shape is the
window's aspect ratio given to Panda3D as a resize gives it, which is all the 2D layout
depends on (aspect2d's units follow the shape, not the pixels).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from direct.showbase.ShowBase import ShowBase

from rules import Player, Rotation
from rules.figures import OwnFigure, points_scored
from sim.app.main import PoolApp
from sim.app.screens.replay import HELP_TEXT
from sim.app.script import run_script
from sim.physics.simulators.simulator import Progress
from sim.physics.simulators.worker import PhysicsWorker
from sim.play.game import Game, GameSetup
from sim.play.table.turn import Stage
from sim.store.autosave import Autosave
from sim.store.drillfile import drill_named
from sim.store.gamefile import load
from tests.app.conftest import step
from tests.app.screen_parts import problems
from tests.app.test_straight_pool_app import LAST_TWO, POT_THE_FIVE, set_up
from tests.run import ROOT

pytestmark = pytest.mark.app

GAMES = ROOT / "tests" / "data" / "games"
SHAPES = {
    "1280x800": 1280 / 800,
    "800x600": 800 / 600,
    "2560x1080": 2560 / 1080,  # wide
    "960x1080": 960 / 1080,  # narrow: half a 1080p screen
}
NOTICE = "saved /home/someone/poolsim/saved/Ann-v-Bob-2026-12-06-0215.poolsim"


class Warming:
    """A physics worker in its first warm-up, a minute and a quarter in: the start
    screen's status line at its longest."""

    ready = False

    def __init__(self) -> None:
        self.progress = Progress(3, 12, "compiling", True, time.monotonic() - 75)

    def poll(self) -> None:
        pass


@pytest.fixture(params=list(SHAPES))
def shaped(
    request: pytest.FixtureRequest,
    app_base: ShowBase,
    worker: PhysicsWorker,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[PoolApp]:
    """A window of the shape ``request.param`` with no game, its data in ``tmp_path``."""
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path))
    original = app_base.getAspectRatio()
    set_shape(app_base, SHAPES[request.param], monkeypatch)
    autosave = Autosave(tmp_path / "autosave.poolsim")
    app = PoolApp(app_base, None, worker=worker, realtime=False, autosave=autosave)
    yield app
    app.destroy()
    monkeypatch.undo()
    app_base.adjustWindowAspectRatio(original)


def set_shape(base: ShowBase, aspect: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """The window's shape as a resize tells Panda3D (the buffer keeps its pixels)."""
    monkeypatch.setattr(base, "getAspectRatio", lambda win=None: aspect)
    base.adjustWindowAspectRatio(aspect)


class Walk:
    """The screens visited, and what is wrong on each."""

    def __init__(self, app: PoolApp) -> None:
        self.app = app
        self.found: list[str] = []

    def check(self, where: str, frames: int = 2) -> None:
        step(self.app.base, frames)
        self.found += [f"{where}: {line}" for line in problems(self.app.base)]


def _saved_games(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for path in GAMES.glob("*.poolsim"):
        shutil.copy(path, folder / path.name)


def _walk_start(walk: Walk, monkeypatch: pytest.MonkeyPatch, data: Path) -> None:
    app = walk.app
    _saved_games(data / "saved")
    with monkeypatch.context() as warming:
        warming.setattr(app, "worker", Warming())
        app.show_start_screen()
        walk.check("start screen, physics warming up")
    screen = app.start_screen
    assert screen is not None
    for field in screen.fields.values():  # each drop-down open in turn
        if hasattr(field, "showPopupMenu"):
            field.showPopupMenu()
            walk.check(f"start screen, {field.get()!r} open", 1)
            field.hidePopupMenu()
    for panel, where in (
        ("open_drills", "the drills list"),
        ("open_saved", "the saved games"),
        ("open_statistics", "statistics"),
    ):
        form = app.start_screen
        assert form is not None
        opened = getattr(form, panel)()  # a screen in the form's place
        assert opened is not None
        walk.check(where)
        opened.close()  # Back: the form again


def _ten_ball(app: PoolApp) -> None:
    players = ("Ann Longname-Smith", "Bob")  # a long name on the scoreboard
    game = Game(GameSetup(game="ten-ball", race_to=5, seed=4, players=players))
    game.start(Player.A)
    app.play(game, save=False)


def _walk_table(walk: Walk) -> None:
    app = walk.app
    _ten_ball(app)
    walk.check("ball in hand for the break", 3)
    run_script(app, [{"place": [0.635, 0.5]}, {"tip": [0.45, -0.5]}, {"elevation": 24}])
    walk.check("aiming, spin and elevation")
    assert app.hud is not None
    app.hud.say(NOTICE)
    walk.check("aiming, a notice")
    app.hud.toggle_help()
    walk.check("the help")
    app.hud.toggle_help()
    for view in ("behind", "overhead", "broadcast"):
        run_script(app, [{"camera": view}])
        walk.check(f"the {view} view")
    app.open_menu()
    walk.check("the menu")
    menu = app.menu
    assert menu is not None
    menu.save_copy()
    walk.check("the menu, Save a copy's field")
    menu.save_copy()
    walk.check("the menu, saved")
    menu.close()
    run_script(app, [{"aim_at": "1"}, {"power": 0.9}, {"shoot": "skip"}])
    walk.check("after the break")
    app.open_replay(0)
    walk.check("the replay")
    assert app.replay is not None
    app.modes.screen.close()  # type: ignore[union-attr]


def _walk_choices(walk: Walk) -> None:
    """The incoming player's choices after an illegal 8-ball break (three buttons)."""
    app = walk.app
    game = Game(GameSetup(game="eight-ball", race_to=3, seed=3, players=("Ann", "Bob")))
    app.play(game, save=False)
    run_script(
        app,
        [
            {"breaker": "A"},
            {"place": [0.635, 0.5]},
            {"aim_at": [0.635, 1.905]},
            {"power": 0.25},
            {"shoot": "skip"},
        ],
    )
    assert app.controller is not None and app.controller.stage is Stage.CHOOSE
    walk.check("choices after an illegal break")
    app.hud.toggle_details()  # type: ignore[union-attr]
    walk.check("choices, the referee's details")


def _walk_over(walk: Walk) -> None:
    app = walk.app
    app.play(load(GAMES / "duel-ten-ball-won.poolsim"), save=False)
    walk.check("the match summary", 3)
    app.modes.screen.close()  # type: ignore[union-attr]
    walk.check("the match over")


def _walk_practice(walk: Walk) -> None:
    app = walk.app
    app.play(
        Game(GameSetup(game="nine-ball", practice=True, players=("Ann", "Bob"), seed=3)),
        save=False,
    )
    walk.check("practice set-up", 3)
    stop = drill_named("stop-shot")
    run_script(app, [{"drill": "stop-shot"}])
    walk.check("a drill")
    (reference,) = stop.reference
    run_script(app, [{"aim": reference.aim + 6}, {"shoot": "skip"}] * 5)
    walk.check("the drill's summary")


def _walk_rotation(walk: Walk) -> None:
    """Rotation's scoreboard (ROT-9): each player's points and the points still wanted
    beside the longest status line, the cue ball in hand before the break."""
    app = walk.app
    players = ("Ann Longname-Smith", "Bob")
    app.play(Game(GameSetup(game="rotation", race_to=9, seed=2, players=players)), save=False)
    run_script(app, [{"breaker": "A"}])
    walk.check("rotation's scoreboard")


def _walk_straight_pool(walk: Walk) -> None:
    """14.1's scoreboard (SP-16, SP-17): each score of 150 and high run beside the
    opening break's status line; then the last two balls, the re-rack's line after the
    referee's, the run and the break ball."""
    app = walk.app
    players = ("Ann Longname-Smith", "Bob")
    app.play(Game(GameSetup(game="straight-pool", seed=2, players=players)), save=False)
    run_script(app, [{"breaker": "A"}])
    walk.check("14.1's scoreboard at the break")
    app.play(set_up(LAST_TWO, players), save=False)
    walk.check("14.1's last two balls", 3)
    run_script(app, POT_THE_FIVE)
    walk.check("14.1's re-rack")


WALKS: dict[str, Callable[[Walk], None]] = {
    "table": _walk_table,
    "choices": _walk_choices,
    "rotation": _walk_rotation,
    "straight-pool": _walk_straight_pool,
    "over": _walk_over,
    "practice": _walk_practice,
}


def test_a_summary_with_a_games_own_figures_fits_too(
    shaped: PoolApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game may add figures of its own (14.1 adds two): the match summary's rows close
    up to keep four of them between the HUD's bands on every shape."""
    own = tuple(
        OwnFigure(name, name.replace("_", " "), points_scored)
        for name in ("points", "balls_per_inning", "innings", "high_run")
    )
    monkeypatch.setattr(Rotation, "own_figures", own)
    walk = Walk(shaped)
    shaped.play(load(ROOT / "tests/data/elsewhere/selfplay-rotation-seed32.poolsim"), save=False)
    walk.check("a match summary with four figures of the game's own", 3)
    assert not walk.found, "\n".join(walk.found)


def test_every_text_of_every_screen_fits_and_overlaps_nothing(
    shaped: PoolApp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    walk = Walk(shaped)
    _walk_start(walk, monkeypatch, tmp_path)
    for part in WALKS.values():
        part(walk)
    assert not walk.found, "\n".join(walk.found)


def test_a_players_statistics_with_14_1s_runs_fit(shaped: PoolApp, tmp_path: Path) -> None:
    """14.1's own figures add four rows to a player's statistics (the balls of the runs,
    balls per inning, innings, the high run): they fit on every shape."""
    _saved_games(tmp_path / "saved")  # the 14.1 game's players are "Player A" and "B"
    walk = Walk(shaped)
    shaped.show_start_screen()
    form = shaped.start_screen
    assert form is not None
    screen = form.open_statistics("Player A")
    walk.check("a 14.1 player's statistics")
    assert "balls per inning" in screen.panel.labels.getText()
    assert not walk.found, "\n".join(walk.found)


def test_the_replays_key_line_is_readable_on_every_shape(shaped: PoolApp) -> None:
    """A window too narrow for the whole key line gets it in fewer words, not shrunk to
    a size nobody reads (a 4:3 window's was drawn smaller than its size)."""
    shaped.play(load(GAMES / "duel-ten-ball-won.poolsim"), save=False)
    step(shaped.base, 2)
    shaped.open_replay(0)
    walk = Walk(shaped)
    walk.check("the replay")
    replay = shaped.replay
    assert replay is not None
    assert replay.help_text.getTextScale()[0] >= 0.75 * HELP_TEXT
    if SHAPES["800x600"] <= shaped.base.getAspectRatio() < SHAPES["1280x800"]:
        assert replay.help_text.getTextScale()[0] == HELP_TEXT
    assert not walk.found, "\n".join(walk.found)
