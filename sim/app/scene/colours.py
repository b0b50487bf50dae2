"""The balls' colours as lines and marks draw them: the replay's paths and the tracking
lines (no Panda3D here)."""

from __future__ import annotations

from rules import CUE

# The balls' colours, as the standard set has them (lightened a little where the true
# colour would vanish into the cloth): each ball's path is drawn in its ball's colour,
# a stripe's in a lighter shade of it, so a break's paths can be told apart.
SOLID_COLOURS: dict[int, tuple[float, float, float]] = {
    1: (1.0, 0.82, 0.1),  # yellow
    2: (0.35, 0.55, 1.0),  # blue
    3: (0.95, 0.15, 0.12),  # red
    4: (0.62, 0.3, 0.9),  # purple
    5: (1.0, 0.5, 0.05),  # orange
    6: (0.1, 0.72, 0.3),  # green
    7: (0.85, 0.35, 0.25),  # maroon (brick: a true maroon vanishes on the cloth)
    8: (0.08, 0.08, 0.08),  # black
}
STRIPE_LIGHTER = 0.4  # a stripe's path: its colour this far towards white


def ball_colour(ball: str) -> tuple[float, float, float]:
    if ball == CUE:
        return (1.0, 1.0, 1.0)
    number = int(ball) if ball.isdigit() else 0
    if number in SOLID_COLOURS:
        return SOLID_COLOURS[number]
    if number - 8 in SOLID_COLOURS:
        r, g, b = (c + (1 - c) * STRIPE_LIGHTER for c in SOLID_COLOURS[number - 8])
        return (r, g, b)
    return (0.75, 0.75, 0.75)  # a ball of no standard set (a lag's second cue ball)


BALL_COLOURS: dict[str, tuple[float, float, float]] = {
    ball: ball_colour(ball) for ball in (CUE, *(str(n) for n in range(1, 16)))
}
