"""The conformance runner behind ``poolsim rules check FILE...`` (scenarios/FORMAT.md).

Every file is read strictly first; a malformed one prints a single
``error: FILE: SCENARIO: KEY: PROBLEM`` line and the run stops with status 2. Otherwise
each scenario prints ``PASS id`` or ``FAIL id: expected KEY=V got V`` (every mismatch,
``; ``-separated), then ``N passed, M failed``; status 1 when any failed, else 0.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import Any, TextIO

from rules.errors import IllegalAction
from rules.geometry import Point
from rules.ruling import Ruling
from rules.scenarios import Scenario, ScenarioError, load_scenarios
from rules.terms import Player

POSITION_TOLERANCE = 1e-3  # FORMAT.md: spot positions are checked to 1 mm


def check_files(paths: Sequence[Path], out: TextIO) -> int:
    """Run every scenario of ``paths``; report to ``out``; return 0, 1 or 2."""
    loaded: list[Scenario] = []
    for path in paths:
        try:
            loaded.extend(load_scenarios(Path(path)))
        except ScenarioError as error:
            print(error.line(), file=out)
            return 2
    failed = 0
    for scenario in loaded:
        mismatches = run_scenario(scenario)
        if mismatches:
            failed += 1
            print(f"FAIL {scenario.id}: {'; '.join(mismatches)}", file=out)
        else:
            print(f"PASS {scenario.id}", file=out)
    print(f"{len(loaded) - failed} passed, {failed} failed", file=out)
    return 1 if failed else 0


def run_scenario(scenario: Scenario) -> list[str]:
    """The mismatches between the scenario's expectations and the referee's rulings."""
    try:
        ruling = scenario.state.rule(scenario.shot)
    except IllegalAction as error:
        return [f"expected a ruling got a refusal: {error}"]
    mismatches = _compare(scenario.expect, ruling, "")
    if scenario.then is not None:
        try:
            chosen = scenario.state.apply(ruling).rule_choice(scenario.then.choose)
        except IllegalAction as error:
            return [
                *mismatches,
                f"expected then.choose={scenario.then.choose.value} got a refusal: {error}",
            ]
        mismatches += _compare(scenario.then.expect, chosen, "then.")
    return mismatches


def observed(ruling: Ruling, key: str) -> Any:
    """The ruling's value for an ``expect`` key, in the form the scenario reader gives."""
    values: dict[str, Any] = {
        "foul": ruling.foul,
        "foul_codes": frozenset(ruling.foul_codes),
        "next_shooter": ruling.next_shooter,
        "ball_in_hand": ruling.ball_in_hand,
        "phase": ruling.phase,
        "choices": ruling.choices,
        "spotted": frozenset(ruling.spotted),
        "spot_positions": dict(ruling.spotted),
        "score": {Player.A: ruling.score.a, Player.B: ruling.score.b},
        "fouls": {Player.A: ruling.fouls.a, Player.B: ruling.fouls.b},
        "warning": ruling.warning,
        "rack_over": ruling.rack_over,
        "winner": ruling.winner,
        "rerack": ruling.rerack,
        "next_breaker": ruling.next_breaker,
    }
    return values[key]


def _compare(expect: Mapping[str, Any], ruling: Ruling, prefix: str) -> list[str]:
    mismatches = []
    for key, expected in expect.items():
        got = observed(ruling, key)
        if not _matches(key, expected, got):
            mismatches.append(f"expected {prefix}{key}={_show(expected)} got {_show(got)}")
    return mismatches


def _matches(key: str, expected: Any, got: Any) -> bool:
    if key == "foul_codes":  # each must be among the ruling's codes
        return bool(expected <= got)
    if key in ("score", "fouls"):  # the players given
        return all(got[player] == value for player, value in expected.items())
    if key == "spot_positions":
        return all(ball in got and _near(point, got[ball]) for ball, point in expected.items())
    return bool(expected == got)


def _near(a: Point, b: Point) -> bool:
    return all(abs(p - q) <= POSITION_TOLERANCE + 1e-12 for p, q in zip(a, b, strict=True))


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)
    if isinstance(value, Mapping):
        return {str(_plain(k)): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [round(v, 6) if isinstance(v, float) else _plain(v) for v in value]
    return value


def _show(value: Any) -> str:
    return json.dumps(_plain(value))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m rules.conformance FILE...``"""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m rules.conformance FILE...", file=sys.stderr)
        return 2
    return check_files([Path(a) for a in args], sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
