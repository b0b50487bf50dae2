"""Drill scoring, pure: from an attempt's shot facts and where the cue ball stopped, the
goal parts met, the cue ball's distance from the zone, the points and the sentence a
player reads; a session's attempts, best and end; a drill that cannot be played refused
naming the part."""

from __future__ import annotations

import pytest

from rules import CUE, PocketId
from rules.facts import Hit, OffTable, Pocketing
from sim.play.drill import (
    CircleZone,
    Drill,
    DrillError,
    DrillSession,
    Goal,
    PotGoal,
    RectangleZone,
    Scoring,
    attempt_over,
    score_attempt,
)
from sim.play.position import Position

pytestmark = pytest.mark.physics  # a Position is checked by the physics' placing

POSITION = Position(
    game="ten-ball",
    table="9ft",
    turn="A",
    balls={CUE: (0.6, 1.5), "3": (0.9, 2.1), "5": (0.3, 2.0), "7": (0.5, 0.8)},
)
ZONE = CircleZone((0.9, 2.1), 0.08)


def _drill(**changes: object) -> Drill:
    fields: dict[str, object] = {
        "name": "stop-shot",
        "title": "Stop shot",
        "instruction": "Pocket the 3 and stop.",
        "position": POSITION,
        "goal": Goal((PotGoal("3", frozenset({PocketId.RT})),), ZONE),
        "attempts": 3,
    }
    fields.update(changes)
    return Drill(**fields)  # type: ignore[arg-type]


def _potted(ball: str, pocket: str) -> tuple[Hit | Pocketing, ...]:
    return (Hit((CUE, ball)), Pocketing(ball, pocket))


def test_a_made_attempt_scores_every_point_and_says_so() -> None:
    score = score_attempt(_drill(), [_potted("3", "rt")], (0.92, 2.08))
    assert score.made and score.cue_in_zone
    assert score.points == score.max_points == 20
    assert score.words == "The 3 went in the foot-right corner; the cue ball stopped in the zone."
    assert score.verdict == "Made it: 20 of 20 points."


def test_the_cue_ball_short_of_the_zone_earns_a_share_by_its_distance() -> None:
    # 0.08 + 0.14 from the centre: 14 cm outside the zone, of 30 cm near.
    score = score_attempt(_drill(), [_potted("3", "rt")], (0.9, 2.1 - 0.22))
    assert not score.made
    assert score.cue_distance == pytest.approx(0.14)
    assert score.points == 10 + round(10 * (1 - 0.14 / 0.3))
    assert score.words == (
        "The 3 went in the foot-right corner; the cue ball stopped 14 cm from the zone."
    )
    assert [p.met for p in score.pots] == [True]
    # Seen from where the cue ball was struck: short of the zone, past it, wide of it.
    for cue_at, miss in (
        ((0.9, 1.88), "short of"),
        ((0.9, 2.32), "past"),
        ((1.12, 2.1), "wide of"),
    ):
        said = score_attempt(_drill(), [_potted("3", "rt")], cue_at, (0.9, 1.5))
        assert said.cue_distance == pytest.approx(0.14)
        assert said.words.endswith(f"the cue ball stopped 14 cm {miss} the zone."), said.words


def test_a_wrong_pocket_a_ball_left_out_and_a_scratch_are_each_said() -> None:
    wrong = score_attempt(_drill(), [_potted("3", "lt")], (0.9, 2.1))
    assert not wrong.made and wrong.points == 10  # the zone's points only
    assert wrong.words.startswith(
        "The 3 went in the foot-left corner, not the foot-right corner; the cue ball"
    )
    missed = score_attempt(_drill(), [(Hit((CUE, "3")),)], (0.2, 0.4))
    assert missed.points == 0 and missed.words.startswith("The 3 stayed out; the cue ball stopped")
    scratch = score_attempt(_drill(), [(*_potted("3", "rt"), Pocketing(CUE, "rb"))], None)
    assert not scratch.made and scratch.points == 10 and scratch.cue_distance is None
    assert scratch.words == (
        "The 3 went in the foot-right corner; the cue ball went in the head-right corner."
    )
    off = score_attempt(_drill(), [(OffTable(CUE),)], None)
    assert off.words == "The 3 stayed out; the cue ball left the table."
    jumped = score_attempt(_drill(), [(Hit((CUE, "3")), OffTable("3"))], (0.9, 2.1))
    assert jumped.words == "The 3 left the table; the cue ball stopped in the zone."
    assert not jumped.made and jumped.points == 10


