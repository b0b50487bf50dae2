"""The start screen and the panels it opens, each a screen of its own: its form (the
game, the players, the graphics; :mod:`.form`), the saved games (:mod:`.savedgames`),
the drills (:mod:`.drills`) and the statistics (:mod:`.statistics`). The form's names
are the package's, as they were before it grew its panels."""

from sim.app.screens.start.form import CALL_SHOT_ROWS, GAMES, StartChoices, StartScreen
from sim.app.screens.start.opening import OnStart, StartHost
from sim.play.game import shot_clock_options

__all__ = [
    "CALL_SHOT_ROWS",
    "GAMES",
    "OnStart",
    "StartChoices",
    "StartHost",
    "StartScreen",
    "shot_clock_options",
]
