"""Positions: a table to play from (the game, the table, the balls, whose turn, and the cue
ball in hand and where it may go), as a practice table sets one up, a drill starts from,
or a saved game had before any of its shots (:func:`position_before`).

A :class:`Position` is an immutable value that is always one the table can play: made
with a ball overlapping or touching another, off the table, into or touching a cushion,
over a pocket, not a ball of its game, or a cue ball in hand outside where it may go
(off the bed, past the head string), it raises :class:`PositionError`, naming the ball
(``balls.3``) and saying what is wrong. The checks are the ones that exist: the
referee's for overlaps and the cue ball in hand (``Positions.overlapping``,
``GameState.placement_problem``), and the physics' for what pooltool cannot take
(``settle_positions``: a ball touching a cushion would pass through it, touching balls
would collide at once), so a position plays exactly as it is written. A ball the cue
ball is not may hang in a pocket's mouth, past the cushions' nose lines, as shots leave
them.

Its file (``sim.store.positionfile``, docs/POSITION.md) and its diagram
(``sim.media.diagram.position_diagram``) are the floors above.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from rules import (
    CUE,
    BallInHand,
    GameState,
    Options,
    Phase,
    Player,
    Positions,
    game_kind,
)
from rules.errors import FormatError
from rules.geometry import distance
from rules.positions import ball_number
from sim.physics.simulate import PLACEMENT_GAP, PlacementError, settle_positions
from sim.physics.table import TableSize, TableSpec, table_spec
from sim.play.game import Game, Node, ShotRecord


class PositionError(FormatError):
    """A position the table cannot play; ``key`` names the part (``balls.3``, ``game``)."""


def _name(ball: str) -> str:
    return "the cue ball" if ball == CUE else f"the {ball}"


def _extras(extras: Mapping[str, Any]) -> Mapping[str, Any]:
    """A copy of its own (a dict, which pickles: a set-up record is sent to processes)."""
    return dict(extras)


@attrs.frozen(kw_only=True)
class Position:
    """``balls``: every ball on the table. ``in_hand``: the cue ball is in hand, behind
    the head string or anywhere (GEN-5, GEN-6); then ``balls`` may hold it where it waits
    to be placed (a spot it may go), or not. ``extras``: what the position keeps of its
    game alone, in JSON types under the game's ``position_keys``, which the game reads
    and writes itself (8-ball's ``groups``, EB-7: left out, the table is open)."""

    game: str
    table: TableSize = attrs.field(converter=TableSize)
    balls: Positions = attrs.field(converter=Positions)
    turn: Player = attrs.field(converter=Player)
    in_hand: BallInHand | None = attrs.field(
        default=None, converter=attrs.converters.optional(BallInHand)
    )
    extras: Mapping[str, Any] = attrs.field(factory=dict, converter=_extras, hash=False)

    def __attrs_post_init__(self) -> None:
        try:
            kind = game_kind(self.game)
        except ValueError as error:
            raise PositionError("game", str(error)) from None
        for key in self.extras:
            if key not in kind.position_keys:
                raise PositionError(key, f"a {kind.display_name} position has no {key}")
        allowed = {CUE, *kind.object_balls}
        for ball in self.balls:
            if ball not in allowed:
                raise PositionError(
                    f"balls.{ball}",
                    f"not a ball of {kind.display_name} (cue, 1 to {len(allowed) - 1})",
                )
        if CUE not in self.balls and self.in_hand is None:
            raise PositionError("balls.cue", "missing: the cue ball is on the table or in hand")
        radius, contact = self.spec.ball_radius, Options().contact_epsilon
        for ball, point in self.balls.items():
            other = self.balls.without(ball).overlapping(point, radius, contact)
            if other is not None:
                raise PositionError(f"balls.{ball}", f"{_name(ball)} overlaps {_name(other)}")
        self._check_physics()
        state = self.state()  # the game's own extras read, or refused by key
        if self.in_hand is not None and CUE in self.balls:
            problem = state.placement_problem(self.balls[CUE])
            if problem is not None:
                raise PositionError("balls.cue", f"the cue ball in hand: {problem.text}")
        self._check_touching()

    def _check_physics(self) -> None:
        """What pooltool cannot take, found by the physics' own placing of each ball alone:
        off the table, over a pocket, into a cushion or touching one. (A ball may hang
        in a pocket's mouth past the cushions' nose lines, as a shot can leave one.)"""
        for ball, point in self.balls.items():
            try:
                alone = settle_positions(self.spec, {ball: point})
            except PlacementError as error:
                said = str(error)  # in the physics' words: "ball 3: (x, y) is off the table"
                if said.startswith(f"ball {ball}: "):
                    said = f"{_name(ball)} at {said.removeprefix(f'ball {ball}: ')}"
                elif said.startswith(f"ball {ball} "):
                    said = f"{_name(ball)} {said.removeprefix(f'ball {ball} ')}"
                raise PositionError(f"balls.{ball}", said) from None
            if alone[ball] != point:
                raise PositionError(
                    f"balls.{ball}",
                    f"{_name(ball)} touches a cushion: pooltool would let it pass through; "
                    f"keep it {PLACEMENT_GAP * 1e3:.1f} mm off",
                )

    def _check_touching(self) -> None:
        """Balls touching each other, found by the physics' placing of them together."""
        settled = settle_positions(self.spec, self.balls)
        for ball in sorted(self.balls, key=ball_number):
            if settled[ball] == self.balls[ball]:
                continue
            reach = 2 * self.spec.ball_radius + PLACEMENT_GAP
            other = next(
                b
                for b, p in self.balls.items()
                if b != ball and distance(p, self.balls[ball]) < reach
            )
            raise PositionError(
                f"balls.{ball}",
                f"{_name(ball)} touches {_name(other)}: pooltool would have them collide "
                f"at once; keep them {PLACEMENT_GAP * 1e3:.1f} mm apart",
            )

    @property
    def spec(self) -> TableSpec:
        return table_spec(self.table)

    @property
    def kind(self) -> type[GameState]:
        return game_kind(self.game)

    def state(self, options: Options | None = None) -> GameState:
        """The referee's state for play from here (the rules ``options``, default WPA):
        ``turn`` to shoot, the cue ball in hand as the position says, no foul counted."""
        state = self.kind(
            balls=self.balls.without(CUE) if self.in_hand is not None else self.balls,
            table=self.spec.geometry,
            options=options or Options(),
            shooter=self.turn,
            breaker=self.turn,
            phase=Phase.PLAY,
            ball_in_hand=self.in_hand,
        )
        try:
            return state.with_position_extras(self.extras)
        except FormatError as error:
            raise PositionError(error.key, error.problem) from None


def position_before(game: Game, node: Node) -> Position:
    """The position before the shot of ``node`` (a shot of ``game``'s tree): the balls
    where the physics had them at the stroke (the cue ball in hand where its player put
    it, unless that was a foul: then not placed), whose turn it was and the cue ball in
    hand from the match of that moment."""
    if not isinstance(node.record, ShotRecord) or node.parent is None:
        raise ValueError("a position is taken before a shot")
    state = node.parent.match.rack
    assert state is not None
    balls = Positions(node.record.simulated.before)
    if state.ball_in_hand is not None and state.placement_problem(balls[CUE]) is not None:
        balls = balls.without(CUE)  # placed where a foul is called: in hand, not placed
    return Position(
        game=game.setup.game,
        table=game.setup.table,
        balls=balls,
        turn=state.shooter,
        in_hand=state.ball_in_hand,
        extras=state.position_extras(),
    )
