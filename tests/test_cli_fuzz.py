"""Fuzzing the command line's flags: every command, flags given bad values (NaN, infinities,
huge and negative numbers, empty and wrong-typed text, unknown flags, output paths that are
special files, under a regular file or in a folder that refuses files). Each case must end
with status 2 and one line on stderr (nothing on stdout, no traceback), quickly, before any
work begins, and without creating or changing a file.

Cases run in this process through ``sim.cli.main`` (an import of poolsim costs seconds, a
case milliseconds), with the work each command would start replaced by a tripwire: a bad
value that got through is a failure, not a render. A handful run as real subprocesses,
bounded in time and address space, for what only a process shows (its exit status and
peak memory). A small seeded set runs in the suite; ``POOLSIM_FUZZ_CASES=N`` runs N cases
drawn from the whole set (``POOLSIM_FUZZ_SEED`` picks which) and prints the figures."""

from __future__ import annotations

import contextlib
import io
import os
import random
import resource
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from tests.run import ROOT

SEED = int(os.environ.get("POOLSIM_FUZZ_SEED", "15"))
CASES = int(os.environ.get("POOLSIM_FUZZ_CASES", "0"))
SMALL_SET = 70
SECONDS_PER_CASE = 20.0  # the first case to import the physics pays for it
SUBPROCESS_SECONDS = 60.0
SUBPROCESS_MEMORY = 4 << 30  # address space: numba reserves much more than it uses

MISSING = "missing.poolsim"  # the game a command would read once its flags passed

INTEGERS = ["-1", "10" * 20, "9" * 5000, "nan", "inf", "1.5", "1e26", "", " ", "x", "0x10"]
INTEGERS += ["²", "-9223372036854775809", "true", "[]"]
FLOATS = ["nan", "NaN", "inf", "-inf", "1e309", "1e308", "-1e308", "", "x", "1,2", "0x1p3"]
FLOATS += ["true", "{}", "9" * 5000]
SIZES = ["0x0", "nanxnan", "1e308x2", "-1x-1", "x", "", "99999999999999999999x200", "1280"]
SPINS = ["nan,0", "0,inf", "1e308,0", "", ",", "a,b", "1,2,3", "0.5,0.5"]
CHOICES = ["", "x", "NINE-BALL", "9FT"]
NAMES = ["Solo", ",", "A,A", "A,B,C", "," + "x" * 100]
SCHEDULERS = ["", "x", "127.0.0.1:8786", "http://127.0.0.1:8786", "tcp://", "tcp://:8786"]
SCHEDULERS += ["tcp://host", "tcp://host:99999", "tcp://host:port", "nan"]


def _file_outputs(tmp: Path) -> list[str]:
    """Where no file can be written: special files, under a regular file, a folder, a
    folder that refuses files, a name too long."""
    return [
        "/dev/null",
        "/dev/zero",
        str(tmp / "fifo"),
        str(tmp / "a-file" / "sub.png"),
        str(tmp / "a-file" / "deeper" / "sub.png"),
        "/sys/x.png",
        "/proc/x.png",
        str(tmp),
        "",
        str(tmp / ("n" * 300 + ".png")),
    ]


def _folder_outputs(tmp: Path) -> list[str]:
    return [
        str(tmp / "a-file"),
        "/dev/null",
        str(tmp / "fifo"),
        str(tmp / "a-file" / "sub"),
        "/sys/out",
        "/proc/out",
        str(tmp / ("n" * 300)),
    ]


