"""The game review (issue 33, docs/REVIEW.md): every shot of a line judged as a chess
engine judges moves, skill told apart from luck.

- :mod:`.steps`: the line's shots, choices and time fouls as plain data, and each one's
  seed from the game's digest and its place;
- :mod:`.judged`: one step judged: best, chosen and actual, skill and luck, the split
  into decision and execution, the tag, the best option in words;
- :mod:`.marks`: the tags' thresholds and the accuracy formula;
- :mod:`.summary`: the whole review, per player the accuracy and the costliest shots,
  as JSON;
- :mod:`.run`: the steps judged here, on processes or on a cluster.
"""

from sim.play.review.judged import ReviewJob, StepReview, judge_step
from sim.play.review.marks import Tag, accuracy, tag_of
from sim.play.review.run import Collected, judge_all, review_game, review_jobs
from sim.play.review.steps import Option, Step, StepKind, step_entropy, steps_of
from sim.play.review.summary import Review, luck_figure, review_from_json

__all__ = [
    "Collected",
    "Option",
    "Review",
    "ReviewJob",
    "Step",
    "StepKind",
    "StepReview",
    "Tag",
    "accuracy",
    "judge_all",
    "judge_step",
    "luck_figure",
    "review_from_json",
    "review_game",
    "review_jobs",
    "step_entropy",
    "steps_of",
    "tag_of",
]
