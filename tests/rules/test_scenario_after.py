"""FORMAT.md ``shot.after``: a scenario may list only the balls that matter; the others
stayed where they were (GEN-4 spotting then sees them where they stood)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rules.conformance import check_files


def test_gen_4_partial_after_keeps_unlisted_balls_where_they_were(tmp_path: Path) -> None:
    scenario = {
        "id": "partial-after",
        "rules": ["GEN-4", "TB-16"],
        "game": "ten-ball",
        "before": {
            "shooter": "A",
            "phase": "play",
            "balls": {"cue": [0.6, 0.9], "3": [0.6, 1.4], "10": [1.0, 2.3], "5": [0.635, 1.92]},
        },
        "shot": {
            "call": {"ball": "3", "pocket": "lt"},
            "events": [
                {"type": "hit", "balls": ["cue", "3"]},
                {"type": "hit", "balls": ["3", "10"]},
                {"type": "pocket", "ball": "10", "pocket": "rt"},
                {"type": "rail", "ball": "3"},
            ],
            # Only the cue ball and the 3 moved; the 5 (by the foot spot) is not listed.
            "after": {"cue": [0.6, 1.3], "3": [0.2, 1.8]},
        },
        "expect": {
            "foul": False,
            "spotted": ["10"],
            # The 5 blocks the foot spot: the 10 goes behind it, frozen to it.
            "spot_positions": {"10": [0.635, 1.92 + 0.05715]},
        },
    }
    path = tmp_path / "partial.json"
    path.write_text(
        json.dumps({"format": "poolsim-scenarios", "version": 1, "scenarios": [scenario]})
    )
    out = io.StringIO()
    assert check_files([path], out) == 0, out.getvalue()
    assert out.getvalue().splitlines() == ["PASS partial-after", "1 passed, 0 failed"]
