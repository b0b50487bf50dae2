"""Table specs (WPA 9-ft, 8-ft, pooltool's 7-ft) and their physical landmarks.

Landmarks a rule names (head string, kitchen, spots, long string) come from
:class:`rules.geometry.TableGeometry`; this module adds what only the physics table has:
pockets, cushion segments and which rail each segment belongs to.
"""

from __future__ import annotations

import bisect
import functools
import json
import math
from collections.abc import Iterable, Mapping
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import Any

import attrs
import numpy as np

from rules.facts import PocketId, RailName
from rules.geometry import Point, TableGeometry
from sim.paths import assets_dir
from sim.physics.pooltool_setup import pt

BALL_RADIUS = 0.028575  # WPA 2.25 in ball

# Which rail each cushion segment of a pooltool pocket table belongs to, jaws and jaw tips
# included: a jaw belongs to the rail it ends (pooltool's create_pocket_table_cushion_segments;
# tests/physics/test_table.py checks it geometrically on every table size).
RAIL_OF_SEGMENT: dict[str, RailName] = {
    **{s: RailName.HEAD for s in ("18", "1", "17", "1t", "17t")},
    **{s: RailName.FOOT for s in ("9", "8", "10", "8t", "10t")},
    **{s: RailName.LEFT for s in ("3", "6", "2", "4", "5", "7", "2t", "4t", "5t", "7t")},
    **{s: RailName.RIGHT for s in ("15", "12", "16", "14", "13", "11", "16t", "14t", "13t", "11t")},
}
# The pocket whose mouth each jaw (and jaw tip) lines.
POCKET_OF_JAW: dict[str, PocketId] = {
    jaw: pocket
    for pocket, jaws in {
        PocketId.LB: ("1", "2"),
        PocketId.LC: ("4", "5"),
        PocketId.LT: ("7", "8"),
        PocketId.RT: ("10", "11"),
        PocketId.RC: ("13", "14"),
        PocketId.RB: ("16", "17"),
    }.items()
    for base in jaws
    for jaw in (base, base + "t")
}
MAIN_CUSHION_OF_RAIL: dict[RailName, tuple[str, ...]] = {
    RailName.HEAD: ("18",),
    RailName.FOOT: ("9",),
    RailName.LEFT: ("3", "6"),
    RailName.RIGHT: ("15", "12"),
}


class TableSize(StrEnum):
    NINE_FOOT = "9ft"
    EIGHT_FOOT = "8ft"
    SEVEN_FOOT = "7ft"


@attrs.frozen
class TableSpec:
    """A pocket table: playing surface nose to nose, pocket mouths, cushion height (metres)."""

    size: TableSize
    width: float
    length: float
    corner_pocket_width: float
    side_pocket_width: float
    cushion_height: float
    ball_radius: float = BALL_RADIUS

    @property
    def geometry(self) -> TableGeometry:
        return TableGeometry(width=self.width, length=self.length, ball_radius=self.ball_radius)

    def plan(self) -> TablePlan:
        """The table seen as the window draws it, without importing pooltool when the
        plan of this spec is shipped (``assets/tables``); else built by pooltool once."""
        return _plan(self)

    def build(self) -> pt.Table:
        """A fresh pooltool table (pockets remember what they hold, so never share one)."""
        specs = pt.objects.PocketTableSpecs(
            l=self.length,
            w=self.width,
            cushion_height=self.cushion_height,
            corner_pocket_width=self.corner_pocket_width,
            side_pocket_width=self.side_pocket_width,
            model_descr=pt.objects.TableModelDescr.null(),
        )
        return pt.Table.from_table_specs(specs)


TABLE_SPECS: dict[TableSize, TableSpec] = {
    # WPA: 100 x 50 in playing surface; corner mouth 4.5-4.625 in, side 5-5.125 in;
    # cushion nose at 62.5-64.5 % of the ball's height.
    TableSize.NINE_FOOT: TableSpec(
        size=TableSize.NINE_FOOT,
        width=1.27,
        length=2.54,
        corner_pocket_width=0.115,
        side_pocket_width=0.1285,
        cushion_height=0.635 * 2 * BALL_RADIUS,
    ),
    # 88 x 44 in, same pockets and cushions as the 9-ft.
    TableSize.EIGHT_FOOT: TableSpec(
        size=TableSize.EIGHT_FOOT,
        width=1.1176,
        length=2.2352,
        corner_pocket_width=0.115,
        side_pocket_width=0.1285,
        cushion_height=0.635 * 2 * BALL_RADIUS,
    ),
    # pooltool's own 7-ft (78 x 39 in) table, as it ships (its PocketTableSpecs()'s
    # numbers, written out so that naming a table does not import pooltool;
    # tests/physics/test_table.py holds them to pooltool's).
    TableSize.SEVEN_FOOT: TableSpec(
        size=TableSize.SEVEN_FOOT,
        width=0.9906,
        length=1.9812,
        corner_pocket_width=0.118,
        side_pocket_width=0.137,
        cushion_height=0.036576,
    ),
}
DEFAULT_TABLE = TableSize.NINE_FOOT


