"""game.json's values, read strictly: what the loader refused with a traceback, or took
though it should not have (issue 15, items 1, 2 and 9). Each is one GameFileError line."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sim.store.gamefile import VERSION, GameFileError, load
from tests.gamezip import rewrite
from tests.store.test_gamefile import ROOT, first, played, saved

__all__ = ["played", "saved"]  # the fixtures, shared with the game-file tests

pytestmark = pytest.mark.physics

HUGE = "9" * 5000  # over Python's 4,300-digit limit for reading an integer


def _refused(path: Path) -> str:
    with pytest.raises(GameFileError) as caught:
        load(path)
    text = str(caught.value)
    assert "\n" not in text and text.startswith(str(path)), text
    return text


def _with_raw_json(source: Path, target: Path, edit: Callable[[bytes], bytes]) -> Path:
    """``source`` with game.json's bytes edited (for what json.dumps cannot write)."""
    with zipfile.ZipFile(source) as zf:
        contents = {name: zf.read(name) for name in zf.namelist()}
    contents["game.json"] = edit(contents["game.json"])
    with zipfile.ZipFile(target, "w") as zf:
        for name, data in contents.items():
            zf.writestr(name, data)
    return target


@pytest.mark.parametrize("key", ["seed", "race_to", "version"])
def test_an_integer_of_thousands_of_digits_is_one_line(
    saved: Path, tmp_path: Path, key: str
) -> None:
    def huge(data: bytes) -> bytes:
        old = {
            "seed": b'"seed": 21',
            "race_to": b'"race_to": 3',
            "version": f'"version": {VERSION}'.encode(),
        }[key]
        assert old in data
        return data.replace(old, old.split(b":")[0] + b": " + HUGE.encode(), 1)

    text = _refused(_with_raw_json(saved, tmp_path / f"{key}.poolsim", huge))
    assert "a whole number of 5000 digits" in text, text


def test_verify_on_a_huge_integer_is_one_line_exit_2(saved: Path, tmp_path: Path) -> None:
    bad = _with_raw_json(
        saved,
        tmp_path / "huge.poolsim",
        lambda d: d.replace(b'"seed": 21', b'"seed": ' + HUGE.encode()),
    )
    result = subprocess.run(
        [sys.executable, "-c", "from sim.cli import main; main()", "verify", str(bad)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.splitlines()) == 1 and "5000 digits" in result.stderr


@pytest.mark.parametrize("gap", [0.05, 2**63, 0.011])
def test_a_rack_gap_out_of_range_is_refused_at_the_option(
    saved: Path, tmp_path: Path, gap: float
) -> None:
    def wide(document: dict[str, Any]) -> None:
        document["setup"]["options"]["rack_gap"] = gap

    text = _refused(rewrite(saved, tmp_path / "gap.poolsim", wide))
    assert "setup.options.rack_gap: must be from 0 to 0.01 m" in text, text


def test_an_error_racking_the_set_up_is_the_files_one_line(
    saved: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever building the game out of its set-up refuses comes out as the file's line."""
    from sim.play import game

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise ValueError("the rack cannot be built")

    monkeypatch.setattr(game, "rack", refuse)
    text = _refused(saved)
    assert "setup: the rack cannot be built" in text, text


@pytest.mark.parametrize("value", [[1, 2], 1, "yes", {}])
def test_extension_is_true_false_or_absent(saved: Path, tmp_path: Path, value: Any) -> None:
    def edit(document: dict[str, Any]) -> None:
        first(document, "shot")["extension"] = value

    text = _refused(rewrite(saved, tmp_path / "ext.poolsim", edit))
    assert "extension: expected true or false" in text, text


@pytest.mark.parametrize(
    ("where", "value"),
    [
        ("lag", 7),
        ("lag", [1, 2]),
        ("lag", {"a": 1}),
        ("shot", "reasons"),
        ("shot", [1]),
        ("shot", [{"rule": 1, "text": "x", "foul": False}]),
        ("shot", [{"rule": "GEN-1", "text": "x"}]),
        ("shot", [{"rule": "GEN-1", "text": "x", "foul": "no"}]),
    ],
)
def test_reasons_must_be_reasons(saved: Path, tmp_path: Path, where: str, value: Any) -> None:
    def edit(document: dict[str, Any]) -> None:
        record = first(document, where)
        (record if where == "lag" else record["ruling"])["reasons"] = value

    text = _refused(rewrite(saved, tmp_path / "reasons.poolsim", edit))
    assert "reasons" in text, text


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("shot_clock_s", 1e308),
        ("shot_clock_s", 601),
        ("shot_clock_s", 4.9),
        ("shot_clock_extension_s", 1e308),
    ],
)
def test_the_shot_clock_has_the_command_lines_limits(
    saved: Path, tmp_path: Path, key: str, value: float
) -> None:
    def edit(document: dict[str, Any]) -> None:
        document["setup"]["options"][key] = value

    text = _refused(rewrite(saved, tmp_path / "clock.poolsim", edit))
    assert f"setup.options.{key}: " in text and "600" in text, text


