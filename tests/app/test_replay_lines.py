"""Branches as a tree in the replay (issue 11, item 3): any branch can be replayed,
continued (Play on, O), made the main line (Main line, V) or deleted (Delete, asked
twice), through the viewer's buttons, keys and the script's ``replay_line``; the line in
play is never deleted."""

from __future__ import annotations

from pathlib import Path

import pytest
from panda3d.core import KeyboardButton

from sim.app.main import PoolApp
from sim.app.screens.replay import ReplayView
from sim.app.script import ScriptError, run_script
from sim.play.game import ShotRecord
from sim.play.table.turn import Stage
from sim.store.gamefile import load
from tests.app.test_replay_app import press
from tests.app.test_replay_compare import panel_text, played_twice

pytestmark = pytest.mark.app


def shown(view: ReplayView, name: str) -> bool:
    return not view.line_buttons[name].isHidden()


def branch_item(view: ReplayView) -> int:
    """The index of the shot taken back (a branch) in the viewer's shot list."""
    return next(i for i, item in enumerate(view.items) if item.depth > 0)


def test_a_branch_made_main_continued_and_deleted(table: PoolApp) -> None:
    first, again = played_twice(table)
    assert table.controller is not None
    game = table.controller.game
    run_script(table, [{"replay": None}])
    view = table.replay
    assert isinstance(view, ReplayView)
    # The shot in play: it can be played on from, not deleted, and is the main line.
    assert shown(view, "play_on") and not shown(view, "delete") and not shown(view, "main")
    press(table, KeyboardButton.ascii_key("v"))
    assert "main line already" in panel_text(view)

    # The first try, a branch: Main line makes it the main line (the one in play stays).
    view.select(branch_item(view))
    assert view.item.node is not None and view.item.node.record is first
    assert shown(view, "main") and shown(view, "delete")
    run_script(table, [{"replay_line": "main"}])
    node = view.item.node
    assert node is not None and node.record is first and node.is_mainline()
    assert "now the main line" in panel_text(view)
    assert game.lines()[0].nodes[-1].record is first
    assert not shown(view, "main") and shown(view, "delete")  # still off the line in play

    # Delete asks once, and deletes on the second press; the shot in play is untouched.
    press(table, KeyboardButton._del())
    assert "Press Delete again" in panel_text(view)
    assert any(n.record is first for n in game.root.nodes())
    press(table, KeyboardButton._del())
    assert all(n.record is not first for n in game.root.nodes())
    assert "deleted" in panel_text(view)
    assert [item.node.record for item in view.items if item.node is not None][-1] is again
    with pytest.raises(ScriptError, match="line in play cannot be deleted"):
        run_script(table, [{"replay_line": "delete"}])
    assert any(n.record is again for n in game.root.nodes())


def test_the_tree_as_changed_is_what_a_saved_copy_keeps(table: PoolApp, tmp_path: Path) -> None:
    first, again = played_twice(table)
    run_script(table, [{"replay": None}])
    view = table.replay
    assert isinstance(view, ReplayView)
    view.select(branch_item(view))
    run_script(table, [{"replay_line": "main"}, {"key": "escape"}])
    path = tmp_path / "copy.poolsim"
    run_script(table, [{"save": str(path)}])
    saved = load(path)
    lines = saved.lines()
    assert len(lines) == 2  # the first try is the main line now, the one in play a branch
    main_last, branch_last = lines[0].nodes[-1].record, lines[1].nodes[-1].record
    assert isinstance(main_last, ShotRecord) and isinstance(branch_last, ShotRecord)
    assert main_last.stroke == first.stroke and branch_last.stroke == again.stroke
    assert saved.current.record is not None
    assert saved.current.record.stroke == again.stroke  # and the match is where it was


def test_play_on_from_the_end_of_a_branch(table: PoolApp) -> None:
    first, again = played_twice(table)
    assert table.controller is not None
    controller = table.controller
    run_script(table, [{"replay": None}])
    view = table.replay
    assert isinstance(view, ReplayView)
    view.select(branch_item(view))
    press(table, KeyboardButton.ascii_key("o"))  # Play on: the table after the first try
    assert table.replay is None
    assert controller.game.current.record is first
    assert controller.stage in (Stage.AIM, Stage.PLACE, Stage.CHOOSE)
    # What is played now goes on from that line; the try in play before stays a branch.
    shots = [r for r in controller.game.records if isinstance(r, ShotRecord)]
    assert shots[-1] is first
    assert any(n.record is again for n in controller.game.root.nodes())


def test_replay_line_refuses_a_bad_value(table: PoolApp) -> None:
    played_twice(table)
    run_script(table, [{"replay": None}])
    with pytest.raises(ScriptError, match="play_on, main or delete"):
        run_script(table, [{"replay_line": "promote"}])
