"""The built-in shot picker: a simple player for either seat, used by self-play; its
placements and its ball to play at without a pot are also the computer opponent's
(:mod:`sim.play.opponent`), and both find their pots with the pot geometry
(:mod:`sim.play.geometry.pots`).

The player aims at a ball on (the lowest ball, which the rotation games require hitting
first, or in 8-ball a ball of the shooter's group or the 8: ``GameState.balls_on``), finds the
pockets it can be sent into by ghost-ball geometry (the cue ball's centre must reach the
point 2R behind the object ball on the line from the pocket), keeps the pots whose paths
are clear and whose cut is not too thin, calls the easiest, and strokes it with a speed
for the distance and a little spin, changing the spin or the pace when a simulation of
the stroke shows the cue ball following a ball in. Where one ball wins the rack
wherever the others lie (``GameState.winning_ball``: the 9 in 9-ball), it also looks
for a combination of the lowest ball into it, and takes one that is not much harder
than the plain pot: a win is worth more than a shot more. With no pot it plays a declared
safety (10-ball) or a firm hit on the lowest ball, around a blocker or off one rail.
With the cue ball in hand it places it for a straight-in shot. Every choice it makes is
random only through the ``random.Random`` it is given, so the same seed plays the same
games.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

import attrs

from rules import CUE, BallId, Call, Choice, Declaration, GameState, Phase
from rules.geometry import Point, TableGeometry, distance
from sim.physics.simulate import CueAction, PlacementError, clear_of_cushions, simulate_shot
from sim.physics.table import TableSpec, pocket_mouths
from sim.play.game import Stroke
from sim.play.geometry.pots import Pot, combinations, one_rail, path_clear, pots, rail_lines, unit

BREAK_SPEED = 8.5
# The picker's own margin, metres: its spots for the cue ball in hand keep this much room
# beyond what the rules allow, from every ball and from the head string.
PLACEMENT_ROOM = 1e-3
# A pot that wins the rack is taken over the plain pot of the lowest ball up to this
# many times its difficulty.
WIN_WEIGHT = 2.0


def pots_on(state: GameState, cue: Point, spec: TableSpec) -> list[Pot]:
    """Every pot from ``cue`` of a ball the shooter may hit first (``balls_on``: the
    lowest, or in 8-ball the shooter's group, EB-8), easiest first."""
    found = [pot for ball in state.balls_on for pot in pots(state.balls, cue, ball, spec)]
    return sorted(found, key=lambda pot: pot.difficulty)


def best_pot(state: GameState, cue: Point, spec: TableSpec) -> Pot | None:
    """The pot to play from ``cue``: the easiest of a ball on, or a combination of the
    lowest ball into the ball that wins the rack (the 9 in 9-ball) when it is less than
    :data:`WIN_WEIGHT` times as hard."""
    target = state.lowest
    assert target is not None
    plain = pots_on(state, cue, spec)
    winner = state.winning_ball
    if winner is not None and winner != target and target in state.balls_on:
        combos = combinations(state.balls, cue, target, winner, spec)
        if combos and (not plain or combos[0].difficulty < WIN_WEIGHT * plain[0].difficulty):
            return combos[0]
    return plain[0] if plain else None


def speed_for(cue: Point, pot: Pot) -> float:
    """A speed that gets the ball to the pocket with some to spare (stick speed, m/s)."""
    return min(6.0, 0.9 + 0.9 * (distance(cue, pot.ghost) + pot.carry))


def placements(state: GameState, spec: TableSpec, rng: random.Random) -> list[Point]:
    """Candidate spots for the cue ball in hand, best first: straight-in lines on the
    balls on (taken in turn, one pocket's line of each at a time), then a grid over the
    allowed area."""
    geometry = spec.geometry
    lines: list[list[Point]] = []
    for target in state.balls_on:
        ball = state.balls[target]
        spots: list[Point] = []
        for mouth in pocket_mouths(spec).values():
            away = unit(mouth, ball)
            for back in (0.25, 0.4, 0.6):
                spots.append((ball[0] + back * away[0], ball[1] + back * away[1]))
        lines.append(spots)
    candidates = [spot for turn in zip(*lines, strict=True) for spot in turn]
    xs = [
        geometry.ball_radius + 0.05 + i * (geometry.width - 0.1 - geometry.ball_diameter) / 6
        for i in range(7)
    ]
    ys = [
        geometry.ball_radius + 0.05 + i * (geometry.length - 0.1 - geometry.ball_diameter) / 12
        for i in range(13)
    ]
    grid = [(x, y) for x in xs for y in ys]
    rng.shuffle(grid)
    return [p for p in candidates + grid if placeable(state, geometry, p)]


def placeable(state: GameState, geometry: TableGeometry, point: Point) -> bool:
    """A spot the rules take with no foul (GEN-5, GEN-6), with the picker's room to spare,
    and clear of the cushions for the physics."""
    return (
        clear_of_cushions(geometry, point)
        and state.placement_problem(point, room=PLACEMENT_ROOM) is None
    )


def choose_stroke(state: GameState, spec: TableSpec, rng: random.Random) -> Stroke:
    """The picker's stroke for the shot ``state`` is waiting for."""
    assert state.balls_on, "a rack in play has an object ball"
    target = state.balls_on[0]
    if state.phase is Phase.BREAK:
        geometry = spec.geometry
        spot = (
            geometry.width / 2 + rng.uniform(-0.25, 0.25),
            geometry.head_string_y * rng.uniform(0.5, 0.9),
        )
        aim = _aim(spot, state.balls[target]) + rng.uniform(-0.3, 0.3)
        action = CueAction(BREAK_SPEED + rng.uniform(-0.5, 0.5), aim, b=-0.1)
        return Stroke(action=action, placement=spot)

    placement: Point | None = None
    if state.ball_in_hand is not None:
        spots = placements(state, spec, rng)
        diameter = spec.geometry.ball_diameter

        def open_to(spot: Point) -> bool:  # a straight line to some ball on
            return any(
                path_clear(
                    spot,
                    state.balls[on],
                    [p for b, p in state.balls.items() if b not in (on, CUE)],
                    diameter,
                )
                for on in state.balls_on
            )

        scored = [
            (
                min((p.difficulty for p in pots_on(state, spot, spec)), default=99.0)
                + (0.0 if open_to(spot) else 50.0),
                spot,
            )
            for spot in spots[:40]
        ]
        placement = min(scored, key=lambda item: item[0])[1] if scored else None
    cue = placement if placement is not None else state.balls[CUE]
    pot = best_pot(state, cue, spec)
    if pot is not None:
        aim = _aim(cue, pot.ghost) + rng.gauss(0.0, 0.15)
        action = CueAction(
            speed=speed_for(cue, pot) * rng.uniform(0.9, 1.15),
            aim=aim,
            a=0.0,  # side spin squirts the cue ball off the line: none for a pot
            b=rng.uniform(-0.35, 0.05),  # stun or draw: following a pot is how one scratches
        )
        action = keep_the_cue_ball_up(spec, {**state.balls, CUE: cue}, action, pot.ball)
        call = Call(ball=pot.ball, pocket=pot.pocket) if state.calls_allowed else None
        return Stroke(action=action, placement=placement, call=call)
    # No pot: hit the lowest ball (a ball on) first, around a blocker or by a kick off one
    # rail, and firmly enough to drive balls to a rail.
    target = nearest_open(state, cue, spec)
    action = CueAction(
        speed=rng.uniform(2.0, 3.0), aim=_contact_aim(state, spec, cue, target, rng), b=-0.2
    )
    return Stroke(
        action=action,
        placement=placement,
        declaration=Declaration.SAFETY if Declaration.SAFETY in state.legal_declarations else None,
    )


# Other ways to play the same pot when the first would scratch: more draw, follow, stun,
# softer (a player thinks about where the cue ball goes, not only the object ball).
SCRATCH_ESCAPES = ((-0.5, 1.0), (0.3, 1.0), (0.0, 1.0), (-0.2, 0.8))


def nearest_open(state: GameState, cue: Point, spec: TableSpec) -> BallId:
    """The ball on to play at without a pot: the only one (the lowest), or in 8-ball the
    nearest one the cue ball can reach in a straight line (else the nearest). From the
    kitchen, of those past the head string where there is one (``balls_to_play``)."""
    on = state.balls_to_play or state.balls_on
    if len(on) == 1:
        return on[0]
    diameter = spec.geometry.ball_diameter

    def reach(ball: BallId) -> tuple[bool, float]:
        others = [p for b, p in state.balls.items() if b not in (ball, CUE)]
        clear = path_clear(cue, state.balls[ball], others, diameter)
        return (not clear, distance(cue, state.balls[ball]))

    return min(on, key=reach)


def keep_the_cue_ball_up(
    spec: TableSpec, positions: Mapping[BallId, Point], action: CueAction, target: BallId
) -> CueAction:
    """``action``, or one of its :data:`SCRATCH_ESCAPES` variants (spin, pace) after
    which the cue ball stays on the table, found by simulating them: the first that
    also pots ``target``, else the first that keeps the cue ball up; ``action`` itself
    when every one scratches."""
    kept_up: CueAction | None = None
    for b, pace in ((action.b, 1.0), *SCRATCH_ESCAPES):
        candidate = attrs.evolve(action, b=b, speed=action.speed * pace)
        try:
            after = simulate_shot(spec, positions, candidate).after
        except PlacementError:
            break
        if CUE in after:
            if target not in after:
                return candidate
            kept_up = kept_up or candidate
    return kept_up or action


def _contact_aim(
    state: GameState, spec: TableSpec, cue: Point, target: BallId, rng: random.Random
) -> float:
    """An aim at which the cue ball meets ``target`` first: the fullest hit whose path is
    clear of the other balls, else a one-rail kick (the target mirrored in the line the
    cue ball's centre bounces off), else straight at it."""
    geometry = spec.geometry
    diameter = geometry.ball_diameter
    ball = state.balls[target]
    others = [p for b, p in state.balls.items() if b not in (target, CUE)]
    straight = _aim(cue, ball)
    for offset in sorted((i * 0.1 for i in range(-9, 10)), key=abs):  # fraction of a ball
        angle = math.radians(straight + 90)
        contact = (
            ball[0] + offset * diameter * math.cos(angle),
            ball[1] + offset * diameter * math.sin(angle),
        )
        if path_clear(cue, contact, others, diameter):
            return _aim(cue, contact) + rng.gauss(0.0, 0.3)
    kicks = []
    for axis, line in rail_lines(geometry):
        path = one_rail(cue, ball, axis, line)
        if path is None:
            continue
        image, bounce = path
        if not (0 <= bounce[0] <= geometry.width and 0 <= bounce[1] <= geometry.length):
            continue
        if path_clear(cue, bounce, [*others, ball], diameter) and path_clear(
            bounce, ball, others, diameter
        ):
            kicks.append((distance(cue, bounce) + distance(bounce, ball), _aim(cue, image)))
    if kicks:
        return min(kicks)[1] + rng.gauss(0.0, 0.3)
    return straight


def choose_choice(state: GameState, spec: TableSpec, rng: random.Random) -> Choice:
    """The incoming player's option: play on when a pot is there, else hand it back or
    take the better of what is offered."""
    choices = state.legal_choices
    if Choice.REPLAY in choices and rng.random() < 0.5:
        return Choice.REPLAY
    makeable = CUE in state.balls and bool(pots_on(state, state.balls[CUE], spec))
    if Choice.SHOOT in choices and makeable:
        return Choice.SHOOT
    preferences = (Choice.PASS, Choice.SPOT_LOWEST, Choice.ANYWHERE, Choice.KITCHEN, Choice.SHOOT)
    for preferred in preferences:
        if preferred in choices:
            return preferred
    return sorted(choices)[0]


def _aim(origin: Point, target: Point) -> float:
    return math.degrees(math.atan2(target[1] - origin[1], target[0] - origin[0])) % 360.0
