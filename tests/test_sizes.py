"""The one reading of WIDTHxHEIGHT sizes."""

from __future__ import annotations

import pytest

from sim.sizes import parse_size


@pytest.mark.parametrize(
    ("text", "size"),
    [("1280x720", (1280, 720)), ("1280X800", (1280, 800)), (" 1920 x 1080 ", (1920, 1080))],
)
def test_parse_size(text: str, size: tuple[int, int]) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["1280", "1280x", "x720", "-1280x720", "1280.5x720", "12xx", ""])
def test_parse_size_refuses_what_is_not_a_size(text: str) -> None:
    with pytest.raises(ValueError, match="expected WIDTHxHEIGHT"):
        parse_size(text)


def test_parse_size_refuses_a_number_too_long_to_read() -> None:
    with pytest.raises(ValueError, match="expected WIDTHxHEIGHT"):
        parse_size("9" * 5000 + "x720")
