"""Small builders for referee tests: facts, shots, states and the nominal racks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from rules import (
    CUE,
    BallInHand,
    Call,
    Declaration,
    EightBall,
    GameState,
    NineBall,
    Options,
    Phase,
    Positions,
    Rotation,
    Shot,
    TableGeometry,
    Tally,
    TenBall,
)
from rules.facts import Fact, HeadStringCrossing, Hit, OffTable, Pocketing, RailContact
from rules.geometry import Point

TABLE = TableGeometry()
R = TABLE.ball_radius
D = TABLE.ball_diameter
FOOT_SPOT = TABLE.foot_spot

# TB-3: the nominal 9-ft 10-ball rack (REFERENCE.md), the 1 on the foot spot, the 10 in
# the middle of the third row.
TEN_BALL_RACK: dict[str, Point] = {
    "1": (0.635, 1.905),
    "7": (0.606425, 1.954493),
    "2": (0.663575, 1.954493),
    "4": (0.577850, 2.003987),
    "10": (0.635000, 2.003987),
    "9": (0.692150, 2.003987),
    "3": (0.549275, 2.053480),
    "8": (0.606425, 2.053480),
    "5": (0.663575, 2.053480),
    "6": (0.720725, 2.053480),
}
# NB-3: the nominal 9-ball diamond, the 1 on the foot spot, the 9 in the centre.
NINE_BALL_RACK: dict[str, Point] = {
    "1": (0.635, 1.905),
    "5": (0.606425, 1.954493),
    "3": (0.663575, 1.954493),
    "4": (0.577850, 2.003987),
    "9": (0.635000, 2.003987),
    "7": (0.692150, 2.003987),
    "2": (0.606425, 2.053480),
    "8": (0.663575, 2.053480),
    "6": (0.635000, 2.102973),
}
# ROT-3: the nominal rotation rack, 2 and 3 in the back corners, 15 in the centre.
ROTATION_RACK: dict[str, Point] = {
    "1": (0.635, 1.905),
    "6": (0.606425, 1.954493),
    "9": (0.663575, 1.954493),
    "4": (0.577850, 2.003987),
    "15": (0.635000, 2.003987),
    "11": (0.692150, 2.003987),
    "7": (0.549275, 2.053480),
    "12": (0.606425, 2.053480),
    "5": (0.663575, 2.053480),
    "10": (0.720725, 2.053480),
    "2": (0.520700, 2.102973),
    "13": (0.577850, 2.102973),
    "8": (0.635000, 2.102973),
    "14": (0.692150, 2.102973),
    "3": (0.749300, 2.102973),
}
# EB-3: the nominal 8-ball rack, the 8 in the centre, a solid (2) and a stripe (15) in
# the back corners.
EIGHT_BALL_RACK: dict[str, Point] = {
    "1": (0.635, 1.905),
    "10": (0.606425, 1.954493),
    "3": (0.663575, 1.954493),
    "14": (0.577850, 2.003987),
    "8": (0.635000, 2.003987),
    "6": (0.692150, 2.003987),
    "11": (0.549275, 2.053480),
    "5": (0.606425, 2.053480),
    "13": (0.663575, 2.053480),
    "4": (0.720725, 2.053480),
    "2": (0.520700, 2.102973),
    "12": (0.577850, 2.102973),
    "7": (0.635000, 2.102973),
    "9": (0.692150, 2.102973),
    "15": (0.749300, 2.102973),
}
KITCHEN_SPOT: Point = (0.4, 0.3)


def hit(a: str, b: str, t: float | None = None) -> Hit:
    return Hit((a, b), t)


def rail(ball: str, side: str | None = None, t: float | None = None, jaw: bool = False) -> Fact:
    return RailContact(ball, side, t, jaw)


def pocket(ball: str, where: str = "rt", t: float | None = None) -> Pocketing:
    return Pocketing(ball, where, t)


def off(ball: str) -> OffTable:
    return OffTable(ball)


def cross() -> HeadStringCrossing:
    return HeadStringCrossing()


def call(ball: str, where: str = "rt") -> Call:
    return Call(ball, where)


def shot(*facts: Fact, **kw: Any) -> Shot:
    if "declare" in kw:
        kw["declaration"] = Declaration(kw.pop("declare"))
    if isinstance(kw.get("resting"), Mapping):
        kw["resting"] = Positions(kw["resting"])
    return Shot(facts=facts, **kw)


G = TypeVar("G", bound=GameState)


def state_of(
    game: type[G],
    balls: Mapping[str, Point],
    *,
    phase: Phase = Phase.PLAY,
    in_hand: BallInHand | None = None,
    fouls: tuple[int, int] = (0, 0),
    score: tuple[int, int] = (0, 0),
    options: Options | None = None,
    **kw: Any,
) -> G:
    """A mid-rack state (``play`` phase by default) of ``game``; ``kw``: other fields."""
    return game(
        balls=balls,
        phase=phase,
        ball_in_hand=in_hand,
        fouls=Tally(*fouls),
        score=Tally(*score),
        options=options or Options(),
        **kw,
    )


def ten(balls: Mapping[str, Point], **kw: Any) -> TenBall:
    return state_of(TenBall, balls, **kw)


def nine(balls: Mapping[str, Point], **kw: Any) -> NineBall:
    return state_of(NineBall, balls, **kw)


def eight(balls: Mapping[str, Point], **kw: Any) -> EightBall:
    return state_of(EightBall, balls, **kw)


def rot(balls: Mapping[str, Point], **kw: Any) -> Rotation:
    return state_of(Rotation, balls, **kw)


def break_facts(first: str = "1", rails: tuple[str, ...] = ("2", "3", "4", "5")) -> list[Fact]:
    """A break from the kitchen: the cue ball crosses, meets ``first``, balls reach rails."""
    return [cross(), hit(CUE, first), *(rail(b) for b in rails)]


# A mid-game 10-ball table: the cue ball in the middle, LB the 2.
OPEN_TABLE: dict[str, Point] = {
    CUE: (0.635, 1.0),
    "2": (0.3, 1.5),
    "5": (1.0, 1.8),
    "7": (0.3, 2.2),
    "10": (1.0, 0.6),
}
