"""Reading untrusted documents strictly: the pieces the strict readers share.

Four readers take data from outside: scenario files (:mod:`rules.scenarios`), shot events
(:func:`rules.facts.facts_from_json`), game files (``sim.store.gamefile``) and pooltool's
msgpack systems (``sim.physics.systemcodec``). Each refuses anything its format does not
define with one line naming the place in the document (``records[3].action.speed``,
``shot.events[2].ball``) and saying what is wrong. The words are each reader's own (users
and tests read them, so a reader keeps its wording); what is shared lives here:

- places: :func:`at` a key of an object, :func:`item` an element of a list (``""`` is the
  document itself);
- a user's text in an error: :func:`shown_text`, the one function every piece of it goes
  through (a key by :func:`at`, a value by the readers' ``shown``, a flag's value by the
  command line), so none can clear the terminal, split the line or fill the screen;
- keys: the first unknown and the first missing key of an object, and
  :func:`check_keys`, which refuses either in the reader's words;
- values: what a number is (an int or a float but never true or false, which JSON and
  Python both let pass as numbers), a finite one, a whole one;
- JSON text: :func:`whole_number`, the ``parse_int`` that refuses an integer too long
  to be any value of these formats;
- builders: :func:`converted` runs a builder on a value and turns what it raises into a
  :class:`~rules.errors.FormatError` at the value's place, in one line (:func:`one_line`);
- :class:`Reader`: an object of the document at its place, read key by key.

Hand-written, not cattrs: a cattrs converter builds typed objects from a declared
structure, but these formats are checked by rules that are not types (an event's keys
depend on its type, a ruling must be the referee's, a history's times must never go
back), their messages name places in the document's own spelling (cattrs reports an
exception group with its own notes), and the hot path must stay fast. Measured on the
144 shots of ``poolsim bench``'s self-played 10-rack match: the hand-written msgpack
reader reads every system in 0.13 s; pooltool's own cattrs converter takes 0.20 s while
checking far less (unknown keys pass, numbers may be NaN, and msgpack-numpy would
unpickle an object array), and strict cattrs hooks for every field would only add to
that. Loading the whole game file (re-ruling every shot) takes 0.25 s.

Pure: no pooltool, numpy or clock (this is ``rules``); the msgpack specifics (exact types,
arrays as maps of bytes) stay with the msgpack reader.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Iterable, Mapping
from typing import Any, Self, TypeVar

from rules.errors import FormatError

T = TypeVar("T")

# -- a user's text in an error ----------------------------------------------------------

MAX_SHOWN = 60  # characters of a user's text an error repeats


def shown_text(text: str, limit: int = MAX_SHOWN) -> str:
    """A piece of a user's text (a key, a value, a name) as an error line repeats it:
    every character that is not printable (ESC, a newline, a NUL, U+2028) escaped as
    Python writes it, so the text can neither clear the terminal nor split the line; cut
    after ``limit`` characters, its length said. Printable text is unchanged, and text
    shown once is shown the same again."""
    head = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[:limit])
    return head if len(text) <= limit else f"{head}... ({len(text):,} characters)"


# -- places ------------------------------------------------------------------------------


def at(where: str, key: str) -> str:
    """The place of ``key`` in the object at ``where`` (``""``: the document itself); the
    key, which may come from the document, as :func:`shown_text` shows it."""
    key = shown_text(key)
    return f"{where}.{key}" if where else key


def item(where: str, index: int) -> str:
    """The place of element ``index`` of the list at ``where``."""
    return f"{where}[{index}]"


# -- keys --------------------------------------------------------------------------------


def unknown_key(data: Mapping[Any, Any], allowed: Container[Any]) -> Any | None:
    """The first key of ``data``, in the document's order, that is not ``allowed``."""
    for key in data:
        if key not in allowed:
            return key
    return None


def missing_key(data: Mapping[Any, Any], required: Iterable[str]) -> str | None:
    """The first key of ``required`` that ``data`` lacks: in ``required``'s order, or
    alphabetically when it is a set (so the same file always gets the same line)."""
    keys = sorted(required) if isinstance(required, set | frozenset) else required
    for key in keys:
        if key not in data:
            return key
    return None


def check_keys(
    data: Mapping[str, Any],
    where: str,
    allowed: Container[str],
    required: Iterable[str],
    *,
    unknown: str = "unknown key",
    missing: str = "missing",
    error: type[FormatError] = FormatError,
) -> None:
    """``error`` (a :class:`FormatError`) at the first unknown key of the object at
    ``where`` (the problem: ``unknown``), else at the first missing one (``missing``)."""
    name = unknown_key(data, allowed)
    if name is not None:
        raise error(at(where, name), unknown)
    name = missing_key(data, required)
    if name is not None:
        raise error(at(where, name), missing)


# -- values ------------------------------------------------------------------------------


