"""The API refuses invalid input with a clear one-line error and changes nothing."""

from __future__ import annotations

import copy

import pytest

from rules import (
    CUE,
    BallInHand,
    FormatError,
    IllegalAction,
    Options,
    Phase,
    Positions,
    Shot,
    TenBall,
)
from tests.rules.builders import OPEN_TABLE, call, hit, pocket, rail, shot, ten

REFUSED = [
    ("call of a ball not on the table", {}, shot(hit(CUE, "2"), call=call("3"))),
    ("push out outside the second shot", {}, shot(declare="push-out")),
    (
        "placement overlapping a ball",
        {"in_hand": BallInHand.ANYWHERE},
        shot(hit(CUE, "2"), call=call("2"), placement=(0.31, 1.5)),
    ),
    (
        "placement off the bed",
        {"in_hand": BallInHand.ANYWHERE},
        shot(hit(CUE, "2"), call=call("2"), placement=(1.26, 1.5)),
    ),
    (
        "placement without ball in hand",
        {},
        shot(hit(CUE, "2"), call=call("2"), placement=(0.5, 0.5)),
    ),
    ("events naming a ball not on the table", {}, shot(hit(CUE, "3"), call=call("2"))),
    ("a ball pocketed twice", {}, shot(hit(CUE, "2"), pocket("2"), pocket("2"), call=call("2"))),
    (
        "resting positions that lose a ball",
        {},
        shot(hit(CUE, "2"), rail("2"), call=call("2"), resting={CUE: (0.6, 1.0)}),
    ),
]


@pytest.mark.parametrize(("what", "state_kw", "bad"), REFUSED, ids=[r[0] for r in REFUSED])
def test_invalid_shots_are_refused_and_the_state_is_unchanged(
    what: str, state_kw: dict[str, object], bad: Shot
) -> None:
    balls = {k: v for k, v in OPEN_TABLE.items() if not (state_kw and k == CUE)}
    state = ten(balls, **state_kw)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as error:
        state.push(bad)
    assert "\n" not in str(error.value) and str(error.value)
    assert state == before


def test_a_ruling_applies_only_to_the_state_that_gave_it() -> None:
    state = ten(OPEN_TABLE)
    ruling = state.rule(shot(hit(CUE, "2"), rail("2"), call=call("2")))
    later = state.apply(ruling)
    with pytest.raises(IllegalAction, match="turn"):
        later.apply(ruling)


def test_states_and_positions_are_immutable() -> None:
    state = ten(OPEN_TABLE)
    with pytest.raises(AttributeError):
        state.shooter = state.shooter.other  # type: ignore[misc]
    with pytest.raises(AttributeError):
        state.balls._points = {}
    assert isinstance(state.balls, Positions) and hash(state.balls) == hash(Positions(OPEN_TABLE))
    assert state.balls == OPEN_TABLE


def test_rule_is_pure() -> None:
    state = ten(OPEN_TABLE)
    played = shot(hit(CUE, "2"), pocket("2", "lc"), call=call("2", "lc"))
    assert state.rule(played) == state.rule(played)
    assert state.push(played).balls == state.rule(played).positions


def test_options_from_mapping_is_strict() -> None:
    assert Options.from_mapping({"break_format": "winner_breaks"}).break_format == "winner_breaks"
    with pytest.raises(FormatError, match="unknown option"):
        Options.from_mapping({"break_fromat": "alternate"})
    with pytest.raises(FormatError, match="call_mode"):
        Options.from_mapping({"call_mode": "psychic"})
    with pytest.raises(FormatError, match="require_warning"):
        Options.from_mapping({"require_warning": 1})
    assert Options(stalemate_mode="auto_no_progress(3)").stalemate_innings == 3
    with pytest.raises(ValueError, match="auto_no_progress"):
        Options(stalemate_mode="auto")


def test_new_rack_defaults() -> None:
    state = TenBall.new_rack({"1": (0.635, 1.905), "10": (0.635, 2.0)})
    assert state.phase is Phase.BREAK and state.ball_in_hand is BallInHand.KITCHEN
    assert CUE not in state.balls and state.outcome() is None
