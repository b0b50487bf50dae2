"""Every term of the referee has a player's words, and every ruling of every game reads as
one plain line with no raw token in it. A new foul, choice, pocket or game fails here
until :mod:`rules.words` (or the game's ``win_words``) words it; a new game's rulings
need scenarios in the corpus."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from rules import CUE, GAMES, Choice, GameState, Options, Phase, Player, PocketId, Ruling
from rules.errors import IllegalAction
from rules.groups import Group, Loss, Target
from rules.lag import LagResult
from rules.lead import lag_line, ruling_line
from rules.ruling import Reason
from rules.scenarios import Scenario, load_scenarios
from rules.terms import REFEREE_FOULS, BallInHand, Declaration, FoulCode
from rules.words import (
    BALL_IN_HAND_WORDS,
    CHOICE_WORDS,
    DECLARATION_WORDS,
    FOUL_WORDS,
    GROUP_WORDS,
    LOSS_WORDS,
    POCKET_NAMES,
    TARGET_WORDS,
    offered,
    pocket_name,
)
from tests.rules.builders import OPEN_TABLE, call, hit, rail, shot, ten

SCENARIOS = Path(__file__).resolve().parent.parent / "data" / "scenarios"
NAMES = ("Ann", "Bob")
# What must never reach a player: a pocket's id, a token of the scenario format with a
# hyphen ("spot-lowest", "no-rail"), a rule ID, the referee's A and B.
POCKET_IDS = re.compile(r"\b(?:lb|lc|lt|rb|rc|rt)\b")
TOKENS = {term.value for term in (*Choice, *FoulCode, *Declaration) if "-" in term.value}
RULE_ID = re.compile(r"\b[A-Z]{1,3}-\d+\b")
PLAYER_LETTER = re.compile(r"(?<![\w-])[AB](?![\w-])")


def raw_tokens(text: str) -> list[str]:
    found = POCKET_IDS.findall(text) + [t for t in TOKENS if t in text]
    return found + RULE_ID.findall(text) + PLAYER_LETTER.findall(text)


@attrs.frozen
class Said:
    """One ruling of the corpus, the line for it and where it came from."""

    where: str
    ruling: Ruling
    line: str
    choice: bool = False


def _scenarios() -> list[Scenario]:
    return [s for path in sorted(SCENARIOS.glob("*.json")) for s in load_scenarios(path)]


def _rulings() -> Iterator[Said]:
    """Every scenario's shot, every choice its ruling offers, a declared stalemate, and
    each foul a referee calls added to the shot."""
    for scenario in _scenarios():
        state, kind = scenario.state, type(scenario.state)
        on_break = state.phase is Phase.BREAK
        shots = [("", scenario.shot)]
        if scenario.shot.referee_fouls == frozenset():
            shots += [
                (f" +{code.value}", attrs.evolve(scenario.shot, referee_fouls=frozenset({code})))
                for code in sorted(REFEREE_FOULS)
            ]
        for extra, played in shots:
            try:
                ruling = state.rule(played)
            except IllegalAction:
                continue
            line = ruling_line(
                ruling, kind, NAMES, declaration=played.declaration, on_break=on_break
            )
            yield Said(scenario.id + extra, ruling, line)
            if extra:
                continue
            after = state.apply(ruling)
            for choice in sorted(after.legal_choices):
                chosen = after.rule_choice(choice)
                said = ruling_line(chosen, kind, NAMES, choice=choice)
                yield Said(f"{scenario.id} then {choice.value}", chosen, said, choice=True)
            if not after.is_over:
                stalemate = state.rule_stalemate(agreed=True)
                said = ruling_line(stalemate, kind, NAMES, stalemate=True)
                yield Said(f"{scenario.id} stalemate", stalemate, said)


CORPUS = list(_rulings())


# -- every term has its words --------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "terms"),
    [
        (POCKET_NAMES, PocketId),
        (FOUL_WORDS, FoulCode),
        (CHOICE_WORDS, Choice),
        (BALL_IN_HAND_WORDS, BallInHand),
        (DECLARATION_WORDS, Declaration),
        (GROUP_WORDS, Group),
        (TARGET_WORDS, Target),
        (LOSS_WORDS, Loss),
    ],
)
def test_every_term_has_its_words(table: dict[object, object], terms: type) -> None:
    assert set(table) == set(terms), f"word these: {set(terms) - set(table)}"
    for words in table.values():
        for text in attrs.astuple(words) if attrs.has(type(words)) else (words,):
            assert text and not raw_tokens(text.format(chooser="Ann", other="Bob")), text


def test_pockets_are_named_one_way() -> None:
    assert pocket_name("lt") == pocket_name(PocketId.LT) == "foot-left corner"
    assert pocket_name(PocketId.RC) == "right side"
    assert len(set(POCKET_NAMES.values())) == len(PocketId)


def test_choices_read_as_words() -> None:
    assert CHOICE_WORDS[Choice.SPOT_LOWEST].label == "Spot the lowest ball"
    assert offered({Choice.KITCHEN, Choice.SHOOT, Choice.SPOT_LOWEST}) == (
        "shoot, spot the lowest ball or take ball in hand in the kitchen"
    )


@pytest.mark.parametrize("kind", list(GAMES.values()), ids=list(GAMES))
def test_every_game_says_how_a_rack_is_won(kind: type[GameState]) -> None:
    """A game's ``win_words`` finishes "Ann wins the rack ..."; the corpus has its rulings."""
    words = kind.win_words.format(points=61)
    assert words.startswith("with ") and not raw_tokens(words)
    assert any(type(s.state) is kind for s in _scenarios()), f"no scenarios for {kind.game}"


