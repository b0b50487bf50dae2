"""Whether this machine has compiled pooltool's physics already, without importing it.

numba compiles pooltool's kernels on first use (35-46 s on a quiet 2-core machine, minutes
under load) and caches them per numba, pooltool and Python version. The window must say
the truth about it before the first shot: "first run, compiling" only when it is one. A
successful warm-up leaves a small stamp beside numba's cache, and this module reads it
in the window's process, which must not wait for pooltool to find out.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import platform

from sim.files import write_atomically
from sim.paths import numba_cache_dir

STAMP = "poolsim-compiled.json"
TYPICAL_FIRST_RUN = "usually 40 s to 2 min"  # 35-46 s measured quiet; more under load


def _versions() -> dict[str, str]:
    """What numba's cache depends on: the compiled code is only good for these."""
    versions = {"python": platform.python_version()}
    for package in ("pooltool-billiards", "numba"):
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = "none"
    return versions


def compiled_before() -> bool:
    """A warm-up finished on this machine with these versions (numba's cache holds it)."""
    try:
        stamp = json.loads((numba_cache_dir() / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(stamp, dict) and stamp.get("versions") == _versions()


def mark_compiled(seconds: float) -> None:
    """Record a finished warm-up (best effort: a read-only cache only costs the wording)."""
    data = json.dumps({"versions": _versions(), "warm_up_seconds": round(seconds, 1)})
    with contextlib.suppress(OSError):
        write_atomically(numba_cache_dir() / STAMP, data.encode())
