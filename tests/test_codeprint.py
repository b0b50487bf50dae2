"""The fingerprint of the code that plays a duel's rack (``sim.codeprint``): it
reaches the referee, the physics and the player, not the window or the files; a
docstring or a comment leaves it alone, and a change to what the code does changes it."""

from __future__ import annotations

import ast

from rules import Player
from sim import codeprint
from sim.cli.duel import code_words
from sim.codeprint import module_path, reachable, shown
from sim.play.duel import (
    CODE_NOT_RECORDED,
    RackOutcome,
    SideFigures,
    code_versions,
    decision_code,
)


def test_it_covers_what_plays_a_rack_and_nothing_of_the_window_or_the_files() -> None:
    modules = set(reachable("sim.play.duel"))
    for plays in (
        "rules",
        "rules.games",
        "sim.physics.simulate",
        "sim.play.duel",
        "sim.play.game",
        "sim.play.opponent.search",
        "sim.play.opponent.judge",
        "sim.play.geometry.pots",
    ):
        assert plays in modules, plays
    assert not [m for m in modules if m.startswith(("sim.app", "sim.store", "sim.cli"))]
    assert all(module_path(m) is not None for m in modules)


def test_a_relative_import_and_a_lazy_one_are_followed() -> None:
    source = "from .search import Thinker\n\ndef f():\n    from rules.geometry import Point\n"
    named = codeprint._imports(ast.parse(source), "sim.play.opponent")
    assert "sim.play.opponent.search" in named
    assert "rules.geometry" in named


def _shape(source: str) -> str:
    return codeprint._shape(ast.parse(source))


def test_docstrings_comments_and_layout_leave_it_alone() -> None:
    plain = "def f(x):\n    return x + 1\n"
    dressed = '"""A module."""\n\n\ndef f(x):  # why\n    """Adds one."""\n    return (x\n + 1)\n'
    assert _shape(plain) == _shape(dressed)


def test_a_change_to_what_the_code_does_changes_it() -> None:
    assert _shape("def f(x):\n    return x + 1\n") != _shape("def f(x):\n    return x + 2\n")
    # A string that is not a docstring is code.
    assert _shape("def f():\n    x = 'a'\n") != _shape("def f():\n    x = 'b'\n")


def test_the_fingerprint_is_a_sha256_and_the_same_each_time() -> None:
    first = decision_code()
    codeprint.fingerprint.cache_clear()
    assert decision_code() == first
    assert len(first) == 64 and int(first, 16) >= 0
    assert shown(first) == first[:12]


def _racks(*codes: str | None) -> list[RackOutcome]:
    sides = (SideFigures(), SideFigures())
    return [RackOutcome(i, Player.A, sides, code=code) for i, code in enumerate(codes)]


def test_the_figures_count_the_racks_each_code_played() -> None:
    one, other = "1" * 64, "2" * 64
    versions = code_versions(_racks(other, one, None, one))
    assert versions == {"111111111111": 2, "222222222222": 1, CODE_NOT_RECORDED: 1}
    assert list(versions) == ["111111111111", "222222222222", CODE_NOT_RECORDED]
    assert code_words(versions) == (
        "code: 2 racks played by 111111111111; 1 rack played by 222222222222; 1 rack saved"
        " before racks recorded their code. Their figures count together only if the"
        " changes between those versions left the play alone"
    )
    assert code_words(code_versions(_racks(one, one))) == (
        "code: every rack played by the same code (111111111111)"
    )
    assert code_words(code_versions(_racks(None, None))) == (
        "code: 2 racks saved before racks recorded their code"
    )
    assert code_words({}) == "code: no racks played"
