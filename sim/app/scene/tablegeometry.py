"""The table top in plan, from pooltool's table geometry (pure numpy, no Panda3D).

Polygons are counter-clockwise (n, 2) arrays in metres in the physics frame (x across,
y along, the cloth at z = 0): arcs, densified outlines, a polygon less a pocket's disc,
each cushion's nose line (linear segments and rounded jaw tips), :class:`Rect` for the
rail lines, and :class:`TableLayout`, which puts the cloth, cushions, rail tops, pocket
holes and diamond sights together for :mod:`sim.app.scene.scene` to build in 3D.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, TypeAlias

import attrs
import numpy as np
from numpy.typing import ArrayLike, NDArray

Array: TypeAlias = NDArray[np.float64]

# Dimensions the physics table does not give (metres; the rest are in sim.app.scene.scene). A
# 9-ft table is about 2.84 x 1.57 m outside: 0.15 m a side from the nose, of which the
# cushion is the physics cushion width.
RAIL_WIDTH = 0.10  # wood, from the cushion's back to the outer edge
RAIL_BEVEL = 0.012  # the rounded-off outer edge of the rail top
RAIL_ABOVE_NOSE = 0.004  # rail top over the cushion nose: the cushion sits just below
DIAMOND_FROM_NOSE = 0.0937  # WPA: sights 3 11/16 in from the nose of the cushion
ARC_STEP = math.radians(5)

# The six cushions as pooltool names their segments, each listed jaw, jaw tip, main
# segment, jaw tip, jaw, walking counter-clockwise round the table (cloth on the left).
CUSHIONS: tuple[tuple[str, str, str, str, str], ...] = (
    ("1", "1t", "18", "17t", "17"),  # head rail, left to right
    ("16", "16t", "15", "14t", "14"),  # right rail, head half
    ("13", "13t", "12", "11t", "11"),  # right rail, foot half
    ("10", "10t", "9", "8t", "8"),  # foot rail, right to left
    ("7", "7t", "6", "5t", "5"),  # left rail, foot half
    ("4", "4t", "3", "2t", "2"),  # left rail, head half
)


def circle_arc(
    centre: Array, radius: float, a0: float, sweep: float, step: float = ARC_STEP
) -> Array:
    """Points on a circle from angle a0 through a0 + sweep, both ends included."""
    count = max(2, math.ceil(abs(sweep) / step) + 1)
    angles = a0 + sweep * np.linspace(0.0, 1.0, count)
    return np.asarray(centre + radius * np.stack([np.cos(angles), np.sin(angles)], axis=1))


def _angle(v: Array) -> float:
    return math.atan2(float(v[1]), float(v[0]))


def _signed_area(poly: Array) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


def _dedupe(poly: Array, tol: float = 1e-7) -> Array:
    """Drop points that repeat the one before (cyclically): triangulators dislike them."""
    keep = np.linalg.norm(poly - np.roll(poly, 1, axis=0), axis=1) > tol
    return np.asarray(poly[keep])


def densify_open(line: Array, max_edge: float) -> Array:
    """The polyline with extra points so no piece is longer than ``max_edge``."""
    out = []
    for a, b in itertools.pairwise(line):
        pieces = max(1, math.ceil(float(np.linalg.norm(b - a)) / max_edge))
        out.append(a + (b - a) * (np.arange(pieces)[:, None] / pieces))
    return np.concatenate([*out, line[-1:]])


def densify(poly: Array, max_edge: float) -> Array:
    """The closed polygon with extra points so no edge is longer than ``max_edge``."""
    return densify_open(np.concatenate([poly, poly[:1]]), max_edge)[:-1]


def _circle_crossing(p: Array, q: Array, centre: Array, radius: float, entering: bool) -> float:
    """How far along the segment p -> q (0..1) it crosses the circle (one end in, one out)."""
    d, f = q - p, p - centre
    a, b, c = float(d @ d), 2 * float(f @ d), float(f @ f) - radius**2
    root = math.sqrt(max(b * b - 4 * a * c, 0.0))
    t = (-b - root) / (2 * a) if entering else (-b + root) / (2 * a)
    return min(max(t, 0.0), 1.0)


def cut_circle(poly: Array, centre: ArrayLike, radius: float) -> tuple[Array, Array | None]:
    """A counter-clockwise polygon minus a disc that bites into its boundary once.

    Returns the new polygon and the arc that now bounds it (None if the disc misses).
    The boundary must cross the circle exactly twice (densify long edges first);
    anything else means the table geometry is not what this module understands.
    """
    cut, _, arc, _ = cut_circle_lifted(poly, np.zeros(len(poly)), centre, radius)
    return cut, arc


def cut_circle_lifted(
    poly: Array, heights: Array, centre: ArrayLike, radius: float
) -> tuple[Array, Array, Array | None, Array | None]:
    """:func:`cut_circle` for a polygon whose points have heights (a sloping top): the
    new polygon and its heights, the arc and its heights (None if the disc misses). Where
    the boundary crosses the circle the height is the edge's there; along the arc it goes
    evenly from the one crossing's to the other's."""
    c = np.asarray(centre, dtype=float)[:2]
    inside = np.linalg.norm(poly - c, axis=1) < radius
    if not inside.any():
        return poly, heights, None, None
    if inside.all():
        raise ValueError("the pocket circle swallows a whole polygon")
    shift = int(np.flatnonzero(~inside)[0])
    poly, heights = np.roll(poly, -shift, axis=0), np.roll(heights, -shift)
    inside = np.roll(inside, -shift)
    run = np.flatnonzero(inside)
    first, last = int(run[0]), int(run[-1])
    if last - first + 1 != len(run):
        raise ValueError("a pocket circle cuts a polygon's boundary more than once")
    after = (last + 1) % len(poly)
    t_in = _circle_crossing(poly[first - 1], poly[first], c, radius, entering=True)
    t_out = _circle_crossing(poly[last], poly[after], c, radius, entering=False)
    entry = poly[first - 1] + t_in * (poly[first] - poly[first - 1])
    exit_ = poly[last] + t_out * (poly[after] - poly[last])
    z_in = heights[first - 1] + t_in * (heights[first] - heights[first - 1])
    z_out = heights[last] + t_out * (heights[after] - heights[last])
    a0, a1 = _angle(entry - c), _angle(exit_ - c)
    # The polygon keeps its inside on the left, so the bite's edge runs clockwise.
    sweep = (a1 - a0) % (2 * math.pi) - 2 * math.pi
    arc = circle_arc(c, radius, a0, sweep)
    arc_z = np.linspace(z_in, z_out, len(arc))
    points = np.concatenate([poly[:first], arc, poly[last + 1 :]])
    z = np.concatenate([heights[:first], arc_z, heights[last + 1 :]])
    keep = np.linalg.norm(points - np.roll(points, 1, axis=0), axis=1) > 1e-7
    return np.asarray(points[keep]), np.asarray(z[keep]), arc, arc_z


def trim_to_circle(line: Array, centre: ArrayLike, radius: float) -> Array:
    """An open polyline less its ends inside the circle (a jaw's nose line running into
    its pocket): each end that starts inside is cut where the line leaves the circle."""
    c = np.asarray(centre, dtype=float)[:2]
    for _ in range(2):  # the start, then (reversed) the end
        inside = np.linalg.norm(line - c, axis=1) < radius
        if inside[0]:
            k = int(np.argmin(inside))
            if inside[k]:
                raise ValueError("the pocket circle swallows a whole cushion")
            t = _circle_crossing(line[k - 1], line[k], c, radius, entering=False)
            line = np.concatenate([[line[k - 1] + t * (line[k] - line[k - 1])], line[k:]])
        line = line[::-1]
    return np.asarray(line)


def _tip_arc(tip: Any, start: Array, end: Array) -> Array:
    """The rounded jaw tip between a jaw's inner end and its cushion's main segment: the
    shorter way round the tip's circle, ends excluded."""
    c = np.asarray(tip.center[:2], dtype=float)
    a0 = _angle(start - c)
    sweep = (_angle(end - c) - a0 + math.pi) % (2 * math.pi) - math.pi
    return circle_arc(c, float(tip.radius), a0, sweep)[1:-1]


