"""WPA 9-ball (NB-1..18): a rotation game on balls 1-9 with no called shots, won by
legally pocketing the 9 on any shot but a push out (the break too, B-27) or by the
opponent's third consecutive foul. Only the 9 is ever spotted (NB-11)."""

from __future__ import annotations

from typing import ClassVar

import attrs

from rules.analysis import ShotReading
from rules.errors import IllegalAction
from rules.facts import CUE, BallId
from rules.fouls import codes_and_reasons
from rules.offered import SHOT_CLOCK, RuleOption
from rules.options import NineRackPosition, Options
from rules.positions import Positions, describe
from rules.rack import PractisedBreak, RackPattern
from rules.ruling import Reason
from rules.shot import Shot
from rules.spotting import spot_in_wpa_order
from rules.state import GameState
from rules.terms import Declaration, FoulCode, Phase
from rules.verdict import Verdict

NINE: BallId = "9"
# NB-3: the diamond of rows 1-2-3-2-1, the 1 on the apex, the 9 in the centre.
DIAMOND = (("1",), (None, None), (None, NINE, None), (None, None), (None,))


def rack_pattern(position: NineRackPosition = "one_on_foot_spot") -> RackPattern:
    """NB-3: the 1 on the foot spot; B-26 ``nine_on_foot_spot`` moves the same diamond two
    rows toward the head rail, so that its centre, the 9, is on the foot spot."""
    if position == "one_on_foot_spot":
        return RackPattern(DIAMOND)
    if position == "nine_on_foot_spot":
        return RackPattern(DIAMOND, foot_spot_row=2)
    raise ValueError(f"unknown nine_rack_position {position!r}")


