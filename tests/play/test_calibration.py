"""The noise's calibration (sim.play.opponent.calibration): the breaker's first inning of
a duel rack, played as the duel plays it, on tuning seeds only."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.play.duel import DuelSetup, play_rack
from sim.play.game import Game
from sim.play.opponent import level_named
from sim.play.opponent.calibration import (
    calibrate,
    first_inning,
    inning_played,
    level_at,
    main,
    summary,
)

pytestmark = pytest.mark.physics


def test_a_first_inning_is_the_duel_racks_first_inning() -> None:
    """At the level's own noise, the breaker's shots are the duel's, ruled the same."""
    kept: list[Game] = []

    def keep(game: Game) -> bytes:
        kept.append(game)
        return b""

    for index in (0, 1):  # A breaks rack 0, B rack 1
        played, inning = inning_played("nine-ball", level_named("1"), 3, index)
        outcome = play_rack(DuelSetup("nine-ball", ("1", "1"), 2, 3), index, encode=keep)
        duel = kept.pop()
        ours = [getattr(record, "ruling", None) for record in played.records]
        theirs = [getattr(record, "ruling", None) for record in duel.records[: len(ours)]]
        assert ours and ours == theirs
        assert inning.shots == sum(r is not None for r in ours) and inning.rack == index
        if inning.ran_out:
            assert outcome.winner == played.winner()


def test_a_calibration_keeps_each_inning_and_reads_it_back(tmp_path: Path) -> None:
    found = calibrate("nine-ball", "1", [1.0, 0.5], 4, range(2), tmp_path)
    assert [len(innings) for innings in found.values()] == [2, 2]
    assert len(list(tmp_path.iterdir())) == 4
    again = calibrate("nine-ball", "1", [1.0, 0.5], 4, range(2), tmp_path)  # read, not played
    assert again == found
    assert found[1.0][0] == first_inning("nine-ball", level_at("1", 1.0), 4, 0)
    lines = summary(found)
    assert lines[0].startswith("noise 1: ") and "first innings run out" in lines[0]
    assert "against noise 1, " in lines[1]


def test_a_held_out_seed_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--scales", "0.35", "--seed", "1000", "--racks", "1", "--save", str(tmp_path)])
    assert stopped.value.code == 2
    assert "seed 1000 is held out: calibrate on tuning seeds only" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
