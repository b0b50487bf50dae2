"""A computer's seat named as the window names it, "Computer (level 3)", in the match
summary and the replay's shot list (seen in the window after a 14.1 game to 50 against
level 3: the summary cut the name to "Computer (level", and the list's entries ran past
its edges, "1.91 Computer (level 3) racked" off the window's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from panda3d.core import NodePath

from sim.app.main import PoolApp
from sim.app.screens.modes import MatchSummaryMode
from sim.app.screens.replay import ReplayView
from sim.store.gamefile import load
from tests.gamezip import rewrite
from tests.run import ROOT

pytestmark = pytest.mark.app

WON = ROOT / "tests" / "data" / "games" / "duel-ten-ball-won.poolsim"
NAMES = ["Ann", "Computer (level 3)"]


def renamed(tmp_path: Path) -> Path:
    """The won duel's file with its players named ``NAMES`` (nothing else changed)."""
    return rewrite(
        WON, tmp_path / "renamed.poolsim", lambda document: document["setup"].update(players=NAMES)
    )


def inside(node: NodePath, frame: NodePath) -> bool:
    low, high = node.getTightBounds(frame)
    frame_low, frame_high = frame.getTightBounds(frame)
    return bool(frame_low.x <= low.x and high.x <= frame_high.x)


def test_a_computers_name_shows_whole_in_the_summary_and_the_shot_list(
    table: PoolApp, tmp_path: Path
) -> None:
    game = load(renamed(tmp_path))
    assert game.setup.players == tuple(NAMES)
    table.play(game, save=False)
    table.step(3)
    screen = table.modes.screen
    assert isinstance(screen, MatchSummaryMode)
    frame = screen.summary.frame
    names = [n for n in frame.findAllMatches("**/+TextNode") if n.node().getText() in NAMES]
    assert sorted(n.node().getText() for n in names) == NAMES  # whole, not cut
    assert all(inside(name, frame) for name in names)
    screen.summary.close_button["command"]()
    table.open_replay(len(game.shots) - 1)
    viewer = table.replay
    assert isinstance(viewer, ReplayView)
    table.step(2)
    computers = [b for b in viewer.shot_buttons if "Computer (level 3)" in b["text"]]
    assert computers  # the list shows the computer's shots, each inside the list
    left, right = viewer.shot_list["frameSize"][:2]
    for entry in viewer.shot_buttons:  # a button's frame, scaled, in the list's units
        low, high = entry.getBounds()[:2]
        assert left < entry.getX() + low * entry.getSx() < entry.getX() + high * entry.getSx()
        assert entry.getX() + high * entry.getSx() < right, entry["text"]
