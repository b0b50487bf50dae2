"""Every rule of the reference has a test that names it (GEN-1..17, TB-1..20, NB-1..18, EB-1..21,
ROT-1..20, SP-1..18):
a test function or class whose name (``test_tb_12_...``) or docstring names the ID."""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
RULES = {"GEN": 17, "TB": 20, "NB": 18, "EB": 21, "ROT": 20, "SP": 18}
IN_TEXT = re.compile(r"\b(GEN|TB|NB|EB|ROT|SP)-(\d+)(?!\d)")
IN_NAME = re.compile(r"(?:^|_)(gen|tb|nb|eb|rot|sp)_(\d+)(?=_|$)")


def named_rules() -> set[str]:
    found: set[str] = set()
    for path in sorted(HERE.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if (isinstance(node, ast.FunctionDef) and node.name.startswith("test_")) or (
                isinstance(node, ast.ClassDef) and node.name.startswith("Test")
            ):
                text = ast.get_docstring(node) or ""
                found |= {f"{k}-{int(n)}" for k, n in IN_TEXT.findall(text)}
                name = re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Za-z])(?=\d)", "_", node.name).lower()
                found |= {f"{k.upper()}-{int(n)}" for k, n in IN_NAME.findall(name)}
    return found


def test_every_rule_id_has_a_test_naming_it() -> None:
    wanted = {f"{kind}-{n}" for kind, last in RULES.items() for n in range(1, last + 1)}
    assert (
        sorted(wanted - named_rules(), key=lambda r: (r.split("-")[0], int(r.split("-")[1]))) == []
    )
