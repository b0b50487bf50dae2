"""The house rules of the code: ``rules`` is pure (no pooltool, no Panda3D, no numpy), and
only ``sim`` talks to pooltool, through ``sim.physics.pooltool_setup``."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_RULES = ("pooltool", "panda3d", "direct", "numpy", "numba", "sim", "time", "random")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_rules_imports_nothing_of_physics_or_rendering() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(_imports(path) & set(FORBIDDEN_IN_RULES))
        for path in sorted((ROOT / "rules").rglob("*.py"))
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_importing_every_rules_module_loads_no_pooltool() -> None:
    modules = [
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for path in sorted((ROOT / "rules").rglob("*.py"))
        if path.name != "__init__.py"
    ]
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "heavy = ('pooltool', 'panda3d', 'numba', 'numpy')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in heavy)\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert result.stdout.strip() == ""


def test_only_pooltool_setup_imports_pooltool_directly() -> None:
    direct = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "sim").rglob("*.py"))
        if "pooltool" in _imports(path)
    ]
    assert direct == ["sim/physics/pooltool_setup.py"]


def test_only_the_physics_touches_pooltools_module() -> None:
    """Outside ``sim.physics`` nothing holds ``pt``: the physics hands out plain data
    (model paths, the table plan) and names (``System``) instead."""
    offenders = []
    for path in sorted((ROOT / "sim").rglob("*.py")):
        if path.relative_to(ROOT).parts[:2] == ("sim", "physics"):
            continue
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.ImportFrom) and node.module == "sim.physics.pooltool_setup":
                if any(alias.name == "pt" for alias in node.names):
                    offenders.append(str(path.relative_to(ROOT)))
            elif isinstance(node, ast.Import) and any(
                alias.name == "sim.physics.pooltool_setup" for alias in node.names
            ):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
