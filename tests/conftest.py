"""Shared test set-up: physics tests compile pooltool's numba kernels on first use.

The first physics test in a fresh machine pays the compile (35-46 s); the cache then lives
in poolsim's cache folder (``sim.physics.pooltool_setup.numba_cache_dir``).
"""

# sim first: importing it pins the numeric kernels numpy and OpenBLAS load (sim.numerics),
# whatever a plugin or a test module imports next.
import sim  # noqa: F401
