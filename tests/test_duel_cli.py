"""``poolsim duel``: bad input is one line and status 2; --json is one object with each
player's figures; without it, a table; Ctrl-C prints the figures of the racks finished."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.run import ROOT, poolsim


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--a", "9", "--b", "1"], "'9' is not one of"),
        (["--a", "1", "--b", "1", "--racks", "0"], "racks must be a whole number from 1"),
        (["--a", "1", "--b", "1", "--workers", "-1"], "workers must be a whole number from 1"),
        (["--a", "1", "--b", "1", "--seed", "-3"], "seed must be a whole number from 0"),
        (["--a", "1"], "Missing option '--b'"),
        (["--a", "1", "--b", "1", "--game", "snooker"], "'snooker' is not one of"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], message: str) -> None:
    result = poolsim("duel", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert message in lines[0]


@pytest.mark.physics
def test_json_is_one_object_and_the_table_the_same_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("duel", "--a", "1", "--b", "1", "--racks", "1", "--seed", "2", "--workers", "1")
    result = poolsim(*args, "--json")
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 1
    report = json.loads(result.stdout)
    assert report["racks"] == 1 and set(report["players"]) == {"A", "B"}
    a = report["players"]["A"]
    assert a["level"] == "1" and a["breaks"] >= 1 and a["shots"] >= 1
    assert "rack 1 of 1" in result.stderr  # a line a rack when stderr is no terminal

    from sim.cli.duel import _print_duel

    _print_duel(report, as_json=False)
    table = capsys.readouterr().out
    for label in ("racks won", "break and runs", "called pots made", "thinking"):
        assert label in table
    shots = next(line for line in table.splitlines() if " shots " in line)
    assert str(a["shots"]) in shots


def _hears_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.physics
def test_ctrl_c_prints_the_figures_of_the_racks_finished() -> None:
    duel = ["duel", "--a", "1", "--b", "1", "--racks", "50", "--seed", "5", "--workers", "1"]
    child = subprocess.Popen(
        [sys.executable, "-c", "from sim.cli import main; main()", *duel, "--json"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A shell that started the tests in the background (`cmd &`) hands its children
        # SIGINT ignored, and Python then keeps it so: the duel would never hear Ctrl-C.
        preexec_fn=_hears_ctrl_c,
    )
    try:
        assert child.stderr is not None
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:  # the first rack's line, then Ctrl-C
            line = child.stderr.readline()
            if line.startswith("rack 1 of 50") or not line:
                break
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()
    assert child.returncode == 130, err
    report = json.loads(out)
    assert 1 <= report["racks"] < 50
    assert "stopped after" in err and "Traceback" not in err
