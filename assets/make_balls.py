"""Generate the pool balls' textures into ``balls/`` here (deterministic; run from the
repo root):

    uv run python assets/make_balls.py

One ``BALL.png`` a ball (``cue``, ``1`` to ``15``), an equirectangular map of the
sphere: u is the longitude about the ball's z axis (0.5 at +x), v the latitude (0 at
the south pole), as :func:`sim.app.scene.meshes.ball_sphere` maps it. Each numbered ball
carries its number twice, on opposite sides of the equator (at +x and -x), in a white
disc a third of the ball's diameter across, as on a real set (pooltool's has one disc),
so that a number faces the camera more often; 9 to 15 have a white ball with a band of
colour round the equator (a larger disc made the solids read as stripes). The cue ball
has six small red dots (on the axes) so that its spin shows. Colours are the shot
diagrams' (:data:`sim.media.diagram.BALL_COLOURS`), so a ball looks the same in a diagram
and on the table.

``label-N.png``: the number disc alone, flat, with a soft edge (RGBA): the scene shows it
on top of each ball when the camera looks down on the table from high up, where a ball
is twenty pixels wide and the number printed on it cannot be read.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

from sim.media.diagram import BALL_COLOURS, IVORY, is_stripe

HERE = Path(__file__).resolve().parent
OUT = HERE / "balls"
SIZE = (512, 256)  # texels round the equator and pole to pole
SUPERSAMPLE = 3  # texel samples a side (the edges of the discs and digits are smooth)
DISC = math.asin(1 / 3)  # the number disc's angular radius: a third of the diameter
STRIPE = math.radians(37)  # the band's half-width in latitude
DOT = math.radians(4.5)  # the cue ball's dots
DOT_COLOUR = (196, 30, 36)
INK = (16, 16, 18)
GLYPH = 512  # pixels a side of the disc's artwork
LABEL = 64  # pixels a side of a label
LABEL_RIM = (60, 60, 64)  # a thin dark ring: the disc stands out from a white ball too
FONT = HERE / "fonts" / "DejaVuSans-Bold.ttf"

Array = NDArray[np.float64]


def directions() -> Array:
    """The unit vector of every (supersampled) texel, (H, W, 3), row 0 the north pole's
    (images are stored top row first; v = 1 is the top)."""
    width, height = SIZE[0] * SUPERSAMPLE, SIZE[1] * SUPERSAMPLE
    lon = (np.arange(width) + 0.5) / width * 2 * math.pi - math.pi
    lat = math.pi / 2 - (np.arange(height) + 0.5) / height * math.pi
    glat, glon = np.meshgrid(lat, lon, indexing="ij")
    return np.stack(
        [np.cos(glat) * np.cos(glon), np.cos(glat) * np.sin(glon), np.sin(glat)], axis=-1
    )


def number_art(number: int) -> Array:
    """The disc's artwork: the number in black on white, centred, (GLYPH, GLYPH) in 0..1
    (1 = ink). Two digits are set a little tighter to fit the disc."""
    image = Image.new("L", (GLYPH, GLYPH), 0)
    draw = ImageDraw.Draw(image)
    text = str(number)
    size = int(GLYPH * (0.62 if len(text) == 1 else 0.52))
    font = ImageFont.truetype(str(FONT), size)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    x = (GLYPH - (right - left)) / 2 - left
    y = (GLYPH - (bottom - top)) / 2 - top
    draw.text((x, y), text, fill=255, font=font)
    if number in (6, 9):
        # Underlined, as on real balls, so that a 6 upside down is not read as a 9.
        w = (right - left) * 0.8
        line_y = y + bottom + GLYPH * 0.035
        draw.rectangle(
            (GLYPH / 2 - w / 2, line_y, GLYPH / 2 + w / 2, line_y + GLYPH * 0.045), fill=255
        )
    return np.asarray(image, dtype=float) / 255.0


def ball_texture(ball: str) -> NDArray[np.uint8]:
    d = directions()
    ivory = np.array(IVORY, dtype=float)
    colour = np.array(BALL_COLOURS[ball], dtype=float)
    if ball == "cue":
        rgb = np.broadcast_to(ivory, d.shape).copy()
        for axis in np.concatenate([np.eye(3), -np.eye(3)]):
            rgb[d @ axis > math.cos(DOT)] = DOT_COLOUR
    else:
        number = int(ball)
        rgb = np.broadcast_to(colour, d.shape).copy()
        if is_stripe(ball):
            rgb[np.abs(d[..., 2]) > math.sin(STRIPE)] = ivory
        art = number_art(number)
        up = np.array([0.0, 0.0, 1.0])
        for centre in (np.array([1.0, 0.0, 0.0]), np.array([-1.0, 0.0, 0.0])):
            inside = d @ centre > math.cos(DISC)
            rgb[inside] = ivory
            # The artwork printed flat on the ball, seen from outside: the right-hand
            # direction is the outward normal crossed into "up".
            right = np.cross(-centre, up)
            s = (d @ right) / math.sin(DISC)
            t = (d @ up) / math.sin(DISC)
            col = np.clip(((s + 1) / 2 * GLYPH).astype(int), 0, GLYPH - 1)
            row = np.clip(((1 - t) / 2 * GLYPH).astype(int), 0, GLYPH - 1)
            ink = np.where(inside, art[row, col], 0.0)[..., None]
            rgb = rgb * (1 - ink) + np.array(INK, dtype=float) * ink
    h, w = SIZE[1], SIZE[0]
    k = SUPERSAMPLE
    small = rgb.reshape(h, k, w, k, 3).mean(axis=(1, 3))
    return np.clip(np.round(small), 0, 255).astype(np.uint8)


def label_texture(number: int) -> NDArray[np.uint8]:
    """The number disc seen straight on: ivory, the number in ink, a dark rim, and alpha
    that falls off over a texel at the edge."""
    k = SUPERSAMPLE
    n = LABEL * k
    centre = (np.arange(n) + 0.5) / n * 2 - 1
    y, x = np.meshgrid(-centre, centre, indexing="ij")
    r = np.hypot(x, y)
    art = number_art(number)
    # The number a little smaller than on the ball, inside the rim.
    scale = 1.04
    col = np.clip(((x * scale + 1) / 2 * GLYPH).astype(int), 0, GLYPH - 1)
    row = np.clip(((1 - y * scale) / 2 * GLYPH).astype(int), 0, GLYPH - 1)
    ink = np.where(r < 1 / scale, art[row, col], 0.0)[..., None]
    rgb = np.broadcast_to(np.array(IVORY, dtype=float), (n, n, 3)).copy()
    rgb[r > 0.86] = LABEL_RIM
    rgb = rgb * (1 - ink) + np.array(INK, dtype=float) * ink
    alpha = (r < 1.0).astype(float)[..., None] * 255
    rgba = np.concatenate([rgb, alpha], axis=-1)
    small = rgba.reshape(LABEL, k, LABEL, k, 4).mean(axis=(1, 3))
    return np.clip(np.round(small), 0, 255).astype(np.uint8)


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for ball in ("cue", *(str(n) for n in range(1, 16))):
        Image.fromarray(ball_texture(ball), "RGB").save(OUT / f"{ball}.png", optimize=True)
    for number in range(1, 16):
        image = Image.fromarray(label_texture(number), "RGBA")
        image.save(OUT / f"label-{number}.png", optimize=True)


if __name__ == "__main__":
    main()
