"""Side by side in the replay (issue 11, item 4), as a player finds it: a shot played,
taken again and played with another stroke; in the replay viewer C (the Compare button,
the script's ``compare``) shows the other attempt on the same table, its balls as
translucent ghosts, each attempt's paths in its own colour, both on one clock, and the
panel says where each cue ball stopped and what each potted."""

from __future__ import annotations

import math

import pytest
from panda3d.core import GeomNode, GeomVertexReader, KeyboardButton

from rules import CUE, Player
from rules.geometry import TableGeometry
from sim.app.headless import grab_rgb, world_to_pixel
from sim.app.main import PoolApp
from sim.app.screens.compare import Outcome, attempt_lines, attempt_name, nearest_rail
from sim.app.screens.replay import NO_OTHER, OTHER_ATTEMPT, THIS_ATTEMPT, ReplayView
from sim.app.script import ScriptError, run_script
from sim.physics.simulate import CueAction, aim_towards
from sim.play.game import Game, GameSetup, ShotRecord, Stroke
from tests.app.test_replay_app import press
from tests.app.test_take_again_app import hud_click

pytestmark = pytest.mark.app


def ball_in_hand() -> Game:
    """10-ball, seed 5, broken softly: the cue ball drops, Bob has it in hand anywhere
    and the 1 lies near the right side pocket."""
    game = Game(GameSetup(game="ten-ball", race_to=3, seed=5, players=("Ann", "Bob")))
    game.start(Player.A)
    state = game.rack
    assert state is not None
    spot = (0.635, 0.5)
    game.shoot(Stroke(action=CueAction(4.0, aim_towards(spot, state.balls["1"])), placement=spot))
    assert game.rack is not None and game.rack.ball_in_hand is not None
    return game


def cut_into_the_side(app: PoolApp) -> list[dict[str, object]]:
    """Bob's cue ball in hand, placed for a cut on the 1 into the right side pocket."""
    assert app.controller is not None
    geometry = app.controller.game.setup.spec.geometry
    x1, y1 = app.controller.balls()["1"]
    pocket = (geometry.width, geometry.length / 2)
    gap = math.dist(pocket, (x1, y1))
    ux, uy = (x1 - pocket[0]) / gap, (y1 - pocket[1]) / gap
    cut = math.radians(-12)
    vx, vy = ux * math.cos(cut) - uy * math.sin(cut), ux * math.sin(cut) + uy * math.cos(cut)
    ghost = [x1 + ux * 2 * geometry.ball_radius, y1 + uy * 2 * geometry.ball_radius]
    return [
        {"place": [x1 + vx * 0.5, y1 + vy * 0.5]},
        {"aim_at": ghost},
        {"call": ["1", "rc"]},
        {"power": 0.22},
    ]


def played_twice(app: PoolApp) -> tuple[ShotRecord, ShotRecord]:
    """The cut with a touch of draw, taken again and played with a lot of draw: (the
    first try, the one played in its place)."""
    app.play(ball_in_hand())
    app.step(2)
    run_script(app, [*cut_into_the_side(app), {"tip": [0, -0.05]}, {"shoot": "skip"}])
    run_script(app, [{"take_again": True}, {"tip": [0, -0.45]}, {"shoot": "skip"}])
    assert app.controller is not None
    node = app.controller.game.last_shot()
    assert node is not None and node.parent is not None
    again, first = (variation.record for variation in node.parent.variations)
    assert isinstance(first, ShotRecord) and isinstance(again, ShotRecord)
    return first, again


def panel_text(view: ReplayView) -> str:
    return " ".join(line.getText() for line in view.panel_lines)


def path_colours(node: object) -> set[tuple[float, ...]]:
    colours = set()
    for path in node.getChildren():  # type: ignore[attr-defined]
        geom_node = path.node()
        assert isinstance(geom_node, GeomNode)
        reader = GeomVertexReader(geom_node.getGeom(0).getVertexData(), "color")
        while not reader.isAtEnd():
            colours.add(tuple(round(c, 2) for c in tuple(reader.getData4())[:3]))
    return colours


