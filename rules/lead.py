"""The referee's ruling in one plain line, the first thing a player reads: what happened
and what the next player may do, in the players' names ("Foul: scratch. Bob has ball in
hand anywhere."). The reasons, each tagged with its rule ID, are the details behind it.

The line is built from the ruling's data (fouls, choices, ball in hand, winner, the balls
down), the stroke's declaration and, for a choice, the choice, never from the reasons'
text; every term in it comes from :mod:`rules.words`. The exception is free play with
the referee off (:mod:`rules.practice`): its reasons are no rule's, only what happened in
a player's words, so its line is those reasons, each a sentence.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.facts import BallId
from rules.geometry import TableGeometry
from rules.lag import LagResult
from rules.positions import ball_number, describe
from rules.ruling import Ruling
from rules.state import GameState, ordinal
from rules.terms import Choice, Declaration, FoulCode, Phase, Player
from rules.words import (
    BALL_IN_HAND_WORDS,
    CHOICE_WORDS,
    FOUL_WORDS,
    offered,
)

Names = tuple[str, str]


def _name(player: Player, names: Names) -> str:
    return names[0] if player is Player.A else names[1]


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def main_foul(codes: Iterable[FoulCode]) -> FoulCode:
    """The foul a player is told first: a scratch (it brings the scratch options,
    GEN-14), else rotation's kitchen foul (ROT-17: from the kitchen the cue ball hit a
    ball behind the head string, which is most often not the lowest too; the kitchen
    is what went wrong, and what the replay it may offer is about), else the first
    found. GEN-14: one penalty, whatever the others."""
    codes = tuple(codes)
    first = next((code for code in codes if code is FoulCode.KITCHEN), codes[0])
    return next((code for code in codes if code.is_scratch), first)


def ruling_line(
    ruling: Ruling,
    kind: type[GameState],
    names: Names = ("A", "B"),
    *,
    declaration: Declaration | None = None,
    choice: Choice | None = None,
    stalemate: bool = False,
    on_break: bool | None = None,
    table: TableGeometry | None = None,
) -> str:
    """One line for ``ruling``, of a game of ``kind``: a shot's (with the stroke's
    ``declaration``), a ``choice``'s, or a declared ``stalemate``'s. ``on_break``: the
    shot was the break; by default a rack's first ruling, as ``new_rack`` numbers them.
    ``table``: the table played on, where the game says what a shot racks (14.1's
    re-rack, and where the break ball and the cue ball go)."""
    line = _line(
        ruling,
        kind,
        names,
        declaration=declaration,
        choice=choice,
        stalemate=stalemate,
        on_break=on_break,
    )
    if table is None or choice is not None or stalemate:
        return line
    racked = kind.racking_words(ruling, table)
    return line if racked is None else f"{line} {racked}"


def _line(
    ruling: Ruling,
    kind: type[GameState],
    names: Names,
    *,
    declaration: Declaration | None,
    choice: Choice | None,
    stalemate: bool,
    on_break: bool | None,
) -> str:
    if not kind.refereed:
        return " ".join(f"{_sentence(reason.text)}." for reason in ruling.reasons)
    if stalemate:
        return f"Stalemate: {_rerack(ruling, names)}"
    if choice is not None:
        return _chosen(ruling, choice, names)
    if on_break is None:
        on_break = ruling.turn == 0
    who = _name(ruling.player, names)
    if ruling.rack_over:
        return _rack_over(ruling, kind, names, on_break=on_break)
    down = _down(ruling)
    if ruling.foul:
        foul = FOUL_WORDS[main_foul(ruling.foul_codes)]
        if ruling.next_shooter is ruling.player and ruling.phase is Phase.BREAK:  # SP-13
            count = ordinal(kind.foul_limit)
            return f"Foul: {foul}, {who}'s {count} in a row: {_rerack(ruling, names)}"
        line = f"Foul: {foul}. {_next(ruling, names)}"
        if ruling.player in ruling.warning:
            line += f" {who} is warned: {kind.warning_words}."
        return line
    pushed = declaration is Declaration.PUSH_OUT and kind.has_push_out
    safety = declaration is Declaration.SAFETY and kind.calls_shots
    if pushed and ruling.phase is not Phase.AFTER_BREAK:  # TB-4: ignored on the break
        return f"Push out. {_next(ruling, names)}"
    if ruling.phase is Phase.AFTER_BREAK:  # TB-7: a legal break; a push out may follow
        if ruling.next_shooter is ruling.player:
            return f"{who} pockets {describe(down)} on the break and may push out."
        return f"{who} breaks, nothing down. {_name(ruling.next_shooter, names)} may push out."
    spotted = _spotted(ruling.spotted)
    words = kind.ruling_words(ruling, on_break=on_break)
    if words.illegal_break:  # EB-5(c), EB-6: not in itself a foul
        return f"{who}'s break is illegal: {words.illegal_break}. {_next(ruling, names)}"
    if on_break and ruling.choices:  # EB-6: the 8 down on a legal break
        return f"{who} pockets {describe(down)} on the break.{spotted} {_next(ruling, names)}"
    if ruling.choices:  # balls down that do not count (TB-13, TB-14)
        what = (
            f"{who} plays a safety and {describe(down)} drops"
            if safety
            else f"{who} pockets {describe(down)}, not as called"
        )
        return f"{what}.{spotted} {_next(ruling, names)}"
    if ruling.next_shooter is ruling.player and words.taken:  # EB-7: the group is theirs
        return f"{who} pockets {describe(down)}{words.taken} and shoots again.{spotted}"
    if ruling.next_shooter is ruling.player:
        points = _points(ruling.pocketed, kind) if kind.keeps_score else ""
        return f"{who} pockets {describe(down)}{points} and shoots again.{spotted}"
    if safety:
        dropped = f" and {describe(down)} {'drops' if len(down) == 1 else 'drop'}" if down else ""
        return f"{who} plays a safety{dropped}. {_next(ruling, names)}"
    if down:  # EB-10: balls down that do not count, and no choice
        return f"{who} pockets {describe(down)}, not as called. {_next(ruling, names)}"
    missed = "breaks" if on_break else "misses"
    return f"{who} {missed}: no ball pocketed. {_next(ruling, names)}"


def _down(ruling: Ruling) -> list[BallId]:
    """Every object ball the shot sent down, those spotted again included."""
    return sorted({*ruling.pocketed, *ruling.spotted}, key=ball_number)


def _points(balls: Iterable[BallId], kind: type[GameState]) -> str:
    """ROT-9: the balls' numbers; SP-7: a point a ball."""
    total = sum(kind.ball_points(ball) for ball in balls)
    return f" ({total} point{'s' if total != 1 else ''})"


