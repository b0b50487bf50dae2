"""Frame writers: PNG folders, GIF and MP4 read back with the right frame count and
timing, atomic writes, and one-line errors for bad input."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import imageio.v2 as imageio
import numpy as np
import pytest
from PIL import Image

from sim.media.export import (
    ExportError,
    Frame,
    parse_size,
    write_frames,
    write_gif,
    write_mp4,
    write_png,
)


def _frames(count: int, width: int = 64, height: int = 48) -> Iterator[Frame]:
    """A square crossing a gradient: every frame different, colours a GIF can hold."""
    gradient = np.linspace(0, 200, width, dtype=np.uint8)[None, :, None]
    for i in range(count):
        frame = np.repeat(np.repeat(gradient, height, axis=0), 3, axis=2).copy()
        x = (3 * i) % (width - 8)
        frame[10:18, x : x + 8] = (255, 40, 40)
        yield frame


def _siblings(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


@pytest.mark.parametrize(
    ("text", "size"),
    [("1280x720", (1280, 720)), (" 1920 X 1080 ", (1920, 1080)), ("16x16", (16, 16))],
)
def test_parse_size(text: str, size: tuple[int, int]) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1280", "WIDTHxHEIGHT"),
        ("1280x", "WIDTHxHEIGHT"),
        ("-1280x720", "WIDTHxHEIGHT"),
        ("1280.5x720", "WIDTHxHEIGHT"),
        ("8x8", "out of range"),
        ("10000x720", "out of range"),
        ("1281x720", "even"),
    ],
)
def test_parse_size_refuses(text: str, message: str) -> None:
    with pytest.raises(ExportError, match=message) as caught:
        parse_size(text)
    assert "\n" not in str(caught.value)


def test_write_frames_writes_numbered_pngs(tmp_path: Path) -> None:
    out = tmp_path / "frames"
    assert write_frames(_frames(7), out) == 7
    names = sorted(p.name for p in out.iterdir())
    assert names == [f"frame_{i:06d}.png" for i in range(7)]
    first = np.asarray(Image.open(out / names[0]))
    assert first.shape == (48, 64, 3)
    assert np.array_equal(first, next(_frames(1)))
    assert _siblings(out) == ["frames"]  # no staging folder left behind


def test_write_frames_into_an_empty_folder(tmp_path: Path) -> None:
    out = tmp_path / "frames"
    out.mkdir()
    assert write_frames(_frames(2), out) == 2
    assert len(list(out.iterdir())) == 2


def test_write_frames_refuses_a_folder_with_files_and_a_file(tmp_path: Path) -> None:
    out = tmp_path / "frames"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(ExportError, match="not empty"):
        write_frames(_frames(2), out)
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    with pytest.raises(ExportError, match="is a file"):
        write_frames(_frames(2), out / "keep.txt")


def test_write_gif_frame_count_and_timing(tmp_path: Path) -> None:
    path = tmp_path / "shot.gif"
    assert write_gif(_frames(20), path, fps=30) == 20
    with Image.open(path) as gif:
        assert gif.n_frames == 20
        assert gif.size == (64, 48)
        delays = []
        for k in range(gif.n_frames):
            gif.seek(k)
            delays.append(gif.info["duration"])
    # 1/30 s is not a whole number of hundredths: delays of 30 and 40 ms that add up.
    assert set(delays) <= {30, 40}
    assert abs(sum(delays) - 20 * 1000 / 30) <= 10
    assert _siblings(path) == ["shot.gif"]


def test_write_gif_stores_a_still_stretch_once(tmp_path: Path) -> None:
    """Balls at rest at the end: identical frames become one longer frame."""
    frames = [*_frames(5)]
    frames += [frames[-1]] * 10
    path = tmp_path / "still.gif"
    assert write_gif(frames, path, fps=20) == 15
    with Image.open(path) as gif:
        assert gif.n_frames == 5
        gif.seek(4)
        assert gif.info["duration"] == 11 * 50


def test_write_gif_keeps_colours_that_appear_later(tmp_path: Path) -> None:
    """A frame with colours the first frame lacks gets its own palette."""
    frames = [np.zeros((16, 16, 3), np.uint8), np.full((16, 16, 3), (30, 200, 90), np.uint8)]
    path = tmp_path / "colours.gif"
    write_gif(frames, path, fps=10)
    with Image.open(path) as gif:
        gif.seek(1)
        assert gif.convert("RGB").getpixel((8, 8)) == (30, 200, 90)


def test_write_mp4_frame_count_and_rate(tmp_path: Path) -> None:
    path = tmp_path / "shot.mp4"
    assert write_mp4(_frames(24, 64, 48), path, fps=24) == 24
    reader = imageio.get_reader(path, format="FFMPEG")  # type: ignore[arg-type]
    try:
        meta = reader.get_meta_data()
        assert meta["fps"] == 24
        assert meta["size"] == (64, 48)
        assert reader.count_frames() == 24
    finally:
        reader.close()
    assert _siblings(path) == ["shot.mp4"]


def test_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "shot.gif"
    path.write_bytes(b"old")

    def broken() -> Iterator[Frame]:
        yield from _frames(3)
        raise RuntimeError("the renderer died")

    with pytest.raises(RuntimeError, match="renderer died"):
        write_gif(broken(), path, fps=30)
    with pytest.raises(RuntimeError, match="renderer died"):
        write_mp4(broken(), tmp_path / "shot.mp4", fps=30)
    with pytest.raises(RuntimeError, match="renderer died"):
        write_frames(broken(), tmp_path / "frames")
    assert path.read_bytes() == b"old"
    assert _siblings(path) == ["shot.gif"]


@pytest.mark.parametrize("writer", [write_gif, write_mp4])
def test_writers_refuse_bad_input(tmp_path: Path, writer: object) -> None:
    write = writer if callable(writer) else None
    assert write is not None
    suffix = ".gif" if write is write_gif else ".mp4"
    good = tmp_path / f"out{suffix}"
    cases: list[tuple[object, object, float, str]] = [
        (_frames(2), tmp_path / "missing" / f"out{suffix}", 30, "no folder"),
        (_frames(2), tmp_path / "out.avi", 30, f"ends in {suffix}"),
        (_frames(2), tmp_path, 30, f"ends in {suffix}"),
        (_frames(2), good, 0, "fps"),
        (_frames(2), good, float("nan"), "fps"),
        (iter(()), good, 30, "no frames"),
        ([np.zeros((8, 8, 4), np.uint8)], good, 30, r"\(H, W, 3\) uint8"),
        ([np.zeros((8, 8, 3), np.float32)], good, 30, r"\(H, W, 3\) uint8"),
        ([np.zeros((8, 8, 3), np.uint8), np.zeros((8, 10, 3), np.uint8)], good, 30, "same size"),
    ]
    for frames, path, fps, message in cases:
        with pytest.raises(ExportError, match=message) as caught:
            write(frames, path, fps)
        assert "\n" not in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_gif_and_mp4_limits(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="at most 50 fps"):
        write_gif(_frames(2), tmp_path / "fast.gif", fps=60)
    with pytest.raises(ExportError, match="even width and height"):
        write_mp4([np.zeros((9, 8, 3), np.uint8)], tmp_path / "odd.mp4", fps=30)
    assert list(tmp_path.iterdir()) == []


def test_write_png(tmp_path: Path) -> None:
    picture = Image.fromarray(next(_frames(1)))
    path = tmp_path / "diagram.png"
    write_png(picture, path)
    with Image.open(path) as back:
        assert back.size == (64, 48)
    assert _siblings(path) == ["diagram.png"]
    with pytest.raises(ExportError, match=r"ends in \.png"):
        write_png(picture, tmp_path / "diagram.jpg")
    with pytest.raises(ExportError, match="no folder"):
        write_png(picture, tmp_path / "nowhere" / "diagram.png")


@pytest.mark.parametrize("writer", ["gif", "mp4", "png-frames"])
def test_an_unwritable_target_is_refused_before_a_frame_is_drawn(
    tmp_path: Path, writer: str
) -> None:
    """A folder that refuses files was found only when the rendered frames were written."""

    def never_drawn() -> Iterator[Frame]:
        raise AssertionError("a frame was drawn for a target that cannot be written")
        yield  # pragma: no cover

    target = Path("/sys") / {"gif": "x.gif", "mp4": "x.mp4", "png-frames": "frames"}[writer]
    with pytest.raises(ExportError, match="cannot write /sys/"):
        if writer == "gif":
            write_gif(never_drawn(), target, 10)
        elif writer == "mp4":
            write_mp4(never_drawn(), target, 10)
        else:
            write_frames(never_drawn(), target)
    (tmp_path / "fifo.gif").parent.mkdir(exist_ok=True)
    os.mkfifo(tmp_path / "fifo.gif")
    with pytest.raises(ExportError, match="is not a regular file"):
        write_gif(never_drawn(), tmp_path / "fifo.gif", 10)
