"""Drills: a position, a goal and a number of attempts, and the scoring of each attempt.

A :class:`Drill` is what a drill file (``sim.store.drillfile``, docs/DRILLS.md) holds:
the position to shoot from, the :class:`Goal` (which balls into which pockets, and the
:class:`Zone` on the cloth where the cue ball must stop), how many attempts a session
has and how many shots an attempt may take (a run out takes several), and the
:class:`Scoring`. It is checked when made, as a :class:`~sim.play.position.Position` is:
a goal naming a ball that is not on the table, a zone off the bed or a count that is no
count raises :class:`DrillError` naming the part (``goal.balls.3``, ``goal.zone``).

Scoring is pure: from an attempt's shot facts (``rules.facts``: the pocketings with
their pockets, the cue ball's) and where the cue ball came to rest,
:func:`score_attempt` gives an :class:`AttemptScore` with its points and its sentence
in a player's words ("The 3 went in the foot-left corner; the cue ball stopped 14 cm
short of the zone."). A :class:`DrillSession` holds a session's scores: the attempt in
play, the best, whether it is finished.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from rules import CUE, BallId, PocketId
from rules.errors import FormatError
from rules.facts import OffTable, Pocketing, ShotFacts
from rules.geometry import Point, TableGeometry, distance
from rules.words import in_words, pocket_name
from sim.play.position import Position

MAX_ATTEMPTS = 100  # a session longer than this is no drill but an evening
MAX_SHOTS = 15  # shots in one attempt: a whole rack run out at most
MAX_POINTS = 1000  # points for one goal part


class DrillError(FormatError):
    """A drill that cannot be played as given; ``key`` names the part (``goal.zone``)."""


def _name(ball: BallId) -> str:
    return "the cue ball" if ball == CUE else f"the {ball}"


# -- the zone ---------------------------------------------------------------------------


@attrs.frozen
class CircleZone:
    """A round zone: the cue ball's centre within ``radius`` of ``centre``."""

    centre: Point
    radius: float

    def distance(self, point: Point) -> float:
        """How far ``point`` is outside the zone (0 inside it)."""
        return max(0.0, distance(point, self.centre) - self.radius)

    def inside(self, geometry: TableGeometry) -> bool:
        x, y = self.centre
        r = self.radius
        return x - r >= 0 and x + r <= geometry.width and y - r >= 0 and y + r <= geometry.length

    @property
    def centre_point(self) -> Point:
        return self.centre


@attrs.frozen
class RectangleZone:
    """A rectangular zone, its sides along the table's: ``low`` its corner nearest the
    head-left pocket, ``high`` the opposite one."""

    low: Point
    high: Point

    def distance(self, point: Point) -> float:
        x, y = point
        dx = max(self.low[0] - x, 0.0, x - self.high[0])
        dy = max(self.low[1] - y, 0.0, y - self.high[1])
        return math.hypot(dx, dy)

    def inside(self, geometry: TableGeometry) -> bool:
        return (
            self.low[0] >= 0
            and self.high[0] <= geometry.width
            and self.low[1] >= 0
            and self.high[1] <= geometry.length
        )

    @property
    def centre_point(self) -> Point:
        return ((self.low[0] + self.high[0]) / 2, (self.low[1] + self.high[1]) / 2)


Zone = CircleZone | RectangleZone


def _check_zone(zone: Zone, geometry: TableGeometry) -> None:
    values = (
        (*zone.centre, zone.radius) if isinstance(zone, CircleZone) else (*zone.low, *zone.high)
    )
    if not all(math.isfinite(v) for v in values):
        raise DrillError("goal.zone", "not finite numbers")
    if isinstance(zone, CircleZone) and zone.radius <= 0:
        raise DrillError("goal.zone.radius", f"must be more than 0 m, got {zone.radius:g}")
    if isinstance(zone, RectangleZone) and not (
        zone.low[0] < zone.high[0] and zone.low[1] < zone.high[1]
    ):
        raise DrillError("goal.zone", "the first corner must be below and left of the second")
    if not zone.inside(geometry):
        raise DrillError(
            "goal.zone",
            f"off the bed: the zone must lie within the cushions' noses "
            f"(0 to {geometry.width:g} m across, 0 to {geometry.length:g} m along)",
        )


