"""The computer player's thinking in a process of its own, so the window never waits.

A decision at level 5 takes a second or more of pooltool simulations, which hold the GIL:
run in the window's process (or a thread of it) it would freeze the drawing. So the table
asks a :class:`ThinkerProcess` (a child process, spawned once when a table first needs it
and kept for the session) and polls it once a frame, as it polls the physics worker.

Why a process of its own rather than the physics worker (:mod:`sim.physics.simulators.worker`): the
worker is on the physics floor and cannot import the player (``sim.play``); a generic
"run this callable" job would let a five-second decision hold up the shots queued behind
it (a person's stroke, the aim's preview). Two queues in two processes keep them apart:
the table's shots play at once while the computer thinks. The child loads the compiled
physics once (from the cache the worker's warm-up wrote) and keeps it, and shares its
simulations with helper processes started beside it where the machine has cores to
spare (:mod:`sim.physics.simulators.shared`: the same bits, sooner).

:class:`InProcessThinker` answers the same way in the calling process (when polled), for
tests of the table's logic that need no window.

A hint (:func:`hint`) is the decision of the perfect player (no noise: the stroke as
planned), its plan simulated once more to see where it leaves the cue ball, and the
words a person reads: "pot the 3 in the foot-left corner with draw; it leaves you the 4,
0.6 m from the cue ball, near the right side".
"""

from __future__ import annotations

import itertools
import multiprocessing
import queue
import time
from multiprocessing.context import SpawnProcess
from typing import Any, Protocol

import attrs

from rules import CUE, GameState, PocketId
from rules.facts import RailContact
from rules.geometry import Point, distance
from rules.words import FOUL_WORDS, pocket_name
from sim.physics.racks import rack_slots
from sim.physics.simulate import SimulatedShot, simulate_shot
from sim.physics.simulators.shared import (
    HelperLink,
    SharedSimulator,
    helpers_wanted,
    new_links,
    start_helper,
    stop_helper,
)
from sim.physics.simulators.simulator import Simulator
from sim.physics.simulators.worker import stop_process
from sim.physics.table import pocket_centre, table_spec
from sim.physics.tracking import first_hit, tracking_lines
from sim.play.game import shot_of
from sim.play.opponent.player import Kind, Move, ThinkRequest, think

PARENT_CHECK_S = 1.0  # how often an idle thinker looks whether its window still runs
HINT_LEVEL = "perfect"  # a hint is what the strongest player would play, as meant
SPIN_WORDS_FROM = 0.12  # ball radii of tip offset before a hint speaks of spin
# Ball radii: the cue widget shows an offset this far off centre (to two decimals), so
# the words never call such a tip centre ball (sim.app.hud.hud.tip_words).
TIP_SHOWN_FROM = 0.005
# Metres: a ball left this near a pocket is "near the foot-left corner"; farther, this
# near a cushion "on the foot rail"; else the part of the table it lies in. (A ball in
# the middle of the foot rail was "near the foot-right corner", 0.6 m from it.)
NEAR_POCKET = 0.3
ON_RAIL = 0.15
# The hint's cue-ball path crosses to the window with at most this many points: a
# faint line under the balls, smooth enough at this many.
HINT_PATH_POINTS = 80
# A kick said in words, by the cushions its simulation touched before the ball on.
RAILS_WORDS = {0: "a rail", 1: "a rail", 2: "two rails", 3: "three rails"}


@attrs.frozen
class Hint:
    """What a hint adds to the move: where its plan leaves the cue ball (None: it does
    not stay on the table), the words for the person at the table, and the cue ball's
    path there (a kick's legs, the way round a ball), thinned to at most
    :data:`HINT_PATH_POINTS` points."""

    cue_after: Point | None
    words: str
    cue_path: tuple[Point, ...] = ()


@attrs.frozen
class Thought:
    """The answer to job ``job``: the move, and for a hint what it leaves."""

    job: int
    move: Move
    hint: Hint | None = None


@attrs.frozen
class ThinkFailed:
    """The thinking of job ``job`` failed (the thinker lives on)."""

    job: int
    message: str


Answer = Thought | ThinkFailed


