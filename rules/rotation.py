"""61-point 15-ball rotation (ROT-1..20): no calls; every object ball legally pocketed
scores its number; 61 wins the rack at once; fouls put the pocketed balls back and give
the incoming player a choice; four consecutive fouls lose the rack."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

import attrs

from rules.analysis import ShotReading
from rules.facts import (
    CUE,
    BallId,
    Hit,
    RailContact,
)
from rules.figures import OwnFigure, points_scored
from rules.fouls import Foul, codes_and_reasons
from rules.geometry import Point, distance
from rules.offered import SHOT_CLOCK, RuleOption
from rules.options import Options
from rules.positions import Positions, ball_number, by_number, describe
from rules.rack import PractisedBreak, RackPattern
from rules.ruling import Reason
from rules.shot import Shot
from rules.spotting import foot_spot_free, spot_ball, spot_balls
from rules.state import GameState
from rules.terms import BallInHand, Choice, FoulCode, Phase, Player, Tally
from rules.verdict import Effect, Verdict
from rules.words import offered

TARGET = 61  # ROT-9
# The corner pockets at the head rail, in the kitchen; every other pocket lies past it.


def rack_pattern(
    pattern: str = "bca_1_apex_2_3_corners_15_centre", two_side: str = "x_low"
) -> RackPattern:
    """ROT-3 (BCA): the 1 on the apex, the 15 in the centre, the 2 in the racker's right
    back corner and the 3 in the racker's left; B-13 ``rotation_rack_pattern =
    one_apex_rest_random`` fixes only the 1. The racker faces the head rail from the foot,
    so the racker's right is the x < W/2 side (B-13 ``rotation_rack_2_side = x_low``)."""
    if pattern == "bca_1_apex_2_3_corners_15_centre":
        slots: list[BallId | None] = ["1", *([None] * 3), "15", *([None] * 5)]
        slots += ["2", *([None] * 3), "3"]
    elif pattern == "one_apex_rest_random":
        slots = ["1", *([None] * 14)]
    else:
        raise ValueError(f"unknown rotation_rack_pattern {pattern!r}")
    if two_side == "x_high":
        slots[10], slots[14] = slots[14], slots[10]
    elif two_side != "x_low":
        raise ValueError(f"unknown rotation_rack_2_side {two_side!r}")
    return RackPattern.triangle(slots)


@attrs.frozen
class KitchenCheck:
    """ROT-17: the foul, if any, and whether the incoming player may ask for a replay."""

    foul: Foul | None = None
    replay: bool = False


