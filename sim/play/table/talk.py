"""A stalemate offered and answered at the table (GEN-16): the person at the table offers
one, the other person agrees or plays on; the computer offers by its own rule and answers
by it at once (:mod:`sim.play.stalemate`)."""

from __future__ import annotations

from rules import Player
from sim.play.game import GameError, Node, Wanted
from sim.play.stalemate import (
    COMPUTER_OFFERS,
    OFFER_AGAIN_AFTER,
    PERSON_MAY_OFFER,
    computer_offers,
    innings_to_offer,
    last_declined,
    person_may_offer,
)
from sim.play.table.turn import STROKE_STAGES, StalemateOffer, Table


class StalemateTalk:
    """A stalemate offered and waiting for the other player's answer; and an offer of the
    computer's declined at a step (with the quiet innings then) before its shot there
    carries it (``ComputerPlayer.declined``)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.offer: StalemateOffer | None = None
        self.declined: tuple[Node, int] | None = None

    @property
    def pending(self) -> StalemateOffer | None:
        """The stalemate offered at the step the match is at, waiting for an answer (an
        offer made at another step, since taken back or played past, is gone)."""
        offer = self.offer
        if offer is None or offer.node is not self.table.game.current:
            return None
        return offer

    @property
    def may_offer(self) -> bool:
        """The person at the table may offer a stalemate now: at a shot of theirs, with
        the rack quiet for long enough (:func:`sim.play.stalemate.person_may_offer`)."""
        table = self.table
        state = table.state
        return (
            state is not None
            and table.stage in STROKE_STAGES
            and table.computer_level is None
            and not table.practice
            and person_may_offer(state)
        )

    def make_offer(self) -> None:
        """The person at the table offers a stalemate (O, or the menu's Offer a
        stalemate): the other person is asked to agree; the computer answers at once, by
        its own rule for offering one."""
        table = self.table
        state = table.state
        if table.stage not in STROKE_STAGES or state is None:
            raise GameError("a stalemate is offered at your shot, before the stroke")
        table.refuse_at_computer_turn()
        if table.practice:
            raise GameError("a practice table has no stalemates: set it up again", Wanted.SET_UP)
        if not person_may_offer(state):
            more = innings_to_offer(state)
            raise GameError(
                f"a stalemate may be offered once no ball has gone down for {PERSON_MAY_OFFER} "
                f"innings (3 each): {more} more to go"
            )
        offer = StalemateOffer(by=state.shooter, node=table.game.current, quiet=state.quiet_innings)
        if offer.by.other in table.computers:
            self.answer_by_judgement(offer)
            return
        self.offer = offer
        table.message = ""

    def answer(self, agree: bool) -> None:
        """The person asked answers the stalemate offered: agree (the rack is racked
        again, GEN-16) or play on (the player who offered shoots; a computer that offered
        waits :data:`~sim.play.stalemate.OFFER_AGAIN_AFTER` innings before it offers again)."""
        table = self.table
        offer = self.pending
        if offer is None:
            raise GameError("no stalemate has been offered")
        table.refuse_at_computer_turn()
        self.offer = None
        offered, answered = table.seat_name(offer.by), table.seat_name(offer.by.other)
        if agree:
            self.agreed(f"{answered} agreed to {offered}'s stalemate")
            return
        if offer.by in table.computers:
            self.declined = (offer.node, offer.quiet)
            table.message = (
                f"{answered} plays on: {offered} plays its shot, and offers no stalemate "
                f"for {OFFER_AGAIN_AFTER} more innings"
            )
        else:
            table.message = f"{answered} plays on: {offered} to shoot"

    def declined_at(self) -> int | None:
        """The quiet innings at which the computer's last stalemate offer was declined, in
        the quiet stretch the match is in (None: none was): its next decision's input."""
        current = self.table.game.current
        if self.declined is not None and self.declined[0] is current:
            return self.declined[1]  # declined here, before its shot carries it
        return last_declined(current)

    def computer_offers(self, player: Player) -> None:
        """The computer offers a stalemate: another computer agrees at once (its rule is
        the same); a person is asked."""
        table = self.table
        state = table.state
        assert state is not None
        if player.other in table.computers:
            self.agreed(f"{table.seat_name(player)} offered a stalemate and both computers agreed")
            return
        self.offer = StalemateOffer(by=player, node=table.game.current, quiet=state.quiet_innings)
        table.message = ""

    def answer_by_judgement(self, offer: StalemateOffer) -> None:
        """The computer answers a stalemate offered: it agrees when it would have offered
        one itself (:func:`sim.play.stalemate.computer_offers`), and the HUD says so."""
        table = self.table
        state = table.state
        assert state is not None
        computer, offered = table.seat_name(offer.by.other), table.seat_name(offer.by)
        if computer_offers(state, self.declined_at()):
            self.agreed(f"{computer} agreed to {offered}'s stalemate")
            return
        table.message = (
            f"{computer} declines the stalemate and plays on: balls may still go down "
            f"(it agrees after {COMPUTER_OFFERS} innings with none; this rack has had "
            f"{state.quiet_innings}). {offered} to shoot"
        )

    def agreed(self, words: str) -> None:
        """Both players agree: the rack is racked again, its breaker breaks (GEN-16)."""
        table = self.table
        table.spoke(table.game.declare_stalemate(agreed=True))
        table.message = f"{words}: the rack is racked again (GEN-16)"
