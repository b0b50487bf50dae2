"""A refusal that needs nothing loaded is said before anything heavy is: a wrong output
name before the game is loaded, a missing file before pooltool is imported (a large game
took 24 s and 458 MB to be told its diagram's name; a missing file, 14 s and 275 MB)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.run import ROOT

# Runs the command and says, as it exits, whether pooltool was ever imported.
_RUN = """
import atexit, sys
atexit.register(lambda: print("pooltool imported:", "pooltool" in sys.modules))
from sim.cli import main
main(sys.argv[1:])
"""
GAME = str(ROOT / "tests" / "data" / "games" / "ten-ball-saved-by-56f7334.poolsim")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["export", GAME, "--diagram", "out.txt"], "the name of a PNG file ends in .png"),
        (["export", GAME, "--gif", "out.png"], "the name of a GIF file ends in .gif"),
        (["verify", "/nonexistent.poolsim"], "/nonexistent.poolsim: cannot read"),
        (["verify", "--decisions", "/nonexistent.poolsim"], "cannot read"),
        (["review", "/nonexistent.poolsim"], "/nonexistent.poolsim: cannot read"),
        (["review", GAME, "--save", "/dev/null"], "--save"),
    ],
)
def test_refused_in_one_line_before_pooltool_is_imported(args: list[str], said: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", _RUN, *args], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and said in lines[0], result.stderr
    assert result.stdout == "pooltool imported: False\n"
