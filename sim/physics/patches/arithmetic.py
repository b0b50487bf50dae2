"""pooltool's dot products in one order, the same on every processor.

pooltool 0.6.0 takes its dot products (a ball's frame turned to its direction of
travel as it evolves, a cushion's normal, a collision's line of centres) with
``np.dot``, in Python and in numba, and both hand them to OpenBLAS. OpenBLAS picks its
kernels by the processor it finds, and the kernels sum a 3-vector's products in other
orders: on an AVX-512 machine (its SkylakeX kernels) ``x·y`` is
``fma(x2, y2, fma(x1, y1, fma(x0, y0, 0)))``, on an AVX2 one (Haswell) it is
``((0 + x0 y0) + x1 y1) + x2 y2``, on an older one (Prescott) another order again. The
last bits of a cushion's rebound then differ, and pool being chaotic, the balls' paths
after it (``docs/DETERMINISM.md`` has the measurements). Pinning OpenBLAS's kernels
(``OPENBLAS_CORETYPE``) only moves the question to the machines that cannot run the
pinned ones, and to other architectures.

So the physics takes no dot product from BLAS: :func:`install` gives the pooltool
modules that call ``np.dot`` a numpy of their own whose ``dot`` is :func:`fixed_dot`,
numba code that writes each sum out in one order, its fused multiply-adds LLVM's
``llvm.fma`` (one rounding, in hardware where the processor has FMA and in the C
library's exactly rounded ``fma`` where it has not). The orders are those of the Haswell
kernels, measured product by product (signed zeros too), so every shot simulated
under poolsim's earlier pin to those kernels comes out the same to the last bit:

- vector · vector: ``((0 + x0 y0) + x1 y1) + x2 y2``, no fused step;
- 3x3 matrix · vector, each row: ``fma(m2, v2, fma(m0, v0, fma(m1, v1, 0)))``;
- 3x3 matrix · 3x3 matrix, each entry: ``fma(a2, b2, fma(a1, b1, fma(a0, b0, 0)))``.

Why a numpy of their own rather than copies of pooltool's functions: numba resolves
``np.dot`` from the module's ``np`` when it compiles, so one replaced name covers every
jitted function of those modules and every caller of them, with no copy of pooltool's
source to keep in step. What numba compiled before lies in its cache under the same
names, which is why poolsim's numba cache is a folder of this arithmetic's own
(:data:`sim.numerics.PHYSICS_ARITHMETIC`), and :func:`install` refuses to run after any
of pooltool's functions has been compiled.

What still depends on the platform is the C library's transcendental functions (``sin``,
``cos``, ``acos``, ``sqrt`` is exact): glibc chooses among builds of them by the
processor's FMA, and another operating system has another library.
"""

from __future__ import annotations

import sys
import types
from typing import Any

import numpy as np
from numba import njit
from numba import types as nbtypes
from numba.core.registry import CPUDispatcher
from numba.extending import intrinsic, overload

# The pooltool modules whose code takes dot products on a shot's way (found by reading
# every compiled function's code for OpenBLAS calls after a game's shots, and its Python
# for np.dot); tests/physics/test_arithmetic.py simulates with OpenBLAS's kernels and
# numpy's loops changed and finds every shot the same.
PATCHED_MODULES = (
    "pooltool.ptmath.utils",
    "pooltool.physics.resolve.ball_ball.frictional_inelastic",
    "pooltool.physics.resolve.ball_ball.core",
    "pooltool.physics.resolve.ball_cushion.core",
    "pooltool.objects.table.components",
    "pooltool.evolution.event_based.solve",
)


@intrinsic  # type: ignore[untyped-decorator]  # numba is untyped
def _fused_multiply_add(typingctx: Any, a: Any, b: Any, c: Any) -> Any:
    """``a * b + c`` rounded once (LLVM's ``llvm.fma``, never split into two roundings)."""
    if not all(isinstance(x, (nbtypes.Float, nbtypes.Integer)) for x in (a, b, c)):
        return None
    signature = nbtypes.float64(a, b, c)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        double = [
            context.cast(builder, v, t, nbtypes.float64)
            for v, t in zip(args, sig.args, strict=True)
        ]
        return builder.fma(*double)

    return signature, codegen


