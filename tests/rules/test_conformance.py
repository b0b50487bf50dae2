"""The conformance runner (scenarios/FORMAT.md): the shared files pass, malformed files
are refused with one line naming file, scenario and key, failures say what differed."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from rules.conformance import check_files

SCENARIOS = Path(__file__).resolve().parents[1] / "data" / "scenarios"


def run(*paths: Path) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = check_files(list(paths), out)
    return status, out.getvalue().splitlines()


SUITES = [
    ("ten-ball.json", 29),
    ("rotation.json", 23),
    # The project's own cases (the referee audit): options and tricky rulings.
    ("extra-ten-ball.json", 31),
    ("extra-rotation.json", 30),
    # The second audit: REFERENCE.md's worked numbers, the remaining Part B options, rack
    # ends, and a table of another size (FORMAT.md ``table``).
    ("audit-ten-ball.json", 32),
    ("audit-rotation.json", 33),
    ("audit-eight-foot-table.json", 5),
    # The third audit: fouls combined on the break and the push out, the 10 on a safety or
    # in the wrong pocket, ROT-17 sub-cases and crossings, crowded spotting, rack ends.
    ("audit2-ten-ball.json", 27),
    ("audit2-rotation.json", 24),
    # Issue 15: ROT-13: the foot spot reserved for LB, or occupied, keeps the row 2R off it.
    ("harden-rotation.json", 4),
    # Issue 16: WPA 9-ball, the public suite and the project's own (its options B-26..B-43).
    ("nine-ball.json", 24),
    ("extra-nine-ball.json", 23),
    # Issue 17: WPA 8-ball, the public suite and the project's own (its options B-31..B-44).
    ("eight-ball.json", 26),
    ("extra-eight-ball.json", 36),
    # Issue 32: WPA 14.1 continuous, the public suite (its options B-45..B-59).
    ("straight-pool.json", 34),
]


@pytest.mark.parametrize(("name", "count"), SUITES)
def test_scenario_files_all_pass(name: str, count: int) -> None:
    """GEN, TB, NB and ROT rules as the public conformance suite and the project's own extra
    files state them."""
    status, lines = run(SCENARIOS / name)
    assert [line for line in lines if not line.startswith("PASS ")] == [f"{count} passed, 0 failed"]
    assert status == 0


def test_several_files_in_one_run() -> None:
    status, lines = run(*(SCENARIOS / name for name, _ in SUITES))
    assert (status, lines[-1]) == (0, f"{sum(n for _, n in SUITES)} passed, 0 failed")


def test_extra_scenarios_name_known_rules_and_unique_ids() -> None:
    """The project's files follow FORMAT.md like the shared ones (strict loading, ids
    unique across all the files so a combined run reads clearly)."""
    ids: list[str] = []
    for name, _ in SUITES:
        ids += [s["id"] for s in json.loads((SCENARIOS / name).read_text())["scenarios"]]
    assert len(ids) == len(set(ids))


def test_a_ball_of_the_other_game_is_unknown(tmp_path: Path) -> None:
    data = json.loads((SCENARIOS / "rotation.json").read_text())
    scenario = data["scenarios"][0]
    scenario["game"] = "ten-ball"  # its rack holds balls 11 to 15
    status, lines = run(write(tmp_path, scenario))
    assert status == 2 and "before.balls.15: unknown ball" in lines[0]


def test_nine_ball_knows_nine_balls_and_the_rule_ids_of_9_ball(tmp_path: Path) -> None:
    """NB-1: a 10 in a 9-ball scenario is unknown; NB-n and 9-ball's B-n are rule IDs."""
    data = json.loads((SCENARIOS / "ten-ball.json").read_text())
    ten = data["scenarios"][0]
    ten["game"] = "nine-ball"
    status, lines = run(write(tmp_path, ten))
    assert status == 2 and "before.balls.10: unknown ball" in lines[0]
    nine = json.loads((SCENARIOS / "nine-ball.json").read_text())["scenarios"][0]
    for good in ("NB-18", "B-30", "B-43"):
        assert run(write(tmp_path, {**nine, "rules": [good]}))[0] == 0
    status, lines = run(write(tmp_path, {**nine, "rules": ["NB-19"]}))
    assert status == 2 and 'rules[0]: unknown rule ID "NB-19"' in lines[0]


def base_scenario() -> dict[str, Any]:
    data = json.loads((SCENARIOS / "ten-ball.json").read_text())
    return copy.deepcopy(next(s for s in data["scenarios"] if s["id"] == "tb-push-out-pass-back"))


def write(tmp_path: Path, *scenarios: dict[str, Any], **top: Any) -> Path:
    path = tmp_path / "mine.json"
    document = {"format": "poolsim-scenarios", "version": 1, "scenarios": list(scenarios), **top}
    path.write_text(json.dumps(document))
    return path


