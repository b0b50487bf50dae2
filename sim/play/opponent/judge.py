"""How good a position is, judged without simulating: the cheap half of the search.

A pot's chance comes from its geometry and the player's aim noise: an aim error of
sigma turns the object ball's line by about ``d1 / (2R cos(cut))`` times as much (d1:
the cue ball's travel to the ghost ball), which puts it ``d2`` times that off line at
the pocket (d2: the object ball's travel); the pocket takes it within a margin that
narrows as the ball comes in off the pocket's axis. The chance is that of a Gaussian
landing within the margin.

A position's value, for a player, is about the chance that player wins the rack from
it: 1 or 0 once the rack is over; for the player at the table,
``MISS + (1 - MISS) * p * (1 + RUN ** (n - 1)) / 2`` where p is the chance of the best
pot on the ball on (with the cue ball in hand, from the best spot), n the object balls
left (RUN: the player's own chance of a typical pot, so each ball left to run lowers
it), and MISS what is left with no pot at all (a safety's worth), at least
IN_HAND_FLOOR with the cue ball in hand; for the other player, one minus that. A
choice waiting (after a foul, a push out) is worth what its chooser makes of it: the
best of the choices for them, each judged on the state the referee says it leads to.

A game of points over many racks (``GameState.points_to_win``: 14.1) is not won by a
rack: there a position is worth about the chance of winning the game
(:meth:`Judge.points_value`). The player at the table makes the next pot with chance p
and runs on (the shot after next, then a typical run), or has a safety to play; each
side's points still needed, against the points of a typical inning, say how likely each
is to reach the target first (:meth:`Judge.win_chance`). The points a foul would cost
now (``GameState.foul_penalty``: sixteen on 14.1's third in a row) count against a
player with no pot, by the chance of a foul (more when hooked). At a rack's end (a game
with a ``rack_area``) the re-rack counts: the break ball's pot is worth a run only if the
cue ball can go on into the rack, with two balls left one is potted and the other
left outside the rack area for the break shot, and with three the run past the re-rack
is worth as much as the best break ball the two after the next pot make.

A rack won on points (``GameState.rack_points_to_win``: rotation's 61) is a race within
the rack (:meth:`Judge.rack_race`), counted in balls: each ball at what the balls left
score on average, the next pot (the ball on) at its own number. Unlike 14.1's hundred, a
run can end it, so the run is not taken as certain: after the next pot (chance p) each
ball drops with the player's run chance, the rack is won at once when the run reaches
the points needed, and a run that stops short leaves the race as 14.1's is judged, the
other player to come to the table. A player the balls left cannot take to 61 needs them
all, for a tie on points (ROT-10: at 60 - 60 the rack is replayed), and the leader at 60
still needs a ball.

Nothing here decides a rule: the states come from ``GameState.choose`` and
``GameState.apply``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import attrs

from rules import CUE, BallId, Declaration, GameState, Phase, Player, PocketId, Positions
from rules.geometry import Point, distance
from sim.physics.table import TableSpec, pocket_mouths
from sim.play.geometry.pots import Pot, path_clear, pots
from sim.play.opponent.levels import FASTFIZ_AIM, Level, Noise
from sim.play.picker import placeable

# The value, at the table, of a position with no pot: a safety to play (a judge's
# ``miss``; level 5 measured its own, sim.play.opponent.levels).
MISS = 0.35
# The value, at the table, of the shot right after the break where the rules allow a
# push out (TB-8, NB-8): pushed to a position the other player must choose on, it is
# an even game at worst. Seen by a judge that looks ahead (Judge(lookahead=True)): a
# break that keeps the table with no shot is worth more than one that hands the other
# player the table and this push out.
PUSH_FLOOR = 0.5
# The value, at the table, of the cue ball in hand with no pot seen from the judge's
# spots: a safety from anywhere (or a pot from a spot it did not try) is still worth
# more than a hooked position, so a foul that leaves the other player no pot is never a
# cheap way out (measured: two level-5 players traded four deliberate misses in a row).
IN_HAND_FLOOR = 0.6
# A typical pot's chance, for the balls still to run after this one: the player's own
# chance of the typical pot below (:meth:`Judge.run_chance`), kept within these bounds
# (0.85, the floor, is what every level judged by before; level 5 comes to the ceiling).
RUN_BOUNDS = (0.85, 0.97)
# The typical pot: metres from the cue ball to the ghost ball and from the object ball
# to a corner pocket (coming in along its axis), and its cut in degrees.
TYPICAL_SHOT = (0.8, 0.8, 30.0)
# The least aim noise a position is judged with: a player who leaves itself a long cut
# when a short straight one was there runs fewer racks even when it makes both, so the
# next shot is judged as the tournaments' noise would strike it (a perfect player still
# prefers an easy pot to a hard one).
AIM_FLOOR = FASTFIZ_AIM
# Metres: the cue ball in hand is judged from spots this far behind the ball, on each
# pocket's line.
BEHIND = (0.15, 0.3, 0.6)
# A pocket takes a ball whose centre comes within its half mouth (times the cosine of
# the angle off its axis) less this share of a radius: a ball can brush a jaw and drop.
JAW_SHARE = 0.9
SPREAD_FLOOR = 1e-4  # metres: the spread at the pocket never reaches zero
# A combination's spread at the pocket, against a plain pot's: the second ball's line
# turns with the first's, which turns with the aim.
COMBINATION_SPREAD = 3.0
# The lookahead (Judge(lookahead=True)): where the cue ball can go off the next pot, the
# rays from its ghost ball turned this many degrees from the tangent line (towards the
# object ball's line: follow; away: draw), and the distances along them (metres), folded
# back off the cushions. A straight pot sends it only along the line, either way.
LOOK_TURNS = (-60.0, -30.0, 0.0, 30.0, 60.0)
LOOK_REACH = (0.15, 0.35, 0.6, 0.9, 1.3)
STRAIGHT = 4.0  # degrees: a cut this thin is straight in, with no tangent line to speak of

# A game of points (GameState.points_to_win, 14.1): the points of a typical inning (the
# scale of Judge.win_chance) kept within these bounds.
# The ceiling is the strong professional's balls per inning (10 to 20): the judge's run
# chance (0.97 at level 5) would say 32, but a run also ends at a rack's break shot.
INNING_BOUNDS = (3.0, 15.0)
# The chance of a foul with no pot to play: hooked (no ball to hit in a straight line:
# a kick), and with a ball to hit (a safety). Weighed by what a foul costs
# (GameState.foul_penalty): nothing to speak of but on a third foul in a row (SP-13).
HOOKED_FOUL = 0.3
OPEN_FOUL = 0.05
# At a rack's end: a break ball potted without the cue ball going on into the rack
# leaves this share of a run (a closed rack: a safety next); with two balls left, the
# last one in the rack area (SP-15 spots it, the cue ball stays) this share.
CLOSED_RACK = 0.2
NO_BREAK_BALL = 0.25
# The object balls left when the break ball is planned (Judge.break_ball_left): the next
# pot, then the key ball and the break ball.
BREAK_BALL_PLANNED = 3
# The break shot opens the rack when the cue ball goes on into it within this far
# (metres) of the ghost ball, along the lookahead's rays: with pace left, from a break
# ball near the rack (one on the head spot is a poor one).
OPEN_REACH = (0.15, 0.35, 0.6)


@attrs.frozen
class Scale:
    """What a rack game's value means on a judge's scale for one decision: a value ``v``
    of a rack game (about the chance of winning the rack) is worth ``low + span * v``.
    The search's fixed bars are a rack's (a pot this good, what a miss leaves, what a
    foul costs beyond its position); through the scale they mean the same in a game of
    points, whose values sit near 0.5 (:meth:`Judge.scale`)."""

    low: float = 0.0
    span: float = 1.0

    def at(self, value: float) -> float:
        """``value``, a rack game's, on this scale (itself, exactly, on a rack's)."""
        return self.low + self.span * value


RACK = Scale()


@attrs.frozen
class Race:
    """A rack won on points, as the player at the table runs it, in balls: the points it
    and the other player still need, and its next pot's worth, each over what the balls
    left score on average. A player the balls left cannot take to the target needs every
    one of them, for what clearing the table is worth to it (``prize``, ``other_prize``:
    a tie on points, ``GameState.cleared_tie_share``; the rack where it would clear
    ahead, nothing where behind); reaching the target is worth the rack. ``settled``: the
    player at the table's chance where neither can reach it (balls left down on a foul
    break, B-7: taken as even)."""

    needs: float
    other: float
    next: float
    prize: float = 1.0
    other_prize: float = 1.0
    settled: float | None = None

    def worth(self, first: float) -> float:
        """The player at the table's share of the rack, from its chance of getting what it
        needs before the other player does (``first``)."""
        return self.prize * first + (1 - self.other_prize) * (1 - first)


class Judge:
    """Values positions for one decision (its caches last that long): ``noise`` is the
    player's, ``position``: whether the next shot's quality counts (a player who does not
    play position judges every pot it leaves alike); ``lookahead``: whether the shot
    after next counts too (:meth:`follow_on`), and the push out the next shot may be
    (:data:`PUSH_FLOOR`)."""

    def __init__(
        self,
        spec: TableSpec,
        noise: Noise,
        *,
        position: bool = True,
        lookahead: bool = False,
        miss: float = MISS,
        rival_own_noise: bool = False,
        floor: float = AIM_FLOOR,
    ) -> None:
        self.spec = spec
        self.geometry = spec.geometry
        self.mouths: Mapping[PocketId, Point] = pocket_mouths(spec)
        self.aim = math.radians(max(noise.aim, floor))
        self.own_aim = math.radians(noise.aim)
        self.position = position
        self.lookahead = lookahead
        self.miss = miss
        self.run = self.run_chance(math.radians(noise.aim))
        # In a game of points, the other player's chances judged at this player's own
        # noise rather than at AIM_FLOOR (Search.rival_own_noise): the floor is for the
        # position a player leaves itself; the shot it leaves the other player is made
        # as that player strikes it (None: judged as its own, at the floor). A rack
        # game's values are left as its calibrations measured them.
        self.rival: Judge | None = (
            Judge(spec, noise, position=position, miss=miss, floor=0.0)
            if rival_own_noise and noise.aim < floor
            else None
        )
        # Caches, by the balls and the balls on: the chance with the cue ball in hand, the
        # best pot with it where it lies, the shot after next.
        self._chances: dict[tuple[Positions, tuple[BallId, ...]], float] = {}
        self._next_pots: dict[tuple[Positions, tuple[BallId, ...]], tuple[Pot | None, float]] = {}
        self._follow_ons: dict[tuple[Positions, tuple[BallId, ...]], float] = {}
        self._lasts: dict[tuple[Positions, tuple[BallId, ...]], tuple[float, float]] = {}
        self._break_balls: dict[tuple[Positions, tuple[BallId, ...]], float] = {}

    @classmethod
    def of(cls, spec: TableSpec, level: Level) -> Judge:
        """The judge a player of ``level`` values positions with."""
        search = level.search
        return cls(
            spec,
            level.noise,
            position=search.position,
            lookahead=search.lookahead,
            miss=search.miss,
            rival_own_noise=search.rival_own_noise,
        )

    # -- a pot ---------------------------------------------------------------------

    def pot_chance(self, pot: Pot, cue: Point, balls: Positions, *, own: bool = False) -> float:
        """The chance of making ``pot`` from ``cue``, as the module says (a combination's
        spread :data:`COMBINATION_SPREAD` times a plain pot's); ``own``: at the player's
        own aim noise, not at least :data:`AIM_FLOOR` (how likely it is to drop when the
        player strikes it, rather than how good a shot it is to leave)."""
        radius = self.geometry.ball_radius
        ball = balls[pot.ball]
        mouth = pot.mouth
        d1 = distance(cue, pot.ghost)
        d2 = distance(ball, mouth)
        turn = d1 / (2 * radius * max(math.cos(math.radians(pot.cut)), 0.2))
        spread = max(SPREAD_FLOOR, d2 * turn * (self.own_aim if own else self.aim))
        if pot.first != pot.ball:
            spread *= COMBINATION_SPREAD
        margin = self.margin(pot, ball)
        return math.erf(margin / (math.sqrt(2) * spread))

    def run_chance(self, aim: float) -> float:
        """The chance of the typical pot (:data:`TYPICAL_SHOT`) at an aim noise of
        ``aim`` radians, within :data:`RUN_BOUNDS`: how likely each ball still to run
        is to drop for this player."""
        to_ghost, to_pocket, cut = TYPICAL_SHOT
        radius = self.geometry.ball_radius
        turn = to_ghost / (2 * radius * math.cos(math.radians(cut)))
        spread = max(SPREAD_FLOOR, to_pocket * turn * aim)
        margin = self.spec.corner_pocket_width / 2 - JAW_SHARE * radius
        low, high = RUN_BOUNDS
        return min(high, max(low, math.erf(margin / (math.sqrt(2) * spread))))

    def margin(self, pot: Pot, ball: Point) -> float:
        """How far off the centre line of ``pot``'s pocket a ball from ``ball`` may come
        and drop (sent at ``Pot.mouth``)."""
        pocket, mouth = pot.pocket, pot.mouth
        side = pocket.value.endswith("c")
        width = self.spec.side_pocket_width if side else self.spec.corner_pocket_width
        sx = 1.0 if mouth[0] > self.geometry.width / 2 else -1.0
        sy = 0.0 if side else (1.0 if mouth[1] > self.geometry.length / 2 else -1.0)
        norm = math.hypot(sx, sy)
        travel = distance(ball, mouth)
        if travel == 0:
            return width / 2
        cos_off = ((mouth[0] - ball[0]) * sx + (mouth[1] - ball[1]) * sy) / (travel * norm)
        return max(0.0, width / 2 * max(cos_off, 0.0) - JAW_SHARE * self.geometry.ball_radius)

    def best_pot(self, balls: Positions, cue: Point, target: BallId) -> tuple[Pot | None, float]:
        """The pot of ``target`` from ``cue`` with the best chance, and that chance."""
        best: tuple[Pot | None, float] = (None, 0.0)
        for pot in pots(dict(balls), cue, target, self.spec):
            chance = self.pot_chance(pot, cue, balls)
            if chance > best[1]:
                best = (pot, chance)
        return best

    # -- a position -----------------------------------------------------------------

    def shooter_chance(self, state: GameState) -> float:
        """The chance the player at the table makes the best pot on the ball on (in 8-ball,
        on any ball on: ``GameState.balls_on``)."""
        targets = state.balls_on
        if not targets:
            return 0.0
        if state.ball_in_hand is None:
            return self.next_pot(state)[1]
        key = (state.balls, targets)
        if key not in self._chances:
            self._chances[key] = max(
                (self._chance_in_hand(state, target) for target in targets), default=0.0
            )
        return self._chances[key]

    def next_pot(self, state: GameState) -> tuple[Pot | None, float]:
        """The best pot on a ball on with the cue ball where it lies, and its chance (the
        first ball on's, of equals)."""
        key = (state.balls, state.balls_on)
        if key not in self._next_pots:
            cue = state.balls[CUE]
            best: tuple[Pot | None, float] = (None, 0.0)
            for target in state.balls_on:
                found = self.best_pot(state.balls, cue, target)
                if found[1] > best[1]:
                    best = found
            self._next_pots[key] = best
        return self._next_pots[key]

    def _chance_in_hand(self, state: GameState, target: BallId) -> float:
        return max(
            (self.best_pot(state.balls, spot, target)[1] for spot in self._spots(state, target)),
            default=0.0,
        )

    def _spots(self, state: GameState, target: BallId) -> list[Point]:
        """Straight-in spots on each pocket's line to ``target``, for the cue ball in hand."""
        spots = []
        for line in self._lines_behind(state.balls[target]):
            spot = next((s for s in line if placeable(state, self.geometry, s)), None)
            if spot is not None:
                spots.append(spot)
        return spots

    def _lines_behind(self, ball: Point) -> list[list[Point]]:
        """For each pocket, the spots on its line through ``ball``, :data:`BEHIND` it
        (nearest first): where a straight-in pot of the ball into that pocket is played
        from."""
        lines = []
        for mouth in self.mouths.values():
            away = distance(mouth, ball)
            if away == 0:
                continue
            ux, uy = (ball[0] - mouth[0]) / away, (ball[1] - mouth[1]) / away
            lines.append([(ball[0] + b * ux, ball[1] + b * uy) for b in BEHIND])
        return lines

    def follow_on(self, state: GameState) -> float:
        """The shot after next, for the player at the table with the cue ball where it
        lies: the best chance on the ball on after the next pot from anywhere the cue ball
        can be sent off that pot (rays from the next pot's ghost ball, :data:`LOOK_TURNS`
        and :data:`LOOK_REACH`, folded off the cushions; spots on a ball left out). An
        angle that leads nowhere (a straight pot with the next ball off the line, the
        next ball hidden from every spot) counts against the position it belongs to.
        Only up to :attr:`run` counts, so it may stop looking there."""
        pot = self.next_pot(state)[0]
        if pot is None:
            return 0.0
        after = attrs.evolve(state, balls=state.balls.without(pot.ball))
        key = (after.balls, after.balls_on)
        if key not in self._follow_ons:
            spots = self._landing_spots(after.balls, state.balls[CUE], pot, state.balls[pot.ball])
            self._follow_ons[key] = self._best_from(after, spots)
        return self._follow_ons[key]

    def _best_from(self, state: GameState, spots: list[Point]) -> float:
        """The best chance on a ball on from any of ``spots``; it stops at the first as
        good as the player's typical pot (:attr:`run`), which is all the judge counts."""
        best = 0.0
        for spot in spots:
            for target in state.balls_on:
                best = max(best, self.best_pot(state.balls, spot, target)[1])
                if best >= self.run:
                    return best
        return best

    def _landing_spots(self, balls: Positions, cue: Point, pot: Pot, ball: Point) -> list[Point]:
        """Where the cue ball may come to rest off ``pot`` (see :meth:`follow_on`)."""
        ghost = pot.ghost
        radius = self.geometry.ball_radius
        others = [p for b, p in balls.items() if b != CUE]
        spots = [ghost]
        for dx, dy in _directions(cue, pot, ball):
            for reach in LOOK_REACH:
                spot = (
                    _fold(ghost[0] + reach * dx, radius, self.geometry.width - radius),
                    _fold(ghost[1] + reach * dy, radius, self.geometry.length - radius),
                )
                if all(distance(spot, p) >= 2 * radius for p in others):
                    spots.append(spot)
        return spots

    def value(self, state: GameState, me: Player) -> float:
        """About the chance ``me`` wins the rack from ``state``, or in a game of points
        the game (see the module)."""
        result = state.outcome()
        if result is not None:
            if result.winner is None:
                return 0.5
            return 1.0 if result.winner is me else 0.0
        pending = state.pending
        if pending is not None:
            values = [self.value(state.choose(choice), me) for choice in sorted(pending.choices)]
            return max(values) if pending.chooser is me else min(values)
        if state.points_to_win(me) is not None:
            return self.points_value(state, me)
        race = self.rack_race(state)
        if race is not None:
            at_table = self.race_value(state, race, mine=state.shooter is me)
            return at_table if state.shooter is me else 1.0 - at_table
        # Without position play, every position it leaves itself is alike to it.
        mine = state.shooter is me
        chance = self.shooter_chance(state) if self.position or not mine else 0.5
        left = len(state.balls.object_balls)
        rest = self.run ** max(left - 1, 0)
        if mine and self.lookahead and left > 1 and state.ball_in_hand is None:
            rest = min(self.run, self.follow_on(state)) * self.run ** (left - 2)
        at_table = self.miss + (1 - self.miss) * chance * (1 + rest) / 2
        if self.lookahead and Declaration.PUSH_OUT in state.legal_declarations:
            at_table = max(at_table, PUSH_FLOOR)
        if state.ball_in_hand is not None:
            at_table = max(at_table, IN_HAND_FLOOR)
        return at_table if mine else 1.0 - at_table

    # -- a game of points (see the module) ---------------------------------------------

    @property
    def inning(self) -> float:
        """The points of a typical inning, the player's run chance r's ``r / (1 - r)``
        within :data:`INNING_BOUNDS`: the scale a game of points is judged on, and the
        points a run goes on to after a pot and the next."""
        low, high = INNING_BOUNDS
        return min(high, max(low, self.run / (1 - self.run)))

    def win_chance(self, needs: float, other_needs: float, edge: float) -> float:
        """The chance a player needing ``needs`` points wins against one needing
        ``other_needs``, ``edge`` innings ahead (each inning about :attr:`inning`
        points, about geometric, so the innings needed spread with their number)."""
        if needs <= 0:
            return 1.0
        if other_needs <= 0:
            return 0.0
        spread = math.sqrt((needs + other_needs) / self.inning + 1.0)
        lead = (other_needs - needs) / self.inning + edge
        return 0.5 * (1.0 + math.erf(lead / (spread * math.sqrt(2.0))))

    def points_value(self, state: GameState, me: Player) -> float:
        """About the chance ``me`` wins a game of points from ``state``: for the player
        at the table, the chance ``p`` of the next pot (:meth:`run_from`) times the game
        won with the run it starts, and ``1 - p`` times the game with a safety to play
        now, the points a foul would cost weighed by the chance of one
        (:meth:`foul_risk`: sixteen on a third foul in a row, SP-13); either way the
        inning ends with a safety to play, an edge of the level's ``miss`` less an even
        exchange (at least :data:`IN_HAND_FLOOR`'s with the cue ball in hand); for the
        other player, one minus that."""
        shooter = state.shooter
        needs = state.points_to_win(shooter)
        other_needs = state.points_to_win(shooter.other)
        assert needs is not None and other_needs is not None
        chance, carried = self.run_from(state, mine=shooter is me)
        # A run ends as this inning would without a pot: a safety to play (the level's
        # ``miss``: the player at the table with no pot has the worse of the exchange).
        edge = self.miss - 0.5
        run = self.win_chance(needs - 1 - carried, other_needs, edge)
        if state.ball_in_hand is not None:
            edge = max(edge, IN_HAND_FLOOR - 0.5)
        risk = self.foul_risk(state) * state.foul_penalty(shooter)
        safe = self.win_chance(needs + risk, other_needs, edge)
        at_table = chance * run + (1 - chance) * safe
        return at_table if shooter is me else 1.0 - at_table

    def rack_race(self, state: GameState) -> Race | None:
        """The race within a rack won on points (:class:`Race`), or None where a rack is
        won otherwise. The ball on counts at its number: the 1 early in a rack is worth
        little of the 61, so a pot of it is worth less than a pot that scores 12."""
        shooter = state.shooter
        needs, other = state.rack_points_to_win(shooter), state.rack_points_to_win(shooter.other)
        if needs is None or other is None:
            return None
        balls = state.balls.object_balls
        left = sum(state.ball_points(ball) for ball in balls)
        if left <= 0:
            return None
        unit = left / len(balls)
        on = state.lowest
        worth = state.ball_points(on) if on is not None else unit
        if needs > left and other > left:
            return Race(needs / unit, other / unit, worth / unit, settled=0.5)
        # Short of the target with every ball left, a player can still clear the table:
        # at 60 - 60 on 120 points (ROT-10) a tie, so the leader at 60 still needs a ball
        # and the other is not yet beaten.
        prize = _clearing(left + other - needs, state.cleared_tie_share()) if needs > left else 1.0
        other_prize = (
            _clearing(left + needs - other, state.cleared_tie_share()) if other > left else 1.0
        )
        return Race(
            min(needs, left) / unit, min(other, left) / unit, worth / unit, prize, other_prize
        )

    def race_value(self, state: GameState, race: Race, *, mine: bool, sure: bool = False) -> float:
        """The chance the player at the table wins a rack won on points, ``race`` (see
        the module): the next pot with chance p (1 if ``sure``), then each ball with the
        run chance (the first after it as the lookahead sees it) until the points needed
        are scored, the rack won at once; a run that stops short, on average, leaves the race
        to :meth:`win_chance` with the other player to come to the table (the level's
        ``miss`` as 14.1's is judged), as does no pot at all."""
        if race.settled is not None:
            return race.settled
        chance = 1.0 if sure else self.next_chance(state, mine=mine)
        edge = self.miss - 0.5
        safe_edge = max(edge, IN_HAND_FLOOR - 0.5) if state.ball_in_hand is not None else edge
        safe = self.win_chance(race.needs, race.other, safe_edge)
        after = race.needs - race.next  # balls still needed once the next pot is down
        if after <= 0:
            return race.worth(chance + (1 - chance) * safe)
        follow = self.run
        if mine and self.lookahead and not sure and state.ball_in_hand is None:
            follow = min(self.run, self.follow_on(state))
        r = min(self.run, 0.999)
        out = follow * r ** max(after - 1.0, 0.0)  # the run scores all it needs
        # The balls a geometric run of chance r scores on average when it stops short of
        # ``after``: r / (1 - r) - after * r ** after / (1 - r ** after).
        short = r / (1 - r) - after * r**after / (1 - r**after)
        stopped = self.win_chance(after - max(0.0, min(short, after)), race.other, edge)
        run = out + (1 - out) * stopped
        return race.worth(float(chance * run + (1 - chance) * safe))

    def scale(self, state: GameState) -> Scale:
        """What a rack game's values mean for the player at the table in ``state``
        (:class:`Scale`): a rack's own scale in a rack game; in a game of points, the
        judge's ``miss`` (a safety to play, no pot) is the game with a safety to play now
        (no foul counted) and 1 (a rack won) the game with a sure pot and the typical run
        after it (:meth:`run_from`'s, an inning's points), so a bar between them is "a pot
        this good" whatever the score. A game already decided either way keeps a rack's."""
        shooter = state.shooter
        needs, other_needs = state.points_to_win(shooter), state.points_to_win(shooter.other)
        race = self.rack_race(state)
        if race is not None and race.settled is None:
            # A rack won on points: no pot (a safety to play) against a sure pot and
            # the run after it, as the race judges them.
            safe = race.worth(self.win_chance(race.needs, race.other, self.miss - 0.5))
            run = self.race_value(state, race, mine=True, sure=True)
            return self._between(safe, run)
        if needs is None or other_needs is None:
            return RACK
        edge = self.miss - 0.5
        safe = self.win_chance(needs, other_needs, edge)
        run = self.win_chance(needs - 1 - self.run * (1 + self.inning), other_needs, edge)
        return self._between(safe, run)

    def _between(self, safe: float, run: float) -> Scale:
        """The scale that takes a rack's ``miss`` to ``safe`` and 1 to ``run``."""
        if run <= safe:
            return RACK
        span = (run - safe) / (1 - self.miss)
        return Scale(safe - self.miss * span, span)

    def next_chance(self, state: GameState, *, mine: bool) -> float:
        """The next pot's chance for the player at the table: the other player's as its
        own noise sees it (``rival``); its own 0.5 without position play (every position
        it leaves itself is alike to it)."""
        if mine and not self.position:
            return 0.5
        return self.eye(mine=mine).shooter_chance(state)

    def eye(self, *, mine: bool) -> Judge:
        """The judge whose noise sees the player at the table: this one for its own
        shots, the other player's (``rival``) for theirs where it has one."""
        return self if mine or self.rival is None else self.rival

    def run_from(self, state: GameState, *, mine: bool) -> tuple[float, float]:
        """The chance of the next pot for the player at the table, and the points a run
        that starts with it goes on to: the shot after next's chance (with the
        lookahead) times a typical run. At a rack's end (a game with a ``rack_area``)
        the re-rack counts: the last ball's pot is the break shot, worth a run only if
        the cue ball can go on into the rack (:meth:`break_shot`); with two left, one is
        potted and the other left outside the rack area for it (:meth:`last_two`); with
        three, the run past the re-rack counts as far as a break ball is left
        (:meth:`break_ball_left`)."""
        if state.phase is Phase.BREAK:
            return 0.0, 0.0
        if mine and not self.position:  # every position it leaves itself is alike to it
            return 0.5, self.run * (1 + self.inning)
        judge = self.eye(mine=mine)
        chance = self.next_chance(state, mine=mine)
        area = state.rack_area()
        left = len(state.balls.object_balls)
        if area is not None and state.ball_in_hand is None:
            cue = state.balls[CUE]
            marked = state.marked_balls()
            if marked:
                found, opens = judge.break_shot(state.balls, cue, marked[0], area)
                if found >= chance:
                    return found, self.run * (1 + self.inning) * (1.0 if opens else CLOSED_RACK)
            elif left == 2:
                found, carried = judge.last_two(state.balls, cue, area)
                if found > 0:
                    return found, carried
        follow = self.run
        if mine and self.lookahead and left > 1 and state.ball_in_hand is None:
            follow = min(self.run, self.follow_on(state))
        typical = 1 + self.inning
        if area is not None and left == BREAK_BALL_PLANNED and state.ball_in_hand is None:
            # The break ball is planned with three left: after the next pot, one of the
            # other two is the key ball and one the break ball; the run goes on past the
            # re-rack only as far as the best of them can be a break shot.
            pot = judge.next_pot(state)[0]
            if pot is not None:
                worth = max(CLOSED_RACK, judge.break_ball_left(state.balls, pot.ball, area))
                rest = left - 1
                return chance, follow * (rest + (typical - rest) * worth)
        return chance, follow * typical

    def break_shot(
        self, balls: Positions, cue: Point, ball: BallId, area: Sequence[Point]
    ) -> tuple[float, bool]:
        """The best pot of ``ball`` from ``cue`` as a break shot: its chance, and
        whether the cue ball can be sent off it into ``area`` (the racked balls) along
        the lookahead's rays within :data:`OPEN_REACH`; one that cannot counts
        :data:`CLOSED_RACK` of one that can."""
        best = (0.0, False)
        worth = 0.0
        for pot in pots(dict(balls), cue, ball, self.spec):
            chance = self.pot_chance(pot, cue, balls)
            ghost = pot.ghost
            opens = any(
                inside((ghost[0] + reach * dx, ghost[1] + reach * dy), area)
                for dx, dy in _directions(cue, pot, balls[ball])
                for reach in OPEN_REACH
            )
            if chance * (1.0 if opens else CLOSED_RACK) > worth:
                worth = chance * (1.0 if opens else CLOSED_RACK)
                best = (chance, opens)
        return best

    def break_ball_left(self, balls: Positions, potted: BallId, area: Sequence[Point]) -> float:
        """With three object balls left and ``potted`` the next: how good a break ball the
        best of the other two would be, a break shot's worth (:meth:`break_shot`: its
        chance, a fifth of it if the cue ball cannot go on into the rack) from the best
        of the straight-in spots behind it on each pocket's line (:data:`BEHIND`), as a
        player sends the cue ball there off the key ball; a ball inside the rack area
        is none (SP-15 moves it)."""
        key = (balls, (potted,))
        if key in self._break_balls:
            return self._break_balls[key]
        radius = self.geometry.ball_radius
        others = [p for b, p in balls.items() if b not in (CUE, potted)]
        after = balls.without(potted)
        best = 0.0
        for ball in balls.object_balls:
            at = balls[ball]
            if ball == potted or inside(at, area, radius):
                continue
            for line in self._lines_behind(at):
                for spot in line:
                    if not self.geometry.on_bed(spot):
                        continue
                    if any(distance(spot, p) < 2 * radius for p in others):
                        continue
                    chance, opens = self.break_shot(after, spot, ball, area)
                    best = max(best, chance * (1.0 if opens else CLOSED_RACK))
        self._break_balls[key] = best
        return best

    def last_two(self, balls: Positions, cue: Point, area: Sequence[Point]) -> tuple[float, float]:
        """With two object balls left: the best of potting one and leaving the other as
        the break ball (outside ``area``, else SP-15 moves it to a spot and the run is
        worth :data:`NO_BREAK_BALL` of one), the cue ball sent where the break shot is
        best (:meth:`break_shot` from each landing spot): the pot's chance and the points
        the run goes on to."""
        key = (balls, ())
        if key in self._lasts:
            return self._lasts[key]
        first, second = balls.object_balls
        best = (0.0, 0.0)
        for potted, left in ((first, second), (second, first)):
            pot, chance = self.best_pot(balls, cue, potted)
            if pot is None:
                continue
            after = balls.without(potted)
            if inside(after[left], area, self.geometry.ball_radius):
                carried = NO_BREAK_BALL * self.inning
            else:
                shots = [
                    self.break_shot(after, spot, left, area)
                    for spot in self._landing_spots(after, cue, pot, balls[potted])
                ]
                worth = max((c * (1.0 if o else CLOSED_RACK) for c, o in shots), default=0.0)
                carried = worth * (1 + self.inning)
            if chance * (1 + carried) > best[0] * (1 + best[1]):
                best = (chance, carried)
        self._lasts[key] = best
        return best

    def foul_risk(self, state: GameState) -> float:
        """The chance the player at the table fouls with no pot to play: a kick when no
        ball can be hit in a straight line (:data:`HOOKED_FOUL`), a safety otherwise
        (:data:`OPEN_FOUL`)."""
        if state.ball_in_hand is not None or CUE not in state.balls:
            return OPEN_FOUL
        cue = state.balls[CUE]
        diameter = self.geometry.ball_diameter
        for target in state.balls_on:
            others = [p for b, p in state.balls.items() if b not in (target, CUE)]
            if path_clear(cue, state.balls[target], others, diameter):
                return OPEN_FOUL
        return HOOKED_FOUL


def _clearing(margin: int, tie: float) -> float:
    """What clearing the table is worth to a player who cannot reach the target: the
    rack if it would then be ahead (``margin``: its lead at the end, in points), a tie's
    share if level, nothing if behind (ROT-9, ROT-10)."""
    return 1.0 if margin > 0 else tie if margin == 0 else 0.0


def _directions(cue: Point, pot: Pot, ball: Point) -> list[Point]:
    """The ways the cue ball may be sent off ``pot`` (unit vectors; see
    :meth:`Judge.follow_on`)."""
    ghost = pot.ghost
    line = (ball[0] - ghost[0], ball[1] - ghost[1])  # the object ball's way
    size = math.hypot(*line) or 1.0
    ux, uy = line[0] / size, line[1] / size
    incoming = (ghost[0] - cue[0], ghost[1] - cue[1])
    along = incoming[0] * ux + incoming[1] * uy
    tx, ty = incoming[0] - along * ux, incoming[1] - along * uy
    across = math.hypot(tx, ty)
    if pot.cut < STRAIGHT or across == 0:
        return [(ux, uy), (-ux, -uy)]
    tx, ty = tx / across, ty / across
    directions = []
    for turn in LOOK_TURNS:
        angle = math.radians(turn)
        directions.append(
            (
                math.cos(angle) * tx + math.sin(angle) * ux,
                math.cos(angle) * ty + math.sin(angle) * uy,
            )
        )
    return directions


def inside(point: Point, area: Sequence[Point], margin: float = 0.0) -> bool:
    """``point`` lies in the polygon ``area`` or within ``margin`` of its edges."""
    edges = list(zip(area, (*area[1:], area[0]), strict=True))
    crosses = [
        (b[0] - a[0]) * (point[1] - a[1]) - (b[1] - a[1]) * (point[0] - a[0]) for a, b in edges
    ]
    if all(c >= 0 for c in crosses) or all(c <= 0 for c in crosses):
        return True
    return margin > 0 and min(_to_segment(point, a, b) for a, b in edges) < margin


def _to_segment(p: Point, a: Point, b: Point) -> float:
    ax, ay = b[0] - a[0], b[1] - a[1]
    t = ((p[0] - a[0]) * ax + (p[1] - a[1]) * ay) / ((ax * ax + ay * ay) or 1.0)
    t = min(1.0, max(0.0, t))
    return distance(p, (a[0] + t * ax, a[1] + t * ay))


def _fold(x: float, low: float, high: float) -> float:
    """``x`` brought back inside ``low..high`` as a ball is by the cushions it meets."""
    span = high - low
    x = (x - low) % (2 * span)
    return low + (x if x <= span else 2 * span - x)