def table_spec(size: TableSize | str = DEFAULT_TABLE) -> TableSpec:
    try:
        return TABLE_SPECS[TableSize(size)]
    except ValueError:
        known = ", ".join(s.value for s in TableSize)
        raise ValueError(f"unknown table {size!r} (known: {known})") from None


def rail_of_segment(segment_id: str) -> RailName:
    """The rail a cushion segment (a jaw or jaw tip included) belongs to."""
    try:
        return RAIL_OF_SEGMENT[segment_id]
    except KeyError:
        raise ValueError(f"unknown cushion segment {segment_id!r}") from None


def pocket_centre(table: pt.Table | TablePlan, pocket: PocketId | str) -> Point:
    centre = table.pockets[PocketId(pocket).value].center
    return (float(centre[0]), float(centre[1]))


def pocket_mouth(table: pt.Table | TablePlan, pocket: PocketId | str) -> Point:
    """The middle of a pocket's mouth, between its two jaw tips: where to send a ball in
    (a ball sent at a corner pocket's centre along a rail catches the near jaw)."""
    tips = [
        table.cushion_segments.circular[jaw].center
        for jaw, owner in POCKET_OF_JAW.items()
        if owner is PocketId(pocket) and jaw.endswith("t")
    ]
    return (float(tips[0][0] + tips[1][0]) / 2, float(tips[0][1] + tips[1][1]) / 2)


@functools.cache  # a spec is frozen: its mouths never change
def pocket_mouths(spec: TableSpec) -> Mapping[PocketId, Point]:
    """Every pocket's mouth (:func:`pocket_mouth`) on ``spec``'s table, built once: a
    table takes some 7 ms to build, and the opponent's judge looks at the pots of
    thousands of positions a decision (building one for each was a tenth of its
    thinking)."""
    table = spec.build()
    return MappingProxyType({pocket: pocket_mouth(table, pocket) for pocket in PocketId})


@functools.cache  # a spec is frozen: its pockets never move
def pocket_centres(spec: TableSpec) -> Mapping[PocketId, Point]:
    """Every pocket's centre on ``spec``'s table, built once (see :func:`pocket_mouths`)."""
    table = spec.build()
    return MappingProxyType({pocket: pocket_centre(table, pocket) for pocket in PocketId})


def nearest_cushion(table: pt.Table, point: Point) -> tuple[float, Point]:
    """Distance from ``point`` to the nearest cushion nose (straight or jaw tip), and the
    unit vector pointing from that nose towards ``point``."""
    segments = table.cushion_segments
    return _nearest_nose(
        point,
        ((segment.p1[:2], segment.p2[:2]) for segment in segments.linear.values()),
        ((tip.center[:2], tip.radius) for tip in segments.circular.values()),
    )


_Array = np.ndarray[tuple[int], np.dtype[np.float64]]


def dot2(u: _Array, v: _Array) -> float:
    """The dot product of two 2-vectors in one order on every processor (numpy's would be
    OpenBLAS's, whose order is the processor's: :mod:`sim.physics.patches.arithmetic`); the order
    of its Haswell kernels, which placed every stored shot's balls before this."""
    return float((0.0 + u[0] * v[0]) + u[1] * v[1])


def length2(u: _Array) -> float:
    """A 2-vector's length, as numpy's ``linalg.norm`` takes it (the root of
    :func:`dot2`)."""
    return math.sqrt(dot2(u, u))


def _nearest_nose(
    point: Point,
    straight: Iterable[tuple[_Array, _Array]],
    tips: Iterable[tuple[_Array, float]],
) -> tuple[float, Point]:
    """:func:`nearest_cushion` over the noses' ends and the jaw tips' centres and radii."""
    p = np.asarray(point, dtype=float)
    best, away = np.inf, np.zeros(2)
    for a, b in straight:
        ab = b - a
        u = float(np.clip(dot2(p - a, ab) / dot2(ab, ab), 0.0, 1.0))
        offset = p - (a + u * ab)
        if (dist := length2(offset)) < best:
            best, away = dist, offset / dist if dist > 0 else np.zeros(2)
    for centre, radius in tips:
        offset = p - centre
        norm = length2(offset)
        if (dist := norm - float(radius)) < best:
            best, away = dist, offset / norm if norm > 0 else np.zeros(2)
    return best, (float(away[0]), float(away[1]))


