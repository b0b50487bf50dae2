"""A review in a player's words: a line a shot (its values in percent, its tag, the best
option, skill and luck), and per player the accuracy and the costliest shots."""

from __future__ import annotations

from rules import Player
from sim.play.review.judged import StepReview
from sim.play.review.marks import points
from sim.play.review.summary import Review

PERSON_LUCK = (
    "a person's stroke is valued as struck (their aim is not recorded), so their luck"
    " leans a little positive (docs/REVIEW.md)"
)


def percent(value: float) -> str:
    """A value as a percentage: "62 %"."""
    return f"{points(value):.0f} %"


def step_line(step: StepReview) -> str:
    """ "rack 1, shot 3 (A): best 62 %, chosen 55 %, actual 70 %: inaccuracy, skill -7.0,
    luck +15.0; best: pot the 4 in the foot-left corner ...; played: ..."."""
    values = f"best {percent(step.best)}, chosen {percent(step.chosen)}"
    if step.kind != "choice":
        values += f", actual {percent(step.actual)}"
    luck = round(points(step.luck), 1) + 0.0  # never "-0.0"
    marks = f"{step.tag.value}, skill {_lost(step.skill)}, luck {luck:+.1f}"
    if step.skill > 0 and step.kind == "shot":
        marks += f" (choice {_lost(step.decision)}, stroke {_lost(step.execution)})"
    if step.missed_pot:
        marks += ", a makeable pot missed"
    played = "" if step.tag.value == "best" else f"; played: {step.played}"
    return f"{step.name} ({step.player}): {values}: {marks}; best: {step.best_option}{played}"


def _lost(loss: float) -> str:
    """A loss in points as a fall: "-7.0", or "0.0" for none."""
    return f"{-points(loss):.1f}" if loss > 0 else "0.0"


def player_lines(review: Review, names: tuple[str, str]) -> list[str]:
    """Per player: their accuracy for the line and each rack, and their costliest shots."""
    lines = []
    for player, name in zip(Player, names, strict=True):
        accuracy = review.accuracy(player)
        if accuracy is None:
            continue
        racks = [
            f"rack {rack} {rack_accuracy:.0f} %"
            for rack in review.racks()
            if (rack_accuracy := review.accuracy(player, rack)) is not None
        ]
        by_rack = f" ({', '.join(racks)})" if len(racks) > 1 else ""
        lines.append(f"{name} ({player.value}): accuracy {accuracy:.0f} %{by_rack}")
        for step in review.costliest(player):
            lines.append(
                f"  cost {points(step.skill):.1f}: {step.name}, {step.tag.value}: played"
                f" {step.played}; best: {step.best_option}"
            )
    if any(step.person for step in review.steps):
        lines.append(f"note: {PERSON_LUCK}")
    return lines
