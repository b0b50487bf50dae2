"""The 3D table: a pool table built from the physics table, pooltool's balls, lights.

pooltool ships one 7-ft table model, and scaling it would distort the pockets, so the
table is built here from the physics geometry of whatever :class:`~sim.table.TableSpec`
is played: the cloth follows the cushion nose lines (the linear segments and the rounded
jaw tips), the cushions rise from the cloth to the nose at exactly the segment's height,
the jaws run out to the rail line, and the pocket openings are pooltool's pocket circles
as the jaws frame them. Rails, diamonds, pocket cups, apron, legs and floor go around it.
Units are metres in the physics frame (x across, y along, the cloth at z = 0).

Two presets:

- ``"fast"``: fixed-function lighting, no shaders of our own; the pool of light from the
  lamps over the table is baked into a small light map (a second texture stage), and
  each ball gets a soft contact shadow. Meant for software OpenGL (>= 30 fps at
  1280x800 on llvmpipe).
- ``"quality"``: simplepbr, one shadow-casting spot light over the table plus ambient
  (one light: more crash llvmpipe with shadows), MSAA only on a real GPU.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeAlias

import attrs
import numpy as np
from numpy.typing import ArrayLike, NDArray
from panda3d.core import (
    AmbientLight,
    BitMask32,
    CollisionNode,
    CollisionSphere,
    DirectionalLight,
    Filename,
    Geom,
    GeomNode,
    GeomTriangles,
    GeomVertexArrayFormat,
    GeomVertexData,
    GeomVertexFormat,
    InternalName,
    LODNode,
    Material,
    NodePath,
    Quat,
    SamplerState,
    Spotlight,
    Texture,
    TextureAttrib,
    TextureStage,
    TransparencyAttrib,
    Triangulator,
    Vec4,
)

from sim.paths import assets_dir
from sim.pooltool_setup import pt
from sim.table import TableSpec

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase

    from sim.timeline import BallStates

Array: TypeAlias = NDArray[np.float64]
Quality = Literal["fast", "quality"]
ClothColour = Literal["blue", "green"]


BALL_IDS: tuple[str, ...] = ("cue", *(str(n) for n in range(1, 16)))
BALL_SET = "pooltool_pocket"
# The lag (GEN-2) is played with two cue balls side by side; pooltool has one cue-ball
# model, so the second is the same model, tinted so that each player can tell theirs.
LAG_BALL = "lag-cue"
LAG_BALL_TINT = (0.55, 0.78, 1.0, 1.0)
# Coarsest mipmap level of the ball textures (1285 x 640): 4x prefiltered, see _load_balls.
BALL_TEXTURE_MAX_LOD = 2.0
# Fast preset: ball spheres (segments round, rings pole to pole) and the camera distances
# (metres from the ball's centre, in the ball node's frame: scale it with the ball) at
# which each is shown. At 1280x800 and a 55 degree lens a ball is ~58 px wide at 1.2 m.
BALL_LODS = ((64, 32), (40, 20), (24, 12))
BALL_LOD_DISTANCES = ((1.2, 0.0), (2.5, 1.2), (1000.0, 2.5))
# Picking: each ball node carries a collision sphere in this mask, and the tag "ball".
BALL_PICK_MASK = BitMask32.bit(21)

# Dimensions the physics table does not give (metres). A 9-ft table is about 2.84 x 1.57 m
# outside: 0.15 m a side from the nose, of which the cushion is the physics cushion width.
RAIL_WIDTH = 0.10  # wood, from the cushion's back to the outer edge
RAIL_BEVEL = 0.012  # the rounded-off outer edge of the rail top
RAIL_ABOVE_NOSE = 0.004  # rail top over the cushion nose: the cushion sits just below
RAIL_THICKNESS = 0.075
APRON_DEPTH = 0.22  # the table body's skirt, from the cloth down
DIAMOND_FROM_NOSE = 0.0937  # WPA: sights 3 11/16 in from the nose of the cushion
DIAMOND_SIZE = (0.024, 0.011)  # across the rail, along it
CUSHION_UNDERCUT = 0.012  # the rubber's face slopes back under the nose to the cloth
ARC_STEP = math.radians(5)
CLOTH_TILE = 0.35  # metres per repeat of the cloth texture
WOOD_TILE = (1.4, 0.175)  # metres per repeat of the wood texture, along and across

CLOTH_COLOURS: dict[str, tuple[float, float, float]] = {
    # sRGB, close to the tournament cloths seen on TV
    "blue": (0.05, 0.36, 0.62),
    "green": (0.06, 0.42, 0.20),
}
CUSHION_SHADE = 0.62  # cushion tops read darker than the bed, so the nose line shows
UNDER_CUSHION_SHADE = 0.3  # the strip of bed under the nose, in the cushion's shadow
POCKET_COLOUR = (0.025, 0.022, 0.02)
POCKET_RIM_COLOUR = (0.10, 0.075, 0.06)  # the leather round each hole on the rail
POCKET_RIM_WIDTH = 0.006
DIAMOND_COLOUR = (0.96, 0.95, 0.90)
FLOOR_COLOUR = (0.16, 0.10, 0.07)
BACKGROUND = (0.018, 0.016, 0.015)

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


# --------------------------------------------------------------------------------------
# Plane geometry of the table top (pure numpy)


def _arc(centre: Array, radius: float, a0: float, sweep: float, step: float = ARC_STEP) -> Array:
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


def _circle_crossing(p: Array, q: Array, centre: Array, radius: float, entering: bool) -> Array:
    """Where the segment p -> q crosses the circle (one end in, one out)."""
    d, f = q - p, p - centre
    a, b, c = float(d @ d), 2 * float(f @ d), float(f @ f) - radius**2
    root = math.sqrt(max(b * b - 4 * a * c, 0.0))
    t = (-b - root) / (2 * a) if entering else (-b + root) / (2 * a)
    return np.asarray(p + min(max(t, 0.0), 1.0) * d)


def cut_circle(poly: Array, centre: ArrayLike, radius: float) -> tuple[Array, Array | None]:
    """A counter-clockwise polygon minus a disc that bites into its boundary once.

    Returns the new polygon and the arc that now bounds it (None if the disc misses).
    The boundary must cross the circle exactly twice (densify long edges first);
    anything else means the table geometry is not what this module understands.
    """
    c = np.asarray(centre, dtype=float)[:2]
    inside = np.linalg.norm(poly - c, axis=1) < radius
    if not inside.any():
        return poly, None
    if inside.all():
        raise ValueError("the pocket circle swallows a whole polygon")
    shift = int(np.flatnonzero(~inside)[0])
    poly, inside = np.roll(poly, -shift, axis=0), np.roll(inside, -shift)
    run = np.flatnonzero(inside)
    first, last = int(run[0]), int(run[-1])
    if last - first + 1 != len(run):
        raise ValueError("a pocket circle cuts a polygon's boundary more than once")
    entry = _circle_crossing(poly[first - 1], poly[first], c, radius, entering=True)
    exit_ = _circle_crossing(poly[last], poly[(last + 1) % len(poly)], c, radius, entering=False)
    a0, a1 = _angle(entry - c), _angle(exit_ - c)
    # The polygon keeps its inside on the left, so the bite's edge runs clockwise.
    sweep = (a1 - a0) % (2 * math.pi) - 2 * math.pi
    arc = _arc(c, radius, a0, sweep)
    return _dedupe(np.concatenate([poly[:first], arc, poly[last + 1 :]])), arc


def _tip_arc(tip: Any, start: Array, end: Array) -> Array:
    """The rounded jaw tip between a jaw's inner end and its cushion's main segment: the
    shorter way round the tip's circle, ends excluded."""
    c = np.asarray(tip.center[:2], dtype=float)
    a0 = _angle(start - c)
    sweep = (_angle(end - c) - a0 + math.pi) % (2 * math.pi) - math.pi
    return _arc(c, float(tip.radius), a0, sweep)[1:-1]


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
            rail_top=nose_height + RAIL_ABOVE_NOSE,
            rail_line=rail_line,
            outer=rail_line.grow(RAIL_WIDTH),
            cushions=cushions,
            cloth=cloth,
            rail_pieces=tuple(pieces),
            pocket_walls=tuple(walls),
            pockets=pockets,
        )

    def cushion_back(self, nose: Array) -> Array:
        """A cushion's back along the rail line, from the end of its nose line to the
        start (clockwise round the table), ends included."""
        corners = self.rail_line.path(nose[0], nose[-1])[::-1]
        line = np.concatenate([nose[-1:], corners, nose[:1]])
        # Points every few centimetres, so the cushion top can rise to meet the rail.
        return densify_open(line, 0.05)

    def cushion_polygon(self, nose: Array) -> Array:
        """A cushion's footprint: its nose line and its back, counter-clockwise."""
        back = self.cushion_back(nose)[1:-1]
        return np.asarray(np.concatenate([nose, back])[::-1])

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


