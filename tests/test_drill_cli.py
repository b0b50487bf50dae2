"""``poolsim drill``: --list names every shipped drill with the player's best; a drill
that is not there, or a drill file that cannot be read, is one line and status 2."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import os
from pathlib import Path

import pytest

from sim.play.drill import DrillSession, score_attempt
from sim.store.drillfile import drill_named
from sim.store.drillhistory import DrillHistory
from tests.run import poolsim

pytestmark = pytest.mark.physics


def _main(*args: str) -> tuple[int, str, str]:
    from sim.cli import main

    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        pytest.raises(SystemExit) as exit_,
    ):
        main(list(args))
    code = exit_.value.code
    return (code if isinstance(code, int) else 1), out.getvalue(), err.getvalue()


def test_the_list_names_each_drill_with_the_players_best(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path))
    drill = drill_named("draw").drill
    assert drill.goal.zone is not None
    session = DrillSession(drill)
    for _ in range(drill.attempts):
        session = session.record(score_attempt(drill, [()], drill.goal.zone.centre_point))
    DrillHistory().add(session, "Ann", dt.datetime(2026, 12, 2, tzinfo=dt.UTC))
    status, out, err = _main("drill", "--list", "--player", "Ann")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["NAME", "TITLE", "GAME", "ATTEMPTS", "BEST", "(Ann)"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert len(rows) >= 8
    assert rows["draw"].endswith("10 of 20") and "Draw" in rows["draw"]
    assert rows["stop-shot"].split()[-1] == "-"  # not played yet
    assert "10-ball" in rows["three-ball-run-out"]
    _, out, _ = _main("drill", "--list")  # another player: nothing yet
    assert "10 of 20" not in out and "(Player 1)" in out


def test_an_unknown_drill_is_one_line_and_status_2() -> None:
    status, out, err = _main("drill", "no-such-drill")
    assert status == 2 and out == ""
    assert err.splitlines() == [
        'poolsim: error: no drill called "no-such-drill"; the drills are stop-shot, follow, '
        "draw, thin-cut, bank, one-rail-kick, break-area-position, three-ball-run-out"
    ]


def test_a_bad_drill_file_is_one_line_and_status_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sim.store.drillfile

    (tmp_path / "01-bad.json").write_text('{"format": "poolsim-drill", "version": 1}')
    monkeypatch.setattr(sim.store.drillfile, "drills_dir", lambda: tmp_path)
    for args in (("drill", "--list"), ("drill", "bad")):
        status, out, err = _main(*args)
        assert status == 2 and out == ""
        assert err.splitlines() == [
            f"poolsim: error: {tmp_path / '01-bad.json'}: attempts: missing"
        ]


def test_the_command_as_a_user_runs_it(tmp_path: Path) -> None:
    env = {**os.environ, "POOLSIM_DATA_DIR": str(tmp_path)}
    listed = poolsim("drill", "--list", env=env)
    assert listed.returncode == 0 and "one-rail-kick" in listed.stdout
    unknown = poolsim("drill", "nope", env=env)
    assert unknown.returncode == 2 and len(unknown.stderr.splitlines()) == 1


def test_a_drill_file_of_ones_own_opens_and_a_bad_one_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sim.app.launch

    opened: list[object] = []
    monkeypatch.setattr(sim.app.launch, "has_display", lambda: True)
    monkeypatch.setattr(sim.app.launch, "run", lambda launch: opened.append(launch) or 0)
    mine = tmp_path / "mine.json"
    mine.write_text(drill_named("follow").path.read_text().replace('"follow"', '"my-follow"'))
    status, _, err = _main("drill", str(mine), "--player", "Ann")
    assert status == 0 and err == ""
    (launch,) = opened
    assert launch.drill.drill.name == "my-follow" and launch.player == "Ann"  # type: ignore[attr-defined]
    bad = tmp_path / "bad.json"
    bad.write_text(mine.read_text().replace('["lt"]', '["xx"]'))
    status, out, err = _main("drill", str(bad))
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"poolsim: error: {bad}: goal.balls.5[0]: unknown pocket")
    status, _, err = _main("drill", str(tmp_path / "missing.json"))
    assert status == 2 and err.startswith(f"poolsim: error: {tmp_path / 'missing.json'}: ")
