"""What a game decides about one shot or one choice, before the shared rules (GEN-15 foul
count and warning, rack end, next breaker) make it a :class:`~rules.ruling.Ruling`."""

from __future__ import annotations

from typing import Any

import attrs

from rules.extras import RulingExtras
from rules.facts import BallId
from rules.positions import Positions
from rules.ruling import Reason
from rules.terms import BallInHand, Choice, FoulCode, Phase, Player, Tally


@attrs.frozen(kw_only=True)
class Verdict:
    """A game's judgement of one shot, before the shared rules (GEN-15 foul count and
    warning, rack end, next breaker) turn it into a :class:`Ruling`.

    ``legal_shot``: the shot clears the shooter's foul count (GEN-8; B-5 for a push out).
    ``next_breaker``: set only where a rule, not the break format, decides it.
    ``choice_rule``: the rule that gives the ``choices`` (the game's own by default).
    ``applied_choice``: the only possible choice, applied by the verdict itself, and
    ``choice_spotted`` the balls it placed. ``extras``: the game's own part, as the
    :class:`Ruling` reports it.
    """

    fouls: tuple[FoulCode, ...] = ()
    inning_ends: bool
    ball_in_hand: BallInHand | None = None
    choices: frozenset[Choice] = frozenset()
    choice_rule: str | None = None
    phase: Phase = Phase.PLAY
    positions: Positions
    spotted: Positions = attrs.field(factory=Positions)
    pocketed: tuple[BallId, ...] = ()
    score: Tally
    legal_shot: bool
    winner: Player | None = None
    rerack: bool = False
    next_breaker: Player | None = None
    applied_choice: Choice | None = None
    choice_spotted: Positions = attrs.field(factory=Positions)
    reasons: tuple[Reason, ...] = ()
    next_turn: tuple[Reason, ...] = ()
    extras: RulingExtras | None = None

    def noting(self, *reasons: Reason, **changes: Any) -> Verdict:
        """This verdict with ``changes`` and more ``reasons``."""
        return attrs.evolve(self, reasons=(*self.reasons, *reasons), **changes)

    def then(self, *turn: Reason, **changes: Any) -> Verdict:
        """This verdict with ``changes``; ``turn`` says what the next turn is (or, with
        ``rerack``, how the rack is played again), and is dropped when a win or a forfeit
        on fouls ends the rack on the shot."""
        return attrs.evolve(self, next_turn=(*self.next_turn, *turn), **changes)

    def with_extras(self, **changes: Any) -> Verdict:
        """This verdict with ``changes`` to the game's own part."""
        assert self.extras is not None
        return attrs.evolve(self, extras=attrs.evolve(self.extras, **changes))


@attrs.frozen(kw_only=True)
class Effect:
    """What a choice does to the table and the turn."""

    next_shooter: Player
    positions: Positions
    ball_in_hand: BallInHand | None = None
    spotted: Positions = attrs.field(factory=Positions)
    reason: Reason
    # A re-rack (EB-18): the rack ends with no winner and this player breaks the next.
    next_breaker: Player | None = None
