"""Free play on a practice table: the referee off.

A practice game is a small subclass of the game it practises, as python-chess's variants
are: the same balls, table and rack, with ``refereed = False`` and its own judgement.
Nothing is a foul, the same player shoots again, nothing is called or declared, a
pocketed object ball stays down, a pocketed (or off-table) cue ball comes back in hand
anywhere, and the rack never ends by itself (the player sets the table up again). The
rulings stay data, each with plain reasons a player reads ("the 3 drops in the foot-left
corner"), so the HUD, the replay and the game file treat them as any other.

    kind = practice_kind(TenBall)       # cached: one class per game
    state = practice_state(position_state)
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from rules.analysis import ShotReading
from rules.errors import IllegalAction
from rules.facts import CUE, BallId, OffTable, Pocketing
from rules.positions import Positions
from rules.ruling import Reason, Ruling
from rules.shot import Shot
from rules.state import GameState
from rules.terms import BallInHand, Phase, Player, Tally
from rules.verdict import Verdict
from rules.words import pocket_name

# The tag of a practice reason: not a rule of the reference, the table's own words.
PRACTICE = "practice"


def _drops(shot: Shot) -> tuple[Reason, ...]:
    """What left the table, in the order it went, in a player's words."""
    said = []
    for fact in shot.facts:
        if not isinstance(fact, Pocketing | OffTable):
            continue
        name = "the cue ball" if fact.ball == CUE else f"the {fact.ball}"
        if isinstance(fact, Pocketing):
            said.append(Reason(PRACTICE, f"{name} drops in the {pocket_name(fact.pocket)}"))
        else:
            said.append(Reason(PRACTICE, f"{name} leaves the table"))
    return tuple(said)


class _Practice(GameState):
    """The free-play rules every practice game shares (mixed in before the game)."""

    refereed: ClassVar[bool] = False
    calls_shots: ClassVar[bool] = False
    has_push_out: ClassVar[bool] = False
    keeps_score: ClassVar[bool] = False

    @property
    def winning_ball(self) -> BallId | None:
        return None  # no ball wins: the rack never ends by itself

    def status_words(self) -> tuple[str, ...]:
        return ()  # nothing to hit first, no ball that wins

    def player_words(self, player: Player) -> str | None:
        return None  # no group, no score

    @property
    def foul_limit_applies(self) -> bool:
        return False  # nothing is a foul, so no count and no warning

    def _score_reason(self, score: Tally, scored: tuple[BallId, ...]) -> Reason | None:
        return None  # no score is kept

    def _check_declarations(self, shot: Shot, start: Positions) -> None:
        if shot.call is not None or shot.declaration is not None:
            raise IllegalAction("the referee is off: nothing is called or declared in practice")

    def _verdict(self, shot: Shot, reading: ShotReading, resting: Positions) -> Verdict:
        reasons = list(_drops(shot))
        if not reasons:
            reasons.append(Reason(PRACTICE, "no ball drops"))
        if reading.scratched:
            reasons.append(Reason(PRACTICE, "the cue ball comes back in hand, anywhere"))
        return Verdict(
            inning_ends=False,
            ball_in_hand=BallInHand.ANYWHERE if reading.scratched else None,
            phase=Phase.PLAY,
            positions=resting.without(CUE) if reading.scratched else resting,
            pocketed=reading.gone,
            score=self.score,
            legal_shot=True,
            reasons=tuple(reasons),
        )

    def rule_stalemate(self, *, agreed: bool = False) -> Ruling:
        raise IllegalAction("the referee is off: set the table up again instead")


# One free-play class per game, made at its first use (a class per call would make
# states of the same game compare unequal).
_VARIANTS: dict[type[GameState], type[GameState]] = {}


def practice_kind(kind: type[GameState]) -> type[GameState]:
    """The free-play variant of the game ``kind`` (one class per game, cached)."""
    if not kind.refereed:
        return kind
    if kind not in _VARIANTS:
        _VARIANTS[kind] = attrs.frozen(kw_only=True)(
            type(
                f"{kind.__name__}Practice",
                (_Practice, kind),
                {"__doc__": f"{kind.display_name} with the referee off: free play."},
            )
        )
    return _VARIANTS[kind]


def practice_state(state: GameState) -> GameState:
    """``state``'s table, turn and cue ball in hand, played with the referee off: the cue
    ball in hand goes anywhere, no foul is counted, no choice waits."""
    kind = practice_kind(type(state))
    return kind(
        balls=state.balls,
        table=state.table,
        options=state.options,
        shooter=state.shooter,
        breaker=state.shooter,
        phase=Phase.PLAY,
        ball_in_hand=BallInHand.ANYWHERE if state.ball_in_hand is not None else None,
    )
