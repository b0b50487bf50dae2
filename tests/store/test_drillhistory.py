"""Each player's drill history: finished sessions kept atomically, best and last per drill
and player; a missing history is empty and an unreadable one is set aside and started
again, never a reason to refuse a drill."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from rules.facts import Hit, Pocketing
from sim.play.drill import DrillSession, score_attempt
from sim.store.drillfile import drill_named
from sim.store.drillhistory import DrillHistory, history_path

pytestmark = pytest.mark.physics

WHEN = dt.datetime(2026, 12, 2, 4, 10, tzinfo=dt.UTC)


def _session(made: int, of: int = 3) -> DrillSession:
    drill = drill_named("stop-shot").drill
    assert drill.goal.zone is not None
    in_zone = drill.goal.zone.centre_point
    session = DrillSession(drill)
    for attempt in range(drill.attempts):
        facts = (Hit(("cue", "3")), Pocketing("3", "rt")) if attempt < made else ()
        session = session.record(score_attempt(drill, [facts], in_zone))
    return session


def test_sessions_are_kept_and_read_back_best_and_last(tmp_path: Path) -> None:
    path = tmp_path / "data" / "drills.json"
    history = DrillHistory(path)
    assert history.sessions == [] and history.set_aside is None
    first = history.add(_session(0), "Ann", WHEN)
    second = history.add(_session(2), "Ann", WHEN + dt.timedelta(days=1))
    history.add(_session(1), "Bob", WHEN)
    again = DrillHistory(path)
    assert again.of("stop-shot", "Ann") == [first, second]
    assert again.best("stop-shot", "Ann") == second and second.best == 20
    assert again.last("stop-shot", "Ann") == second
    assert again.best("stop-shot", "Cy") is None and again.last("follow", "Ann") is None
    assert first.points == (10, 10, 10, 10, 10) and first.made == 0
    assert second.words == "best 20 of 20, 2 of 5 made (2026-12-03)"
    assert json.loads(path.read_text())["sessions"][0]["finished"] == "2026-12-02T04:10:00Z"
    assert sorted(p.name for p in path.parent.iterdir()) == ["drills.json"]


def test_an_unfinished_session_is_not_kept(tmp_path: Path) -> None:
    session = DrillSession(drill_named("stop-shot").drill)
    with pytest.raises(ValueError, match="finished"):
        DrillHistory(tmp_path / "drills.json").add(session, "Ann")


@pytest.mark.parametrize(
    "text",
    [
        "{",
        "[]",
        '{"format": "poolsim-drill-history", "version": 9, "sessions": []}',
        '{"format": "poolsim-drill-history", "version": 1, "sessions": [{"drill": 1}]}',
        '{"format": "poolsim-drill-history", "version": 1, "sessions": [{"drill": "a", '
        '"player": "b", "finished": "never", "points": [], "made": 0, "max_points": 1}]}',
        "\xff\xfe",
    ],
)
def test_an_unreadable_history_is_set_aside_and_started_again(tmp_path: Path, text: str) -> None:
    path = tmp_path / "drills.json"
    path.write_bytes(text.encode("latin-1"))
    history = DrillHistory(path)
    assert history.sessions == []
    assert history.set_aside is not None and history.set_aside.read_bytes() == text.encode(
        "latin-1"
    )
    assert not path.exists()
    history.add(_session(1), "Ann", WHEN)
    assert len(DrillHistory(path).sessions) == 1


def test_the_history_lives_in_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path))
    assert history_path() == tmp_path / "drills.json"
