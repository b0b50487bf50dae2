"""Racks: the 10-ball triangle (TB-3), the 9-ball diamond (NB-3), the 15-ball rotation
triangle (ROT-3) and the 8-ball triangle (EB-3).

Which ball goes in which slot is the game's (``rack_pattern`` of its class in ``rules``);
here the pattern is laid out on the table. The apex ball sits on the foot spot (under
B-26, the 9-ball diamond's centre) and the rows grow toward the foot rail. Balls are
"frozen" with a small clearance ``gap`` between neighbours (default 0.1 mm): pooltool
collides touching balls spuriously at t=0, and a gap of 1e-6 m makes breaks explode into
hundreds of events, while 1e-5 to 1e-4 m breaks cleanly (pooltool-notes, "Rack gap").
The balls the rules leave free are shuffled with an explicit seed.
"""

from __future__ import annotations

import math
import random

from rules import NineBall, Options, TenBall, game_kind
from rules.facts import CUE, BallId
from rules.geometry import Point, TableGeometry
from rules.options import NineRackPosition
from rules.rack import RackPattern
from rules.rotation import rack_pattern as rotation_pattern

DEFAULT_RACK_GAP = 1e-4


def rack_slots(
    geometry: TableGeometry, pattern: RackPattern, gap: float = DEFAULT_RACK_GAP
) -> list[Point]:
    """Centres of ``pattern``'s slots in its order: each row centred on the long string,
    rows √3·R apart (plus the gap), the ``foot_spot_row`` on the foot spot."""
    if not 0 <= gap < geometry.ball_radius:
        raise ValueError(f"rack gap must be in [0, {geometry.ball_radius}) m, got {gap}")
    spacing = geometry.ball_diameter + gap
    centre_x, foot_y = geometry.foot_spot
    return [
        (
            centre_x + (slot - (len(slots) - 1) / 2) * spacing,
            foot_y + (row - pattern.foot_spot_row) * spacing * math.sqrt(3) / 2,
        )
        for row, slots in enumerate(pattern.rows)
        for slot in range(len(slots))
    ]


def rack(
    geometry: TableGeometry,
    pattern: RackPattern,
    seed: int,
    gap: float = DEFAULT_RACK_GAP,
) -> dict[BallId, Point]:
    """Object balls of a rack: fixed balls where ``pattern`` says, its draws (EB-3) and
    the rest of 1..(its number of slots) shuffled by ``random.Random(seed)``."""
    layout = list(pattern.slots)
    rng = random.Random(seed)
    for draw in pattern.draws:  # EB-3: a solid and a stripe in the back corners
        groups = list(draw.groups)
        rng.shuffle(groups)
        for slot, group in zip(draw.slots, groups, strict=True):
            layout[slot] = rng.choice(group)
    fixed = {ball for ball in layout if ball is not None}
    free = [str(n) for n in range(1, len(layout) + 1) if str(n) not in fixed]
    rng.shuffle(free)
    shuffled = iter(free)
    balls = [ball if ball is not None else next(shuffled) for ball in layout]
    return dict(zip(balls, rack_slots(geometry, pattern, gap), strict=True))


def ten_ball_rack(
    geometry: TableGeometry, seed: int, gap: float = DEFAULT_RACK_GAP
) -> dict[BallId, Point]:
    """TB-3: ten balls, the 1 on the foot spot, the 10 in the middle of the third row."""
    return rack(geometry, TenBall.rack_pattern(Options()), seed, gap)


def nine_ball_rack(
    geometry: TableGeometry,
    seed: int,
    gap: float = DEFAULT_RACK_GAP,
    *,
    position: NineRackPosition = "one_on_foot_spot",
) -> dict[BallId, Point]:
    """NB-3: the diamond of nine, the 1 on the foot spot and the 9 in the centre; B-26
    ``nine_rack_position = nine_on_foot_spot`` moves it two rows toward the head rail."""
    return rack(geometry, NineBall.rack_pattern(Options(nine_rack_position=position)), seed, gap)


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
