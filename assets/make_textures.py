"""Generate the table's textures into this folder (deterministic; run from the repo root):

    uv run python assets/make_textures.py

- ``cloth.png``: worsted cloth, a fine twill with a little fibre noise, grey around 0.9 so
  the material colour (blue or green) tints it. Tiles seamlessly.
- ``cloth_detail.png``: the same weave (less the blotches) as a grey detail texture
  around 0.5 (the fast preset doubles what it multiplies: 0.5 leaves the colour as it
  was).
- ``wood.png``: dark cherry rail wood, grain along u. Tiles seamlessly in u and v.
- ``ball_shadow.png``: the soft contact shadow drawn under each ball (alpha only).

Written with Panda3D's PNMImage so no image library is needed. Everything tileable is
built from Fourier terms with whole-number frequencies, which wrap exactly.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from panda3d.core import PNMImage

HERE = Path(__file__).resolve().parent
Array = NDArray[np.float64]


def _periodic_noise(
    rng: np.random.Generator, shape: tuple[int, int], freqs_u: int, freqs_v: int, falloff: float
) -> Array:
    """Smooth noise that wraps in both directions: random sinusoids with whole-number
    frequencies up to ``freqs_u`` along u (columns) and ``freqs_v`` along v (rows)."""
    height, width = shape
    v, u = np.meshgrid(np.arange(height) / height, np.arange(width) / width, indexing="ij")
    out = np.zeros(shape)
    for fu in range(freqs_u + 1):
        for fv in range(-freqs_v, freqs_v + 1):
            if fu == 0 and fv <= 0:
                continue
            amplitude = rng.normal() / (1.0 + np.hypot(fu, fv)) ** falloff
            phase = rng.uniform(0, 2 * np.pi)
            out += amplitude * np.cos(2 * np.pi * (fu * u + fv * v) + phase)
    return (out - out.mean()) / (out.std() + 1e-12)


def cloth(size: int = 256, blotches: bool = True) -> Array:
    rng = np.random.default_rng(860)
    y, x = np.mgrid[0:size, 0:size]
    # A 2/1 twill: diagonal ribs every 4 pixels (divides 256, so it tiles).
    twill = np.cos(2 * np.pi * (x + y) / 4.0)
    fibres = rng.normal(size=(size, size))
    fibres = (fibres + np.roll(fibres, 1, axis=1) + np.roll(fibres, 1, axis=0)) / 3
    blotch = _periodic_noise(rng, (size, size), 6, 6, 1.5)
    grey = 0.9 + 0.025 * twill + 0.03 * fibres + 0.012 * blotch * blotches
    return np.repeat(np.clip(grey, 0, 1)[..., None], 3, axis=2)


def cloth_detail(size: int = 256) -> Array:
    # No blotches: the light map has the cloth's mottle, and a blotch repeated every
    # tile would show as a pattern from above.
    grey = cloth(size, blotches=False)[..., :1]
    return np.asarray(0.5 * grey / grey.mean())


def wood(width: int = 1024, height: int = 128) -> Array:
    rng = np.random.default_rng(1866)
    v = np.repeat((np.arange(height) / height)[:, None], width, axis=1)
    warp = _periodic_noise(rng, (height, width), 3, 2, 1.0)
    # Growth rings cut lengthwise: stripes across v, bent slowly along u.
    rings = np.sin(2 * np.pi * (9 * v + 0.35 * warp))
    fine = _periodic_noise(rng, (height, width), 2, 40, 0.3)
    pores = rng.normal(size=(height, width)) * 0.5
    pores = (pores + np.roll(pores, 1, axis=1) + np.roll(pores, 2, axis=1)) / 3
    t = np.clip(0.5 + 0.3 * rings + 0.12 * fine + 0.08 * pores, 0, 1)[..., None]
    dark = np.array([0.20, 0.075, 0.035])
    light = np.array([0.42, 0.19, 0.09])
    return np.asarray(dark + (light - dark) * t)


def ball_shadow(size: int = 64) -> Array:
    """A dark core where the ball touches the cloth (half the quad: the ball's own
    width) in a wide penumbra from the lamps, reaching zero at the quad's edge."""
    y, x = np.mgrid[0:size, 0:size]
    r = np.hypot(x - (size - 1) / 2, y - (size - 1) / 2) / (size / 2)
    core = np.exp(-((r / 0.36) ** 2))
    penumbra = np.exp(-((r / 0.62) ** 2))
    alpha = 0.55 * core + 0.45 * penumbra
    edge = alpha[r >= 1].max(initial=0)  # zero at the edge of the inscribed circle
    alpha = np.clip((alpha - edge) / (1 - edge), 0, 1)
    alpha *= 0.92
    rgba = np.zeros((size, size, 4))
    rgba[..., 3] = alpha
    return rgba


def save_png(path: Path, image: Array) -> None:
    height, width, channels = image.shape
    png = PNMImage(width, height, channels)
    if channels == 1:
        png.makeGrayscale()
    data = np.clip(np.round(image * 255), 0, 255).astype(np.uint8)
    for row in range(height):
        for col in range(width):
            px = data[row, col]
            if channels == 4:
                png.setXelA(col, row, *(float(c) / 255 for c in px))
            elif channels == 1:
                png.setGray(col, row, float(px[0]) / 255)
            else:
                png.setXel(col, row, *(float(c) / 255 for c in px))
    if not png.write(str(path)):
        raise OSError(f"could not write {path}")


def main() -> None:
    save_png(HERE / "cloth.png", cloth())
    save_png(HERE / "cloth_detail.png", cloth_detail())
    save_png(HERE / "wood.png", wood())
    save_png(HERE / "ball_shadow.png", ball_shadow())


if __name__ == "__main__":
    main()
