"""``poolsim selfplay --save``: the match file is written as each rack ends, so a kill
loses at most the rack in play (it was written once, after every rack: a failed save lost
them all), and an unwritable folder is said before the first rack."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.run import ROOT

pytestmark = pytest.mark.physics
RUN = ["selfplay", "--racks", "40", "--seed", "6", "--save"]


def _finished_racks(path: Path) -> tuple[int, bool]:
    """How many racks the saved match holds, and whether every one of them has ended."""
    from sim.play.selfplay import summarize
    from sim.store.gamefile import load

    summaries = summarize(load(path))
    return len(summaries), all(s.winner is not None or s.rerack for s in summaries)


def test_a_kill_mid_run_keeps_every_rack_finished(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    target = folder / "selfplay-ten-ball-seed6.poolsim"
    child = subprocess.Popen(
        [sys.executable, "-c", "from sim.cli import main; main()", *RUN, str(folder)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    seen, last = 0, 0
    deadline = time.monotonic() + 300
    try:
        while seen < 3 and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.05)
            if target.exists() and target.stat().st_mtime_ns != last:
                last = target.stat().st_mtime_ns
                seen, whole = _finished_racks(target)
                assert whole, "a rack was saved before it ended"
        assert child.poll() is None, "the run ended before it could be killed"
        child.send_signal(signal.SIGKILL)
    finally:
        child.kill()
        child.wait()
    kept, whole = _finished_racks(target)
    assert seen >= 3 and kept >= seen and whole
    # a kill mid-write may leave the writer's temporary file, never a half-written match
    assert all(p == target or p.name.endswith(".tmp") for p in folder.iterdir())
