"""What the table asks of the physics: strike a shot, preview a resting aim, collect.

The turn's logic (:class:`sim.play.table.controller.TableController`) talks to a
:class:`Simulator`, not to a process: the window hands it the
:class:`sim.physics.simulators.worker.PhysicsWorker` (a child process, so the window
never waits for pooltool), and tests, scripts and duels between computer players hand it
the :class:`sim.physics.simulators.inprocess.InProcessSimulator` (the same answers,
computed in the calling process, with no process to start). Both answer in the same way:

- :meth:`Simulator.shoot` and :meth:`Simulator.preview` only ask; nothing is answered
  before a :meth:`Simulator.poll`, which announces each finished job with a
  :class:`ShotReady` (or a :class:`ShotFailed`), and :meth:`Simulator.result` hands the
  shot over once;
- a preview is worth its result only while it is the newest one; striking exactly the
  previewed stroke makes the preview the shot's job, so the balls move at once;
- :meth:`Simulator.preview_result` lets the table look at the newest preview's result
  without taking it (the tracking lines are drawn from it), so a strike of that stroke
  still finds it there.
"""

from __future__ import annotations

import itertools
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
    """The simulator's warm-up: ``done`` of ``total`` steps, now doing ``label``.
    ``first_run``: the physics is being compiled (no earlier warm-up on this machine, see
    :mod:`sim.physics.simulators.compiled`); ``started``: when the warm-up began, on the caller's
    ``time.monotonic`` clock, so a status line can count the seconds between steps."""

    done: int
    total: int
    label: str
    first_run: bool = False
    started: float = 0.0


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

    def preview_result(self) -> ShotResult | None:
        """The newest preview's shot, once it is back (after a :meth:`poll`), left in
        place: looked at, not handed over (None: none asked, or not back yet)."""
        ...

    def forget(self, jobs: Iterable[int]) -> None:
        """Shots nobody will collect: their results dropped, now or when they come."""
        ...

    def restart(self) -> Simulator:
        """A fresh simulator of the same kind in place of this one, which is closed: the
        table replaces a dead one without knowing what kind it is."""
        ...

    def close(self) -> None: ...


class JobBook:
    """The bookkeeping every simulator keeps the same way: job numbers, the newest
    preview, the struck jobs and the results waiting to be collected. A simulator says
    what to send (the new jobs :meth:`shoot` and :meth:`preview` return) and keeps what
    comes back if it is :meth:`wanted`."""

    def __init__(self) -> None:
        self._numbers = itertools.count(1)
        self._results: dict[int, ShotResult] = {}
        self._preview: tuple[ShotRequest, int] | None = None  # the newest preview
        self._struck: set[int] = set()

    def shoot(self, request: ShotRequest) -> tuple[int, bool]:
        """The job of a struck shot, and whether it is new (to be simulated): the preview
        of exactly this stroke, done or under way, becomes the shot's job (no preview may
        follow until the shot is back, or it could displace it)."""
        if self._preview is not None and self._preview[0] == request:
            job, new = self._preview[1], False
            self._preview = None
        else:
            job, new = next(self._numbers), True
        self._struck.add(job)
        return job, new

    def preview(self, request: ShotRequest) -> int | None:
        """The job of a new preview to simulate, or None when it is the newest already;
        an older preview's result is dropped."""
        if self._preview is not None and self._preview[0] == request:
            return None
        if self._preview is not None:
            self._results.pop(self._preview[1], None)  # a stale preview's result
        job = next(self._numbers)
        self._preview = (request, job)
        return job

    def wanted(self, job: int) -> bool:
        """Whether a finished ``job`` is worth keeping: struck, or the newest preview."""
        current_preview = self._preview is not None and self._preview[1] == job
        return job in self._struck or current_preview

    def is_struck(self, job: int) -> bool:
        return job in self._struck

    def keep(self, result: ShotResult) -> None:
        self._results[result.job] = result

    def result(self, job: int) -> ShotResult | None:
        """The finished shot of ``job``, once; None until then."""
        result = self._results.pop(job, None)
        if result is not None:
            self._struck.discard(job)
        return result

    def preview_result(self) -> ShotResult | None:
        """The newest preview's result if it is back, kept for the strike that may
        follow (a struck preview is no longer a preview: None)."""
        if self._preview is None:
            return None
        return self._results.get(self._preview[1])

    def forget(self, jobs: Iterable[int]) -> None:
        """Shots nobody will collect: results dropped, and not kept if they come later."""
        for job in jobs:
            self._struck.discard(job)
            self._results.pop(job, None)

    def clear(self) -> None:
        self._results.clear()
