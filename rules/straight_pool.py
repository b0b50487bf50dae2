"""WPA 14.1 continuous, straight pool (SP-1..18, B-45..B-59): every shot called, a point
a ball, the first to the target (150) wins. Fouls cost points, three in a row fifteen
more; when one ball is left the fourteen others are racked around it and the run goes on.

The run and the high run are 14.1's own state, written by the game itself as
python-chess's ``ThreeCheckBoard`` keeps its check counts; what a ruling says of them, of
the points and penalty and of the racking is :class:`StraightPoolExtras`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

import attrs

from rules.analysis import ShotReading
from rules.errors import IllegalAction
from rules.extras import RulingExtras
from rules.facts import CUE, BallId, OffTable, Pocketing, RailContact
from rules.figures import OwnFigure, balls_in_runs, innings
from rules.figures import high_run as best_run  # the state's field is ``high_run``
from rules.fouls import Foul, codes_and_reasons
from rules.geometry import Point, TableGeometry, distance
from rules.offered import CALL_MODE, SHOT_CLOCK, RuleOption
from rules.options import Options
from rules.positions import Positions, by_number, describe
from rules.rack import PractisedBreak, RackPattern
from rules.ruling import Reason, Ruling
from rules.shot import Call, Shot
from rules.spotting import spot_in_wpa_order
from rules.state import GameState
from rules.terms import BallInHand, Choice, Declaration, FoulCode, Phase, Player, Tally
from rules.verdict import Effect, Verdict
from rules.words import pocket_name

OBJECT_BALLS: tuple[BallId, ...] = tuple(str(n) for n in range(1, 16))
RACK_PATTERN = RackPattern.triangle([None] * 15)  # SP-2: WPA sets no pattern
BREAK_RAIL_BALLS = 2  # SP-3: the cue ball and two object balls driven to a rail
BREAKING_FOUL_POINTS = 2  # SP-4
THIRD_FOUL_POINTS = 15  # SP-13: on top of the third foul's own point
SQRT3 = math.sqrt(3)
# Metres: a ball this near a place of the rack lies where it was racked (whoever racks
# may leave a hair between the balls, sim.physics.racks' gap).
RACKED_WITHIN = 0.002


# -- SP-2: the rack and the rack area -----------------------------------------------------


def rack_spots(table: TableGeometry, options: Options) -> tuple[Point, ...]:
    """SP-2: the fifteen centres of a rack, the apex on the foot spot first, then row by row
    toward the foot rail, each row with x rising (``rack_gap`` between neighbours)."""
    step = table.ball_diameter + options.rack_gap
    x, y = table.foot_spot
    return tuple(
        (x + (2 * j - k) * step / 2, y + k * step * SQRT3 / 2)
        for k in range(5)
        for j in range(k + 1)
    )


def racked(balls: tuple[BallId, ...], table: TableGeometry, options: Options) -> Positions:
    """Fifteen balls in the triangle, or fourteen without the apex (SP-2, SP-14). Which
    ball goes where is no part of a ruling (FORMAT.md): here in ascending order, the
    physics free to lay them as it racks."""
    spots = rack_spots(table, options)
    return Positions(zip(by_number(balls), spots[len(spots) - len(balls) :], strict=True))


def rack_outline(table: TableGeometry, options: Options) -> tuple[Point, Point, Point]:
    """SP-2, B-47: the marked outline, the triangle R + ``sp_rack_outline_margin`` outside
    the frozen triangle of fifteen centres: apex (toward the head rail), left, right."""
    r, out = table.ball_radius, table.ball_radius + options.sp_rack_outline_margin
    x, y = table.foot_spot
    base = y + 4 * SQRT3 * r + out
    half = 4 * r + out * SQRT3
    return ((x, y - 2 * out), (x - half, base), (x + half, base))


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = b[0] - a[0], b[1] - a[1]
    t = ((p[0] - a[0]) * ax + (p[1] - a[1]) * ay) / (ax * ax + ay * ay)
    t = min(1.0, max(0.0, t))
    return distance(p, (a[0] + t * ax, a[1] + t * ay))


def interferes(point: Point, table: TableGeometry, options: Options) -> bool:
    """SP-15 (WPA 4.8): a ball at ``point`` interferes with the rack when its disc overlaps
    the rack area: its centre inside the outline or closer than R to it."""
    corners = rack_outline(table, options)
    edges = list(zip(corners, (*corners[1:], corners[0]), strict=True))
    crosses = [
        (b[0] - a[0]) * (point[1] - a[1]) - (b[1] - a[1]) * (point[0] - a[0]) for a, b in edges
    ]
    inside = all(c >= 0 for c in crosses) or all(c <= 0 for c in crosses)
    return inside or min(_segment_distance(point, a, b) for a, b in edges) < table.ball_radius


# -- 14.1's part of a ruling ------------------------------------------------------------------


def _point(value: Any) -> Point:
    return (float(value[0]), float(value[1]))


@attrs.frozen(kw_only=True)
class Racking:
    """What is racked before the next shot (SP-13..15): ``count`` balls, 14 (the apex left
    out) or 15; for 14, ``break_ball``, where the one ball left lies; ``cue_ball``, where
    the cue ball lies, None when it is in hand behind the head string."""

    count: int
    break_ball: Point | None = None
    cue_ball: Point | None = None

    def to_json(self) -> dict[str, Any]:
        """FORMAT.md ``racking``."""
        data: dict[str, Any] = {"count": self.count}
        if self.break_ball is not None:
            data["break_ball"] = list(self.break_ball)
        data["cue_ball"] = "kitchen" if self.cue_ball is None else list(self.cue_ball)
        return data

    def matches(self, got: Any, tolerance: float) -> bool:
        """FORMAT.md ``racking`` as a scenario expects it (rules.extras.ExpectedValue):
        the count, and the break ball and the cue ball to ``tolerance``."""
        if not isinstance(got, Racking):
            return False

        def near(a: Point | None, b: Point | None) -> bool:
            if a is None or b is None:
                return a is None and b is None
            return all(abs(p - q) <= tolerance for p, q in zip(a, b, strict=True))

        same = near(self.break_ball, got.break_ball) and near(self.cue_ball, got.cue_ball)
        return self.count == got.count and same

    def problems(self, table: TableGeometry, options: Options, ruling: Ruling) -> list[str]:
        """FORMAT.md "14.1"'s consistency checks of a racking: its placed balls clear of
        each other and of the racked balls, and the break after a 15-ball racking from the
        kitchen."""
        spots = rack_spots(table, options)[15 - self.count :]
        placed = [p for p in (self.break_ball, self.cue_ball) if p is not None]
        reach = table.ball_diameter - options.contact_epsilon
        problems = []
        if (self.count == 14) != (self.break_ball is not None):
            problems.append("inconsistent racking: a break ball only in a 14-ball rack")
        if any(math.dist(p, q) < reach for p in placed for q in [*spots, *placed] if p is not q):
            problems.append("inconsistent racking: a placed ball overlaps another ball")
        if self.count == 15 and ruling.phase is Phase.BREAK and self.cue_ball is not None:
            problems.append("inconsistent racking: a break from outside the kitchen")
        if set(ruling.positions.object_balls) != set(OBJECT_BALLS):
            problems.append("inconsistent racking: not every object ball is on the table")
        return problems

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Racking:
        ball, cue = data.get("break_ball"), data.get("cue_ball", "kitchen")
        return cls(
            count=int(data["count"]),
            break_ball=None if ball is None else _point(ball),
            cue_ball=None if cue == "kitchen" else _point(cue),
        )


@attrs.frozen(kw_only=True)
class StraightPoolExtras(RulingExtras):
    """14.1's own part of a ruling (FORMAT.md's 14.1 keys): ``points`` scored and
    ``penalty`` taken by the shot (SP-7, SP-4, SP-10, SP-13), whether it was a
    ``breaking_foul`` (SP-4), the shooter's ``run`` after it and each player's
    ``high_run`` (SP-17), and the ``racking`` before the next shot (SP-13..15)."""

    # FORMAT.md "14.1": its keys, and those of a rack's end it never uses (a re-rack is
    # ``racking``, not ``rerack``); its run in ``before``, scores below zero (SP-16), the
    # cue ball in hand in the kitchen only (SP-10).
    expect_keys: ClassVar[tuple[str, ...]] = (
        "breaking_foul",
        "points",
        "penalty",
        "run",
        "high_run",
        "racking",
    )
    unanswered_keys: ClassVar[tuple[str, ...]] = ("rerack", "next_breaker")
    before_keys: ClassVar[tuple[str, ...]] = ("run", "high_run")
    signed_scores: ClassVar[bool] = True
    kitchen_only: ClassVar[bool] = True

    points: int = 0
    penalty: int = 0
    breaking_foul: bool = False
    run: int = 0
    high_run: Tally = attrs.field(factory=Tally)
    racking: Racking | None = None

    def observed(self, ruling: Ruling) -> dict[str, Any]:
        return {
            "breaking_foul": self.breaking_foul,
            "points": self.points,
            "penalty": self.penalty,
            "run": self.run,
            "high_run": {Player.A: self.high_run.a, Player.B: self.high_run.b},
            "racking": self.racking,
        }

    def to_json(self, ruling: Any) -> dict[str, Any]:
        return {
            "points": self.points,
            "penalty": self.penalty,
            "breaking_foul": self.breaking_foul,
            "run": self.run,
            "high_run": self.high_run.as_dict(),
            "racking": None if self.racking is None else self.racking.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        high = data.get("high_run") or {}
        racking = data.get("racking")
        return cls(
            points=int(data.get("points", 0)),
            penalty=int(data.get("penalty", 0)),
            breaking_foul=bool(data.get("breaking_foul", False)),
            run=int(data.get("run", 0)),
            high_run=Tally(int(high.get("A", 0)), int(high.get("B", 0))),
            racking=None if racking is None else Racking.from_json(racking),
        )


# -- the game ----------------------------------------------------------------------------------

# B-45: the points to win, a row of the start screen and ``--points``.
TARGET_POINTS = RuleOption(
    name="sp_target_points",
    flag="--points",
    label="Points to win",
    help="The points that win the game (B-45).",
    choices=(("150", 150), ("100", 100), ("75", 75), ("50", 50), ("25", 25)),
    numbers=(1, 1000),
)


@attrs.frozen(kw_only=True)
class StraightPool(GameState):
    """A game of 14.1 to the target; ``run``: the shooter's points in this inning, and
    ``high_run`` each player's best (SP-17)."""

    game: ClassVar[str] = "straight-pool"
    display_name: ClassVar[str] = "14.1 continuous"
    playable: ClassVar[bool] = True
    calls_shots: ClassVar[bool] = True  # SP-6
    has_push_out: ClassVar[bool] = False
    keeps_score: ClassVar[bool] = True  # SP-1
    win_words: ClassVar[str] = "with {points} points"  # SP-16
    object_balls: ClassVar[tuple[BallId, ...]] = OBJECT_BALLS
    foul_limit: ClassVar[int] = 3  # SP-13
    foul_limit_rule: ClassVar[str] = "SP-13"
    choice_rule: ClassVar[str] = "SP-4"
    stalemate_rule: ClassVar[str] = "SP-18"
    break_first_rule: ClassVar[str] = "SP-3"
    break_rule: ClassVar[str] = "SP-3"
    kitchen_rule: ClassVar[str] = "SP-10"  # WPA 6.11, read as EB-14 reads it
    extras_type: ClassVar[type[RulingExtras] | None] = StraightPoolExtras
    points_per_ball: ClassVar[bool] = True  # SP-7: a point a ball, whatever its number
    warning_words: ClassVar[str] = "a third foul in a row costs fifteen points more"
    rule_options: ClassVar[tuple[RuleOption, ...]] = (TARGET_POINTS, CALL_MODE, SHOT_CLOCK)
    games_per_match_option: ClassVar[str | None] = "sp_games_per_match"  # B-55
    race_unit: ClassVar[str] = "game"  # a race of games to the target; racks are many
    rack_figures: ClassVar[bool] = False  # a rack is not won: it runs on (SP-14)
    points_race: ClassVar[bool] = True  # SP-16: the first to the target wins
    # SP-17: the balls of the runs and the innings, read as balls per inning, and the
    # high run (the best over matches).
    own_figures: ClassVar[tuple[OwnFigure, ...]] = (
        OwnFigure("balls", "balls in runs", balls_in_runs, per=("innings", "balls per inning")),
        OwnFigure("innings", "innings", innings),
        OwnFigure("high_run", "high run", best_run, best=True),
    )
    # The opening break (SP-3) the computer plays at every level: from 0.4 of the width
    # off the middle, a thin hit (0.75 of a ball off full) on the back corner ball on the
    # cue ball's side, a touch of draw, 2.2 m/s: that ball and one other to a rail and
    # the cue ball back to the head rail, the rack left closed. The break study's figures
    # are beside sim.play.opponent.strokes.BREAK_CHOICES.
    practised_break: ClassVar[PractisedBreak | None] = PractisedBreak(
        offset=0.4, spin=-0.2, speed=2.2, value=0.491, slot=14, thin=0.75, safe=True
    )

    run: int = 0
    high_run: Tally = attrs.field(factory=Tally)

    # -- what the floors above show: the scoreboard, the rack area, the re-rack ------------

    def status_words(self) -> tuple[str, ...]:
        """The opening break's requirement (SP-3), the balls to go before the re-rack or
        the break ball after it (SP-14), and the shooter's danger of a third foul in a row
        (SP-13). The target (SP-16) is in each player's words ("37 of 150")."""
        words = []
        if self.phase is Phase.BREAK:
            words.append("break: a called ball, or 2 balls and the cue ball to a rail")
        else:
            words.append(self._rack_words())
        if self.shooter in self.warned:
            words.append(f"a third foul costs {THIRD_FOUL_POINTS} more")
        return tuple(w for w in words if w)

    def _rack_words(self) -> str:
        """SP-14 as a player counts: the balls to pot before the other fourteen are
        racked, and which ball is left to break them open."""
        left = len(self.balls.object_balls)
        ball = self.break_ball
        if ball is not None:
            return f"break ball: the {ball}"
        if left > 2:
            return f"{left - 1} to pot before the re-rack"
        if left == 2:
            return "2 left: pot one, leave the break ball"
        return ""

    def player_words(self, player: Player) -> str:
        """``player``'s score of their target (SP-16; it can be below 0, SP-10), the run
        of the player at the table and the player's high run, once there is one (SP-17)."""
        words = [f"{self.score[player]} of {self.target(player)}"]
        if player is self.shooter and self.run and not self.is_over:
            words.append(f"run {self.run}")
        if self.high_run[player]:  # none yet says nothing, leaving room for the fouls
            words.append(f"high run {self.high_run[player]}")
        return " · ".join(words)

    @property
    def break_ball(self) -> BallId | None:
        """SP-14: the ball left out of a re-rack of fourteen, to be played to open them:
        while fifteen balls are up in play, the one outside the rack area, the fourteen
        others still in the rack's places (a safe opening break, SP-3, may leave one
        ball out and the rest about the rack: no break ball); else None."""
        balls = self.balls.object_balls
        if self.phase is Phase.BREAK or len(balls) != len(OBJECT_BALLS):
            return None
        outside = [b for b in balls if not interferes(self.balls[b], self.table, self.options)]
        if len(outside) != 1:
            return None
        spots = rack_spots(self.table, self.options)
        racked = all(
            min(distance(self.balls[b], spot) for spot in spots) < RACKED_WITHIN
            for b in balls
            if b != outside[0]
        )
        return outside[0] if racked else None

    def rack_area(self) -> tuple[Point, ...]:
        """SP-2, B-47: the rack's outline, where the fourteen are racked (SP-15 asks
        whether the break ball and the cue ball lie in it)."""
        return rack_outline(self.table, self.options)

    def marked_balls(self) -> tuple[BallId, ...]:
        ball = self.break_ball
        return () if ball is None or not self.shot_turn else (ball,)

    @classmethod
    def racking_words(cls, ruling: Ruling, table: TableGeometry) -> str | None:
        """SP-14, SP-15: what a shot without a foul racks, as a player reads it after the
        referee's line ("14 balls are racked; the 3 and the cue ball stay where they
        lie."); a foul's re-rack (SP-13) the line says itself."""
        extras = ruling.extras
        if not isinstance(extras, StraightPoolExtras) or extras.racking is None or ruling.foul:
            return None
        racking = extras.racking
        cue = cls._moved(racking.cue_ball, table)
        cue_words = f"the cue ball {cue or 'stays where it lies'}"
        if racking.count == len(OBJECT_BALLS):
            return f"All {racking.count} balls are racked; {cue_words}."
        at = racking.break_ball
        ball = next((b for b, p in ruling.positions.items() if p == at and b != CUE), None)
        name = f"the {ball}" if ball else "the break ball"
        moved = cls._moved(at, table)
        racked = f"{racking.count} balls are racked"
        if moved is None and cue is None:
            return f"{racked}; {name} and the cue ball stay where they lie."
        return f"{racked}; {name} {moved or 'stays where it lies'}; {cue_words}."

    @staticmethod
    def _moved(point: Point | None, table: TableGeometry) -> str | None:
        """Where SP-15 moved a ball after a re-rack (None: in hand behind the head
        string), in a player's words; None when it stays where the shot left it. The
        referee puts a ball it moves exactly on its spot."""
        if point is None:
            return "is in hand behind the head string"
        for spot, name in ((table.head_spot, "head"), (table.centre_spot, "centre")):
            if distance(point, spot) < 1e-9:
                return f"goes on the {name} spot"
        return None

    @classmethod
    def rack_pattern(cls, options: Options) -> RackPattern:
        """SP-2: fifteen balls, the apex on the foot spot, no ball in a set slot."""
        return RACK_PATTERN

    @classmethod
    def short_name(cls) -> str:
        """The game's own short name, not the last word of its display name."""
        return "14.1"

    @classmethod
    def reracked_around(cls, ruling: Ruling) -> Positions | None:
        """SP-13..15, SP-18: the break ball (with fourteen racked) and the cue ball where
        the ruling's racking leaves them; the rest is racked anew (the physics lays it)."""
        extras = ruling.extras
        if not isinstance(extras, StraightPoolExtras) or extras.racking is None:
            return None
        racking = extras.racking
        kept = {racking.break_ball, racking.cue_ball} - {None}
        return Positions({ball: at for ball, at in ruling.positions.items() if at in kept})

    @classmethod
    def balls_scored(
        cls, foul: bool, pocketed: Sequence[BallId], extras: RulingExtras | None
    ) -> int:
        """SP-7, SP-17: a shot's points are the run's balls (a ball spotted scores none)."""
        del foul, pocketed
        return extras.points if isinstance(extras, StraightPoolExtras) else 0

    def target(self, player: Player) -> int:
        """SP-16: the points ``player`` must reach (B-45, or B-46's handicap)."""
        handicap = self.options.sp_handicap_targets
        if handicap is None:
            return self.options.sp_target_points
        return handicap[0] if player is Player.A else handicap[1]

    def points_to_win(self, player: Player) -> int | None:
        """SP-16: the target less the score (more than the target below zero, SP-10)."""
        return self.target(player) - self.score[player]

    def foul_penalty(self, player: Player) -> int:
        """SP-10, SP-13: a point, and fifteen more for the third foul in a row (the
        computer weighs it: a player on two fouls keeps clear of a shot likely to foul)."""
        return 1 + (THIRD_FOUL_POINTS if self._third_foul_of(player) else 0)

    def inconsistencies(self, ruling: Ruling) -> list[str]:
        """FORMAT.md "14.1"'s consistency checks of a ruling: the score moves by points
        less penalty, for the shooter only; a penalty only on a foul, points never on one;
        a breaking foul only on a break; a racking's own (:meth:`Racking.problems`)."""
        extras = ruling.extras
        assert isinstance(extras, StraightPoolExtras)  # extras_type: every 14.1 ruling's
        player, problems = ruling.player, []
        if ruling.score[player] != self.score[player] + extras.points - extras.penalty or (
            ruling.score[player.other] != self.score[player.other]
        ):
            problems.append("inconsistent score: not the shooter's score + points - penalty")
        penalties = (0, 1, BREAKING_FOUL_POINTS, 1 + THIRD_FOUL_POINTS)
        if extras.penalty not in penalties or (extras.penalty > 0) != ruling.foul:
            problems.append(f"inconsistent penalty {extras.penalty} for foul={ruling.foul}")
        if extras.points and ruling.foul:
            problems.append("inconsistent points on a foul")
        if extras.breaking_foul and self.phase is not Phase.BREAK:
            problems.append("inconsistent breaking foul off the break")
        if extras.racking is not None:
            problems += extras.racking.problems(self.table, self.options, ruling)
        return problems

    # -- what is legal (SP-3, SP-6) ------------------------------------------------------

    @property
    def balls_on(self) -> tuple[BallId, ...]:
        """SP-6: any object ball may be called and hit first."""
        return by_number(self.balls.object_balls)

    @property
    def calls_allowed(self) -> bool:
        """SP-6, SP-3: every shot is called, the break too (optionally)."""
        return self.shot_turn and self.calls_shots

    @property
    def call_required(self) -> bool:
        """SP-6 with B-48: a ball counts only when called; on the break a call is optional."""
        return super().call_required and self.phase is not Phase.BREAK

    def _check_declarations(self, shot: Shot, start: Positions) -> None:
        """SP-6: a call or a safety, never a push out; a call given with a safety is
        ignored (GEN-7), so it is not checked."""
        if shot.declaration is Declaration.PUSH_OUT:
            raise IllegalAction("SP-6: 14.1 has no push out; a shot is called or a safety")
        if shot.declaration is None:
            super()._check_declarations(shot, start)

    # -- the state after a ruling: the run and the high run (SP-17) -------------------------

    def apply(self, ruling: Ruling) -> Self:
        after = super().apply(ruling)
        extras = ruling.extras
        if not isinstance(extras, StraightPoolExtras):
            return after
        goes_on = ruling.next_shooter is ruling.player and not ruling.foul and after.shot_turn
        return attrs.evolve(after, run=extras.run if goes_on else 0, high_run=extras.high_run)

    def _extras(self) -> StraightPoolExtras:
        """14.1's part of a ruling on no shot: the high runs as they stand (SP-17)."""
        return StraightPoolExtras(high_run=self.high_run)

    def _judged(self, plain: Verdict, run: int, **changes: Any) -> Verdict:
        """``plain`` with 14.1's part of a shot's ruling: the shooter's ``run`` after it,
        the high runs with it (SP-17), and the points and penalty ``changes``."""
        best = max(self.high_run[self.shooter], run)
        high_run = self.high_run.with_value(self.shooter, best)
        return plain.with_extras(run=run, high_run=high_run, **changes)

    def _score_reason(self, score: Tally, scored: tuple[BallId, ...]) -> Reason:
        """SP-16 on every ruling: "score 13-30 (A-B), 150 wins"."""
        targets = {self.target(p) for p in Player}
        wins = (
            f"{targets.pop()} wins"
            if len(targets) == 1
            else f"A needs {self.target(Player.A)}, B {self.target(Player.B)}"
        )
        return Reason("SP-16", f"score {score.a}-{score.b} (A-B), {wins}")

    # -- the verdict ------------------------------------------------------------------------

    def _verdict(self, shot: Shot, reading: ShotReading, resting: Positions) -> Verdict:
        safety = shot.declaration is Declaration.SAFETY
        notes: list[Reason] = []
        # SP-6: every shot called; none on a safety (SP-9); B-48 infers a pot of any ball
        call = self._counted_call(
            shot, reading, notes, safety_rule="SP-9", infer_rule="SP-6", never=CUE
        )
        found = self._fouls(shot, reading)
        breaking = self.phase is Phase.BREAK and shot.struck
        if breaking:
            met, said = self._break_requirement(reading, call)
            if not met:
                found.insert(0, Foul(FoulCode.ILLEGAL_BREAK, "SP-4", said))
            elif not found:
                notes.append(Reason("SP-3", said))
        codes, foul_reasons = codes_and_reasons(found, struck=shot.struck)
        reasons = (*foul_reasons, *notes)
        if FoulCode.ILLEGAL_BREAK in codes:
            return self._breaking_foul(reading, resting, codes, reasons)
        if codes:
            return self._foul(reading, resting, codes, reasons)
        if call is not None and reading.pocket_of(call.ball) == call.pocket:
            return self._scored(reading, resting, call, reasons)
        return self._no_score(reading, resting, call, reasons, safety=safety)

    def _fouls(self, shot: Shot, reading: ShotReading) -> list[Foul]:
        """SP-10: the general fouls, GEN-10's no hit (14.1 has no lowest ball, so never a
        wrong ball), GEN-11 off the break (SP-3 judges the break), WPA 6.11 from the kitchen."""
        found = self._general_fouls(shot, reading)
        first = reading.first_contact
        if first is None:
            found.append(Foul(FoulCode.NO_HIT, "GEN-10", "the cue ball hit no ball"))
        if self.phase is not Phase.BREAK and not reading.pocketed:
            if first is None:
                text = "with no ball hit, no ball was driven to a cushion either"
                found.append(Foul(FoulCode.NO_RAIL, "GEN-11", text))
            elif not reading.rail_after_first_contact:
                text = f"after the cue ball hit the {first}, no ball reached a cushion"
                found.append(Foul(FoulCode.NO_RAIL, "GEN-11", text + " and none dropped"))
        if self.ball_in_hand is BallInHand.KITCHEN:  # SP-10: WPA 6.11, the shared step
            kitchen = self._kitchen_foul(shot, reading)
            if kitchen is not None:
                found.append(kitchen)
        return found

    def _break_requirement(self, reading: ShotReading, call: Call | None) -> tuple[bool, str]:
        """SP-3: the called ball pocketed (on a foul too, SP-5), or after the cue ball's
        first contact the cue ball and two object balls driven to a rail, where a ball
        pocketed or off the table counts (WPA 8.4), the cue ball included; and why."""
        if call is not None and reading.pocket_of(call.ball) == call.pocket:
            return True, f"the called {call.ball} dropped in the {pocket_name(call.pocket)}"
        first = reading.first_contact_index
        if first is None:
            return False, "breaking foul: the cue ball hit no ball"
        driven: set[BallId] = set()
        for index, fact in enumerate(reading.facts):
            rail = isinstance(fact, RailContact) and index in reading.credited_rails
            if index > first and (rail or isinstance(fact, Pocketing | OffTable)):
                assert isinstance(fact, RailContact | Pocketing | OffTable)
                driven.add(fact.ball)
        balls = driven - {CUE}
        cue = CUE in driven
        if cue and len(balls) >= BREAK_RAIL_BALLS:
            return True, f"the cue ball and {describe(balls)} were driven to a rail"
        lacking = [] if cue else ["the cue ball"]
        if len(balls) < BREAK_RAIL_BALLS:
            lacking.append(
                f"two object balls (only {describe(balls)})" if balls else "any object ball"
            )
        return False, (
            "breaking foul: no called ball dropped, and "
            + " nor ".join(lacking)
            + " reached a rail after the cue ball met the rack"
        )

    def _spot(self, balls: tuple[BallId, ...], table: Positions) -> dict[BallId, Point]:
        """SP-11: ascending from the foot spot, each by GEN-4 against the balls placed
        before it; ``table`` holds the cue ball only when it stays in play."""
        return spot_in_wpa_order(balls, self.table, table, self.options) if balls else {}

    def _spot_reasons(self, spotted: Mapping[BallId, Point]) -> list[Reason]:
        return [Reason("SP-11", self._spot_text(b, p)) for b, p in spotted.items()]

    # -- SP-4: a breaking foul ------------------------------------------------------------------

    def _breaking_foul(
        self,
        reading: ShotReading,
        resting: Positions,
        codes: tuple[FoulCode, ...],
        reasons: tuple[Reason, ...],
    ) -> Verdict:
        """Two points, no consecutive foul counted; the incoming player accepts the table
        (the balls down spotted) or has the fifteen racked for the offender to break."""
        player, other = self.shooter, self.shooter.other
        plain = self._fouled(reading, resting, codes, reasons, BREAKING_FOUL_POINTS)
        plain = plain.with_extras(breaking_foul=True)
        text = (
            f"a breaking foul costs {player} two points and is not counted toward three "
            f"fouls; {other} may accept the table or have the fifteen balls racked for "
            f"{player} to break again"
        )
        return self._table_or_rerack(plain, reading, Reason("SP-4", text))

    def _table_or_rerack(self, plain: Verdict, reading: ShotReading, offer: Reason) -> Verdict:
        """SP-4, and SP-13 under B-51 ``incoming_choice`` (WSR-6.12's choice, as after a
        breaking foul): the incoming player accepts the table, from the kitchen after a
        scratch, or has the fifteen racked for the offender to break."""
        accept = Choice.KITCHEN if reading.cue_ball_gone else Choice.SHOOT
        chooser = self.shooter.other
        only = f"{offer.text}, and only one choice is left"  # never: there are always two
        return self._offer_choices(plain, {accept, Choice.RERACK_OTHER}, chooser, offer, only)

    def _fouled(
        self,
        reading: ShotReading,
        resting: Positions,
        codes: tuple[FoulCode, ...],
        reasons: tuple[Reason, ...],
        penalty: int,
    ) -> Verdict:
        """A foul's plain verdict (SP-4, SP-10): ``penalty`` points off the shooter's
        score, the balls down spotted (SP-11), the cue ball where it lies or, after a
        scratch, in hand in the kitchen; the run ends."""
        gone = reading.cue_ball_gone
        table = resting.without(CUE) if gone else resting
        spotted = self._spot(reading.gone, table)
        plain = self._plain(
            codes,
            (*reasons, *self._spot_reasons(spotted)),
            table,
            spotted,
            ball_in_hand=BallInHand.KITCHEN if gone else None,
            score=self.score.plus(self.shooter, -penalty),
        )
        return self._judged(plain, self.run, penalty=penalty)

    # -- SP-10..13: a standard foul ----------------------------------------------------------

    @property
    def _third_foul(self) -> bool:
        """SP-13: the shooter's foul now would be the third in a row (GEN-15's warning,
        unless B-23 ``require_warning`` is off)."""
        return self._third_foul_of(self.shooter)

    def _third_foul_of(self, player: Player) -> bool:
        """SP-13: a foul by ``player`` on the next shot would be the third in a row."""
        count = self.fouls[player] + 1
        return count >= self.foul_limit and (
            player in self.warned or not self.options.require_warning
        )

    def _foul(
        self,
        reading: ShotReading,
        resting: Positions,
        codes: tuple[FoulCode, ...],
        reasons: tuple[Reason, ...],
    ) -> Verdict:
        """A point (sixteen for the third in a row, SP-13); the balls down spotted; the
        incoming player plays the cue ball where it lies, or from the kitchen after a
        scratch. The third foul racks fifteen for the offender to break (B-51)."""
        player, other = self.shooter, self.shooter.other
        third = self._third_foul
        penalty = 1 + (THIRD_FOUL_POINTS if third else 0)
        if third and self.options.sp_three_foul_rerack == "mandatory":
            plain = self._plain(codes, reasons, racked(OBJECT_BALLS, self.table, self.options))
            text = (
                f"{player}'s third foul in a row costs a point and fifteen more; the fifteen "
                f"balls are racked and {player} breaks from the kitchen"
            )
            return self._judged(
                plain.then(
                    Reason("SP-13", text),
                    inning_ends=False,
                    ball_in_hand=BallInHand.KITCHEN,
                    phase=Phase.BREAK,
                    score=self.score.plus(player, -penalty),
                ),
                self.run,
                penalty=penalty,
                racking=Racking(count=15),
            )
        plain = self._fouled(reading, resting, codes, reasons, penalty)
        if third:  # B-51 ``incoming_choice``
            text = (
                f"{player}'s third foul in a row costs a point and fifteen more "
                f"(sp_three_foul_rerack=incoming_choice): {other} may accept the table or "
                f"have the fifteen balls racked for {player} to break"
            )
            return self._table_or_rerack(plain, reading, Reason("SP-13", text))
        where = "in hand in the kitchen" if reading.cue_ball_gone else "where it lies"
        return plain.then(
            Reason("SP-10", f"a foul costs {player} a point; {other} has the cue ball {where}")
        )

    # -- SP-7, SP-8, SP-9, SP-16: a shot without a foul --------------------------------------

    def _scored(
        self, reading: ShotReading, resting: Positions, call: Call, reasons: tuple[Reason, ...]
    ) -> Verdict:
        """SP-7: the called ball legally pocketed scores it and every other ball down; the
        shooter wins at the target (SP-16, B-54) or continues, racking when one is left."""
        player = self.shooter
        down = reading.pocketed
        points, before, target = len(down), self.score[player], self.target(player)
        if self.options.sp_score_at_target == "cap_at_target" and before < target:
            points = min(points, target - before)  # B-54
        score = self.score.plus(player, points)
        run = self.run + points
        made = (
            f"the {call.ball} went into the {pocket_name(call.pocket)} as called: {player} "
            f"scores {points} point{'s' * (points != 1)}, a run of {run}"
        )
        plain = self._plain(
            (),
            (*reasons, Reason("SP-7", made)),
            resting,
            pocketed=down,
            inning_ends=False,
            score=score,
        )
        plain = self._judged(plain, run, points=points)
        if score[player] >= target:
            text = f"{player} reaches {score[player]} of {target}: {player} wins the game"
            return self._wins(plain, Reason("SP-16", text))
        return self._rack_if_one_left(plain, f"{player} continues")

    def _no_score(
        self,
        reading: ShotReading,
        resting: Positions,
        call: Call | None,
        reasons: tuple[Reason, ...],
        *,
        safety: bool,
    ) -> Verdict:
        """SP-8, SP-9 and a good break (SP-3): nothing scores, the inning ends, the balls
        down are spotted (B-49, B-50) and the opponent plays the table as it lies."""
        other = self.shooter.other
        down = reading.pocketed
        stay = self.options.sp_safety_pocketed if safety else self.options.sp_uncalled_pocketed
        spotted = self._spot(down, resting) if stay == "spot" else {}
        notes = self._spot_reasons(spotted)
        left = [b for b in down if b not in spotted]
        if left:
            option = "sp_safety_pocketed" if safety else "sp_uncalled_pocketed"
            verb = "stays" if len(left) == 1 else "stay"
            text = f"{describe(left)} {verb} down and scores nothing ({option}=stay_down)"
            notes.append(Reason("SP-9" if safety else "SP-8", text))
        if safety:
            what, rule = "a legal safety", "SP-9"
        elif self.phase is Phase.BREAK:
            what, rule = "a good break", "SP-3"
        else:
            what, rule = self._missed(reading, call), "SP-8"
        plain = self._plain(
            (),
            (*reasons, *notes),
            resting,
            spotted,
            pocketed=tuple(left),
            legal_shot=safety or self.options.sp_foul_reset == "any_legal_shot",  # B-56
        )
        plain = self._judged(plain, self.run)
        return self._rack_if_one_left(plain, f"{what}: {other} plays the table", rule)

    @staticmethod
    def _missed(reading: ShotReading, call: Call | None) -> str:
        """SP-8: why nothing scores."""
        if call is None:
            return "no ball was called" if reading.pocketed else "nothing pocketed"
        went = reading.pocket_of(call.ball)
        if went is None:
            return f"the called {call.ball} missed the {pocket_name(call.pocket)}"
        return (
            f"the {call.ball} was called in the {pocket_name(call.pocket)} but went into the "
            f"{pocket_name(went)}"
        )

    # -- SP-14, SP-15: racking when one ball is left -------------------------------------------

    def _rack_if_one_left(self, plain: Verdict, goes_on: str, rule: str = "SP-7") -> Verdict:
        """SP-14: with two or more object balls left play goes on; with one (the break
        ball) the fourteen others are racked, with none all fifteen, SP-15 moving the break
        ball or the cue ball where they interfere with the rack."""
        left = plain.positions.object_balls
        if len(left) >= 2:
            return plain.then(Reason(rule, goes_on))
        table, options = self.table, self.options
        cue = plain.positions[CUE]  # a shot without a foul leaves it on the table
        cue_in = interferes(cue, table, options)
        if not left or (interferes(plain.positions[left[0]], table, options) and cue_in):
            return self._rack_fifteen(plain, goes_on, cue_in, rule)  # SP-15 (a), (b)
        ball = left[0]
        at = plain.positions[ball]
        cue_to: Point | None = cue
        if interferes(at, table, options):  # SP-15 (c)
            spot = "centre" if self._blocks(cue, table.head_spot) else "head"
            at = table.centre_spot if spot == "centre" else table.head_spot
            said = f"the {ball} lies in the rack area and goes to the {spot} spot"
        elif cue_in:  # SP-15 (d), B-53
            cue_to, said = self._cue_from_rack(at)
        else:
            said = f"the {ball} and the cue ball stay where they are"
        positions = racked(tuple(b for b in OBJECT_BALLS if b != ball), table, options)
        positions = positions.moved({ball: at, **({CUE: cue_to} if cue_to else {})})
        return plain.then(
            Reason(rule, goes_on),
            Reason("SP-14", f"one ball is left: the other fourteen are racked; {said}"),
            positions=positions,
            ball_in_hand=None if cue_to else BallInHand.KITCHEN,
        ).with_extras(racking=Racking(count=14, break_ball=at, cue_ball=cue_to))

    def _rack_fifteen(self, plain: Verdict, goes_on: str, cue_in: bool, rule: str) -> Verdict:
        """SP-15 (a), (b), B-52, B-59: all fifteen racked; the cue ball stays unless it
        lies in the rack area or the next shot is a break."""
        phase = Phase.BREAK if self.options.sp_fifteen_rack_phase == "break" else Phase.PLAY
        in_hand = cue_in or phase is Phase.BREAK
        cue = plain.positions[CUE]
        positions = racked(OBJECT_BALLS, self.table, self.options)
        said = (
            "no ball is left"
            if not plain.positions.object_balls
            else "both balls are in the rack area"
        )
        where = "is in hand in the kitchen" if in_hand else "stays where it is"
        return plain.then(
            Reason(rule, goes_on),
            Reason("SP-15", f"{said}: the fifteen balls are racked and the cue ball {where}"),
            positions=positions if in_hand else positions.moved({CUE: cue}),
            ball_in_hand=BallInHand.KITCHEN if in_hand else None,
            phase=phase,
        ).with_extras(racking=Racking(count=15, cue_ball=None if in_hand else cue))

    def _blocks(self, ball: Point, spot: Point) -> bool:
        """SP-15: a ball blocks a spot when its centre is nearer than 2R to it."""
        return distance(ball, spot) < self.table.ball_diameter - self.options.contact_epsilon

    def _cue_from_rack(self, ball: Point) -> tuple[Point | None, str]:
        """SP-15 (d) with B-53: where the cue ball goes from the rack area (None: in hand in
        the kitchen), and why, given where the break ball lies."""
        head, centre = self.table.head_spot, self.table.centre_spot
        blocks = self._blocks(ball, head)
        if blocks and self.options.sp_break_ball_on_head_string == "bca_table":
            return centre, "the cue ball lies in the rack area and goes to the centre spot"
        if not self._in_kitchen(ball):
            return None, "the cue ball lies in the rack area and comes to hand in the kitchen"
        if blocks:
            return centre, "the cue ball lies in the rack area and goes to the centre spot"
        return head, "the cue ball lies in the rack area and goes to the head spot"

    # -- SP-13: the consecutive-foul count -------------------------------------------------------

    def _count_foul(self, verdict: Verdict) -> tuple[Tally, Player | None, list[Reason]]:
        """SP-13: a breaking foul neither counts nor clears (SP-4); the third foul in a row
        costs points, never the game, and the count goes back to 0."""
        extras = verdict.extras
        if isinstance(extras, StraightPoolExtras) and extras.breaking_foul:
            return self.fouls, None, []
        if verdict.fouls and self._third_foul:
            text = f"{self.shooter}'s count of consecutive fouls goes back to 0"
            return self.fouls.with_value(self.shooter, 0), None, [Reason("SP-13", text)]
        return super()._count_foul(verdict)

    def _finish(self, shot: Shot, verdict: Verdict) -> Ruling:
        ruling = super()._finish(shot, verdict)
        if not ruling.rerack:
            return ruling
        # GEN-16's automatic stalemate (B-17 ``auto_no_progress``) ends no 14.1 game.
        said = tuple(r for r in ruling.reasons if r.rule != "SP-16")  # the score: again
        warned = frozenset(p for p in Player if ruling.fouls[p] == self.foul_limit - 1)
        return self._stalemate(attrs.evolve(ruling, warning=warned), said)

    # -- choices (SP-4, B-51) and the stalemate (SP-18) -----------------------------------------

    def _effect(
        self, choice: Choice, positions: Positions, chooser: Player, offender: Player, rule: str
    ) -> Effect:
        if choice is Choice.KITCHEN:
            return Effect(
                next_shooter=chooser,
                positions=positions.without(CUE),
                ball_in_hand=BallInHand.KITCHEN,
                reason=Reason(
                    rule, f"{chooser} accepts the table with the cue ball in the kitchen"
                ),
            )
        if choice is Choice.RERACK_OTHER:
            return Effect(
                next_shooter=offender,
                positions=racked(OBJECT_BALLS, self.table, self.options),
                ball_in_hand=BallInHand.KITCHEN,
                reason=Reason(
                    rule, f"{chooser} has the fifteen balls racked: {offender} breaks again"
                ),
            )
        return super()._effect(choice, positions, chooser, offender, rule)

    def rule_choice(self, choice: Choice | str) -> Ruling:
        """SP-4, B-51: ``rerack-other`` leads to a break of fifteen racked balls."""
        ruling = super().rule_choice(choice)
        if choice != Choice.RERACK_OTHER:
            return ruling
        extras = attrs.evolve(self._extras(), racking=Racking(count=15))
        return attrs.evolve(ruling, phase=Phase.BREAK, extras=extras)

    def rule_stalemate(self, *, agreed: bool = False) -> Ruling:
        """SP-18, declared (GEN-16, B-17)."""
        ruling = super().rule_stalemate(agreed=agreed)
        return self._stalemate(attrs.evolve(ruling, warning=self.warned), ())

    def _stalemate(self, ruling: Ruling, reasons: tuple[Reason, ...]) -> Ruling:
        """SP-18: the fifteen balls are racked and broken under SP-3, and the game goes on:
        the scores, the foul counts and their warnings stand. The lag that picks the
        breaker is the players' (none here): the game's breaker breaks."""
        text = (
            f"stalemate: the fifteen balls are racked, the scores and fouls stand, and "
            f"{self.breaker} breaks"
        )
        extras = ruling.extras
        assert isinstance(extras, StraightPoolExtras)  # extras_type: every 14.1 ruling's
        return attrs.evolve(
            ruling,
            next_shooter=self.breaker,
            ball_in_hand=BallInHand.KITCHEN,
            phase=Phase.BREAK,
            positions=racked(OBJECT_BALLS, self.table, self.options),
            rack_over=False,
            rerack=False,
            next_breaker=None,
            quiet_innings=0,  # a new rack of fifteen: no stretch without progress yet
            reasons=self._with_score([*reasons, Reason("SP-18", text)], ruling.score),
            extras=attrs.evolve(extras, racking=Racking(count=15)),
        )
