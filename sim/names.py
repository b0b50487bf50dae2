"""The referee speaks of players A and B; people read their names."""

from __future__ import annotations

import re
from collections.abc import Mapping

from rules import Player

# A lone capital A or B is a player (the referee's sentences start in lower case);
# a rule ID such as B-3 is not.
_PLAYER = re.compile(r"(?<![\w-])([AB])(?![\w-])")


def with_names(text: str, names: tuple[str, str]) -> str:
    """``text`` with A and B replaced by the players' names (A's first)."""
    text = text.replace("(A-B)", f"({names[0]}-{names[1]})")
    return _PLAYER.sub(lambda m: names[0] if m.group(1) == "A" else names[1], text)


def computer_name(level: str, seat: Player | None = None) -> str:
    """The computer at ``level`` as players read it: "Computer (level 5)", "Computer
    (perfect)"; with ``seat``, "Computer B (level 5)" (two of the same level at a table)."""
    return f"Computer{f' {seat.value}' if seat is not None else ''} ({strength(level)})"


def strength(level: str) -> str:
    """A computer's level in words: "level 5", "perfect"."""
    return "perfect" if level == "perfect" else f"level {level}"


def computer_seat_name(name: str, level: str, index: int) -> str:
    """A computer's seat as the table names it: its name with its level when the player
    named it ("Bob (level 5)": the referee's lines say "Bob", so the scoreboard and the
    thinking line do too), "Computer (level 5)" when it has a default name."""
    if name.startswith("Computer"):  # named so on the start screen
        return name
    if _default_name(name, index):
        return computer_name(level)
    return f"{name} ({strength(level)})"


def seat_names(players: tuple[str, str], computers: Mapping[Player, str]) -> tuple[str, str]:
    """The players' names with a computer's seat left at its default name ("Player 2", or
    empty) named for what it is ("Computer (level 5)"), so the referee's lines, the
    scoreboard and the statistics all say so; two computers of one level by their seat."""
    names = list(players)
    alike = len(computers) == 2 and len(set(computers.values())) == 1
    for index, player in enumerate(Player):
        level = computers.get(player)
        if level is not None and _default_name(names[index], index):
            names[index] = computer_name(level, player if alike else None)
    return names[0], names[1]


def _default_name(name: str, index: int) -> bool:
    """Whether ``name`` is the seat's default ("Player 2", or empty): not a player's own."""
    return name.strip() in (f"Player {index + 1}", "")
