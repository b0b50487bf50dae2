"""The start screen and the panels it opens, each a screen of its own: its form (the
game, the players, the graphics; :mod:`.form`), the saved games (:mod:`.savedgames`),
the drills (:mod:`.drills`) and the statistics (:mod:`.statistics`). The form's names
are the package's, as they were before it grew its panels."""

from sim.app.screens.start.form import GAMES, StartChoices, StartScreen
from sim.app.screens.start.opening import OnStart, StartHost

__all__ = [
    "GAMES",
    "OnStart",
    "StartChoices",
    "StartHost",
    "StartScreen",
]
