"""Match play: the lag (GEN-2), who breaks (GEN-3, B-11), racks to a race of N.

A :class:`Match` is an immutable value like a game state. It holds the rack in play and
starts the next one when a rack ends: won (the winner's count goes up), or re-racked after
a stalemate (GEN-16) or a rotation tie (ROT-10), with the breaker the ruling names.
Racking itself is physics' business (the frozen triangle of TB-3 / ROT-3 needs a
clearance in the simulator), so the match asks ``rack_up`` for each new rack's balls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum

import attrs

from rules.errors import IllegalAction
from rules.facts import BallId
from rules.games import game_kind
from rules.geometry import Point, TableGeometry
from rules.lag import LagResult, LagShot, judge_lag
from rules.options import Options
from rules.ruling import Ruling
from rules.shot import Shot
from rules.state import GameState
from rules.terms import Choice, Player, Tally

# The object balls of a new rack, given its number (1, 2, ...) and its breaker.
RackUp = Callable[[int, Player], Mapping[BallId, Point]]


class MatchPhase(StrEnum):
    LAG = "lag"
    BREAKER_CHOICE = "breaker-choice"  # B-11 ``chooses``: the lag winner picks the breaker
    RACK = "rack"
    OVER = "over"


def _positive(_instance: object, _attribute: attrs.Attribute[int], value: int) -> None:
    if value < 1:
        raise ValueError(f"race_to must be at least 1, got {value}")


def _game(_instance: object, _attribute: attrs.Attribute[str], value: str) -> None:
    game_kind(value)  # raises for a game the referee does not know


@attrs.frozen(kw_only=True)
class Match:
    """A race to ``race_to`` racks of ``game``; ``rack`` is the rack in play (or the
    last one, once the match is over)."""

    game: str = attrs.field(validator=_game)
    race_to: int = attrs.field(validator=_positive)
    rack_up: RackUp = attrs.field(eq=False)
    table: TableGeometry = attrs.field(factory=TableGeometry)
    options: Options = attrs.field(factory=Options)
    racks_won: Tally = attrs.field(factory=Tally)
    rack: GameState | None = None
    rack_number: int = 0
    lag_winner: Player | None = None

    @property
    def phase(self) -> MatchPhase:
        if self.rack is None:
            return MatchPhase.LAG if self.lag_winner is None else MatchPhase.BREAKER_CHOICE
        return MatchPhase.OVER if self.outcome() is not None else MatchPhase.RACK

    def outcome(self) -> Player | None:
        """The match winner, once a player has won ``race_to`` racks."""
        return next((p for p in Player if self.racks_won[p] >= self.race_to), None)

    # -- the lag and the first break (GEN-2, GEN-3) ----------------------------------

    def judge_lag(self, first: LagShot, second: LagShot) -> LagResult:
        self._require(MatchPhase.LAG)
        return judge_lag(first, second, self.table, self.options)

    def lag(self, first: LagShot, second: LagShot) -> Match:
        """After the lag: replayed (unchanged), the winner to choose the breaker, or (B-11
        ``lag_winner_action = breaks``) the first rack under way."""
        winner = self.judge_lag(first, second).winner
        if winner is None:
            return self
        if self.options.lag_winner_action == "breaks":
            return self._next_rack(winner, self.racks_won, Tally())
        return attrs.evolve(self, lag_winner=winner)

    def choose_breaker(self, breaker: Player) -> Match:
        """GEN-3: the lag winner chooses who breaks the first rack."""
        self._require(MatchPhase.BREAKER_CHOICE)
        return self._next_rack(breaker, self.racks_won, Tally())

    def start(self, breaker: Player) -> Match:
        """The first rack without a lag (the players agreed who breaks)."""
        self._require(MatchPhase.LAG)
        return self._next_rack(breaker, self.racks_won, Tally())

    # -- the rack in play -----------------------------------------------------------

    def rule(self, shot: Shot) -> Ruling:
        return self._current().rule(shot)

    def rule_choice(self, choice: Choice | str) -> Ruling:
        return self._current().rule_choice(choice)

    def rule_stalemate(self, *, agreed: bool = False) -> Ruling:
        return self._current().rule_stalemate(agreed=agreed)

    def apply(self, ruling: Ruling) -> Match:
        """The match after ``ruling``; when it ends the rack, the next rack is racked."""
        rack = self._current().apply(ruling)
        result = rack.outcome()
        if result is None:
            return attrs.evolve(self, rack=rack)
        won = self.racks_won.plus(result.winner, 1) if result.winner else self.racks_won
        over = attrs.evolve(self, rack=rack, racks_won=won)
        if over.outcome() is not None:
            return over
        return over._next_rack(result.next_breaker, won, self._carried_fouls(rack))

    def push(self, shot: Shot) -> Match:
        return self.apply(self.rule(shot))

    def choose(self, choice: Choice | str) -> Match:
        return self.apply(self.rule_choice(choice))

    def declare_stalemate(self, *, agreed: bool = False) -> Match:
        return self.apply(self.rule_stalemate(agreed=agreed))

    # -- helpers ----------------------------------------------------------------------

    def _require(self, phase: MatchPhase) -> None:
        if self.phase is not phase:
            raise IllegalAction(f"the match is at {self.phase.value}, not {phase.value}")

    def _current(self) -> GameState:
        self._require(MatchPhase.RACK)
        assert self.rack is not None
        return self.rack

    def _carried_fouls(self, rack: GameState) -> Tally:
        """GEN-15 / B-5 ``foul_count_scope``: counts reset each rack by default; under
        ``match`` they carry over, except a count that has just lost a rack."""
        if self.options.foul_count_scope == "rack":
            return Tally()
        limit = rack.foul_limit
        return Tally(*(0 if rack.fouls[p] >= limit else rack.fouls[p] for p in Player))

    def _next_rack(self, breaker: Player, won: Tally, fouls: Tally) -> Match:
        number = self.rack_number + 1
        hill_hill = won.a == won.b == self.race_to - 1  # B-18: the deciding rack
        rack = game_kind(self.game).new_rack(
            self.rack_up(number, breaker),
            breaker=breaker,
            table=self.table,
            options=self.options,
            fouls=fouls,
            hill_hill=hill_hill,
        )
        return attrs.evolve(self, rack=rack, rack_number=number, racks_won=won)