# -- every ruling reads as one plain line ----------------------------------------------------


def test_the_corpus_covers_every_reason_the_referee_gives() -> None:
    """Every rule a reason in ``rules/`` cites shows up in the corpus's rulings, so the
    lines below are checked for every kind of ruling. Not rulings: GEN-2 (the lag, below)
    and GEN-5 (a placement refused before the shot)."""
    rules = Path(__file__).resolve().parents[2] / "rules"
    source = " ".join(path.read_text() for path in rules.glob("*.py"))
    cited = set(re.findall(r'"((?:GEN|TB|ROT|NB|EB|B)-\d+)"', source)) - {"GEN-2", "GEN-5"}
    given = {reason.rule for said in CORPUS for reason in said.ruling.reasons}
    assert cited <= given, f"no scenario gives {sorted(cited - given)}"


def test_each_ruling_leads_with_one_plain_line() -> None:
    """One sentence or two, in the players' names, that says "Foul" first for a foul."""
    wrong = []
    for said in CORPUS:
        line = said.line
        if (
            "\n" in line
            or not (line[0].isupper() and line.endswith("."))
            or raw_tokens(line)
            or not ("Ann" in line or "Bob" in line or line.startswith("The table is empty"))
            or line.startswith("Foul: ") != (said.ruling.foul and not said.choice)
        ):
            wrong.append(f"{said.where}: {line!r} {raw_tokens(line)}")
    assert not wrong, "\n".join(wrong)


def test_no_reason_names_a_pocket_or_a_choice_by_its_token() -> None:
    """The details (the reasons, with their rule IDs) name pockets and choices in words."""
    for said in CORPUS:
        for reason in said.ruling.reasons:
            text = reason.text
            assert not POCKET_IDS.search(text), (said.where, text)
            assert not [t for t in TOKENS if t in text], (said.where, text)


# -- the lines themselves ---------------------------------------------------------------------


def _line(where: str) -> str:
    return next(s.line for s in CORPUS if s.where == where)


