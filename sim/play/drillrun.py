"""A drill at the table: the turn's logic of a drill session, which the window drives
(no Panda3D here, as in :mod:`sim.play.table.controller`).

A :class:`DrillRun` sets the practice table up at the drill's position (a set-up step of
the practice game, free play: :meth:`sim.play.game.Game.set_up`), watches the shots the
player plays from there, and once an attempt is over (:func:`sim.play.drill.attempt_over`)
scores it, says it in plain words, and puts every ball back for the next attempt with
the attempt's first stroke loaded, as take it again does: each attempt stays in the game
as a branch from the set-up, never lost. The attempt's shots are the line from the
set-up to the step in play, so a shot taken back inside an attempt simply is not in it.

When the session's attempts are used it is finished: ``on_finished`` keeps it (the
window writes the player's history) and says what the history holds; :meth:`try_again`
starts a new session from the same set-up.
"""

from __future__ import annotations

from collections.abc import Callable

from rules import CUE
from sim.play.drill import AttemptScore, Drill, DrillSession, attempt_over, score_attempt
from sim.play.game import Node, SetupRecord, ShotRecord
from sim.play.table.controller import TableController
from sim.play.table.turn import Aids, Stage

BUSY = (Stage.SIMULATING, Stage.WATCH)


class DrillRun:
    """A drill session on ``controller``'s practice table, for ``player``.
    ``on_finished``: keeps a finished session and returns lines to show of the player's
    history (best and last sessions of this drill)."""

    def __init__(
        self,
        drill: Drill,
        controller: TableController,
        player: str,
        on_finished: Callable[[DrillSession], list[str]] | None = None,
    ) -> None:
        self.drill = drill
        self.controller = controller
        self.player = player
        self.on_finished = on_finished
        self.session = DrillSession(drill)
        self.last: AttemptScore | None = None
        self.history: list[str] = []  # what on_finished said of the player's history
        self._scored: set[int] = set()  # the last shot of each attempt scored (node ids)
        game = controller.game
        record = game.current.record
        if not (isinstance(record, SetupRecord) and record.balls == drill.position.balls):
            game.set_up(drill.position)  # unless the table was just set up at the drill
        self.start: Node = game.current
        # The drill decides the aids: the tracking lines and the hint, each allowed or off.
        controller.aids = Aids(tracking=drill.tracking, hint=drill.hint, ruled_by="this drill")
        controller.tracking = controller.tracking and drill.tracking  # off now if barred
        self._at_start()

    # -- what it says -----------------------------------------------------------------------

    @property
    def headline(self) -> str:
        """ "Drill: Stop shot · attempt 2 of 5 · best so far 18 of 20"."""
        session = self.session
        parts = [f"Drill: {self.drill.title}"]
        best = session.best
        if session.finished:
            parts.append("finished")
            if best is not None:
                parts.append(f"best {best.points} of {best.max_points}")
        else:
            parts.append(f"attempt {session.attempt} of {self.drill.attempts}")
            if best is not None:
                parts.append(f"best so far {best.points} of {best.max_points}")
        return " · ".join(parts)

    @property
    def goal_words(self) -> str:
        shots = f" in {self.drill.shots} shots" if self.drill.shots > 1 else ""
        return self.drill.goal.words + shots

    @property
    def aids_words(self) -> str:
        """The aids the drill switches off, in a sentence ("Tracking lines and the hint
        are off in this drill."; empty when it allows both)."""
        drill = self.drill
        off = [
            aid
            for aid, on in (("tracking lines", drill.tracking), ("the hint", drill.hint))
            if not on
        ]
        if not off:
            return ""
        verb = "is" if off == ["the hint"] else "are"
        words = " and ".join(off)
        return f"{words[:1].upper()}{words[1:]} {verb} off in this drill."

    # -- every frame ------------------------------------------------------------------------

    def attempt_nodes(self) -> list[Node]:
        """The shots of the attempt in play: the line from the set-up to the step in play
        (empty when the table is at the set-up, or away from it: another line opened, or
        the table set up again by hand)."""
        current = self.controller.game.current
        if not self.start.is_on_line_to(current):
            return []
        path = current.path()
        after = path[path.index(self.start) + 1 :]
        if any(isinstance(node.record, SetupRecord) for node in after):
            return []  # the table set up again by hand: no longer the drill's
        return [node for node in after if isinstance(node.record, ShotRecord)]

    def update(self) -> AttemptScore | None:
        """Score an attempt that is over once its balls have stopped (once), and put the
        balls back for the next; the score, or None when nothing was scored."""
        if self.controller.stage in BUSY or self.session.finished:
            return None
        nodes = self.attempt_nodes()
        if not nodes or id(nodes[-1]) in self._scored:
            return None
        records = [node.record for node in nodes]
        assert all(isinstance(r, ShotRecord) for r in records)
        shots = [r.simulated.facts for r in records if isinstance(r, ShotRecord)]
        if not attempt_over(self.drill, shots):
            self.controller.message = (
                f"Attempt {self.session.attempt}: shot {len(shots)} of up to "
                f"{self.drill.shots} done; shoot on."
            )
            return None
        last = records[-1]
        assert isinstance(last, ShotRecord)
        score = score_attempt(self.drill, shots, last.simulated.after.get(CUE), last.start.get(CUE))
        self._scored.add(id(nodes[-1]))
        number = self.session.attempt
        self.session = self.session.record(score)
        self.last = score
        said = f"Attempt {number}: {score.words} {score.verdict}"
        if self.session.finished:
            self.history = self.on_finished(self.session) if self.on_finished else []
            self.controller.message = f"{said} The drill is over."
        else:
            self.controller.branches.play_from(nodes[0])  # the balls back, its first stroke loaded
            self.controller.message = f"{said} The balls are back for attempt {number + 1}."
        return score

    def try_again(self) -> None:
        """A new session of the same drill, from its set-up."""
        if self.controller.stage in BUSY:
            return
        self.session = DrillSession(self.drill)
        self.last = None
        self.history = []
        self._at_start()

    def _at_start(self) -> None:
        """The table at the drill's set-up, aimed at the first ball to pocket, and the
        drill's instruction said, with the aids it switches off."""
        self.controller.branches.continue_from(self.start)
        pots = self.drill.goal.pots
        if pots:
            self.controller.aim_at(self.drill.position.balls[pots[0].ball])
        self.controller.message = f"{self.drill.instruction} {self.aids_words}".rstrip()
