"""The call shown on the table: a ring around the called ball and in its pocket."""

from __future__ import annotations

import pytest

from rules import PocketId
from sim.app.headless import grab_rgb, world_to_pixel
from sim.app.main import PoolApp
from sim.play.table.turn import Stage
from tests.app.test_table_app import after_break, step


def _gold_near(app: PoolApp, x: float, y: float, radius_px: int = 40) -> int:
    """Gold pixels (the marker's colour, which no ball or cloth has) around a table point."""
    rgb = grab_rgb(app.base).astype(int)
    z = app.controller.game.setup.spec.ball_radius * 0.12 if app.controller else 0.0
    where = world_to_pixel(app.base, (x, y, z))
    assert where is not None, (x, y)
    px, py = where
    window = rgb[max(0, py - radius_px) : py + radius_px, max(0, px - radius_px) : px + radius_px]
    r, g, b = window[..., 0], window[..., 1], window[..., 2]
    return int(((r > 200) & (g > 160) & (g < 235) & (b < 110)).sum())


@pytest.mark.app
def test_the_called_ball_and_pocket_are_marked_on_the_table(table: PoolApp) -> None:
    table.play(after_break(90))
    table.show_view("overhead")
    step(table, 30)
    controller = table.controller
    marker = table.call_marker
    assert controller is not None and marker is not None
    assert controller.stage is Stage.AIM and marker.node.isHidden()
    state = controller.state
    assert state is not None and state.lowest is not None
    ball = state.lowest
    where = controller.balls()[ball]
    before = _gold_near(table, *where)
    controller.call_ball = ball  # picked: its ring, no pocket yet
    step(table, 2)
    assert not marker.node.isHidden() and marker.shown(controller) == (where, None)
    controller.call_shot(ball, PocketId.RT)
    step(table, 2)
    pocket = marker.pockets[PocketId.RT]
    assert marker.shown(controller) == (where, pocket)
    assert _gold_near(table, *where) > before + 20  # the ring is drawn around the ball
    assert _gold_near(table, *pocket) > 20  # and in the pocket
    controller.strike()  # struck: the call is made, the marker goes
    step(table, 2)
    assert marker.node.isHidden()
