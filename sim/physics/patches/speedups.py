"""pooltool 0.6.0's pure-Python hot spots, done faster to the same bits, and the one place
that installs each copy over the function it was written from.

The first two are here; the search for the next event is :mod:`.nextevent`'s, the step
from one event to the next :mod:`.stepping`'s.

A profile of level 5's candidate strokes (pots after a break, 60 simulations) put a
third of pooltool's time in two places that compute nothing the physics keeps:

- ``CollisionCache.invalidate``: after every event it drops the cached collision times
  of the balls the event changed, by looking up the event type's ball indices again for
  every cached pair and running a generator through ``any`` for each (1.5 million
  generator steps in those 60 shots). :func:`invalidate` looks the indices up once per
  event type and tests the one or two places directly: the same keys are dropped, in
  the same order, so the times computed afterwards are the same.
- The Stronge compliant cushion model's ``_solve`` (pooltool's default for both kinds of
  cushion) formats its vectors for seven ``logger.debug`` f-strings on every cushion
  contact, whether or not debug logging is on: numpy's array printing was 15% of the
  time. :func:`stronge_solve` is the same function without them, statement for
  statement, its assertion included.

pooltool is pinned at 0.6.0 (its main branch changes these modules), and each
replacement is installed only over the function whose source it was written from
(:data:`ORIGINALS`, a digest of the source): a pooltool that differs keeps its own
code, and ``tests/physics/test_speedups.py`` fails to say so. That test also holds 32
fresh shots (each rack's break on both tables, and strokes of every pace, spin and line
from it) to the same bits with and without the replacements; the project's stored
games, saved before they existed, verify bit for bit with them (``tests/store``).

Why not a fork or a patch of the installed files: the project installs pooltool from
PyPI with uv's lock, and a user's environment is theirs; replacing functions at
import, by name and checked, keeps pooltool's own package untouched.
"""

from __future__ import annotations

import hashlib
import inspect
import logging
from collections.abc import Callable
from typing import Any

import numpy as np

from sim.physics.patches import nextevent, stepping
from sim.physics.pooltool_setup import pt

# The sha256 of each replaced function's source in pooltool 0.6.0.
ORIGINALS = {
    "invalidate": "75752b466ec61ac2dd1ecc5924cae1e4c9468ee0df794d53dfb272a6e52b4c0a",
    "stronge_solve": "b041d86e8e0022b0656458e65c81ea8bd54a4d601098f2c786d32eb63430dedb",
    "transition_next": "0d6b1e1d74a25f4f3e6afa64a212b80443940d087d6d547d082a7b35dc489b45",
    "ball_ball_next": "50139ccc520b4a02486fd0da0a52240c6733645a70640eddd56353079915e89b",
    "circular_cushion_next": "bae7f14a1844541679e50a8fbeb27baf03dcacddef30c5d58f97e1a53ac85fe8",
    "linear_cushion_next": "7b1885dc398c78ab2537e0335493a411f1a972c31aa7805cf2b2085210d8b0a3",
    "pocket_next": "7ad82f376bad6d25ca74c6dbebfc6df68f560ce5a63785b883a23d7a9d660dc5",
    "evolve": "ff2b6d7bdb74903f120c3a3263ab0e7892dc6b5e0cf288e44f210a68f43d6a1b",
    "update_history": "be6dd11bf7ef8282d1cf820c906e64a41637789899b6e92c0539df6f4cc32dbf",
}
_installed: dict[str, Callable[..., Any]] = {}


def source_digest(function: Callable[..., Any]) -> str:
    """The sha256 of ``function``'s source ("" where its source is not installed)."""
    try:
        source = inspect.getsource(function)
    except (OSError, TypeError):
        return ""
    return hashlib.sha256(source.encode()).hexdigest()


def invalidate(self: Any, event: Any) -> None:
    """``CollisionCache.invalidate``: drop the cached times of the pairs with a ball the
    event changed."""
    indices_of = pt.events.utils.event_type_to_ball_indices
    invalid = {event.ids[i] for i in indices_of[event.event_type]}
    for event_type, event_times in self.times.items():
        indices: set[int] = indices_of.get(event_type, set())
        if len(indices) == 1:
            (first,) = indices
            stale = [key for key in event_times if key[first] in invalid]
        elif len(indices) == 2:
            first, second = indices
            stale = [key for key in event_times if key[first] in invalid or key[second] in invalid]
        else:  # no ball in the key (none of pooltool's event types today)
            stale = [key for key in event_times if any(key[i] in invalid for i in indices)]
        for key in stale:
            del event_times[key]


