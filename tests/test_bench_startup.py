"""``poolsim bench --startup``: whole launches of ``poolsim play --game ten-ball`` timed to
a table to play on and to the physics ready, of ``poolsim play`` to the start screen, and
``python -c "import pooltool"`` beside them. Run here once, one launch of each, for the
shape and the order of its figures: how fast is the bench's to say, not a test's."""

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
        for spread in figures.values():
            assert set(spread) == {"min", "median"}
            assert all(math.isfinite(value) and value > 0 for value in spread.values()), figures
    table = report["table"]
    assert table["shown_s"]["min"] <= table["shown_s"]["median"]
    assert report["import_pooltool_s"]["median"] > 0
    baseline = report["import_pooltool_s"]["median"]
    assert report["ratios"]["physics_to_import"] == pytest.approx(
        table["physics_s"]["median"] / baseline
    )
    line = startup_line(report)
    assert line.startswith("launch of poolsim play --game ten-ball to a table to play on: ")
    assert "to the physics ready: " in line and "python -c 'import pooltool': " in line
    assert "1 launches of each" in line
    assert isinstance(report["bytecode_cached"], bool)
