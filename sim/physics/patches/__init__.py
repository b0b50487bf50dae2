"""What poolsim puts in place of pooltool 0.6.0's own code when it imports it, each piece
checked against the code it replaces: its dot products in one order on every processor
(:mod:`.arithmetic`), and its pure-Python hot spots done faster to the same bits
(:mod:`.speedups`, which installs them, and :mod:`.nextevent`)."""