def _flags(tmp: Path) -> list[tuple[list[str], str, list[str]]]:
    """(the command and the flags that make it valid, the flag fuzzed, its bad values)."""
    files, folders = _file_outputs(tmp), _folder_outputs(tmp)
    play = ["play", "--game", "ten-ball"]
    shot = ["--screenshot", str(tmp / "ok.png")]
    gif = ["export", MISSING, "--gif", str(tmp / "ok.gif")]
    duel = ["duel", "--a", "1", "--b", "1"]
    drill = ["drill", "stop-shot"]
    return [
        (["simulate"], "--seed", INTEGERS),
        (["simulate"], "--speed", FLOATS),
        (["simulate"], "--aim", [*FLOATS, "361", "-360.5", "1e300"]),
        (["simulate"], "--elevation", FLOATS),
        (["simulate"], "--spin", SPINS),
        (["simulate"], "--game", CHOICES),
        (["simulate"], "--table", CHOICES),
        (["selfplay", "--racks", "1"], "--seed", INTEGERS),
        (["selfplay"], "--racks", [*INTEGERS, "0", "10001"]),
        (["selfplay", "--racks", "1"], "--save", folders),
        (["selfplay", "--racks", "1"], "--game", CHOICES),
        (["selfplay", "--racks", "1"], "--table", CHOICES),
        (play, "--race", [*INTEGERS, "0", "100"]),
        (play, "--seed", INTEGERS),
        (play, "--shot-clock", [*FLOATS, "4.9", "601"]),
        (play, "--players", NAMES),
        (["play"], "--game", CHOICES),
        (play, "--table", CHOICES),
        (play, "--breaker", CHOICES),
        (play, "--early-ten", CHOICES),
        (play, "--call-mode", CHOICES),
        (["play", "--game", "straight-pool"], "--points", [*INTEGERS, "0", "1001"]),
        # selfplay and duel take the same rule flags as play (sim.cli.flags.rule_flags).
        *(
            (command, flag, bad)
            for command in (["selfplay", "--racks", "1"], duel)
            for flag, bad in (
                ("--early-ten", CHOICES),
                ("--call-mode", CHOICES),
                ("--shot-clock", [*FLOATS, "4.9", "601"]),
                ("--points", [*INTEGERS, "0", "1001"]),
            )
        ),
        (play, "--quality", CHOICES),
        (play, "--computer", ["A:9", "C:5", "A", "5", ":", "A:5:5", "A:nan", "", "A:0", "AB:1"]),
        (["play"], "--computer", ["A:5"]),  # no game on the table: the start screen's seats
        (play, "--size", SIZES),
        (play, "--screenshot", files),
        ([*play, *shot], "--frames", [*INTEGERS, "0", "100001"]),
        ([*play, *shot], "--quit-when-ready", ["1"]),  # a screenshot's window is not played
        (["play"], "--seed", ["1"]),  # no --game: the flag does not apply
        (["play", "--practice"], "--position", [MISSING, "/dev/zero", str(tmp), ""]),
        (["play", "--practice"], "--game", CHOICES),
        (["play", "--practice", "--game", "ten-ball"], "--open", [MISSING]),  # one or other
        (["play"], "--position", [str(tmp / "p.json")]),  # no --practice: it does not apply
        (["play", "--practice"], "--race", ["3"]),  # a practice table has no match
        (["play"], "--frames", ["5"]),  # no --screenshot nor --script: the same
        (["replay", MISSING], "--screenshot", files),
        (["replay", MISSING, *shot], "--frames", [*INTEGERS, "0"]),
        (["replay", MISSING], "--frames", ["2"]),  # no --screenshot
        (["replay", MISSING], "--shot", [*INTEGERS, "0"]),
        (["replay", MISSING], "--size", SIZES),
        (["replay", MISSING], "--quality", CHOICES),
        (gif, "--fps", [*FLOATS, "0", "121"]),
        (gif, "--shot", [*INTEGERS, "0"]),
        (gif, "--branch", [*INTEGERS, "-1"]),
        (gif, "--size", SIZES),
        (gif, "--camera", CHOICES),
        (gif, "--quality", CHOICES),
        (["export", MISSING], "--gif", files),
        (["export", MISSING], "--mp4", files),
        (["export", MISSING], "--diagram", files),
        (["export", MISSING], "--frames", folders),
        (["export", MISSING, "--diagram", str(tmp / "d.png")], "--fps", ["nan", "10"]),
        (["export", MISSING, "--diagram", str(tmp / "d.png")], "--camera", ["behind"]),
        (["export", MISSING, "--diagram", str(tmp / "d.png")], "--gif", [str(tmp / "g.gif")]),
        (["export", MISSING], "--html", [*files, str(tmp / "page.txt")]),
        (["export", MISSING, "--html", str(tmp / "p.html")], "--rack", [*INTEGERS, "0"]),
        (["export", MISSING, "--html", str(tmp / "p.html")], "--fps", ["10"]),  # the page's own
        (["export", MISSING, "--html", str(tmp / "p.html")], "--camera", ["behind"]),
        (["export", MISSING, "--html", str(tmp / "p.html")], "--shot", ["2"]),
        (["export", MISSING, "--gif", str(tmp / "g.gif")], "--rack", ["1"]),  # --html's only
        (drill, "--player", ["", " ", "x" * 41, "a\nb", "\x00"]),
        (drill, "--size", SIZES),
        (drill, "--screenshot", files),
        (drill, "--quality", CHOICES),
        ([*drill, *shot], "--frames", [*INTEGERS, "0", "100001"]),
        (drill, "--frames", ["5"]),  # no --screenshot nor --script
        (drill, "--list", ["--player"]),  # --list takes no drill name
        (["drill", "--list"], "--screenshot", [str(tmp / "ok.png")]),  # a list has no window
        (["drill", "no-such-drill"], "--player", ["Ann"]),  # no such drill
        (["drill"], "--player", ["Ann"]),  # no drill named
        (["bench"], "--repeats", [*INTEGERS, "0", "101"]),
        (["warmup"], "--frobnicate", ["1"]),
        (["rules", "check"], "--frobnicate", ["1"]),
        (["verify", MISSING], "--shot", ["1"]),
        (["position", MISSING, "--output", str(tmp / "p.json")], "--shot", [*INTEGERS, "0"]),
        (["position", MISSING, "--shot", "1"], "--output", files),
        (
            ["position", MISSING, "--shot", "1", "--output", str(tmp / "p.json")],
            "--branch",
            INTEGERS,
        ),
        (["duel", "--b", "1", "--racks", "1"], "--a", [*CHOICES, "0", "6", "9", "-1", "nan"]),
        (["duel", "--a", "1", "--racks", "1"], "--b", [*CHOICES, "0", "6", "9", "-1", "nan"]),
        (duel, "--racks", [*INTEGERS, "0", "1000001"]),
        ([*duel, "--racks", "1"], "--seed", INTEGERS),
        ([*duel, "--racks", "1"], "--workers", [*INTEGERS, "0", "100000"]),
        ([*duel, "--racks", "1"], "--game", CHOICES),
        ([*duel, "--racks", "1"], "--table", CHOICES),
        ([*duel, "--racks", "1"], "--scheduler", SCHEDULERS),
        ([*duel, "--racks", "1", "--scheduler", "tcp://127.0.0.1:8786"], "--workers", ["2"]),
        ([*duel, "--racks", "1"], "--save", folders),
        (["review", MISSING], "--level", [*CHOICES, "0", "6", "nan"]),
        (["review", MISSING], "--branch", INTEGERS),
        (["review", MISSING], "--workers", [*INTEGERS, "0", "100000"]),
        (["review", MISSING], "--scheduler", SCHEDULERS),
        (["review", MISSING, "--scheduler", "tcp://127.0.0.1:8786"], "--workers", ["2"]),
        (["review", MISSING], "--save", files),
        (["review"], "--racks", [str(tmp / "no-such-folder"), str(tmp / "a-file"), ""]),
        (["review", MISSING], "--racks", [str(tmp)]),  # a game and a folder: one or the other
        (["stats"], "--player", ["", " ", "x" * 41, "a\tb"]),
        (["stats"], "--since", ["", "x", "2026-13-01", "2026-02-30", "nan", "1e9", "yesterday"]),
        (["stats"], "--import", [str(tmp / "no-such-folder"), ""]),
    ]


