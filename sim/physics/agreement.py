"""Does a stored pooltool system agree with the record it claims to be the shot of?

A game file keeps, for every shot, the record (the stroke, the balls at the stroke) and
pooltool's simulated system. The system is what a replay shows and what the facts are
read from, so one edited apart from the record would show and rule a shot nobody played
(a cue of 9.9 m/s against a recorded 2.8, a pocket of 0.3 m, a ball's path moved).
:func:`system_disagreement` holds a system against:

- the stroke: the cue stick (V0, phi, theta, a, b; the cue pooltool strikes with), and
  the stick-ball event that opens the shot;
- the table: the one the set-up's table spec builds, field by field (pockets, cushions);
- the start: every ball's first state at rest where :func:`settle_positions` puts the
  recorded positions (the placement gap the physics applies), with pooltool's ball;
- its own events: pooltool writes one state into every ball's history per event, so each
  history runs in step with the events, every ball an event names has there the state
  the event left it in, each ball ends in its history's last state, and each pocket
  holds the balls its pocketing events sent in.

Every comparison is exact: a system simulated from the record is these numbers to the last
bit (a game file's systems are, tests/store check it), so any difference is an edit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any

import numpy as np

from rules.facts import CUE, BallId
from rules.geometry import Point
from sim.physics.pooltool_setup import pt
from sim.physics.simulate import CueAction, PlacementError, build_system, settle_positions
from sim.physics.table import TableSpec

_BALL = pt.events.AgentType.BALL
# The table's parts an event may name, and what of them the physics reads.
_TABLE_PARTS: dict[Any, tuple[Callable[[pt.Table], Mapping[str, Any]], tuple[str, ...]]] = {
    pt.events.AgentType.POCKET: (lambda table: table.pockets, ("center", "radius", "depth")),
    pt.events.AgentType.LINEAR_CUSHION_SEGMENT: (
        lambda table: table.cushion_segments.linear,
        ("p1", "p2", "direction"),
    ),
    pt.events.AgentType.CIRCULAR_CUSHION_SEGMENT: (
        lambda table: table.cushion_segments.circular,
        ("center", "radius"),
    ),
}
# The stroke's value behind each of the cue's numbers.
_STROKE_OF_CUE = (("V0", "speed"), ("phi", "aim"), ("theta", "elevation"), ("a", "a"), ("b", "b"))


@cache
def _reference(spec: TableSpec) -> pt.System:
    """A system as :func:`build_system` makes one on ``spec``: its table, its cue and its
    ball are what every shot's must be (only compared with, never simulated)."""
    return build_system(spec, {CUE: (spec.width / 2, spec.length / 4)})


def system_disagreement(
    system: pt.System, spec: TableSpec, start: Mapping[BallId, Point], action: CueAction
) -> str | None:
    """What in ``system`` disagrees with a shot of ``action`` from ``start`` on a table of
    ``spec`` (a phrase naming the part), or None when it is that shot's system."""
    return (
        _cue_disagreement(system, _reference(spec).cue, action)
        or _table_disagreement(system.table, spec)
        or _start_disagreement(system, spec, start)
        or _events_disagreement(system)
    )


# -- the stroke ---------------------------------------------------------------------------


def _cue_disagreement(system: pt.System, reference: pt.Cue, action: CueAction) -> str | None:
    cue = system.cue
    for field, stroke in _STROKE_OF_CUE:
        if getattr(cue, field) != getattr(action, stroke):
            return (
                f"the cue's {field} is {getattr(cue, field)!r}, "
                f"the stroke's {stroke} {getattr(action, stroke)!r}"
            )
    for field in ("id", "cue_ball_id", "specs"):
        if getattr(cue, field) != getattr(reference, field):
            return f"the cue's {field} is not poolsim's cue ({getattr(cue, field)!r})"
    events = system.events
    if len(events) < 2 or events[1].event_type is not pt.EventType.STICK_BALL:
        return "the shot does not open with the cue striking the cue ball"
    stick, ball = events[1].agents
    struck = stick.initial
    fields = (*(field for field, _ in _STROKE_OF_CUE), "id", "cue_ball_id", "specs")
    if (
        not isinstance(struck, pt.Cue)
        or ball.id != CUE
        or any(getattr(struck, field) != getattr(cue, field) for field in fields)
    ):
        return "the cue's strike (events[1]) is not the stroke"
    return None


# -- the table ----------------------------------------------------------------------------


