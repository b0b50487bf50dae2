"""A drill at the table: a practice table of its game set up at its position, its goal
drawn on the cloth, the HUD saying the attempt and the best so far, each attempt scored
when its balls stop (:class:`sim.play.drillrun.DrillRun`), and at the session's end its
summary over the table, a screen of its own (Try again, or Close)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from rules import PocketId
from sim.app.marks.drilloverlay import DrillOverlay
from sim.app.screens.base import Screen, ScreenWindow
from sim.app.screens.start.drills import DrillSummary, history_lines
from sim.physics.table import pocket_centre
from sim.play.drill import DrillSession
from sim.play.drillrun import DrillRun
from sim.play.game import Game, GameSetup
from sim.store.drillfile import ShippedDrill
from sim.store.drillhistory import DEFAULT_PLAYER, DrillHistory

DRILL_VIEW = "overhead"  # a drill's zone and pockets, the whole table at once


class DrillWindow(ScreenWindow, Protocol):
    """The window as a drill uses it: the screens' view of it, and a game to play."""

    def play(self, game: Game) -> None: ...


class DrillSummaryMode(Screen):
    """The end of a drill session, over the table (which goes on under it): Try again
    or Close; Esc closes it."""

    name = "drill-summary"
    table_underneath = True

    def __init__(self, window: ScreenWindow, drill: DrillRun, again: Callable[[], None]) -> None:
        super().__init__(window)
        self.drill = drill
        self.again = again
        self.summary = DrillSummary(
            window.base.aspect2d, drill.session, drill.history, again, self.close
        )

    def key_map(self) -> dict[str, Callable[[], None]]:
        return {"escape": self.close}

    def script_actions(self) -> dict[str, Callable[[Any], None]]:
        """Try again: a new session, the summary gone."""
        return {"drill_again": lambda value: self.again()}

    def exit(self) -> None:
        self.summary.destroy()

    def closed(self) -> None:
        """Back to the table as the last attempt left it; the menu offers the drill again."""
        self.say(
            f"The drill is over: {self.drill.session.summary} "
            "Esc, then Try the drill again, for a new session."
        )


class DrillTable:
    """The drill on the table (``run``; None: none) and its goal on the cloth. Finished
    sessions go into the player's history (not in a scripted run, which leaves the
    player's files alone, as it has no autosave: ``keep_history``)."""

    def __init__(self, window: DrillWindow) -> None:
        self.app = window
        self.run: DrillRun | None = None
        self.overlay: DrillOverlay | None = None
        self.keep_history = True
        # The player's view before the drill's overhead, given back as the drill goes.
        self.players_view: str | None = None

    def open(self, shipped: ShippedDrill, player: str = DEFAULT_PLAYER) -> None:
        """A drill on a practice table of its game and table, set up at its position."""
        drill = shipped.drill
        position = drill.position
        game = Game(
            GameSetup(
                game=position.game,
                table=position.table,
                players=(player, "Player 2"),
                seed=random.SystemRandom().randrange(2**63),
                practice=True,
                drill=drill.title,  # the saved-games list names the session for it
            )
        )
        game.set_up(position)
        app = self.app
        app.play(game)
        controller, hud = app.controller, app.hud
        assert controller is not None and hud is not None
        self.run = DrillRun(drill, controller, player, self.keep)
        table = game.setup.spec.plan()
        pockets = {pocket: pocket_centre(table, pocket) for pocket in PocketId}
        self.overlay = DrillOverlay(app.base, game.setup.spec.geometry, pockets, drill)
        hud.headline = self.headline
        hud.refresh()
        # Overhead: the zone and the pockets, the whole table at once, and back there
        # after each shot (for this table; the player's own choice is not changed: it
        # comes back as the drill goes, see close).
        self.players_view = app.view
        app.view = DRILL_VIEW
        app.show_view(app.view)
        if app.rig is not None:
            app.rig.jump()

    def headline(self) -> tuple[str, str] | None:
        run = self.run
        return None if run is None else (run.headline, f"Goal: {run.goal_words}")

    def keep(self, session: DrillSession) -> list[str]:
        """A finished session into the player's history (written at once); the lines of
        the history the summary shows. A history that cannot be written is said, and
        the drill goes on."""
        assert self.run is not None
        if not self.keep_history:
            return ["(a scripted run: this session is not kept in the history)"]
        history = DrillHistory()
        player = self.run.player
        try:
            history.add(session, player)
        except OSError as error:
            return [f"the history could not be written: {error.strerror or error}"]
        return history_lines(history, session.drill.name, player)

    def frame(self) -> None:
        """Score an attempt once its balls stop; at the session's end, its summary."""
        run = self.run
        if run is None or self.app.modes.covering is not None:
            return
        score = run.update()
        if score is not None and run.session.finished:
            self.app.modes.open(DrillSummaryMode(self.app, run, self.again))

    def again(self) -> None:
        """Try again: a new session of the drill, its balls back."""
        screen = self.app.modes.screen
        if isinstance(screen, DrillSummaryMode):
            self.app.modes.close()
        if self.run is not None:
            self.app.modes.answer(self.run.try_again)

    def close(self) -> None:
        """The table goes: the drill and its goal with it."""
        if self.overlay is not None:
            self.overlay.destroy()
        self.run = self.overlay = None
        # Unless the player chose a view at the drill (which is theirs now), the next
        # table opens in the view they had before it (not overhead: issue 28's state test).
        if self.players_view is not None and self.app.view == DRILL_VIEW:
            self.app.view = self.players_view
        self.players_view = None
