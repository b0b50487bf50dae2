"""Deterministic re-simulation: does each recorded shot come out the same again?

Every shot (and lag shot) of a game is simulated again from its recorded inputs (the
balls at the stroke and the cue action) and compared with what was recorded: the facts
(every event and its time), where the balls came to rest, the referee's ruling on the
new facts, and the stored pooltool system itself (what a replay shows), to the last bit.
A shot that differs is reported with the largest difference; the check goes on from the
recorded shot, so each shot is judged on its own inputs. Every line of the game is
checked: the main line, then each branch (its own shots, those it shares with the line it
branches off checked once, there), each shot ruled on the match as it stood before it.

A shot is recorded with the arithmetic it was simulated with (:class:`sim.numerics.
Arithmetic`; older files record none). Simulated here with another, it differs in the
last bits and then, pool being chaotic, further with every collision, so such a shot is
judged event by event instead (:func:`sim.physics.eventcheck.check_events`): each event
must follow from the stored state before it to within one event's rounding. An edit by
hand does not (a ball's path moved, an outcome changed); a shot recorded with this
machine's arithmetic that differs is never excused.

:func:`verify_decisions` checks the computer's shots further: each is decided again from
the state before it, at its recorded level and seed (and a stalemate offer of its
declined, as it knew), and must come out the same stroke (aim, speed, elevation, tip,
the cue ball's placement, the call and the declaration); its choices the same choice,
and its lag strokes (:func:`sim.play.opponent.lag.lag_stroke`) the same stroke.

:func:`verify_time_fouls` rules each time foul (the shot clock run out with no stroke,
GEN-17) again from the state before it: there is nothing to simulate, only the referee.
"""

from __future__ import annotations

import math

import attrs

from rules import Player, Shot
from rules.positions import Positions
from sim.numerics import Arithmetic, here
from sim.physics.eventcheck import EventCheck, check_events
from sim.physics.simulate import SimulatedShot, simulate_shot
from sim.physics.systemcodec import system_to_bytes
from sim.play.game import (
    ChoiceRecord,
    ComputerPlayer,
    Game,
    LagRecord,
    Node,
    ShotRecord,
    Stroke,
    TimeFoulRecord,
)
from sim.play.opponent.lag import lag_stroke
from sim.play.opponent.player import ThinkRequest, think
from sim.store.gamefile import ruling_to_json, same_decision


@attrs.frozen
class ShotCheck:
    """The verdict on one re-simulated shot."""

    label: str  # "rack 1, shot 3 (A)" or "lag (B)"
    facts_equal: bool
    resting_equal: bool
    ruling_equal: bool
    system_equal: bool  # the stored system is the one simulated again, to the last bit
    max_position_difference: float  # metres, over the balls at rest in both
    max_time_difference: float  # seconds, over facts matched in order
    arithmetic: Arithmetic | None  # the stored shot's (None: its file did not record it)
    # For a shot that differs and was simulated with another arithmetic: its events
    # checked one by one (None otherwise).
    events: EventCheck | None = None

    @property
    def identical(self) -> bool:
        return self.facts_equal and self.resting_equal and self.ruling_equal and self.system_equal

    @property
    def another_arithmetic(self) -> bool:
        """Recorded with an arithmetic other than this process's (or with none)."""
        return self.arithmetic != here()

    @property
    def consistent(self) -> bool:
        """Identical, or from another arithmetic and every event following from the one
        before it: what a shot nobody edited is."""
        return self.identical or (self.events is not None and self.events.consistent)


def _shot_check(
    label: str, old: SimulatedShot, new: SimulatedShot, ruling_equal: bool = True
) -> ShotCheck:
    """The verdict on ``old`` simulated again as ``new``, judged event by event where it
    differs and was simulated with another arithmetic."""
    position, time = _differences(old, new)
    check = ShotCheck(
        label=label,
        facts_equal=new.facts == old.facts,
        resting_equal=new.after == old.after,
        ruling_equal=ruling_equal,
        system_equal=_same_system(old, new),
        max_position_difference=position,
        max_time_difference=time,
        arithmetic=old.arithmetic,
    )
    if check.identical or not check.another_arithmetic:
        return check
    return attrs.evolve(check, events=check_events(old.system))


def _same_system(old: SimulatedShot, new: SimulatedShot) -> bool:
    """The system simulated again packs to the bytes the stored one packs to (not the
    file's bytes themselves: an older poolsim wrote the first event's time as 0, not 0.0,
    which reading makes a float)."""
    return system_to_bytes(new.system) == system_to_bytes(old.system)


