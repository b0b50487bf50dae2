"""Match play: the lag (GEN-2), who breaks (GEN-3, TB-2, B-11), the race, re-racks."""

from __future__ import annotations

import pytest

from rules import (
    CUE,
    IllegalAction,
    LagShot,
    Match,
    MatchPhase,
    Options,
    Phase,
    Player,
    judge_lag,
)
from rules.facts import Fact
from rules.geometry import Point
from rules.terms import Tally
from tests.rules.builders import (
    KITCHEN_SPOT,
    TABLE,
    TEN_BALL_RACK,
    break_facts,
    call,
    hit,
    pocket,
    rail,
    shot,
)

LEFT, RIGHT = (0.3, 0.3), (0.97, 0.3)


def lag(
    player: Player, rest: Point | None, *facts: Fact, start: Point | None = None, **kw: object
) -> LagShot:
    start = start or (LEFT if player is Player.A else RIGHT)
    return LagShot(player=player, start=start, facts=facts or (rail(CUE, "foot"),), rest=rest, **kw)  # type: ignore[arg-type]


def judge(a: LagShot, b: LagShot, **options: object) -> Player | None:
    return judge_lag(a, b, TABLE, Options.from_mapping(options)).winner


class TestGen2Lag:
    """GEN-2: nearest the head cushion wins; the bad-lag list; replays."""

    def test_gen_2_nearest_the_head_cushion_wins(self) -> None:
        assert judge(lag(Player.A, (0.3, 0.10)), lag(Player.B, (0.9, 0.05))) is Player.B

    def test_gen_2_a_tie_is_replayed(self) -> None:
        assert judge(lag(Player.A, (0.3, 0.10)), lag(Player.B, (0.9, 0.10005))) is None

    @pytest.mark.parametrize(
        ("facts", "rest"),
        [
            ((rail(CUE, "foot"), rail(CUE, "foot")), (0.3, 0.05)),  # foot cushion twice
            ((rail(CUE, "head"),), (0.3, 0.05)),  # never the foot cushion
            ((rail(CUE, "foot"), rail(CUE, "left")), (0.3, 0.05)),  # a side cushion
            ((rail(CUE, "foot"), pocket(CUE, "lb")), None),  # pocketed
            ((rail(CUE, "foot"),), (0.8, 0.05)),  # rests in the opponent's half
            ((rail(CUE, "foot"),), (0.03, 0.01)),  # in the corner pocket opening
        ],
    )
    def test_gen_2_a_bad_lag_loses(self, facts: tuple[Fact, ...], rest: Point | None) -> None:
        assert judge(lag(Player.A, rest, *facts), lag(Player.B, (0.9, 0.4))) is Player.B

    def test_gen_2_bad_lag_reasons_read_plainly(self) -> None:
        """GEN-2: the HUD line says what was wrong in plain words."""
        never = lag(Player.A, (0.3, 0.05), rail(CUE, "head"))
        twice = lag(Player.B, (0.9, 0.05), rail(CUE, "foot"), rail(CUE, "foot"))
        texts = [str(r) for r in judge_lag(never, twice, TABLE, Options()).reasons]
        assert "GEN-2: A's lag is bad: it never touched the foot cushion" in texts
        assert "GEN-2: B's lag is bad: it touched the foot cushion twice; once is required" in texts

    def test_gen_2_head_cushion_contacts_are_allowed(self) -> None:
        good = lag(Player.A, (0.3, 0.05), rail(CUE, "foot"), rail(CUE, "head"))
        assert judge(good, lag(Player.B, (0.9, 0.4))) is Player.A

    def test_gen_2_both_bad_is_replayed(self) -> None:
        bad = (rail(CUE, "head"),)
        assert judge(lag(Player.A, (0.3, 0.1), *bad), lag(Player.B, (0.9, 0.1), *bad)) is None

    def test_gen_2_struck_after_the_other_reached_the_foot_cushion(self) -> None:
        first = lag(Player.A, (0.3, 0.1), rail(CUE, "foot", t=2.0), struck_at=0.0)
        late = lag(Player.B, (0.9, 0.05), struck_at=2.5)
        assert judge(first, late) is None
        assert judge(first, lag(Player.B, (0.9, 0.05), struck_at=1.0)) is Player.B

    def test_gen_2_s000_fault_set_omits_crossing_and_corner(self) -> None:
        crossed = lag(Player.A, (0.8, 0.05))
        assert judge(crossed, lag(Player.B, (0.9, 0.4)), lag_fault_set="s000") is Player.A

    def test_gen_2_lags_from_the_kitchen_on_opposite_sides(self) -> None:
        with pytest.raises(IllegalAction, match="opposite sides"):
            judge(lag(Player.A, (0.3, 0.1)), lag(Player.B, (0.2, 0.1), start=(0.2, 0.3)))
        with pytest.raises(IllegalAction, match="behind the head string"):
            judge(lag(Player.A, (0.3, 0.1), start=(0.3, 1.0)), lag(Player.B, (0.9, 0.1)))