def test_lines_say_what_happened_and_what_comes_next() -> None:
    assert _line("tba-win-rule-called-ten-with-scratch") == (
        "Foul: scratch. Bob has ball in hand anywhere."
    )
    assert _line("tba-push-out-touching-nothing-is-legal") == (
        "Push out. Ann may shoot or pass it back."
    )
    assert _line("tba-ten-wins-winner-breaks") == (
        "Ann wins the rack with the 10 in the called pocket."
    )
    assert _line("tba-third-foul-winner-breaks") == (
        "Foul: scratch, Ann's third in a row. Bob wins the rack."
    )
    assert _line("rotx-foul-option-b-both") == (
        "Foul: wrong ball hit first. Bob may shoot, spot the lowest ball or take ball in hand "
        "in the kitchen."
    )
    # ROT-17: from the kitchen, a ball behind the head string hit first (not the lowest
    # either): the kitchen foul is the one named, not "wrong ball hit first".
    assert _line("rot-kitchen-ball-behind-string-no-crossing-replay") == (
        "Foul: cue ball hit before leaving the kitchen. Ann may shoot, spot the lowest ball "
        "or ask for a replay."
    )
    assert _line("rot-kitchen-ball-behind-string-then-crosses") == (
        "Foul: cue ball hit before leaving the kitchen. Ann may shoot or spot the lowest ball."
    )
    assert _line("rot-scratch-lowest-in-kitchen-forced-spot") == (
        "Foul: scratch. The 5 goes on the foot spot; Bob has ball in hand in the kitchen."
    )
    assert _line("tb-wrong-pocket-pass-back") == (
        "Ann pockets the 4, not as called. Bob may shoot or pass it back."
    )
    assert _line("tba-push-out-touching-nothing-is-legal then pass") == (
        "Ann passes it back: Bob must shoot from here."
    )


def test_a_miss_and_a_stalemate_on_no_progress() -> None:
    miss = shot(hit(CUE, "2"), rail("2"), call=call("2", "lc"))
    state = ten(OPEN_TABLE, breaker=Player.A, options=Options(stalemate_mode="auto_no_progress(1)"))
    first = state.rule(miss)
    assert ruling_line(first, type(state), NAMES, on_break=False) == (
        "Ann misses: no ball pocketed. Bob to shoot."
    )
    again = state.apply(first).rule(shot(hit(CUE, "2"), rail("2"), call=call("2")))
    assert ruling_line(again, type(state), NAMES, on_break=False) == (
        "No progress, a stalemate: the balls are racked again and Ann breaks."
    )


def test_the_lag_in_a_line_says_why() -> None:
    """The plain line gives the verdict's reason, not only the verdict (the reasons with
    their rule IDs are the details behind it)."""
    nearer = LagResult(winner=Player.B, reasons=(Reason("GEN-2", "B wins the lag"),))
    assert lag_line(nearer, NAMES) == (
        "Bob's ball stopped nearer the head cushion: Bob wins the lag and chooses who breaks."
    )
    bad = LagResult(
        winner=Player.B, reasons=(), faults=((Player.A, "touched the foot cushion twice"),)
    )
    assert lag_line(bad, NAMES) == (
        "Ann's ball touched the foot cushion twice: Bob wins the lag and chooses who breaks."
    )
    both = LagResult(
        winner=None,
        reasons=(),
        faults=(
            (Player.A, "touched the foot cushion twice"),
            (Player.B, "never touched the foot cushion"),
        ),
    )
    assert lag_line(both, NAMES) == (
        "No winner: Ann's ball touched the foot cushion twice; Bob's ball never touched the "
        "foot cushion. The lag is played again."
    )
    assert lag_line(LagResult(winner=None, reasons=()), NAMES) == (
        "No winner: the two balls stopped equally near the head cushion. The lag is played again."
    )
    late = LagResult(winner=None, reasons=(), late=Player.B)
    assert lag_line(late, NAMES) == (
        "No winner: Bob struck after Ann's ball had reached the foot cushion. "
        "The lag is played again."
    )


def test_free_play_rulings_read_as_plain_sentences() -> None:
    """With the referee off (rules.practice), every scenario's shot reads as sentences
    of what happened, with no rule ID, token or pocket id in them."""
    from rules.practice import practice_state

    said = 0
    for scenario in _scenarios():
        state = practice_state(scenario.state)
        played = attrs.evolve(scenario.shot, call=None, declaration=None)
        try:
            ruling = state.rule(played)
        except IllegalAction:
            continue
        line = ruling_line(ruling, type(state), NAMES)
        sentences = line.split(". ")
        assert line.endswith(".") and all(s[:1].isupper() for s in sentences), line
        assert not raw_tokens(line) and not ruling.foul, line
        said += 1
    assert said > 100
