"""The computer at the table, and the hint: at a computer's turn its move is asked of a
:class:`sim.play.opponent.thinker_process.Thinking` (the window's is a process of its
own, so the window keeps drawing while it thinks), its stroke shown on the cue for
:data:`SHOW_COMPUTER_AIM` seconds, then struck; choices, the breaker, its lag and its
stalemate talk are played the same way. The hint asks the same thinker what the person
at the table should play, and loads it."""

from __future__ import annotations

import math
from collections.abc import Callable

from rules import Player
from sim.play.game import ComputerPlayer, GameError, Stroke
from sim.play.opponent.lag import lag_stroke
from sim.play.opponent.player import Kind, Move, ThinkRequest
from sim.play.opponent.thinker_process import Hint, ThinkFailed, Thinking
from sim.play.table.lag import LagTable
from sim.play.table.shotclock import ShotClock
from sim.play.table.talk import StalemateTalk
from sim.play.table.turn import STROKE_STAGES, Aim, Asked, HintShown, Showing, Stage, Table

SHOW_COMPUTER_AIM = 0.8  # seconds the computer's cue rests on its aim before it strokes


class ComputerSeat:
    """The thinker (made at the first decision or hint, then kept), the decision asked of
    it, the computer's stroke on the cue, and the hint loaded for the person."""

    def __init__(
        self,
        table: Table,
        thinker: Callable[[], Thinking],
        talk: StalemateTalk,
        lag: LagTable,
        shot_clock: ShotClock,
    ) -> None:
        self.table = table
        self._new_thinker = thinker
        self.talk = talk
        self.lag = lag
        self.shot_clock = shot_clock
        self.thinker: Thinking | None = None
        self.thinking: Asked | None = None
        self.showing: Showing | None = None
        self.hint: HintShown | None = None

    @property
    def choosing(self) -> bool:
        """The computer is at the table and has not yet loaded the stroke it chose: the
        cue as it lies is no stroke of its, so the window draws none (nor its widget)."""
        return self.table.computer_level is not None and self.showing is None

    def words(self) -> str | None:
        """ "Computer (level 5) is thinking… 4 s" (or the hint's), while it thinks: whole
        seconds, a clock's count. A window at rest draws a frame only when its words
        change (:mod:`sim.app.rest`): tenths drew ten frames a second, most of a core of
        software GL taken from the thinking being counted; seconds draw one or two."""
        asked = self.thinking
        if asked is None:
            return None
        seconds = f"{math.floor(max(0.0, self.table.clock() - asked.since))} s"
        if asked.hint:
            return f"Hint: the computer is thinking… {seconds}"
        return f"{self.table.seat_name(asked.player)} is thinking… {seconds}"

    def start(self) -> Thinking:
        """The thinker, started now if it is not (its process loads the physics before it
        is asked), or started again if it has gone."""
        if self.thinker is None:
            self.thinker = self._new_thinker()
        elif not self.thinker.alive:
            self.thinker = self.thinker.restart()
            self.thinking = None
        return self.thinker

    def ask(self, player: Player, level: str, *, hint: bool) -> None:
        table = self.table
        state = table.state
        assert state is not None
        declined = None if hint else self.talk.declined_at()
        request = ThinkRequest(
            state, table.game.setup.table.value, level, self.entropy(), declined=declined
        )
        job = self.start().ask(request, hint=hint)
        self.thinking = Asked(job, player, hint, table.game.current, table.clock(), declined)

    def entropy(self) -> tuple[int, ...]:
        """The seed of a decision: the match's seed and the step it is made at (and the
        shots taken back, so a computer's shot taken back is thought through again)."""
        game = self.table.game
        return (game.setup.seed, game.match.rack_number, len(game.records), self.table.retakes)

    def ask_hint(self) -> None:
        """What would the computer play here, for the person at the table: asked of the
        thinker; loaded on the cue (aim, power, tip, placement, call) when it answers."""
        table = self.table
        if not table.aids.hint:
            raise table.aids.refuse("the hint")
        if table.stage in (Stage.LAG, Stage.BREAKER):
            raise GameError(
                "the lag has no hint: each player sends a ball off the foot rail to come"
                " back as near the head rail as it can; the hint comes with the first shot"
            )
        if table.stage not in STROKE_STAGES or table.computer_level is not None:
            raise GameError("a hint is for the person at the table, before a stroke")
        if self.thinking is not None and self.thinking.hint:
            return  # already thinking about it
        self.hint = None
        self.ask(table.shooter, "perfect", hint=True)
        table.message = ""

    def frame(self) -> None:
        """Once a frame: the computer's turn played, a step at a time (ask, wait for the
        answer, show the stroke, strike), and a hint collected when it comes."""
        table = self.table
        asked = self.thinking
        if asked is not None and (
            asked.node is not table.game.current or (table.shot_in_play and asked.hint)
        ):
            self.drop()  # the table moved on (taken back, another step)
            asked = None
        if table.waiting is not None or table.watching is not None:
            return
        if asked is not None:
            if not asked.hint and self.shot_clock.paused:
                return  # it plays once the person is back from the menu or the replay
            self.collect(asked)
            return
        level = table.computer_level
        if level is None or self.shot_clock.paused:  # not behind the menu or a replay
            return
        if self.showing is not None:
            self.strike_when_shown()
            return
        self.take_turn(level)

    def collect(self, asked: Asked) -> None:
        """The thinker's answer, once it is back: the hint loaded, or the move played."""
        found = self.start().take(asked.job)
        if found is None:
            return
        self.thinking = None
        if isinstance(found, ThinkFailed):
            self.failed(asked, found)
        elif asked.hint:
            self.load_hint(found.move.plan, found.hint)
        else:
            self.play(found.move, asked)

    def strike_when_shown(self) -> None:
        table = self.table
        assert self.showing is not None
        if table.clock() < self.showing.until:
            return
        stroke, self.showing = self.showing.stroke, None
        try:
            table.strike_stroke(stroke)
        except GameError as error:
            self.give_up(f"{table.seat_name(table.shooter)} could not play its stroke ({error})")

    def take_turn(self, level: str) -> None:
        """The computer's turn at this stage: its lag, who breaks, its answer to a
        stalemate offered, or a decision asked of the thinker."""
        table = self.table
        stage = table.stage
        if stage is Stage.LAG:
            # The lag's seed: the decision's, and which of the two lag strokes it is.
            computer = ComputerPlayer(level, (*self.entropy(), len(self.lag.strokes)))
            table.aim = Aim.of(lag_stroke(table.shooter, computer))
            self.lag.strike(by=computer)
            table.message = (
                f"{table.seat_name(table.shooter)} lagged: a plain stroke up the table at a "
                "lag's pace, with its level's touch"
            )
        elif stage is Stage.BREAKER:  # the break is worth having: it takes it
            self.lag.choose_breaker(table.shooter)
        elif stage is Stage.OFFER:  # the seat became the computer's with an offer open
            offer = self.talk.pending
            assert offer is not None
            self.talk.offer = None
            self.talk.answer_by_judgement(offer)
        else:
            self.ask(table.shooter, level, hint=False)

    def play(self, move: Move, asked: Asked) -> None:
        table = self.table
        level = table.computers.get(asked.player)
        if level is None:
            return  # the seat became a person's meanwhile
        if move.choice is not None:
            by = ComputerPlayer(level, self.entropy())
            table.spoke(table.game.choose(move.choice, by=by))
            return
        if move.kind is Kind.STALEMATE:
            self.talk.computer_offers(asked.player)
            return
        assert move.stroke is not None  # every move but a choice or a stalemate strikes
        computer = ComputerPlayer(level, self.entropy(), declined=asked.declined)
        stroke = move.played_by(computer)
        table.load(stroke)
        self.showing = Showing(stroke, table.clock() + SHOW_COMPUTER_AIM)

    def load_hint(self, plan: Stroke | None, hint: Hint | None) -> None:
        table = self.table
        if plan is None or hint is None or table.stage not in STROKE_STAGES:
            table.message = f"Hint: {hint.words}" if hint is not None else ""
            return
        table.load(plan)
        self.hint = HintShown(hint.words, hint.cue_after, hint.cue_path)
        table.message = f"Hint: {hint.words}"

    def failed(self, asked: Asked, failed: ThinkFailed) -> None:
        if asked.hint:
            self.table.message = (
                f"no hint: the computer could not think it through ({failed.message})"
            )
            return
        self.give_up(f"{self.table.seat_name(asked.player)} could not decide ({failed.message})")

    def give_up(self, why: str) -> None:
        """The computer cannot play on: its seat goes to a person, who is told why."""
        table = self.table
        player = table.shooter
        table.computers.pop(player, None)
        self.showing = None
        table.message = f"{why}: {table.game.setup.name(player)} plays the seat now"

    def drop(self) -> None:
        """The decision asked is forgotten, and the stroke on the cue with it."""
        if self.thinking is not None and self.thinker is not None:
            self.thinker.forget(self.thinking.job)
        self.thinking = None
        self.showing = None
