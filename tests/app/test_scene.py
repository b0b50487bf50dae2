"""The 3D table against the physics table, checked on rendered frames.

The expectations come from the physics table (pooltool's segments and pockets), not from
the scene's own geometry: every pocket centre must show the dark hole, every cushion nose
point must sit on the edge between the bright bed and the darker cushion top, and balls
must show their colours where they are. A black or empty frame fails all of these.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from sim.physics.table import POCKET_OF_JAW, TableSize, table_spec
from tests.app.conftest import step

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase

    from sim.app.scene.scene import TableScene

pytestmark = pytest.mark.app

ROOT = Path(__file__).resolve().parents[2]
MAIN_SEGMENTS = ("18", "9", "3", "6", "15", "12")


def _lum(c: np.ndarray) -> float:
    return float(0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2])


def _patch(img: np.ndarray, xy: tuple[float, float], r: int = 1) -> np.ndarray:
    x, y = round(xy[0]), round(xy[1])
    return np.asarray(img[y - r : y + r + 1, x - r : x + r + 1].reshape(-1, 3).mean(axis=0))


def _is_cloth(c: np.ndarray) -> bool:
    """The blue bed: blue well above red, not dark."""
    return bool(c[2] > 70 and c[2] > c[0] + 50 and c[1] > c[0] + 20)


def _pixel(base: ShowBase, point: Any) -> tuple[int, int]:
    from sim.app.headless import world_to_pixel

    px = world_to_pixel(base, point)
    assert px is not None, f"{point} is off screen"
    return px


def _ring(base: ShowBase, img: np.ndarray, centre: Any, radius: float) -> np.ndarray:
    """The median colour of a ball seen from above between the label in its middle and
    its outline: pixels from 0.72 to 0.92 of its radius out."""
    x, y, z = centre
    c = np.array(_pixel(base, centre), float)
    r = max(
        np.linalg.norm(np.array(_pixel(base, edge), float) - c)
        for edge in ((x + radius, y, z), (x, y + radius, z))
    )
    rows, cols = np.mgrid[0 : img.shape[0], 0 : img.shape[1]]
    d = np.hypot(cols - c[0], rows - c[1]) / r
    return np.asarray(np.median(img[(d > 0.72) & (d < 0.92)], axis=0))


def _nose_points(table: Any) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    """(segment, nose point (x, y, z), unit vector toward the cloth) along every main
    cushion (a quarter, half and three quarters along) and every jaw (a quarter of the
    way out from its tip, clear of the pocket circle)."""
    w, length = float(table.w), float(table.l)
    for sid, seg in table.cushion_segments.linear.items():
        p1, p2 = np.asarray(seg.p1, float), np.asarray(seg.p2, float)
        d = (p2 - p1)[:2] / np.linalg.norm((p2 - p1)[:2])
        normal = np.array([-d[1], d[0]])
        if sid in MAIN_SEGMENTS:
            towards = np.array([w / 2, length / 2])
            points = [p1 + f * (p2 - p1) for f in (0.25, 0.5, 0.75)]
        else:
            towards = np.asarray(table.pockets[POCKET_OF_JAW[sid].value].center[:2], float)
            tip = np.asarray(table.cushion_segments.circular[sid + "t"].center[:2], float)
            inner, outer = (
                (p1, p2)
                if np.linalg.norm(p1[:2] - tip) < np.linalg.norm(p2[:2] - tip)
                else (p2, p1)
            )
            points = [inner + 0.25 * (outer - inner)]
            pocket = table.pockets[POCKET_OF_JAW[sid].value]
            assert np.hypot(*(points[0][:2] - pocket.center[:2])) > pocket.radius + 0.01
        for point in points:
            inward = normal if np.dot(towards - point[:2], normal) > 0 else -normal
            yield sid, point, inward


@pytest.fixture(scope="module")
def scene(app_base: ShowBase) -> Iterator[TableScene]:
    from sim.app.scene.scene import TableScene

    table_scene = TableScene(app_base, table_spec(TableSize.NINE_FOOT), quality="fast")
    yield table_scene
    table_scene.destroy()


@pytest.mark.parametrize("size", [s.value for s in TableSize])
def test_the_table_on_screen_matches_the_physics_table(
    app_base: ShowBase, scene: TableScene, size: str
) -> None:
    from sim.app.headless import grab_rgb
    from sim.app.scene.camera import top_down_camera

    spec = table_spec(size)
    scene.set_table(spec)
    table = spec.build()  # pooltool's: the window draws its plan, read without pooltool
    r, w, length = spec.ball_radius, spec.width, spec.length
    balls = {
        "cue": (0.3 * w, 0.3 * length, r),
        "1": (0.7 * w, 0.6 * length, r),
        "8": (0.5 * w, 0.8 * length, r),
        "9": (0.25 * w, 0.7 * length, r),  # hidden: its spot must show cloth
    }
    scene.set_balls(list(balls), list(balls.values()), visible=[True, True, True, False])
    top_down_camera(app_base, spec)
    step(app_base, 2)
    img = grab_rgb(app_base).astype(float)
    assert img.shape == (app_base.win.getYSize(), app_base.win.getXSize(), 3)

    centre = _patch(img, _pixel(app_base, (w / 2, length / 2, 0)), 2)
    assert _is_cloth(centre), f"cloth at the centre is {centre}"

    for pid, pocket in table.pockets.items():
        colour = _patch(img, _pixel(app_base, (*pocket.center[:2], 0.0)), 1)
        assert colour.max() < 45, f"pocket {pid} shows {colour}, not a dark hole"

    # Seen from above but off to the side, the nose (at cushion height) shows a sliver of
    # shaded cloth under its overhang: the cushion ends where the nose is drawn, the bed
    # starts right below the nose.
    checked = {"main": 0, "jaw": 0}
    for sid, point, inward in _nose_points(table):
        at = np.array(_pixel(app_base, point), float)
        ahead = np.array(_pixel(app_base, (*(point[:2] + 0.01 * inward), point[2])), float)
        towards_cloth = (ahead - at) / np.linalg.norm(ahead - at)
        bed = np.array(_pixel(app_base, (*point[:2], 0.0)), float)
        cushion = _patch(img, tuple(at - 2 * towards_cloth), 0)
        past_nose = _patch(img, tuple(at + 2 * towards_cloth), 0)
        cloth = _patch(img, tuple(bed + 2 * towards_cloth), 0)
        where = f"segment {sid} at {point[:2].round(3)} ({size})"
        assert cushion[2] > cushion[0] + 20, f"{where}: cushion side is {cushion}"
        assert abs(_lum(past_nose) / _lum(cushion) - 1) > 0.2, f"{where}: no edge at the nose"
        assert _is_cloth(cloth), f"{where}: cloth side is {cloth}"
        # The cushion top is the cloth's colour in shade: darker than the bed, far
        # lighter than the shadow under the nose or a hole.
        ratio = _lum(cushion) / _lum(cloth)
        assert 0.35 < ratio < 0.85, f"{where}: cushion {cushion} vs bed {cloth}"
        checked["main" if sid in MAIN_SEGMENTS else "jaw"] += 1
    assert checked == {"main": 18, "jaw": 12}

    cue = _patch(img, _pixel(app_base, balls["cue"]), 2)
    assert cue.min() > 150 and np.ptp(cue) < 60, f"cue ball shows {cue}"
    # From this high the numbered balls carry their number labels in the middle: their
    # colour shows round them.
    one = _ring(app_base, img, balls["1"], r)
    assert one[0] > 150 and one[1] > 110 and one[2] < one[0] - 80, f"1 ball shows {one}"
    eight = _ring(app_base, img, balls["8"], r)
    assert _lum(eight) < 70, f"8 ball shows {eight}"
    hidden = _patch(img, _pixel(app_base, balls["9"]), 2)
    assert _is_cloth(hidden), f"the hidden 9 still shows: {hidden}"


def test_rebuilding_the_table_replaces_it(scene: TableScene) -> None:
    scene.set_table(table_spec("7ft"))
    first = scene.table_root.getNumChildren()
    scene.set_table(table_spec("9ft"))
    assert scene.table_root.getNumChildren() == first
    assert scene.layout is not None and scene.layout.width == pytest.approx(1.27)


def test_balls_follow_timeline_states_and_hide_when_pocketed(scene: TableScene) -> None:
    from sim.physics.timeline import BallStates

    ids = ["cue", "5"]
    half_turn_about_x = (0.0, 1.0, 0.0, 0.0)
    states = BallStates(
        t=np.array(0.5),
        positions=np.array([[0.4, 0.9, 0.028575], [-0.03, -0.03, -0.08]]),
        orientations=np.array([half_turn_about_x, (1.0, 0.0, 0.0, 0.0)]),
        velocities=np.zeros((2, 3)),
        angular_velocities=np.zeros((2, 3)),
        motion=np.array([0, 4], np.int8),
        pocketed=np.array([False, True]),
    )
    scene.set_states(ids, states)
    cue, five = scene.ball_nodes["cue"], scene.ball_nodes["5"]
    assert not cue.isHidden() and five.isHidden() and scene.ball_nodes["1"].isHidden()
    assert tuple(cue.getPos()) == pytest.approx((0.4, 0.9, 0.028575), abs=1e-6)
    q = cue.getQuat()
    assert (q.getR(), q.getI(), q.getJ(), q.getK()) == pytest.approx(half_turn_about_x, abs=1e-6)
    scene.set_states(ids, states, show_pocketed=True)
    assert not five.isHidden()
    scene.hide_balls()
    assert all(node.isHidden() for node in scene.ball_nodes.values())


def test_a_ray_through_a_ball_on_screen_picks_it(app_base: ShowBase, scene: TableScene) -> None:
    from panda3d.core import CollisionHandlerQueue, CollisionNode, CollisionRay, CollisionTraverser

    from sim.app.scene.camera import top_down_camera
    from sim.app.scene.scene import BALL_PICK_MASK

    spec = table_spec("9ft")
    scene.set_table(spec)
    scene.set_balls(["cue", "7"], [(0.3, 0.5, spec.ball_radius), (0.9, 1.8, spec.ball_radius)])
    top_down_camera(app_base, spec)
    step(app_base)
    x, y = _pixel(app_base, (0.9, 1.8, spec.ball_radius))
    width, height = app_base.win.getXSize(), app_base.win.getYSize()
    ray = CollisionRay()
    ray.setFromLens(app_base.camNode, 2 * x / width - 1, 1 - 2 * y / height)
    picker = CollisionNode("picker")
    picker.addSolid(ray)
    picker.setFromCollideMask(BALL_PICK_MASK)
    picker.setIntoCollideMask(0)
    picker_np = app_base.camera.attachNewNode(picker)
    queue = CollisionHandlerQueue()
    traverser = CollisionTraverser()
    traverser.addCollider(picker_np, queue)
    traverser.traverse(app_base.render)
    picker_np.removeNode()
    queue.sortEntries()
    assert queue.getNumEntries() >= 1
    assert queue.getEntry(0).getIntoNodePath().getNetTag("ball") == "7"


QUALITY_SCRIPT = """
import json
from sim.app import headless
headless.configure_offscreen(320, 200)
from direct.showbase.ShowBase import ShowBase
from sim.app.scene.camera import top_down_camera
from sim.app.scene.scene import TableScene
from sim.physics.table import table_spec
base = ShowBase()
spec = table_spec("8ft")
scene = TableScene(base, spec, quality="quality")
scene.set_balls(["cue"], [(spec.width / 2, spec.length / 4, spec.ball_radius)])
top_down_camera(base, spec)
for _ in range(3):
    base.taskMgr.step()
img = headless.grab_rgb(base)
def at(p):
    x, y = headless.world_to_pixel(base, p)
    return img[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).mean(axis=0).tolist()
print(json.dumps({
    "pbr": scene.pipeline is not None,
    "centre": at((spec.width / 2, spec.length / 2, 0)),
    "cue": at((spec.width / 2, spec.length / 4, spec.ball_radius)),
    "pockets": [at((*p.center[:2], 0)) for p in scene.table.pockets.values()],
}))
"""


def test_the_quality_preset_renders_with_simplepbr() -> None:
    """In a fresh process, as a window started with --quality quality draws it."""
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(QUALITY_SCRIPT)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["pbr"]
    assert _is_cloth(np.array(out["centre"])), out["centre"]
    assert min(out["cue"]) > 120, out["cue"]
    for colour in out["pockets"]:
        assert max(colour) < 50, colour
