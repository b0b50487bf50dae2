"""8-ball in the game loop: the rack laid out by the set-up (EB-3), the shot picker
playing its own group and the 8 (EB-8, EB-11), and a whole match played, saved, reopened
and verified bit for bit."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from rules import CUE, EightBall, Group, Groups, Phase, Player
from sim.physics.table import TABLE_SPECS
from sim.play.game import GameSetup
from sim.play.picker import best_pot, choose_stroke
from sim.store.gamefile import load, save
from sim.store.verify import verify_game
from tests.play.matches import lag_then_racks
from tests.run import ROOT

pytestmark = pytest.mark.physics
SPEC = TABLE_SPECS["9ft"]
# A's solids (the 3) have no pot; B's 11 sits in front of the corner: the picker must
# not take the stripe, and plays the 3 (or a safety on it).
TABLE = {CUE: (0.6, 1.6), "3": (0.15, 0.5), "11": (1.15, 2.4), "8": (0.3, 2.2), "14": (0.9, 1.0)}


def test_eb_3_the_set_up_racks_the_eight_in_the_centre_and_mixes_the_corners() -> None:
    """EB-3: fifteen balls, the 8 in the middle of the third row, one solid and one stripe
    in the back corners, the others seeded (another seed, another rack)."""
    foot = SPEC.geometry.foot_spot
    corners_seen = set()
    racks = []
    for seed in range(6):
        balls = GameSetup(game="eight-ball", seed=seed).rack_up(1, Player.A)
        assert sorted(balls, key=int) == [str(n) for n in range(1, 16)]
        assert balls["8"][0] == pytest.approx(foot[0]) and balls["8"][1] > foot[1]
        back = max(point[1] for point in balls.values())
        corners = sorted(
            (b for b, p in balls.items() if p[1] == pytest.approx(back)),
            key=lambda b: balls[b][0],
        )
        left, right = corners[0], corners[-1]
        assert {Group.of(left), Group.of(right)} == {Group.SOLIDS, Group.STRIPES}
        corners_seen.add(Group.of(left))
        racks.append(balls)
    assert corners_seen == {Group.SOLIDS, Group.STRIPES}  # either way round
    assert len({tuple(sorted(r, key=lambda b: r[b])) for r in racks}) > 1


def test_eb_8_the_picker_plays_only_its_own_group_and_then_the_eight() -> None:
    """EB-8, EB-9: the pot the picker calls is a ball of its group; with the group
    cleared, the 8 (EB-11)."""
    solids = EightBall(
        balls=TABLE, phase=Phase.PLAY, groups=Groups.assigned(Player.A, Group.SOLIDS)
    )
    assert solids.balls_on == ("3",)
    pot = best_pot(solids, TABLE[CUE], SPEC)
    assert pot is None or pot.ball == "3"
    stroke = choose_stroke(solids, SPEC, random.Random(2))
    assert stroke.call is None or stroke.call.ball == "3"
    stripes = EightBall(
        balls=TABLE, phase=Phase.PLAY, groups=Groups.assigned(Player.A, Group.STRIPES)
    )
    assert stripes.balls_on == ("11", "14")
    on_eight = {b: p for b, p in TABLE.items() if b not in ("3",)}
    cleared = EightBall(
        balls=on_eight, phase=Phase.PLAY, groups=Groups.assigned(Player.A, Group.SOLIDS)
    )
    assert cleared.balls_on == ("8",) and cleared.winning_ball == "8"
    stroke = choose_stroke(cleared, SPEC, random.Random(2))
    assert stroke.call is not None and stroke.call.ball == "8"


def test_a_whole_eight_ball_match_is_played_saved_and_verified(tmp_path: Path) -> None:
    """EB-2, EB-21: a race to two from the lag, every rack to its end; the file reopens
    as the same match and every shot re-simulates bit for bit."""
    played = lag_then_racks(
        GameSetup(game="eight-ball", race_to=2, seed=4, players=("Ann", "Bob")), racks=3
    )
    assert played.winner() is not None
    assert max(played.match.racks_won.a, played.match.racks_won.b) == 2
    path = tmp_path / "eight.poolsim"
    save(played, path)
    loaded = load(path)
    assert loaded.setup == played.setup and loaded.match == played.match
    checks = verify_game(loaded)
    assert checks and all(check.identical for check in checks)


def test_selfplay_saves_a_match_that_verify_finds_bit_identical(tmp_path: Path) -> None:
    """``poolsim selfplay --game eight-ball --racks 1 --seed N --save DIR`` and then
    ``poolsim verify`` on its file: every shot bit-identical."""
    command = [sys.executable, "-c", "from sim.cli import main; main()"]
    played = subprocess.run(
        [
            *command,
            "selfplay",
            "--game",
            "eight-ball",
            "--racks",
            "1",
            "--seed",
            "3",
            "--save",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert played.returncode == 0, played.stderr
    (saved,) = tmp_path.glob("selfplay-eight-ball-seed3.poolsim")
    checked = subprocess.run(
        [*command, "verify", str(saved)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip().splitlines()[-1].endswith("all bit-identical")


def test_eb_7_a_position_keeps_the_groups(tmp_path: Path) -> None:
    """EB-7: a position of 8-ball says each player's group; its file writes and reads
    them; a group in another game's position is refused."""
    from sim.play.position import Position, PositionError
    from sim.store.positionfile import load_position, save_position

    balls = {CUE: (0.6, 1.0), "3": (0.3, 1.6), "11": (1.0, 2.2), "8": (0.7, 1.3)}
    solids = Groups.assigned(Player.B, Group.SOLIDS)
    extras = {"groups": solids.as_dict()}
    position = Position(game="eight-ball", table="9ft", balls=balls, turn="B", extras=extras)
    state = position.state()
    assert isinstance(state, EightBall) and state.balls_on == ("3",)
    path = tmp_path / "eight.json"
    save_position(position, path)
    assert '"groups": {' in path.read_text()
    assert load_position(path) == position
    with pytest.raises(PositionError, match="groups: a 10-ball position has no groups"):
        Position(game="ten-ball", table="9ft", balls={CUE: (0.6, 1.0)}, turn="A", extras=extras)
    with pytest.raises(PositionError, match='groups: expected "solids", "stripes" or null'):
        Position(
            game="eight-ball",
            table="9ft",
            balls=balls,
            turn="B",
            extras={"groups": {"A": "odd", "B": None}},
        )


def test_simulate_breaks_an_eight_ball_rack_at_its_apex() -> None:
    """``poolsim simulate --game eight-ball``: the default break aims at the apex ball,
    whichever the seed racked there (EB-3, EB-5: no first-ball rule)."""
    balls = GameSetup(game="eight-ball", seed=3).rack_up(1, Player.A)
    apex = min(balls, key=lambda b: balls[b][1])
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "from sim.cli import main; main()",
            "simulate",
            "--game",
            "eight-ball",
            "--seed",
            "3",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert f"cue ball first hit the {apex};" in result.stdout
