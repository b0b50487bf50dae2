"""``poolsim export`` and ``poolsim replay`` on real files, in subprocesses (each renders
with a ShowBase of its own): the right number of non-blank frames, a GIF, a diagram,
pooltool's own shot files, and one-line errors for bad input."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from rules import Player
from sim.physics.timeline import ShotTimeline, frame_count
from sim.play.game import Game, GameSetup
from sim.play.selfplay import play_racks
from sim.store.gamefile import save
from tests.run import poolsim
from tests.test_position_cli import taken_back_game

pytestmark = [pytest.mark.physics, pytest.mark.app]


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Game]:
    game = Game(GameSetup(game="ten-ball", race_to=3, seed=6, players=("Ann", "Bob")))
    game.start(Player.A)
    play_racks(game, 1, random.Random(6), max_records_per_rack=4)
    path = tmp_path_factory.mktemp("export") / "game.poolsim"
    save(game, path)
    return path, game


def non_blank(image: np.ndarray) -> bool:
    return float(image.std()) > 8.0 and float(image.mean()) > 10.0


def test_export_frames_count_and_content(saved: tuple[Path, Game], tmp_path: Path) -> None:
    path, game = saved
    out = tmp_path / "frames"
    result = poolsim(
        "export", str(path), "--shot", "2", "--frames", str(out), "--fps", "8", "--size", "320x200"
    )
    assert result.returncode == 0, result.stderr
    duration = ShotTimeline.from_system(game.shots[1].simulated.system).duration
    files = sorted(out.glob("*.png"))
    assert len(files) == frame_count(duration, 8)
    first, last = (np.asarray(Image.open(f).convert("RGB")) for f in (files[0], files[-1]))
    assert first.shape == (200, 320, 3)
    assert non_blank(first) and non_blank(last)
    assert np.abs(first.astype(int) - last.astype(int)).mean() > 0.5  # the balls moved


def test_export_gif_and_diagram(saved: tuple[Path, Game], tmp_path: Path) -> None:
    path, game = saved
    gif = tmp_path / "shot.gif"
    result = poolsim(
        "export",
        str(path),
        "--shot",
        "1",
        "--gif",
        str(gif),
        "--fps",
        "5",
        "--size",
        "320x200",
        "--camera",
        "overhead",
    )
    assert result.returncode == 0, result.stderr
    duration = ShotTimeline.from_system(game.shots[0].simulated.system).duration
    frames = frame_count(duration, 5)
    assert f"wrote {frames} frames" in result.stdout
    with Image.open(gif) as image:
        # Pillow merges identical frames (balls at rest) into one longer frame: the
        # GIF plays for exactly as long as the frames written.
        shown = 0
        for index in range(image.n_frames):
            image.seek(index)
            shown += image.info["duration"]
        assert shown == pytest.approx(frames * 200, abs=image.n_frames)
    diagram = tmp_path / "shot.png"
    result = poolsim("export", str(path), "--shot", "1", "--diagram", str(diagram))
    assert result.returncode == 0, result.stderr
    assert non_blank(np.asarray(Image.open(diagram).convert("RGB")))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--shot", "99", "--diagram", "x.png"], "the game has shots 1 to"),
        (["--shot", "1", "--gif", "a.gif", "--mp4", "b.mp4"], "exactly one of"),
        (["--shot", "1", "--gif", "a.gif", "--size", "12xx"], "--size"),
        (["--shot", "1", "--gif", "a.gif", "--camera", "drone"], "'drone' is not one of"),
    ],
)
def test_export_refuses_bad_input_in_one_line(
    saved: tuple[Path, Game], tmp_path: Path, args: list[str], message: str
) -> None:
    path, _ = saved
    result = poolsim(
        "export",
        str(path),
        *[str(tmp_path / a) if a.endswith((".png", ".gif", ".mp4")) else a for a in args],
    )
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr


@pytest.mark.parametrize("suffix", [".msgpack", ".json"])
def test_replay_opens_a_shot_saved_by_pooltool(
    saved: tuple[Path, Game], tmp_path: Path, suffix: str
) -> None:
    _, game = saved
    shot_file = tmp_path / f"break{suffix}"
    game.shots[0].simulated.system.save(shot_file)  # pooltool's own serialization
    picture = tmp_path / "replay.png"
    result = poolsim(
        "replay",
        str(shot_file),
        "--screenshot",
        str(picture),
        "--frames",
        "30",
        "--size",
        "640x400",
    )
    assert result.returncode == 0, result.stderr
    assert non_blank(np.asarray(Image.open(picture).convert("RGB")))


def test_replay_refuses_a_damaged_pooltool_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.msgpack"
    bad.write_bytes(b"\x93\x01\x02")
    result = poolsim("replay", str(bad), "--screenshot", str(tmp_path / "x.png"))
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and "not a pooltool shot" in result.stderr


@pytest.fixture(scope="module")
def taken_back(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Game]:
    game = taken_back_game()
    path = tmp_path_factory.mktemp("export-branch") / "taken-back.poolsim"
    save(game, path)
    return path, game


def test_export_a_branch_shot_as_frames_and_a_diagram(
    taken_back: tuple[Path, Game], tmp_path: Path
) -> None:
    """``--branch 1 --shot 3``: the shot taken back, rendered (its own length of frames)
    and drawn (the title names the branch), not the shot the main line played instead."""
    path, game = taken_back
    main, branch = game.lines()
    durations = [
        ShotTimeline.from_system(node.record.simulated.system).duration  # type: ignore[union-attr]
        for node in (branch.nodes[0], main.nodes[-1])
    ]
    assert frame_count(durations[0], 4) != frame_count(durations[1], 4)
    out = tmp_path / "frames"
    result = poolsim(
        "export", str(path), "--branch", "1", "--shot", "3", "--frames", str(out),
        "--fps", "4", "--size", "320x200",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert len(list(out.glob("*.png"))) == frame_count(durations[0], 4)
    pictures = {}
    for line in ("0", "1"):
        diagram = tmp_path / f"line{line}.png"
        result = poolsim(
            "export", str(path), "--branch", line, "--shot", "3", "--diagram", str(diagram)
        )
        assert result.returncode == 0, result.stderr
        pictures[line] = np.asarray(Image.open(diagram).convert("RGB"))
        assert non_blank(pictures[line])
    assert pictures["0"].shape != pictures["1"].shape or (pictures["0"] != pictures["1"]).any()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--branch", "1", "--shot", "4", "--diagram", "x.png"], "branch 1 has shots 1 to 3"),
        (["--branch", "5", "--shot", "1", "--gif", "a.gif"], "the game has no branch 5"),
        (["--branch", "x", "--shot", "1", "--mp4", "a.mp4"], "branch: a whole number from 0"),
    ],
)
def test_export_refuses_a_branch_that_is_not_there(
    taken_back: tuple[Path, Game], tmp_path: Path, args: list[str], message: str
) -> None:
    path, _ = taken_back
    result = poolsim(
        "export",
        str(path),
        *[str(tmp_path / a) if a.endswith((".png", ".gif", ".mp4")) else a for a in args],
    )
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == []
