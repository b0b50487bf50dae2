"""``poolsim position GAME --shot N -o POS.json`` and ``poolsim export POS.json --diagram
OUT.png``: the position before a shot of a saved game, and its picture; bad input is one
line, status 2, and no file written or changed."""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import numpy as np
import pytest
from PIL import Image

from rules import Player
from sim.play.game import Game, GameSetup, ShotRecord
from sim.play.position import position_before
from sim.play.selfplay import play_turn
from sim.store.gamefile import load, save
from sim.store.positionfile import load_position
from tests.run import poolsim
from tests.store.test_system_agreement import OLD_FILE
from tests.test_cli_fuzz import _snapshot, run_in_process

pytestmark = pytest.mark.physics


def taken_back_game() -> Game:
    """Three shots of 10-ball, the third taken back and played again softer: the main
    line ends with the new third shot, branch 1 is the one taken back."""
    game = Game(GameSetup(game="ten-ball", race_to=3, seed=6, players=("Ann", "Bob")))
    game.start(Player.A)
    rng = random.Random(6)
    while len(game.shots) < 3:
        play_turn(game, rng)
    first = game.take_back().stroke
    softer = attrs.evolve(first.action, speed=first.action.speed * 0.6)
    game.shoot(attrs.evolve(first, action=softer))
    return game


@pytest.fixture(scope="module")
def taken_back(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Game]:
    game = taken_back_game()
    path = tmp_path_factory.mktemp("branched") / "taken-back.poolsim"
    save(game, path)
    return path, game


