"""WPA 8-ball (EB-1..21): solids against stripes, every shot but the break called, won
by legally pocketing the called 8 once the shooter's group is cleared and lost on any
EB-12 condition. The groups are state: open after every break until a called ball is
legally pocketed (EB-7). Only the 8 is ever spotted, and only after the break (EB-15)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self

import attrs

from rules.analysis import ShotReading
from rules.errors import IllegalAction
from rules.facts import CUE, BallId, Hit, RailContact
from rules.fouls import Foul, break_fouls, codes_and_reasons
from rules.geometry import Point
from rules.groups import EIGHT, EightBallExtras, Group, Groups, Loss, Target
from rules.offered import CALL_MODE, SHOT_CLOCK, RuleOption
from rules.options import Options
from rules.positions import Positions, by_number, describe
from rules.rack import PractisedBreak, RackPattern, SlotDraw
from rules.reading import converted
from rules.ruling import Reason, Ruling
from rules.shot import Call, Shot
from rules.spotting import spot_ball, spot_in_wpa_order
from rules.state import GameState
from rules.terms import BallInHand, Choice, Declaration, FoulCode, Phase, Player, Tally
from rules.verdict import Effect, Verdict
from rules.words import GROUP_WORDS, LOSS_WORDS, TARGET_WORDS, RulingWords, pocket_name

# EB-3: fifteen balls, the 8 in the middle of the third row; the two back corners (the
# first and last slot of the fifth row, slots 10 and 14) one solid and one stripe, drawn
# with the seed like the twelve others.
RACK_PATTERN = attrs.evolve(
    RackPattern.triangle((*([None] * 4), EIGHT, *([None] * 10))),
    draws=(SlotDraw(slots=(10, 14), groups=(Group.SOLIDS.balls, Group.STRIPES.balls)),),
)


@attrs.frozen(kw_only=True)
class EightBall(GameState):
    """One rack of 8-ball; ``groups``: each player's group, or the open table (EB-7)."""

    game: ClassVar[str] = "eight-ball"
    display_name: ClassVar[str] = "8-ball"
    calls_shots: ClassVar[bool] = True  # EB-9
    has_push_out: ClassVar[bool] = False  # EB-10: no push out, no pass
    keeps_score: ClassVar[bool] = False  # EB-1: won with the 8
    has_groups: ClassVar[bool] = True  # EB-7
    win_words: ClassVar[str] = "with the 8 in the called pocket"  # EB-11
    object_balls: ClassVar[tuple[BallId, ...]] = tuple(str(n) for n in range(1, 16))
    foul_limit: ClassVar[int] = 3  # B-42, only under eight_three_foul_rule = on
    foul_limit_rule: ClassVar[str] = "B-42"
    choice_rule: ClassVar[str] = "EB-6"
    stalemate_rule: ClassVar[str] = "EB-17"
    break_first_rule: ClassVar[str] = "EB-5"
    break_rule: ClassVar[str] = "EB-5"
    foul_in_hand_rule: ClassVar[str] = "EB-13"
    kitchen_rule: ClassVar[str] = "EB-14"  # WPA 6.11
    extras_type: ClassVar[type[EightBallExtras]] = EightBallExtras
    rule_options: ClassVar[tuple[RuleOption, ...]] = (CALL_MODE, SHOT_CLOCK)
    # The computer opponent's break, from its break study on tuning seeds 41 to 43 (the
    # figures beside sim.play.opponent.strokes.BREAK_CHOICES): from 0.25 of the width, a
    # touch of follow, as hard as the cue goes; legal (EB-5) on all but a few racks.
    practised_break: ClassVar[PractisedBreak | None] = PractisedBreak(
        offset=0.25, spin=0.1, speed=10.0, value=0.77
    )
    position_keys: ClassVar[frozenset[str]] = frozenset({"groups"})  # EB-7

    groups: Groups = attrs.field(factory=Groups)

    @classmethod
    def rack_pattern(cls, options: Options) -> RackPattern:
        """EB-3: the 8 in the centre, a solid and a stripe in the back corners."""
        return RACK_PATTERN

    def status_words(self) -> tuple[str, ...]:
        """What the shooter must hit first (EB-8): the open table, a group, or the 8."""
        if self.phase is Phase.BREAK:
            return ("break: the table is open after it",)
        if self.groups.is_open:
            return ("open table: any ball but the 8",)
        return (f"to hit first: {TARGET_WORDS[self.target]}",)

    def player_words(self, player: Player) -> str | None:
        """``player``'s group and the balls of it left (EB-7, EB-20): "solids · 5 left",
        "stripes · on the 8"; None on the open table."""
        group = self.groups[player]
        if group is None:
            return None
        left = len(self.groups.left(player, self.balls.object_balls))
        return f"{GROUP_WORDS[group]} · {f'{left} left' if left else 'on the 8'}"

    @classmethod
    def ruling_words(cls, ruling: Ruling, *, on_break: bool) -> RulingWords:
        """An illegal break that is no foul (EB-5(c)), the group taken (EB-7), the rack
        lost (EB-12) and won with the 8 on the break (B-31 ``win_unless_scratch``)."""
        eight = EightBallExtras.of(ruling)
        if eight is None:
            return RulingWords()
        group = eight.groups[ruling.player] if eight.groups_taken else None
        illegal = on_break and eight.illegal_break
        return RulingWords(
            illegal_break="nothing down and too few balls reached a cushion" if illegal else None,
            taken="" if group is None else f", takes the {GROUP_WORDS[group]}",
            loss=None if eight.loss is None else LOSS_WORDS[eight.loss],
            won="with the 8 on the break" if on_break else None,
        )

    def position_extras(self) -> dict[str, Any]:
        return {"groups": self.groups.as_dict()}  # EB-7: the groups are part of a position

    def with_position_extras(self, extras: Mapping[str, Any]) -> Self:
        if "groups" not in extras:  # the open table
            return self
        return attrs.evolve(self, groups=converted("groups", extras["groups"], Groups.of_json))

    # -- what the state says --------------------------------------------------------

    def on_set(self, player: Player | None = None) -> frozenset[BallId]:
        """EB-8's ``S(p)`` for ``player`` (the shooter by default) with the balls as they
        lie: the open table, every object ball but the 8 (B-40 ``empty_group_chooser_on_
        eight``: the 8 too once a group is empty); a group with balls left, those
        (EB-20); a cleared group, the 8."""
        player = self.shooter if player is None else player
        on_table = self.balls.object_balls
        if self.groups.is_open:
            balls = {b for b in on_table if b != EIGHT}
            emptied = any(not set(g.balls) & set(on_table) for g in Group)
            if emptied and self.options.open_table_empty_group == "empty_group_chooser_on_eight":
                balls |= {EIGHT} & set(on_table)
            return frozenset(balls)
        left = self.groups.left(player, on_table)
        return frozenset(left) if left else frozenset({EIGHT}) & frozenset(on_table)

    @property
    def balls_on(self) -> tuple[BallId, ...]:
        """EB-8: the on-set, lowest number first. On the break any ball may be hit first
        (EB-5(a)): the one nearest the head string, the apex of a rack."""
        if self.phase is Phase.BREAK:
            balls = self.balls.object_balls
            return (min(balls, key=lambda b: self.balls[b][1]),) if balls else ()
        return by_number(self.on_set())

    @property
    def target(self) -> Target:
        """What the shooter must hit first (FORMAT.md ``target``)."""
        return self.groups.target(self.shooter, self.balls.object_balls)

    @property
    def winning_ball(self) -> BallId | None:
        """EB-11: the called 8, once it is on."""
        if not self.shot_turn or self.phase is Phase.BREAK:
            return None
        return EIGHT if EIGHT in self.on_set() else None

    @property
    def foul_limit_applies(self) -> bool:
        """EB-16: no consecutive-foul rule, unless B-42 ``eight_three_foul_rule = on``."""
        return self.options.eight_three_foul_rule == "on"

    # -- the steps every game has, with 8-ball's state --------------------------------

    def apply(self, ruling: Ruling) -> Self:
        after = super().apply(ruling)
        extras = ruling.extras
        if not isinstance(extras, EightBallExtras) or extras.groups == after.groups:
            return after
        return attrs.evolve(after, groups=extras.groups)

    def _count_foul(self, verdict: Verdict) -> tuple[Tally, Player | None, list[Reason]]:
        """EB-16: no counts and no warnings; B-42 ``on``: GEN-15 with three fouls."""
        if not self.foul_limit_applies:
            return self.fouls, None, []
        return super()._count_foul(verdict)

    def _finish(self, shot: Shot, verdict: Verdict) -> Ruling:
        ruling = super()._finish(shot, verdict)
        extras = ruling.extras
        lost = ruling.winner is self.shooter.other
        if lost and isinstance(extras, EightBallExtras) and extras.loss is None:
            return attrs.evolve(ruling, extras=attrs.evolve(extras, loss=Loss.THREE_FOULS))  # B-42
        return ruling

    def _check_declarations(self, shot: Shot, start: Positions) -> None:
        """EB-4: on the break every declaration is ignored. EB-10: no push out. A call
        with a declared safety is ignored (EB-19), so it is not checked."""
        if self.phase is Phase.BREAK:
            return
        if shot.declaration is Declaration.PUSH_OUT:
            raise IllegalAction("EB-10: 8-ball has no push out")
        if shot.declaration is None:
            super()._check_declarations(shot, start)

    # -- the verdict -----------------------------------------------------------------

    def _verdict(self, shot: Shot, reading: ShotReading, resting: Positions) -> Verdict:
        if self.phase is Phase.BREAK:
            return self._break(shot, reading, resting)
        return self._play(shot, reading, resting)

    def _extras(self) -> EightBallExtras:
        """8-ball's part of a ruling: the groups as they are (EB-7)."""
        return EightBallExtras(groups=self.groups)

    # -- EB-4..6, EB-18: the break ------------------------------------------------------

    def _break(self, shot: Shot, reading: ShotReading, resting: Positions) -> Verdict:
        player, other = self.shooter, self.shooter.other
        opts = self.options
        notes: list[Reason] = []
        if shot.call is not None or shot.declaration is not None:
            notes.append(Reason("EB-4", "nothing is called on the break; the call is ignored"))
        found = self._general_fouls(shot, reading)
        if reading.first_contact is None and opts.eight_break_no_hit == "foul_and_illegal":
            found.append(Foul(FoulCode.NO_HIT, "EB-5", "the cue ball hit no ball on the break"))
        # No stroke (the shot clock ran out) is no break at all, legal or illegal.
        illegal = shot.struck and bool(break_fouls(reading, opts, "EB-5"))
        if illegal:
            counted = len(reading.rail_balls)
            text = (
                f"nothing was pocketed and {counted} object ball{'s' * (counted != 1)} reached "
                f"a cushion; a legal break needs {opts.break_required_rail_balls}"
            )
            if opts.eight_illegal_break == "standard_foul":
                found.append(Foul(FoulCode.ILLEGAL_BREAK, "B-33", f"illegal break: {text}"))
            else:
                notes.append(Reason("EB-5", f"an illegal break, not in itself a foul: {text}"))
        codes, foul_reasons = codes_and_reasons(found, struck=shot.struck)
        scratch = reading.cue_ball_gone
        down = reading.gone
        eight_down, eight_off = EIGHT in reading.pocketed, EIGHT in reading.off_table
        others_off = [b for b in reading.off_table if b != EIGHT]
        positions = resting.without(CUE) if scratch else resting
        to_spot = list(reading.off_table) if opts.eight_ob_off_table == "spot_all" else []
        if eight_off and opts.eight_off_table_on_break == "g_tree":
            to_spot = list(dict.fromkeys([EIGHT, *to_spot]))
        spotted = self._spot(to_spot, positions)
        if spotted:
            positions = positions.moved(spotted)
            rule = "B-37" if opts.eight_ob_off_table == "spot_all" else "EB-6"
            notes += [Reason(rule, self._spot_text(b, p)) for b, p in spotted.items()]
        pocketed = tuple(b for b in down if b not in spotted)
        notes += self._stay_down("EB-15", [b for b in pocketed if b != EIGHT])
        plain = self._plain(codes, (*foul_reasons, *notes), positions, spotted, pocketed)
        plain = plain.with_extras(illegal_break=illegal)
        anywhere = opts.eight_break_foul_cue_ball == "anywhere"

        if eight_down and opts.eight_on_break == "rerack_same_breaker":
            return plain.then(
                Reason(
                    "B-31",
                    f"the 8 went down on the break (eight_on_break=rerack_same_breaker): the "
                    f"balls are racked again and {player} breaks again",
                ),
                rerack=True,
                next_breaker=player,
                ball_in_hand=BallInHand.KITCHEN,
                phase=Phase.BREAK,
            )
        if eight_down and not codes:  # row 1
            if opts.eight_on_break == "win_unless_scratch":
                return self._wins(
                    plain,
                    Reason(
                        "B-31",
                        f"the 8 went down on a foul-free break "
                        f"(eight_on_break=win_unless_scratch): {player} wins the rack",
                    ),
                )
            return self._offer(
                plain,
                {Choice.SHOOT, Choice.RERACK},
                player,
                Reason(
                    "EB-6",
                    f"the 8 went down on a legal break: {player} may have it spotted and "
                    "shoot on, or have the balls racked again and break",
                ),
                cue_on_table=True,
            )
        if eight_down and scratch:  # row 2
            if opts.eight_on_break == "win_unless_scratch":
                return plain.noting(
                    Reason(
                        "B-31",
                        f"the 8 and the cue ball went down on the break "
                        f"(eight_on_break=win_unless_scratch): {player} loses the rack",
                    ),
                    winner=other,
                ).with_extras(loss=Loss.EIGHT_WITH_FOUL)
            again = (
                Choice.RERACK
                if opts.eight_break_foul_rebreak_by == "chooser"
                else Choice.RERACK_OTHER
            )
            hand = Choice.ANYWHERE if anywhere else Choice.KITCHEN
            return self._offer(
                plain,
                {hand, again},
                other,
                Reason(
                    "EB-6",
                    f"the 8 and the cue ball went down on the break: {other} may take the "
                    "cue ball in hand with the 8 spotted, or have the balls racked again",
                ),
                cue_on_table=False,
            )
        if eight_down:  # row 3
            if opts.eight_pocketed_other_break_foul == "g_tree":
                spot = self._spot([EIGHT], positions)
                plain = attrs.evolve(
                    plain,
                    positions=positions.moved(spot),
                    spotted=Positions({**spotted, **spot}),
                    pocketed=tuple(b for b in pocketed if b != EIGHT),
                    reasons=(*plain.reasons, Reason("B-32", self._spot_text(EIGHT, spot[EIGHT]))),
                )
                offered = {Choice.ANYWHERE} if anywhere else {Choice.SHOOT, Choice.KITCHEN}
            else:
                offered = (
                    {Choice.ANYWHERE, Choice.RERACK}
                    if anywhere
                    else {Choice.SHOOT, Choice.KITCHEN, Choice.RERACK}
                )
            return self._offer(
                plain,
                offered,
                other,
                Reason("B-32", f"the 8 went down on a break with a foul: {other} chooses"),
                cue_on_table=True,
            )
        if eight_off:  # row 4
            if opts.eight_off_table_on_break == "f_tree":
                offered = {Choice.KITCHEN, Choice.RERACK, Choice.SHOOT}
                if anywhere:
                    offered = {Choice.ANYWHERE, Choice.RERACK}
            else:
                offered = {Choice.ANYWHERE} if anywhere else {Choice.SHOOT, Choice.KITCHEN}
            return self._offer(
                plain,
                offered,
                other,
                Reason("EB-6", f"the 8 left the table on the break: {other} chooses"),
                cue_on_table=not scratch,
            )
        if others_off:  # row 5
            return self._offer(
                plain,
                {Choice.ANYWHERE} if anywhere else {Choice.SHOOT, Choice.KITCHEN},
                other,
                Reason(
                    "EB-6",
                    f"{describe(others_off)} left the table on the break: {other} chooses",
                ),
                cue_on_table=not scratch,
            )
        if illegal and opts.eight_illegal_break == "standard_foul":
            return self._in_hand_anywhere(
                plain,
                rule="B-33",
                why="an illegal break is a foul (eight_illegal_break=standard_foul): ",
            )
        fouled = bool(codes)
        if illegal and fouled and opts.eight_illegal_break_with_foul != "foul_tree":  # row 6
            if opts.eight_illegal_break_with_foul == "union":
                offered = {Choice.SHOOT, Choice.KITCHEN, Choice.RERACK, Choice.RERACK_OTHER}
                rule = "EB-6"
            else:
                offered = {Choice.RERACK, Choice.RERACK_OTHER}
                offered.add(Choice.KITCHEN if scratch else Choice.SHOOT)
                rule = "B-33"
            if anywhere:
                offered = (offered - {Choice.SHOOT, Choice.KITCHEN}) | {Choice.ANYWHERE}
            return self._offer(
                plain,
                offered,
                other,
                Reason(rule, f"an illegal break with a foul: {other} chooses"),
                cue_on_table=not scratch,
            )
        if illegal and not fouled:  # row 7
            return self._offer(
                plain,
                {Choice.SHOOT, Choice.RERACK, Choice.RERACK_OTHER},
                other,
                Reason(
                    "EB-6",
                    f"an illegal break: {other} may play the table as it lies or have the "
                    "balls racked again",
                ),
                cue_on_table=True,
            )
        if fouled:  # row 8
            if anywhere:
                return self._in_hand_anywhere(
                    plain,
                    rule="B-34",
                    why="a foul on the break (eight_break_foul_cue_ball=anywhere): ",
                )
            return self._offer(
                plain,
                {Choice.SHOOT, Choice.KITCHEN},
                other,
                Reason("B-34", f"a foul on the break: {other} chooses; the balls down stay down"),
                cue_on_table=not scratch,
            )
        groups = self._groups_from_break(reading)
        if down:  # row 9
            table = (
                "the table is open"
                if groups.is_open
                else f"{player} takes the {groups[player]} (eight_groups_after_break="
                "first_pocketed_on_break)"
            )
            return plain.then(
                Reason(
                    "B-35" if not groups.is_open else "EB-7",
                    f"legal break, {describe(down)} pocketed: {player} continues; {table}",
                ),
                inning_ends=False,
            ).with_extras(groups=groups, groups_taken=not groups.is_open)
        return plain.then(  # row 10
            Reason(
                "EB-6",
                f"legal break, nothing pocketed: {other} plays from the position left; the "
                "table is open",
            )
        )

    def _groups_from_break(self, reading: ShotReading) -> Groups:
        """EB-7: the table is open after every break; B-35 ``first_pocketed_on_break``: a
        break that pockets balls of one group only gives the breaker that group."""
        if self.options.eight_groups_after_break != "first_pocketed_on_break":
            return Groups()
        kinds = {Group.of(b) for b in reading.pocketed}
        if len(kinds) != 1 or None in kinds:
            return Groups()
        (group,) = kinds
        assert group is not None
        return Groups.assigned(self.shooter, group)

    def _offer(
        self,
        plain: Verdict,
        choices: set[Choice],
        chooser: Player,
        reason: Reason,
        *,
        cue_on_table: bool,
    ) -> Verdict:
        """EB-6: ``chooser`` picks one of ``choices``; ``shoot`` needs the cue ball on the
        table, and a single choice left is applied by the ruling itself."""
        if not cue_on_table:
            choices = choices - {Choice.SHOOT}
        only = f"{reason.text}, and only one choice is left"
        return self._offer_choices(
            plain, choices, chooser, reason, only, inning_ends=chooser is not self.shooter
        )

    def _spot(self, balls: list[BallId], positions: Positions) -> dict[BallId, Point]:
        """EB-15 with GEN-4 (B-37 ``spot_all``: several, lowest nearest the foot spot);
        ``positions`` holds the cue ball only when it stays on the table."""
        if not balls:
            return {}
        if len(balls) == 1:
            return {balls[0]: spot_ball(self.table, positions, self.options)}
        return spot_in_wpa_order(balls, self.table, positions, self.options)

    def _effect(
        self, choice: Choice, positions: Positions, chooser: Player, offender: Player, rule: str
    ) -> Effect:
        """EB-6's choices; a choice that leaves the rack in play spots an 8 that went down
        on the break (EB-15, GEN-4: the cue ball obstructing only when it stays)."""
        if choice in (Choice.RERACK, Choice.RERACK_OTHER):
            breaker = chooser if choice is Choice.RERACK else chooser.other
            return Effect(
                next_shooter=breaker,
                positions=positions,
                next_breaker=breaker,
                reason=Reason("EB-18", f"{chooser} has the balls racked again; {breaker} breaks"),
            )
        in_hand = {Choice.KITCHEN: BallInHand.KITCHEN, Choice.ANYWHERE: BallInHand.ANYWHERE}
        if choice is not Choice.SHOOT and choice not in in_hand:
            raise IllegalAction(f"{choice.value} is not a choice in {self.game}")
        hand = in_hand.get(choice)
        table = positions.without(CUE) if hand else positions
        spot = self._spot([EIGHT] if EIGHT not in positions else [], table)
        where = {
            None: "shoots from the position left",
            BallInHand.KITCHEN: "takes the cue ball in hand in the kitchen",
            BallInHand.ANYWHERE: "takes the cue ball in hand anywhere",
        }[hand]
        text = f"{chooser} {where}"
        if spot:
            text += f"; {self._spot_text(EIGHT, spot[EIGHT])}"
        return Effect(
            next_shooter=chooser,
            positions=table.moved(spot),
            ball_in_hand=hand,
            spotted=Positions(spot),
            reason=Reason("EB-15" if spot else rule, text),
        )

    # -- EB-7..14, EB-19, EB-20: every other shot ---------------------------------------

    def _play(self, shot: Shot, reading: ShotReading, resting: Positions) -> Verdict:
        player, other = self.shooter, self.shooter.other
        on = self.on_set(player)
        target = self.target
        eight_on = EIGHT in on
        safety = shot.declaration is Declaration.SAFETY
        notes: list[Reason] = []
        found = self._general_fouls(shot, reading)
        no_credit = False
        first = self._first_balls(reading)
        if not first:
            found.append(Foul(FoulCode.NO_HIT, "GEN-10", "the cue ball hit no ball"))
            text = "with no ball hit, no ball was driven to a cushion either"
            found.append(Foul(FoulCode.NO_RAIL, "GEN-11", text))
        else:
            good = [b for b in first if b in on]
            favour = self.options.simultaneous_first_contact == "favour_shooter"
            if not (good if favour else len(good) == len(first)):
                wrong = next(b for b in first if b not in on)
                if (
                    wrong == EIGHT
                    and self.groups.is_open
                    and self.options.open_table_eight_first == "legal_no_credit"
                ):
                    no_credit = True
                    notes.append(
                        Reason(
                            "B-36",
                            "the 8 was hit first on the open table (open_table_eight_first="
                            "legal_no_credit): no foul, but nothing counts and the inning ends",
                        )
                    )
                else:
                    text = (
                        f"the cue ball hit the {wrong} first; {player} had to hit "
                        f"{TARGET_WORDS[target]}"
                    )
                    found.append(Foul(FoulCode.WRONG_BALL, "EB-8", text))
            if not reading.pocketed and not reading.rail_after_first_contact:
                text = f"after the cue ball hit the {first[0]}, no ball reached a cushion"
                found.append(Foul(FoulCode.NO_RAIL, "GEN-11", text + " and none dropped"))
        if self.ball_in_hand is BallInHand.KITCHEN:
            kitchen = self._kitchen_rule(shot, reading)
            if kitchen is not None:
                found.append(kitchen)
        codes, foul_reasons = codes_and_reasons(found, struck=shot.struck)
        call = self._call(shot, reading, on, notes)
        made = call is not None and reading.pocket_of(call.ball) == call.pocket
        down = reading.gone
        positions = resting.without(CUE) if codes else resting
        spotted = {}
        if self.options.eight_ob_off_table == "spot_all":
            spotted = self._spot([b for b in reading.off_table if b != EIGHT], positions)
            notes += [Reason("B-37", self._spot_text(b, p)) for b, p in spotted.items()]
        pocketed = tuple(b for b in down if b not in spotted)
        plain = self._plain(
            codes,
            (*foul_reasons, *notes),
            positions,
            spotted,
            pocketed,
            legal_shot=not codes and not no_credit,
        )

        loss = self._loss(reading, codes, eight_on, call, safety)
        if loss is not None:
            kind, text = loss
            return plain.noting(
                Reason("EB-12" if kind is not Loss.SCRATCH_ON_EIGHT else "B-38", text),
                winner=other,
            ).with_extras(loss=kind)
        if EIGHT in reading.pocketed and made:  # EB-11
            assert call is not None
            return self._wins(
                plain,
                Reason(
                    "EB-11",
                    f"the 8 went into the {pocket_name(call.pocket)} as called: "
                    f"{player} wins the rack",
                ),
            )
        stay = [b for b in pocketed if not (made and call is not None and b == call.ball)]
        plain = plain.noting(*self._stay_down("EB-15", stay))
        if codes:  # EB-13
            eight_note = (
                " (the 8 was on: a standard foul, EB-12 does not apply)" if eight_on else ""
            )
            return self._in_hand_anywhere(
                plain, why=f"a standard foul{eight_note}: ", then="; the groups do not change"
            )
        if no_credit:
            return plain.then(Reason("B-36", f"{other} plays the table as it lies"))
        if made:  # EB-10, with EB-7 on the open table
            assert call is not None
            groups = self.groups
            taken = ""
            if groups.is_open:
                group = Group.of(call.ball)
                assert group is not None
                groups = Groups.assigned(player, group)
                taken = f"; {player} takes the {group}, {other} the {group.other}"
            return plain.then(
                Reason(
                    "EB-7" if taken else "EB-10",
                    f"the {call.ball} went into the {pocket_name(call.pocket)} as called: "
                    f"{player} continues{taken}",
                ),
                inning_ends=False,
            ).with_extras(groups=groups, groups_taken=bool(taken))
        open_note = "; the table stays open" if self.groups.is_open else ""
        if safety:
            return plain.then(
                Reason("EB-19", f"a safety: {other} plays the table as it lies{open_note}")
            )
        return plain.then(
            Reason(
                "EB-10",
                f"{self._missed(reading, call)}: {other} plays from the position{open_note}",
            )
        )

    def _call(
        self,
        shot: Shot,
        reading: ShotReading,
        on: frozenset[BallId],
        notes: list[Reason],
    ) -> Call | None:
        """EB-9: the call that counts (the shared step); none on a safety (EB-19) or for
        a ball not on. B-10 ``infer_obvious`` infers a plain pot, never of the 8."""
        call = self._counted_call(
            shot, reading, notes, safety_rule="EB-19", infer_rule="B-10", never=EIGHT
        )
        if call is not None and call.ball not in on:
            notes.append(
                Reason(
                    "EB-9",
                    f"the call of the {call.ball} does not count: {self.shooter} had to play "
                    f"{TARGET_WORDS[self.target]}",
                )
            )
            return None
        return call

    def _loss(
        self,
        reading: ShotReading,
        codes: tuple[FoulCode, ...],
        eight_on: bool,
        call: Call | None,
        safety: bool,
    ) -> tuple[Loss, str] | None:
        """EB-12 in the order (d), (a), (b), (c); then B-38 ``loss``."""
        player = self.shooter
        if EIGHT in reading.off_table:
            return Loss.EIGHT_OFF_TABLE, f"the 8 left the table: {player} loses the rack"
        went = reading.pocket_of(EIGHT)
        if went is not None:
            if codes:
                return Loss.EIGHT_WITH_FOUL, f"the 8 went down on a foul: {player} loses the rack"
            if not eight_on:
                why = (
                    "the table was open"
                    if self.groups.is_open
                    else f"{player}'s group was not cleared before the shot"
                )
                return Loss.EIGHT_EARLY, f"the 8 went down while {why}: {player} loses the rack"
            if call is None or call.ball != EIGHT or call.pocket != went:
                if safety:
                    how = "on a safety"
                elif call is None or call.ball != EIGHT:
                    how = "with no call of the 8"
                else:
                    how = f"but was called in the {pocket_name(call.pocket)}"
                return (
                    Loss.EIGHT_WRONG_POCKET,
                    f"the 8 went into the {pocket_name(went)} {how}: {player} loses the rack",
                )
        if eight_on and reading.scratched and self.options.scratch_when_eight_on == "loss":
            return (
                Loss.SCRATCH_ON_EIGHT,
                f"a scratch while the 8 was on (scratch_when_eight_on=loss): {player} loses "
                "the rack",
            )
        return None

    @staticmethod
    def _missed(reading: ShotReading, call: Call | None) -> str:
        """EB-10: what happened on a shot that does not go on."""
        if not reading.gone:
            return "nothing pocketed"
        down = describe(reading.gone)
        if call is None:
            return f"{down} dropped with no ball called that counts"
        went = reading.pocket_of(call.ball)
        if went is None:
            return (
                f"the called {call.ball} missed the {pocket_name(call.pocket)} and {down} dropped"
            )
        return (
            f"the {call.ball} was called in the {pocket_name(call.pocket)} but went into the "
            f"{pocket_name(went)}"
        )

    def _first_balls(self, reading: ShotReading) -> tuple[BallId, ...]:
        """EB-8 with B-15: the object balls the cue ball met first (several when the
        contacts are simultaneous)."""
        if reading.first_contact is None:
            return ()
        if reading.first_contact_index == -1:  # frozen to it at the stroke
            return (reading.first_contact,)
        hits = [f for f in reading.facts if isinstance(f, Hit) and f.involves(CUE)]
        first, eps = hits[0], self.options.simultaneous_contact_epsilon
        together = [first.other(CUE)]
        for hit in hits[1:]:
            if first.t is not None and hit.t is not None and hit.t - first.t <= eps:
                together.append(hit.other(CUE))
        return tuple(dict.fromkeys(together))

    def _kitchen_rule(self, shot: Shot, reading: ShotReading) -> Foul | None:
        """EB-14 (WPA 6.11, the shared step) from the kitchen; B-41 ``rotation_rail_rule``:
        a cushion before crossing is a foul too (ROT-17's semantics, no replay)."""
        if self.options.eight_kitchen_rule == "rotation_rail_rule":
            crossed = self._crossed_head_string(shot, reading)
            before = reading.facts[: max(crossed, 0)] if crossed is not None else reading.facts
            if any(isinstance(f, RailContact) and f.ball == CUE for f in before):
                text = "from the kitchen the cue ball touched a cushion before crossing"
                text += " the head string"
                return Foul(FoulCode.KITCHEN, "B-41", text)
        return self._kitchen_foul(shot, reading)
