"""Preferences: the start screen's form comes back as the player left it (game, table,
rules, race, names), sound on or off too; a missing, corrupt or hand-edited file never
stops anything and leaves the defaults."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.app.main import PoolApp
from sim.app.screens.preferences import Preferences
from sim.app.screens.start import StartChoices

CHOSEN = StartChoices(
    game="rotation",
    race_to=7,
    players=("Efren", "Earl"),
    breaker="B",
    rules={"ten_ball_early_pocket": "win", "call_mode": "infer_obvious", "shot_clock_s": 35.0},
    table="8ft",
    quality="fast",
)


def test_choices_round_trip_through_json() -> None:
    text = json.dumps(CHOSEN.to_json())
    assert StartChoices.remembered(json.loads(text)) == CHOSEN


@pytest.mark.parametrize(
    "data",
    [
        None,
        [1, 2],
        {"game": "snooker"},
        {"race_to": 0},
        {"race_to": "7"},
        {"race_to": True},
        {"players": ["Ann"]},
        {"players": ["Ann", "Ann"]},
        {"players": ["Ann", ""]},
        {"players": ["Ann", "x" * 41]},
        {"players": ["Ann", "B\nob"]},
        {"players": ["Ann", "Bob", "Cy"]},
        {"shot_clock_s": 36.0},
        {"quality": 1},
    ],
)
def test_what_the_form_cannot_show_is_left_at_its_default(data: object) -> None:
    assert StartChoices.remembered(data) == StartChoices()


def test_the_rule_options_are_kept_beside_the_other_choices() -> None:
    """As the preferences kept them before the rows came from the games' options."""
    data = {"game": "eight-ball", "call_mode": "infer_obvious", "shot_clock_s": 60.0}
    assert StartChoices.remembered(data) == StartChoices(
        game="eight-ball",
        rules={
            "ten_ball_early_pocket": "spot_continue",
            "call_mode": "infer_obvious",
            "shot_clock_s": 60.0,
        },
    )
    assert CHOSEN.to_json()["call_mode"] == "infer_obvious"


def test_a_valid_field_is_kept_beside_a_bad_one() -> None:
    kept = StartChoices.remembered({"game": "rotation", "race_to": -3, "table": "7ft"})
    assert kept == StartChoices(game="rotation", table="7ft")


def test_preferences_merge_and_survive_a_bad_file(tmp_path: Path) -> None:
    preferences = Preferences(tmp_path / "config" / "preferences.json")
    assert preferences.load() == {}
    preferences.update(sound=False)
    preferences.update(start={"game": "rotation"})
    assert preferences.load() == {"sound": False, "start": {"game": "rotation"}}
    preferences.path.write_text("{not json")
    assert preferences.load() == {}
    preferences.path.write_text("[1, 2]")
    assert preferences.load() == {}
    blocked = Preferences(tmp_path / "a-file" / "preferences.json")
    (tmp_path / "a-file").write_text("in the way")
    blocked.update(sound=True)  # cannot be written: nothing raised, nothing left behind
    assert blocked.load() == {} and sorted(p.name for p in tmp_path.iterdir()) == [
        "a-file",
        "config",
    ]
    assert [p.name for p in preferences.path.parent.iterdir()] == ["preferences.json"]


@pytest.mark.app
def test_the_start_screen_comes_back_as_it_was_left(table: PoolApp, tmp_path: Path) -> None:
    table.preferences = Preferences(tmp_path / "preferences.json")
    table.show_start_screen()
    start = table.start_screen
    assert start is not None and start.choices() == StartChoices()  # nothing remembered yet
    start.fill(CHOSEN)
    start.start()
    table.step(2)
    assert table.controller is not None and table.controller.game.setup.players == ("Efren", "Earl")
    table.show_start_screen()
    again = table.start_screen
    assert again is not None and again.choices() == CHOSEN
    table.step(1)  # the breaker's menu says the names
    assert again.fields["breaker"].get() == "Earl breaks" and again.choices() == CHOSEN


@pytest.mark.app
def test_sound_off_is_remembered(table: PoolApp, tmp_path: Path) -> None:
    from sim.play.game import Game, GameSetup
    from tests.app.test_sound import Speaker

    table.preferences = Preferences(tmp_path / "preferences.json")
    table.sounds = Speaker()  # type: ignore[assignment]
    table.play(Game(GameSetup(game="rotation", race_to=1, seed=1, players=("Ann", "Bob"))))
    table.input.toggle_sound()
    assert table.preferences.load() == {"sound": False}
    table.input.toggle_sound()
    assert table.preferences.load() == {"sound": True}


def test_each_game_s_race_is_remembered_and_14_1_starts_at_one_game() -> None:
    assert StartChoices(game="straight-pool").race_to == 1  # B-55
    kept = StartChoices(game="nine-ball", race_to=9, races={"straight-pool": 3, "ten-ball": 7})
    assert StartChoices.remembered(json.loads(json.dumps(kept.to_json()))) == kept
    assert StartChoices.remembered({"game": "straight-pool", "races": {"straight-pool": 2}}) == (
        StartChoices(game="straight-pool", race_to=2, races={"straight-pool": 2})
    )
    bad = {"races": {"snooker": 3, "ten-ball": 0, "nine-ball": "7", "rotation": True}}
    assert StartChoices.remembered(bad) == StartChoices()