# -- the goal ---------------------------------------------------------------------------


@attrs.frozen
class PotGoal:
    """A ball to pocket: into one of ``pockets``, or any pocket when it is None."""

    ball: BallId
    pockets: frozenset[PocketId] | None = None

    def allows(self, pocket: PocketId) -> bool:
        return self.pockets is None or pocket in self.pockets

    @property
    def pockets_words(self) -> str:
        """ "any pocket", "the foot-left corner", "the foot-left corner or right side"."""
        if self.pockets is None:
            return "any pocket"
        ordered = [p for p in PocketId if p in self.pockets]
        return "the " + in_words(pocket_name(p) for p in ordered)


@attrs.frozen
class Goal:
    """The balls to pocket (in the order the player reads them) and the zone where the
    cue ball must stop (None: anywhere, so long as it stays on the table)."""

    pots: tuple[PotGoal, ...]
    zone: Zone | None = None

    @property
    def words(self) -> str:
        """The goal in a sentence: "Pocket the 3 in the foot-left corner and stop the cue
        ball in the zone"."""
        groups: list[tuple[str, list[str]]] = []  # balls of the same pockets together
        for pot in self.pots:
            if groups and groups[-1][0] == pot.pockets_words:
                groups[-1][1].append(_name(pot.ball))
            else:
                groups.append((pot.pockets_words, [_name(pot.ball)]))
        parts = [f"{in_words(balls, 'and')} in {pockets}" for pockets, balls in groups]
        said = f"Pocket {in_words(parts, 'and')}" if parts else ""
        if self.zone is not None:
            said += (" and stop" if said else "Stop") + " the cue ball in the zone"
        return said


@attrs.frozen
class Scoring:
    """Points: ``ball`` for each goal ball in a right pocket, ``zone`` for the cue ball
    stopped in the zone; a cue ball outside the zone but within ``near`` metres of it
    earns a share of ``zone`` falling off with the distance (half at ``near`` / 2)."""

    ball: int = 10
    zone: int = 10
    near: float = 0.3

    def __attrs_post_init__(self) -> None:
        for key in ("ball", "zone"):
            value = getattr(self, key)
            if not 0 <= value <= MAX_POINTS:
                raise DrillError(f"scoring.{key}", f"points from 0 to {MAX_POINTS}, got {value}")
        if not (math.isfinite(self.near) and 0 <= self.near <= 3):
            raise DrillError("scoring.near", f"metres from 0 to 3, got {self.near!r}")

    def zone_points(self, off_by: float) -> int:
        if off_by <= 0:
            return self.zone
        if self.near <= 0 or off_by >= self.near:
            return 0
        return round(self.zone * (1 - off_by / self.near))


@attrs.frozen(kw_only=True)
class Drill:
    """A drill as its file gives it, checked (:class:`DrillError` naming the part)."""

    name: str
    title: str
    instruction: str
    position: Position
    goal: Goal
    attempts: int = 5
    shots: int = 1  # shots an attempt may take (a run out: as many as its balls)
    scoring: Scoring = Scoring()
    # The aids the drill allows (both off unless its file says so: with the stroke's
    # paths drawn as it is aimed, or the computer's stroke loaded, a drill tests nothing).
    tracking: bool = False
    hint: bool = False

    def __attrs_post_init__(self) -> None:
        for key in ("name", "title", "instruction"):
            if not getattr(self, key).strip():
                raise DrillError(key, "empty")
        if not 1 <= self.attempts <= MAX_ATTEMPTS:
            raise DrillError("attempts", f"from 1 to {MAX_ATTEMPTS}, got {self.attempts}")
        if not 1 <= self.shots <= MAX_SHOTS:
            raise DrillError("shots", f"from 1 to {MAX_SHOTS}, got {self.shots}")
        if not self.goal.pots and self.goal.zone is None:
            raise DrillError("goal", "nothing to do: name balls to pocket or a zone, or both")
        seen: set[BallId] = set()
        for pot in self.goal.pots:
            where = f"goal.balls.{pot.ball}"
            if pot.ball == CUE:
                raise DrillError(where, "the cue ball is not pocketed on purpose")
            if pot.ball not in self.position.balls:
                raise DrillError(where, f"{_name(pot.ball)} is not on the table")
            if pot.ball in seen:
                raise DrillError(where, "given twice")
            seen.add(pot.ball)
        if self.goal.zone is not None:
            _check_zone(self.goal.zone, self.position.spec.geometry)

    @property
    def max_points(self) -> int:
        zone = self.scoring.zone if self.goal.zone is not None else 0
        return self.scoring.ball * len(self.goal.pots) + zone


