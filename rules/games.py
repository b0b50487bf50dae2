"""The games, looked up by the names the scenario format and game files use.

Each game is a :class:`~rules.state.GameState` subclass that says what kind of game it is
in class attributes (``game``, ``display_name``, ``calls_shots``, ``has_push_out``,
``keeps_score``, ``rack_pattern``), as python-chess's variants do; code outside
``rules`` asks the class rather than comparing names.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.eight_ball import EightBall
from rules.nine_ball import NineBall
from rules.rotation import Rotation
from rules.state import GameState
from rules.ten_ball import TenBall

GAMES: Mapping[str, type[GameState]] = {
    kind.game: kind for kind in (TenBall, NineBall, EightBall, Rotation)
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
    ``"rotation"``);
    ValueError otherwise."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r} (known: {', '.join(GAMES)})") from None
