"""The house rules of the code, read from every import (inside functions and under
TYPE_CHECKING too):

- floors point one way: ``rules`` < ``sim``'s small helpers < ``sim.physics`` <
  ``sim.play`` < ``sim.store``, ``sim.media`` < ``sim.app`` < ``sim.bench`` < ``sim.cli``;
  a module imports its own floor's package or floors below, never above or beside it;
  inside ``sim.app``: ``hud`` < ``scene`` < ``marks`` < ``modes`` < ``screens`` < the
  window's own modules;
- only ``sim.physics`` imports pooltool, only ``sim.app`` imports Panda3D;
- ``rules`` is pure: no physics, rendering, numpy, clock or unseeded randomness;
- no import circle anywhere, between modules or between packages.
- the house's figures (issue 28): no class of ``sim`` with more than 45 methods, the
  window (``PoolApp``) with at most 30, no folder of ``sim`` with more than 12 modules
  side by side.
- the house where a game is one module of ``rules`` (issue 32): no module of ``sim``
  names a game's class or a game's name; it asks the class or the state.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "sim")

# (module prefix, floor, room): a module is in the room of the longest prefix it has.
# Imports go to a lower floor, or stay in the same room.
FLOORS = (
    ("rules", 1, "rules"),
    ("sim", 2, "sim helpers"),  # sim/__init__, paths, files, names and other small helpers
    ("sim.physics", 3, "physics"),
    ("sim.play", 4, "play"),
    ("sim.store", 5, "store"),
    ("sim.media", 5, "media"),
    # The window's rooms, each above the ones it draws on: widgets and the HUD know no
    # scene; the marks on the cloth draw on the scene; the table's modes drive all three;
    # the screens are modes of their own; the window itself holds them all.
    ("sim.app.hud", 6, "app hud"),
    ("sim.app.scene", 7, "app scene"),
    ("sim.app.marks", 8, "app marks"),
    ("sim.app.modes", 9, "app modes"),
    ("sim.app.screens", 10, "app screens"),
    ("sim.app", 11, "app"),
    ("sim.bench", 12, "bench"),
    ("sim.cli", 13, "cli"),
    ("sim.__main__", 13, "cli"),  # python -m sim: the command line's own door
)
PANDA3D = ("panda3d", "direct", "simplepbr", "gltf")
FORBIDDEN_IN_RULES = ("pooltool", "numpy", "numba", "time", "datetime", "sim", *PANDA3D)


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _modules() -> dict[str, Path]:
    return {
        _module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _tree(module: str) -> ast.Module:
    path = _modules()[module]
    return ast.parse(path.read_text(), filename=str(path))


def _imported(module: str) -> Iterator[str]:
    """Every module ``module`` imports, by full name, wherever the import stands."""
    is_package = _modules()[module].name == "__init__.py"
    for node in ast.walk(_tree(module)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's package
                base = module.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            yield source
            # ``from sim.physics import simulate`` imports the submodule simulate
            for alias in node.names:
                if f"{source}.{alias.name}" in _modules():
                    yield f"{source}.{alias.name}"


def _project_imports(module: str) -> set[str]:
    return {name for name in _imported(module) if name in _modules() and name != module}


def _room(module: str) -> tuple[int, str]:
    prefix = max((p for p, _, _ in FLOORS if module == p or module.startswith(p + ".")), key=len)
    _, floor, room = next(f for f in FLOORS if f[0] == prefix)
    return floor, room


def test_every_module_has_a_floor() -> None:
    for module in _modules():
        assert _room(module)


def test_imports_point_down_or_stay_in_their_room() -> None:
    wrong = []
    for module in _modules():
        floor, room = _room(module)
        for target in sorted(_project_imports(module)):
            target_floor, target_room = _room(target)
            if target_room != room and target_floor >= floor:
                wrong.append(f"{module} ({room}) imports {target} ({target_room})")
    assert wrong == []


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle_between_modules() -> None:
    # A package's __init__ that re-exports its modules is the package, not a circle with
    # them: the edges from it down into its own modules are left out.
    graph = {
        module: {t for t in _project_imports(module) if not t.startswith(module + ".")}
        for module in _modules()
    }
    assert _circles(graph) == []


def test_no_import_circle_between_rooms() -> None:
    graph: dict[str, set[str]] = {}
    for module in _modules():
        room = _room(module)[1]
        graph.setdefault(room, set()).update(
            _room(t)[1] for t in _project_imports(module) if _room(t)[1] != room
        )
    assert _circles(graph) == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _third_party(module: str) -> set[str]:
    return {name.split(".")[0] for name in _imported(module)} - set(PACKAGES)


def test_only_the_physics_imports_pooltool() -> None:
    importers = sorted(m for m in _modules() if "pooltool" in _third_party(m))
    assert importers == ["sim.physics.pooltool_setup"]


def test_only_the_physics_touches_pooltools_module() -> None:
    """Outside ``sim.physics`` nothing holds pooltool's module ``pt`` either: the physics
    hands out plain data (model paths, the table plan) and names (``System``)."""
    holders = sorted(
        module
        for module in _modules()
        if _room(module)[1] != "physics"
        for node in ast.walk(_tree(module))
        if isinstance(node, ast.ImportFrom)
        and node.module == "sim.physics.pooltool_setup"
        and any(alias.name == "pt" for alias in node.names)
    )
    assert holders == []


def test_only_the_window_imports_panda3d() -> None:
    importers = sorted(
        m for m in _modules() if _third_party(m) & set(PANDA3D) and not m.startswith("sim.app")
    )
    assert importers == []


def test_rules_imports_nothing_of_physics_rendering_or_the_clock() -> None:
    offenders = {
        module: sorted({n.split(".")[0] for n in _imported(module)} & set(FORBIDDEN_IN_RULES))
        for module in _modules()
        if _room(module)[1] == "rules"
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_rules_randomness_is_seeded() -> None:
    """``random`` in rules only as ``random.Random(seed)``: no module-level draws."""
    unseeded = []
    for module in _modules():
        if _room(module)[1] != "rules":
            continue
        for node in ast.walk(_tree(module)):
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                unseeded += [
                    f"{module}: from random import {a.name}"
                    for a in node.names
                    if a.name != "Random"
                ]
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                unseeded.append(f"{module}: random.{node.attr}")
            elif (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", None) == "Random"
                and not node.args
            ):
                unseeded.append(f"{module}: random.Random() without a seed")
    assert unseeded == []


def test_the_architecture_reader_sees_function_and_type_checking_imports() -> None:
    """The rules above would pass vacuously if imports inside functions or under
    TYPE_CHECKING were missed: the CLI imports everything lazily."""
    assert "sim.app.launch" in _project_imports("sim.cli.play")
    assert _project_imports("sim.physics.simulate")


# Issue 32: the floors above rules ask a game's class (its rule options, its words) rather
# than name a game. The command line and the start screen are held to it here.
GAME_CLASSES = re.compile(r"\b(TenBall|NineBall|EightBall|Rotation)\b")
ASKING_THE_GAME = ("sim.cli", "sim.app.screens.start")


def _compared_strings(tree: ast.Module) -> Iterator[str]:
    """Every string constant compared with something (``==``, ``!=``, ``in``...)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if isinstance(side, ast.Constant) and isinstance(side.value, str):
                    yield side.value


