"""Shot diagrams: one shot of a game drawn from above, with the ruling written under it
(``poolsim export --diagram``); and positions, the balls at rest and who is to shoot
(``poolsim export POS.json --diagram``).

The table is landscape: its long axis runs left to right with the head (the break end,
y = 0) at the left and the foot at the right, so the left rail (x = 0) is at the top.
That is the table seen from above, turned, not mirrored. :class:`DiagramLayout` is the
one metres-to-pixels transform; tests and callers that mark the picture use it too.

The table is the physics' table: cushion noses, jaws and jaw tips from pooltool's
cushion segments, pocket holes from its pocket circles (the point of no return), read
as plain numbers (:meth:`sim.physics.table.TableSpec.plan`), so a
ball is drawn touching a cushion exactly when the physics had it touch. Paths are
sampled from the shot timeline (with every event time, so a path turns exactly where
the ball hit something). Everything is drawn at :data:`SUPERSAMPLE` times the size and
scaled down: Pillow's circles, polygons and lines are not anti-aliased otherwise.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from functools import cache
from typing import TypeAlias

import attrs
import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from rules import CUE, BallId, BallInHand, Declaration, GameState
from rules.facts import PocketId
from rules.geometry import Point
from rules.lead import ruling_line
from rules.positions import ball_number
from rules.words import FOUL_WORDS, pocket_name
from sim.names import with_names
from sim.paths import assets_dir
from sim.physics.table import TablePlan, TableSpec
from sim.physics.timeline import MarkerKind, ShotTimeline
from sim.play.game import ShotRecord
from sim.play.position import Position

RGB: TypeAlias = tuple[int, int, int]
RGBA: TypeAlias = tuple[int, int, int, int]
Font: TypeAlias = ImageFont.FreeTypeFont
PixelPoint: TypeAlias = tuple[float, float]

DEFAULT_WIDTH = 1280
MIN_WIDTH, MAX_WIDTH = 480, 7680
SUPERSAMPLE = 2
RAIL_WIDTH = 0.115  # metres of wood beyond the cushions' backs (drawn only)
MARGIN = 0.02  # around the table, as a share of the picture's width
PATH_RATE = 400.0  # path samples per second of shot, on top of every event time
START_ALPHA = 0.4  # opacity of the balls where they started
MIN_TEXT_SCALE = 0.7  # text in a narrow picture: at least 0.7 times its size at 1280
STRIPE_BAND = 0.72  # half the height of a stripe's band, in ball radii

BACKGROUND: RGB = (24, 26, 31)
WOOD: RGB = (104, 64, 38)
WOOD_EDGE: RGB = (62, 37, 21)
CLOTH: RGB = (36, 124, 84)
CUSHION: RGB = (25, 96, 63)
NOSE: RGB = (88, 170, 126)
HOLE: RGB = (8, 8, 8)
MARKING: RGBA = (210, 235, 220, 110)
SIGHT: RGB = (236, 228, 206)
TEXT: RGB = (232, 234, 238)
MUTED: RGB = (150, 156, 166)
FOUL: RGB = (255, 118, 104)
LEGAL: RGB = (132, 220, 150)
CALLED: RGB = (255, 200, 56)
FIRST_CONTACT: RGB = (255, 226, 84)
RAIL_CONTACT: RGB = (255, 140, 66)
POCKET_DROP: RGB = (255, 77, 109)
IVORY: RGB = (246, 243, 232)
OUTLINE: RGBA = (0, 0, 0, 170)

# Pool-ball colours: 1-8 solids, 9-15 stripes of the colour of the number less 8.
_SOLIDS: dict[int, RGB] = {
    1: (250, 196, 18),  # yellow
    2: (28, 72, 196),  # blue
    3: (214, 36, 36),  # red
    4: (104, 42, 156),  # purple
    5: (246, 122, 22),  # orange
    6: (6, 84, 40),  # green, darker than the cloth
    7: (132, 30, 30),  # maroon
    8: (18, 18, 18),  # black
}
BALL_COLOURS: dict[BallId, RGB] = {
    CUE: IVORY,
    **{str(n): _SOLIDS[n if n <= 8 else n - 8] for n in range(1, 16)},
}


def is_stripe(ball: BallId) -> bool:
    return ball != CUE and int(ball) >= 9


@attrs.frozen
class DiagramLayout:
    """Where the table lands in the picture. ``width`` and ``table_height`` in pixels
    (the table band: the table, its rails and margin, from the top of the picture);
    ``scale`` pixels per metre; ``left``, ``top`` the pixel of the cushion-nose corner
    at the origin (head end, left rail)."""

    width: int
    table_height: int
    scale: float
    left: float
    top: float

    def to_pixels(self, point: Sequence[float] | NDArray[np.float64]) -> PixelPoint:
        """Table metres (x across, y along) to pixels (right, down): y runs right from
        the head, x runs down from the left rail."""
        return (self.left + float(point[1]) * self.scale, self.top + float(point[0]) * self.scale)

    def pixels(self, metres: float) -> float:
        return metres * self.scale

    def scaled(self, factor: int) -> DiagramLayout:
        return DiagramLayout(
            width=self.width * factor,
            table_height=self.table_height * factor,
            scale=self.scale * factor,
            left=self.left * factor,
            top=self.top * factor,
        )


def diagram_layout(spec: TableSpec, width: int = DEFAULT_WIDTH) -> DiagramLayout:
    """The layout of :func:`shot_diagram` for ``spec`` at ``width`` pixels."""
    if isinstance(width, bool) or not isinstance(width, int) or not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"diagram width must be {MIN_WIDTH} to {MAX_WIDTH} pixels, got {width!r}")
    border = _cushion_depth(_table(spec)) + RAIL_WIDTH
    margin = MARGIN * width
    scale = (width - 2 * margin) / (spec.length + 2 * border)
    return DiagramLayout(
        width=width,
        table_height=math.ceil(2 * margin + (spec.width + 2 * border) * scale),
        scale=scale,
        left=margin + border * scale,
        top=margin + border * scale,
    )


def shot_diagram(
    record: ShotRecord,
    spec: TableSpec,
    *,
    width: int = DEFAULT_WIDTH,
    players: tuple[str, str] | None = None,
    kind: type[GameState] | None = None,
    shot_number: int | None = None,
    branch: int | None = None,
    title: str | None = None,
    timeline: ShotTimeline | None = None,
) -> Image.Image:
    """The shot from above: the table, each ball's path from where it started (faded) to
    where it stopped (solid; a pocketed ball in its pocket), the first contact, rail
    contacts and drops, the call; under it a legend and the ruling, every reason line.

    ``players``: the two names (A's first), and ``shot_number`` (as ``--shot N`` counts),
    for the first line of text, with ``branch``, the line of the game's branches it was
    counted along (none: the line the match is at); ``kind``: the game, for the
    referee's plain line first (without it, the fouls) and for the title (a game that
    calls no shot, as 9-ball, is not said to have played one with "no call"); ``title``
    replaces that line;
    ``timeline``: the shot's, when the caller has built it already.
    Returns an RGB image ``width`` pixels wide, as tall as its text needs."""
    layout = diagram_layout(spec, width)
    timeline = timeline or ShotTimeline.from_system(record.simulated.system)
    shot = _ShotDrawing(record, spec, timeline)
    big = layout.scaled(SUPERSAMPLE)
    # Text shrinks with the picture, but not below what a screen can show.
    fonts = _Fonts(SUPERSAMPLE * max(width / DEFAULT_WIDTH, MIN_TEXT_SCALE))

    left, right = _margin(big), big.width - _margin(big)
    legend = _legend(fonts, shot.called_pocket is not None, left, right)
    rows = 1 + max(row for *_, row in legend)
    legend_height = round(rows * _legend_row_height(fonts) + 0.5 * fonts.body.size)
    if title is None:
        title = _title(record, players, shot_number, calls_shots=kind is None or kind.calls_shots)
        if branch:
            title = f"Branch {branch}, {title[0].lower()}{title[1:]}"
    text_lines = _text_lines(record, shot, title, fonts, right - left, players, kind)
    text_height = sum(line.height for line in text_lines) + round(fonts.body.size * 1.2)
    height = big.table_height + legend_height + text_height
    height += -height % SUPERSAMPLE  # scales down to whole pixels
    image = Image.new("RGBA", (big.width, height), (*BACKGROUND, 255))

    table = _table(spec)
    _draw_table(image, big, table, spec, shot.called_pocket)
    shot.draw(image, big, table)
    _draw_legend(image, legend, fonts, big.table_height)
    y = big.table_height + legend_height
    draw = ImageDraw.Draw(image)
    for line in text_lines:
        line.draw(draw, _margin(big), y)
        y += line.height
    return image.convert("RGB").resize(
        (width, height // SUPERSAMPLE), Image.Resampling.LANCZOS, reducing_gap=None
    )


def position_diagram(
    position: Position, *, width: int = DEFAULT_WIDTH, title: str | None = None
) -> Image.Image:
    """A position from above: the table, the balls where they lie, the kitchen shaded when
    the cue ball is in hand there; under it who is to shoot and where the cue ball is.
    Returns an RGB image ``width`` pixels wide, as tall as its text needs."""
    spec = position.spec
    layout = diagram_layout(spec, width)
    big = layout.scaled(SUPERSAMPLE)
    fonts = _Fonts(SUPERSAMPLE * max(width / DEFAULT_WIDTH, MIN_TEXT_SCALE))
    left, right = _margin(big), big.width - _margin(big)
    text_lines = _position_lines(position, title, fonts, right - left)
    text_height = sum(line.height for line in text_lines) + round(fonts.body.size * 1.2)
    height = big.table_height + text_height
    height += -height % SUPERSAMPLE  # scales down to whole pixels
    image = Image.new("RGBA", (big.width, height), (*BACKGROUND, 255))
    table = _table(spec)
    _draw_table(image, big, table, spec, None)
    if position.in_hand is BallInHand.KITCHEN:
        _shade_kitchen(image, big, spec)
    _draw_at_rest(image, big, position.balls, big.pixels(spec.ball_radius))
    draw = ImageDraw.Draw(image)
    y = big.table_height + round(fonts.body.size * 0.6)
    for line in text_lines:
        line.draw(draw, left, y)
        y += line.height
    return image.convert("RGB").resize(
        (width, height // SUPERSAMPLE), Image.Resampling.LANCZOS, reducing_gap=None
    )


def _shade_kitchen(image: Image.Image, layout: DiagramLayout, spec: TableSpec) -> None:
    """The kitchen, behind the head string, lit a little: where the cue ball may go."""
    (x0, y0), (x1, y1) = (
        layout.to_pixels((0.0, 0.0)),
        layout.to_pixels((spec.width, spec.geometry.head_string_y)),
    )
    light = Image.new("RGBA", image.size, (0, 0, 0, 0))
    ImageDraw.Draw(light).rectangle(
        (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)), fill=(*IVORY, 38)
    )
    image.alpha_composite(light)


def _position_lines(
    position: Position, title: str | None, fonts: _Fonts, width: float
) -> list[_Line]:
    kind = position.kind
    if title is None:
        title = f"{kind.display_name} position: player {position.turn.value} to shoot"
    waits = "shown where it waits" if CUE in position.balls else "not yet placed"
    if position.in_hand is BallInHand.KITCHEN:
        cue = f"The cue ball is in hand behind the head string (the lit kitchen), {waits}."
    elif position.in_hand is BallInHand.ANYWHERE:
        cue = f"The cue ball is in hand, anywhere on the table, {waits}."
    else:
        cue = "The cue ball is played from where it lies."
    objects = position.balls.object_balls
    listed = ", ".join(objects) if objects else "none"
    body, line_height = fonts.body, round(fonts.body.size * 1.4)
    lines = [
        _Line(((line, TEXT),), fonts.title, round(fonts.title.size * 1.45))
        for line in _wrap(title, fonts.title, width)
    ]
    for text in (cue, f"Object balls on the table: {listed}."):
        lines += [_Line(((line, TEXT),), body, line_height) for line in _wrap(text, body, width)]
    footer = (
        f"Seen from above: head (break end) at left, foot at right. {position.table.value} table."
    )
    lines.append(_Line((("", TEXT),), fonts.small, round(fonts.small.size * 0.5)))
    lines += [
        _Line(((text, MUTED),), fonts.small, round(fonts.small.size * 1.6))
        for text in _wrap(footer, fonts.small, width)
    ]
    return lines


# -- the table ---------------------------------------------------------------------------


@cache
def _table(spec: TableSpec) -> TablePlan:
    # The same table for every diagram of a spec.
    return spec.plan()


def _cushion_depth(table: TablePlan) -> float:
    """How far the cushions reach behind their noses: the jaws' far ends."""
    w, length = table.width, table.length
    return max(
        float(max(-p[0], p[0] - w, -p[1], p[1] - length))
        for segment in table.straight
        for p in (segment.p1, segment.p2)
    )


