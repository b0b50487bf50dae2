"""The one place that imports pooltool, with its side effects contained, when it is
first used.

``import pooltool`` (0.6.0) takes about 2 s (numba, scipy), writes
``~/.config/pooltool/*.yaml``, rewrites Panda3D settings, and its numba kernels cache next
to the installed package. Here we:

- import it only when one of its names is first asked for (``pt.Table``, in any thread):
  the window shows its start screen without it and loads it in the background
  (:func:`load_pooltool_in_background`) while the player looks;
- point numba's cache at poolsim's per-user cache folder (``NUMBA_CACHE_DIR``; inside
  the user's, if they set one), a folder of the physics' arithmetic, so the 35-46 s
  first compile is paid once per machine;
- give pooltool a private "home" under poolsim's config folder while its one module that
  reads the home runs, so it writes its yaml files there and not into the user's home;
- let a caller redo what must come after pooltool's import (:func:`redo_after_pooltool`:
  the window's Panda3D settings, which must win over pooltool's);
- build the physics engine from pooltool's default models explicitly, so a user-edited
  ``resolver.yaml`` can never change poolsim's physics;
- refuse to go on with numeric kernels other than the pinned ones (:mod:`sim.numerics`),
  which would simulate shots that differ from other machines' in the last bits.

Every other module of ``sim`` reaches pooltool through ``pt`` here, and none touches it
while it is imported: what a module needs of pooltool is looked up when it runs.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import os
import sys
import threading
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim import numerics
from sim.files import held_alone
from sim.paths import config_dir, numba_cache_dir

if TYPE_CHECKING:
    import pooltool as pt
    from pooltool.physics.engine import PhysicsEngine


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


# The one module of pooltool that reads the home folder, once, as it runs (and makes
# ``.config/pooltool`` there).
_HOME_READER = "pooltool.config.paths"


class _PrivateHomeFinder(importlib.abc.MetaPathFinder):
    """Runs :data:`_HOME_READER` with the home pointed at poolsim's private one, and no
    other module: the window imports pooltool in a thread, and a folder the window looks
    up meanwhile (the player's saved games, their home) must be theirs. The home is
    elsewhere for the moment that module runs (a fraction of a millisecond), not for the
    two seconds of the whole import."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != _HOME_READER:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is not None and spec.loader is not None:
            spec.loader = _PrivateHomeLoader(spec.loader)
        return spec


@contextmanager
def _first_import_alone(home: Path) -> Iterator[None]:
    """The first import of pooltool with a new private home, one process at a time.
    pooltool writes its ``general.yaml`` and ``resolver.yaml`` there as it is imported,
    not atomically: a window's worker and thinker import it at the same moment, and one
    read the other's half-written file ("general.yaml is malformed", a traceback on the
    first launch). Once an import has made them (the marker), processes import freely."""
    marker = home / ".pooltool-imported"
    if marker.exists():
        yield
        return
    with held_alone(home / ".pooltool-import.lock"):
        yield
        marker.touch()


class _PrivateHomeLoader(importlib.abc.Loader):
    def __init__(self, loader: importlib.abc.Loader) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        with _private_home(config_dir() / "pooltool-home"):
            self._loader.exec_module(module)


# numba reads NUMBA_CACHE_DIR when it is first imported, which pooltool does: the folder
# of this arithmetic's (inside the user's, if they set one).
os.environ["NUMBA_CACHE_DIR"] = str(numba_cache_dir())

# What files record: pooltool's own ``__version__`` is this distribution's version.
POOLTOOL_VERSION: str = importlib.metadata.version("pooltool-billiards")

_loading = threading.Lock()  # one import, whichever thread asks first
_loaded = threading.Event()
_after_load: list[Callable[[], None]] = []
_registering = threading.Lock()  # _after_load and _loaded: held for a moment, not the import
_starting = threading.Lock()  # one background import
_background: threading.Thread | None = None


class _Pooltool(types.ModuleType):
    """pooltool's module before it is imported: the first name asked of it imports
    pooltool, and from then on it holds pooltool's names itself (a plain lookup)."""

    def __getattr__(self, name: str) -> Any:
        # Dunder names: copy, pickle and inspect probe for them, which imports nothing.
        if name.startswith("__") or _loaded.is_set():
            raise AttributeError(f"module 'pooltool' has no attribute {name!r}")
        load_pooltool()
        return getattr(self, name)


if not TYPE_CHECKING:
    pt = _Pooltool("pooltool")


def load_pooltool() -> types.ModuleType:
    """Import pooltool now (once; a second thread asking waits for the first), its home
    a private one, then run what :func:`redo_after_pooltool` asked for."""
    with _loading:
        if not _loaded.is_set():
            finder = _PrivateHomeFinder()
            sys.meta_path.insert(0, finder)
            try:
                with _first_import_alone(config_dir() / "pooltool-home"):
                    module = importlib.import_module("pooltool")
            finally:
                sys.meta_path.remove(finder)
            # Before anything of pooltool's is compiled: its dot products in one order.
            importlib.import_module("sim.physics.patches.arithmetic").install()
            problem = numerics.unpinned()
            if problem is not None:
                raise RuntimeError(problem)
            vars(pt).update(vars(module))
            with _registering:
                for callback in _after_load:
                    callback()
                _loaded.set()
    return pt


def pooltool_loaded(wait: float = 0.0) -> bool:
    """pooltool is imported in this process: asking for its names costs nothing.
    ``wait``: seconds to wait for an import under way, at most (returning as it ends)."""
    return _loaded.wait(wait) if wait > 0 else _loaded.is_set()


def load_pooltool_in_background() -> None:
    """Start importing pooltool in a thread of its own (once), so that a window keeps
    answering meanwhile: the import holds the interpreter for at most some 70 ms at a
    time (measured here). Whoever asks for a name of pooltool before it is done waits for it."""
    global _background
    with _starting:  # not the import's lock: that one is held for the whole import
        if _loaded.is_set() or _background is not None:
            return
        _background = threading.Thread(
            target=load_pooltool, name="poolsim-load-pooltool", daemon=True
        )
        _background.start()


def redo_after_pooltool(callback: Callable[[], None]) -> None:
    """Call ``callback`` again right after pooltool is imported, in the thread that
    imports it, if that is still to come: for what the caller has just done and
    pooltool's import would undo (settings of its own that pooltool's override). If
    pooltool is imported already, what the caller did came after it, and stands. Never
    waits for an import under way."""
    with _registering:
        if not _loaded.is_set():
            _after_load.append(callback)


def physics_engine() -> PhysicsEngine:
    """pooltool's default models, built in code (not read from a yaml file)."""
    return pt.physics.engine.PhysicsEngine(resolver=pt.physics.resolve.resolver.default_resolver())


__all__ = [
    "POOLTOOL_VERSION",
    "load_pooltool",
    "load_pooltool_in_background",
    "numba_cache_dir",
    "physics_engine",
    "pooltool_loaded",
    "pt",
    "redo_after_pooltool",
]
