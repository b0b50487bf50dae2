"""FORMAT.md read word by word: scenarios an author may write differently from the
project's own files, all valid per the format, must run (and fail or pass on the
ruling), while anything the format does not define is still refused."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

from rules.conformance import check_files

SCENARIOS = Path(__file__).resolve().parents[1] / "data" / "scenarios"


def run(tmp_path: Path, *scenarios: dict[str, Any], **top: Any) -> tuple[int, list[str]]:
    path = tmp_path / "variant.json"
    document = {"format": "poolsim-scenarios", "version": 1, "scenarios": list(scenarios), **top}
    path.write_text(json.dumps(document))
    out = io.StringIO()
    status = check_files([path], out)
    return status, out.getvalue().splitlines()


def passes(tmp_path: Path, *scenarios: dict[str, Any], **top: Any) -> None:
    status, lines = run(tmp_path, *scenarios, **top)
    assert status == 0, lines


def fails(tmp_path: Path, scenario: dict[str, Any], *words: str) -> None:
    status, lines = run(tmp_path, scenario)
    assert status == 1, lines
    assert all(word in lines[0] for word in words), lines


def public(name: str, scenario_id: str) -> dict[str, Any]:
    data = json.loads((SCENARIOS / name).read_text())
    found = next(s for s in data["scenarios"] if s["id"] == scenario_id)
    return copy.deepcopy(found)


SCRATCH_IN_FRONT = ("rotation.json", "rot-scratch-lowest-in-front-kitchen-choice")
FORCED_SPOT = ("rotation.json", "rot-scratch-lowest-in-kitchen-forced-spot")
PUSH_OUT = ("ten-ball.json", "tb-push-out-pass-back")
BREAK_LEGAL = ("rotation.json", "rot-break-legal-scores")
TEN_BEHIND_BLOCKER = ("ten-ball.json", "tb-break-ten-spotted-behind-blocker")


def test_ball_ids_written_as_numbers(tmp_path: Path) -> None:
    """``"ball": 10`` names the 10 as ``"ball": "10"`` does (object keys are text anyway)."""
    scenario = public(*TEN_BEHIND_BLOCKER)
    for event in scenario["shot"]["events"]:
        if "ball" in event and event["ball"] != "cue":
            event["ball"] = int(event["ball"])
        if "balls" in event:
            event["balls"] = [b if b == "cue" else int(b) for b in event["balls"]]
    scenario["expect"]["spotted"] = [10]
    passes(tmp_path, scenario)
    scenario["expect"]["spotted"] = [11]  # still an unknown ball in 10-ball
    status, lines = run(tmp_path, scenario)
    assert status == 2 and "expect.spotted[0]: unknown ball 11 in ten-ball" in lines[0]


def test_events_without_times_or_rails_and_head_string_without_ball(tmp_path: Path) -> None:
    scenario = public(*BREAK_LEGAL)
    for event in scenario["shot"]["events"]:
        event.pop("t", None)
        event.pop("rail", None)
        if event["type"] == "head-string":
            del event["ball"]
    passes(tmp_path, scenario)


def test_optional_keys_given_as_null(tmp_path: Path) -> None:
    """null is the same as leaving an optional key out."""
    scenario = public(*PUSH_OUT)
    scenario.update(options=None, note=None)
    scenario["before"].update(breaker=None, fouls=None, score=None, ball_in_hand=None)
    scenario["shot"].update(call=None)
    passes(tmp_path, scenario, table=None)
    no_then = public(*FORCED_SPOT)
    no_then["then"] = None
    passes(tmp_path, no_then)


def test_expect_lists_given_as_null_are_empty(tmp_path: Path) -> None:
    """``choices``: "[] when none"; a null list or map is that empty value."""
    scenario = public(*FORCED_SPOT)
    scenario["expect"].update(choices=None, foul_codes=None, spot_positions=None, score=None)
    passes(tmp_path, scenario)
    scenario["expect"]["spotted"] = None  # the ruling spotted the 5
    fails(tmp_path, scenario, 'expected spotted=[] got ["5"]')


def test_after_may_list_a_ball_the_events_pocketed(tmp_path: Path) -> None:
    """The events say where a pocketed ball went; an ``after`` that lists it (say at its
    spot) does not put it back on the table before the ruling."""
    scenario = public(*TEN_BEHIND_BLOCKER)
    scenario["shot"]["after"]["10"] = scenario["expect"]["spot_positions"]["10"]
    passes(tmp_path, scenario)


def test_after_missing_keeps_every_ball_where_it_was(tmp_path: Path) -> None:
    """Without ``after`` the balls left on the table stayed where they were: the 3 lies
    in the kitchen, so after the scratch only spot-lowest is possible."""
    scenario = public(*FORCED_SPOT)
    del scenario["shot"]["after"]
    scenario["before"]["balls"]["5"] = [0.23, 0.35]
    passes(tmp_path, scenario)


def test_a_break_without_ball_in_hand_is_played_from_the_kitchen(tmp_path: Path) -> None:
    """TB-4 / ROT-4: the kitchen rule applies to a break that leaves ``ball_in_hand`` out."""
    scenario = public("rotation.json", "rot-break-cue-ball-cushion-before-crossing")
    del scenario["before"]["ball_in_hand"]
    passes(tmp_path, scenario)


def test_ball_in_hand_beside_choices(tmp_path: Path) -> None:
    """FORMAT.md gives ``ball_in_hand`` "when there are no choices". Beside choices, null
    is right, and so is the ball in hand every choice leads to."""
    scenario = public(*SCRATCH_IN_FRONT)
    for value in (None, "kitchen"):
        scenario["expect"]["ball_in_hand"] = value
        passes(tmp_path, scenario)
    scenario["expect"]["ball_in_hand"] = "anywhere"
    fails(tmp_path, scenario, 'expected ball_in_hand="anywhere" got "kitchen"')
    push_out = public(*PUSH_OUT)  # shoot or pass: no ball in hand either way
    push_out["expect"]["ball_in_hand"] = "kitchen"
    fails(tmp_path, push_out, 'expected ball_in_hand="kitchen" got null')


def test_then_on_the_choice_the_ruling_applied(tmp_path: Path) -> None:
    """ "A choice that is the only one possible is not offered: the ruling applies it."
    ``then`` with that choice checks the state it gave, with the choice's own spots."""
    scenario = public(*FORCED_SPOT)
    scenario["then"] = {
        "choose": "spot-lowest",
        "expect": {
            "next_shooter": "B",
            "ball_in_hand": "kitchen",
            "choices": [],
            "foul": False,
            "spotted": ["5"],
            "spot_positions": {"5": [0.635, 1.905]},
        },
    }
    passes(tmp_path, scenario)
    scenario["then"]["choose"] = "kitchen"  # not what the ruling did
    fails(tmp_path, scenario, "then.choose=kitchen got a refusal")


