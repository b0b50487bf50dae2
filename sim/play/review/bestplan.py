"""The best option's stroke and its tracking lines, kept in a review as plain JSON, so
the replay draws the best option beside the shot played and "Play the best" loads it at
the table without searching again (a search at level 5 takes seconds).

The lines are those of the plan struck once as planned (as the hint's are): the cue
ball's path and the first object ball's, a point every :data:`POINT_STEP` of a second
(a few dozen points a path: a 150-shot review stays a few hundred kilobytes).
"""

from __future__ import annotations

from typing import Any

from rules import Call, Declaration
from sim.physics.simulate import CueAction, SimulatedShot
from sim.physics.tracking import BallPath, TrackingLines, tracking_lines
from sim.play.game import Stroke

KEPT_POINTS = 60  # the most points a path keeps (evenly spread; its ends always kept)
DIGITS = 4  # a tenth of a millimetre


def stroke_json(stroke: Stroke) -> dict[str, Any]:
    """What a player decides of a stroke (not who struck it, nor the shot clock)."""
    action = stroke.action
    return {
        "action": [action.speed, action.aim, action.elevation, action.a, action.b],
        "placement": list(stroke.placement) if stroke.placement is not None else None,
        "call": [stroke.call.ball, stroke.call.pocket.value] if stroke.call else None,
        "declaration": stroke.declaration.value if stroke.declaration else None,
    }


def stroke_from_json(data: Any) -> Stroke:
    """A stroke back from :func:`stroke_json` (ValueError, KeyError or TypeError else)."""
    speed, aim, elevation, a, b = (float(x) for x in data["action"])
    placement = data["placement"]
    call = data["call"]
    declaration = data["declaration"]
    return Stroke(
        action=CueAction(speed=speed, aim=aim, elevation=elevation, a=a, b=b),
        placement=None if placement is None else (float(placement[0]), float(placement[1])),
        call=None if call is None else Call(str(call[0]), call[1]),
        declaration=None if declaration is None else Declaration(declaration),
    )


def lines_json(shot: SimulatedShot) -> dict[str, Any]:
    """The tracking lines of the best plan struck as planned, thinned (see the module)."""
    lines = tracking_lines(shot)
    return {
        "paths": [_path_json(path) for path in lines.paths],
        "contact": None if lines.contact is None else _point(lines.contact),
    }


def lines_from_json(data: Any) -> TrackingLines:
    """Tracking lines back from :func:`lines_json`."""
    paths = [
        BallPath(
            ball=str(p["ball"]),
            points=tuple((float(x), float(y)) for x, y in p["points"]),
            end=(float(p["end"][0]), float(p["end"][1])),
            pocketed=bool(p["pocketed"]),
        )
        for p in data["paths"]
    ]
    contact = data["contact"]
    return TrackingLines(
        cue=paths[0],
        object_ball=paths[1] if len(paths) > 1 else None,
        contact=None if contact is None else (float(contact[0]), float(contact[1])),
    )


def _path_json(path: BallPath) -> dict[str, Any]:
    points = path.points
    if len(points) > KEPT_POINTS:
        last = len(points) - 1
        picked = sorted({round(i * last / (KEPT_POINTS - 1)) for i in range(KEPT_POINTS)})
        points = tuple(points[i] for i in picked)
    return {
        "ball": path.ball,
        "points": [_point(p) for p in points],
        "end": _point(path.end),
        "pocketed": path.pocketed,
    }


def _point(point: tuple[float, float]) -> list[float]:
    return [round(point[0], DIGITS), round(point[1], DIGITS)]
