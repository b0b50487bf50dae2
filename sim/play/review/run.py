"""A review run: steps judged here, on ``workers`` processes or on a Dask cluster, the
way a duel spreads its racks (:func:`sim.play.duel.spread`,
:func:`sim.play.cluster.spread_on_cluster`); each step a pure function of the game, its
place and the level, so the review is the same wherever it is made."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sim.play.duel import spread
from sim.play.game import Game
from sim.play.review.judged import ReviewJob, StepReview, judge_step
from sim.play.review.steps import step_entropy, steps_of
from sim.play.review.summary import Review


class Collected:
    """A review's steps as they are judged, in any order (numbered by their job's place
    in ``jobs``), made the review once all are in: the window's background review and
    ``poolsim review --racks`` for each of its games."""

    def __init__(self, jobs: Sequence[ReviewJob], digest: str, level: str, line: int) -> None:
        self.jobs = list(jobs)
        self.digest, self.level, self.line = digest, level, line
        self.judged: dict[int, StepReview] = {}
        self.failed: str | None = None
        self._review: Review | None = None

    @property
    def total(self) -> int:
        return len(self.jobs)

    @property
    def done(self) -> int:
        return len(self.judged)

    def review(self) -> Review | None:
        """The review once every step is judged (the same one each time after); None
        until then."""
        if self._review is None and len(self.judged) == len(self.jobs):
            steps = tuple(self.judged[i] for i in range(len(self.jobs)))
            self._review = Review(self.digest, self.level, self.line, steps)
        return self._review


def review_jobs(game: Game, digest: str, level: str, line: int = 0) -> list[ReviewJob]:
    """The jobs of a review of line ``line`` of ``game`` (GameError for a line not
    there), ``digest`` the game's (the seed of each step's generators)."""
    table = game.setup.table.value
    return [
        ReviewJob(step, table, level, step_entropy(digest, step.place))
        for step in steps_of(game, line)
    ]


def judge_all(
    jobs: Sequence[ReviewJob],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    client: Any = None,
    on_step: Callable[[int, StepReview], None] | None = None,
) -> list[StepReview]:
    """Every job judged, in the order given, on ``workers`` processes or on the Dask
    cluster of ``scheduler`` (``client``: a ``distributed.Client`` connected to it, if
    given; ClusterError for a cluster that cannot); ``on_step`` hears of each as it is
    judged (in any order), with the job's place in ``jobs``."""
    done: dict[int, StepReview] = {}

    def judged(index: int, review: StepReview) -> None:
        done[index] = review
        if on_step is not None:
            on_step(index, review)

    numbered = list(enumerate(jobs))
    if scheduler is not None:
        from sim.play.cluster import spread_on_cluster

        spread_on_cluster(
            judge_step, dict(numbered), scheduler, judged, client=client, what="shots"
        )
    else:
        for index, review in spread(_judge_numbered, numbered, min(workers, max(len(jobs), 1))):
            judged(index, review)
    return [done[index] for index in range(len(jobs))]


def _judge_numbered(numbered: tuple[int, ReviewJob]) -> tuple[int, StepReview]:
    """A job judged, with its number (results come back in any order)."""
    return numbered[0], judge_step(numbered[1])


def review_game(
    game: Game,
    digest: str,
    level: str,
    line: int = 0,
    **spreading: Any,
) -> Review:
    """Line ``line`` of ``game`` judged at ``level`` (``spreading``: as
    :func:`judge_all` takes it)."""
    jobs = review_jobs(game, digest, level, line)
    return Review(digest, level, line, tuple(judge_all(jobs, **spreading)))