def triangulate(outer: Array, holes: Sequence[Array] = ()) -> tuple[Array, NDArray[np.int32]]:
    """Triangles covering a polygon (with holes): all points stacked, and (m, 3) indices,
    each triangle counter-clockwise seen from +z."""
    tri = Triangulator()
    points = [outer, *holes]
    for x, y in outer:
        tri.addPolygonVertex(tri.addVertex(float(x), float(y)))
    for hole in holes:
        tri.beginHole()
        for x, y in hole:
            tri.addHoleVertex(tri.addVertex(float(x), float(y)))
    tri.triangulate()
    faces = np.array(
        [
            (tri.getTriangleV0(i), tri.getTriangleV1(i), tri.getTriangleV2(i))
            for i in range(tri.getNumTriangles())
        ],
        dtype=np.int32,
    ).reshape(-1, 3)
    stacked = np.concatenate(points)
    a, b, c = stacked[faces[:, 0]], stacked[faces[:, 1]], stacked[faces[:, 2]]
    cross = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
    faces[cross < 0] = faces[cross < 0][:, ::-1]
    return stacked, faces


# --------------------------------------------------------------------------------------
# Meshes


class MeshBuilder:
    """Triangles with normals, a material texture coordinate and a light-map coordinate
    (x, y mapped onto ``light_extent``), turned into one GeomNode."""

    _FORMATS: ClassVar[dict[str, GeomVertexFormat]] = {}  # registered once per uv name

    def __init__(self, light_extent: Rect, uv_name: InternalName | None = None) -> None:
        """``uv_name``: the material coordinate's column (the default texcoord unless a
        texture stage reads another one)."""
        self._extent = light_extent
        self._uv_name = uv_name or InternalName.getTexcoord()
        self._rows: list[Array] = []
        self._faces: list[NDArray[np.int32]] = []
        self._count = 0

    def _format(self) -> GeomVertexFormat:
        key = self._uv_name.getName()
        if key not in self._FORMATS:
            columns = GeomVertexArrayFormat()
            columns.addColumn(InternalName.getVertex(), 3, Geom.NTFloat32, Geom.CPoint)
            columns.addColumn(InternalName.getNormal(), 3, Geom.NTFloat32, Geom.CNormal)
            columns.addColumn(self._uv_name, 2, Geom.NTFloat32, Geom.CTexcoord)
            columns.addColumn(
                InternalName.getTexcoordName("lightmap"), 2, Geom.NTFloat32, Geom.CTexcoord
            )
            self._FORMATS[key] = GeomVertexFormat.registerFormat(GeomVertexFormat(columns))
        return self._FORMATS[key]

    def add(self, points: Array, normals: Array, uvs: Array, faces: ArrayLike) -> None:
        """Vertices (n, 3) with normals (n, 3) and uvs (n, 2); faces index them."""
        e = self._extent
        lm = np.stack(
            [(points[:, 0] - e.x0) / (e.x1 - e.x0), (points[:, 1] - e.y0) / (e.y1 - e.y0)], axis=1
        )
        self._rows.append(np.concatenate([points, normals, uvs, lm], axis=1))
        self._faces.append(np.asarray(faces, dtype=np.int32).reshape(-1, 3) + self._count)
        self._count += len(points)

    def add_flat(self, poly: Array, z: float | Array, uv: Any, holes: Sequence[Array] = ()) -> None:
        """A polygon facing up at height ``z`` (or one height per polygon point, holes
        then at z[0]); ``uv`` maps (n, 2) plan points to (n, 2)."""
        flat, faces = triangulate(poly, holes)
        heights = np.broadcast_to(np.asarray(z, dtype=float), (len(poly),))
        heights = np.concatenate([heights, np.full(len(flat) - len(poly), heights[0])])
        points = np.column_stack([flat, heights])
        normals = np.tile([0.0, 0.0, 1.0], (len(flat), 1))
        self.add(points, normals, uv(flat), faces)

    def add_strip(self, top: Array, bottom: Array, normals: Array, uvs: Array) -> None:
        """Quads between two matching 3D polylines (n, 3) with per-point normals,
        each row of quads wound so it faces along ``normals``."""
        n = len(top)
        points = np.concatenate([top, bottom])
        faces = []
        for i in range(n - 1):
            a, b, c, d = i, i + 1, n + i + 1, n + i
            faces += [(a, d, c), (a, c, b)]
        f = np.array(faces, dtype=np.int32)
        # Fix the winding from the first quad's geometric normal against the wanted one.
        p = points
        cross = np.cross(p[f[0, 1]] - p[f[0, 0]], p[f[0, 2]] - p[f[0, 0]])
        if float(cross @ normals[0]) < 0:
            f = f[:, ::-1]
        self.add(points, np.concatenate([normals, normals]), uvs, f)

    def node(self, name: str) -> GeomNode:
        rows = np.concatenate(self._rows).astype(np.float32)
        faces = np.concatenate(self._faces).astype(np.uint32)
        vdata = GeomVertexData(name, self._format(), Geom.UHStatic)
        vdata.uncleanSetNumRows(len(rows))
        memoryview(vdata.modifyArray(0)).cast("B")[:] = rows.tobytes()
        prim = GeomTriangles(Geom.UHStatic)
        prim.setIndexType(Geom.NTUint32)
        handle = prim.modifyVertices()
        handle.uncleanSetNumRows(faces.size)
        memoryview(handle).cast("B")[:] = faces.tobytes()
        geom = Geom(vdata)
        geom.addPrimitive(prim)
        node = GeomNode(name)
        node.addGeom(geom)
        return node