def test_the_command_line_and_the_option_share_the_shot_clock_range() -> None:
    from rules.options import SHOT_CLOCK_S
    from sim.cli.play import play
    from sim.cli.values import FiniteFloat

    clock = next(p for p in play.params if p.name == "shot_clock")
    assert isinstance(clock.type, FiniteFloat)
    assert (clock.type.low, clock.type.high) == SHOT_CLOCK_S


@pytest.mark.parametrize(
    ("encoding", "bom"),
    [
        ("utf-16", b""),
        ("utf-16-le", b""),
        ("utf-16-be", b""),
        ("utf-32", b""),
        ("utf-8", b"\xef\xbb\xbf"),
    ],
)
def test_game_json_is_utf_8_without_a_bom(
    saved: Path, tmp_path: Path, encoding: str, bom: bytes
) -> None:
    bad = _with_raw_json(
        saved, tmp_path / "enc.poolsim", lambda d: bom + d.decode().encode(encoding)
    )
    text = _refused(bad)
    assert "game.json: not UTF-8 text" in text, text


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: first(d, "shot").update(type="x" * 2**20),
        lambda d: first(d, "shot").update({"y" * 2**20: 1}),
        lambda d: first(d, "shot").update(placement=[0.5] * 2**16),
        lambda d: d["setup"].update(game="z" * 2**20),
    ],
    ids=["record-type", "key", "placement", "game"],
)
def test_a_refusal_is_a_short_line_whatever_the_value(
    saved: Path, tmp_path: Path, edit: Callable[[dict[str, Any]], None]
) -> None:
    text = _refused(rewrite(saved, tmp_path / "long.poolsim", edit))
    assert len(text) <= 400 + len(str(tmp_path)), len(text)


def test_many_unused_shot_members_are_counted_not_listed(saved: Path, tmp_path: Path) -> None:
    def add(members: dict[str, bytes]) -> None:
        members.update({f"shots/{n:06d}.msgpack": b"" for n in range(100_000, 100_500)})

    text = _refused(rewrite(saved, tmp_path / "unused.poolsim", members=add))
    assert "records: 500 shot files no record uses: shots/100000.msgpack, " in text, text
    assert len(text) < 400 + len(str(tmp_path)), len(text)


@pytest.mark.parametrize(
    ("start", "problem"),
    [([2**63, 0.3], "is off the table"), ([1.5, 0.3], "is off the table"), ([1.27, 0.0], "pocket")],
)
def test_a_lag_start_the_table_cannot_take_is_refused(
    saved: Path, tmp_path: Path, start: list[float], problem: str
) -> None:
    """Found by the fuzz: the start loaded, and verify's re-simulation raised."""

    def edit(document: dict[str, Any]) -> None:
        first(document, "lag")["starts"][1] = start

    text = _refused(rewrite(saved, tmp_path / "start.poolsim", edit))
    assert "records[0].starts[1]: ball cue: " in text and problem in text, text


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (lambda d: d.update(created="\x00"), "created: expected an ISO 8601 date and time"),
        (lambda d: d.update(created=7), "created: expected an ISO 8601 date and time"),
        (lambda d: d.update(pooltool="\x00"), "pooltool: expected a version of printable"),
        (lambda d: d.update(poolsim=""), "poolsim: expected a version of 1 to 40 characters"),
        (lambda d: first(d, "shot").update(clock_s=1e308), "the shot clock is off: expected null"),
        (lambda d: first(d, "shot").pop("clock_s"), "clock_s: missing"),
        (lambda d: first(d, "shot").pop("extension"), "extension: missing"),
        (
            lambda d: d["setup"]["options"].update(lag_tie_epsilon=1.5),
            "setup.options.lag_tie_epsilon: must be from 0 to 0.01 m, got 1.5",
        ),
        (
            lambda d: d["setup"]["options"].update(contact_epsilon=1e-320),
            "setup.options.contact_epsilon: must be 0 or at least 2.23e-308, got 1e-320",
        ),
    ],
    ids=[
        "created-nul",
        "created-number",
        "pooltool-nul",
        "poolsim-empty",
        "clock-off-reading",
        "clock-missing",
        "extension-missing",
        "lag-tie-1.5-m",
        "contact-subnormal",
    ],
)
def test_values_the_loader_took_though_it_should_not_are_one_line(
    saved: Path, tmp_path: Path, edit: Callable[[dict[str, Any]], None], said: str
) -> None:
    text = _refused(rewrite(saved, tmp_path / "bad.poolsim", edit))
    assert said in text, text


def test_a_version_1_file_from_before_the_shot_clock_opens_without_its_reading(
    tmp_path: Path,
) -> None:
    """Files written before the shot clock came (version 1) have no ``clock_s`` nor
    ``extension``: they open as they did; from version 2 both are required."""
    old = ROOT / "tests" / "data" / "games" / "ten-ball-saved-by-56f7334.poolsim"

    def before_the_clock(document: dict[str, Any]) -> None:
        assert document["version"] == 1
        for record in document["records"]:
            if record["type"] == "shot":
                del record["clock_s"], record["extension"]

    game = load(rewrite(old, tmp_path / "v1.poolsim", before_the_clock))
    assert game.shots and all(shot.stroke.clock_s is None for shot in game.shots)
