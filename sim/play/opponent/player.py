"""The computer player: every decision the rules give a player, for a :class:`GameState`.

:func:`decide` answers the state's question with a :class:`Move`:

- a choice waiting (after a foul, after a push out): the choice whose outcome, as the
  referee says it (``GameState.choose``), is worth most to the chooser;
- a long stalemate (no ball down for a long while, :func:`sim.play.stalemate.computer_offers`;
  not again soon after an offer declined, ``declined``): it offers one;
- the break: the cue ball in the kitchen, a full hit on the apex ball at the level's
  break speed; at level 5, the game's practised break (measured over many racks,
  ``GameState.practised_break``) or, for a game without one, the best of several
  breaks struck with its noise on the rack in front of it; at every level, a game's
  safe break (14.1's opening break: ``PractisedBreak.safe``);
- any other shot: where to put the cue ball in hand (the best spots behind the ball on),
  then pots with position (each pocket, pace and spin simulated, valued by the next
  shot it leaves), and when no pot is good, safeties, kicks and, right after the
  break, push outs; the best few struck again with the level's noise, and the one that
  holds up best is played, struck with that noise.

Everything random comes from the generator it is given: the same state, level and seed
make the same move. It asks the state what is legal (``legal_choices``,
``legal_declarations``, ``calls_allowed``, ``placement_problem`` through the picker's
``placeable``) and the referee what a simulated stroke comes to; it never re-derives a
rule. :func:`think` does the same from a :class:`ThinkRequest`, which crosses to another
process (the physics worker) as it is.
"""

from __future__ import annotations

from enum import StrEnum

import attrs
import numpy as np

from rules import CUE, GAMES, BallId, Choice, Declaration, GameState, Phase, PocketId
from rules.geometry import Point
from sim.physics.simulate import CueAction, aim_towards
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.physics.simulators.simulator import Simulator
from sim.physics.table import TableSpec, table_spec
from sim.play.game import ComputerPlayer, Plan, Stroke
from sim.play.opponent.judge import Judge
from sim.play.opponent.levels import CROWDED, Level, Noise, level_named
from sim.play.opponent.search import Scored, Thinker
from sim.play.opponent.strokes import (
    Candidate,
    Intent,
    any_spot,
    break_candidates,
    break_stroke,
    kick_candidates,
    pot_candidates,
    practised_break,
    practised_breaks,
    push_candidates,
    safety_candidates,
    spots,
    two_rail_kick_candidates,
)
from sim.play.stalemate import computer_offers

# Below this hope (the search's Scored.hope: the value as planned, at level 5 weighed by
# the pot's chance of dropping), the best pot is weighed against safeties, kicks and push
# outs (above it, a pot that holds its position is played without looking further).
# A rack game's value, taken to the judge's scale for a game of points (Thinker.scale).
SAFETY_BAR = 0.75
# The rack a level's ``break_samples`` are meant for: a bigger rack (rotation's and
# 8-ball's fifteen balls) gets proportionally fewer noisy strikes of each break.
BREAK_RACK = 10


class Kind(StrEnum):
    """What a move is: a stroke of some intent, a choice, or a stalemate offered."""

    BREAK = Intent.BREAK.value
    POT = Intent.POT.value
    SAFETY = Intent.SAFETY.value
    KICK = Intent.KICK.value
    PUSH_OUT = Intent.PUSH_OUT.value
    CHOICE = "choice"
    STALEMATE = "stalemate"


@attrs.frozen(kw_only=True)
class Move:
    """The player's answer. ``stroke``: as struck, with the level's noise; ``plan``: as
    meant, without it (what a hint shows). ``target``/``pocket``: the pot meant (for a
    call-shot game, the call). ``expected``: what the search expected it to be worth
    (about the chance of winning the rack, or in a game of points the game, 0..1).
    ``candidates``, ``simulations``, ``seconds``: how hard it thought."""

    kind: Kind
    stroke: Stroke | None = None
    plan: Stroke | None = None
    choice: Choice | None = None
    target: BallId | None = None
    pocket: PocketId | None = None
    expected: float = 0.0
    candidates: int = 0
    simulations: int = 0
    seconds: float = 0.0

    def played_by(self, computer: ComputerPlayer) -> Stroke:
        """The stroke as struck, recorded as ``computer``'s with what it meant (its
        plan's action, the intent, the pot meant): a game file keeps both, so a review
        reads the plan rather than deciding it again."""
        assert self.stroke is not None and self.plan is not None, "a move that strikes"
        meant = Plan(self.plan.action, self.kind.value, self.target, self.pocket)
        return attrs.evolve(self.stroke, player=attrs.evolve(computer, plan=meant))


