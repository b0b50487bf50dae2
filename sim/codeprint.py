"""The fingerprint of the code a module runs, so that a figure says which code made it.

A duel is played a part at a time (``--save``), often across commits, and a strength
figure counts only for the code that played its racks (:func:`sim.play.duel.decision_code`:
the referee, the physics, the computer player and the duel itself). The fingerprint of a
module is a digest of every first-party module it imports, directly or through others
(the import statements read from the source, so what a process happens to have imported
does not change it), and of the versions of the libraries the physics runs on.

Each module enters as its syntax tree with the docstrings taken out (``ast.dump``), so a
comment, a docstring or a line's layout leaves the fingerprint as it was, and a change
to what the code does changes it. A refactor that keeps the decisions changes it too:
the fingerprint says the code differs, not that the play does (a rack played again says
that). Hand-written rather than a library's because what it must skip (docstrings, the
modules outside the duel's reach) is this project's own; it reads the 66 files once a
process, in under a second.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.metadata
from pathlib import Path

FIRST_PARTY = ("rules", "sim")
LIBRARIES = ("pooltool-billiards", "numpy", "numba", "scipy")
SHOWN = 12  # hex digits of the digest a person reads (as a short commit hash)
_SOURCE_ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def fingerprint(root: str) -> str:
    """The fingerprint of the code module ``root`` runs, a sha256 in hex (see the
    module)."""
    digest = hashlib.sha256()
    modules = reachable(root)
    for name in sorted(modules):
        digest.update(f"{name}\0{_shape(modules[name])}\0".encode())
    for library in LIBRARIES:
        digest.update(f"{library}=={importlib.metadata.version(library)}\0".encode())
    return digest.hexdigest()


def shown(fingerprint: str) -> str:
    """A fingerprint as a person reads it: its first :data:`SHOWN` hex digits."""
    return fingerprint[:SHOWN]


def reachable(root: str) -> dict[str, ast.Module]:
    """The first-party modules ``root`` imports, directly or through others, with
    ``root`` and every package above each of them (importing a module runs its
    packages' ``__init__``), each with its syntax tree."""
    found: dict[str, ast.Module] = {}
    waiting = [root]
    while waiting:
        name = waiting.pop()
        path = module_path(name)
        if name in found or path is None:
            continue
        found[name] = ast.parse(path.read_text(encoding="utf-8"))
        waiting += _parents(name)
        waiting += _imports(found[name], name if path.name == "__init__.py" else _above(name))
    return found


def module_path(name: str) -> Path | None:
    """The source file of first-party module ``name`` (None: not a first-party module)."""
    if name.split(".")[0] not in FIRST_PARTY:
        return None
    base = _SOURCE_ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _above(name: str) -> str:
    return name.rpartition(".")[0]


def _imports(tree: ast.Module, package: str) -> list[str]:
    """The modules a module of ``package`` imports, anywhere in its ``tree`` (a
    function's lazy import counts too); ``from package import thing`` names
    ``package.thing`` where that is a module, else ``package``."""
    named: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            named += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(node, package)
            named.append(source)
            named += [f"{source}.{alias.name}" for alias in node.names]
    return named


def _absolute(node: ast.ImportFrom, package: str) -> str:
    """The module an ``from ... import`` names, relative imports resolved."""
    if node.level == 0:
        return node.module or ""
    base = package.split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _shape(tree: ast.Module) -> str:
    """A module's syntax tree without its docstrings, as text (see the module); the
    tree is changed in place."""
    for node in ast.walk(tree):
        documented = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
        if isinstance(node, documented) and _docstring(node.body):
            node.body = node.body[1:] or [ast.Pass()]
    return ast.dump(tree)


def _docstring(body: list[ast.stmt]) -> bool:
    """Whether ``body`` opens with a docstring."""
    first = body[0] if body else None
    return (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )
