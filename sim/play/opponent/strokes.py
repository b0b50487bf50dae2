"""The strokes the computer player considers, found by geometry alone (no simulation):
pots with a spread of pace and spin, safeties on the ball on, kicks off one rail, push
outs, the break, and where to put the cue ball in hand. Each is screened for blocked
paths with straight lines before anything is simulated; the search
(:mod:`sim.play.opponent.search`) simulates what is left.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from enum import StrEnum

import attrs

from rules import CUE, GAMES, BallId, BallInHand, Call, Declaration, GameState, PocketId
from rules.geometry import Point, TableGeometry, distance
from rules.rack import PractisedBreak
from sim.physics.racks import rack_slots
from sim.physics.simulate import MAX_SPEED, CueAction, aim_towards
from sim.physics.table import TableSpec
from sim.play.game import Stroke
from sim.play.geometry.pots import (
    Pot,
    combinations,
    one_rail,
    path_clear,
    pots,
    rail_lines,
    two_rail,
)
from sim.play.opponent.judge import Judge
from sim.play.opponent.levels import Search
from sim.play.picker import nearest_open, placeable, speed_for

POT_SPEED_MAX = 7.0  # m/s: no pot is struck harder
# The next pot's strokes a deeper search plays out (Thinker.deepened): paces (times the
# pot's plain speed) and tip heights (ball radii), aimed at the ghost ball.
FOLLOW_UP_PACES = (0.8, 1.2, 1.8)
FOLLOW_UP_SPINS = (-0.3, 0.0, 0.3)
SAFETY_SPEEDS = (1.0, 1.8, 3.0)  # m/s: soft, medium, firm
# A break shot (the ball a game marks: 14.1's break ball, GameState.marked_balls) is
# also struck at these speeds (m/s): the cue ball has to go on into the rack and open it.
BREAK_SHOT_SPEEDS = (4.5, 6.0)
KICK_SPEEDS = (1.8, 2.8, 4.0)
# Where on the ball a kick aims, in ball diameters: a fan, because the mirror line is
# only where a rail would send it back at the same angle (a cushion takes pace and
# turns the ball with its spin), and a kick that misses is a foul.
KICK_OFFSETS = (-0.6, -0.3, 0.0, 0.3, 0.6)
# Two-rail kicks, tried only when no straight or one-rail path is clear: the mirror
# line, twice off a cushion, is further from where the ball goes than one rail's, so
# each is a fan of aims this many degrees either side of it, at a firm pace (two
# cushions take most of a soft stroke's pace).
TWO_RAIL_TURNS = (-3.0, -1.5, 0.0, 1.5, 3.0)
TWO_RAIL_SPEEDS = (2.8, 4.0)
# Banks (see bank_candidates): tried when no plain pot is likelier than BANK_WHEN (the
# judge's chance), for the ball on with the cue ball where it lies; cuts past
# BANK_MAX_CUT degrees are left alone; a rail point nearer a pocket's mouth than
# BANK_CLEAR metres is no rail to bank off.
BANK_WHEN = 0.6
BANK_MAX_CUT = 50.0
BANK_CLEAR = 0.12
# A cushion sends a ball back off the mirror line by a degree or more (it takes pace,
# and the ball's roll drags it along the rail), so each bank is a fan of object-ball
# lines this many degrees off the mirror line, at these paces of the pot's speed (a
# cushion takes a third of the pace).
BANK_TURNS = (-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0)
BANK_PACES = (1.3, 1.8)
PUSH_SPEEDS = (0.8, 1.5)
PUSH_DIRECTIONS = 12
# Ball in hand: spots behind the ball on a pocket's line, this far back (metres) and
# this many degrees off it (an angle is how the cue ball is sent on for position).
SPOT_DISTANCES = (0.2, 0.35, 0.6)
SPOT_ANGLES = (0.0, -15.0, 15.0, -30.0, 30.0)
# The break (see break_stroke): the cue ball this share of the table's width off its
# middle, this far (metres) behind the head string, with this much follow.
BREAK_SIDE = 0.355
BREAK_BACK = 0.12
BREAK_FOLLOW = 0.1
# The breaks a practised breaker chooses among (break_candidates): the cue ball's share
# of the width off the middle, the tip's height (ball radii) and the cue's speed (m/s).
# Measured over 120 racks of 10-ball at level 5's noise on the 9-ft table (the judge's
# value of the position left, for the breaker): the break above from 0.355 with follow at
# 8.5 m/s kept the table 115 times but left a likely pot on the 1 (over 0.7) only 19
# times; from 0.2 with a centre ball at 10 m/s, 84 and 53. Which is best depends on the
# rack (9-ball's diamond, 8-ball's and rotation's fifteen balls): each game's break
# study starts from these, and a game not yet studied (no GameState.practised_break)
# has the player try them all with its noise, on the rack in front of it.
BREAK_CHOICES = (
    (BREAK_SIDE, BREAK_FOLLOW, 8.5),
    (0.27, 0.1, 8.5),
    (0.2, 0.1, 10.0),
    (0.2, 0.0, 9.5),
    (0.2, 0.0, 10.0),
    (0.1, 0.0, 10.0),
)


# The one break a practised player of a game plays (the game's ``practised_break``,
# rules.rack.PractisedBreak), found by the break study
# (``sim.play.opponent.breakstudy``, level 5's noise, the 9-ft table). 10-ball: 72
# breaks (6 places x 4 tip heights x 3 speeds) struck twice on 160 racks, the best 16
# with their neighbours four times on 160 other racks, and the 8 nearest the best four
# times on 120 more: from 0.25 of the width with a touch of follow at 9.25 m/s it left
# 0.665 (±0.009), a likely pot on the 1 (over 0.7) after 49 % of the strikes and a foul
# after 2 %, where the six BREAK_CHOICES left 0.55 to 0.60. Trying several breaks on
# the rack in front loses: the best of noisy means is the luckiest as often as the best
# (on racks held out, choosing among the 16 by two strikes each left 0.60, the best
# one played every time 0.63). That is 10-ball's practised_break, in its rules class.
# 9-ball and 8-ball (the same study on tuning seeds 41, 42 and 43): 36 breaks (0, 0.1,
# 0.2, 0.25, 0.3 or 0.4 of the width x tip -0.2 or 0.1 R x 8.5, 9.25 or 10 m/s) struck
# once on 40 racks, the best 6 (and two of the six below) twice on 90 other racks, the
# best with their neighbours and the six BREAK_CHOICES twice on 80 to 100 more. 9-ball:
# from 0.25 with a touch of follow at 8.5 m/s, first on each of the three sets of racks,
# left 0.585 (±0.021) on the last, a likely pot on the 1 after 32 % of the strikes and
# a foul after 9 %, where the six left 0.35 to 0.56. 8-ball: from 0.25 with a touch of
# follow at 10 m/s left 0.77 (±0.014, the last two sets), a foul after 1 % and no illegal
# break (EB-5); 0.2 to 0.3 of the width at 10 m/s, or 0.25 at 9.25, are as good within
# their uncertainty, and the six left 0.57 to 0.77. Rotation (tuning seeds 44 and 45,
# docs/OPPONENT-TUNING.md): the six, the other games' breaks and six more, once on each
# of 60 racks, the best four and two neighbours on 80 more: from 0.2 of the width with a
# centre ball at 9.5 m/s came first on both, 0.665 (±0.026) and 0.638 (±0.023), a foul
# after 7 strikes of 140, where the next best left 0.58.
# 14.1 (straight pool; tuning seeds 11 and 21 to 24, the 9-ft table, the judge's value
# of a game to 150 for the breaker, a game of points): its break hands the other player
# a closed rack (SP-3), so its aim is a thin hit on a back corner ball (BreakAim), not
# the full hit on the apex. Struck once without noise, 270 aims from the right of the
# kitchen (slot 14 or 10; -0.3 to 0.4 of the width; 0.5 to 0.85 of a ball thin; 4 to 7
# m/s; side -0.5 to 0.5) were legal 162 times and sent the cue ball back to the head
# rail's half in a few (the cue ball hard off the foot rail runs into the rack on its
# way back); 288 softer ones (2.5 to 5 m/s, 0.6 to 0.9 thin, draw or follow) found the
# cue ball back up table mostly at 2.2 to 2.6 m/s with draw. At level 5's noise, 54
# aims x 8 strikes (seed 11) kept 20 legal in 7 or 8 of 8 with the cue ball back
# (y < 0.6 m); the 12 best and the full hit (BREAK_CHOICES[0]) struck twice on 30 racks
# (seed 21): the full hit left 0.439 (14 fouls in 60), the thin hits 0.456 to 0.496; the
# best 7 twice on 40 more (seed 22): from 0.4 of the width, 0.75 thin, a touch of draw
# (-0.2 R), no side, 2.2 m/s left 0.496 (±0.001), no foul, as good as any (side spin
# toward the rail, 0.2 R, fouled 65 times in 80: running side did not pay here). With
# the judge's final edges (seed 24, 40 strikes): 0.491 (±0.002), no foul; the next best
# 0.476. That is 14.1's practised_break, marked ``safe``: every level plays it. At level
# 3's noise (seed 23/24, 40 strikes) it left 0.488 to 0.491 with 14 to 17 fouls (a
# breaking foul: two points, SP-4), as good as the steadier 0.25-of-the-width one at 2.6
# m/s (0.487, 8 fouls) and better than the full hit (0.470, 12 fouls); at level 1's,
# 0.492 with 24 fouls in 40, the full hit 0.481: no simpler break did better below
# practice. Command: breakstudy.study("straight-pool", "9ft", level_named(L), shapes,
# racks, 2, seed) with shapes (offset, spin, speed, BreakAim(14, thin, english)).


def practised_breaks() -> dict[str, PractisedBreak]:
    """Each game's practised break by its name, for the games that have one (a level's
    settings name them, :func:`sim.play.opponent.player.settings`)."""
    return {
        name: kind.practised_break
        for name, kind in GAMES.items()
        if kind.practised_break is not None
    }


class Intent(StrEnum):
    """What a stroke is for (what the player means by it; the referee judges it)."""

    BREAK = "break"
    POT = "pot"
    SAFETY = "safety"
    KICK = "kick"
    PUSH_OUT = "push-out"


@attrs.frozen
class Candidate:
    """A stroke to consider, what it is for, and for a pot the ball and pocket."""

    intent: Intent
    stroke: Stroke
    target: BallId | None = None
    pocket: PocketId | None = None
    pot: Pot | None = None


_DECLARATIONS = {
    Intent.SAFETY: Declaration.SAFETY,
    Intent.KICK: Declaration.SAFETY,
    Intent.PUSH_OUT: Declaration.PUSH_OUT,
}


def _declared(state: GameState, intent: Intent) -> Declaration | None:
    """The declaration a stroke of ``intent`` carries, if the rules take one here (a
    call-shot game's safety, TB-8's push out)."""
    wanted = _DECLARATIONS.get(intent)
    return wanted if wanted in state.legal_declarations else None


def pot_candidates(
    state: GameState,
    spec: TableSpec,
    judge: Judge,
    search: Search,
    cue: Point,
    placement: Point | None,
    count: int,
) -> list[Candidate]:
    """The ``count`` likeliest pots from ``cue``, each with every pace and spin of the
    search (and at each pace, its side spins with the middle spin): the ball on into
    each pocket the geometry allows, and where one ball wins the rack wherever the
    others lie (``GameState.winning_ball``, the 9 in 9-ball), combinations of the ball
    on into it; and with the cue ball where it lies and no plain pot likelier than
    :data:`BANK_WHEN`, the search's banks. In 8-ball every ball on
    (``GameState.balls_on``: the shooter's group, or the 8) is tried."""
    target = state.lowest
    assert target is not None
    balls = state.balls
    # From the kitchen, a ball behind the head string is a foul to hit first (ask the state).
    playable = state.balls_to_play
    layout = dict(balls)
    found_pots = [pot for on in playable for pot in pots(layout, cue, on, spec)]
    winner = state.winning_ball
    if winner is not None and winner != target and target in playable:
        found_pots += combinations(layout, cue, target, winner, spec)
    if state.every_pot_scores and target in playable:
        # Rotation: any ball in off the ball on scores its number. On a crowded table the
        # ball on is often without a pocket of its own while it can still send another
        # in; without these, players of every level traded safeties until they agreed a
        # stalemate (seed 3000, 3 against 2: 61 in 44 racks, 9 racks given up).
        found_pots += [
            combo
            for other in balls.object_balls
            if other != target
            for combo in combinations(layout, cue, target, other, spec)
        ]
    ranked = sorted(
        ((judge.pot_chance(pot, cue, balls), pot) for pot in found_pots),
        key=lambda item: -item[0],
    )
    found = []
    if placement is None and search.banks and (not ranked or ranked[0][0] < BANK_WHEN):
        found += bank_candidates(state, spec, judge, cue, search.banks)
    marked = state.marked_balls()
    for _chance, pot in ranked[:count]:
        base = speed_for(cue, pot)
        call = Call(ball=pot.ball, pocket=pot.pocket) if state.calls_allowed else None
        middle = search.spins[len(search.spins) // 2]
        tips = [(0.0, spin) for spin in search.spins] + [(side, middle) for side in search.sides]
        speeds = [min(POT_SPEED_MAX, base * pace) for pace in search.speeds]
        if pot.ball in marked:
            speeds += [s for s in BREAK_SHOT_SPEEDS if s > max(speeds)]
        for speed in speeds:
            for side, spin in tips:
                action = CueAction(speed=speed, aim=aim_towards(cue, pot.ghost), a=side, b=spin)
                stroke = Stroke(action=action, placement=placement, call=call)
                found.append(Candidate(Intent.POT, stroke, pot.ball, pot.pocket, pot))
    return found


def follow_up_strokes(cue: Point, pot: Pot) -> list[Stroke]:
    """The strokes of the pot after this one that a deeper search plays out
    (:meth:`sim.play.opponent.search.Thinker.deepened`): :data:`FOLLOW_UP_PACES` x
    :data:`FOLLOW_UP_SPINS`, aimed at the ghost ball (no call: it only looks)."""
    base = speed_for(cue, pot)
    aim = aim_towards(cue, pot.ghost)
    return [
        Stroke(action=CueAction(speed=min(POT_SPEED_MAX, base * pace), aim=aim, b=spin))
        for pace in FOLLOW_UP_PACES
        for spin in FOLLOW_UP_SPINS
    ]


def bank_candidates(
    state: GameState, spec: TableSpec, judge: Judge, cue: Point, count: int
) -> list[Candidate]:
    """Banks of the ball on off one rail, for when no plain pot is likely: the pocket's
    mouth mirrored in the line the ball's centre bounces off, the ball's legs to the rail
    and on to the pocket and the cue ball's path to the ghost ball clear; the ``count``
    shortest (by carry over the cosine of the cut), each a fan of lines and paces
    (:data:`BANK_TURNS`, :data:`BANK_PACES`). They carry no :class:`Pot` (the throw
    correction and the judge's pot chance are for straight lines); the simulation says
    which of the fan drops. Every ball on is banked (``GameState.balls_on``: 8-ball's
    group, or the lowest ball)."""
    geometry = spec.geometry
    diameter = geometry.ball_diameter
    banks: list[tuple[float, BallId, PocketId, float, float]] = []
    for target in state.balls_on:
        banks += _banks_of(state, geometry, judge, cue, target)
    banks.sort(key=lambda item: item[0])
    call_allowed = state.calls_allowed
    found = []
    for _reach, target, pocket, heading, travel in banks[:count]:
        ball = state.balls[target]
        call = Call(ball=target, pocket=pocket) if call_allowed else None
        base = 0.9 + 0.9 * travel
        for turn in BANK_TURNS:
            line_out = math.radians(heading + turn)
            ghost = (
                ball[0] - diameter * math.cos(line_out),
                ball[1] - diameter * math.sin(line_out),
            )
            for pace in BANK_PACES:
                speed = min(POT_SPEED_MAX, base * pace)
                action = CueAction(speed=speed, aim=aim_towards(cue, ghost))
                stroke = Stroke(action=action, call=call)
                found.append(Candidate(Intent.POT, stroke, target, pocket))
    return found


def _banks_of(
    state: GameState, geometry: TableGeometry, judge: Judge, cue: Point, target: BallId
) -> list[tuple[float, BallId, PocketId, float, float]]:
    """The one-rail banks of ``target``: (how far the stroke reaches, the ball, the
    pocket, the heading off the ball in degrees, the balls' travel)."""
    diameter = geometry.ball_diameter
    ball = state.balls[target]
    others = [p for b, p in state.balls.items() if b not in (target, CUE)]
    banks: list[tuple[float, BallId, PocketId, float, float]] = []
    for pocket, mouth in judge.mouths.items():
        for axis, line in rail_lines(geometry):
            path = one_rail(ball, mouth, axis, line)
            if path is None:
                continue
            _image, rail = path
            if any(distance(rail, m) < BANK_CLEAR for m in judge.mouths.values()):
                continue
            if not geometry.on_bed(rail):
                continue
            if pocket.value.endswith("c") and abs(rail[0] - mouth[0]) < math.cos(
                math.radians(45.0)
            ) * distance(rail, mouth):
                continue  # a side pocket takes only balls coming at it
            line_out = math.atan2(rail[1] - ball[1], rail[0] - ball[0])
            ghost = (
                ball[0] - diameter * math.cos(line_out),
                ball[1] - diameter * math.sin(line_out),
            )
            to_ghost = math.atan2(ghost[1] - cue[1], ghost[0] - cue[0])
            cut = abs(math.degrees((line_out - to_ghost + math.pi) % (2 * math.pi) - math.pi))
            if cut > BANK_MAX_CUT or not geometry.on_bed(ghost):
                continue
            if not (
                path_clear(cue, ghost, others, diameter)
                and path_clear(ball, rail, others, diameter)
                and path_clear(rail, mouth, [*others, cue], diameter)
            ):
                continue
            carry = distance(ball, rail) + distance(rail, mouth)
            reach = (distance(cue, ghost) + carry) / max(math.cos(math.radians(cut)), 0.2)
            banks.append(
                (reach, target, pocket, math.degrees(line_out), carry + distance(cue, ghost))
            )
    return banks


def contact_points(state: GameState, spec: TableSpec, cue: Point, count: int) -> list[Point]:
    """Up to ``count`` points across the ball on (full to thin, either side) that the
    cue ball's centre can reach in a straight line, fullest first; in 8-ball, on the
    nearest ball on with a clear line (:func:`~sim.play.picker.nearest_open`)."""
    target = nearest_open(state, cue, spec)
    diameter = spec.geometry.ball_diameter
    ball = state.balls[target]
    others = [p for b, p in state.balls.items() if b not in (target, CUE)]
    across = math.radians(aim_towards(cue, ball) + 90)
    steps = max(count - 1, 1)
    fractions = sorted({0.85 * (2 * i / steps - 1) for i in range(count)} | {0.0}, key=abs)
    points = []
    for share in fractions:
        point = (
            ball[0] + share * diameter * math.cos(across),
            ball[1] + share * diameter * math.sin(across),
        )
        if path_clear(cue, point, others, diameter):
            points.append(point)
    return points


def safety_candidates(
    state: GameState, spec: TableSpec, search: Search, cue: Point, placement: Point | None
) -> list[Candidate]:
    """Hits on the ball on at the search's contact points, soft to firm: the safeties
    (and, when nothing is potted, the plain hits a weaker player makes)."""
    count = max(search.safeties, 1)
    speeds = SAFETY_SPEEDS if search.safeties else (2.5,)
    declaration = _declared(state, Intent.SAFETY)
    found = []
    for point in contact_points(state, spec, cue, count):
        for speed in speeds:
            action = CueAction(speed=speed, aim=aim_towards(cue, point), b=-0.2)
            stroke = Stroke(action=action, placement=placement, declaration=declaration)
            found.append(Candidate(Intent.SAFETY, stroke, nearest_open(state, cue, spec)))
    return found


def kick_candidates(
    state: GameState,
    spec: TableSpec,
    cue: Point,
    placement: Point | None,
    *,
    clear: bool = True,
) -> list[Candidate]:
    """One-rail kicks at the ball on: the ball (a little off centre either way) mirrored
    in the line the cue ball's centre bounces off, kept when both legs are clear (in
    8-ball, at the ball on nearest the cue ball). With ``clear`` False, every leg is
    kept: where no path is clear, the physics is asked whether a ball glanced on the way
    still lets the cue ball reach the ball on."""
    target = nearest_open(state, cue, spec)
    geometry = spec.geometry
    diameter = geometry.ball_diameter
    ball = state.balls[target]
    others = [p for b, p in state.balls.items() if b not in (target, CUE)]
    declaration = _declared(state, Intent.KICK)
    found = []
    for axis, line in rail_lines(geometry):
        for offset in KICK_OFFSETS:
            aimed = list(ball)
            aimed[1 - axis] += offset * diameter
            target_point = (aimed[0], aimed[1])
            path = one_rail(cue, target_point, axis, line)
            if path is None:
                continue
            image, bounce = path
            if not (0 <= bounce[0] <= geometry.width and 0 <= bounce[1] <= geometry.length):
                continue
            if clear and not (
                path_clear(cue, bounce, [*others, ball], diameter)
                and path_clear(bounce, target_point, others, diameter)
            ):
                continue
            for speed in KICK_SPEEDS:
                action = CueAction(speed=speed, aim=aim_towards(cue, image))
                stroke = Stroke(action=action, placement=placement, declaration=declaration)
                found.append(Candidate(Intent.KICK, stroke, target))
    return found


def two_rail_kick_candidates(
    state: GameState, spec: TableSpec, cue: Point, placement: Point | None
) -> list[Candidate]:
    """Two-rail kicks at the ball on (in 8-ball, the one nearest the cue ball), off
    every pair of rails whose mirror path meets both on the table, legs blocked or not:
    for a player hooked from every straight and one-rail path, the physics says which
    reaches the ball on first."""
    target = nearest_open(state, cue, spec)
    geometry = spec.geometry
    ball = state.balls[target]
    declaration = _declared(state, Intent.KICK)
    lines = rail_lines(geometry)
    found = []
    for first in lines:
        for second in lines:
            if second == first:
                continue
            path = two_rail(cue, ball, first, second)
            if path is None or not all(_on_rail(point, geometry) for point in path[1:]):
                continue
            aim = aim_towards(cue, path[0])
            for turn in TWO_RAIL_TURNS:
                for speed in TWO_RAIL_SPEEDS:
                    action = CueAction(speed=speed, aim=(aim + turn) % 360.0)
                    stroke = Stroke(action=action, placement=placement, declaration=declaration)
                    found.append(Candidate(Intent.KICK, stroke, target))
    return found


def _on_rail(point: Point, geometry: TableGeometry) -> bool:
    return 0 <= point[0] <= geometry.width and 0 <= point[1] <= geometry.length


def push_candidates(state: GameState, cue: Point, placement: Point | None) -> list[Candidate]:
    """Push outs (TB-8): the cue ball rolled softly every way round."""
    declaration = _declared(state, Intent.PUSH_OUT)
    if declaration is None:
        return []
    found = []
    for step in range(PUSH_DIRECTIONS):
        for speed in PUSH_SPEEDS:
            action = CueAction(speed=speed, aim=360.0 * step / PUSH_DIRECTIONS)
            stroke = Stroke(action=action, placement=placement, declaration=declaration)
            found.append(Candidate(Intent.PUSH_OUT, stroke))
    return found


def spots(state: GameState, spec: TableSpec, judge: Judge, count: int) -> list[Point]:
    """The ``count`` best places for the cue ball in hand: spots behind the ball on, on
    each pocket's line or at an angle to it, ranked by the chance of the pot from there
    (one spot per pocket and angle's side first, so the search sees different shots).
    In 8-ball, behind every ball on."""
    ranked: list[tuple[float, PocketId, float, Point]] = []
    for target in state.balls_to_play:  # in the kitchen: the balls past the head string
        ranked += _spots_behind(state, spec, judge, target)
    ranked.sort(key=lambda item: -item[0])
    chosen: list[Point] = []
    seen: set[tuple[PocketId, bool]] = set()
    for _chance, pocket, angle, spot in ranked:
        kind = (pocket, angle > 0)
        if kind not in seen and len(chosen) < count:
            seen.add(kind)
            chosen.append(spot)
    return chosen or [spot for *_, spot in ranked[:count]]


def _spots_behind(
    state: GameState, spec: TableSpec, judge: Judge, target: BallId
) -> list[tuple[float, PocketId, float, Point]]:
    """Spots behind ``target`` from which its best pot is into the pocket they face."""
    ball = state.balls[target]
    ranked: list[tuple[float, PocketId, float, Point]] = []
    for pocket, mouth in judge.mouths.items():
        away = distance(mouth, ball)
        if away == 0:
            continue
        back = math.atan2(ball[1] - mouth[1], ball[0] - mouth[0])
        for angle in SPOT_ANGLES:
            turned = back + math.radians(angle)
            for reach in SPOT_DISTANCES:
                spot = (ball[0] + reach * math.cos(turned), ball[1] + reach * math.sin(turned))
                if not placeable(state, spec.geometry, spot):
                    continue
                pot, chance = judge.best_pot(state.balls, spot, target)
                if pot is not None and pot.pocket is pocket:
                    ranked.append((chance, pocket, angle, spot))
    return ranked


def any_spot(state: GameState, spec: TableSpec) -> Iterator[Point]:
    """Places the rules take for the cue ball in hand, scanning the table (the allowed
    area) from its middle out: for when no spot behind the ball will do."""
    geometry = spec.geometry
    width, length = geometry.width, geometry.length
    kitchen = state.ball_in_hand is BallInHand.KITCHEN
    middle = (width / 2, geometry.head_string_y / 2 if kitchen else length / 2)
    for ring in range(1, 40):
        for step in range(8 * ring):
            angle = 2 * math.pi * step / (8 * ring)
            point = (
                middle[0] + 0.03 * ring * math.cos(angle),
                middle[1] + 0.03 * ring * math.sin(angle),
            )
            if placeable(state, geometry, point):
                yield point


@attrs.frozen
class BreakAim:
    """Where a break hits the rack (``rules.rack.PractisedBreak``'s aim): the ball in
    rack ``slot`` (as seen from the right of the kitchen, mirrored from the left),
    ``thin`` ball diameters off its centre on the side away from the rack's middle, with
    ``english`` (ball radii of side spin toward that side). Slot 0 and a full hit with
    no side is the full hit on the apex every game's break was before."""

    slot: int = 0
    thin: float = 0.0
    english: float = 0.0

    @classmethod
    def of(cls, practised: PractisedBreak) -> BreakAim:
        return cls(slot=practised.slot, thin=practised.thin, english=practised.english)

    def ball(self, state: GameState, side: float) -> BallId:
        """The object ball nearest the slot's place in the game's rack (mirrored when the
        cue ball is on the left, ``side`` below 0)."""
        geometry = state.table
        slots = rack_slots(geometry, state.rack_pattern(state.options))
        x, y = slots[self.slot]
        if side < 0:
            x = geometry.width - x
        balls = state.balls
        return min(
            (b for b in balls.object_balls if b in state.balls_on),
            key=lambda b: distance(balls[b], (x, y)),
        )

    def direction(self, ball: Point, spot: Point, geometry: TableGeometry, side: float) -> float:
        """The aim (degrees) from ``spot`` past ``ball`` at ``thin`` diameters off its
        centre, on the side of the table the cue ball is on (``side``)."""
        to_ball = math.atan2(ball[1] - spot[1], ball[0] - spot[0])
        across = to_ball + (-math.pi / 2 if side > 0 else math.pi / 2)  # toward that side
        off = self.thin * geometry.ball_diameter
        aimed = (ball[0] + off * math.cos(across), ball[1] + off * math.sin(across))
        return aim_towards(spot, aimed)


FULL_ON_THE_APEX = BreakAim()


def break_stroke(
    state: GameState,
    spec: TableSpec,
    speed: float,
    side: float,
    *,
    offset: float = BREAK_SIDE,
    spin: float = BREAK_FOLLOW,
    aim: BreakAim = FULL_ON_THE_APEX,
) -> Stroke:
    """The break: the cue ball in the kitchen ``offset`` of the table's width off its
    middle (``side``: -1 or 1, which way), struck with ``spin`` (follow above zero) full
    at the apex ball, or as ``aim`` says (:class:`BreakAim`). Measured over 30 racks of
    10-ball at level 5's noise, the default break was legal with a ball down in 28 (from
    the middle of the kitchen, 4 to 13 in 20; softer than 8.5 m/s, most were illegal,
    TB-6)."""
    geometry = spec.geometry
    assert state.balls_on, "a rack has an object ball"
    spot = (geometry.width * (0.5 + side * offset), geometry.head_string_y - BREAK_BACK)
    if not placeable(state, geometry, spot):
        spot = next(any_spot(state, spec))
    if aim == FULL_ON_THE_APEX:
        target = state.balls_on[0]  # the apex: the lowest, or in 8-ball the nearest the head
        direction = aim_towards(spot, state.balls[target])
    else:
        target = aim.ball(state, side)
        direction = aim.direction(state.balls[target], spot, geometry, side)
    action = CueAction(speed=min(MAX_SPEED, speed), aim=direction, a=aim.english * side, b=spin)
    return Stroke(action=action, placement=spot)


def practised_break(state: GameState, spec: TableSpec, side: float) -> Candidate | None:
    """The game's practised break (``GameState.practised_break``) from ``side`` of the
    kitchen, if it has one."""
    practised = state.practised_break
    if practised is None:
        return None
    aim = BreakAim.of(practised)
    stroke = break_stroke(
        state, spec, practised.speed, side, offset=practised.offset, spin=practised.spin, aim=aim
    )
    target = state.balls_on[0] if aim == FULL_ON_THE_APEX else aim.ball(state, side)
    return Candidate(Intent.BREAK, stroke, target)


def break_candidates(state: GameState, spec: TableSpec, side: float) -> list[Candidate]:
    """The practised breaks (:data:`BREAK_CHOICES`) from ``side`` of the kitchen."""
    target = state.balls_on[0]
    return [
        Candidate(
            Intent.BREAK,
            break_stroke(state, spec, speed, side, offset=offset, spin=spin),
            target,
        )
        for offset, spin, speed in BREAK_CHOICES
    ]
