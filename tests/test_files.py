"""The one atomic writer: a target is replaced whole or not at all, and no temporary is
left behind either way."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sim.files import replacing, replacing_folder, write_atomically


def test_write_atomically_replaces_the_file(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "a.poolsim"
    write_atomically(target, b"old")
    write_atomically(target, b"new")
    assert target.read_bytes() == b"new"
    assert [p.name for p in target.parent.iterdir()] == ["a.poolsim"]


def test_replacing_names_the_temporary_by_the_target(tmp_path: Path) -> None:
    target = tmp_path / "clip.mp4"
    with replacing(target, keep_suffix=True) as temporary:
        assert temporary.parent == tmp_path and temporary.name.startswith(".clip.")
        assert temporary.name.endswith(".tmp.mp4")
        temporary.write_bytes(b"video")
    with replacing(tmp_path / "game.poolsim") as temporary:
        assert temporary.name.startswith(".game.poolsim.") and temporary.suffix == ".tmp"
        temporary.write_bytes(b"game")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clip.mp4", "game.poolsim"]
    assert (tmp_path / "clip.mp4").read_bytes() == b"video"


def test_replacing_leaves_the_target_whole_when_the_writer_fails(tmp_path: Path) -> None:
    target = tmp_path / "a.gif"
    target.write_bytes(b"before")
    with pytest.raises(RuntimeError), replacing(target, keep_suffix=True) as temporary:
        temporary.write_bytes(b"half")
        raise RuntimeError("the writer died")
    assert target.read_bytes() == b"before"
    assert [p.name for p in tmp_path.iterdir()] == ["a.gif"]


def test_replacing_folder_takes_the_place_of_an_empty_folder(tmp_path: Path) -> None:
    target = tmp_path / "frames"
    target.mkdir()
    with replacing_folder(target) as staging:
        (staging / "frame_000000.png").write_bytes(b"png")
    assert [p.name for p in target.iterdir()] == ["frame_000000.png"]
    assert [p.name for p in tmp_path.iterdir()] == ["frames"]


def test_replacing_folder_removes_what_a_failed_writer_left(tmp_path: Path) -> None:
    target = tmp_path / "frames"
    with pytest.raises(RuntimeError), replacing_folder(target) as staging:
        (staging / "frame_000000.png").write_bytes(b"png")
        raise RuntimeError("the renderer died")
    assert list(tmp_path.iterdir()) == []


def test_output_problem_says_what_cannot_be_written_before_the_work(tmp_path: Path) -> None:
    """Outputs were found unwritable only after the work (a 17 s render, every self-played
    rack): a path under a regular file, a folder that refuses files, a special file."""
    from sim.files import output_problem

    regular = tmp_path / "a-file"
    regular.write_text("mine")
    os.mkfifo(tmp_path / "fifo")
    assert output_problem(tmp_path / "new" / "deeper" / "shot.png") is None
    assert output_problem(tmp_path / "frames", folder=True) is None
    cases = [
        (regular / "sub.png", False, "a-file is a file, not a folder"),
        (regular / "sub", True, "a-file is a file, not a folder"),
        (regular, True, "is a file, not a folder"),
        (tmp_path, False, "is a folder"),
        (tmp_path / "fifo", False, "is not a regular file"),
        (Path("/dev/null"), False, "is not a regular file"),
        (Path("/sys/x.png"), False, "cannot write /sys/x.png: /sys:"),
        (tmp_path / ("n" * 300) / "x.png", False, "long"),  # too long, or longer than
    ]
    for path, folder, message in cases:
        problem = output_problem(path, folder=folder)
        assert problem is not None and message in problem, (path, problem)
        assert "\n" not in problem
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "fifo"]  # probes removed
