"""pooltool's 3D models, found for the window as plain paths."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sim.physics.models import ball_model_paths, cue_model_path


def test_the_cue_model_is_pooltools_file() -> None:
    path = cue_model_path()
    assert path.name == "cue.glb" and path.is_file()


@pytest.mark.skipif(os.name != "posix", reason="Panda3D paths are POSIX paths there")
def test_every_ball_has_a_model_of_the_ball_set() -> None:
    balls = ("cue", *(str(n) for n in range(1, 16)))
    paths = ball_model_paths("pooltool_pocket", balls)
    assert list(paths) == list(balls)
    for path in paths.values():
        # A Panda3D path: on POSIX the file's own path.
        assert Path(path).is_file(), path
