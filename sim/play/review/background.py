"""A review made beside the window, so the window never waits: its steps judged one by
one in a child process, each sent back as it is judged, and polled once a frame.

The same reasons as the computer's thinking (:mod:`sim.play.opponent.thinker_process`):
a step at level 5 takes seconds of pooltool simulations, which hold the GIL, so neither
the window's process nor a thread of it may judge it. The child is spawned (no fork of a
GL process), loads the compiled physics once, and runs at a lower priority than the
window (``os.nice``): on a 2-core machine the table, the physics worker and the
computer's thinking come first, the review takes what is left. It ends with its window
(it looks whether its parent lives between steps).

:class:`InProcessReview` judges in the calling process, a step a poll (tests).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
from collections.abc import Sequence
from multiprocessing.context import SpawnProcess
from typing import Any, Protocol

from sim.play.review.judged import ReviewJob, judge_step
from sim.play.review.run import Collected
from sim.play.review.summary import Review

NICENESS = 10  # the child's priority under the window's


class ReviewRun(Protocol):
    """A review being made: how far it is, and the review once every step is judged."""

    @property
    def level(self) -> str: ...
    @property
    def total(self) -> int: ...
    @property
    def done(self) -> int: ...
    @property
    def failed(self) -> str | None: ...

    def poll(self) -> Review | None:
        """The review once it is whole (every time after); None until then."""
        ...

    def close(self) -> None: ...


class InProcessReview(Collected):
    """Judged here, one step each poll (tests with no process)."""

    def poll(self) -> Review | None:
        if self.failed is None and self.done < self.total:
            try:
                self.judged[self.done] = judge_step(self.jobs[self.done])
            except Exception as error:  # said on the screen, as the child's failure is
                self.failed = f"{type(error).__name__}: {error}"
        return self.review()

    def close(self) -> None:
        pass


class ReviewProcess(Collected):
    """Judged in a child process (see the module); :meth:`start` it."""

    def __init__(self, jobs: Sequence[ReviewJob], digest: str, level: str, line: int) -> None:
        super().__init__(jobs, digest, level, line)
        context = multiprocessing.get_context("spawn")
        self._replies: multiprocessing.Queue[Any] = context.Queue()
        self._process: SpawnProcess = context.Process(
            target=_serve, args=(self.jobs, self._replies), daemon=True
        )

    def start(self) -> ReviewProcess:
        self._process.start()
        return self

    def poll(self) -> Review | None:
        while self.failed is None:
            try:
                index, found = self._replies.get_nowait()
            except queue.Empty:
                break
            if isinstance(found, str):
                self.failed = found
            else:
                self.judged[index] = found
        if self.failed is None and self.done < self.total and not self._process.is_alive():
            self.failed = "the review's process stopped"
        return self.review()

    def close(self) -> None:
        """Stopped at once: a step half judged is worth nothing kept."""
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(timeout=2)
        self._replies.close()


def _serve(
    jobs: list[ReviewJob],
    replies: multiprocessing.Queue[Any],
) -> None:
    """The child: the physics loaded once, then every step judged and sent back, unless
    its window is gone (it is terminated to stop it: a step half judged is nothing)."""
    from sim.physics.simulators.warmup import warm_up

    with contextlib.suppress(OSError, AttributeError):  # no nice on some systems
        os.nice(NICENESS)
    warm_up()
    parent = multiprocessing.parent_process()
    for index, job in enumerate(jobs):
        if parent is not None and not parent.is_alive():
            return
        try:
            replies.put((index, judge_step(job)))
        except Exception as error:
            replies.put((index, f"{type(error).__name__}: {error}"))
            return
