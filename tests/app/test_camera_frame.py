"""The HUD's layout and the framed camera views, worked out without a window: the bands
never overlap the table's part of the window, and a framed view puts every pocket and
the cloth inside it and the rails inside the window; the camera's own projection is
Panda3D's, film offset and all."""

from __future__ import annotations

import math
from itertools import combinations

import pytest
from panda3d.core import NodePath, PerspectiveLens, Point2, Point3

from sim.app.hud.layout import HudLayout
from sim.app.scene.camera import WINDOW, CameraRig, TableOutline, View, framed
from sim.app.scene.tablegeometry import TableLayout
from sim.physics.table import table_spec

ASPECTS = (1280 / 800, 1920 / 1080, 1024 / 768, 800 / 1000, 2560 / 1080, 1.0)
FOV = 50.0  # the window's lens, across


@pytest.fixture(scope="module")
def outline() -> TableOutline:
    spec = table_spec("9ft")
    return TableOutline.of(TableLayout.from_table(spec.build()), spec.ball_radius)


@pytest.mark.parametrize("aspect", ASPECTS)
def test_the_bands_leave_the_table_its_own_part_of_the_window(aspect: float) -> None:
    layout = HudLayout.for_window(aspect)
    hw, hh = layout.half_width, layout.half_height
    assert min(hw, hh) == 1.0 and hw / hh == pytest.approx(aspect)
    blocks = [layout.top_bar, layout.prompt_bar, layout.controls, layout.cameras, layout.words]
    for block in [*blocks, layout.table]:
        assert -hw <= block.x0 < block.x1 <= hw and -hh <= block.y0 < block.y1 <= hh
    for a, b in combinations(blocks, 2):
        assert not a.overlaps(b), (a, b)
    for block in blocks:
        assert not block.overlaps(layout.table), block
    assert layout.words.width >= 0.9  # the referee's lines have room
    # The table's part is the window's whole width, and about half its height or more.
    assert layout.table.width == 2 * hw and layout.table.height > 0.9 * hh


def test_a_narrow_window_gives_the_words_a_row_of_their_own() -> None:
    tall, wide = HudLayout.for_window(0.8), HudLayout.for_window(1.6)
    assert tall.words.y0 >= tall.controls.y1 and tall.words.width > 1.9
    assert wide.words.y0 == wide.controls.y0 and wide.words.x0 > wide.controls.x1


@pytest.mark.parametrize("aspect", ASPECTS)
@pytest.mark.parametrize("pitch", [-89.5, -48.0])
def test_a_framed_view_shows_the_pockets_inside_the_free_part(
    aspect: float, pitch: float, outline: TableOutline
) -> None:
    free = HudLayout.for_window(aspect).table_on_screen()
    tan_x = math.tan(math.radians(FOV / 2))
    tan_y = tan_x / aspect
    view = framed(View((0.635, 1.27, 0.0), -90.0, pitch), outline, free, tan_x, tan_y)
    clear = [view.project(p, tan_x, tan_y) for p in outline.clear]
    whole = [view.project(p, tan_x, tan_y) for p in outline.whole]
    assert all(p is not None and free.contains(*p) for p in clear)
    assert all(p is not None and WINDOW.contains(*p) for p in whole)
    # As large as it can be: a little closer and it no longer fits.
    closer = View(view.target, view.heading, view.pitch, view.distance * 0.97, view.shift)
    projected = [closer.project(p, tan_x, tan_y) for p in outline.clear + outline.whole]
    inside = [free.contains(*p) for p in projected[: len(clear)] if p is not None]
    in_window = [WINDOW.contains(*p) for p in projected[len(clear) :] if p is not None]
    assert not (all(inside) and all(in_window))


@pytest.mark.parametrize(
    "view",
    [
        View((0.6, 1.3, 0.0), -90.0, -48.0, 3.6, (0.05, 0.2)),
        View((0.3, 0.5, 0.03), 37.0, -21.0, 1.5),
        View((0.6, 1.3, 0.0), -90.0, -89.5, 4.2, (0.0, 0.16)),
    ],
)
def test_the_camera_projects_as_panda3d_does_film_offset_and_all(view: View) -> None:
    aspect = 1.6
    lens = PerspectiveLens()
    lens.setFov(FOV)
    lens.setAspectRatio(aspect)
    film = lens.getFilmSize()
    lens.setFilmOffset(-view.shift[0] * film[0] / 2, -view.shift[1] * film[1] / 2)
    camera = NodePath("camera")
    camera.setPos(*view.position())
    camera.setHpr(view.heading, view.pitch, 0.0)
    world = NodePath("world")
    tan_x = math.tan(math.radians(FOV / 2))
    for point in [(0.1, 0.2, 0.0), (1.2, 2.4, 0.03), (0.635, 1.27, 0.08)]:
        seen = Point2()
        lens.project(camera.getRelativePoint(world, Point3(*point)), seen)  # off it too
        mine = view.project(point, tan_x, tan_x / aspect)
        assert mine == pytest.approx((seen.x, seen.y), abs=1e-5)


