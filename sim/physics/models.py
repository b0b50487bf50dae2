"""Where pooltool's 3D models are, as plain paths: the window draws them, but only
``sim.physics`` may touch pooltool."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterable
from pathlib import Path


def _pooltool_folder() -> Path:
    """pooltool's installed package folder, found without importing pooltool (the
    window's start screen shows before pooltool is loaded)."""
    spec = importlib.util.find_spec("pooltool")
    assert spec is not None and spec.origin is not None, "pooltool is not installed"
    return Path(spec.origin).parent


def cue_model_path() -> Path:
    """pooltool's cue stick (glTF)."""
    return _pooltool_folder() / "models" / "cue" / "cue.glb"


def ball_model_paths(ballset: str, balls: Iterable[str]) -> dict[str, Path]:
    """Each ball's model in pooltool's ball set ``ballset``, found as pooltool's
    ``get_ballset(ballset).ball_path(ball)`` finds it (a ball's own ``<id>.glb`` in the
    set's folder, else the model its ``conversion.json`` names), without importing
    pooltool."""
    folder = _pooltool_folder() / "models" / "balls" / ballset
    if not folder.is_dir():
        raise ValueError(f"unknown ball set {ballset!r}")
    conversion = folder / "conversion.json"
    models: dict[str, str] = json.loads(conversion.read_text()) if conversion.is_file() else {}
    paths = {}
    for ball in balls:
        model = ball if (folder / f"{ball}.glb").is_file() else models.get(ball)
        if model is None:
            raise ValueError(f"ball {ball!r} has no model in the ball set {ballset!r}")
        paths[ball] = folder / f"{model}.glb"
    return paths


def table_model_path() -> Path:
    """pooltool's own 7-ft table (glTF): the plain reference scene of ``poolsim bench
    --render``; the window builds its tables from the physics geometry instead."""
    folder = _pooltool_folder() / "models" / "table" / "seven_foot_showood"
    return folder / "seven_foot_showood.glb"
