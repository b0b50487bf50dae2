"""What the player is doing at the table, with no window: the desktop's logic.

:class:`TableController` holds the game, the stage of the turn (lag, ball in hand, aim,
waiting for the physics, watching the shot, the incoming player's choice, match over),
the aim (direction, power, tip offset, elevation), the cue ball placed from hand, the
call and the declaration. The window (``sim.app.main``) turns mouse and keys into calls
here and draws what the controller says; tests drive it directly.

The physics and the autosave are handed in, by what they do: a
:class:`sim.physics.simulators.simulator.Simulator` (the worker process in the window, the
in-process one in tests and scripts) and an :class:`sim.play.autosaver.Autosaver` (the store's
autosave), so the turn's logic names neither a process nor a file format.

Every refused action raises :class:`sim.play.game.GameError` (one line, nothing changed);
the window shows the line and carries on.

Each feature beyond the stroke is a collaborator the controller owns, with its own state
(each sees the table through :class:`sim.play.table.turn.Table`):

- :attr:`TableController.seat`, the computer at the table and the hint
  (:mod:`sim.play.table.seat`);
- :attr:`TableController.stalemate`, a stalemate offered and answered (GEN-16,
  :mod:`sim.play.table.talk`);
- :attr:`TableController.set_up`, the practice table set up by hand
  (:mod:`sim.play.table.practice`);
- :attr:`TableController.branches`, take it again, play from any shot, branches
  (:mod:`sim.play.table.navigator`);
- :attr:`TableController.lag`, the lag and who breaks (:mod:`sim.play.table.lag`);
- :attr:`TableController.shot_clock`, the shot clock (:mod:`sim.play.table.shotclock`);
- :attr:`TableController.preview`, the resting aim simulated ahead and its tracking lines
  (:mod:`sim.play.table.preview`).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping

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
from sim.names import computer_seat_name
from sim.physics.simulate import MISCUE_LIMIT, SimulatedShot
from sim.physics.simulators.simulator import ShotFailed, ShotRequest, Simulator
from sim.physics.timeline import ShotTimeline
from sim.play.autosaver import Autosaver
from sim.play.game import (
    ChoiceRecord,
    Game,
    GameError,
    LagRecord,
    Record,
    SetupRecord,
    ShotRecord,
    StalemateRecord,
    Stroke,
    TimeFoulRecord,
    Wanted,
)
from sim.play.geometry.cueclearance import MAX_AIM_ELEVATION, Clearance, clearance
from sim.play.opponent.thinker_process import InProcessThinker, Thinking
from sim.play.picker import nearest_open
from sim.play.table.lag import LagTable
from sim.play.table.navigator import BranchNavigator
from sim.play.table.practice import SetupSession
from sim.play.table.preview import Preview
from sim.play.table.seat import ComputerSeat
from sim.play.table.shotclock import ShotClock
from sim.play.table.talk import StalemateTalk
from sim.play.table.turn import (
    BREAK_POWER,
    DEFAULT_POWER,
    STROKE_STAGES,
    Aids,
    Aim,
    InFlight,
    Ruled,
    Spoken,
    Stage,
    Watching,
    ruling_of,
)


def last_spoken(game: Game) -> Spoken | None:
    """The game's last step the referee spoke about (a ruling, or a set-up)."""
    return next(
        (r for r in reversed(game.records) if isinstance(r, Ruled | SetupRecord)),
        None,
    )


def default_placement(state: GameState) -> Point:
    """Where a player would put the cue ball in hand: the kitchen's middle, or the first
    legal spot near it."""
    geometry = state.table
    candidates = [
        (geometry.width * fx, geometry.head_string_y * fy)
        for fy in (0.8, 0.6, 0.4)
        for fx in (0.5, 0.35, 0.65, 0.2, 0.8)
    ]
    for point in candidates:
        if state.placement_problem(point) is None:
            return point
    return candidates[0]


