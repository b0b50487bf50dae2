"""8-ball's groups as state (EB-7, EB-20): solids and stripes, the open table, what the
next shooter must hit first, and why a rack was lost (EB-12). Immutable values, so a
:class:`~rules.state.GameState` and a :class:`~rules.ruling.Ruling` can carry them."""

from __future__ import annotations

import json
from collections.abc import Collection
from enum import StrEnum
from typing import Any

import attrs

from rules.facts import BallId
from rules.reading import shown_text
from rules.terms import Player

EIGHT: BallId = "8"


class Group(StrEnum):
    """A player's seven balls (REFERENCE.md "8-ball", terms): the 8 belongs to neither."""

    SOLIDS = "solids"
    STRIPES = "stripes"

    @property
    def balls(self) -> tuple[BallId, ...]:
        numbers = range(1, 8) if self is Group.SOLIDS else range(9, 16)
        return tuple(str(n) for n in numbers)

    @property
    def other(self) -> Group:
        return Group.STRIPES if self is Group.SOLIDS else Group.SOLIDS

    @classmethod
    def of(cls, ball: BallId) -> Group | None:
        """The group ``ball`` belongs to; None for the 8 (and the cue ball)."""
        return next((group for group in cls if ball in group.balls), None)


class Target(StrEnum):
    """What the next shooter must hit first (FORMAT.md ``target``; EB-8's on-set)."""

    OPEN = "open"
    SOLIDS = "solids"
    STRIPES = "stripes"
    EIGHT = "eight"


class Loss(StrEnum):
    """Why the shooter lost the rack (EB-12; B-38, B-42)."""

    EIGHT_OFF_TABLE = "eight-off-table"  # EB-12(d)
    EIGHT_WITH_FOUL = "eight-with-foul"  # EB-12(a)
    EIGHT_EARLY = "eight-early"  # EB-12(b)
    EIGHT_WRONG_POCKET = "eight-wrong-pocket"  # EB-12(c)
    THREE_FOULS = "three-fouls"  # B-42
    SCRATCH_ON_EIGHT = "scratch-on-eight"  # B-38


@attrs.frozen
class Groups:
    """Each player's group: both None (the open table, EB-7) or one each, never the
    same (FORMAT.md ``groups``)."""

    a: Group | None = None
    b: Group | None = None

    def __attrs_post_init__(self) -> None:
        if (self.a is None) != (self.b is None):
            raise ValueError("one group is never set without the other")
        if self.a is not None and self.a is self.b:
            raise ValueError("both players never have the same group")

    @property
    def is_open(self) -> bool:
        return self.a is None

    def __getitem__(self, player: Player) -> Group | None:
        return self.a if player is Player.A else self.b

    @classmethod
    def assigned(cls, player: Player, group: Group) -> Groups:
        """EB-7: ``player`` takes ``group``, the opponent the other."""
        mine, theirs = group, group.other
        return cls(mine, theirs) if player is Player.A else cls(theirs, mine)

    def left(self, player: Player, on_table: Collection[BallId]) -> tuple[BallId, ...]:
        """``G(p)``: the balls of ``player``'s group still on the table (none while open)."""
        group = self[player]
        return () if group is None else tuple(b for b in group.balls if b in on_table)

    def target(self, player: Player, on_table: Collection[BallId]) -> Target:
        """What ``player`` must hit first with these balls on the table (EB-8, EB-20)."""
        group = self[player]
        if group is None:
            return Target.OPEN
        if self.left(player, on_table):
            return Target(group.value)
        return Target.EIGHT

    def as_dict(self) -> dict[str, str | None]:
        """As FORMAT.md and the game files write them: ``{"A": "solids", "B": ...}``."""
        return {"A": self.a and self.a.value, "B": self.b and self.b.value}

    @classmethod
    def of_json(cls, value: Any) -> Groups:
        """As a position file writes them (:meth:`as_dict`): ``{"A": "solids", "B":
        "stripes"}``, or both null (open); ValueError for anything else."""
        shown = shown_text(json.dumps(value))
        if not isinstance(value, dict) or set(value) != {"A", "B"}:
            raise ValueError(f'expected {{"A": ..., "B": ...}}, got {shown}')
        named = [value["A"], value["B"]]
        if any(v is not None and v not in {g.value for g in Group} for v in named):
            raise ValueError(f'expected "solids", "stripes" or null, got {shown}')
        return cls(*(None if v is None else Group(v) for v in named))
