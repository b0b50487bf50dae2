"""A stalemate offered and answered in the window (GEN-16, issue 12), through the
window's script and its keys: the computer's offer asked of the person in plain words
with two buttons, Y / N; played on, the computer plays its shot (its record says the
offer was declined); agreed, the rack is racked again. A person's offer (O) answered
by the computer's own rule, or by the other person."""

from __future__ import annotations

import pytest

from rules import Player
from sim.app.hud.texts import prompt
from sim.app.main import PoolApp
from sim.app.script import ScriptError, run_script
from sim.play.game import Game, StalemateRecord
from sim.play.stalemate import COMPUTER_OFFERS, PERSON_MAY_OFFER
from sim.play.table.turn import Stage
from tests.play.quiet import quiet_game

pytestmark = pytest.mark.app


def quiet_table(table: PoolApp, innings: int, computer: bool) -> tuple[Game, Player]:
    """The window at a quiet rack; the seat to shoot, the computer's when ``computer``
    (level 1), the other a person's."""
    game = quiet_game(innings)
    assert game.rack is not None
    seat = game.rack.shooter
    table.play(game, computers={seat if computer else seat.other: "1"})
    return game, seat


def test_the_computers_offer_is_asked_and_declined_with_a_key(table: PoolApp) -> None:
    game, seat = quiet_table(table, COMPUTER_OFFERS, computer=True)
    controller = table.controller
    assert controller is not None
    run_script(table, [{"wait_for_computer": True}])
    assert controller.stage is Stage.OFFER
    assert prompt(controller) == (
        "Ann (level 1) offers a stalemate: no ball has gone down for 12 innings. "
        "Agree and re-rack, or play on? (Y / N)"
    )
    assert table.hud is not None and len(table.hud.choice_button_centres()) == 2
    shots = len(game.shots)
    run_script(table, [{"key": "n"}, {"wait_for_computer": True}])
    assert len(game.shots) == shots + 1
    computer = game.shots[-1].stroke.player
    assert computer is not None and computer.declined == COMPUTER_OFFERS
    assert game.shots[-1].shooter is seat


def test_the_computers_offer_agreed_re_racks(table: PoolApp) -> None:
    game, _ = quiet_table(table, COMPUTER_OFFERS, computer=True)
    run_script(table, [{"wait_for_computer": True}, {"answer_stalemate": "agree"}])
    record = game.records[-1]
    assert isinstance(record, StalemateRecord) and record.agreed
    assert game.match.rack_number == 2


def test_a_persons_offer_the_computer_declines_and_says_so(table: PoolApp) -> None:
    game, seat = quiet_table(table, PERSON_MAY_OFFER, computer=False)
    controller = table.controller
    assert controller is not None
    assert prompt(controller).endswith("O: offer a stalemate")
    run_script(table, [{"key": "o"}])
    assert controller.message.startswith("Bob (level 1) declines the stalemate")
    assert controller.shooter is seat and not isinstance(game.records[-1], StalemateRecord)


def test_between_two_people_the_other_is_asked(table: PoolApp) -> None:
    game = quiet_game(PERSON_MAY_OFFER)
    table.play(game)
    controller = table.controller
    assert controller is not None
    run_script(table, [{"offer_stalemate": True}])
    assert controller.stage is Stage.OFFER
    with pytest.raises(ScriptError, match="agree"):
        run_script(table, [{"answer_stalemate": "maybe"}])
    run_script(table, [{"answer_stalemate": "play_on"}, {"offer_stalemate": True}, {"key": "y"}])
    assert isinstance(game.records[-1], StalemateRecord)


def test_the_menu_offers_the_stalemate_once_the_rack_has_been_quiet(table: PoolApp) -> None:
    _, seat = quiet_table(table, PERSON_MAY_OFFER, computer=False)
    controller = table.controller
    assert controller is not None
    run_script(table, [{"key": "escape"}])
    menu = table.menu
    assert menu is not None
    (offer,) = [b for b in menu.buttons if b["text"] == "Offer a stalemate (O)"]
    offer["command"]()
    table.step()
    assert table.menu is None and "declines the stalemate" in controller.message
    assert controller.shooter is seat


def test_no_stalemate_is_offered_early(table: PoolApp) -> None:
    quiet_table(table, 1, computer=False)
    controller = table.controller
    assert controller is not None and not controller.stalemate.may_offer
    assert "stalemate" not in prompt(controller)
    run_script(table, [{"key": "escape"}])
    assert table.menu is not None
    assert not [b for b in table.menu.buttons if "stalemate" in b["text"]]
    run_script(table, [{"key": "escape"}, {"key": "o"}])  # refused, in one line
    assert "more to go" in table.hud.shown_message()
