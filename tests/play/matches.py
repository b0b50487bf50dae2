"""Matches the game-file tests play: a lag (GEN-2) then whole racks by the built-in player."""

from __future__ import annotations

import random

from rules import Player
from sim.physics.simulate import CueAction
from sim.play.game import Game, GameSetup
from sim.play.selfplay import play_racks


def lag_then_racks(setup: GameSetup, racks: int = 1) -> Game:
    """Both players lag up the table, harder each time until one wins (GEN-2: a tie is
    replayed); the winner breaks; then ``racks`` racks, seeded by the set-up's seed."""
    match = Game(setup)
    for speed in (2.4, 2.6, 2.8, 3.0, 3.2):
        record = match.lag(
            ((0.35, 0.3), (0.92, 0.3)), (CueAction(speed, 90.0), CueAction(speed + 0.1, 90.0))
        )
        if record.result.winner is not None:
            match.choose_breaker(record.result.winner)
            break
    else:
        match.start(Player.A)
    return play_racks(match, racks, random.Random(setup.seed))
