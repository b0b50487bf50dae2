"""The shot clock of a turn (GEN-17, B-18): when the turn started, paused while the player
is away from the table (the menu, the replay), the extension asked for, and the referee's
time foul called the moment it runs out."""

from __future__ import annotations

from sim.play.game import GameError
from sim.play.table.turn import STROKE_STAGES, Table


class ShotClock:
    """Restarted at each turn; the seconds a stroke took are read from it, and what is
    left of the limit the match's options set."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.started = table.clock()
        self.paused_at: float | None = None
        self.extension = False  # a shot-clock extension asked for (B-18)

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def restart(self) -> None:
        """A new turn: the clock from now, no extension; behind the menu it starts paused."""
        self.started = self.table.clock()
        self.extension = False
        if self.paused_at is not None:
            self.paused_at = self.started

    def elapsed(self) -> float:
        """Seconds on the clock since the turn started, standing still while paused."""
        now = self.paused_at if self.paused_at is not None else self.table.clock()
        return now - self.started

    def left(self) -> float | None:
        """Seconds left on the shot clock (negative once it has run out), or None."""
        state = self.table.state
        if state is None or state.options.shot_clock_s is None or not state.shot_clock_on:
            return None
        # The computer is exempt: it thinks in its own process, for as long as its level
        # takes, and no person waits on a clock for it.
        if self.table.stage not in STROKE_STAGES or self.table.computer_level is not None:
            return None
        limit = state.options.shot_clock_s
        if self.extension and state.options.shot_clock_extension_s is not None:
            limit += state.options.shot_clock_extension_s
        return limit - self.elapsed()

    def frame(self) -> None:
        """Once a frame: the clock run out before the stroke is a foul the referee calls
        at once (GEN-17), with no stroke; the next player's turn starts its own clock.
        While the physics is still loading no stroke can play out, so the clock waits for
        it: it starts from full once the physics is ready."""
        if not self.table.worker.ready and self.paused_at is None:
            self.started = self.table.clock()
            return
        left = self.left()
        if left is None or left > 0 or self.paused:
            return
        self.table.spoke(self.table.game.time_foul(extension=self.extension))

    def pause(self) -> None:
        """The shot clock stops while the player is away from the table (menu, replay)."""
        if self.paused_at is None:
            self.paused_at = self.table.clock()

    def resume(self) -> None:
        if self.paused_at is not None:
            self.started += self.table.clock() - self.paused_at
            self.paused_at = None

    def take_extension(self) -> None:
        """B-18: more time on this shot, if the player has an extension left."""
        if self.table.stage not in STROKE_STAGES:
            raise GameError("an extension is taken before a stroke")
        state = self.table.state
        if state is None or state.options.shot_clock_extension_s is None:
            raise GameError("there are no shot-clock extensions in this match")
        if not state.shot_clock_on:  # B-18: off in a hill-hill deciding rack
            raise GameError("the shot clock is off in this rack: no extension is needed")
        if self.extension:
            raise GameError("this shot's extension is taken already")
        if state.extensions_used[state.shooter] >= state.options.shot_clock_extensions_per_rack:
            raise GameError("no extension left in this rack")
        self.extension = True