def _table_disagreement(table: pt.Table, spec: TableSpec) -> str | None:
    reference = _reference(spec).table
    if _table_numbers(table) == _reference_numbers(spec):
        return None
    name = f"the {spec.size.value} table's"
    for field in ("table_type", "height", "lights_height", "model_descr"):
        if getattr(table, field) != getattr(reference, field):
            return (
                f"table.{field} is {getattr(table, field)!r}, {name} {getattr(reference, field)!r}"
            )
    return (
        _parts_disagreement(
            "table.pockets", table.pockets, reference.pockets, ("center", "radius", "depth"), name
        )
        or _parts_disagreement(
            "table.cushion_segments.linear",
            table.cushion_segments.linear,
            reference.cushion_segments.linear,
            ("p1", "p2", "direction"),
            name,
        )
        or _parts_disagreement(
            "table.cushion_segments.circular",
            table.cushion_segments.circular,
            reference.cushion_segments.circular,
            ("center", "radius"),
            name,
        )
        or "the table is not the set-up's"
    )


def _table_numbers(table: pt.Table) -> tuple[Any, ...]:
    """Everything of a table the physics reads, exactly (arrays as their bytes): one
    comparison for the table of every shot; the part that differs is looked for only
    when it is not the set-up's."""
    segments = table.cushion_segments
    return (
        table.table_type,
        table.height,
        table.lights_height,
        table.model_descr,
        [(k, p.center.tobytes(), p.radius, p.depth) for k, p in table.pockets.items()],
        [(k, s.p1.tobytes(), s.p2.tobytes(), s.direction) for k, s in segments.linear.items()],
        [(k, s.center.tobytes(), s.radius) for k, s in segments.circular.items()],
    )


@cache
def _reference_numbers(spec: TableSpec) -> tuple[Any, ...]:
    return _table_numbers(_reference(spec).table)


def _parts_disagreement(
    where: str,
    parts: Mapping[str, Any],
    reference: Mapping[str, Any],
    fields: Iterable[str],
    name: str,
) -> str | None:
    if parts.keys() != reference.keys():
        return f"{where} are {sorted(parts)}, {name} {sorted(reference)}"
    fields = tuple(fields)
    for key, part in parts.items():
        if part is reference[key]:
            continue
        for field in fields:
            ours, theirs = getattr(part, field), getattr(reference[key], field)
            if not _same(ours, theirs):
                shown = ours.tolist() if isinstance(ours, np.ndarray) else ours
                shown_theirs = theirs.tolist() if isinstance(theirs, np.ndarray) else theirs
                return f"{where}[{key!r}].{field} is {shown!r}, {name} {shown_theirs!r}"
    return None


def _same(ours: Any, theirs: Any) -> bool:
    """Equal to the last bit (arrays: the same shape and numbers)."""
    if isinstance(theirs, np.ndarray):
        return isinstance(ours, np.ndarray) and ours.tobytes() == theirs.tobytes()
    return bool(ours == theirs)


# -- the balls at the start -----------------------------------------------------------------


def _start_disagreement(
    system: pt.System, spec: TableSpec, start: Mapping[BallId, Point]
) -> str | None:
    if system.balls.keys() != start.keys():
        return f"the balls are {sorted(system.balls)}, the start's {sorted(start)}"
    try:
        settled = settle_positions(spec, start)
    except PlacementError as error:
        return f"the start cannot be placed on the table ({error})"
    model = _reference(spec).balls[CUE]
    for ball_id, ball in system.balls.items():
        where = f"balls[{ball_id!r}]"
        for field in ("params", "ballset", "initial_orientation"):
            ours, theirs = getattr(ball, field), getattr(model, field)
            if ours != theirs:
                return f"{where}.{field} is {ours!r}, poolsim's ball's {theirs!r}"
        if not ball.history:
            return f"{where}.history is empty"
        first = ball.history[0]
        x, y = settled[ball_id]
        expected = np.array([[x, y, spec.ball_radius], [0, 0, 0], [0, 0, 0]], dtype=float)
        if first.rvw[0].tobytes() != expected[0].tobytes():
            got = first.rvw[0]
            return (
                f"{where} starts at ({got[0]:.4f}, {got[1]:.4f}, {got[2]:.4f}), "
                f"the start has it at ({x:.4f}, {y:.4f}) on the cloth"
            )
        if first.rvw.tobytes() != expected.tobytes() or first.s != pt.constants.stationary:
            return f"{where} does not start at rest"
        if first.t != 0:
            return f"{where} does not start at time 0"
    return None


# -- its own events -------------------------------------------------------------------------


