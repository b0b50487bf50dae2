"""A stalemate offered and answered (GEN-16): when a player may offer one, when the
computer offers or accepts one, and what a declined offer leaves on the record.

GEN-16 needs both players to agree (WPA 1.12; S000 §9.12: after three innings each). A
person may offer once no ball has gone down for :data:`PERSON_MAY_OFFER` innings (three
each). The computer offers after :data:`COMPUTER_OFFERS` quiet innings, and answers a
person's offer by the same rule: it agrees when it would have offered itself.

An offer the other player declines is not made again at once: the computer waits
:data:`OFFER_AGAIN_AFTER` more quiet innings. The innings it was declined at is a part
of the computer's decisions from then on, so it is kept with each of its shots
(``ComputerPlayer.declined``) and read back from the line of play by
:func:`last_declined`: a game file decides again the same way.

All pure: a :class:`rules.GameState` and the game's steps in, a number or a yes out.
"""

from __future__ import annotations

from rules import GameState
from sim.play.game import Node, ShotRecord

COMPUTER_OFFERS = 12  # innings in a row with no ball down before the computer offers
OFFER_AGAIN_AFTER = 6  # more quiet innings before it offers again, once declined
PERSON_MAY_OFFER = 6  # a person may offer after three innings each (S000 §9.12)


def computer_offers(state: GameState, declined: int | None = None) -> bool:
    """The computer offers a stalemate (and agrees to one offered): a shot is next, no
    ball has gone down for :data:`COMPUTER_OFFERS` innings, and, if it offered in this
    quiet stretch and was declined at ``declined`` quiet innings, at least
    :data:`OFFER_AGAIN_AFTER` more have passed since."""
    if not state.shot_turn or state.quiet_innings < COMPUTER_OFFERS:
        return False
    return declined is None or state.quiet_innings >= declined + OFFER_AGAIN_AFTER


def person_may_offer(state: GameState) -> bool:
    """A person may offer a stalemate at a shot of theirs: the rack is refereed and no
    ball has gone down for :data:`PERSON_MAY_OFFER` innings."""
    return state.shot_turn and state.refereed and state.quiet_innings >= PERSON_MAY_OFFER


def innings_to_offer(state: GameState) -> int:
    """How many more quiet innings before a person may offer (0: now)."""
    return max(0, PERSON_MAY_OFFER - state.quiet_innings)


def last_declined(node: Node) -> int | None:
    """The quiet innings at which the computer's last offer was declined, in the quiet
    stretch the match is in after ``node`` (None: none was, or a ball has gone down
    since, or a new rack began): read from the computer's shots on the way to it, each
    of which carries it."""
    rack = node.match.rack_number
    step: Node | None = node
    while step is not None and step.parent is not None:
        state = step.match.rack
        if step.match.rack_number != rack or state is None or state.quiet_innings == 0:
            return None  # a ball went down (or the rack began) after any earlier offer
        record = step.record
        computer = record.stroke.player if isinstance(record, ShotRecord) else None
        if computer is not None and computer.declined is not None:
            return computer.declined
        step = step.parent
    return None
