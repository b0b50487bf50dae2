"""One shot as the referee receives it: what the player declared, where the cue ball was
placed from hand, what physics saw (the facts) and where the balls came to rest."""

from __future__ import annotations

import math
from collections.abc import Iterable

import attrs

from rules.facts import BALL_IDS, CUE, BallId, PocketId, ShotFacts
from rules.geometry import Point
from rules.positions import Positions
from rules.terms import REFEREE_FOULS, Declaration, FoulCode
from rules.words import pocket_name


def _object_ball(_instance: object, _attribute: attrs.Attribute[str], value: str) -> None:
    if value not in BALL_IDS or value == CUE:
        raise ValueError(f"a call names an object ball, got {value!r}")


@attrs.frozen
class Call:
    """GEN-7: one ball, one pocket."""

    ball: BallId = attrs.field(validator=_object_ball)
    pocket: PocketId = attrs.field(converter=PocketId)

    def __str__(self) -> str:
        return f"the {self.ball} in the {pocket_name(self.pocket)}"


def _point(
    _instance: object, _attribute: attrs.Attribute[Point | None], value: Point | None
) -> None:
    if value is not None and (len(value) != 2 or not all(math.isfinite(c) for c in value)):
        raise ValueError(f"a placement is two finite numbers, got {value!r}")


def _codes(value: Iterable[FoulCode]) -> frozenset[FoulCode]:
    return frozenset(FoulCode(code) for code in value)


def _referee_fouls(
    _instance: object, _attribute: attrs.Attribute[frozenset[FoulCode]], value: frozenset[FoulCode]
) -> None:
    if not value <= REFEREE_FOULS:
        wrong = ", ".join(sorted(code.value for code in value - REFEREE_FOULS))
        raise ValueError(f"physics reports these fouls itself, not a referee: {wrong}")


def _seconds(
    _instance: object, _attribute: attrs.Attribute[float | None], value: float | None
) -> None:
    if value is not None and not (math.isfinite(value) and value >= 0):
        raise ValueError(f"clock_s must be a finite number >= 0, got {value!r}")


@attrs.frozen(kw_only=True)
class Shot:
    """A shot. ``placement``: the cue ball's centre when it was in hand (required then,
    refused otherwise). ``resting``: every ball still on the table at rest (None: the
    balls not pocketed stayed where they were). ``referee_fouls``: GEN-13 fouls physics
    cannot see (and a GEN-17 time foul called by a referee). ``clock_s``: seconds from
    the start of the shot clock to the stroke; ``extension``: the player took one (B-18).
    ``struck``: False for no stroke at all, the shot clock having run out (GEN-17): the
    referee's ``shot-clock`` foul alone, with no facts, placement, call or declaration
    (:meth:`rules.state.GameState.rule_time_foul` makes one).
    """

    facts: ShotFacts = ()
    placement: Point | None = attrs.field(default=None, validator=_point)
    call: Call | None = None
    declaration: Declaration | None = attrs.field(
        default=None, converter=attrs.converters.optional(Declaration)
    )
    resting: Positions | None = None
    referee_fouls: frozenset[FoulCode] = attrs.field(
        default=frozenset(), converter=_codes, validator=_referee_fouls
    )
    clock_s: float | None = attrs.field(default=None, validator=_seconds)
    extension: bool = False
    struck: bool = True

    def __attrs_post_init__(self) -> None:
        if self.struck:
            return
        if FoulCode.SHOT_CLOCK not in self.referee_fouls:
            raise ValueError("a shot with no stroke is the shot clock's foul (GEN-17)")
        played = (self.facts, self.placement, self.call, self.declaration, self.resting)
        if played != ((), None, None, None, None):
            raise ValueError(
                "a shot with no stroke has no events, placement, call, declaration or resting"
            )
