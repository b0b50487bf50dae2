"""pooltool's 3D models, found for the window as plain paths."""

from __future__ import annotations

import pytest

from sim.physics.models import ball_model_paths, cue_model_path


def test_the_cue_model_is_pooltools_file() -> None:
    path = cue_model_path()
    assert path.name == "cue.glb" and path.is_file()


def test_every_ball_has_a_model_of_the_ball_set() -> None:
    balls = ("cue", *(str(n) for n in range(1, 16)))
    paths = ball_model_paths("pooltool_pocket", balls)
    assert list(paths) == list(balls)
    for path in paths.values():
        assert path.is_file(), path


@pytest.mark.parametrize(
    ("ballset", "balls"),
    [
        ("pooltool_pocket", ("cue", *(str(n) for n in range(1, 16)))),
        ("generic_snooker", ("white", "red_01", "red_15", "black")),  # reds: conversion.json
    ],
)
def test_the_ball_models_are_those_pooltool_finds(ballset: str, balls: tuple[str, ...]) -> None:
    """Found without importing pooltool, the same files as pooltool's own ball set's."""
    from sim.physics.pooltool_setup import pt

    found = pt.objects.get_ballset(ballset)
    assert ball_model_paths(ballset, balls) == {ball: found.ball_path(ball) for ball in balls}


def test_a_ball_without_a_model_is_said() -> None:
    with pytest.raises(ValueError, match="no model"):
        ball_model_paths("pooltool_pocket", ["red_01"])
    with pytest.raises(ValueError, match="unknown ball set"):
        ball_model_paths("no_such_set", ["cue"])
