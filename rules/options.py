"""The variants REFERENCE.md Part B leaves open, with their defaults.

Each field is named exactly as the option in Part B (or the tolerance in Part A), so a
scenario's ``options`` object maps straight onto :meth:`Options.from_mapping`.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any, Literal, get_args

import attrs

from rules.errors import FormatError
from rules.reading import at

TenBallEarlyPocket = Literal["spot_continue", "win"]
TenLastBallTest = Literal["after_shot", "at_shot_start", "at_pocket_event"]
BreakRailCountMode = Literal["distinct_object_balls", "distinct_excluding_first_ball"]
FrozenBallRailCredit = Literal["must_leave_and_return", "any_contact_event"]
FoulCountScope = Literal["rack", "match"]
PushOutPocketedBalls = Literal["stay_down", "respot_all"]
RotationBreakObOffTable = Literal["spot", "rerack_same_breaker", "rerack_incoming_breaks"]
MultiSpotOrder = Literal["lowest_at_foot_rail", "lowest_nearest_foot_spot"]
MultiSpotAnchor = Literal["foot_rail", "foot_spot_packed"]
CallMode = Literal["explicit", "infer_obvious"]
LagWinnerAction = Literal["chooses", "breaks"]
LagFaultSet = Literal["wpa", "s000"]
BreakFormat = Literal["alternate", "winner_breaks", "loser_breaks"]
RotationTieRule = Literal[
    "rerack_last_pocketer_breaks", "bonus_point_last_pocketer_wins", "rerack_alternate"
]
RotationRackPattern = Literal["bca_1_apex_2_3_corners_15_centre", "one_apex_rest_random"]
RotationRack2Side = Literal["x_low", "x_high"]
SimultaneousFirstContact = Literal["favour_shooter", "foul"]
BadPlacementPolicy = Literal["foul", "reject"]
RotationFoulOptionB = Literal["spot-lowest_and_kitchen", "kitchen_only", "both"]
SpotSearchOrder = Literal["behind_then_front", "nearest_either_side"]
RotationBreakFoulOptions = Literal["standard", "kitchen_only"]
OffTableSource = Literal["physics_event"]
NineRackPosition = Literal["one_on_foot_spot", "nine_on_foot_spot"]
NineOnBreak = Literal["win", "spot_continue"]
ThreeFoulRule = Literal["on", "off"]
ObOffTable = Literal["stay_off", "spot_all"]
EightOnBreak = Literal["wpa_options", "win_unless_scratch", "rerack_same_breaker"]
EightBreakFoulRebreakBy = Literal["chooser", "original_breaker"]
EightPocketedOtherBreakFoul = Literal["f_tree_with_shoot", "g_tree"]
EightOffTableOnBreak = Literal["g_tree", "f_tree"]
EightIllegalBreak = Literal["wpa_options", "standard_foul"]
EightIllegalBreakWithFoul = Literal["union", "illegal_break_tree", "foul_tree"]
EightBreakFoulCueBall = Literal["kitchen_or_table", "anywhere"]
EightGroupsAfterBreak = Literal["always_open", "first_pocketed_on_break"]
OpenTableEightFirst = Literal["foul", "legal_no_credit"]
EightObOffTable = Literal["stay_off", "spot_all"]
ScratchWhenEightOn = Literal["standard_foul", "loss"]
OpenTableEmptyGroup = Literal["stay_open_eight_excluded", "empty_group_chooser_on_eight"]
EightKitchenRule = Literal["wpa_6_11", "rotation_rail_rule"]
EightThreeFoulRule = Literal["off", "on"]
EightBreakNoHit = Literal["foul_and_illegal", "illegal_only"]
SpUncalledPocketed = Literal["spot", "stay_down"]
SpSafetyPocketed = Literal["spot", "stay_down"]
SpThreeFoulRerack = Literal["mandatory", "incoming_choice"]
SpBreakBallOnHeadString = Literal["wpa_4_8", "bca_table"]
SpScoreAtTarget = Literal["count_all", "cap_at_target"]
SpFoulReset = Literal["any_legal_shot", "pocket_or_safety"]
SpKitchenAllBallsRelief = Literal["none", "spot_nearest_on_request"]
SpFifteenRackPhase = Literal["play", "break"]

# The ranges of the options that have one, for every reader of options (the game file, the
# scenario files, the command line's flags): (lowest, highest), both allowed.
# The rack's balls at most 1 cm apart (the physics racks them less than a radius apart).
RACK_GAP_M = (0.0, 0.01)
# A tolerance (the referee's epsilons, metres; the simultaneous contact's, seconds) at most
# 1 cm or 10 ms, the largest any rule needs: a lag tie within 1.5 m would tie every lag.
TOLERANCE = (0.0, 0.01)
# A shot clock from 5 s to 10 minutes, and an extension of up to 10 minutes.
SHOT_CLOCK_S = (5.0, 600.0)
SHOT_CLOCK_EXTENSION_S = (0.0, 600.0)
# 14.1 (B-47): the drawn rack outline at most 5 cm outside the balls (a wide wooden frame's).
RACK_OUTLINE_MARGIN_M = (0.0, 0.05)

_AUTO_STALEMATE = re.compile(r"auto_no_progress\((\d+)\)")


def _choice(_instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    allowed = get_args(attribute.type)
    if value not in allowed:
        raise ValueError(f"{value!r} is not one of {', '.join(map(repr, allowed))}")


def _flag(_instance: object, _attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {value!r}")


def _length(_instance: object, _attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"expected a number, got {value!r}")
    if value < 0:
        raise ValueError(f"must not be negative, got {value!r}")
    if 0 < value < sys.float_info.min:  # subnormal: a float that has lost its precision
        raise ValueError(f"must be 0 or at least {sys.float_info.min:.3g}, got {value!r}")


def _within(
    bounds: tuple[float, float], unit: str, *, optional: bool = False
) -> Callable[[object, Any, Any], None]:
    """A validator: a number from ``bounds[0]`` to ``bounds[1]`` ``unit`` (or None, the
    option off, when ``optional``)."""
    low, high = bounds

    def check(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
        if value is None and optional:
            return
        _length(instance, attribute, value)
        if not low <= value <= high:
            raise ValueError(f"must be from {low:g} to {high:g} {unit}, got {value!r}")

    return check


def _count(_instance: object, _attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"expected a whole number >= 0, got {value!r}")


def _at_least_one(value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"expected a whole number >= 1, got {value!r}")


def _positive(_instance: object, _attribute: attrs.Attribute[Any], value: Any) -> None:
    _at_least_one(value)


def _handicap(value: Any) -> tuple[int, int] | None:
    """B-46 ``sp_handicap_targets``: ``{"A": n, "B": m}`` (a scenario's form) or ``[n, m]``
    (as a game file writes the field back) to ``(n, m)``; None, no handicap."""
    if value is None:
        return None
    if isinstance(value, Mapping):
        if set(value) != {"A", "B"}:
            raise ValueError(f'expected {{"A": n, "B": m}}, got {value!r}')
        value = (value["A"], value["B"])
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f'expected {{"A": n, "B": m}}, got {value!r}')
    for target in value:
        _at_least_one(target)
    return (value[0], value[1])


def _stalemate_mode(_instance: object, _attribute: attrs.Attribute[Any], value: Any) -> None:
    if value in ("manual", "agreement_only"):
        return
    if not isinstance(value, str) or not _AUTO_STALEMATE.fullmatch(value):
        raise ValueError(f"{value!r} is not 'manual', 'agreement_only' or 'auto_no_progress(N)'")


@attrs.frozen(kw_only=True)
class Options:
    """Part B options (B-n) and Part A tolerances, with REFERENCE.md's defaults."""

    # B-1: an early legally called 10, and when the 10 is "the last ball".
    ten_ball_early_pocket: TenBallEarlyPocket = attrs.field(
        default="spot_continue", validator=_choice
    )
    ten_last_ball_test: TenLastBallTest = attrs.field(default="after_shot", validator=_choice)
    # B-2
    break_must_hit_lowest_first: bool = attrs.field(default=True, validator=_flag)
    # B-3
    break_rail_count_mode: BreakRailCountMode = attrs.field(
        default="distinct_object_balls", validator=_choice
    )
    break_required_rail_balls: int = attrs.field(default=4, validator=_count)
    break_pocketed_counts_as_rail: bool = attrs.field(default=False, validator=_flag)
    # B-4
    rail_includes_jaws: bool = attrs.field(default=True, validator=_flag)
    frozen_ball_rail_credit: FrozenBallRailCredit = attrs.field(
        default="must_leave_and_return", validator=_choice
    )
    # B-5
    push_out_counts_as_legal_shot: bool = attrs.field(default=True, validator=_flag)
    foul_count_scope: FoulCountScope = attrs.field(default="rack", validator=_choice)
    # B-6
    push_out_pocketed_balls: PushOutPocketedBalls = attrs.field(
        default="stay_down", validator=_choice
    )
    # B-7, B-8
    rotation_break_foul_respot: bool = attrs.field(default=True, validator=_flag)
    rotation_break_ob_off_table: RotationBreakObOffTable = attrs.field(
        default="spot", validator=_choice
    )
    # B-9
    multi_spot_order: MultiSpotOrder = attrs.field(default="lowest_at_foot_rail", validator=_choice)
    multi_spot_anchor: MultiSpotAnchor = attrs.field(default="foot_rail", validator=_choice)
    # B-10
    call_mode: CallMode = attrs.field(default="explicit", validator=_choice)
    # B-11
    lag_winner_action: LagWinnerAction = attrs.field(default="chooses", validator=_choice)
    lag_fault_set: LagFaultSet = attrs.field(default="wpa", validator=_choice)
    break_format: BreakFormat = attrs.field(default="alternate", validator=_choice)
    # B-12, B-13
    rotation_tie_rule: RotationTieRule = attrs.field(
        default="rerack_last_pocketer_breaks", validator=_choice
    )
    rotation_rack_pattern: RotationRackPattern = attrs.field(
        default="bca_1_apex_2_3_corners_15_centre", validator=_choice
    )
    rotation_rack_2_side: RotationRack2Side = attrs.field(default="x_low", validator=_choice)
    # B-14
    rotation_kitchen_replay_option: bool = attrs.field(default=True, validator=_flag)
    replay_counts_as_foul: bool = attrs.field(default=False, validator=_flag)
    rotation_kitchen_rail_contact_foul: bool = attrs.field(default=True, validator=_flag)
    rotation_kitchen_rule_on_break: bool = attrs.field(default=True, validator=_flag)
    # B-15
    simultaneous_first_contact: SimultaneousFirstContact = attrs.field(
        default="favour_shooter", validator=_choice
    )
    simultaneous_contact_epsilon: float = attrs.field(
        default=1e-4, validator=_within(TOLERANCE, "s")
    )
    # B-16
    bad_placement_policy: BadPlacementPolicy = attrs.field(default="foul", validator=_choice)
    # B-17: "manual", "agreement_only" or "auto_no_progress(N)" (N innings each).
    stalemate_mode: str = attrs.field(default="manual", validator=_stalemate_mode)
    # B-18
    shot_clock_s: float | None = attrs.field(
        default=None, validator=_within(SHOT_CLOCK_S, "s", optional=True)
    )
    shot_clock_extension_s: float | None = attrs.field(
        default=None, validator=_within(SHOT_CLOCK_EXTENSION_S, "s", optional=True)
    )
    shot_clock_extensions_per_rack: int = attrs.field(default=0, validator=_count)
    shot_clock_off_at_hill_hill: bool = attrs.field(default=True, validator=_flag)
    # B-20, B-21, B-22, B-23, B-25
    rotation_foul_option_b: RotationFoulOptionB = attrs.field(
        default="spot-lowest_and_kitchen", validator=_choice
    )
    spot_search_order: SpotSearchOrder = attrs.field(default="behind_then_front", validator=_choice)
    rotation_break_foul_options: RotationBreakFoulOptions = attrs.field(
        default="standard", validator=_choice
    )
    require_warning: bool = attrs.field(default=True, validator=_flag)
    off_table_source: OffTableSource = attrs.field(default="physics_event", validator=_choice)
    # B-26..B-29, B-43: 9-ball's own (B-30 needs none).
    nine_rack_position: NineRackPosition = attrs.field(
        default="one_on_foot_spot", validator=_choice
    )
    nine_on_break: NineOnBreak = attrs.field(default="win", validator=_choice)
    three_foul_rule: ThreeFoulRule = attrs.field(default="on", validator=_choice)
    ob_off_table: ObOffTable = attrs.field(default="stay_off", validator=_choice)
    nine_push_out_after_break_foul: bool = attrs.field(default=False, validator=_flag)
    # B-31..B-42, B-44: 8-ball's own (B-39 needs none).
    eight_on_break: EightOnBreak = attrs.field(default="wpa_options", validator=_choice)
    eight_break_foul_rebreak_by: EightBreakFoulRebreakBy = attrs.field(
        default="chooser", validator=_choice
    )
    eight_pocketed_other_break_foul: EightPocketedOtherBreakFoul = attrs.field(
        default="f_tree_with_shoot", validator=_choice
    )
    eight_off_table_on_break: EightOffTableOnBreak = attrs.field(
        default="g_tree", validator=_choice
    )
    eight_illegal_break: EightIllegalBreak = attrs.field(default="wpa_options", validator=_choice)
    eight_illegal_break_with_foul: EightIllegalBreakWithFoul = attrs.field(
        default="union", validator=_choice
    )
    eight_break_foul_cue_ball: EightBreakFoulCueBall = attrs.field(
        default="kitchen_or_table", validator=_choice
    )
    eight_groups_after_break: EightGroupsAfterBreak = attrs.field(
        default="always_open", validator=_choice
    )
    open_table_eight_first: OpenTableEightFirst = attrs.field(default="foul", validator=_choice)
    eight_ob_off_table: EightObOffTable = attrs.field(default="stay_off", validator=_choice)
    scratch_when_eight_on: ScratchWhenEightOn = attrs.field(
        default="standard_foul", validator=_choice
    )
    open_table_empty_group: OpenTableEmptyGroup = attrs.field(
        default="stay_open_eight_excluded", validator=_choice
    )
    eight_kitchen_rule: EightKitchenRule = attrs.field(default="wpa_6_11", validator=_choice)
    eight_three_foul_rule: EightThreeFoulRule = attrs.field(default="off", validator=_choice)
    eight_break_no_hit: EightBreakNoHit = attrs.field(default="foul_and_illegal", validator=_choice)
    # Part A tolerances (metres): conventions, GEN-4, B-4, GEN-2; TB-3 rack clearance.
    head_string_epsilon: float = attrs.field(default=1e-6, validator=_within(TOLERANCE, "m"))
    contact_epsilon: float = attrs.field(default=1e-4, validator=_within(TOLERANCE, "m"))
    cue_ball_spot_gap: float = attrs.field(default=5e-4, validator=_within(TOLERANCE, "m"))
    lag_tie_epsilon: float = attrs.field(default=1e-4, validator=_within(TOLERANCE, "m"))
    rack_gap: float = attrs.field(default=0.0, validator=_within(RACK_GAP_M, "m"))
    # B-45..B-59: 14.1 continuous's own (B-52 has none), named as REFERENCE.md names them.
    sp_target_points: int = attrs.field(default=150, validator=_positive)  # B-45
    sp_handicap_targets: tuple[int, int] | None = attrs.field(  # B-46: (A's, B's)
        default=None, converter=_handicap
    )
    sp_rack_outline_margin: float = attrs.field(  # B-47
        default=0.00635, validator=_within(RACK_OUTLINE_MARGIN_M, "m")
    )
    sp_uncalled_pocketed: SpUncalledPocketed = attrs.field(  # B-49
        default="spot", validator=_choice
    )
    sp_safety_pocketed: SpSafetyPocketed = attrs.field(default="spot", validator=_choice)  # B-50
    sp_three_foul_rerack: SpThreeFoulRerack = attrs.field(  # B-51
        default="mandatory", validator=_choice
    )
    sp_break_ball_on_head_string: SpBreakBallOnHeadString = attrs.field(  # B-53
        default="wpa_4_8", validator=_choice
    )
    sp_score_at_target: SpScoreAtTarget = attrs.field(  # B-54
        default="count_all", validator=_choice
    )
    sp_games_per_match: int = attrs.field(default=1, validator=_positive)  # B-55
    sp_foul_reset: SpFoulReset = attrs.field(default="any_legal_shot", validator=_choice)  # B-56
    # B-57, B-58: each needs an input no shot's events carry (a ball within a ball's width of
    # a cushion; the shooter's request), so no ruling depends on them yet.
    sp_near_rail_safety_limit: bool = attrs.field(default=False, validator=_flag)
    sp_kitchen_all_balls_relief: SpKitchenAllBallsRelief = attrs.field(
        default="none", validator=_choice
    )
    sp_fifteen_rack_phase: SpFifteenRackPhase = attrs.field(  # B-59
        default="play", validator=_choice
    )

    @property
    def stalemate_innings(self) -> int | None:
        """B-17 ``auto_no_progress(N)``: N innings each without progress; else None."""
        match = _AUTO_STALEMATE.fullmatch(self.stalemate_mode)
        return int(match.group(1)) if match else None

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Options:
        """Options from a scenario's ``options`` object: an unknown name or a bad value
        raises :class:`FormatError` naming the option."""
        if not isinstance(data, Mapping):
            raise FormatError("options", f"expected an object, got {type(data).__name__}")
        known = {field.name for field in attrs.fields(cls)}
        for name, value in data.items():
            if name not in known:
                raise FormatError(at("", name), "unknown option")  # the name as shown
            try:
                attrs.evolve(cls(), **{name: value})
            except ValueError as error:
                raise FormatError(name, str(error)) from None
        return cls(**data)


# The validators read each field's Literal type; resolve the string annotations once.
attrs.resolve_types(Options)
