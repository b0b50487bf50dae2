"""A game's own part of a ruling: what only that game decides, as a typed value.

The shared :class:`~rules.ruling.Ruling` carries what every game decides (who shoots next,
fouls, ball in hand, spots). What one game alone decides (8-ball's groups, 14.1's run and
re-rack) is a :class:`RulingExtras` subclass the game names in its class attribute
``extras_type``; it writes and reads its own JSON, as python-chess's ``ThreeCheckBoard``
writes its own EPD fields, so the game file and the floors above never name a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

import attrs


@attrs.frozen
class RulingExtras:
    """Base of a game's own ruling fields. Subclasses are attrs frozen classes."""

    def to_json(self, ruling: Any) -> dict[str, Any]:
        """The fields in JSON types, merged into the ruling's object in a game file;
        ``ruling`` is the :class:`~rules.ruling.Ruling` they belong to, for fields derived
        from it (typed ``Any``: the ruling carries its extras, so naming its class here
        would make the two modules import each other)."""
        raise NotImplementedError

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The fields back from the ruling's JSON object (keys it does not know ignored)."""
        raise NotImplementedError
