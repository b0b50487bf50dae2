"""The start screen's "Open saved game" screen: the player's saved games, newest first,
one click to open; any other file by its path (a game, a position, a drill: each opens
to its own table)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from direct.gui.DirectGui import DirectButton, DirectEntry

from sim.app.hud.listpanel import TEXT, Columns, ListPanel, ListRow
from sim.app.hud.widgets import NOTICE, WHITE, entry, label
from sim.app.screens.base import Screen
from sim.app.screens.start.opening import OnStart, Opener, StartHost
from sim.play.game import GameSetup
from sim.store.savedgames import SavedGame, saved_games

ROWS = 8  # games on a page
# Where each column of SavedGame.columns() starts, from the row's left edge (room for
# "61-point rotation").
COLUMNS = Columns(
    headings=("Game", "Match", "Race", "Played", "Saved"),
    starts=(0.03, 0.43, 1.1, 1.33, 1.56),
    half_width=1.0,
)


class OpenGamePanel:
    """Lists the games in ``folders``; ``on_open(path)`` opens one (and tells the panel,
    through :meth:`say`, that it is opening, or why it could not)."""

    def __init__(
        self,
        parent: Any,
        folders: list[Path],
        on_open: Callable[[Path], None],
        on_close: Callable[[], None],
    ) -> None:
        self.on_open = on_open
        self.on_close = on_close
        self.games: list[SavedGame] = saved_games(folders)
        where = folders[0] if folders else None
        self.list = ListPanel(
            parent,
            "Open a saved game",
            f"saved games in {where}" if where is not None else "",
            COLUMNS,
            [ListRow(game.columns(), game.problem is None) for game in self.games],
            lambda index: self.open(self.games[index].path),
            self.close,
            per_page=ROWS,
            empty="no saved games yet",
            note_y=-0.68,
            back_y=-0.83,
        )
        self.frame = self.list.frame
        self.rows: list[DirectButton] = self.list.rows
        self.previous, self.next, self.back = self.list.previous, self.list.next, self.list.back
        self.error = self.list.note
        left = -COLUMNS.half_width
        label(self.frame, "Another file (its path, then Enter):", (left, -0.45), TEXT, WHITE)
        self.path: DirectEntry = entry(
            self.frame, str(Path.home()) + "/", (left, -0.55), 47, TEXT, False, self.open_typed
        )
        # A path longer than the field scrolls in it, the end typed in view (it was cut off
        # at the field's width, and a long path to a position could not be typed).
        self.path["overflow"] = 1

    def shown(self) -> list[SavedGame]:
        """The games on the page showing."""
        return [self.games[index] for index in self.list.shown()]

    def open_typed(self, text: str) -> None:
        try:
            path = Path(text.strip()).expanduser()
        except RuntimeError as error:  # ~someone who is not a user here
            self.say(str(error), NOTICE)
            return
        self.open(path)

    def open(self, path: Path) -> None:
        self.on_open(path)

    def say(self, text: str, colour: tuple[float, ...]) -> None:
        """A line under the list: what is happening, or why a file could not be opened."""
        self.list.say(text, colour)

    def close(self) -> None:
        self.on_close()

    def destroy(self) -> None:
        self.list.destroy()


class SavedGamesScreen(Screen):
    """The saved games in the start screen's place (Esc or Back: the form again); a game
    opened from it takes the table."""

    name = "saved-games"
    over_table = False

    def __init__(
        self, window: StartHost, on_start: OnStart, practice: Callable[[], GameSetup]
    ) -> None:
        super().__init__(window)
        self.host = window
        self.opener = Opener(window, on_start, self.note, practice)
        self.panel: OpenGamePanel  # made as it comes up

    def key_map(self) -> dict[str, Callable[[], None]]:
        return {"escape": self.close}

    def enter(self) -> None:
        autosave = self.host.autosave
        folders = [] if autosave is None else [autosave.saved_dir]
        self.panel = OpenGamePanel(
            self.host.base.aspect2d, folders, self.opener.open_path, self.close
        )

    def note(self, text: str, colour: tuple[float, ...]) -> None:
        """The line under the list: what is being opened, or why it cannot be."""
        self.panel.say(text, colour)

    def frame(self, dt: float) -> None:
        """No table polls the physics' worker while the list is up: the screen does."""
        if self.host.controller is None:
            self.host.worker.poll()

    def exit(self) -> None:
        self.opener.cancel()
        self.panel.destroy()

    def closed(self) -> None:
        self.host.show_start_screen()

    # -- the script's steps the screen answers ---------------------------------------------

    def script_actions(self) -> Mapping[str, Callable[[Any], None]]:
        return {"saved_games": self._pick, "open_file": self._open_file}

    def _pick(self, value: Any) -> None:
        """A game of the list by its place (0: the newest), or false: Back."""
        if value is False:
            self.close()
            return
        games = self.panel.games
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(games):
            raise ValueError(f"saved_games: a place in the list (0 to {len(games) - 1}) or false")
        self.opener.open_path(games[value].path)

    def _open_file(self, value: Any) -> None:
        """Another file: its path typed in the field, then Enter."""
        self.panel.path.enterText(str(value))
        self.panel.open_typed(str(value))