@attrs.frozen
class ThinkRequest:
    """A decision to make, as data that crosses to another process: the state, the
    table's name, the level's name and the seed of its generator (any whole numbers);
    ``declined``: the quiet innings at which its stalemate offer was declined in this
    quiet stretch (None: none was; :func:`sim.play.stalemate.last_declined`)."""

    state: GameState
    table: str
    level: str
    entropy: tuple[int, ...]
    declined: int | None = None


def think(request: ThinkRequest, simulator: Simulator | None = None) -> Move:
    """:func:`decide` for a request (in this process's physics unless told otherwise)."""
    rng = np.random.default_rng(np.random.SeedSequence(list(request.entropy)))
    return decide(
        request.state,
        table_spec(request.table),
        level_named(request.level),
        rng,
        simulator,
        declined=request.declined,
    )


def decide(
    state: GameState,
    spec: TableSpec,
    level: Level,
    rng: np.random.Generator,
    simulator: Simulator | None = None,
    *,
    declined: int | None = None,
) -> Move:
    """The move of the player whose turn ``state`` is waiting for (see the module);
    ``declined``: where its last stalemate offer was declined, if it was. The stalemate
    is weighed before the generator is used, so the shot played after an offer declined
    is the one the same seed makes with no offer at all."""
    if state.is_over:
        raise ValueError("the rack is over: there is nothing to decide")
    if state.pending is not None:
        return _choose(state, spec, level)
    if computer_offers(state, declined):
        return Move(kind=Kind.STALEMATE)
    thinker = Thinker(state, spec, level, rng, simulator or InProcessSimulator())
    if state.phase is Phase.BREAK:
        return _break(state, spec, level, rng, thinker)
    return _shoot(state, spec, level, rng, thinker)


def _choose(state: GameState, spec: TableSpec, level: Level) -> Move:
    pending = state.pending
    assert pending is not None
    judge = Judge.of(spec, level)
    worth = {
        choice: judge.value(state.choose(choice), pending.chooser)
        for choice in sorted(pending.choices)
    }
    choice = max(worth, key=lambda c: worth[c])  # the first of equals: sorted, so fixed
    return Move(kind=Kind.CHOICE, choice=choice, expected=worth[choice])


def _break(
    state: GameState, spec: TableSpec, level: Level, rng: np.random.Generator, thinker: Thinker
) -> Move:
    side = 1.0 if rng.random() < 0.5 else -1.0
    plays = plays_practised_break(level) or plays_safe_break(state)
    practised = practised_break(state, spec, side) if plays else None
    if practised is not None:  # measured over many racks: no practice on this one
        assert state.practised_break is not None
        value = state.practised_break.value
        return _struck(practised, value, level.breaking_noise, rng, thinker)
    # A 15-ball rack simulates about four times as long as a 10-ball one (60 ms against
    # 220 ms a break): six strikes of each break there, not ten, keep the wait near 8 s.
    samples = level.search.break_samples * BREAK_RACK // max(BREAK_RACK, len(state.balls))
    if samples and practises(level):
        unplayed = [Scored(c, 0.0, 0.0) for c in break_candidates(state, spec, side)]
        best = thinker.tested(unplayed, finalists=len(unplayed), samples=samples, confirm=0)[0]
        return _struck(best.candidate, best.expected, level.breaking_noise, rng, thinker)
    plan = break_stroke(state, spec, level.search.break_speed, side)
    candidate = Candidate(Intent.BREAK, plan, state.balls_on[0])
    return _struck(candidate, 0.5, level.breaking_noise, rng, thinker)


def practises(level: Level) -> bool:
    """Whether ``level`` practises its break (``Search.break_samples``), so that it
    plays a game's practised break (``GameState.practised_break``) where there is one:
    without noise there is nothing to practise against."""
    return level.search.break_samples > 0 and not level.noise.silent


def plays_practised_break(level: Level) -> bool:
    """Whether ``level`` plays a game's practised break where there is one: a level that
    practises (:func:`practises`), and the perfect player, which strikes it with its
    ``Level.break_noise`` (level 5's) as it strikes every break."""
    return practises(level) or level.noise.silent


def plays_safe_break(state: GameState) -> bool:
    """Whether the game's practised break is a safe break (``PractisedBreak.safe``,
    14.1's opening break), which every level plays: the full hit on the apex that a level
    below practice plays elsewhere would open the rack for the other player."""
    practised = state.practised_break
    return practised is not None and practised.safe