def rack_up(number: int, breaker: Player) -> dict[str, Point]:
    return TEN_BALL_RACK


def new_match(race_to: int = 2, **options: object) -> Match:
    return Match(
        game="ten-ball", race_to=race_to, rack_up=rack_up, options=Options.from_mapping(options)
    )


WIN_LAG = (lag(Player.A, (0.3, 0.05)), lag(Player.B, (0.9, 0.4)))
SPOT = (0.2, 0.2)  # a free place for a cue ball in hand on these tables


def forfeit(match: Match, loser: Player) -> Match:
    """Play the rack in progress until ``loser`` loses it on fouls: ``loser`` misses the
    balls altogether every time, the other player hits the lowest ball to a rail."""
    number = match.rack_number
    while match.phase is MatchPhase.RACK and match.rack_number == number:
        state = match.rack
        assert state is not None
        placement = SPOT if state.ball_in_hand else None
        lowest = state.lowest or "10"
        if state.shooter is loser:
            played = shot(placement=placement)
        elif state.phase is Phase.BREAK:
            played = shot(*break_facts(), placement=KITCHEN_SPOT)
        else:
            played = shot(hit(CUE, lowest), rail(lowest), call=call(lowest), placement=placement)
        match = match.push(played)
    return match


def test_gen_3_lag_winner_chooses_who_breaks() -> None:
    """GEN-3 / B-11 ``chooses``: the lag winner picks the breaker of the first rack."""
    match = new_match().lag(*WIN_LAG)
    assert match.phase is MatchPhase.BREAKER_CHOICE and match.lag_winner is Player.A
    with pytest.raises(IllegalAction, match="breaker-choice"):
        match.push(shot())
    started = match.choose_breaker(Player.B)
    assert started.rack is not None and started.rack.shooter is Player.B
    assert started.rack.phase is Phase.BREAK and started.rack_number == 1


def test_gen_3_lag_winner_breaks_option_and_replayed_lag() -> None:
    """GEN-3 / B-11 ``breaks`` (S000): the lag winner breaks; a replayed lag changes nothing."""
    match = new_match(lag_winner_action="breaks").lag(*WIN_LAG)
    assert match.rack is not None and match.rack.breaker is Player.A
    tie = (lag(Player.A, (0.3, 0.1)), lag(Player.B, (0.9, 0.1)))
    assert new_match().lag(*tie) == new_match()


@pytest.mark.parametrize(
    ("fmt", "breaker"),
    [("alternate", Player.A), ("winner_breaks", Player.A), ("loser_breaks", Player.B)],
)
def test_tb_2_break_format_after_a_won_rack(fmt: str, breaker: Player) -> None:
    """TB-2 / GEN-3 / B-11: B breaks rack 1 and loses it; who breaks rack 2."""
    match = forfeit(new_match(break_format=fmt).start(Player.B), loser=Player.B)
    assert match.racks_won == Tally(1, 0)
    assert match.rack is not None and match.rack_number == 2
    assert match.rack.breaker is breaker and match.rack.fouls == Tally(0, 0)


def test_match_race_to_n() -> None:
    """A race to 2: the match ends when a player has won two racks."""
    match = forfeit(new_match(race_to=2).start(Player.A), loser=Player.B)
    match = forfeit(match, loser=Player.B)
    assert match.outcome() is Player.A and match.phase is MatchPhase.OVER
    with pytest.raises(IllegalAction, match="over"):
        match.push(shot())


def test_gen_16_match_stalemate_reracks_with_the_same_breaker() -> None:
    """GEN-16: a new rack, the same breaker, no rack won."""
    match = new_match().start(Player.B).push(shot(*break_facts(), placement=KITCHEN_SPOT))
    rerack = match.declare_stalemate()
    assert rerack.rack_number == 2 and rerack.racks_won == Tally(0, 0)
    assert rerack.rack is not None and rerack.rack.breaker is Player.B


def test_gen_17_hill_hill_rack_turns_the_clock_off() -> None:
    """GEN-17 / B-18: the deciding rack is marked hill-hill."""
    match = forfeit(new_match(race_to=2).start(Player.A), loser=Player.B)
    assert match.rack is not None and not match.rack.hill_hill
    match = forfeit(match, loser=Player.A)
    assert match.racks_won == Tally(1, 1)
    assert match.rack is not None and match.rack.hill_hill


def test_gen_15_foul_count_scope_match_carries_counts() -> None:
    """GEN-15 / B-5 ``foul_count_scope = match``: counts carry into the next rack."""
    match = new_match(foul_count_scope="match").start(Player.A)
    match = match.push(shot(placement=KITCHEN_SPOT))  # A fouls on the break
    assert match.declare_stalemate().rack.fouls == Tally(1, 0)  # type: ignore[union-attr]
    rack_scope = new_match().start(Player.A).push(shot(placement=KITCHEN_SPOT))
    assert rack_scope.declare_stalemate().rack.fouls == Tally(0, 0)  # type: ignore[union-attr]
