"""The screens the player opens over the table and closes again: the start screen, the
menu (Esc), the replay viewer and the match summary (a drill's summary is with the drill,
:mod:`sim.app.screens.drilltable`). Each answers its own widgets' clicks and keys; here
is what the window's input does while it is up, and what each gives back as it closes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from direct.showbase.ShowBase import ShowBase

from sim.app.modes.window import Mouse
from sim.app.scene.scene import TableScene
from sim.app.scene.sound import SoundBoard
from sim.app.screens.base import Screen, ScreenWindow
from sim.app.screens.menu import GameMenu
from sim.app.screens.replay import ReplayItem, ReplayView, game_items, table_box
from sim.app.screens.review.keeper import GameReview
from sim.app.screens.start import OnStart, StartHost, StartScreen
from sim.app.screens.summary import MatchSummary
from sim.play.drillrun import DrillRun
from sim.play.game import Node, ShotRecord, Stroke, TimeFoulRecord
from sim.play.table.controller import TableController
from sim.play.table.turn import Stage
from sim.store.autosave import Autosave


class StartMode(Screen):
    """The start screen: its form takes the keys (names typed) and the clicks; each of
    its panels takes its place as a screen of its own (Esc there: back to the form)."""

    name = "start"
    over_table = False

    def __init__(self, window: ScreenWindow, host: StartHost, on_start: OnStart) -> None:
        super().__init__(window)
        self.screen = StartScreen(host, on_start=on_start)

    def key_map(self) -> dict[str, Callable[[], None]]:
        # The keys are asked for before the form is made: the form is looked up on the key.
        return {"escape": lambda: self.screen.quit()}

    def exit(self) -> None:
        self.screen.destroy()

    def script_actions(self) -> dict[str, Callable[[Any], None]]:
        """The form's buttons that open its panels (each panel answers its own steps)."""
        return {
            "statistics": self._statistics,
            "saved_games": self._saved_games,
            "drills": self._drills,
        }

    def _statistics(self, player: Any) -> None:
        """Statistics, at ``player``'s figures (null: nothing to close)."""
        if player is None:
            return
        screen = self.screen.open_statistics()
        screen.script_actions()["statistics"](player)

    def _saved_games(self, value: Any) -> None:
        """Open saved game (true), then the game at that place of the list (a number)."""
        if value is False:
            return
        screen = self.screen.open_saved()
        if value is not True:
            screen.script_actions()["saved_games"](value)

    def _drills(self, value: Any) -> None:
        """Drills (true), then the drill of that name in the list."""
        if value is False:
            return
        screen = self.screen.open_drills()
        if screen is None:
            raise ValueError(self.screen.error.getText())
        if value is not True:
            screen.script_actions()["drills"](value)


class MenuMode(Screen):
    """The menu, over a veil that takes the clicks: the game is paused (its shot clock
    stopped), and goes on under it only by itself (a shot in flight lands and plays
    out). Esc closes it. The menu's buttons ask the window through this screen."""

    name = "menu"
    table_underneath = True

    def __init__(self, window: ScreenWindow) -> None:
        super().__init__(window)
        self.menu = GameMenu(self)

    def key_map(self) -> dict[str, Callable[[], None]]:
        return {"escape": self.close}

    def enter(self) -> None:
        if self.app.controller is not None:
            self.app.controller.shot_clock.pause()

    def exit(self) -> None:
        self.menu.destroy()

    def closed(self) -> None:
        if self.app.controller is not None:
            self.app.controller.shot_clock.resume()

    # -- what the menu asks of the window --------------------------------------------------

    @property
    def base(self) -> ShowBase:
        return self.app.base

    @property
    def controller(self) -> TableController | None:
        return self.app.controller

    @property
    def autosave(self) -> Autosave | None:
        return self.app.autosave

    @property
    def drill(self) -> DrillRun | None:
        return self.app.drills.run

    def drill_again(self) -> None:
        self.app.drills.again()

    def close_menu(self) -> None:
        self.close()

    def save_position(self) -> Path:
        return self.app.practice.save_position()

    def show_start_screen(self) -> None:
        self.app.show_start_screen()

    def quit(self) -> None:
        self.app.quit()


