"""The computer opponent: a player for either seat that makes every decision the rules
give a player, at a skill level from 1 (a beginner) to 5 (a touring pro), or "perfect"
(no noise, for analysis).

- :mod:`.levels`: the levels, each a noise on the five stroke parameters (FastFiz's
  model) and a breadth of search;
- :mod:`.strokes`: the candidate strokes, found by geometry (pots with pace and spin,
  safeties, kicks, push outs, the break, spots for the cue ball in hand);
- :mod:`.judge`: what a position is worth, without simulating;
- :mod:`.search`: candidates simulated, ruled on by the referee and valued by what
  they leave, the best struck again with noise;
- :mod:`.player`: :func:`decide`, the move for a state, and :func:`think`, the same for
  a request another process can be sent (when it offers a stalemate, and answers one:
  :mod:`sim.play.stalemate`);
- :mod:`.lag`: its lag stroke.
"""

from sim.play.opponent.lag import LAG_SPEED, lag_stroke
from sim.play.opponent.levels import LEVEL_NAMES, LEVELS, Level, Noise, Search, level_named
from sim.play.opponent.player import Kind, Move, ThinkRequest, decide, settings, think

__all__ = [
    "LAG_SPEED",
    "LEVELS",
    "LEVEL_NAMES",
    "Kind",
    "Level",
    "Move",
    "Noise",
    "Search",
    "ThinkRequest",
    "decide",
    "lag_stroke",
    "level_named",
    "settings",
    "think",
]
