"""The games, looked up by the names the scenario format and game files use.

Each game is a :class:`~rules.state.GameState` subclass that says what kind of game it is
in class attributes (``game``, ``display_name``, ``calls_shots``, ``has_push_out``,
``keeps_score``, ``rack_pattern``, ``rule_options``), as python-chess's variants do;
code outside ``rules`` asks the class rather than comparing names.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.eight_ball import EightBall
from rules.nine_ball import NineBall
from rules.offered import RuleOption
from rules.rotation import Rotation
from rules.state import GameState
from rules.straight_pool import StraightPool
from rules.ten_ball import TenBall

GAMES: Mapping[str, type[GameState]] = {
    kind.game: kind for kind in (TenBall, NineBall, EightBall, Rotation, StraightPool)
}

#: The games the floors above offer (the window's start form, the commands' ``--game``, the
#: practice table's racks, the bench): those a ``playable`` class says they can play.
PLAYABLE_GAMES: Mapping[str, type[GameState]] = {
    name: kind for name, kind in GAMES.items() if kind.playable
}

#: The game a new match, a bench or a command plays when none is named: the floors above
#: name this rather than a game class (WPA's professional game, poolsim's first).
DEFAULT_GAME: str = TenBall.game


def fullest_rack() -> type[GameState]:
    """The game whose rack has the most balls (the first such in :data:`GAMES`): the
    busiest break to simulate or draw, for a warm-up or a bench."""
    return max(GAMES.values(), key=lambda kind: len(kind.object_balls))


def game_kind(name: str) -> type[GameState]:
    """The game called ``name`` (``"ten-ball"``, ``"nine-ball"``, ``"eight-ball"``,
    ``"rotation"``, ``"straight-pool"``);
    ValueError otherwise."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r} (known: {', '.join(GAMES)})") from None


def offered_options() -> tuple[RuleOption, ...]:
    """Every option a game offers a player (``GameState.rule_options``), each once, in the
    order of the games and of each game's rows: the start screen's rows, the command
    line's rule flags."""
    return tuple(dict.fromkeys(option for kind in GAMES.values() for option in kind.rule_options))


def games_offering(option: RuleOption) -> tuple[type[GameState], ...]:
    """The games that offer ``option``."""
    return tuple(kind for kind in GAMES.values() if option in kind.rule_options)
