"""A level's noise calibrated on tuning seeds: the breaker's first inning of duel racks.

A level's strength is set by its noise (:class:`~sim.play.opponent.levels.Noise`), and the
figure it is calibrated against is the break-and-run: the breaker runs the rack before
the other player shoots. A whole duel answers that slowly (the racks the breaker does
not run are played to their end); the breaker's first inning alone answers it at a
fraction of the cost. :func:`first_inning` plays it exactly as a duel would (the same
rack from :func:`sim.play.duel.rack_seed`, the same seeds for each decision), so at the
level's own noise it is that duel rack's first inning; at another noise, the same rack
with the same generators, so two noises are compared rack by rack (common random
numbers: the difference is far surer than either figure).

Only tuning seeds (:data:`~sim.play.opponent.levels.TUNING_SEEDS`) are calibrated on;
the level's figures are then measured in duels on seeds outside them
(docs/OPPONENT.md). ``python -m sim.play.opponent.calibration`` runs a calibration a
rack at a time into a folder, so it is stopped and taken up again at will.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs

from rules import DEFAULT_GAME, MatchPhase, Player
from sim.files import write_atomically
from sim.play.duel import rack_seed
from sim.play.game import ComputerPlayer, Game, GameSetup
from sim.play.opponent import Kind, decide, level_named
from sim.play.opponent.levels import TUNING_SEEDS, Level, Noise

MAX_SHOTS = 40  # a first inning longer than this is a stalemate in the making


@attrs.frozen
class Inning:
    """The breaker's first inning of one rack: ``ran_out``, it won the rack before the
    other player shot; ``shots`` it played; ``fouled``, it ended on a foul."""

    rack: int
    ran_out: bool
    shots: int
    fouled: bool


def first_inning(game: str, level: Level, seed: int, index: int) -> Inning:
    """Rack ``index`` of a duel of ``game`` seeded ``seed``, broken by a player of
    ``level`` (A on even racks, B on odd, as in a duel), played while it keeps the table
    (a choice it has, it makes; a choice the other player has ends the inning)."""
    return inning_played(game, level, seed, index)[1]


def inning_played(game: str, level: Level, seed: int, index: int) -> tuple[Game, Inning]:
    """:func:`first_inning`, and the match it was played in."""
    rack = rack_seed(seed, index)
    match = Game(GameSetup(game=game, seed=rack))
    breaker = Player.A if index % 2 == 0 else Player.B
    match.start(breaker)
    spec = match.setup.spec
    steps = 0
    fouled = False
    while match.phase is MatchPhase.RACK and steps < MAX_SHOTS:
        state = match.rack
        assert state is not None
        me = state.pending.chooser if state.pending is not None else state.shooter
        if me is not breaker:
            break
        # The decision's seed as a duel's (sim.play.duel.play_rack): the same generator.
        computer = ComputerPlayer(level.name, (rack, match.match.rack_number, steps))
        rng = computer.generator()
        steps += 1
        move = decide(state, spec, level, rng)
        if move.kind is Kind.CHOICE and move.choice is not None:
            match.choose(move.choice)
        elif move.stroke is not None:
            fouled = match.shoot(move.stroke).ruling.foul
        else:
            break  # a stalemate offered: no run-out
    return match, Inning(index, match.winner() is breaker, steps, fouled)


def level_at(name: str, scale: float) -> Level:
    """Level ``name`` with its noise set to FastFiz's at ``scale``."""
    return attrs.evolve(level_named(name), noise=Noise.fastfiz(scale))


def calibrate(
    game: str, name: str, scales: Sequence[float], seed: int, racks: Iterable[int], folder: Path
) -> dict[float, list[Inning]]:
    """Each rack's first inning at each noise ``scale`` of level ``name``, kept in
    ``folder`` (one file an inning: a rack already there is read, not played again)."""
    if seed not in TUNING_SEEDS:
        raise ValueError(f"seed {seed} is held out: calibrate on tuning seeds only")
    folder.mkdir(parents=True, exist_ok=True)
    found: dict[float, list[Inning]] = {scale: [] for scale in scales}
    for index in racks:
        for scale in scales:
            path = folder / f"{game}-level{name}-noise{scale:g}-seed{seed}-rack{index:05d}.json"
            if path.exists():
                inning = Inning(**json.loads(path.read_text()))
            else:
                inning = first_inning(game, level_at(name, scale), seed, index)
                write_atomically(path, json.dumps(attrs.asdict(inning)).encode())
            found[scale].append(inning)
    return found


def summary(found: dict[float, list[Inning]]) -> list[str]:
    """A line a noise: first innings run out, with the binomial standard error, and
    against the first noise, the racks where only one of the two ran out."""
    lines = []
    first = next(iter(found.values()), [])
    for scale, innings in found.items():
        n = len(innings)
        ran = sum(i.ran_out for i in innings)
        share = ran / n if n else 0.0
        error = math.sqrt(share * (1 - share) / n) if n else 0.0
        gained = sum(b.ran_out and not a.ran_out for a, b in zip(first, innings, strict=False))
        lost = sum(a.ran_out and not b.ran_out for a, b in zip(first, innings, strict=False))
        lines.append(
            f"noise {scale:g}: {ran} of {n} first innings run out, {100 * share:.1f} % "
            f"(give or take {100 * error:.1f}); against noise {next(iter(found)):g}, "
            f"+{gained} -{lost} racks; fouls ending an inning {sum(i.fouled for i in innings)}"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--game", default=DEFAULT_GAME)
    parser.add_argument("--level", default="5")
    parser.add_argument("--scales", required=True, help="noise scales, as 0.35,0.28")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--racks", type=int, required=True)
    parser.add_argument("--first-rack", type=int, default=0)
    parser.add_argument("--save", type=Path, required=True)
    args = parser.parse_args(argv)
    scales = [float(s) for s in args.scales.split(",")]
    racks = range(args.first_rack, args.first_rack + args.racks)
    try:
        found = calibrate(args.game, args.level, scales, args.seed, racks, args.save)
    except ValueError as error:
        print(f"poolsim calibration: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    print("\n".join(summary(found)))


if __name__ == "__main__":
    main()
