"""The table as a player sets it up on the practice table, before shooting from it.

A :class:`TableSetup` is the set-up in progress: the balls where the player has put them,
whose turn, the cue ball in hand, and whether the referee rules from here. Every change
(move a ball, take one off, bring one back, rack, clear) is checked by building the
:class:`~sim.play.position.Position` it would make, so a ball goes only where the
physics and the position's strict checks accept it; a refused change raises
:class:`~sim.play.game.GameError`, one line naming the ball and why, and changes
nothing. :meth:`TableSetup.position` is what :meth:`Game.set_up` plays from.
"""

from __future__ import annotations

import attrs

from rules import CUE, BallId, BallInHand, Player, Positions
from rules.errors import FormatError
from rules.geometry import Point
from rules.positions import ball_number
from rules.spotting import spot_ball
from sim.physics.simulate import settle_positions
from sim.play.game import GameError, GameSetup
from sim.play.position import Position

# Where the cue ball goes when it comes back or the table is racked: the kitchen's
# middle, as a player puts it down for a break (as shares of the width and head string).
CUE_SPOT = (0.5, 0.5)
# Where a ball brought back without a spot is tried, after its spot (GEN-4): across the
# table in rows from the foot, as shares of the width and the length.
_TRIED = [(fx, fy) for fy in (0.8, 0.65, 0.5, 0.35, 0.2) for fx in (0.5, 0.3, 0.7, 0.15, 0.85)]


def _name(ball: BallId) -> str:
    return "the cue ball" if ball == CUE else f"the {ball}"


