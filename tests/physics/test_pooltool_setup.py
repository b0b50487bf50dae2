"""pooltool imported when first used, its side effects contained: what the window
imports to show its start screen loads no pooltool, pooltool's own files go to poolsim's
private home, and settings the caller redoes after pooltool's import come after it.
Each case runs in a fresh interpreter (pooltool loads once per process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sim.paths import numba_cache_dir

ROOT = Path(__file__).resolve().parent.parent.parent


def _run(code: str, tmp_path: Path) -> dict[str, object]:
    """Run ``code`` in a fresh interpreter with HOME and poolsim's folders under
    ``tmp_path`` (numba's compiled physics where it is); it prints one JSON object."""
    env = _environment(tmp_path)
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    answer: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return answer


def test_what_the_window_imports_for_its_start_screen_loads_no_pooltool(tmp_path: Path) -> None:
    code = """
import json, sys
import sim.cli, sim.app.launch, sim.app.main, sim.app.headless, sim.physics.simulators.worker
from rules import Player
from sim.physics.pooltool_setup import pooltool_loaded
from sim.play.game import Game, GameSetup
Game(GameSetup(game="ten-ball", seed=5)).start(Player.A)  # a game, racked, needs none
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("pooltool", "numba", "scipy"))
print(json.dumps({"loaded": pooltool_loaded(), "heavy": heavy}))
"""
    assert _run(code, tmp_path) == {"loaded": False, "heavy": []}


def test_pooltool_loads_at_its_first_use_into_the_private_home(tmp_path: Path) -> None:
    code = """
import json, os
from sim.physics.pooltool_setup import pooltool_loaded, pt
before = pooltool_loaded()
table = pt.Table.default()  # the first name asked for imports pooltool
import pooltool.config.paths as paths
print(json.dumps({
    "before": before, "after": pooltool_loaded(), "table": type(table).__name__,
    "config": str(paths.CONFIG_DIR), "home": os.environ["HOME"],
}))
"""
    answer = _run(code, tmp_path)
    assert answer["before"] is False and answer["after"] is True
    assert answer["table"] == "Table"
    assert answer["config"] == str(tmp_path / "config" / "pooltool-home" / ".config" / "pooltool")
    assert answer["home"] == str(tmp_path / "home")  # the player's home, as it was
    assert not (tmp_path / "home").exists()  # nothing written into it


def test_a_background_load_runs_once_and_redone_settings_come_after_it(tmp_path: Path) -> None:
    code = """
import json, threading, time
from sim.physics import pooltool_setup as setup
order = []
setup.load_pooltool_in_background()
setup.load_pooltool_in_background()  # once, and at once: the window asks every frame
setup.redo_after_pooltool(lambda: order.append("redone"))  # nor does this wait
threads = [t.name for t in threading.enumerate() if t.name == "poolsim-load-pooltool"]
while not setup.pooltool_loaded():
    time.sleep(0.01)
setup.redo_after_pooltool(lambda: order.append("too late"))  # loaded: what it did stands
print(json.dumps({"threads": threads, "order": order}))
"""
    answer = _run(code, tmp_path)
    # The import was still under way after both calls: neither waited for it.
    assert answer == {"threads": ["poolsim-load-pooltool"], "order": ["redone"]}


def test_a_name_pooltool_lacks_is_an_attribute_error(tmp_path: Path) -> None:
    code = """
import json
from sim.physics.pooltool_setup import pt
problems = []
for _ in range(2):  # before the import (which it does) and after
    try:
        pt.no_such_name
    except AttributeError as error:
        problems.append(str(error))
print(json.dumps(problems))
"""
    assert _run(code, tmp_path) == ["module 'pooltool' has no attribute 'no_such_name'"] * 2


_IMPORT = """
import json, time
from sim.physics.pooltool_setup import load_pooltool
load_pooltool()
print(json.dumps({"done": time.time()}))
"""


def _environment(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "HOME": str(tmp_path / "home"),
        "POOLSIM_CONFIG_DIR": str(tmp_path / "config"),
        "POOLSIM_CACHE_DIR": str(tmp_path / "cache"),
        "POOLSIM_DATA_DIR": str(tmp_path / "data"),
        "NUMBA_CACHE_DIR": str(numba_cache_dir()),
        "PYTHONPATH": str(ROOT),
    }


def test_the_first_import_of_pooltool_waits_for_one_under_way_in_another_process(
    tmp_path: Path,
) -> None:
    """pooltool writes its yaml files into a new private home as it is imported, not
    atomically: a window's worker and thinker importing it at once read each other's
    half-written general.yaml ("malformed", a traceback on the first launch). The first
    import is taken one process at a time: while another holds it, an import waits; once
    one has made the files, imports no longer wait."""
    import time

    from sim.files import held_alone

    home = tmp_path / "config" / "pooltool-home"
    env = _environment(tmp_path)
    with held_alone(home / ".pooltool-import.lock"):  # another process's import under way
        waiting = subprocess.Popen(
            [sys.executable, "-c", _IMPORT], stdout=subprocess.PIPE, text=True, env=env
        )
        time.sleep(8.0)  # more than an import takes, even on a loaded machine
        assert waiting.poll() is None, "the import went on while another held it"
        released = time.time()
    out, _ = waiting.communicate(timeout=300)
    assert waiting.returncode == 0 and json.loads(out.strip().splitlines()[-1])["done"] > released
    assert (home / ".pooltool-imported").exists()
    files = {p.name for p in (home / ".config" / "pooltool").rglob("*") if p.is_file()}
    assert files == {"general.yaml", "resolver.yaml"}  # no ".general.yaml": none malformed
    # Made once: now an import does not wait for the lock.
    with held_alone(home / ".pooltool-import.lock"):
        again = subprocess.run(
            [sys.executable, "-c", _IMPORT], capture_output=True, text=True, env=env, timeout=300
        )
    assert again.returncode == 0 and "malformed" not in again.stdout + again.stderr
