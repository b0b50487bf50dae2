"""Physics in a separate process, so the window never waits for it.

pooltool's numba code holds the GIL, a break takes 70-200 ms here (with a tail past a
second) and the first use on a machine compiles for 35-46 s: none of that may freeze
the window. :class:`PhysicsWorker` runs :func:`sim.physics.simulate.simulate_shot` in a child
process and answers through a queue the window polls once a frame.

Two kinds of work:

- a **shot** the player struck: simulated in order, never dropped;
- a **preview** of the current aim once it rests: only the newest preview is worth
  simulating, so older ones still waiting are skipped. When the player then strikes
  exactly that stroke, the result is already there and the balls move at once.

Results travel as pooltool's msgpack bytes (the game file's form, no pickle of pooltool
objects) and are rebuilt in the window's process with the facts extracted there. The
bytes stay with the shot (:attr:`sim.physics.simulate.SimulatedShot.packed`): the autosave
writes them as they came instead of packing the same system again.
"""

from __future__ import annotations

import multiprocessing
import queue
import time
from collections.abc import Iterable
from multiprocessing.context import SpawnProcess
from typing import Any

import attrs

from sim.physics.simulate import CueAction
from sim.physics.simulators.compiled import compiled_before
from sim.physics.simulators.simulator import (
    JobBook,
    Progress,
    Reply,
    ShotFailed,
    ShotReady,
    ShotRequest,
    ShotResult,
)

PARENT_CHECK_S = 1.0  # how often an idle worker looks whether its window still runs


class PhysicsWorker:
    """A child process simulating shots; :meth:`poll` collects what it has finished (a
    :class:`sim.physics.simulators.simulator.Simulator`)."""

    def __init__(self, warm_up: bool = True) -> None:
        self._warm_up = warm_up  # a restarted worker warms up as this one did
        context = multiprocessing.get_context("spawn")  # no fork of a GL/Panda3D process
        self._requests: multiprocessing.Queue[Any] = context.Queue()
        self._replies: multiprocessing.Queue[Any] = context.Queue()
        self._process: SpawnProcess = context.Process(
            target=serve, args=(self._requests, self._replies, warm_up), daemon=True
        )
        self._book = JobBook()
        # Known before the child has imported anything: whether its warm-up compiles.
        self._first_run = warm_up and not compiled_before()
        self._started = time.monotonic()
        self.ready = False  # the warm-up is over: shots come back in milliseconds
        self.progress: Progress | None = None

    def start(self) -> PhysicsWorker:
        self._started = time.monotonic()
        # Counted from now: the child takes seconds to import pooltool before it reports.
        self.progress = Progress(0, 0, "starting", self._first_run, self._started)
        self._process.start()
        return self

    def shoot(self, request: ShotRequest) -> int:
        """Simulate a struck shot; returns its job number (a preview of exactly this
        stroke becomes it: :meth:`sim.physics.simulators.simulator.JobBook.shoot`)."""
        job, new = self._book.shoot(request)
        if new:
            self._requests.put(("shot", job, encode_request(request)))
        return job

    def preview(self, request: ShotRequest) -> None:
        """Simulate the resting aim ahead of the stroke (dropped if a newer one comes)."""
        job = self._book.preview(request)
        if job is not None:
            self._requests.put(("preview", job, encode_request(request)))

    def poll(self) -> list[Reply]:
        """Replies that have arrived (never blocks). A finished shot is announced by a
        :class:`ShotReady` and kept for :meth:`result`, rebuilt here (while the player
        still aims) only if it is wanted: struck, or the newest preview; a stale
        preview is dropped unread."""
        replies: list[Reply] = []
        while True:
            try:
                kind, job, payload = self._replies.get_nowait()
            except queue.Empty:
                return replies
            if kind == "progress":
                done, total, label = payload
                self.progress = Progress(done, total, label, self._first_run, self._started)
                self.ready = payload[0] >= payload[1]
                replies.append(self.progress)
            elif kind == "error":
                replies.append(ShotFailed(job, payload))
            else:
                replies.append(ShotReady(job))
                if self._book.wanted(job):
                    self._book.keep(rebuilt(job, payload))

    def forget(self, jobs: Iterable[int]) -> None:
        """Shots nobody will collect (their game left the table): results dropped, and
        dropped unread if they arrive later."""
        self._book.forget(jobs)

    def result(self, job: int) -> ShotResult | None:
        """The finished shot of ``job`` (after a :meth:`poll`), once; None until then."""
        return self._book.result(job)

    def preview_result(self) -> ShotResult | None:
        """The newest preview's shot once it is back, left for a strike to collect."""
        return self._book.preview_result()

    def wait(self, job: int, timeout: float = 120.0) -> ShotResult:
        """Block until ``job`` is done (tests and scripts; the window polls instead)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for reply in self.poll():
                if isinstance(reply, ShotFailed) and reply.job == job:
                    raise RuntimeError(reply.message)
            result = self.result(job)
            if result is not None:
                return result
            if not self._process.is_alive():
                raise RuntimeError("the physics worker stopped")
            time.sleep(0.005)
        raise TimeoutError(f"the physics worker did not finish job {job} in {timeout:g} s")

    @property
    def alive(self) -> bool:
        return self._process.is_alive()

    def restart(self) -> PhysicsWorker:
        """Another process in place of this one (killed, crashed), which is closed."""
        self.close()
        return PhysicsWorker(warm_up=self._warm_up).start()

    def close(self) -> None:
        stop_process(self._process, self._requests, self._replies)


def stop_process(process: Any, requests: Any, replies: Any) -> None:
    """Stop a child process that takes ``("stop", 0, None)`` on ``requests`` (the physics
    worker, the computer's thinker): asked first, terminated if it does not stop within
    two seconds; both its queues closed."""
    if process.is_alive():
        requests.put(("stop", 0, None))
        process.join(timeout=2)
        if process.is_alive():
            process.terminate()
            process.join(timeout=2)
    requests.close()
    replies.close()


def rebuilt(job: int, payload: Any) -> ShotResult:
    """A finished shot from the worker's reply, its system rebuilt in this process (the
    decoder needs pooltool: imported here, not before a first shot is back)."""
    from sim.physics.simulate import shot_from_system
    from sim.physics.systemcodec import system_from_bytes
    from sim.physics.table import table_spec

    data, packed, seconds = payload
    request = _decode_request(data)
    # The bytes travel on with the shot: a save writes them as they are.
    system = system_from_bytes(packed)
    shot = shot_from_system(table_spec(request.table), system, packed=packed)
    return ShotResult(job, request, shot, seconds)


def encode_request(request: ShotRequest) -> dict[str, Any]:
    """A request as it travels to a worker's loop (:func:`serve`)."""
    return {
        "table": request.table,
        "positions": [[ball, list(point)] for ball, point in request.positions],
        "action": attrs.asdict(request.action),
    }


