"""Rendering a recorded shot frame by frame, offscreen (``poolsim export``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from rules import CUE
from sim.app.headless import configure_offscreen, grab_rgb
from sim.app.scene.camera import CameraRig
from sim.app.scene.scene import Quality, TableScene
from sim.physics.table import TableSpec
from sim.physics.timeline import ShotTimeline
from sim.play.game import ShotRecord

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase

CAMERAS = ("overhead", "broadcast", "behind")


def offscreen_shot_frames(
    record: ShotRecord,
    spec: TableSpec,
    *,
    size: tuple[int, int],
    fps: float,
    camera: str = "broadcast",
    quality: Quality = "fast",
) -> Iterator[NDArray[np.uint8]]:
    """:func:`shot_frames` on an offscreen window of ``size``, made here and now (``poolsim
    export``: the command line never touches Panda3D itself)."""
    configure_offscreen(*size)
    from direct.showbase.ShowBase import ShowBase  # after the PRC that configures it

    return shot_frames(ShowBase(), record, spec, fps=fps, camera=camera, quality=quality)


def shot_frames(
    base: ShowBase,
    record: ShotRecord,
    spec: TableSpec,
    *,
    fps: float,
    camera: str = "broadcast",
    quality: Quality = "fast",
) -> Iterator[NDArray[np.uint8]]:
    """Every frame of ``record`` at ``fps`` (the timeline's frame times), as RGB arrays.
    The broadcast camera follows the moving balls; the others stay put."""
    if camera not in CAMERAS:
        raise ValueError(f"unknown camera {camera!r} (known: {', '.join(CAMERAS)})")
    timeline = ShotTimeline.from_system(record.simulated.system)
    scene = TableScene(base, spec, quality=quality)
    base.camLens.setFov(50)
    base.camLens.setNearFar(0.02, 60.0)
    rig = CameraRig(base, spec)
    rig.show(camera, record.start.get(CUE), record.stroke.action.aim)
    rig.jump()
    ids = list(timeline.ball_ids)
    try:
        for t in timeline.frame_times(fps):
            states = timeline.at(float(t))
            scene.set_states(ids, states)
            if camera == "broadcast":
                moving = [
                    (float(p[0]), float(p[1]))
                    for p, v, down in zip(
                        states.positions, states.velocities, states.pocketed, strict=True
                    )
                    if not down and float(np.linalg.norm(v)) > 1e-3
                ]
                rig.follow(moving)
                rig.update(1.0 / fps)
            base.taskMgr.step()
            yield grab_rgb(base)
    finally:
        scene.destroy()