def cushion_nose(table: Any, names: tuple[str, str, str, str, str]) -> Array:
    """One cushion's nose line, counter-clockwise round the table (cloth on its left):
    jaw (from the rail line in), jaw tip, main segment, jaw tip, jaw (out to the rail)."""
    jaw_a, tip_a, main, tip_b, jaw_b = names
    linear, circular = table.cushion_segments.linear, table.cushion_segments.circular

    def ends(segment: str, near: Array) -> tuple[Array, Array]:
        """The segment's (far, near) ends relative to the point ``near``."""
        p1 = np.asarray(linear[segment].p1[:2], dtype=float)
        p2 = np.asarray(linear[segment].p2[:2], dtype=float)
        closer = np.linalg.norm(p1 - near) < np.linalg.norm(p2 - near)
        return (p2, p1) if closer else (p1, p2)

    centre_a = np.asarray(circular[tip_a].center[:2], dtype=float)
    centre_b = np.asarray(circular[tip_b].center[:2], dtype=float)
    jaw_a_outer, jaw_a_inner = ends(jaw_a, centre_a)
    main_b, main_a = ends(main, centre_a)
    jaw_b_outer, jaw_b_inner = ends(jaw_b, centre_b)
    return np.concatenate(
        [
            [jaw_a_outer, jaw_a_inner],
            _tip_arc(circular[tip_a], jaw_a_inner, main_a),
            [main_a, main_b],
            _tip_arc(circular[tip_b], main_b, jaw_b_inner),
            [jaw_b_inner, jaw_b_outer],
        ]
    )


