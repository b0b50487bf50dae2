"""The table's plain geometry that the players and the figures share: the pot geometry
(:mod:`.pots`) and the cue raised over the balls behind the cue ball (:mod:`.cueclearance`),
with no simulation."""
