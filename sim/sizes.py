"""Picture sizes as people write them: ``1280x720`` (``X`` too, spaces around allowed).

One reading for every place that takes one (the window's ``--size``, the export's
``--size``, the frame-time probe); each caller keeps its own limits, since a window, a
video and a probe need different ones."""

from __future__ import annotations

import re

_SIZE = re.compile(r"\s*(\d+)\s*[xX]\s*(\d+)\s*")


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` -> ``(1280, 720)``; ValueError for anything but two whole numbers
    joined by an x."""
    match = _SIZE.fullmatch(text)
    try:
        if match is None:
            raise ValueError
        return int(match[1]), int(match[2])
    except ValueError:  # also a number too long for int() to read
        raise ValueError(f"expected WIDTHxHEIGHT, like 1280x720; got {text!r}") from None
