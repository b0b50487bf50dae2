"""The words of the game: players, phases, ball in hand, choices, declarations, fouls.

Their string values are those of the scenario format (FORMAT.md) and REFERENCE.md.
"""

from __future__ import annotations

from enum import StrEnum

import attrs


class Player(StrEnum):
    A = "A"
    B = "B"

    @property
    def other(self) -> Player:
        return Player.B if self is Player.A else Player.A


class Phase(StrEnum):
    """What the next shot is: the break, the shot after a foul-free break (TB-8: the one
    shot where a push out may be declared), or any other shot."""

    BREAK = "break"
    AFTER_BREAK = "after-break"
    PLAY = "play"


class BallInHand(StrEnum):
    """GEN-5: where the incoming player may place the cue ball."""

    ANYWHERE = "anywhere"
    KITCHEN = "kitchen"


class Choice(StrEnum):
    """The incoming player's options (TB-9, TB-14, ROT-14..17, EB-6)."""

    SHOOT = "shoot"
    PASS = "pass"
    SPOT_LOWEST = "spot-lowest"
    KITCHEN = "kitchen"
    REPLAY = "replay"
    RERACK = "rerack"  # EB-6, EB-18: racked again, the chooser breaks
    RERACK_OTHER = "rerack-other"  # EB-6, EB-18: racked again, the other player breaks
    ANYWHERE = "anywhere"  # B-34 ``anywhere``: ball in hand anywhere after a break foul


class Declaration(StrEnum):
    """GEN-7, TB-8: what a player may declare before a shot besides a call."""

    PUSH_OUT = "push-out"
    SAFETY = "safety"


class FoulCode(StrEnum):
    # The codes of the scenario format.
    SCRATCH = "scratch"  # GEN-9
    CUE_OFF_TABLE = "cue-off-table"  # GEN-9
    NO_HIT = "no-hit"  # GEN-10
    WRONG_BALL = "wrong-ball"  # GEN-10
    NO_RAIL = "no-rail"  # GEN-11
    ILLEGAL_BREAK = "illegal-break"  # TB-6, ROT-5
    BALL_OFF_TABLE = "ball-off-table"  # GEN-12
    KITCHEN = "kitchen"  # ROT-17
    BAD_PLACEMENT = "bad-placement"  # GEN-6
    SHOT_CLOCK = "shot-clock"  # GEN-17
    # GEN-13: fouls physics cannot see; a referee (or the harness) reports them.
    FOOT_ON_FLOOR = "foot-on-floor"  # WPA 6.4
    TOUCHED_BALL = "touched-ball"  # WPA 6.6
    DOUBLE_HIT = "double-hit"  # WPA 6.7
    PUSH_SHOT = "push-shot"  # WPA 6.8
    BALLS_MOVING = "balls-moving"  # WPA 6.9
    CUE_ON_TABLE = "cue-on-table"  # WPA 6.12
    OUT_OF_TURN = "out-of-turn"  # WPA 6.13
    ILLEGAL_JUMP = "illegal-jump"  # S000's scooped jump
    UNSPORTING = "unsporting"  # WPA 6.16
    MOVED_OBSTRUCTING_BALL = "moved-obstructing-ball"  # S001 §XI

    @property
    def is_scratch(self) -> bool:
        """GEN-14: a scratch or cue ball off the table brings the scratch options."""
        return self in (FoulCode.SCRATCH, FoulCode.CUE_OFF_TABLE)


# The codes a version-1 scenario may name (FORMAT.md, "expect").
SCENARIO_FOUL_CODES: frozenset[FoulCode] = frozenset(
    {
        FoulCode.SCRATCH,
        FoulCode.CUE_OFF_TABLE,
        FoulCode.NO_HIT,
        FoulCode.WRONG_BALL,
        FoulCode.NO_RAIL,
        FoulCode.ILLEGAL_BREAK,
        FoulCode.BALL_OFF_TABLE,
        FoulCode.KITCHEN,
        FoulCode.BAD_PLACEMENT,
        FoulCode.SHOT_CLOCK,
    }
)

# GEN-13 and GEN-17: the fouls a referee calls that the shot's facts cannot show.
REFEREE_FOULS: frozenset[FoulCode] = (frozenset(FoulCode) - SCENARIO_FOUL_CODES) | {
    FoulCode.SHOT_CLOCK
}


@attrs.frozen
class Tally:
    """A number per player: consecutive fouls, points, extensions used."""

    a: int = 0
    b: int = 0

    def __getitem__(self, player: Player) -> int:
        return self.a if player is Player.A else self.b

    def with_value(self, player: Player, value: int) -> Tally:
        return attrs.evolve(self, a=value) if player is Player.A else attrs.evolve(self, b=value)

    def plus(self, player: Player, amount: int) -> Tally:
        return self.with_value(player, self[player] + amount)

    def as_dict(self) -> dict[str, int]:
        return {"A": self.a, "B": self.b}
