"""A 10-ball match played to a quiet rack, for the stalemate's tests: after the break,
each player plays a soft safety that hits the ball on and pots nothing, until no ball
has gone down for the innings asked. Found by trying strokes against the referee (each
simulated, ruled on, and committed only when it is legal and pots nothing), so it is
real play, the same every time."""

from __future__ import annotations

from rules import CUE, Declaration, Player
from sim.physics.simulate import CueAction, SimulatedShot, aim_towards
from sim.play.game import Game, GameSetup, PreparedShot, Stroke, shot_of

SPEEDS = (1.2, 1.8, 2.4, 3.0)
TURNS = (0.0, 3.0, -3.0, 6.0, -6.0)
BREAK = CueAction(speed=8.0, aim=90.0)


def quiet_game(innings: int, seed: int = 3, players: tuple[str, str] = ("Ann", "Bob")) -> Game:
    """A 10-ball match (A broke) with ``innings`` quiet innings, A or B to shoot."""
    game = Game(GameSetup(game="ten-ball", race_to=2, seed=seed, players=players))
    game.start(Player.A)
    game.shoot(Stroke(action=BREAK, placement=(0.635, 0.5)))
    while True:
        state = game.rack
        assert state is not None and state.result is None and state.pending is None
        if state.quiet_innings >= innings:
            return game
        assert state.ball_in_hand is None, "a quiet rack is played from where the balls lie"
        game.commit(*quiet_stroke(game))


def quiet_stroke(game: Game) -> tuple[PreparedShot, SimulatedShot]:
    """The first soft safety at the ball on that is legal and pots nothing."""
    state = game.rack
    assert state is not None and state.lowest is not None
    cue, target = state.balls[CUE], state.balls[state.lowest]
    for speed in SPEEDS:
        for turn in TURNS:
            action = CueAction(speed=speed, aim=aim_towards(cue, target) + turn)
            stroke = Stroke(action=action, declaration=Declaration.SAFETY)
            prepared = game.prepare(stroke)
            simulated = game.simulate(prepared)
            ruling = state.rule(shot_of(stroke, simulated))
            if not ruling.foul and not ruling.pocketed:
                return prepared, simulated
    raise AssertionError("no quiet stroke found")
