"""A duel's racks on a Dask distributed cluster (``poolsim duel --scheduler``).

A rack is a pure function of the duel's set-up and its number (:func:`play_rack`), so
the cluster may play one wherever it likes, and again: a worker lost mid-run has its
racks rerun elsewhere by the scheduler (each task may fail ``ALLOWED_FAILURES`` times),
and a rerun is the same rack. Results are kept by rack number, so none is ever counted
twice, and the figures are the same as a run here (:func:`sim.play.duel.run_duel`).

Every worker warms the physics once, as it joins (:class:`WarmUp`, a worker plugin),
and every rack comes back with the poolsim and pooltool versions and the arithmetic
(:func:`sim.numerics.here`) of the worker that played it: a rack from another version or
another arithmetic is refused, both named (another arithmetic would simulate other
last bits, and so, pool being chaotic, other racks).

Before Dask is given the address, :func:`connect` checks that a Dask scheduler answers
there, with plain sockets and a deadline: Dask's own connection waits for ever on a
listener that says nothing (an HTTP server waits for a request), and allocates whatever
size a peer's first frame announces. Anything but a scheduler is one line within
:data:`CONNECT_TIMEOUT_S` + :data:`GREETING_TIMEOUT_S` seconds; so is a scheduler lost
mid-duel (the racks finished are kept by the caller).

``distributed`` is the optional extra ``poolsim[cluster]``: this module is imported only
for a duel on a cluster.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib.metadata
import logging
import socket
import ssl
import struct
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar
from urllib.parse import urlsplit

import attrs
from distributed import Client, Worker, as_completed, get_worker
from distributed.diagnostics.plugin import WorkerPlugin
from distributed.security import Security

from rules.reading import one_line
from sim.numerics import here
from sim.play.duel import DuelInterrupted, DuelSetup, Encoder, RackOutcome, play_rack

CONNECT_TIMEOUT_S = 5.0  # an unreachable scheduler is said at once, not after minutes
GREETING_TIMEOUT_S = 5.0  # a scheduler greets a new connection at once; a listener silent
# this long is something else
MAX_GREETING_BYTES = 64 * 2**10  # Dask's greeting is under 100 bytes: a larger frame is
# not one, and is never allocated
# Dask's frames start with their length, an unsigned 64-bit integer (distributed.comm.tcp).
FRAME_LENGTH = struct.Struct("Q")
# What every Dask greeting holds (distributed.comm.core.Comm.handshake_info).
GREETING_MARK = b"pickle-protocol"
WORKERS_TIMEOUT_S = 120.0  # a scheduler with no worker joining within this is an error
PACKAGES = ("poolsim", "pooltool-billiards")
_J = TypeVar("_J")
_R = TypeVar("_R")


class ClusterError(Exception):
    """The cluster cannot play the duel (one line: unreachable, no workers, a worker
    with other versions)."""


def versions() -> dict[str, str]:
    """The versions of poolsim and pooltool in this process, and its arithmetic."""
    found = {}
    for package in PACKAGES:
        try:
            found[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            found[package] = "none"
    found["arithmetic"] = here().identity()
    return found


def version_problem(worker: str, theirs: dict[str, str], ours: dict[str, str]) -> str | None:
    """Why a worker with the versions ``theirs`` may not play for a duel run with
    ``ours``, both named; None when they are the same."""
    if theirs == ours:
        return None
    differ = sorted(
        name for name in theirs.keys() | ours.keys() if theirs.get(name) != ours.get(name)
    )
    hint = (
        "install the same versions on every machine"
        if differ != ["arithmetic"]
        else "its shots would differ from this computer's in the last bits: "
        "a duel's machines need one C library and one architecture"
    )
    return (
        f"worker {worker} runs "
        + "; ".join(f"{name} {theirs.get(name, 'none')}" for name in differ)
        + "; this duel runs "
        + "; ".join(f"{name} {ours.get(name, 'none')}" for name in differ)
        + f": refused ({hint})"
    )


@attrs.frozen
class Remote(Generic[_R]):
    """A job done on a worker: its result, and who did it with what."""

    result: _R
    worker: str
    versions: dict[str, str]


def _done_remotely(work: Callable[[_J], _R], job: _J) -> Remote[_R]:
    return Remote(work(job), str(get_worker().address), versions())


def _play(job: tuple[DuelSetup, int, Encoder | None]) -> RackOutcome:
    return play_rack(*job)


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


def connect(scheduler: str) -> Client:
    """A client of the Dask scheduler at ``scheduler`` (``tcp://`` or ``tls://HOST:PORT``),
    after :func:`check_greeting`; :class:`ClusterError` (one line) for anything else."""
    security = Security()  # type: ignore[no-untyped-call]  # Dask's TLS files, from its config
    check_greeting(scheduler, _tls_context(scheduler, security))
    _quiet_dask()
    try:
        return Client(  # type: ignore[no-untyped-call]  # distributed is partly typed
            scheduler, timeout=CONNECT_TIMEOUT_S, set_as_default=False, security=security
        )
    except Exception as error:  # whatever Dask raises, one line
        raise ClusterError(
            f"cannot connect to the scheduler at {scheduler}: {one_line(error)}"
        ) from None


def _tls_context(scheduler: str, security: Security) -> ssl.SSLContext | None:
    """The TLS context Dask would use for ``tls://``, from Dask's configuration; None for
    ``tcp://``. :class:`ClusterError` when ``tls://`` has no certificates to use."""
    if urlsplit(scheduler).scheme != "tls":
        return None
    context = security.get_connection_args("client")["ssl_context"]  # type: ignore[no-untyped-call]
    if context is None:
        raise ClusterError(
            f"cannot connect to the scheduler at {scheduler}: tls:// needs Dask's TLS"
            " certificates (distributed.comm.tls.ca-file, .client.cert and .client.key"
            " in Dask's configuration)"
        )
    assert isinstance(context, ssl.SSLContext)
    return context


def check_greeting(scheduler: str, context: ssl.SSLContext | None = None) -> None:
    """Check that what listens at ``scheduler`` greets as a Dask scheduler does: on a new
    connection it sends at once one small frame holding its handshake. Within the
    timeouts, never reading more than :data:`MAX_GREETING_BYTES`; :class:`ClusterError`
    (one line) for a closed port, a listener that says nothing, or anything else."""
    parts = urlsplit(scheduler)
    host, port = parts.hostname or "", parts.port or 0
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S) as raw:
            stream = raw if context is None else context.wrap_socket(raw, server_hostname=host)
            deadline = time.monotonic() + GREETING_TIMEOUT_S
            (length,) = FRAME_LENGTH.unpack(_received(stream, FRAME_LENGTH.size, deadline))
            if length > MAX_GREETING_BYTES:
                raise ClusterError(
                    f"{scheduler} is not a Dask scheduler: its first message announces"
                    f" {length:,} bytes (a scheduler's greeting is under 100)"
                )
            greeting = _received(stream, length, deadline)
    except TimeoutError:
        raise ClusterError(
            f"{scheduler} is not a Dask scheduler: it said nothing in {GREETING_TIMEOUT_S:.0f} s"
        ) from None
    except (OSError, ValueError) as error:  # refused, unreachable, TLS refused, no host
        why = getattr(error, "strerror", None) or one_line(error)
        raise ClusterError(f"cannot reach the scheduler at {scheduler}: {why}") from None
    if GREETING_MARK not in greeting:
        raise ClusterError(f"{scheduler} is not a Dask scheduler: it answers something else")


