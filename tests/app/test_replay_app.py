"""The replay viewer in the window, headless, driven by the virtual keyboard and mouse:
frame steps forward and back land on identical positions, the scrub bar moves time,
event jumps, speed, the referee's panel follows the frame; and whole racks of both
games played through the table's controls."""

from __future__ import annotations

import math
import random
import re

import numpy as np
import pytest
from panda3d.core import GeomNode, GeomVertexReader, KeyboardButton, MouseButton

from rules import CUE, Player
from sim.app.headless import grab_rgb
from sim.app.main import PoolApp
from sim.app.scene.colours import BALL_COLOURS
from sim.app.screens.replay import FRAME, HELP, HELP_SHORT, TICK_COLOURS, ReplayView, event_words
from sim.physics.simulate import MAX_SPEED
from sim.physics.timeline import EventMarker, MarkerKind
from sim.play.game import Game, GameSetup
from sim.play.picker import choose_choice, choose_stroke
from sim.play.selfplay import play_racks
from sim.play.table.turn import Stage

pytestmark = pytest.mark.app


def press(app: PoolApp, button: object) -> None:
    mouse = app.virtual_mouse()
    mouse.pressButton(button)
    app.step()
    mouse.releaseButton(button)
    app.step()


def played(seed: int = 2) -> Game:
    game = Game(GameSetup(game="rotation", race_to=3, seed=seed, players=("Ann", "Bob")))
    game.start(Player.A)
    play_racks(game, 1, random.Random(seed), max_records_per_rack=12)
    return game


def test_the_viewer_steps_scrubs_and_jumps(table: PoolApp) -> None:
    table.play(played())
    table.open_replay(0)  # the break
    viewer = table.replay
    assert isinstance(viewer, ReplayView)
    press(table, KeyboardButton.space())  # pause
    assert not viewer.playing
    start_t = viewer.t
    # One frame forward, one back: the same instant, the same positions, bit for bit.
    press(table, KeyboardButton.right())
    assert viewer.t == pytest.approx(round(start_t / FRAME) * FRAME + FRAME)
    forward = viewer.timeline.at(viewer.t).positions.copy()
    press(table, KeyboardButton.right())
    press(table, KeyboardButton.left())
    assert np.array_equal(viewer.timeline.at(viewer.t).positions, forward)
    # Jump to the next events: the first contact, then later ones.
    press(table, KeyboardButton.asciiKey("]"))
    assert viewer.t in {m.t for m in viewer.timeline.markers}
    first_jump = viewer.t
    press(table, KeyboardButton.asciiKey("]"))
    assert viewer.t > first_jump
    press(table, KeyboardButton.asciiKey("["))
    assert viewer.t == first_jump
    # Scrub: drag the bar's thumb to three quarters along.
    width, height = table.base.win.getXSize(), table.base.win.getYSize()
    aspect = table.base.getAspectRatio()

    def bar_pixel(fraction: float) -> tuple[int, int]:
        x = (2 * fraction - 1) * (aspect - 0.1)  # aspect2d units along the bar
        return (int((x / aspect + 1) / 2 * width), int((1 + 0.91) / 2 * height))

    mouse = table.virtual_mouse()

    def drag(to: float) -> None:
        mouse.setMousePos(*bar_pixel(viewer.t / viewer.timeline.duration))
        table.step()
        mouse.pressButton(MouseButton.one())
        table.step()
        for step in range(1, 6):
            here = viewer.t / viewer.timeline.duration
            mouse.setMousePos(*bar_pixel(here + (to - here) * step / 5))
            table.step()
        mouse.releaseButton(MouseButton.one())
        table.step(2)

    before_drag = viewer.t
    drag(0.75)
    assert not viewer.playing
    assert viewer.t > before_drag + 0.25 * viewer.timeline.duration  # scrubbed forward
    ahead = viewer.t
    drag(0.2)
    assert viewer.t < ahead - 0.2 * viewer.timeline.duration  # and back
    # Speed: 1/8x at the slowest.
    for _ in range(6):
        press(table, KeyboardButton.asciiKey("-"))
    assert viewer.speed == 0.125
    # The panel says what the referee saw up to now; the ruling once at the end.
    texts = " ".join(line.getText() for line in viewer.panel_lines)
    assert "first ball hit: the 1" in texts
    viewer.set_time(viewer.timeline.duration)
    table.step()
    texts = " ".join(line.getText() for line in viewer.panel_lines)
    assert "The ruling" in texts and "ROT-" in texts
    # Another shot with Page Down; Esc back to the table.
    press(table, KeyboardButton.pageDown())
    assert viewer.index == 1 and viewer.t < 0.2
    press(table, KeyboardButton.escape())
    assert table.replay is None


