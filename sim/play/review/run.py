"""A review run: a line's steps judged, here, on ``workers`` processes or on a Dask
cluster, the same way a duel spreads its racks (:func:`sim.play.duel.spread`,
:func:`sim.play.cluster.spread_on_cluster`); each step a pure function of the game, its
place and the level, so the review is the same wherever it is made."""

from __future__ import annotations

from collections.abc import Callable

from sim.play.duel import spread
from sim.play.game import Game
from sim.play.review.judged import ReviewJob, StepReview, judge_step
from sim.play.review.steps import step_entropy, steps_of
from sim.play.review.summary import Review


def review_jobs(game: Game, digest: str, level: str, line: int = 0) -> list[ReviewJob]:
    """The jobs of a review of line ``line`` of ``game`` (GameError for a line not
    there), ``digest`` the game's (the seed of each step's generators)."""
    table = game.setup.table.value
    return [
        ReviewJob(step, table, level, step_entropy(digest, step.place))
        for step in steps_of(game, line)
    ]


def review_game(
    game: Game,
    digest: str,
    level: str,
    line: int = 0,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    client: object | None = None,
    on_step: Callable[[StepReview], None] | None = None,
) -> Review:
    """Line ``line`` of ``game`` judged at ``level`` on ``workers`` processes, or on the
    Dask cluster of ``scheduler`` (``client`` connected to it, if given): ClusterError
    there for a cluster that cannot; ``on_step`` hears of each step as it is judged."""
    jobs = review_jobs(game, digest, level, line)
    done: dict[int, StepReview] = {}

    def judged(review: StepReview) -> None:
        done[review.place] = review
        if on_step is not None:
            on_step(review)

    if scheduler is not None:
        from sim.play.cluster import spread_on_cluster

        numbered = {job.step.place: job for job in jobs}
        spread_on_cluster(
            judge_step,
            numbered,
            scheduler,
            lambda _place, review: judged(review),
            client=client,  # type: ignore[arg-type]  # a distributed.Client
            what="shots",
        )
    else:
        for review in spread(judge_step, jobs, min(workers, max(len(jobs), 1))):
            judged(review)
    return Review(digest, level, line, tuple(done[place] for place in sorted(done)))
