"""The referee speaks of players A and B; people read their names."""

from __future__ import annotations

import re

# A lone capital A or B is a player (the referee's sentences start in lower case);
# a rule ID such as B-3 is not.
_PLAYER = re.compile(r"(?<![\w-])([AB])(?![\w-])")


def with_names(text: str, names: tuple[str, str]) -> str:
    """``text`` with A and B replaced by the players' names (A's first)."""
    text = text.replace("(A-B)", f"({names[0]}-{names[1]})")
    return _PLAYER.sub(lambda m: names[0] if m.group(1) == "A" else names[1], text)
