"""A game's own part of a ruling: what only that game decides, as a typed value.

The shared :class:`~rules.ruling.Ruling` carries what every game decides (who shoots next,
fouls, ball in hand, spots). What one game alone decides (8-ball's groups, 14.1's run and
re-rack) is a :class:`RulingExtras` subclass the game names in its class attribute
``extras_type``; it writes and reads its own JSON, as python-chess's ``ThreeCheckBoard``
writes its own EPD fields, so the game file and the floors above never name a game.

The class itself is written beside :class:`~rules.ruling.Ruling`, whose field it types and
whose ``to_json`` takes a ruling: each in a module of its own, the two would import each
other.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from rules.ruling import RulingExtras

__all__ = ["ExpectedValue", "RulingExtras"]


@runtime_checkable
class ExpectedValue(Protocol):
    """A game's own value in a scenario's ``expect`` (8-ball's groups, 14.1's racking),
    which the conformance runner matches and shows without knowing the game."""

    def to_json(self) -> Any:
        """The value as the scenario file writes it."""
        ...

    def matches(self, got: Any, tolerance: float) -> bool:
        """The ruling's value ``got`` meets this expectation (points to ``tolerance`` m)."""
        ...
