"""Who struck each lag stroke, in the game file (issue 12): the computer's lag carries
its level and seed, as its shots do, and ``poolsim verify --decisions`` makes its lag
stroke again; a file from before (version 2, no ``players``) opens with people lagging.
And the computer's stalemate offer declined (``declined``) is kept with its shot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner

from rules import Player
from sim.cli import cli
from sim.physics.simulate import CueAction
from sim.play.game import ComputerPlayer, Game, GameSetup, LagRecord
from sim.play.opponent.lag import lag_stroke
from sim.store.gamefile import load, save
from sim.store.verify import verify_decisions
from tests.gamezip import rewrite
from tests.play.quiet import quiet_game, quiet_stroke

pytestmark = pytest.mark.physics

STARTS = ((0.3175, 0.3175), (0.9525, 0.3175))  # A's ball on the left, B's on the right
COMPUTER = ComputerPlayer("3", (5, 0, 0, 0, 0))
PERSONS = CueAction(speed=1.25, aim=90.0)


def lagged(computer: ComputerPlayer) -> Game:
    """A match whose lag A struck as the computer (its stroke made from ``COMPUTER``'s
    seed) and B as a person, with ``computer`` on the record as A's."""
    game = Game(GameSetup(game="ten-ball", seed=5, players=("Ann", "Bob")))
    game.lag(STARTS, (lag_stroke(Player.A, COMPUTER), PERSONS), (computer, None))
    return game


def lag_of(document: dict[str, Any]) -> dict[str, Any]:
    return next(r for r in document["records"] if r["type"] == "lag")


def test_the_lag_says_who_struck_each_stroke(tmp_path: Path) -> None:
    path = tmp_path / "lag.poolsim"
    save(lagged(COMPUTER), path)
    seen: dict[str, Any] = {}
    rewrite(path, tmp_path / "same.poolsim", lambda document: seen.update(lag_of(document)))
    assert seen["players"] == [
        {"kind": "computer", "level": "3", "entropy": [5, 0, 0, 0, 0]},
        {"kind": "person"},
    ]
    (record,) = [r for r in load(path).records if isinstance(r, LagRecord)]
    assert record.players == (COMPUTER, None)


def test_an_older_file_lags_as_people(tmp_path: Path) -> None:
    path = tmp_path / "lag.poolsim"
    save(lagged(COMPUTER), path)

    def older(document: dict[str, Any]) -> None:
        document["version"] = 2
        del document["arithmetic"]  # version 4's
        del lag_of(document)["players"]

    (record,) = [
        r
        for r in load(rewrite(path, tmp_path / "v2.poolsim", older)).records
        if isinstance(r, LagRecord)
    ]
    assert record.players == (None, None)


def test_verify_decisions_makes_the_computers_lag_again(tmp_path: Path) -> None:
    (check,) = verify_decisions(lagged(COMPUTER))
    assert check.same and check.label == "lag (A)" and check.level == "3"
    other = ComputerPlayer("3", (6, 0, 0, 0, 0))  # another seed: another stroke
    (differs,) = verify_decisions(lagged(other))
    assert not differs.same
    path = tmp_path / "other.poolsim"
    save(lagged(other), path)
    result = CliRunner().invoke(cli, ["verify", "--decisions", str(path)])
    assert result.exit_code == 1 and "lag (A), computer (level 3): DIFFERS" in result.output


def test_the_offer_declined_is_kept_with_the_computers_shot(tmp_path: Path) -> None:
    game = quiet_game(12)
    prepared, simulated = quiet_stroke(game)
    computer = ComputerPlayer("1", (1, 2), declined=12)
    game.commit(
        attrs.evolve(prepared, stroke=attrs.evolve(prepared.stroke, player=computer)), simulated
    )
    path = tmp_path / "declined.poolsim"
    save(game, path)
    assert load(path).shots[-1].stroke.player == computer