def _line_normals(line: Array) -> Array:
    """Unit normals (n, 2) to the right of a polyline (away from the cloth for a nose
    line), averaged at the joints."""
    d = np.diff(line, axis=0)
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    seg = np.stack([d[:, 1], -d[:, 0]], axis=1)
    n = np.concatenate([seg[:1], seg[:-1] + seg[1:], seg[-1:]])
    return np.asarray(n / np.linalg.norm(n, axis=1, keepdims=True))


def _along(line: Array) -> Array:
    return np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(line, axis=0), axis=1))])


def _vertical_wall(
    mesh: MeshBuilder, line: Array, z_top: float, z_bottom: float, facing: Array
) -> None:
    """A vertical wall under a plan polyline; ``facing`` (n, 2) gives each point's normal."""
    n = len(line)
    top = np.column_stack([line, np.full(n, z_top)])
    bottom = np.column_stack([line, np.full(n, z_bottom)])
    normals = np.column_stack([facing, np.zeros(n)])
    s = _along(line)
    uvs = np.concatenate(
        [np.column_stack([s, np.full(n, z_top)]), np.column_stack([s, np.full(n, z_bottom)])]
    )
    mesh.add_strip(top, bottom, normals, uvs / CLOTH_TILE)


def _box(mesh: MeshBuilder, lo: tuple[float, float, float], hi: tuple[float, float, float]) -> None:
    """The four sides of an axis-aligned box (legs and the apron's body): top and bottom
    are never seen, and a bottom facing up under the table would be drawn for nothing
    over the whole table on software GL."""
    x0, y0, z0 = lo
    x1, y1, z1 = hi
    ring = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]])
    for a, b in itertools.pairwise(ring):
        line = np.array([a, b])
        d = (b - a) / np.linalg.norm(b - a)
        facing = np.tile([d[1], -d[0]], (2, 1))
        _vertical_wall(mesh, line, z1, z0, facing)


