"""Setting the practice table up by hand: a :class:`~sim.play.table.tablesetup.TableSetup`
in progress (the stage ``SETUP``), begun from the balls as they lie, then shot from (the
set-up a step of the game, :meth:`Game.set_up`) or left unchanged."""

from __future__ import annotations

from rules import CUE, MatchPhase
from sim.play.game import GameError, SetupRecord, Wanted
from sim.play.position import Position
from sim.play.table.tablesetup import TableSetup
from sim.play.table.turn import Stage, Table


class SetupSession:
    """The table being set up by hand on the practice table (``table``: None, not now)."""

    def __init__(self, table: Table) -> None:
        self.owner = table
        self.table: TableSetup | None = None

    def begin(self) -> TableSetup:
        """Set the practice table up by hand, from the balls as they lie (whose turn and
        the cue ball in hand as they are; before any set-up, the game's rack)."""
        owner = self.owner
        if not owner.practice:
            raise GameError("the table is set up by hand on the practice table only")
        if owner.shot_in_play:
            raise GameError("the shot is still playing: set up once the balls stop")
        if self.table is not None:
            return self.table
        state = owner.state
        if state is None or owner.game.phase is MatchPhase.LAG:
            table = TableSetup(setup=owner.game.setup, balls={})
            table.rack()
        else:
            table = TableSetup(
                setup=owner.game.setup,
                balls=owner.balls(),
                turn=state.pending.chooser if state.pending else state.shooter,
                in_hand_choice=state.ball_in_hand,
                refereed=state.refereed,
            )
        self.table = table
        owner.message = ""
        return table

    def current(self) -> TableSetup:
        """The set-up in progress; GameError when the table is not being set up."""
        if self.table is None:
            raise GameError("the table is not being set up: set it up first", Wanted.SET_UP)
        return self.table

    def done(self) -> SetupRecord:
        """Shoot from the table as set up: the set-up becomes the game's next step (take
        it again comes back here), the cue ball in hand waiting where it was put."""
        owner = self.owner
        position = self.current().position()
        table = self.current()
        record = owner.game.set_up(position, refereed=table.refereed, breaking=table.breaking)
        self.table = None
        owner.arrived()
        cue = position.balls.get(CUE)
        waiting = position.in_hand is not None and cue is not None and owner.stage is Stage.PLACE
        if waiting and cue is not None and owner.legal_placement(cue) is None:
            owner.placement = cue
        return record

    @property
    def can_cancel(self) -> bool:
        """A set-up is in progress over a table there was before it (not a new one)."""
        owner = self.owner
        return (
            self.table is not None
            and owner.state is not None
            and owner.game.phase is not MatchPhase.LAG
        )

    def cancel(self) -> None:
        """Leave the set-up unchanged: the table as it was before it."""
        if self.table is None:
            return
        if not self.can_cancel:
            raise GameError(
                "set the table up first: shoot from it when it is ready", Wanted.SET_UP_DONE
            )
        self.table = None
        self.owner.touch_aim()

    def position(self) -> Position:
        """The table as a position (for a position file): the set-up in progress, or the
        balls as they lie with whose turn and the cue ball in hand."""
        if self.table is not None:
            return self.table.position()
        owner = self.owner
        state = owner.state
        if state is None or owner.game.phase is MatchPhase.LAG:
            raise GameError("no position on the table yet")
        try:
            return Position(
                game=owner.game.setup.game,
                table=owner.game.setup.table,
                balls=owner.balls(),
                turn=state.pending.chooser if state.pending else state.shooter,
                in_hand=state.ball_in_hand,
                extras=state.position_extras(),  # 8-ball's groups taken (EB-7)
            )
        except ValueError as error:
            raise GameError(f"this table is no position to save: {error}") from None
