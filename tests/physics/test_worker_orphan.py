"""A physics worker ends with its window, however the window ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PARENT = """
import sys, time
from sim.physics.simulators.worker import PhysicsWorker
worker = PhysicsWorker(warm_up=False).start()
while not worker.ready:
    worker.poll()
    time.sleep(0.05)
print(worker._process.pid, flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie waiting for init is gone too
        return stat.read().split()[2] != "Z"


def test_a_worker_whose_window_is_killed_ends_too() -> None:
    """SIGKILL to the window: no "stop" is ever sent, and a daemon child outlives it."""
    if not Path("/proc").is_dir():
        return
    window = subprocess.Popen(
        [sys.executable, "-c", PARENT], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert window.stdout is not None
    worker = int(window.stdout.readline())
    assert _alive(worker)
    window.send_signal(signal.SIGKILL)
    window.wait()
    deadline = time.monotonic() + 15
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(worker), "the worker outlived its window"


THINKER = """
import time
from sim.play.opponent.thinker_process import ThinkerProcess
thinker = ThinkerProcess(helpers=1).start()
print(thinker._process.pid, *(helper.pid for helper in thinker._helpers), flush=True)
time.sleep(600)
"""


def test_the_thinker_and_its_helper_end_with_a_window_that_is_killed() -> None:
    """The computer's thinker and the helper beside it (sim.physics.simulators.shared)
    are the window's children too: killed outright, it takes both with it."""
    if not Path("/proc").is_dir():
        return
    window = subprocess.Popen(
        [sys.executable, "-c", THINKER], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert window.stdout is not None
    children = [int(pid) for pid in window.stdout.readline().split()]
    assert len(children) == 2 and all(_alive(pid) for pid in children)
    time.sleep(1)  # under way: importing, warming up
    window.send_signal(signal.SIGKILL)
    window.wait()
    deadline = time.monotonic() + 30  # each looks up between its warm-up's steps at most
    while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in children), "a child outlived its window"