def test_then_shoot_after_a_ruling_with_nothing_to_choose(tmp_path: Path) -> None:
    """With no choice the incoming player plays the table as it lies: ``shoot``."""
    scenario = public("rotation.json", "rot-break-four-rail-balls-legal")
    scenario["then"] = {"choose": "shoot", "expect": {"next_shooter": "B", "spotted": []}}
    passes(tmp_path, scenario)
    scenario["then"]["choose"] = "pass"
    fails(tmp_path, scenario, "then.choose=pass got a refusal")


def test_then_after_the_rack_ended_is_a_failure(tmp_path: Path) -> None:
    scenario = public("rotation.json", "rot-reaches-61-wins")
    scenario["then"] = {"choose": "shoot", "expect": {}}
    fails(tmp_path, scenario, "then.choose=shoot got a refusal", "the rack is over")


def test_ten_ball_score_is_carried_unchanged(tmp_path: Path) -> None:
    """10-ball keeps no points: a ``score`` given is carried as it is."""
    scenario = public(*PUSH_OUT)
    scenario["before"]["score"] = {"A": 3, "B": 1}
    scenario["expect"]["score"] = {"A": 3, "B": 1}
    passes(tmp_path, scenario)


def test_rotation_ignores_calls_and_declarations(tmp_path: Path) -> None:
    scenario = public("rotation.json", "rot-no-call-any-ball-scores")
    scenario["shot"]["call"] = {"ball": "15", "pocket": "rc"}
    for declaration in ("push-out", "safety"):
        scenario["shot"]["declare"] = declaration
        passes(tmp_path, scenario)


def test_still_strict_about_what_the_format_does_not_define(tmp_path: Path) -> None:
    scenario = public(*PUSH_OUT)
    events = scenario["shot"]["events"]
    events.append({"type": "head-string", "ball": "1"})
    status, lines = run(tmp_path, scenario)
    assert status == 2 and f"shot.events[{len(events) - 1}].ball: only the cue ball" in lines[0]
    scenario = public(*PUSH_OUT)
    scenario["expect"]["foul"] = None  # true or false, not null
    status, lines = run(tmp_path, scenario)
    assert status == 2 and "expect.foul: expected true or false, got null" in lines[0]
    scenario = public(*PUSH_OUT)
    scenario["options"] = []  # an object, even when empty
    status, lines = run(tmp_path, scenario)
    assert status == 2 and "options" in lines[0]
