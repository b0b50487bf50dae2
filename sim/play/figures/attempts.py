"""The pots a player attempted, and the safeties that left no shot: the figures that
measure a shot on the table's plan (its pockets' mouths), with the pot geometry the
players play with (:mod:`sim.play.geometry.pots`).

- **pot attempted**: every shot but a break, a push-out and a declared safety. The pot
  attempted is the called ball and pocket; in a game without calls (or a shot without
  one) it is inferred: the ball on (the lowest object ball on the table) and, if it went
  down, its pocket; if not, the pocket its path pointed at most nearly (the pocket
  whose direction from the ball's start is nearest the direction it rolled), and for a
  ball that never moved, the pocket with the thinnest cut from the cue ball. So in a
  game without calls a safety played without a declaration counts as a miss.
  **Made**: that ball in that pocket (inferred: in any pocket), without a foul.
  **Cut angle**: between the cue ball's path to the ghost ball and the object ball's to
  the pocket's mouth; **distance**: the cue ball's path to the ghost ball plus the
  object ball's to the mouth (metres).
- **left no shot** (of a declared safety): the incoming player was not given ball in
  hand and had no straight pot of the ball on: no pocket the pot geometry
  (:func:`sim.play.geometry.pots.pots`) finds open, cut up to its limit and both paths
  clear of other balls.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import attrs

from rules import CUE, Declaration, Player
from rules.facts import Pocketing
from rules.figures import Step
from rules.geometry import Point
from sim.physics.table import TableSpec
from sim.play.geometry.pots import angle, cut_and_distance, pots, unit

NOT_POTS = (Declaration.PUSH_OUT, Declaration.SAFETY)  # declarations that are no pot attempted


@attrs.frozen
class PotAttempt:
    """One pot attempted (see the module): by whom, what, how hard, and whether made;
    ``cue_after``: where the cue ball stopped after a pot made (None: missed, or the cue
    ball went down)."""

    player: str
    ball: str
    pocket: str
    called: bool
    cut: float  # degrees
    distance: float  # metres
    made: bool
    cue_after: Point | None = None


def left_no_shot(shot: Step, spec: TableSpec) -> bool:
    """After ``shot``, the other player is at the table without ball in hand and has no
    straight pot of the ball on (see the module)."""
    if shot.foul or shot.rack_over or shot.in_hand:
        return False
    if shot.next_shooter == shot.shooter:
        return False
    positions = shot.positions
    if CUE not in positions:
        return False
    on = _ball_on(positions)
    if on is None:
        return False
    return not pots(positions, positions[CUE], on, spec)


def _ball_on(positions: Mapping[str, Point]) -> str | None:
    """The lowest object ball on the table (the rotation games' ball on)."""
    balls = sorted((ball for ball in positions if ball != CUE), key=lambda ball: (len(ball), ball))
    return balls[0] if balls else None


def pot_attempted(
    shot: Step,
    is_break: bool,
    names: tuple[str, str],
    mouths: Mapping[str, Point],
    radius: float,
) -> PotAttempt | None:
    """The pot ``shot`` attempted (see the module), or None: a break, a push-out, a
    declared safety, or no ball to attempt. ``names``: A's and B's."""
    if is_break or shot.declaration in NOT_POTS:
        return None
    start = shot.start
    if CUE not in start:
        return None
    went = {fact.ball: fact.pocket.value for fact in shot.facts if isinstance(fact, Pocketing)}
    call = shot.call
    if call is not None:
        ball, pocket = call.ball, call.pocket.value
        made = went.get(ball) == pocket and not shot.foul
    else:
        on = _ball_on(start)
        if on is None:
            return None
        ball = on
        pocket = went.get(ball) or _pocket_meant(
            start[CUE], start[ball], shot.after.get(ball), mouths, radius
        )
        made = ball in went and not shot.foul
    if ball not in start or pocket not in mouths:
        return None
    cut, distance = cut_and_distance(start[CUE], start[ball], mouths[pocket], radius)
    cue_after = shot.after[CUE] if made and CUE in shot.after else None
    return PotAttempt(
        player=names[0] if shot.shooter is Player.A else names[1],
        ball=ball,
        pocket=pocket,
        called=call is not None,
        cut=cut,
        distance=distance,
        made=made,
        cue_after=cue_after,
    )


def _pocket_meant(
    cue: Point, ball: Point, rest: Point | None, mouths: Mapping[str, Point], radius: float
) -> str:
    """The pocket a ball that did not go down was nearest to going in: the one its path
    pointed at most nearly, or (it never moved) the one with the thinnest cut."""
    if rest is not None and math.dist(ball, rest) > radius / 10:
        rolled = unit(ball, rest)
        return min(mouths, key=lambda p: angle(rolled, unit(ball, mouths[p])))
    return min(mouths, key=lambda p: cut_and_distance(cue, ball, mouths[p], radius)[0])
