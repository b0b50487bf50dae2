"""Duels: two computer players (:mod:`sim.play.opponent`) play racks against each other,
and the figures of each side.

Each rack is a match of its own, one rack long, with a seed derived from the duel's
seed and the rack's number (:func:`rack_seed`), and A breaks the even racks (0, 2, ...)
and B the odd ones; every decision's generator is seeded from the rack's seed and the
step. So a rack plays the same wherever and whenever it is played, and a duel comes out
the same on any number of processes (:func:`run_duel`).

A rack re-racked (a stalemate, GEN-16) is played again, up to ``max_reracks`` times
(then it counts as won by nobody); a rack that goes on past ``max_steps`` shots and
choices is declared a stalemate.

Each rack carries the fingerprint of the code that played it (:func:`decision_code`), and
the figures count the racks each version played (``"code"``): a duel played a part at a
time across commits says so, rather than mixing two players' racks unseen.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import signal
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import attrs

from rules import MatchPhase, Options, Player, game_kind
from rules.facts import Pocketing
from rules.figures import OwnFigure, innings_runs
from sim.codeprint import fingerprint, shown
from sim.play.figures.counts import GameFigures
from sim.play.figures.live import figures_of, steps_of
from sim.play.game import ChoiceRecord, ComputerPlayer, Game, GameSetup, ShotRecord
from sim.play.opponent import Kind, Move, decide, level_named
from sim.play.opponent.levels import TUNING_SEEDS

MAX_STEPS = 300  # shots and choices in one rack before it is called a stalemate
MAX_RERACKS = 3  # stalemates of one rack before it counts as won by nobody
# The game's own figures a duel reads from the runs for every game (SideFigures.runs:
# balls per inning, innings, high run), not again under the game's names: 14.1's.
RUN_FIGURES = ("balls", "innings", "high_run")
CODE_NOT_RECORDED = "not recorded"  # racks saved before each recorded its code
_J = TypeVar("_J")
_R = TypeVar("_R")


@attrs.frozen
class DuelSetup:
    """Who plays what: the game, the table, the levels of A and B, racks and seed, and
    how long a rack may go on (see the module)."""

    game: str
    levels: tuple[str, str]
    racks: int
    seed: int
    table: str = "9ft"
    max_steps: int = MAX_STEPS
    max_reracks: int = MAX_RERACKS
    names: tuple[str, str] = ("A", "B")  # the players' names in the racks' game files
    options: Options = attrs.field(factory=Options)  # the rules chosen (14.1's points)

    def level(self, player: Player) -> str:
        return self.levels[0] if player is Player.A else self.levels[1]


@attrs.frozen
class SideFigures:
    """One player's figures over some racks: ``racks_won``, ``breaks``,
    ``break_and_runs``, ``shots`` and ``fouls`` are the players' figures of the racks'
    records (:mod:`sim.play.figures`, as ``poolsim stats`` and the match summary count
    them); the rest are the search's own, which only its moves know: the pots it meant
    (``called_pots_attempted``: in a call-shot game its calls) and how many went down as
    meant without a foul, the safeties it chose (a kick declared safe is none), and per
    shot its thinking time, simulations and candidate strokes. ``own``: the game's own
    figures of each rack (``GameState.own_figures``), as (name, value), rack after rack."""

    racks_won: int = 0
    breaks: int = 0
    break_and_runs: int = 0
    shots: int = 0
    fouls: int = 0
    called_pots_attempted: int = 0
    called_pots_made: int = 0
    safeties: int = 0
    think_seconds: tuple[float, ...] = ()
    simulations: tuple[int, ...] = ()
    candidates: tuple[int, ...] = ()
    own: tuple[tuple[str, int], ...] = ()
    # The balls of each of the player's innings (rules.figures.innings_runs, as 14.1's
    # own figures count them): balls per inning and the high run, for every game.
    runs: tuple[int, ...] = ()

    def __add__(self, other: SideFigures) -> SideFigures:
        return SideFigures(
            *(
                getattr(self, field.name) + getattr(other, field.name)
                for field in attrs.fields(SideFigures)
            )
        )


@attrs.frozen
class RackOutcome:
    """One rack of a duel: its number, the winner (None: not won, after the re-racks
    allowed) and each side's figures."""

    index: int
    winner: Player | None
    sides: tuple[SideFigures, SideFigures]  # A's, B's
    # The rack as a game file's bytes, when the duel keeps its racks (see run_duel).
    file: bytes | None = attrs.field(default=None, eq=False, repr=False)
    # The fingerprint of the code that played it (decision_code); None for a rack
    # saved before racks recorded it.
    code: str | None = attrs.field(default=None, eq=False)


