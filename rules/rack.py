"""The shape of a game's rack and which ball the rules put in which slot (TB-3, ROT-3,
NB-3); laying it out on a table, with the free slots shuffled, is the physics' job
(:mod:`sim.physics.racks`). And the break a practised player of the game plays on it
(:class:`PractisedBreak`), which a game names for the computer opponent."""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from rules.facts import BallId

Slot = BallId | None


def _rows(value: Sequence[Sequence[Slot]]) -> tuple[tuple[Slot, ...], ...]:
    return tuple(tuple(row) for row in value)


def _ints(value: Sequence[int]) -> tuple[int, ...]:
    return tuple(value)


@attrs.frozen(repr=False)
class PractisedBreak:
    """A game's break measured over many racks (``sim.play.opponent.breakstudy``): the
    cue ball's share of the width off the middle, the tip's height (ball radii), the
    cue's speed (m/s), and what it left the breaker on average (the judge's value, about
    the chance of winning the rack) at the noise it was measured with.

    Its aim, where it is not the full hit on the apex: ``slot``, the rack slot
    (:attr:`RackPattern.slots` order) whose ball it hits, as seen with the cue ball on
    the right of the kitchen (x rising; mirrored from the left); ``thin``, how far off
    that ball's centre the cue ball's line passes, in ball diameters, on the side away
    from the rack's middle (0: full; near 1: a graze); ``english``, side spin in ball
    radii, positive toward that side. ``safe``: the break hands the other player the
    table on purpose (14.1's opening break, SP-3), so every level plays it, a weaker
    player with its own noise: it is the game's way to break, not a practised edge."""

    offset: float
    spin: float
    speed: float
    value: float
    slot: int = 0
    thin: float = 0.0
    english: float = 0.0
    safe: bool = False

    def __repr__(self) -> str:
        """The four measured figures, and the aim only where it is not the full hit on
        the apex: a duel's racks name a level's breaks by this text
        (``sim.play.opponent.player.settings``), and the games broken full at the apex
        keep the racks they played before the aim was added."""
        text = (
            f"PractisedBreak(offset={self.offset!r}, spin={self.spin!r}, "
            f"speed={self.speed!r}, value={self.value!r}"
        )
        if (self.slot, self.thin, self.english, self.safe) != (0, 0.0, 0.0, False):
            text += (
                f", slot={self.slot!r}, thin={self.thin!r}, english={self.english!r}, "
                f"safe={self.safe!r}"
            )
        return text + ")"


@attrs.frozen
class SlotDraw:
    """Slots filled by a seeded draw, one ball from each group (EB-3's back corners: one
    solid and one stripe, either way round). ``slots``: indexes in rack order."""

    slots: tuple[int, ...] = attrs.field(converter=_ints)
    groups: tuple[tuple[BallId, ...], ...] = attrs.field(converter=_rows)

    def __attrs_post_init__(self) -> None:
        if len(self.slots) != len(self.groups):
            raise ValueError("a slot draw has one group per slot")


@attrs.frozen
class RackPattern:
    """A rack's slots, row by row from the apex toward the foot rail, each row left to
    right (x rising): the ball the rules put there, or None for a slot the rules leave to a
    seeded shuffle by whoever racks. Rows are centred on the long string and frozen, √3·R
    apart. ``draws``: free slots the racker fills from given groups (EB-3).
    ``foot_spot_row``: the row whose centre is on the foot spot (0, the apex, in
    TB-3, ROT-3 and NB-3; 2 under B-26 ``nine_on_foot_spot``); the rows before it lie
    toward the head rail."""

    rows: tuple[tuple[Slot, ...], ...] = attrs.field(converter=_rows)
    foot_spot_row: int = 0
    draws: tuple[SlotDraw, ...] = ()

    def __attrs_post_init__(self) -> None:
        if not self.rows or not all(self.rows):
            raise ValueError("a rack has rows of at least one slot each")
        count = sum(len(row) for row in self.rows)
        for draw in self.draws:
            if any(not 0 <= slot < count or self.slots[slot] is not None for slot in draw.slots):
                raise ValueError(f"a slot draw fills free slots of the rack: {draw.slots}")
        if not 0 <= self.foot_spot_row < len(self.rows):
            raise ValueError(f"foot_spot_row {self.foot_spot_row} is not a row of the rack")

    @classmethod
    def triangle(cls, slots: Sequence[Slot]) -> RackPattern:
        """A triangle (rows of 1, 2, 3, ... slots) from its slots in order, apex first."""
        count = round((math.sqrt(8 * len(slots) + 1) - 1) / 2)
        if count * (count + 1) // 2 != len(slots):
            raise ValueError(f"{len(slots)} balls do not make a triangle")
        starts = [row * (row + 1) // 2 for row in range(count)]
        return cls([slots[start : start + row + 1] for row, start in enumerate(starts)])

    @property
    def slots(self) -> tuple[Slot, ...]:
        """Every slot in rack order: row by row, left to right."""
        return tuple(slot for row in self.rows for slot in row)
