"""The computer at the table in the window (issue 12, item 3): a person against the
computer at level 1; the computer thinks in a process of its own while the window keeps
drawing, shows its stroke, plays it, and the shot is saved with its level; the hint
loads a stroke with the ghost of where it leaves the cue ball."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest

from rules import Player
from sim.app.hud.texts import prompt
from sim.app.main import PoolApp, moving_words
from sim.app.script import ScriptError, run_script
from sim.play.game import Game, GameSetup
from sim.play.table.turn import Stage
from sim.store.gamefile import load, save

pytestmark = pytest.mark.app

THINKING_LIMIT_S = 300.0  # real seconds (the thinker's process starts, loads the physics)


def test_a_person_against_the_computer(table: PoolApp, tmp_path: Path) -> None:
    game = Game(GameSetup(game="ten-ball", race_to=3, seed=5, players=("Ann", "Bob")))
    table.play(game, computers={Player.B: "1"})
    controller = table.controller
    assert controller is not None
    run_script(table, [{"breaker": "B"}])
    # Bob (the computer) breaks: it thinks in its own process; the window draws on.
    frames, thinking_times, lines = 0, [], set()
    deadline = time.monotonic() + THINKING_LIMIT_S
    while controller.seat.thinking is None and controller.seat.showing is None:
        table.step()
        assert time.monotonic() < deadline
    while controller.seat.thinking is not None:
        before = time.monotonic()
        table.step()
        thinking_times.append(time.monotonic() - before)
        lines.add(moving_words(table))
        frames += 1
        assert time.monotonic() < deadline, "the computer did not answer"
    assert frames >= 3, "the window drew no frames while the computer thought"
    if sum(thinking_times) > 1.2:  # "thinking… 0 s", "… 1 s": what a window at rest
        assert len(lines) >= 2  # watches changes as the seconds count, with no input
    assert statistics.median(thinking_times) < 0.25  # frames drawn, not one long wait
    assert controller.seat.showing is not None  # its stroke on the cue before it strikes
    assert prompt(controller).startswith("Bob (level 1)")
    run_script(table, [{"wait_for_computer": True}])
    computer_shots = [s for s in game.shots if s.stroke.player is not None]
    assert computer_shots
    assert {s.stroke.player.level for s in computer_shots if s.stroke.player} == {"1"}
    path = tmp_path / "against.poolsim"
    save(game, path)
    assert load(path).shots[0].stroke.player == computer_shots[0].stroke.player
    if controller.stage is Stage.OVER:
        return
    # Ann's turn: the hint loads the computer's stroke and the ghost of its leave.
    with pytest.raises(ScriptError, match="person's turn"):
        run_script(table, [{"wait_for_computer": "thinking"}])
    controller.seat.ask_hint()  # as / or ? does: the prompt says so in the same frame
    assert prompt(controller).startswith("Hint: the computer is thinking… ")
    run_script(table, [{"hint": True}])
    hint = controller.seat.hint
    assert hint is not None and controller.message == f"Hint: {hint.words}"
    assert table.hint_ghost is not None
    assert (table.hint_ghost.shown(controller) is not None) == (hint.cue_after is not None)


def test_script_seats_are_checked(table: PoolApp) -> None:
    game = Game(GameSetup(game="ten-ball", seed=5))
    table.play(game)
    for bad in ({"seat": "C", "level": 1}, {"seat": "A", "level": 9}, {"seat": "A"}):
        with pytest.raises(ScriptError):
            run_script(table, [{"computer": bad}])
    run_script(table, [{"computer": {"seat": "A", "level": 2}}])
    assert table.controller is not None and table.controller.computers == {Player.A: "2"}
    run_script(table, [{"computer": {"seat": "A", "level": None}}])
    assert table.controller.computers == {}


def test_the_start_screens_seats(table: PoolApp) -> None:
    """Each seat a person or the computer at a level, remembered like the rest."""
    from sim.app.screens.start import StartChoices

    choices = StartChoices.remembered({"players": ["Ann", "Player 2"], "seat_b": "5"})
    assert choices.computers() == {Player.B: "5"}
    assert StartChoices.remembered({"seat_b": "9"}).seat_b == "person"  # not on the menu
    assert StartChoices.remembered({"seat_a": 3}).seat_a == "person"
    table.show_start_screen()
    screen = table.start_screen
    assert screen is not None
    screen.fill(choices)
    assert screen.choices().computers() == {Player.B: "5"}
    assert screen.choices().to_json()["seat_b"] == "5"
    # A computer's seat left at its default name is named for what it is.
    assert choices.setup(seed=1).players == ("Ann", "Computer (level 5)")
    both = StartChoices(seat_a="5", seat_b="5").setup(seed=1).players
    assert both == ("Computer A (level 5)", "Computer B (level 5)")


def test_the_hint_in_a_match_of_two_people_by_its_keys(table: PoolApp) -> None:
    """Two people, no computer seated: ? asks the hint (saying so in the same frame),
    which loads its stroke and draws its line and ring on the cloth, gone once the
    stroke is changed (it shows where the hint's stroke leaves the cue ball); / asks it
    again."""
    from panda3d.core import KeyboardButton

    from tests.app.test_table_app import after_break, press

    table.play(after_break(70))
    table.step(2)
    controller = table.controller
    assert controller is not None and not controller.computers
    assert controller.stage in (Stage.AIM, Stage.PLACE)
    press(table, KeyboardButton.asciiKey("?"))
    assert controller.seat.thinking is not None
    assert prompt(controller).startswith("Hint: the computer is thinking… ")
    deadline = time.monotonic() + THINKING_LIMIT_S
    while controller.seat.thinking is not None:
        table.step()
        assert time.monotonic() < deadline, "the hint did not come"
    table.step(2)
    hint = controller.seat.hint
    assert hint is not None and hint.cue_after is not None
    ghost = table.hint_ghost
    assert ghost is not None and not ghost.node.isHidden() and ghost.node.getNumChildren()
    press(table, KeyboardButton.left())  # the stroke changed: the ring is another's
    assert ghost.node.isHidden() and ghost.shown(controller) is None
    press(table, KeyboardButton.asciiKey("/"))  # asked again: thinking, the ring gone
    assert controller.seat.thinking is not None and controller.seat.hint is None
    table.step()
    assert ghost.node.isHidden()


def test_the_hint_at_14_1s_opening_break_says_the_safe_break(table: PoolApp) -> None:
    """14.1's opening break is a safe one (a thin hit on a corner ball of the rack, the
    cue ball back up the table): the hint said "break hard, full on the front ball";
    it now says the break the game plays, and loads it."""
    game = Game(GameSetup(game="straight-pool", seed=5, players=("Ann", "Bob")))
    table.play(game, save=False)
    run_script(table, [{"breaker": "A"}, {"hint": True}])
    controller = table.controller
    assert controller is not None
    hint = controller.seat.hint
    assert hint is not None and controller.message == f"Hint: {hint.words}"
    assert hint.words.startswith("break safe: thin on the ")
    assert "(a corner ball of the rack), the cue ball back up the table" in hint.words
    assert "full on the front ball" not in hint.words


def test_the_hints_spin_words_say_the_tip_the_widget_shows() -> None:
    """A hint's words said "with a stun (centre ball)" while the cue widget showed
    "follow 0.10": a tip the widget shows off centre is named, a small one as "a touch
    of"; only the widget's "centre ball" is a stun."""
    from sim.app.hud.hud import tip_words
    from sim.physics.simulate import CueAction
    from sim.play.game import Stroke
    from sim.play.opponent.player import Kind, Move
    from sim.play.opponent.thinker_process import spin_words

    def said(a: float, b: float) -> str:
        stroke = Stroke(action=CueAction(speed=2.0, aim=90.0, a=a, b=b))
        return spin_words(Move(kind=Kind.POT, stroke=stroke, plan=stroke))

    assert said(0.0, 0.1) == " with a touch of follow"
    assert said(0.0, 0.3) == " with follow"
    assert said(-0.05, -0.3) == " with draw and a touch of right side"
    for a in (-0.3, -0.1, -0.004, 0.0, 0.004, 0.1, 0.3):
        for b in (-0.3, -0.1, -0.004, 0.0, 0.004, 0.1, 0.3):
            centre = tip_words(a, b) == "centre ball"
            assert ("centre ball" in said(a, b)) == centre, (a, b)
