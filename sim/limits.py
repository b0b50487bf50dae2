"""Limits that the game's set-up checks and the command line states in its flags, here
once: the command line reads them without importing the physics (which takes seconds)."""

from __future__ import annotations

# Seeds are what Python's random takes without loss and a game file stores as a JSON
# integer every reader keeps exact: 0 to 2^63 - 1.
MAX_SEED = 2**63 - 1

# The computer player's skill levels, weakest first, and the one with no noise
# (sim.play.opponent.levels defines each).
SKILL_LEVELS = ("1", "2", "3", "4", "5", "perfect")

# A stroke's aim a person writes (the --aim flag, a drill's reference stroke): degrees
# from -360 to 360. Any direction is one of them; 1e308 degrees is none (its sine is noise).
MAX_AIM_DEGREES = 360.0