def test_any_pocket_a_list_of_pockets_and_a_rectangle() -> None:
    goal = Goal(
        (PotGoal("3"), PotGoal("5", frozenset({PocketId.LT, PocketId.LC}))),
        RectangleZone((0.4, 1.0), (0.8, 1.4)),
    )
    drill = _drill(goal=goal)
    assert goal.words == (
        "Pocket the 3 in any pocket and the 5 in the left side or foot-left corner "
        "and stop the cue ball in the zone"
    )
    inside = score_attempt(drill, [(*_potted("3", "rc"), Pocketing("5", "lc"))], (0.5, 1.2))
    assert inside.made and inside.points == 30
    outside = score_attempt(drill, [(*_potted("3", "lb"), Pocketing("5", "lt"))], (0.9, 1.2))
    assert outside.cue_distance == pytest.approx(0.1)
    assert not outside.made and outside.points == 20 + round(10 * (1 - 0.1 / 0.3))


def test_an_attempt_of_several_shots_ends_on_a_miss_a_scratch_or_the_last_ball() -> None:
    run = _drill(goal=Goal((PotGoal("3"), PotGoal("5"), PotGoal("7"))), shots=3)
    assert run.goal.words == "Pocket the 3, the 5 and the 7 in any pocket"
    assert not attempt_over(run, [])
    assert not attempt_over(run, [_potted("3", "rt")])
    assert attempt_over(run, [_potted("3", "rt"), (Hit((CUE, "5")),)])  # a miss
    assert attempt_over(run, [(*_potted("3", "rt"), Pocketing(CUE, "lb"))])
    two_at_once = (*_potted("3", "rt"), Pocketing("5", "lt"))
    assert not attempt_over(run, [two_at_once])
    assert attempt_over(run, [two_at_once, _potted("7", "lc")])
    score = score_attempt(run, [two_at_once, _potted("7", "lc")], (0.6, 0.6))
    assert score.made and score.points == 30
    assert score.words == (
        "The 3 went in the foot-right corner; the 5 went in the foot-left corner; "
        "the 7 went in the left side."
    )


def test_a_session_keeps_its_attempts_its_best_and_ends() -> None:
    drill = _drill()
    session = DrillSession(drill)
    assert session.attempt == 1 and session.best is None and not session.finished
    scores = [
        score_attempt(drill, [_potted("3", "rt")], (0.9, 1.8)),
        score_attempt(drill, [_potted("3", "rt")], (0.9, 2.1)),
        score_attempt(drill, [(Hit((CUE, "3")),)], (0.9, 2.1)),
    ]
    for score in scores:
        session = session.record(score)
    assert session.finished and session.attempt == 3
    assert session.best is scores[1] and session.made == 1
    assert session.summary == f"1 of 3 made; best 20 of 20 points, {session.total} of 60 in all."
    with pytest.raises(ValueError, match="finished"):
        session.record(scores[0])


@pytest.mark.parametrize(
    ("changes", "key", "problem"),
    [
        ({"goal": Goal((PotGoal("9"),))}, "goal.balls.9", "the 9 is not on the table"),
        ({"goal": Goal((PotGoal(CUE),))}, "goal.balls.cue", "not pocketed on purpose"),
        ({"goal": Goal((PotGoal("3"), PotGoal("3")))}, "goal.balls.3", "given twice"),
        ({"goal": Goal(())}, "goal", "nothing to do"),
        ({"goal": Goal((), CircleZone((1.25, 1.0), 0.1))}, "goal.zone", "off the bed"),
        ({"goal": Goal((), CircleZone((0.5, 1.0), 0.0))}, "goal.zone.radius", "more than 0"),
        (
            {"goal": Goal((), CircleZone((float("nan"), 1.0), 0.1))},
            "goal.zone",
            "not finite",
        ),
        ({"goal": Goal((), RectangleZone((0.5, 1.0), (0.4, 1.2)))}, "goal.zone", "below and left"),
        ({"goal": Goal((), RectangleZone((0.5, 2.0), (0.8, 2.6)))}, "goal.zone", "off the bed"),
        ({"attempts": 0}, "attempts", "from 1 to 100"),
        ({"shots": 16}, "shots", "from 1 to 15"),
        ({"title": " "}, "title", "empty"),
    ],
)
def test_a_drill_that_cannot_be_played_is_refused_naming_the_part(
    changes: dict[str, object], key: str, problem: str
) -> None:
    with pytest.raises(DrillError) as caught:
        _drill(**changes)
    assert caught.value.key == key and problem in caught.value.problem


def test_scoring_refuses_points_and_distances_out_of_range() -> None:
    with pytest.raises(DrillError, match=r"scoring\.ball"):
        Scoring(ball=-1)
    with pytest.raises(DrillError, match=r"scoring\.near"):
        Scoring(near=float("inf"))
    assert Scoring(near=0.0).zone_points(0.01) == 0