def _received(stream: socket.socket, count: int, deadline: float) -> bytes:
    """Exactly ``count`` bytes from ``stream`` by ``deadline`` (TimeoutError after it, OSError
    if the peer closes first): a peer sending a byte at a time is bounded too."""
    parts, missing = [], count
    while missing:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        stream.settimeout(left)
        part = stream.recv(min(missing, MAX_GREETING_BYTES))
        if not part:
            raise ConnectionError(f"it closed the connection after {count - missing} bytes")
        parts.append(part)
        missing -= len(part)
    return b"".join(parts)


def _quiet_dask() -> None:
    """Dask's own log lines off the terminal: a lost scheduler is said once, by the
    duel, not by a page of reconnection attempts and tracebacks from Dask's threads."""
    families = ("distributed", "tornado", "asyncio")
    names = [name for name in logging.root.manager.loggerDict if name.startswith(families)]
    for name in {*families, *names}:  # Dask's config gives some of its loggers their own level
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


# What waiting on a rack raises when the scheduler is gone: its connection closed (an
# OSError), a timeout, or the futures cancelled as the client gives up on it.
LOST = (OSError, TimeoutError, asyncio.CancelledError, concurrent.futures.CancelledError)


def run_on_cluster(
    setup: DuelSetup,
    scheduler: str,
    on_rack: Callable[[RackOutcome], None] | None = None,
    encode: Encoder | None = None,
    done: Mapping[int, RackOutcome] | None = None,
    client: Client | None = None,
) -> list[RackOutcome]:
    """Every rack of the duel, in rack order, played on the cluster of ``scheduler``
    (``tcp://HOST:PORT``; ``client``, if given, connected to it by :func:`connect`, and
    closed here); ``on_rack`` and ``done`` as in :func:`sim.play.duel.run_duel`.
    :class:`ClusterError` if it cannot be or the scheduler is lost (the racks given to
    ``on_rack`` stay given); Ctrl-C raises :class:`DuelInterrupted`."""
    finished: dict[int, RackOutcome] = dict(done or {})
    jobs = {index: (setup, index, encode) for index in range(setup.racks) if index not in finished}

    def played(index: int, outcome: RackOutcome) -> None:
        finished[index] = attrs.evolve(outcome, file=None)
        if on_rack is not None:
            on_rack(outcome)

    try:
        spread_on_cluster(_play, jobs, scheduler, played, client=client, what="racks")
    except KeyboardInterrupt:
        raise DuelInterrupted([finished[i] for i in sorted(finished)]) from None
    return [finished[i] for i in sorted(finished)]


