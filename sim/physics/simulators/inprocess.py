"""The physics in the calling process, answering as the worker process does.

Tests, scripts and duels between computer players need the table's answers, not a child
process: starting one (a spawn, pooltool imported again) costs more than the shots of a
test. :class:`InProcessSimulator` keeps the :class:`sim.physics.simulators.simulator.Simulator`
semantics (nothing answered before a poll, only the newest preview simulated, a struck
preview kept as the shot's job, forgotten jobs dropped) and simulates during
:meth:`InProcessSimulator.poll`, so a preview overtaken before the poll is never computed.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import attrs

from sim.physics.simulate import simulate_shot
from sim.physics.simulators.simulator import (
    JobBook,
    Reply,
    ShotFailed,
    ShotReady,
    ShotRequest,
    ShotResult,
    Simulator,
)
from sim.physics.table import table_spec


@attrs.frozen
class QueuedShot:
    """A shot or preview asked for and not simulated yet."""

    job: int
    request: ShotRequest
    preview: bool


class InProcessSimulator(Simulator):
    """Shots simulated here, when polled. Named as a
    :class:`sim.physics.simulators.simulator.Simulator` so the type checker holds it to
    the protocol (nothing in sim/ hands it to the table)."""

    def __init__(self) -> None:
        self._book = JobBook()
        self._queue: list[QueuedShot] = []  # asked for, not simulated yet: the worker's queue
        self._closed = False

    # Nothing to warm up in a process that already runs the physics (or will compile it
    # on the first shot, as the caller chose to).
    @property
    def ready(self) -> bool:
        return True

    @property
    def progress(self) -> None:
        return None

    @property
    def alive(self) -> bool:
        return not self._closed

    def shoot(self, request: ShotRequest) -> int:
        """Simulate a struck shot at the next poll; the preview of exactly this stroke,
        done or waiting, becomes its job."""
        job, new = self._book.shoot(request)
        if new:
            self._queue.append(QueuedShot(job, request, preview=False))
        return job

    def preview(self, request: ShotRequest) -> None:
        """Simulate the resting aim at the next poll, unless a newer aim comes first."""
        job = self._book.preview(request)
        if job is not None:
            self._queue.append(QueuedShot(job, request, preview=True))

    def poll(self) -> list[Reply]:
        """Simulate what is asked for, in order: every struck shot, and of the previews
        only the newest (a struck one counts as a shot); each wanted result kept for
        :meth:`result`."""
        return [self._simulate(job) for job in self._take_queue()]

    def _take_queue(self) -> list[QueuedShot]:
        """The jobs asked for since the last poll that are worth simulating: every struck
        shot, and of the previews only the newest (a struck one counts as a shot)."""
        waiting, self._queue = self._queue, []
        newest_preview = max((job.job for job in waiting if job.preview), default=None)
        return [
            job
            for job in waiting
            if not job.preview or job.job == newest_preview or self._book.is_struck(job.job)
        ]

    def _simulate(self, job: QueuedShot) -> Reply:
        """``job`` simulated here, its result kept if wanted."""
        started = time.perf_counter()
        try:
            request = job.request
            shot = simulate_shot(table_spec(request.table), dict(request.positions), request.action)
        except Exception as error:  # told to the table, as the worker tells it
            return ShotFailed(job.job, f"{type(error).__name__}: {error}")
        if self._book.wanted(job.job):
            seconds = time.perf_counter() - started
            self._book.keep(ShotResult(job.job, request, shot, seconds))
        return ShotReady(job.job)

    def result(self, job: int) -> ShotResult | None:
        """The finished shot of ``job`` (after a :meth:`poll`), once; None until then."""
        return self._book.result(job)

    def preview_result(self) -> ShotResult | None:
        """The newest preview's shot once it is back, left for a strike to collect."""
        return self._book.preview_result()

    def wait(self, job: int) -> ShotResult:
        """The shot of ``job``, simulated now if it is still waiting (scripts)."""
        for reply in self.poll():
            if isinstance(reply, ShotFailed) and reply.job == job:
                raise RuntimeError(reply.message)
        result = self.result(job)
        if result is None:
            raise KeyError(f"no shot {job} is waiting (collected, forgotten or never asked)")
        return result

    def forget(self, jobs: Iterable[int]) -> None:
        """Shots nobody will collect: dropped, simulated or not."""
        self._book.forget(jobs)

    def restart(self) -> InProcessSimulator:
        """A fresh one in place of this one, which is closed (its jobs gone with it)."""
        self.close()
        return InProcessSimulator()

    def close(self) -> None:
        self._closed = True
        self._queue.clear()
        self._book.clear()