def test_any_file_of_the_format_runs(tmp_path: Path) -> None:
    scenario = base_scenario()
    scenario["id"] = "my-own"
    status, lines = run(write(tmp_path, scenario))
    assert (status, lines) == (0, ["PASS my-own", "1 passed, 0 failed"])


def test_a_failure_names_the_key_and_both_values(tmp_path: Path) -> None:
    scenario = base_scenario()
    scenario["expect"]["choices"] = ["shoot"]
    scenario["then"]["expect"]["next_shooter"] = "A"
    status, lines = run(write(tmp_path, scenario))
    assert status == 1
    assert lines == [
        'FAIL tb-push-out-pass-back: expected choices=["shoot"] got ["pass", "shoot"]; '
        'expected then.next_shooter="A" got "B"',
        "0 passed, 1 failed",
    ]


def test_positions_are_checked_to_a_millimetre(tmp_path: Path) -> None:
    data = json.loads((SCENARIOS / "ten-ball.json").read_text())
    scenario = next(
        s for s in data["scenarios"] if s["id"] == "tb-break-ten-spotted-behind-blocker"
    )
    scenario["expect"]["spot_positions"]["10"] = [0.635, 1.9859]  # 0.75 mm off
    assert run(write(tmp_path, scenario))[0] == 0
    scenario["expect"]["spot_positions"]["10"] = [0.635, 1.9875]  # 2.4 mm off
    assert run(write(tmp_path, scenario))[0] == 1


def test_a_refused_shot_is_a_failure(tmp_path: Path) -> None:
    scenario = base_scenario()
    scenario["before"]["phase"] = "play"  # a push out is refused here (TB-8)
    status, lines = run(write(tmp_path, scenario))
    assert status == 1 and "got a refusal: TB-8" in lines[0]


BROKEN = [
    ("unknown scenario key", lambda s: s.update(colour="red"), "colour: unknown key"),
    ("unknown before key", lambda s: s["before"].update(turn=3), "before.turn: unknown key"),
    (
        "unknown ball",
        lambda s: s["before"]["balls"].update({"11": [0.2, 0.2]}),
        'before.balls.11: unknown ball "11" in ten-ball',
    ),
    (
        "unknown pocket",
        lambda s: s["shot"].update(call={"ball": "1", "pocket": "mid"}),
        "shot.call.pocket: unknown pocket 'mid'",
    ),
    (
        "unknown event",
        lambda s: s["shot"]["events"].append({"type": "bounce", "ball": "1"}),
        "shot.events[0].type: unknown event type 'bounce'",
    ),
    (
        "unknown event key",
        lambda s: s["shot"]["events"].append({"type": "rail", "ball": "1", "x": 1}),
        "shot.events[0].x: unknown key",
    ),
    (
        "unknown choice",
        lambda s: s["then"].update(choose="pass-back"),
        "then.choose: unknown choice 'pass-back'",
    ),
    (
        "unknown expected choice",
        lambda s: s["expect"].update(choices=["shoot", "redo"]),
        "expect.choices[1]: unknown choice 'redo'",
    ),
    (
        "unknown foul code",
        lambda s: s["expect"].update(foul_codes=["miscue"]),
        "expect.foul_codes[0]: unknown foul code 'miscue'",
    ),
    (
        "foul code beyond version 1",
        lambda s: s["expect"].update(foul_codes=["double-hit"]),
        "expect.foul_codes[0]: unknown foul code 'double-hit'",
    ),
    ("unknown expect key", lambda s: s["expect"].update(loser="A"), "expect.loser: unknown key"),
    ("unknown option", lambda s: s.update(options={"speed": 3}), "options.speed: unknown option"),
    ("bad option value", lambda s: s.update(options={"call_mode": "loud"}), "options.call_mode"),
    ("unknown rule id", lambda s: s["rules"].append("TB-21"), 'rules[4]: unknown rule ID "TB-21"'),
    ("missing required key", lambda s: s.pop("expect"), "expect: missing required key"),
    ("missing before key", lambda s: s["before"].pop("shooter"), "before.shooter: missing"),
    ("unknown game", lambda s: s.update(game="snooker"), 'game: unknown game "snooker"'),
]


