"""The review (issue 33, docs/REVIEW.md): a perfect player's own shot costs it nothing at
the perfect level, a stroke turned 2 degrees off the best one on a long pot is a mistake
or a blunder, the review is the same on 1 worker and 2, and the tags and the accuracy
are as documented."""

from __future__ import annotations

import math

import attrs
import pytest

from rules import Player
from sim.play.game import ComputerPlayer, Game, GameSetup
from sim.play.opponent import decide, level_named
from sim.play.position import Position
from sim.play.review import Review, Tag, accuracy, judged, review_game, review_jobs, tag_of
from sim.store.gamefile import game_digest

# A long pot on an open table: the cue ball near the head string, the 8 (the ball on)
# past the middle, the 9 out of the way.
POSITION = Position(
    game="nine-ball",
    table="9ft",
    balls={"cue": (0.64, 0.62), "8": (0.45, 1.75), "9": (1.0, 2.2)},
    turn=Player.A,
)
PERFECT = ComputerPlayer("perfect", (33, 1))


def _game() -> Game:
    game = Game(GameSetup(game="nine-ball", players=("Ann", "Bob"), seed=3))
    game.set_up(POSITION, refereed=True)
    return game


@pytest.fixture(scope="module")
def perfect_shot() -> tuple[Game, object]:
    """The perfect player's shot from the position, played, and its move."""
    game = _game()
    state = game.rack
    assert state is not None
    move = decide(state, game.setup.spec, level_named("perfect"), PERFECT.generator())
    assert move.stroke is not None and move.kind.value == "pot"
    game.shoot(attrs.evolve(move.stroke, player=PERFECT))
    return game, move


def test_the_perfect_players_own_shot_costs_it_nothing(perfect_shot: tuple[Game, object]) -> None:
    game, _move = perfect_shot
    review = review_game(game, game_digest(game), "perfect")
    first = review.steps[0]
    assert (
        first.skill == 0.0
        and first.tag is Tag.BEST
        and first.accuracy == pytest.approx(100, abs=1e-3)
    )
    assert first.best == first.chosen  # the same stroke, valued alike
    assert first.best_option.startswith("pot the 8")


def test_a_long_pot_aimed_2_degrees_off_the_best_is_a_mistake_or_a_blunder(
    perfect_shot: tuple[Game, object],
) -> None:
    _game_played, move = perfect_shot
    plan = move.plan  # type: ignore[attr-defined]
    turned = attrs.evolve(plan, action=attrs.evolve(plan.action, aim=plan.action.aim + 2.0))
    game = _game()
    record = game.shoot(turned)  # a person's stroke
    assert "8" not in record.ruling.pocketed, "2 degrees off a long pot misses it"
    review = review_game(game, game_digest(game), "perfect")
    (step,) = review.steps
    assert step.tag in (Tag.MISTAKE, Tag.BLUNDER), step
    assert step.person and step.skill > 0.1
    # The same pot, struck worse: the loss is the stroke's, not the choice's.
    assert step.execution >= step.decision


def test_a_computers_plan_is_valued_in_its_own_hand() -> None:
    """Level 1's plan for the long pot, reviewed at level 5, is valued in level 1's
    noise (its stroke is one draw of it, so its luck averages to nothing); the same
    stroke struck by a person is valued in the reviewer's, and a long pot holds up
    better in level 5's hand: level 1's strays are its execution, not its bad luck."""
    one = ComputerPlayer("1", (7, 1))
    game = _game()
    state = game.rack
    assert state is not None
    move = decide(state, game.setup.spec, level_named("1"), one.generator())
    assert move.stroke is not None and move.plan is not None and move.kind.value == "pot"
    game.shoot(attrs.evolve(move.stroke, player=one))
    (computer,) = review_game(game, game_digest(game), "5").steps
    person_game = _game()
    person_game.shoot(move.plan)  # a person's stroke exactly on level 1's plan
    (person,) = review_game(person_game, game_digest(person_game), "5").steps
    assert person.person and not computer.person
    assert computer.best == pytest.approx(person.best, abs=0.05)  # the same position
    assert computer.chosen < person.chosen - 0.05
    assert computer.luck == pytest.approx(computer.actual - computer.chosen)