@attrs.frozen
class Rect:
    x0: float
    y0: float
    x1: float
    y1: float

    def grow(self, by: float) -> Rect:
        return Rect(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)

    @property
    def corners(self) -> Array:
        """Counter-clockwise from the head-left corner."""
        return np.array(
            [[self.x0, self.y0], [self.x1, self.y0], [self.x1, self.y1], [self.x0, self.y1]]
        )

    def perimeter_position(self, p: Array, tol: float = 1e-6) -> float:
        """Distance along the boundary, counter-clockwise from the head-left corner."""
        w, h = self.x1 - self.x0, self.y1 - self.y0
        x, y = float(p[0]), float(p[1])
        if abs(y - self.y0) < tol:
            return x - self.x0
        if abs(x - self.x1) < tol:
            return w + y - self.y0
        if abs(y - self.y1) < tol:
            return w + h + self.x1 - x
        if abs(x - self.x0) < tol:
            return 2 * w + h + self.y1 - y
        raise ValueError(f"{p} is not on the rail line")

    def path(self, a: Array, b: Array) -> Array:
        """The corners passed walking counter-clockwise along the boundary from a to b."""
        w, h = self.x1 - self.x0, self.y1 - self.y0
        total = 2 * (w + h)
        sa, sb = self.perimeter_position(a), self.perimeter_position(b)
        span = (sb - sa) % total
        corner_s = np.array([0.0, w, w + h, 2 * w + h])
        passed = [(s - sa) % total for s in corner_s]
        order = sorted((d, i) for i, d in enumerate(passed) if 0 < d < span)
        return np.asarray(self.corners[[i for _, i in order]]).reshape(-1, 2)


@attrs.frozen
class TableLayout:
    """The table top in plan, from the physics table. Polygons are counter-clockwise
    (n, 2) arrays; heights in metres above the cloth."""

    width: float
    length: float
    cushion_width: float
    nose_height: float
    rail_top: float
    rail_line: Rect  # the cushions' backs: the wood's inner edge
    outer: Rect  # the wood's outer edge
    cushions: tuple[Array, ...]  # nose lines, counter-clockwise, jaw end to jaw end
    # The cushions as drawn, less the pocket holes (a jaw runs into its pocket's circle
    # by a few millimetres at the rail line): each top's polygon and its points' heights
    # (the nose's, rising to the rail's at the back), the nose lines trimmed at the
    # holes, and the arcs where the holes cut the cushions (with their heights).
    cushion_tops: tuple[tuple[Array, Array], ...]
    cushion_faces: tuple[Array, ...]
    cushion_walls: tuple[tuple[Array, Array], ...]
    cloth: Array  # the bed to the nose lines and into the pocket mouths, less the holes
    rail_pieces: tuple[tuple[Array, str], ...]  # wood tops, less the holes; grain "x"/"y"
    pocket_walls: tuple[Array, ...]  # the hole's edge where it cuts the wood
    pockets: tuple[tuple[str, Array, float], ...]  # id, centre (2,), radius

    @staticmethod
    def from_table(table: Any) -> TableLayout:
        linear = table.cushion_segments.linear
        ends = np.array(
            [[*s.p1[:2]] for s in linear.values()] + [[*s.p2[:2]] for s in linear.values()]
        )
        width = float(linear["15"].p1[0])
        length = float(linear["9"].p1[1])
        cushion_width = float(-ends[:, 0].min())
        nose_height = float(linear["18"].p1[2])
        rail_line = Rect(
            -cushion_width, -cushion_width, width + cushion_width, length + cushion_width
        )
        cushions = tuple(cushion_nose(table, names) for names in CUSHIONS)
        pockets = tuple(
            (pid, np.asarray(p.center[:2], dtype=float), float(p.radius))
            for pid, p in table.pockets.items()
        )

        # The bed: every nose line, joined along the rail line across each pocket mouth.
        outline: list[Array] = []
        for k, nose in enumerate(cushions):
            following = cushions[(k + 1) % len(cushions)]
            outline += [nose, rail_line.path(nose[-1], following[0])]
        cloth = _dedupe(densify(np.concatenate(outline), 0.02))
        if _signed_area(cloth) <= 0:
            raise ValueError("cushion nose lines are not counter-clockwise")
        for _, centre, radius in pockets:
            cloth, _ = cut_circle(cloth, centre, radius)

        tops: list[tuple[Array, Array]] = []
        faces: list[Array] = []
        cushion_walls: list[tuple[Array, Array]] = []
        top = nose_height + RAIL_ABOVE_NOSE
        for nose in cushions:
            back = _cushion_back(rail_line, nose)
            polygon = np.concatenate([nose, back[1:-1]])[::-1]
            heights = np.concatenate([np.full(len(nose), nose_height), np.full(len(back) - 2, top)])
            heights = heights[::-1]
            face = nose
            for _, centre, radius in pockets:
                polygon, heights, arc, arc_z = cut_circle_lifted(polygon, heights, centre, radius)
                if arc is not None and arc_z is not None:
                    cushion_walls.append((arc, arc_z))
                    face = trim_to_circle(face, centre, radius)
            tops.append((polygon, heights))
            faces.append(face)

        walls: list[Array] = []
        pieces: list[tuple[Array, str]] = []
        for quad, grain in _rail_quads(rail_line, RAIL_WIDTH - RAIL_BEVEL, length / 2):
            piece = densify(quad, 0.02)
            for _, centre, radius in pockets:
                piece, arc = cut_circle(piece, centre, radius)
                if arc is not None:
                    walls.append(arc)
            pieces.append((piece, grain))
        return TableLayout(
            width=width,
            length=length,
            cushion_width=cushion_width,
            nose_height=nose_height,
            rail_top=top,
            rail_line=rail_line,
            outer=rail_line.grow(RAIL_WIDTH),
            cushions=cushions,
            cushion_tops=tuple(tops),
            cushion_faces=tuple(faces),
            cushion_walls=tuple(cushion_walls),
            cloth=cloth,
            rail_pieces=tuple(pieces),
            pocket_walls=tuple(walls),
            pockets=pockets,
        )

    def diamonds(self) -> list[tuple[float, float, bool]]:
        """(x, y, across_x) of every sight: the long rails at each eighth of the length
        (the side pockets at the fourth), the short rails at each quarter; ``across_x``
        when the rail runs along y."""
        off = DIAMOND_FROM_NOSE
        w, ln = self.width, self.length
        out = []
        for k in (1, 2, 3, 5, 6, 7):
            out += [(-off, k * ln / 8, True), (w + off, k * ln / 8, True)]
        for k in (1, 2, 3):
            out += [(k * w / 4, -off, False), (k * w / 4, ln + off, False)]
        return out