class Thinking(Protocol):
    """Decisions asked and answered by job number, never blocking the caller for long."""

    @property
    def alive(self) -> bool: ...

    def ask(self, request: ThinkRequest, *, hint: bool = False) -> int:
        """Think about ``request`` (a hint: as the perfect player, with what it leaves)."""
        ...

    def take(self, job: int) -> Answer | None:
        """The answer to ``job`` once it is there (once); None until then."""
        ...

    def forget(self, job: int) -> None:
        """Nobody will take ``job``'s answer: dropped now or when it comes."""
        ...

    def restart(self) -> Thinking: ...

    def close(self) -> None: ...


def answer(
    job: int, request: ThinkRequest, *, as_hint: bool, simulator: Simulator | None = None
) -> Answer:
    """The thinking itself, wherever it runs (its simulations through ``simulator``, by
    default this process's own)."""
    try:
        if as_hint:
            return hint(job, request, simulator)
        return Thought(job, think(request, simulator))
    except Exception as error:  # the table says so; the thinker lives on
        return ThinkFailed(job, f"{type(error).__name__}: {error}")


def hint(job: int, request: ThinkRequest, simulator: Simulator | None = None) -> Thought:
    """The perfect player's move for ``request``'s state, simulated as planned to see
    what it leaves, and said in words."""
    move = think(attrs.evolve(request, level=HINT_LEVEL), simulator)
    plan = move.plan
    state = request.state
    if plan is None:  # a choice or a stalemate: nothing is struck
        return Thought(job, move, Hint(None, move_words(move, state)))
    spec = table_spec(request.table)
    start = state.balls if plan.placement is None else state.balls.moved({CUE: plan.placement})
    simulated = simulate_shot(spec, start, plan.action)
    cue_after = simulated.after.get(CUE)
    path = thinned(tracking_lines(simulated).cue.points, HINT_PATH_POINTS)
    ruling = state.rule(shot_of(plan, simulated))
    after = state.apply(ruling)
    words = move_words(move, state, rails_before_hit(simulated))
    if ruling.foul and move.kind is not Kind.POT:
        # Every way it found to the ball on fouls (a ball in the way of each path): the
        # words say so rather than promise a safety.
        fouls = ", ".join(FOUL_WORDS[code] for code in ruling.foul_codes)
        words = f"{words}: no legal hit found, a foul ({fouls})"
    elif leaves := leave_words(state, after, cue_after, request.table):
        words = f"{words}; {leaves}"
    return Thought(job, move, Hint(cue_after, words, path))


def thinned(points: tuple[Point, ...], most: int) -> tuple[Point, ...]:
    """``points`` with at most ``most`` of them, evenly taken, the first and the last
    kept (a path's corners between them may be cut by a sample's width)."""
    if len(points) <= most:
        return points
    step = (len(points) - 1) / (most - 1)
    return tuple(points[round(i * step)] for i in range(most))


def move_words(move: Move, state: GameState, rails: int = 1) -> str:
    """A move as a player says it: "pot the 3 in the foot-left corner with draw"; a
    kick off ``rails`` rails (as its simulation found them: :func:`rails_before_hit`)
    "kick at the 2 off two rails"."""
    target = move.target or state.lowest
    if move.kind is Kind.CHOICE:
        return f"choose {move.choice.value if move.choice else 'to shoot'}"
    if move.kind is Kind.STALEMATE:
        return "offer a stalemate: no ball has gone down for a long while"
    if move.kind is Kind.BREAK:
        return break_words(move, state)
    if move.kind is Kind.SAFETY:
        return f"play safe off the {target}"
    if move.kind is Kind.KICK:
        return f"kick at the {target} off {RAILS_WORDS.get(rails, f'{rails} rails')}"
    if move.kind is Kind.PUSH_OUT:
        return "push out"
    # A ball potted that is not a ball on went in off one: a combination (the 9 off the
    # 1; in rotation any ball off the lowest).
    first = "" if target in state.balls_on else f" off the {state.lowest}"
    pocket = f" in the {pocket_name(move.pocket)}" if move.pocket is not None else ""
    return f"pot the {target}{first}{pocket}{spin_words(move)}"


