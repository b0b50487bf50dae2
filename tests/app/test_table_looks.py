"""The table's looks: pocket holes that are clean circles, pocket liners with depth, the
balls' textures, and their number labels from high above.

The geometry checks use the physics table (pooltool's pockets) as the yardstick; the
textures are checked against their generator (``assets/make_balls.py``), so stale files
fail here.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from sim.app.scene.tablegeometry import TableLayout
from sim.paths import assets_dir
from sim.physics.table import TableSize, table_spec
from tests.app.conftest import step

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase

    from sim.app.scene.scene import TableScene

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("size", [s.value for s in TableSize])
def test_no_cushion_reaches_into_a_pocket_hole(size: str) -> None:
    """The jaws run a few millimetres into the pocket circles at the rail line (physics);
    drawn, each cushion stops at the circle, so a hole seen from above is a clean circle
    (a cushion's corner poking into it looked like a notch)."""
    layout = TableLayout.from_table(table_spec(size).build())
    for polygon, heights in layout.cushion_tops:
        assert len(heights) == len(polygon)
        assert np.all((heights >= layout.nose_height - 1e-9) & (heights <= layout.rail_top + 1e-9))
        for face in (polygon, *layout.cushion_faces):
            for _, centre, radius in layout.pockets:
                assert np.linalg.norm(face - centre, axis=1).min() > radius - 1e-6

    # Every hole has its wall in the wood; where a jaw reached into the circle, the cut
    # in the cushion lies on the circle too.
    def on_circle(arc: np.ndarray) -> set[str]:
        return {
            pid
            for pid, centre, radius in layout.pockets
            if np.allclose(np.linalg.norm(arc - centre, axis=1), radius)
        }

    assert set().union(*map(on_circle, layout.pocket_walls)) == {p for p, _, _ in layout.pockets}
    for arc, z in layout.cushion_walls:
        assert len(on_circle(arc)) == 1 and len(z) == len(arc)


def _make_balls() -> Any:
    spec = importlib.util.spec_from_file_location("make_balls", ROOT / "assets" / "make_balls.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("ball", ["cue", "1", "6", "9", "14"])
def test_the_ball_textures_are_the_generators(ball: str) -> None:
    from PIL import Image

    made = _make_balls().ball_texture(ball)
    stored = np.asarray(Image.open(assets_dir() / "balls" / f"{ball}.png").convert("RGB"))
    assert stored.shape == made.shape
    assert np.abs(stored.astype(int) - made.astype(int)).max() <= 1


def test_numbered_balls_carry_their_number_twice_and_stripes_a_band() -> None:
    from PIL import Image

    def texel(ball: str, lon: float, lat: float) -> np.ndarray:
        image = np.asarray(Image.open(assets_dir() / "balls" / f"{ball}.png").convert("RGB"))
        h, w, _ = image.shape
        col = int((0.5 + lon / 360) * w) % w
        row = min(h - 1, int((0.5 - lat / 180) * h))
        return image[row, col].astype(int)

    for ball in [str(n) for n in range(1, 16)]:
        for lon in (0.0, 180.0):  # +x and -x: the disc, ivory round the ink
            disc = np.stack([texel(ball, lon + d, e) for d in (-14, 14) for e in (-10, 10)])
            assert disc.min() > 180, f"{ball}: no number disc at {lon}"
            number = np.stack([texel(ball, lon + d, 0) for d in range(-12, 13, 3)])
            assert number.min() < 60, f"{ball}: no ink in the disc at {lon}"
        side = texel(ball, 90.0, 0.0)  # between the discs, on the equator: the colour
        for lon in (0.0, 180.0):  # the disc a third of the diameter, as on a real set:
            for d in (-22, 22):  # (a larger one made the solids read as stripes)
                assert np.abs(texel(ball, lon + d, 0.0) - side).max() < 10, f"{ball}: disc"
        pole = texel(ball, 0.0, 80.0)
        assert int(side.max()) - int(side.min()) > 40 or side.max() < 60, f"{ball}: {side}"
        if int(ball) >= 9:
            assert pole.min() > 200, f"stripe {ball} has a coloured cap {pole}"
        else:
            assert np.abs(pole - side).max() < 10, f"solid {ball}: {pole} vs {side}"


@pytest.fixture(scope="module")
def scene(app_base: ShowBase) -> Iterator[TableScene]:
    from sim.app.scene.scene import TableScene

    table_scene = TableScene(app_base, table_spec(TableSize.NINE_FOOT), quality="fast")
    yield table_scene
    table_scene.destroy()


def _patch(img: np.ndarray, xy: tuple[int, int], r: int = 1) -> np.ndarray:
    x, y = xy
    return np.asarray(img[y - r : y + r + 1, x - r : x + r + 1].reshape(-1, 3).mean(axis=0))


def test_numbers_read_from_high_above_and_labels_hide_close_up(
    app_base: ShowBase, scene: TableScene
) -> None:
    """Overhead, a ball is a few pixels wide: its number label shows in its middle (ivory
    on the black 8). Close and low, the label is gone and the ball is drawn as it is
    (the 8, its number turned away, black in the middle)."""
    from sim.app.headless import grab_rgb, world_to_pixel
    from sim.app.scene.camera import top_down_camera

    spec = table_spec("9ft")
    r = spec.ball_radius
    eight = (spec.width / 2, spec.length / 2, r)
    # The number discs are at the model's +x and -x: turned a quarter about z, they face
    # along y, away from both cameras.
    quarter = (math.cos(math.pi / 4), 0.0, 0.0, math.sin(math.pi / 4))
    scene.set_balls(["8"], [eight], [quarter])
    top_down_camera(app_base, spec)
    step(app_base, 2)
    centre = world_to_pixel(app_base, eight)
    assert centre is not None
    # (ivory round the 8's ink: a black ball would be under 50)
    assert _patch(grab_rgb(app_base).astype(float), centre).min() > 100

    # Lower, the ball some thirty pixels wide (still labelled): the label is small enough
    # that the ball round it reads as black, not as a stripe's white cap (a label two
    # thirds of the ball across made the solids read as stripes).
    app_base.camera.setPos(eight[0], eight[1], 1.75)
    app_base.camera.lookAt(*eight)
    step(app_base, 2)
    centre = world_to_pixel(app_base, eight)
    side = world_to_pixel(app_base, (eight[0] + r, eight[1], r))
    assert centre is not None and side is not None
    assert 20 < 2 * (side[0] - centre[0]) < 36, "not a labelled ball of some thirty pixels"
    image = grab_rgb(app_base).astype(float)
    x, y = centre
    assert image[y - 3 : y + 4, x - 3 : x + 4].min(axis=2).max() > 150  # the label's ivory
    for dx in (-0.55, 0.55):
        edge = world_to_pixel(app_base, (eight[0] + dx * r, eight[1], r))
        assert edge is not None
        assert _patch(image, edge).max() < 60, f"ivory at {dx} radii from the 8's middle"

    app_base.camera.setPos(eight[0] - 0.35, eight[1], 0.12)
    app_base.camera.lookAt(*eight)
    step(app_base, 2)
    centre = world_to_pixel(app_base, eight)
    assert centre is not None
    assert _patch(grab_rgb(app_base).astype(float), centre).max() < 90
    scene.hide_balls()


def test_the_cloth_shows_its_weave_close_up(app_base: ShowBase, scene: TableScene) -> None:
    """Near the camera the cloth has a fine grain (the weave's detail texture); from high
    above, where it would be finer than a pixel, it is left out (it costs software GL a
    texture read per pixel)."""
    from sim.app.headless import grab_rgb
    from sim.app.scene.camera import top_down_camera

    spec = table_spec("9ft")
    scene.set_table(spec)
    scene.hide_balls()

    def grain() -> float:
        step(app_base, 2)
        img = grab_rgb(app_base).astype(float).mean(axis=2)
        h, w = img.shape
        patch = img[h // 2 - 40 : h // 2 + 40, w // 2 - 40 : w // 2 + 40]
        # Pixel-to-pixel differences: the weave, not the light's slow fall-off.
        return float(np.abs(np.diff(patch, axis=1)).mean())

    app_base.camLens.setNearFar(0.02, 60.0)
    app_base.camera.setPos(spec.width / 2, spec.length / 2 - 0.4, 0.4)
    app_base.camera.lookAt(spec.width / 2, spec.length / 2, 0.0)
    near = grain()
    top_down_camera(app_base, spec)
    far = grain()
    assert near > 0.8, f"no weave close up: {near}"
    assert far < 0.5 * near, f"the weave from above: {far} (close up {near})"


def test_a_pocket_shows_its_depth_from_above(app_base: ShowBase, scene: TableScene) -> None:
    """Looking down a pocket: the liner lit near the top and black at the bottom."""
    from sim.app.headless import grab_rgb, world_to_pixel

    spec = table_spec("9ft")
    scene.set_table(spec)
    assert scene.layout is not None
    for pid, centre, radius in scene.layout.pockets:
        app_base.camera.setPos(centre[0], centre[1], 0.6)
        app_base.camera.lookAt(centre[0], centre[1], 0.0)
        step(app_base, 2)
        img = grab_rgb(app_base).astype(float)
        middle = world_to_pixel(app_base, (centre[0], centre[1], -0.1))
        assert middle is not None
        rim_light = []
        for angle in np.linspace(0, 2 * math.pi, 12, endpoint=False):
            at = centre + 0.97 * radius * np.array([math.cos(angle), math.sin(angle)])
            xy = world_to_pixel(app_base, (at[0], at[1], -0.003))
            assert xy is not None
            rim_light.append(_patch(img, xy).mean())
        bottom = _patch(img, middle, 2).max()
        assert bottom < 12, f"pocket {pid}: bottom {bottom}"
        assert np.median(rim_light) > bottom + 8, f"pocket {pid}: liner {rim_light}"
