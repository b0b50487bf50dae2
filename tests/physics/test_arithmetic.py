"""pooltool's dot products in poolsim's one order (:mod:`sim.physics.patches.arithmetic`): each
sum as documented, to the last bit and the sign of zero; pooltool's modules use it; and
a self-play game saved under one setting of what a processor can change (OpenBLAS's
kernels, numpy's SIMD loops, numba's target processor) verifies bit for bit under
another."""

from __future__ import annotations

import itertools
import math
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from sim.physics.pooltool_setup import load_pooltool

pytestmark = pytest.mark.physics
ROOT = Path(__file__).resolve().parents[2]


def _fma(a: float, b: float, c: float) -> float:
    """a * b + c rounded once, signed zeros as IEEE 754 has them."""
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact != 0:
        return float(exact)
    product_negative = math.copysign(1, a) * math.copysign(1, b) < 0
    if (a == 0 or b == 0) and c == 0:  # a zero product and a zero: -0 only if both are
        return -0.0 if product_negative and math.copysign(1, c) < 0 else 0.0
    return 0.0


def _vector(x: np.ndarray, y: np.ndarray) -> float:
    return ((0.0 + x[0] * y[0]) + x[1] * y[1]) + x[2] * y[2]


def _row(m: np.ndarray, v: np.ndarray) -> float:
    return _fma(m[2], v[2], _fma(m[0], v[0], _fma(m[1], v[1], 0.0)))


def _entry(a: np.ndarray, b: np.ndarray) -> float:
    return _fma(a[2], b[2], _fma(a[1], b[1], _fma(a[0], b[0], 0.0)))


def _bits(value: float) -> bytes:
    return np.float64(value).tobytes()


def _inputs() -> list[tuple[np.ndarray, np.ndarray]]:
    """Random vectors, and every vector of signed zeros and a few numbers."""
    rng = np.random.default_rng(7)
    pairs = [(rng.normal(size=3), rng.normal(size=3)) for _ in range(300)]
    values = [0.0, -0.0, 1.5, -0.3]
    pairs += [
        (np.array(x), np.array(y))
        for x in itertools.product(values, repeat=3)
        for y in itertools.product(values[:3], repeat=3)
    ]
    return pairs


def test_each_sum_is_taken_in_the_documented_order() -> None:
    load_pooltool()
    from sim.physics.patches.arithmetic import fixed_dot

    for x, y in _inputs():
        assert _bits(fixed_dot(x, y)) == _bits(_vector(x, y))
        matrix = np.array([x, y, x[::-1]])
        row_bits = [_bits(value) for value in fixed_dot(matrix, y)]
        assert row_bits == [_bits(_row(row, y)) for row in matrix]
        other = np.array([y, x, y[::-1]]).T  # a transposed matrix, as pooltool passes rvw.T
        product = fixed_dot(matrix, other)
        for i, j in itertools.product(range(3), repeat=2):
            assert _bits(product[i, j]) == _bits(_entry(matrix[i], other[:, j]))


def test_other_shapes_are_refused() -> None:
    load_pooltool()
    from sim.physics.patches.arithmetic import fixed_dot

    with pytest.raises(ValueError, match="3-D only"):
        fixed_dot(np.ones((2, 2)), np.ones(2))
    with pytest.raises(ValueError, match="different lengths"):
        fixed_dot(np.ones(3), np.ones(2))


def test_pooltools_modules_take_the_fixed_dot() -> None:
    load_pooltool()
    from sim.physics.patches.arithmetic import PATCHED_MODULES, fixed_dot

    for name in PATCHED_MODULES:
        assert sys.modules[name].np.dot is fixed_dot, name
        assert sys.modules[name].np.zeros is np.zeros  # numpy's own, every other name


# What a processor can change, set otherwise than the machine's own: OpenBLAS's oldest
# x86-64 kernels (numpy loaded first, so poolsim's pin cannot choose them: its refusal
# lifted for the test), numpy without its optional SIMD loops, and numba compiling for
# a generic x86-64 (no FMA: its fused multiply-adds become the C library's fma).
OTHER_SETTING = {
    "OPENBLAS_CORETYPE": "Prescott",
    "NPY_DISABLE_CPU_FEATURES": "AVX2 FMA3 AVX F16C SSE42 POPCNT SSE41 SSSE3",
    "NUMBA_CPU_NAME": "generic",
}
_BOOTSTRAP = (
    "import numpy, scipy.linalg\n"
    "import sim.numerics\n"
    "sim.numerics.unpinned = lambda: None\n"
    "from sim.cli import main\n"
    "main()\n"
)


def _poolsim(args: list[str], other: bool) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **(OTHER_SETTING if other else {})}
    command = [sys.executable, "-c", _BOOTSTRAP if other else "from sim.cli import main; main()"]
    result = subprocess.run(
        [*command, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.mark.skipif(sys.platform != "linux", reason="the settings are x86-64 Linux's")
def test_a_game_saved_under_one_setting_verifies_bit_for_bit_under_the_other(
    tmp_path: Path,
) -> None:
    for other in (False, True):
        folder = tmp_path / ("other" if other else "own")
        _poolsim(["selfplay", "--racks", "1", "--seed", "5", "--save", str(folder)], other)
    own = tmp_path / "own" / "selfplay-ten-ball-seed5.poolsim"
    other = tmp_path / "other" / "selfplay-ten-ball-seed5.poolsim"
    for path, verified_under_other in ((own, True), (other, False)):
        last = _poolsim(["verify", str(path)], verified_under_other).stdout.splitlines()[-1]
        assert last.endswith("shots re-simulated, in the main line, no branches: all bit-identical")
