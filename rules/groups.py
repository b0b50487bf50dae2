"""8-ball's groups as state (EB-7, EB-20): solids and stripes, the open table, what the
next shooter must hit first, and why a rack was lost (EB-12). Immutable values, so a
:class:`~rules.state.GameState` carries them, and a :class:`~rules.ruling.Ruling` as its
:class:`EightBallExtras`."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from enum import StrEnum
from typing import Any, ClassVar, Self

import attrs

from rules.extras import RulingExtras
from rules.facts import BallId
from rules.reading import shown_text
from rules.ruling import Ruling
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

    def to_json(self) -> dict[str, str | None]:
        """As a scenario expects them (rules.extras.ExpectedValue): :meth:`as_dict`."""
        return self.as_dict()

    def matches(self, got: Any, tolerance: float) -> bool:
        """A scenario's expected groups are met only by the same groups."""
        return bool(self == got)

    @classmethod
    def from_dict(cls, data: Mapping[str, str | None]) -> Groups:
        """Back from :meth:`as_dict`."""
        a, b = (data[player.value] for player in Player)
        return cls(None if a is None else Group(a), None if b is None else Group(b))

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


@attrs.frozen(kw_only=True)
class EightBallExtras(RulingExtras):
    """What an 8-ball ruling alone says: ``groups`` after it (EB-7), ``groups_taken``
    when this shot gave them (EB-7, B-35), ``illegal_break`` (EB-5(c), not in itself a
    foul) and ``loss``, why the shooter lost the rack (EB-12)."""

    # FORMAT.md "8-ball": the keys only the games with groups accept.
    expect_keys: ClassVar[tuple[str, ...]] = ("groups", "target", "illegal_break", "loss")
    before_keys: ClassVar[tuple[str, ...]] = ("groups",)

    groups: Groups
    groups_taken: bool = False
    illegal_break: bool = False
    loss: Loss | None = None

    @classmethod
    def of(cls, ruling: Ruling) -> EightBallExtras | None:
        """``ruling``'s 8-ball part; None for another game's (or free play's) ruling."""
        return ruling.extras if isinstance(ruling.extras, EightBallExtras) else None

    def target(self, ruling: Ruling) -> Target:
        """What the next shooter must hit first (FORMAT.md ``target``)."""
        return self.groups.target(ruling.next_shooter, ruling.positions)

    def observed(self, ruling: Ruling) -> dict[str, Any]:
        return {
            "groups": self.groups,
            "target": self.target(ruling),
            "illegal_break": self.illegal_break,
            "loss": self.loss,
        }

    def to_json(self, ruling: Ruling) -> dict[str, Any]:
        return {
            "groups": self.groups.as_dict(),
            "groups_taken": self.groups_taken,
            "target": self.target(ruling).value,
            "illegal_break": self.illegal_break,
            "loss": self.loss.value if self.loss else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The fields back (``target`` is the ruling's, derived again by :meth:`target`)."""
        loss = data["loss"]
        return cls(
            groups=Groups.from_dict(data["groups"]),
            groups_taken=data["groups_taken"],
            illegal_break=data["illegal_break"],
            loss=None if loss is None else Loss(loss),
        )
