"""A review made in a process beside the window (issue 33): the same review as one made
here, its progress counted as its steps come back, and stopped at once when closed."""

from __future__ import annotations

import time
from pathlib import Path

from sim.play.review import review_game, review_jobs
from sim.play.review.background import ReviewProcess
from sim.store.gamefile import game_digest, load

GAME = Path(__file__).resolve().parent.parent / "data" / "games" / "practice-nine-ball.poolsim"


def test_a_review_in_a_process_is_the_review_made_here() -> None:
    game = load(GAME)
    digest = game_digest(game)
    jobs = review_jobs(game, digest, "1")
    run = ReviewProcess(jobs, digest, "1", 0).start()
    try:
        assert run.total == len(jobs) and run.done == 0
        deadline = time.monotonic() + 240
        review = run.poll()
        while review is None and run.failed is None and time.monotonic() < deadline:
            time.sleep(0.2)
            review = run.poll()
        assert run.failed is None
        assert review is not None and run.done == run.total
        assert review == review_game(game, digest, "1")
        # The best option kept to be drawn and played: its stroke and its lines.
        shot = next(step for step in review.steps if step.kind == "shot")
        assert shot.best_stroke is not None and shot.best_lines is not None
    finally:
        run.close()
    assert not run._process.is_alive()
