"""What a game alone decides, in its game file (rules.extras): 8-ball's groups, target,
illegal break and loss are written by its ``EightBallExtras``, as they were when they were
fields of the shared ruling (a file saved then is written again byte for byte), and read
back by it; a game without extras writes none."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from rules import Options
from rules.groups import EightBallExtras
from sim.store.gamefile import game_document, load, ruling_to_json
from tests.store.test_gamefile import ROOT

pytestmark = pytest.mark.physics
DATA = ROOT / "tests" / "data"
# An 8-ball self-play rack (seed 5) saved by 0538f17, before the extras.
EIGHT_BALL = DATA / "before-extras" / "eight-ball-saved-by-0538f17.poolsim"
TEN_BALL = DATA / "games" / "ten-ball-saved-by-56f7334.poolsim"
# The document's own words of when, by which poolsim, in which version of the format
# (version 5 adds what a computer meant, and this file has no computer's shot) and on
# which processor it was written.
WHEN_AND_WHERE = ("created", "poolsim", "version", "arithmetic")


def _saved_document(path: Path) -> str:
    with zipfile.ZipFile(path) as zf:
        return zf.read("game.json").decode()


def test_an_eight_ball_file_from_before_the_extras_is_written_again_byte_for_byte() -> None:
    before = _saved_document(EIGHT_BALL)
    old: dict[str, Any] = json.loads(before)
    now = game_document(load(EIGHT_BALL)) | {key: old[key] for key in WHEN_AND_WHERE}
    # Options added since (14.1's), each at its default, are the one difference allowed.
    options = now["setup"]["options"]
    added = set(options) - set(old["setup"]["options"])
    assert all(options[name] == getattr(Options(), name) for name in added)
    now["setup"]["options"] = {k: v for k, v in options.items() if k not in added}
    assert '"groups_taken": true' in before and '"target": "solids"' in before
    assert json.dumps(now, indent=1) == before


def test_eight_ball_extras_read_back_what_they_wrote() -> None:
    rulings = [shot.ruling for shot in load(EIGHT_BALL).shots]
    extras = [EightBallExtras.of(ruling) for ruling in rulings]
    assert rulings and all(extras)
    assert {e.groups_taken for e in extras if e} == {True, False}
    for ruling, own in zip(rulings, extras, strict=True):
        assert EightBallExtras.from_json(ruling_to_json(ruling)) == own


def test_a_game_without_extras_writes_none() -> None:
    rulings = [shot.ruling for shot in load(TEN_BALL).shots]
    assert rulings and all(ruling.extras is None for ruling in rulings)
    assert not any("groups" in ruling_to_json(ruling) for ruling in rulings)
