"""What the player is doing at the table, with no window: the desktop's logic.

:class:`TableController` holds the game, the stage of the turn (lag, ball in hand, aim,
waiting for the physics, watching the shot, the incoming player's choice, match over),
the aim (direction, power, tip offset, elevation), the cue ball placed from hand, the
call and the declaration. The window (``sim.app.main``) turns mouse and keys into calls
here and draws what the controller says; tests drive it directly.

The physics and the autosave are handed in, by what they do: a
:class:`sim.physics.simulator.Simulator` (the worker process in the window, the in-process
one in tests and scripts) and an :class:`sim.play.autosaver.Autosaver` (the store's
autosave), so the turn's logic names neither a process nor a file format.

Every refused action raises :class:`sim.play.game.GameError` (one line, nothing changed);
the window shows the line and carries on.

On a practice table (``GameSetup.practice``) the player sets the table up by hand
(:meth:`TableController.begin_setup`: a :class:`~sim.play.tablesetup.TableSetup` in
progress, the stage ``SETUP``) and shoots from it (:meth:`TableController.setup_done`:
the set-up becomes a step of the game, :meth:`Game.set_up`).

A seat may be the computer's (``computers``: the player and the level): at its turn the
controller asks a :class:`sim.play.opponent.thinker_process.Thinking` for the move (the
window's is a process of its own, so the window keeps drawing while it thinks), shows
the stroke on the cue for :data:`SHOW_COMPUTER_AIM` seconds, then strikes it; choices,
the breaker and its lag are played the same way. :meth:`TableController.ask_hint` asks
the same thinker what the person at the table should play, and loads it.

Take it again (:meth:`TableController.take_back`) puts the table and the match back as
they were before the last shot with that shot's stroke loaded, the shot kept in the game
as a branch; :meth:`TableController.play_from` does the same from any shot of any line
(the replay's "play from here"), the new attempt a branch of its own; and
:meth:`TableController.continue_from` plays on from any step.

Tracking lines (:attr:`TableController.tracking`): while the aim rests, the stroke is
simulated ahead anyway (so that a strike moves at once); with tracking on, that
preview's shot is read into :class:`sim.physics.tracking.TrackingLines` (the cue ball's
path and the first object ball's) for the window to draw. Any change of the stroke drops
them at once; the next preview brings new ones.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import TypeAlias

import attrs

from rules import (
    CUE,
    BallId,
    Call,
    Choice,
    Declaration,
    GameState,
    MatchPhase,
    Phase,
    Player,
    PocketId,
    Reason,
    Ruling,
)
from rules.geometry import Point, distance
from rules.words import DECLARATION_WORDS
from sim.names import computer_name
from sim.physics.simulate import MAX_SPEED, MISCUE_LIMIT, CueAction, SimulatedShot
from sim.physics.simulator import ShotFailed, ShotRequest, ShotResult, Simulator
from sim.physics.timeline import ShotTimeline
from sim.physics.tracking import TrackingLines, tracking_lines
from sim.play.autosaver import Autosaver
from sim.play.cueclearance import MAX_AIM_ELEVATION, Clearance, clearance
from sim.play.game import (
    ChoiceRecord,
    ComputerPlayer,
    Game,
    GameError,
    LagRecord,
    Node,
    PreparedShot,
    Record,
    SetupRecord,
    ShotRecord,
    StalemateRecord,
    Stroke,
    shot_name,
)
from sim.play.opponent.lag import lag_stroke
from sim.play.opponent.player import Kind, Move, ThinkRequest
from sim.play.opponent.thinker_process import Hint, InProcessThinker, ThinkFailed, Thinking
from sim.play.position import Position
from sim.play.stalemate import (
    COMPUTER_OFFERS,
    OFFER_AGAIN_AFTER,
    PERSON_MAY_OFFER,
    computer_offers,
    innings_to_offer,
    last_declined,
    person_may_offer,
)
from sim.play.tablesetup import TableSetup

MIN_POWER_SPEED = 0.3  # m/s at the bottom of the power meter
PREVIEW_AFTER = 0.15  # seconds the aim must rest before it is simulated ahead
LAG_STARTS = (0.25, 0.75)  # across the width: A's lag ball on the left, B's on the right
DEFAULT_POWER = 0.45  # a player's first stroke after the break (about 3 m/s)
BREAK_POWER = 0.9
SHOW_COMPUTER_AIM = 0.8  # seconds the computer's cue rests on its aim before it strokes


class Stage(StrEnum):
    LAG = "lag"  # a player sets up a lag stroke (A, then B)
    BREAKER = "breaker"  # the lag winner chooses who breaks
    PLACE = "place"  # the cue ball is in hand
    AIM = "aim"
    SIMULATING = "simulating"  # struck; the physics is working
    WATCH = "watch"  # the shot plays out
    CHOOSE = "choose"  # the incoming player's option
    OFFER = "offer"  # a stalemate offered (GEN-16): the other player agrees or plays on
    OVER = "over"  # the match is over
    SETUP = "setup"  # the practice table is being set up by hand


@attrs.define
class Aim:
    """The stroke being set up. ``power`` in [0, 1] maps onto the cue speed."""

    direction: float = 90.0  # degrees; 90 = up the table
    power: float = DEFAULT_POWER
    a: float = 0.0  # tip offset, ball radii: + is left of centre (pooltool)
    b: float = 0.0  # + follow, - draw
    elevation: float = 0.0
    # A stroke loaded as it was played (take it again), and the setting it was loaded as:
    # given back exactly while the setting is unchanged (power to speed and back rounds).
    _loaded: tuple[CueAction, tuple[float, ...]] | None = attrs.field(
        default=None, init=False, repr=False, eq=False
    )

    @classmethod
    def of(cls, action: CueAction) -> Aim:
        """The aim that strikes ``action``, exactly, until it is changed."""
        share = (action.speed - MIN_POWER_SPEED) / (MAX_SPEED - MIN_POWER_SPEED)
        aim = cls(
            direction=action.aim,
            power=min(1.0, max(0.0, share)) ** (2 / 3),
            a=action.a,
            b=action.b,
            elevation=action.elevation,
        )
        aim._loaded = (action, aim._setting())
        return aim

    def _setting(self) -> tuple[float, ...]:
        return (self.direction, self.power, self.a, self.b, self.elevation)

    @property
    def speed(self) -> float:
        if self._loaded is not None and self._loaded[1] == self._setting():
            return self._loaded[0].speed
        return float(MIN_POWER_SPEED + self.power**1.5 * (MAX_SPEED - MIN_POWER_SPEED))

    def action(self) -> CueAction:
        if self._loaded is not None and self._loaded[1] == self._setting():
            return self._loaded[0]
        return CueAction(
            speed=self.speed,
            aim=self.direction % 360.0,
            elevation=self.elevation,
            a=self.a,
            b=self.b,
        )


@attrs.define
class InFlight:
    """A stroke (or both lag strokes) with the physics: the simulator's jobs, their results
    as they come, and when the player struck."""

    prepared: PreparedShot | None  # None for the lag
    requests: tuple[ShotRequest, ...]
    jobs: tuple[int, ...]
    struck: float
    results: dict[int, ShotResult] = attrs.Factory(dict)


@attrs.frozen
class Watching:
    """A shot (or the two lag shots) playing out on screen."""

    timelines: tuple[ShotTimeline, ...]
    record: Record
    started: float  # the clock's time when the balls started moving

    @property
    def duration(self) -> float:
        return max(t.duration for t in self.timelines)


# A step the HUD's referee line is about: a ruled step, the lag, or a set-up.
Spoken: TypeAlias = ShotRecord | ChoiceRecord | StalemateRecord | LagRecord | SetupRecord


def _ruling_of(spoken: Spoken | None) -> Ruling | None:
    return (
        spoken.ruling if isinstance(spoken, ShotRecord | ChoiceRecord | StalemateRecord) else None
    )


@attrs.frozen
class Asked:
    """A decision with the thinker: its job, for whom (``hint``: the person's hint), at
    which step of the game it was asked, and when."""

    job: int
    player: Player
    hint: bool
    node: Node
    since: float
    declined: int | None = None  # where its last stalemate offer was declined (innings)


@attrs.frozen
class StalemateOffer:
    """A stalemate offered (GEN-16) at the step ``node``, by ``by``, that the other
    player (a person: the computer answers at once) is to agree to or decline."""

    by: Player
    node: Node
    quiet: int  # innings in a row with no ball down, when it was offered


@attrs.frozen
class Showing:
    """The computer's stroke on the cue, struck at ``until``."""

    stroke: Stroke
    until: float


@attrs.frozen
class HintShown:
    """The hint loaded for the person: the words and where the cue ball would end."""

    words: str
    cue_after: Point | None


class TableController:
    def __init__(
        self,
        game: Game,
        worker: Simulator,
        autosave: Autosaver | None = None,
        clock: Callable[[], float] = time.monotonic,
        resumed: bool = False,
        computers: Mapping[Player, str] | None = None,
        thinker: Callable[[], Thinking] = InProcessThinker,
    ) -> None:
        self.game = game
        # The paths of the stroke being aimed, drawn from the preview's simulation (on by
        # default on the practice table; off in matches unless chosen).
        self.tracking: bool = False
        # The table being set up by hand on the practice table (None: not now).
        self.setting_up: TableSetup | None = None
        # The seats the computer plays, and at which level; the others are people's.
        self.computers: dict[Player, str] = dict(computers or {})
        self._new_thinker = thinker  # made at the first decision or hint, then kept
        self.thinker: Thinking | None = None
        self.thinking: Asked | None = None
        self.showing: Showing | None = None
        self.hint: HintShown | None = None
        self._retakes = 0  # shots taken back: a computer's next try is a new decision
        self.worker = worker
        self.autosave = autosave
        # The autosave holds this game (resumed from it, or saved once): another game
        # there is archived before this one's first save takes its place.
        self._autosaved = resumed
        self.clock = clock
        self.aim = Aim()
        # Each player's power at their last stroke (the break's is nobody's): the
        # incoming player's stroke starts from their own, never the other's.
        self.powers: dict[Player, float] = {}
        self.placement: Point | None = None
        self.placed = False  # the player has put the cue ball down and moved on to aim
        self.call: Call | None = None
        self.declaration: Declaration | None = None
        # The lag strokes set so far (A's, then B's): where, the stroke, and who struck
        # it (None: a person).
        self.lag_strokes: list[tuple[Point, CueAction, ComputerPlayer | None]] = []
        # A stalemate offered and waiting for the other player's answer; and an offer of
        # the computer's declined at a step (with the quiet innings then) before its shot
        # there carries it (``ComputerPlayer.declined``).
        self.offer: StalemateOffer | None = None
        self._declined: tuple[Node, int] | None = None
        self.watching: Watching | None = None
        self.waiting: InFlight | None = None
        self.message = ""  # the last refusal or notice, for the HUD
        # The referee's last words (a ruling's reasons, or the lag's verdict), for the HUD;
        # on a game read back (or a step gone back to), those of its last step; ``spoken``:
        # the step they are about.
        self.spoken: Spoken | None = self._last_spoken()
        self.last_ruling: Ruling | None = _ruling_of(self.spoken)
        self.reasons: tuple[Reason, ...] = self.last_ruling.reasons if self.last_ruling else ()
        # How each ball is turned, carried from shot to shot so numbers never snap back;
        # and as it was before each shot watched here, for the shot taken back.
        self.orientations: dict[BallId, tuple[float, float, float, float]] = {}
        self._turned_before: dict[ShotRecord, dict[BallId, tuple[float, float, float, float]]] = {}
        self.latencies: list[float] = []  # stroke to motion, seconds
        self._aim_changed = self.clock()
        self._previewed = -1.0
        # Tracking lines: the paths of the stroke being aimed, from its preview (off in
        # a match unless the player turns them on; the practice table turns them on).
        self.tracking = False
        self._tracked: TrackingLines | None = None
        self._tracking_request: ShotRequest | None = None  # the preview they come from
        # Seconds from the aim coming to rest (PREVIEW_AFTER after its last change) to
        # its tracking lines, for each set shown (the bench and the report read them).
        self.tracking_latencies: list[float] = []
        self.call_ball: BallId | None = None  # clicked, waiting for its pocket (10-ball)
        self.clock_started = self.clock()  # the shot clock (GEN-17) starts each turn
        self._paused_at: float | None = None
        self.extension = False  # a shot-clock extension asked for (B-18)
        self._save_thread: threading.Thread | None = None
        self._reset_turn()

    # -- what the controller says ------------------------------------------------------

    @property
    def state(self) -> GameState | None:
        return self.game.rack

    @property
    def practice(self) -> bool:
        """This is a practice table (set-ups and free play), not a match."""
        return self.game.setup.practice

    @property
    def stage(self) -> Stage:
        if self.watching is not None:
            return Stage.WATCH
        if self.waiting is not None:
            return Stage.SIMULATING
        if self.setting_up is not None:
            return Stage.SETUP
        if self.pending_offer is not None:
            return Stage.OFFER
        phase = self.game.phase
        if phase is MatchPhase.LAG:
            return Stage.LAG
        if phase is MatchPhase.BREAKER_CHOICE:
            return Stage.BREAKER
        if phase is MatchPhase.OVER:
            return Stage.OVER
        state = self.state
        assert state is not None
        if state.pending is not None:
            return Stage.CHOOSE
        if state.ball_in_hand is not None and not self.placed:
            return Stage.PLACE
        return Stage.AIM

    @property
    def shooter(self) -> Player:
        """Whose turn it is: to lag, to choose, to shoot, or to answer a stalemate offered."""
        offer = self.pending_offer
        if offer is not None:
            return offer.by.other
        if self.game.phase is MatchPhase.LAG:
            return Player.A if not self.lag_strokes else Player.B
        if self.game.phase is MatchPhase.BREAKER_CHOICE:
            assert self.game.match.lag_winner is not None
            return self.game.match.lag_winner
        state = self.state
        assert state is not None
        return state.pending.chooser if state.pending is not None else state.shooter

    def balls(self) -> dict[BallId, Point]:
        """The balls at rest as the player sees them (the cue ball where it is placed;
        at the lag, the player's lag ball; the table being set up as it is now)."""
        if self.setting_up is not None:
            return dict(self.setting_up.balls)
        if self.game.phase is MatchPhase.LAG:
            return {CUE: self.lag_start()}
        state = self.state
        if state is None:
            return {}
        balls = dict(state.balls)
        if state.ball_in_hand is not None and self.placement is not None:
            balls[CUE] = self.placement
        return balls

    @property
    def shot_in_play(self) -> bool:
        """A shot is in flight or playing out: what the player asks meanwhile (the aim,
        power, tip, elevation, the call, a declaration) is not for the next stroke, and
        is ignored."""
        return (
            self.watching is not None or self.waiting is not None or self.computer_level is not None
        )

    @property
    def computer_level(self) -> str | None:
        """The level of the computer whose turn it is (None: a person's turn, or none)."""
        if self.stage is Stage.OVER:
            return None
        return self.computers.get(self.shooter)

    def seat_name(self, player: Player) -> str:
        """Who plays ``player``'s seat: "Computer (level 5)", or the person's name."""
        level = self.computers.get(player)
        name = self.game.setup.name(player)
        if level is None or name.startswith("Computer"):  # named so on the start screen
            return name
        return computer_name(level)

    def thinking_words(self) -> str | None:
        """ "Computer (level 5) is thinking… 1.2 s" (or the hint's), while it thinks."""
        asked = self.thinking
        if asked is None:
            return None
        seconds = f"{max(0.0, self.clock() - asked.since):.1f} s"
        if asked.hint:
            return f"Hint: the computer is thinking… {seconds}"
        return f"{self.seat_name(asked.player)} is thinking… {seconds}"

    def cue_ball(self) -> Point | None:
        return self.balls().get(CUE)

    def lag_balls(self) -> list[Point]:
        """Both lag balls where they wait: A's on the left, B's on the right."""
        geometry = self.game.setup.spec.geometry
        return [(geometry.width * side, geometry.head_string_y * 0.5) for side in LAG_STARTS]

    def lag_start(self) -> Point:
        geometry = self.game.setup.spec.geometry
        side = LAG_STARTS[len(self.lag_strokes) % 2]
        return (geometry.width * side, geometry.head_string_y * 0.5)

    def can_declare(self, declaration: Declaration) -> bool:
        """The rules allow ``declaration`` on this shot (``GameState.legal_declarations``:
        GEN-7, TB-8, TB-13) and the player is setting up a stroke."""
        state = self.state
        return (
            state is not None
            and self.stage in (Stage.AIM, Stage.PLACE)
            and declaration in state.legal_declarations
        )

    @property
    def can_call(self) -> bool:
        """The rules allow a call on this shot (``GameState.calls_allowed``: 10-ball after
        the break, GEN-7), the player is setting up a stroke and declares no safety or
        push out."""
        state = self.state
        return (
            state is not None
            and state.calls_allowed
            and self.declaration is None
            and self.stage in (Stage.AIM, Stage.PLACE)
        )

    @property
    def needs_call(self) -> bool:
        """A call is required (``GameState.call_required``: GEN-7, B-10 ``call_mode =
        explicit``), not just allowed."""
        state = self.state
        return self.can_call and state is not None and state.call_required

    # -- ball in hand (GEN-5, GEN-6) -------------------------------------------------------

    def legal_placement(self, point: Point) -> str | None:
        """Why the cue ball may not go at ``point`` (None: it may), as the state says
        (``GameState.placement_problem``: GEN-5, GEN-6). No foul is allowed: the window
        refuses a spot past the head string that the referee would only call a foul."""
        state = self.state
        if state is None:
            return "the cue ball is not in hand"
        problem = state.placement_problem(point)
        return None if problem is None else problem.text

    def move_cue_ball(self, point: Point) -> bool:
        """Drag the cue ball in hand to ``point`` if it may go there; True if it moved."""
        if self.stage is not Stage.PLACE or self.computer_level is not None:
            return False
        if self.legal_placement(point) is not None:
            return False
        self.placement = point
        self._touch_aim()
        return True

    def confirm_placement(self) -> None:
        """Put the cue ball down and move on to aiming."""
        if self.stage is not Stage.PLACE:
            raise GameError("the cue ball is not in hand")
        self._refuse_at_computer_turn()
        if self.placement is None:
            raise GameError("place the cue ball first")
        reason = self.legal_placement(self.placement)
        if reason is not None:
            raise GameError(f"the cue ball cannot go there: {reason}")
        self.placed = True
        self.message = ""
        state = self.state
        if state is not None and state.lowest is not None:
            self.aim_at(state.balls[state.lowest])  # from where the cue ball now is

    def pick_up_cue_ball(self) -> None:
        """Back from aiming to placing, while the cue ball is still in hand."""
        if self.shot_in_play:
            return
        state = self.state
        if self.stage is Stage.AIM and state is not None and state.ball_in_hand is not None:
            self.placed = False

    # -- call and declarations (GEN-7, TB-8, TB-13) ---------------------------------------

    def call_shot(self, ball: BallId, pocket: PocketId | str) -> None:
        if self.shot_in_play:
            return
        state = self.state
        if state is None or not state.calls_allowed:
            raise GameError("no call is needed here")
        if ball not in state.balls or ball == CUE:
            raise GameError(f"the {ball} is not on the table")
        self.call = Call(ball=ball, pocket=PocketId(pocket))
        self.call_ball = None
        self.declaration = None
        self.message = ""
        self._touch_aim()

    def declare(self, declaration: Declaration | None) -> None:
        if self.shot_in_play:
            return
        if declaration is not None and not self.can_declare(declaration):
            raise GameError(f"a {DECLARATION_WORDS[declaration]} cannot be declared now")
        self.declaration = declaration
        if declaration is not None:
            self.call = None
        self._touch_aim()

    # -- aim ----------------------------------------------------------------------------------

    def set_direction(self, degrees: float) -> None:
        if self.shot_in_play:
            return
        self.aim.direction = degrees % 360.0
        self._touch_aim()

    def turn(self, degrees: float) -> None:
        self.set_direction(self.aim.direction + degrees)

    def aim_at(self, point: Point) -> None:
        cue = self.cue_ball()
        if cue is not None and distance(cue, point) > 1e-6:
            self.set_direction(math.degrees(math.atan2(point[1] - cue[1], point[0] - cue[0])))

    def set_power(self, power: float) -> None:
        if self.shot_in_play:
            return
        self.aim.power = min(1.0, max(0.0, power))
        self._touch_aim()

    def set_tip(self, a: float, b: float) -> None:
        """Tip offset, kept inside the miscue limit."""
        if self.shot_in_play:
            return
        size = math.hypot(a, b)
        if size > MISCUE_LIMIT:
            a, b = a * MISCUE_LIMIT / size, b * MISCUE_LIMIT / size
        self.aim.a, self.aim.b = a, b
        self._touch_aim()

    def set_elevation(self, degrees: float) -> None:
        if self.shot_in_play:
            return
        self.aim.elevation = min(MAX_AIM_ELEVATION, max(0.0, degrees))
        self._touch_aim()

    def cue_clearance(self) -> Clearance:
        """The elevation the stroke is played with: the player's, or raised over the
        balls behind the cue ball (:mod:`sim.play.cueclearance`)."""
        aim, balls = self.aim, self.balls()
        cue = balls.get(CUE)
        if cue is None:
            return Clearance(aim.elevation)
        radius = self.game.setup.spec.geometry.ball_radius
        return clearance(cue, aim.direction, aim.a, aim.b, aim.elevation, balls, radius)

    def stroke(self) -> Stroke:
        state = self.state
        placement = self.placement if state is not None and state.ball_in_hand is not None else None
        timed = state is not None and state.options.shot_clock_s is not None
        return Stroke(
            action=attrs.evolve(self.aim.action(), elevation=self.cue_clearance().elevation),
            placement=placement,
            call=self.call,
            declaration=self.declaration,
            clock_s=self.clock() - self.clock_started if timed else None,
            extension=self.extension,
        )

    def shot_clock_left(self) -> float | None:
        """Seconds left on the shot clock (negative once it has run out), or None."""
        state = self.state
        if state is None or state.options.shot_clock_s is None:
            return None
        if self.stage not in (Stage.AIM, Stage.PLACE):
            return None
        limit = state.options.shot_clock_s
        if self.extension and state.options.shot_clock_extension_s is not None:
            limit += state.options.shot_clock_extension_s
        return limit - (self.clock() - self.clock_started)

    def pause_clock(self) -> None:
        """The shot clock stops while the player is away from the table (menu, replay)."""
        if self._paused_at is None:
            self._paused_at = self.clock()

    def resume_clock(self) -> None:
        if self._paused_at is not None:
            self.clock_started += self.clock() - self._paused_at
            self._paused_at = None

    def take_extension(self) -> None:
        """B-18: more time on this shot, if the player has an extension left."""
        if self.stage not in (Stage.AIM, Stage.PLACE):
            raise GameError("an extension is taken before a stroke")
        state = self.state
        if state is None or state.options.shot_clock_extension_s is None:
            raise GameError("there are no shot-clock extensions in this match")
        if state.extensions_used[state.shooter] >= state.options.shot_clock_extensions_per_rack:
            raise GameError("no extension left in this rack")
        self.extension = True

    # -- the stroke ---------------------------------------------------------------------------

    def strike(self) -> None:
        """Play the stroke as it is set up (or, at the lag, set this player's lag)."""
        stage = self.stage
        if stage is Stage.LAG:
            self._refuse_at_computer_turn()
            self._strike_lag()
            return
        if stage is Stage.PLACE:  # say what is missing, not just that something is
            raise GameError("the cue ball is in hand: put it down first (click, or Space)")
        if stage is Stage.OVER:
            raise GameError("the match is over: New game, or replay the shots")
        if stage in (Stage.CHOOSE, Stage.BREAKER):
            raise GameError("first the choice: one of the buttons below")
        if stage is not Stage.AIM:
            raise GameError("not ready to shoot")
        self._refuse_at_computer_turn()
        self._strike(self.stroke())

    def _refuse_at_computer_turn(self) -> None:
        level = self.computer_level
        if level is not None:
            raise GameError(f"it is {computer_name(level)}'s turn: it is at the table")

    def _strike(self, stroke: Stroke) -> None:
        prepared = self.game.prepare(stroke)
        state = self.state
        if state is not None and state.phase is not Phase.BREAK:
            self.powers[state.shooter] = self.aim.power
        request = ShotRequest.of(
            self.game.setup.table.value, prepared.start, prepared.stroke.action
        )
        self.waiting = InFlight(prepared, (request,), (self.worker.shoot(request),), self.clock())
        self.message = ""
        self._untrack()

    def _strike_lag(self, by: ComputerPlayer | None = None) -> None:
        start = self.lag_start()
        self.powers[self.shooter] = self.aim.power  # each lags with their own touch
        self.lag_strokes.append((start, self.aim.action(), by))
        if len(self.lag_strokes) < 2:
            self.aim = Aim(direction=90.0, power=self.powers.get(Player.B, DEFAULT_POWER))
            return
        (start_a, action_a, _), (start_b, action_b, _) = self.lag_strokes
        table = self.game.setup.table.value
        requests = (
            ShotRequest.of(table, {CUE: start_a}, action_a),
            ShotRequest.of(table, {CUE: start_b}, action_b),
        )
        jobs = tuple(self.worker.shoot(request) for request in requests)
        self.waiting = InFlight(None, requests, jobs, self.clock())

    def update(self) -> None:
        """Once a frame: collect the physics, finish a watched shot, preview a resting aim."""
        if not self.worker.alive:
            self._restart_worker()
        flight = self.waiting
        for reply in self.worker.poll():
            if isinstance(reply, ShotFailed) and flight is not None and reply.job in flight.jobs:
                self._abandon(f"the physics failed on this shot ({reply.message}); shoot again")
        if self.waiting is not None:
            self._collect()
        if (
            self.watching is not None
            and self.clock() - self.watching.started >= self.watching.duration
        ):
            self.finish_watching()
        resting = self.clock() - self._aim_changed >= PREVIEW_AFTER
        fresh = self._aim_changed != self._previewed
        # The computer's aim is worth simulating ahead once it is its stroke, not before.
        considered = self.computer_level is None or self.showing is not None
        if self.stage is Stage.AIM and self.worker.ready and resting and fresh and considered:
            self._previewed = self._aim_changed  # once per resting aim
            self._preview()
        self._track()
        self._think()

    @property
    def tracking_lines(self) -> TrackingLines | None:
        """The tracking lines to draw now: on, aiming, and the preview of exactly this
        stroke back (None otherwise: nothing is drawn)."""
        if not self.tracking or self.stage is not Stage.AIM:
            return None
        return self._tracked

    @property
    def tracking_pending(self) -> bool:
        """Tracking lines are on their way: on, aiming, none yet, and the aim still to
        rest or its preview still in the physics (False if the stroke cannot be played,
        as it is never previewed)."""
        if not self.tracking or self.stage is not Stage.AIM or self._tracked is not None:
            return False
        return self._previewed != self._aim_changed or self._tracking_request is not None

    def _track(self) -> None:
        """Read the preview of the resting stroke into tracking lines, once it is back."""
        if not self.tracking or self._tracked is not None or self._tracking_request is None:
            return
        result = self.worker.preview_result()
        if result is None or result.request != self._tracking_request:
            return  # not back yet (or an older stroke's, already dropped)
        self._tracked = tracking_lines(result.shot)
        self.tracking_latencies.append(self.clock() - self._aim_changed - PREVIEW_AFTER)

    # -- the computer at the table, and the hint -----------------------------------------

    def _thinker(self) -> Thinking:
        if self.thinker is None:
            self.thinker = self._new_thinker()
        elif not self.thinker.alive:
            self.thinker = self.thinker.restart()
            self.thinking = None
        return self.thinker

    def start_thinking(self) -> None:
        """Start the thinker now (its process loads the physics before it is asked)."""
        self._thinker()

    def _ask(self, player: Player, level: str, *, hint: bool) -> None:
        state = self.state
        assert state is not None
        declined = None if hint else self.declined_at()
        table = self.game.setup.table.value
        request = ThinkRequest(state, table, level, self._entropy(), declined=declined)
        job = self._thinker().ask(request, hint=hint)
        self.thinking = Asked(job, player, hint, self.game.current, self.clock(), declined)

    def _entropy(self) -> tuple[int, ...]:
        """The seed of a decision: the match's seed and the step it is made at (and the
        shots taken back, so a computer's shot taken back is thought through again)."""
        game = self.game
        return (game.setup.seed, game.match.rack_number, len(game.records), self._retakes)

    def ask_hint(self) -> None:
        """What would the computer play here, for the person at the table: asked of the
        thinker; loaded on the cue (aim, power, tip, placement, call) when it answers."""
        if self.stage not in (Stage.AIM, Stage.PLACE) or self.computer_level is not None:
            raise GameError("a hint is for the person at the table, before a stroke")
        if self.thinking is not None and self.thinking.hint:
            return  # already thinking about it
        self.hint = None
        self._ask(self.shooter, "perfect", hint=True)
        self.message = ""

    def _think(self) -> None:
        """Once a frame: the computer's turn played, a step at a time (ask, wait for the
        answer, show the stroke, strike), and a hint collected when it comes."""
        asked = self.thinking
        if asked is not None and (
            asked.node is not self.game.current or (self.shot_in_play and asked.hint)
        ):
            self._drop_thinking()  # the table moved on (taken back, another step)
            asked = None
        if self.waiting is not None or self.watching is not None:
            return
        level = self.computer_level
        if asked is not None and not asked.hint and self._paused_at is not None:
            return  # it plays once the person is back from the menu or the replay
        if asked is not None:
            found = self._thinker().take(asked.job)
            if found is None:
                return
            self.thinking = None
            if isinstance(found, ThinkFailed):
                self._thinking_failed(asked, found)
                return
            if asked.hint:
                self._load_hint(found.move.plan, found.hint)
                return
            self._play(found.move, asked)
            return
        if level is None or self._paused_at is not None:  # not behind the menu or a replay
            return
        if self.showing is not None:
            if self.clock() >= self.showing.until:
                stroke, self.showing = self.showing.stroke, None
                try:
                    self._strike(stroke)
                except GameError as error:
                    self._give_up(
                        f"{self.seat_name(self.shooter)} could not play its stroke ({error})"
                    )
            return
        stage = self.stage
        if stage is Stage.LAG:
            # The lag's seed: the decision's, and which of the two lag strokes it is.
            computer = ComputerPlayer(level, (*self._entropy(), len(self.lag_strokes)))
            self.aim = Aim.of(lag_stroke(self.shooter, computer))
            self._strike_lag(by=computer)
            self.message = (
                f"{self.seat_name(self.shooter)} lagged: a plain stroke up the table at a "
                "lag's pace, with its level's touch"
            )
        elif stage is Stage.BREAKER:  # the break is worth having: it takes it
            self.choose_breaker(self.shooter)
        elif stage is Stage.OFFER:  # the seat became the computer's with an offer open
            offer = self.pending_offer
            assert offer is not None
            self.offer = None
            self._answer_by_judgement(offer, level)
        else:
            self._ask(self.shooter, level, hint=False)

    def _play(self, move: Move, asked: Asked) -> None:
        level = self.computers.get(asked.player)
        if level is None:
            return  # the seat became a person's meanwhile
        if move.choice is not None:
            self._choose(move.choice, by=ComputerPlayer(level, self._entropy()))
            return
        if move.kind is Kind.STALEMATE:
            self._computer_offers(asked.player, level)
            return
        assert move.stroke is not None  # every move but a choice or a stalemate strikes
        computer = ComputerPlayer(level, self._entropy(), declined=asked.declined)
        stroke = attrs.evolve(move.stroke, player=computer)
        self._load(stroke)
        self.showing = Showing(stroke, self.clock() + SHOW_COMPUTER_AIM)

    def _load(self, stroke: Stroke) -> None:
        """``stroke`` on the cue: aim, power, tip, elevation, the cue ball placed, the call."""
        self.aim = Aim.of(stroke.action)
        self.call, self.declaration = stroke.call, stroke.declaration
        state = self.state
        if stroke.placement is not None and state is not None and state.ball_in_hand is not None:
            self.placement, self.placed = stroke.placement, True
        self._touch_aim()

    def _load_hint(self, plan: Stroke | None, hint: Hint | None) -> None:
        if plan is None or hint is None or self.stage not in (Stage.AIM, Stage.PLACE):
            self.message = f"Hint: {hint.words}" if hint is not None else ""
            return
        self._load(plan)
        self.hint = HintShown(hint.words, hint.cue_after)
        self.message = f"Hint: {hint.words}"

    def _thinking_failed(self, asked: Asked, failed: ThinkFailed) -> None:
        if asked.hint:
            self.message = f"no hint: the computer could not think it through ({failed.message})"
            return
        self._give_up(f"{self.seat_name(asked.player)} could not decide ({failed.message})")

    def _give_up(self, why: str) -> None:
        """The computer cannot play on: its seat goes to a person, who is told why."""
        player = self.shooter
        self.computers.pop(player, None)
        self.showing = None
        self.message = f"{why}: {self.game.setup.name(player)} plays the seat now"

    def _drop_thinking(self) -> None:
        if self.thinking is not None and self.thinker is not None:
            self.thinker.forget(self.thinking.job)
        self.thinking = None
        self.showing = None

    def _abandon(self, message: str) -> None:
        """A stroke the physics could not play: nothing happened; the player shoots again."""
        self.waiting = None
        self.lag_strokes = []
        self.message = message

    def _restart_worker(self) -> None:
        """The physics has gone (its process killed, crashed): another of the same kind
        in its place (the simulator knows how to make one), sent the stroke in flight
        again, so the game goes on."""
        self.worker = self.worker.restart()
        self.message = "the physics stopped and was restarted"
        flight = self.waiting
        if flight is not None:
            jobs = tuple(self.worker.shoot(request) for request in flight.requests)
            self.waiting = attrs.evolve(flight, jobs=jobs, results={})

    def _collect(self) -> None:
        flight = self.waiting
        assert flight is not None
        for job in flight.jobs:
            result = self.worker.result(job)
            if result is not None:
                flight.results[job] = result
        if len(flight.results) < len(flight.jobs):
            return
        self.waiting = None
        shots = tuple(flight.results[job].shot for job in flight.jobs)
        if flight.prepared is None:  # the lag: both balls go together
            (start_a, action_a, by_a), (start_b, action_b, by_b) = self.lag_strokes
            self.lag_strokes = []
            lag = self.game.lag_from(
                (start_a, start_b), (action_a, action_b), (shots[0], shots[1]), (by_a, by_b)
            )
            self._watch(lag, shots, flight.struck)
            return
        try:
            record = self.game.commit(flight.prepared, shots[0])
        except GameError as error:
            self.message = str(error)
            return
        self._watch(record, shots, flight.struck)

    def _watch(self, record: Record, shots: tuple[SimulatedShot, ...], struck: float) -> None:
        timelines = tuple(
            ShotTimeline.from_system(shot.system, start_orientations=self._turned(shot))
            for shot in shots
        )
        if isinstance(record, ShotRecord):  # lag balls are not the game's balls
            self._turned_before[record] = dict(self.orientations)
            for timeline in timelines:
                self.orientations.update(timeline.final_orientations)
        now = self.clock()
        self.latencies.append(now - struck)
        self.watching = Watching(timelines=timelines, record=record, started=now)
        self.save()

    def _turned(self, shot: SimulatedShot) -> dict[BallId, tuple[float, float, float, float]]:
        return {b: self.orientations[b] for b in shot.system.balls if b in self.orientations}

    def finish_watching(self) -> None:
        """The shot has played out (or the player skipped it): the referee speaks, and on
        to the next turn."""
        if self.watching is None:
            return
        record = self.watching.record
        self.watching = None
        if isinstance(record, LagRecord):
            self.spoken = record
            self.reasons = record.result.reasons
        elif isinstance(record, ShotRecord):
            self.spoken = record
            self.last_ruling = record.ruling
            self.reasons = record.ruling.reasons
        self._reset_turn()

    def choose(self, choice: Choice | str) -> None:
        if self.stage is not Stage.CHOOSE:
            raise GameError("there is no choice to make")
        self._refuse_at_computer_turn()
        self._choose(choice)

    def _choose(self, choice: Choice | str, *, by: ComputerPlayer | None = None) -> None:
        self._spoke(self.game.choose(choice, by=by))

    def _spoke(self, record: ChoiceRecord | StalemateRecord) -> None:
        """A step taken without a stroke: the referee's words, saved, the next turn."""
        self.spoken = record
        self.last_ruling = record.ruling
        self.reasons = record.ruling.reasons
        self.save()
        self._reset_turn()

    # -- a stalemate offered and answered (GEN-16) -------------------------------------

    @property
    def pending_offer(self) -> StalemateOffer | None:
        """The stalemate offered at the step the match is at, waiting for an answer (an
        offer made at another step, since taken back or played past, is gone)."""
        offer = self.offer
        if offer is None or offer.node is not self.game.current:
            return None
        return offer

    @property
    def can_offer_stalemate(self) -> bool:
        """The person at the table may offer a stalemate now: at a shot of theirs, with
        the rack quiet for long enough (:func:`sim.play.stalemate.person_may_offer`)."""
        state = self.state
        return (
            state is not None
            and self.stage in (Stage.AIM, Stage.PLACE)
            and self.computer_level is None
            and not self.practice
            and person_may_offer(state)
        )

    def offer_stalemate(self) -> None:
        """The person at the table offers a stalemate (O, or the menu's Offer a
        stalemate): the other person is asked to agree; the computer answers at once, by
        its own rule for offering one."""
        state = self.state
        if self.stage not in (Stage.AIM, Stage.PLACE) or state is None:
            raise GameError("a stalemate is offered at your shot, before the stroke")
        self._refuse_at_computer_turn()
        if self.practice:
            raise GameError("a practice table has no stalemates: set it up again (U)")
        if not person_may_offer(state):
            more = innings_to_offer(state)
            raise GameError(
                f"a stalemate may be offered once no ball has gone down for {PERSON_MAY_OFFER} "
                f"innings (3 each): {more} more to go"
            )
        offer = StalemateOffer(by=state.shooter, node=self.game.current, quiet=state.quiet_innings)
        level = self.computers.get(offer.by.other)
        if level is not None:
            self._answer_by_judgement(offer, level)
            return
        self.offer = offer
        self.message = ""

    def answer_stalemate(self, agree: bool) -> None:
        """The person asked answers the stalemate offered: agree (the rack is racked
        again, GEN-16) or play on (the player who offered shoots; a computer that offered
        waits :data:`~sim.play.stalemate.OFFER_AGAIN_AFTER` innings before it offers again)."""
        offer = self.pending_offer
        if offer is None:
            raise GameError("no stalemate has been offered")
        self._refuse_at_computer_turn()
        self.offer = None
        offered, answered = self.seat_name(offer.by), self.seat_name(offer.by.other)
        if agree:
            self._agreed(f"{answered} agreed to {offered}'s stalemate")
            return
        if offer.by in self.computers:
            self._declined = (offer.node, offer.quiet)
            self.message = (
                f"{answered} plays on: {offered} plays its shot, and offers no stalemate "
                f"for {OFFER_AGAIN_AFTER} more innings"
            )
        else:
            self.message = f"{answered} plays on: {offered} to shoot"

    def declined_at(self) -> int | None:
        """The quiet innings at which the computer's last stalemate offer was declined, in
        the quiet stretch the match is in (None: none was): its next decision's input."""
        if self._declined is not None and self._declined[0] is self.game.current:
            return self._declined[1]  # declined here, before its shot carries it
        return last_declined(self.game.current)

    def _computer_offers(self, player: Player, level: str) -> None:
        """The computer offers a stalemate: another computer agrees at once (its rule is
        the same); a person is asked."""
        state = self.state
        assert state is not None
        if player.other in self.computers:
            self._agreed(f"{self.seat_name(player)} offered a stalemate and both computers agreed")
            return
        self.offer = StalemateOffer(by=player, node=self.game.current, quiet=state.quiet_innings)
        self.message = ""

    def _answer_by_judgement(self, offer: StalemateOffer, level: str) -> None:
        """The computer answers a stalemate offered: it agrees when it would have offered
        one itself (:func:`sim.play.stalemate.computer_offers`), and the HUD says so."""
        state = self.state
        assert state is not None
        computer, offered = computer_name(level), self.seat_name(offer.by)
        if computer_offers(state, self.declined_at()):
            self._agreed(f"{computer} agreed to {offered}'s stalemate")
            return
        self.message = (
            f"{computer} declines the stalemate and plays on: balls may still go down "
            f"(it agrees after {COMPUTER_OFFERS} innings with none; this rack has had "
            f"{state.quiet_innings}). {offered} to shoot"
        )

    def _agreed(self, words: str) -> None:
        """Both players agree: the rack is racked again, its breaker breaks (GEN-16)."""
        self._spoke(self.game.declare_stalemate(agreed=True))
        self.message = f"{words}: the rack is racked again (GEN-16)"

    def choose_breaker(self, breaker: Player) -> None:
        if self.stage is not Stage.BREAKER:
            raise GameError("there is no breaker to choose")
        if self.computers.get(self.shooter) is not None and breaker is not self.shooter:
            raise GameError("the computer won the lag: it chooses who breaks")
        self.game.choose_breaker(breaker)
        self.save()
        self._reset_turn()

    def skip_lag(self, breaker: Player) -> None:
        """No lag: the players agree who breaks (GEN-3)."""
        if self.stage is not Stage.LAG:
            raise GameError("the lag is over")
        self.game.start(breaker)
        self.lag_strokes = []
        self.save()
        self._reset_turn()

    # -- setting the practice table up -----------------------------------------------------

    def begin_setup(self) -> TableSetup:
        """Set the practice table up by hand, from the balls as they lie (whose turn and
        the cue ball in hand as they are; before any set-up, the game's rack)."""
        if not self.practice:
            raise GameError("the table is set up by hand on the practice table only")
        if self.shot_in_play:
            raise GameError("the shot is still playing: set up once the balls stop")
        if self.setting_up is not None:
            return self.setting_up
        state = self.state
        if state is None or self.game.phase is MatchPhase.LAG:
            table = TableSetup(setup=self.game.setup, balls={})
            table.rack()
        else:
            table = TableSetup(
                setup=self.game.setup,
                balls=self.balls(),
                turn=state.pending.chooser if state.pending else state.shooter,
                in_hand_choice=state.ball_in_hand,
                refereed=state.refereed,
            )
        self.setting_up = table
        self.message = ""
        return table

    def table_setup(self) -> TableSetup:
        """The set-up in progress; GameError when the table is not being set up."""
        if self.setting_up is None:
            raise GameError("the table is not being set up: press U (Set up) first")
        return self.setting_up

    def setup_done(self) -> SetupRecord:
        """Shoot from the table as set up: the set-up becomes the game's next step (take
        it again comes back here), the cue ball in hand waiting where it was put."""
        table = self.table_setup()
        position = table.position()
        record = self.game.set_up(position, refereed=table.refereed, breaking=table.breaking)
        self.setting_up = None
        self._arrived()
        cue = position.balls.get(CUE)
        waiting = position.in_hand is not None and cue is not None and self.stage is Stage.PLACE
        if waiting and cue is not None and self.legal_placement(cue) is None:
            self.placement = cue
        return record

    @property
    def can_cancel_setup(self) -> bool:
        """A set-up is in progress over a table there was before it (not a new one)."""
        return (
            self.setting_up is not None
            and self.state is not None
            and self.game.phase is not MatchPhase.LAG
        )

    def cancel_setup(self) -> None:
        """Leave the set-up unchanged: the table as it was before it."""
        if self.setting_up is None:
            return
        if not self.can_cancel_setup:
            raise GameError("set the table up first: Space (Done) when it is ready")
        self.setting_up = None
        self._touch_aim()

    def position_now(self) -> Position:
        """The table as a position (for a position file): the set-up in progress, or the
        balls as they lie with whose turn and the cue ball in hand."""
        if self.setting_up is not None:
            return self.setting_up.position()
        state = self.state
        if state is None or self.game.phase is MatchPhase.LAG:
            raise GameError("no position on the table yet")
        try:
            return Position(
                game=self.game.setup.game,
                table=self.game.setup.table,
                balls=self.balls(),
                turn=state.pending.chooser if state.pending else state.shooter,
                in_hand=state.ball_in_hand,
            )
        except ValueError as error:
            raise GameError(f"this table is no position to save: {error}") from None

    # -- take it again, and branches -------------------------------------------------------

    @property
    def can_take_back(self) -> bool:
        """There is a shot to take back, and none is with the physics."""
        return self.waiting is None and self.game.last_shot() is not None

    def take_back(self) -> ShotRecord:
        """Take it again: every ball back where it was before the last shot, the match as
        it was then (whose turn, ball in hand, fouls, score), and that shot's stroke
        loaded (aim, power, tip, elevation, the cue ball's placement, the call), ready to
        change and shoot again; a shot playing out is stopped. The shot taken back stays
        in the game as a branch: the next one played becomes the main line. Returns it."""
        if self.waiting is not None:
            raise GameError("the shot is still in the physics: take it back once it plays")
        self.setting_up = None  # the set-up in progress is dropped: the shot comes back
        node = self._person_last_shot() or self.game.last_shot()
        if node is None:
            raise GameError("there is no shot to take back")
        self._retakes += 1
        self._return_before(node, main=True)
        assert isinstance(node.record, ShotRecord)
        name = self.game.setup.name(node.record.shooter)
        self.message = (
            f"Shot taken back: {name} to shoot it again. The first try is kept as a branch."
        )
        return node.record

    def _person_last_shot(self) -> Node | None:
        """With a computer seated, taking back its shots would only see them played
        again: the take back goes to the last shot a person played (None: no such
        shot in the line, or no computer)."""
        if not self.computers:
            return None
        node: Node | None = self.game.current
        while node is not None:
            record = node.record
            if isinstance(record, ShotRecord) and record.shooter not in self.computers:
                return node
            node = node.parent
        return None

    def play_from(self, node: Node) -> None:
        """Play from a replayed shot (``node``, a shot of any line of the game): the table
        at the position before it, the match as it was then, and its stroke loaded. What
        is played from here is a new branch; the line played before stays as it was."""
        if not isinstance(node.record, ShotRecord):
            raise GameError("play from a shot")
        if self.waiting is not None:
            raise GameError("a shot is still in the physics")
        self._return_before(node, main=False)
        name = self.game.setup.name(node.record.shooter)
        self.message = (
            f"Playing from {shot_name(node)}: {name} to shoot it again. "
            "What is played now is a new branch; the shots played before stay as they were."
        )

    def continue_from(self, node: Node) -> None:
        """Play on from after ``node``'s step (the end of a branch, or any step before)."""
        if self.waiting is not None:
            raise GameError("a shot is still in the physics")
        self.game.go_to(node)  # first: it refuses a step of another game, changing nothing
        self.setting_up = None
        self.watching = None
        self.lag_strokes = []
        self._arrived()

    def promote_to_main(self, node: Node) -> None:
        """The line through ``node`` becomes the main line (and is autosaved so)."""
        self.game.promote_to_main(node)
        self.save()

    def delete_branch(self, node: Node) -> None:
        """Delete ``node`` and every step after it (never the line in play); autosaved."""
        self.game.delete(node)
        self.save()

    def _return_before(self, node: Node, *, main: bool) -> None:
        assert node.parent is not None and isinstance(node.record, ShotRecord)
        self.game.go_to(node.parent, main=main)  # first, as in continue_from
        self.setting_up = None
        self.watching = None
        self.lag_strokes = []
        turned = self._turned_before.get(node.record)
        if turned is not None:
            self.orientations = dict(turned)
        self._arrived(node.record.stroke)

    def _arrived(self, stroke: Stroke | None = None) -> None:
        """The table at the game's step in play: the referee's last words there, a new
        turn, ``stroke`` loaded, and the game autosaved (branches and all)."""
        self.spoken = self._last_spoken()
        self.last_ruling = _ruling_of(self.spoken)
        self.reasons = self.last_ruling.reasons if self.last_ruling else ()
        self._reset_turn()
        state = self.state
        if stroke is not None and state is not None and self.stage in (Stage.AIM, Stage.PLACE):
            self.aim = Aim.of(stroke.action)
            self.call, self.declaration = stroke.call, stroke.declaration
            if stroke.placement is not None and state.ball_in_hand is not None:
                self.placement, self.placed = stroke.placement, True
            self._touch_aim()
        self.save()

    def _last_spoken(self) -> Spoken | None:
        return next(
            (
                r
                for r in reversed(self.game.records)
                if isinstance(r, ShotRecord | ChoiceRecord | StalemateRecord | SetupRecord)
            ),
            None,
        )

    # -- helpers ----------------------------------------------------------------------------------

    def _reset_turn(self) -> None:
        """A new turn: call and declaration cleared, the shot clock restarted; the cue ball
        in hand starts where a player would put it (the kitchen's middle, or where it lies)."""
        self.call = None
        self.call_ball = None
        self.declaration = None
        self.extension = False
        self.message = ""
        self.hint = None
        self.showing = None
        self.clock_started = self.clock()
        if self._paused_at is not None:  # behind the menu: this turn's clock starts paused
            self._paused_at = self.clock_started
        self.aim.a = self.aim.b = 0.0  # each stroke starts centre ball, cue level
        self.aim.elevation = 0.0
        self.placed = False
        state = self.state
        self.placement = None
        if state is not None and state.ball_in_hand is not None and state.pending is None:
            self.placement = self._default_placement(state)
        cue = self.cue_ball()
        if (
            state is not None
            and cue is not None
            and state.lowest is not None
            and self.game.phase is MatchPhase.RACK
        ):
            self.aim_at(state.balls[state.lowest])
        if state is not None and state.phase is Phase.BREAK:
            self.aim.power = BREAK_POWER
        elif state is not None and self.game.phase is MatchPhase.RACK:
            self.aim.power = self.powers.get(self.shooter, DEFAULT_POWER)
        self._touch_aim()

    def _default_placement(self, state: GameState) -> Point:
        geometry = state.table
        candidates = [
            (geometry.width * fx, geometry.head_string_y * fy)
            for fy in (0.8, 0.6, 0.4)
            for fx in (0.5, 0.35, 0.65, 0.2, 0.8)
        ]
        for point in candidates:
            if self.legal_placement(point) is None:
                return point
        return candidates[0]

    def _touch_aim(self) -> None:
        self._aim_changed = self.clock()
        self._untrack()  # the lines were the old stroke's: gone the moment it changes

    def _untrack(self) -> None:
        self._tracked = None
        self._tracking_request = None

    def _preview(self) -> None:
        try:
            prepared = self.game.prepare(self.stroke())
        except (GameError, ValueError):
            return
        request = ShotRequest.of(
            self.game.setup.table.value, prepared.start, prepared.stroke.action
        )
        self.worker.preview(request)
        self._tracking_request = request

    def save(self) -> None:
        """Autosave in the background: the window keeps drawing while the file is written."""
        if self.autosave is None:
            return
        if self._save_thread is not None:
            self._save_thread.join()
        snapshot = self.game.snapshot()
        autosave = self.autosave
        if not self._autosaved:
            try:
                autosave.archive()
            except OSError as error:  # kept where it is: this game must not replace it
                self.message = f"autosave failed: {error.strerror or error}"
                return
            self._autosaved = True

        def write() -> None:
            try:
                autosave.save(snapshot)
            except OSError as error:  # the game goes on; the player is told
                self.message = f"autosave failed: {error.strerror or error}"

        self._save_thread = threading.Thread(target=write, daemon=False)
        self._save_thread.start()

    def flush(self) -> None:
        """Wait for the autosave in progress (before quitting)."""
        if self._save_thread is not None:
            self._save_thread.join()
            self._save_thread = None

    def close(self) -> None:
        """The game leaves the table: its autosave finished, and a shot still in the
        physics forgotten (the worker stays for the next game and would keep its result)."""
        self.flush()
        if self.waiting is not None:
            self.worker.forget(self.waiting.jobs)
            self.waiting = None
        self._drop_thinking()  # the thinker stays for the next game
