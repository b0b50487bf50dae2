"""The start screen: game, race, players, who breaks, table size, graphics and the rule
options the chosen game offers (``GameState.rule_options``, :mod:`rules.offered`);
resume the autosaved game or open a saved one."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import attrs
from direct.gui.DirectGui import DGG, DirectButton, DirectEntry, DirectFrame
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import TextNode

from rules import DEFAULT_GAME, GameState, Options, Player
from rules import PLAYABLE_GAMES as KINDS
from rules.games import offered_options
from rules.offered import chosen_fields
from sim.app.hud.texts import physics_status
from sim.app.hud.widgets import (
    BACKDROP,
    DIM,
    GOLD,
    NOTICE,
    WHITE,
    OptionMenu,
    button,
    entry,
    label,
)
from sim.app.scene.scene import Quality
from sim.app.screens.base import Screen
from sim.app.screens.start.drills import DrillsScreen
from sim.app.screens.start.opening import OnStart, Opener, StartHost
from sim.app.screens.start.savedgames import SavedGamesScreen
from sim.app.screens.start.statistics import StatisticsScreen
from sim.names import seat_names
from sim.physics.pooltool_setup import load_pooltool_in_background, pooltool_loaded
from sim.play.game import MAX_RACE, Game, GameSetup, default_race
from sim.store.savedgames import SavedGame, summarise

GAMES = {kind.display_name: name for name, kind in KINDS.items()}
TABLES = {"9-foot (WPA)": "9ft", "8-foot": "8ft", "7-foot": "7ft"}
BREAKS = {"Lag for it": "lag", "Player 1 breaks": "A", "Player 2 breaks": "B"}
QUALITY = {"Fast (any computer)": "fast", "Quality (graphics card)": "quality"}
# The form's drop-down menus: label, StartChoices field, items (shown text -> value).
MENU_ROWS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("Game", "game", GAMES),
    ("Table", "table", TABLES),
    ("Who breaks first", "breaker", BREAKS),
    ("Graphics", "quality", QUALITY),
)
MENUS = {key: items for _, key, items in MENU_ROWS}
# Every game's rule options, a drop-down each (by its Options field), shown in the rows
# under the players' while the chosen game offers it, in the order the game lists them.
RULES = offered_options()
RULE_MENUS = {option.name: option.items for option in RULES}


def games_line() -> str:
    """The start screen's subtitle: every game that can be played, by name."""
    *most, last = (kind.display_name for kind in KINDS.values())
    return f"WPA {', '.join(most)} and {last}, refereed rule by rule"


RULE_ROWS = max(len(kind.rule_options) for kind in KINDS.values())  # the most a game shows
# Who plays each seat, beside the player's name: a person, or the computer at a level.
SEATS = {
    "Person": "person",
    **{f"Computer (level {level})": level for level in ("1", "2", "3", "4", "5")},
}
SEAT_MENUS = {"seat_a": SEATS, "seat_b": SEATS}
FORM_MENUS = {**MENUS, **SEAT_MENUS}  # the drop-downs of StartChoices' own fields
ROWS_TOP, ROWS_BOTTOM = 0.55, -0.35  # the form's rows, the first's and the lowest's
HALF_WIDTH = 1.16  # the form's buttons, from the middle to the farther edge


def _default_rules() -> dict[str, Any]:
    return {option.name: option.default for option in RULES}


def _every_rule(given: Mapping[str, Any]) -> dict[str, Any]:
    """The rules ``given``, and every other offered one at its default."""
    return {**_default_rules(), **given}


def resume_detail(saved: SavedGame) -> str:
    """What Resume brings back, in a line: '10-ball · Ann 2-1 Bob · 16 shots'."""
    game, match, _, played, _ = saved.columns()
    return match if saved.problem is not None else f"{game} · {match} · {played}"


def _race(value: Any) -> bool:
    """Whether ``value`` is a race the form can show."""
    return type(value) is int and 1 <= value <= MAX_RACE


def _race_words(kind: type[GameState]) -> str:
    """The race's row, in the units raced: "Race to (racks)", 14.1's "(games)"."""
    return f"Race to ({kind.race_unit}s)"


def _game_race(choices: StartChoices) -> int:
    """A race for the chosen game when none is given: the one last chosen for it, or its
    own default (14.1's one game, B-55; five racks)."""
    return choices.races.get(choices.game, default_race(KINDS[choices.game]))


