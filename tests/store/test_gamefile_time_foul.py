"""Game files and the shot clock run out (GEN-17): a ``time-foul`` record, with no stroke,
is written and read back through the referee, a branch when taken back, checked by
``poolsim verify``, and refused when its ruling is not the referee's."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import zipfile
from pathlib import Path

import attrs
import pytest

from rules import FoulCode, Options, Player
from sim.play.game import Game, GameSetup, ShotRecord, TimeFoulRecord
from sim.play.selfplay import play_turn
from sim.store.gamefile import GameFileError, load, save
from sim.store.verify import verify_time_fouls
from tests.gamezip import rewrite

pytestmark = pytest.mark.physics
ROOT = Path(__file__).resolve().parents[2]


def timed() -> Game:
    """Ann's clock runs out on the break (taken back, so a branch), then again; Bob
    plays with ball in hand and gives Ann the table back, and her clock runs out."""
    options = Options(shot_clock_s=30, shot_clock_extension_s=30, shot_clock_extensions_per_rack=1)
    match = Game(
        GameSetup(game="ten-ball", race_to=2, seed=4, players=("Ann", "Bob"), options=options)
    )
    match.start(Player.A)
    match.time_foul()
    assert isinstance(match.take_back(), TimeFoulRecord)
    match.time_foul(extension=True)
    rng = random.Random(4)
    play_turn(match, rng)
    assert isinstance(match.records[-1], ShotRecord)
    while match.rack is not None and match.rack.pending is not None:
        play_turn(match, rng)  # a choice the shot offered
    match.time_foul()
    return match


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("time") / "timed.poolsim"
    save(timed(), path)
    return path


def test_time_fouls_round_trip_with_their_branch(saved: Path) -> None:
    game = load(saved)
    fouls = [r for r in game.records if isinstance(r, TimeFoulRecord)]
    assert [(f.shooter, f.extension) for f in fouls] == [(Player.A, True), (Player.A, False)]
    assert all(f.ruling.foul_codes == (FoulCode.SHOT_CLOCK,) for f in fouls)
    assert len(game.lines()) == 2  # the first time foul, taken back, is a branch
    assert len(game.shots) == 1  # a time foul is no shot
    with zipfile.ZipFile(saved) as zf:
        document = json.loads(zf.read("game.json"))
    entry = document["records"][1]
    assert entry["type"] == "time-foul" and set(entry) == {
        "type",
        "rack",
        "shooter",
        "extension",
        "ruling",
    }


def test_verify_rules_each_time_foul_again(saved: Path) -> None:
    checks = verify_time_fouls(load(saved))
    assert [c.label for c in checks] == [
        "rack 1, time foul (A)",
        "rack 1, time foul (A)",
        "branch 1, rack 1, time foul (A)",
    ]
    assert all(c.same for c in checks)
    done = subprocess.run(
        [sys.executable, "-m", "sim", "verify", str(saved)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "rack 1, time foul (A): ruled the same" in done.stdout
    assert "3 time fouls ruled again: all the same" in done.stdout


def test_a_time_foul_with_another_ruling_is_refused(saved: Path, tmp_path: Path) -> None:
    def edit(document: dict[str, object]) -> None:
        records = document["records"]
        assert isinstance(records, list)
        records[1]["ruling"]["ball_in_hand"] = "kitchen"
        records[1]["ruling"]["next_shooter"] = "A"

    with pytest.raises(GameFileError, match="not the referee's ruling"):
        load(rewrite(saved, tmp_path / "edited.poolsim", edit))


def test_a_time_foul_without_a_clock_is_refused(saved: Path, tmp_path: Path) -> None:
    def edit(document: dict[str, object]) -> None:
        setup = document["setup"]
        assert isinstance(setup, dict)
        setup["options"]["shot_clock_s"] = None
        setup["options"]["shot_clock_extension_s"] = None
        setup["options"]["shot_clock_extensions_per_rack"] = 0

    with pytest.raises(GameFileError, match="no shot clock"):
        load(rewrite(saved, tmp_path / "unclocked.poolsim", edit))


def test_verify_rules_a_late_stroke_on_its_clock_reading() -> None:
    """A stroke played after its clock ran out (GEN-17, ruled on its ``clock_s``) is
    ruled the same again: verify gives the referee the reading too."""
    from rules.options import Options as Opts
    from sim.play.picker import choose_stroke
    from sim.store.verify import verify_game

    match = Game(GameSetup(game="nine-ball", race_to=2, seed=6, options=Opts(shot_clock_s=30)))
    match.start(Player.A)
    state = match.rack
    assert state is not None
    stroke = choose_stroke(state, match.setup.spec, random.Random(6))
    record = match.shoot(attrs.evolve(stroke, clock_s=31.0))
    assert FoulCode.SHOT_CLOCK in record.ruling.foul_codes
    (check,) = verify_game(match)
    assert check.ruling_equal