def _differences(old: SimulatedShot, new: SimulatedShot) -> tuple[float, float]:
    common = old.after.keys() & new.after.keys()
    position = max(
        (
            max(abs(old.after[b][0] - new.after[b][0]), abs(old.after[b][1] - new.after[b][1]))
            for b in common
        ),
        default=0.0,
    )
    if old.after.keys() != new.after.keys():
        position = float("inf")
    times = [abs((a.t or 0.0) - (b.t or 0.0)) for a, b in zip(old.facts, new.facts, strict=False)]
    if len(old.facts) != len(new.facts):
        times.append(float("inf"))
    return position, max(times, default=0.0)


def verify_game(game: Game) -> list[ShotCheck]:
    """Re-simulate every shot of every line of a loaded game; one check per shot, the
    main line's in order, then each branch's."""
    spec = game.setup.spec
    checks = []
    for line in game.lines():
        branch = "" if line.number == 0 else f"branch {line.number}, "
        for node in line.nodes:
            record = node.record
            if isinstance(record, LagRecord):
                for player, start, action, old in zip(
                    "AB", record.starts, record.strokes, record.simulated, strict=True
                ):
                    new = simulate_shot(spec, {"cue": start}, action)
                    checks.append(_shot_check(f"{branch}lag ({player})", old, new))
            if isinstance(record, ShotRecord):
                assert node.parent is not None
                state = node.parent.match.rack  # the match as it stood before the shot
                assert state is not None
                new = simulate_shot(spec, record.start, record.stroke.action)
                shot = Shot(
                    facts=new.facts,
                    placement=record.stroke.placement,
                    call=record.stroke.call,
                    declaration=record.stroke.declaration,
                    resting=Positions(new.resting),
                    clock_s=record.stroke.clock_s,  # a late stroke's foul (GEN-17)
                    extension=record.stroke.extension,
                )
                try:
                    ruling_equal = same_decision(ruling_to_json(record.ruling), state.rule(shot))
                except ValueError:
                    ruling_equal = False
                label = (
                    f"{branch}rack {record.rack}, shot {_number_in_rack(node)} ({record.shooter})"
                )
                checks.append(_shot_check(label, record.simulated, new, ruling_equal))
    return checks


@attrs.frozen
class TimeFoulCheck:
    """A time foul ruled again: ``same`` when the referee decides what was recorded."""

    label: str  # "rack 1, time foul (A)"
    same: bool


def verify_time_fouls(game: Game) -> list[TimeFoulCheck]:
    """Rule every time foul of every line again, from the match as it stood before it."""
    checks = []
    for line in game.lines():
        branch = "" if line.number == 0 else f"branch {line.number}, "
        for node in line.nodes:
            record = node.record
            if not isinstance(record, TimeFoulRecord):
                continue
            assert node.parent is not None
            state = node.parent.match.rack
            assert state is not None
            ruling = state.rule_time_foul(extension=record.extension)
            same = same_decision(ruling_to_json(record.ruling), ruling)
            label = f"{branch}rack {record.rack}, time foul ({record.shooter})"
            checks.append(TimeFoulCheck(label=label, same=same))
    return checks


@attrs.frozen
class DecisionCheck:
    """The verdict on one computer's shot decided again: ``same`` when the stroke is the
    one recorded; ``level``: the level it was played at."""

    label: str
    level: str
    same: bool


def verify_decisions(game: Game) -> list[DecisionCheck]:
    """Decide every computer's shot of every line again (from the state before it, its
    level and seed), in the order :func:`verify_game` checks them."""
    checks = []
    for line in game.lines():
        branch = "" if line.number == 0 else f"branch {line.number}, "
        for node in line.nodes:
            record = node.record
            if isinstance(record, ChoiceRecord) and record.by is not None:
                checks.append(_choice_again(game, node, record, record.by, branch))
                continue
            if isinstance(record, LagRecord):
                checks += _lag_again(record, branch)
                continue
            if not isinstance(record, ShotRecord) or record.stroke.player is None:
                continue
            assert node.parent is not None
            state = node.parent.match.rack
            assert state is not None
            player = record.stroke.player
            table = game.setup.table.value
            request = ThinkRequest(
                state, table, player.level, player.entropy, declined=player.declined
            )
            move = think(request)
            label = f"{branch}rack {record.rack}, shot {_number_in_rack(node)} ({record.shooter})"
            same = move.stroke is not None and _as_decided(move.stroke) == _as_decided(
                record.stroke
            )
            if same and player.plan is not None:  # what it meant, recorded: the same too
                same = move.played_by(player).player == player
            checks.append(DecisionCheck(label=label, level=player.level, same=same))
    return checks


