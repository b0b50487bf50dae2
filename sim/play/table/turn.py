"""The turn at the table, as its parts share it: the stages of a turn, the aim, a stroke
with the physics and a shot playing out, a decision asked of the thinker, a stalemate
offered, and :class:`Table`, what the controller's collaborators (the computer's seat,
the stalemate talk, the practice set-up, the branch navigator, the lag, the shot clock,
the preview) see of the table they work at."""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import StrEnum
from typing import Protocol, TypeAlias

import attrs

from rules import BallId, GameState, Player, Ruling
from rules.geometry import Point
from sim.physics.simulate import MAX_SPEED, CueAction, squirt
from sim.physics.simulators.simulator import ShotRequest, ShotResult, Simulator
from sim.physics.timeline import ShotTimeline
from sim.play.game import (
    ChoiceRecord,
    Game,
    GameError,
    Node,
    PreparedShot,
    Record,
    ShotRecord,
    StalemateRecord,
    Stroke,
    TimeFoulRecord,
)

MIN_POWER_SPEED = 0.3  # m/s at the bottom of the power meter
DEFAULT_POWER = 0.45  # a player's first stroke after the break (about 3 m/s)
BREAK_POWER = 0.9


@attrs.frozen
class Aids:
    """The aids a player may use at this table: the tracking lines (the stroke's paths as
    it is aimed) and the hint; ``ruled_by``, what switched one off, as a refusal says it
    ("this drill")."""

    tracking: bool = True
    hint: bool = True
    ruled_by: str = ""

    def refuse(self, aid: str) -> GameError:
        """The refusal of ``aid`` ("tracking lines", "the hint") switched off here."""
        verb = "are" if aid.endswith("s") else "is"
        return GameError(f"{aid} {verb} off in {self.ruled_by or 'this table'}")


class Stage(StrEnum):
    LAG = "lag"  # a player sets up a lag stroke (A, then B)
    BREAKER = "breaker"  # the lag winner chooses who breaks
    PLACE = "place"  # the cue ball is in hand
    AIM = "aim"
    SIMULATING = "simulating"  # struck; the physics is working
    WATCH = "watch"  # the shot plays out
    CHOOSE = "choose"  # the incoming player's option
    OFFER = "offer"  # a stalemate offered (GEN-16): the other player agrees or plays on
    OVER = "over"  # the match is over
    SETUP = "setup"  # the practice table is being set up by hand


@attrs.define
class Aim:
    """The stroke being set up. ``power`` in [0, 1] maps onto the cue speed."""

    direction: float = 90.0  # degrees; 90 = up the table
    power: float = DEFAULT_POWER
    a: float = 0.0  # tip offset, ball radii: + is left of centre (pooltool)
    b: float = 0.0  # + follow, - draw
    elevation: float = 0.0
    # A stroke loaded as it was played (take it again), and the setting it was loaded as:
    # given back exactly while the setting is unchanged (power to speed and back rounds).
    _loaded: tuple[CueAction, tuple[float, ...]] | None = attrs.field(
        default=None, init=False, repr=False, eq=False
    )

    @property
    def heading(self) -> float:
        """Where the cue ball goes, in degrees: the aim turned by the squirt of its side
        spin (the aiming aid draws this line, which the physics plays)."""
        return self.direction + math.degrees(squirt(self.a))

    @classmethod
    def of(cls, action: CueAction) -> Aim:
        """The aim that strikes ``action``, exactly, until it is changed."""
        share = (action.speed - MIN_POWER_SPEED) / (MAX_SPEED - MIN_POWER_SPEED)
        aim = cls(
            direction=action.aim,
            power=min(1.0, max(0.0, share)) ** (2 / 3),
            a=action.a,
            b=action.b,
            elevation=action.elevation,
        )
        aim._loaded = (action, aim._setting())
        return aim

    def _setting(self) -> tuple[float, ...]:
        return (self.direction, self.power, self.a, self.b, self.elevation)

    @property
    def speed(self) -> float:
        if self._loaded is not None and self._loaded[1] == self._setting():
            return self._loaded[0].speed
        return float(MIN_POWER_SPEED + self.power**1.5 * (MAX_SPEED - MIN_POWER_SPEED))

    def action(self) -> CueAction:
        if self._loaded is not None and self._loaded[1] == self._setting():
            return self._loaded[0]
        return CueAction(
            speed=self.speed,
            aim=self.direction % 360.0,
            elevation=self.elevation,
            a=self.a,
            b=self.b,
        )


