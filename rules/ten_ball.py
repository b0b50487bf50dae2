"""WPA 10-ball (TB-1..20): a call-shot rotation game on balls 1-10, won by legally
pocketing the 10 or by the opponent's third consecutive foul."""

from __future__ import annotations

from typing import ClassVar

import attrs

from rules.analysis import ShotReading, obvious_call
from rules.errors import IllegalAction
from rules.facts import CUE, BallId
from rules.fouls import codes_and_reasons
from rules.offered import CALL_MODE, SHOT_CLOCK, RuleOption
from rules.options import Options
from rules.positions import Positions, describe
from rules.rack import PractisedBreak, RackPattern
from rules.ruling import Reason
from rules.shot import Call, Shot
from rules.spotting import spot_in_wpa_order
from rules.state import SHOOT_OR_PASS, GameState
from rules.terms import Declaration, Phase
from rules.verdict import Verdict
from rules.words import pocket_name

TEN: BallId = "10"
# TB-3: the 1 on the apex, the 10 in the middle of the third row, the others at random.
RACK_PATTERN = RackPattern.triangle(("1", None, None, None, TEN, *([None] * 5)))
# B-1: an early legally called 10, re-spotted (WPA today) or a win (the 2009 rules).
EARLY_TEN = RuleOption(
    name="ten_ball_early_pocket",
    flag="--early-ten",
    label="An early 10",
    help="An early called 10 is re-spotted (WPA) or wins (2009).",
    choices=(("Re-spotted (WPA today)", "spot_continue"), ("Wins (2009 rules)", "win")),
)