def is_number(value: Any) -> bool:
    """An int or a float; true and false are not numbers (though Python's bool is an int)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_finite_number(value: Any) -> bool:
    """A number that is neither NaN nor infinite (JSON has neither; Python's reads both)."""
    return is_number(value) and math.isfinite(value)


def is_whole(value: Any) -> bool:
    """A whole number (an int, not true or false)."""
    return isinstance(value, int) and not isinstance(value, bool)


# -- JSON text -------------------------------------------------------------------------

# The longest whole number a document read here may hold: 2^63 (a seed) has 19 digits.
MAX_DIGITS = 40


def whole_number(text: str) -> int:
    """``json.loads``'s ``parse_int``: the integer of ``text``, or a ValueError in plain
    words when it has more than :data:`MAX_DIGITS` digits. Python itself refuses only past
    4,300 digits, with advice for programmers, after quadratic work on the way there."""
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise ValueError(
            f"a whole number of {digits} digits (no value here has more than {MAX_DIGITS})"
        )
    return int(text)


# -- builders ----------------------------------------------------------------------------


def converted(where: str, value: Any, make: Callable[[Any], T]) -> T:
    """``make(value)``; what it raises, as a :class:`FormatError` at ``where``: a
    FormatError's own place is put under ``where``, a ValueError, TypeError or KeyError
    (a builder refusing the value) becomes its first line."""
    try:
        return make(value)
    except FormatError as error:
        raise error.under(where) from None
    except (ValueError, TypeError, KeyError) as error:
        raise FormatError(where, one_line(error)) from None


def one_line(error: Exception, limit: int = 300) -> str:
    """An exception's message as one line of at most ``limit`` characters (its type's
    name when it has none)."""
    text = str(error).strip()
    return (text.splitlines()[0] if text else type(error).__name__)[:limit]


# -- objects -----------------------------------------------------------------------------


class Reader:
    """An object of the document at its place (``where``), read strictly: unknown keys,
    missing keys and values of the wrong kind raise :class:`FormatError` naming the place.

    A reader words its refusals by subclassing: :meth:`show` (how a refused value is
    shown: its kind here), :attr:`missing` (the problem of a missing key). ``document``
    is the place named when the document itself (``where`` is ``""``) is no object."""

    __slots__ = ("data", "where")
    missing = "missing"

    def __init__(self, data: Any, where: str, document: str = "the document") -> None:
        if not isinstance(data, dict):
            raise FormatError(where or document, f"expected an object, got {self.show(data)}")
        self.data: dict[str, Any] = data
        self.where = where

    @staticmethod
    def show(value: Any) -> str:
        """A refused value in a message: its JSON kind (``null``, ``str``, ``list``...)."""
        return "null" if value is None else type(value).__name__

    def keys(self, required: Iterable[str], optional: Container[str] = frozenset()) -> Self:
        """Refuse a key that is neither required nor optional, then a missing one."""
        required = frozenset(required)
        name = unknown_key(self.data, _Either(required, optional))
        if name is not None:
            raise FormatError(self.at(name), "unknown key")
        name = missing_key(self.data, required)
        if name is not None:
            raise FormatError(self.at(name), self.missing)
        return self

    def at(self, key: str) -> str:
        return at(self.where, key)

    def get(self, key: str, kind: type[T] | tuple[type, ...]) -> T:
        """The value of ``key``, of ``kind`` (a number: finite, never true or false)."""
        value = self.data.get(key)
        if isinstance(value, bool) and kind in (int, float, (int, float)):
            raise FormatError(self.at(key), f"expected a number, got {value!r}")
        if not isinstance(value, kind):
            raise FormatError(self.at(key), f"expected {_name(kind)}, got {self.show(value)}")
        if isinstance(value, float) and not math.isfinite(value):
            raise FormatError(self.at(key), f"not a finite number: {value!r}")
        return value  # type: ignore[return-value]

    def optional(self, key: str, kind: type[T]) -> T | None:
        """:meth:`get`, or None when the key is absent or null."""
        return None if self.data.get(key) is None else self.get(key, kind)

    def sub(self, key: str) -> Self:
        """The object under ``key``, read the same way."""
        return type(self)(self.data.get(key), self.at(key))

    def convert(self, key: str, make: Callable[[Any], T]) -> T:
        """``make`` of the value of ``key``, its errors at the key's place (:func:`converted`)."""
        return converted(self.at(key), self.data.get(key), make)


class _Either:
    """Membership in either of two collections, without building their union."""

    __slots__ = ("first", "second")

    def __init__(self, first: Container[str], second: Container[str]) -> None:
        self.first, self.second = first, second

    def __contains__(self, key: object) -> bool:
        return key in self.first or key in self.second


_NAMES: dict[Any, str] = {
    str: "a string",
    int: "a whole number",
    bool: "true or false",
    list: "a list",
    dict: "an object",
    (int, float): "a number",
    float: "a number",
}


def _name(kind: Any) -> str:
    return _NAMES.get(kind, str(kind))