def _cushion_outlines(table: TablePlan) -> list[list[tuple[float, float]]]:
    """Each cushion between two pockets as the line of its nose, from one jaw's far end
    along the jaw, round the jaw tip, along the cushion and back out along the other jaw.

    Found by chaining pooltool's segments: a straight segment joins its two ends, a jaw
    tip (a circle) joins the two ends that lie on it, and a jaw's far end joins nothing."""
    ends: dict[tuple[str, int], NDArray[np.float64]] = {}
    for segment in table.straight:
        ends[(segment.id, 0)] = np.asarray(segment.p1, dtype=float)
        ends[(segment.id, 1)] = np.asarray(segment.p2, dtype=float)
    links: dict[tuple[str, int], list[tuple[tuple[str, int], list[tuple[float, float]]]]] = {
        end: [((end[0], 1 - end[1]), [])] for end in ends
    }
    for tip in table.jaw_tips:
        centre, radius = np.asarray(tip.center, dtype=float), float(tip.radius)
        on = [end for end, p in ends.items() if abs(np.hypot(*(p - centre)) - radius) < 1e-6]
        if len(on) != 2:
            continue  # not a jaw tip between two straight segments: nothing to join
        a, b = on
        arc = _arc(centre, radius, ends[a], ends[b])
        links[a].append((b, arc))
        links[b].append((a, arc[::-1]))

    outlines, seen = [], set()
    for start in sorted(end for end, joined in links.items() if len(joined) == 1):
        if start in seen:
            continue
        outline = [(float(ends[start][0]), float(ends[start][1]))]
        previous, current = None, start
        while True:
            seen.add(current)
            step = next(((n, arc) for n, arc in links[current] if n != previous), None)
            if step is None:
                break
            following, arc = step
            outline += arc
            outline.append((float(ends[following][0]), float(ends[following][1])))
            previous, current = current, following
        outlines.append(outline)
    return outlines


