"""The table's plain geometry that the players and the figures share: the pot geometry
(:mod:`.pots`), with no simulation."""
