"""Writers for rendered frames (``poolsim export``): numbered PNGs, an animated GIF, an
MP4 (H.264); one PNG for a shot diagram; and the ``--size`` parser.

Every writer takes the frames as an iterable of (H, W, 3) uint8 arrays and reads it
lazily, one frame at a time, so a renderer can yield frames as it draws them and the
caller can wrap the iterable in a progress bar. Each frame is checked against the
first. Writing is atomic: into a temporary file or folder beside the target, renamed
onto it only when complete, so an interrupted or failed export leaves nothing
half-written (and an existing file whole). Every problem is one :class:`ExportError`
line.

Frame times are the timeline's: :meth:`sim.physics.timeline.ShotTimeline.frame_times` (and
:func:`sim.physics.timeline.frame_count`), so there is no second definition here.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from sim import sizes
from sim.files import output_problem, replacing, replacing_folder

MIN_SIDE = 16
MAX_WIDTH, MAX_HEIGHT = 7680, 4320
# GIF delays are whole hundredths of a second and browsers play delays under 2/100 s
# as 10/100 s, so 50 fps is the fastest a GIF really plays.
MAX_GIF_FPS = 50.0
MAX_FPS = 240.0
# H.264 at constant quality 18 (visually lossless), the index up front so a browser
# starts playing before the whole file has arrived.
MP4_OUTPUT = ("-crf", "18", "-preset", "medium", "-movflags", "+faststart")
# Mean error (0-255 per channel) up to which a GIF frame keeps the shared palette.
GIF_PALETTE_TOLERANCE = 4.0
FRAME_NAME = "frame_{:06d}.png"  # sorts in order up to a million frames (9 h at 30 fps)

Frame: TypeAlias = NDArray[np.uint8]
_Saver: TypeAlias = Callable[[Path], None]


class ExportError(ValueError):
    """An export that cannot be done; the message is one line, naming the culprit."""


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` -> ``(1280, 720)``. Both sides even (H.264 video needs it), from
    16 up to 7680 x 4320."""
    try:
        width, height = sizes.parse_size(text)
    except ValueError:
        raise ExportError(f"size must be WIDTHxHEIGHT, like 1280x720; got {text!r}") from None
    if not (MIN_SIDE <= width <= MAX_WIDTH and MIN_SIDE <= height <= MAX_HEIGHT):
        raise ExportError(
            f"size {width}x{height} is out of range: {MIN_SIDE}x{MIN_SIDE} "
            f"to {MAX_WIDTH}x{MAX_HEIGHT}"
        )
    if width % 2 or height % 2:
        raise ExportError(f"size {width}x{height}: width and height must be even (for video)")
    return width, height


def write_png(image: Image.Image, path: str | os.PathLike[str]) -> None:
    """One picture (a shot diagram) as a PNG, atomically."""
    target = _file_target(path, ".png", "a PNG")
    _atomic(target, lambda temporary: image.save(temporary, format="PNG", optimize=True))


def write_frames(frames: Iterable[Frame], out_dir: str | os.PathLike[str]) -> int:
    """Every frame as a PNG (``frame_000000.png``, ...) in ``out_dir``, a new folder or
    an empty one. Returns the number of frames."""
    target = Path(out_dir)
    if target.exists() and not target.is_dir():
        raise ExportError(f"cannot write frames to {target}: it is a file, not a folder")
    if target.is_dir() and any(target.iterdir()):
        raise ExportError(f"cannot write frames to {target}: the folder is not empty")
    _parent(target)
    _writable(target, folder=True)
    count = 0
    try:
        with replacing_folder(target) as staging:
            for count, frame in enumerate(_checked(frames), start=1):
                path = staging / FRAME_NAME.format(count - 1)
                Image.fromarray(frame).save(path, compress_level=3)
            if count == 0:
                raise ExportError("no frames to write")
    except OSError as error:
        raise ExportError(f"cannot write frames to {target}: {_reason(error)}") from None
    return count


def write_gif(frames: Iterable[Frame], path: str | os.PathLike[str], fps: float) -> int:
    """An animated GIF that loops, at ``fps`` (at most 50). Returns the number of frames
    given; runs of identical frames are stored once, with their summed delay.

    Frames share the first frame's palette (the table and the balls are all in it): one
    palette keeps colours from flickering between frames and lets the GIF store only
    what changed. A frame that palette fits badly (the camera turned to new colours)
    gets its own."""
    target = _file_target(path, ".gif", "a GIF")
    _check_fps(fps, MAX_GIF_FPS, "a GIF")
    images: list[Image.Image] = []
    palette: Image.Image | None = None
    tolerance = 0.0
    for frame in _checked(frames):
        image = Image.fromarray(frame)
        if palette is None:
            palette = image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
            tolerance = max(GIF_PALETTE_TOLERANCE, 2 * _error(palette, frame))
        shared = image.quantize(palette=palette, dither=Image.Dither.NONE)
        if _error(shared, frame) > tolerance:
            shared = image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        images.append(shared)
    if not images:
        raise ExportError("no frames to write")
    # Delays in hundredths of a second, rounded so they add up to the true time.
    delays = [10 * (round((i + 1) * 100 / fps) - round(i * 100 / fps)) for i in range(len(images))]

    def save(temporary: Path) -> None:
        images[0].save(
            temporary,
            format="GIF",
            save_all=True,
            append_images=images[1:],
            duration=delays,
            loop=0,
        )

    _atomic(target, save)
    return len(images)


