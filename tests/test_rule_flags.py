"""``poolsim play``'s rule flags, built from the options each game offers
(rules.offered): the game's own set its Options, another game's is refused in one line."""

from __future__ import annotations

from typing import Any

import attrs
import click
import pytest
from click.testing import CliRunner

import sim.cli.play
from rules.games import GAMES, games_offering, offered_options
from rules.offered import RuleOption
from sim.cli import cli
from sim.cli.flags import _rule_flag


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
            names = [kind.display_name for kind in offering]
            said = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
            assert help.startswith(said + ": ")
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
        ("rotation", "--call-mode", "explicit", "10-ball, 8-ball and 14.1 continuous"),
        ("nine-ball", "--points", "100", "14.1 continuous"),
        ("eight-ball", "--early-ten", "spot_continue", "10-ball"),
    ],
)
def test_another_games_flag_is_refused(game: str, flag: str, value: str, games: str) -> None:
    result = CliRunner().invoke(cli, ["play", "--game", game, flag, value])
    assert result.exit_code == 2
    assert f"{flag} applies only to {games}" in result.output


def test_an_option_of_whole_numbers_takes_a_whole_number() -> None:
    """A new game's option of a count (as 14.1's points to win would be) needs only its
    declaration: its flag reads whole numbers in its range, and its choices as values."""
    count = RuleOption(
        name="break_required_rail_balls",
        flag="--rail-balls",
        label="Balls to a rail",
        help="Object balls the break drives to a rail.",
        choices=(("Four", 4), ("Three", 3)),
        numbers=(0, 15),
    )
    command = _rule_flag(count)(click.command()(lambda rail_balls: print(repr(rail_balls))))
    assert CliRunner().invoke(command, ["--rail-balls", "3"]).output == "3\n"
    assert CliRunner().invoke(command, []).output == "4\n"  # the field's default
    refused = CliRunner().invoke(command, ["--rail-balls", "2.5"])
    assert refused.exit_code == 2 and "whole number from 0 to 15" in refused.output
    words = attrs.evolve(count, numbers=None, flag="--rail-balls")
    command = _rule_flag(words)(click.command()(lambda rail_balls: print(repr(rail_balls))))
    assert CliRunner().invoke(command, ["--rail-balls", "3"]).output == "3\n"  # a value


def test_fourteen_one_takes_its_points_and_its_race_of_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """B-45: ``--points`` sets the target; B-55: the race is the games of the match, one
    when none is given (a race to 5 racks for the others)."""
    game = _played(monkeypatch, "--game", "straight-pool", "--points", "50", "--players", "Ann,Bob")
    assert game.setup.options.sp_target_points == 50 and game.setup.race_to == 1
    assert game.setup.options.sp_games_per_match == 1
    three = _played(monkeypatch, "--game", "straight-pool", "--race", "3")
    assert three.setup.race_to == three.setup.options.sp_games_per_match == 3
    assert three.setup.options.sp_target_points == 150  # the default, WPA's professional game
    assert _played(monkeypatch, "--game", "ten-ball").setup.race_to == 5
    refused = CliRunner().invoke(cli, ["play", "--game", "straight-pool", "--points", "0"])
    assert refused.exit_code == 2 and "whole number from 1 to 1000" in refused.output


@pytest.mark.parametrize("command", ["selfplay", "duel"])
def test_selfplay_and_duel_refuse_another_games_flag(command: str) -> None:
    levels = ["--a", "1", "--b", "1"] if command == "duel" else []
    result = CliRunner().invoke(cli, [command, "--game", "ten-ball", "--points", "50", *levels])
    assert result.exit_code == 2 and "--points applies only to 14.1 continuous" in result.output