def decision_code() -> str:
    """The fingerprint of the code that plays a rack: every first-party module this one
    imports, directly or through others (:mod:`sim.codeprint`)."""
    return fingerprint(__name__)


def rack_seed(seed: int, index: int) -> int:
    """The seed of rack ``index`` (from 0) of a duel seeded ``seed``."""
    return random.Random(f"{seed}:duel rack {index}").getrandbits(63)


Encoder = Callable[[Game], bytes]  # a game as a game file's bytes (the store's to_bytes)


def play_rack(setup: DuelSetup, index: int, encode: Encoder | None = None) -> RackOutcome:
    """Rack ``index`` of the duel, played out in this process; with ``encode``, the
    outcome carries the rack as a game file's bytes."""
    seed = rack_seed(setup.seed, index)
    game = Game(
        GameSetup(
            game=setup.game,
            table=setup.table,
            players=setup.names,
            seed=seed,
            options=setup.options,
        )
    )
    game.start(Player.A if index % 2 == 0 else Player.B)
    spec = game.setup.spec
    levels = {player: level_named(setup.level(player)) for player in Player}
    moves: list[tuple[Player, Move, ShotRecord | None]] = []
    steps = reracks = 0
    quiet = 0  # the steps since the table was last racked (14.1 racks again within a rack)
    while game.phase is MatchPhase.RACK:
        state = game.rack
        assert state is not None
        me = state.pending.chooser if state.pending is not None else state.shooter
        number = game.match.rack_number
        # The decision's seed, recorded with it as the window records its computer's, so
        # ``poolsim verify --decisions`` decides every one again from the rack's file.
        computer = ComputerPlayer(setup.level(me), (seed, number, steps))
        rng = computer.generator()
        steps += 1
        quiet += 1
        if quiet > setup.max_steps:
            move = Move(kind=Kind.STALEMATE)
        else:
            move = decide(state, spec, levels[me], rng)
        if move.kind is Kind.STALEMATE:
            game.declare_stalemate(agreed=True)
        elif move.kind is Kind.CHOICE:
            assert move.choice is not None
            game.choose(move.choice, by=computer)
            moves.append((me, move, None))
        else:
            assert move.stroke is not None
            moves.append((me, move, game.shoot(move.played_by(computer))))
        last = game.records[-1]
        if isinstance(last, ShotRecord | ChoiceRecord) and game.setup.kind.reracked_around(
            last.ruling
        ):
            quiet = 0  # balls racked again: the rack goes on (14.1)
        if move.kind is Kind.STALEMATE and game.match.rack_number == number:
            quiet = 0  # a stalemate that goes on with the same rack (14.1's SP-18)
            reracks += 1
            if reracks > setup.max_reracks:
                break
        if game.match.rack_number != number and game.phase is MatchPhase.RACK:
            steps = quiet = 0
            reracks += 1
            if reracks > setup.max_reracks:
                break
    counted = figures_of(game)
    match_steps = list(steps_of(game.records, game.setup.kind))
    a, b = (
        attrs.evolve(_side(player, counted, moves), runs=innings_runs(match_steps, player))
        for player in Player
    )
    file = None if encode is None else encode(game)
    return RackOutcome(index, game.winner(), (a, b), file, code=decision_code())


def _side(
    player: Player, counted: GameFigures, moves: list[tuple[Player, Move, ShotRecord | None]]
) -> SideFigures:
    counts = counted.of(player)
    shots = [(move, record) for who, move, record in moves if who is player and record]
    pots = [(move, record) for move, record in shots if move.kind is Kind.POT]
    return SideFigures(
        racks_won=counts.racks_won,
        breaks=counts.breaks,
        break_and_runs=counts.break_and_runs,
        shots=counts.shots,
        fouls=counts.fouls,
        called_pots_attempted=len(pots),
        called_pots_made=sum(1 for move, record in pots if _made(move, record)),
        safeties=sum(1 for move, _ in shots if move.kind is Kind.SAFETY),
        think_seconds=tuple(move.seconds for move, _ in shots),
        simulations=tuple(move.simulations for move, _ in shots),
        candidates=tuple(move.candidates for move, _ in shots),
        own=tuple(counted.own[0 if player is Player.A else 1].items()),
    )