# The three shapes, each with the arguments' names of _dot (numba's overload asks it).
def _vector_vector(a: Any, b: Any) -> float:
    if a.shape[0] != b.shape[0]:
        raise ValueError("fixed_dot: vectors of different lengths")
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i] * b[i]
    return total


def _matrix_vector(a: Any, b: Any) -> Any:
    if a.shape != (3, 3) or b.shape[0] != 3:
        raise ValueError("fixed_dot: a matrix times a vector is taken in 3-D only")
    out = np.empty(3, dtype=np.float64)
    for i in range(3):
        out[i] = _fused_multiply_add(
            a[i, 2],
            b[2],
            _fused_multiply_add(a[i, 0], b[0], _fused_multiply_add(a[i, 1], b[1], 0.0)),
        )
    return out


def _matrix_matrix(a: Any, b: Any) -> Any:
    if a.shape != (3, 3) or b.shape != (3, 3):
        raise ValueError("fixed_dot: a matrix times a matrix is taken in 3-D only")
    out = np.empty((3, 3), dtype=np.float64)
    for i in range(3):
        for j in range(3):
            out[i, j] = _fused_multiply_add(
                a[i, 2],
                b[2, j],
                _fused_multiply_add(a[i, 1], b[1, j], _fused_multiply_add(a[i, 0], b[0, j], 0.0)),
            )
    return out


def _dot(a: Any, b: Any) -> Any:
    """What :func:`fixed_dot` computes, typed by the overload below (numba only)."""
    raise TypeError("_dot is compiled by numba; call fixed_dot")


@overload(_dot)  # type: ignore[untyped-decorator]
def _dot_by_shape(a: Any, b: Any) -> Any:
    if not (isinstance(a, nbtypes.Array) and isinstance(b, nbtypes.Array)):
        return None
    shapes = (a.ndim, b.ndim)
    return {(1, 1): _vector_vector, (2, 1): _matrix_vector, (2, 2): _matrix_matrix}.get(shapes)


@njit(cache=True)  # type: ignore[untyped-decorator]
def fixed_dot(a: Any, b: Any) -> Any:
    """``np.dot`` of 3-vectors and 3x3 matrices in poolsim's one order (module docstring)."""
    return _dot(a, b)


def _numpy_with_fixed_dot() -> types.ModuleType:
    """numpy's namespace with ``dot`` replaced: attribute lookups stay plain dict
    lookups, and numba sees numpy's own functions under every other name."""
    module = types.ModuleType("numpy", "numpy, with poolsim's fixed dot product")
    vars(module).update({k: v for k, v in vars(np).items() if k not in ("__name__", "__doc__")})
    module.dot = fixed_dot  # type: ignore[attr-defined]  # a namespace made here
    return module


_installed = False


def install() -> None:
    """Give each of :data:`PATCHED_MODULES` the numpy whose ``dot`` is :func:`fixed_dot`
    (once, right after pooltool's import and before any of its functions is compiled)."""
    global _installed
    if _installed:
        return
    compiled = sorted(
        f"{d.py_func.__module__}.{d.py_func.__qualname__}"
        for name in PATCHED_MODULES
        for d in vars(sys.modules[name]).values()
        if isinstance(d, CPUDispatcher) and d.overloads
    )
    if compiled:
        raise RuntimeError(
            f"pooltool's {compiled[0]} was compiled before poolsim fixed its dot products"
        )
    numpy_fixed = _numpy_with_fixed_dot()
    for name in PATCHED_MODULES:
        module = sys.modules[name]
        if vars(module).get("np") is not np:
            raise RuntimeError(f"{name} no longer calls numpy np: poolsim's fixed dot is stale")
        module.np = numpy_fixed  # type: ignore[attr-defined]
    _installed = True