def _lightmap(extent: Rect, layout: TableLayout, lamp_height: float) -> Texture:
    """The pool of light three lamps over the table throw (fast preset): bright over the
    bed, falling off toward the rails and into the room, a little darker along the
    cushions' feet. Multiplies the lit colour of every table surface. The cloth's mottle
    is in it too: the fast preset draws the cloth with this one texture (each texture a
    pixel reads costs llvmpipe ~5 ms a frame at 1280x800)."""
    res = 96  # texels per metre
    nx = round((extent.x1 - extent.x0) * res)
    ny = round((extent.y1 - extent.y0) * res)
    x = extent.x0 + (np.arange(nx) + 0.5) / res
    y = extent.y0 + (np.arange(ny) + 0.5) / res
    gx, gy = np.meshgrid(x, y)
    irradiance = np.zeros_like(gx)
    w, ln = layout.width, layout.length
    for k in (-1, 0, 1):
        d2 = (gx - w / 2) ** 2 + (gy - ln / 2 - k * 0.3 * ln) ** 2
        irradiance += lamp_height**3 / (lamp_height**2 + d2) ** 1.5
    light = 0.32 + 0.68 * irradiance / irradiance.max()
    # Contact darkening along the cushions' feet, on the bed only.
    edge = np.minimum.reduce([gx, w - gx, gy, ln - gy])
    light *= 1 - 0.22 * np.exp(-np.clip(edge, 0, None) / 0.02) * (edge > 0)
    rng = np.random.default_rng(860)
    noise = np.fft.irfft2(
        np.fft.rfft2(rng.normal(size=gx.shape))
        * np.exp(-((np.fft.fftfreq(ny)[:, None] ** 2 + np.fft.rfftfreq(nx)[None, :] ** 2) * 15)),
        s=gx.shape,
    )
    light *= 1 + 0.012 * noise / noise.std()
    image = np.clip(np.round(light * 255), 0, 255).astype(np.uint8)
    tex = Texture("lightmap")
    tex.setup2dTexture(nx, ny, Texture.T_unsigned_byte, Texture.F_luminance)
    tex.setRamImage(image.tobytes())
    tex.setWrapU(SamplerState.WM_clamp)
    tex.setWrapV(SamplerState.WM_clamp)
    tex.setMinfilter(SamplerState.FT_linear)
    tex.setMagfilter(SamplerState.FT_linear)
    return tex


def _lighter_ball(model: NodePath) -> NodePath:
    """pooltool's ball, its texture and material, on lighter spheres picked by distance.

    Software GL sets up every triangle on one thread: sixteen of pooltool's 9,000-triangle
    balls cost ~40 ms a frame on llvmpipe, sixteen 4,000-triangle ones still ~14 ms. The
    far balls (a whole-table view) get 600 triangles, the near ones the smooth outline.
    The texture mapping is pooltool's (u from the longitude about the model's z axis,
    0.5 at +x where the number is; v from the latitude), so the balls look and turn the
    same."""
    original = model.find("**/+GeomNode")
    state = original.node().getGeomState(0)
    radius = original.getTightBounds(model)[1].x
    textures = state.getAttrib(TextureAttrib)
    uv_name = textures.getOnStage(0).getTexcoordName() if textures else None
    lod = LODNode("ball")
    levels = NodePath(lod)
    for (segments, rings), (far, near) in zip(BALL_LODS, BALL_LOD_DISTANCES, strict=True):
        lon = np.linspace(-math.pi, math.pi, segments + 1)
        lat = np.linspace(-math.pi / 2, math.pi / 2, rings + 1)
        glat, glon = np.meshgrid(lat, lon, indexing="ij")
        normals = np.stack(
            [np.cos(glat) * np.cos(glon), np.cos(glat) * np.sin(glon), np.sin(glat)], axis=-1
        ).reshape(-1, 3)
        uvs = np.stack([0.5 + glon / (2 * math.pi), 0.5 + glat / math.pi], axis=-1)
        faces = []
        for r in range(rings):
            for k in range(segments):
                a = r * (segments + 1) + k
                b, c, d = a + 1, a + segments + 2, a + segments + 1
                faces += [(a, b, c), (a, c, d)]
        mesh = MeshBuilder(Rect(0, 0, 1, 1), uv_name)
        mesh.add(radius * normals, normals, uvs.reshape(-1, 2), faces)
        node = mesh.node(f"ball-{segments}")
        node.setGeomState(0, state)
        levels.attachNewNode(node)
        lod.addSwitch(far, near)
    return levels


def _colour_space(tex: Texture, srgb: bool) -> None:
    """glTF colour textures are sRGB. simplepbr lights in linear space, so it wants them
    decoded; fixed-function lighting works on the stored values, so the fast preset reads
    them as plain RGB. (Models share textures through the model pool: set it either way.)"""
    to_srgb = {Texture.F_rgb: Texture.F_srgb, Texture.F_rgba: Texture.F_srgb_alpha}
    to_plain = {v: k for k, v in to_srgb.items()}
    fmt = tex.getFormat()
    swap = to_srgb if srgb else to_plain
    if fmt in swap:
        tex.setFormat(swap[fmt])


def _to_linear(c: Sequence[float]) -> tuple[float, float, float]:
    r, g, b = (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c[:3])
    return (r, g, b)


