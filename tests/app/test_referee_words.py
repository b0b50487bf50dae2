"""The referee's words in the window: one plain line over the prompt (red for a foul
only), the reasons with their rule IDs only on request, and no pocket id or raw token
anywhere the window shows, for a sample of rulings (a scratch, a push out and its
choice, the replay of a shot that pockets balls)."""

from __future__ import annotations

import pytest
from panda3d.core import KeyboardButton, NodePath, Point3, TextNode

from rules import Declaration, Player
from sim.app.hud.widgets import RED
from sim.app.main import PoolApp
from sim.app.screens.replay import ReplayView
from sim.physics.simulate import CueAction, aim_towards
from sim.play.game import Game, Stroke
from sim.play.table.turn import Stage
from tests.app.test_replay_app import played
from tests.app.test_table_app import after_break, press, started_game, step
from tests.rules.test_words import POCKET_IDS, TOKENS, raw_tokens

pytestmark = pytest.mark.app


def texts(root: NodePath) -> list[str]:
    """Every text drawn under ``root`` that is showing."""
    shown = []
    for found in root.findAllMatches("**/+TextNode"):
        node = found.node()
        assert isinstance(node, TextNode)
        if node.getText() and not found.isHidden() and not found.isStashed():
            shown.append(node.getText())
    return shown


def no_pocket_ids_or_tokens(lines: list[str]) -> None:
    for line in lines:
        assert not POCKET_IDS.search(line), line
        assert not [t for t in TOKENS if t in line], line


def scratched_break() -> Game:
    """Ann breaks straight into the head-left corner: a scratch."""
    game = started_game(5)
    spot = (0.2, 0.3)
    game.shoot(Stroke(action=CueAction(1.2, aim_towards(spot, (0.0, 0.0))), placement=spot))
    assert game.records[-1].ruling.foul_codes[0].is_scratch  # type: ignore[union-attr]
    return game


def _top(app: PoolApp, text: NodePath) -> tuple[float, float, float, float]:
    low, high = Point3(), Point3()
    text.calcTightBounds(low, high)
    a = app.base.aspect2d.getRelativePoint(text, low)
    b = app.base.aspect2d.getRelativePoint(text, high)
    return a.x, b.x, a.z, b.z


def test_a_scratch_leads_with_one_plain_line_and_details_on_request(table: PoolApp) -> None:
    table.play(scratched_break())
    step(table, 3)
    hud = table.hud
    assert hud is not None
    assert hud.verdict.getText() == "Foul: scratch. Bob has ball in hand anywhere."
    assert tuple(hud.verdict.textNode.getTextColor()) == pytest.approx(RED)
    shown = texts(hud.root)
    assert not [line for line in shown if raw_tokens(line)], shown
    assert hud.referee_frame.isHidden() and not hud.referee_lines
    # It fits the dock's words block, over the prompt's bar: clear of the cue-ball
    # widget and the stroke buttons on its left, the camera buttons on its right, on
    # one row.
    left, right, bottom, top = _top(table, hud.verdict)
    words = hud.words_block
    assert words.x0 < left and right < words.x1 and words.y0 < bottom and top < words.y1
    assert hud.verdict.textNode.getNumRows() == 1
    # W: every reason, with its rule ID, pockets and fouls in words.
    press(table, KeyboardButton.asciiKey("w"))
    details = [line.getText() for line in hud.referee_lines]
    joined = " ".join(details)
    assert "GEN-9" in joined and "head-left corner" in joined
    no_pocket_ids_or_tokens(texts(hud.root))
    press(table, KeyboardButton.asciiKey("w"))
    assert hud.referee_frame.isHidden()