@attrs.define
class InFlight:
    """A stroke (or both lag strokes) with the physics: the simulator's jobs, their results
    as they come, and when the player struck."""

    prepared: PreparedShot | None  # None for the lag
    requests: tuple[ShotRequest, ...]
    jobs: tuple[int, ...]
    struck: float
    results: dict[int, ShotResult] = attrs.Factory(dict)


@attrs.frozen
class Watching:
    """A shot (or the two lag shots) playing out on screen."""

    timelines: tuple[ShotTimeline, ...]
    record: Record
    started: float  # the clock's time when the balls started moving

    @property
    def duration(self) -> float:
        return max(t.duration for t in self.timelines)


# A step the HUD's referee line is about: any step of the game (a ruled step, the lag,
# the choice of the breaker, a set-up).
Spoken: TypeAlias = Record
Ruled: TypeAlias = ShotRecord | TimeFoulRecord | ChoiceRecord | StalemateRecord


def ruling_of(spoken: Spoken | None) -> Ruling | None:
    return spoken.ruling if isinstance(spoken, Ruled) else None


@attrs.frozen
class Asked:
    """A decision with the thinker: its job, for whom (``hint``: the person's hint), at
    which step of the game it was asked, and when."""

    job: int
    player: Player
    hint: bool
    node: Node
    since: float
    declined: int | None = None  # where its last stalemate offer was declined (innings)


@attrs.frozen
class StalemateOffer:
    """A stalemate offered (GEN-16) at the step ``node``, by ``by``, that the other
    player (a person: the computer answers at once) is to agree to or decline."""

    by: Player
    node: Node
    quiet: int  # innings in a row with no ball down, when it was offered


@attrs.frozen
class Showing:
    """The computer's stroke on the cue, struck at ``until``."""

    stroke: Stroke
    until: float


@attrs.frozen
class HintShown:
    """The hint loaded for the person: the words and where the cue ball would end."""

    words: str
    cue_after: Point | None
    cue_path: tuple[Point, ...] = ()  # the cue ball's way there, as the hint planned it


# The stages at which a player sets up a stroke (the cue ball in hand, or placed).
STROKE_STAGES = (Stage.AIM, Stage.PLACE)


class Table(Protocol):
    """The table as the controller's collaborators see it: the game, the physics, the
    clock, the seats, the aim and the line for the HUD, and the few moves they make on it."""

    game: Game
    worker: Simulator
    clock: Callable[[], float]
    computers: dict[Player, str]
    aim: Aim
    powers: dict[Player, float]
    placement: Point | None
    message: str
    spoken: Spoken | None
    tracking: bool
    aids: Aids
    waiting: InFlight | None
    watching: Watching | None
    orientations: dict[BallId, tuple[float, float, float, float]]
    retakes: int

    @property
    def state(self) -> GameState | None: ...
    @property
    def stage(self) -> Stage: ...
    @property
    def shooter(self) -> Player: ...
    @property
    def practice(self) -> bool: ...
    @property
    def shot_in_play(self) -> bool: ...
    @property
    def computer_level(self) -> str | None: ...
    def seat_name(self, player: Player) -> str: ...
    def balls(self) -> dict[BallId, Point]: ...
    def legal_placement(self, point: Point) -> str | None: ...
    def stroke(self) -> Stroke: ...
    def refuse_at_computer_turn(self) -> None: ...
    def strike_stroke(self, stroke: Stroke) -> None: ...
    def load(self, stroke: Stroke) -> None: ...
    def touch_aim(self) -> None: ...
    def spoke(self, record: TimeFoulRecord | ChoiceRecord | StalemateRecord) -> None: ...
    def arrived(self, stroke: Stroke | None = None) -> None: ...
    def reset_turn(self) -> None: ...
    def save(self) -> None: ...