def all_cases(tmp: Path) -> list[tuple[list[str], list[str]]]:
    """(the command line that is valid, the bad flag and value added to it)."""
    flags = _flags(tmp)
    cases = [(prefix, [flag, value]) for prefix, flag, values in flags for value in values]
    cases += [(prefix, [flag]) for prefix, flag, _ in flags]  # a flag without its value
    cases += [(prefix, ["--no-such-flag", "1"]) for prefix, _, _ in flags]
    return cases


def sample(tmp: Path, count: int, seed: int) -> list[list[str]]:
    """``count`` command lines: every single bad flag first (in a seeded order), then two
    bad flags in one line (the first found is said, on one line)."""
    rng = random.Random(seed)
    cases = all_cases(tmp)
    rng.shuffle(cases)
    lines = [prefix + bad for prefix, bad in cases]
    while len(lines) < count:
        prefix, first = rng.choice(cases)
        _, second = rng.choice([c for c in cases if c[0] == prefix and len(c[1]) == 2])
        lines.append(prefix + first + second)
    return lines[:count]


@attrs.frozen
class Outcome:
    args: tuple[str, ...]
    status: int | str  # the exit status, or what escaped main
    stdout: str
    stderr: str
    seconds: float
    peak_bytes: int

    def problem(self) -> str | None:
        """What is wrong with how the case ended, or None."""
        lines = self.stderr.splitlines()
        if self.status != 2:
            return f"status {self.status}"
        if self.stdout:
            return f"stdout: {self.stdout[:200]!r}"
        if len(lines) != 1 or "Traceback" in self.stderr:
            return f"stderr is not one line: {self.stderr[:300]!r}"
        if MISSING in lines[0]:
            return f"the bad flag was taken: the command went on to read its file ({lines[0]})"
        if self.seconds > SECONDS_PER_CASE:
            return f"took {self.seconds:.1f} s"
        return None


