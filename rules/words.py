"""The referee's terms in a player's words, in one place: pockets, fouls, choices, ball in
hand, declarations. The scenario format's tokens (``lt``, ``spot-lowest``, ``no-rail``)
are for files and analysts; every text a player reads names these through the tables
here, so a pocket or a choice reads the same way in a ruling, a call, the replay and the
command line. A new term (a foul, a choice, a game's) fails ``tests/rules/test_words.py``
until it has its words.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from rules.facts import PocketId
from rules.groups import Group, Loss, Target
from rules.terms import BallInHand, Choice, Declaration, FoulCode

# As a player standing at the head rail sees the table: l/r, and head (b) to foot (t).
POCKET_NAMES: dict[PocketId, str] = {
    PocketId.LB: "head-left corner",
    PocketId.LC: "left side",
    PocketId.LT: "foot-left corner",
    PocketId.RB: "head-right corner",
    PocketId.RC: "right side",
    PocketId.RT: "foot-right corner",
}


def pocket_name(pocket: PocketId | str) -> str:
    """A pocket as a player names it: "foot-left corner", "right side"."""
    return POCKET_NAMES[PocketId(pocket)]


# What "Foul: ..." says, one short phrase a foul (GEN-6, GEN-9..13, GEN-17, TB-6, ROT-5,
# ROT-17, and the fouls a referee calls).
FOUL_WORDS: dict[FoulCode, str] = {
    FoulCode.SCRATCH: "scratch",
    FoulCode.CUE_OFF_TABLE: "cue ball off the table",
    FoulCode.NO_HIT: "no ball hit",
    FoulCode.WRONG_BALL: "wrong ball hit first",
    FoulCode.NO_RAIL: "no rail after contact",
    FoulCode.ILLEGAL_BREAK: "illegal break",
    FoulCode.BALL_OFF_TABLE: "ball off the table",
    FoulCode.KITCHEN: "cue ball hit before leaving the kitchen",
    FoulCode.BAD_PLACEMENT: "cue ball placed past the head string",
    FoulCode.SHOT_CLOCK: "the shot clock ran out",
    FoulCode.FOOT_ON_FLOOR: "no foot on the floor",
    FoulCode.TOUCHED_BALL: "a ball touched",
    FoulCode.DOUBLE_HIT: "double hit",
    FoulCode.PUSH_SHOT: "push shot",
    FoulCode.BALLS_MOVING: "shot while balls were moving",
    FoulCode.CUE_ON_TABLE: "cue laid on the table",
    FoulCode.OUT_OF_TURN: "shot out of turn",
    FoulCode.ILLEGAL_JUMP: "illegal jump",
    FoulCode.UNSPORTING: "unsporting conduct",
    FoulCode.MOVED_OBSTRUCTING_BALL: "an obstructing ball moved",
}


@attrs.frozen
class ChoiceWords:
    """A choice as its button names it (``label``) and says what it means (``meaning``);
    as the referee offers it ("Bob may {offer} or {offer}"), and as the referee says it
    was taken (``taken``, with the ``chooser``'s name and the ``other`` player's)."""

    label: str
    meaning: str
    offer: str
    taken: str


CHOICE_WORDS: dict[Choice, ChoiceWords] = {
    Choice.SHOOT: ChoiceWords(
        "Shoot",
        "play from the position as it lies",
        "shoot",
        "{chooser} shoots from the position left.",
    ),
    Choice.PASS: ChoiceWords(
        "Pass it back",
        "the other player must shoot from here",
        "pass it back",
        "{chooser} passes it back: {other} must shoot from here.",
    ),
    Choice.SPOT_LOWEST: ChoiceWords(
        "Spot the lowest ball",
        "lowest ball on the foot spot, cue ball in hand in the kitchen",
        "spot the lowest ball",
        "{chooser} spots the lowest ball and takes ball in hand in the kitchen.",
    ),
    Choice.KITCHEN: ChoiceWords(
        "Ball in the kitchen",
        "cue ball in hand behind the head string, no ball moved",
        "take ball in hand in the kitchen",
        "{chooser} takes ball in hand in the kitchen.",
    ),
    Choice.REPLAY: ChoiceWords(
        "Replay the shot",
        "every ball back; the other player shoots again from the kitchen",
        "ask for a replay",
        "{chooser} asks for a replay: every ball goes back and {other} shoots again "
        "from the kitchen.",
    ),
    Choice.RERACK: ChoiceWords(
        "Rack again and break",
        "a new rack, broken by you",
        "have the balls racked again and break",
        "{chooser} has the balls racked again and breaks.",
    ),
    Choice.RERACK_OTHER: ChoiceWords(
        "Rack again, other breaks",
        "a new rack, broken by the other player",
        "have the balls racked again for the other player to break",
        "{chooser} has the balls racked again: {other} breaks.",
    ),
    Choice.ANYWHERE: ChoiceWords(
        "Ball in hand anywhere",
        "cue ball in hand anywhere on the table, no ball moved",
        "take ball in hand anywhere",
        "{chooser} takes ball in hand anywhere.",
    ),
}

# 8-ball: a group as a player names it (EB-7), what the next shooter must hit first
# (EB-8), and why a rack was lost, after "Ann loses the rack: ..." (EB-12, B-38, B-42).
GROUP_WORDS: dict[Group, str] = {Group.SOLIDS: "solids", Group.STRIPES: "stripes"}
TARGET_WORDS: dict[Target, str] = {
    Target.OPEN: "any ball but the 8",
    Target.SOLIDS: "a solid",
    Target.STRIPES: "a stripe",
    Target.EIGHT: "the 8",
}
LOSS_WORDS: dict[Loss, str] = {
    Loss.EIGHT_OFF_TABLE: "the 8 left the table",
    Loss.EIGHT_WITH_FOUL: "the 8 went down on a foul",
    Loss.EIGHT_EARLY: "the 8 went down before its turn",
    Loss.EIGHT_WRONG_POCKET: "the 8 went into a pocket that was not called",
    Loss.THREE_FOULS: "three fouls in a row",
    Loss.SCRATCH_ON_EIGHT: "a scratch while shooting at the 8",
}


@attrs.frozen
class RulingWords:
    """What a game's own part of a ruling adds to its plain line (:mod:`rules.lead`), in
    a player's words, as the game's class says it (``GameState.ruling_words``); nothing
    by default. ``illegal_break``: why a break that is no foul was illegal (EB-5(c));
    ``taken``: what the shooter took with the shot (", takes the solids", EB-7);
    ``loss``: why the shooter lost the rack (EB-12); ``won``: how the rack was won where
    the game's ``win_words`` do not say it (the 8 on the break, B-31)."""

    illegal_break: str | None = None
    taken: str = ""
    loss: str | None = None
    won: str | None = None


# "Bob has ball in hand {…}" (GEN-5).
BALL_IN_HAND_WORDS: dict[BallInHand, str] = {
    BallInHand.ANYWHERE: "anywhere",
    BallInHand.KITCHEN: "in the kitchen",
}

DECLARATION_WORDS: dict[Declaration, str] = {
    Declaration.PUSH_OUT: "push out",
    Declaration.SAFETY: "safety",
}


def in_words(items: Iterable[str], conjunction: str = "or") -> str:
    """``a, b or c``."""
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def offered(choices: Iterable[Choice]) -> str:
    """The choices as the referee offers them, in a fixed order: "shoot, spot the lowest
    ball or take ball in hand in the kitchen"."""
    return in_words(CHOICE_WORDS[c].offer for c in sorted(choices, key=list(Choice).index))