def write_mp4(frames: Iterable[Frame], path: str | os.PathLike[str], fps: float) -> int:
    """An H.264 MP4 (yuv420p, so every player plays it; even width and height) at
    ``fps``, through the ffmpeg that ``imageio-ffmpeg`` ships. Returns the number of
    frames."""
    import imageio.v2 as imageio  # only here: it finds and starts ffmpeg

    target = _file_target(path, ".mp4", "an MP4")
    _check_fps(fps, MAX_FPS, "an MP4")
    count = 0

    def save(temporary: Path) -> None:
        nonlocal count
        writer = None
        finished = False
        try:
            for frame in _checked(frames):
                count += 1
                if writer is None:
                    height, width = frame.shape[:2]
                    if width % 2 or height % 2:
                        raise ExportError(
                            f"an MP4 needs an even width and height, the frames are "
                            f"{width}x{height}"
                        )
                    with _ffmpeg_errors(target):
                        writer = imageio.get_writer(
                            temporary,
                            format="FFMPEG",
                            mode="I",
                            fps=fps,
                            codec="libx264",
                            pixelformat="yuv420p",
                            quality=None,  # the constant quality of -crf instead
                            macro_block_size=1,  # never rescale: sizes are checked even
                            ffmpeg_log_level="error",
                            output_params=list(MP4_OUTPUT),  # imageio extends the list it is given
                        )
                with _ffmpeg_errors(target):
                    writer.append_data(frame)
            if writer is None:
                raise ExportError("no frames to write")
            finished = True
        finally:
            if writer is not None:
                if finished:
                    with _ffmpeg_errors(target):
                        writer.close()
                else:  # already failing: the first error is the one to tell
                    with contextlib.suppress(Exception):
                        writer.close()

    _atomic(target, save)
    return count


# -- helpers -------------------------------------------------------------------------------


def _checked(frames: Iterable[Frame]) -> Iterator[Frame]:
    """The frames, each an (H, W, 3) uint8 array of the first frame's size."""
    shape: tuple[int, ...] | None = None
    for index, frame in enumerate(frames):
        array = np.asarray(frame)
        if array.dtype != np.uint8 or array.ndim != 3 or array.shape[2] != 3:
            raise ExportError(
                f"frame {index}: expected an (H, W, 3) uint8 array, got {array.shape} {array.dtype}"
            )
        if shape is None:
            if min(array.shape[:2]) < 1:
                raise ExportError(f"frame {index} is empty: {array.shape}")
            shape = array.shape
        elif array.shape != shape:
            raise ExportError(
                f"frame {index} is {array.shape[1]}x{array.shape[0]}, frame 0 is "
                f"{shape[1]}x{shape[0]}: every frame must be the same size"
            )
        yield np.ascontiguousarray(array)


def _error(quantized: Image.Image, frame: Frame) -> float:
    """Mean absolute difference, per channel, between a frame and its quantized copy."""
    rgb = np.asarray(quantized.convert("RGB"), dtype=np.int16)
    return float(np.abs(rgb - frame).mean())


@contextlib.contextmanager
def _ffmpeg_errors(target: Path) -> Iterator[None]:
    """ffmpeg's failures (it died, the disk is full) as one line; errors from the
    frames themselves pass unchanged."""
    try:
        yield
    except (OSError, RuntimeError) as error:
        raise ExportError(f"ffmpeg could not write {target}: {_reason(error)}") from None


def _check_fps(fps: float, limit: float, what: str) -> None:
    if isinstance(fps, bool) or not isinstance(fps, int | float) or not math.isfinite(fps):
        raise ExportError(f"fps must be a number, got {fps!r}")
    if not 0 < fps <= limit:
        raise ExportError(f"{what} plays at more than 0 and at most {limit:g} fps, got {fps:g}")


def _parent(target: Path) -> Path:
    parent = target.parent
    if not parent.is_dir():
        raise ExportError(f"cannot write {target}: there is no folder {parent}")
    return parent


def _file_target(path: str | os.PathLike[str], suffix: str, what: str) -> Path:
    target = Path(path)
    if target.suffix.lower() != suffix:
        raise ExportError(f"{target}: the name of {what} file ends in {suffix}")
    if target.is_dir():
        raise ExportError(f"cannot write {target}: it is a folder")
    _parent(target)
    _writable(target, folder=False)
    return target


def _writable(target: Path, *, folder: bool) -> None:
    """Before the frames are drawn: a target that is a special file, or a folder that
    refuses new files, is said now rather than after the rendering."""
    if (problem := output_problem(target, folder=folder)) is not None:
        raise ExportError(problem)


def _atomic(target: Path, save: _Saver) -> None:
    """``save`` into a temporary file beside ``target`` (same suffix: ffmpeg picks the
    container by it), then rename it onto ``target``; on any failure remove it
    (:func:`sim.files.replacing`)."""
    try:
        with replacing(target, keep_suffix=True) as temporary:
            save(temporary)
            if temporary.stat().st_size == 0:
                raise ExportError(f"nothing was written to {target}")
    except OSError as error:
        raise ExportError(f"cannot write {target}: {_reason(error)}") from None


def _reason(error: BaseException) -> str:
    """An exception as one line: its strerror, or the first line of its message."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
