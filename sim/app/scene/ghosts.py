"""Ghost balls: another attempt's balls drawn translucent over the table, for the
replay's side by side (:mod:`sim.app.screens.compare`).

A ghost is a copy of the scene's own ball (its model, texture and material, so it looks
right in either graphics preset), tinted the other attempt's colour and see-through. It
writes no depth, so the real balls and the cloth show through it, and it is drawn with
the other transparent things, after the table. A ghost where the shown attempt has the
same ball (an untouched ball) is left out: it would only tint the real one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from panda3d.core import CollisionNode, NodePath, Quat, TransparencyAttrib

from sim.app.scene.scene import TableScene
from sim.physics.timeline import BallStates

GHOST_ALPHA = 0.55  # see-through enough to show the cloth and a real ball under it
SAME_PLACE = 5e-4  # metres: a ghost this near its real ball is not drawn


class GhostBalls:
    """The other attempt's balls: :meth:`show` places them, :meth:`hide` takes them off."""

    def __init__(self, scene: TableScene, tint: Sequence[float]) -> None:
        # Under the balls' node: the same material (the clear coat, or PBR's) applies.
        self.root = scene.balls_root.attachNewNode("ghost-balls")
        self.root.setTransparency(TransparencyAttrib.MAlpha)
        self.root.setDepthWrite(False)
        self.root.setColorScale(tint[0], tint[1], tint[2], GHOST_ALPHA)
        self.root.setBin("transparent", 10)
        self.nodes: dict[str, NodePath] = {}
        for ball, original in scene.ball_nodes.items():
            ghost = original.copyTo(self.root)
            ghost.setName(f"ghost-{ball}")
            ghost.clearTag("ball")  # not a ball a click picks
            for picker in ghost.findAllMatches("**/+CollisionNode"):
                assert isinstance(picker.node(), CollisionNode)
                picker.removeNode()
            ghost.hide()
            self.nodes[ball] = ghost
        self.root.hide()

    def show(
        self,
        ids: Sequence[str],
        states: BallStates,
        real_ids: Sequence[str] = (),
        real: BallStates | None = None,
    ) -> list[str]:
        """The ghosts of ``ids`` at ``states`` (pocketed ones hidden), leaving out any
        ball ``real`` (the shown attempt's, in ``real_ids`` order) has in the same place.
        Returns the balls drawn as ghosts."""
        at_real: dict[str, np.ndarray] = {}
        if real is not None:
            for j, ball in enumerate(real_ids):
                if not bool(real.pocketed[j]):
                    at_real[ball] = np.asarray(real.positions[j])
        drawn = []
        for j, ball in enumerate(ids):
            ghost = self.nodes.get(ball)
            if ghost is None:
                continue
            position = np.asarray(states.positions[j])
            same = ball in at_real and float(np.linalg.norm(at_real[ball] - position)) < SAME_PLACE
            if bool(states.pocketed[j]) or same:
                ghost.hide()
                continue
            ghost.setPosQuat(tuple(position.tolist()), Quat(*states.orientations[j]))
            ghost.show()
            drawn.append(ball)
        for ball in self.nodes.keys() - set(ids):
            self.nodes[ball].hide()
        self.root.show()
        return drawn

    def hide(self) -> None:
        self.root.hide()

    def destroy(self) -> None:
        self.root.removeNode()
