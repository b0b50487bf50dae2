"""The lag at the table (GEN-3): both lag balls where they wait, each player's lag stroke
set in turn (A's, then B's), both struck together; or no lag, the breaker agreed; and the
lag winner's choice of who breaks."""

from __future__ import annotations

from rules import CUE, Player
from rules.geometry import Point
from sim.physics.simulate import CueAction
from sim.physics.simulators.simulator import ShotRequest
from sim.play.game import ComputerPlayer, GameError
from sim.play.table.turn import DEFAULT_POWER, Aim, InFlight, Stage, Table

LAG_STARTS = (0.25, 0.75)  # across the width: A's lag ball on the left, B's on the right


class LagTable:
    """The lag strokes set so far (A's, then B's): where, the stroke, and who struck it
    (None: a person)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.strokes: list[tuple[Point, CueAction, ComputerPlayer | None]] = []

    def balls(self) -> list[Point]:
        """Both lag balls where they wait: A's on the left, B's on the right."""
        geometry = self.table.game.setup.spec.geometry
        return [(geometry.width * side, geometry.head_string_y * 0.5) for side in LAG_STARTS]

    def start(self) -> Point:
        """Where the lag ball of the player to lag now waits."""
        return self.balls()[len(self.strokes) % 2]

    def strike(self, by: ComputerPlayer | None = None) -> None:
        """This player's lag stroke as aimed; once both are set, both go to the physics."""
        table = self.table
        start = self.start()
        table.powers[table.shooter] = table.aim.power  # each lags with their own touch
        self.strokes.append((start, table.aim.action(), by))
        if len(self.strokes) < 2:
            table.aim = Aim(direction=90.0, power=table.powers.get(Player.B, DEFAULT_POWER))
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
        table.game.choose_breaker(breaker)
        table.save()
        table.reset_turn()
