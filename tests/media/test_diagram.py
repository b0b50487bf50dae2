"""Shot diagrams of real shots (a self-played rack): cloth where the table is, each ball's
colour where it stopped and in its pocket, its path along the timeline, the call, and
the ruling written under the table."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from PIL import Image

from rules import CUE, Player
from sim.media.diagram import (
    BACKGROUND,
    BALL_COLOURS,
    CALLED,
    CLOTH,
    IVORY,
    DiagramLayout,
    _cushion_outlines,
    _table,
    diagram_layout,
    shot_diagram,
)
from sim.physics.table import TableSize, table_spec
from sim.physics.timeline import MarkerKind, ShotTimeline
from sim.play.game import Game, GameSetup, ShotRecord
from sim.play.selfplay import play_racks, play_turn

pytestmark = pytest.mark.physics

RGB = tuple[int, int, int]


@pytest.fixture(scope="module")
def game() -> Game:
    """Two self-played racks with a foul that pockets a ball among balls still about
    (the first seed from 8 that gives one: the shot picker fouls less as it improves)."""
    for seed in range(8, 40):
        played = Game(GameSetup(seed=seed, race_to=3))
        played.start(Player.A)
        play_racks(played, 2, random.Random(seed))
        if _fouls(played):
            return played
    pytest.fail("no self-played game with a foul that pockets a ball")


def _cue_travel(record: ShotRecord) -> float:
    """How far the cue ball rolled on the bed (metres)."""
    timeline = ShotTimeline.from_system(record.simulated.system)
    cue = timeline.index(CUE)
    states = timeline.states(np.linspace(0.0, timeline.duration, 200))
    track = states.positions[~states.pocketed[:, cue], cue, :2]
    return float(np.hypot(*np.diff(track, axis=0).T).sum())


def _pockets(record: ShotRecord) -> list[str]:
    timeline = ShotTimeline.from_system(record.simulated.system)
    return [m.balls[0] for m in timeline.markers if m.kind is MarkerKind.POCKET]


def _fouls(game: Game) -> list[ShotRecord]:
    return [
        s for s in game.shots if s.ruling.foul_codes and _pockets(s) and len(s.simulated.after) >= 5
    ]


@pytest.fixture(scope="module")
def foul(game: Game) -> ShotRecord:
    """A foul that pockets a ball with balls still about (five or more at rest) and a
    cue-ball path long enough to look for."""
    return max(_fouls(game), key=_cue_travel)


@pytest.fixture(scope="module")
def pot(game: Game) -> ShotRecord:
    return next(
        s
        for s in game.shots
        if not s.ruling.foul_codes and s.stroke.call is not None and _pockets(s)
    )


@pytest.fixture(scope="module")
def pictures(game: Game, foul: ShotRecord, pot: ShotRecord) -> dict[str, Image.Image]:
    spec, names = game.setup.spec, game.setup.players
    return {
        "foul": shot_diagram(foul, spec, players=names),
        "pot": shot_diagram(pot, spec, players=names),
    }


def _near(colour: tuple[int, ...], expected: RGB, tolerance: float) -> bool:
    return math.dist(colour[:3], expected) <= tolerance


def _pixel(image: Image.Image, point: tuple[float, float]) -> RGB:
    value = image.getpixel((int(point[0]), int(point[1])))
    assert isinstance(value, tuple)
    return (int(value[0]), int(value[1]), int(value[2]))


def _around(image: Image.Image, point: tuple[float, float], reach: int = 1) -> list[RGB]:
    x, y = int(point[0]), int(point[1])
    return [
        _pixel(image, (x + dx, y + dy))
        for dx in range(-reach, reach + 1)
        for dy in range(-reach, reach + 1)
    ]


def test_layout_is_landscape_with_the_head_at_the_left() -> None:
    spec = table_spec()
    layout = diagram_layout(spec, 1280)
    head_left = layout.to_pixels((0.0, 0.0))
    foot_left = layout.to_pixels((0.0, spec.length))
    head_right = layout.to_pixels((spec.width, 0.0))
    assert foot_left[0] - head_left[0] == pytest.approx(spec.length * layout.scale)
    assert foot_left[1] == head_left[1]  # the long axis runs left to right
    assert head_right[1] - head_left[1] == pytest.approx(spec.width * layout.scale)
    assert head_right[0] == head_left[0]  # the left rail (x = 0) on top
    assert head_left[0] > 0 and foot_left[0] < 1280
    assert foot_left[0] - head_left[0] > 0.8 * 1280  # the table fills the width
    assert layout.scaled(2).to_pixels((0.3, 1.1)) == pytest.approx(
        tuple(2 * c for c in layout.to_pixels((0.3, 1.1)))
    )


def test_layout_refuses_a_silly_width() -> None:
    with pytest.raises(ValueError, match="width"):
        diagram_layout(table_spec(), 100)


@pytest.mark.parametrize("size", list(TableSize))
def test_cushions_come_from_the_physics_segments(size: TableSize) -> None:
    """Six cushions, one between each two pockets, each from the back of one jaw to the
    back of the other; every nose point lies on a segment or jaw tip."""
    spec = table_spec(size)
    table = _table(spec)
    outlines = _cushion_outlines(table)
    assert len(outlines) == 6
    w, length = spec.width, spec.length
    for outline in outlines:
        assert len(outline) > 10  # two jaws, two rounded tips, the cushion
        for end in (outline[0], outline[-1]):
            behind = max(-end[0], end[0] - w, -end[1], end[1] - length)
            assert behind == pytest.approx(0.0508, abs=1e-3)


def test_diagram_size_and_surroundings(game: Game, pictures: dict[str, Image.Image]) -> None:
    layout = diagram_layout(game.setup.spec, 1280)
    for image in pictures.values():
        assert image.mode == "RGB"
        assert image.width == 1280
        assert layout.table_height + 150 < image.height < 1400
        assert _pixel(image, (2, 2)) == BACKGROUND
        assert _pixel(image, (1277, image.height - 3)) == BACKGROUND


def test_cloth_where_the_table_is(game: Game, pictures: dict[str, Image.Image]) -> None:
    spec = game.setup.spec
    layout = diagram_layout(spec, 1280)
    grid = [
        layout.to_pixels((x, y))
        for x in np.linspace(0.1, spec.width - 0.1, 9)
        for y in np.linspace(0.1, spec.length - 0.1, 17)
    ]
    for image in pictures.values():
        cloth = sum(_near(_pixel(image, p), CLOTH, 6) for p in grid)
        assert cloth > 0.75 * len(grid)  # paths and balls cover the rest


def _final(record: ShotRecord) -> tuple[ShotTimeline, dict[str, tuple[float, float]]]:
    timeline = ShotTimeline.from_system(record.simulated.system)
    at_rest = timeline.at(timeline.duration)
    rest = {
        ball: (float(at_rest.positions[i][0]), float(at_rest.positions[i][1]))
        for i, ball in enumerate(timeline.ball_ids)
        if not at_rest.pocketed[i]
    }
    return timeline, rest


@pytest.mark.parametrize("which", ["foul", "pot"])
def test_ball_colours_where_the_balls_stopped(
    game: Game, foul: ShotRecord, pot: ShotRecord, pictures: dict[str, Image.Image], which: str
) -> None:
    record = foul if which == "foul" else pot
    spec = game.setup.spec
    layout = diagram_layout(spec, 1280)
    _timeline, rest = _final(record)
    assert len(rest) >= 5
    r = spec.ball_radius * layout.scale
    for ball, at in rest.items():
        x, y = layout.to_pixels(at)
        # Between the number disc and the outline, to the left and right (a stripe's band
        # runs across the picture); a marker may cover a side.
        ring = [
            _pixel(pictures[which], (x + 0.78 * r * math.cos(a), y + 0.78 * r * math.sin(a)))
            for a in np.radians([0, 30, 150, 180, 210, 330])
        ]
        assert sum(_near(c, BALL_COLOURS[ball], 40) for c in ring) >= 4, (ball, ring)


def test_pocketed_balls_are_shown_in_their_pocket(
    game: Game, foul: ShotRecord, pictures: dict[str, Image.Image]
) -> None:
    spec = game.setup.spec
    layout = diagram_layout(spec, 1280)
    table = _table(spec)
    timeline = ShotTimeline.from_system(foul.simulated.system)
    drops = [m for m in timeline.markers if m.kind is MarkerKind.POCKET]
    assert drops
    r = 0.78 * spec.ball_radius * layout.scale
    for marker in drops:
        if sum(m.place == marker.place for m in drops) > 1:
            continue  # shared pockets fan the balls out
        assert marker.place is not None
        x, y = layout.to_pixels(table.pockets[marker.place].center)
        colour = BALL_COLOURS[marker.balls[0]]
        sides = [_pixel(pictures["foul"], (x + s * 0.78 * r, y)) for s in (-1, 1)]
        assert any(_near(c, colour, 40) for c in sides), (marker, sides)


def test_the_cue_balls_path_is_drawn(
    game: Game, foul: ShotRecord, pictures: dict[str, Image.Image]
) -> None:
    spec = game.setup.spec
    layout = diagram_layout(spec, 1280)
    timeline = ShotTimeline.from_system(foul.simulated.system)
    cue = timeline.index(CUE)
    states = timeline.states(np.linspace(0.0, timeline.duration, 400))
    start = states.positions[0, cue, :2]
    end = states.positions[-1, cue, :2]
    clear = 3 * spec.ball_radius
    samples = [
        p[:2]
        for p, down in zip(states.positions[:, cue], states.pocketed[:, cue], strict=True)
        if not down and min(np.hypot(*(p[:2] - start)), np.hypot(*(p[:2] - end))) > clear
    ]
    assert len(samples) >= 10  # points of the path away from its ends, to look at
    on_path = sum(
        any(_near(c, IVORY, 60) for c in _around(pictures["foul"], layout.to_pixels(p)))
        for p in samples
    )
    assert on_path > 0.85 * len(samples)


def test_the_called_pocket_is_ringed(
    game: Game, pot: ShotRecord, pictures: dict[str, Image.Image]
) -> None:
    assert pot.stroke.call is not None
    spec = game.setup.spec
    layout = diagram_layout(spec, 1280)
    pocket = _table(spec).pockets[pot.stroke.call.pocket.value]
    x, y = layout.to_pixels(pocket.center)
    ring = layout.pixels(pocket.radius + 0.012)
    angles = np.linspace(0, 2 * math.pi, 24, endpoint=False)
    gold = sum(
        any(
            _near(c, CALLED, 50)
            for c in _around(pictures["pot"], (x + ring * math.cos(a), y + ring * math.sin(a)))
        )
        for a in angles
    )
    assert gold > 0.6 * len(angles)


def _text_rows(image: Image.Image, layout: DiagramLayout) -> list[int]:
    """Rows under the table with light pixels (text), grouped into lines: each line's
    first row."""
    pixels = np.asarray(image)[layout.table_height :].astype(int)
    light = (pixels.sum(axis=2) > 3 * 120).any(axis=1)
    starts = [i for i in range(1, len(light)) if light[i] and not light[i - 1]]
    return starts


def test_the_ruling_is_written_under_the_table(
    game: Game, foul: ShotRecord, pot: ShotRecord, pictures: dict[str, Image.Image]
) -> None:
    layout = diagram_layout(game.setup.spec, 1280)
    for record, image in ((foul, pictures["foul"]), (pot, pictures["pot"])):
        lines = _text_rows(image, layout)
        # legend, title, foul/pocketed line, every reason, the footer
        assert len(lines) >= 1 + 1 + 1 + len(record.ruling.reasons) + 1
    # The foul line and the foul reason are in the foul colour.
    text = np.asarray(pictures["foul"])[layout.table_height :].astype(int)
    reddish = (text[..., 0] > 200) & (text[..., 1] < 150) & (text[..., 2] < 140)
    assert reddish.sum() > 200


def test_text_wraps_to_a_narrow_width(game: Game, foul: ShotRecord) -> None:
    spec = game.setup.spec
    layout = diagram_layout(spec, 640)
    short = shot_diagram(foul, spec, width=640)
    long = shot_diagram(foul, spec, width=640, title="A " + "long title " * 30)
    assert long.width == 640
    text = np.asarray(long)[layout.table_height :].astype(int)
    light_columns = np.nonzero((text.sum(axis=2) > 3 * 120).any(axis=0))[0]
    assert light_columns.max() < 640 - 5  # nothing runs off the right edge, legend included
    assert len(_text_rows(long, layout)) >= len(_text_rows(short, layout)) + 3


def test_diagrams_are_reproducible(game: Game, foul: ShotRecord) -> None:
    first = shot_diagram(foul, game.setup.spec, players=game.setup.players)
    again = shot_diagram(foul, game.setup.spec, players=game.setup.players)
    assert first.tobytes() == again.tobytes()


def test_a_rotation_break_shows_every_stripe() -> None:
    played = Game(GameSetup(game="rotation", seed=3))
    played.start(Player.A)
    record = play_turn(played, random.Random(3))
    assert isinstance(record, ShotRecord)
    spec = played.setup.spec
    image = shot_diagram(record, spec)
    layout = diagram_layout(spec, 1280)
    _timeline, rest = _final(record)
    stripes = [b for b in rest if b != CUE and int(b) >= 9]
    assert len(stripes) >= 5
    r = spec.ball_radius * layout.scale
    for ball in stripes:
        x, y = layout.to_pixels(rest[ball])
        assert _near(_pixel(image, (x + 0.78 * r, y)), BALL_COLOURS[ball], 40)
        # above the band: white
        assert _near(_pixel(image, (x, y - 0.86 * r)), IVORY, 60)


def test_a_game_that_calls_no_shot_is_not_said_to_shoot_without_a_call(game: Game) -> None:
    """NB-17: a 9-ball (or rotation) shot is just a shot; a 10-ball one without a call
    says so."""
    from sim.media.diagram import _title

    first = game.shots[0]  # the break: no call, nothing declared
    assert first.stroke.call is None and first.stroke.declaration is None
    assert _title(first, None, 1, calls_shots=True) == "Shot 1, rack 1: Player A shoots, no call"
    assert _title(first, None, 1, calls_shots=False) == "Shot 1, rack 1: Player A shoots"
