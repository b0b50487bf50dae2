"""The shot picker thinks about the cue ball: a pot that would follow the ball in is
played with other spin or pace, found by simulating the stroke."""

from __future__ import annotations

import attrs
import pytest

from rules import CUE
from sim.physics.simulate import CueAction, aim_towards, simulate_shot
from sim.physics.table import TABLE_SPECS
from sim.play.picker import keep_the_cue_ball_up

pytestmark = pytest.mark.physics
SPEC = TABLE_SPECS["9ft"]
# The 3 on the diagonal to the top right corner, the cue ball behind it on that line.
STRAIGHT_IN = {CUE: (0.6, 1.87), "3": (1.0, 2.27)}


def test_a_pot_that_would_scratch_is_played_another_way() -> None:
    follow = CueAction(3.0, aim_towards(STRAIGHT_IN[CUE], STRAIGHT_IN["3"]), b=0.5)
    assert CUE not in simulate_shot(SPEC, STRAIGHT_IN, follow).after  # follows it in
    chosen = keep_the_cue_ball_up(SPEC, STRAIGHT_IN, follow, "3")
    outcome = simulate_shot(SPEC, STRAIGHT_IN, chosen)
    assert CUE in outcome.after and "3" not in outcome.after  # still pots the 3
    assert attrs.evolve(chosen, b=follow.b, speed=follow.speed) == follow  # only spin, pace


def test_a_safe_stroke_is_kept_as_it_is() -> None:
    stun = CueAction(2.0, aim_towards(STRAIGHT_IN[CUE], STRAIGHT_IN["3"]), b=0.0)
    assert keep_the_cue_ball_up(SPEC, STRAIGHT_IN, stun, "3") == stun


def test_a_long_run_is_matches_of_at_most_99_racks_with_seeds_of_their_own() -> None:
    """The racks cap was 99 (a match's longest race); a run of 10,000 is 102 matches."""
    from sim.play.selfplay import RACKS_PER_MATCH, match_seed, match_sizes

    assert RACKS_PER_MATCH == 99
    assert match_sizes(3) == [3] and match_sizes(99) == [99] and match_sizes(100) == [99, 1]
    sizes = match_sizes(10_000)
    assert sum(sizes) == 10_000 and len(sizes) == 102 and max(sizes) == 99
    assert match_seed(7, 0) == 7  # up to 99 racks: the one match it always was
    seeds = {match_seed(7, index) for index in range(102)}
    assert len(seeds) == 102 and all(0 <= seed < 2**63 for seed in seeds)
    assert match_seed(7, 5) == match_seed(7, 5)


def test_play_racks_tells_of_each_rack_as_it_ends() -> None:
    import random

    from sim.play.game import Game, GameSetup
    from sim.play.selfplay import play_racks, summarize

    game = Game(GameSetup(game="ten-ball", race_to=2, seed=6))
    ended: list[int] = []

    def on_rack_end(played: Game) -> None:
        ended.append(len(summarize(played)))

    # six records a rack, then a stalemate: each rack ends, and is told of once
    play_racks(game, 2, random.Random(6), on_rack_end=on_rack_end, max_records_per_rack=6)
    assert ended == [1, 2]