def _made(move: Move, record: ShotRecord) -> bool:
    """The pot meant went down where it was meant to, on a shot without a foul."""
    dropped = any(
        isinstance(fact, Pocketing) and fact.ball == move.target and fact.pocket == move.pocket
        for fact in record.simulated.facts
    )
    return dropped and not record.ruling.foul


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is the parent's to handle (it stops the workers itself)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


Job = tuple[DuelSetup, int, Encoder | None]


def _play(job: Job) -> RackOutcome:
    return play_rack(*job)


class DuelInterrupted(Exception):
    """The duel was stopped (Ctrl-C); ``finished`` holds the racks played to the end."""

    def __init__(self, finished: list[RackOutcome]) -> None:
        super().__init__(f"stopped after {len(finished)} racks")
        self.finished = finished


def run_duel(
    setup: DuelSetup,
    workers: int = 1,
    on_rack: Callable[[RackOutcome], None] | None = None,
    encode: Encoder | None = None,
    done: Mapping[int, RackOutcome] | None = None,
) -> list[RackOutcome]:
    """Every rack of the duel, in rack order, played on ``workers`` processes (1: here).
    ``on_rack`` hears of each rack as it finishes (with ``encode``, with its game file's
    bytes, which the outcomes returned no longer hold). ``done``: racks finished before
    (by number, from 0), counted as they are and not played again. Ctrl-C raises
    :class:`DuelInterrupted` with the racks finished."""
    done = done or {}
    finished: list[RackOutcome] = list(done.values())
    jobs: list[Job] = [(setup, index, encode) for index in range(setup.racks) if index not in done]
    try:
        for outcome in _outcomes(jobs, min(workers, len(jobs))):
            finished.append(attrs.evolve(outcome, file=None))
            if on_rack is not None:
                on_rack(outcome)
    except (KeyboardInterrupt, SystemError) as error:
        if not _ctrl_c(error):
            raise
        raise DuelInterrupted(sorted(finished, key=lambda o: o.index)) from None
    return sorted(finished, key=lambda o: o.index)


