"""A saved game file copied with its ``game.json`` or its members changed: the one way
the tests make a file another version, another machine or a hand could have written."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any


def rewrite(
    source: Path,
    target: Path,
    edit: Callable[[dict[str, Any]], None] | None = None,
    members: Callable[[dict[str, bytes]], None] | None = None,
) -> Path:
    """``source`` written to ``target`` with ``edit`` applied to its ``game.json``
    document and ``members`` to its members by name (each kept as it was stored: the
    same compression and date, a new one stored plainly); ``target``."""
    with zipfile.ZipFile(source) as zf:
        infos = {info.filename: info for info in zf.infolist()}
        contents = {name: zf.read(info) for name, info in infos.items()}
    if edit is not None:
        document = json.loads(contents["game.json"])
        edit(document)
        contents["game.json"] = json.dumps(document).encode()
    if members is not None:
        members(contents)
    with zipfile.ZipFile(target, "w") as zf:
        for name, data in contents.items():
            zf.writestr(infos.get(name, name), data)
    return target
