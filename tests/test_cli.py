"""The ``poolsim`` command: help, one-line errors with status 2, and ``simulate --json``
following the scenario format."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rules.facts import BALL_IDS, facts_from_json
from tests.run import ROOT, poolsim


def test_help_lists_the_commands() -> None:
    result = poolsim("--help")
    assert result.returncode == 0
    commands = (
        "play",
        "simulate",
        "selfplay",
        "duel",
        "stats",
        "verify",
        "position",
        "warmup",
        "bench",
        "rules",
    )
    for command in commands:
        assert command in result.stdout


def test_bare_command_without_a_display_says_so_in_one_line() -> None:
    """``poolsim`` opens the desktop table; with no display it says how to render."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    result = poolsim(env=env)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1
    assert "no display" in result.stderr and "--screenshot" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--speed", "nan"], "speed must be a finite number"),
        (["simulate", "--speed", "-2"], "speed must be in (0, 10]"),
        (["simulate", "--speed", "1e9"], "speed must be in (0, 10]"),
        (["simulate", "--game", "snooker"], "'snooker' is not one of"),
        (["simulate", "--table", "12ft"], "'12ft' is not one of"),
        (["simulate", "--spin", "0.1"], "expected two numbers A,B"),
        (["simulate", "--spin", "0.5,0.5"], "miscue limit"),
        (["simulate", "--aim", "inf"], "aim must be a finite number"),
        (["simulate", "--seed", "x"], "'x' is not a valid integer"),
        (["simulate", "--frobnicate"], "No such option"),
        (["no-such-command"], "No such command"),
        (["play", "--size", "10x10"], "outside 320x200"),
        (["play", "--game", "ten-ball", "--resume"], "choose one of"),
        (["play", "--open", "/nonexistent/game.poolsim"], "cannot read"),
        (["play", "--players", "Solo"], "two names"),
        (["play", "--screenshot", "x.png", "--quit-when-ready"], "for a window that is played"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], message: str) -> None:
    result = poolsim(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert message in lines[0]
    assert "Traceback" not in result.stderr


@pytest.mark.physics
def test_simulate_prints_a_one_line_summary() -> None:
    result = poolsim("simulate", "--game", "rotation", "--seed", "2")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("rotation break, seed 2, 9ft")
    assert "cue ball first hit the 1" in lines[0]


@pytest.mark.physics
def test_simulate_json_follows_the_scenario_format() -> None:
    result = poolsim("simulate", "--seed", "3", "--table", "8ft", "--json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert set(document) == {"table", "before", "shot"}
    assert document["table"] == {"width": 1.1176, "length": 2.2352, "ball_radius": 0.028575}
    assert set(document["before"]) == {"balls"}
    assert set(document["before"]["balls"]) == {"cue", *map(str, range(1, 11))}
    assert set(document["shot"]) == {"events", "after"}
    facts = facts_from_json(document["shot"]["events"])  # strict: the format's vocabulary
    assert facts and facts[0].kind == "head-string"
    assert all(isinstance(e["t"], float) for e in document["shot"]["events"])
    gone = {f.ball for f in facts if f.kind in ("pocket", "off-table")}
    assert set(document["shot"]["after"]) | gone == set(document["before"]["balls"])
    for ball, xy in document["shot"]["after"].items():
        assert ball in BALL_IDS and len(xy) == 2


@pytest.mark.physics
def test_warmup_reports_the_cache() -> None:
    result = poolsim("warmup")
    assert result.returncode == 0, result.stderr
    assert "ready in" in result.stdout and "numba cache:" in result.stdout


@pytest.mark.physics
def test_bench_json_reports_every_figure() -> None:
    result = poolsim("bench", "--json", "--repeats", "2")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["repeats"] == 2
    assert report["import_seconds"] > 0 and report["first_shot_seconds"] > 0
    for game in ("ten-ball", "rotation"):
        figures = report[f"{game}_break"]
        assert 0 < figures["physics_seconds_min"] <= figures["physics_seconds_median"]
        assert figures["physics_seconds_median"] <= figures["physics_seconds_max"]
        assert figures["events_median"] > figures["facts_median"] > 10
    assert 0 < report["facts_to_physics_ratio_median"] < 1
    for game in ("ten-ball", "rotation"):
        split = report[f"{game}_selfplay"]
        assert split["shots"] > 0
        parts = ("physics", "facts", "rules", "other")
        assert sum(split[f"{p}_ms_per_shot"] for p in parts) == pytest.approx(
            split["wall_ms_per_shot"]
        )
        assert all(split[f"{p}_ms_per_shot"] > 0 for p in parts)
    assert report["game_file"]["racks"] == 10
    assert report["game_file"]["save_seconds"] > 0 and report["game_file"]["load_seconds"] > 0
    taking = report["take_back"]
    assert taking["shots"] == report["game_file"]["shots"]
    assert 0 < taking["take_back_ms_median"] <= taking["take_back_ms_max"]
    assert 0 < taking["branch_ms_median"] <= taking["branch_ms_max"]
    latency = report["stroke_latency"]
    assert 0 < latency["previewed_ms_median"] < latency["cold_ms_median"]
    speed = report["speedups"]
    assert speed["shots"] == 2 and speed["identical"] == 1.0
    assert speed["pooltool_ms_per_shot"] > 0 and speed["replaced_ms_per_shot"] > 0
    assert speed["ratio"] > 0
    think = report["opponent_think"]
    assert think["level"] == 5 and think["shots"] == 2
    assert think["candidates_median"] > 0 and think["simulations_median"] > 0
    assert 0 < think["think_seconds_median"] <= think["think_seconds_max"]
    assert think["simulations_per_second"] > 0 and think["break_seconds_median"] > 0
    review = report["review"]
    assert review["level"] == 5 and review["shots"] == 2
    assert review["review_seconds_per_shot"] > 0 and review["think_seconds_per_shot"] > 0
    assert review["ratio"] == pytest.approx(
        review["review_seconds_per_shot"] / review["think_seconds_per_shot"]
    )
    timeline = report["timeline"]
    assert timeline["balls"] == 16 and timeline["query_us_median"] > 0
    assert timeline["interpolate_us_median"] > 0


def test_rules_check_runs_the_public_conformance_files() -> None:
    """The public conformance scenarios (project copies) pass through the command."""
    scenarios = ROOT / "tests" / "data" / "scenarios"
    games = ("ten-ball", "rotation", "nine-ball", "eight-ball")
    files = [str(scenarios / f"{game}.json") for game in games]
    result = poolsim("rules", "check", *files)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert all(line.startswith("PASS ") for line in lines[:-1])
    assert len(lines) == 103 and lines[-1] == "102 passed, 0 failed"


@pytest.mark.parametrize("command", ["play", "simulate", "selfplay", "duel"])
def test_every_game_flag_offers_every_game(command: str) -> None:
    result = poolsim(command, "--help")
    assert result.returncode == 0
    flag = "ten-ball|nine-ball|eight-ball|rotation"
    assert flag in result.stdout.replace("\n", "").replace(" ", "")


def test_rules_check_on_a_malformed_file_is_one_line_and_status_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "poolsim-scenarios", "version": 1, "scenarios": [{"id": "x"}]}')
    result = poolsim("rules", "check", str(bad))
    assert result.returncode == 2
    assert len((result.stdout + result.stderr).splitlines()) == 1
    assert "bad.json" in result.stdout + result.stderr
    missing = poolsim("rules", "check", str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and len((missing.stdout + missing.stderr).splitlines()) == 1


def test_bare_command_opens_the_start_screen_with_the_default_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``poolsim`` alone runs ``play`` with its defaults (converted like typed flags)."""
    from click.testing import CliRunner

    import sim.app.launch as launch
    from sim.cli import cli

    seen = []
    monkeypatch.setattr(launch, "has_display", lambda: True)
    monkeypatch.setattr(launch, "run", lambda request: seen.append(request) or 0)
    result = CliRunner().invoke(cli, [])
    assert result.exit_code == 0, result.output
    (request,) = seen
    assert request.game is None and request.size == (1280, 800) and not request.offscreen


@pytest.mark.parametrize("script", ["missing", "not-json", "not-a-list"])
def test_a_bad_script_is_one_line_and_status_2(tmp_path: Path, script: str) -> None:
    """``play --script`` read the script outside its error handling: a traceback, status 1."""
    path = tmp_path / "script.json"
    if script == "not-json":
        path.write_text("[{")
    elif script == "not-a-list":
        path.write_text("{}")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    result = poolsim("play", "--game", "ten-ball", "--script", str(path), env=env)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1 and str(path) in result.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX special files")
@pytest.mark.parametrize("command", ["verify", "replay", "rules check"])
@pytest.mark.parametrize("special", ["/dev/zero", "FIFO.json", "FIFO.poolsim"])
def test_a_special_file_is_refused_in_one_line_and_status_2(
    command: str, special: str, tmp_path: Path
) -> None:
    """``verify /dev/zero`` grew to 21 GB, and ``verify`` on a FIFO waited for ever."""
    if special.startswith("FIFO"):
        os.mkfifo(tmp_path / special)
        special = str(tmp_path / special)
    result = poolsim(*command.split(), special)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = (result.stdout + result.stderr).splitlines()
    assert len(lines) == 1, lines
    assert lines[0].endswith(("(a character device)", "(a FIFO)")), lines
    assert "not a regular file" in lines[0] and special in lines[0]


def test_rules_check_prints_errors_on_stderr_and_verdicts_on_stdout(tmp_path: Path) -> None:
    """Errors go to stderr; the PASS and FAIL lines and the tally stay on stdout."""
    source = json.loads((ROOT / "tests" / "data" / "scenarios" / "ten-ball.json").read_text())
    good = source["scenarios"][0]
    mixed = tmp_path / "mixed.json"
    document = {"format": "poolsim-scenarios", "version": 1, "scenarios": [good, {"id": "x"}]}
    mixed.write_text(json.dumps(document))
    result = poolsim("rules", "check", str(mixed))
    assert result.returncode == 2
    assert result.stdout.splitlines() == [f"PASS {good['id']}", "1 passed, 1 failed"]
    assert result.stderr.splitlines() == [f"error: {mixed}: x: rules: missing required key"], (
        result.stderr
    )


def test_rules_check_on_an_integer_of_thousands_of_digits(tmp_path: Path) -> None:
    huge = tmp_path / "huge.json"
    huge.write_text(f'{{"format": "poolsim-scenarios", "version": 1{"9" * 5000}, "scenarios": []}}')
    result = poolsim("rules", "check", str(huge))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"error: {huge}: -: file: a whole number of 5001 digits (no value here has more than 40)"
    ]
