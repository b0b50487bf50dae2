"""The game state both games share, and the rules they share (GEN).

A state is an immutable value, as a python-chess ``Board`` would be if it were frozen:
``state.rule(shot)`` returns the referee's :class:`Ruling` and changes nothing;
``state.apply(ruling)`` (or ``state.push(shot)``) returns the next state. When a ruling
offers the incoming player choices, the next state is a decision turn: ``legal_choices``
lists them and ``state.choose(choice)`` returns the state after it.

:class:`GameState` holds what every game needs: the general fouls (GEN-6, 9..13, 17),
consecutive fouls and warnings (GEN-15), rack end and the next breaker (GEN-3, GEN-16),
shot validation (GEN-5), and the shoot / pass / replay choices. Each game
(:mod:`rules.ten_ball`, :mod:`rules.nine_ball`, :mod:`rules.eight_ball`,
:mod:`rules.rotation`, :mod:`rules.straight_pool`) is a small subclass that judges its
own shots in ``_verdict`` and carries out its own choices in ``_effect``. A verdict is
built of the steps the games share, written here once and keyed by the games' class
attributes (``foul_in_hand_rule``, ``legal_break_rule``, ``push_out_rule``,
``push_out_reply_rule``, ``kitchen_rule``): the plain verdict each case changes
(``_plain``), the rack won (``_wins``), the cue ball in hand anywhere
(``_in_hand_anywhere``), a legal break's end (``_legal_break``), the push out
(``_pushing_out``, ``_pushed_out``), choices offered, or applied when only one is
possible (``_offer_choices``), the call that counts where every shot is called
(``_counted_call``) and the foul from the kitchen (``_kitchen_foul``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Self

import attrs

from rules.analysis import ShotReading, obvious_call, read_shot
from rules.errors import IllegalAction
from rules.extras import RulingExtras
from rules.facts import (
    CUE,
    BallId,
    HeadStringCrossing,
    Hit,
    OffTable,
    PocketId,
    Pocketing,
    RailContact,
    RailName,
)
from rules.figures import OwnFigure
from rules.fouls import Foul, break_fouls, contact_fouls, general_fouls
from rules.geometry import Point, TableGeometry, distance
from rules.offered import RuleOption
from rules.options import Options
from rules.positions import Positions, ball_number, describe
from rules.rack import PractisedBreak, RackPattern
from rules.ruling import Reason, Ruling
from rules.shot import Call, Shot
from rules.terms import BallInHand, Choice, Declaration, FoulCode, Phase, Player, Tally
from rules.verdict import Effect, Verdict
from rules.words import RulingWords

# The head corner pockets: a cue ball dropping into one may never have left the kitchen.
HEAD_POCKETS = frozenset({PocketId.LB, PocketId.RB})
# After a push out (TB-9, NB-9) or balls down that do not count (TB-13, TB-14).
SHOOT_OR_PASS = frozenset({Choice.SHOOT, Choice.PASS})
_ORDINALS = ("first", "second", "third", "fourth", "fifth")


def ordinal(n: int) -> str:
    return _ORDINALS[n - 1] if 1 <= n <= len(_ORDINALS) else f"{n}th"


@attrs.frozen(kw_only=True)
class Decision:
    """A decision turn: ``chooser`` picks one of ``choices`` after ``offender``'s shot.
    ``replay_from``: the state before that shot, for a ROT-17 replay. ``rule``: the rule
    that gave the choices, which tags the reason for the one taken."""

    chooser: Player
    choices: frozenset[Choice]
    offender: Player
    replay_from: GameState | None = None
    rule: str | None = None


@attrs.frozen(kw_only=True)
class RackResult:
    """How a rack ended: won (``winner``), or to be racked again (``rerack``)."""

    winner: Player | None
    rerack: bool
    next_breaker: Player


def _positions(value: Positions | Mapping[BallId, Point]) -> Positions:
    return value if isinstance(value, Positions) else Positions(value)


def _warned_at_start(state: GameState) -> frozenset[Player]:
    """A player one foul from the limit has been warned (FORMAT.md, GEN-15), where the
    limit applies (B-28)."""
    if not state.foul_limit_applies:
        return frozenset()
    return frozenset(p for p in Player if state.fouls[p] >= state.foul_limit - 1)


@attrs.frozen(kw_only=True)
class GameState:
    """One rack in progress. ``balls``: every ball on the table (a cue ball in hand is
    absent). ``breaker``: who broke this rack. ``warned``: players warned under GEN-15
    (by default, those one foul from the limit). ``pending``: the decision to be made
    before the next shot. ``result``: how the rack ended, once it has. ``hill_hill``:
    the deciding rack of a match at hill-hill (B-18).

    The class says what kind of game it is: ``game``, its name in files and scenarios;
    ``display_name``, as a player reads it; ``calls_shots``, whether a shot is called
    (GEN-7; TB-1, not ROT-1 or NB-17); ``has_push_out`` (TB-8, NB-8); ``keeps_score``
    (ROT-9); ``win_words``, how a rack is won as a player says it ("Ann wins the rack
    with ..."), with the winner's ``{points}``; ``refereed``, whether a referee rules
    at all (a practice table's free play, :mod:`rules.practice`, is not);
    ``extras_type``, the type of what its rulings alone say (:mod:`rules.extras`), None
    where they say nothing more."""

    game: ClassVar[str]
    display_name: ClassVar[str]
    refereed: ClassVar[bool] = True  # False: free play on a practice table (rules.practice)
    # False: the referee rules it, but the floors above (the physics' racks, the window,
    # the commands, the computer) cannot play it yet, so they offer it nowhere.
    playable: ClassVar[bool] = True
    calls_shots: ClassVar[bool]
    has_push_out: ClassVar[bool]
    keeps_score: ClassVar[bool]
    has_groups: ClassVar[bool] = False  # EB-7: solids and stripes (8-ball)
    # The figures the game keeps of its own beside every game's (rules.figures).
    own_figures: ClassVar[tuple[OwnFigure, ...]] = ()
    win_words: ClassVar[str]
    object_balls: ClassVar[tuple[BallId, ...]]
    foul_limit: ClassVar[int]
    foul_limit_rule: ClassVar[str]
    choice_rule: ClassVar[str]
    stalemate_rule: ClassVar[str]
    break_first_rule: ClassVar[str]  # the 1 first on the break (TB-5, ROT-4)
    break_rule: ClassVar[str]  # a ball pocketed or four to a cushion (TB-6, ROT-5)
    # The rules the verdict's shared steps give (the games with them say which).
    legal_break_rule: ClassVar[str]  # what a legal break leaves (TB-7, NB-7)
    push_out_rule: ClassVar[str]  # the push out, after the break (TB-8, NB-8)
    push_out_reply_rule: ClassVar[str]  # the opponent shoots or passes it back (TB-9, NB-9)
    foul_in_hand_rule: ClassVar[str]  # the cue ball in hand anywhere (TB-17, NB-12, EB-13)
    kitchen_rule: ClassVar[str]  # WPA 6.11 from the kitchen, where it is read alone (EB-14, SP-10)
    # The game's own part of a ruling (``Ruling.extras``), or None (rules.extras).
    extras_type: ClassVar[type[RulingExtras] | None] = None
    # Where score is kept: a ball scores one point (SP-7), not its number (ROT-9).
    points_per_ball: ClassVar[bool] = False
    # What a player one foul from the limit is told (GEN-15).
    warning_words: ClassVar[str] = "one more foul loses the rack"
    # The options a player chooses before a match (rules.offered), in the rows' order.
    rule_options: ClassVar[tuple[RuleOption, ...]]
    # What a position keeps of this game alone beside the balls and the turn (8-ball's
    # groups): its keys in a position file, which the game writes and reads itself
    # (position_extras, with_position_extras), as python-chess's ThreeCheckBoard its EPD.
    position_keys: ClassVar[frozenset[str]] = frozenset()
    # The break a practised player plays (the computer opponent's, found by its break
    # study), or None: the opponent tries its breaks on the rack in front of it instead.
    practised_break: ClassVar[PractisedBreak | None] = None
    # What a player calls one unit of the race on the scoreboard's title ("race to 5 ·
    # rack 2"): 14.1's is a game to the target, racked again many times over.
    race_unit: ClassVar[str] = "rack"
    # Whether a game is a race of points over many racks, which ``points_to_win`` counts
    # down (14.1), rather than of racks each won on its own.
    points_race: ClassVar[bool] = False
    # Whether a rack is won by running it out, so balls on the break, break-and-runs and
    # run-outs are a player's figures (14.1's racks run on into the next: none of them).
    rack_figures: ClassVar[bool] = True
    # The Options field that counts a match's games, which the match's race sets (14.1's
    # games per match, B-55), or None: a match is a race of racks the players choose.
    games_per_match_option: ClassVar[str | None] = None

    balls: Positions = attrs.field(converter=_positions)
    table: TableGeometry = attrs.field(factory=TableGeometry)
    options: Options = attrs.field(factory=Options)
    shooter: Player = Player.A
    breaker: Player = attrs.field(default=attrs.Factory(lambda self: self.shooter, takes_self=True))
    phase: Phase = Phase.BREAK
    ball_in_hand: BallInHand | None = None
    fouls: Tally = attrs.field(factory=Tally)
    warned: frozenset[Player] = attrs.field(
        default=attrs.Factory(_warned_at_start, takes_self=True)
    )
    score: Tally = attrs.field(factory=Tally)
    pending: Decision | None = None
    result: RackResult | None = None
    turn: int = 0
    quiet_innings: int = 0
    hill_hill: bool = False
    extensions_used: Tally = attrs.field(factory=Tally)

    def __attrs_post_init__(self) -> None:
        allowed = {CUE, *self.object_balls}
        for ball in self.balls:
            if ball not in allowed:
                raise IllegalAction(f"the {ball} is not a ball of {self.game}")
        if self.ball_in_hand is not None and CUE in self.balls:
            raise IllegalAction("the cue ball is in hand, so it has no place on the table")
        in_play = self.ball_in_hand is None and self.pending is None and self.result is None
        if in_play and CUE not in self.balls:
            raise IllegalAction("the cue ball is neither on the table nor in hand")

    # -- construction -------------------------------------------------------------

    @classmethod
    def new_rack(
        cls,
        balls: Mapping[BallId, Point],
        *,
        breaker: Player = Player.A,
        table: TableGeometry | None = None,
        options: Options | None = None,
        fouls: Tally | None = None,
        hill_hill: bool = False,
    ) -> Self:
        """A racked table (object balls only): ``breaker`` breaks from the kitchen (GEN-5,
        TB-4, ROT-4). ``fouls`` carries counts over under ``foul_count_scope = match``."""
        return cls(
            balls=Positions(balls).without(CUE),
            table=table or TableGeometry(),
            options=options or Options(),
            shooter=breaker,
            breaker=breaker,
            phase=Phase.BREAK,
            ball_in_hand=BallInHand.KITCHEN,
            fouls=fouls or Tally(),
            hill_hill=hill_hill,
        )

    @classmethod
    def rack_pattern(cls, options: Options) -> RackPattern:
        """The game's rack (TB-3, ROT-3 with B-13, NB-3 with B-26): its shape and which
        ball goes in which slot, the free slots left to a seeded shuffle by whoever racks."""
        raise NotImplementedError

    @classmethod
    def reracked_around(cls, ruling: Ruling) -> Positions | None:
        """The balls that stay where they lie when ``ruling`` racks the table again before
        the next shot of this rack (14.1's re-racks, SP-13..15, SP-18), the cue ball among
        them when it stays; None when it racks nothing (every game but 14.1). Whoever
        racks (the physics, as for a new rack) lays :meth:`rack_pattern` around them."""
        del ruling
        return None

    @classmethod
    def balls_scored(
        cls, foul: bool, pocketed: Sequence[BallId], extras: RulingExtras | None
    ) -> int:
        """The balls a shot counts to its shooter's run (balls per inning, the high run),
        from its ruling's parts (a live ruling's, or a game file's read back): those
        pocketed on a shot without a foul; 14.1's points (SP-7, SP-17)."""
        del extras
        return 0 if foul else len(pocketed)

    @classmethod
    def short_name(cls) -> str:
        """The game named short, where a button has room for a word: the last of its
        display name ("Rotation", not "61-point rotation")."""
        return cls.display_name.split()[-1].capitalize()

    # -- what the floors above show and keep of the game -----------------------------

    def status_words(self) -> tuple[str, ...]:
        """The game's own words on the scoreboard while the rack is played, before the
        cue ball in hand: the lowest ball (GEN-10) and the ball that wins (NB-10, where
        nothing is called)."""
        words = [] if self.lowest is None else [f"lowest ball: {self.lowest}"]
        if self.winning_ball is not None and not self.calls_shots:  # NB-10
            words.append(f"the {self.winning_ball} wins")
        return tuple(words)

    def player_words(self, player: Player) -> str | None:
        """The game's own words under ``player``'s name on the scoreboard (8-ball's
        group, rotation's points), or None."""
        return None

    def inconsistencies(self, ruling: Ruling) -> list[str]:
        """What the scenario format says every ruling of the game keeps and ``ruling``,
        this state's, does not, one line each (FORMAT.md "14.1"; none in most games)."""
        return []

    @classmethod
    def ruling_words(cls, ruling: Ruling, *, on_break: bool) -> RulingWords:
        """What the game's own part of ``ruling`` (``on_break``: the break's) adds to its
        plain line (rules.lead): nothing in most games."""
        return RulingWords()

    def rack_area(self) -> tuple[Point, ...] | None:
        """An area of the cloth the game has marked, as a polygon's corners (14.1's rack
        outline, where the balls are racked again while the game goes on), or None."""
        return None

    def points_to_win(self, player: Player) -> int | None:
        """The points ``player`` still needs to win the game, where a game is a race of
        points over many racks (14.1: the target less the score, SP-16); None where a
        rack is won otherwise (rotation's points win a rack, ROT-9)."""
        del player
        return None

    def rack_points_to_win(self, player: Player) -> int | None:
        """The points ``player`` still needs to win this rack, where a rack is won on
        points (rotation: 61 less the score, ROT-9); None where a rack is won otherwise
        (a game of points counts its own over many racks: :meth:`points_to_win`)."""
        del player
        return None

    @classmethod
    def ball_points(cls, ball: BallId) -> int:
        """What a legal pot of ``ball`` scores: its number (ROT-9), one (SP-7:
        ``points_per_ball``), nothing where no score is kept."""
        if not cls.keeps_score:
            return 0
        return 1 if cls.points_per_ball else ball_number(ball)

    def cleared_tie_share(self) -> float:
        """Where a rack is won on points (:meth:`rack_points_to_win`), the share of the
        rack a player earns who can no longer reach the target but pockets every ball
        left for a tie on points: half, the rack replayed (ROT-10); a game whose rules
        give the tie to the last pocketer says 1."""
        return 0.5

    def foul_penalty(self, player: Player) -> int:
        """The points a foul by ``player`` on the next shot would cost (14.1's point, or
        sixteen for a third foul in a row, SP-10, SP-13); 0 where a foul costs none."""
        del player
        return 0

    def marked_balls(self) -> tuple[BallId, ...]:
        """Balls the game points out on the table before the shot (14.1's break ball
        after a re-rack); the status words say what they are."""
        return ()

    @classmethod
    def racking_words(cls, ruling: Ruling, table: TableGeometry) -> str | None:
        """What ``ruling`` racks while the rack goes on, as a sentence after the
        referee's plain line (14.1's fourteen balls around the break ball), or None."""
        return None

    def position_extras(self) -> dict[str, Any]:
        """What a position keeps of this game alone, in JSON types, under
        ``position_keys`` (none for most games)."""
        return {}

    def with_position_extras(self, extras: Mapping[str, Any]) -> Self:
        """This state with what a position keeps of the game alone read back from
        ``extras`` (keys of ``position_keys``; one left out keeps its default);
        :class:`~rules.errors.FormatError` naming the key for a value refused."""
        return self

    # -- what the state says ------------------------------------------------------

    @property
    def lowest(self) -> BallId | None:
        """LB: the lowest-numbered object ball on the table."""
        return self.balls.lowest

    @property
    def balls_on(self) -> tuple[BallId, ...]:
        """The object balls the shooter may hit first, lowest number first (GEN-10: the
        lowest ball; 8-ball's EB-8 has a set of them)."""
        return () if self.lowest is None else (self.lowest,)

    @property
    def balls_to_play(self) -> tuple[BallId, ...]:
        """The balls on the shooter may play straight at: all of them, but with the cue
        ball in hand in the kitchen after the break only those on or past the head string
        (WPA 6.11: EB-14, SP-10, ROT-17: a ball behind it may be hit first only once the
        cue ball has crossed it, a kick off a far rail). The computer's pots, spots and
        safeties aim at these."""
        if self.ball_in_hand is not BallInHand.KITCHEN or self.phase is Phase.BREAK:
            return self.balls_on
        return tuple(b for b in self.balls_on if not self._in_kitchen(self.balls[b]))

    @property
    def winning_ball(self) -> BallId | None:
        """The object ball that wins the rack when legally pocketed on this shot wherever
        the others lie (NB-10: the 9; TB-12 under ``ten_ball_early_pocket = win``: the
        called 10), or None where no one ball does (rotation wins on points, ROT-9)."""
        return None

    @property
    def foul_limit_applies(self) -> bool:
        """GEN-15: reaching ``foul_limit`` consecutive fouls loses the rack (9-ball's
        B-28 ``three_foul_rule`` may turn it off)."""
        return True

    @property
    def legal_choices(self) -> frozenset[Choice]:
        return self.pending.choices if self.pending else frozenset()

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def outcome(self) -> RackResult | None:
        """How the rack ended, or None while it is being played."""
        return self.result

    # -- what is legal before the stroke (GEN-5, GEN-6, GEN-7, TB-8) ------------------

    @property
    def shot_turn(self) -> bool:
        """A shot is next: the rack is in play and no choice is waiting."""
        return self.result is None and self.pending is None

    @property
    def legal_declarations(self) -> frozenset[Declaration]:
        """What the shooter may declare on this shot: in a call-shot game, a safety
        instead of a call (GEN-7, TB-13), and a push out only on the shot right after a
        foul-free break (TB-8, NB-8); nothing on the break (TB-4, NB-4). Rotation has
        neither (ROT-1); 9-ball calls nothing, so it offers no safety (NB-17)."""
        if not self.shot_turn or self.phase is Phase.BREAK:
            return frozenset()
        offered = {Declaration.SAFETY} if self.calls_shots else set()
        if self.has_push_out and self.phase is Phase.AFTER_BREAK:
            offered.add(Declaration.PUSH_OUT)
        return frozenset(offered)

    @property
    def every_pot_scores(self) -> bool:
        """Any object ball pocketed on a legal shot scores for the shooter, whichever it
        is and uncalled (ROT-1, ROT-9): a ball sent in off the ball on scores as
        the ball on itself would. Not in 14.1, whose extra balls count only beside the
        called one (SP-7, SP-8), nor in the games won by one ball."""
        return self.keeps_score and not self.calls_shots

    @property
    def calls_allowed(self) -> bool:
        """The shooter may call a ball and pocket on this shot (GEN-7): in a call-shot
        game, after the break (TB-4: nothing is called on the break)."""
        return self.shot_turn and self.calls_shots and self.phase is not Phase.BREAK

    @property
    def call_required(self) -> bool:
        """A shot without a declaration needs a call (GEN-7, B-10 ``call_mode =
        explicit``); under ``infer_obvious`` an obvious shot counts as called."""
        return self.calls_allowed and self.options.call_mode == "explicit"

    def placement_problem(
        self, point: Point, *, fouls_allowed: bool = False, room: float = 0.0
    ) -> Reason | None:
        """Why the cue ball in hand may not be placed at ``point``, or None when it may:
        the rule and the reason in a player's words.

        GEN-5: wholly on the bed and not overlapping a ball (frozen to one is allowed:
        ``contact_epsilon``). GEN-6: from the kitchen, behind the head string
        (``head_string_epsilon``). A spot past the head string is a foul the referee calls
        after the shot unless B-16 ``bad_placement_policy = reject``; ``fouls_allowed``
        asks only what the rules refuse, so such a spot passes. ``room``: clearance a
        caller keeps beyond those limits, from every ball and from the head string."""
        if self.ball_in_hand is None:
            return Reason("GEN-5", "the cue ball is not in hand")
        if not self.table.on_bed(point):
            return Reason("GEN-5", "not on the bed")
        touching = self.balls.overlapping(
            point, self.table.ball_radius, self.options.contact_epsilon - room
        )
        if touching is not None:
            return Reason("GEN-5", f"it would overlap the {touching}")
        refused = not fouls_allowed or self.options.bad_placement_policy == "reject"
        if (
            self.ball_in_hand is BallInHand.KITCHEN
            and refused
            and not self.table.in_kitchen(point, self.options.head_string_epsilon + room)
        ):
            return Reason("GEN-6", "in hand in the kitchen: place it behind the head string")
        return None

    # -- the ways forward: a shot (or its clock run out), a choice, a stalemate -------

    def rule(self, shot: Shot) -> Ruling:
        """The referee's ruling on ``shot``; raises :class:`IllegalAction` for a shot the
        rules refuse (nothing is changed)."""
        self._require_shot_turn()
        start = self._start_positions(shot)
        self._check_facts(shot, start)
        self._check_declarations(shot, start)
        self._check_clock(shot)
        reading = read_shot(start, shot.facts, shot.resting, self.table, self.options)
        verdict = self._verdict(shot, reading, self._resting(shot, reading))
        return self._finish(shot, verdict)

    def push(self, shot: Shot) -> Self:
        return self.apply(self.rule(shot))

    @property
    def shot_clock_on(self) -> bool:
        """A shot clock runs on this rack's shots (GEN-17): one is set, and B-18 does not
        switch it off at hill-hill."""
        off = self.hill_hill and self.options.shot_clock_off_at_hill_hill
        return self.refereed and self.options.shot_clock_s is not None and not off

    def rule_time_foul(self, *, extension: bool = False) -> Ruling:
        """GEN-17: the shot clock ran out before the stroke, so the referee calls the
        ``shot-clock`` foul with no stroke played: the table stays as it lies (a cue ball
        in hand stays in hand) and the incoming player has what a standard foul gives in
        this game; it counts toward consecutive fouls (GEN-15). ``extension``: the
        player had taken a B-18 extension on this shot."""
        shot = Shot(referee_fouls={FoulCode.SHOT_CLOCK}, extension=extension, struck=False)
        return self.rule(shot)

    def time_foul(self, *, extension: bool = False) -> Self:
        return self.apply(self.rule_time_foul(extension=extension))

    def rule_choice(self, choice: Choice | str) -> Ruling:
        """The ruling on the incoming player's ``choice`` (TB-20, ROT-14..17)."""
        if self.result is not None:
            raise IllegalAction("the rack is over")
        if self.pending is None:
            raise IllegalAction(f"there is no choice to make: {self.shooter} is to shoot")
        try:
            choice = Choice(choice)
        except ValueError:
            raise IllegalAction(f"{choice!r} is not a choice") from None
        pending = self.pending
        if choice not in pending.choices:
            allowed = ", ".join(sorted(c.value for c in pending.choices))
            raise IllegalAction(f"{pending.chooser} may choose {allowed}, not {choice.value}")
        if choice is Choice.REPLAY:
            return self._replay(pending)
        rule = pending.rule or self.choice_rule
        effect = self._effect(choice, self.balls, pending.chooser, pending.offender, rule)
        if effect.next_breaker is not None:  # EB-18: racked again
            return self._ruling_between_shots(
                pending.chooser,
                effect.next_breaker,
                effect.reason,
                ball_in_hand=BallInHand.KITCHEN,
                phase=Phase.BREAK,
                rack_over=True,
                rerack=True,
                next_breaker=effect.next_breaker,
            )
        return self._ruling_between_shots(
            pending.chooser,
            effect.next_shooter,
            effect.reason,
            ball_in_hand=effect.ball_in_hand,
            positions=effect.positions,
            spotted=effect.spotted,
        )

    def choose(self, choice: Choice | str) -> Self:
        return self.apply(self.rule_choice(choice))

    def rule_stalemate(self, *, agreed: bool = False) -> Ruling:
        """GEN-16 / B-17: the rack is re-racked and its breaker breaks again."""
        if self.result is not None:
            raise IllegalAction("the rack is over")
        if self.options.stalemate_mode != "manual" and not agreed:
            raise IllegalAction(
                f"stalemate_mode={self.options.stalemate_mode}: a stalemate needs both "
                "players' agreement"
            )
        reasons = (
            Reason(
                "GEN-16",
                f"stalemate: the rack is racked again and {self.breaker}, "
                "who broke it, breaks again",
            ),
            Reason(self.stalemate_rule, "no progress is possible; the rack is replayed"),
        )
        return self._ruling_between_shots(
            self.shooter,
            self.breaker,
            *reasons,
            ball_in_hand=BallInHand.KITCHEN,
            phase=Phase.BREAK,
            warning=frozenset(),
            rack_over=True,
            rerack=True,
            next_breaker=self.breaker,
        )

    def declare_stalemate(self, *, agreed: bool = False) -> Self:
        return self.apply(self.rule_stalemate(agreed=agreed))

    def apply(self, ruling: Ruling) -> Self:
        """The state after ``ruling``, which must be one this state gave."""
        if ruling.turn != self.turn:
            raise IllegalAction(f"that ruling is for turn {ruling.turn}; this is turn {self.turn}")
        pending = None
        if ruling.choices:
            pending = Decision(
                chooser=ruling.next_shooter,
                choices=ruling.choices,
                offender=ruling.player,
                replay_from=self if Choice.REPLAY in ruling.choices else None,
                rule=ruling.choice_rule,
            )
        result = None
        if ruling.rack_over:
            assert ruling.next_breaker is not None
            result = RackResult(
                winner=ruling.winner, rerack=ruling.rerack, next_breaker=ruling.next_breaker
            )
        return attrs.evolve(
            self,
            balls=ruling.positions,
            shooter=ruling.next_shooter,
            phase=ruling.phase,
            ball_in_hand=None if pending or result else ruling.ball_in_hand,
            fouls=ruling.fouls,
            warned=ruling.warning,
            score=ruling.score,
            pending=pending,
            result=result,
            turn=self.turn + 1,
            quiet_innings=ruling.quiet_innings,
            extensions_used=ruling.extensions_used,
        )

    # -- validation (GEN-5, GEN-6, GEN-7, GEN-17) ---------------------------------

    def _require_shot_turn(self) -> None:
        if self.result is not None:
            raise IllegalAction("the rack is over")
        if self.pending is not None:
            allowed = ", ".join(sorted(c.value for c in self.pending.choices))
            raise IllegalAction(f"{self.pending.chooser} must first choose: {allowed}")

    def _start_positions(self, shot: Shot) -> Positions:
        """The balls at the stroke, the cue ball placed from hand where it is in hand (and
        still in hand when no stroke came, GEN-17)."""
        if not shot.struck:
            return self.balls
        if self.ball_in_hand is None:
            if shot.placement is not None:
                raise IllegalAction("the cue ball is not in hand, so it cannot be placed")
            return self.balls
        if shot.placement is None:
            raise IllegalAction(
                f"{self.shooter} has the cue ball in hand ({self.ball_in_hand.value}): "
                "the shot needs its placement"
            )
        point = shot.placement
        problem = self.placement_problem(point, fouls_allowed=True)
        if problem is not None:
            where = f"a cue ball at ({point[0]:.4f}, {point[1]:.4f})"
            raise IllegalAction(f"{problem.rule}: {problem.text} ({where})")
        return self.balls.moved({CUE: point})

    def _check_facts(self, shot: Shot, start: Positions) -> None:
        gone: set[BallId] = set()
        for fact in shot.facts:
            named = fact.balls if isinstance(fact, Hit) else (fact.ball,)
            for ball in named:
                if ball not in start:
                    raise IllegalAction(f"the shot's events name the {ball}, not on the table")
            if isinstance(fact, Pocketing | OffTable):
                if fact.ball in gone:
                    raise IllegalAction(f"the {fact.ball} leaves the table twice")
                gone.add(fact.ball)
        if shot.resting is not None:
            expected = set(start) - gone
            missing, extra = expected - set(shot.resting), set(shot.resting) - expected
            problems = [f"missing {describe(missing)}"] if missing else []
            problems += [f"unexpected {describe(extra)}"] if extra else []
            if problems:
                raise IllegalAction(
                    "the resting positions must hold exactly the balls left on the table: "
                    + "; ".join(problems)
                )

    def _check_declarations(self, shot: Shot, start: Positions) -> None:
        """GEN-7: a call names one object ball on the table; games add their own checks."""
        if shot.call is not None and shot.call.ball not in start.object_balls:
            raise IllegalAction(f"GEN-7: the called {shot.call.ball} is not on the table")

    def _check_clock(self, shot: Shot) -> None:
        if not shot.struck and not self.shot_clock_on:
            raise IllegalAction("GEN-17: no shot clock runs on this shot, so no time foul")
        if not shot.extension:
            return
        if self.options.shot_clock_s is None or self.options.shot_clock_extension_s is None:
            raise IllegalAction("B-18: there are no shot-clock extensions in this match")
        if self.extensions_used[self.shooter] >= self.options.shot_clock_extensions_per_rack:
            raise IllegalAction(f"B-18: {self.shooter} has no extension left in this rack")

    # -- reading the shot (GEN-6, 9..13, 17) --------------------------------------

    def _in_kitchen(self, point: Point) -> bool:
        return self.table.in_kitchen(point, self.options.head_string_epsilon)

    def _crossed_head_string(self, shot: Shot, reading: ShotReading) -> int | None:
        """ROT-17, EB-14: the index of the fact where the cue ball left the kitchen: -1 when
        it was struck from on or past the head string (FORMAT.md), None when it never crossed.

        The ``head-string`` event says it; so does geometry, where the event is missing:
        the cue ball's centre is within 2R of a ball it touches, so its contact with a ball
        still where it lay at the stroke (no event of its own before) 2R or more past the
        string, any touch of the foot cushion, and a drop into a side or foot pocket come
        after it crossed. A cue ball that comes to rest on or past the string crossed at
        some point (taken as the end of the shot: it is then not "never crossed")."""
        if shot.placement is not None and not self._in_kitchen(shot.placement):
            return -1
        past = self.table.head_string_y + self.table.ball_diameter + self.options.contact_epsilon
        moved: set[BallId] = set()  # balls with an event of their own: maybe not at start
        for index, fact in enumerate(shot.facts):
            if isinstance(fact, HeadStringCrossing):
                return index
            if isinstance(fact, RailContact) and fact.ball == CUE and fact.rail is RailName.FOOT:
                return index
            if isinstance(fact, Pocketing) and fact.ball == CUE and fact.pocket not in HEAD_POCKETS:
                return index
            if isinstance(fact, Hit) and fact.involves(CUE):
                ball = fact.other(CUE)
                if ball not in moved and reading.start[ball][1] >= past:
                    return index
            moved.update(fact.balls if isinstance(fact, Hit) else (fact.ball,))
        resting = shot.resting
        if resting is not None and CUE in resting and not self._in_kitchen(resting[CUE]):
            return len(shot.facts)
        return None

    def _resting(self, shot: Shot, reading: ShotReading) -> Positions:
        """Where the balls stopped; without ``resting``, those still on the table stayed."""
        if shot.resting is not None:
            return shot.resting
        gone = set(reading.gone) | ({CUE} if reading.scratched else set())
        return reading.start.without(*gone)

    def _general_fouls(self, shot: Shot, reading: ShotReading) -> list[Foul]:
        """The general fouls of the shot (GEN-6, 9, 12, 13, 17) in this state."""
        return general_fouls(
            shot,
            reading,
            self.table,
            self.options,
            kitchen_in_hand=self.ball_in_hand is BallInHand.KITCHEN,
            hill_hill=self.hill_hill,
        )

    def _counted_call(
        self,
        shot: Shot,
        reading: ShotReading,
        notes: list[Reason],
        *,
        safety_rule: str,
        infer_rule: str,
        never: BallId,
    ) -> Call | None:
        """GEN-7: the call a shot makes, where every shot is called (EB-9, SP-6): none on
        a declared safety (``safety_rule``: EB-19, SP-9), whose call is ignored; without
        one, B-10 ``infer_obvious`` infers a plain pot (``infer_rule``), never of the ball
        ``never``. What was ignored or inferred is noted in ``notes``."""
        if shot.declaration is Declaration.SAFETY:
            if shot.call is not None:
                text = f"a safety was declared: the call of {shot.call} is ignored"
                notes.append(Reason(safety_rule, text))
            return None
        if shot.call is not None:
            return shot.call
        call = obvious_call(reading, self.options, never=never)
        if call is not None:
            text = f"call_mode=infer_obvious: the shot counts as a call of {call}"
            notes.append(Reason(infer_rule, text))
        return call

    def _kitchen_foul(self, shot: Shot, reading: ShotReading) -> Foul | None:
        """WPA 6.11 from the kitchen as 8-ball and 14.1 read it (``kitchen_rule``: EB-14,
        SP-10): the first ball hit may not lie behind the head string unless the cue ball
        crossed it first, and a cue ball that never crosses must hit a ball on or past it."""
        crossed = self._crossed_head_string(shot, reading)
        index, first = reading.first_contact_index, reading.first_contact
        behind = first is not None and self._in_kitchen(reading.start[first])
        if behind and index is not None and (crossed is None or crossed > index):
            text = (
                f"from the kitchen the cue ball hit the {first}, behind the head string, "
                "before crossing it"
            )
            return Foul(FoulCode.KITCHEN, self.kitchen_rule, text)
        if crossed is None and first is None:
            text = "from the kitchen the cue ball neither crossed the head string nor hit a ball"
            return Foul(FoulCode.KITCHEN, self.kitchen_rule, text)
        return None

    def _shot_fouls(self, shot: Shot, reading: ShotReading, *, contact: bool) -> list[Foul]:
        """Every GEN foul of the shot; ``contact``: GEN-10 and GEN-11 apply (not on a
        push out, TB-8). On the break, the break requirement (TB-6, ROT-5) too."""
        is_break = self.phase is Phase.BREAK
        found = self._general_fouls(shot, reading)
        if contact:
            found += contact_fouls(
                reading, self.options, is_break=is_break, break_rule=self.break_first_rule
            )
        if is_break:
            found += break_fouls(reading, self.options, self.break_rule)
        return found

    # -- the game's own judgement (overridden) --------------------------------------

    def _verdict(self, shot: Shot, reading: ShotReading, resting: Positions) -> Verdict:
        raise NotImplementedError

    def _extras(self) -> RulingExtras | None:
        """The game's own part of a ruling as this state leaves it (``extras_type``)."""
        return None

    # -- the verdict's shared steps, which the games' ``_verdict`` are built of -----------

    def _plain(
        self,
        codes: tuple[FoulCode, ...],
        reasons: Iterable[Reason],
        positions: Positions,
        spotted: Mapping[BallId, Point] | None = None,
        pocketed: tuple[BallId, ...] = (),
        **changes: Any,
    ) -> Verdict:
        """The verdict each case of a shot changes what differs from: the inning ends
        and the opponent plays the table as it lies (TB-15, NB-10, EB-10), the ``spotted``
        balls placed on ``positions``; a shot with foul ``codes`` is no legal shot; the
        game's ``changes`` to that."""
        spotted = spotted or {}
        plain = Verdict(
            fouls=codes,
            inning_ends=True,
            positions=positions.moved(spotted),
            spotted=Positions(spotted),
            pocketed=pocketed,
            score=self.score,
            legal_shot=not codes,
            reasons=tuple(reasons),
            extras=self._extras(),
        )
        return attrs.evolve(plain, **changes) if changes else plain

    def _wins(self, plain: Verdict, reason: Reason) -> Verdict:
        """The shooter wins the rack on the shot, as ``reason`` says (TB-12, NB-10, EB-11,
        ROT-9)."""
        return plain.noting(reason, inning_ends=False, winner=self.shooter)

    def _in_hand_anywhere(
        self,
        plain: Verdict,
        *,
        rule: str | None = None,
        why: str = "",
        then: str = "",
        **changes: Any,
    ) -> Verdict:
        """A foul's penalty (TB-17, NB-12, EB-13; ``rule`` by default the game's
        ``foul_in_hand_rule``): the incoming player has the cue ball in hand anywhere.
        ``why`` opens the reason, ``then`` ends it."""
        text = f"{why}{self.shooter.other} has the cue ball in hand anywhere{then}"
        return plain.then(
            Reason(rule or self.foul_in_hand_rule, text),
            positions=plain.positions.without(CUE),
            ball_in_hand=BallInHand.ANYWHERE,
            **changes,
        )

    def _legal_break(self, plain: Verdict, down: tuple[BallId, ...]) -> Verdict:
        """TB-7, NB-7 (a), (b): after a legal break the breaker continues when a ball
        went down, else the opponent plays from the position left; either way the next
        shot may be a push out (TB-8, NB-8)."""
        player, rule = self.shooter, self.legal_break_rule
        may = f"and may push out ({self.push_out_rule})"
        if down:
            return plain.then(
                Reason(rule, f"legal break, {describe(down)} pocketed: {player} continues {may}"),
                inning_ends=False,
                phase=Phase.AFTER_BREAK,
            )
        return plain.then(
            Reason(
                rule,
                f"legal break, nothing pocketed: {player.other} plays from the position left {may}",
            ),
            phase=Phase.AFTER_BREAK,
        )

    def _pushing_out(self, shot: Shot) -> Reason | None:
        """TB-8, NB-8: a push out declared after the break (on it every declaration is
        ignored, TB-4, NB-4), to which wrong ball, no hit and no rail do not apply."""
        if shot.declaration is not Declaration.PUSH_OUT or self.phase is Phase.BREAK:
            return None
        text = f"{self.shooter} pushes out: wrong ball, no hit and no rail do not apply"
        return Reason(self.push_out_rule, text)

    def _pushed_out(self, plain: Verdict) -> Verdict:
        """TB-9, NB-9: after a legal push out the opponent may shoot or pass it back
        (B-5 ``push_out_counts_as_legal_shot``: whether it clears the foul count)."""
        player, other = self.shooter, self.shooter.other
        return plain.then(
            Reason(
                self.push_out_reply_rule,
                f"legal push out: {other} may shoot or pass it back to {player}",
            ),
            choices=SHOOT_OR_PASS,
            legal_shot=self.options.push_out_counts_as_legal_shot,
        )

    def _offer_choices(
        self,
        plain: Verdict,
        choices: Iterable[Choice],
        chooser: Player,
        offer: Reason,
        only: str,
        **changes: Any,
    ) -> Verdict:
        """``chooser`` picks one of ``choices``, as ``offer`` says; a choice that is the
        only one possible is not offered: the ruling applies it itself (EB-6, ROT-15,
        ROT-16, B-22), ``only`` saying why, and the choice's own reason after it."""
        choices = frozenset(choices)
        if len(choices) > 1:
            return plain.then(offer, choices=choices, choice_rule=offer.rule, **changes)
        (choice,) = choices
        effect = self._effect(choice, plain.positions, chooser, self.shooter, offer.rule)
        return plain.then(
            Reason(offer.rule, only),
            effect.reason,
            positions=effect.positions,
            ball_in_hand=effect.ball_in_hand,
            spotted=Positions({**plain.spotted, **effect.spotted}),
            pocketed=tuple(b for b in plain.pocketed if b not in effect.spotted),
            applied_choice=choice,
            choice_spotted=effect.spotted,
            **changes,
        )

    def _effect(
        self, choice: Choice, positions: Positions, chooser: Player, offender: Player, rule: str
    ) -> Effect:
        """SHOOT and PASS, shared; games add theirs. ``rule``: the rule that offered it."""
        if choice is Choice.SHOOT:
            return Effect(
                next_shooter=chooser,
                positions=positions,
                reason=Reason(rule, f"{chooser} shoots from the position left"),
            )
        if choice is Choice.PASS:
            return Effect(
                next_shooter=offender,
                positions=positions,
                reason=Reason(
                    "TB-20",
                    f"{chooser} passes the shot back: {offender} must shoot from the position left",
                ),
            )
        raise IllegalAction(f"{choice.value} is not a choice in {self.game}")

    def _score_reason(self, score: Tally, scored: tuple[BallId, ...]) -> Reason | None:
        """The score line closing every ruling, for games that keep score."""
        return None

    def _with_score(
        self, reasons: Iterable[Reason], score: Tally, scored: tuple[BallId, ...] = ()
    ) -> tuple[Reason, ...]:
        line = self._score_reason(score, scored)
        return (*reasons, *([line] if line else []))

    # -- spotting, for the games ----------------------------------------------------

    @staticmethod
    def _stay_down(rule: str, balls: Iterable[BallId]) -> list[Reason]:
        """That ``balls``, pocketed, stay down (TB-16, NB-11, EB-15); none: nothing to say."""
        down = list(balls)
        if not down:
            return []
        return [Reason(rule, f"{describe(down)} {'stays' if len(down) == 1 else 'stay'} down")]

    def _spot_text(self, ball: BallId, point: Point) -> str:
        """Where a spotted ball went, in a player's words (GEN-4, ROT-12, ROT-13)."""
        eps = self.options.contact_epsilon
        if distance(point, self.table.foot_spot) <= eps:
            return f"the {ball} goes on the foot spot"
        if point[1] >= self.table.length - self.table.ball_radius - eps:
            return f"the {ball} goes on the long string, frozen to the foot cushion"
        if point[1] > self.table.foot_spot[1]:
            return f"the {ball} goes on the long string behind the foot spot (y = {point[1]:.3f} m)"
        return (
            f"the {ball} goes in front of the foot spot, toward the centre spot "
            f"(y = {point[1]:.3f} m)"
        )

    # -- GEN-15, rack end, GEN-3: from verdict to ruling --------------------------------

    def _replay(self, pending: Decision) -> Ruling:
        """ROT-17 sub-case 2 / B-14: back to the state before the shot."""
        before = pending.replay_from
        assert before is not None
        fouls = self.fouls if self.options.replay_counts_as_foul else before.fouls
        warned = self.warned if self.options.replay_counts_as_foul else before.warned
        reason = Reason(
            "ROT-17",
            f"{pending.chooser} asks for a replay: every ball goes back, "
            f"and {pending.offender} shoots again with the cue ball in hand in the "
            "kitchen" + ("" if self.options.replay_counts_as_foul else "; no foul is recorded"),
        )
        return self._ruling_between_shots(
            pending.chooser,
            pending.offender,
            reason,
            ball_in_hand=BallInHand.KITCHEN,
            phase=before.phase,
            positions=before.balls,
            fouls=fouls,
            warning=warned,
            score=before.score,
            quiet_innings=before.quiet_innings,
        )

    def _ruling_between_shots(
        self, player: Player, next_shooter: Player, *reasons: Reason, **changes: Any
    ) -> Ruling:
        """A ruling on no shot (a choice, a replay, a stalemate): by default the table,
        the tallies and the warnings stay as they are, and play goes on."""
        ruling = Ruling(
            turn=self.turn,
            player=player,
            next_shooter=next_shooter,
            phase=Phase.PLAY,
            positions=self.balls,
            fouls=self.fouls,
            warning=self.warned,
            score=self.score,
            quiet_innings=self.quiet_innings,
            extensions_used=self.extensions_used,
            extras=self._extras(),
        )
        ruling = attrs.evolve(ruling, **changes)
        return attrs.evolve(ruling, reasons=self._with_score(reasons, ruling.score))

    def _next_breaker(self, winner: Player | None) -> Player:
        """GEN-3 / B-11 ``break_format`` for the rack after one that was won."""
        fmt = self.options.break_format
        if winner is None or fmt == "alternate":
            return self.breaker.other
        return winner if fmt == "winner_breaks" else winner.other

    def _count_foul(self, verdict: Verdict) -> tuple[Tally, Player | None, list[Reason]]:
        """GEN-15 (with B-23): the foul counts after the shot, the player who wins the rack
        on the shooter's foul limit (if any), and why."""
        player, limit, fouls = self.shooter, self.foul_limit, self.fouls
        if not verdict.fouls:
            if not verdict.legal_shot or not fouls[player]:
                return (fouls.with_value(player, 0) if verdict.legal_shot else fouls), None, []
            cleared = f"{fouls[player]} consecutive foul{'s' * (fouls[player] > 1)}"
            reason = Reason("GEN-8", f"a legal shot clears {player}'s {cleared}")
            return fouls.with_value(player, 0), None, [reason]
        count = fouls[player] + 1  # GEN-14: one foul for the count, whatever the codes
        if not self.foul_limit_applies:
            text = (
                f"{player} has {count} consecutive foul{'s' if count > 1 else ''} "
                "(three_foul_rule=off: fouls lose no rack)"
            )
            return fouls.with_value(player, count), None, [Reason("B-28", text)]
        if count >= limit and (player in self.warned or not self.options.require_warning):
            text = f"{player}'s {ordinal(count)} consecutive foul: {player} loses the rack"
            return (
                fouls.with_value(player, count),
                player.other,
                [Reason(self.foul_limit_rule, text, foul=True)],
            )
        if count >= limit:
            count = limit - 1
            text = f"{player} had not been warned, so this foul counts as the {ordinal(count)}"
        else:
            text = f"{player} has {count} consecutive foul{'s' if count > 1 else ''}"
        return fouls.with_value(player, count), None, [Reason("GEN-15", text)]

    def _finish(self, shot: Shot, verdict: Verdict) -> Ruling:
        """From a game's verdict to the ruling: GEN-15, GEN-16 (auto), rack end, GEN-3."""
        player = self.shooter
        scored = () if verdict.fouls else verdict.pocketed
        fouls, forfeit_to, counted = self._count_foul(verdict)
        reasons = [*verdict.reasons, *counted]
        winner = verdict.winner or forfeit_to
        # A rack lost on fouls is lost, not also played again (B-8's re-rack).
        rerack = verdict.rerack and winner is None
        next_breaker = None if verdict.rerack and not rerack else verdict.next_breaker
        quiet = self._quiet_innings(verdict)
        innings = self.options.stalemate_innings
        if innings is not None and quiet >= 2 * innings and winner is None and not rerack:
            rerack, next_breaker = True, self.breaker
            reasons.append(
                Reason(
                    "GEN-16",
                    f"{quiet} innings without progress "
                    f"(stalemate_mode={self.options.stalemate_mode}): stalemate; "
                    f"{self.breaker}, who broke this rack, breaks again",
                )
            )
        ruling = Ruling(
            turn=self.turn,
            player=player,
            foul_codes=verdict.fouls,
            next_shooter=player.other if verdict.inning_ends else player,
            ball_in_hand=verdict.ball_in_hand,
            choices=verdict.choices,
            choice_rule=verdict.choice_rule if verdict.choices else None,
            phase=verdict.phase,
            positions=verdict.positions,
            spotted=verdict.spotted,
            pocketed=verdict.pocketed,
            applied_choice=verdict.applied_choice,
            choice_spotted=verdict.choice_spotted,
            fouls=fouls,
            score=verdict.score,
            quiet_innings=quiet,
            extensions_used=(
                self.extensions_used.plus(player, 1) if shot.extension else self.extensions_used
            ),
            extras=verdict.extras,
        )
        if winner is not None or rerack:
            next_breaker = next_breaker or self._next_breaker(winner)
            if rerack:
                reasons += verdict.next_turn
            if winner is not None:
                reasons.append(
                    Reason(
                        "GEN-3",
                        f"{winner} wins the {self.race_unit}; {next_breaker} breaks "
                        f"the next {self.race_unit} (break_format={self.options.break_format})",
                    )
                )
            return attrs.evolve(
                ruling,
                next_shooter=next_breaker,
                ball_in_hand=BallInHand.KITCHEN,
                choices=frozenset(),
                choice_rule=None,
                applied_choice=None,
                choice_spotted=Positions(),
                phase=Phase.BREAK,
                rack_over=True,
                winner=winner,
                rerack=rerack,
                next_breaker=next_breaker,
                reasons=self._with_score(reasons, verdict.score, scored),
            )
        reasons += verdict.next_turn
        if verdict.inning_ends:
            reasons.append(
                Reason("GEN-1", f"{player}'s inning ends; {player.other} comes to the table")
            )
        warning = frozenset(
            p for p in Player if self.foul_limit_applies and fouls[p] == self.foul_limit - 1
        )
        reasons += [
            Reason("GEN-15", f"{p} is warned: one more consecutive foul loses the rack")
            for p in sorted(warning)
        ]
        return attrs.evolve(
            ruling, warning=warning, reasons=self._with_score(reasons, verdict.score, scored)
        )

    def _quiet_innings(self, verdict: Verdict) -> int:
        """B-17 ``auto_no_progress``: innings in a row in which no object ball left the
        table for good."""
        if len(verdict.positions.object_balls) < len(self.balls.object_balls):
            return 0
        return self.quiet_innings + (1 if verdict.inning_ends else 0)
