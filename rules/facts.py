"""Shot facts: the neutral, ordered record of what happened on one shot.

The physics side (``sim.physics.facts``) produces them from pooltool's events; the referee reads
them. The vocabulary and its JSON form are those of the scenario format (FORMAT.md,
"Events"): ``hit``, ``rail``, ``pocket``, ``off-table`` and ``head-string``, each with an
optional time ``t`` in seconds since the cue struck the ball.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any, ClassVar, TypeAlias

import attrs

from rules.errors import FormatError
from rules.reading import check_keys, is_number, item

BallId: TypeAlias = str
CUE: BallId = "cue"
OBJECT_BALLS: tuple[BallId, ...] = tuple(str(n) for n in range(1, 16))
BALL_IDS: frozenset[BallId] = frozenset((CUE, *OBJECT_BALLS))


class RailName(StrEnum):
    """The four rails; a pocket jaw belongs to the rail it ends."""

    HEAD = "head"
    FOOT = "foot"
    LEFT = "left"
    RIGHT = "right"


class PocketId(StrEnum):
    """l/r: the x = 0 / x = width side; b: head end, c: side pocket, t: foot end."""

    LB = "lb"
    LC = "lc"
    LT = "lt"
    RB = "rb"
    RC = "rc"
    RT = "rt"


class FactFormatError(FormatError):
    """A fact in JSON form that does not follow the format; ``key`` names the culprit."""


def _ball_id(_instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in BALL_IDS:
        raise ValueError(f"{attribute.name}: unknown ball {value!r}")


def _time(_instance: object, attribute: attrs.Attribute[float | None], value: float | None) -> None:
    if value is not None and not (math.isfinite(value) and value >= 0):
        raise ValueError(f"{attribute.name}: time must be finite and >= 0, got {value!r}")


@attrs.frozen
class Hit:
    """Two balls collided."""

    kind: ClassVar[str] = "hit"
    balls: tuple[BallId, BallId] = attrs.field()
    t: float | None = attrs.field(default=None, validator=_time)

    @balls.validator
    def _check_balls(
        self, _attribute: attrs.Attribute[tuple[str, str]], value: tuple[str, str]
    ) -> None:
        if len(value) != 2 or value[0] == value[1] or not set(value) <= BALL_IDS:
            raise ValueError(f"balls: a hit needs two different known balls, got {value!r}")

    def involves(self, ball: BallId) -> bool:
        return ball in self.balls

    def other(self, ball: BallId) -> BallId:
        """The ball that ``ball`` hit."""
        return self.balls[1] if self.balls[0] == ball else self.balls[0]


@attrs.frozen
class RailContact:
    """A ball touched a cushion; ``rail`` when known. ``jaw``: the contact was with a
    pocket facing (B-4 ``rail_includes_jaws``); the scenario format has no key for it, so
    facts read from JSON are never jaw contacts."""

    kind: ClassVar[str] = "rail"
    ball: BallId = attrs.field(validator=_ball_id)
    rail: RailName | None = attrs.field(default=None, converter=attrs.converters.optional(RailName))
    t: float | None = attrs.field(default=None, validator=_time)
    jaw: bool = False


@attrs.frozen
class Pocketing:
    """A ball dropped into a pocket."""

    kind: ClassVar[str] = "pocket"
    ball: BallId = attrs.field(validator=_ball_id)
    pocket: PocketId = attrs.field(converter=PocketId)
    t: float | None = attrs.field(default=None, validator=_time)


@attrs.frozen
class OffTable:
    """A ball left the table (came to rest anywhere but the bed or a pocket)."""

    kind: ClassVar[str] = "off-table"
    ball: BallId = attrs.field(validator=_ball_id)
    t: float | None = attrs.field(default=None, validator=_time)


@attrs.frozen
class HeadStringCrossing:
    """The cue ball's centre first reached the head string from the kitchen."""

    kind: ClassVar[str] = "head-string"
    ball: BallId = attrs.field(default=CUE, validator=_ball_id)
    t: float | None = attrs.field(default=None, validator=_time)

    @ball.validator
    def _only_cue(self, _attribute: attrs.Attribute[str], value: str) -> None:
        if value != CUE:
            raise ValueError(f"ball: only the cue ball crosses the head string, got {value!r}")


Fact: TypeAlias = Hit | RailContact | Pocketing | OffTable | HeadStringCrossing
ShotFacts: TypeAlias = tuple[Fact, ...]


