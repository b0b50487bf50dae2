"""One step judged (docs/REVIEW.md): the three values best ``B``, chosen ``C`` and
actual ``A`` for the player at the table, the skill loss and the luck, the loss split
into decision and execution, the tag and the accuracy, and the best option in words.

Every stroke is valued by one yardstick, the search's for a finalist: the mean over the
reviewing level's noisy strikes of the judge's value of what the referee's ruling on
each leaves (without the search's foul cost, a weight of its choosing: a value is a
chance, within 0 and 1). The
strikes of every stroke of one step are drawn from one seed (common random numbers), so
two strokes are told apart by what they are, not by their draws: the same stroke is
worth the same, and a computer's plan that is the reviewer's best loses exactly 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from rules import CUE, GameState, IllegalAction
from sim.physics.simulate import SimulatedShot
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.physics.table import TableSpec, table_spec
from sim.play.game import Stroke, shot_of
from sim.play.opponent.judge import Judge
from sim.play.opponent.levels import Level, Noise, level_named
from sim.play.opponent.player import Kind, Move, ThinkRequest, decide, think
from sim.play.opponent.search import Thinker
from sim.play.opponent.strokes import (
    Candidate,
    Intent,
    kick_candidates,
    pot_candidates,
    safety_candidates,
)
from sim.play.opponent.thinker_process import leave_words, move_words, rails_before_hit
from sim.play.review.bestplan import lines_json, stroke_json
from sim.play.review.marks import Tag, accuracy, tag_of
from sim.play.review.steps import Option, Step, StepKind

# The noisy strikes a stroke is valued by: the level's confirm_samples (12 at level 5),
# else its samples, never fewer than this for a level with noise (one for perfect).
LEAST_STRIKES = 8
# A pot the reviewer makes at least this often, missed where the stroke's execution
# cost more than its choice, is a makeable pot missed (docs/REVIEW.md).
MAKEABLE = 0.5
# How many of the likeliest pots the option chosen is looked for among.
POTS_LOOKED_AT = 30


@attrs.frozen
class ReviewJob:
    """A step to judge, as it crosses to another process: the step, the table's name,
    the reviewing level's name and the step's seed (:func:`steps.step_entropy`)."""

    step: Step
    table: str
    level: str
    entropy: tuple[int, ...]


@attrs.frozen(kw_only=True)
class StepReview:
    """A step judged: ``best``, ``chosen`` and ``actual`` (about the chance the player
    at the table wins the rack); ``skill`` the loss max(0, best - chosen), split in
    ``decision`` and ``execution``; ``luck`` actual - chosen; ``tag`` and ``accuracy``
    (percent); ``best_option`` and ``played`` in words; ``missed_pot``: a makeable pot
    missed; ``person``: a person's stroke (valued as struck, so its luck leans a little
    positive, docs/REVIEW.md)."""

    place: int
    rack: int
    name: str
    kind: str
    player: str
    best: float
    chosen: float
    actual: float
    skill: float
    luck: float
    decision: float
    execution: float
    tag: Tag
    accuracy: float
    best_option: str
    played: str
    missed_pot: bool = False
    person: bool = False
    # The best option's stroke and its tracking lines struck as planned
    # (:mod:`.bestplan`), for the replay to draw and load; None: nothing is struck (a
    # choice, a stalemate, a plan the physics refused), or a review saved before them.
    best_stroke: dict[str, Any] | None = None
    best_lines: dict[str, Any] | None = None


def judge_step(job: ReviewJob) -> StepReview:
    """``job``'s step judged (a module's function: it is what the workers run)."""
    step = job.step
    spec = table_spec(job.table)
    level = level_named(job.level)
    if step.kind is StepKind.CHOICE:
        return _choice(step, spec, level)
    seeds = np.random.SeedSequence(list(job.entropy)).spawn(2)
    rng = np.random.default_rng(seeds[0])
    simulator = InProcessSimulator()
    state = step.before
    best_move = decide(state, spec, level, rng, simulator)
    thinker = Thinker(state, spec, level, rng, simulator)
    strikes = _Strikes(thinker, level, seeds[1])
    best_plan = best_move.plan
    best = strikes.worth(best_plan) if best_plan is not None else None
    words, drawn = _best_words(best_move, thinker, job.table)
    actual = _actual(step, thinker)
    if step.kind is StepKind.TIME_FOUL:
        chosen = actual
        top = max(best if best is not None else chosen, chosen)
        timed_out = _marked(step, top, chosen, actual, words, "let the shot clock run out", chosen)
        return attrs.evolve(timed_out, **drawn)
    stroke, meant, hand = _chosen(step, job.table)
    chosen = strikes.worth(stroke, hand)
    if best is None:  # the search offers a stalemate: nothing struck to compare with
        best = chosen
    same = _decided(best_plan) == _decided(stroke) or _same_option(_option_of(best_move), meant)
    intended = best if same else _intended(strikes, meant, stroke)
    review = _marked(step, best, chosen, actual, words, _played(meant, stroke, state), intended)
    return attrs.evolve(review, missed_pot=_missed(review, step, meant, thinker), **drawn)


class _Strikes:
    """Strokes valued by the reviewing level's noisy strikes, every stroke's drawn from
    one seed (see the module)."""

    def __init__(self, thinker: Thinker, level: Level, seed: np.random.SeedSequence) -> None:
        self.thinker = thinker
        self.level = level
        self.seed = seed
        search = level.search
        wanted = search.confirm_samples or search.samples
        self.count = 1 if level.noise.silent else max(wanted, LEAST_STRIKES)

    def worth(self, stroke: Stroke, hand: Noise | None = None) -> float:
        """The mean of what ``stroke``'s noisy strikes leave (the search's yardstick),
        struck with the reviewing level's noise or ``hand``'s: the same draws scaled
        (``Noise.perturb`` draws the five errors in one order), so two strokes of a shot
        still differ by what they are and whose hand, not by luck."""
        noise = self.level.noise if hand is None else hand
        rng = np.random.default_rng(self.seed)
        noisy = [
            attrs.evolve(stroke, action=noise.perturb(stroke.action, rng))
            for _ in range(self.count)
        ]
        shots = self.thinker.simulate(noisy)
        values = [_left(self.thinker, s, shot) for s, shot in zip(noisy, shots, strict=True)]
        return float(np.mean(values))


def _left(thinker: Thinker, stroke: Stroke, shot: SimulatedShot | None) -> float:
    """What the referee's ruling on a simulated stroke leaves the player, as the judge
    values it; nothing for a stroke the physics or the rules refuse."""
    if shot is None:
        return 0.0
    try:
        ruling = thinker.state.rule(shot_of(stroke, shot))
    except IllegalAction:
        return 0.0
    return thinker.judge.value(thinker.state.apply(ruling), thinker.me)


def _actual(step: Step, thinker: Thinker) -> float:
    """What the ruling recorded left the player, by the same yardstick."""
    return thinker.judge.value(step.before.apply(step.ruling), step.player)


def _chosen(step: Step, table: str) -> tuple[Stroke, Option, Noise | None]:
    """The stroke the player meant, what it was meant as, and the hand it is valued in
    (None: the reviewer's): a computer's plan (kept in the file, or in an older file
    decided again from its seed as ``poolsim verify --decisions`` does), in its own
    level's noise, of which the stroke it struck is one draw (so its luck averages to
    nothing at any level, and a weaker hand's strays count as its execution); a
    person's stroke as struck, in the reviewer's."""
    stroke = step.stroke
    assert stroke is not None and step.meant is not None
    computer = stroke.player
    if computer is None:
        return stroke, step.meant, None
    hand = level_named(computer.level).noise
    plan = computer.plan
    if plan is not None:  # kept in the file (version 5): nothing to decide again
        meant = Option(Intent(plan.intent), plan.target, plan.pocket)
        return attrs.evolve(stroke, action=plan.action), meant, hand
    request = ThinkRequest(step.before, table, computer.level, computer.entropy, computer.declined)
    move = think(request)
    if move.plan is None or move.stroke is None or move.stroke.action != stroke.action:
        return stroke, step.meant, None  # decided otherwise now (another version): as struck
    return attrs.evolve(move.plan, player=computer), _option_of(move), hand


def _decided(stroke: Stroke | None) -> tuple[object, ...] | None:
    """What a player decides of a stroke (as ``poolsim verify --decisions`` compares)."""
    if stroke is None:
        return None
    return (stroke.action, stroke.placement, stroke.call, stroke.declaration)


def _option_of(move: Move) -> Option:
    intent = Intent(move.kind.value) if move.kind.value in set(Intent) else None
    return Option(intent, move.target, move.pocket)


def _same_option(one: Option, other: Option) -> bool:
    """Two options the same: a break is a break, a push out a push out; a pot the same
    ball in the same pocket, a safety or a kick off the same ball."""
    if one.intent in (Intent.BREAK, Intent.PUSH_OUT):
        return one.intent is other.intent
    return one == other


def _played(meant: Option, stroke: Stroke, state: GameState) -> str:
    """The stroke played as a player says it: "pot the 4 in the foot-left corner with
    draw", as the hint says a move."""
    if meant.intent is None:
        return "a stroke"
    kind = Kind(meant.intent.value)
    move = Move(kind=kind, plan=stroke, target=meant.target, pocket=meant.pocket)
    return move_words(move, state)


def _intended(strikes: _Strikes, meant: Option, stroke: Stroke) -> float:
    """The option chosen played the reviewer's way: its best stroke for that option (the
    same ball and pocket, or a safety or kick off the same ball), by its hope, valued by
    the yardstick; the stroke played's own value when the reviewer has none for it."""
    thinker = strikes.thinker
    candidates = [c for c in _candidates(thinker, meant, stroke) if _matches(c, meant)]
    if not candidates:
        return strikes.worth(stroke)
    ranked = sorted(thinker.planned(candidates), key=lambda s: -s.hope)
    return strikes.worth(ranked[0].candidate.stroke)


def _candidates(thinker: Thinker, meant: Option, stroke: Stroke) -> Sequence[Candidate]:
    state, spec, search = thinker.state, thinker.spec, thinker.level.search
    place = stroke.placement
    cue = place if place is not None else state.balls[CUE]
    if meant.intent is Intent.POT:
        return pot_candidates(state, spec, thinker.judge, search, cue, place, POTS_LOOKED_AT)
    if meant.intent is Intent.SAFETY:
        return safety_candidates(state, spec, search, cue, place)
    if meant.intent is Intent.KICK:
        return kick_candidates(state, spec, cue, place)
    return ()


def _matches(candidate: Candidate, meant: Option) -> bool:
    if candidate.intent is not meant.intent:
        return False
    if meant.target is not None and candidate.target != meant.target:
        return False
    return meant.pocket is None or candidate.pocket == meant.pocket


def _marked(
    step: Step,
    best: float,
    chosen: float,
    actual: float,
    words: str,
    played: str,
    intended: float,
) -> StepReview:
    skill = max(0.0, best - chosen)
    execution = min(skill, max(0.0, intended - chosen))
    return StepReview(
        place=step.place,
        rack=step.rack,
        name=step.name,
        kind=step.kind.value,
        player=step.player.value,
        best=best,
        chosen=chosen,
        actual=actual,
        skill=skill,
        luck=actual - chosen,
        decision=skill - execution,
        execution=execution,
        tag=tag_of(skill),
        accuracy=accuracy(skill),
        best_option=words,
        played=played,
        person=step.computer is None and step.kind is StepKind.SHOT,
    )


def _missed(review: StepReview, step: Step, meant: Option, thinker: Thinker) -> bool:
    """A makeable pot missed: a pot, not made, whose execution cost more than its
    choice, that the reviewer makes at least :data:`MAKEABLE` of the time."""
    if (
        meant.intent is not Intent.POT
        or meant.target is None
        or review.execution <= review.decision
    ):
        return False
    if any(ball == meant.target for ball in step.ruling.pocketed):
        return False
    stroke = step.stroke
    assert stroke is not None
    place = stroke.placement
    cue = place if place is not None else step.before.balls[CUE]
    found = [
        c.pot
        for c in pot_candidates(
            step.before,
            thinker.spec,
            thinker.judge,
            thinker.level.search,
            cue,
            place,
            POTS_LOOKED_AT,
        )
        if c.pot is not None and _matches(c, meant)
    ]
    return (
        bool(found)
        and thinker.judge.pot_chance(found[0], cue, step.before.balls, own=True) >= MAKEABLE
    )


def _best_words(move: Move, thinker: Thinker, table: str) -> tuple[str, dict[str, Any]]:
    """The best option as a player says it, with what it leaves when struck as planned:
    "pot the 4 in the foot-left corner with a stun (centre ball); it leaves you the 5,
    0.6 m from the cue ball, near the foot-right corner"; and its stroke and tracking
    lines as that strike drew them (``best_stroke``, ``best_lines``: none without one)."""
    state = thinker.state
    plan = move.plan
    shot = None if plan is None else thinker.simulate([plan])[0]
    if plan is None or shot is None:
        return move_words(move, state), {}
    words = move_words(move, state, rails_before_hit(shot))  # a kick's rails, as struck
    drawn = {"best_stroke": stroke_json(plan), "best_lines": lines_json(shot)}
    after = state.apply(state.rule(shot_of(plan, shot)))
    leaves = leave_words(state, after, shot.after.get(CUE), table)
    return (f"{words}; {leaves}" if leaves else words), drawn


def _choice(step: Step, spec: TableSpec, level: Level) -> StepReview:
    """A choice (after a foul, a push out): the best choice's value against the one made,
    each on the state the referee says it leads to; its luck is 0."""
    state = step.before
    pending = state.pending
    assert pending is not None and step.choice is not None
    judge = Judge.of(spec, level)
    worth = {c: judge.value(state.choose(c), pending.chooser) for c in sorted(pending.choices)}
    best = max(worth, key=lambda c: worth[c])
    chosen = worth[step.choice]
    words = move_words(Move(kind=Kind.CHOICE, choice=best), state)
    played = move_words(Move(kind=Kind.CHOICE, choice=step.choice), state)
    return _marked(step, worth[best], chosen, chosen, words, played, chosen)