# -- an attempt -------------------------------------------------------------------------


@attrs.frozen
class PotResult:
    """What became of a goal ball: ``pocket`` where it went (None: still on the table, or
    ``off_table``), ``met`` whether that is one of the goal's pockets."""

    goal: PotGoal
    pocket: PocketId | None
    met: bool
    off_table: bool = False

    @property
    def words(self) -> str:
        ball = _name(self.goal.ball)
        if self.off_table:
            return f"{ball} left the table"
        if self.pocket is None:
            return f"{ball} stayed out"
        if self.met:
            return f"{ball} went in the {pocket_name(self.pocket)}"
        return f"{ball} went in the {pocket_name(self.pocket)}, not {self.goal.pockets_words}"


@attrs.frozen(kw_only=True)
class AttemptScore:
    """An attempt, scored. ``cue_distance``: metres from the zone where the cue ball
    stopped (0 in it; None when there is no zone or the cue ball did not stop on the
    table: ``scratch`` says where it went instead)."""

    pots: tuple[PotResult, ...]
    zone: bool  # the drill has a zone
    cue_at: Point | None  # where the cue ball stopped; None: pocketed or off the table
    cue_distance: float | None
    miss: str = "from"  # how it missed the zone: "short of", "past", "wide of" (or "from")
    scratch: str | None  # "went in the head-right corner", "left the table"
    points: int
    max_points: int

    @property
    def cue_in_zone(self) -> bool | None:
        return None if not self.zone else self.cue_distance == 0.0

    @property
    def made(self) -> bool:
        """Every goal part met, the cue ball still on the table."""
        return (
            self.scratch is None and all(p.met for p in self.pots) and self.cue_in_zone is not False
        )

    @property
    def words(self) -> str:
        """The attempt in a sentence: "The 3 went in the foot-left corner; the cue ball
        stopped 14 cm short of the zone."."""
        parts = [p.words for p in self.pots]
        if self.scratch is not None:
            parts.append(f"the cue ball {self.scratch}")
        elif self.zone:
            assert self.cue_distance is not None
            if self.cue_distance == 0.0:
                parts.append("the cue ball stopped in the zone")
            else:
                parts.append(
                    f"the cue ball stopped {_centimetres(self.cue_distance)} {self.miss} the zone"
                )
        text = "; ".join(parts) if parts else "the cue ball stayed on the table"
        return text[0].upper() + text[1:] + "."

    @property
    def verdict(self) -> str:
        """ "Made it: 20 of 20 points." / "Missed: 8 of 20 points."."""
        head = "Made it" if self.made else "Missed"
        return f"{head}: {self.points} of {self.max_points} points."


def _centimetres(metres: float) -> str:
    cm = metres * 100
    return f"{cm:.0f} cm" if cm >= 1 else "less than 1 cm"


def _where_cue_went(facts: Sequence[Pocketing | OffTable]) -> str | None:
    for fact in facts:
        if fact.ball != CUE:
            continue
        if isinstance(fact, Pocketing):
            return f"went in the {pocket_name(fact.pocket)}"
        return "left the table"
    return None


def _gone(shots: Sequence[ShotFacts]) -> list[Pocketing | OffTable]:
    return [f for facts in shots for f in facts if isinstance(f, Pocketing | OffTable)]


def attempt_over(drill: Drill, shots: Sequence[ShotFacts]) -> bool:
    """Whether an attempt of these shots is over: its shots used, the cue ball gone, a
    goal ball pocketed wrongly or lost, every goal ball down, or a shot that pocketed no
    goal ball (a miss ends a run out)."""
    if not shots:
        return False
    if len(shots) >= drill.shots or _where_cue_went(_gone(shots)) is not None:
        return True
    goal = {p.ball: p for p in drill.goal.pots}
    gone = _gone(shots)
    for fact in gone:
        pot = goal.get(fact.ball)
        if pot is not None and not (isinstance(fact, Pocketing) and pot.allows(fact.pocket)):
            return True
    if goal.keys() <= {f.ball for f in gone}:
        return True
    return not any(isinstance(f, Pocketing) and f.ball in goal for f in shots[-1])