Box = tuple[float, float, float, float]  # xmin, ymin, xmax, ymax


def cushion_boxes(table: pt.Table) -> tuple[Box, ...]:
    """The bounding box of every cushion nose (straight or jaw tip); see
    :func:`may_be_within`."""
    linear = (
        _box(s.p1[0], s.p1[1], s.p2[0], s.p2[1]) for s in table.cushion_segments.linear.values()
    )
    circular = (
        _box(*(tip.center[:2] - tip.radius), *(tip.center[:2] + tip.radius))
        for tip in table.cushion_segments.circular.values()
    )
    return (*linear, *circular)


def _box(x0: float, y0: float, x1: float, y1: float) -> Box:
    """The box with these two opposite corners."""
    return (float(min(x0, x1)), float(min(y0, y1)), float(max(x0, x1)), float(max(y0, y1)))


def may_be_within(boxes: tuple[Box, ...], point: Point, reach: float) -> bool:
    """False when ``point`` is certainly more than ``reach`` from every cushion nose: it
    is that far outside every nose's bounding box along x or y (a nose lies in its box,
    so it is at least as far). A cheap test before :func:`nearest_cushion`."""
    x, y = point
    for xmin, ymin, xmax, ymax in boxes:  # a plain loop: faster than numpy for 30 boxes
        if xmin - reach <= x <= xmax + reach and ymin - reach <= y <= ymax + reach:
            return True
    return False


def within_rails(geometry: TableGeometry, point: Point) -> bool:
    """The centre is no more than a ball radius past a cushion nose line: on the bed or
    hanging in a pocket mouth, not off the table."""
    x, y = point
    reach = geometry.ball_radius
    return -reach <= x <= geometry.width + reach and -reach <= y <= geometry.length + reach


def in_pocket_mouth(table: pt.Table, point: Point) -> PocketId | None:
    """The pocket whose point-of-no-return circle holds ``point``, if any."""
    x, y = point
    for pocket_id, pocket in table.pockets.items():
        # Further than the radius along x or y (with a margin far above rounding) is
        # certainly outside: the exact distance is only needed near a pocket.
        reach = pocket.radius + 1e-9
        if abs(x - pocket.center[0]) > reach or abs(y - pocket.center[1]) > reach:
            continue
        if np.hypot(*(np.asarray(point) - pocket.center[:2])) < pocket.radius:
            return PocketId(pocket_id)
    return None


# -- the table as plain numbers --------------------------------------------------------------

Point3 = tuple[float, float, float]


@attrs.frozen
class StraightCushion:
    """A straight stretch of cushion nose (pooltool's linear segment), seen from above."""

    id: str
    p1: Point
    p2: Point


@attrs.frozen
class Circle:
    """A jaw tip (pooltool's circular segment) or a pocket, seen from above."""

    id: str
    center: Point
    radius: float


@attrs.frozen
class LinearSegment:
    """A straight cushion nose as pooltool holds it: its ends, at the nose's height."""

    p1: Point3
    p2: Point3


@attrs.frozen
class Round:
    """A jaw tip or a pocket as pooltool holds it: centre (x, y, z) and radius."""

    center: Point3
    radius: float


@attrs.frozen
class CushionSegments:
    """pooltool's ``table.cushion_segments``: straight noses and jaw tips by id."""

    linear: Mapping[str, LinearSegment]
    circular: Mapping[str, Round]