@attrs.define
class TableSetup:
    """The set-up in progress on a practice table of ``setup``'s game and table."""

    setup: GameSetup
    balls: dict[BallId, Point]
    turn: Player = Player.A
    in_hand_choice: BallInHand | None = None  # with the referee on: as the player chose
    refereed: bool = False
    racks: int = 0  # racks made here: each rack button press shuffles another
    racked: dict[BallId, Point] | None = None  # the object balls as last racked

    @property
    def breaking(self) -> bool:
        """The rack is as racked, the referee on and the cue ball in hand in the kitchen:
        what is shot from here is a break, refereed as one."""
        objects = {ball: point for ball, point in self.balls.items() if ball != CUE}
        return (
            self.refereed
            and self.in_hand is BallInHand.KITCHEN
            and self.racked is not None
            and objects == self.racked
        )

    @classmethod
    def from_position(cls, setup: GameSetup, position: Position, *, refereed: bool) -> TableSetup:
        return cls(
            setup=setup,
            balls=dict(position.balls),
            turn=position.turn,
            in_hand_choice=position.in_hand,
            refereed=refereed,
        )

    # -- what it is ---------------------------------------------------------------------

    @property
    def in_hand(self) -> BallInHand | None:
        """The cue ball in hand: with the referee off, anywhere when it is off the table
        (never otherwise); with it on, as the player chose."""
        return self._in_hand_with(self.balls)

    def _in_hand_with(self, balls: dict[BallId, Point]) -> BallInHand | None:
        if not self.refereed:
            return BallInHand.ANYWHERE if CUE not in balls else None
        return self.in_hand_choice

    @property
    def off_table(self) -> tuple[BallId, ...]:
        """The balls of the game not on the table (the tray the HUD brings them from),
        the cue ball first."""
        every = (CUE, *self.setup.kind.object_balls)
        return tuple(ball for ball in every if ball not in self.balls)

    def position(self) -> Position:
        """The position set up; GameError (one line) if the table cannot play it."""
        return self._checked(self.balls, self.in_hand, what="the table")

    # -- changes --------------------------------------------------------------------------

    def move(self, ball: BallId, point: Point) -> None:
        """``ball`` (on the table or brought back) to ``point``."""
        self._known(ball)
        balls = {**self.balls, ball: point}
        where = f"{_name(ball)} at ({point[0]:.3f}, {point[1]:.3f})"
        # The ball put down is the one said to overlap (the position's own check names
        # whichever ball comes first).
        radius = self.setup.spec.ball_radius
        other = (
            Positions(self.balls)
            .without(ball)
            .overlapping(point, radius, self.setup.options.contact_epsilon)
        )
        if other is not None:
            raise GameError(f"{where}: {_name(ball)} overlaps {_name(other)}")
        self._checked(balls, self._in_hand_with(balls), what=where)
        self.balls = balls

    def remove(self, ball: BallId) -> None:
        """Take ``ball`` off the table (to the tray)."""
        self._known(ball)
        if ball not in self.balls:
            raise GameError(f"{_name(ball)} is not on the table")
        balls = {b: p for b, p in self.balls.items() if b != ball}
        if ball == CUE and self.refereed and self.in_hand_choice is None:
            self.in_hand_choice = BallInHand.ANYWHERE  # off the table, so in hand
        self.balls = balls

    def add(self, ball: BallId, point: Point | None = None) -> Point:
        """Bring ``ball`` back from the tray, at ``point`` or (None) at its spot, or the
        first free place near it. Returns where it went."""
        self._known(ball)
        if ball in self.balls:
            raise GameError(f"{_name(ball)} is on the table already: drag it to move it")
        if point is not None:
            self.move(ball, point)
            return point
        geometry = self.setup.spec.geometry
        if ball == CUE:
            first = (geometry.width * CUE_SPOT[0], geometry.head_string_y * CUE_SPOT[1])
        else:
            others = Positions(self.balls)
            first = spot_ball(geometry, others, self.setup.options)
        tried = [first, *((geometry.width * fx, geometry.length * fy) for fx, fy in _TRIED)]
        for candidate in tried:
            try:
                self.move(ball, candidate)
            except GameError:
                continue
            return candidate
        raise GameError(f"no room for {_name(ball)}: drag a ball aside first")

    def rack(self) -> None:
        """The game's rack (``GameSetup.rack_up``, another shuffle each time) and the cue
        ball in the kitchen; with the referee on, in hand there, to break."""
        self.racks += 1
        spec = self.setup.spec
        geometry = spec.geometry
        balls = dict(self.setup.rack_up(self.racks, self.turn))
        balls[CUE] = (geometry.width * CUE_SPOT[0], geometry.head_string_y * CUE_SPOT[1])
        # The rack's balls are as close as the physics takes them: where it puts them
        # (by a rounding's width) is where a position may have them.
        balls = settle_positions(spec, balls)
        in_hand = BallInHand.KITCHEN if self.refereed else None
        self._checked(balls, in_hand, what="the rack")
        self.balls = balls
        self.racked = {ball: point for ball, point in balls.items() if ball != CUE}
        if self.refereed:
            self.in_hand_choice = in_hand

    def clear(self) -> None:
        """Every object ball off; the cue ball stays (or comes back) in the kitchen."""
        geometry = self.setup.spec.geometry
        cue = self.balls.get(CUE) or (
            geometry.width * CUE_SPOT[0],
            geometry.head_string_y * CUE_SPOT[1],
        )
        self.balls = {CUE: cue}

    def set_referee(self, on: bool) -> None:
        """The referee on (the game's rules from here) or off (free play)."""
        if on and not self.refereed:
            self.in_hand_choice = None if CUE in self.balls else BallInHand.ANYWHERE
            objects = {ball: point for ball, point in self.balls.items() if ball != CUE}
            cue = self.balls.get(CUE)
            kitchen = self.setup.spec.geometry.in_kitchen
            if objects == self.racked and (cue is None or kitchen(cue)):
                self.in_hand_choice = BallInHand.KITCHEN  # a rack to break
        self.refereed = on

    def set_turn(self, player: Player) -> None:
        if not self.refereed:
            raise GameError("whose turn it is matters with the referee on: switch it on first")
        self.turn = Player(player)

    def set_in_hand(self, in_hand: BallInHand | None) -> None:
        """With the referee on: the cue ball in hand in the kitchen, anywhere, or not."""
        if not self.refereed:
            raise GameError("with the referee off the cue ball is in hand only off the table")
        in_hand = None if in_hand is None else BallInHand(in_hand)
        self._checked(self.balls, in_hand, what="the cue ball in hand")
        self.in_hand_choice = in_hand

    # -- checks -------------------------------------------------------------------------

    def _known(self, ball: BallId) -> None:
        if ball != CUE and ball not in self.setup.kind.object_balls:
            balls = self.setup.kind.object_balls
            raise GameError(
                f"there is no {ball!r} in {self.setup.kind.display_name}: "
                f"the balls are the cue ball and {balls[0]} to {balls[-1]}"
            )

    def _checked(
        self, balls: dict[BallId, Point], in_hand: BallInHand | None, *, what: str
    ) -> Position:
        """The position of ``balls``; GameError naming ``what`` otherwise."""
        ordered = dict(sorted(balls.items(), key=lambda item: ball_number(item[0])))
        try:
            return Position(
                game=self.setup.game,
                table=self.setup.table,
                balls=ordered,
                turn=self.turn,
                in_hand=in_hand,
            )
        except FormatError as error:
            raise GameError(f"{what}: {error.problem}") from None