def _ctrl_c(error: BaseException) -> bool:
    """Ctrl-C: a KeyboardInterrupt, or the SystemError numba makes of one that came while
    a compiled function was being loaded from its cache (seen in CI: "CPUDispatcher(...)
    returned a result with an exception set", the KeyboardInterrupt its cause)."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _outcomes(jobs: list[Job], workers: int) -> Iterator[RackOutcome]:
    return spread(_play, jobs, workers)


def spread(work: Callable[[_J], _R], jobs: Sequence[_J], workers: int) -> Iterator[_R]:
    """``work`` done on each of ``jobs`` on ``workers`` fresh processes (1: here, in
    order), each result as it comes (in any order: a job's result must say which it is).
    ``work`` is a module's function and the jobs plain data, as they cross to the
    processes; every process starts from nothing (spawned), so a job comes out the same
    on any number of them. The duel's racks and the review's shots
    (:mod:`sim.play.review`) are spread by it."""
    if workers <= 1:
        yield from map(work, jobs)
        return
    pool = multiprocessing.get_context("spawn").Pool(workers, initializer=_ignore_interrupts)
    try:
        yield from pool.imap_unordered(work, jobs)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def figures(setup: DuelSetup, outcomes: Iterable[RackOutcome]) -> dict[str, Any]:
    """The duel's figures: ``{"racks": N, "players": {"A": P, "B": P}}``, each P with the
    level, racks won, breaks, break-and-runs (won without the other player shooting and
    without a foul), shots, fouls, the pots called (in a game without calls: the pots
    meant) and made as meant, safeties, and the median thinking time of a shot; in a
    game with figures of its own (``GameState.own_figures``), each of them under its name
    (summed over the racks, or the best of them), and ``"own_figures"``: their words by
    name."""
    outcomes = list(outcomes)
    own_figures = [f for f in game_kind(setup.game).own_figures if f.name not in RUN_FIGURES]
    players = {}
    for player, side in zip(Player, _totals(outcomes), strict=True):
        think = sorted(side.think_seconds)
        players[player.value] = {
            "level": setup.level(player),
            "racks_won": side.racks_won,
            "breaks": side.breaks,
            "break_and_runs": side.break_and_runs,
            "shots": side.shots,
            "fouls": side.fouls,
            "called_pots_attempted": side.called_pots_attempted,
            "called_pots_made": side.called_pots_made,
            "safeties": side.safeties,
            "think_seconds_median": round(statistics.median(think), 3) if think else 0.0,
            "think_seconds_p95": round(nearest_rank(think, 0.95), 3) if think else 0.0,
            "break_and_run_percent": _percent(side.break_and_runs, side.breaks),
            "foul_percent": _percent(side.fouls, side.shots),
            "called_pots_made_percent": _percent(side.called_pots_made, side.called_pots_attempted),
            **{figure.name: _own_total(figure, side.own) for figure in own_figures},
            **{
                _per_rack(figure): _own_mean(figure, side.own)
                for figure in own_figures
                if not figure.best
            },
            "innings": len(side.runs),
            "balls_per_inning": round(sum(side.runs) / len(side.runs), 2) if side.runs else 0.0,
            "high_run": max(side.runs, default=0),
        }
    return {
        "racks": len(outcomes),
        "seed": setup.seed,
        "held_out": setup.seed not in TUNING_SEEDS,
        "code": code_versions(outcomes),
        "players": players,
        **({"own_figures": _own_words(own_figures)} if own_figures else {}),
    }


def code_versions(outcomes: Iterable[RackOutcome]) -> dict[str, int]:
    """How many racks each version of the code played, by its fingerprint as a person
    reads it (:func:`sim.codeprint.shown`), the most racks first; racks saved
    before racks recorded it count under :data:`CODE_NOT_RECORDED`."""
    counted = Counter(
        CODE_NOT_RECORDED if outcome.code is None else shown(outcome.code) for outcome in outcomes
    )
    return dict(sorted(counted.items(), key=lambda item: (-item[1], item[0])))


def _per_rack(figure: OwnFigure) -> str:
    return f"{figure.name}_per_rack"


def _own_words(own_figures: Sequence[OwnFigure]) -> dict[str, str]:
    """The game's own figures' words by name, each summed one's mean a rack after it
    (rotation's points, and its points a rack)."""
    words: dict[str, str] = {}
    for figure in own_figures:
        words[figure.name] = figure.words
        if not figure.best:
            words[_per_rack(figure)] = f"{figure.words} a rack"
    return words


def _own_mean(figure: OwnFigure, racks: Iterable[tuple[str, int]]) -> dict[str, float]:
    """The game's own summed ``figure``'s mean a rack, with its standard error (the
    racks' spread over the root of their number)."""
    values = [value for name, value in racks if name == figure.name]
    if not values:
        return {"value": 0.0, "standard_error": 0.0}
    mean = statistics.fmean(values)
    spread = statistics.stdev(values) if len(values) > 1 else 0.0
    return {"value": round(mean, 2), "standard_error": round(spread / math.sqrt(len(values)), 2)}


def _own_total(figure: OwnFigure, racks: Iterable[tuple[str, int]]) -> int:
    """The game's own ``figure`` over the racks: their sum, or the best of them."""
    values = [value for name, value in racks if name == figure.name]
    return max(values, default=0) if figure.best else sum(values)


def nearest_rank(ordered: Sequence[float], share: float) -> float:
    """The ``share`` percentile of ``ordered`` (sorted, not empty) by nearest rank: the
    smallest value with at least that share of the values at or below it."""
    return ordered[math.ceil(share * len(ordered)) - 1]


def _percent(count: int, of: int) -> dict[str, float]:
    """``count`` of ``of`` as a percentage and its standard error (binomial), in points."""
    if of == 0:
        return {"value": 0.0, "standard_error": 0.0}
    share = count / of
    error = math.sqrt(share * (1 - share) / of)
    return {"value": round(100 * share, 1), "standard_error": round(100 * error, 1)}


def _totals(outcomes: list[RackOutcome]) -> tuple[SideFigures, SideFigures]:
    a, b = SideFigures(), SideFigures()
    for outcome in outcomes:
        a, b = a + outcome.sides[0], b + outcome.sides[1]
    return a, b


def search_figures(outcomes: Iterable[RackOutcome]) -> dict[str, float]:
    """How hard both players thought, per shot: medians of candidate strokes,
    simulations and seconds, and simulations per second of thinking."""
    a, b = _totals(list(outcomes))
    both = a + b
    seconds = sum(both.think_seconds)
    return {
        "shots": float(len(both.think_seconds)),
        "candidates_median": float(statistics.median(both.candidates or (0,))),
        "simulations_median": float(statistics.median(both.simulations or (0,))),
        "think_seconds_median": float(statistics.median(both.think_seconds or (0.0,))),
        "simulations_per_second": sum(both.simulations) / seconds if seconds else 0.0,
    }
