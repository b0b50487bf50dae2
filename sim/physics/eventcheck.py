"""Does each event of a stored shot follow from the one before it?

A shot simulated again with the same arithmetic gives the stored system to the last bit
(:mod:`sim.store.verify`). One simulated with another arithmetic (another C library, a
processor that rounds a function otherwise, or a poolsim before
:mod:`sim.physics.patches.arithmetic`) differs in the last bits, and since pool is chaotic,
the difference grows with every collision: re-simulating the whole shot says nothing of
whether the stored one was played as the physics says.

:func:`check_events` asks it event by event instead. From the balls as the stored system
holds them after event k-1, the physics here must find event k (its kind and its
agents, at its time), meet its balls as the event's record says they came to it, and
leave every ball as the stored system holds it after event k, each within
:data:`TOLERANCE`: one event's rounding, never a chaotic growth, is what two arithmetics
may differ by. A system edited by hand (a ball's path moved, a collision's outcome
changed, an event left out, made up or swapped for another due at the same moment, the
shot cut short) fails at the event edited. Ties (two events due within the tolerance of
each other, which two arithmetics may put in either order) are taken in the stored
order, the stored one checked to be due then itself. That a shot opens and ends with
pooltool's null events, and has none between, is the loader's check
(:mod:`sim.physics.agreement`).

The arithmetic a file says it was simulated with is the file's word, and a forger's
too: this check, not that word, is what tells another computer's rounding from an edit.
"""

from __future__ import annotations

import math

import attrs
import numpy as np

from sim.physics.pooltool_setup import pt
from sim.physics.simulate import EVENT_WATCHDOG
from sim.physics.simulate import engine as simulation_engine

# Metres, seconds, metres a second and radians a second alike: a nanometre is two
# thousand times the largest step difference measured (4.8e-13, docs/DETERMINISM.md), and
# far below anything a hand would change.
TOLERANCE = 1e-9


@attrs.frozen
class EventCheck:
    """The verdict on one stored system, event by event."""

    events: int  # events checked
    largest_difference: float  # over every ball's numbers and every event's time
    problem: str | None  # the first event that does not follow, in words; None if all do

    @property
    def consistent(self) -> bool:
        return self.problem is None


def check_events(system: pt.System) -> EventCheck:
    """Each event of ``system`` re-derived from the stored state before it."""
    engine = simulation_engine()
    events = system.events
    table = system.table.copy()  # resolving a pocketing adds to a pocket: not the stored one
    stopped = len(events) >= EVENT_WATCHDOG  # the watchdog stopped the balls where they were
    largest = 0.0
    for k in range(1, len(events)):
        stored = events[k]
        shot = _system_after(system, k - 1, table)
        transitions = pt.evolution.event_based.cache.TransitionCache.create(shot)
        collisions = pt.evolution.event_based.cache.CollisionCache.create()
        found = pt.evolution.event_based.simulate.get_next_event(
            shot, transition_cache=transitions, collision_cache=collisions
        )
        label = f"event {k} ({stored.event_type} at {stored.time:.6f} s)"
        end = stored.event_type == pt.EventType.NONE  # the shot's end: nothing more happens
        if end and found.time != math.inf and not stopped:
            return EventCheck(k, largest, f"{label}: the balls stop, but the physics goes on")
        if not end:
            if not math.isfinite(found.time) or abs(found.time - stored.time) > TOLERANCE:
                return EventCheck(
                    k, largest, f"{label}: the physics finds the next event elsewhere"
                )
            largest = max(largest, abs(found.time - stored.time))
            if (found.event_type, found.ids) != (stored.event_type, stored.ids):
                due = _due(stored, transitions, collisions)
                if abs(due - stored.time) > TOLERANCE:
                    return EventCheck(k, largest, f"{label}: the physics has it due at {due:.6f} s")
                found = _event_like(stored)  # a tie, taken in the stored order
        pt.evolution.event_based.simulate._SimulationState.evolve(shot, stored.time - shot.t)
        if not end:
            if _largest_agent_difference(shot, stored) > TOLERANCE:
                return EventCheck(k, largest, f"{label}: its balls do not come to it as stored")
            engine.resolver.resolve(shot, found)
        difference = _largest_state_difference(shot, system, k, positions_only=end and stopped)
        if difference is None or difference > TOLERANCE:
            return EventCheck(k, largest, f"{label}: the balls do not leave it as stored")
        largest = max(largest, difference)
    return EventCheck(len(events) - 1, largest, None)


def _system_after(system: pt.System, k: int, table: pt.Table) -> pt.System:
    """A fresh system on ``table`` whose balls are at their stored states after event
    ``k``."""
    balls = {
        ball_id: pt.Ball(
            id=ball_id,
            state=ball.history[k].copy(),
            params=ball.params,
            ballset=ball.ballset,
            initial_orientation=ball.initial_orientation,
        )
        for ball_id, ball in system.balls.items()
    }
    return pt.System(cue=system.cue.copy(), table=table, balls=balls, t=system.events[k].time)


def _due(
    stored: pt.events.Event,
    transitions: pt.evolution.event_based.cache.TransitionCache,
    collisions: pt.evolution.event_based.cache.CollisionCache,
) -> float:
    """When the physics has the stored event itself due (infinity: never), from the
    caches its search for the next event filled."""
    kind = stored.event_type
    if kind.is_transition():
        due = transitions.transitions.get(stored.ids[0])
        return due.time if due is not None and due.event_type == kind else math.inf
    times = collisions.times.get(kind, {})
    first, second = stored.ids  # a collision's two agents
    return times.get((first, second), times.get((second, first), math.inf))


def _largest_agent_difference(shot: pt.System, stored: pt.events.Event) -> float:
    """How far the balls the event names are, as evolved to it, from the states its
    record says they came to it in."""
    largest = 0.0
    for agent in stored.agents:
        if agent.agent_type is pt.events.AgentType.BALL and isinstance(agent.initial, pt.Ball):
            came = agent.initial.state.rvw
            largest = max(largest, float(np.max(np.abs(shot.balls[agent.id].state.rvw - came))))
    return largest


def _event_like(stored: pt.events.Event) -> pt.events.Event:
    """A new event of the stored one's kind, agents and time (resolving fills its
    agents' states; the stored event is left as it is)."""
    agents = tuple(pt.events.Agent(id=a.id, agent_type=a.agent_type) for a in stored.agents)
    return pt.events.Event(event_type=stored.event_type, agents=agents, time=stored.time)


def _largest_state_difference(
    shot: pt.System, system: pt.System, k: int, positions_only: bool = False
) -> float | None:
    """The largest difference of any ball's numbers from the stored state after event
    ``k`` (None when a ball's motion state differs); ``positions_only`` where the
    watchdog stopped the balls (their speeds set to nothing, where they were)."""
    largest = 0.0
    for ball_id, ball in shot.balls.items():
        stored = system.balls[ball_id].history[k]
        if positions_only:
            largest = max(largest, float(np.max(np.abs(ball.state.rvw[0] - stored.rvw[0]))))
            continue
        if ball.state.s != stored.s:
            return None
        largest = max(
            largest,
            float(np.max(np.abs(ball.state.rvw - stored.rvw))),
            abs(ball.state.t - stored.t),
        )
    return largest