@pytest.mark.parametrize(("what", "breaks", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_malformed_scenarios_are_refused_naming_file_scenario_and_key(
    tmp_path: Path, what: str, breaks: Any, message: str
) -> None:
    good = base_scenario()
    good["id"] = "fine"
    bad = base_scenario()
    breaks(bad)
    path = write(tmp_path, bad, good)
    status, lines = run(path)
    assert status == 2
    # The refused scenario is reported in its place; the others still run.
    assert lines[1:] == ["PASS fine", "1 passed, 1 failed"]
    assert lines[0].startswith(f"error: {path}: tb-push-out-pass-back: ")
    assert message in lines[0]


def test_file_level_errors(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    assert run(missing) == (2, [f"error: {missing}: -: file: No such file or directory"])
    garbled = tmp_path / "garbled.json"
    garbled.write_text("{")
    status, lines = run(garbled)
    assert status == 2 and lines[0].startswith(f"error: {garbled}: -: file: not JSON")
    wrong = write(tmp_path, version=2)
    assert run(wrong) == (2, [f"error: {wrong}: -: version: unsupported version 2"])
    extra = write(tmp_path, comment="hi")
    assert run(extra) == (2, [f"error: {extra}: -: comment: unknown key"])


def test_a_refused_file_does_not_stop_the_others(tmp_path: Path) -> None:
    """A malformed scenario is an error (status 2) naming file, scenario and key, but the
    run goes on: one scenario the runner misreads must not hide the verdict on the rest."""
    bad = base_scenario()
    bad["expect"]["foul"] = "no"
    status, lines = run(write(tmp_path, bad), SCENARIOS / "ten-ball.json")
    assert status == 2 and "expect.foul: expected true or false" in lines[0]
    assert lines[-1] == "29 passed, 1 failed"
    assert sum(line.startswith("PASS ") for line in lines) == 29


def test_an_empty_file_runs_nothing(tmp_path: Path) -> None:
    assert run(write(tmp_path)) == (0, ["0 passed, 0 failed"])


def test_nothing_to_run_is_only_the_error(tmp_path: Path) -> None:
    """A file where nothing can run prints its error line and no tally."""
    missing = tmp_path / "nope.json"
    status, lines = run(missing, write(tmp_path, version=2))
    assert status == 2 and len(lines) == 2 and all(line.startswith("error: ") for line in lines)


def test_duplicate_ids_are_refused(tmp_path: Path) -> None:
    status, lines = run(write(tmp_path, base_scenario(), base_scenario()))
    assert status == 2 and lines[0].startswith("PASS ") and "id: duplicate id" in lines[1]


def eight_scenario(scenario_id: str = "eb-wrong-group-first-foul") -> dict[str, Any]:
    data = json.loads((SCENARIOS / "eight-ball.json").read_text())
    return copy.deepcopy(next(s for s in data["scenarios"] if s["id"] == scenario_id))


def test_eight_ball_reads_its_additions_and_a_wrong_expectation_fails(tmp_path: Path) -> None:
    """FORMAT.md "8-ball": ``groups``, ``target``, ``loss``, ``illegal_break`` are checked,
    so a scenario that expects the wrong one fails (EB-7, EB-8, EB-12)."""
    scenario = eight_scenario()
    assert run(write(tmp_path, scenario))[0] == 0
    scenario["expect"]["target"] = "solids"
    scenario["expect"]["groups"] = {"A": "stripes", "B": "solids"}
    status, lines = run(write(tmp_path, scenario))
    assert status == 1
    assert 'expected target="solids" got "stripes"' in lines[0]
    assert 'expected groups={"A": "stripes", "B": "solids"}' in lines[0]
    lost = eight_scenario("eb-eight-uncalled-pocket-loses")
    lost["expect"]["loss"] = "eight-early"
    status, lines = run(write(tmp_path, lost))
    assert status == 1 and 'expected loss="eight-early" got "eight-wrong-pocket"' in lines[0]


EIGHT_BROKEN = [
    (
        "one group without the other",
        lambda s: s["before"].update(groups={"A": "solids", "B": None}),
        "before.groups: one group is never set without the other",
    ),
    (
        "the same group twice",
        lambda s: s["expect"].update(groups={"A": "solids", "B": "solids"}),
        "expect.groups: both players never have the same group",
    ),
    ("unknown group", lambda s: s["before"].update(groups={"A": "spots"}), "unknown group"),
    ("unknown target", lambda s: s["expect"].update(target="nine"), "unknown target 'nine'"),
    ("unknown loss", lambda s: s["expect"].update(loss="late"), "unknown loss 'late'"),
    (
        "a push out",
        lambda s: s["shot"].update(declare="push-out"),
        "shot.declare: 8-ball has no push out",
    ),
    ("the after-break phase", lambda s: s["before"].update(phase="after-break"), "after-break"),
    ("EB-22 is no rule", lambda s: s["rules"].append("EB-22"), 'unknown rule ID "EB-22"'),
]


@pytest.mark.parametrize(
    ("what", "breaks", "message"), EIGHT_BROKEN, ids=[b[0] for b in EIGHT_BROKEN]
)
def test_eight_ball_additions_are_read_strictly(
    tmp_path: Path, what: str, breaks: Any, message: str
) -> None:
    scenario = eight_scenario()
    breaks(scenario)
    status, lines = run(write(tmp_path, scenario))
    assert status == 2 and message in lines[0], (what, lines)


@pytest.mark.parametrize("key", ["groups", "target", "loss", "illegal_break"])
def test_eight_ball_keys_are_errors_in_other_games(tmp_path: Path, key: str) -> None:
    scenario = base_scenario()
    scenario["expect"][key] = None
    status, lines = run(write(tmp_path, scenario))
    assert status == 2 and f"expect.{key}: unknown key" in lines[0]
