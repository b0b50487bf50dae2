"""Shared test set-up: the numeric kernels pinned, and pooltool's numba kernels compiled
once before the two test processes start.

A fresh machine pays the compile (35-46 s) here; the cache then lives in poolsim's cache
folder (``sim.physics.pooltool_setup.numba_cache_dir``).
"""

import pytest

# sim first: importing it pins the numeric kernels numpy and OpenBLAS load (sim.numerics),
# whatever a plugin or a test module imports next.
import sim  # noqa: F401


def pytest_configure(config: pytest.Config) -> None:
    """The tests run in two worker processes (pyproject's addopts): on a machine that has
    not compiled pooltool's physics yet, compile it once here, before they start, rather
    than in both at once (each would pay the 35-46 s, and write the same cache)."""
    if hasattr(config, "workerinput"):  # a worker: the controller has compiled
        return
    from sim.physics.simulators.compiled import compiled_before
    from sim.physics.simulators.warmup import warm_up

    if not compiled_before():
        warm_up()