def test_compare_two_attempts_side_by_side(table: PoolApp) -> None:
    first, again = played_twice(table)
    run_script(table, [{"replay": None}])
    view = table.replay
    assert isinstance(view, ReplayView)
    assert view.item.node is not None and view.item.node.record is again
    assert not view.compare_button.isHidden()
    (other,) = view.others()
    assert view.items[other].node is not None and view.items[other].node.record is first

    # The script's compare: the first try beside this one, from the start, one clock.
    run_script(table, [{"compare": 0}])
    assert view.comparing == other
    longer = max(view.timeline.duration, view.other_timeline.duration)
    assert view.duration == longer
    press(table, KeyboardButton.space())  # pause
    view.set_time(0.0)
    for _ in range(3):  # frame steps move both attempts
        press(table, KeyboardButton.right())
    assert view.t == pytest.approx(3 / 60)
    assert table.scene is not None and view.ghosts is not None
    # The other attempt's cue ball (rolling: not where this one is) is a ghost there.
    cue_ghost = view.ghosts.nodes[CUE]
    other_now = view.other_timeline.at(view.t).positions[view.other_timeline.index(CUE)]
    assert not cue_ghost.isHidden()
    assert tuple(cue_ghost.getPos()) == pytest.approx(tuple(other_now), abs=1e-6)
    # Scrubbed to the end: the shorter attempt rests at its end, both have stopped.
    view.set_time(longer)
    table.step(2)
    assert view.t == longer
    other_rest = first.simulated.after[CUE]
    this_rest = again.simulated.after[CUE]
    assert tuple(cue_ghost.getPos())[:2] == pytest.approx(other_rest, abs=1e-6)
    assert tuple(table.scene.ball_nodes[CUE].getPos())[:2] == pytest.approx(this_rest, abs=1e-6)

    # The panel: the legend, where each cue ball stopped (the nearest rail and the
    # other's, as measured from the records' resting places) and what each potted.
    geometry = table.scene.spec.geometry
    apart = math.dist(this_rest, other_rest)
    assert apart > 0.2  # a lot of draw against a touch: clearly different places
    text = panel_text(view)
    assert "This attempt (the match went on from it)" in text
    assert "Other attempt (a branch)" in text
    for rest in (this_rest, other_rest):
        rail, gap = nearest_rail(rest, geometry)
        words = f"cue ball stopped {gap:.2f} m from the {rail} rail, {apart:.2f} m from the"
        assert words in text.replace("\n", " "), text
    assert text.count("potted the 1") == 2

    # Each attempt's paths in its colour: this one gold, the other cyan.
    assert path_colours(view.paths) == {tuple(round(c, 2) for c in THIS_ATTEMPT)}
    assert path_colours(view.other_paths) == {tuple(round(c, 2) for c in OTHER_ATTEMPT)}

    # The ghost is drawn: cyan-tinted pixels where the other cue ball stopped, which
    # the table shows as cloth when comparing is off.
    where = world_to_pixel(table.base, (*other_rest, geometry.ball_radius))
    assert where is not None
    x, y = where
    table.step()
    on = grab_rgb(table.base)[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).astype(int).mean(axis=0)
    run_script(table, [{"compare": None}])
    assert view.comparing is None and view.ghosts.root.isHidden()
    table.step()
    off = grab_rgb(table.base)[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).astype(int).mean(axis=0)
    # Lighter than the cloth in red and green, clearly: a ghost far up the table is a few
    # pixels across and dimly lit (here it lifts them by 22-23 of 255), so the margin is
    # half that, well above the renderer's noise (a pixel's level off by 1 or 2).
    lift = on - off
    assert lift[0] > 11 and lift[1] > 11 and lift.sum() > 40, (on, off)
    assert on[2] >= on[0], on  # and towards cyan, not a white ball
    assert "This attempt" not in panel_text(view)

    # C cycles: on (the only other attempt), then off; the button does the same.
    press(table, KeyboardButton.asciiKey("c"))
    assert view.comparing == other
    press(table, KeyboardButton.asciiKey("c"))
    assert view.comparing is None
    hud_click(table, view.compare_button)
    assert view.comparing == other

    # The other attempt shown: it compares with this one the other way round.
    view.select(other)
    table.step()
    assert view.comparing is None  # another shot: side by side only when asked
    run_script(table, [{"compare": 0}])
    assert view.items[view.comparing or 0].node is not None
    assert "Other attempt (the match went on from it)" in panel_text(view)
    with pytest.raises(ScriptError, match=r"1 other attempt \(0 to 0\), not 1"):
        run_script(table, [{"compare": 1}])
    view.close()


def test_a_shot_with_no_other_attempt_says_so(table: PoolApp) -> None:
    table.play(ball_in_hand())
    table.step(2)
    run_script(table, [*cut_into_the_side(table), {"shoot": "skip"}, {"replay": None}])
    view = table.replay
    assert isinstance(view, ReplayView)
    assert view.others() == [] and view.compare_button.isHidden()
    press(table, KeyboardButton.asciiKey("c"))
    assert view.comparing is None
    assert NO_OTHER.split(":")[0] in panel_text(view)
    with pytest.raises(ScriptError, match="No other attempt at this shot"):
        run_script(table, [{"compare": 0}])
    with pytest.raises(ScriptError, match="a whole number"):
        run_script(table, [{"compare": "first"}])
    view.close()
    with pytest.raises(ScriptError, match="not open"):
        run_script(table, [{"compare": 0}])


def test_each_attempt_in_a_players_words() -> None:
    """The panel's words for an attempt: the nearest rail and the gap from the ball's
    edge to its cushion, the other attempt's cue ball centre to centre, a cue ball that
    dropped by its pocket's name, and the balls potted in order."""
    geometry = TableGeometry(width=1.27, length=2.54, ball_radius=0.028575)
    near_foot = Outcome(cue_rest=(0.6, 2.54 - 0.028575 - 0.42), cue_pocket=None, potted=())
    near_left = Outcome(cue_rest=(0.1, 1.0), cue_pocket=None, potted=("3", "7", "10"))
    scratched = Outcome(cue_rest=None, cue_pocket="lt", potted=("1",))
    assert nearest_rail((0.6, 2.54 - 0.028575 - 0.42), geometry) == ("foot", pytest.approx(0.42))
    apart = math.dist((0.6, 2.54 - 0.028575 - 0.42), (0.1, 1.0))
    assert attempt_lines(near_foot, near_left, geometry) == [
        f"cue ball stopped 0.42 m from the foot rail, {apart:.2f} m from the other attempt's",
        "potted nothing",
    ]
    assert attempt_lines(near_left, scratched, geometry) == [
        "cue ball stopped 0.07 m from the left rail",  # the other's dropped: no distance
        "potted the 3, the 7 and the 10",
    ]
    assert attempt_lines(scratched, near_foot, geometry) == [
        "cue ball dropped in the foot-left corner",
        "potted the 1",
    ]
    assert attempt_name(2, 3, branch=True) == "Other attempt 2 of 3 (a branch)"
    assert attempt_name(1, 1, branch=False) == "Other attempt (the match went on from it)"