@attrs.frozen(kw_only=True)
class NineBall(GameState):
    game: ClassVar[str] = "nine-ball"
    display_name: ClassVar[str] = "9-ball"
    calls_shots: ClassVar[bool] = False  # NB-17: no call, no safety
    has_push_out: ClassVar[bool] = True  # NB-8
    keeps_score: ClassVar[bool] = False  # NB-1: won by the 9, not on points
    win_words: ClassVar[str] = "with the 9"  # NB-1, NB-11: the 9 on any legal shot
    object_balls: ClassVar[tuple[BallId, ...]] = tuple(str(n) for n in range(1, 10))
    foul_limit: ClassVar[int] = 3  # NB-14
    foul_limit_rule: ClassVar[str] = "NB-14"
    choice_rule: ClassVar[str] = "NB-9"
    stalemate_rule: ClassVar[str] = "NB-15"
    break_first_rule: ClassVar[str] = "NB-5"
    break_rule: ClassVar[str] = "NB-6"
    legal_break_rule: ClassVar[str] = "NB-7"
    push_out_rule: ClassVar[str] = "NB-8"
    push_out_reply_rule: ClassVar[str] = "NB-9"
    foul_in_hand_rule: ClassVar[str] = "NB-12"
    rule_options: ClassVar[tuple[RuleOption, ...]] = (SHOT_CLOCK,)
    # The computer opponent's break, from its break study on tuning seeds 41 to 43 (the
    # figures beside sim.play.opponent.strokes.BREAK_CHOICES): from 0.25 of the width, a
    # touch of follow, softer than at 10-ball.
    practised_break: ClassVar[PractisedBreak | None] = PractisedBreak(
        offset=0.25, spin=0.1, speed=8.5, value=0.585
    )

    @classmethod
    def rack_pattern(cls, options: Options) -> RackPattern:
        """NB-3 with B-26: nine balls in a diamond, the 9 in the centre."""
        return rack_pattern(options.nine_rack_position)

    @property
    def winning_ball(self) -> BallId | None:
        """NB-10: the 9, on any shot but a push out; on the break as B-27 says."""
        on_break = self.phase is Phase.BREAK
        if NINE not in self.balls or (on_break and self.options.nine_on_break != "win"):
            return None
        return NINE if self.shot_turn else None

    @property
    def foul_limit_applies(self) -> bool:
        """NB-14 / B-28: ``three_foul_rule = off`` keeps counting but loses no rack."""
        return self.options.three_foul_rule == "on"

    def _check_declarations(self, shot: Shot, start: Positions) -> None:
        """NB-4: on the break every declaration is ignored. NB-8: a push out is refused
        except on the shot right after the break (``legal_declarations``). NB-17: a call
        or a safety is accepted and changes nothing, so neither is checked."""
        if self.phase is Phase.BREAK or shot.declaration is not Declaration.PUSH_OUT:
            return
        if Declaration.PUSH_OUT not in self.legal_declarations:
            raise IllegalAction(
                "NB-8: a push out may be declared only on the shot right after the break"
            )

    def _verdict(self, shot: Shot, reading: ShotReading, resting: Positions) -> Verdict:
        player, other = self.shooter, self.shooter.other
        is_break = self.phase is Phase.BREAK
        # NB-4: nothing is declared on the break, a push out included (NB-8).
        pushing = self._pushing_out(shot)
        push_out = pushing is not None
        notes: list[Reason] = []
        if is_break and (shot.call is not None or shot.declaration is not None):
            notes.append(
                Reason("NB-4", "nothing is called on the break; the declaration is ignored")
            )
        elif shot.call is not None or shot.declaration is Declaration.SAFETY:
            what = "safety" if shot.declaration is Declaration.SAFETY else f"call of {shot.call}"
            notes.append(Reason("NB-17", f"9-ball has no called shots: the {what} changes nothing"))
        if pushing:
            notes.append(pushing)
        found = self._shot_fouls(shot, reading, contact=not push_out)
        codes, foul_reasons = codes_and_reasons(found, struck=shot.struck)
        down = reading.gone
        positions = resting.without(CUE) if codes else resting  # NB-12: ball in hand

        nine_counts = not is_break or self.options.nine_on_break == "win"
        if not codes and not push_out and NINE in reading.pocketed and nine_counts:
            how = "on the break" if is_break else "legally"
            won = Reason(
                "NB-7" if is_break else "NB-10", f"the 9 is pocketed {how}: {player} wins the rack"
            )
            return self._wins(self._plain(codes, notes, positions, pocketed=down), won)

        spotted = spot_in_wpa_order(
            self._to_spot(reading, push_out=push_out), self.table, positions, self.options
        )
        pocketed = tuple(b for b in down if b not in spotted)
        if NINE in spotted:
            notes.append(Reason("NB-11", self._nine_not_won(codes, push_out, reading)))
        notes += [Reason("NB-11", self._spot_text(b, p)) for b, p in spotted.items()]
        # On a legal shot the balls down count for the shooter; elsewhere say they stay.
        if codes or push_out:
            notes += self._stay_down("NB-11", pocketed)
        # The inning ends and the opponent plays the table as it lies (NB-10); each case
        # below changes what differs from that.
        plain = self._plain(codes, (*foul_reasons, *notes), positions, spotted, pocketed)

        if codes:  # NB-12 (NB-7(c) on the break, NB-9 for a push out)
            if is_break and self.options.nine_push_out_after_break_foul:
                return self._in_hand_anywhere(
                    plain,
                    rule="B-43",
                    then=" and may push out (nine_push_out_after_break_foul=true)",
                    phase=Phase.AFTER_BREAK,
                )
            return self._in_hand_anywhere(plain, then="; no pass-back")
        if is_break:  # NB-7 (a), (b); the next shot may be a push out (NB-8)
            return self._legal_break(plain, down)
        if push_out:  # NB-9
            return self._pushed_out(plain)
        if down:
            return plain.then(
                Reason("NB-10", f"{describe(down)} pocketed legally: {player} continues"),
                inning_ends=False,
            )
        return plain.then(Reason("NB-10", f"nothing pocketed: {other} plays the table as it lies"))

    def _to_spot(self, reading: ShotReading, *, push_out: bool) -> list[BallId]:
        """NB-11: the 9, whenever it is down and has not won (a foul, a push out, B-27's
        ``spot_continue`` break); B-6 ``respot_all``: every ball of a push out; B-29
        ``spot_all``: every ball driven off the table."""
        balls = [b for b in reading.gone if b == NINE]
        if push_out and self.options.push_out_pocketed_balls == "respot_all":
            balls += reading.gone
        if self.options.ob_off_table == "spot_all":
            balls += reading.off_table
        return list(dict.fromkeys(balls))

    def _nine_not_won(
        self, codes: tuple[FoulCode, ...], push_out: bool, reading: ShotReading
    ) -> str:
        """NB-9, NB-11, B-27, B-30: why the 9 that went down does not win."""
        if NINE in reading.off_table:
            return "the 9 left the table: it is spotted, and it wins nothing"
        last = "" if reading.start.object_balls != (NINE,) else " (though it was the last ball)"
        if codes:
            return f"the 9 was pocketed on a foul{last}: no win, it is spotted"
        if push_out:
            return "the 9 was pocketed on a push out, which never wins: it is spotted"
        return "the 9 was pocketed on the break (nine_on_break=spot_continue): it is spotted"