def _cushion_back(rail_line: Rect, nose: Array) -> Array:
    """A cushion's back along the rail line, from the end of its nose line to the start
    (clockwise round the table), ends included."""
    corners = rail_line.path(nose[0], nose[-1])[::-1]
    line = np.concatenate([nose[-1:], corners, nose[:1]])
    # Points every few centimetres, so the cushion top can rise to meet the rail.
    return densify_open(line, 0.05)


def _rail_quads(rail_line: Rect, top_width: float, split_y: float) -> list[tuple[Array, str]]:
    """The six rail tops as mitred quads (before the pocket holes), counter-clockwise,
    with the direction of their grain: head and foot rails, two halves of each side."""
    r, o = rail_line, rail_line.grow(top_width)
    return [
        (np.array([[o.x0, o.y0], [o.x1, o.y0], [r.x1, r.y0], [r.x0, r.y0]]), "x"),
        (np.array([[o.x1, o.y0], [o.x1, split_y], [r.x1, split_y], [r.x1, r.y0]]), "y"),
        (np.array([[o.x1, split_y], [o.x1, o.y1], [r.x1, r.y1], [r.x1, split_y]]), "y"),
        (np.array([[o.x1, o.y1], [o.x0, o.y1], [r.x0, r.y1], [r.x1, r.y1]]), "x"),
        (np.array([[o.x0, o.y1], [o.x0, split_y], [r.x0, split_y], [r.x0, r.y1]]), "y"),
        (np.array([[o.x0, split_y], [o.x0, o.y0], [r.x0, r.y0], [r.x0, split_y]]), "y"),
    ]


# --------------------------------------------------------------------------------------
# Polylines


def line_normals(line: Array) -> Array:
    """Unit normals (n, 2) to the right of a polyline (away from the cloth for a nose
    line), averaged at the joints."""
    d = np.diff(line, axis=0)
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    seg = np.stack([d[:, 1], -d[:, 0]], axis=1)
    n = np.concatenate([seg[:1], seg[:-1] + seg[1:], seg[-1:]])
    return np.asarray(n / np.linalg.norm(n, axis=1, keepdims=True))


def distance_along(line: Array) -> Array:
    return np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(line, axis=0), axis=1))])