def _missed_by(zone: Zone, cue_from: Point, cue_at: Point) -> str:
    """How a cue ball that went from ``cue_from`` to ``cue_at`` missed ``zone``, as a
    player sees it from where it was struck: short of it, past it, or wide of it."""
    centre = zone.centre_point
    reach = distance(cue_from, centre)
    if reach == 0:
        return "from"
    ux, uy = (centre[0] - cue_from[0]) / reach, (centre[1] - cue_from[1]) / reach
    rx, ry = cue_at[0] - cue_from[0], cue_at[1] - cue_from[1]
    along = rx * ux + ry * uy
    across = abs(rx * uy - ry * ux)
    if across > abs(along - reach):
        return "wide of"
    return "short of" if along < reach else "past"


def score_attempt(
    drill: Drill,
    shots: Sequence[ShotFacts],
    cue_at: Point | None,
    cue_from: Point | None = None,
) -> AttemptScore:
    """Score an attempt from its shots' facts and where the cue ball came to rest after
    the last (None: not on the table); ``cue_from``, where the last shot struck it from,
    says how it missed the zone (short of it, past it, wide of it)."""
    gone = _gone(shots)
    went: dict[BallId, PocketId | None] = {}
    for fact in gone:
        went.setdefault(fact.ball, fact.pocket if isinstance(fact, Pocketing) else None)
    pots = tuple(
        PotResult(
            goal=pot,
            pocket=went.get(pot.ball),
            met=(pocket := went.get(pot.ball)) is not None and pot.allows(pocket),
            off_table=pot.ball in went and pocket is None,
        )
        for pot in drill.goal.pots
    )
    scratch = _where_cue_went(gone)
    zone = drill.goal.zone
    if scratch is not None:
        cue_at = None
    elif cue_at is None:
        scratch = "did not stop on the table"
    cue_distance = None if zone is None or cue_at is None else zone.distance(cue_at)
    miss = "from"
    if zone is not None and cue_at is not None and cue_from is not None and cue_distance:
        miss = _missed_by(zone, cue_from, cue_at)
    points = drill.scoring.ball * sum(p.met for p in pots)
    if cue_distance is not None:
        points += drill.scoring.zone_points(cue_distance)
    return AttemptScore(
        pots=pots,
        zone=zone is not None,
        cue_at=cue_at,
        cue_distance=cue_distance,
        miss=miss,
        scratch=scratch,
        points=points,
        max_points=drill.max_points,
    )


# -- a session --------------------------------------------------------------------------


@attrs.frozen
class DrillSession:
    """A drill's attempts so far, scored, in order."""

    drill: Drill
    scores: tuple[AttemptScore, ...] = ()

    def record(self, score: AttemptScore) -> DrillSession:
        if self.finished:
            raise ValueError("the session is finished: start a new one")
        return attrs.evolve(self, scores=(*self.scores, score))

    @property
    def finished(self) -> bool:
        return len(self.scores) >= self.drill.attempts

    @property
    def attempt(self) -> int:
        """The attempt in play, from 1 (the last one when the session is finished)."""
        return min(len(self.scores) + 1, self.drill.attempts)

    @property
    def best(self) -> AttemptScore | None:
        """The highest-scoring attempt (the first of equals)."""
        return max(self.scores, key=lambda s: s.points, default=None)

    @property
    def made(self) -> int:
        return sum(s.made for s in self.scores)

    @property
    def total(self) -> int:
        return sum(s.points for s in self.scores)

    @property
    def summary(self) -> str:
        """ "3 of 5 made; best 20 of 20 points, 74 in all."."""
        best = self.best
        best_words = f"best {best.points} of {best.max_points} points" if best else "no attempt"
        return (
            f"{self.made} of {len(self.scores)} made; {best_words}, "
            f"{self.total} of {self.drill.max_points * len(self.scores)} in all."
        )
