"""Who played each shot, in the game file (issue 12): the computer's shots carry its
level and seed, a person's nothing (older files open as they did); ``poolsim verify
--decisions`` makes the computer's decisions again and names a shot that comes out
otherwise."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner

from rules import Player
from sim.cli import cli
from sim.play.game import ComputerPlayer, Game, GameSetup
from sim.play.opponent.player import ThinkRequest, think
from sim.store.gamefile import GameFileError, load, save
from sim.store.verify import verify_decisions
from tests.gamezip import rewrite

pytestmark = pytest.mark.physics

ENTROPY = (7, 1, 1, 0)


@pytest.fixture(scope="module")
def played() -> Game:
    """The computer (level 1) breaks; then a person shoots (or chooses) once."""
    game = Game(GameSetup(game="ten-ball", seed=11, players=("Ann", "Bob")))
    game.start(Player.A)
    state = game.rack
    assert state is not None
    move = think(ThinkRequest(state, "9ft", "1", ENTROPY))
    assert move.stroke is not None
    game.shoot(attrs.evolve(move.stroke, player=ComputerPlayer("1", ENTROPY)))
    state = game.rack
    assert state is not None
    if state.pending is not None:
        game.choose(sorted(state.pending.choices)[0])
    state = game.rack
    assert state is not None and state.pending is None
    person = think(ThinkRequest(state, "9ft", "1", (1,)))
    assert person.stroke is not None
    game.shoot(person.stroke)  # played as a person's: no player recorded
    return game


@pytest.fixture
def saved(played: Game, tmp_path: Path) -> Path:
    path = tmp_path / "computer.poolsim"
    save(played, path)
    return path


def shots(path: Path) -> list[dict[str, Any]]:
    with zipfile.ZipFile(path) as zf:
        document = json.loads(zf.read("game.json"))
    return [r for r in document["records"] if r["type"] == "shot"]


def edit_player(value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(document: dict[str, Any]) -> None:
        next(r for r in document["records"] if r["type"] == "shot")["player"] = value

    return edit


def test_the_computers_shot_says_so_and_a_persons_says_nothing(played: Game, saved: Path) -> None:
    computer, person = shots(saved)
    assert computer["player"] == {"kind": "computer", "level": "1", "entropy": list(ENTROPY)}
    assert "player" not in person  # as every file before the field
    again = load(saved)
    assert [s.stroke.player for s in again.shots] == [ComputerPlayer("1", ENTROPY), None]


def test_a_person_may_be_said_outright(saved: Path, tmp_path: Path) -> None:
    path = rewrite(saved, tmp_path / "person.poolsim", edit_player({"kind": "person"}))
    assert load(path).shots[0].stroke.player is None


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ({"kind": "robot"}, "kind"),
        ({"kind": "computer", "level": "9", "entropy": [1]}, "a level is one of"),
        ({"kind": "computer", "level": 5, "entropy": [1]}, "expected a string"),
        ({"kind": "computer", "level": "5", "entropy": [-1]}, "entropy"),
        ({"kind": "computer", "level": "5", "entropy": []}, "entropy"),
        ({"kind": "computer", "level": "5", "entropy": [1.5]}, "entropy"),
        ({"kind": "computer", "level": "5", "entropy": [2**63]}, "entropy"),
        ({"kind": "computer", "level": "5"}, "entropy"),
        ({"kind": "person", "level": "5"}, "level"),
        ({"kind": "computer", "level": "5", "entropy": [1], "declined": -1}, "declined"),
        ({"kind": "computer", "level": "5", "entropy": [1], "declined": "12"}, "declined"),
        ({"kind": "computer", "level": "5", "entropy": [1], "declined": True}, "declined"),
        ("computer", "kind"),
    ],
)
def test_a_bad_player_is_one_line(saved: Path, tmp_path: Path, value: Any, words: str) -> None:
    path = rewrite(saved, tmp_path / "bad.poolsim", edit_player(value))
    with pytest.raises(GameFileError) as caught:
        load(path)
    text = str(caught.value)
    assert "\n" not in text and words in text and "player" in text, text


def test_verify_decisions_makes_the_same_decisions(played: Game) -> None:
    (check,) = verify_decisions(played)
    assert check.same and check.level == "1" and check.label == "rack 1, shot 1 (A)"


def test_verify_decisions_names_a_decision_that_differs(saved: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    same = runner.invoke(cli, ["verify", "--decisions", str(saved)])
    assert same.exit_code == 0, same.output
    assert "rack 1, shot 1 (A), computer (level 1): the same decision" in same.output
    assert same.output.splitlines()[-1] == "1 computer's decisions made again: all the same"
    other = {"kind": "computer", "level": "1", "entropy": [8, 1, 1, 0]}
    path = rewrite(saved, tmp_path / "other.poolsim", edit_player(other))
    changed = runner.invoke(cli, ["verify", "--decisions", str(path)])
    assert changed.exit_code == 1, changed.output
    assert "rack 1, shot 1 (A), computer (level 1): DIFFERS" in changed.output
    assert "1 of 1 computer's decisions differ" in changed.output
    plain = runner.invoke(cli, ["verify", str(path)])  # without the flag: strokes only
    assert plain.exit_code == 0, plain.output


def test_the_computers_choice_is_kept_and_decided_again(tmp_path: Path) -> None:
    """A push out (TB-8), and the computer answers it: its choice is saved with its level
    and seed, read back, and ``verify --decisions`` decides it again, the same."""
    from rules import Declaration
    from sim.physics.simulate import CueAction, aim_towards
    from sim.play.game import ChoiceRecord, Stroke

    game = Game(GameSetup(game="ten-ball", seed=5, players=("Ann", "Bob")))
    game.start(Player.A)
    state = game.rack
    assert state is not None
    spot = (0.635, 0.5)
    game.shoot(Stroke(action=CueAction(8.0, aim_towards(spot, state.balls["1"])), placement=spot))
    state = game.rack
    assert state is not None and Declaration.PUSH_OUT in state.legal_declarations
    game.shoot(Stroke(action=CueAction(1.0, 0.0), declaration=Declaration.PUSH_OUT))
    state = game.rack
    assert state is not None and state.pending is not None
    chooser = ComputerPlayer("1", ENTROPY)
    move = think(ThinkRequest(state, "9ft", chooser.level, chooser.entropy))
    assert move.choice is not None
    game.choose(move.choice, by=chooser)
    path = tmp_path / "push.poolsim"
    save(game, path)
    with zipfile.ZipFile(path) as zf:
        document = json.loads(zf.read("game.json"))
    (choice,) = [r for r in document["records"] if r["type"] == "choice"]
    assert choice["computer"] == {"kind": "computer", "level": "1", "entropy": list(ENTROPY)}
    again = load(path)
    (record,) = [r for r in again.records if isinstance(r, ChoiceRecord)]
    assert record.by == chooser and record.choice == move.choice
    (check,) = verify_decisions(again)
    assert check.same and f"choice ({move.choice.value})" in check.label


@pytest.fixture
def planned(tmp_path: Path) -> Path:
    """The computer's break recorded as a duel and the window record it now, with what
    it meant (version 5)."""
    game = Game(GameSetup(game="ten-ball", seed=11, players=("Ann", "Bob")))
    game.start(Player.A)
    state = game.rack
    assert state is not None
    move = think(ThinkRequest(state, "9ft", "1", ENTROPY))
    game.shoot(move.played_by(ComputerPlayer("1", ENTROPY)))
    path = tmp_path / "planned.poolsim"
    save(game, path)
    return path


def test_the_computers_plan_is_kept_read_back_and_checked(planned: Path, tmp_path: Path) -> None:
    (shot,) = shots(planned)
    plan = shot["player"]["plan"]
    assert plan["intent"] == "break" and set(plan["action"]) == {
        "speed",
        "aim",
        "elevation",
        "a",
        "b",
    }
    assert plan["action"] != {key: shot["action"][key] for key in plan["action"]}  # its noise
    loaded = load(planned).shots[0].stroke.player
    assert loaded is not None and loaded.plan is not None and loaded.plan.intent == "break"
    runner = CliRunner()
    same = runner.invoke(cli, ["verify", "--decisions", str(planned)])
    assert same.exit_code == 0 and "all the same" in same.output, same.output

    def turned(document: dict[str, Any]) -> None:
        shot = next(r for r in document["records"] if r["type"] == "shot")
        shot["player"]["plan"]["action"]["aim"] += 1.0

    path = rewrite(planned, tmp_path / "turned.poolsim", turned)
    changed = runner.invoke(cli, ["verify", "--decisions", str(path)])
    assert changed.exit_code == 1 and "DIFFERS" in changed.output, changed.output


@pytest.mark.parametrize(
    ("plan", "words"),
    [
        ({"action": "fast", "intent": "pot", "target": "4", "pocket": "rt"}, "expected"),
        ({"action": None, "intent": "dance", "target": None, "pocket": None}, "plan.intent"),
        ({"intent": "pot", "target": "16", "pocket": "rt"}, "plan.target"),
        ({"intent": "pot", "target": "²", "pocket": "rt"}, "plan.target"),
        ({"intent": "pot", "target": "4", "pocket": "middle"}, "plan.pocket"),
        ({"intent": "pot", "target": "4", "pocket": ["rt"]}, "plan.pocket"),
        ({"intent": "pot", "target": "4", "pocket": "rt", "why": 1}, "why"),
    ],
)
def test_a_bad_plan_is_one_line(
    planned: Path, tmp_path: Path, plan: dict[str, Any], words: str
) -> None:
    def edit(document: dict[str, Any]) -> None:
        shot = next(r for r in document["records"] if r["type"] == "shot")
        action = shot["player"]["plan"]["action"]
        shot["player"]["plan"] = {"action": action, **plan}

    path = rewrite(planned, tmp_path / "bad-plan.poolsim", edit)
    with pytest.raises(GameFileError) as caught:
        load(path)
    text = str(caught.value)
    assert "\n" not in text and words in text, text
