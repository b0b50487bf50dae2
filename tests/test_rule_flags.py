"""``poolsim play``'s rule flags, built from the options each game offers
(rules.offered): the game's own set its Options, another game's is refused in one line."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

import sim.cli.play
from rules.games import GAMES, games_offering, offered_options
from sim.cli import cli


def _played(monkeypatch: pytest.MonkeyPatch, *args: str) -> Any:
    """The game ``poolsim play ARGS`` would open the window on (the window not opened)."""
    opened: dict[str, Any] = {}
    monkeypatch.setattr(sim.cli.play, "open_window", lambda _out, **launch: opened.update(launch))
    result = CliRunner().invoke(cli, ["play", *args], prog_name="poolsim")
    assert result.exit_code == 0, result.output
    return opened["game"]


def test_play_has_a_flag_for_every_option_a_game_offers() -> None:
    flags = {param.opts[0]: param for param in cli.commands["play"].params}
    for option in offered_options():
        help = flags[option.flag].help or ""
        offering = games_offering(option)
        if len(offering) < len(GAMES):  # said of the games that offer it
            assert help.startswith(" and ".join(kind.display_name for kind in offering) + ": ")
    early = "10-ball: an early called 10 is re-spotted (WPA) or wins (2009)."
    assert flags["--early-ten"].help == early


def test_the_games_own_flags_set_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    flags = ["--early-ten", "win", "--call-mode", "infer_obvious", "--shot-clock", "35"]
    options = _played(monkeypatch, "--game", "ten-ball", *flags).setup.options
    assert options.ten_ball_early_pocket == "win" and options.call_mode == "infer_obvious"
    assert options.shot_clock_s == options.shot_clock_extension_s == 35.0
    eight = _played(monkeypatch, "--game", "eight-ball", "--call-mode", "infer_obvious")
    assert eight.setup.options.call_mode == "infer_obvious"
    assert eight.setup.options.shot_clock_s is None  # no --shot-clock: no clock


@pytest.mark.parametrize(
    ("game", "flag", "value", "games"),
    [
        ("nine-ball", "--early-ten", "win", "10-ball"),
        ("rotation", "--call-mode", "explicit", "10-ball and 8-ball"),
        ("eight-ball", "--early-ten", "spot_continue", "10-ball"),
    ],
)
def test_another_games_flag_is_refused(game: str, flag: str, value: str, games: str) -> None:
    result = CliRunner().invoke(cli, ["play", "--game", game, flag, value])
    assert result.exit_code == 2
    assert f"{flag} applies only to {games}" in result.output
