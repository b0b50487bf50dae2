"""The lag at the table (GEN-3): both lag balls where they wait, each player's lag stroke
set in turn (A's, then B's), both struck together; or no lag, the breaker agreed; and the
lag winner's choice of who breaks, made with both balls still where they stopped."""

from __future__ import annotations

from rules import CUE, MatchPhase, Player
from rules.geometry import Point
from sim.physics.simulate import CueAction
from sim.physics.simulators.simulator import ShotRequest
from sim.physics.table import TableSize
from sim.play.game import ComputerPlayer, GameError, LagRecord
from sim.play.table.turn import Aim, InFlight, Stage, Table

LAG_STARTS = (0.25, 0.75)  # across the width: A's lag ball on the left, B's on the right
# A lag stroke's power before the player sets their own: straight up the table from the
# lag spot, the ball touches the foot cushion once and comes back to stop 0.35-0.45 m
# short of the head cushion (measured with the physics: tests/play/test_lag_table.py),
# a fair lag the player can still better. The meter's default (about 3 m/s) touches the
# foot cushion twice on every size.
LAG_POWER = {TableSize.NINE_FOOT: 0.2, TableSize.EIGHT_FOOT: 0.185, TableSize.SEVEN_FOOT: 0.175}
# B's default a touch softer (a few centimetres shorter), so two players who both keep
# the default do not tie the lag for ever (mirrored strokes tie, GEN-2).
SOFTER_B = 0.003


class LagTable:
    """The lag strokes set so far (A's, then B's): where, the stroke, and who struck it
    (None: a person)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.strokes: list[tuple[Point, CueAction, ComputerPlayer | None]] = []
        # Each player's power at their last lag stroke (a lag played again starts from
        # it); kept apart from their power in the rack, which a lag's soft pace is not.
        self.powers: dict[Player, float] = {}

    def aim(self, player: Player) -> Aim:
        """The lag stroke ``player`` starts from: straight up the table at their last lag
        power, or a fair lag's on this table."""
        default = LAG_POWER[self.table.game.setup.table] - (SOFTER_B if player is Player.B else 0)
        return Aim(direction=90.0, power=self.powers.get(player, default))

    def balls(self) -> list[Point]:
        """Both lag balls where they wait: A's on the left, B's on the right."""
        geometry = self.table.game.setup.spec.geometry
        return [(geometry.width * side, geometry.head_string_y * 0.5) for side in LAG_STARTS]

    def stored(self) -> Player | None:
        """The player whose lag stroke is set and waits for the other's (None: none is)."""
        return Player.A if len(self.strokes) == 1 else None

    def rests(self) -> dict[Player, Point]:
        """While the lag winner chooses who breaks: where each player's lag ball stopped
        (one pocketed or off the table is left out), so both see who was nearer. Empty
        at any other time."""
        if self.table.game.phase is not MatchPhase.BREAKER_CHOICE:
            return {}
        record = self.table.game.current.record
        if not isinstance(record, LagRecord):
            return {}
        shots = zip(Player, record.simulated, strict=True)
        rests = {player: shot.after.get(CUE) for player, shot in shots}
        return {player: rest for player, rest in rests.items() if rest is not None}

    def start(self) -> Point:
        """Where the lag ball of the player to lag now waits."""
        return self.balls()[len(self.strokes) % 2]

    def strike(self, by: ComputerPlayer | None = None) -> None:
        """This player's lag stroke as aimed; once both are set, both go to the physics."""
        table = self.table
        start = self.start()
        self.powers[table.shooter] = table.aim.power  # each lags with their own touch
        self.strokes.append((start, table.aim.action(), by))
        if len(self.strokes) < 2:
            table.aim = self.aim(Player.B)
            return
        (start_a, action_a, _), (start_b, action_b, _) = self.strokes
        kind = table.game.setup.table.value
        requests = (
            ShotRequest.of(kind, {CUE: start_a}, action_a),
            ShotRequest.of(kind, {CUE: start_b}, action_b),
        )
        jobs = tuple(table.worker.shoot(request) for request in requests)
        table.waiting = InFlight(None, requests, jobs, table.clock())

    def skip(self, breaker: Player) -> None:
        """No lag: the players agree who breaks (GEN-3)."""
        if self.table.stage is not Stage.LAG:
            raise GameError("the lag is over")
        self.table.game.start(breaker)
        self.strokes = []
        self.table.save()
        self.table.reset_turn()

    def choose_breaker(self, breaker: Player) -> None:
        """The lag winner chooses who breaks (the computer takes the break itself)."""
        table = self.table
        if table.stage is not Stage.BREAKER:
            raise GameError("there is no breaker to choose")
        if table.computers.get(table.shooter) is not None and breaker is not table.shooter:
            raise GameError("the computer won the lag: it chooses who breaks")
        # The referee's line says the choice ("Bob breaks."), not the lag's "chooses who
        # breaks", which stayed up through the break.
        table.spoken = table.game.choose_breaker(breaker)
        table.save()
        table.reset_turn()
