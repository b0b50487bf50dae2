"""The one place that imports pooltool, with its side effects contained.

``import pooltool`` (0.6.0) writes ``~/.config/pooltool/*.yaml``, rewrites Panda3D
settings, and its numba kernels cache next to the installed package. Here we:

- point numba's cache at poolsim's per-user cache folder (``NUMBA_CACHE_DIR``, unless the
  user set one), so the 35-46 s first compile is paid once per machine;
- give pooltool a private "home" under poolsim's config folder while it imports, so it
  writes its yaml files there and not into the user's home;
- build the physics engine from pooltool's default models explicitly, so a user-edited
  ``resolver.yaml`` can never change poolsim's physics.

Every other module of ``sim`` imports pooltool through this one.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sim.paths import config_dir, numba_cache_dir


@contextmanager
def _private_home(home: Path) -> Iterator[None]:
    """Path.home() reads HOME (POSIX) or USERPROFILE (Windows); swap both for a while."""
    saved = {key: os.environ.get(key) for key in ("HOME", "USERPROFILE")}
    home.mkdir(parents=True, exist_ok=True)
    os.environ["HOME"] = os.environ["USERPROFILE"] = str(home)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


# numba reads NUMBA_CACHE_DIR when it is first imported, which pooltool does.
os.environ.setdefault("NUMBA_CACHE_DIR", str(numba_cache_dir()))

with _private_home(config_dir() / "pooltool-home"):
    import pooltool as pt

from pooltool.physics.engine import PhysicsEngine  # noqa: E402
from pooltool.physics.resolve.resolver import default_resolver  # noqa: E402

POOLTOOL_VERSION: str = pt.__version__


def ensure_pooltool_loaded() -> None:
    """pooltool imported, with what its import does to Panda3D: its own PRC settings
    (win-size, frame-rate meter, ``gl-version 3 2``) loaded. Importing this module does
    that, so here it is already done; a caller about to load Panda3D settings of its own
    calls this first, which says where it matters that pooltool's come first (a later
    ``loadPrcFileData`` wins) instead of leaving it to an import kept for its side
    effect."""


def physics_engine() -> PhysicsEngine:
    """pooltool's default physics models, built in code (not read from a yaml file)."""
    return PhysicsEngine(resolver=default_resolver())


__all__ = ["POOLTOOL_VERSION", "ensure_pooltool_loaded", "numba_cache_dir", "physics_engine", "pt"]