def _choice_again(
    game: Game, node: Node, record: ChoiceRecord, by: ComputerPlayer, branch: str
) -> DecisionCheck:
    """A computer's choice after a foul or a push out, decided again from the state
    that offered it, its level and seed."""
    assert node.parent is not None
    state = node.parent.match.rack
    assert state is not None
    move = think(ThinkRequest(state, game.setup.table.value, by.level, by.entropy))
    label = f"{branch}rack {record.rack}, {record.player}'s choice ({record.choice.value})"
    return DecisionCheck(label=label, level=by.level, same=move.choice == record.choice)


def _lag_again(record: LagRecord, branch: str) -> list[DecisionCheck]:
    """The computer's lag strokes made again from their seat, level and seed."""
    return [
        DecisionCheck(
            label=f"{branch}lag ({seat})",
            level=computer.level,
            same=lag_stroke(seat, computer) == action,
        )
        for seat, computer, action in zip(Player, record.players, record.strokes, strict=True)
        if computer is not None
    ]


def _as_decided(stroke: Stroke) -> tuple[object, ...]:
    """What the player decides of a stroke (not the clock, nor who played it)."""
    return (stroke.action, stroke.placement, stroke.call, stroke.declaration)


def _number_in_rack(node: Node) -> int:
    """A shot's number in its rack, counted along its own line from the rack's start."""
    assert isinstance(node.record, ShotRecord)
    rack, number = node.record.rack, 0
    step: Node | None = node
    while step is not None and getattr(step.record, "rack", None) == rack:
        number += isinstance(step.record, ShotRecord)
        step = step.parent
    return number


def shot_verdict(check: ShotCheck) -> str:
    """What verify says of one shot: 'identical', 'from another arithmetic: ...' or
    'DIFFERS in ...'."""
    if check.identical:
        return "identical"
    events = check.events
    if events is not None and events.consistent:
        return (
            f"from another arithmetic: each of its {events.events} events follows from the "
            f"one before it within rounding (largest difference {events.largest_difference:.2g});"
            f" simulated again here, {_how_it_differs(check)}"
        )
    parts = [
        name
        for name, equal in (
            ("facts", check.facts_equal),
            ("resting positions", check.resting_equal),
            ("ruling", check.ruling_equal),
            ("stored system", check.system_equal),
        )
        if not equal
    ]
    verdict = (
        f"DIFFERS in {', '.join(parts)} (max position difference "
        f"{check.max_position_difference:.3g} m, max time difference "
        f"{check.max_time_difference:.3g} s)"
    )
    if events is not None:
        verdict += f"; from another arithmetic, but {events.problem}"
    return verdict


def _how_it_differs(check: ShotCheck) -> str:
    """How a shot from another arithmetic comes out here, in words."""
    position, time = check.max_position_difference, check.max_time_difference
    if position == time == 0:
        return "only the last bits of its stored states differ"
    if math.isinf(position) or math.isinf(time):
        return "it comes out as other events (pool magnifies the last bits)"
    return f"it ends up to {position:.2g} m and {time:.2g} s apart"


def arithmetic_note(checks: list[ShotCheck]) -> str | None:
    """Which arithmetic the shots that are not bit-identical were simulated with, and
    this computer's; None when every shot is bit-identical."""
    others = [check for check in checks if not check.identical]
    if not others:
        return None
    theirs = sorted(
        {
            "an arithmetic the file does not record (saved before poolsim recorded it)"
            if check.arithmetic is None
            else check.arithmetic.words()
            for check in others
        }
    )
    return (
        f"{len(others)} shot{'s' if len(others) > 1 else ''} simulated with "
        f"{' and '.join(theirs)}; this computer's: {here().words()}"
    )


def game_verdict(checks: list[ShotCheck]) -> str:
    """What verify says of a game whose every shot is consistent: 'all bit-identical',
    or how many are from another arithmetic, each event of theirs consistent."""
    others = [check for check in checks if not check.identical]
    if not others:
        return "all bit-identical"
    largest = max(check.events.largest_difference for check in others if check.events)
    return (
        f"{len(checks) - len(others)} bit-identical, {len(others)} from another arithmetic "
        f"with every event consistent with the physics (largest difference {largest:.2g})"
    )


def lines_in_words(game: Game) -> str:
    """How many lines a game has, as verify says it: 'the main line and 2 branches'."""
    branches = len(game.lines()) - 1
    if branches == 0:
        return "the main line, no branches"
    return f"the main line and {branches} branch{'es' if branches > 1 else ''}"