@attrs.frozen(kw_only=True)
class TenBall(GameState):
    game: ClassVar[str] = "ten-ball"
    display_name: ClassVar[str] = "10-ball"
    calls_shots: ClassVar[bool] = True  # TB-1
    has_push_out: ClassVar[bool] = True  # TB-8
    keeps_score: ClassVar[bool] = False  # TB-1: won by the 10, not on points
    win_words: ClassVar[str] = "with the 10 in the called pocket"  # TB-12
    object_balls: ClassVar[tuple[BallId, ...]] = tuple(str(n) for n in range(1, 11))
    foul_limit: ClassVar[int] = 3  # TB-18
    foul_limit_rule: ClassVar[str] = "TB-18"
    choice_rule: ClassVar[str] = "TB-20"
    stalemate_rule: ClassVar[str] = "TB-19"
    break_first_rule: ClassVar[str] = "TB-5"
    break_rule: ClassVar[str] = "TB-6"
    legal_break_rule: ClassVar[str] = "TB-7"
    push_out_rule: ClassVar[str] = "TB-8"
    push_out_reply_rule: ClassVar[str] = "TB-9"
    foul_in_hand_rule: ClassVar[str] = "TB-17"
    rule_options: ClassVar[tuple[RuleOption, ...]] = (EARLY_TEN, CALL_MODE, SHOT_CLOCK)
    # The computer opponent's break, from its break study (the figures beside
    # sim.play.opponent.strokes.BREAK_CHOICES): from 0.25 of the width, a touch of follow.
    practised_break: ClassVar[PractisedBreak | None] = PractisedBreak(
        offset=0.25, spin=0.1, speed=9.25, value=0.665
    )

    @classmethod
    def rack_pattern(cls, options: Options) -> RackPattern:
        """TB-3: ten balls, the 1 on the foot spot, the 10 in the middle of the third row."""
        return RACK_PATTERN

    @property
    def winning_ball(self) -> BallId | None:
        """TB-12: under ``ten_ball_early_pocket = win`` the called 10 wins after the break
        wherever the others lie; by default it wins only as the last ball, so no ball
        wins whatever is left."""
        if self.options.ten_ball_early_pocket != "win" or self.phase is Phase.BREAK:
            return None
        return TEN if TEN in self.balls and self.shot_turn else None

    def _check_declarations(self, shot: Shot, start: Positions) -> None:
        """TB-4: on the break every declaration is ignored, so none is checked. TB-8: a
        push out is refused except on the shot right after a foul-free break
        (``legal_declarations``). A call that comes with a push out or a safety is
        ignored (see ``_verdict``), so it is not checked either."""
        if self.phase is Phase.BREAK:
            return
        if shot.declaration is not None and shot.declaration not in self.legal_declarations:
            raise IllegalAction(
                "TB-8: a push out may be declared only on the shot right after a foul-free break"
            )
        if shot.declaration is None:
            super()._check_declarations(shot, start)

    def _verdict(self, shot: Shot, reading: ShotReading, resting: Positions) -> Verdict:
        player = self.shooter
        is_break = self.phase is Phase.BREAK
        # TB-4: nothing is declared on the break, a push out included (TB-8).
        pushing = self._pushing_out(shot)
        push_out = pushing is not None
        safety = shot.declaration is Declaration.SAFETY and not is_break
        notes: list[Reason] = []
        if is_break and (shot.call is not None or shot.declaration is not None):
            notes.append(
                Reason("TB-4", "nothing is called on the break; the declaration is ignored")
            )
        if pushing:
            notes.append(pushing)
        if shot.call is not None and (push_out or safety):
            # GEN-7 asks for a call *or* a safety; given both, the safety (or the push
            # out, TB-8) is what the player declared, and the call counts for nothing.
            what = "push out" if push_out else "safety"
            rule = "TB-8" if push_out else "GEN-7"
            notes.append(Reason(rule, f"a {what} was declared: the call of {shot.call} is ignored"))
        found = self._shot_fouls(shot, reading, contact=not push_out)
        codes, foul_reasons = codes_and_reasons(found, struck=shot.struck)
        down = reading.gone
        positions = resting.without(CUE) if codes else resting  # TB-17: ball in hand

        call = None if is_break or push_out or safety else shot.call or self._obvious(reading)
        if call is not None and shot.call is None:
            notes.append(
                Reason("B-10", f"call_mode=infer_obvious: the shot counts as a call of {call}")
            )
        made = call is not None and reading.pocket_of(call.ball) == call.pocket
        if not codes and call is not None and made and call.ball == TEN:
            won = self._ten_wins(reading, resting)
            if won is not None:
                return self._wins(self._plain(codes, notes, positions, pocketed=down), won)
            notes.append(
                Reason(
                    "TB-12",
                    f"the called 10 was not the last ball (ten_ball_early_pocket="
                    f"spot_continue, ten_last_ball_test={self.options.ten_last_ball_test}): "
                    f"it is spotted and {player} continues",
                )
            )

        push_out_respot = push_out and self.options.push_out_pocketed_balls == "respot_all"
        to_spot = [b for b in down if push_out_respot or b == TEN]  # TB-16, B-6
        spotted = spot_in_wpa_order(to_spot, self.table, positions, self.options)
        pocketed = tuple(b for b in down if b not in spotted)
        notes += [Reason("TB-16", self._spot_text(b, p)) for b, p in spotted.items()]
        # The called ball made legally needs no word; every other ball down is told.
        stay = [b for b in pocketed if codes or not made or call is None or b != call.ball]
        notes += self._stay_down("TB-16", stay)
        # The inning ends, the opponent plays the table, no option (TB-15); each case
        # below changes what differs from that.
        plain = self._plain(codes, (*foul_reasons, *notes), positions, spotted, pocketed)

        other = player.other
        if codes:  # TB-17 (TB-7(c) on the break, TB-9 for a push out)
            return self._in_hand_anywhere(plain, then="; no pass-back")
        if is_break:  # TB-7 (a), (b); the next shot may be a push out (TB-8)
            return self._legal_break(plain, down)
        if push_out:  # TB-9
            return self._pushed_out(plain)
        if made and call is not None:
            return plain.then(
                Reason(
                    "TB-11",
                    f"the {call.ball} went into the {pocket_name(call.pocket)} as called: "
                    f"{player} continues",
                ),
                inning_ends=False,
            )
        if down:  # TB-13 with balls down, TB-14
            return plain.then(
                Reason(
                    "TB-13" if safety else "TB-14",
                    f"{self._not_made(reading, call, safety)}: not legally pocketed; "
                    f"{other} may shoot or pass",
                ),
                choices=SHOOT_OR_PASS,
            )
        missed = "a legal safety" if safety else "nothing pocketed"
        return plain.then(Reason("TB-15", f"{missed}: {other} plays the table as it lies"))

    @staticmethod
    def _not_made(reading: ShotReading, call: Call | None, safety: bool) -> str:
        """TB-13 / TB-14: what dropped, and why it does not count."""
        down = describe(reading.gone)
        if safety:
            return f"{down} dropped on a safety"
        if call is None:
            return f"{down} dropped with no ball called (GEN-7)"
        went = reading.pocket_of(call.ball)
        if went is None:
            missed = pocket_name(call.pocket)
            return f"the called {call.ball} missed the {missed} and {down} dropped"
        others = [b for b in reading.gone if b != call.ball]
        extra = f" ({describe(others)} dropped too)" if others else ""
        return (
            f"the {call.ball} was called in the {pocket_name(call.pocket)} but went into the "
            f"{pocket_name(went)}{extra}"
        )

    def _obvious(self, reading: ShotReading) -> Call | None:
        """B-10 ``infer_obvious``: one ball, met first by the cue ball, straight in; never
        the 10 (S000 §9.5)."""
        return obvious_call(reading, self.options, never=TEN)

    def _ten_wins(self, reading: ShotReading, resting: Positions) -> Reason | None:
        """TB-12 / B-1: does the legally pocketed called 10 win?"""
        if self.options.ten_ball_early_pocket == "win":
            return Reason(
                "TB-12",
                f"the called 10 is legally pocketed: {self.shooter} wins the rack "
                "(ten_ball_early_pocket=win)",
            )
        test = self.options.ten_last_ball_test
        others = [b for b in reading.start.object_balls if b != TEN]
        if test == "at_shot_start":
            last = not others
        elif test == "at_pocket_event":
            ten_at = reading.pocket_index(TEN)
            gone_at = [reading.left_table_at(b) for b in others]
            last = ten_at is not None and all(i is not None and i < ten_at for i in gone_at)
        else:
            last = not resting.object_balls
        if not last:
            return None
        return Reason(
            "TB-12",
            f"the called 10 is pocketed as the last ball "
            f"(ten_last_ball_test={test}): {self.shooter} wins the rack",
        )
