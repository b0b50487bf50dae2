"""A duel's workers and their arithmetic (:mod:`sim.play.cluster`): a worker with
another is refused, both named; a worker started as on another machine, under another
setting of what a processor can change (numba compiling for a generic x86-64, numpy
without its optional SIMD loops), plays the racks played here, to the same figures."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sim.numerics import here
from sim.play.cluster import version_problem, versions
from sim.play.duel import DuelSetup, figures, play_rack
from tests.physics.test_arithmetic import OTHER_SETTING
from tests.play.test_cluster import _without_clock

ROOT = Path(__file__).resolve().parents[2]


def test_a_worker_with_another_arithmetic_is_refused_both_named() -> None:
    ours = versions()
    assert ours["arithmetic"] == here().identity()
    theirs = {**ours, "arithmetic": "fixed-dot-1 on glibc 2.31, FMA, aarch64"}
    problem = version_problem("tcp://w:1", theirs, ours)
    assert problem is not None
    assert "worker tcp://w:1 runs arithmetic fixed-dot-1 on glibc 2.31, FMA, aarch64" in problem
    assert f"this duel runs arithmetic {here().identity()}" in problem
    assert "differ from this computer's in the last bits" in problem
    assert "poolsim" not in problem.split("refused")[0]  # only what differs is named


def _dask(command: str, *args: str) -> list[str]:
    """A Dask command line, as ``dask scheduler`` and ``dask worker`` run it."""
    return [sys.executable, "-m", f"distributed.cli.dask_{command}", *args]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def scheduler_with_a_worker_elsewhere() -> Iterator[str]:
    """A scheduler on 127.0.0.1 and one worker under :data:`OTHER_SETTING` (the numpy
    settings through ``--preload-nanny sim``, as poolsim's guide starts a worker)."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen(
        _dask("scheduler", "--host", "127.0.0.1", "--port", str(port), "--dashboard-address", ":0"),
        cwd=ROOT,
        **quiet,
    )
    env = {**os.environ, **OTHER_SETTING}
    env.pop("OPENBLAS_CORETYPE")  # the worker's pin chooses it (sim preloaded)
    worker = subprocess.Popen(
        _dask("worker", address, "--nthreads", "1", "--no-dashboard", "--preload-nanny", "sim"),
        cwd=ROOT,
        env=env,
        **quiet,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        yield address
    finally:
        for process in (worker, scheduler):
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


# What a worker runs under, asked of it (eval: a builtin, so the worker needs nothing of
# this module).
_SETTING = (
    "[__import__('numba').config.CPU_NAME]"
    " + [__import__('numpy._core._multiarray_umath', fromlist=['_']).__cpu_features__[f]"
    " for f in ('AVX2', 'AVX512F')]"
)


@pytest.mark.physics
@pytest.mark.skipif(sys.platform != "linux", reason="the settings are x86-64 Linux's")
def test_a_worker_under_another_setting_plays_the_racks_played_here(
    scheduler_with_a_worker_elsewhere: str,
) -> None:
    from distributed import Client

    from sim.play.cluster import run_on_cluster

    with Client(scheduler_with_a_worker_elsewhere, timeout=30) as client:  # type: ignore[no-untyped-call]
        client.wait_for_workers(1, timeout=120)
        (setting,) = client.run(eval, _SETTING).values()
    assert setting == ["generic", False, False]  # numba's target, numpy's AVX2, its AVX-512
    setup = DuelSetup(game="nine-ball", levels=("2", "1"), racks=2, seed=6, names=("A", "B"))
    here_outcomes = [play_rack(setup, index) for index in range(setup.racks)]
    there = run_on_cluster(setup, scheduler_with_a_worker_elsewhere)
    assert _without_clock(figures(setup, there)) == _without_clock(figures(setup, here_outcomes))