class WentToWork(Exception):
    """A command got past its flags and began its work: a bad value was taken."""


def _tripwire(*_args: object, **_kwargs: object) -> None:
    raise WentToWork


@pytest.fixture
def fuzz_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder to run in, with a regular file and a FIFO to aim outputs at; the per-user
    folders moved into it, and every command's work replaced by the tripwire."""
    import sim.app.launch
    import sim.bench
    import sim.physics.simulate
    import sim.play.selfplay

    (tmp_path / "a-file").write_text("a regular file")
    os.mkfifo(tmp_path / "fifo")
    for variable in ("POOLSIM_DATA_DIR", "POOLSIM_CONFIG_DIR"):
        monkeypatch.setenv(variable, str(tmp_path / "user"))
    monkeypatch.setattr(sim.app.launch, "has_display", lambda: True)
    monkeypatch.setattr(sim.app.launch, "run", _tripwire)
    monkeypatch.setattr(sim.play.selfplay, "play_racks", _tripwire)
    monkeypatch.setattr(sim.physics.simulate, "simulate_shot", _tripwire)
    monkeypatch.setattr(sim.bench, "run_bench", _tripwire)
    monkeypatch.chdir(tmp_path)
    yield tmp_path


def run_in_process(args: list[str]) -> Outcome:
    from sim.cli import main

    stdout, stderr = io.StringIO(), io.StringIO()
    status: int | str
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            main(args)
        status = 0
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else f"exit {exit_.code!r}"
    except WentToWork:
        status = "went to work"
    except BaseException as error:  # what a user would see as a traceback
        status = f"{type(error).__name__}: {error}"
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return Outcome(tuple(args), status, stdout.getvalue(), stderr.getvalue(), seconds, peak)


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every entry under ``folder``: its size and modification time."""
    return {
        str(path.relative_to(folder)): (path.lstat().st_size, path.lstat().st_mtime_ns)
        for path in folder.rglob("*")
    }


def _git_status() -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--ignored"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def _fuzz(folder: Path, count: int, seed: int) -> list[Outcome]:
    before, tree = _snapshot(folder), _git_status()
    outcomes = []
    for args in sample(folder, count, seed):
        outcome = run_in_process(args)
        outcomes.append(outcome)
        assert outcome.problem() is None, f"{args}: {outcome.problem()}"
        assert _snapshot(folder) == before, f"{args} changed {folder}"
    assert _git_status() == tree, "a case changed the worktree"
    return outcomes


def _report(outcomes: list[Outcome]) -> str:
    slowest = max(outcomes, key=lambda o: o.seconds)
    peak = max(outcomes, key=lambda o: o.peak_bytes)
    clean = sum(o.problem() is None for o in outcomes)
    return (
        f"{len(outcomes)} cases, {clean} clean refusals; slowest {slowest.seconds * 1e3:.0f} ms "
        f"({' '.join(slowest.args)[:80]}); peak allocation {peak.peak_bytes / 1e6:.1f} MB "
        f"({' '.join(peak.args)[:80]})"
    )


def test_a_seeded_set_of_bad_flags_each_end_in_one_line_and_status_2(fuzz_folder: Path) -> None:
    outcomes = _fuzz(fuzz_folder, SMALL_SET, SEED)
    print(_report(outcomes))
    assert len(outcomes) == SMALL_SET


@pytest.mark.skipif(not CASES, reason="POOLSIM_FUZZ_CASES=N runs N cases")
def test_many_bad_flags(fuzz_folder: Path) -> None:
    outcomes = _fuzz(fuzz_folder, CASES, SEED)
    report = _report(outcomes)
    sys.__stdout__.write(f"\ncommand-line fuzz: {report}\n")
    assert all(o.problem() is None for o in outcomes), report


def test_every_flag_of_every_command_is_fuzzed() -> None:
    """A flag added to a command without bad values here is a flag nobody attacked."""
    from sim.cli import cli

    fuzzed = {(prefix[0], flag) for prefix, flag, _ in _flags(Path("/tmp"))}
    # Switches, and the files read (their reading is fuzzed with the game files).
    exempt = {
        "--help",
        "--json",
        "--resume",
        "--version",
        "--render",
        "--startup",
        "--open",
        "--script",
        "--practice",
        "--decisions",
    }
    for name, command in cli.commands.items():  # type: ignore[attr-defined]
        if name == "rules":
            continue
        for param in command.params:
            for flag in param.opts:
                if flag.startswith("--") and flag not in exempt:
                    assert (name, flag) in fuzzed, f"poolsim {name} {flag} is not fuzzed"


# -- real processes ------------------------------------------------------------------------


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (SUBPROCESS_MEMORY, SUBPROCESS_MEMORY))


PEAK_AT_EXIT = """
import atexit, re, sys