def settings(level: Level, game: str | None = None) -> str:
    """Everything that decides how ``level`` plays, as text (a duel's racks name it, so
    racks of a level since changed are not counted with new ones): its noise and search,
    and the practised breaks if it plays them: ``game``'s alone when given, so that a
    break found for one game leaves the racks of another counted."""
    text = repr(level)
    breaks = {
        name: found
        for name, found in practised_breaks().items()
        if game in (None, name) and (found.safe or plays_practised_break(level))
    }
    if breaks:
        text += f", practised breaks {breaks!r}"
    if level.break_noise is not None:  # nor this (Level.break_noise)
        text += f", breaking with noise {level.break_noise!r}"
    if level.search.foresee:  # not in the repr (see Search.foresee)
        text += f", foreseeing {level.search.foresee} strokes a pot"
    points = game is None or GAMES[game].points_race
    if level.search.rival_own_noise and points:  # nor this (Search.rival_own_noise)
        text += ", the other player's chances judged at its own noise in a game of points"
    crowded = game is None or len(GAMES[game].object_balls) > CROWDED
    if level.search.crowded_events and crowded:  # nor this (Search.crowded_events)
        text += (
            f", at most {level.search.crowded_events} ball events of noisy strikes a"
            f" decision with more than {CROWDED} object balls on the table"
        )
    if level.search.crowded_unsure and crowded:  # nor these (Search.crowded_unsure)
        text += f", {level.search.crowded_unsure} strokes a pot that meet another ball there"
    if level.search.crowded_screen and crowded:
        text += f", {level.search.crowded_screen} pots screened there"
    return text


def _shoot(
    state: GameState, spec: TableSpec, level: Level, rng: np.random.Generator, thinker: Thinker
) -> Move:
    search = level.search
    places: list[Point | None] = [None]
    if state.ball_in_hand is not None:
        places = list(spots(state, spec, thinker.judge, search.spots)) or [
            next(any_spot(state, spec))
        ]
    candidates: list[Candidate] = []
    for place in places:
        cue = place if place is not None else state.balls[CUE]
        # A spot in hand was chosen for one pot: only that pot is tried from it.
        count = search.pots if place is None else 1
        candidates += pot_candidates(state, spec, thinker.judge, search, cue, place, count)
    scored = thinker.deepened(thinker.screened(thinker.planned(candidates)))
    best = max((s.hope for s in scored), default=-1.0)
    if best < thinker.scale.at(SAFETY_BAR):
        place = places[0]
        cue = place if place is not None else state.balls[CUE]
        others = safety_candidates(state, spec, search, cue, place)
        if not others or search.safeties:
            others += kick_candidates(state, spec, cue, place)
        others += push_candidates(state, cue, place)
        if not others:
            # Every path in straight lines is blocked: the kicks whose legs cross a ball
            # are simulated too, and the two-rail kicks, beside a firm hit straight at
            # the ball on, and the physics says which (if any) reaches it first. The
            # straight hit alone fouled whenever the ball in the way was not the ball
            # on; with the one-rail kicks too, 22 of 26 such positions of tuning seed 1
            # fouled as planned, with the two-rail kicks 9 (docs/OPPONENT-TUNING.md,
            # the twelfth round).
            others = [
                *kick_candidates(state, spec, cue, place, clear=False),
                *two_rail_kick_candidates(state, spec, cue, place),
                _straight_at_it(state, cue, place),
            ]
        scored += thinker.planned(others)
    final = thinker.tested(scored)
    chosen = final[0]
    return _struck(chosen.candidate, chosen.expected, level.noise, rng, thinker)


def _straight_at_it(state: GameState, cue: Point, place: Point | None) -> Candidate:
    """The last resort, with every path blocked: a firm hit straight at the ball on (in
    8-ball, the first of them)."""
    assert state.balls_on, "a rack in play has a ball on"
    target = state.balls_on[0]
    declared = Declaration.SAFETY if Declaration.SAFETY in state.legal_declarations else None
    action = CueAction(speed=3.0, aim=aim_towards(cue, state.balls[target]))
    return Candidate(
        Intent.SAFETY, Stroke(action=action, placement=place, declaration=declared), target
    )


def _struck(
    candidate: Candidate,
    expected: float,
    noise: Noise,
    rng: np.random.Generator,
    thinker: Thinker,
) -> Move:
    """``candidate`` struck with ``noise`` (the level's, or at the break its break's)."""
    plan = thinker.playable(candidate.stroke)
    struck = thinker.playable(attrs.evolve(plan, action=noise.perturb(plan.action, rng)))
    return Move(
        kind=Kind(candidate.intent.value),
        stroke=struck,
        plan=plan,
        target=candidate.target,
        pocket=candidate.pocket,
        expected=expected,
        candidates=thinker.candidates,
        simulations=thinker.simulations,
        seconds=thinker.seconds,
    )