def stronge_solve(ball: Any, cushion: Any, omega_ratio: float) -> tuple[Any, Any]:
    """``pooltool.physics.resolve.ball_cushion.stronge_compliant.model._solve`` without
    its debug f-strings."""
    ptmath = pt.ptmath
    solve = pt.physics.resolve.stronge_compliant.resolve_collinear_compliant_frictional_inelastic_collision  # noqa: E501
    rvw = ball.state.rvw.copy()

    normal_direction = cushion.get_normal_3d(ball.xyz)
    relative_contact_velocity = ptmath.surface_velocity(rvw, -normal_direction, ball.params.R)

    v_n_0, v_t_0, tangent_direction = ptmath.decompose_normal_tangent(
        relative_contact_velocity, normal_direction, True
    )

    # inverse inertia matrix coefficients for sphere half-space collision
    effective_mass = ball.params.m
    beta_t = 3.5
    beta_n = 1.0
    beta_t_by_beta_n = beta_t / beta_n

    v_t_f, v_n_f = solve(
        v_t_0=v_t_0,
        v_n_0=v_n_0,
        m=effective_mass,
        beta_t=beta_t,
        beta_n=beta_n,
        mu=ball.params.f_c,
        e_n=ball.params.e_c,
        k_n=1e3,
        eta_squared=(beta_t_by_beta_n / omega_ratio**2),
    )

    Dv_n = (v_n_f - v_n_0) / beta_n
    rvw[1] += Dv_n * normal_direction

    Dv_t = (v_t_f - v_t_0) / beta_t
    rvw[1] += Dv_t * tangent_direction
    rvw[2] += (2.5 / ball.params.R) * ptmath.cross(-normal_direction, Dv_t * tangent_direction)

    v_c_f = v_n_f * normal_direction + v_t_f * tangent_direction
    relative_contact_velocity_f = ptmath.surface_velocity(rvw, -normal_direction, ball.params.R)
    assert np.allclose(v_c_f, relative_contact_velocity_f), (
        f"v_c_f={v_c_f}, relative_contact_velocity_f={relative_contact_velocity_f}"
    )

    rvw[1][2] = 0.0

    ball.state = pt.objects.BallState(rvw, pt.constants.sliding)

    return ball, cushion


def targets() -> dict[str, tuple[Any, str, Callable[..., Any]]]:
    """Each replacement: the namespace it goes into, the name, and the replacement."""
    nextevent.bind()
    stepping.bind()
    model = pt.physics.resolve.ball_cushion.stronge_compliant.model
    caches = pt.evolution.event_based.cache
    search = pt.evolution.event_based.simulate
    return {
        "invalidate": (caches.CollisionCache, "invalidate", invalidate),
        "stronge_solve": (model, "_solve", stronge_solve),
        "transition_next": (caches.TransitionCache, "get_next", nextevent.transition_next),
        "ball_ball_next": (search, "get_next_ball_ball_collision", nextevent.ball_ball_next),
        "circular_cushion_next": (
            search,
            "get_next_ball_circular_cushion_event",
            nextevent.circular_cushion_next,
        ),
        "linear_cushion_next": (
            search,
            "get_next_ball_linear_cushion_collision",
            nextevent.linear_cushion_next,
        ),
        "pocket_next": (search, "get_next_ball_pocket_collision", nextevent.pocket_next),
        # a static method: installed as one (below)
        "evolve": (search._SimulationState, "evolve", stepping.evolve),
        "update_history": (pt.System, "_update_history", stepping.update_history),
    }


def install() -> list[str]:
    """Put each replacement in place of the function it was written from (once); the
    names of those left as pooltool has them because their source is not that one."""
    kept = []
    for name, (namespace, attribute, replacement) in targets().items():
        current = getattr(namespace, attribute)
        if current is replacement:
            continue
        if source_digest(current) != ORIGINALS[name]:
            logging.getLogger(__name__).warning(
                "pooltool's %s is not the one poolsim's faster copy was written from: kept",
                attribute,
            )
            kept.append(name)
            continue
        # what the namespace holds (a static method as itself, to go back as one)
        _installed[name] = inspect.getattr_static(namespace, attribute)
        if isinstance(_installed[name], staticmethod):
            setattr(namespace, attribute, staticmethod(replacement))
        else:
            setattr(namespace, attribute, replacement)
    return kept


def uninstall() -> None:
    """pooltool's own functions back (tests compare with them)."""
    for name, (namespace, attribute, _) in targets().items():
        if name in _installed:
            setattr(namespace, attribute, _installed.pop(name))