def test_the_command_line_and_the_start_screen_name_no_game() -> None:
    from rules import GAMES

    asking = [m for m in _modules() if m.startswith(ASKING_THE_GAME)]
    assert "sim.cli.play" in asking and "sim.app.screens.start.form" in asking
    naming = sorted(m for m in asking if GAME_CLASSES.search(_modules()[m].read_text()))
    comparing = sorted(
        f"{m}: {text!r}" for m in asking for text in _compared_strings(_tree(m)) if text in GAMES
    )
    assert naming == [] and comparing == []
    assert list(_compared_strings(ast.parse("kind == 'ten-ball'"))) == ["ten-ball"]


def test_importing_every_rules_module_loads_no_pooltool() -> None:
    modules = [m for m in _modules() if _room(m)[1] == "rules"]
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


# -- the house's figures (issue 28): small classes, a small window, no crowded folder --------

MAX_METHODS = 45  # in any class of sim/
MAX_WINDOW_METHODS = 30  # in the window itself, PoolApp
MAX_FLAT_MODULES = 12  # modules side by side in one folder of sim/ (its __init__ not counted)


def _classes() -> Iterator[tuple[str, ast.ClassDef]]:
    for module in _modules():
        if module.startswith("sim"):
            for node in ast.walk(_tree(module)):
                if isinstance(node, ast.ClassDef):
                    yield module, node


def _methods(node: ast.ClassDef) -> int:
    """The functions defined in the class's own body (properties too)."""
    return sum(isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) for item in node.body)


def test_no_class_has_more_than_45_methods() -> None:
    large = {
        f"{module}.{node.name}": _methods(node)
        for module, node in _classes()
        if _methods(node) > MAX_METHODS
    }
    assert large == {}


def test_the_window_has_at_most_30_methods() -> None:
    (window,) = [
        node for module, node in _classes() if module == "sim.app.main" and node.name == "PoolApp"
    ]
    assert _methods(window) <= MAX_WINDOW_METHODS


