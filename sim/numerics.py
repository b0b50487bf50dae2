"""The same arithmetic on every machine: the physics' own, and the kernels numpy and
OpenBLAS load.

The physics takes none of its bits from the processor: pooltool's dot products, which
OpenBLAS summed in an order of the processor's, are summed in one order by
:mod:`sim.physics.patches.arithmetic` (``docs/DETERMINISM.md``). What a shot's last bits may
still depend on is :class:`Arithmetic`: that arithmetic's name, the C library whose
``sin``, ``cos`` and ``acos`` the physics calls, and the architecture. Game files record
it, ``poolsim verify`` compares it, and a duel's Dask workers must share it.

The rest of poolsim computes with numpy too (the computer opponent's noise and
geometry), and two libraries under numpy choose their kernels by the CPU they find:

- OpenBLAS (numpy's and scipy's copies) picks its SkylakeX kernels on an AVX-512 CPU and
  its Haswell kernels on AVX2 machines (Intel or AMD), and the kernels round a dot
  product differently in the last bits. ``OPENBLAS_CORETYPE=Haswell`` gives every AVX2
  machine, AVX-512 ones too, the Haswell kernels.
- numpy's ufuncs dispatch by CPU too, and with AVX-512 take SVML's transcendental
  functions (``arccos``, ``arctan2``, ``exp``, ``power``) rather than the C library's;
  turning AVX-512 off gives every machine the loops an AVX2 machine runs.

Both libraries read these settings once, when they are first loaded, so :func:`pin`
runs when ``sim`` is imported (``sim/__init__.py``), before any of its modules imports
numpy: the computer's decisions are then the same on every x86-64 machine with AVX2 and
FMA. :func:`unpinned` says, once they are loaded, whether it took effect: it does not
when numpy was loaded before ``sim`` in the process (a script that imports numpy first, a
Dask worker: distributed loads numpy, so a worker is started with ``--preload-nanny sim``,
whose worker processes then inherit the variables). An older CPU without AVX2 or FMA
keeps the kernels it can run.
"""

from __future__ import annotations

import ctypes
import functools
import importlib
import os
import platform
from pathlib import Path
from typing import Any

import attrs

# The physics' own arithmetic (sim.physics.patches.arithmetic): its name changes whenever what
# it computes could, and game files record it.
PHYSICS_ARITHMETIC = "fixed-dot-1"
BLAS_KERNELS = "Haswell"  # OpenBLAS's name for its AVX2 + FMA kernels
# numpy's names for the AVX-512 features it dispatches on (absent ones are ignored).
AVX512 = [
    *("AVX512F", "AVX512CD", "AVX512_KNL", "AVX512_KNM", "AVX512_SKX"),
    *("AVX512_CLX", "AVX512_CNL", "AVX512_ICL", "AVX512_SPR"),
]
_CPUINFO = Path("/proc/cpuinfo")


@attrs.frozen
class Arithmetic:
    """What the last bits of a simulated shot depend on: the physics' own arithmetic
    (:data:`PHYSICS_ARITHMETIC`), the C library whose ``sin``, ``cos`` and ``acos`` it
    calls (glibc picks a build of them by the processor's FMA), and the architecture.
    ``processor`` is said, not compared: two processors of one architecture with the
    same library compute the same bits."""

    physics: str
    libm: str  # "glibc 2.36, FMA"
    machine: str  # "x86_64"
    processor: str = attrs.field(eq=False, default="")

    def words(self) -> str:
        """One line: 'fixed-dot-1 on glibc 2.36, FMA, x86_64 (AMD EPYC)'."""
        processor = f" ({self.processor})" if self.processor else ""
        return f"{self.identity()}{processor}"

    def identity(self) -> str:
        """What is compared, in words: 'fixed-dot-1 on glibc 2.36, FMA, x86_64'."""
        return f"{self.physics} on {self.libm}, {self.machine}"

    def to_json(self) -> dict[str, str]:
        return attrs.asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Arithmetic:
        """From a file's ``arithmetic`` map; ValueError if it is not one."""
        keys = {"physics", "libm", "machine", "processor"}
        if not isinstance(data, dict) or set(data) != keys:
            raise ValueError(f"must be a map of {', '.join(sorted(keys))}")
        for key, value in data.items():
            if not isinstance(value, str) or not value.isprintable() or len(value) > 200:
                raise ValueError(f"{key}: must be printable text of at most 200 characters")
        return cls(**data)


