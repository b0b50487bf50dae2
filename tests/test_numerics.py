"""The numeric kernels are pinned when ``sim`` is imported first, and a process that loaded
numpy before (with other kernels) is told so, and refused physics, rather than simulate
shots that differ from other machines' in the last bits (:mod:`sim.numerics`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim import numerics

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(
    not numerics.pinnable(), reason="the pinned kernels need x86-64 with AVX2 and FMA"
)
OTHER_KERNELS = "Sandybridge"  # AVX without FMA: runs on any machine the pinned ones do


def _run(code: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "OPENBLAS_CORETYPE": OTHER_KERNELS}
    environment.pop("NPY_DISABLE_CPU_FEATURES", None)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_importing_sim_first_pins_both_blas_libraries_and_numpys_loops() -> None:
    result = _run(
        "import sim, numpy, scipy.linalg.cython_blas\n"
        "from numpy._core._multiarray_umath import __cpu_features__ as features\n"
        "from sim import numerics\n"
        "print(numerics._blas_kernels(), [f for f in numerics.AVX512 if features[f]],"
        " numerics.unpinned())\n"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[0] == "['Haswell', 'Haswell'] [] None"


def test_numpy_loaded_first_with_other_kernels_is_named_and_refused_physics() -> None:
    result = _run(
        "import numpy, scipy.linalg.cython_blas\n"
        "from sim import numerics\n"
        "print(numerics.unpinned())\n"
        "from sim.physics.pooltool_setup import load_pooltool\n"
        "load_pooltool()\n"
    )
    assert result.returncode == 1
    said = result.stdout.strip()
    assert said.startswith("numpy was loaded before poolsim set its kernels"), said
    assert f"OpenBLAS's {OTHER_KERNELS} kernels" in said
    assert "OPENBLAS_CORETYPE=Haswell" in said
    assert f"RuntimeError: {said}" in result.stderr


def test_a_users_own_disabled_numpy_features_are_kept() -> None:
    environment = {**os.environ, "NPY_DISABLE_CPU_FEATURES": "AVX2"}
    result = subprocess.run(
        [sys.executable, "-c", "import os, sim; print(os.environ['NPY_DISABLE_CPU_FEATURES'])"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.stdout.split() == ["AVX2", *numerics.AVX512]
