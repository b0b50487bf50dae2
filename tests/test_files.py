"""The one atomic writer: a target is replaced whole or not at all, and no temporary is
left behind either way."""

from __future__ import annotations

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
