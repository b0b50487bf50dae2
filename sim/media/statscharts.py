"""A player's statistics in pictures, drawn with Pillow for the window's statistics
screen: pot percentage by cut angle (bars), where the cue ball stopped after the pots
made (a heat map on a small drawing of the table, the head rail on the left), and the
pot percentage match by match (a line), with the accuracy of each reviewed match beside
it (a line of its own colour, issue 33).

The figures come in plain (numbers, points), so this module knows nothing of the
statistics database: the window hands them over.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import attrs
from PIL import Image, ImageDraw, ImageFont

from rules.geometry import Point

BACKGROUND = (12, 22, 18)
INK = (235, 235, 228)
DIM = (160, 168, 160)
GOLD = (255, 209, 77)
CLOTH = (22, 88, 58)
RAIL = (70, 42, 24)
HEAT = (255, 120, 40)
ACCURACY = (90, 200, 255)  # the reviewed matches' accuracy, beside the pots' gold
HEAT_CELLS = (16, 8)  # along the table, across it


@attrs.frozen
class Bar:
    """A bar of the cut-angle chart: its label, pots attempted and made."""

    label: str
    attempted: int
    made: int


@cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size)
    if not isinstance(font, ImageFont.FreeTypeFont):
        raise RuntimeError("Pillow was built without FreeType: it cannot draw text to size")
    return font


def statistics_picture(
    bars: Sequence[Bar],
    cue_stops: Sequence[Point],
    sessions: Sequence[tuple[int, int]],  # per match, oldest first: (attempted, made)
    table: tuple[float, float],  # width, length (metres)
    size: tuple[int, int] = (1200, 900),
    accuracies: Sequence[float | None] = (),  # per match as ``sessions``: percent, or none
) -> Image.Image:
    """The three pictures, one above the other, in one image of ``size`` pixels."""
    width, height = size
    image = Image.new("RGB", size, BACKGROUND)
    draw = ImageDraw.Draw(image)
    third = height // 3
    _bars(draw, bars, (0, 0, width, third))
    _heat_map(draw, cue_stops, table, (0, third, width, 2 * third))
    _progress(draw, sessions, (0, 2 * third, width, height), accuracies)
    return image


def _title(draw: ImageDraw.ImageDraw, text: str, box: tuple[int, int, int, int]) -> int:
    """The panel's title at its top left; returns the height it took."""
    size = max(14, (box[3] - box[1]) // 9)
    draw.text((box[0] + 20, box[1] + 10), text, fill=GOLD, font=_font(size))
    return size + 20


def _bars(draw: ImageDraw.ImageDraw, bars: Sequence[Bar], box: tuple[int, int, int, int]) -> None:
    top = box[1] + _title(draw, "Pots made by cut angle", box)
    small = _font(max(12, (box[3] - box[1]) // 11))
    left, right, bottom = box[0] + 40, box[2] - 40, box[3] - 44
    if not bars:
        return
    slot = (right - left) / len(bars)
    for i, bar in enumerate(bars):
        x0 = left + i * slot + slot * 0.15
        x1 = left + (i + 1) * slot - slot * 0.15
        centre = (x0 + x1) / 2
        draw.rectangle((x0, top + 24, x1, bottom), outline=(40, 60, 50))
        if bar.attempted:
            share = bar.made / bar.attempted
            y = bottom - share * (bottom - top - 24)
            draw.rectangle((x0, y, x1, bottom), fill=GOLD)
            words = f"{100 * share:.0f}%  ({bar.made}/{bar.attempted})"
        else:
            words = "no pots"
        draw.text((centre, top + 4), words, fill=INK, font=small, anchor="mt")
        draw.text((centre, bottom + 8), bar.label, fill=DIM, font=small, anchor="mt")


def _heat_map(
    draw: ImageDraw.ImageDraw,
    stops: Sequence[Point],
    table: tuple[float, float],
    box: tuple[int, int, int, int],
) -> None:
    top = box[1] + _title(draw, "Where the cue ball stopped after a pot", box)
    table_width, table_length = table
    room_w, room_h = box[2] - box[0] - 80, box[3] - top - 20
    scale = min(room_w / table_length, room_h / table_width)
    w, h = table_length * scale, table_width * scale
    x0 = box[0] + (box[2] - box[0] - w) / 2
    y0 = top + (box[3] - top - h) / 2
    rail = max(6.0, scale * 0.08)
    draw.rectangle((x0 - rail, y0 - rail, x0 + w + rail, y0 + h + rail), fill=RAIL)
    draw.rectangle((x0, y0, x0 + w, y0 + h), fill=CLOTH)
    along, across = HEAT_CELLS
    counts = [[0] * across for _ in range(along)]
    for x, y in stops:  # x across the table, y along it from the head rail
        i = min(along - 1, max(0, int(y / table_length * along)))
        j = min(across - 1, max(0, int(x / table_width * across)))
        counts[i][j] += 1
    most = max((max(row) for row in counts), default=0)
    for i, row in enumerate(counts):
        for j, count in enumerate(row):
            if not count:
                continue
            share = count / most
            colour = tuple(
                int(c * (1 - share) + h_ * share) for c, h_ in zip(CLOTH, HEAT, strict=True)
            )
            cx0, cy0 = x0 + i * w / along, y0 + h - (j + 1) * h / across
            draw.rectangle((cx0, cy0, cx0 + w / along, cy0 + h / across), fill=colour)
    pocket = rail * 0.9
    for px in (x0, x0 + w / 2, x0 + w):
        for py in (y0, y0 + h):
            draw.ellipse((px - pocket, py - pocket, px + pocket, py + pocket), fill=(0, 0, 0))
    small = _font(max(12, (box[3] - box[1]) // 11))
    draw.text((x0 - rail - 8, y0 + h / 2), "head", fill=DIM, font=small, anchor="rm")
    words = f"{len(stops)} pots" if stops else "no pots made yet"
    draw.text((x0 + w + rail + 8, y0 + h / 2), words, fill=DIM, font=small, anchor="lm")


def _progress(
    draw: ImageDraw.ImageDraw,
    sessions: Sequence[tuple[int, int]],
    box: tuple[int, int, int, int],
    accuracies: Sequence[float | None] = (),
) -> None:
    reviewed = [(i, a / 100) for i, a in enumerate(accuracies) if a is not None]
    title = "Pots made and accuracy, match by match" if reviewed else "Pots made, match by match"
    top = box[1] + _title(draw, title, box)
    small = _font(max(12, (box[3] - box[1]) // 11))
    left, right, bottom = box[0] + 90, box[2] - 40, box[3] - 40
    for share in (0.0, 0.5, 1.0):
        y = bottom - share * (bottom - top)
        draw.line((left, y, right, y), fill=(40, 60, 50))
        draw.text((left - 10, y), f"{100 * share:.0f}%", fill=DIM, font=small, anchor="rm")
    points = [(i, made / attempted) for i, (attempted, made) in enumerate(sessions) if attempted]
    if not points:
        draw.text(
            ((left + right) / 2, (top + bottom) / 2),
            "no matches yet",
            fill=DIM,
            font=small,
            anchor="mm",
        )
        return
    step = (right - left) / max(1, len(sessions) - 1)
    for shares, colour in ((points, GOLD), (reviewed, ACCURACY)):
        pixels = [(left + i * step, bottom - share * (bottom - top)) for i, share in shares]
        if len(pixels) > 1:
            draw.line(pixels, fill=colour, width=3)
        for x, y in pixels:
            draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=colour)
    if reviewed:  # which line is which
        draw.text((right, top - 4), "accuracy", fill=ACCURACY, font=small, anchor="rb")
        draw.text((right - 150, top - 4), "pots made", fill=GOLD, font=small, anchor="rb")
    draw.text((left, bottom + 6), "first", fill=DIM, font=small, anchor="lt")
    draw.text(
        (right, bottom + 6), f"latest ({len(sessions)} matches)", fill=DIM, font=small, anchor="rt"
    )
