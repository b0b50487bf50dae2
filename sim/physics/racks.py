"""Racks: the 10-ball diamond-less triangle (TB-3) and the 15-ball rotation triangle (ROT-3).

Which ball goes in which slot is the game's (``rack_pattern`` of its class in ``rules``);
here the pattern is laid out on the table. The apex ball sits on the foot spot and the
rows grow toward the foot rail. Balls are
"frozen" with a small clearance ``gap`` between neighbours (default 0.1 mm): pooltool
collides touching balls spuriously at t=0, and a gap of 1e-6 m makes breaks explode into
hundreds of events, while 1e-5 to 1e-4 m breaks cleanly (pooltool-notes, "Rack gap").
The balls the rules leave free are shuffled with an explicit seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from rules import Options, TenBall, game_kind
from rules.facts import CUE, BallId
from rules.geometry import Point, TableGeometry
from rules.rotation import rack_pattern as rotation_pattern

DEFAULT_RACK_GAP = 1e-4


def triangle_slots(
    geometry: TableGeometry, rows: int, gap: float = DEFAULT_RACK_GAP
) -> list[Point]:
    """Centres of a triangle of ``rows`` rows, apex on the foot spot, row by row, x rising."""
    if not 0 <= gap < geometry.ball_radius:
        raise ValueError(f"rack gap must be in [0, {geometry.ball_radius}) m, got {gap}")
    spacing = geometry.ball_diameter + gap
    apex_x, apex_y = geometry.foot_spot
    return [
        (apex_x + (slot - row / 2) * spacing, apex_y + row * spacing * math.sqrt(3) / 2)
        for row in range(rows)
        for slot in range(row + 1)
    ]


def rack(
    geometry: TableGeometry,
    layout: Sequence[BallId | None],
    seed: int,
    gap: float = DEFAULT_RACK_GAP,
) -> dict[BallId, Point]:
    """Object balls of a triangle rack: fixed balls where ``layout`` says, the rest of
    1..len(layout) shuffled by ``random.Random(seed)``."""
    rows = round((math.sqrt(8 * len(layout) + 1) - 1) / 2)
    if rows * (rows + 1) // 2 != len(layout):
        raise ValueError(f"{len(layout)} balls do not make a triangle")
    fixed = {ball for ball in layout if ball is not None}
    free = [str(n) for n in range(1, len(layout) + 1) if str(n) not in fixed]
    random.Random(seed).shuffle(free)
    shuffled = iter(free)
    balls = [ball if ball is not None else next(shuffled) for ball in layout]
    return dict(zip(balls, triangle_slots(geometry, rows, gap), strict=True))


def ten_ball_rack(
    geometry: TableGeometry, seed: int, gap: float = DEFAULT_RACK_GAP
) -> dict[BallId, Point]:
    """TB-3: ten balls, the 1 on the foot spot, the 10 in the middle of the third row."""
    return rack(geometry, TenBall.rack_pattern(Options()), seed, gap)


def rotation_rack(
    geometry: TableGeometry,
    seed: int,
    gap: float = DEFAULT_RACK_GAP,
    *,
    pattern: str = "bca_1_apex_2_3_corners_15_centre",
    two_side: str = "x_low",
) -> dict[BallId, Point]:
    """ROT-3: fifteen balls; B-13 options ``rotation_rack_pattern`` and
    ``rotation_rack_2_side`` choose the pattern and the corner of the 2 (see
    :meth:`rules.Rotation.rack_pattern`)."""
    return rack(geometry, rotation_pattern(pattern, two_side), seed, gap)


def break_cue_position(geometry: TableGeometry) -> Point:
    """Where the cue ball waits in hand for the break: in the kitchen, on the long axis,
    a fifth of the kitchen's depth behind the head string (GEN-5, TB-4, ROT-4)."""
    return (geometry.width / 2, 0.8 * geometry.head_string_y)


def opening_position(
    game: str, geometry: TableGeometry, seed: int, gap: float = DEFAULT_RACK_GAP
) -> dict[BallId, Point]:
    """The balls for a break of ``game`` (its name, as :data:`rules.GAMES` has it): its
    rack under the default options and the cue ball in hand in the kitchen."""
    balls = rack(geometry, game_kind(game).rack_pattern(Options()), seed, gap)
    return {CUE: break_cue_position(geometry), **balls}
