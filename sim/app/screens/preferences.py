"""What the player chose last time (the start screen's form, sound on or off), kept in
the config folder as a small JSON file so that the next session starts from it.

Preferences are a convenience: a missing, unreadable or hand-edited file never stops
poolsim; whatever of it cannot be used is ignored and the defaults stand.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from rules.userfile import read_regular
from sim.files import write_atomically
from sim.paths import config_dir

MAX_BYTES = 64 * 1024


def preferences_path() -> Path:
    return config_dir() / "preferences.json"


class Preferences:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else preferences_path()

    def load(self) -> dict[str, Any]:
        """The saved preferences; empty if there are none or they cannot be read."""
        try:
            text = read_regular(self.path, MAX_BYTES, "a preferences file").decode("utf-8")
            data = json.loads(text)
        # FileRefused and UnicodeDecodeError are ValueErrors; RecursionError: absurdly nested
        except (OSError, ValueError, RecursionError):
            return {}
        return data if isinstance(data, dict) else {}

    def update(self, **values: Any) -> None:
        """Merge ``values`` into the file (written whole, then renamed; a failure to
        write loses only the preference, never the game)."""
        merged = {**self.load(), **values}
        data = json.dumps(merged, indent=2, sort_keys=True).encode("utf-8")
        with contextlib.suppress(OSError):  # unwritable: only the preference is lost
            write_atomically(self.path, data)
