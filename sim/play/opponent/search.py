"""The search: candidate strokes simulated through the simulator protocol, ruled on by
the referee, and valued by the position each leaves (:class:`Judge`).

In rounds, each one batch of simulations:

1. every candidate struck as planned (a pot's aim first corrected for throw: the object
   ball's line off the simulated contact tells how far the ghost-ball aim was off, and
   the aim is turned by that, once or twice), and ranked by its hope
   (:attr:`Scored.hope`: at level 5, a pot's value as planned weighed by its chance of
   dropping);
2. at level 5, the leading pots screened with a few noisy strikes each, and the next pot
   played out from where the ones that held up leave the cue ball;
3. the best few (``finalists``) struck again ``samples`` times with the level's noise:
   what a stroke is worth is the mean of what its noisy strikes leave, so a pot that only
   drops when struck perfectly loses to one that drops anyway;
4. the best of those is the move.

Simulations are cached by request within a decision, so a stroke met twice is simulated
once.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Sequence

import attrs
import numpy as np

from rules import CUE, BallId, GameState, IllegalAction, Phase, Player, Positions, Shot
from rules.facts import Pocketing
from rules.geometry import distance, wrapped_degrees
from sim.physics.facts import first_heading
from sim.physics.simulate import CueAction, SimulatedShot, aim_towards
from sim.physics.simulators.simulator import ShotFailed, ShotReady, ShotRequest, Simulator
from sim.physics.table import CushionRebound, TableSpec
from sim.play.game import Stroke, shot_of
from sim.play.geometry.cueclearance import clearance
from sim.play.geometry.pots import Pot
from sim.play.opponent.forecast import Forecast, Forecaster
from sim.play.opponent.judge import Judge, Scale
from sim.play.opponent.levels import CROWDED, Level
from sim.play.opponent.strokes import Candidate, Intent, follow_up_strokes

# Degrees: a pot's line this close to the pocket's needs no correcting (0.25 deg is 4 mm
# off line after a metre, a tenth of a pocket's margin).
AIMED_WITHIN = 0.25
CORRECTIONS = 2  # throw corrections at most per pot stroke
FORETOLD_TURNS = 3  # the same in the forecast, which costs next to nothing
POLL_PAUSE = 0.001  # seconds between polls of a simulator in another process
# What a foul costs beyond the position it leaves: the cue ball in hand is worth more
# to the incoming player than the pots the judge sees from a few spots (a safety from
# anywhere, a ball moved off a rail), and fouls count towards losing the rack. This and
# the other values here are a rack game's, taken to the judge's scale (Thinker.scale).
FOUL_COST = 0.2
# A bank (a pot stroke with no straight-line geometry, strokes.bank_candidates) is played
# only when it drops as planned and its noisy strikes make it this often: a bank that
# misses but leaves nothing is worth a safety to the judge, and played as a pot it
# would be a called pot missed (issue 12 asks at least 90% made).
BANK_MAKES = 0.8
# A bank's value as planned is held below the player's SAFETY_BAR (0.75,
# sim.play.opponent.player), so a bank never keeps the safeties and kicks from being
# looked at: it may still fail its noisy strikes.
BANK_PLANNED_CAP = 0.7
# What a missed pot leaves the player (Scored.hope): the other player at the table,
# usually with a shot. Level 5 was measured with 0.3; in its 200-rack duel of the sixth
# round (docs/OPPONENT-TUNING.md), it won 46 of the 102 racks in which it missed a called pot
# without a foul (0.45), so 0.3 errs on the side of the easy pot; at 0.45
# the breaker's first innings on racks 0 to 99 of seed 1 ran out 21 times, at 0.3 27
# (docs/OPPONENT-TUNING.md, the seventh round).
MISSED = 0.3
# The noisy strikes a finalist gets at the least, however crowded the table: two tell a
# stroke that drops only when struck perfectly from one that drops anyway often enough.
FEWEST_STRIKES = 2


@attrs.frozen
class Scored:
    """A candidate and what the search made of it: ``planned``, its value struck as
    planned; ``expected``, the mean over its noisy strikes (``planned`` when none);
    ``chance``, for a pot that drops as planned and a level that weighs it
    (``Search.weigh_chance``), how likely the player is to make it (1 otherwise)."""

    candidate: Candidate
    planned: float
    expected: float
    chance: float = 1.0
    # What playing out the next pot changed the value of a drop by (Thinker.deepened):
    # added to each noisy strike that drops the pot meant, as its landing is about the
    # planned one.
    deeper: float = 0.0
    # Its noisy strikes so far (Thinker.screened): what each left and whether it dropped
    # the pot meant; they count in the mean of any later strikes (Thinker.tested).
    strikes: tuple[tuple[float, bool], ...] = ()
    # The mean of its noisy strikes as the forecast foretold them (Thinker.screened with
    # a forecast): it ranks the pots played out next, and counts in nothing else.
    foreseen: float | None = None
    # What a miss leaves, on the judge's scale (MISSED taken there: Thinker.scale).
    missed: float = MISSED

    @property
    def hope(self) -> float:
        """What it is worth before it is struck with noise: its value as planned if the
        pot drops, :data:`MISSED` if not, by its ``chance``. A pot's value as planned is
        what its drop leaves, whatever its chance of dropping: a 40 % pot with a perfect
        leave came first, crowding the easy pots out of the strokes struck with noise."""
        return self.chance * self.planned + (1 - self.chance) * self.missed


class Thinker:
    """One decision's search: the state, the player's level, its random generator (the
    noise of its practice strikes), the simulator, and its counts."""

    def __init__(
        self,
        state: GameState,
        spec: TableSpec,
        level: Level,
        rng: np.random.Generator,
        simulator: Simulator,
    ) -> None:
        self.state = state
        self.spec = spec
        self.level = level
        self.rng = rng
        self.simulator = simulator
        self.me: Player = state.shooter
        self.judge = Judge.of(spec, level)
        # A rack game's values (the bars here and the player's SAFETY_BAR) on this
        # judge's scale for this decision: themselves in a rack game.
        self.scale: Scale = self.judge.scale(state)
        self.forecaster = (
            Forecaster(spec, self.judge.mouths, _rebound(spec)) if level.search.foresee else None
        )
        self.simulations = 0
        self.strike_events = 0  # ball events simulated for noisy strikes (affordable)
        self.forecasts = 0
        self.candidates = 0
        self.started = time.perf_counter()
        self._cache: dict[ShotRequest, SimulatedShot | None] = {}

    # -- simulating --------------------------------------------------------------------

    def start(self, stroke: Stroke) -> Positions:
        balls = self.state.balls
        return balls if stroke.placement is None else balls.moved({CUE: stroke.placement})

    def playable(self, stroke: Stroke, balls: Positions | None = None) -> Stroke:
        """``stroke`` as a player can strike it from ``balls`` (by default the state's,
        the cue ball placed as it says): the cue raised over any ball behind the cue ball
        (:mod:`sim.play.geometry.cueclearance`), as the table raises every stroke, a
        person's or the computer's. Simulated level, such a stroke passed through that
        ball; what the table then struck was another stroke than the one chosen (6 % of
        level 5's shots at 10-ball, 11 % at rotation, on seed 3000)."""
        at = self.start(stroke) if balls is None else balls
        cue = at.get(CUE)
        if cue is None:
            return stroke
        action = stroke.action
        raised = clearance(
            cue, action.aim, action.a, action.b, action.elevation, at, self.spec.ball_radius
        ).elevation
        if raised == action.elevation:
            return stroke
        return attrs.evolve(stroke, action=attrs.evolve(action, elevation=raised))

    def simulate(
        self, strokes: Sequence[Stroke], balls: Positions | None = None
    ) -> list[SimulatedShot | None]:
        """Each stroke simulated (None: the physics refused it), through the simulator:
        all asked for, then collected. From the state's balls (the cue ball placed as the
        stroke says), or from ``balls``."""
        table = self.spec.size.value
        requests = []
        for stroke in strokes:
            start = self.start(stroke) if balls is None else balls
            requests.append(ShotRequest.of(table, start, self.playable(stroke, start).action))
        jobs: dict[int, ShotRequest] = {}
        for request in dict.fromkeys(requests):
            if request not in self._cache:
                jobs[self.simulator.shoot(request)] = request
        self.simulations += len(jobs)
        while jobs:
            replies = self.simulator.poll()
            for reply in replies:
                if isinstance(reply, ShotFailed) and reply.job in jobs:
                    self._cache[jobs.pop(reply.job)] = None
                elif isinstance(reply, ShotReady) and reply.job in jobs:
                    result = self.simulator.result(reply.job)
                    self._cache[jobs.pop(reply.job)] = result.shot if result else None
            if jobs and not replies:
                time.sleep(POLL_PAUSE)
        return [self._cache[request] for request in requests]

    def value(self, stroke: Stroke, shot: SimulatedShot | None) -> float:
        """What the referee's ruling on the simulated shot leaves, for this player, less
        :data:`FOUL_COST` for a foul; a stroke the physics or the rules refuse is worth
        nothing."""
        if shot is None:
            return -1.0
        return self.ruled(shot_of(stroke, shot))

    def ruled(self, shot: Shot) -> float:
        """What the referee's ruling on ``shot`` leaves (see :meth:`value`)."""
        try:
            ruling = self.state.rule(shot)
        except IllegalAction:
            return -1.0
        worth = self.judge.value(self.state.apply(ruling), self.me)
        return worth - self.scale.span * FOUL_COST if ruling.foul else worth

    # -- the forecast ---------------------------------------------------------------------

    def foresee(self, candidate: Candidate, action: CueAction | None = None) -> Forecast:
        """A plain pot's stroke (or ``action`` in its place) foretold
        (:mod:`.forecast`)."""
        assert candidate.pot is not None
        action = action or candidate.stroke.action
        return self._foretold(self.start(candidate.stroke), candidate.pot, action)

    def _foretold(self, balls: Positions, pot: Pot, action: CueAction) -> Forecast:
        """``action`` from ``balls``, meant for ``pot``, foretold."""
        assert self.forecaster is not None
        self.forecasts += 1
        margin = self.judge.margin(pot, balls[pot.ball])
        return self.forecaster.foresee(balls, pot.ball, pot.mouth, action, margin)

    def foreseen_value(self, candidate: Candidate, forecast: Forecast) -> float:
        """What the referee's ruling on a foretold stroke leaves."""
        if not forecast.contact:
            return -1.0
        pot, stroke = candidate.pot, candidate.stroke
        assert pot is not None
        shot = Shot(
            facts=forecast.facts(pot.ball, pot.pocket),
            placement=stroke.placement,
            call=stroke.call,
            declaration=stroke.declaration,
            resting=forecast.resting_balls(self.start(stroke), pot.ball),
        )
        return self.ruled(shot)

    def _foreseen(self, candidates: Sequence[Candidate]) -> list[Candidate]:
        """``candidates`` with each plain pot's strokes foretold to the end (no kiss) cut
        to the search's ``foresee`` best as the forecast values them; the strokes
        foretold to meet another ball after the contact (which the forecast follows only
        roughly) cut to its ``crowded_unsure`` best on a crowded table, and kept
        elsewhere, as is every other kind of stroke."""
        search = self.level.search
        unsure = search.crowded_unsure if self.crowded else 0
        groups: dict[tuple[object, ...], list[tuple[float, int]]] = {}
        for index, candidate in enumerate(candidates):
            pot = candidate.pot
            if pot is not None and pot.first == pot.ball:
                forecast = self.foresee(candidate)
                if forecast.certain or unsure:
                    key = (forecast.certain, pot.ball, pot.pocket, candidate.stroke.placement)
                    value = self.foreseen_value(candidate, forecast)
                    groups.setdefault(key, []).append((value, index))
        dropped: set[int] = set()
        for (certain, *_pot), members in groups.items():
            ranked = sorted(members, key=lambda item: (-item[0], item[1]))
            kept = search.foresee if certain else unsure
            dropped.update(index for _value, index in ranked[kept:])
        return [c for index, c in enumerate(candidates) if index not in dropped]

    # -- round 1: as planned -------------------------------------------------------------

    def planned(self, candidates: Sequence[Candidate]) -> list[Scored]:
        """Every candidate struck as planned (pots corrected for throw first)."""
        self.candidates += len(candidates)
        if self.forecaster is not None:
            candidates = self._foreseen(self._foretold_turns(candidates))
        if self.level.search.refine:
            candidates = self._corrected(candidates)
        shots = self.simulate([c.stroke for c in candidates])
        scored = []
        weigh = self.level.search.weigh_chance
        for candidate, shot in zip(candidates, shots, strict=True):
            worth = self.value(candidate.stroke, shot)
            if _is_bank(candidate):
                cap = self.scale.at(BANK_PLANNED_CAP)
                worth = min(worth, cap) if _drops(candidate, shot) else -1.0
            chance = 1.0
            if weigh and candidate.pot is not None and _drops(candidate, shot):
                chance = self.judge.pot_chance(
                    candidate.pot, self.start(candidate.stroke)[CUE], self.state.balls, own=True
                )
            scored.append(Scored(candidate, worth, worth, chance, missed=self.missed))
        return scored

    def _corrected(self, candidates: Sequence[Candidate]) -> list[Candidate]:
        """Pots with their aim turned until the simulated object ball leaves the contact
        on the line to the pocket (a Newton step on the ghost-ball geometry's slope);
        combinations are played as the geometry says. Each pot's strokes of one tip
        start from the turn its middle pace needs (:meth:`_shared_turns`)."""
        # Turned in the forecast already, each stroke is checked in the physics (its first
        # simulation is the one it is valued by): no shared turn is needed.
        current = list(candidates) if self.forecaster else self._shared_turns(list(candidates))
        for _ in range(CORRECTIONS):
            pots = [i for i, c in enumerate(current) if c.pot and c.pot.first == c.pot.ball]
            shots = self.simulate([current[i].stroke for i in pots])
            changed = False
            for index, shot in zip(pots, shots, strict=True):
                turned = self._turn(current[index], _thrown(current[index], shot))
                if turned is not None:
                    current[index] = turned
                    changed = True
            if not changed:
                break
        return current

    def _shared_turns(self, candidates: list[Candidate]) -> list[Candidate]:
        """Each pot's strokes with one tip (the same ``a`` and ``b``) turned by what the
        one at the middle pace needs: the throw a tip gives changes little with the pace
        (measured over 41 such groups of the opening shots of seed 1: the turns of a
        group's five paces spread by 0.03 degrees at the median), so one simulation a
        tip does what one a stroke did, and the corrections that follow check each
        stroke and turn it further where it still needs it."""
        groups: dict[tuple[object, ...], list[int]] = {}
        for index, candidate in enumerate(candidates):
            pot, action = candidate.pot, candidate.stroke.action
            if pot is not None and pot.first == pot.ball:
                key = (pot.ball, pot.pocket, candidate.stroke.placement, action.a, action.b)
                groups.setdefault(key, []).append(index)
        middles = {}  # each group's stroke at its middle pace: the group
        for members in groups.values():
            if len(members) > 2:  # fewer paces: each simulated on its own costs no more
                by_pace = sorted(members, key=lambda i: candidates[i].stroke.action.speed)
                middles[by_pace[len(by_pace) // 2]] = members
        shots = self.simulate([candidates[i].stroke for i in middles])
        current = list(candidates)
        for (middle, members), shot in zip(middles.items(), shots, strict=True):
            turned = self._turn(candidates[middle], _thrown(candidates[middle], shot))
            if turned is None:
                continue
            turn = wrapped_degrees(turned.stroke.action.aim - candidates[middle].stroke.action.aim)
            for index in members:
                current[index] = _turned(candidates[index], turn)
        return current

    def _foretold_turns(self, candidates: Sequence[Candidate]) -> list[Candidate]:
        """Each plain pot's stroke with its aim turned for throw in the forecast (its
        object ball's line as pooltool's collision throws it), up to :data:`FORETOLD_TURNS`
        times, so the physics that checks it (:meth:`_corrected`) mostly finds it aimed."""
        current = list(candidates)
        for index, candidate in enumerate(current):
            pot = candidate.pot
            if pot is None or pot.first != pot.ball:
                continue
            for _ in range(FORETOLD_TURNS):
                forecast = self.foresee(candidate)
                turned = self._turn(candidate, forecast.heading if forecast.contact else None)
                if turned is None:
                    break
                candidate = turned
            current[index] = candidate
        return current

    def _turn(self, candidate: Candidate, heading: float | None) -> Candidate | None:
        """``candidate`` with its aim turned so its object ball, which left the contact
        on ``heading`` (None: it did not move), leaves it on the line to the pocket; None
        when it needs no turn or cannot be turned."""
        pot = candidate.pot
        if heading is None or pot is None:
            return None
        ball = self.state.balls[pot.ball]
        wanted = aim_towards(ball, pot.mouth)
        error = wrapped_degrees(heading - wanted)
        if abs(error) < AIMED_WITHIN:
            return None
        cue = self.start(candidate.stroke)[CUE]
        # The object ball's line turns against the aim, d1 / (2R cos cut) times as fast.
        slope = distance(cue, pot.ghost) / (
            self.spec.geometry.ball_diameter * max(math.cos(math.radians(pot.cut)), 0.2)
        )
        return _turned(candidate, error / slope)

    # -- round 2a: the leading pots screened with noise ------------------------------------

    def screened(self, scored: Sequence[Scored]) -> list[Scored]:
        """``scored`` with the search's ``screen`` best plain pots (on a crowded table its
        ``crowded_screen``, where set) by their hope each struck
        ``screen_samples`` times with the level's noise, valued by the mean and their
        strikes kept (they count again in :meth:`tested`). Values as planned saturate: in
        an open table dozens of strokes leave the next ball a near-certain pot, and which
        of them came first was the order they were generated in, while their noisy
        strikes hooked the player from none to half the time (measured on the positions
        before the hooks of level 5's first innings, racks of seed 1: of 24 strokes all
        planned at 0.984, the one played hooked 3 times in 16, others never). So the pots
        played out next (:meth:`deepened`) are the ones that hold up."""
        search = self.level.search
        count = search.crowded_screen if self.crowded and search.crowded_screen else search.screen
        if count == 0 or search.screen_samples == 0 or self.level.noise.silent:
            return list(scored)
        head = _plain_pots(scored)[:count]
        # Pots foretold to the end are struck in the forecast; the others in the physics.
        plans = [self.foresee(i.candidate) if self.forecaster else None for i in head]
        foreseen = [(i, plan) for i, plan in zip(head, plans, strict=True) if plan and plan.certain]
        simulated = [i for i, plan in zip(head, plans, strict=True) if not (plan and plan.certain)]
        struck = self._strikes(simulated, search.screen_samples)
        screened = [
            attrs.evolve(_mean(item, strikes), strikes=tuple(strikes))
            for item, strikes in zip(simulated, struck, strict=True)
        ] + [self._foreseen_strikes(i, search.screen_samples, plan) for i, plan in foreseen]
        chosen = {id(item) for item in head}
        return [s for s in scored if id(s) not in chosen] + screened

    def _foreseen_strikes(self, item: Scored, samples: int, planned: Forecast) -> Scored:
        """``item`` with the mean of ``samples`` noisy strikes as the forecast foretells
        them: a strike drops the pot if its object ball's line moves off the ``planned``
        one (the plan's forecast) by less than the pocket's margin (the plan, corrected
        for throw by the physics, drops it), and is valued by the referee's ruling on
        what it foretells."""
        candidate = item.candidate
        pot = candidate.pot
        assert pot is not None
        margin = self.judge.margin(pot, self.start(candidate.stroke)[pot.ball])
        values = []
        for _ in range(samples):
            action = self.level.noise.perturb(candidate.stroke.action, self.rng)
            forecast = self.foresee(candidate, action)
            if forecast.contact:
                moved = abs(forecast.line_error - planned.line_error)
                forecast = attrs.evolve(forecast, drops=moved <= margin and forecast.object_rail)
            values.append(self.foreseen_value(candidate, forecast))
        return attrs.evolve(item, foreseen=float(np.mean(values)))

    # -- round 2b: the next pot played out ------------------------------------------------

    def deepened(self, scored: Sequence[Scored]) -> list[Scored]:
        """``scored`` with the search's ``deepen`` best plain pots (those screened with
        noise by their mean, :meth:`screened`, then the rest by their hope) valued again
        by the next pot played out (and the other plain pots left out: their value, only
        judged, is no match for one played out). From where a pot leaves the cue ball,
        the next pot's strokes (:func:`strokes.follow_up_strokes`) are simulated, each
        landing valued with that ball gone as the judge values any position; the best is
        ``b``, and the pot is worth ``miss + p (b - miss)`` with p the next pot's chance:
        what the judge's formula says, with the run after the next pot seen rather than
        guessed. A pot that ends the player's turn, or the rack, or leaves one ball, is
        kept as it was."""
        count = self.level.search.deepen
        if count == 0:
            return list(scored)
        plain = _plain_pots(scored)
        others = [s for s in scored if s.candidate.pot is None]
        return others + [self._deepen(item) for item in plain[:count]]

    def _deepen(self, item: Scored) -> Scored:
        stroke = item.candidate.stroke
        shot = self.simulate([stroke])[0]
        if shot is None:
            return item
        try:
            after = self.state.apply(self.state.rule(shot_of(stroke, shot)))
        except IllegalAction:
            return item
        if (
            after.outcome() is not None
            or after.pending is not None
            or after.shooter is not self.me
            or after.ball_in_hand is not None
            or len(after.balls.object_balls) < 2
        ):
            return item
        pot, chance = self.judge.next_pot(after)
        if pot is None:
            return item
        strokes = follow_up_strokes(after.balls[CUE], pot)
        values = [self._foreseen_landing(after, pot, stroke) for stroke in strokes]
        # The strokes not foretold to the end are played out in the physics.
        unsure = [stroke for stroke, value in zip(strokes, values, strict=True) if value is None]
        shots = iter(self.simulate(unsure, after.balls))
        landings = [
            self._landing(after, pot.ball, stroke, next(shots)) if value is None else value
            for stroke, value in zip(strokes, values, strict=True)
        ]
        best = max(landings, default=-1.0)
        if best < 0:
            return item
        miss = self.scale.at(self.judge.miss)
        deep = miss + chance * (best - miss)
        return attrs.evolve(item, planned=deep, expected=deep, deeper=deep - item.planned)

    def _landing(
        self, state: GameState, target: BallId, stroke: Stroke, shot: SimulatedShot | None
    ) -> float:
        """What the next pot's simulated ``shot`` leaves the player, ``target`` taken as
        dropped (its aim is the ghost ball's, not corrected for throw; the landing is what
        counts), and any ball it pocketed gone; a scratch is worth nothing."""
        if shot is None:
            return -1.0
        resting = shot_of(stroke, shot).resting  # without the balls pocketed or off
        if resting is None or CUE not in resting:
            return -1.0
        return self.judge.value(attrs.evolve(state, balls=resting.without(target)), self.me)

    def _foreseen_landing(self, state: GameState, pot: Pot, stroke: Stroke) -> float | None:
        """:meth:`_landing` for the next pot's stroke as the forecast foretells it, or
        None without a forecast or for a stroke it does not foretell to the end."""
        if self.forecaster is None:
            return None
        forecast = self._foretold(state.balls, pot, stroke.action)
        if not forecast.certain:
            return None
        if not forecast.contact or forecast.scratch is not None:
            return -1.0
        resting = forecast.resting_balls(state.balls, pot.ball).without(pot.ball)
        return self.judge.value(attrs.evolve(state, balls=resting), self.me)

    # -- round 3: struck with the level's noise -------------------------------------------

    def tested(
        self,
        scored: Sequence[Scored],
        *,
        finalists: int | None = None,
        samples: int | None = None,
        confirm: int | None = None,
    ) -> list[Scored]:
        """The finalists, best first: the ``finalists`` best by their hope of the best
        stroke's intent (and the best stroke of each other intent, so a safety is
        weighed against the pots), each
        struck ``samples`` times with the level's noise and valued by the mean (both the
        level's search's unless given); then the search's ``confirm`` best of those
        struck ``confirm_samples`` times more (``confirm`` of them if given), valued by
        the mean of all their strikes (a screened stroke's earlier strikes with them).
        Without noise or samples, every candidate by its hope."""
        search = self.level.search
        if finalists is None:
            finalists = search.finalists
        if samples is None:
            samples = search.samples
        if confirm is None:
            confirm = search.confirm
        ranked = sorted(scored, key=lambda s: -s.hope)
        if samples == 0 or self.level.noise.silent or not ranked:
            return ranked
        # The leading kind of stroke (the pots, where there is one) fills the finalists;
        # every other kind sends only its best. Eight safeties struck eight times each
        # crown the luckiest: measured, level 5's fouls went from 2.8% of its shots to
        # 5%, most of them safeties and kicks that hit the wrong ball first.
        leading = ranked[0].candidate.intent
        chosen = [s for s in ranked if s.candidate.intent is leading][:finalists]
        for intent in Intent:
            best = next((s for s in ranked if s.candidate.intent is intent), None)
            if best is not None and best not in chosen and best.planned >= 0:
                chosen.append(best)
        struck = zip(chosen, self._strikes(chosen, samples), strict=True)
        tested = sorted(((_mean(item, s), s) for item, s in struck), key=lambda t: -t[0].expected)
        # The best few again: eight strikes judge a stroke to about a tenth either way,
        # and the best of several such means is the luckiest as often as the best (a
        # stroke chosen so ran into the position it was least sure of).
        again = [(item, s) for item, s in tested[:confirm] if item.expected >= 0]
        if not again or search.confirm_samples == 0:
            return [item for item, _ in tested]
        more = self._strikes([item for item, _ in again], search.confirm_samples)
        confirmed = [_mean(item, s + extra) for (item, s), extra in zip(again, more, strict=True)]
        rest = [item for item, _ in tested[len(again) :]]
        return sorted(confirmed + rest, key=lambda s: -s.expected)

    def _strikes(self, chosen: Sequence[Scored], samples: int) -> list[list[tuple[float, bool]]]:
        """Each candidate struck ``samples`` times with the level's noise: per strike, what
        it leaves and whether it dropped the pot meant."""
        samples = self.affordable(chosen, samples)
        noisy: list[Stroke] = []
        for item in chosen:
            for _ in range(samples):
                action = self.level.noise.perturb(item.candidate.stroke.action, self.rng)
                noisy.append(attrs.evolve(item.candidate.stroke, action=action))
        shots = self.simulate(noisy)
        self.strike_events += sum(_events(shot) for shot in shots)
        strikes = []
        for index, item in enumerate(chosen):
            part = slice(index * samples, (index + 1) * samples)
            strikes.append(
                [
                    (self.value(stroke, shot), _drops(item.candidate, shot))
                    for stroke, shot in zip(noisy[part], shots[part], strict=True)
                ]
            )
        return strikes

    def affordable(self, chosen: Sequence[Scored], samples: int) -> int:
        """The noisy strikes each of ``chosen`` gets: ``samples``, or on a crowded table
        (:data:`~sim.play.opponent.levels.CROWDED`) as many as the level's
        ``crowded_events`` left allow, at least :data:`FEWEST_STRIKES`. A strike is
        reckoned at its stroke's ball events as planned (a stroke into a pack breaks it
        up whatever the noise), so the count is the same wherever the decision is made."""
        budget = self.level.search.crowded_events
        # A break is struck once a rack, and its wait is set by its own samples.
        if not budget or not self.crowded or not chosen or self.state.phase is Phase.BREAK:
            return samples
        # Each as planned: simulated already (the cache's), or now, all in one batch.
        planned = self.simulate([item.candidate.stroke for item in chosen])
        each = sum(_events(shot) for shot in planned)
        left = budget - self.strike_events
        return max(FEWEST_STRIKES, min(samples, left // max(each, 1)))

    @property
    def crowded(self) -> bool:
        """Whether the table is crowded (:data:`~sim.play.opponent.levels.CROWDED`), where
        the search is narrower (``Search.crowded_events``, ``crowded_unsure``,
        ``crowded_screen``)."""
        return len(self.state.balls.object_balls) > CROWDED

    @property
    def missed(self) -> float:
        """What a missed pot leaves the player (:data:`MISSED`), on the judge's scale."""
        return self.scale.at(MISSED)

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started


def _events(shot: SimulatedShot | None) -> int:
    """The ball events pooltool simulated for ``shot`` (0: the physics refused it)."""
    return 0 if shot is None else len(shot.system.events)


@functools.cache
def _rebound(spec: TableSpec) -> CushionRebound:
    """The table's cushions, tabulated once a process (a few hundred of pooltool's
    collisions)."""
    return CushionRebound(spec)


def _plain_pots(scored: Sequence[Scored]) -> list[Scored]:
    """The plain pots (banks and other strokes left out) that the physics and the rules
    allow, best first: those screened with noise by their mean, then the rest by their
    hope (before the screen, all by their hope)."""
    plain = (s for s in scored if s.candidate.pot is not None and s.planned >= 0)
    return sorted(plain, key=_screened_first)


def _screened_first(item: Scored) -> tuple[int, float]:
    """Struck with noise first, by the mean of their strikes (in the physics or in the
    forecast), then the rest by their hope."""
    if item.strikes:
        return (0, -item.expected)
    if item.foreseen is not None:
        return (0, -item.foreseen)
    return (1, -item.hope)


def _mean(item: Scored, more: Sequence[tuple[float, bool]]) -> Scored:
    """``item`` valued by the mean of its noisy strikes, those it has and ``more``
    (those that drop the pot meant corrected by its ``deeper``); a bank that drops in
    fewer than :data:`BANK_MAKES` of them is worth nothing."""
    strikes = [*item.strikes, *more]
    expected = float(np.mean([worth + (item.deeper if made else 0.0) for worth, made in strikes]))
    if _is_bank(item.candidate) and sum(made for _, made in strikes) < BANK_MAKES * len(strikes):
        expected = -1.0
    return attrs.evolve(item, expected=expected)


def _turned(candidate: Candidate, turn: float) -> Candidate:
    """``candidate`` with its stroke aimed ``turn`` degrees further round."""
    action = candidate.stroke.action
    aimed = attrs.evolve(action, aim=(action.aim + turn) % 360.0)
    return attrs.evolve(candidate, stroke=attrs.evolve(candidate.stroke, action=aimed))


def _is_bank(candidate: Candidate) -> bool:
    """A pot stroke without a straight-line :class:`Pot`: a bank."""
    return candidate.intent is Intent.POT and candidate.pot is None


def _drops(candidate: Candidate, shot: SimulatedShot | None) -> bool:
    """The simulated shot drops the ball meant in the pocket meant."""
    return shot is not None and any(
        isinstance(fact, Pocketing)
        and (fact.ball, fact.pocket) == (candidate.target, candidate.pocket)
        for fact in shot.facts
    )


def _thrown(candidate: Candidate, shot: SimulatedShot | None) -> float | None:
    """The line a pot's object ball left the contact on in ``shot`` (degrees), if it moved."""
    pot = candidate.pot
    if shot is None or pot is None:
        return None
    return first_heading(shot.system, pot.ball)