def test_the_position_before_a_shot_and_its_diagram(tmp_path: Path) -> None:
    out = tmp_path / "pos.json"
    result = poolsim("position", str(OLD_FILE), "--shot", "3", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"wrote {out}"
    game = load(OLD_FILE)
    third = [n for n in game.current.path() if isinstance(n.record, ShotRecord)][2]
    assert load_position(out) == position_before(game, third)
    picture = tmp_path / "pos.png"
    result = poolsim("export", str(out), "--diagram", str(picture), "--size", "960x600")
    assert result.returncode == 0, result.stderr
    image = np.asarray(Image.open(picture).convert("RGB"))
    assert image.shape[1] == 960 and image.shape[0] > 500 and float(image.std()) > 8.0


def test_the_break_position_has_the_cue_ball_in_hand_where_it_was_placed(tmp_path: Path) -> None:
    out = tmp_path / "break.json"
    outcome = run_in_process(["position", str(OLD_FILE), "--shot", "1", "-o", str(out)])
    assert outcome.status == 0, outcome.stderr
    taken = load_position(out)
    first = load(OLD_FILE).shots[0]
    assert taken.in_hand is not None and taken.in_hand.value == "kitchen"
    assert taken.balls["cue"] == first.simulated.before["cue"]
    assert len(taken.balls) == 11  # the rack and the cue ball


def _refused(args: list[str], folder: Path, words: str) -> None:
    before = _snapshot(folder)
    outcome = run_in_process(args)
    assert outcome.status == 2, (outcome.status, outcome.stderr)
    assert outcome.stdout == "" and len(outcome.stderr.splitlines()) == 1, outcome.stderr
    assert words in outcome.stderr, outcome.stderr
    assert _snapshot(folder) == before  # nothing written, nothing changed


def test_position_refuses_bad_input_in_one_line_and_writes_nothing(tmp_path: Path) -> None:
    out = str(tmp_path / "pos.json")
    (tmp_path / "a-file").write_text("mine")
    (tmp_path / "corrupt.poolsim").write_bytes(b"not a zip at all")
    kept = tmp_path / "kept.json"
    kept.write_text("an older position")
    for args, words in [
        (["--shot", "999", "-o", out], "the game has shots 1 to 13"),
        (["--shot", "0", "-o", out], "shot must be a whole number from 1"),
        (["--shot", "999", "-o", str(kept)], "the game has shots 1 to 13"),
        (["-o", out], "Missing option '--shot'"),
        (["--shot", "1"], "Missing option '-o'"),
        (["--shot", "1", "-o", str(tmp_path / "a-file" / "pos.json")], "is a file, not a folder"),
        (["--shot", "1", "-o", str(tmp_path)], "is a directory"),
        (["--shot", "1", "-o", "/dev/null"], "is not a regular file"),
    ]:
        _refused(["position", str(OLD_FILE), *args], tmp_path, words)
    for game, words in [
        (tmp_path / "missing.poolsim", "cannot read"),
        (tmp_path / "corrupt.poolsim", "not a poolsim game file"),
        (tmp_path / "a-file", "not a poolsim game file"),
    ]:
        _refused(["position", str(game), "--shot", "1", "-o", out], tmp_path, words)


def test_position_makes_the_folders_on_the_way_as_every_writer_does(tmp_path: Path) -> None:
    """A folder that does not exist yet is made (as export and selfplay make theirs);
    one that cannot be made is refused above."""
    out = tmp_path / "drills" / "new" / "pos.json"
    outcome = run_in_process(["position", str(OLD_FILE), "--shot", "2", "-o", str(out)])
    assert outcome.status == 0, outcome.stderr
    assert load_position(out).balls


def test_export_of_a_position_refuses_bad_input_and_writes_nothing(tmp_path: Path) -> None:
    good = tmp_path / "pos.json"
    assert run_in_process(["position", str(OLD_FILE), "--shot", "4", "-o", str(good)]).status == 0
    bad = tmp_path / "bad.json"
    bad.write_text(
        good.read_text().replace('"turn": "A"', '"turn": "C"').replace('"turn": "B"', '"turn": "C"')
    )
    picture = str(tmp_path / "pos.png")
    for args, words in [
        ([str(bad), "--diagram", picture], 'turn: expected "A" or "B", got "C"'),
        ([str(tmp_path / "gone.json"), "--diagram", picture], "cannot read"),
        ([str(good), "--gif", str(tmp_path / "pos.gif")], "a position is a still"),
        ([str(good), "--diagram", picture, "--shot", "2"], "--shot does not apply to a position"),
        ([str(good), "--diagram", picture, "--size", "100x100"], "a diagram is 480 to 7680"),
        (
            [str(good), "--diagram", str(tmp_path / "a-dir" / "x.png"), "--camera", "behind"],
            "--camera does not apply",
        ),
    ]:
        _refused(["export", *args], tmp_path, words)


def test_position_of_a_branch_counts_its_shots_from_the_first(
    taken_back: tuple[Path, Game], tmp_path: Path
) -> None:
    """``--branch 1 --shot 3`` is the shot taken back (the branch's own first shot, third
    as a player counts); ``--branch 0`` the main line's, played in its place; both from
    the same position, and shot 2 is the same whichever line counts it."""
    path, game = taken_back
    main, branch = game.lines()
    assert len(branch.nodes) == 1 and branch.nodes[0].parent is main.nodes[-1].parent
    outs = {}
    for args in (["--branch", "1", "--shot", "3"], ["--branch", "0", "--shot", "3"]):
        out = tmp_path / f"{args[1]}.json"
        outcome = run_in_process(["position", str(path), *args, "-o", str(out)])
        assert outcome.status == 0, outcome.stderr
        outs[args[1]] = load_position(out)
    assert outs["1"] == position_before(game, branch.nodes[0])
    assert outs["0"] == position_before(game, main.nodes[-1])
    assert outs["0"] == outs["1"]  # the same position: one shot taken back, one in its place
    second = tmp_path / "second.json"
    outcome = run_in_process(
        ["position", str(path), "--branch", "1", "--shot", "2", "-o", str(second)]
    )
    assert outcome.status == 0, outcome.stderr
    assert load_position(second) == position_before(game, game.shot_nodes()[1])


def test_position_refuses_a_branch_or_shot_that_is_not_there(
    taken_back: tuple[Path, Game], tmp_path: Path
) -> None:
    path, _ = taken_back
    out = str(tmp_path / "pos.json")
    for args, words in [
        (["--branch", "2", "--shot", "1"], "the game has no branch 2: it has the main line 0"),
        (["--branch", "1", "--shot", "4"], "branch 1 has shots 1 to 3"),
        (["--branch", "0", "--shot", "9"], "the main line has shots 1 to 3"),
        (["--branch", "-1", "--shot", "1"], "branch must be a whole number from 0"),
    ]:
        _refused(["position", str(path), *args, "-o", out], tmp_path, words)
    _refused(
        ["position", str(OLD_FILE), "--branch", "1", "--shot", "1", "-o", out],
        tmp_path,
        "the game has no branch 1: it has no branches, only the main line 0",
    )