@functools.cache
def here() -> Arithmetic:
    """This process's arithmetic."""
    name, version = platform.libc_ver()
    libm = f"{name} {version}" if name else f"{platform.system()}'s C library"
    if platform.machine().lower() in ("x86_64", "amd64"):
        # glibc's builds of sin, cos... for FMA and AVX2 together (its ifunc's test)
        libm += ", FMA" if {"fma", "avx2"} <= _cpu_flags() else ", no FMA"
    return Arithmetic(PHYSICS_ARITHMETIC, libm, platform.machine().lower(), _processor_name())


def _processor_name() -> str:
    return _cpuinfo_field("model name") or platform.processor()


def _cpu_flags() -> set[str]:
    """The CPU's feature flags as Linux lists them (empty where there is no such file)."""
    return set(_cpuinfo_field("flags").split())


@functools.cache  # the CPU does not change under a process
def _cpuinfo_field(name: str) -> str:
    """The first processor's ``name`` line in Linux's /proc/cpuinfo ("" where none)."""
    try:
        text = _CPUINFO.read_text(errors="replace")
    except OSError:
        return ""
    for line in text.splitlines():
        if line.startswith(name):
            return line.partition(":")[2].strip()
    return ""


@functools.cache  # the CPU does not change under a process; pin() and unpinned() both ask
def pinnable() -> bool:
    """This machine runs the pinned kernels: x86-64 with AVX2 and FMA (Linux tells)."""
    return platform.machine().lower() in ("x86_64", "amd64") and {"avx2", "fma"} <= _cpu_flags()


def pin() -> None:
    """Set the variables numpy and OpenBLAS read when they load (no effect after that)."""
    if not pinnable():
        return
    os.environ["OPENBLAS_CORETYPE"] = BLAS_KERNELS
    disabled = os.environ.get("NPY_DISABLE_CPU_FEATURES", "").replace(",", " ").split()
    os.environ["NPY_DISABLE_CPU_FEATURES"] = " ".join(
        [*disabled, *(name for name in AVX512 if name not in disabled)]
    )


def _blas_kernels() -> list[str]:
    """The kernels each OpenBLAS loaded in this process runs ("Haswell", "SkylakeX")."""
    names = []
    for path in sorted(_loaded_openblas()):
        library = ctypes.CDLL(path)
        for symbol in ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename"):
            function = getattr(library, symbol, None)
            if function is not None:
                function.restype = ctypes.c_char_p
                names.append(function().decode().strip())
                break
    return names


def _loaded_openblas() -> set[str]:
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return set()
    return {
        line.split(maxsplit=5)[-1]
        for line in maps.splitlines()
        if "libscipy_openblas" in line and line.count(" ") >= 5
    }


def unpinned() -> str | None:
    """Why the physics here may differ from other machines' in the last bits, or None
    when the kernels are the pinned ones (or this machine cannot run them). Call once
    numpy and scipy's BLAS are loaded."""
    if not pinnable():
        return None
    # numpy's own record of the features it dispatches on (what np.show_runtime reads)
    features: dict[str, bool] = importlib.import_module(
        "numpy._core._multiarray_umath"
    ).__cpu_features__
    on = [name for name in AVX512 if features.get(name)]
    blas = sorted({name for name in _blas_kernels() if name != BLAS_KERNELS})
    if not on and not blas:
        return None
    what = ", ".join(
        [*(f"numpy's {name} loops" for name in on), *(f"OpenBLAS's {n} kernels" for n in blas)]
    )
    return (
        f"numpy was loaded before poolsim set its kernels, so this process runs {what}: "
        "import sim before numpy (a Dask worker: start it with --preload-nanny sim), or set "
        f'OPENBLAS_CORETYPE={BLAS_KERNELS} and NPY_DISABLE_CPU_FEATURES="{" ".join(AVX512)}"'
    )
