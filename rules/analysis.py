"""What the facts of one shot say, read once for every rule: the first ball the cue ball
met (GEN-10, B-15), the balls pocketed and off the table (GEN-9, GEN-12), and which
cushion contacts count (GEN-11, B-3, B-4)."""

from __future__ import annotations

import attrs

from rules.facts import (
    CUE,
    BallId,
    Fact,
    Hit,
    OffTable,
    PocketId,
    Pocketing,
    RailContact,
    RailName,
    ShotFacts,
)
from rules.geometry import TableGeometry, distance
from rules.options import Options
from rules.positions import Positions, frozen_rails
from rules.shot import Call


@attrs.frozen(kw_only=True)
class ShotReading:
    """``start``: every ball at the stroke, the cue ball included. ``first_contact``: the
    object ball the cue ball met first, as GEN-10 rules it; ``first_contact_index`` its
    fact (-1: the cue ball started frozen to it and moved it, WPA 6.7). ``credited_rails``:
    indexes of the cushion contacts that count (B-4)."""

    start: Positions
    facts: ShotFacts
    lowest: BallId | None
    first_contact: BallId | None
    first_contact_index: int | None
    pocketed: tuple[BallId, ...]
    off_table: tuple[BallId, ...]
    cue_pocketed: bool
    cue_off_table: bool
    credited_rails: tuple[int, ...]

    @property
    def gone(self) -> tuple[BallId, ...]:
        """Object balls pocketed or off the table, in the order they went."""
        return tuple(
            f.ball for f in self.facts if isinstance(f, Pocketing | OffTable) and f.ball != CUE
        )

    @property
    def scratched(self) -> bool:
        return self.cue_pocketed or self.cue_off_table

    @property
    def cue_ball_gone(self) -> bool:
        """The cue ball is not on the table after the shot: scratched, or still in hand
        when the shot clock ran out before any stroke (GEN-17)."""
        return self.scratched or CUE not in self.start

    @property
    def rail_after_first_contact(self) -> bool:
        """GEN-11: a counted cushion contact by any ball after the first ball contact."""
        if self.first_contact_index is None:
            return False
        return any(i > self.first_contact_index for i in self.credited_rails)

    @property
    def rail_balls(self) -> frozenset[BallId]:
        """B-3: distinct object balls with a counted cushion contact."""
        balls = (self.facts[i] for i in self.credited_rails)
        return frozenset(f.ball for f in balls if isinstance(f, RailContact) and f.ball != CUE)

    def pocket_index(self, ball: BallId) -> int | None:
        """The index of the fact where ``ball`` dropped, if it did."""
        return next(
            (i for i, f in enumerate(self.facts) if isinstance(f, Pocketing) and f.ball == ball),
            None,
        )

    def left_table_at(self, ball: BallId) -> int | None:
        """The index of the fact where ``ball`` was pocketed or left the table."""
        return next(
            (
                i
                for i, f in enumerate(self.facts)
                if isinstance(f, Pocketing | OffTable) and f.ball == ball
            ),
            None,
        )

    def pocket_of(self, ball: BallId) -> PocketId | None:
        index = self.pocket_index(ball)
        fact = self.facts[index] if index is not None else None
        return fact.pocket if isinstance(fact, Pocketing) else None


def read_shot(
    start: Positions,
    facts: ShotFacts,
    resting: Positions | None,
    table: TableGeometry,
    options: Options,
) -> ShotReading:
    lowest = start.lowest
    first, first_index = _first_contact(start, facts, resting, lowest, table, options)
    gone = [f for f in facts if isinstance(f, Pocketing | OffTable)]
    return ShotReading(
        start=start,
        facts=facts,
        lowest=lowest,
        first_contact=first,
        first_contact_index=first_index,
        pocketed=tuple(f.ball for f in gone if isinstance(f, Pocketing) and f.ball != CUE),
        off_table=tuple(f.ball for f in gone if isinstance(f, OffTable) and f.ball != CUE),
        cue_pocketed=any(isinstance(f, Pocketing) and f.ball == CUE for f in gone),
        cue_off_table=any(isinstance(f, OffTable) and f.ball == CUE for f in gone),
        credited_rails=_credited_rails(start, facts, table, options),
    )


