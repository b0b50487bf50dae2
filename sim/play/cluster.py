"""A duel's racks on a Dask distributed cluster (``poolsim duel --scheduler``).

A rack is a pure function of the duel's set-up and its number (:func:`play_rack`), so
the cluster may play one wherever it likes, and again: a worker lost mid-run has its
racks rerun elsewhere by the scheduler (each task may fail ``ALLOWED_FAILURES`` times),
and a rerun is the same rack. Results are kept by rack number, so none is ever counted
twice, and the figures are the same as a run here (:func:`sim.play.duel.run_duel`).

Every worker warms the physics once, as it joins (:class:`WarmUp`, a worker plugin),
and every rack comes back with the poolsim and pooltool versions of the worker that
played it: a rack from another version is refused, both versions named.

``distributed`` is the optional extra ``poolsim[cluster]``: this module is imported only
for a duel on a cluster.
"""

from __future__ import annotations

import importlib.metadata
import uuid
from collections.abc import Callable, Mapping
from typing import Any

import attrs
from distributed import Client, Worker, as_completed, get_worker
from distributed.diagnostics.plugin import WorkerPlugin

from sim.play.duel import DuelInterrupted, DuelSetup, Encoder, RackOutcome, play_rack

CONNECT_TIMEOUT_S = 5.0  # an unreachable scheduler is said at once, not after minutes
WORKERS_TIMEOUT_S = 120.0  # a scheduler with no worker joining within this is an error
PACKAGES = ("poolsim", "pooltool-billiards")


class ClusterError(Exception):
    """The cluster cannot play the duel (one line: unreachable, no workers, a worker
    with other versions)."""


def versions() -> dict[str, str]:
    """The versions of poolsim and pooltool in this process."""
    found = {}
    for package in PACKAGES:
        try:
            found[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            found[package] = "none"
    return found


def version_problem(worker: str, theirs: dict[str, str], ours: dict[str, str]) -> str | None:
    """Why a worker with the versions ``theirs`` may not play for a duel run with
    ``ours``, both named; None when they are the same."""
    if theirs == ours:
        return None
    return (
        f"worker {worker} runs "
        + ", ".join(f"{name} {version}" for name, version in sorted(theirs.items()))
        + "; this duel runs "
        + ", ".join(f"{name} {version}" for name, version in sorted(ours.items()))
        + ": refused (install the same versions on every machine)"
    )


@attrs.frozen
class RemoteRack:
    """A rack played on a worker: its outcome, and who played it with what."""

    outcome: RackOutcome
    worker: str
    versions: dict[str, str]


def _play_remote(setup: DuelSetup, index: int, encode: Encoder | None) -> RemoteRack:
    outcome = play_rack(setup, index, encode)
    return RemoteRack(outcome, str(get_worker().address), versions())


class WarmUp(WorkerPlugin):
    """A worker plugin: the physics warmed once in each worker as it joins (numba's
    kernels compiled or loaded from its cache), not in the middle of its first rack."""

    name = "poolsim-warm-up"
    idempotent = True

    def setup(self, worker: Worker) -> None:
        from sim.physics.simulators.warmup import warm_up

        warm_up()

    def teardown(self, worker: Worker) -> None:
        """Nothing to undo."""


def run_on_cluster(
    setup: DuelSetup,
    scheduler: str,
    on_rack: Callable[[RackOutcome], None] | None = None,
    encode: Encoder | None = None,
    done: Mapping[int, RackOutcome] | None = None,
) -> list[RackOutcome]:
    """Every rack of the duel, in rack order, played on the cluster of ``scheduler``
    (``tcp://HOST:PORT``); ``on_rack`` and ``done`` as in :func:`sim.play.duel.run_duel`.
    :class:`ClusterError` if it cannot be; Ctrl-C raises :class:`DuelInterrupted`."""
    try:
        client = Client(  # type: ignore[no-untyped-call]  # distributed is partly typed
            scheduler, timeout=CONNECT_TIMEOUT_S, set_as_default=False
        )
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"cannot reach the scheduler at {scheduler}: {error}") from None
    finished: dict[int, RackOutcome] = dict(done or {})
    futures: list[Any] = []
    try:
        try:
            client.wait_for_workers(1, timeout=WORKERS_TIMEOUT_S)
        except TimeoutError:
            raise ClusterError(
                f"no worker joined the scheduler at {scheduler} in {WORKERS_TIMEOUT_S:.0f} s"
            ) from None
        ours = versions()
        for worker, theirs in client.run(versions).items():
            problem = version_problem(worker, theirs, ours)
            if problem is not None:
                raise ClusterError(problem)
        client.register_plugin(WarmUp())
        run = uuid.uuid4().hex[:8]
        futures = [
            client.submit(
                _play_remote,
                setup,
                index,
                encode,
                key=f"poolsim-duel-{run}-rack-{index}",
                pure=False,
            )
            for index in range(setup.racks)
            if index not in finished
        ]
        for future in as_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
            remote: RemoteRack = future.result()
            problem = version_problem(remote.worker, remote.versions, ours)
            if problem is not None:
                raise ClusterError(problem)
            outcome = remote.outcome
            if outcome.index in finished:  # a rerun of a rack already counted
                continue
            finished[outcome.index] = attrs.evolve(outcome, file=None)
            if on_rack is not None:
                on_rack(outcome)
    except KeyboardInterrupt:
        raise DuelInterrupted([finished[i] for i in sorted(finished)]) from None
    finally:
        if futures:
            client.cancel(futures)  # type: ignore[no-untyped-call]
        client.close()  # type: ignore[no-untyped-call]
    return [finished[i] for i in sorted(finished)]
