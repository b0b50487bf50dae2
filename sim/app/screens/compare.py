"""Side by side in the replay: which shots are other attempts at the same shot, and what
each attempt did, in a player's words (no Panda3D here; the viewer draws it).

Two shots are attempts at the same shot when they are played from the same step of the
match: siblings in the game's tree (the shot taken back and the one played in its place,
or a shot played from the replay where another was played before). The panel says where
each attempt's cue ball stopped, from the nearest rail and from the other attempt's, and
what each potted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from rules import CUE
from rules.geometry import Point, TableGeometry
from rules.words import pocket_name
from sim.physics.timeline import MarkerKind, ShotTimeline
from sim.play.game import Node


def other_attempts(nodes: Sequence[Node | None], index: int) -> list[int]:
    """The indices in ``nodes`` (the viewer's shot list, a lag shot's None) of the other
    attempts at the shot ``nodes[index]``: the shots played from the same step, in the
    order of the shot list; none for a lag shot or a shot of no game."""
    node = nodes[index]
    if node is None or node.parent is None:
        return []
    siblings = {id(other) for other in node.parent.variations if other is not node}
    return [i for i, other in enumerate(nodes) if other is not None and id(other) in siblings]


@attrs.frozen
class Outcome:
    """What one attempt did: where its cue ball stopped (None: it dropped, in
    ``cue_pocket``, or left the table) and the object balls it potted, in order."""

    cue_rest: Point | None
    cue_pocket: str | None
    potted: tuple[str, ...]


def outcome(timeline: ShotTimeline) -> Outcome:
    """The attempt's end, from its timeline."""
    drops = [m for m in timeline.markers if m.kind is MarkerKind.POCKET]
    cue_pocket = next((m.place for m in drops if m.balls[0] == CUE), None)
    potted = tuple(m.balls[0] for m in drops if m.balls[0] != CUE)
    cue_rest: Point | None = None
    if CUE in timeline.ball_ids:
        end = timeline.at(timeline.duration)
        j = timeline.index(CUE)
        if not bool(end.pocketed[j]):
            x, y = (float(v) for v in end.positions[j][:2])
            cue_rest = (x, y)
    return Outcome(cue_rest, cue_pocket, potted)


def nearest_rail(point: Point, geometry: TableGeometry) -> tuple[str, float]:
    """The rail nearest a resting ball at ``point`` and the gap between the ball and its
    cushion (metres, the ball's edge to the cushion's nose): head and foot at the ends
    (y = 0 and y = length), left and right as a player at the head rail sees them."""
    x, y = point
    gaps = {
        "head": y,
        "foot": geometry.length - y,
        "left": x,
        "right": geometry.width - x,
    }
    rail = min(gaps, key=lambda name: gaps[name])
    return rail, max(0.0, gaps[rail] - geometry.ball_radius)


def _potted_words(potted: Sequence[str]) -> str:
    if not potted:
        return "potted nothing"
    names = [f"the {ball}" for ball in potted]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"potted {listed}"


def cue_words(this: Outcome, other: Outcome | None, geometry: TableGeometry) -> str:
    """Where this attempt's cue ball stopped: "cue ball stopped 0.42 m from the foot
    rail, 0.18 m from the other attempt's" (centre to centre), or where it dropped."""
    if this.cue_rest is None:
        if this.cue_pocket is not None:
            return f"cue ball dropped in the {pocket_name(this.cue_pocket)}"
        return "cue ball left the table"
    rail, gap = nearest_rail(this.cue_rest, geometry)
    words = f"cue ball stopped {gap:.2f} m from the {rail} rail"
    if other is not None and other.cue_rest is not None:
        apart = math.dist(this.cue_rest, other.cue_rest)
        words += f", {apart:.2f} m from the other attempt's"
    return words


def attempt_lines(this: Outcome, other: Outcome | None, geometry: TableGeometry) -> list[str]:
    """An attempt's two lines for the panel: its cue ball, and what it potted."""
    return [cue_words(this, other, geometry), _potted_words(this.potted)]


def attempt_name(number: int, count: int, *, branch: bool) -> str:
    """The other attempt ``number`` (from 1) of ``count`` as the legend names it: "Other
    attempt" ("Other attempt 2 of 3" when there are several), and whether it is a branch
    or the match went on from it (the shot list marks a branch's shots with an arrow)."""
    which = f" {number} of {count}" if count > 1 else ""
    kept = "a branch" if branch else "the match went on from it"
    return f"Other attempt{which} ({kept})"
