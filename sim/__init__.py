"""poolsim's simulator, window and tools. Importing ``sim`` first pins the numeric
kernels numpy and OpenBLAS will load (:mod:`sim.numerics`), so that a shot simulates to
the same bits on every machine that can run them."""

from sim import numerics

numerics.pin()