@attrs.frozen
class StartChoices:
    """What the start screen's fields say, as values."""

    game: str = DEFAULT_GAME
    # Each game's race as last chosen (a race of 5 racks is not a match of 5 games of
    # 14.1 to 150): the chosen game's is ``race_to``; the others' kept for when chosen.
    races: dict[str, int] = attrs.field(factory=dict, hash=False)
    race_to: int = attrs.field(default=attrs.Factory(_game_race, takes_self=True))
    players: tuple[str, str] = ("Player 1", "Player 2")
    breaker: str = "lag"
    # Each rule option's value (rules.offered), by its Options field: the chosen game's
    # set its options; the others' are kept for when that game is chosen again.
    # Every offered rule: one the choices do not name at its default.
    rules: dict[str, Any] = attrs.field(factory=_default_rules, hash=False, converter=_every_rule)
    table: str = "9ft"
    quality: Quality = "fast"
    seat_a: str = "person"  # "person", or the computer's level ("1".."5")
    seat_b: str = "person"

    def seat_names(self) -> tuple[str, str]:
        """The players' names, a computer's seat left at its default name named for what
        it is (:func:`sim.names.seat_names`)."""
        return seat_names((self.players[0], self.players[1]), self.computers())

    def computers(self) -> dict[Player, str]:
        """The seats the computer plays, and at which level."""
        seats = {Player.A: self.seat_a, Player.B: self.seat_b}
        return {player: level for player, level in seats.items() if level != "person"}

    def setup(self, seed: int) -> GameSetup:
        options = Options.from_mapping(chosen_fields(KINDS[self.game].rule_options, self.rules))
        return GameSetup(
            game=self.game,
            race_to=self.race_to,
            table=self.table,
            options=options,
            players=self.seat_names(),
            seed=seed,
        )

    def to_json(self) -> dict[str, Any]:
        """The choices as the preferences keep them: the rule options beside the others."""
        kept = attrs.asdict(self, filter=lambda field, _: field.name != "rules")
        return {**kept, **self.rules, "players": list(self.players)}

    @classmethod
    def remembered(cls, data: Any) -> StartChoices:
        """The choices in ``data`` (saved by :meth:`to_json`), each one the form could
        show; any other value, or none, leaves that field at its default."""
        if not isinstance(data, dict):
            return cls()

        def offered(key: str, items: dict[str, Any]) -> bool:
            return key in data and any(
                data[key] == v and type(data[key]) is type(v) for v in items.values()
            )

        values: dict[str, Any] = {
            key: data[key] for key, items in FORM_MENUS.items() if offered(key, items)
        }
        rules = {key: data[key] for key, items in RULE_MENUS.items() if offered(key, items)}
        values["rules"] = {**_default_rules(), **rules}
        races = data.get("races")
        if isinstance(races, dict):
            values["races"] = {g: r for g, r in races.items() if g in KINDS and _race(r)}
        if _race(data.get("race_to")):
            values["race_to"] = data["race_to"]
        names = data.get("players")
        if isinstance(names, list) and all(isinstance(n, str) for n in names):
            players = tuple(name.strip() for name in names)
            try:  # the names a game would accept, by the game's own rule
                GameSetup(players=players)
                values["players"] = players
            except ValueError:
                pass
        return cls(**values)

    def practice_game(self, seed: int) -> Game:
        """A practice table of the chosen game and table: set up first, referee off (and
        no shot clock: practice is untimed)."""
        setup = self.setup(seed)
        untimed = attrs.evolve(
            setup.options,
            shot_clock_s=None,
            shot_clock_extension_s=None,
            shot_clock_extensions_per_rack=0,
        )
        return Game(attrs.evolve(setup, practice=True, race_to=1, options=untimed))

    def new_game(self, seed: int) -> Game:
        game = Game(self.setup(seed))
        if self.breaker in ("A", "B"):
            game.start(Player(self.breaker))
        return game


