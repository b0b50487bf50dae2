"""Where poolsim keeps things: per-user folders by platform convention (platformdirs),
each movable by an environment variable (tests and CI use them)."""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

import platformdirs

from sim.numerics import PHYSICS_ARITHMETIC

APP_NAME = "poolsim"


def _folder(variable: str, default: str) -> Path:
    override = os.environ.get(variable)
    return Path(override) if override else Path(default)


def cache_dir() -> Path:
    """Caches: numba's compiled physics, Panda3D's models (``POOLSIM_CACHE_DIR``)."""
    return _folder("POOLSIM_CACHE_DIR", platformdirs.user_cache_dir(APP_NAME))


def config_dir() -> Path:
    """Settings (``POOLSIM_CONFIG_DIR``); pooltool's own files go below it."""
    return _folder("POOLSIM_CONFIG_DIR", platformdirs.user_config_dir(APP_NAME))


def data_dir() -> Path:
    """The player's data: the autosaved game (``POOLSIM_DATA_DIR``)."""
    return _folder("POOLSIM_DATA_DIR", platformdirs.user_data_dir(APP_NAME))


def numba_cache_dir() -> Path:
    """numba's cache of pooltool's compiled physics: a folder of the physics' arithmetic
    (:mod:`sim.physics.patches.arithmetic`), named by its name and a digest of its source, inside
    ``NUMBA_CACHE_DIR`` where that is set. numba finds a function in its cache by the
    function's own file, so one compiled under another arithmetic (or with another
    version of its dot product) would be loaded as it was."""
    folder = f"{PHYSICS_ARITHMETIC}-{_arithmetic_digest()}"
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:  # a process poolsim started inherits the folder itself
        return Path(given) if Path(given).name == folder else Path(given) / folder
    return cache_dir() / "numba" / folder


@functools.cache
def _arithmetic_digest() -> str:
    """A digest of the arithmetic's module: its place and its source (numba's cached
    functions name the modules of what they call, so a module moved is a new cache)."""
    here = Path(__file__).resolve().parent
    source = here / "physics" / "patches" / "arithmetic.py"
    place = source.relative_to(here).as_posix().encode()
    return hashlib.sha256(place + b"\0" + source.read_bytes()).hexdigest()[:10]


def assets_dir() -> Path:
    """The ``assets/`` folder: beside ``sim/`` in a checkout, inside it in a wheel."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "assets", here / "assets"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("poolsim's assets folder is missing from this installation")