def rails_before_hit(shot: SimulatedShot) -> int:
    """The cushions the cue ball touched before its first ball (all it touched, if it
    hit none)."""
    hit = first_hit(shot)
    first = None if hit is None else hit.t
    return sum(
        1
        for fact in shot.facts
        if isinstance(fact, RailContact)
        and fact.ball == CUE
        and (first is None or (fact.t is not None and fact.t < first))
    )


def break_words(move: Move, state: GameState) -> str:
    """The break as the game plays it: a safe break (``PractisedBreak.safe``, 14.1's
    opening break, which every level plays) is a thin hit on a ball of the rack, the
    cue ball coming back; any other is the hard full hit on the front ball."""
    practised = state.practised_break
    if practised is None or not practised.safe or move.target is None:
        return "break hard, full on the front ball"
    where = " (a corner ball of the rack)" if _at_a_corner(state, practised.slot) else ""
    return f"break safe: thin on the {move.target}{where}, the cue ball back up the table"


def _at_a_corner(state: GameState, slot: int) -> bool:
    """Whether rack ``slot`` is one of the rack's corners (farthest from its middle)."""
    slots = rack_slots(state.table, state.rack_pattern(state.options))
    cx = sum(x for x, _ in slots) / len(slots)
    cy = sum(y for _, y in slots) / len(slots)
    reach = [distance((cx, cy), point) for point in slots]
    return reach[slot] >= max(reach) - 1e-9


def spin_words(move: Move) -> str:
    """ " with draw", " with follow and left side", " with a touch of follow" ..., for
    the plan's tip: a tip the cue widget shows off centre (0.005 R or more, as it
    rounds) is never called centre ball, only a small one "a touch of"."""
    plan = move.plan
    if plan is None:
        return ""
    a, b = plan.action.a, plan.action.b
    height = _offset_words(b, "follow", "draw")
    side = _offset_words(a, "left side", "right side")  # pooltool: + a is left of centre
    if height and side:
        return f" with {height} and {side}"
    if height or side:
        return f" with {height or side}"
    return " with a stun (centre ball)"


def _offset_words(offset: float, plus: str, minus: str) -> str:
    """One tip offset in words: ``plus`` or ``minus`` past :data:`SPIN_WORDS_FROM`, "a
    touch of" it when the widget shows it (:data:`TIP_SHOWN_FROM`), else nothing."""
    if abs(offset) < TIP_SHOWN_FROM:
        return ""
    named = plus if offset > 0 else minus
    return named if abs(offset) > SPIN_WORDS_FROM else f"a touch of {named}"


def leave_words(before: GameState, after: GameState, cue_after: Point | None, table: str) -> str:
    """What the plan leaves: the next ball for this player, or for the other one."""
    result = after.outcome()
    if result is not None:
        return "it wins the rack" if result.winner is before.shooter else ""
    if cue_after is None or not after.balls_on or after.pending is not None:
        return ""
    # Of the balls the next shot may hit first, the nearest: rotation's lowest, one of
    # 8-ball's group, any of 14.1's (not the lowest number on the table).
    ball = min(after.balls_on, key=lambda b: distance(cue_after, after.balls[b]))
    where = after.balls[ball]
    for_whom = "you" if after.shooter is before.shooter else "the other player"
    gap = distance(cue_after, where)
    return (
        f"it leaves {for_whom} the {ball}, {gap:.1f} m from the cue ball, "
        f"{place_words(where, table)}"
    )


def place_words(where: Point, table: str) -> str:
    """Where a ball lies, as a player says it: "near the foot-left corner", "on the foot
    rail", "in the middle of the table"."""
    spec = table_spec(table)
    built = spec.build()
    gaps = {pocket: distance(pocket_centre(built, pocket), where) for pocket in PocketId}
    near = min(gaps, key=gaps.__getitem__)
    if gaps[near] <= NEAR_POCKET:
        return f"near the {pocket_name(near)}"
    width, length = spec.geometry.width, spec.geometry.length
    x, y = where
    rails = {"left": x, "right": width - x, "head": y, "foot": length - y}
    rail = min(rails, key=lambda name: rails[name])
    if rails[rail] <= ON_RAIL:
        return f"on the {rail} rail"
    part = "foot end" if y > 2 * length / 3 else "head end" if y < length / 3 else "middle"
    return f"in the {part} of the table"


