"""Shots shared out between the calling process and helper processes, for a caller that
asks for many at once: the computer's thinking at the table.

A level-5 decision is some hundred simulations asked for in batches (a search's
candidates, its noisy strikes), and the simulations are nine tenths of its time (a
profile of rotation's decisions on tuning seed 5: 82 of 88 s). At the table the thinker
is one process: on a machine with cores to spare, they sat idle while rotation's
decisions took 3 to 4 s at the median. :class:`SharedSimulator` is the
:class:`sim.physics.simulators.inprocess.InProcessSimulator` with helpers: while it
simulates a batch's shots one by one, each helper (a physics worker's loop,
:func:`sim.physics.simulators.worker.serve`, in a process of its own) keeps
:data:`IN_FLIGHT` of the same batch under way, and their shots come back as the physics
worker's do, as pooltool's msgpack bytes rebuilt here.

The answers are the same bits wherever a shot ran: the bytes hold the system exactly and
the facts are taken from it here (tests/physics/test_shared_simulator.py holds a
decision equal with and without helpers), so the computer decides at the table as it
does in a duel. A helper that falls silent (killed, stuck) costs at most
:data:`HELPER_PATIENCE` seconds: its shots are taken back and simulated here, and it is
lent nothing more. A helper is lent nothing before its warm-up is over, so a thinker
that starts beside a helper still compiling never waits for it.

Why processes and not threads: pooltool's numba code holds the GIL.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import time
from collections import deque
from collections.abc import Sequence
from multiprocessing.context import SpawnProcess
from typing import Any

import attrs

from sim.physics.simulators.inprocess import InProcessSimulator, QueuedShot
from sim.physics.simulators.simulator import Reply, ShotFailed, ShotReady
from sim.physics.simulators.worker import encode_request, rebuilt, serve, stop_process

IN_FLIGHT = 2  # shots a helper has under way: one simulating, one waiting its turn
HELPER_PATIENCE = 10.0  # seconds a lent shot may take before it is taken back
MAX_HELPERS = 3  # beyond this the batches are too small to share out


@attrs.define
class HelperLink:
    """A helper process's two queues, as the process that lends it shots holds them
    (picklable: handed to a spawned child with its arguments)."""

    requests: Any  # multiprocessing.Queue of ("shot", job, request) and ("stop", 0, None)
    replies: Any  # multiprocessing.Queue of the worker's ("progress" | "shot" | "error", ...)


def helpers_wanted() -> int:
    """Helpers worth starting on this machine: one a core beyond the window's and the
    thinker's own (the cores this process may run on), at most :data:`MAX_HELPERS`. On
    two cores none: there the window drawing while the computer thinks and the
    rebuilding of each lent shot (about a third of a simulation's time) left no gain
    (docs/OPPONENT.md, *Its helpers*)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(0, min(cores - 2, MAX_HELPERS))


def new_links(count: int) -> list[HelperLink]:
    """The queues of ``count`` helpers, made before the processes that use them."""
    context = multiprocessing.get_context("spawn")
    return [HelperLink(context.Queue(), context.Queue()) for _ in range(count)]


def start_helper(link: HelperLink) -> SpawnProcess:
    """A helper process on ``link``: it warms up the compiled physics (from the cache the
    physics worker's warm-up wrote), reports itself ready, then simulates what it is
    lent, and ends with the process that started it."""
    context = multiprocessing.get_context("spawn")  # no fork of a GL/Panda3D process
    process = context.Process(target=serve, args=(link.requests, link.replies, True), daemon=True)
    process.start()
    return process


def stop_helper(process: SpawnProcess, link: HelperLink) -> None:
    stop_process(process, link.requests, link.replies)


@attrs.define
class _Lent:
    """A helper as the lender sees it: ready once its warm-up reported done; the shots it
    has under way (its job number is the lender's) and when the oldest was lent."""

    link: HelperLink
    ready: bool = False
    silent: bool = False  # fell silent once: lent nothing more
    under_way: dict[int, QueuedShot] = attrs.Factory(dict)
    since: float = 0.0


class SharedSimulator(InProcessSimulator):
    """An :class:`InProcessSimulator` that shares each poll's struck shots with helper
    processes (see the module); with no helpers it is one."""

    def __init__(self, links: Sequence[HelperLink] = ()) -> None:
        super().__init__()
        self._helpers = [_Lent(link) for link in links]
        self.lent = 0  # shots a helper simulated (taken back ones not counted)

    @property
    def helpers_ready(self) -> int:
        """Helpers lent shots now: warmed up and not fallen silent (known as of the last
        poll)."""
        return sum(helper.ready and not helper.silent for helper in self._helpers)

    def poll(self) -> list[Reply]:
        """What has finished: the shots asked for since the last poll simulated here, the
        helpers kept busy with the same batch meanwhile, and whatever they have sent
        back. A poll returns with the helpers' shots still under way; the next collects
        them (the caller polls until its jobs are in)."""
        replies = self._collect()
        waiting = deque(self._take_queue())
        while waiting:
            self._lend(waiting)
            if waiting:
                replies.append(self._simulate(waiting.popleft()))
            replies += self._collect()
        replies += self._take_back_from_the_silent()
        return replies

    def _lend(self, waiting: deque[QueuedShot]) -> None:
        """Each ready helper topped up to :data:`IN_FLIGHT` shots, from the batch's end
        (this process works from its front). Previews stay here: only the newest is worth
        a result, and the table's own previews never come to a thinker."""
        for helper in self._helpers:
            while (
                helper.ready
                and not helper.silent
                and len(helper.under_way) < IN_FLIGHT
                and waiting
                and not waiting[-1].preview
            ):
                job = waiting.pop()
                if not helper.under_way:
                    helper.since = time.monotonic()
                helper.under_way[job.job] = job
                helper.link.requests.put(("shot", job.job, encode_request(job.request)))

    def _collect(self) -> list[Reply]:
        """The helpers' replies that have arrived (never blocks), their shots rebuilt
        here and kept if wanted."""
        replies: list[Reply] = []
        for helper in self._helpers:
            while True:
                try:
                    kind, job, payload = helper.link.replies.get_nowait()
                except (queue.Empty, OSError, ValueError):  # empty, or its queue closed
                    break
                if kind == "progress":
                    helper.ready = payload[0] >= payload[1]
                    continue
                if helper.under_way.pop(job, None) is None:
                    continue  # taken back already: simulated here
                helper.since = time.monotonic()
                self.lent += 1
                if kind == "error":
                    replies.append(ShotFailed(job, payload))
                    continue
                replies.append(ShotReady(job))
                if self._book.wanted(job):
                    self._book.keep(rebuilt(job, payload))
        return replies

    def _take_back_from_the_silent(self) -> list[Reply]:
        """Shots a helper has held past :data:`HELPER_PATIENCE` since it last answered,
        simulated here; that helper is lent nothing more."""
        replies: list[Reply] = []
        now = time.monotonic()
        for helper in self._helpers:
            if helper.under_way and now - helper.since > HELPER_PATIENCE:
                helper.silent = True
                held, helper.under_way = list(helper.under_way.values()), {}
                replies += [self._simulate(job) for job in held]
        return replies

    def close(self) -> None:
        super().close()
        self._helpers.clear()
