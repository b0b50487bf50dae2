"""The resting aim simulated ahead, and its tracking lines: while the aim rests, the
stroke goes to the physics anyway (so that a strike moves at once); with tracking on,
that preview's shot is read into :class:`sim.physics.tracking.TrackingLines` (the cue
ball's path and the first object ball's) for the window to draw. Any change of the
stroke drops them at once; the next preview brings new ones."""

from __future__ import annotations

from sim.physics.simulators.simulator import ShotRequest
from sim.physics.tracking import TrackingLines, tracking_lines
from sim.play.game import GameError
from sim.play.table.turn import Stage, Table

PREVIEW_AFTER = 0.15  # seconds the aim must rest before it is simulated ahead


class Preview:
    """When the aim last changed, which resting aim was previewed, the request the
    tracking lines come from and the lines, once back."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.changed = table.clock()
        self.previewed = -1.0
        self.tracked: TrackingLines | None = None
        self.request: ShotRequest | None = None  # the preview the lines come from
        # Seconds from the aim coming to rest (PREVIEW_AFTER after its last change) to
        # its tracking lines, for each set shown (the bench and the report read them).
        self.latencies: list[float] = []

    @property
    def lines(self) -> TrackingLines | None:
        """The tracking lines to draw now: on, aiming, and the preview of exactly this
        stroke back (None otherwise: nothing is drawn)."""
        if not self.table.tracking or self.table.stage is not Stage.AIM:
            return None
        return self.tracked

    @property
    def pending(self) -> bool:
        """Tracking lines are on their way: on, aiming, none yet, and the aim still to
        rest or its preview still in the physics (False if the stroke cannot be played,
        as it is never previewed)."""
        table = self.table
        if not table.tracking or table.stage is not Stage.AIM or self.tracked is not None:
            return False
        return self.previewed != self.changed or self.request is not None

    def touch(self) -> None:
        """The stroke changed: the lines were the old stroke's, gone the moment it changes."""
        self.changed = self.table.clock()
        self.drop()

    def drop(self) -> None:
        self.tracked = None
        self.request = None

    def frame(self, *, considered: bool) -> None:
        """Once a frame: a resting aim simulated ahead (once per resting aim; the
        computer's once it is ``considered``, its stroke), and its lines read when back."""
        table = self.table
        resting = table.clock() - self.changed >= PREVIEW_AFTER
        fresh = self.changed != self.previewed
        if table.stage is Stage.AIM and table.worker.ready and resting and fresh and considered:
            self.previewed = self.changed
            self.simulate()
        self.track()

    def simulate(self) -> None:
        table = self.table
        try:
            prepared = table.game.prepare(table.stroke())
        except (GameError, ValueError):
            return
        request = ShotRequest.of(
            table.game.setup.table.value, prepared.start, prepared.stroke.action
        )
        table.worker.preview(request)
        self.request = request

    def track(self) -> None:
        """Read the preview of the resting stroke into tracking lines, once it is back."""
        table = self.table
        if not table.tracking or self.tracked is not None or self.request is None:
            return
        result = table.worker.preview_result()
        if result is None or result.request != self.request:
            return  # not back yet (or an older stroke's, already dropped)
        self.tracked = tracking_lines(result.shot)
        self.latencies.append(table.clock() - self.changed - PREVIEW_AFTER)