def test_a_push_out_and_its_choice_in_words(table: PoolApp) -> None:
    game = after_break(90)
    state = game.rack
    assert state is not None and state.shooter is Player.A
    # A soft roll across the table, away from the cushion the cue ball lies by.
    game.shoot(Stroke(action=CueAction(0.6, 180.0), declaration=Declaration.PUSH_OUT))
    table.play(game)
    step(table, 3)
    hud, controller = table.hud, table.controller
    assert hud is not None and controller is not None and controller.stage is Stage.CHOOSE
    assert hud.verdict.getText() == "Push out. Bob may shoot or pass it back."
    assert tuple(hud.verdict.textNode.getTextColor()) != pytest.approx(RED)
    buttons = [str(b["text"]) for b in hud.choice_buttons]
    assert [b.split("\n")[0] for b in buttons] == ["Shoot", "Pass it back"]
    shown = texts(hud.root) + buttons
    assert not [line for line in shown if raw_tokens(line)], shown
    # Beside the choice buttons while they are up, not under them.
    left, right, bottom, top = _top(table, hud.verdict)
    x0, x1, y0, y1 = hud.choice_frame["frameSize"]
    assert left > x1 or right < x0 or bottom > y1 or top < y0
    controller.choose("pass")
    step(table, 2)
    assert hud.verdict.getText() == "Bob passes it back: Ann must shoot from here."


def test_the_replay_names_pockets_and_leads_with_the_plain_line(table: PoolApp) -> None:
    game = played(2)
    table.play(game)
    table.open_replay(1)
    viewer = table.replay
    assert isinstance(viewer, ReplayView)
    viewer.set_time(viewer.timeline.duration)
    table.step()
    shown = [line.getText() for line in viewer.panel_lines]
    assert viewer.item.said and viewer.item.said.split()[0] in " ".join(shown)
    no_pocket_ids_or_tokens([*shown, viewer.event_text.getText()])


def test_rotations_kitchen_foul_is_named_as_the_kitchen_foul(table: PoolApp) -> None:
    """ROT-17: in hand in the kitchen, the cue ball hits the 5 behind the head string
    (the 1 is the lowest): the plain line names the kitchen foul, not a wrong ball."""
    from rules import CUE, BallInHand
    from sim.play.game import GameSetup
    from sim.play.position import Position

    game = Game(GameSetup(game="rotation", players=("Ann", "Bob"), practice=True, seed=1))
    balls = {CUE: (0.635, 0.3), "5": (0.635, 0.55), "1": (0.3, 2.0)}
    game.set_up(
        Position(game="rotation", table="9ft", balls=balls, turn="A", in_hand=BallInHand.KITCHEN),
        refereed=True,
    )
    table.play(game)
    step(table, 2)
    controller, hud = table.controller, table.hud
    assert controller is not None and hud is not None and controller.stage is Stage.PLACE
    press(table, KeyboardButton.space())  # put down where it waits, aimed at the 1
    controller.aim_at(balls["5"])
    controller.set_power(0.3)
    press(table, KeyboardButton.space())
    for _ in range(60 * 60):
        if controller.stage not in (Stage.SIMULATING, Stage.WATCH):
            break
        step(table)
    step(table, 2)
    assert hud.verdict.getText().startswith("Foul: cue ball hit before leaving the kitchen.")


def test_spotting_a_lowest_ball_on_the_foot_spot_says_what_it_does(table: PoolApp) -> None:
    """ROT-14: Ann hits the 5 before the 1, which lies on the foot spot: Bob's choice
    to spot the lowest ball says it moves no ball (cue ball in hand in the kitchen)."""
    from rules import CUE
    from sim.play.game import GameSetup
    from sim.play.position import Position

    game = Game(GameSetup(game="rotation", players=("Ann", "Bob"), practice=True, seed=1))
    balls = {CUE: (0.635, 1.0), "5": (0.3, 0.7), "1": (0.635, 1.905)}
    game.set_up(Position(game="rotation", table="9ft", balls=balls, turn="A"), refereed=True)
    table.play(game)
    step(table, 2)
    controller, hud = table.controller, table.hud
    assert controller is not None and hud is not None and controller.stage is Stage.AIM
    controller.aim_at(balls["5"])
    controller.set_power(0.3)
    press(table, KeyboardButton.space())
    for _ in range(60 * 60):
        if controller.stage not in (Stage.SIMULATING, Stage.WATCH):
            break
        step(table)
    step(table, 2)
    assert controller.stage is Stage.CHOOSE
    labels = [button["text"] for button in hud.choice_buttons]
    (spot,) = [text for text in labels if text.startswith("Spot the lowest ball")]
    assert "the 1 is on the foot spot already; cue ball in hand in the kitchen" in spot
