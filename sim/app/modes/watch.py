"""A shot in flight: struck and waiting for the physics, then playing out (drawn from its
timelines, heard, the camera on the broadcast view and following the balls)."""

from __future__ import annotations

from typing import Any

import numpy as np

from rules import CUE, BallId
from rules.geometry import Point
from sim.app.modes.table import TableMode
from sim.app.scene.scene import LAG_BALL
from sim.app.scene.sound import SoundCue, cues_between, sound_cues
from sim.play.table.turn import Watching


class StrikeMode(TableMode):
    """Struck; the physics is working. The balls wait where they are."""

    name = "strike"

    def space(self) -> None:
        """A second Space is impatience, not a refused stroke."""


class WatchMode(TableMode):
    """The shot plays out; Space skips to its end."""

    name = "watch"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.preset_before = ""  # the view to go back to after the shot
        # The shot being watched, its sounds (one list a timeline) and the time heard up to.
        self.heard: tuple[Watching, list[tuple[SoundCue, ...]], float] | None = None

    def space(self) -> None:
        self.controller.finish_watching()

    def enter(self) -> None:
        """A shot is watched from the broadcast view (the camera leans toward the balls)."""
        rig = self.window.rig
        assert rig is not None
        self.preset_before = rig.preset
        if rig.preset in ("behind", "free"):
            rig.show("broadcast")

    def exit(self) -> None:
        """The player's view comes back (the one they picked last, during the shot too);
        a view they moved by hand before the shot stays as it is."""
        if self.preset_before != "free":
            self.window.show_view(self.window.view)
        self.preset_before = ""

    def before_update(self) -> None:
        """Before the update, which ends a shot that has played out: its last sounds
        (often a ball dropping at the very end) are due this frame. A skipped shot
        ended already, and stays silent."""
        watching = self.controller.watching
        assert watching is not None
        self.hear(watching, min(self.window.clock() - watching.started, watching.duration))

    def hear(self, watching: Watching, t: float) -> None:
        """Play the sounds of the shot being watched from the last frame's time to ``t``
        (computed once a shot, when it starts to play out)."""
        if self.heard is None or self.heard[0] is not watching:
            cues = [sound_cues(timeline) for timeline in watching.timelines]
            self.heard = (watching, cues, -1.0)
        _, cues, heard = self.heard
        for shot in cues:
            self.window.sounds.play(cues_between(shot, heard, t))
        # At the end the shot is over (this frame's update ends it): nothing to keep.
        self.heard = None if t >= watching.duration else (watching, cues, t)

    def draw(self) -> None:
        window = self.window
        watching = self.controller.watching
        assert watching is not None and window.scene is not None and window.rig is not None
        if window.cue is not None:
            window.cue.hide()
        t = min(window.clock() - watching.started, watching.duration)
        moving: list[Point] = []
        ids: list[BallId] = []
        parts: list[Any] = []
        # Both lag balls are pooltool's "cue": B's is drawn as the tinted second one.
        for number, timeline in enumerate(watching.timelines):
            states = timeline.at(min(t, timeline.duration))
            names = [LAG_BALL if number and b == CUE else b for b in timeline.ball_ids]
            ids += names
            parts.append(states)
            for i in range(len(timeline.ball_ids)):
                if not states.pocketed[i] and np.linalg.norm(states.velocities[i]) > 1e-3:
                    moving.append((float(states.positions[i][0]), float(states.positions[i][1])))
        window.scene.set_balls(
            ids,
            np.concatenate([p.positions for p in parts]),
            np.concatenate([p.orientations for p in parts]),
            ~np.concatenate([p.pocketed for p in parts]),
        )
        if window.rig.preset == "broadcast":
            window.rig.follow(moving)  # the camera follows the action