@attrs.frozen
class TablePlan:
    """The physics' table in plain numbers (metres), for what draws it or picks on it
    without touching pooltool (the window's table, the shot diagram). Its names are
    pooltool's table's (``plan.cushion_segments.linear["15"].p1``, ``plan.pockets``,
    ``plan.height``), in pooltool's order, so the window's code reads either alike:
    the window draws its first table from a plan while pooltool is still loading.
    ``width`` and ``length``: pooltool's ``w`` and ``l``."""

    width: float
    length: float
    height: float
    cushion_segments: CushionSegments
    pockets: Mapping[str, Round]

    @staticmethod
    def of(table: pt.Table) -> TablePlan:
        """The plan of a built pooltool table."""
        segments = table.cushion_segments
        return TablePlan(
            width=float(table.w),
            length=float(table.l),
            height=float(table.height),
            cushion_segments=CushionSegments(
                linear=MappingProxyType(
                    {
                        name: LinearSegment(_xyz(s.p1), _xyz(s.p2))
                        for name, s in segments.linear.items()
                    }
                ),
                circular=MappingProxyType(
                    {
                        name: Round(_xyz(tip.center), float(tip.radius))
                        for name, tip in segments.circular.items()
                    }
                ),
            ),
            pockets=MappingProxyType(
                {
                    name: Round(_xyz(pocket.center), float(pocket.radius))
                    for name, pocket in table.pockets.items()
                }
            ),
        )

    @property
    def straight(self) -> tuple[StraightCushion, ...]:
        """The straight noses seen from above, in pooltool's order."""
        return tuple(
            StraightCushion(name, s.p1[:2], s.p2[:2])
            for name, s in self.cushion_segments.linear.items()
        )

    @property
    def jaw_tips(self) -> tuple[Circle, ...]:
        """The jaw tips seen from above, in pooltool's order."""
        return tuple(
            Circle(name, tip.center[:2], tip.radius)
            for name, tip in self.cushion_segments.circular.items()
        )

    def nearest_cushion(self, point: Point) -> tuple[float, Point]:
        """:func:`nearest_cushion` on this plan (the same numbers, the same answer)."""
        return _nearest_nose(
            point,
            ((np.asarray(s.p1), np.asarray(s.p2)) for s in self.straight),
            ((np.asarray(tip.center), tip.radius) for tip in self.jaw_tips),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "length": self.length,
            "height": self.height,
            "linear": {name: [s.p1, s.p2] for name, s in self.cushion_segments.linear.items()},
            "circular": {
                name: [tip.center, tip.radius]
                for name, tip in self.cushion_segments.circular.items()
            },
            "pockets": {name: [p.center, p.radius] for name, p in self.pockets.items()},
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> TablePlan:
        def rounds(items: Mapping[str, Any]) -> Mapping[str, Round]:
            return MappingProxyType(
                {name: Round(_point3(centre), float(r)) for name, (centre, r) in items.items()}
            )

        return TablePlan(
            width=float(data["width"]),
            length=float(data["length"]),
            height=float(data["height"]),
            cushion_segments=CushionSegments(
                linear=MappingProxyType(
                    {
                        name: LinearSegment(_point3(p1), _point3(p2))
                        for name, (p1, p2) in data["linear"].items()
                    }
                ),
                circular=rounds(data["circular"]),
            ),
            pockets=rounds(data["pockets"]),
        )


def _xyz(point: _Array) -> Point3:
    return (float(point[0]), float(point[1]), float(point[2]))


def _point3(numbers: list[float]) -> Point3:
    x, y, z = numbers
    return (float(x), float(y), float(z))


def table_plans_dir() -> Path:
    """Where the plans of the shipped tables are (``assets/tables/<size>.json``)."""
    return assets_dir() / "tables"


def write_table_plans(folder: Path | None = None) -> list[Path]:
    """Write the plan of every shipped table size as pooltool builds it now, each with
    the spec it was built from (a plan is used only for that spec). Run again when
    pooltool or a spec changes (tests/physics/test_table.py fails until then)."""
    folder = table_plans_dir() if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for spec in TABLE_SPECS.values():
        path = folder / f"{spec.size.value}.json"
        shipped = {"spec": _spec_json(spec), "plan": TablePlan.of(spec.build()).to_json()}
        path.write_text(json.dumps(shipped, indent=1) + "\n")
        written.append(path)
    return written


def shipped_plan(spec: TableSpec) -> TablePlan | None:
    """The plan shipped for ``spec`` (read with json, no pooltool), or None when none
    was shipped for these numbers."""
    path = table_plans_dir() / f"{spec.size.value}.json"
    if not path.is_file():
        return None
    shipped = json.loads(path.read_text())
    if shipped["spec"] != _spec_json(spec):
        return None
    return TablePlan.from_json(shipped["plan"])


def _spec_json(spec: TableSpec) -> dict[str, Any]:
    return {**attrs.asdict(spec), "size": spec.size.value}


@functools.cache  # a spec is frozen, and a plan too: one per spec, shared
def _plan(spec: TableSpec) -> TablePlan:
    return shipped_plan(spec) or TablePlan.of(spec.build())


# The ratios of tangential to normal contact speed at which :class:`CushionRebound`
# tabulates pooltool's cushion collision (0 to 60, denser near 0 where its cases change).
_REBOUND_RATIOS = tuple(60.0 * (i / 400) ** 2 for i in range(401))


class CushionRebound:
    """pooltool's ball-cushion collision (Stronge's compliant model, its default) for a
    ball meeting a straight cushion, in plain Python: the opponent's forecast
    (``sim.play.opponent.forecast``) bounces the cue ball off rails thousands of times a
    decision, and pooltool's own function, built on 3-vectors, takes about a
    millisecond a call.

    The model is pooltool's statement for statement, with one step tabulated: the
    collinear compliant collision at the contact point depends on its tangential and
    normal speeds only through their ratio (its springs are linear, so the outcome
    scales with the normal speed), so it is computed once by pooltool for 401 ratios
    and interpolated linearly (a test holds the whole to pooltool's within 1e-3 of
    the speed)."""

    def __init__(self, spec: TableSpec) -> None:
        params = pt.objects.BallParams.default()
        model = pt.physics.resolve.resolver.Resolver.default().ball_linear_cushion
        stronge = pt.physics.resolve.ball_cushion.stronge_compliant.model
        if not isinstance(model, stronge.StrongeCompliantLinear):
            raise TypeError(f"pooltool's cushion model is not Stronge's: {model!r}")
        self.radius = params.R
        # The contact normal, from the cushion's nose (at its height) to the ball's
        # centre (at R), in the cushion's frame: x across the rail into the table, z up.
        rise = params.R - spec.cushion_height
        self.nx, self.nz = math.sqrt(params.R**2 - rise**2) / params.R, rise / params.R
        collide = pt.physics.resolve.stronge_compliant
        beta_t, beta_n = 3.5, 1.0  # pooltool's, for a sphere against a half-space
        self._table = [
            collide.resolve_collinear_compliant_frictional_inelastic_collision(
                v_t_0=-ratio,
                v_n_0=-1.0,
                m=params.m,
                beta_t=beta_t,
                beta_n=beta_n,
                mu=params.f_c,
                e_n=params.e_c,
                k_n=1e3,
                eta_squared=beta_t / beta_n / model.omega_ratio**2,
            )
            for ratio in _REBOUND_RATIOS
        ]

    def __call__(
        self, v: tuple[float, float], w: tuple[float, float, float]
    ) -> tuple[tuple[float, float], tuple[float, float, float]]:
        """The ball's velocity ``v`` (across the rail, positive into the cushion; along
        it) and spin ``w`` (rad/s, in the same frame with z up), after the contact."""
        nx, nz, radius = -self.nx, self.nz, self.radius  # n points from the nose to the ball
        vx, vy = v
        wx, wy, wz = w
        # The contact point's velocity, v + w x (-R n).
        dx, dz = -radius * nx, -radius * nz
        ux = vx + wy * dz
        uy = vy + wz * dx - wx * dz
        uz = -wy * dx
        v_n = nx * ux + nz * uz
        # n x u, its length the tangential speed, and the tangent (n x u) x n.
        cx, cy, cz = -nz * uy, nz * ux - nx * uz, nx * uy
        v_t = -math.sqrt(cx * cx + cy * cy + cz * cz)
        if v_n >= 0:  # leaving already: no contact
            return v, w
        if v_t == 0:
            tx = ty = tz = 0.0
        else:
            tx, ty, tz = (cy * nz) / v_t, (cz * nx - cx * nz) / v_t, (-cy * nx) / v_t
        v_t_f, v_n_f = self._collide(v_t, v_n)
        dv_n, dv_t = v_n_f - v_n, (v_t_f - v_t) / 3.5
        vx += dv_n * nx + dv_t * tx
        vy += dv_t * ty
        # w += 2.5 / R (-n) x (dv_t t)
        k = 2.5 / radius * dv_t
        wx += k * (nz * ty)
        wy += k * (nx * tz - nz * tx)
        wz += k * (-nx * ty)
        return (vx, vy), (wx, wy, wz)

    def _collide(self, v_t: float, v_n: float) -> tuple[float, float]:
        """pooltool's collinear collision, from the table: both speeds are negative."""
        ratio = v_t / v_n
        ratios, table = _REBOUND_RATIOS, self._table
        index = min(bisect.bisect_right(ratios, ratio), len(ratios) - 1)
        low, high = ratios[index - 1], ratios[index]
        share = (ratio - low) / (high - low)
        (t0, n0), (t1, n1) = table[index - 1], table[index]
        scale = -v_n
        return scale * (t0 + share * (t1 - t0)), scale * (n0 + share * (n1 - n0))