def _peak():
    kilobytes = re.search(r"VmHWM:\\s*(\\d+)", open("/proc/self/status").read()).group(1)
    sys.stderr.write("\\x00peak " + kilobytes)

atexit.register(_peak)
from sim.cli import main
main()
"""


def poolsim_bounded(args: list[str], cwd: Path) -> tuple[Outcome, int]:
    """A real ``poolsim`` run, bounded in time and address space; and its peak RSS in
    bytes, read in the child itself as it exits: VmHWM, which the exec starts afresh
    (ru_maxrss would count the forked test process's memory too)."""
    env = {**os.environ, "POOLSIM_DATA_DIR": str(cwd / "user"), "PYTHONPATH": str(ROOT)}
    env.pop("DISPLAY", None)
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", PEAK_AT_EXIT, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=SUBPROCESS_SECONDS,
        preexec_fn=_limits,
    )
    seconds = time.perf_counter() - start
    stderr, _, peak = result.stderr.partition("\x00peak ")
    outcome = Outcome(tuple(args), result.returncode, result.stdout, stderr, seconds, 0)
    return outcome, int(peak or 0) * 1024


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["export", "G", "--gif", "x.gif", "--fps", "nan"], "fps must be a finite number"),
        (["export", "G", "--diagram", "x.png", "--fps", "nan"], "fps must be a finite number"),
        (["simulate", "--aim", "1e308"], "aim must be from -360 to 360"),
        (["simulate", "--seed", "-1"], "seed must be a whole number from 0 to"),
        (["replay", "G", "--screenshot", "a-file/sub.png", "--frames", "2"], "is a file"),
        (["selfplay", "--save", "/sys/foo"], "cannot write /sys/foo"),
    ],
)
def test_the_issues_command_lines_in_a_real_process(
    tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "a-file").write_text("a regular file")
    (tmp_path / "G").write_bytes(b"")  # never read: the flags are refused first
    before = _snapshot(tmp_path)
    outcome, peak = poolsim_bounded(args, tmp_path)
    assert outcome.problem() is None, outcome.problem()
    assert message in outcome.stderr
    assert _snapshot(tmp_path) == before
    assert peak < 300e6, f"{peak / 1e6:.0f} MB"
    figures = f"{outcome.seconds:.1f} s, peak RSS {peak / 1e6:.0f} MB"
    sys.__stdout__.write(f"\n{' '.join(args)}: {figures}")
