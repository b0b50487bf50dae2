"""The players' figures have one definition (sim.play.figures): a game file's records and
the live game's give the same figures, the same as the statistics counted before the
definition moved, and the same as the committed duels saved; a game adds figures of its
own by naming them (rotation's points)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest

from rules import Player, Positions, Tally
from rules.figures import Step, StepKind
from sim.physics.table import table_spec
from sim.play.duel import DuelSetup, RackOutcome, figures
from sim.play.figures.counts import GameFigures, game_figures
from sim.play.figures.live import figures_of
from sim.store.duelfile import finished_racks, rack_stem
from sim.store.gamefile import SUFFIX, load
from sim.store.stats.database import read_document
from sim.store.stats.figures import file_figures
from tests.run import ROOT

SPEC = table_spec("9ft")
# The games at hand (a duel's racks, below, are counted by their own test).
GAMES = sorted(p for p in (ROOT / "tests" / "data").rglob(f"*{SUFFIX}") if "duels" not in p.parts)
# The figures of those files as the statistics counted them before the definition moved
# to sim.play.figures (sim/store/stats/figures.py at commit 0538f17), written out then.
BEFORE = ROOT / "tests" / "data" / "figures-before-issue-32.json"
# The first six racks of the held-out 4 against 3 duel (docs/duels/ten-ball-4-3-seed1000),
# their game files and figures copied here so the test does not lean on the docs.
DUEL = ROOT / "tests" / "data" / "duels" / "ten-ball-4-3-seed1000"


def _as_written(figures: GameFigures) -> dict[str, Any]:
    """The figures as the snapshot ``BEFORE`` wrote them."""
    return {
        "players": list(figures.players),
        "counts": [attrs.asdict(counts) for counts in figures.counts],
        "fouls": [dict(sorted(fouls.items())) for fouls in figures.fouls],
        "attempts": [
            {**attrs.asdict(a), "cue_after": None if a.cue_after is None else list(a.cue_after)}
            for a in figures.attempts
        ],
    }


def _of_file(path: Path) -> GameFigures:
    document = read_document(path)
    return file_figures(document, table_spec(str(document["setup"]["table"])))


def test_a_game_files_figures_are_those_the_statistics_counted_before() -> None:
    before = json.loads(BEFORE.read_text())
    assert len(before) >= 5
    for name, counted in before.items():  # the files there were then (more came since)
        assert _as_written(_of_file(ROOT / name)) == counted, name


@pytest.mark.physics
def test_the_live_game_counts_as_its_file_does() -> None:
    """The match summary and the duel count the game in memory; ``poolsim stats`` its
    saved file: the same figures, rotation's points among them."""
    for path in GAMES:
        assert figures_of(load(path)) == _of_file(path), path
    rotation = figures_of(load(ROOT / "tests/data/elsewhere/selfplay-rotation-seed32.poolsim"))
    assert [figure.name for figure in rotation.own_figures] == ["points"]
    assert all(own["points"] > 0 for own in rotation.own)


@pytest.mark.physics
def test_a_committed_duel_summarised_again_from_its_racks_games_is_the_same() -> None:
    """The first racks of the held-out 4 against 3 duel (levels 1 to 4 are as they were
    when it was played): the players' figures counted
    from each rack's game file are the ones its saved figures hold, and so is the duel's
    summary; its pots meant are its calls, the pots the figures count as called."""
    setup = DuelSetup(game="ten-ball", levels=("4", "3"), racks=6, seed=1000)
    saved = finished_racks(DUEL, setup)
    assert sorted(saved) == list(range(6))
    recounted: list[RackOutcome] = []
    for index, outcome in sorted(saved.items()):
        counted = figures_of(load(DUEL / f"{rack_stem(setup, index)}{SUFFIX}"))
        sides = []
        for player, side in zip(Player, outcome.sides, strict=True):
            counts = counted.of(player)
            name = counted.players[0 if player is Player.A else 1]
            called = [a for a in counted.attempts if a.called and a.player == name]
            assert (side.called_pots_attempted, side.called_pots_made) == (
                len(called),
                sum(a.made for a in called),
            )
            sides.append(
                attrs.evolve(
                    side,
                    racks_won=counts.racks_won,
                    breaks=counts.breaks,
                    break_and_runs=counts.break_and_runs,
                    shots=counts.shots,
                    fouls=counts.fouls,
                )
            )
        recounted.append(attrs.evolve(outcome, sides=(sides[0], sides[1])))
        assert recounted[-1] == outcome
    assert figures(setup, recounted) == figures(setup, saved.values())
    assert sum(side.shots for o in recounted for side in o.sides) > 0


