"""The lag at the table: the stroke each player starts from is a fair lag on every table
size (measured with the physics), and the balls stay where they stopped while the lag's
winner chooses who breaks."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import CUE, Player
from rules.facts import RailContact, RailName
from sim.physics.simulate import simulate_shot
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.physics.table import TableSize
from sim.play.game import Game, GameSetup
from sim.play.table.controller import TableController
from sim.play.table.turn import Stage
from sim.store.autosave import Autosave
from tests.play.test_controller import Clock, run_until, worker  # noqa: F401

pytestmark = pytest.mark.physics


@pytest.mark.parametrize("size", list(TableSize))
def test_the_default_lag_is_a_fair_lag_on_every_table(
    size: TableSize,
    worker: InProcessSimulator,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Each player's untouched lag stroke touches the foot cushion once, no other, and
    comes back into the half of the table nearer the head cushion; the two do not tie,
    so Space, Space picks a winner (the nearer ball) with no fault to replay."""
    clock = Clock()
    game = Game(GameSetup(game="nine-ball", race_to=2, seed=3, table=size))
    controller = TableController(game, worker, Autosave(tmp_path / "auto.poolsim"), clock=clock)
    spec = game.setup.spec
    for player in Player:
        assert controller.stage is Stage.LAG and controller.shooter is player
        shot = simulate_shot(spec, {CUE: controller.lag.start()}, controller.aim.action())
        rails = [f.rail for f in shot.facts if isinstance(f, RailContact) and f.ball == CUE]
        assert rails == [RailName.FOOT], (size, player, rails)
        rest = shot.after[CUE]
        assert rest[1] < spec.length / 2, (size, player, rest)
        controller.strike()
    run_until(controller, clock, {Stage.BREAKER, Stage.LAG})
    assert controller.stage is Stage.BREAKER, controller.reasons
    assert controller.game.match.lag_winner is Player.A  # B's default is a touch softer
    rests = controller.lag.rests()
    assert set(rests) == set(Player) and rests[Player.A][1] < rests[Player.B][1]
    controller.lag.choose_breaker(Player.B)
    assert controller.lag.rests() == {}  # the balls go: the rack is racked