class ReplayMode(Screen):
    """The replay viewer: its keys and widgets are its own (it closes itself on Esc);
    the left button is its controls', the others and the wheel move the camera. Over a
    game, the HUD, the cue and the marks on the cloth are hidden while it is up and the
    shot clock stopped; with shots of no game, closing it quits."""

    name = "replay"

    def __init__(self, window: ScreenWindow, items: Sequence[ReplayItem], index: int) -> None:
        super().__init__(window)
        self.items, self.index = items, index
        self.view: ReplayView  # made as it comes up, once the table is cleared for it

    def enter(self) -> None:
        app = self.app
        if app.hud is not None:
            app.hud.root.hide()
        for part in (app.cue, app.call_marker, app.hint_ghost, app.rack_area):
            if part is not None:
                part.hide()
        if app.kitchen is not None:
            app.kitchen.hide()
        if app.tracking_lines is not None:  # the viewer draws the shot's own paths
            app.tracking_lines.show(None)
        if app.rig is not None:
            # The HUD's bands are gone while it is up: the table between its panels.
            app.rig.set_free(table_box(app.base.getAspectRatio()))
            app.rig.show("broadcast")  # the whole table, whatever view the player had
        if app.controller is not None:
            app.controller.shot_clock.pause()
        self.view = ReplayView(self, self.items, self.index)

    def press(self, button: str, mouse: Mouse) -> None:
        pointer = self.window.pointer
        pointer.pressed(button, mouse)
        if button == "mouse3":
            pointer.target = "orbit"
        elif button == "mouse2":
            pointer.target = "pan"

    def wheel(self, step: int, mouse: Mouse | None) -> None:
        self.zoom(step)

    def frame(self, dt: float) -> None:
        """The viewer draws the balls; a game's controller goes on (its worker polled)."""
        rig = self.window.rig
        if rig is None:
            return
        if self.window.controller is not None:
            self.window.controller.update()
        rig.update(dt)
        self.app.modes.drag()

    def resized(self) -> None:
        if abs(self.window.base.getAspectRatio() - self.view.aspect) >= 1e-3:
            self.view = self.view.rebuilt()

    def exit(self) -> None:
        self.view.destroy()

    def closed(self) -> None:
        app = self.app
        if app.hud is not None:
            app.hud.root.show()
            if app.rig is not None:
                app.rig.set_free(app.hud.layout.table_on_screen())
        if app.controller is not None:
            app.controller.shot_clock.resume()
            _players_view(app)  # the viewer showed broadcast: back to the player's own
        else:  # shots with no game: closing the viewer quits
            app.quit()

    # -- what the viewer asks of the window -----------------------------------------------

    @property
    def base(self) -> ShowBase:
        return self.app.base

    @property
    def scene(self) -> TableScene | None:
        return self.app.scene

    @property
    def sounds(self) -> SoundBoard:
        return self.app.sounds

    def replay_closed(self) -> None:
        self.close()

    def play_from(self, node: Node) -> None:
        """Play from here: the viewer closed, and the table at the position before the
        shot of ``node``, the match as it was then, its stroke loaded (a refusal is said
        on the HUD, the table as it was)."""
        controller = self.app.controller
        if controller is not None:
            self.back_to_the_table(lambda: controller.branches.play_from(node))

    def play_on(self, node: Node) -> None:
        """Play on: the viewer closed, and the table after the last step of the line the
        shot of ``node`` is on (the main variations from it), the match as it was there,
        to play on; what is played is added to that line."""
        controller = self.app.controller
        if controller is not None:
            self.back_to_the_table(lambda: controller.branches.continue_from(node.end()))

    def back_to_the_table(self, move: Callable[[], None]) -> None:
        app = self.app
        self.close()
        app.modes.answer(move)
        _players_view(app)

    def make_main_line(self, node: Node) -> list[ReplayItem]:
        """Main line: the line through ``node`` is the main line (autosaved)."""
        controller = self.app.controller
        assert controller is not None
        controller.branches.promote_to_main(node)
        return game_items(controller.game)

    def delete_line(self, node: Node) -> list[ReplayItem]:
        """Delete: ``node`` and every step after it (autosaved)."""
        controller = self.app.controller
        assert controller is not None
        controller.branches.delete(node)
        return game_items(controller.game)

    def line_start(self, node: Node) -> Node | None:
        """Where the branch ``node`` is on leaves the line in play (None: on it)."""
        controller = self.app.controller
        return None if controller is None else controller.game.off_line_in_play(node)

    def game_review(self) -> GameReview | None:
        """The review of the game on the table: found saved, made or being made (None:
        shots of no game)."""
        controller = self.app.controller
        return None if controller is None else self.app.reviews.of(controller.game)

    def start_review(self) -> None:
        """Review this game: its main line judged in the background."""
        controller = self.app.controller
        if controller is not None:
            self.app.reviews.start(controller.game)

    def plays_best(self, node: Node) -> bool:
        """The shot's seat is a person's at this table (a computer's seat would play its
        own stroke again, whatever is loaded)."""
        controller = self.app.controller
        record = node.record
        if controller is None or not isinstance(record, ShotRecord | TimeFoulRecord):
            return False
        return record.shooter not in controller.computers

    def play_best(self, node: Node, stroke: Stroke) -> None:
        """Play the best: the viewer closed, and the table before the shot of ``node``
        with the review's best stroke loaded; what is played is a new branch."""
        controller = self.app.controller
        if controller is not None:
            self.back_to_the_table(lambda: controller.branches.play_from(node, stroke))

    # -- the script's steps the viewer answers ---------------------------------------------

    def script_actions(self) -> dict[str, Callable[[Any], None]]:
        return {
            "play_from_here": self._play_from_here,
            "compare": self._compare,
            "replay_line": self._line_button,
        }

    def _play_from_here(self, value: Any) -> None:
        """Play from here, for the shot shown."""
        item = self.view.item
        if item.node is None:
            raise ValueError(f"{item.label} cannot be played from (a lag shot)")
        self.view.play_from_here()

    def _compare(self, value: Any) -> None:
        """The side by side with the Nth other attempt at the shot shown (None: off)."""
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"compare takes a whole number (0 first) or null, not {value!r}")
        self.view.compare(value)

    def _line_button(self, value: Any) -> None:
        """A line button for the shot shown: Play on, Main line, Delete (pressed twice)."""
        view = self.view
        node = view.item.node
        if node is None:
            raise ValueError(f"{view.item.label} is on no line of a game (a lag shot)")
        if value == "play_on":
            view.play_on()
        elif value == "main":
            view.make_main()
        elif value == "delete":  # the button pressed twice: asked, then done
            if self.line_start(node) is None:
                raise ValueError("the line in play cannot be deleted: play from another first")
            view.delete_line()
            view.delete_line()
        else:
            raise ValueError(f"replay_line is play_on, main or delete, not {value!r}")


