"""The rule options a player chooses (rules.offered): each names a field of Options and
offers its default, and each game lists the ones it offers, which the start screen's rows
and the command line's flags are built from."""

from __future__ import annotations

import attrs
import pytest

from rules import GAMES, EightBall, NineBall, Options, Rotation, StraightPool, TenBall
from rules.games import games_offering, offered_options
from rules.offered import CALL_MODE, SHOT_CLOCK, RuleOption
from rules.straight_pool import TARGET_POINTS
from rules.ten_ball import EARLY_TEN


def test_each_game_offers_its_own_options() -> None:
    assert TenBall.rule_options == (EARLY_TEN, CALL_MODE, SHOT_CLOCK)
    assert EightBall.rule_options == (CALL_MODE, SHOT_CLOCK)
    assert NineBall.rule_options == (SHOT_CLOCK,)
    assert Rotation.rule_options == (SHOT_CLOCK,)
    assert StraightPool.rule_options == (TARGET_POINTS, CALL_MODE, SHOT_CLOCK)  # B-45, B-48
    assert offered_options() == (EARLY_TEN, CALL_MODE, SHOT_CLOCK, TARGET_POINTS)
    assert games_offering(CALL_MODE) == (TenBall, EightBall, StraightPool)
    assert games_offering(SHOT_CLOCK) == tuple(GAMES.values())


@pytest.mark.parametrize("option", offered_options(), ids=lambda option: option.name)
def test_every_option_sets_fields_of_options_with_every_value_it_offers(
    option: RuleOption,
) -> None:
    assert option.name in attrs.fields_dict(Options)
    assert option.default == getattr(Options(), option.name)
    assert option.flag.startswith("--") and option.label and option.help
    assert len(set(option.items)) == len(option.choices)  # words tell the values apart
    for value in option.values:
        options = Options.from_mapping(option.fields(value))
        assert getattr(options, option.name) == value
    if option.numbers is not None:
        low, high = option.numbers
        assert all(value is None or low <= value <= high for value in option.values)


def test_a_shot_clock_brings_its_extension() -> None:
    assert SHOT_CLOCK.fields(35.0) == {
        "shot_clock_s": 35.0,
        "shot_clock_extension_s": 35.0,
        "shot_clock_extensions_per_rack": 1,
    }
    assert SHOT_CLOCK.fields(None) == {"shot_clock_s": None}
    assert CALL_MODE.fields("infer_obvious") == {"call_mode": "infer_obvious"}


def test_an_option_whose_default_is_not_offered_is_refused() -> None:
    with pytest.raises(ValueError, match="not offered"):
        RuleOption(name="call_mode", flag="--x", label="X", help="X.", choices=(("Loud", "loud"),))