def _first_contact(
    start: Positions,
    facts: ShotFacts,
    resting: Positions | None,
    lowest: BallId | None,
    table: TableGeometry,
    options: Options,
) -> tuple[BallId | None, int | None]:
    """GEN-10 with B-15: the first object ball the cue ball met, and its fact's index."""
    cue_hits = [(i, f) for i, f in enumerate(facts) if isinstance(f, Hit) and f.involves(CUE)]
    if lowest is not None and _frozen_contact(start, facts, resting, lowest, table, options):
        return lowest, -1
    if not cue_hits:
        return None, None
    index, hit = cue_hits[0]
    together = [
        (i, h.other(CUE))
        for i, h in cue_hits
        if i == index
        or (
            hit.t is not None
            and h.t is not None
            and h.t - hit.t <= options.simultaneous_contact_epsilon
        )
    ]
    balls = [ball for _, ball in together]
    if len(set(balls)) > 1 and lowest in balls:
        # B-15: a simultaneous contact that includes LB: the shooter gets the doubt by
        # default; under ``foul`` the other ball is ruled first.
        if options.simultaneous_first_contact == "favour_shooter":
            return lowest, next(i for i, ball in together if ball == lowest)
        return next((ball, i) for i, ball in together if ball != lowest)
    return hit.other(CUE), index


def _names(fact: Fact, ball: BallId) -> bool:
    return fact.involves(ball) if isinstance(fact, Hit) else fact.ball == ball


def _frozen_contact(
    start: Positions,
    facts: ShotFacts,
    resting: Positions | None,
    lowest: BallId,
    table: TableGeometry,
    options: Options,
) -> bool:
    """GEN-10 / WPA 6.7: a cue ball frozen to LB that moves it has contacted it, at the
    stroke, before anything it hits later. LB moved if it has an event of its own or
    rests elsewhere. It was the stroke that moved it unless its first event is a
    collision at or after the cue ball's first reported hit: then that collision (a ball
    the cue ball sent, or the cue ball coming back) set it moving."""
    if CUE not in start:
        return False
    if distance(start[CUE], start[lowest]) > table.ball_diameter + options.contact_epsilon:
        return False
    own = next((i for i, f in enumerate(facts) if _names(f, lowest)), None)
    if own is None:
        return resting is not None and (
            lowest not in resting
            or distance(resting[lowest], start[lowest]) > options.contact_epsilon
        )
    cue_first = next(
        (i for i, f in enumerate(facts) if isinstance(f, Hit) and f.involves(CUE)), None
    )
    return not (isinstance(facts[own], Hit) and cue_first is not None and own >= cue_first)


def _credited_rails(
    start: Positions, facts: ShotFacts, table: TableGeometry, options: Options
) -> tuple[int, ...]:
    """B-4: jaw contacts count unless ``rail_includes_jaws`` is off; a ball frozen to a
    cushion at the stroke gets no credit for its first contact with that cushion after it
    is first struck (``must_leave_and_return``). An unnamed cushion contact of a frozen
    ball is taken as its frozen cushion."""
    frozen: dict[BallId, frozenset[RailName]] = {}
    if options.frozen_ball_rail_credit == "must_leave_and_return":
        frozen = {
            ball: frozen_rails(p, table, options.contact_epsilon) for ball, p in start.items()
        }
    struck: set[BallId] = {CUE}  # the cue ball is struck by the stick
    discounted: dict[BallId, set[RailName]] = {}
    credited: list[int] = []
    for index, fact in enumerate(facts):
        if isinstance(fact, Hit):
            struck.update(fact.balls)
        if not isinstance(fact, RailContact):
            continue
        if fact.jaw and not options.rail_includes_jaws:
            continue
        unused = frozen.get(fact.ball, frozenset()) - discounted.get(fact.ball, set())
        rail = fact.rail if fact.rail is not None else min(unused, default=None)
        if fact.ball in struck and rail in unused and rail is not None:
            discounted.setdefault(fact.ball, set()).add(rail)
            continue
        credited.append(index)
    return tuple(credited)


def obvious_call(reading: ShotReading, options: Options, *, never: BallId) -> Call | None:
    """B-10 ``call_mode = infer_obvious``: the call a shot with none counts as, or None.
    Exactly one object ball pocketed, the first the cue ball met, with no cushion or ball
    contact of its own between that contact and its pocket; never the ball ``never`` (the
    10 in 10-ball, the 8 in 8-ball, EB-9)."""
    if options.call_mode != "infer_obvious" or len(reading.pocketed) != 1:
        return None
    ball = reading.pocketed[0]
    start, end = reading.first_contact_index, reading.pocket_index(ball)
    if ball == never or ball != reading.first_contact or start is None or end is None:
        return None
    for fact in reading.facts[start + 1 : end]:
        if (isinstance(fact, RailContact) and fact.ball == ball) or (
            isinstance(fact, Hit) and fact.involves(ball)
        ):
            return None
    pocket = reading.pocket_of(ball)
    return Call(ball, pocket) if pocket is not None else None