def test_replay_frames_show_the_balls_moving(table: PoolApp) -> None:
    table.play(played(4))
    table.open_replay(0)
    viewer = table.replay
    assert isinstance(viewer, ReplayView)
    viewer.playing = False
    viewer.set_time(0.0)
    table.step(2)
    before = grab_rgb(table.base).astype(int)
    viewer.set_time(min(1.0, viewer.timeline.duration))
    table.step(2)
    after = grab_rgb(table.base).astype(int)
    assert np.abs(after - before).mean() > 0.5
    assert after.std() > 20  # a real picture, not a flat frame


def _power_for(speed: float) -> float:
    """The power meter's setting for a cue speed (the inverse of Aim.speed)."""
    return ((speed - 0.3) / (MAX_SPEED - 0.3)) ** (2 / 3)


@pytest.mark.parametrize("game_name", ["ten-ball", "rotation"])
def test_a_whole_rack_through_the_tables_controls(table: PoolApp, game_name: str) -> None:
    """Both sides of a whole rack played through the controller the window drives (the
    built-in picker decides; the table's own controls carry it out)."""
    game = Game(GameSetup(game=game_name, race_to=2, seed=9, players=("Ann", "Bob")))
    game.start(Player.A)
    table.play(game)
    controller = table.controller
    assert controller is not None
    rng = random.Random(9)
    spec = game.setup.spec
    for _ in range(5000):  # frames waiting on the physics count too
        if game.match.rack_number > 1 or controller.stage is Stage.OVER:
            break
        stage = controller.stage
        if stage in (Stage.SIMULATING, Stage.WATCH):
            table.step()
            if controller.stage is Stage.WATCH:
                press(table, KeyboardButton.space())  # skip to the ruling
            continue
        state = controller.state
        assert state is not None
        if stage is Stage.CHOOSE:
            controller.choose(choose_choice(state, spec, rng))
            continue
        stroke = choose_stroke(state, spec, rng)
        if stage is Stage.PLACE:
            assert stroke.placement is not None
            # The picker's spot, if the table allows it there (else the default spot).
            controller.move_cue_ball(stroke.placement)
            controller.confirm_placement()
        action = stroke.action
        controller.set_direction(action.aim)
        controller.set_power(_power_for(action.speed))
        controller.set_tip(action.a, action.b)
        if stroke.call is not None:
            controller.call_shot(stroke.call.ball, stroke.call.pocket)
        if stroke.declaration is not None:
            controller.declare(stroke.declaration)
        press(table, KeyboardButton.space())
    else:
        pytest.fail("the rack did not end")
    assert sum(game.match.racks_won.as_dict().values()) >= 1 or game.match.rack_number > 1
    assert all(CUE in r.start for r in game.shots)
    assert math.isfinite(controller.latencies[-1])


