"""A ruling as data: what the referee decided about one shot, one choice or a stalemate."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self

import attrs

from rules.facts import BallId
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


@attrs.frozen
class RulingExtras:
    """Base of a game's own ruling fields (:mod:`rules.extras`). Subclasses are attrs
    frozen classes.

    The class also says what a scenario (scenarios/FORMAT.md) may say of its game beyond
    what every game's may, so the scenario reader and the conformance runner name no
    game: ``expect_keys``, the ``expect`` keys its rulings answer (:meth:`observed`);
    ``unanswered_keys``, the shared ones they never do; ``before_keys``, the game's own
    state in ``before`` (fields of the game's state of those names); ``signed_scores``,
    scores may go below zero; ``kitchen_only``, the cue ball is only ever in hand in the
    kitchen. (What every ruling of the game keeps is the state's to check:
    ``GameState.inconsistencies``.)"""

    expect_keys: ClassVar[tuple[str, ...]] = ()
    unanswered_keys: ClassVar[tuple[str, ...]] = ()
    before_keys: ClassVar[tuple[str, ...]] = ()
    signed_scores: ClassVar[bool] = False
    kitchen_only: ClassVar[bool] = False

    def observed(self, ruling: Ruling) -> dict[str, Any]:
        """Each of ``expect_keys`` for ``ruling``, in the form the scenario reader gives
        its expectation."""
        return {}

    def to_json(self, ruling: Ruling) -> dict[str, Any]:
        """The fields in JSON types, merged into the ruling's object in a game file;
        ``ruling`` is the ruling they belong to, for fields derived from it."""
        raise NotImplementedError

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The fields back from the ruling's JSON object (keys it does not know ignored)."""
        raise NotImplementedError


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
    ``extras``: what the game alone decides, of its class's ``extras_type`` (8-ball's
    groups, :class:`rules.groups.EightBallExtras`); None in a game with none.
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
    extras: RulingExtras | None = None

    @property
    def foul(self) -> bool:
        return bool(self.foul_codes)

    def explain(self) -> str:
        """The reasons, one a line, as a referee would say them."""
        return "\n".join(str(reason) for reason in self.reasons)
