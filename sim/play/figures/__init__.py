"""The players' figures: one definition of each (racks, breaks, balls on the break,
break-and-runs, run-outs, shots, fouls, safeties, kicks, pots attempted and made, and a
game's own figures), counted from a match's steps, for ``poolsim stats`` (from a game
file's records), the match summary and ``duel`` (from the live game's).

Why the play floor: what the figures read is the referee's (:class:`rules.figures.Step`,
and a game names its own figures in ``rules``), but the pots attempted and the safeties
that left no shot are measured on the table's pockets with the players' pot geometry
(:mod:`sim.play.geometry.pots`, over :mod:`sim.physics.table`), which the pure referee
cannot import. The play floor is the lowest that can, and every reader of the figures
(the statistics in ``store``, the window, the duel here) stands on it or above.

- :mod:`.counts`: each player's counts and the game's own figures (the definitions);
- :mod:`.attempts`: the pots attempted and the safeties that left no shot;
- :mod:`.live`: a game in memory as steps.
"""
