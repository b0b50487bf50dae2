"""A shot's marks from its skill loss (docs/REVIEW.md): its tag, as chess engines tag a
move by the fall of the win chance, and its accuracy, Lichess's per-move formula."""

from __future__ import annotations

import math
from enum import StrEnum


class Tag(StrEnum):
    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


# The most skill loss each tag takes, in points of the chance of winning the rack (a
# loss of 0.04 is 4 points); more than the last is a blunder.
TAG_LIMITS: tuple[tuple[Tag, float], ...] = (
    (Tag.BEST, 1.0),
    (Tag.GOOD, 4.0),
    (Tag.INACCURACY, 10.0),
    (Tag.MISTAKE, 20.0),
)
# Lichess's per-move accuracy: a * exp(-k * points) + c, kept within 0..100.
ACCURACY_SCALE = 103.1668
ACCURACY_FALL = 0.04354
ACCURACY_SHIFT = -3.1669


def points(loss: float) -> float:
    """A loss in points of a percent (0.04: 4 points)."""
    return 100.0 * loss


def tag_of(loss: float) -> Tag:
    """The tag of a skill loss (a fraction of the chance of winning the rack)."""
    for tag, limit in TAG_LIMITS:
        if points(loss) <= limit + 1e-9:
            return tag
    return Tag.BLUNDER


def accuracy(loss: float) -> float:
    """A shot's accuracy in percent from its skill loss: 100 at 0, about 80 at 4 points,
    64 at 10, 40 at 20."""
    value = ACCURACY_SCALE * math.exp(-ACCURACY_FALL * points(max(0.0, loss))) + ACCURACY_SHIFT
    return min(100.0, max(0.0, value))
