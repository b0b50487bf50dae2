"""Racks: a game's rack pattern laid out on the table (:func:`rack`), and racked again
around balls that stay where they lie (:func:`rerack`, 14.1's re-rack of fourteen balls).

Which ball goes in which slot is the game's (``rack_pattern`` of its class in ``rules``:
the 10-ball triangle of TB-3, the 9-ball diamond of NB-3, the triangles of ROT-3 and
EB-3); here the pattern is laid out on the table. The apex ball sits on the foot spot (under
B-26, the 9-ball diamond's centre) and the rows grow toward the foot rail. Balls are
"frozen" with a small clearance ``gap`` between neighbours (default 0.1 mm): pooltool
collides touching balls spuriously at t=0, and a gap of 1e-6 m makes breaks explode into
hundreds of events, while 1e-5 to 1e-4 m breaks cleanly (pooltool-notes, "Rack gap").
The balls the rules leave free are shuffled with an explicit seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

from rules import Options, game_kind
from rules.facts import CUE, BallId
from rules.geometry import Point, TableGeometry, distance
from rules.rack import RackPattern

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
    return rerack(geometry, pattern, seed, {}, gap)


def rerack(
    geometry: TableGeometry,
    pattern: RackPattern,
    seed: int,
    staying: Mapping[BallId, Point],
    gap: float = DEFAULT_RACK_GAP,
) -> dict[BallId, Point]:
    """The table after racking ``pattern`` around the balls ``staying`` where they lie
    (the cue ball among them if it stays): every ball of 1..(its number of slots) not
    staying is racked, ``staying`` is kept as it is. A fixed ball that stays leaves its
    slot empty; with fewer free balls than free slots, the free slots nearest the apex
    stay empty (14.1's re-rack of fourteen balls leaves the apex empty, WPA-14 4.2). The
    draws (EB-3) and the shuffle are those of :func:`rack`, one ``random.Random(seed)``,
    so with nothing staying this is that rack.
    ValueError for a ball staying where a racked ball would overlap it (the referee
    moves such a ball first, as 14.1's SP-15 does)."""
    layout = list(pattern.slots)
    rng = random.Random(seed)
    for draw in pattern.draws:  # EB-3: a solid and a stripe in the back corners
        groups = [[ball for ball in group if ball not in staying] for group in draw.groups]
        rng.shuffle(groups)
        for slot, group in zip(draw.slots, groups, strict=True):
            layout[slot] = rng.choice(group) if group else None
    fixed = {ball for ball in layout if ball is not None}
    free = [str(n) for n in range(1, len(layout) + 1) if str(n) not in fixed | set(staying)]
    rng.shuffle(free)
    empty = sum(ball is None for ball in layout) - len(free)  # the front free slots
    shuffled = iter(free)
    placed: dict[BallId, Point] = {}
    for ball, point in zip(layout, rack_slots(geometry, pattern, gap), strict=True):
        if ball is None and empty > 0:
            empty -= 1
        elif ball is None:
            placed[next(shuffled)] = point
        elif ball not in staying:
            placed[ball] = point
    for ball, point in placed.items():
        for other, spot in staying.items():
            if distance(point, spot) < geometry.ball_diameter:
                raise ValueError(f"the {other} stays where the rack puts the {ball}")
    return {**staying, **placed}


def break_cue_position(geometry: TableGeometry) -> Point:
    """Where the cue ball waits in hand for the break: in the kitchen, on the long axis,
    a fifth of the kitchen's depth behind the head string (GEN-5, TB-4, ROT-4)."""
    return (geometry.width / 2, 0.8 * geometry.head_string_y)


def apex_ball(balls: Mapping[BallId, Point]) -> BallId:
    """The object ball nearest the head rail: a rack's apex, which a break aims at."""
    return min((ball for ball in balls if ball != CUE), key=lambda ball: balls[ball][1])


def opening_position(
    game: str, geometry: TableGeometry, seed: int, gap: float = DEFAULT_RACK_GAP
) -> dict[BallId, Point]:
    """The balls for a break of ``game`` (its name, as :data:`rules.GAMES` has it): its
    rack under the default options and the cue ball in hand in the kitchen."""
    balls = rack(geometry, game_kind(game).rack_pattern(Options()), seed, gap)
    return {CUE: break_cue_position(geometry), **balls}
