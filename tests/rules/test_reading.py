"""The strict readers' shared pieces: places, key checks, numbers, builders' errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.errors import FormatError
from rules.reading import (
    Reader,
    at,
    check_keys,
    converted,
    is_finite_number,
    is_number,
    is_whole,
    item,
    missing_key,
    one_line,
    unknown_key,
)


def test_places() -> None:
    assert at("", "setup") == "setup"
    assert at("records[3]", "action") == "records[3].action"
    assert item("events", 2) == "events[2]"
    assert at(item("shot.events", 0), "ball") == "shot.events[0].ball"


def test_the_first_unknown_key_in_the_documents_order() -> None:
    assert unknown_key({"a": 1, "zz": 2, "b": 3, "yy": 4}, {"a", "b"}) == "zz"
    assert unknown_key({"a": 1}, {"a", "b"}) is None


def test_the_first_missing_key_in_the_given_order_or_alphabetically() -> None:
    assert missing_key({}, ["b", "a"]) == "b"
    assert missing_key({}, {"b", "c", "a"}) == "a"
    assert missing_key({"a": 1}, frozenset({"a"})) is None


def test_check_keys_in_the_readers_words() -> None:
    with pytest.raises(FormatError) as caught:
        check_keys({"x": 1}, "before", ["a"], [])
    assert (caught.value.key, caught.value.problem) == ("before.x", "unknown key")
    with pytest.raises(FormatError) as caught:
        check_keys({}, "", ["a"], ["a"], missing="missing required key")
    assert str(caught.value) == "a: missing required key"

    class Special(FormatError):
        pass

    with pytest.raises(Special, match=r"^ball: missing in a 'rail' event$"):
        check_keys({}, "", ["ball"], ["ball"], missing="missing in a 'rail' event", error=Special)


@pytest.mark.parametrize(
    ("value", "number", "finite", "whole"),
    [
        (1, True, True, True),
        (1.5, True, True, False),
        (True, False, False, False),
        (float("nan"), True, False, False),
        (float("inf"), True, False, False),
        ("1", False, False, False),
        (None, False, False, False),
    ],
)
def test_numbers(value: Any, number: bool, finite: bool, whole: bool) -> None:
    assert (is_number(value), is_finite_number(value), is_whole(value)) == (number, finite, whole)


def test_converted_puts_a_builders_error_at_the_place() -> None:
    def refuse(_value: Any) -> None:
        raise ValueError("no good\nsecond line")

    def nested(_value: Any) -> None:
        raise FormatError("speed", "expected a number")

    with pytest.raises(FormatError, match=r"^records\[1\]\.action: no good$"):
        converted("records[1].action", None, refuse)
    with pytest.raises(FormatError, match=r"^records\[1\]\.action\.speed: expected a number$"):
        converted("records[1].action", None, nested)
    assert converted("x", "3", int) == 3


def test_one_line() -> None:
    assert one_line(ValueError("a\nb")) == "a"
    assert one_line(KeyError()) == "KeyError"
    assert one_line(ValueError("x" * 500)) == "x" * 300


def test_reader_refuses_in_the_documents_place() -> None:
    with pytest.raises(FormatError, match=r"^game\.json: expected an object, got list$"):
        Reader([], "", "game.json")
    reader = Reader({"a": 1, "b": True, "c": float("nan"), "d": "x"}, "setup")
    assert reader.get("a", int) == 1
    with pytest.raises(FormatError, match=r"^setup\.b: expected a number, got True$"):
        reader.get("b", int)
    with pytest.raises(FormatError, match=r"^setup\.c: not a finite number: nan$"):
        reader.get("c", float)
    with pytest.raises(FormatError, match=r"^setup\.d: expected a whole number, got str$"):
        reader.get("d", int)
    with pytest.raises(FormatError, match=r"^setup\.e: expected an object, got null$"):
        reader.sub("e")
    assert reader.optional("e", int) is None
    with pytest.raises(FormatError, match=r"^setup\.d: unknown key$"):
        reader.keys({"a", "b"}, frozenset({"c"}))
    with pytest.raises(FormatError, match=r"^setup\.e: missing$"):
        reader.keys({"a", "b", "c", "d", "e"})


def test_a_reader_words_its_refusals_by_subclassing() -> None:
    class Scenario(Reader):
        __slots__ = ()
        missing = "missing required key"

        @staticmethod
        def show(value: Any) -> str:
            return json.dumps(value)

    with pytest.raises(FormatError, match=r"^before: expected an object, got \[1\]$"):
        Scenario([1], "before")
    reader = Scenario({"sub": {}}, "")
    assert isinstance(reader.sub("sub"), Scenario)
    with pytest.raises(FormatError, match=r"^id: missing required key$"):
        reader.keys({"sub", "id"})