def spread_on_cluster(
    work: Callable[[_J], _R],
    jobs: Mapping[int, _J],
    scheduler: str,
    on_result: Callable[[int, _R], None],
    *,
    client: Client | None = None,
    what: str = "jobs",
) -> None:
    """``work`` done on each of ``jobs`` (by number) on the cluster of ``scheduler``,
    ``on_result`` told of each as it comes, once (a job rerun after a worker was lost
    is not told again): the duel's racks and the review's shots
    (:mod:`sim.play.review`). ``work`` is a module's function, the jobs plain data, and a
    job's result the same wherever it is done. ``client``, if given, connected by
    :func:`connect`, and closed here. :class:`ClusterError` (one line, naming ``what``
    the jobs are) if it cannot be or the scheduler is lost; Ctrl-C raises
    KeyboardInterrupt, the results told kept told."""
    client = connect(scheduler) if client is None else client
    told: set[int] = set()
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
        name = what.removesuffix("s")
        futures = [
            client.submit(
                _done_remotely, work, job, key=f"poolsim-{run}-{name}-{index}", pure=False
            )
            for index, job in jobs.items()
        ]
        numbers = {future.key: index for future, index in zip(futures, jobs, strict=True)}
        for future in as_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
            remote = _done(future)
            problem = version_problem(remote.worker, remote.versions, ours)
            if problem is not None:
                raise ClusterError(problem)
            index = numbers[future.key]
            if index in told:  # a rerun of a job already told
                continue
            told.add(index)
            on_result(index, remote.result)
    except LOST as error:
        raise ClusterError(
            f"lost the scheduler at {scheduler} after {len(told)} of {len(jobs)} {what}"
            f" ({_why_lost(error)})"
        ) from None
    finally:
        _close(client, futures)


def _done(future: Any) -> Remote[Any]:
    """The job a future holds; a job that failed on its worker (a worker started
    without poolsim's kernels, say) is one line naming it, not the worker's traceback."""
    try:
        remote = future.result()
    except LOST:
        raise
    except Exception as error:  # raised on the worker, re-raised here as it was
        # Its whole first line: a worker's advice (start it with --preload-nanny sim) is long.
        why = one_line(error, limit=1000)
        raise ClusterError(f"{future.key} failed on its worker: {why}") from None
    assert isinstance(remote, Remote)
    return remote


def _why_lost(error: BaseException) -> str:
    """What a lost scheduler raised, in words: a cancelled future says nothing itself."""
    text = str(error).strip().splitlines()
    return text[0][:200] if text else "its connection closed, the racks in play cancelled"


def _close(client: Client, futures: list[Any]) -> None:
    """The duel's futures cancelled and the client closed, quietly and briefly if the
    scheduler is gone (Dask would wait for it, then raise)."""
    try:
        if futures:
            client.cancel(futures)  # type: ignore[no-untyped-call]
        client.close(timeout=CONNECT_TIMEOUT_S)  # type: ignore[no-untyped-call]
    except (*LOST, RuntimeError):
        pass