def test_a_kept_plan_is_read_not_decided_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A computer's shot saved with its plan (game file version 5) is reviewed from it,
    with no search to decide it again, to the same figures as one whose plan the
    review decides again from the seed (a file saved before plans were kept)."""
    one = ComputerPlayer("1", (7, 1))
    reviews = []
    for kept in (False, True):
        game = _game()
        state = game.rack
        assert state is not None
        move = decide(state, game.setup.spec, level_named("1"), one.generator())
        assert move.stroke is not None
        game.shoot(move.played_by(one) if kept else attrs.evolve(move.stroke, player=one))
        if kept:
            monkeypatch.setattr(judged, "think", _no_search)
        digest = "0" * 64  # the same seeds for both (the files differ by the plan kept)
        reviews.append(review_game(game, digest, "3").steps[0])
    assert reviews[0] == reviews[1]


def _no_search(*_args: object, **_kwargs: object) -> None:
    raise AssertionError("the plan was decided again, not read")


def test_the_review_is_the_same_on_one_worker_and_two(perfect_shot: tuple[Game, object]) -> None:
    game, _move = perfect_shot
    state = game.rack
    assert state is not None and state.outcome() is None
    three = level_named("3")
    reply = decide(state, game.setup.spec, three, ComputerPlayer("3", (1,)).generator())
    assert reply.stroke is not None
    game.shoot(attrs.evolve(reply.stroke, player=ComputerPlayer("3", (1,))))
    digest = game_digest(game)
    one = review_game(game, digest, "2", workers=1)
    two = review_game(game, digest, "2", workers=2)
    assert len(one.steps) == 2
    assert one == two
    assert [job.entropy for job in review_jobs(game, digest, "2")] == [
        (*job.entropy[:-1], place) for place, job in enumerate(review_jobs(game, digest, "2"), 1)
    ]


def test_the_reviews_json_has_players_and_shots(perfect_shot: tuple[Game, object]) -> None:
    game, _move = perfect_shot
    review = review_game(game, game_digest(game), "perfect")
    data = review.to_json()
    assert set(data["players"]) == {"A", "B"}
    assert {"accuracy", "costliest", "racks"} <= set(data["players"]["A"])
    shot = data["shots"][0]
    assert {"best", "chosen", "actual", "tag", "skill", "luck", "best_option"} <= set(shot)
    assert data["game"] == game_digest(game)
    from sim.play.review import review_from_json

    assert review_from_json(data) == review
    assert isinstance(review, Review)


@pytest.mark.parametrize(
    ("loss", "tag"),
    [
        (0.0, Tag.BEST),
        (0.01, Tag.BEST),
        (0.0101, Tag.GOOD),
        (0.04, Tag.GOOD),
        (0.0401, Tag.INACCURACY),
        (0.10, Tag.INACCURACY),
        (0.1001, Tag.MISTAKE),
        (0.20, Tag.MISTAKE),
        (0.2001, Tag.BLUNDER),
        (0.6, Tag.BLUNDER),
    ],
)
def test_the_tags_thresholds(loss: float, tag: Tag) -> None:
    assert tag_of(loss) is tag


def test_the_accuracy_at_its_documented_points() -> None:
    assert accuracy(0.0) == pytest.approx(100.0, abs=1e-3)
    assert accuracy(0.04) == pytest.approx(83.5, abs=0.05)
    assert accuracy(0.10) == pytest.approx(63.6, abs=0.05)
    assert accuracy(0.20) == pytest.approx(40.0, abs=0.05)
    assert accuracy(1.0) == 0.0  # kept within 0..100
    assert accuracy(0.3) == pytest.approx(103.1668 * math.exp(-0.04354 * 30) - 3.1669)


@pytest.mark.physics
def test_the_review_on_a_local_cluster_is_the_review_made_here(
    perfect_shot: tuple[Game, object],
) -> None:
    from distributed import LocalCluster

    game, _move = perfect_shot
    digest = game_digest(game)
    here = review_game(game, digest, "1")
    with LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        there = review_game(game, digest, "1", scheduler=cluster.scheduler_address)
    assert there == here