def balls_gone(facts: Iterable[Fact]) -> set[BallId]:
    """The balls an event pocketed or sent off the table: not on the table at rest."""
    return {fact.ball for fact in facts if isinstance(fact, Pocketing | OffTable)}


_KINDS: dict[str, type[Fact]] = {
    cls.kind: cls for cls in (Hit, RailContact, Pocketing, OffTable, HeadStringCrossing)
}
# The JSON keys each kind takes (besides "type" and "t", which every kind takes), and
# which of them are required.
_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    kind: (allowed | {"type", "t"}, required)
    for kind, (allowed, required) in {
        "hit": (frozenset({"balls"}), frozenset({"balls"})),
        "rail": (frozenset({"ball", "rail"}), frozenset({"ball"})),
        "pocket": (frozenset({"ball", "pocket"}), frozenset({"ball", "pocket"})),
        "off-table": (frozenset({"ball"}), frozenset({"ball"})),
        "head-string": (frozenset({"ball"}), frozenset({"ball"})),
    }.items()
}


def fact_to_json(fact: Fact) -> dict[str, Any]:
    """The fact as a FORMAT.md event object."""
    out: dict[str, Any] = {"type": fact.kind}
    match fact:
        case Hit(balls=balls):
            out["balls"] = list(balls)
        case RailContact(ball=ball, rail=rail):
            out["ball"] = ball
            if rail is not None:
                out["rail"] = rail.value
        case Pocketing(ball=ball, pocket=pocket):
            out["ball"] = ball
            out["pocket"] = pocket.value
        case OffTable(ball=ball) | HeadStringCrossing(ball=ball):
            out["ball"] = ball
    if fact.t is not None:
        out["t"] = fact.t
    return out


def fact_from_json(data: Mapping[str, Any]) -> Fact:
    """Parse one FORMAT.md event strictly: unknown types, keys, balls, rails and pockets
    raise :class:`FactFormatError` naming the key."""
    if not isinstance(data, Mapping):
        raise FactFormatError("event", f"expected an object, got {type(data).__name__}")
    kind = data.get("type")
    if kind not in _KINDS:
        raise FactFormatError("type", f"unknown event type {kind!r}")
    allowed, required = _KEYS[kind]
    check_keys(
        data,
        "",
        allowed,
        required,
        unknown=f"unknown key in a {kind!r} event",
        missing=f"missing in a {kind!r} event",
        error=FactFormatError,
    )
    t = data.get("t")
    if t is not None and not is_number(t):
        raise FactFormatError("t", f"expected a number of seconds, got {t!r}")
    fields = {k: v for k, v in data.items() if k != "type"}
    if kind == "hit":
        balls = data["balls"]
        if not isinstance(balls, list) or len(balls) != 2:
            raise FactFormatError("balls", f"expected a list of two balls, got {balls!r}")
        fields["balls"] = tuple(balls)
    for key, value in fields.items():
        _check_value(key, value)
    try:
        return _KINDS[kind](**fields)
    except (ValueError, TypeError) as error:
        key = str(error).split(":", 1)[0] if ":" in str(error) else kind
        raise FactFormatError(key, str(error).split(": ", 1)[-1]) from None


def _check_value(key: str, value: Any) -> None:
    if key in ("ball", "pocket", "rail") and not isinstance(value, str):
        raise FactFormatError(key, f"expected a string, got {value!r}")
    if key == "ball" and value not in BALL_IDS:
        raise FactFormatError(key, f"unknown ball {value!r}")
    if key == "balls":
        for ball in value:
            if ball not in BALL_IDS:
                raise FactFormatError(key, f"unknown ball {ball!r}")
    if key == "pocket" and value not in PocketId.__members__.values():
        raise FactFormatError(key, f"unknown pocket {value!r}")
    if key == "rail" and value not in RailName.__members__.values():
        raise FactFormatError(key, f"unknown rail {value!r}")


def facts_to_json(facts: Iterable[Fact]) -> list[dict[str, Any]]:
    return [fact_to_json(fact) for fact in facts]


def facts_from_json(events: Any) -> ShotFacts:
    """Parse a FORMAT.md ``events`` list; errors name the index, as ``events[3].ball``."""
    if not isinstance(events, list):
        raise FactFormatError("events", f"expected a list, got {type(events).__name__}")
    parsed = []
    for index, event in enumerate(events):
        try:
            parsed.append(fact_from_json(event))
        except FactFormatError as error:
            raise error.under(item("events", index)) from None
    return tuple(parsed)
