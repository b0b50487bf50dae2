"""The window's game reviews (issue 33, docs/REVIEW.md "Where it shows"): for the game
on the table, its review, found saved or made in the background; polled once a frame.

A review is found by the game's digest: the window's own (kept in the user data folder
once made), or one ``poolsim review --save`` wrote beside the game file. One made here
is kept against the game's steps themselves (its tree's nodes), not only its digest: a
branch played from the replay afterwards (Play the best) changes the digest but not the
shots reviewed, which keep their review for the session.

Only one review runs at a time, in a process beside the window
(:class:`sim.play.review.background.ReviewProcess`); the window never waits for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import attrs

from rules import Player
from sim.play.game import Game, Node
from sim.play.review import Review, ReviewJob, StepReview, review_jobs
from sim.play.review.background import InProcessReview, ReviewProcess, ReviewRun
from sim.play.review.steps import step_nodes
from sim.store.gamefile import game_digest, game_document
from sim.store.reviewfile import find_review, keep_review
from sim.store.stats.database import index_review_quietly

LEVEL = "5"  # the level the window reviews at, as ``poolsim review`` does by default

# Makes a review run of (jobs, the game's digest, the level, the line).
Runner = Callable[[Sequence[ReviewJob], str, str, int], ReviewRun]


def in_a_process(jobs: Sequence[ReviewJob], digest: str, level: str, line: int) -> ReviewRun:
    return ReviewProcess(jobs, digest, level, line).start()


def in_this_process(jobs: Sequence[ReviewJob], digest: str, level: str, line: int) -> ReviewRun:
    """A step judged at each poll of the window (tests)."""
    return InProcessReview(jobs, digest, level, line)


@attrs.define(eq=False)
class GameReview:
    """A game's review as the window shows it: the review once there, each step's by its
    node; the run making it (None: found saved, or none asked for); why it failed."""

    game: Game
    nodes: list[Node]
    review: Review | None = None
    run: ReviewRun | None = None
    failed: str | None = None
    on_done: Callable[[GameReview], None] | None = None

    def step(self, node: Node | None) -> StepReview | None:
        """The review of ``node``'s step (None: not reviewed, or no review yet)."""
        if self.review is None or node is None:
            return None
        for known, step in zip(self.nodes, self.review.steps, strict=False):
            if known is node:
                return step
        return None

    def rack(self, step: StepReview) -> list[StepReview]:
        """The steps of ``step``'s rack, in play order (the evaluation graph's)."""
        assert self.review is not None
        return [s for s in self.review.steps if s.rack == step.rack]

    def accuracy(self, seat: str) -> float | None:
        """The accuracy of the player in ``seat`` ("A" or "B"; None: no review yet, or
        they played no step)."""
        return None if self.review is None else self.review.accuracy(Player(seat))

    @property
    def running(self) -> bool:
        return self.run is not None and self.review is None and self.failed is None

    @property
    def status(self) -> str:
        """A line of where the review is: "" when ready, else the progress or trouble."""
        if self.review is not None:
            return ""
        if self.failed is not None:
            return f"The review stopped: {self.failed}"
        if self.run is None:
            return "Not reviewed yet"
        run = self.run
        return (
            f"Reviewing at level {run.level} in the background:"
            f" {run.done} of {run.total} shots judged"
        )

    def poll(self) -> None:
        run = self.run
        if run is None or self.review is not None or self.failed is not None:
            return
        review = run.poll()
        if run.failed is not None:
            self.failed = run.failed
            run.close()
        elif review is not None:
            self.review = review
            run.close()
            if self.on_done is not None:
                self.on_done(self)


class GameReviews:
    """The reviews of the games the window shows (see the module). ``runner`` makes a
    review run (a process; in tests, this process); ``level`` it reviews at; ``unasked``:
    a match's review starts as it ends (a window on a screen; a scripted or test window
    starts one only when asked, its runs never hanging on a process beside them);
    ``keep``: a review made is kept in the user data folder and the statistics (a
    script's window leaves the player's files alone)."""

    def __init__(
        self,
        runner: Runner = in_a_process,
        level: str = LEVEL,
        *,
        unasked: bool = True,
        keep: bool = True,
    ) -> None:
        self.runner = runner
        self.level = level
        self.unasked = unasked
        self.keep = keep
        self._games: dict[int, GameReview] = {}
        # The file the window's game was read from (``poolsim replay FILE``): a review
        # saved beside it is found there.
        self.read_from: Path | None = None
        # Heard of each review made here once it is whole (the statistics keep it).
        self.on_done: Callable[[GameReview], None] | None = None

    def of(self, game: Game, game_file: Path | None = None) -> GameReview:
        """``game``'s review: the one made or found this session, else a saved one of its
        digest (``game_file``: where the game was read from, to look beside it)."""
        known = self._games.get(id(game))
        if known is not None and known.game is game:
            return known
        found = find_review(game_digest(game), game_file or self.read_from)
        shown = GameReview(game, step_nodes(game) if found else [], found)
        # One game on the table at a time; another's review under way runs on to its end
        # (kept by its digest, and in the statistics).
        self._games = {key: other for key, other in self._games.items() if other.running}
        self._games[id(game)] = shown
        return shown

    def start(self, game: Game) -> GameReview:
        """``game``'s main line reviewed in the background (nothing new when its review is
        there or under way; again after a failure)."""
        shown = self.of(game)
        if shown.review is not None or shown.running:
            return shown
        digest = game_digest(game)
        jobs = review_jobs(game, digest, self.level)
        if not jobs:
            shown.failed = "the game has no shot the referee ruled on to review"
            return shown
        shown.nodes = step_nodes(game)
        shown.failed = None
        shown.run = self.runner(jobs, digest, self.level, 0)
        shown.on_done = self._done
        return shown

    def match_over(self, game: Game) -> GameReview:
        """``game``'s match is over: its review, started now unless only when asked."""
        return self.start(game) if self.unasked else self.of(game)

    def _done(self, shown: GameReview) -> None:
        """A review made here: kept by its digest (found again next time) and in the
        player's statistics (each player's accuracy, by the match), then told."""
        review = shown.review
        assert review is not None
        if self.keep:
            try:
                keep_review(review)
            except OSError as error:
                shown.failed = f"made, but not kept: {error.strerror or error}"
            index_review_quietly(review, game_document(shown.game))
        if self.on_done is not None:
            self.on_done(shown)

    def poll(self) -> None:
        for shown in list(self._games.values()):
            shown.poll()

    def status(self) -> tuple[str, ...]:
        """Every review's line (the window at rest draws again when one changes)."""
        return tuple(shown.status for shown in self._games.values())

    def close(self) -> None:
        for shown in self._games.values():
            if shown.running:
                assert shown.run is not None
                shown.run.close()
        self._games = {}
