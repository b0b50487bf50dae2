"""What a flag's value may be: click's parameter types for the ``poolsim`` commands, each
refusing a bad value in one line that repeats it (shortened)."""

from __future__ import annotations

import math
from typing import Any

import click

from rules.reading import shown_text
from sim import sizes
from sim.limits import MAX_SEED, SKILL_LEVELS

MAX_SHOWN = 40  # characters of a bad value an error repeats


def shown(value: object) -> str:
    """A bad value as an error line repeats it: quoted, as
    :func:`~rules.reading.shown_text` shows a user's text."""
    return f"'{shown_text(str(value), MAX_SHOWN)}'"


def _label(param: click.Parameter | None) -> str:
    """What an error calls a flag's value: ``shot clock`` for --shot-clock."""
    return param.name.replace("_", " ") if param is not None and param.name else "the value"


class FiniteFloat(click.ParamType):  # type: ignore[type-arg]
    """A number that is one: click's FloatRange lets NaN through (every comparison with
    it is false), and infinities are no speed, angle or time. Optionally within
    [low, high]; the flags whose range a model checks (the cue's speed) leave it to it."""

    name = "NUMBER"

    def __init__(self, low: float | None = None, high: float | None = None) -> None:
        self.low, self.high = low, high

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        label = _label(param)
        if isinstance(value, bool):
            self.fail(f"{label} must be a number, got {value!r}", param, ctx)
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            self.fail(f"{label} must be a number, got {shown(value)}", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{label} must be a finite number, got {shown(value)}", param, ctx)
        low = -math.inf if self.low is None else self.low
        high = math.inf if self.high is None else self.high
        if not low <= number <= high:
            self.fail(f"{label} must be from {low:g} to {high:g}, got {number:g}", param, ctx)
        return number


class WholeNumber(click.ParamType):  # type: ignore[type-arg]
    """A whole number from ``low`` to ``high``, read from at most a few dozen digits
    (Python refuses to read over 4,300, and a line quoting them is no error message)."""

    name = "INTEGER"

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        label = _label(param)
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            digits = text.removeprefix("-").removeprefix("+")
            if not (digits.isascii() and digits.isdigit()):
                self.fail(
                    f"{shown(value)} is not a valid integer "
                    f"({label}: a whole number from {self.low} to {self.high})",
                    param,
                    ctx,
                )
            if len(digits) > len(str(self.high)):
                self.fail(
                    f"{label} must be a whole number from {self.low} to {self.high}, "
                    f"got {shown(value)}",
                    param,
                    ctx,
                )
            number = int(text)
        if not self.low <= number <= self.high:
            self.fail(
                f"{label} must be a whole number from {self.low} to {self.high}, got {number}",
                param,
                ctx,
            )
        return number


SEED = WholeNumber(0, MAX_SEED)  # the seeds GameSetup takes, for every --seed


class ComputerSeat(click.ParamType):  # type: ignore[type-arg]
    """A seat and the computer's level for it: "A:5", "B:perfect"."""

    name = "SEAT:LEVEL"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> tuple[str, str]:
        if isinstance(value, tuple):
            return value  # already converted (a default)
        seat, _, level = str(value).partition(":")
        if seat.strip().upper() not in ("A", "B") or level.strip() not in SKILL_LEVELS:
            self.fail(
                f"expected SEAT:LEVEL, a seat A or B and a level of "
                f"{', '.join(SKILL_LEVELS)} (A:5, B:perfect), got {shown(value)}",
                param,
                ctx,
            )
        return seat.strip().upper(), level.strip()


class OneLineChoice(click.Choice):  # type: ignore[type-arg]
    """click's choice, saying a missing one on one line (click lists them a line each)."""

    def get_missing_message(self, param: click.Parameter, ctx: click.Context | None) -> str:
        return f"Choose from {', '.join(map(str, self.choices))}"


LEVEL = OneLineChoice(SKILL_LEVELS)


class WindowSize(click.ParamType):  # type: ignore[type-arg]
    """WIDTHxHEIGHT. A type, not a callback: click converts defaults through types, also
    when ``poolsim`` alone invokes ``play`` with its defaults."""

    name = "WIDTHxHEIGHT"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> tuple[int, int]:
        if isinstance(value, tuple):
            return value
        try:
            width, height = sizes.parse_size(str(value))
        except ValueError:
            self.fail(f"expected WIDTHxHEIGHT, got {value!r}", param, ctx)
        if not (320 <= width <= 7680 and 200 <= height <= 4320):
            self.fail(f"{width}x{height} is outside 320x200 .. 7680x4320", param, ctx)
        return (width, height)
