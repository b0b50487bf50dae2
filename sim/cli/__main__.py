"""``python -m sim.cli``: the same as the installed ``poolsim``."""

from sim.cli import main

main()
