"""What 14.1 says of itself to the floors above: the scoreboard's words (SP-13, SP-14,
SP-16, SP-17), the rack area and the break ball marked on the table (SP-2, SP-14), and
what a re-rack leaves in the referee's plain line (SP-14, SP-15)."""

from __future__ import annotations

from rules import CUE, Phase, Player, StraightPool, Tally
from rules.geometry import TableGeometry
from rules.lead import ruling_line
from rules.straight_pool import rack_outline
from tests.rules.builders import call, hit, pocket, shot
from tests.rules.test_straight_pool import extras, game, last_two

TABLE = TableGeometry()
LAST_TWO = {CUE: (0.8368, 1.8531), "4": (1.0201, 2.1513), "11": (0.3, 1.35)}


def test_the_scoreboard_counts_the_score_the_run_and_the_balls_to_the_rerack() -> None:
    """SP-16: each score of the target, below 0 too; SP-17: the run of the player at the
    table and both high runs; SP-14: the balls to pot before the re-rack, and with two
    left that the one not potted breaks the next rack."""
    balls = {**LAST_TWO, "5": (0.3, 1.0), "9": (1.0, 1.0)}
    state = game(balls, score=(37, -2), run=12, high=(25, 8))
    assert state.player_words(Player.A) == "37 of 150 · run 12 · high run 25"
    assert state.player_words(Player.B) == "-2 of 150 · high run 8"
    assert state.status_words() == ("3 to pot before the re-rack",)
    two = game(LAST_TWO)
    assert two.status_words() == ("2 left: pot one, leave the break ball",)
    assert two.break_ball is None and two.marked_balls() == ()
    handicap = game(LAST_TWO, options={"sp_handicap_targets": (100, 150)})
    assert handicap.player_words(Player.A) == "0 of 100"
    assert handicap.status_words()[0] == "2 left: pot one, leave the break ball"
    assert StraightPool.short_name() == "14.1"


def test_the_opening_break_and_the_third_foul_are_said() -> None:
    """SP-3 on the break; SP-13: the shooter with two fouls in a row is told what a third
    costs (the warning under the name stays the HUD's)."""
    opening = game({CUE: (0.6, 0.5), "1": (0.635, 1.905)}, phase=Phase.BREAK)
    assert opening.status_words() == (
        "break: a called ball, or 2 balls and the cue ball to a rail",
    )
    warned = game({**LAST_TWO, "5": (0.3, 1.0)}, fouls=(2, 0))
    assert warned.warned == {Player.A}
    assert warned.status_words()[-1] == "a third foul costs 15 more"
    assert "third" not in " ".join(game(LAST_TWO, fouls=(0, 2)).status_words())


def test_the_rerack_is_said_and_the_break_ball_marked() -> None:
    """SP-14: after the 4 drops the fourteen others are racked around the 11; the line
    says so after the referee's, the rack area is the outline, and the 11 is the break
    ball until the next shot opens the rack."""
    state = game(LAST_TWO, run=3, score=(3, 0))
    ruling = state.rule(last_two(LAST_TWO, (0.9, 1.6)))
    line = ruling_line(ruling, StraightPool, ("Ann", "Bob"), table=TABLE)
    assert line == (
        "Ann pockets the 4 (1 point) and shoots again. 14 balls are racked; the 11 and "
        "the cue ball stay where they lie."
    )
    assert ruling_line(ruling, StraightPool, ("Ann", "Bob")).endswith("shoots again.")
    after = state.apply(ruling)
    assert after.rack_area() == rack_outline(after.table, after.options)
    assert (after.break_ball, after.marked_balls()) == ("11", ("11",))
    assert after.status_words() == ("break ball: the 11",)
    assert after.player_words(Player.A) == "4 of 150 · run 4 · high run 4"


def test_the_rerack_says_where_sp_15_moves_the_balls() -> None:
    """SP-15 (c): the break ball in the rack area goes on the head spot; (a): the break
    ball down too, all fifteen racked, the cue ball where it lies."""
    balls = {**LAST_TWO, "11": (0.62, 2.0)}
    ruling = game(balls).rule(last_two(balls, (0.9, 1.6)))
    words = StraightPool.racking_words(ruling, TABLE)
    assert words == (
        "14 balls are racked; the 11 goes on the head spot; the cue ball stays where it lies."
    )
    both = (hit(CUE, "4"), pocket("4", "rt"), hit(CUE, "11"), pocket("11", "rt"))
    balls = {**LAST_TWO, "11": (1.1, 2.3)}
    ruling = game(balls).rule(shot(*both, call=call("4", "rt"), resting={CUE: (0.9, 1.6)}))
    assert extras(ruling).racking is not None
    assert StraightPool.racking_words(ruling, TABLE) == (
        "All 15 balls are racked; the cue ball stays where it lies."
    )
    assert extras(ruling).high_run == Tally(2, 0)


def test_the_winner_wins_the_game_not_a_rack() -> None:
    """SP-16: the ball that reaches the target wins the game (a 14.1 game is racked many
    times), and the line says so."""
    state = game(LAST_TWO, score=(49, 20), options={"sp_target_points": 50})
    ruling = state.rule(last_two(LAST_TWO, (0.9, 1.6)))
    assert ruling.winner is Player.A
    line = ruling_line(ruling, StraightPool, ("Ann", "Bob"), table=TABLE)
    assert line == "Ann wins the game with 50 points."