# --------------------------------------------------------------------------------------
# The scene


class TableScene:
    """The table, the 16 balls and the lights, under ``base.render``.

    ``table_root`` holds the table (rebuilt by :meth:`set_table`), ``ball_nodes[id]`` each
    ball (tag ``"ball"`` = id, a collision sphere in :data:`BALL_PICK_MASK`); the balls
    start hidden. The camera is the app's (see :func:`top_down_camera` for tests).
    """

    def __init__(
        self,
        base: ShowBase,
        spec: TableSpec,
        quality: Quality = "fast",
        cloth: ClothColour = "blue",
    ) -> None:
        if quality not in ("fast", "quality"):
            raise ValueError(f"quality must be 'fast' or 'quality', got {quality!r}")
        self.base = base
        self.quality: Quality = quality
        self.cloth_colour = CLOTH_COLOURS[cloth]
        self.pipeline: Any = None
        # simplepbr tone-maps the clear colour too: give it in linear light there.
        background = _to_linear(BACKGROUND) if quality == "quality" else BACKGROUND
        base.setBackgroundColor(*background, 1)
        self.root = base.render.attachNewNode("table-scene")
        self.table_root = self.root.attachNewNode("table")
        self.table_root.setTag("table", "1")
        self.balls_root = self.root.attachNewNode("balls")
        self.shadows_root = self.root.attachNewNode("ball-shadows")
        self.lights_root = self.root.attachNewNode("lights")
        self._lights: list[NodePath] = []
        self._textures = self._load_textures()
        self._lightmap_stage = TextureStage("lightmap")
        self._lightmap_stage.setTexcoordName("lightmap")
        self._lightmap_stage.setMode(TextureStage.MModulate)
        self._lightmap_stage.setSort(10)
        if quality == "quality":
            self._init_pbr()
        self.ball_nodes: dict[str, NodePath] = {}
        self._shadows: dict[str, NodePath] = {}
        self._ball_models: dict[str, NodePath] = {}
        self._load_balls()
        self.spec = spec
        self.table: Any = None
        self.layout: TableLayout | None = None
        self.set_table(spec)

    # ---- set-up

    def _load_textures(self) -> dict[str, Texture]:
        textures = {}
        for name in ("cloth", "wood", "ball_shadow"):
            tex = self.base.loader.loadTexture(
                Filename.fromOsSpecific(str(assets_dir() / f"{name}.png"))
            )
            if name != "ball_shadow":
                tex = tex.makeCopy()
                tex.setWrapU(SamplerState.WM_repeat)
                tex.setWrapV(SamplerState.WM_repeat)
                tex.setMagfilter(SamplerState.FT_linear)
                if self.quality == "fast":
                    # Trilinear filtering doubles the frame time on llvmpipe (the cloth
                    # fills most of the window); one mipmap level per pixel is enough.
                    tex.setMinfilter(SamplerState.FT_nearest_mipmap_nearest)
                else:
                    tex.setMinfilter(SamplerState.FT_linear_mipmap_linear)
                    tex.setAnisotropicDegree(4)
                if self.quality == "quality":
                    # simplepbr lights in linear space: colour textures are sRGB.
                    tex.setFormat(Texture.F_srgb)
            textures[name] = tex
        return textures

    def _init_pbr(self) -> None:
        import simplepbr

        # simplepbr takes over the ShowBase's render pipeline for good: start it once per
        # ShowBase, however many scenes come and go.
        self.pipeline = getattr(self.base, "poolsim_pbr_pipeline", None)
        if self.pipeline is not None:
            return
        renderer = self.base.win.getGsg().getDriverRenderer().lower()
        software = any(s in renderer for s in ("llvmpipe", "softpipe", "swiftshader", "swrast"))
        # MSAA costs ~3x on software GL; more than one light with shadows crashes
        # llvmpipe's shader compiler (Mesa 22/LLVM 15), so one spot light plus ambient.
        self.pipeline = simplepbr.init(
            render_node=self.base.render,
            window=self.base.win,
            camera_node=self.base.cam,
            msaa_samples=0 if software else 4,
            max_lights=1,
            enable_shadows=True,
            exposure=0.9,
        )
        self.base.poolsim_pbr_pipeline = self.pipeline

    def _material(self, colour: Sequence[float], roughness: float, shine: float = 0.0) -> Material:
        m = Material()
        if self.quality == "quality":
            m.setBaseColor(Vec4(*_to_linear(colour), 1))
            m.setRoughness(roughness)
            m.setMetallic(0.0)
        else:
            m.setAmbient(Vec4(*colour, 1))
            m.setDiffuse(Vec4(*colour, 1))
            m.setSpecular(Vec4(shine, shine, shine, 1))
            m.setShininess(40.0)
        return m

    def _load_balls(self) -> None:
        ballset = pt.objects.get_ballset(BALL_SET)
        shadow_tex = self._textures["ball_shadow"]
        for bid in (*BALL_IDS, LAG_BALL):
            node = self.balls_root.attachNewNode(f"ball-{bid}")
            node.setTag("ball", bid)
            drawn_as = "cue" if bid == LAG_BALL else bid
            model = self.base.loader.loadModel(pt.utils.panda_path(ballset.ball_path(drawn_as)))
            for tex in model.findAllTextures():
                # Numbers need mipmaps to stay legible on a ball twenty pixels wide, but
                # the coarsest levels (the whole texture's average) show as a seam at the
                # poles of pooltool's UV spheres, which is why pooltool turns mipmaps off:
                # stop a few levels short instead.
                sampler = SamplerState(tex.getDefaultSampler())
                sampler.setMinfilter(SamplerState.FT_linear_mipmap_linear)
                sampler.setMaxLod(BALL_TEXTURE_MAX_LOD)
                tex.setDefaultSampler(sampler)
                _colour_space(tex, srgb=self.quality == "quality")
            if self.quality == "fast":
                model = _lighter_ball(model)
            model.reparentTo(node)
            if bid == LAG_BALL:
                model.setColorScale(*LAG_BALL_TINT)
            picker = node.attachNewNode(CollisionNode(f"pick-{bid}"))
            picker.node().setIntoCollideMask(BALL_PICK_MASK)
            self.ball_nodes[bid] = node
            self._ball_models[bid] = model
            shadow = self._shadow_quad(f"shadow-{bid}", shadow_tex)
            self._shadows[bid] = shadow
            node.hide()
            shadow.hide()
        if self.quality == "fast":
            # glTF materials carry no specular for fixed-function lighting: give the
            # balls a hard clear-coat highlight.
            gloss = Material()
            gloss.setSpecular(Vec4(0.55, 0.55, 0.55, 1))
            gloss.setShininess(60.0)
            gloss.setAmbient(Vec4(1, 1, 1, 1))
            gloss.setDiffuse(Vec4(1, 1, 1, 1))
            self.balls_root.setMaterial(gloss, 1)

    def _shadow_quad(self, name: str, texture: Texture) -> NodePath:
        mesh = MeshBuilder(Rect(0, 0, 1, 1))
        square = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
        mesh.add_flat(square, 0.0, lambda p: (p + 1) / 2)
        shadow = self.shadows_root.attachNewNode(mesh.node(name))
        shadow.setTexture(texture)
        shadow.setTransparency(TransparencyAttrib.MAlpha)
        shadow.setDepthWrite(False)
        shadow.setLightOff(1)
        shadow.setColor(0, 0, 0, 1)
        shadow.setBin("fixed", 10)
        return shadow

    # ---- the table

    def set_table(self, spec: TableSpec) -> None:
        """Build (or rebuild) the table for ``spec``; balls keep their nodes."""
        self.spec = spec
        self.table = spec.build()
        self.layout = TableLayout.from_table(self.table)
        self.table_root.getChildren().detach()
        self._remove_lights()
        self._build_table(self.layout, float(self.table.height))
        self._build_lights(self.layout)
        radius = spec.ball_radius
        for bid, model in self._ball_models.items():
            lo, hi = model.getTightBounds(self.ball_nodes[bid])
            model.setScale(model.getScale() * radius / ((hi - lo).x / 2))
            picker = self.ball_nodes[bid].find(f"pick-{bid}").node()
            picker.clearSolids()
            picker.addSolid(CollisionSphere(0, 0, 0, radius))
            self._shadows[bid].setScale(radius * 1.6, radius * 1.6, 1)

    def _build_table(self, lay: TableLayout, table_height: float) -> None:
        extent = lay.outer.grow(0.6)

        def new() -> MeshBuilder:
            return MeshBuilder(extent)

        cloth_mat = self._material(self.cloth_colour, 0.95)
        cushion_mat = self._material([c * CUSHION_SHADE for c in self.cloth_colour], 0.9)
        shade_mat = self._material([c * UNDER_CUSHION_SHADE for c in self.cloth_colour], 1.0)
        wood_mat = self._material((1, 1, 1), 0.6)
        pocket_mat = self._material(POCKET_COLOUR, 1.0)
        rim_mat = self._material(POCKET_RIM_COLOUR, 0.6, shine=0.15)
        diamond_mat = self._material(DIAMOND_COLOUR, 0.3, shine=0.4)
        floor_mat = self._material(FLOOR_COLOUR, 0.8)
        h, top = lay.nose_height, lay.rail_top

        cloth = new()
        cloth.add_flat(lay.cloth, 0.0, lambda p: p / CLOTH_TILE)

        cushions, shade = new(), new()
        for nose in lay.cushions:
            # The top rises from the nose to the rail's height at the back, which closes
            # the cushion against the wood.
            n_back = len(lay.cushion_back(nose)) - 2
            rise = np.concatenate([np.full(len(nose), h), np.full(n_back, top)])[::-1]
            cushions.add_flat(lay.cushion_polygon(nose), rise, lambda p: p / CLOTH_TILE)
            out = _line_normals(nose)
            foot = nose + CUSHION_UNDERCUT * out
            n3 = np.column_stack([-h * out, np.full(len(out), -CUSHION_UNDERCUT)])
            n3 /= np.linalg.norm(n3, axis=1, keepdims=True)
            s = _along(nose)
            cushions.add_strip(
                np.column_stack([nose, np.full(len(nose), h)]),
                np.column_stack([foot, np.zeros(len(foot))]),
                n3,
                np.concatenate([np.column_stack([s, np.zeros_like(s)])] * 2) / CLOTH_TILE,
            )
            # The cloth in the cushion's shadow, under the overhang of the nose: it shows
            # from across the table.
            n = len(nose)
            shade.add_strip(
                np.column_stack([nose, np.zeros(n)]),
                np.column_stack([foot, np.zeros(n)]),
                np.tile([0.0, 0.0, 1.0], (n, 1)),
                np.concatenate([nose, foot]) / CLOTH_TILE,
            )
            # The back, along the rail line: only seen through a pocket.
            back = lay.cushion_back(nose)
            d = np.diff(back, axis=0)
            d /= np.linalg.norm(d, axis=1, keepdims=True)
            facing = np.stack([-d[:, 1], d[:, 0]], axis=1)
            for i in range(len(back) - 1):
                _vertical_wall(cushions, back[i : i + 2], top, 0.0, np.tile(facing[i], (2, 1)))

        wood = new()
        for piece, grain in lay.rail_pieces:
            if grain == "x":
                wood.add_flat(piece, top, lambda p: p / WOOD_TILE)
            else:
                wood.add_flat(piece, top, lambda p: p[:, ::-1] / WOOD_TILE)
        self._rail_sides(wood, lay, table_height)

        pockets = new()
        bottom = -(0.08 + self.spec.ball_radius)  # pooltool drops a ball to z = -0.08
        rims = new()
        for arc in lay.pocket_walls:
            centre = next(
                c for _, c, r in lay.pockets if abs(np.linalg.norm(arc[0] - c) - r) < 1e-6
            )
            facing = centre - arc
            facing /= np.linalg.norm(facing, axis=1, keepdims=True)
            _vertical_wall(pockets, arc, top, 0.0, facing)
            n = len(arc)
            rims.add_strip(
                np.column_stack([arc, np.full(n, top + 0.0004)]),
                np.column_stack([arc - POCKET_RIM_WIDTH * facing, np.full(n, top + 0.0004)]),
                np.tile([0.0, 0.0, 1.0], (n, 1)),
                np.zeros((2 * n, 2)),
            )
        for _, centre, radius in lay.pockets:
            ring = _arc(centre, radius, 0.0, 2 * math.pi)
            facing = (centre - ring) / radius
            _vertical_wall(pockets, ring, 0.0, bottom, facing)
            pockets.add_flat(ring[:-1], bottom, lambda p: p)

        diamonds = new()
        half_a, half_b = DIAMOND_SIZE[0] / 2, DIAMOND_SIZE[1] / 2
        for x, y, across_x in lay.diamonds():
            # a rhombus, its long axis across the rail (pointing at the table)
            a, b = (half_a, half_b) if across_x else (half_b, half_a)
            shape = np.array([[x - a, y], [x, y - b], [x + a, y], [x, y + b]])
            diamonds.add_flat(shape, top + 0.0006, lambda p: p)

        floor = new()
        fl = lay.outer.grow(4.0)
        floor.add_flat(fl.corners, -table_height, lambda p: p / CLOTH_TILE)

        for name, mesh, mat, tex in (
            ("cloth", cloth, cloth_mat, "cloth"),
            ("cushions", cushions, cushion_mat, "cloth"),
            ("under-cushions", shade, shade_mat, "cloth"),
            ("rails", wood, wood_mat, "wood"),
            ("pockets", pockets, pocket_mat, None),
            ("pocket-rims", rims, rim_mat, None),
            ("diamonds", diamonds, diamond_mat, None),
            ("floor", floor, floor_mat, "cloth"),
        ):
            np_ = self.table_root.attachNewNode(mesh.node(name))
            np_.setMaterial(mat, 1)
            if name == "floor":
                # drawn after the table, so the depth test throws away what it hides
                np_.setBin("fixed", 0)
            if tex == "wood" or (tex is not None and self.quality == "quality"):
                # (fast: the cloth's texture is folded into the light map)
                np_.setTexture(self._textures[tex], 1)
        if self.quality == "fast":
            # One stage for the scene's life: a new stage per rebuild would add up.
            self.table_root.setTexture(self._lightmap_stage, _lightmap(extent, lay, 1.0), 1)

    def _rail_sides(self, wood: MeshBuilder, lay: TableLayout, table_height: float) -> None:
        """The rounded outer edge of the rail top, the rail's outer face, the apron and
        the legs."""
        top = lay.rail_top
        inner = lay.rail_line.grow(RAIL_WIDTH - RAIL_BEVEL).corners
        outer = lay.outer.corners
        drop = top - RAIL_BEVEL * 0.8
        low = top - RAIL_THICKNESS
        for k in range(4):
            a, b = k, (k + 1) % 4
            d = outer[b] - outer[a]
            d /= np.linalg.norm(d)
            out = np.array([d[1], -d[0]])
            slope = np.array([*out * 0.8, 1.0])
            slope /= np.linalg.norm(slope)
            along = np.array([float(np.dot(p, d)) for p in (inner[a], inner[b])])
            wood.add_strip(
                np.array([[*inner[a], top], [*inner[b], top]]),
                np.array([[*outer[a], drop], [*outer[b], drop]]),
                np.tile(slope, (2, 1)),
                np.array([[along[0], 0], [along[1], 0], [along[0], 0.1], [along[1], 0.1]])
                / WOOD_TILE[0],
            )
            _vertical_wall(wood, np.array([outer[a], outer[b]]), drop, low, np.tile(out, (2, 1)))
        body = lay.outer.grow(-0.035)
        _box(wood, (body.x0, body.y0, -APRON_DEPTH), (body.x1, body.y1, low))
        leg = 0.11
        inset = lay.outer.grow(-0.16)
        ys = [inset.y0, inset.y1]
        if lay.length > 2.4:
            ys.append((inset.y0 + inset.y1) / 2)
        for x in (inset.x0, inset.x1):
            for y in ys:
                _box(
                    wood,
                    (x - leg / 2, y - leg / 2, -table_height),
                    (x + leg / 2, y + leg / 2, -APRON_DEPTH),
                )

    def _build_lights(self, lay: TableLayout) -> None:
        centre = (lay.width / 2, lay.length / 2)
        ambient = self.lights_root.attachNewNode(AmbientLight("ambient"))
        if self.quality == "fast":
            ambient.node().setColor(Vec4(0.42, 0.42, 0.44, 1))
            key = self.lights_root.attachNewNode(DirectionalLight("lamps"))
            key.node().setColor(Vec4(0.72, 0.70, 0.66, 1))
            key.node().setSpecularColor(Vec4(1, 1, 1, 1))
            key.setHpr(15, -75, 0)
        else:
            ambient.node().setColor(Vec4(0.10, 0.10, 0.11, 1))
            key = self.lights_root.attachNewNode(Spotlight("lamps"))
            key.node().setColor(Vec4(3.6, 3.5, 3.3, 1))
            key.node().setAttenuation((1.0, 0.0, 0.45))
            lens = key.node().getLens()
            lens.setFov(110)
            lens.setNearFar(0.4, 4.0)
            key.node().setShadowCaster(True, 2048, 2048)
            key.setPos(centre[0], centre[1], 1.5)
            key.lookAt(centre[0], centre[1], 0)
        # On render, not on the scene: the app's own models (the cue) share the lights.
        for light in (ambient, key):
            self.base.render.setLight(light)
            self._lights.append(light)

    def _remove_lights(self) -> None:
        for light in self._lights:
            self.base.render.clearLight(light)
            light.removeNode()
        self._lights = []

    # ---- balls

    def set_balls(
        self,
        ids: Sequence[str],
        positions: ArrayLike,
        orientations: ArrayLike | None = None,
        visible: ArrayLike | None = None,
    ) -> None:
        """Show exactly the balls ``ids`` (others are hidden): centres (B, 3) in metres,
        orientations (B, 4) unit quaternions (w, x, y, z) from the model's frame to the
        table's (identity if None), ``visible`` (B,) bools (all if None)."""
        pos = np.asarray(positions, dtype=float).reshape(len(ids), 3)
        quat = (
            np.tile([1.0, 0.0, 0.0, 0.0], (len(ids), 1))
            if orientations is None
            else np.asarray(orientations, dtype=float).reshape(len(ids), 4)
        )
        shown = np.ones(len(ids), bool) if visible is None else np.asarray(visible, bool)
        unknown = set(ids) - set(self.ball_nodes)
        if unknown:
            raise KeyError(f"no ball model for {sorted(unknown)}")
        r = self.spec.ball_radius
        listed = set()
        for i, bid in enumerate(ids):
            node, shadow = self.ball_nodes[bid], self._shadows[bid]
            listed.add(bid)
            if not shown[i]:
                node.hide()
                shadow.hide()
                continue
            x, y, z = pos[i]
            node.setPosQuat((x, y, z), Quat(*quat[i]))
            shadow.setPos(x, y, z - r + 0.0008)
            node.show()
            shadow.show()
        for bid in self.ball_nodes.keys() - listed:
            self.ball_nodes[bid].hide()
            self._shadows[bid].hide()

    def set_states(
        self, ids: Sequence[str], states: BallStates, show_pocketed: bool = False
    ) -> None:
        """Place the balls as a timeline's :class:`~sim.timeline.BallStates` at one time
        says (``ids`` in its ball order); pocketed balls are hidden unless asked for."""
        visible = np.ones(len(ids), bool) if show_pocketed else ~np.asarray(states.pocketed, bool)
        self.set_balls(ids, states.positions, states.orientations, visible)

    def hide_balls(self) -> None:
        self.set_balls([], np.zeros((0, 3)))

    # ---- tidy-up

    def destroy(self) -> None:
        """Remove the scene's nodes and lights (simplepbr, if started, stays on base)."""
        self._remove_lights()
        self.root.removeNode()


