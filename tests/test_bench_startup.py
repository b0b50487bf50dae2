"""``poolsim bench --startup``: launches of ``poolsim play`` timed to the start screen, to
a table to aim on, and to the physics ready. Run here once, one launch of each, for the
shape of its figures: how fast is the bench's to say, not a test's."""

from __future__ import annotations

import math

import pytest

from sim.bench import startup_line, startup_times

pytestmark = [pytest.mark.app, pytest.mark.physics]


def test_one_launch_of_each_gives_every_figure() -> None:
    report = startup_times(launches=1)
    assert report["launches"] == 1
    for launch in ("start_screen", "table"):
        figures = report[launch]
        assert set(figures) == {"shown_s", "physics_s", "shown_cpu_s"}
        assert all(math.isfinite(value) and value > 0 for value in figures.values()), figures
    line = startup_line(report)
    assert line.startswith("launch to the start screen: ") and "to a table to aim on: " in line
    assert "median of 1" in line
    assert isinstance(report["bytecode_cached"], bool)
