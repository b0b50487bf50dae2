"""The games by the names the scenario format uses."""

from __future__ import annotations

from collections.abc import Mapping

from rules.rotation import Rotation
from rules.state import GameState
from rules.ten_ball import TenBall

GAMES: Mapping[str, type[GameState]] = {TenBall.game: TenBall, Rotation.game: Rotation}