def _turn(rack: int, shooter: Player, score: tuple[int, int], **ruling: Any) -> Step:
    table = Positions({"cue": (0.6, 0.6), "1": (0.6, 1.5)})
    return Step(
        kind=StepKind.SHOT,
        rack=rack,
        shooter=shooter,
        score=Tally(*score),
        start=table,
        after=table,
        positions=table,
        next_shooter=shooter.other,
        **ruling,
    )


def test_a_game_adds_its_own_figures_through_the_one_definition() -> None:
    """Rotation names its points (ROT-9) in ``own_figures``; the figures count them from
    the steps: each rack's score as it ended, a replayed rack's not, a rack in play's so
    far. A game with none has none."""
    steps = [
        _turn(1, Player.A, (40, 0)),
        _turn(1, Player.B, (40, 61), rack_over=True, winner=Player.B),
        _turn(2, Player.A, (12, 12), rack_over=True, rerack=True),  # a stalemate, replayed
        _turn(3, Player.A, (9, 0)),
    ]
    names = ("Ann", "Bob")
    rotation = game_figures(steps, game="rotation", players=names, race_to=2, spec=SPEC)
    assert rotation.own == ({"points": 49}, {"points": 61})
    own = [(f.name, f.words, f.best) for f in rotation.own_figures]
    assert own == [("points", "points", False)]
    ten_ball = game_figures(steps, game="ten-ball", players=names, race_to=2, spec=SPEC)
    assert (ten_ball.own_figures, ten_ball.own) == ((), ({}, {}))
    assert ten_ball.counts == rotation.counts  # every game's figures, the same count


def test_a_duel_reports_the_games_own_figures(capsys: pytest.CaptureFixture[str]) -> None:
    """Rotation's points over a duel's racks: summed per player, and their mean a rack
    with its standard error (the racks' spread over the root of their number), with
    their words, each a row of its own in ``poolsim duel``'s table; 10-ball's duel is as
    it was."""
    from sim.cli.duel import _print_duel
    from sim.play.duel import SideFigures

    setup = DuelSetup(game="rotation", levels=("1", "2"), racks=2, seed=4)
    first = SideFigures(own=(("points", 61),)), SideFigures(own=(("points", 9),))
    second = SideFigures(own=(("points", 30),)), SideFigures(own=(("points", 61),))
    racks = [RackOutcome(0, Player.A, first), RackOutcome(1, Player.B, second)]
    report = figures(setup, racks)
    assert report["own_figures"] == {"points": "points", "points_per_rack": "points a rack"}
    a, b = report["players"]["A"], report["players"]["B"]
    assert (a["points"], b["points"]) == (91, 70)
    assert a["points_per_rack"] == {"value": 45.5, "standard_error": 15.5}
    assert b["points_per_rack"] == {"value": 35.0, "standard_error": 26.0}
    ten_ball = figures(attrs.evolve(setup, game="ten-ball"), racks)
    assert "own_figures" not in ten_ball and "points_per_rack" not in ten_ball["players"]["A"]
    _print_duel(report, as_json=False)
    rows = [
        [cell.strip() for cell in line.split("│")[1:4]]
        for line in capsys.readouterr().out.splitlines()
    ]
    assert ["points", "91", "70"] in rows
    assert ["points a rack", "45.5 ± 15.5", "35.0 ± 26.0"] in rows


@pytest.mark.physics
def test_a_duels_rack_keeps_the_games_own_figures_as_its_game_counts_them(tmp_path: Path) -> None:
    from sim.play.duel import play_rack
    from sim.store.gamefile import to_bytes

    setup = DuelSetup(game="rotation", levels=("1", "1"), racks=1, seed=4, max_steps=8)
    outcome = play_rack(setup, 0, encode=to_bytes)
    assert outcome.file is not None
    (tmp_path / f"rack{SUFFIX}").write_bytes(outcome.file)
    counted = _of_file(tmp_path / f"rack{SUFFIX}")
    assert [dict(side.own) for side in outcome.sides] == list(counted.own)
    assert [name for side in outcome.sides for name, _ in side.own] == ["points", "points"]