def top_down_camera(base: ShowBase, spec: TableSpec, margin: float = 0.03) -> None:
    """Look straight down on the whole table, long side horizontal, head rail on the
    left; fits the rails' outer edges plus ``margin`` (a fraction) into the window."""
    lay = TableLayout.from_table(spec.build())
    half_long = (lay.outer.y1 - lay.outer.y0) / 2 * (1 + margin)
    half_short = (lay.outer.x1 - lay.outer.x0) / 2 * (1 + margin)
    lens = base.camLens
    lens.setAspectRatio(base.win.getXSize() / base.win.getYSize())
    lens.setFov(40)
    fov_h, fov_v = (math.radians(v) for v in lens.getFov())
    height = max(half_long / math.tan(fov_h / 2), half_short / math.tan(fov_v / 2))
    lens.setNearFar(0.05, height + 2.0)
    base.disableMouse()
    base.camera.setPos(lay.width / 2, lay.length / 2, lay.rail_top + height)
    base.camera.setHpr(90, -90, 0)


def player_camera(base: ShowBase, spec: TableSpec) -> None:
    """A player's look up the table from behind the head rail (for screenshots)."""
    lens = base.camLens
    lens.setAspectRatio(base.win.getXSize() / base.win.getYSize())
    lens.setFov(55)
    lens.setNearFar(0.05, 30.0)
    base.disableMouse()
    base.camera.setPos(spec.width * 0.58, -1.45, 1.2)
    base.camera.lookAt(spec.width * 0.5, spec.length * 0.42, 0.0)
