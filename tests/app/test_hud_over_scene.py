"""The HUD's bands stay on top of the 3D scene (issue 28, friction 12): the cue seen from
overhead ran on across the bottom band, and from behind it ran under the HUD's lines
and buttons. Whatever the camera shows, the bands' pixels are the HUD's alone: the
same with the whole 3D scene hidden."""

from __future__ import annotations

import numpy as np
import pytest

from sim.app.headless import grab_rgb
from sim.app.main import PoolApp
from sim.play.table.turn import Stage
from tests.app.test_table_app import after_break

pytestmark = pytest.mark.app

MAX_FRAMES = 60 * 120
EDGE = 1  # pixel rows at a band's edge left out (where the table's part begins)


@pytest.mark.parametrize("view", ["behind", "overhead", "broadcast"])
def test_the_bands_hide_the_scene_under_them(table: PoolApp, view: str) -> None:
    table.play(after_break(90), save=False)
    controller, hud = table.controller, table.hud
    assert controller is not None and hud is not None
    assert controller.stage is Stage.AIM  # the cue stick is drawn
    for _ in range(MAX_FRAMES):  # the physics ready: its loading line counts seconds
        if table.worker.ready:
            break
        table.step()
    table.show_view(view)
    assert table.rig is not None
    table.rig.jump()
    table.step(3)
    with_scene = grab_rgb(table.base).astype(int)
    render = table.base.render
    render.hide()
    try:
        table.step(2)
        hud_alone = grab_rgb(table.base).astype(int)
    finally:
        render.show()
    height = with_scene.shape[0]
    layout = hud.layout
    free = layout.table  # the table's part, between the bands

    def row(y: float) -> int:  # a HUD height to a pixel row from the top
        return round((1 - y / layout.half_height) / 2 * int(height))

    top, bottom = row(free.y1) - EDGE, row(free.y0) + EDGE
    assert 0 < top < bottom < height
    for name, rows in (("top", slice(0, top)), ("bottom", slice(bottom, height))):
        differ = np.any(with_scene[rows] != hud_alone[rows], axis=2)
        assert not differ.any(), f"{view}: the scene shows in the {name} band ({differ.sum()} px)"
    # (and the scene is there between them)
    assert np.any(
        with_scene[top + 2 * EDGE : bottom - 2 * EDGE]
        != hud_alone[top + 2 * EDGE : bottom - 2 * EDGE]
    )