def _events_disagreement(system: pt.System) -> str | None:
    events = system.events
    problem = _frame_disagreement(events)
    if problem is not None:
        return problem
    times = [event.time for event in events]
    if system.t != times[-1]:
        return f"the system's time {system.t!r} is not its last event's {times[-1]!r}"
    for ball_id, ball in system.balls.items():
        history = ball.history
        if len(history) != len(events):
            return f"balls[{ball_id!r}].history has {len(history)} states for {len(events)} events"
        if [state.t for state in history] != times:
            return f"balls[{ball_id!r}].history is not at the times of the events"
        if not _same_state(ball.state, history[-1]) or ball.state.t != history[-1].t:
            return f"balls[{ball_id!r}].state is not the last of its history"
        if ball.history_cts.states:
            return f"balls[{ball_id!r}] keeps a continuized history (a game file keeps none)"
    pocketed: dict[str, set[str]] = {pocket: set() for pocket in system.table.pockets}
    for index, event in enumerate(events):
        for agent in event.agents:
            if agent.agent_type is not _BALL:
                if not _table_part_agrees(system.table, agent):
                    return (
                        f"events[{index}] names {agent.agent_type.value} {agent.id!r}, "
                        "not the table's"
                    )
                continue
            owner = system.balls.get(agent.id)
            if owner is None:
                return f"events[{index}] names a ball {agent.id!r} the system lacks"
            problem = _ball_agent_disagreement(agent, owner, index)
            if problem is not None:
                return (
                    f"events[{index}] ({event.event_type.value} at {event.time:.4f} s), "
                    f"ball {agent.id!r}: {problem}"
                )
        if event.event_type is pt.EventType.BALL_POCKET:
            ball_agent, pocket_agent = event.agents
            pocketed.setdefault(pocket_agent.id, set()).add(ball_agent.id)
    for pocket_id, pocket in system.table.pockets.items():
        if pocket.contains != pocketed.get(pocket_id, set()):
            return (
                f"table.pockets[{pocket_id!r}] holds {sorted(pocket.contains)}, "
                f"the events pocket {sorted(pocketed.get(pocket_id, set()))} there"
            )
    return None


def _frame_disagreement(events: list[pt.events.Event]) -> str | None:
    """pooltool opens every shot with a null event at 0 s and ends it with one (at rest,
    or stopped by the watchdog), with none between: a shot cut short, or one whose
    opening is something else, is not a simulated shot."""
    none = pt.EventType.NONE
    if len(events) < 3 or events[0].event_type is not none or events[0].time != 0.0:
        return "the shot does not open with pooltool's null event at 0 s"
    if events[-1].event_type is not none:
        return "the shot does not end with pooltool's null event (cut short)"
    inside = next((i for i, e in enumerate(events[1:-1], 1) if e.event_type is none), None)
    if inside is not None:
        return f"events[{inside}] is a null event inside the shot"
    return None


_AT_REST = frozenset({pt.constants.stationary, pt.constants.pocketed})


def _ball_agent_disagreement(agent: pt.events.Agent, owner: pt.Ball, index: int) -> str | None:
    """A ball an event names, before and after it, against the system's ball: the same
    ball (its copies share its parts and keep no history), left in the state its history
    has at the event, and, if it was at rest, met by the event where it rested."""
    initial, final = agent.initial, agent.final
    for copy in (initial, final):
        if not isinstance(copy, pt.Ball):  # the codec reads both for a ball
            return "not a ball"
        if (
            copy.id != owner.id
            or copy.history.states
            or copy.history_cts.states
            or any(
                getattr(copy, part) is not getattr(owner, part)
                and getattr(copy, part) != getattr(owner, part)
                for part in ("params", "ballset", "initial_orientation")
            )
        ):
            return "not the system's ball (its parts or its history)"
    assert isinstance(initial, pt.Ball) and isinstance(final, pt.Ball)
    if not _same_state(final.state, owner.history[index]):
        return f"its history[{index}] is not where the event left it"
    if index:
        before = owner.history[index - 1]
        # Every change of motion is an event: the ball comes in as it left the last one.
        if initial.state.s != before.s:
            previous = f"its history[{index - 1}] {before.s}"
            return f"comes in in motion state {initial.state.s}, {previous}"
        if before.s in _AT_REST and not _same_state(initial.state, before):
            return f"met away from where it rested (history[{index - 1}])"
    return None


def _table_part_agrees(table: pt.Table, agent: pt.events.Agent) -> bool:
    """A pocket or cushion an event names is the table's, as the event saw it (a cushion
    read from a file is the very object the table holds; a pocket is a copy)."""
    if agent.agent_type not in _TABLE_PARTS:
        return True
    parts, fields = _TABLE_PARTS[agent.agent_type]
    part = parts(table).get(agent.id)
    # A pocket is kept after the event too (holding the ball): the same pocket.
    seen = (agent.initial,) if agent.final is None else (agent.initial, agent.final)
    return part is not None and all(
        copy is not None
        and copy.id == agent.id
        and (
            copy is part
            or all(_same(getattr(copy, field), getattr(part, field)) for field in fields)
        )
        for copy in seen
    )


def _same_state(ours: pt.objects.BallState, theirs: pt.objects.BallState) -> bool:
    """The same motion state and numbers (not the time: an event's copy of a ball keeps
    the ball's own clock, a sum of steps an ulp off the event's time, which the history
    takes)."""
    return ours.s == theirs.s and ours.rvw.tobytes() == theirs.rvw.tobytes()
