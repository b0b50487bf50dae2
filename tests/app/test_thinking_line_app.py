"""The computer's thinking line while the physics still loads (seen in the window: a
14.1 game against level 3 started on a fresh worktree counted "Computer (level 3) is
thinking… 108.1 s" for the minutes the physics took to compile, with no word of why)."""

from __future__ import annotations

from typing import Any

import pytest

from rules import Player
from sim.app.hud.texts import prompt
from sim.app.main import PoolApp
from sim.app.script import run_script
from sim.physics.simulators.simulator import Simulator
from sim.play.game import Game, GameSetup

pytestmark = pytest.mark.app

WAITING = " · waiting for the physics to load"


class Loaded:
    """The window's physics worker, ready or not as the test says (all else the worker's
    own): a first run's minutes of compiling, without waiting them out."""

    def __init__(self, worker: Simulator, *, ready: bool) -> None:
        self._worker = worker
        self.ready = ready

    def __getattr__(self, name: str) -> Any:
        return getattr(self._worker, name)


def test_the_thinking_count_says_it_waits_for_the_physics(
    table: PoolApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Game(GameSetup(game="ten-ball", race_to=3, seed=5, players=("Ann", "Bob")))
    table.play(game, computers={Player.B: "1"})
    controller = table.controller
    assert controller is not None
    run_script(table, [{"breaker": "B"}])
    while controller.seat.thinking is None:
        table.step()
    hud = table.hud
    assert hud is not None
    worker = controller.worker
    # The physics ready: the count alone, as before.
    monkeypatch.setattr(controller, "worker", Loaded(worker, ready=True))
    assert prompt(controller).startswith("Bob (level 1) is thinking… ")
    assert WAITING not in prompt(controller)
    # The physics still loading: the count, and why it is long, on the HUD's line.
    monkeypatch.setattr(controller, "worker", Loaded(worker, ready=False))
    table.step()
    line = prompt(controller)
    assert line.startswith("Bob (level 1) is thinking… ") and line.endswith(WAITING)
    assert any(shown.endswith(WAITING) for shown in hud.shown_lines())