def _decode_request(data: dict[str, Any]) -> ShotRequest:
    return ShotRequest(
        table=data["table"],
        positions=tuple((ball, (point[0], point[1])) for ball, point in data["positions"]),
        action=CueAction(**data["action"]),
    )


def serve(
    requests: multiprocessing.Queue[Any], replies: multiprocessing.Queue[Any], warm: bool
) -> None:
    """The worker's loop: warm up (reporting progress), then simulate on request."""
    from sim.physics.simulate import simulate_shot
    from sim.physics.simulators.warmup import warm_up
    from sim.physics.systemcodec import system_to_bytes
    from sim.physics.table import table_spec

    def report(done: int, total: int, label: str) -> None:
        replies.put(("progress", 0, (done, total, label)))

    if warm:
        warm_up(report)
    else:
        report(1, 1, "done")
    waiting: list[tuple[str, int, Any]] = []
    # A window killed outright (SIGTERM, SIGKILL, a crash) never sends "stop", and a
    # daemon process outlives such a parent: the worker looks up now and then and ends
    # with it, instead of holding its half a gigabyte for ever.
    parent = multiprocessing.parent_process()
    while True:
        while not waiting:
            try:
                waiting.append(requests.get(timeout=PARENT_CHECK_S))
            except queue.Empty:
                if parent is not None and not parent.is_alive():
                    return
        while True:  # take everything queued, to skip previews that are already stale
            try:
                waiting.append(requests.get_nowait())
            except queue.Empty:
                break
        newest_preview = max((job for kind, job, _ in waiting if kind == "preview"), default=None)
        kind, job, data = waiting.pop(0)
        if kind == "stop":
            return
        if kind == "preview" and job != newest_preview:
            continue
        started = time.perf_counter()
        try:
            request = _decode_request(data)
            shot = simulate_shot(table_spec(request.table), dict(request.positions), request.action)
            packed = system_to_bytes(shot.system)
        except Exception as error:  # the window shows it; the worker lives on
            replies.put(("error", job, f"{type(error).__name__}: {error}"))
            continue
        replies.put(("shot", job, (data, packed, time.perf_counter() - started)))
