"""The rule options a player chooses before a match, each saying what it is: the
:class:`~rules.options.Options` field it sets, a short label (the start screen's row), a
help line and the command line's flag, and the values offered in words.

A game lists the ones it offers in ``GameState.rule_options``, as python-chess's variants
say everything about themselves: the start screen shows a game's rows, and the command
line refuses another game's flags, by asking the game (``rules.games.offered_options``
gathers them). A new game's options are declared in ``rules/`` alone: an option of one
game beside its class, an option several games share here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from rules.options import SHOT_CLOCK_S, Options


def _one_field(name: str) -> Callable[[Any], Mapping[str, Any]]:
    return lambda value: {name: value}


@attrs.frozen(kw_only=True)
class RuleOption:
    """One option a player chooses, as the start screen and the command line show it.

    ``name``: the :class:`~rules.options.Options` field it sets (and its key in the start
    screen's remembered choices); ``flag``: the command line's flag (``--early-ten``);
    ``label``: its row on the start screen; ``help``: the flag's help line, which the
    command line begins with the games that offer it; ``choices``: the values offered, each
    with its words on the start screen; ``numbers``: for an option of any number within
    (lowest, highest), which the flag takes (the start screen offers ``choices`` of them);
    ``sets``: the fields one value sets, when it sets more than its own (a shot clock's
    extension goes with it)."""

    name: str
    flag: str
    label: str
    help: str
    choices: tuple[tuple[str, Any], ...]
    numbers: tuple[float, float] | None = None
    sets: Callable[[Any], Mapping[str, Any]] | None = attrs.field(default=None, eq=False)

    def __attrs_post_init__(self) -> None:
        if self.default not in self.values:
            raise ValueError(f"{self.name}: the default {self.default!r} is not offered")

    @property
    def default(self) -> Any:
        """The value when none is chosen: the field's default (REFERENCE.md's)."""
        return attrs.fields_dict(Options)[self.name].default

    @property
    def values(self) -> tuple[Any, ...]:
        """The values offered, in the order the start screen lists them."""
        return tuple(value for _, value in self.choices)

    @property
    def items(self) -> dict[str, Any]:
        """The start screen's drop-down: each value's words -> the value."""
        return dict(self.choices)

    def fields(self, value: Any) -> Mapping[str, Any]:
        """The :class:`~rules.options.Options` fields ``value`` sets, for
        :meth:`Options.from_mapping <rules.options.Options.from_mapping>`."""
        return (self.sets or _one_field(self.name))(value)


def chosen_fields(offered: Iterable[RuleOption], values: Mapping[str, Any]) -> dict[str, Any]:
    """The :class:`~rules.options.Options` fields of the ``offered`` options (a game's
    ``rule_options``) at ``values`` (by option name; one not there at its default)."""
    return {
        field: value
        for option in offered
        for field, value in option.fields(values.get(option.name, option.default)).items()
    }


def shot_clock_fields(seconds: float | None) -> dict[str, float | int | None]:
    """A shot clock of ``seconds`` with one extension of as long again per rack (B-18,
    as WPA events run it); no clock at all for None."""
    if seconds is None:
        return {"shot_clock_s": None}
    return {
        "shot_clock_s": seconds,
        "shot_clock_extension_s": seconds,
        "shot_clock_extensions_per_rack": 1,
    }


# B-10: the games whose shots are called offer the "obvious" shot without a call.
CALL_MODE = RuleOption(
    name="call_mode",
    flag="--call-mode",
    label="Calls",
    help="Call every shot, or obvious shots need no call.",
    choices=(("Call every shot", "explicit"), ("Obvious shots need no call", "infer_obvious")),
)

# B-18 (GEN-17): every game may be played on the clock.
SHOT_CLOCK = RuleOption(
    name="shot_clock_s",
    flag="--shot-clock",
    label="Shot clock",
    help="Shot clock in seconds (default off).",
    choices=(("Off", None), ("35 seconds", 35.0), ("60 seconds", 60.0)),
    numbers=SHOT_CLOCK_S,
    sets=shot_clock_fields,
)
