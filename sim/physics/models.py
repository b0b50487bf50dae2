"""Where pooltool's 3D models are, as plain paths: the window draws them, but only
``sim.physics`` may touch pooltool."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable
from pathlib import Path

from sim.physics.pooltool_setup import pt


def _pooltool_folder() -> Path:
    """pooltool's installed package folder, found without importing pooltool (the
    window's start screen shows before pooltool is loaded)."""
    spec = importlib.util.find_spec("pooltool")
    assert spec is not None and spec.origin is not None, "pooltool is not installed"
    return Path(spec.origin).parent


def cue_model_path() -> Path:
    """pooltool's cue stick (glTF)."""
    return _pooltool_folder() / "models" / "cue" / "cue.glb"


def ball_model_paths(ballset: str, balls: Iterable[str]) -> dict[str, str]:
    """Each ball's model in pooltool's ball set ``ballset``, as a Panda3D model path."""
    found = pt.objects.get_ballset(ballset)
    return {ball: pt.utils.panda_path(found.ball_path(ball)) for ball in balls}


def table_model_path() -> Path:
    """pooltool's own 7-ft table (glTF): the plain reference scene of ``poolsim bench
    --render``; the window builds its tables from the physics geometry instead."""
    folder = _pooltool_folder() / "models" / "table" / "seven_foot_showood"
    return folder / "seven_foot_showood.glb"
