"""What the table asks of the physics: strike a shot, preview a resting aim, collect.

The turn's logic (:class:`sim.play.controller.TableController`) talks to a
:class:`Simulator`, not to a process: the window hands it the
:class:`sim.physics.worker.PhysicsWorker` (a child process, so the window never waits for
pooltool), and tests, scripts and duels between computer players hand it the
:class:`sim.physics.inprocess.InProcessSimulator` (the same answers, computed in the calling
process, with no process to start). Both answer in the same way:

- :meth:`Simulator.shoot` and :meth:`Simulator.preview` only ask; nothing is answered
  before a :meth:`Simulator.poll`, which announces each finished job with a
  :class:`ShotReady` (or a :class:`ShotFailed`), and :meth:`Simulator.result` hands the
  shot over once;
- a preview is worth its result only while it is the newest one; striking exactly the
  previewed stroke makes the preview the shot's job, so the balls move at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

import attrs

from rules.facts import BallId
from rules.geometry import Point
from sim.physics.simulate import CueAction, SimulatedShot


@attrs.frozen
class ShotRequest:
    """What to simulate: the table, the balls at rest, the stroke."""

    table: str
    positions: tuple[tuple[BallId, Point], ...]
    action: CueAction

    @classmethod
    def of(cls, table: str, positions: Mapping[BallId, Point], action: CueAction) -> ShotRequest:
        return cls(table=table, positions=tuple(sorted(positions.items())), action=action)


@attrs.frozen
class Progress:
    """The simulator's warm-up: ``done`` of ``total`` steps, now doing ``label``."""

    done: int
    total: int
    label: str


@attrs.frozen(eq=False)
class ShotResult:
    job: int
    request: ShotRequest
    shot: SimulatedShot
    seconds: float  # wall time simulating it (in a worker, packing it too)


@attrs.frozen
class ShotReady:
    """The simulator has finished ``job``: :meth:`Simulator.result` has it."""

    job: int


@attrs.frozen
class ShotFailed:
    """The physics could not simulate ``job`` (the simulator lives on)."""

    job: int
    message: str


Reply = Progress | ShotReady | ShotFailed


class Simulator(Protocol):
    """Shots simulated for the table, answered through :meth:`poll` (see the module)."""

    @property
    def ready(self) -> bool:
        """The warm-up is over: shots come back in milliseconds (previews are worth it)."""
        ...

    @property
    def progress(self) -> Progress | None:
        """How far the warm-up is, for the window to show (None: nothing reported)."""
        ...

    @property
    def alive(self) -> bool:
        """False once it can answer no more (a process that died): :meth:`restart` it."""
        ...

    def shoot(self, request: ShotRequest) -> int:
        """Simulate a struck shot (never dropped); returns its job number."""
        ...

    def preview(self, request: ShotRequest) -> None:
        """Simulate the resting aim ahead of the stroke (dropped if a newer one comes)."""
        ...

    def poll(self) -> list[Reply]:
        """What has finished since the last poll (never blocks for long)."""
        ...

    def result(self, job: int) -> ShotResult | None:
        """The finished shot of ``job`` (after a :meth:`poll`), once; None until then."""
        ...

    def forget(self, jobs: Iterable[int]) -> None:
        """Shots nobody will collect: their results dropped, now or when they come."""
        ...

    def restart(self) -> Simulator:
        """A fresh simulator of the same kind in place of this one, which is closed: the
        table replaces a dead one without knowing what kind it is."""
        ...

    def close(self) -> None: ...
