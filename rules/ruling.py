"""A ruling as data: what the referee decided about one shot, one choice or a stalemate."""

from __future__ import annotations

import attrs

from rules.extras import RulingExtras
from rules.facts import BallId
from rules.groups import Groups, Loss, Target
from rules.positions import Positions
from rules.terms import BallInHand, Choice, FoulCode, Phase, Player, Tally


@attrs.frozen
class Reason:
    """One line of the referee's explanation, tagged with the rule it applies."""

    rule: str
    text: str
    foul: bool = False

    def __str__(self) -> str:
        return f"{'Foul, ' if self.foul else ''}{self.rule}: {self.text}"


@attrs.frozen(kw_only=True)
class Ruling:
    """The referee's decision, and everything the next state is built from.

    ``player``: who shot (or chose). ``foul_codes``: every foul of the shot (GEN-14: one
    penalty). ``next_shooter``: who is at the table next, and chooses when there are
    ``choices`` (offered under ``choice_rule``). ``ball_in_hand``: for the next shot when
    there are no choices.
    ``positions``: the balls on the table after the ruling (a cue ball in hand is absent).
    ``spotted``: the balls this ruling placed on a spot, and where. ``pocketed``: object
    balls that went down (or off) on the shot and stay off. ``fouls``, ``score``: the
    tallies after it; ``warning``: players one foul from losing the rack (GEN-15).
    ``next_breaker``: who breaks the next rack, when the rack is over.
    ``applied_choice``: the incoming player's only possible choice, which the ruling
    applied itself instead of offering it (ROT-15, ROT-16, B-22), and ``choice_spotted``
    the balls that choice placed (part of ``spotted``).
    ``turn``, ``quiet_innings``, ``extensions_used``: bookkeeping for the next state.
    8-ball's (None elsewhere): ``groups`` after the ruling (EB-7), ``groups_taken`` when
    this shot gave them (EB-7, B-35), ``illegal_break``
    (EB-5(c), not in itself a foul) and ``loss``, why the shooter lost the rack (EB-12).
    """

    turn: int
    player: Player
    foul_codes: tuple[FoulCode, ...] = ()
    next_shooter: Player
    ball_in_hand: BallInHand | None = None
    choices: frozenset[Choice] = frozenset()
    choice_rule: str | None = None
    phase: Phase
    positions: Positions
    spotted: Positions = attrs.field(factory=Positions)
    pocketed: tuple[BallId, ...] = ()
    fouls: Tally
    warning: frozenset[Player] = frozenset()
    score: Tally = attrs.field(factory=Tally)
    rack_over: bool = False
    winner: Player | None = None
    rerack: bool = False
    next_breaker: Player | None = None
    applied_choice: Choice | None = None
    choice_spotted: Positions = attrs.field(factory=Positions)
    reasons: tuple[Reason, ...] = ()
    quiet_innings: int = 0
    extensions_used: Tally = attrs.field(factory=Tally)
    groups: Groups | None = None
    groups_taken: bool = False
    illegal_break: bool = False
    loss: Loss | None = None
    extras: RulingExtras | None = None  # the game's own fields (its ``extras_type``)

    @property
    def foul(self) -> bool:
        return bool(self.foul_codes)

    @property
    def target(self) -> Target | None:
        """8-ball: what the next shooter must hit first (FORMAT.md ``target``)."""
        if self.groups is None:
            return None
        return self.groups.target(self.next_shooter, self.positions)

    def explain(self) -> str:
        """The reasons, one a line, as a referee would say them."""
        return "\n".join(str(reason) for reason in self.reasons)
