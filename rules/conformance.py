"""The conformance runner behind ``poolsim rules check FILE...`` (scenarios/FORMAT.md).

Every scenario is read strictly. Each prints one line, in file order: ``PASS id``,
``FAIL id: expected KEY=V got V`` (every mismatch, ``; ``-separated), or, for one the
format refuses, ``error: FILE: SCENARIO: KEY: PROBLEM`` (a file that cannot be read at
all: one such line, SCENARIO ``-``). A refused scenario never stops the others. Then
``N passed, M failed`` (the refused ones counted as failed), unless everything was refused.
The command prints the error lines on stderr, the others on stdout.
Status 2 when anything was refused, else 1 when any failed, else 0.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import Any, TextIO

import attrs

from rules.errors import IllegalAction
from rules.extras import ExpectedValue
from rules.geometry import Point
from rules.positions import Positions
from rules.ruling import Ruling
from rules.scenarios import Scenario, ScenarioError, read_scenarios
from rules.state import GameState
from rules.terms import BallInHand, Choice, Player

POSITION_TOLERANCE = 1e-3  # FORMAT.md: spot positions are checked to 1 mm
# Within the tolerance is within it, however the sum of a float came out.
TOLERANCE = POSITION_TOLERANCE + 1e-12


def check_files(paths: Sequence[Path], out: TextIO, err: TextIO | None = None) -> int:
    """Run every scenario of ``paths``; report to ``out`` (the error lines to ``err``,
    by default ``out`` too); return 0, 1 or 2."""
    passed = failed = refused = 0
    for path in paths:
        for entry in read_scenarios(Path(path)):
            if isinstance(entry, ScenarioError):
                refused += 1
                print(entry.line(), file=out if err is None else err)
                continue
            mismatches = run_scenario(entry)
            if mismatches:
                failed += 1
                print(f"FAIL {entry.id}: {'; '.join(mismatches)}", file=out)
            else:
                passed += 1
                print(f"PASS {entry.id}", file=out)
    if passed or failed or not refused:
        print(f"{passed} passed, {failed + refused} failed", file=out)
    return 2 if refused else 1 if failed else 0


def run_scenario(scenario: Scenario) -> list[str]:
    """The mismatches between the scenario's expectations and the referee's rulings."""
    try:
        ruling = scenario.state.rule(scenario.shot)
    except IllegalAction as error:
        return [f"expected a ruling got a refusal: {error}"]
    after = scenario.state.apply(ruling)
    mismatches = _compare(scenario.expect, ruling, "", after)
    mismatches += scenario.state.inconsistencies(ruling)
    if scenario.then is not None:
        choice = scenario.then.choose
        try:
            chosen = _chosen(after, ruling, choice)
        except IllegalAction as error:
            return [*mismatches, f"expected then.choose={choice.value} got a refusal: {error}"]
        mismatches += _compare(scenario.then.expect, chosen, "then.", None)
    return mismatches


def _chosen(after: GameState, ruling: Ruling, choice: Choice) -> Ruling:
    """The ruling on ``then.choose``. When the shot's ruling offered no choice, it may
    itself have applied this one, the only one possible (FORMAT.md: "the ruling applies
    it"), or, for ``shoot``, left the table to be played as it lies: the expectation is
    then checked on that ruling, as the choice's own (no foul, only its spots)."""
    if after.pending is not None or after.is_over:
        return after.rule_choice(choice)
    plays_on = choice is Choice.SHOOT and ruling.ball_in_hand is None
    if ruling.applied_choice is choice or (ruling.applied_choice is None and plays_on):
        return attrs.evolve(
            ruling,
            player=ruling.next_shooter,
            foul_codes=(),
            spotted=ruling.choice_spotted if ruling.applied_choice else Positions(),
        )
    return after.rule_choice(choice)


def observed(ruling: Ruling, key: str) -> Any:
    """The ruling's value for an ``expect`` key, in the form the scenario reader gives:
    the shared keys here, a game's own (FORMAT.md "8-ball", "14.1") as its ruling's
    extras say them."""
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
    if ruling.extras is not None:
        values |= ruling.extras.observed(ruling)
    return values[key]


def _compare(
    expect: Mapping[str, Any], ruling: Ruling, prefix: str, after: GameState | None
) -> list[str]:
    mismatches = []
    for key, expected in expect.items():
        got = observed(ruling, key)
        if key == "ball_in_hand" and ruling.choices and after is not None:
            got = _ball_in_hand_of_choices(after)
            if expected is None or expected == got:
                continue
        if not _matches(key, expected, got):
            mismatches.append(f"expected {prefix}{key}={_show(expected)} got {_show(got)}")
    return mismatches


def _ball_in_hand_of_choices(after: GameState) -> BallInHand | None:
    """FORMAT.md gives ``ball_in_hand`` "for the next shot when there are no choices".
    When there are, null is right, and so is the ball in hand that every choice leads to
    (after a scratch in rotation both ``kitchen`` and ``spot-lowest`` put the cue ball in
    hand in the kitchen); this is that one, or None when the choices differ."""
    assert after.pending is not None
    found = {after.rule_choice(choice).ball_in_hand for choice in after.pending.choices}
    return found.pop() if len(found) == 1 else None


def _matches(key: str, expected: Any, got: Any) -> bool:
    if key == "foul_codes":  # each must be among the ruling's codes
        return bool(expected <= got)
    if key == "spot_positions":
        return all(ball in got and _near(point, got[ball]) for ball, point in expected.items())
    if isinstance(expected, Mapping):  # per player (score, fouls, 14.1's high_run): those given
        return all(got[player] == value for player, value in expected.items())
    if isinstance(expected, ExpectedValue):  # a game's own value (8-ball's groups, a racking)
        return expected.matches(got, TOLERANCE)
    return bool(expected == got)


def _near(a: Point, b: Point) -> bool:
    return all(abs(p - q) <= TOLERANCE for p, q in zip(a, b, strict=True))


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)
    if isinstance(value, ExpectedValue):
        return value.to_json()
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