def _spotted(spotted: Iterable[BallId]) -> str:
    balls = list(spotted)
    if not balls:
        return ""
    return f" {_sentence(describe(balls))} {'is' if len(balls) == 1 else 'are'} spotted."


def _next(ruling: Ruling, names: Names) -> str:
    """What the next player may do, as a sentence."""
    nxt = _name(ruling.next_shooter, names)
    if ruling.choices:
        return f"{nxt} may {offered(ruling.choices)}."
    if ruling.ball_in_hand is not None:
        where = BALL_IN_HAND_WORDS[ruling.ball_in_hand]
        first = ""
        if ruling.applied_choice is Choice.SPOT_LOWEST and ruling.choice_spotted:
            first = f"{_sentence(describe(ruling.choice_spotted))} goes on the foot spot; "
        return f"{first}{nxt} has ball in hand {where}."
    if ruling.next_shooter is ruling.player:
        return f"{nxt} shoots again."
    return f"{nxt} to shoot."


def _rack_over(
    ruling: Ruling, kind: type[GameState], names: Names, *, on_break: bool = False
) -> str:
    who = _name(ruling.player, names)
    foul = FOUL_WORDS[main_foul(ruling.foul_codes)] if ruling.foul else ""
    fouled = f"Foul: {foul}. " if foul else ""
    winner = ruling.winner
    if winner is not None:
        won = f"{_name(winner, names)} wins the {kind.race_unit}"  # 14.1's is a game
        count = ruling.fouls[ruling.player]
        if foul and winner is not ruling.player and count >= kind.foul_limit:
            return f"Foul: {foul}, {who}'s {ordinal(count)} in a row. {won}."
        words = kind.ruling_words(ruling, on_break=on_break)
        if words.loss:  # EB-12: lost, whoever else did what
            return f"{fouled}{who} loses the rack: {words.loss}. {won}."
        how = words.won or kind.win_words.format(points=ruling.score[winner])  # B-31
        return f"{fouled}{won} {how}."
    if foul:
        return f"Foul: {foul}. {_sentence(_rerack(ruling, names))}"
    if on_break and ruling.rerack:  # B-31 ``rerack_same_breaker``
        return f"{who} pockets {describe(_down(ruling))} on the break: {_rerack(ruling, names)}"
    if not ruling.positions.object_balls:  # ROT-10: a tie with the table empty
        score = f"{ruling.score.a}-{ruling.score.b}"
        return f"The table is empty with the score tied {score}: {_rerack(ruling, names)}"
    return f"No progress, a stalemate: {_rerack(ruling, names)}"  # GEN-16


def _rerack(ruling: Ruling, names: Names) -> str:
    breaker = ruling.next_breaker or ruling.next_shooter
    return f"the balls are racked again and {_name(breaker, names)} breaks."


def _chosen(ruling: Ruling, choice: Choice, names: Names) -> str:
    chooser = ruling.player
    return CHOICE_WORDS[choice].taken.format(
        chooser=_name(chooser, names), other=_name(chooser.other, names)
    )


def lag_line(result: LagResult, names: Names = ("A", "B")) -> str:
    """GEN-2 in a line: who won the lag and why, or why it is played again ("No winner:
    Ann's ball touched the foot cushion twice; Bob's ball never touched the foot cushion.
    The lag is played again.")."""
    why = "; ".join(f"{_name(player, names)}'s ball {fault}" for player, fault in result.faults)
    if result.late is not None:
        why = (
            f"{_name(result.late, names)} struck after {_name(result.late.other, names)}'s "
            "ball had reached the foot cushion"
        )
    if result.winner is None:
        why = why or "the two balls stopped equally near the head cushion"
        return f"No winner: {why}. The lag is played again."
    winner = _name(result.winner, names)
    why = why or f"{winner}'s ball stopped nearer the head cushion"
    return f"{_sentence(why)}: {winner} wins the lag and chooses who breaks."