def test_the_shot_list_opens_another_shot(table: PoolApp) -> None:
    table.play(played(5))
    table.open_replay(0)
    viewer = table.replay
    assert isinstance(viewer, ReplayView) and len(viewer.shot_buttons) >= 3
    target = viewer.shot_buttons[2]
    x, _, y = target.getPos(table.base.aspect2d)
    width, height = table.base.win.getXSize(), table.base.win.getYSize()
    aspect = table.base.getAspectRatio()
    mouse = table.virtual_mouse()
    mouse.setMousePos(int((x / aspect + 1) / 2 * width), int((1 - y) / 2 * height))
    table.step()
    mouse.pressButton(MouseButton.one())
    table.step()
    mouse.releaseButton(MouseButton.one())
    table.step(2)
    assert viewer.index == 2 and viewer.t < 0.2


def test_a_resized_window_lays_the_viewer_and_hud_out_again(
    table: PoolApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wider window: the viewer is rebuilt for its shape on the same shot and frame,
    still paused, at the same speed; the HUD under it too, still hidden."""
    table.play(played())
    table.open_replay(1)
    viewer = table.replay
    assert isinstance(viewer, ReplayView)
    press(table, KeyboardButton.space())  # pause
    press(table, KeyboardButton.asciiKey("]"))  # the first contact
    press(table, KeyboardButton.asciiKey("-"))  # half speed
    before = (viewer.index, viewer.t, viewer.speed, viewer.playing, viewer.trails)
    wide = viewer.aspect * 1.4
    monkeypatch.setattr(table.base, "getAspectRatio", lambda *_: wide)
    table.window_changed(table.base.win)  # what the "window-event" handler gets
    table.step(2)
    rebuilt = table.replay
    assert isinstance(rebuilt, ReplayView) and rebuilt is not viewer
    assert (rebuilt.index, rebuilt.t, rebuilt.speed, rebuilt.playing, rebuilt.trails) == before
    assert rebuilt.aspect == wide
    assert rebuilt.shot_list["frameSize"][0] == pytest.approx(-wide + 0.02)  # at the edge
    hud = table.hud
    assert hud is not None and hud.aspect == wide and hud.root.isHidden()
    press(table, KeyboardButton.escape())  # closing the viewer brings the HUD back
    assert table.replay is None and not hud.root.isHidden()


def _bar_pixel(table: PoolApp, viewer: ReplayView, fraction: float) -> tuple[int, int]:
    """The window pixel on the scrub bar where the thumb's centre shows ``fraction`` of
    the shot (where its tick for that time is drawn)."""
    width, height = table.base.win.getXSize(), table.base.win.getYSize()
    aspect = table.base.getAspectRatio()
    x = viewer.bar_x(fraction)
    return (round((x / aspect + 1) / 2 * width), round((1 + 0.91) / 2 * height))


@pytest.mark.parametrize("opened", ["R at the table", "as poolsim replay opens it"])
def test_the_replay_opens_at_the_start_and_plays(table: PoolApp, opened: str) -> None:
    """The replay plays the shot from the stroke, even when the frame that opens it took
    seconds (loading the table, building the timeline): it never opens at the end."""
    game = played()
    from panda3d.core import ClockObject

    clock = ClockObject.getGlobalClock()
    if opened == "R at the table":
        table.play(game)
        table.step(2)
        keys = table.virtual_mouse()
        keys.pressButton(KeyboardButton.asciiKey("r"))
        clock.setFrameRate(0.05)  # the frame that builds the viewer: 20 s
        try:
            table.step()
        finally:
            clock.setFrameRate(60)
        keys.releaseButton(KeyboardButton.asciiKey("r"))
    else:
        table.play(game, save=False)
        table.open_replay(None)
        clock.setFrameRate(0.05)  # the window's first frame after loading it all
        try:
            table.step()
        finally:
            clock.setFrameRate(60)
    viewer = table.replay
    assert isinstance(viewer, ReplayView)
    assert viewer.index == len(viewer.items) - 1  # the last shot
    assert viewer.playing and viewer.t < 0.1
    table.step(30)
    assert viewer.playing and viewer.t == pytest.approx(30 * FRAME, abs=3 * FRAME)
    # Another shot from the shot list: from its start, playing.
    viewer.select(0)
    clock.setFrameRate(0.05)
    try:
        table.step()
    finally:
        clock.setFrameRate(60)
    assert viewer.index == 0 and viewer.playing and viewer.t < 0.1


def test_events_are_named_as_they_pass_and_when_jumped_to(table: PoolApp) -> None:
    table.play(played())
    table.open_replay(0)  # the break: the cue ball hits the 1 first (ROT-4)
    viewer = table.replay
    assert isinstance(viewer, ReplayView)
    press(table, KeyboardButton.space())  # pause
    viewer.set_time(0.0)
    press(table, KeyboardButton.asciiKey("]"))
    first = next(m for m in viewer.timeline.markers if m.kind is MarkerKind.FIRST_CONTACT)
    assert viewer.t == first.t
    assert "the cue ball hits the 1" in viewer.event_text.getText()
    # The help line under the bar says what the keys and the bar do.
    shown = viewer.help_text.getText()
    assert shown in (HELP, HELP_SHORT)  # the short one where the whole would be too small
    for keys in ("Space play", "[ ] ", "event", "R review", "B ", "Esc back"):
        assert keys in shown
    # Every kind of event in plain words: rails and pockets by the names the HUD uses.
    rails = [event_words(m) for m in viewer.timeline.markers if m.kind is MarkerKind.RAIL]
    assert rails
    assert all(re.fullmatch(r"the (cue ball|\d+) reaches the \w+ rail", w) for w in rails)
    assert event_words(EventMarker(1.0, MarkerKind.POCKET, ("3",), "lt")) == (
        "the 3 drops in the foot-left corner"
    )
    assert event_words(EventMarker(1.0, MarkerKind.RAIL, ("6",), "head")) == (
        "the 6 reaches the head rail"
    )
    # Playing on: the line names the events the frames pass.
    rail = next(m for m in viewer.timeline.markers if m.kind is MarkerKind.RAIL)
    viewer.set_time(rail.t - 2 * FRAME)
    viewer.playing = True
    table.step(3)
    passed = [m for m in viewer.timeline.markers if m.t <= viewer.t]
    assert event_words(passed[-1]) in viewer.event_text.getText()


def test_a_click_on_the_scrub_bar_seeks_there(table: PoolApp) -> None:
    table.play(played())
    table.open_replay(0)
    viewer = table.replay
    assert isinstance(viewer, ReplayView)
    press(table, KeyboardButton.space())  # pause
    viewer.set_time(0.0)
    table.step()
    mouse = table.virtual_mouse()
    mouse.setMousePos(*_bar_pixel(table, viewer, 0.75))
    table.step()
    mouse.pressButton(MouseButton.one())
    table.step()
    mouse.releaseButton(MouseButton.one())
    table.step(2)
    assert viewer.t / viewer.timeline.duration == pytest.approx(0.75, abs=0.01)
    assert not viewer.playing


def test_each_ball_has_its_own_path_colour(table: PoolApp) -> None:
    """The break's paths: one per ball that moved, each in the ball's colour (stripes a
    lighter shade of it), all different; a ball at rest has its path faded."""
    table.play(played())
    table.open_replay(0)
    viewer = table.replay
    assert isinstance(viewer, ReplayView)
    press(table, KeyboardButton.space())
    viewer.set_time(viewer.timeline.duration)
    table.step()
    colours: dict[str, tuple[float, ...]] = {}
    for node in viewer.paths.getChildren():
        geom_node = node.node()
        assert isinstance(geom_node, GeomNode)
        reader = GeomVertexReader(geom_node.getGeom(0).getVertexData(), "color")
        seen = set()
        while not reader.isAtEnd():
            seen.add(tuple(round(c, 3) for c in reader.getData4()))
        assert len(seen) == 1  # one colour along a ball's path
        colours[node.getName().removeprefix("path-")] = seen.pop()
    assert len(colours) >= 5 and CUE in colours  # the break moved many balls
    assert len(set(colours.values())) == len(colours)
    assert colours[CUE][:3] == pytest.approx((1, 1, 1), abs=0.05)
    assert colours["1"][:3] == pytest.approx(BALL_COLOURS["1"], abs=0.05)
    # At the end every ball rests: every path faded.
    assert all(node.getColorScale()[3] < 0.8 for node in viewer.paths.getChildren())
    # The 1 and the 2 differ in the picture too: yellow and blue.
    assert BALL_COLOURS["1"][2] < 0.3 and BALL_COLOURS["2"][2] > 0.6


def test_pockets_are_named_as_the_hud_names_them(table: PoolApp) -> None:
    """Rack 1, shot 2 of seed 2 drops the 4 in the foot-right corner and the 7 in the
    foot-left: the event line and the referee's panel say so, not "rt" and "lt"."""
    table.play(played(2))
    table.open_replay(1)
    viewer = table.replay
    assert isinstance(viewer, ReplayView)
    press(table, KeyboardButton.space())  # pause
    pocket = next(m for m in viewer.timeline.markers if m.kind is MarkerKind.POCKET)
    viewer.set_time(0.0)
    while viewer.t < pocket.t:  # event after event up to the first drop
        press(table, KeyboardButton.asciiKey("]"))
    assert viewer.t == pocket.t
    assert "the 4 drops in the foot-right corner" in viewer.event_text.getText()
    viewer.set_time(viewer.timeline.duration)
    table.step()
    texts = " ".join(line.getText() for line in viewer.panel_lines)
    assert "4 in the foot-right corner, 7 in the foot-left corner" in texts


def test_the_players_view_comes_back_after_the_replay(table: PoolApp) -> None:
    """The viewer shows the whole table (broadcast); closed, the table is seen from the
    view the player chose, not from broadcast until the next shot."""
    from tests.app.test_table_app import after_break

    table.play(after_break(70))
    table.step(2)
    assert table.controller is not None and table.controller.stage is Stage.AIM
    table.choose_view("behind")
    assert table.rig is not None and table.rig.preset == "behind"
    table.open_replay(0)
    table.step()
    assert table.rig.preset == "broadcast"
    press(table, KeyboardButton.escape())
    assert table.replay is None and table.rig.preset == "behind"


def test_every_event_of_the_shot_has_its_tick_on_the_scrub_bar(table: PoolApp) -> None:
    """The stroke, the first hit, every later ball-on-ball hit, every rail and pocket:
    each a tick in its kind's colour, where the thumb shows that time (R from the table,
    then PgDn to the next shot, whose ticks replace the break's)."""
    table.play(played())
    table.step(2)
    press(table, KeyboardButton.asciiKey("r"))
    viewer = table.replay
    assert isinstance(viewer, ReplayView)
    for shot in (viewer.index, 0):
        viewer.select(shot)
        table.step()
        markers = viewer.timeline.markers
        assert {m.kind for m in markers} >= {MarkerKind.HIT, MarkerKind.RAIL}
        ticks = []
        for node in viewer.ticks.getChildren():
            geom_node = node.node()
            assert isinstance(geom_node, GeomNode)
            data = geom_node.getGeom(0).getVertexData()
            where, colour = GeomVertexReader(data, "vertex"), GeomVertexReader(data, "color")
            while not where.isAtEnd():
                x = where.getData3()[0]
                ticks.append((round(x, 4), tuple(colour.getData4())))
        wanted = [
            (round(viewer.bar_x(m.t / viewer.duration), 4), TICK_COLOURS[m.kind])
            for m in markers
            for _ in range(2)  # a tick is a line: two ends
        ]
        assert [x for x, _ in ticks] == [x for x, _ in wanted]
        for (_, drawn), (_, colour) in zip(ticks, wanted, strict=True):
            assert drawn == pytest.approx(colour, abs=0.01)  # stored in 8 bits