def _arc(
    centre: NDArray[np.float64], radius: float, a: NDArray[np.float64], b: NDArray[np.float64]
) -> list[tuple[float, float]]:
    """Points strictly between a and b on the circle, the short way round."""
    start = math.atan2(a[1] - centre[1], a[0] - centre[0])
    turn = math.atan2(b[1] - centre[1], b[0] - centre[0]) - start
    turn = (turn + math.pi) % (2 * math.pi) - math.pi
    return [
        (
            float(centre[0] + radius * math.cos(start + turn * k / 12)),
            float(centre[1] + radius * math.sin(start + turn * k / 12)),
        )
        for k in range(1, 12)
    ]


def _draw_table(
    image: Image.Image,
    layout: DiagramLayout,
    table: TablePlan,
    spec: TableSpec,
    called_pocket: PocketId | None,
) -> None:
    draw = ImageDraw.Draw(image)
    px = layout.to_pixels
    depth = _cushion_depth(table)
    w, length = spec.width, spec.length

    def rect(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        (a, b), (c, d) = px((x0, y0)), px((x1, y1))
        return (min(a, c), min(b, d), max(a, c), max(b, d))

    # Wood rail, then the bed reaching under the cushions, the pocket holes cut into
    # both, and the playing surface again over any hole that reaches inside the noses.
    border = depth + RAIL_WIDTH
    draw.rounded_rectangle(
        rect(-border, -border, w + border, length + border),
        radius=layout.pixels(0.05),
        fill=WOOD,
        outline=WOOD_EDGE,
        width=max(1, round(layout.pixels(0.008))),
    )
    draw.rectangle(rect(-depth, -depth, w + depth, length + depth), fill=CLOTH)
    for pocket in table.pockets.values():
        centre, radius = px(pocket.center), layout.pixels(pocket.radius)
        draw.ellipse(_box(centre, radius), fill=HOLE, outline=(48, 48, 48), width=2)
    draw.rectangle(rect(0, 0, w, length), fill=CLOTH)
    for outline in _cushion_outlines(table):
        points = [px(p) for p in outline]
        draw.polygon(points, fill=CUSHION)
        draw.line(points, fill=NOSE, width=max(1, round(layout.pixels(0.004))), joint="curve")

    # Sights on the wood: every eighth of the length, every quarter of the width.
    middle = depth + RAIL_WIDTH / 2
    sights = [(x, y) for y in (-middle, length + middle) for x in (w / 4, w / 2, 3 * w / 4)]
    sights += [(x, k * length / 8) for x in (-middle, w + middle) for k in (1, 2, 3, 5, 6, 7)]
    size = layout.pixels(0.011)
    for cx, cy in (px(p) for p in sights):
        draw.polygon(
            [(cx - size, cy), (cx, cy - size), (cx + size, cy), (cx, cy + size)], fill=SIGHT
        )

    # Head string, and the head, centre and foot spots.
    marks = Image.new("RGBA", image.size, (0, 0, 0, 0))
    mark = ImageDraw.Draw(marks)
    geometry = spec.geometry
    head_a, head_b = px((0, geometry.head_string_y)), px((w, geometry.head_string_y))
    dash = layout.pixels(0.03)
    y = head_a[1]
    while y < head_b[1]:
        mark.line([(head_a[0], y), (head_a[0], min(y + dash, head_b[1]))], fill=MARKING, width=2)
        y += 2 * dash
    for spot in (geometry.head_spot, geometry.centre_spot, geometry.foot_spot):
        mark.ellipse(_box(px(spot), layout.pixels(0.008)), fill=MARKING)
    image.alpha_composite(marks)

    # The end labels, on the wood of the short rails between two sights.
    label = _font(round(layout.pixels(0.034)), bold=True)
    for text, y_metres in (("HEAD", -middle), ("FOOT", length + middle)):
        _vertical_text(image, px((3 * w / 8, y_metres)), text, label, SIGHT)

    if called_pocket is not None:
        pocket = table.pockets[called_pocket.value]
        centre = px(pocket.center)
        ring = layout.pixels(pocket.radius + 0.012)
        draw.ellipse(_box(centre, ring), outline=CALLED, width=max(2, round(layout.pixels(0.008))))


def _vertical_text(
    image: Image.Image, centre: PixelPoint, text: str, font: Font, fill: RGB
) -> None:
    left, top, right, bottom = font.getbbox(text)
    label = Image.new("RGBA", (int(right - left) + 4, int(bottom - top) + 4), (0, 0, 0, 0))
    ImageDraw.Draw(label).text((2 - left, 2 - top), text, font=font, fill=fill)
    label = label.rotate(90, expand=True, resample=Image.Resampling.BICUBIC)
    image.alpha_composite(
        label, (round(centre[0] - label.width / 2), round(centre[1] - label.height / 2))
    )


# -- the shot ------------------------------------------------------------------------------


class _ShotDrawing:
    """The balls' paths, starts, rests and events of one shot, in table metres."""

    def __init__(self, record: ShotRecord, spec: TableSpec, timeline: ShotTimeline) -> None:
        self.spec = spec
        self.timeline = timeline
        self.balls = tuple(sorted(timeline.ball_ids, key=ball_number))
        call = record.stroke.call
        self.called_pocket: PocketId | None = call.pocket if call is not None else None
        self.called_ball: BallId | None = call.ball if call is not None else None

        duration = timeline.duration
        times = np.union1d(timeline.event_times, np.arange(0.0, duration, 1.0 / PATH_RATE))
        states = timeline.states(np.append(times[times < duration], duration))
        self.start = {b: _xy(states.positions[0, timeline.index(b)]) for b in self.balls}
        self.paths: dict[BallId, NDArray[np.float64]] = {}
        self.rest: dict[BallId, tuple[float, float]] = {}
        for ball in self.balls:
            i = timeline.index(ball)
            down = states.pocketed[:, i]
            path = states.positions[~down, i, :2]
            if down.any():  # on to the pocket, where pooltool puts a pocketed ball
                path = np.vstack([path, states.positions[np.argmax(down), i, :2]])
            else:
                self.rest[ball] = _xy(states.positions[-1, i])
            if np.any(np.hypot(*np.diff(path, axis=0).T) > 1e-6):  # it moved
                self.paths[ball] = path

        self.first_contact: tuple[tuple[float, float], tuple[float, float]] | None = None
        self.rail_contacts: list[tuple[BallId, tuple[float, float]]] = []
        self.drops: list[tuple[BallId, str, tuple[float, float]]] = []
        table = _table(spec)
        for marker in timeline.markers:
            if marker.kind is MarkerKind.FIRST_CONTACT:
                at = timeline.at(marker.t)
                a, b = (_xy(at.positions[timeline.index(ball)]) for ball in marker.balls)
                cue = a if marker.balls[0] == CUE else b
                self.first_contact = (((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), cue)
            elif marker.kind is MarkerKind.RAIL:
                ball = marker.balls[0]
                centre = _xy(timeline.at(marker.t).positions[timeline.index(ball)])
                gap, away = table.nearest_cushion(centre)
                contact = (centre[0] - gap * away[0], centre[1] - gap * away[1])
                self.rail_contacts.append((ball, contact))
            elif marker.kind is MarkerKind.POCKET and marker.place is not None:
                ball = marker.balls[0]
                # At the event the ball is already in the pocket: where it crossed in is
                # just before.
                before = timeline.at(max(0.0, marker.t - 1e-7))
                self.drops.append((ball, marker.place, _xy(before.positions[timeline.index(ball)])))

    def draw(self, image: Image.Image, layout: DiagramLayout, table: TablePlan) -> None:
        px = layout.to_pixels
        radius = layout.pixels(self.spec.ball_radius)

        # Paths: each on a casing that sets it off the cloth (light under a dark ball's
        # colour, dark under a light one), all casings first so none hides a path;
        # stripes dashed over ivory.
        paths = Image.new("RGBA", image.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(paths)
        line = max(2, round(0.26 * radius))
        pixel_paths = {b: _thin([px(p) for p in path], 1.0) for b, path in self.paths.items()}
        for ball, points in pixel_paths.items():
            casing = (255, 255, 255, 110) if _dark(BALL_COLOURS[ball]) else (0, 0, 0, 120)
            draw.line(points, fill=casing, width=line + 3, joint="curve")
        for ball, points in sorted(pixel_paths.items(), key=lambda item: -ball_number(item[0])):
            colour = BALL_COLOURS[ball]
            if is_stripe(ball):
                draw.line(points, fill=(*IVORY, 255), width=line, joint="curve")
                for dash in _dashes(points, 3.0 * radius / 4, 2.0 * radius / 4):
                    draw.line(dash, fill=(*colour, 255), width=line, joint="curve")
            else:
                draw.line(points, fill=(*colour, 255), width=line, joint="curve")
        image.alpha_composite(paths)

        # Where the balls started, faded.
        starts = Image.new("RGBA", image.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(starts)
        for ball in self.balls:
            if ball in self.paths:
                _draw_ball(draw, px(self.start[ball]), radius, ball)
        alpha = starts.getchannel("A").point(lambda a: round(a * START_ALPHA))
        starts.putalpha(alpha)
        image.alpha_composite(starts)

        draw = ImageDraw.Draw(image)
        if self.called_ball is not None and self.called_ball in self.start:
            draw.ellipse(
                _box(px(self.start[self.called_ball]), 1.45 * radius),
                outline=CALLED,
                width=max(2, round(0.14 * radius)),
            )
        for _ball, contact in self.rail_contacts:
            _draw_rail_marker(draw, px(contact), 0.42 * radius)
        for _ball, _pocket, where in self.drops:
            _draw_drop_marker(draw, px(where), 0.95 * radius)

        # Where they stopped: on the table with a soft shadow, or in their pocket.
        _draw_at_rest(image, layout, self.rest, radius)
        draw = ImageDraw.Draw(image)
        by_pocket: dict[str, list[BallId]] = {}
        for ball, pocket, _where in self.drops:
            by_pocket.setdefault(pocket, []).append(ball)
        for pocket, balls in by_pocket.items():
            centre = px(table.pockets[pocket].center)
            small = 0.78 * radius
            for k, ball in enumerate(balls):
                if len(balls) == 1:
                    offset = (0.0, 0.0)
                else:
                    angle = 2 * math.pi * k / len(balls) - math.pi / 2
                    offset = (1.05 * small * math.cos(angle), 1.05 * small * math.sin(angle))
                _draw_ball(draw, (centre[0] + offset[0], centre[1] + offset[1]), small, ball)

        # The first contact last, over any ball: the cue ball's outline where it touched
        # the first ball, and a star at the point of contact.
        if self.first_contact is not None:
            contact, cue = self.first_contact
            _dashed_circle(draw, px(cue), radius, (*IVORY, 255), max(1, round(0.08 * radius)))
            _draw_star(draw, px(contact), 0.75 * radius)


def _draw_at_rest(
    image: Image.Image, layout: DiagramLayout, balls: Mapping[BallId, Point], radius: float
) -> None:
    """Balls at rest on the cloth, each with a soft shadow."""
    px = layout.to_pixels
    shadows = Image.new("RGBA", image.size, (0, 0, 0, 0))
    shadow = ImageDraw.Draw(shadows)
    for at in balls.values():
        x, y = px(at)
        shadow.ellipse(_box((x + 0.15 * radius, y + 0.2 * radius), radius), fill=(0, 0, 0, 110))
    image.alpha_composite(shadows.filter(ImageFilter.GaussianBlur(0.18 * radius)))
    draw = ImageDraw.Draw(image)
    for ball in sorted(balls, key=ball_number):
        _draw_ball(draw, px(balls[ball]), radius, ball)


def _dark(colour: RGB) -> bool:
    red, green, blue = colour
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue < 90


def _xy(position: NDArray[np.float64]) -> tuple[float, float]:
    return (float(position[0]), float(position[1]))


def _thin(points: list[PixelPoint], spacing: float) -> list[PixelPoint]:
    """Drop points closer than ``spacing`` pixels to the last one kept (a ball at rest
    adds hundreds of copies of one point); always keep the first and the last."""
    kept = [points[0]]
    for p in points[1:-1]:
        if math.dist(p, kept[-1]) >= spacing:
            kept.append(p)
    kept.append(points[-1])
    return kept


def _dashes(points: list[PixelPoint], on: float, off: float) -> list[list[PixelPoint]]:
    """The polyline cut into dashes ``on`` pixels long with gaps of ``off``."""
    dashes: list[list[PixelPoint]] = []
    current: list[PixelPoint] = [points[0]]
    drawing, left = True, on
    for a, b in itertools.pairwise(points):
        length = math.dist(a, b)
        done = 0.0
        while length - done > left:
            done += left
            t = done / length
            cut = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            if drawing:
                current.append(cut)
                dashes.append(current)
            current = [cut]
            drawing, left = not drawing, on if not drawing else off
        left -= length - done
        if drawing:
            current.append(b)
    if drawing and len(current) > 1:
        dashes.append(current)
    return dashes


def _box(centre: PixelPoint, radius: float) -> tuple[float, float, float, float]:
    return (centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius)


def _draw_ball(draw: ImageDraw.ImageDraw, centre: PixelPoint, radius: float, ball: BallId) -> None:
    """A ball from above: solid, or white with a band of colour for a stripe, and its
    number on a white disc (none on the cue ball)."""
    box = _box(centre, radius)
    colour = BALL_COLOURS[ball]
    draw.ellipse(box, fill=colour)
    if is_stripe(ball):
        cap = math.degrees(math.asin(STRIPE_BAND))
        draw.chord(box, 180 + cap, 360 - cap, fill=IVORY)
        draw.chord(box, cap, 180 - cap, fill=IVORY)
    draw.ellipse(box, outline=OUTLINE, width=max(1, round(0.09 * radius)))
    if ball == CUE:
        return
    disc = 0.58 * radius
    draw.ellipse(_box(centre, disc), fill=IVORY)
    # Two digits a little smaller, to fit the same disc.
    font = _font(max(6, round((0.78 if len(ball) > 1 else 0.95) * radius)), bold=True)
    draw.text(centre, ball, font=font, fill=(16, 16, 16), anchor="mm")


def _draw_star(draw: ImageDraw.ImageDraw, centre: PixelPoint, radius: float) -> None:
    points = [
        (
            centre[0] + (radius if k % 2 == 0 else 0.45 * radius) * math.sin(math.pi * k / 5),
            centre[1] - (radius if k % 2 == 0 else 0.45 * radius) * math.cos(math.pi * k / 5),
        )
        for k in range(10)
    ]
    draw.polygon(points, fill=FIRST_CONTACT, outline=(40, 30, 0), width=max(1, round(radius / 8)))


def _draw_rail_marker(draw: ImageDraw.ImageDraw, centre: PixelPoint, size: float) -> None:
    x, y = centre
    draw.polygon(
        [(x - size, y), (x, y - size), (x + size, y), (x, y + size)],
        fill=RAIL_CONTACT,
        outline=(30, 16, 6),
        width=max(1, round(size / 5)),
    )


def _draw_drop_marker(draw: ImageDraw.ImageDraw, centre: PixelPoint, radius: float) -> None:
    width = max(2, round(radius / 6))
    draw.ellipse(_box(centre, radius), outline=POCKET_DROP, width=width)
    draw.ellipse(_box(centre, radius * 0.35), fill=POCKET_DROP)


def _dashed_circle(
    draw: ImageDraw.ImageDraw, centre: PixelPoint, radius: float, fill: RGBA, width: int
) -> None:
    for k in range(16):
        draw.arc(_box(centre, radius), 22.5 * k, 22.5 * k + 12, fill=fill, width=width)


# -- legend and text -----------------------------------------------------------------------


def _margin(layout: DiagramLayout) -> int:
    return round(MARGIN * layout.width)


_LEGEND = (
    ("start", "start"),
    ("rest", "rest"),
    ("path", "path (stripes dashed)"),
    ("star", "first contact"),
    ("rail", "rail contact"),
    ("drop", "pocketed"),
)
_LEGEND_CALL = ("called", "called ball and pocket")


def _legend(
    fonts: _Fonts, with_call: bool, left: float, right: float
) -> list[tuple[str, str, float, int]]:
    """The legend's items (icon, label, x, row), in as many rows as the width needs."""
    radius, gap = _legend_radius(fonts), fonts.body.size * 1.6
    placed, x, row = [], left, 0
    for icon, label in (*_LEGEND, _LEGEND_CALL) if with_call else _LEGEND:
        width = (3.6 if icon == "path" else 2.6) * radius + fonts.body.getlength(label)
        if x > left and x + width > right:
            row, x = row + 1, left
        placed.append((icon, label, x, row))
        x += width + gap
    return placed


def _legend_radius(fonts: _Fonts) -> float:
    return 0.7 * fonts.body.size


def _legend_row_height(fonts: _Fonts) -> float:
    return 1.9 * fonts.body.size


def _draw_legend(
    image: Image.Image, items: list[tuple[str, str, float, int]], fonts: _Fonts, top: int
) -> None:
    draw = ImageDraw.Draw(image)
    radius = _legend_radius(fonts)
    for icon, label, x, row in items:
        y = top + fonts.body.size * 1.2 + row * _legend_row_height(fonts)
        centre = (x + radius, y)
        if icon == "start":
            faded = Image.new("RGBA", image.size, (0, 0, 0, 0))
            _draw_ball(ImageDraw.Draw(faded), centre, radius, "1")
            faded.putalpha(faded.getchannel("A").point(lambda a: round(a * START_ALPHA)))
            image.alpha_composite(faded)
        elif icon == "rest":
            _draw_ball(draw, centre, radius, "1")
        elif icon == "path":
            draw.line([(x, y), (x + 3 * radius, y)], fill=IVORY, width=max(2, round(radius / 4)))
        elif icon == "star":
            _draw_star(draw, centre, radius)
        elif icon == "rail":
            _draw_rail_marker(draw, centre, 0.7 * radius)
        elif icon == "drop":
            _draw_drop_marker(draw, centre, radius)
        else:
            draw.ellipse(_box(centre, radius), outline=CALLED, width=max(2, round(radius / 5)))
        text_x = x + (3.6 if icon == "path" else 2.6) * radius
        draw.text((text_x, y), label, font=fonts.body, fill=MUTED, anchor="lm")


@attrs.frozen
class _Line:
    """One line of the text under the table: runs of (text, colour) in one font."""

    runs: tuple[tuple[str, RGB], ...]
    font: Font
    height: int
    indent: float = 0.0
    bullet: str = ""

    def draw(self, draw: ImageDraw.ImageDraw, left: float, top: float) -> None:
        x = left + self.indent
        if self.bullet:
            draw.text((left, top), self.bullet, font=self.font, fill=self.runs[0][1])
        for text, colour in self.runs:
            draw.text((x, top), text, font=self.font, fill=colour)
            x += self.font.getlength(text)


def _title(
    record: ShotRecord, players: tuple[str, str] | None, number: int | None, *, calls_shots: bool
) -> str:
    shooter = record.shooter.value
    name = players[0 if shooter == "A" else 1] if players else f"Player {shooter}"
    if name != f"Player {shooter}":
        name = f"{name} ({shooter})"
    call, declared = record.stroke.call, record.stroke.declaration
    if call is not None:
        what = f"calls {call}"
    elif declared is Declaration.SAFETY:
        what = "declares a safety"
    elif declared is Declaration.PUSH_OUT:
        what = "declares a push out"
    else:
        what = "no call" if calls_shots else ""
    where = f"Shot {number}, rack {record.rack}" if number is not None else f"Rack {record.rack}"
    return f"{where}: {name} shoots" + (f", {what}" if what else "")


def _text_lines(
    record: ShotRecord,
    shot: _ShotDrawing,
    title: str,
    fonts: _Fonts,
    width: float,
    players: tuple[str, str] | None,
    kind: type[GameState] | None,
) -> list[_Line]:
    ruling = record.ruling
    body, line_height = fonts.body, round(fonts.body.size * 1.4)
    lines = [
        _Line(((line, TEXT),), fonts.title, round(fonts.title.size * 1.45))
        for line in _wrap(title, fonts.title, width)
    ]

    dropped = ", ".join(
        f"{'cue ball' if ball == CUE else ball} in the {pocket_name(pocket)}"
        for ball, pocket, _ in shot.drops
    )
    if kind is not None:  # the window's plain line
        names = players or ("Player A", "Player B")
        said = ruling_line(ruling, kind, names, declaration=record.stroke.declaration)
        verdict = (said, FOUL if ruling.foul_codes else LEGAL)
    elif ruling.foul_codes:
        verdict = (f"Foul: {', '.join(FOUL_WORDS[code] for code in ruling.foul_codes)}", FOUL)
    else:
        verdict = ("No foul", LEGAL)
    pocketed = (f"Pocketed: {dropped}" if dropped else "Nothing pocketed", TEXT)
    spacer = "   "
    if fonts.body_bold.getlength(verdict[0] + spacer + pocketed[0]) <= width:
        lines.append(_Line((verdict, (spacer + pocketed[0], TEXT)), fonts.body_bold, line_height))
    else:
        lines += [
            _Line(((text, colour),), fonts.body_bold, line_height)
            for said, colour in (verdict, pocketed)
            for text in _wrap(said, fonts.body_bold, width)
        ]

    indent = body.getlength("•  ")
    for reason in ruling.reasons:
        colour = FOUL if reason.foul else TEXT
        said = with_names(str(reason), players) if players else str(reason)
        for k, text in enumerate(_wrap(said, body, width - indent)):
            lines.append(_Line(((text, colour),), body, line_height, indent, "•" if k == 0 else ""))
    duration = shot.timeline.duration
    events = len(shot.timeline.markers)
    footer = (
        f"Seen from above: head (break end) at left, foot at right. {shot.spec.size.value} "
        f"table; the balls moved for {duration:.2f} s; {events} events."
    )
    small_height = round(fonts.small.size * 1.6)
    lines.append(_Line((("", TEXT),), fonts.small, round(fonts.small.size * 0.5)))
    lines += [
        _Line(((text, MUTED),), fonts.small, small_height)
        for text in _wrap(footer, fonts.small, width)
    ]
    return lines


def _wrap(text: str, font: Font, width: float) -> list[str]:
    """Greedy word wrap to ``width`` pixels (a word longer than a line gets its own)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if line and font.getlength(trial) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines or [""]


class _Fonts:
    """The picture's fonts at ``factor`` times their size in a 1280-pixel diagram."""

    def __init__(self, factor: float) -> None:
        self.title = _font(round(23 * factor), bold=True)
        self.body = _font(round(17 * factor), bold=False)
        self.body_bold = _font(round(17 * factor), bold=True)
        self.small = _font(round(14 * factor), bold=False)


# poolsim's own copies first (assets/fonts), so a diagram looks the same everywhere.
_FONT_FILES = {
    False: (str(assets_dir() / "fonts" / "DejaVuSans.ttf"), "DejaVuSans.ttf"),
    True: (str(assets_dir() / "fonts" / "DejaVuSans-Bold.ttf"), "DejaVuSans-Bold.ttf"),
}


@cache
def _font(size: int, *, bold: bool) -> Font:
    for name in _FONT_FILES[bold]:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    # Pillow's own font (built into its wheels since 10.1): the same everywhere, not bold.
    font = ImageFont.load_default(size)
    if not isinstance(font, ImageFont.FreeTypeFont):
        raise RuntimeError("Pillow was built without FreeType: it cannot draw text to size")
    return font