class InProcessThinker:
    """Decisions thought in this process when they are taken (tests with no window)."""

    def __init__(self) -> None:
        self._numbers = itertools.count(1)
        self._asked: dict[int, tuple[ThinkRequest, bool]] = {}
        self._closed = False

    @property
    def alive(self) -> bool:
        return not self._closed

    def ask(self, request: ThinkRequest, *, hint: bool = False) -> int:
        job = next(self._numbers)
        self._asked[job] = (request, hint)
        return job

    def take(self, job: int) -> Answer | None:
        asked = self._asked.pop(job, None)
        if asked is None:
            return None
        return answer(job, asked[0], as_hint=asked[1])

    def forget(self, job: int) -> None:
        self._asked.pop(job, None)

    def restart(self) -> InProcessThinker:
        self.close()
        return InProcessThinker()

    def close(self) -> None:
        self._closed = True
        self._asked.clear()


class ThinkerProcess:
    """A child process that thinks for the computer players and the hint key, with
    ``helpers`` processes beside it that share its simulations
    (:mod:`sim.physics.simulators.shared`; by default one a core beyond the window's and
    its own)."""

    def __init__(self, helpers: int | None = None) -> None:
        context = multiprocessing.get_context("spawn")  # no fork of a GL/Panda3D process
        self._requests: multiprocessing.Queue[Any] = context.Queue()
        self._replies: multiprocessing.Queue[Any] = context.Queue()
        count = helpers_wanted() if helpers is None else helpers
        self._links = new_links(count)
        self._helpers: list[SpawnProcess] = []
        self._process: SpawnProcess = context.Process(
            target=_serve, args=(self._requests, self._replies, self._links), daemon=True
        )
        self._numbers = itertools.count(1)
        self._answers: dict[int, Answer] = {}
        self._forgotten: set[int] = set()

    def start(self) -> ThinkerProcess:
        # Siblings, not children, of the thinker: a daemon process may have none.
        self._helpers = [start_helper(link) for link in self._links]
        self._process.start()
        return self

    @property
    def alive(self) -> bool:
        return self._process.is_alive()

    def ask(self, request: ThinkRequest, *, hint: bool = False) -> int:
        job = next(self._numbers)
        self._requests.put(("hint" if hint else "think", job, request))
        return job

    def take(self, job: int) -> Answer | None:
        self._collect()
        return self._answers.pop(job, None)

    def wait(self, job: int, timeout: float = 300.0) -> Answer:
        """Block until ``job`` is answered (tests; the window polls instead)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.take(job)
            if found is not None:
                return found
            if not self.alive:
                raise RuntimeError("the thinking process stopped")
            time.sleep(0.01)
        raise TimeoutError(f"no answer to job {job} in {timeout:g} s")

    def forget(self, job: int) -> None:
        self._answers.pop(job, None)
        self._forgotten.add(job)

    def restart(self) -> ThinkerProcess:
        self.close()
        return ThinkerProcess(len(self._links)).start()

    def close(self) -> None:
        stop_process(self._process, self._requests, self._replies)
        for process, link in zip(self._helpers, self._links, strict=True):
            stop_helper(process, link)

    def _collect(self) -> None:
        while True:
            try:
                found: Answer = self._replies.get_nowait()
            except queue.Empty:
                return
            if found.job in self._forgotten:
                self._forgotten.discard(found.job)
            else:
                self._answers[found.job] = found


def _serve(
    requests: multiprocessing.Queue[Any],
    replies: multiprocessing.Queue[Any],
    links: list[HelperLink],
) -> None:
    """The thinker's loop: the compiled physics loaded once, then one decision at a time,
    its simulations shared with the helpers on ``links``."""
    from sim.physics.simulators.warmup import warm_up

    warm_up()
    simulator = SharedSimulator(links)
    parent = multiprocessing.parent_process()
    while True:
        try:
            kind, job, request = requests.get(timeout=PARENT_CHECK_S)
        except queue.Empty:
            # A window killed outright never says stop: end with it.
            if parent is not None and not parent.is_alive():
                return
            continue
        if kind == "stop":
            return
        replies.put(answer(job, request, as_hint=kind == "hint", simulator=simulator))
