"""A whole review: every step judged, and per player the accuracy (the plain mean of
their steps' accuracies, for the match and each rack) and the three steps that cost them
the most; as one JSON object (``poolsim review --json``) and back."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

import attrs

from rules import Player
from sim.play.review.judged import StepReview
from sim.play.review.marks import Tag

COSTLIEST = 3  # the steps a player's review names as those that cost the most
FORMAT = "poolsim-review"
VERSION = 1


@attrs.frozen
class Review:
    """A line of a game judged at ``level``: ``digest`` the game's (the review is of it
    alone), ``line`` the line (0: the main line), ``steps`` each step judged."""

    digest: str
    level: str
    line: int
    steps: tuple[StepReview, ...]

    def of(self, player: Player) -> list[StepReview]:
        return [step for step in self.steps if step.player == player.value]

    def accuracy(self, player: Player, rack: int | None = None) -> float | None:
        """``player``'s accuracy (percent) over the line, or over rack ``rack``: the
        plain mean of their steps' (None: they played none)."""
        marks = [s.accuracy for s in self.of(player) if rack is None or s.rack == rack]
        return statistics.fmean(marks) if marks else None

    def costliest(self, player: Player) -> list[StepReview]:
        """``player``'s steps that cost the most skill, costliest first (the earlier of
        equals first; none that cost nothing)."""
        costly = [s for s in self.of(player) if s.skill > 0]
        return sorted(costly, key=lambda s: (-s.skill, s.place))[:COSTLIEST]

    def racks(self) -> list[int]:
        return sorted({step.rack for step in self.steps})

    def to_json(self) -> dict[str, Any]:
        """The review as one JSON object: ``players`` (``A``, ``B``: ``accuracy``, by
        rack ``racks``, ``costliest``) and ``shots`` (each step: ``best``, ``chosen``,
        ``actual``, ``skill``, ``luck`` as fractions of the chance of winning the rack,
        ``tag``, ``accuracy`` in percent, ``best_option``...)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.digest,
            "level": self.level,
            "line": self.line,
            "players": {
                player.value: {
                    "accuracy": self.accuracy(player),
                    "racks": {
                        str(rack): self.accuracy(player, rack)
                        for rack in self.racks()
                        if self.accuracy(player, rack) is not None
                    },
                    "costliest": [s.place for s in self.costliest(player)],
                }
                for player in Player
            },
            "shots": [_step_json(step) for step in self.steps],
        }


def _step_json(step: StepReview) -> dict[str, Any]:
    data = attrs.asdict(step)
    data["tag"] = step.tag.value
    return data


def review_from_json(data: Any) -> Review:
    """A review back from :meth:`Review.to_json` (ValueError, KeyError or TypeError for
    anything else)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError("not a poolsim review")
    steps = []
    for item in data["shots"]:
        fields = dict(item)
        fields["tag"] = Tag(fields["tag"])
        steps.append(StepReview(**fields))
    return Review(str(data["game"]), str(data["level"]), int(data["line"]), tuple(steps))


def luck_figure(steps: Sequence[StepReview]) -> tuple[float, float]:
    """The mean luck of ``steps`` and its standard error: about 0 over a level's own
    games when the valuation is unbiased (issue 33)."""
    lucks = [s.luck for s in steps if s.kind == "shot"]
    if len(lucks) < 2:
        return (lucks[0] if lucks else 0.0), 0.0
    return statistics.fmean(lucks), statistics.stdev(lucks) / len(lucks) ** 0.5