class StartScreen:
    """The form; each of its panels (saved games, drills, statistics) is a screen of its
    own that takes the form's place, and gives it back (as the player left it) when
    closed."""

    def __init__(self, app: StartHost, on_start: OnStart) -> None:
        self.app = app
        self.on_start = on_start
        self.opener = Opener(app, on_start, self._say, self.practice_setup)
        self.frame = DirectFrame(
            parent=app.base.aspect2d,
            frameColor=(0.02, 0.05, 0.04, 0.97),
            frameSize=BACKDROP,
        )
        # Laid out for a window at least 4:3 (New game's left edge to Quit's right):
        # drawn smaller on a narrower one, whose aspect2d is 2 across, so none is cut.
        across = 1.0 / app.base.aspect2d.getSx()
        self.frame.setScale(min(1.0, (across - 0.02) / HALF_WIDTH))
        label(self.frame, "poolsim", (0, 0.8), 0.14, GOLD, TextNode.ACenter)
        label(
            self.frame,
            games_line(),
            (0, 0.7),
            0.045,
            DIM,
            TextNode.ACenter,
        )
        self.fields: dict[str, Any] = {}
        self.row_labels: dict[str, OnscreenText] = {}
        # The rows one under another, closer together if a game offers more rule options
        # than fit 0.1 apart: the same places whichever game is chosen.
        rows = len(MENU_ROWS) + 3 + RULE_ROWS
        step = min(0.1, (ROWS_TOP - ROWS_BOTTOM) / (rows - 1))
        y = ROWS_TOP
        for text, key, items in MENU_ROWS:
            self.row_labels[key] = self._label(text, y)
            self.fields[key] = self._menu(list(items), 0.05, y)
            y -= step
        self.race_label = self._label(_race_words(KINDS[DEFAULT_GAME]), y)
        self.fields["race_to"] = self._entry("5", y, width=3)
        # The game whose race the field shows, and the others' as last typed (StartChoices).
        self._race_game = DEFAULT_GAME
        self._races: dict[str, int] = {}
        y -= step
        self._label("Player 1", y)
        self.fields["player_a"] = self._entry("Player 1", y, width=12)
        self.fields["seat_a"] = self._seat_menu(y)
        y -= step
        self._label("Player 2", y)
        self.fields["player_b"] = self._entry("Player 2", y, width=12)
        self.fields["seat_b"] = self._seat_menu(y)
        # The chosen game's rule options, in the rows under the players' (_rows_for_the_game).
        self.rule_rows_y = [y - step * (1 + row) for row in range(RULE_ROWS)]
        for option in RULES:
            self.row_labels[option.name] = self._label(option.label, self.rule_rows_y[0])
            self.fields[option.name] = self._menu(list(option.items), 0.05, self.rule_rows_y[0])
        self.error = label(self.frame, "", (0, ROWS_BOTTOM - 0.13), 0.045, NOTICE, TextNode.ACenter)
        if app.preferences is not None:
            self.fill(StartChoices.remembered(app.preferences.load().get("start")))
        self.buttons = [
            self._button("New game", (-0.92, -0.9), self.start),
            self._button("Resume last game", (-0.27, -0.9), self.resume),
            self._button("Open saved game", (0.43, -0.9), lambda: self._pressed(self.open_saved)),
            self._button("Statistics", (1.0, -0.9), lambda: self._pressed(self.open_statistics)),
        ]
        # The practice table of the game and table chosen above: set up any position.
        self.practice_button = self._button("Practice", (-0.7, -0.9 + 0.16), self.practice)
        # The shipped drills (docs/DRILLS.md), listed with Player 1's best at each.
        self.drills_button = self._button(
            "Drills", (0.72, -0.9 + 0.16), lambda: self._pressed(self.open_drills)
        )
        # Leaving poolsim from its first screen (Esc too);
        # as far right as Statistics, which every window shape shows.
        self.quit_button = self._button("Quit (Esc)", (1.0, 0.86), self.quit)
        if app.autosave is None or not app.autosave.exists():
            self.buttons[1]["state"] = DGG.DISABLED
            self.buttons[1]["text_fg"] = DIM
        # The physics' warm-up, on a row of its own over Practice and Drills (a first
        # run's line is longer than the room between them).
        self.status = label(self.frame, "", (0, -0.645), 0.04, DIM, TextNode.ACenter)
        # Which game Resume brings back, and how far it got, under the button.
        self.resume_detail = label(self.frame, "", (0.0, -0.985), 0.032, DIM, TextNode.ACenter)
        if app.autosave is not None and app.autosave.exists():
            self.resume_detail.setText(resume_detail(summarise(app.autosave.path)))
        self._rows_for: type[GameState] | None = None  # the game the rows were last set for
        app.base.taskMgr.add(self._update, "start-screen")

    # -- building blocks -----------------------------------------------------------------------

    def _label(self, text: str, y: float) -> OnscreenText:
        return label(self.frame, text, (-0.05, y), 0.045, WHITE, TextNode.ARight)

    def _seat_menu(self, y: float) -> OptionMenu:
        """Who plays the seat, beside the name: a person, or the computer at a level."""
        return self._menu(list(SEATS), 0.72, y)

    def _menu(self, items: list[str], x: float, y: float) -> OptionMenu:
        """A drop-down of the form's, its left edge at ``x`` on the row at ``y``."""
        return OptionMenu(
            parent=self.frame,
            items=items,
            pos=(x, 0, y - 0.012),
            scale=0.045,
            frameColor=(0.12, 0.2, 0.16, 1),
            text_fg=WHITE,
            highlightColor=(0.3, 0.5, 0.4, 1),
            item_frameColor=(0.1, 0.16, 0.13, 1),
            item_text_fg=WHITE,
            popupMarker_scale=0.4,
        )

    def _entry(self, text: str, y: float, width: int) -> DirectEntry:
        return entry(self.frame, text, (0.05, y - 0.012), width)

    def _button(
        self, text: str, pos: tuple[float, float], command: Callable[[], None]
    ) -> DirectButton:
        return button(self.frame, text, pos, command, scale=0.055, pad=(0.8, 0.45))

    def _update(self, task: Any) -> int:
        if task.frame >= 2:  # the screen is up (a frame shows as the next one begins):
            load_pooltool_in_background()  # what a table needs loads while the player looks
        self._name_the_breakers()
        self._rows_for_the_game()
        self._race_for_the_game()
        worker = self.app.worker
        if self.app.controller is None:  # no table yet to poll the worker
            worker.poll()
        self.status.setText(physics_status(worker, time.monotonic()) or "physics ready")
        return int(task.cont)

    # -- the form ------------------------------------------------------------------------------

    def _rows_for_the_game(self) -> None:
        """The chosen game's rule options in the rows under the players', in its order;
        the others' hidden and closed (their choices kept for that game)."""
        kind = KINDS[self._chosen_game()]
        if kind is self._rows_for:
            return
        self._rows_for = kind
        offered = kind.rule_options
        for option in RULES:
            row, menu = self.row_labels[option.name], self.fields[option.name]
            menu.enable(option in offered)
            if option not in offered:
                row.hide()
                menu.hide()
                continue
            y = self.rule_rows_y[offered.index(option)]
            row.setTextPos(-0.05, y)
            menu.setZ(y - 0.012)
            row.show()
            menu.show()

    def _chosen_game(self) -> str:
        game: str = list(GAMES.values())[self.fields["game"].selectedIndex]
        return game

    def _race_for_the_game(self) -> None:
        """The race field of the game chosen: what was typed for the game left kept for
        it, the chosen one's as last chosen or its own default (14.1's one game to the
        points, not five); the row says what is raced ("Race to (games)")."""
        game = self._chosen_game()
        if game == self._race_game:
            return
        typed = self.fields["race_to"].get().strip()
        if typed.isdigit() and _race(int(typed)):
            self._races[self._race_game] = int(typed)
        self._race_game = game
        kind = KINDS[game]
        self.fields["race_to"].enterText(str(self._races.get(game, default_race(kind))))
        self.race_label.setText(_race_words(kind))

    def _name_the_breakers(self) -> None:
        """ "Ann breaks" rather than "Player 1 breaks", as the names are typed."""
        names = [
            self.fields[key].get().strip() or default
            for key, default in (("player_a", "Player 1"), ("player_b", "Player 2"))
        ]
        labels = [next(iter(BREAKS)), *(f"{name} breaks" for name in names)]
        menu = self.fields["breaker"]
        if list(menu["items"]) != labels:
            chosen = menu.selectedIndex
            menu["items"] = labels
            menu.set(chosen, fCommand=False)

    def fill(self, choices: StartChoices) -> None:
        """Show ``choices`` in the form."""
        values = choices.to_json()
        for key, items in {**FORM_MENUS, **RULE_MENUS}.items():
            self.fields[key].set(list(items.values()).index(values[key]), fCommand=False)
        self.fields["race_to"].enterText(str(choices.race_to))
        self._races = {**choices.races, choices.game: choices.race_to}
        self._race_game = choices.game
        self.race_label.setText(_race_words(KINDS[choices.game]))
        self.fields["player_a"].enterText(choices.players[0])
        self.fields["player_b"].enterText(choices.players[1])

    def _form(self) -> dict[str, Any]:
        """What the form's fields say, as :meth:`StartChoices.to_json` has it (unchecked)."""
        self._race_for_the_game()  # a game chosen since the last frame: its race
        race = self.fields["race_to"].get().strip()
        names = [self.fields["player_a"].get().strip(), self.fields["player_b"].get().strip()]
        # By position: the breaker's items are relabelled with the players' names.
        picked = {
            key: list(items.values())[self.fields[key].selectedIndex]
            for key, items in {**FORM_MENUS, **RULE_MENUS}.items()
        }
        races = {game: race for game, race in self._races.items() if game != picked["game"]}
        return {
            **picked,
            "race_to": int(race) if race.isdigit() else race,
            "races": races,
            "players": names,
        }

    def choices(self) -> StartChoices:
        form = self._form()
        race = form.pop("race_to")
        if not isinstance(race, int) or not 1 <= race <= MAX_RACE:
            raise ValueError(f"race to: a whole number from 1 to {MAX_RACE}")
        rules = {key: form.pop(key) for key in RULE_MENUS}
        return StartChoices(race_to=race, players=tuple(form.pop("players")), rules=rules, **form)

    def keep(self) -> StartChoices:
        """The form as it is kept, whichever button leaves it (issue 28, friction 15):
        remembered as the player's preferences (a value it cannot take, a race to "abc",
        at its default) and its graphics preset set for the tables to come."""
        choices = StartChoices.remembered(self._form())
        self.app.quality = choices.quality
        if self.app.preferences is not None:
            self.app.preferences.update(start=choices.to_json())
        return choices

    def practice_setup(self) -> GameSetup:
        """The set-up of a practice table of the form's choices as they are kept."""
        return _practice_setup(self.keep())()

    def practice(self) -> None:
        self.start(practice=True)

    def start(self, *, practice: bool = False) -> None:
        import random

        try:
            choices = self.choices()
            seed = random.SystemRandom().randrange(2**63)
            game = choices.practice_game(seed) if practice else choices.new_game(seed)
        except ValueError as error:
            self._say(str(error), NOTICE)
            return
        self.keep()
        computers = choices.computers()
        if pooltool_loaded():
            self.on_start(game, computers=computers)  # its first autosave archives the last
        else:
            self._say("setting up the table...", DIM)
            self.opener.shortly(lambda: self.on_start(game, computers=computers))

    def resume(self) -> None:
        if self.app.autosave is None:
            return
        self.keep()  # the form's changes (the graphics) hold for the game resumed too
        self._say("opening the last game...", DIM)
        self.opener.shortly(self._resume_now)

    def _resume_now(self) -> None:
        from sim.store.gamefile import GameFileError

        assert self.app.autosave is not None
        try:
            game = self.app.autosave.resume()
        except GameFileError as error:
            self._say(str(error), NOTICE)
            return
        self.on_start(game, resumed=True)

    def _say(self, text: str, colour: tuple[float, ...]) -> None:
        """A line on the form."""
        self.error.setFg(colour)
        self.error.setText(text)

    def open_saved(self) -> SavedGamesScreen:
        """The saved games, in the form's place: the player's games, newest first, or any
        file by path (a game, a position, a drill)."""
        screen = SavedGamesScreen(self.app, self.on_start, _practice_setup(self.keep()))
        self._open_panel(screen)
        return screen

    def _player(self) -> str:
        return self.fields["player_a"].get().strip() or "Player 1"

    def open_drills(self) -> DrillsScreen | None:
        """The drills' list, in the form's place: each drill with Player 1's best; a
        click opens one (None: the drills could not be read, as the form says)."""
        from sim.store.drillfile import DrillFileError, shipped_drills

        try:
            drills = shipped_drills()
        except DrillFileError as error:
            self._say(str(error), NOTICE)
            return None
        practice = _practice_setup(self.keep())
        screen = DrillsScreen(self.app, self.on_start, practice, drills, self._player())
        self._open_panel(screen)
        return screen

    def _pressed(self, panel: Callable[[], object]) -> None:
        """A button that opens a panel (the screen it returns is the script's)."""
        panel()

    def open_statistics(self, player: str | None = None) -> StatisticsScreen:
        """The statistics, in the form's place, at ``player``'s figures (default: the
        first player's)."""
        screen = StatisticsScreen(self.app, player)
        self._open_panel(screen)
        return screen

    def _open_panel(self, screen: Screen) -> None:
        """``screen`` in the form's place, the form kept as the player left it."""
        self.keep()
        self.app.modes.close()  # the form goes (its widgets destroyed)
        self.app.modes.open(screen)

    def quit(self) -> None:
        self.keep()
        self.app.quit()

    def destroy(self) -> None:
        self.app.base.taskMgr.remove("start-screen")
        self.opener.cancel()
        self.frame.destroy()


def _practice_setup(choices: StartChoices) -> Callable[[], GameSetup]:
    """The set-up of a practice table of ``choices`` (a new seed each time), for a panel
    that opens one in the form's place (the form gone)."""

    def setup() -> GameSetup:
        import random

        return choices.practice_game(random.SystemRandom().randrange(2**63)).setup

    return setup
