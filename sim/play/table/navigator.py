"""Take it again, and branches: the table put back before any shot of any line (its stroke
loaded, the shot kept as a branch), played on from any step, a line made the main one or
deleted. The game keeps the tree (:mod:`sim.play.branches`); here the table follows it."""

from __future__ import annotations

from rules import BallId
from sim.play.game import GameError, Node, ShotRecord, Stroke, TimeFoulRecord, shot_name
from sim.play.table.lag import LagTable
from sim.play.table.practice import SetupSession
from sim.play.table.turn import Table

Orientation = tuple[float, float, float, float]


class BranchNavigator:
    """How each ball was turned before each shot watched here, for the shot taken back;
    and the moves through the game's tree."""

    def __init__(self, table: Table, session: SetupSession, lag: LagTable) -> None:
        self.table = table
        self.session = session
        self.lag = lag
        self.turned_before: dict[ShotRecord, dict[BallId, Orientation]] = {}

    @property
    def can_take_back(self) -> bool:
        """There is a shot to take back, and none is with the physics."""
        return self.table.waiting is None and self.table.game.last_turn() is not None

    def take_back(self) -> ShotRecord | TimeFoulRecord:
        """Take it again: every ball back where it was before the last shot, the match as
        it was then (whose turn, ball in hand, fouls, score), and that shot's stroke
        loaded (aim, power, tip, elevation, the cue ball's placement, the call), ready to
        change and shoot again; a shot playing out is stopped. The shot taken back stays
        in the game as a branch: the next one played becomes the main line. A time foul
        (the shot clock ran out, GEN-17) is taken back the same way, with no stroke to
        load. Returns what was taken back."""
        table = self.table
        if table.waiting is not None:
            raise GameError("the shot is still in the physics: take it back once it plays")
        self.session.table = None  # the set-up in progress is dropped: the shot comes back
        node = self.person_last_shot() or table.game.last_turn()
        if node is None:
            raise GameError("there is no shot to take back")
        table.retakes += 1
        self.return_before(node, main=True)
        record = node.record
        assert isinstance(record, ShotRecord | TimeFoulRecord)
        name = table.game.setup.name(record.shooter)
        what = "Shot" if isinstance(record, ShotRecord) else "Time foul"
        table.message = (
            f"{what} taken back: {name} to shoot it again. The first try is kept as a branch."
        )
        return record

    def person_last_shot(self) -> Node | None:
        """With a computer seated, taking back its shots would only see them played
        again: the take back goes to the last shot a person played (None: no such
        shot in the line, or no computer)."""
        computers = self.table.computers
        if not computers:
            return None
        node: Node | None = self.table.game.current
        while node is not None:
            record = node.record
            if isinstance(record, ShotRecord | TimeFoulRecord) and record.shooter not in computers:
                return node
            node = node.parent
        return None

    def play_from(self, node: Node, stroke: Stroke | None = None) -> None:
        """Play from a replayed shot (``node``, a shot or a time foul of any line of the
        game): the table at the position before it, the match as it was then, and its
        stroke loaded (or ``stroke``: the review's best option, to try it). What is played
        from here is a new branch; the line played before stays as it was."""
        record = node.record
        if not isinstance(record, ShotRecord | TimeFoulRecord):
            raise GameError("play from a shot")
        if self.table.waiting is not None:
            raise GameError("a shot is still in the physics")
        self.return_before(node, main=False, stroke=stroke)
        name = self.table.game.setup.name(record.shooter)
        where = (
            shot_name(node) if isinstance(record, ShotRecord) else f"rack {record.rack}'s time foul"
        )
        again = "to try the review's best option" if stroke else "to shoot it again"
        self.table.message = (
            f"Playing from {where}: {name} {again}. "
            "What is played now is a new branch; the shots played before stay as they were."
        )

    def continue_from(self, node: Node) -> None:
        """Play on from after ``node``'s step (the end of a branch, or any step before)."""
        table = self.table
        if table.waiting is not None:
            raise GameError("a shot is still in the physics")
        table.game.go_to(node)  # first: it refuses a step of another game, changing nothing
        self.leave_the_table_as_it_is()
        table.arrived()

    def promote_to_main(self, node: Node) -> None:
        """The line through ``node`` becomes the main line (and is autosaved so)."""
        self.table.game.promote_to_main(node)
        self.table.save()

    def delete(self, node: Node) -> None:
        """Delete ``node`` and every step after it (never the line in play); autosaved."""
        self.table.game.delete(node)
        self.table.save()

    def return_before(self, node: Node, *, main: bool, stroke: Stroke | None = None) -> None:
        table = self.table
        record = node.record
        assert node.parent is not None and isinstance(record, ShotRecord | TimeFoulRecord)
        table.game.go_to(node.parent, main=main)  # first, as in continue_from
        self.leave_the_table_as_it_is()
        if isinstance(record, TimeFoulRecord):  # no stroke was played: none to load
            table.arrived(stroke)
            return
        turned = self.turned_before.get(record)
        if turned is not None:
            table.orientations = dict(turned)
        table.arrived(stroke or record.stroke)

    def leave_the_table_as_it_is(self) -> None:
        """What was going on at the table stops: a set-up, a shot playing out, a lag."""
        self.session.table = None
        self.table.watching = None
        self.lag.strokes = []