class _Base:
    """What a camera rig uses of a ShowBase: its lens, its camera, the window's shape."""

    def __init__(self, aspect: float) -> None:
        self.camLens = PerspectiveLens()
        self.camLens.setFov(FOV)
        self.camLens.setAspectRatio(aspect)
        self.camera = NodePath("camera")
        self.aspect = aspect

    def getAspectRatio(self) -> float:
        return self.aspect


@pytest.mark.parametrize("preset", ["overhead", "broadcast"])
def test_a_framed_view_leans_toward_the_balls_only_while_every_pocket_stays_free(
    preset: str,
) -> None:
    aspect = 1.6
    rig = CameraRig(_Base(aspect), table_spec("9ft"))  # type: ignore[arg-type]
    rig.set_free(HudLayout.for_window(aspect).table_on_screen())
    rig.show(preset)
    rig.jump()
    centre = rig.goal.target
    rig.follow([(1.2, 2.5)])  # the balls run to a far corner
    leaned = rig.goal.target
    assert rig.shows_every_pocket()
    assert leaned[1] >= centre[1]  # toward the balls, if at all
    assert math.dist(leaned[:2], centre[:2]) < 0.4 * math.dist((1.2, 2.5), centre[:2])


def test_behind_the_cue_ball_the_view_leans_the_whole_share() -> None:
    rig = CameraRig(_Base(1.6), table_spec("9ft"))  # type: ignore[arg-type]
    rig.show("behind", (0.6, 0.6), 90.0)
    rig.follow([(1.2, 2.5)])
    assert rig.goal.target[:2] == pytest.approx((0.635 + 0.4 * 0.565, 1.27 + 0.4 * 1.23))


@pytest.mark.parametrize("aspect", ASPECTS)
@pytest.mark.parametrize(
    ("cue", "aim"), [((0.25, 1.0), 0.0), ((0.635, 0.5), 90.0), ((1.0, 2.2), 250.0)]
)
def test_behind_the_cue_ball_no_pocket_in_sight_is_under_the_bands(
    aspect: float, cue: tuple[float, float], aim: float, outline: TableOutline
) -> None:
    """A cue ball by the side rail, aimed across: the side pocket beside it was drawn
    under the cue-ball widget (issue 28, friction 12); the picture is lifted, and the
    camera pulled back, until every pocket in sight is in the table's part."""
    base = _Base(aspect)
    rig = CameraRig(base, table_spec("9ft"))  # type: ignore[arg-type]
    rig.set_free(HudLayout.for_window(aspect).table_on_screen())
    rig.show("behind", cue, aim)
    tan_x = math.tan(math.radians(FOV / 2))
    project = rig.goal.projector(tan_x, tan_x / aspect)
    for pocket in outline.pockets:
        at = project(pocket)
        if at is not None and abs(at[0]) < 1 and abs(at[1]) < 1:
            assert rig.free.contains(*at), (pocket, at, rig.free)
    assert project((*cue, 0.028)) is not None  # the cue ball itself in sight


@pytest.mark.parametrize("elevation", [0.0, 5.0, 12.0, 20.0, 26.0, 30.0, 45.0, 60.0])
def test_the_view_behind_the_cue_ball_looks_down_over_a_raised_cue(elevation: float) -> None:
    """With the cue raised over a ball behind the cue ball, the camera behind the cue ball
    sat on the cue's line, inside the stick: the view was all wood (a play-through at
    rotation, cue 26 degrees over the 5). Now it looks down from above the stick, at
    every distance the view may be moved back to."""
    from sim.app.scene.camera import (
        BEHIND_DISTANCES,
        BEHIND_LOOK_AHEAD,
        BEHIND_PITCH,
        behind_pitch,
    )
    from sim.play.geometry.cueclearance import BUTT_RADIUS, STICK_LENGTH, TIP_GAP

    radius = table_spec("9ft").ball_radius
    cue = (0.6, 1.0)
    pitch = behind_pitch(elevation)
    assert pitch <= BEHIND_PITCH and (elevation > 13 or pitch == BEHIND_PITCH)
    rise = math.tan(math.radians(elevation))
    reach = TIP_GAP + STICK_LENGTH * math.cos(math.radians(elevation))
    for distance in BEHIND_DISTANCES:
        view = View(
            target=(cue[0], cue[1] + BEHIND_LOOK_AHEAD, radius),
            heading=0.0,  # along +y: the aim at 90 degrees
            pitch=pitch,
            distance=distance,
        )
        _x, y, height = view.position()
        back = cue[1] - y  # how far behind the cue ball, along the shot
        assert back > 0
        if back <= reach:
            assert height > radius + back * rise + BUTT_RADIUS + 0.02, (distance, height)
