"""A duel's racks kept on disk (``sim.store.duelfile``): read back as they were written,
and a folder of another duel, a level since changed, or a broken file refused in one
line."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import attrs
import pytest

from rules import Player
from sim.play.duel import DuelSetup, RackOutcome, SideFigures, run_duel
from sim.store.duelfile import (
    DuelFileError,
    figures_bytes,
    finished_racks,
    rack_stem,
    save_rack,
)

SETUP = DuelSetup(game="ten-ball", levels=("5", "4"), racks=4, seed=7)
A = SideFigures(
    racks_won=1, breaks=1, break_and_runs=1, shots=9, fouls=0, called_pots_attempted=9,
    called_pots_made=9, safeties=0, think_seconds=(2.5, 0.25, 1.125), simulations=(400, 90, 310),
    candidates=(180, 30, 150),
)  # fmt: skip
B = SideFigures(
    shots=2, fouls=1, safeties=2, think_seconds=(1.0, 3.0), simulations=(5, 6), candidates=(1, 2)
)


def outcome(index: int, winner: Player | None = Player.A) -> RackOutcome:
    return RackOutcome(index, winner, (A, B), file=b"the game file's bytes")


def test_a_rack_saved_is_read_back_as_it_was(tmp_path: Path) -> None:
    save_rack(tmp_path, SETUP, outcome(0))
    save_rack(tmp_path, SETUP, outcome(2, None))
    found = finished_racks(tmp_path, SETUP)
    assert found == {0: outcome(0), 2: outcome(2, None)}
    assert (
        tmp_path / "duel-ten-ball-seed7-rack00001.poolsim"
    ).read_bytes() == b"the game file's bytes"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "duel-ten-ball-seed7-rack00001.json",
        "duel-ten-ball-seed7-rack00001.poolsim",
        "duel-ten-ball-seed7-rack00003.json",
        "duel-ten-ball-seed7-rack00003.poolsim",
    ]


def test_more_racks_asked_for_is_the_same_duel_going_on(tmp_path: Path) -> None:
    save_rack(tmp_path, SETUP, outcome(1))
    assert finished_racks(tmp_path, attrs.evolve(SETUP, racks=100)) == {1: outcome(1)}
    assert finished_racks(tmp_path, attrs.evolve(SETUP, racks=1)) == {}  # rack 2 not asked for


def test_racks_done_are_counted_and_not_played_again() -> None:
    setup = attrs.evolve(SETUP, racks=2)
    done = {0: outcome(0), 1: outcome(1, Player.B)}
    heard: list[RackOutcome] = []
    assert run_duel(setup, workers=2, on_rack=heard.append, done=done) == [
        attrs.evolve(done[0], file=None),
        attrs.evolve(done[1], file=None),
    ]
    assert heard == []


@pytest.mark.parametrize(
    ("other", "differs"),
    [
        (attrs.evolve(SETUP, levels=("5", "3")), "its levels is not this duel's"),
        (attrs.evolve(SETUP, seed=7, table="7ft"), "its table is not this duel's"),
        (attrs.evolve(SETUP, max_steps=50), "its max_steps is not this duel's"),
    ],
)
def test_a_rack_of_another_duel_is_refused(tmp_path: Path, other: DuelSetup, differs: str) -> None:
    save_rack(tmp_path, other, outcome(0))
    with pytest.raises(DuelFileError) as refused:
        finished_racks(tmp_path, SETUP)
    message = str(refused.value)
    assert message.startswith(str(tmp_path / "duel-ten-ball-seed7-rack00001.json"))
    assert "a rack of another duel" in message and differs in message
    assert "\n" not in message


def test_a_level_since_changed_is_another_duel(tmp_path: Path) -> None:
    path = tmp_path / f"{rack_stem(SETUP, 0)}.json"
    document = json.loads(figures_bytes(SETUP, outcome(0)))
    document["duel"]["levels"]["A"]["settings"] = "Level(name='5', noise=..., search=...older)"
    path.write_text(json.dumps(document))
    with pytest.raises(DuelFileError, match="its levels is not this duel's"):
        finished_racks(tmp_path, SETUP)


def _broken(document: dict[str, Any], key: str, value: object) -> dict[str, Any]:
    broken: dict[str, Any] = json.loads(json.dumps(document))
    place = broken
    *parents, last = key.split(".")
    for name in parents:
        place = place[name]
    place[last] = value
    return broken


@pytest.mark.parametrize(
    ("key", "value", "problem"),
    [
        ("format", "poolsim-position", "format: not a poolsim duel rack"),
        ("version", 2, "version: unknown version 2"),
        ("rack", 3, "rack: expected 1, as the file's name says"),
        ("winner", "C", 'winner: expected "A" or "B", got "C"'),
        ("sides.A.shots", -1, "sides.A.shots: expected a count, got -1"),
        ("sides.A.fouls", 1.5, "sides.A.fouls: expected a whole number, got float"),
        ("sides.B.think_seconds", [1.0, None], "sides.B.think_seconds: expected a list of finite"),
        ("sides.B.simulations", [1.5], "sides.B.simulations: expected a list of whole numbers"),
        ("sides.B.extra", 1, "sides.B.extra: unknown key"),
        ("code", "not a digest", 'code: expected a sha256 in hex, got "not a digest"'),
        ("code", 12, "code: expected a sha256 in hex, got 12"),
    ],
)
def test_a_broken_rack_is_refused_in_one_line(
    tmp_path: Path, key: str, value: object, problem: str
) -> None:
    path = tmp_path / f"{rack_stem(SETUP, 0)}.json"
    document = json.loads(figures_bytes(SETUP, outcome(0)))
    path.write_text(json.dumps(_broken(document, key, value)))
    with pytest.raises(DuelFileError) as refused:
        finished_racks(tmp_path, SETUP)
    assert str(refused.value).startswith(f"{path}: ")
    assert problem in str(refused.value)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    "content",
    [b"", b"{", b"\xff\xfe{}", b"[1, 2]", b'{"format": "poolsim-duel-rack", "version": 1}', b"NaN"],
)
def test_a_file_that_is_no_rack_is_refused(tmp_path: Path, content: bytes) -> None:
    (tmp_path / f"{rack_stem(SETUP, 0)}.json").write_bytes(content)
    with pytest.raises(DuelFileError):
        finished_racks(tmp_path, SETUP)


def test_a_special_file_is_refused_without_reading_it(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / f"{rack_stem(SETUP, 0)}.json")  # reading would wait forever
    with pytest.raises(DuelFileError, match=r"not a regular file|is a"):
        finished_racks(tmp_path, SETUP)


def test_a_games_own_figures_are_kept_with_its_racks_and_only_there(tmp_path: Path) -> None:
    """A rotation rack keeps its points (``Rotation.own_figures``) in its figures file and
    reads them back; a 10-ball rack's file has no key for them, as before."""
    rotation = attrs.evolve(SETUP, game="rotation")
    scored = attrs.evolve(A, own=(("points", 61),)), attrs.evolve(B, own=(("points", 20),))
    save_rack(tmp_path, rotation, RackOutcome(0, Player.A, scored))
    assert finished_racks(tmp_path, rotation)[0].sides == scored
    assert "own" not in json.loads(figures_bytes(SETUP, outcome(0)))["sides"]["A"]


def test_each_rack_keeps_the_code_that_played_it_and_an_older_rack_has_none(
    tmp_path: Path,
) -> None:
    """Racks of two codes are read back each with its own (the figures count them
    apart: tests/play/test_duel.py); a rack saved before racks recorded it reads as
    None, and its file has no key for it."""
    played = attrs.evolve(outcome(0), code="a" * 64)
    save_rack(tmp_path, SETUP, played)
    save_rack(tmp_path, SETUP, outcome(1))
    found = finished_racks(tmp_path, SETUP)
    assert found[0].code == "a" * 64
    assert found[1].code is None
    assert "code" not in json.loads(figures_bytes(SETUP, outcome(1)))