def test_no_folder_of_sim_holds_more_than_12_modules_side_by_side() -> None:
    crowded = {
        str(folder.relative_to(ROOT)): count
        for folder in sorted({path.parent for path in (ROOT / "sim").rglob("*.py")})
        if (count := sum(1 for path in folder.glob("*.py") if path.name != "__init__.py"))
        > MAX_FLAT_MODULES
    }
    assert crowded == {}


def test_the_figures_are_counted_as_they_should_be() -> None:
    """The counters above would pass vacuously if they counted nothing."""
    (controller,) = [node for _, node in _classes() if node.name == "TableController"]
    assert _methods(controller) > 20
    tree = ast.parse(
        "class A:\n    x = 1\n    def f(self): ...\n    @property\n    def g(self): ...\n"
    )
    (a,) = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    assert _methods(a) == 2


# The window's keys and mouse, as a message of the play floor would name them.
KEY_WORDS = re.compile(r"\b(Space|Esc|Backspace|Enter|click|press [A-Z])\b|\([A-Z]\)")


def _strings_beside_docstrings(tree: ast.Module) -> Iterator[str]:
    """Every string constant of ``tree`` that is not a docstring."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    for node in ast.walk(tree):
        # Ids of this one tree's nodes, all alive here, so none is another's reused.
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            yield node.value


def test_the_play_floor_speaks_in_no_key_of_the_window() -> None:
    """sim.play says what is wanted (``GameError.wanted``); the window words the key
    (``sim.app.hud.texts.refusal``). Its docstrings may name keys; its strings may not."""
    keyed = sorted(
        f"{module}: {text!r}"
        for module in _modules()
        if module.startswith("sim.play")
        for text in _strings_beside_docstrings(_tree(module))
        if KEY_WORDS.search(text)
    )
    assert keyed == []


# -- the house where a game is one module of rules (issue 32) ----------------------------


def _game_names() -> tuple[set[str], set[str]]:
    """Every game's class name, and the names it goes by in files and on screen."""
    from rules import GAMES

    classes = {kind.__name__ for kind in GAMES.values()}
    names = set(GAMES) | {kind.display_name for kind in GAMES.values()}
    return classes, names


def _naming_a_game(tree: ast.Module, classes: set[str], names: set[str]) -> Iterator[str]:
    """Where ``tree`` names a concrete game: its class (imported, or as ``rules.X``), a
    game's name as a string in code (compared, a key, an argument; docstrings aside), or
    a comparison with :data:`rules.DEFAULT_GAME`."""
    strings = set(_strings_beside_docstrings(tree))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            yield from (f"imports {a.name}" for a in node.names if a.name in classes)
        elif isinstance(node, ast.Name) and node.id in classes:
            yield f"line {node.lineno}: {node.id}"
        elif isinstance(node, ast.Attribute) and node.attr in classes:
            yield f"line {node.lineno}: .{node.attr}"
        elif isinstance(node, ast.Constant) and node.value in names and node.value in strings:
            yield f"line {node.lineno}: {node.value!r}"
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(
                getattr(side, "id", getattr(side, "attr", None)) == "DEFAULT_GAME" for side in sides
            ):
                yield f"line {node.lineno}: compares with DEFAULT_GAME"


def test_no_module_of_sim_names_a_game() -> None:
    """A game is one module of rules: the floors above ask the class or the state (its
    words, rack, position extras, practised break), never name a game's class or
    compare a game's name, so a new game touches no file of sim (issue 32)."""
    classes, names = _game_names()
    assert {"TenBall", "NineBall", "EightBall", "Rotation"} <= classes
    naming = {
        module: found
        for module in _modules()
        if module.startswith("sim")
        if (found := sorted(set(_naming_a_game(_tree(module), classes, names))))
    }
    assert naming == {}


def test_the_game_namer_finds_a_game_named() -> None:
    """The check above would pass vacuously if it found nothing."""
    classes, names = _game_names()
    code = (
        '"""A docstring may say ten-ball."""\n'
        "from rules import TenBall\n"
        "import rules\n"
        "kind = rules.NineBall\n"
        "if game == 'rotation': pass\n"
        "BREAKS = {'eight-ball': 1}\n"
        "same = setup.game == DEFAULT_GAME\n"
    )
    found = sorted(_naming_a_game(ast.parse(code), classes, names))
    assert found == [
        "imports TenBall",
        "line 4: .NineBall",
        "line 5: 'rotation'",
        "line 6: 'eight-ball'",
        "line 7: compares with DEFAULT_GAME",
    ]
