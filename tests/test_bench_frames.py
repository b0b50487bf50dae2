"""``poolsim bench --render``: each preset beside the plain scene, round by round, and the
frame-time probe it runs (``python -m sim.app.frametimes``) for every preset."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from sim import bench
from tests.run import ROOT


def probe(*args: str, timeout: float = 300) -> dict[str, Any]:
    """What ``python -m sim.app.frametimes ARGS`` prints, the run asserted clean."""
    result = subprocess.run(
        [sys.executable, "-m", "sim.app.frametimes", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    figures: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return figures


def test_each_round_is_set_against_its_own_plain_scene(monkeypatch: pytest.MonkeyPatch) -> None:
    """A load that comes and goes falls on one round: each preset's ratio is taken
    against the plain scene of the same round, and the median of those is reported."""
    plain_walls = iter([50.0, 100.0, 60.0])  # round 2 ran on a busy machine
    fast_walls = iter([25.0, 50.0, 33.0])
    calls: list[str] = []

    def frame_time(preset: str, size: str) -> dict[str, float]:
        calls.append(preset)
        wall = {"plain": plain_walls, "fast": fast_walls}.get(preset)
        ms = next(wall) if wall is not None else 300.0
        return {"width": 1280, "height": 800, "wall_ms_median": ms, "cpu_ms_median": ms}

    monkeypatch.setattr(bench, "frame_time", frame_time)
    report = bench.frame_times(rounds=3)
    assert calls == ["plain", "fast", "quality"] * 3
    fast = report["fast"]
    assert fast["wall_to_plain"] == pytest.approx(0.5)  # 0.5, 0.5, 0.55
    assert fast["wall_ms_median"] == 33.0 and report["plain"]["wall_ms_median"] == 60.0
    lines = bench.format_frame_times(report)
    assert len(lines) == 3 and "plain scene" in lines[0]
    assert "0.50x the plain scene" in lines[1]


@pytest.mark.app
def test_the_tracking_lines_probe_times_them_on_and_off() -> None:
    figures = probe("fast", "320x200", "tracking")
    assert figures["frames_each"] == 90  # 30 frames a side in each of 3 rounds
    assert figures["wall_ms_median_lines_on"] > 0 and figures["cpu_ms_median_lines_off"] > 0
    # Each resting aim's lines came, after its preview (the physics is part of the wait).
    assert len(figures["rest_to_lines_s"]) == 9
    assert figures["rest_to_lines_s_median"] >= 0
    (line,) = bench.format_tracking_lines({"fast": figures})
    assert line.startswith("tracking lines, fast: frame ")


@pytest.mark.app
@pytest.mark.parametrize("preset", ["plain", "fast"])
def test_the_frame_time_probe_draws_every_preset(preset: str) -> None:
    figures = probe(preset, "320x200")
    assert (figures["width"], figures["height"], figures["frames"]) == (320, 200, 30)
    assert figures["wall_ms_median"] > 0 and figures["cpu_ms_median"] > 0


@pytest.mark.app
def test_the_hint_probe_times_the_key_to_the_stroke_loaded() -> None:
    """Two people at 9-ball, each stroke the hint's: each hint timed from the key to its
    stroke on the cue, its words there in the key's frame."""
    figures = probe("fast", "320x200", "hints", "nine-ball", "2", timeout=600)
    assert (figures["game"], figures["hints"]) == ("nine-ball", 2)
    assert 0 < figures["hint_seconds_median"] <= figures["hint_seconds_p95"]
    assert figures["words_in_the_key_frame"] is True
    (line,) = bench.format_report_hints([figures])
    assert line.startswith("the hint at the table, nine-ball, the window drawing (2 hints")


@pytest.mark.app
def test_the_thinking_probe_times_the_computer_at_the_game_asked() -> None:
    """Two level-5 computers at 9-ball, the window drawing: the break left out (the
    practised one, not searched), the next strokes timed from asked to answered (two of
    the rack asked for, so the test is short), frames drawn meanwhile."""
    figures = probe("fast", "320x200", "thinking", "nine-ball", "1", "2", "0", timeout=600)
    assert (figures["game"], figures["level"], figures["decisions"]) == ("nine-ball", "5", 2)
    assert figures["racks"] in (0, 1) and figures["helpers"] == 0
    assert 0 < figures["think_seconds_median"] <= figures["think_seconds_p95"]
    assert figures["frames_while_thinking"] > 0
    (line,) = bench.format_report_thinking([figures])
    assert line.startswith("computer player at the table, nine-ball, level 5, the window drawing")


def test_the_thinker_alone_is_set_against_the_thinker_with_a_helper() -> None:
    def timed(helpers: int, median: float) -> dict[str, object]:
        return {
            "game": "rotation",
            "decisions": 9,
            "helpers": helpers,
            "think_seconds_median": median,
            "think_seconds_p95": 2 * median,
        }

    line = bench.helpers_line(timed(0, 3.5), timed(1, 2.0))
    assert line.startswith("the same 9 decisions at rotation, the window drawing: in one")
    assert "median 3.5 s, 95th percentile 7.0 s; with 1 helper(s) 2.0 s and 4.0 s" in line
    assert "1.75 times as fast at the median (the table starts" in line