@attrs.frozen(kw_only=True)
class Rotation(GameState):
    game: ClassVar[str] = "rotation"
    display_name: ClassVar[str] = "61-point rotation"
    calls_shots: ClassVar[bool] = False  # ROT-1
    has_push_out: ClassVar[bool] = False  # ROT-1
    keeps_score: ClassVar[bool] = True  # ROT-9
    win_words: ClassVar[str] = "with {points} points"  # ROT-9, ROT-10
    object_balls: ClassVar[tuple[BallId, ...]] = tuple(str(n) for n in range(1, 16))
    foul_limit: ClassVar[int] = 4  # ROT-18
    foul_limit_rule: ClassVar[str] = "ROT-18"
    choice_rule: ClassVar[str] = "ROT-14"
    stalemate_rule: ClassVar[str] = "ROT-19"
    break_first_rule: ClassVar[str] = "ROT-4"
    break_rule: ClassVar[str] = "ROT-5"
    rule_options: ClassVar[tuple[RuleOption, ...]] = (SHOT_CLOCK,)
    own_figures: ClassVar[tuple[OwnFigure, ...]] = (
        OwnFigure("points", "points", points_scored),  # ROT-9
    )
    # The computer opponent's break, from its break study on tuning seeds 44 and 45
    # (docs/OPPONENT-TUNING.md, "Rotation's break, studied"): from 0.2 of the width, a
    # centre ball, at 9.5 m/s; first on both sets of racks, over 140 strikes.
    practised_break: ClassVar[PractisedBreak | None] = PractisedBreak(
        offset=0.2, spin=0.0, speed=9.5, value=0.65
    )

    def status_words(self) -> tuple[str, ...]:
        return (*super().status_words(), f"{TARGET} wins")  # ROT-9

    def rack_points_to_win(self, player: Player) -> int | None:
        """ROT-9: 61 less ``player``'s score."""
        return TARGET - self.score[player]

    def cleared_tie_share(self) -> float:
        """ROT-10: a 60-60 tie is replayed (half a rack to either player), or with B-12's
        bonus point won by the last pocketer, the player who cleared the table."""
        return 1.0 if self.options.rotation_tie_rule == "bonus_point_last_pocketer_wins" else 0.5

    def player_words(self, player: Player) -> str | None:
        """``player``'s points, and those still wanted to win (ROT-9)."""
        points = self.score[player]
        wanted = f" · {TARGET - points} to win" if points < TARGET else ""
        return f"{points} points{wanted}"

    @classmethod
    def rack_pattern(cls, options: Options) -> RackPattern:
        """ROT-3 with B-13: fifteen balls, as ``rotation_rack_pattern`` and
        ``rotation_rack_2_side`` say."""
        return rack_pattern(options.rotation_rack_pattern, options.rotation_rack_2_side)

    def _check_declarations(self, shot: Shot, start: Positions) -> None:
        """ROT-1: calls, safeties and push outs are ignored, never refused."""

    def _verdict(self, shot: Shot, reading: ShotReading, resting: Positions) -> Verdict:
        is_break = self.phase is Phase.BREAK
        notes: list[Reason] = []
        if shot.call is not None or shot.declaration is not None:
            notes.append(
                Reason(
                    "ROT-1",
                    "rotation has no calls, safeties or push outs; the declaration is ignored",
                )
            )
        kitchen = self._kitchen_rule(shot, reading)
        found = self._shot_fouls(shot, reading, contact=True)
        if kitchen.foul:
            found.append(kitchen.foul)
        if is_break and self._crossed_head_string(shot, reading) is not None:
            notes.append(
                Reason("ROT-20", "the cue ball crossed the head string: the rack is in play")
            )
        codes, foul_reasons = codes_and_reasons(found, struck=shot.struck)
        if codes:
            return self._foul(reading, resting, codes, (*foul_reasons, *notes), kitchen.replay)
        return self._legal(reading, resting, tuple(notes))

    # -- ROT-17 ---------------------------------------------------------------------

    def _kitchen_rule(self, shot: Shot, reading: ShotReading) -> KitchenCheck:
        """From the kitchen the cue ball must cross the head string before it touches a
        cushion (B-14 ``rotation_kitchen_rail_contact_foul``) or a ball, except that its
        first contact may be a ball on or past the head string."""
        if self.ball_in_hand is not BallInHand.KITCHEN or (
            self.phase is Phase.BREAK and not self.options.rotation_kitchen_rule_on_break
        ):
            return KitchenCheck()
        crossed = self._crossed_head_string(shot, reading)
        before = reading.facts[: max(crossed, 0)] if crossed is not None else reading.facts
        first_ball = True
        for fact in before:
            if isinstance(fact, RailContact) and fact.ball == CUE:
                if not self.options.rotation_kitchen_rail_contact_foul:
                    continue
                side = f"{fact.rail.value} " if fact.rail else ""
                text = f"from the kitchen the cue ball touched the {side}cushion before crossing"
                return KitchenCheck(Foul(FoulCode.KITCHEN, "ROT-17", text + " the head string"))
            if isinstance(fact, Hit) and fact.involves(CUE):
                ball = fact.other(CUE)
                if first_ball and not self._in_kitchen(reading.start[ball]):
                    first_ball = False  # the exception: a first ball on or past the string
                    continue
                where = ", behind the head string," if self._in_kitchen(reading.start[ball]) else ""
                text = (
                    f"from the kitchen the cue ball hit the {ball}{where} before crossing "
                    "the head string"
                )
                if crossed is None and first_ball:
                    text += ", and never crossed it"
                return KitchenCheck(
                    Foul(FoulCode.KITCHEN, "ROT-17", text), replay=crossed is None and first_ball
                )
        return KitchenCheck()

    # -- ROT-11..16: a foul ---------------------------------------------------------

    def _foul(
        self,
        reading: ShotReading,
        resting: Positions,
        codes: tuple[FoulCode, ...],
        reasons: tuple[Reason, ...],
        replay: bool,
    ) -> Verdict:
        player, opponent = self.shooter, self.shooter.other
        is_break = self.phase is Phase.BREAK
        down = reading.gone
        plain = self._plain(codes, reasons, resting)
        off_rule = self.options.rotation_break_ob_off_table
        if is_break and reading.off_table and off_rule != "spot":  # B-8
            breaker = player if off_rule == "rerack_same_breaker" else opponent
            # ``then``: this line goes when a forfeit on fouls ends the rack instead.
            return plain.then(
                Reason(
                    "ROT-6",
                    f"a ball left the table on the break (rotation_break_ob_off_table="
                    f"{off_rule}): the balls are racked again and {breaker} breaks",
                ),
                rerack=True,
                next_breaker=breaker,
            )

        # B-7 decides only about the balls *pocketed* on a foul break; a ball driven off
        # the table is spotted under B-8 ``spot`` whatever B-7 says.
        respot = not is_break or self.options.rotation_break_foul_respot
        to_spot = down if respot else reading.off_table
        left_down = tuple(b for b in down if b not in to_spot)
        notes = []
        if to_spot:
            verb = "score nothing and go" if len(to_spot) > 1 else "scores nothing and goes"
            notes.append(Reason("ROT-11", f"foul: {describe(to_spot)} {verb} back on the table"))
        if left_down:
            verb = "stay" if len(left_down) > 1 else "stays"
            notes.append(
                Reason(
                    "ROT-6",
                    f"{describe(left_down)} {verb} down, credited to nobody "
                    "(rotation_break_foul_respot=false)",
                )
            )
        # ROT-11 order: a scratched cue ball is off the bed; LB first (ROT-16), then the
        # others (ROT-13), the cue ball left in play obstructing with the GEN-4(c) gap.
        lowest = min((*resting.object_balls, *to_spot), key=ball_number, default=None)
        spotted: dict[BallId, Point] = {}
        lowest_down = lowest is not None and lowest in to_spot
        if lowest is not None and lowest_down:
            spotted[lowest] = spot_ball(self.table, resting, self.options)
            notes.append(
                Reason(
                    "ROT-16",
                    f"the {lowest} was the lowest ball: "
                    + self._spot_text(lowest, spotted[lowest]),
                )
            )
        others = by_number(b for b in to_spot if b != lowest)
        # ROT-13: FS reserved for LB while this ruling spots it, even where LB could not go
        # on it; occupied when a ball (LB, a ball on the table, the cue ball in play)
        # covers it before the sequence starts. Either way no other ball comes within 2R.
        obstacles = resting.moved(spotted)
        kept = lowest_down or not foot_spot_free(self.table, obstacles, self.options)
        spotted |= spot_balls(
            others, self.table, obstacles, self.options, keep_clear_of_foot_spot=kept
        )
        notes += [Reason("ROT-13", self._spot_text(b, spotted[b])) for b in others]
        positions = resting.moved(spotted)
        plain = plain.noting(
            *notes,
            positions=positions,
            spotted=Positions(spotted),
            pocketed=tuple(b for b in down if b not in spotted),
        )

        if not positions.object_balls:  # all down and left down on a foul break (B-7)
            return self._table_cleared(plain, player)
        choices, rule = self._foul_choices(reading, positions, lowest_down, is_break)
        if replay and self.options.rotation_kitchen_replay_option:
            choices |= {Choice.REPLAY}
        offer = Reason(rule, f"{opponent} may {offered(choices)}")
        only = self._only_choice(rule, positions, opponent)
        return self._offer_choices(plain, choices, opponent, offer, only)

    def _only_choice(self, rule: str, positions: Positions, chooser: Player) -> str:
        """Why the incoming player has a single option (ROT-6 B-22, ROT-15, ROT-16)."""
        if rule == "ROT-6":
            return (
                f"after a foul on the break {chooser} has the cue ball in hand in the kitchen "
                "(rotation_break_foul_options=kitchen_only)"
            )
        if rule == "ROT-16":
            return f"the cue ball is off the table, so {chooser} must take it in the kitchen"
        return (
            f"the lowest ball, the {positions.lowest}, lies in the kitchen, so {chooser} "
            "must have it spotted"
        )

    def _foul_choices(
        self, reading: ShotReading, positions: Positions, lowest_down: bool, is_break: bool
    ) -> tuple[set[Choice], str]:
        """ROT-14/15/16 (with B-20, B-22): the incoming player's options, and the rule."""
        lowest = positions.lowest
        if is_break and self.options.rotation_break_foul_options == "kitchen_only":
            return {Choice.KITCHEN}, "ROT-6"
        assert lowest is not None  # a cleared table ends the rack before any choice
        if lowest_down:  # ROT-16: shoot only with the cue ball still on the table
            if reading.cue_ball_gone:
                return {Choice.KITCHEN}, "ROT-16"
            return {Choice.SHOOT, Choice.KITCHEN}, "ROT-16"
        if reading.cue_ball_gone:  # ROT-15 (GEN-14: any scratch code brings these options)
            if self._in_kitchen(positions[lowest]):
                return {Choice.SPOT_LOWEST}, "ROT-15"
            return {Choice.KITCHEN, Choice.SPOT_LOWEST}, "ROT-15"
        option_b = self.options.rotation_foul_option_b  # ROT-14 with B-20
        choices = {Choice.SHOOT}
        if option_b in ("spot-lowest_and_kitchen", "both"):
            choices.add(Choice.SPOT_LOWEST)
        if option_b in ("kitchen_only", "both"):
            choices.add(Choice.KITCHEN)
        # With the lowest ball on the foot spot already, spotting it is no more than the
        # cue ball in hand in the kitchen: beside that choice it is not offered again.
        # (ROT-15's scratch keeps both: with one left, the ruling would apply it itself.)
        on_spot = distance(positions[lowest], self.table.foot_spot) <= self.options.contact_epsilon
        if on_spot and Choice.KITCHEN in choices:
            choices.discard(Choice.SPOT_LOWEST)
        return choices, "ROT-14"

    def _effect(
        self, choice: Choice, positions: Positions, chooser: Player, offender: Player, rule: str
    ) -> Effect:
        if choice is Choice.KITCHEN:
            return Effect(
                next_shooter=chooser,
                positions=positions.without(CUE),
                ball_in_hand=BallInHand.KITCHEN,
                reason=Reason(
                    rule,
                    f"{chooser} takes the cue ball in hand in the kitchen; "
                    "the object balls stay where they are",
                ),
            )
        if choice is Choice.SPOT_LOWEST:
            return self._spot_lowest(positions.without(CUE), chooser)
        return super()._effect(choice, positions, chooser, offender, rule)

    def _spot_lowest(self, positions: Positions, chooser: Player) -> Effect:
        """ROT-12 / ROT-14(b): LB to the foot spot, cue ball in hand in the kitchen."""
        lowest = positions.lowest
        text = f"{chooser} takes the cue ball in hand in the kitchen"
        if (
            lowest is None
            or distance(positions[lowest], self.table.foot_spot) <= self.options.contact_epsilon
        ):
            return Effect(
                next_shooter=chooser,
                positions=positions,
                ball_in_hand=BallInHand.KITCHEN,
                reason=Reason("ROT-12", f"{text}; the lowest ball is already on the foot spot"),
            )
        point = spot_ball(self.table, positions.without(lowest), self.options)
        return Effect(
            next_shooter=chooser,
            positions=positions.moved({lowest: point}),
            ball_in_hand=BallInHand.KITCHEN,
            spotted=Positions({lowest: point}),
            reason=Reason("ROT-12", f"{text}; {self._spot_text(lowest, point)}"),
        )

    # -- ROT-7, ROT-9, ROT-10: a legal shot ---------------------------------------------

    def _legal(
        self, reading: ShotReading, resting: Positions, notes: tuple[Reason, ...]
    ) -> Verdict:
        player = self.shooter
        down = reading.pocketed  # a legal shot sends nothing off the table (GEN-12)
        score = self.score.plus(player, points_of(down))
        plain = self._plain((), notes, resting, pocketed=down, inning_ends=not down, score=score)
        if score[player] >= TARGET:
            won = f"{player} reaches {score[player]}: {player} wins the rack"
            return self._wins(plain, Reason("ROT-9", won))
        if not resting.object_balls:
            return self._table_cleared(plain, player)
        if down:
            return plain.then(Reason("ROT-7", f"{player} pocketed {describe(down)} and continues"))
        return plain.then(
            Reason("ROT-7", f"nothing pocketed: {player.other} plays the table as it lies")
        )

    def _table_cleared(self, plain: Verdict, last: Player) -> Verdict:
        """ROT-10 / B-12: every ball pocketed without a player reaching 61."""
        score, rule = plain.score, self.options.rotation_tie_rule
        if score.a != score.b:  # possible only with balls left down on a foul break (B-7)
            winner = Player.A if score.a > score.b else Player.B
            return plain.noting(
                Reason(
                    "ROT-9",
                    f"the table is empty and no one reached {TARGET}: {winner}, "
                    "ahead, wins the rack",
                ),
                winner=winner,
            )
        tie = f"{score.a}-{score.b} tie"
        if rule == "bonus_point_last_pocketer_wins":
            return plain.noting(
                Reason(
                    "ROT-10",
                    f"{tie}: {last}, who pocketed the last ball, gets the bonus point and wins",
                ),
                winner=last,
                score=score.with_value(last, TARGET),
            )
        breaker = last if rule == "rerack_last_pocketer_breaks" else self.breaker.other
        return plain.noting(
            Reason(
                "ROT-10",
                f"{tie}: the rack is replayed, scores and fouls reset, and "
                f"{breaker} breaks (rotation_tie_rule={rule})",
            ),
            rerack=True,
            next_breaker=breaker,
        )

    def _score_reason(self, score: Tally, scored: tuple[BallId, ...]) -> Reason:
        """ROT-9: "A scores 9 + 12: 38-20 (A-B), 61 wins" on every ruling."""
        tally = f"{score.a}-{score.b} (A-B), {TARGET} wins"
        if not scored:
            return Reason("ROT-9", f"score {tally}")
        return Reason("ROT-9", f"{self.shooter} scores {points_text(scored)}: {tally}")


def points_of(balls: Iterable[BallId]) -> int:
    return sum(ball_number(ball) for ball in balls)


def points_text(balls: tuple[BallId, ...]) -> str:
    return " + ".join(str(ball_number(b)) for b in balls)