class MatchSummaryMode(Screen):
    """The match's summary over the table once the match is over: a panel that leaves
    the keys and clicks to the table under it, and makes way for any other screen."""

    name = "match-summary"
    table_underneath = True
    yields = True

    def __init__(self, window: ScreenWindow, controller: TableController) -> None:
        super().__init__(window)
        hud = window.hud
        floor = -1.0 if hud is None else hud.layout.words.y1 + 0.02
        ceiling = 1.0 if hud is None else hud.layout.top_bar.y0 - 0.02
        # The match's review, started as the match ends: the CPU is free then (no shot
        # in the physics, no computer thinking), its process is niced under the window
        # and a next game, and a person who practises alone wants the accuracy
        # unasked. It runs on to its end whatever comes next (kept by the game's digest).
        self.review = window.reviews.match_over(controller.game)
        self.summary = MatchSummary(
            window.base.aspect2d,
            controller.game,
            self.close,
            floor,
            ceiling,
            self.review,
            self.open_review,
        )

    def frame(self, dt: float) -> None:
        self.summary.update()

    def open_review(self) -> None:
        """The summary's review button: Review the match (started in the background),
        or once it is made Open the review, the replay at the shot that cost the most
        (the first shot when none cost anything), the band with its review."""
        review = self.review.review
        if review is None:
            if not self.review.running:
                self.app.reviews.start(self.review.game)
            return
        steps = list(zip(self.review.nodes, review.steps, strict=False))
        node = max(steps, key=lambda pair: pair[1].skill)[0] if steps else None
        items = game_items(self.review.game)
        index = next((i for i, item in enumerate(items) if item.node is node), None)
        self.app.open_replay(index)

    def exit(self) -> None:
        self.summary.destroy()

    def script_actions(self) -> dict[str, Callable[[Any], None]]:
        """The summary up (true: nothing to do) or closed (false)."""
        return {"summary": lambda value: None if value else self.close()}


def _players_view(app: ScreenWindow) -> None:
    """The table's camera back at the player's chosen view (overhead while the cue ball
    is placed or the table set up), after a screen that showed its own (issue 28,
    friction 9)."""
    controller = app.controller
    if controller is not None:
        overhead = controller.stage in (Stage.PLACE, Stage.SETUP)
        app.show_view("overhead" if overhead else app.view)