def ball_on(controller: TableController) -> Point | None:
    """Where a ball the shooter may hit first lies (``GameState.balls_on``: the lowest, or
    in 8-ball one of the shooter's set), the nearest the cue ball reaches in a straight
    line when there are several: the aim as it comes is never a foul for the ball it
    meets first (on an open 8-ball table, the 8 in front of the 1). None: no cue ball or
    no ball on."""
    state, cue = controller.state, controller.cue_ball()
    if state is None or cue is None or not state.balls_on:
        return None
    return state.balls[nearest_open(state, cue, controller.game.setup.spec)]


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
        # The seats the computer plays, and at which level; the others are people's.
        self.computers: dict[Player, str] = dict(computers or {})
        self.retakes = 0  # shots taken back: a computer's next try is a new decision
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
        self.watching: Watching | None = None
        self.waiting: InFlight | None = None
        self.message = ""  # the last refusal or notice, for the HUD
        # The referee's last words (a ruling's reasons, or the lag's verdict), for the HUD;
        # on a game read back (or a step gone back to), those of its last step; ``spoken``:
        # the step they are about.
        self.spoken: Spoken | None = last_spoken(game)
        self.last_ruling: Ruling | None = ruling_of(self.spoken)
        self.reasons: tuple[Reason, ...] = self.last_ruling.reasons if self.last_ruling else ()
        # How each ball is turned, carried from shot to shot so numbers never snap back.
        self.orientations: dict[BallId, tuple[float, float, float, float]] = {}
        self.latencies: list[float] = []  # stroke to motion, seconds
        # Tracking lines: the paths of the stroke being aimed, from its preview (off in
        # a match unless the player turns them on; the practice table turns them on).
        self.tracking = False
        self.aids = Aids()  # a drill may switch the tracking lines and the hint off
        self.call_ball: BallId | None = None  # clicked, waiting for its pocket (10-ball)
        self._save_thread: threading.Thread | None = None
        # The collaborators, each with its own state (see the module's opening).
        self.shot_clock = ShotClock(self)
        self.preview = Preview(self)
        self.lag = LagTable(self)
        self.stalemate = StalemateTalk(self)
        self.set_up = SetupSession(self)
        self.branches = BranchNavigator(self, self.set_up, self.lag)
        self.seat = ComputerSeat(self, thinker, self.stalemate, self.lag, self.shot_clock)
        self.reset_turn()

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
        if self.set_up.table is not None:
            return Stage.SETUP
        if self.stalemate.pending is not None:
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
        offer = self.stalemate.pending
        if offer is not None:
            return offer.by.other
        if self.game.phase is MatchPhase.LAG:
            return Player.A if not self.lag.strokes else Player.B
        if self.game.phase is MatchPhase.BREAKER_CHOICE:
            assert self.game.match.lag_winner is not None
            return self.game.match.lag_winner
        state = self.state
        assert state is not None
        return state.pending.chooser if state.pending is not None else state.shooter

    def balls(self) -> dict[BallId, Point]:
        """The balls at rest as the player sees them (the cue ball where it is placed;
        at the lag, the player's lag ball; the table being set up as it is now)."""
        if self.set_up.table is not None:
            return dict(self.set_up.table.balls)
        if self.game.phase is MatchPhase.LAG:
            return {CUE: self.lag.start()}
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
        """Who plays ``player``'s seat: the person's name, or the computer's with its
        level ("Computer (level 5)", "Bob (level 5)": :func:`sim.names.computer_seat_name`)."""
        level = self.computers.get(player)
        name = self.game.setup.name(player)
        if level is None:
            return name
        return computer_seat_name(name, level, 0 if player is Player.A else 1)

    def switch_tracking(self) -> None:
        """The tracking lines on or off; on is refused where they are not allowed (a
        drill that switches them off)."""
        if not self.tracking and not self.aids.tracking:
            raise self.aids.refuse("tracking lines")
        self.tracking = not self.tracking

    def cue_ball(self) -> Point | None:
        return self.balls().get(CUE)

    def can_declare(self, declaration: Declaration) -> bool:
        """The rules allow ``declaration`` on this shot (``GameState.legal_declarations``:
        GEN-7, TB-8, TB-13) and the player is setting up a stroke."""
        state = self.state
        return (
            state is not None
            and self.stage in STROKE_STAGES
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
            and self.stage in STROKE_STAGES
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
        self.touch_aim()
        return True

    def confirm_placement(self) -> None:
        """Put the cue ball down and move on to aiming."""
        if self.stage is not Stage.PLACE:
            raise GameError("the cue ball is not in hand")
        self.refuse_at_computer_turn()
        if self.placement is None:
            raise GameError("place the cue ball first")
        reason = self.legal_placement(self.placement)
        if reason is not None:
            raise GameError(f"the cue ball cannot go there: {reason}")
        self.placed = True
        self.message = ""
        self.aim_at(ball_on(self))  # from where the cue ball now is

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
        self.touch_aim()

    def declare(self, declaration: Declaration | None) -> None:
        if self.shot_in_play:
            return
        if declaration is not None and not self.can_declare(declaration):
            raise GameError(f"a {DECLARATION_WORDS[declaration]} cannot be declared now")
        self.declaration = declaration
        if declaration is not None:
            self.call = None
        self.touch_aim()

    # -- aim ----------------------------------------------------------------------------------

    def set_direction(self, degrees: float) -> None:
        if self.shot_in_play:
            return
        self.aim.direction = degrees % 360.0
        self.touch_aim()

    def turn(self, degrees: float) -> None:
        self.set_direction(self.aim.direction + degrees)

    def aim_at(self, point: Point | None) -> None:
        cue = self.cue_ball()
        if cue is not None and point is not None and distance(cue, point) > 1e-6:
            self.set_direction(math.degrees(math.atan2(point[1] - cue[1], point[0] - cue[0])))

    def set_power(self, power: float) -> None:
        if self.shot_in_play:
            return
        self.aim.power = min(1.0, max(0.0, power))
        self.touch_aim()

    def set_tip(self, a: float, b: float) -> None:
        """Tip offset, kept inside the miscue limit."""
        if self.shot_in_play:
            return
        size = math.hypot(a, b)
        if size > MISCUE_LIMIT:
            a, b = a * MISCUE_LIMIT / size, b * MISCUE_LIMIT / size
        self.aim.a, self.aim.b = a, b
        self.touch_aim()

    def set_elevation(self, degrees: float) -> None:
        if self.shot_in_play:
            return
        self.aim.elevation = min(MAX_AIM_ELEVATION, max(0.0, degrees))
        self.touch_aim()

    def cue_clearance(self) -> Clearance:
        """The elevation the stroke is played with: the player's, or raised over the
        balls behind the cue ball (:mod:`sim.play.geometry.cueclearance`)."""
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
            clock_s=self.shot_clock.elapsed() if timed else None,
            extension=self.shot_clock.extension,
        )

    # -- the stroke ---------------------------------------------------------------------------

    def strike(self) -> None:
        """Play the stroke as it is set up (or, at the lag, set this player's lag)."""
        stage = self.stage
        if stage is Stage.LAG:
            self.refuse_at_computer_turn()
            self.lag.strike()
            return
        if stage is Stage.PLACE:  # say what is missing, not just that something is
            raise GameError("the cue ball is in hand: put it down first", Wanted.PUT_DOWN)
        if stage is Stage.OVER:
            raise GameError("the match is over", Wanted.NEW_GAME)
        if stage in (Stage.CHOOSE, Stage.BREAKER):
            raise GameError("first the choice", Wanted.CHOICE)
        if stage is not Stage.AIM:
            raise GameError("not ready to shoot")
        self.refuse_at_computer_turn()
        self.strike_stroke(self.stroke())

    def refuse_at_computer_turn(self) -> None:
        level = self.computer_level
        if level is not None:
            raise GameError(f"it is {self.seat_name(self.shooter)}'s turn: it is at the table")

    def strike_stroke(self, stroke: Stroke) -> None:
        prepared = self.game.prepare(stroke)
        state = self.state
        if state is not None and state.phase is not Phase.BREAK:
            self.powers[state.shooter] = self.aim.power
        request = ShotRequest.of(
            self.game.setup.table.value, prepared.start, prepared.stroke.action
        )
        self.waiting = InFlight(prepared, (request,), (self.worker.shoot(request),), self.clock())
        self.message = ""
        self.preview.drop()

    def update(self) -> None:
        """Once a frame: collect the physics, finish a watched shot, preview a resting aim."""
        if not self.worker.alive:
            self._restart_worker()
        flight = self.waiting
        for reply in self.worker.poll():
            if isinstance(reply, ShotFailed) and flight is not None and reply.job in flight.jobs:
                # Nothing happened: the player shoots again.
                self.waiting = None
                self.lag.strokes = []
                self.message = f"the physics failed on this shot ({reply.message}); shoot again"
        if self.waiting is not None:
            self._collect()
        if (
            self.watching is not None
            and self.clock() - self.watching.started >= self.watching.duration
        ):
            self.finish_watching()
        # The computer's aim is worth simulating ahead once it is its stroke, not before.
        self.preview.frame(considered=self.computer_level is None or self.seat.showing is not None)
        self.seat.frame()
        self.shot_clock.frame()

    def load(self, stroke: Stroke) -> None:
        """``stroke`` on the cue: aim, power, tip, elevation, the cue ball placed, the call."""
        self.aim = Aim.of(stroke.action)
        self.call, self.declaration = stroke.call, stroke.declaration
        state = self.state
        if stroke.placement is not None and state is not None and state.ball_in_hand is not None:
            self.placement, self.placed = stroke.placement, True
        self.touch_aim()

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
            (start_a, action_a, by_a), (start_b, action_b, by_b) = self.lag.strokes
            self.lag.strokes = []
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
        turned = self.orientations  # each ball's numbers carried on from the last shot
        timelines = tuple(
            ShotTimeline.from_system(
                shot.system,
                start_orientations={b: turned[b] for b in shot.system.balls if b in turned},
            )
            for shot in shots
        )
        if isinstance(record, ShotRecord):  # lag balls are not the game's balls
            self.branches.turned_before[record] = dict(self.orientations)
            for timeline in timelines:
                self.orientations.update(timeline.final_orientations)
        now = self.clock()
        self.latencies.append(now - struck)
        self.watching = Watching(timelines=timelines, record=record, started=now)
        self.save()

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
        self.reset_turn()

    def choose(self, choice: Choice | str) -> None:
        if self.stage is not Stage.CHOOSE:
            raise GameError("there is no choice to make")
        self.refuse_at_computer_turn()
        self.spoke(self.game.choose(choice))

    def spoke(self, record: TimeFoulRecord | ChoiceRecord | StalemateRecord) -> None:
        """A step taken without a stroke: the referee's words, saved, the next turn."""
        self.spoken = record
        self.last_ruling = record.ruling
        self.reasons = record.ruling.reasons
        self.save()
        self.reset_turn()

    def arrived(self, stroke: Stroke | None = None) -> None:
        """The table at the game's step in play: the referee's last words there, a new
        turn, ``stroke`` loaded, and the game autosaved (branches and all)."""
        self.spoken = last_spoken(self.game)
        self.last_ruling = ruling_of(self.spoken)
        self.reasons = self.last_ruling.reasons if self.last_ruling else ()
        self.reset_turn()
        if stroke is not None and self.state is not None and self.stage in STROKE_STAGES:
            self.load(stroke)
        self.save()

    # -- helpers ----------------------------------------------------------------------------------

    def reset_turn(self) -> None:
        """A new turn: call and declaration cleared, the shot clock restarted; the cue ball
        in hand starts where a player would put it (the kitchen's middle, or where it lies)."""
        self.call = None
        self.call_ball = None
        self.declaration = None
        self.message = ""
        self.seat.hint = None
        self.seat.showing = None
        self.shot_clock.restart()
        self.aim.a = self.aim.b = 0.0  # each stroke starts centre ball, cue level
        self.aim.elevation = 0.0
        self.placed = False
        state = self.state
        self.placement = None
        if state is not None and state.ball_in_hand is not None and state.pending is None:
            self.placement = default_placement(state)
        if self.game.phase is MatchPhase.RACK:
            self.aim_at(ball_on(self))
        if state is not None and state.phase is Phase.BREAK:
            self.aim.power = BREAK_POWER
        elif state is not None and self.game.phase is MatchPhase.RACK:
            self.aim.power = self.powers.get(self.shooter, DEFAULT_POWER)
        elif self.game.phase is MatchPhase.LAG:
            self.aim = self.lag.aim(self.shooter)
        self.touch_aim()

    def touch_aim(self) -> None:
        self.preview.touch()

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
        self.seat.drop()  # the thinker stays for the next game
