"""``python -m sim``: the same as the ``poolsim`` command."""

from sim.cli import main

main()
