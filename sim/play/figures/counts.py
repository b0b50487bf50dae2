"""Each player's figures of a match, counted from its steps (:class:`rules.figures.Step`):
the one definition of each, which ``poolsim stats``, the match summary and ``duel`` all
read (docs/STATISTICS.md says the same for players).

- **racks won / played**: a rack over with a winner (a re-rack is not a rack played);
  **matches won / played**: a match whose race was reached.
- **shots**: the player's strokes (a time foul is no shot).
- **break**: a rack's first shot; **legal break**: one without a foul; **balls on the
  break**: the object balls it pocketed. On a table set up by hand (a practice file's
  ``setup`` step) the first shot is a break only if the set-up was a rack racked to be
  broken.
- **break-and-run**: the breaker won the rack and the other player never shot in it,
  without a foul. **Run-out**: a rack won in one visit to the table that did not start
  with the break and pocketed every object ball on the table when it began, without a
  foul (a break-and-run is not also a run-out).
- **fouls**: the player's shots with a foul, and the times the shot clock ran out with
  no stroke (GEN-17: a foul, not a shot); **by kind**: the referee's foul codes on them
  (a shot can break two rules: a wrong ball first and no rail).
- **safety**: a shot declared safe; it **left no shot** when the incoming player was
  not given ball in hand and had no straight pot of the ball on
  (:func:`sim.play.figures.attempts.left_no_shot`).
- **kick**: a shot (not a break) whose cue ball met a cushion before any ball; **kick
  made**: one without a foul (it hit the ball it had to).
- **pots attempted** and **made**, with their cut and distance: see
  :mod:`sim.play.figures.attempts`.
- A game's own figures (``GameState.own_figures``, :class:`rules.figures.OwnFigure`),
  each counted by the game's own count over the same steps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

import attrs

from rules import CUE, Declaration, Player, game_kind
from rules.facts import Hit, RailContact
from rules.figures import OwnFigure, Step, StepKind, racks_of
from sim.physics.table import TableSpec, pocket_mouths
from sim.play.figures.attempts import PotAttempt, left_no_shot, pot_attempted


@attrs.frozen
class PlayerFigures:
    """One player's counts over one match (or, added up, many)."""

    matches_played: int = 0
    matches_won: int = 0
    racks_played: int = 0
    racks_won: int = 0
    shots: int = 0
    # Shots with a foul and time fouls (a shot may break two rules: see GameFigures.fouls).
    fouls: int = 0
    breaks: int = 0
    legal_breaks: int = 0
    balls_on_break: int = 0
    break_and_runs: int = 0
    run_outs: int = 0
    safeties: int = 0
    safeties_no_shot: int = 0
    kicks: int = 0
    kicks_made: int = 0

    def __add__(self, other: PlayerFigures) -> PlayerFigures:
        return PlayerFigures(
            *(getattr(self, f.name) + getattr(other, f.name) for f in attrs.fields(PlayerFigures))
        )


@attrs.frozen
class GameFigures:
    """A match's figures: per player (by name, in A-B order) the counts, the fouls by
    code and the game's own figures (by name, as ``own_figures`` lists them), and every
    pot attempted."""

    game: str
    players: tuple[str, str]
    counts: tuple[PlayerFigures, PlayerFigures]
    fouls: tuple[Mapping[str, int], Mapping[str, int]]
    attempts: tuple[PotAttempt, ...]
    own_figures: tuple[OwnFigure, ...] = ()
    own: tuple[Mapping[str, int], Mapping[str, int]] = ({}, {})

    def of(self, player: Player) -> PlayerFigures:
        return self.counts[0] if player is Player.A else self.counts[1]


def game_figures(
    steps: Sequence[Step], *, game: str, players: tuple[str, str], race_to: int, spec: TableSpec
) -> GameFigures:
    """The figures of a match of ``game`` between ``players`` (A's name, B's) to
    ``race_to`` racks, from its ``steps`` in order, played on the table ``spec``."""
    mouths = {pocket.value: mouth for pocket, mouth in pocket_mouths(spec).items()}
    breaks = _breaks(steps)
    counts = {player: PlayerFigures() for player in Player}
    for rack in _each_rack(steps, breaks, spec).values():
        for player in Player:
            counts[player] += rack[player]
    fouls: dict[Player, Counter[str]] = {player: Counter() for player in Player}
    attempts: list[PotAttempt] = []
    for step in steps:
        if step.is_turn:
            assert step.shooter is not None
            fouls[step.shooter].update(step.foul_codes)
        if step.kind is StepKind.SHOT:
            attempt = pot_attempted(step, step in breaks, players, mouths, spec.ball_radius)
            if attempt is not None:
                attempts.append(attempt)
    won = _racks_won(steps)
    if max(won.values()) >= race_to:
        for player in Player:
            counts[player] += PlayerFigures(
                matches_played=1, matches_won=int(won[player] == max(won.values()))
            )
    own_figures = game_kind(game).own_figures
    a, b = (
        {figure.name: figure.count(steps, player) for figure in own_figures} for player in Player
    )
    return GameFigures(
        game=game,
        players=players,
        counts=(counts[Player.A], counts[Player.B]),
        fouls=(dict(fouls[Player.A]), dict(fouls[Player.B])),
        attempts=tuple(attempts),
        own_figures=own_figures,
        own=(a, b),
    )


def rack_figures(steps: Sequence[Step], spec: TableSpec) -> dict[int, dict[Player, PlayerFigures]]:
    """Each rack's counts (all but the matches) by rack number, from ``steps`` in order
    (the whole match's: which shot is a break depends on the steps before it)."""
    return _each_rack(steps, _breaks(steps), spec)


def _each_rack(
    steps: Sequence[Step], breaks: set[Step], spec: TableSpec
) -> dict[int, dict[Player, PlayerFigures]]:
    figures: dict[int, dict[Player, PlayerFigures]] = {}
    for number, rack in racks_of(steps).items():
        counts = dict.fromkeys(Player, PlayerFigures())
        for player, ended in _rack_ended(rack, rack[0] in breaks).items():
            counts[player] += ended
        for turn in rack:
            assert turn.shooter is not None
            if turn.kind is StepKind.TIME_FOUL:  # a foul of its own kind, and no shot
                counts[turn.shooter] += PlayerFigures(fouls=1)
            else:
                counts[turn.shooter] += _shot_figures(turn, turn in breaks, spec)
        figures[number] = counts
    return figures


def _breaks(steps: Sequence[Step]) -> set[Step]:
    """The breaks among the shots of ``steps``: each rack's first shot, but after a
    set-up by hand the next shot only if the set-up was a rack to break."""
    breaks: set[Step] = set()
    racks: set[int] = set()
    set_up: bool | None = None  # a set-up met before the next shot: was it a break's?
    for step in steps:
        if step.kind is StepKind.SETUP:
            set_up = step.breaking
        elif step.kind is StepKind.SHOT:
            first = step.rack not in racks if set_up is None else set_up
            if first:
                breaks.add(step)
            racks.add(step.rack)
            set_up = None
    return breaks


def _racks_won(steps: Sequence[Step]) -> dict[Player, int]:
    won = dict.fromkeys(Player, 0)
    for step in steps:
        if step.rack_over and step.winner is not None:
            won[step.winner] += 1
    return won


def _rack_ended(rack: Sequence[Step], broken: bool) -> dict[Player, PlayerFigures]:
    """Racks, break-and-runs and run-outs of one rack's turns (in order), once it is
    over; ``broken``: its first shot was a break (not a shot from a table set up by
    hand)."""
    last = rack[-1]
    if not last.rack_over or last.rerack or last.winner is None:
        return {}
    winner = last.winner
    figures = {
        winner: PlayerFigures(racks_played=1, racks_won=1),
        winner.other: PlayerFigures(racks_played=1),
    }
    visit = list(_last_visit(rack))
    # Without a foul, and the winner's own visit (8-ball's 8 down early is a loss with no foul).
    clean = visit[0].shooter is winner and not any(turn.foul for turn in visit)
    if clean and broken and visit[0] is rack[0]:
        figures[winner] += PlayerFigures(break_and_runs=1)
    elif clean:
        on_table = {ball for ball in visit[0].start if ball != CUE}
        down = {ball for turn in visit for ball in turn.pocketed}
        if on_table <= down:
            figures[winner] += PlayerFigures(run_outs=1)
    return figures


def _last_visit(rack: Sequence[Step]) -> Iterator[Step]:
    """The rack's last turns by the player who took its last turn: their last visit."""
    shooter = rack[-1].shooter
    start = len(rack)
    while start > 0 and rack[start - 1].shooter == shooter:
        start -= 1
    yield from rack[start:]


def _shot_figures(shot: Step, is_break: bool, spec: TableSpec) -> PlayerFigures:
    if is_break:
        made = sum(1 for ball in shot.pocketed if ball != CUE)
        return PlayerFigures(
            shots=1,
            fouls=int(shot.foul),
            breaks=1,
            legal_breaks=int(not shot.foul),
            balls_on_break=made,
        )
    figures = PlayerFigures(shots=1, fouls=int(shot.foul))
    if _is_kick(shot):
        figures += PlayerFigures(kicks=1, kicks_made=int(not shot.foul))
    if shot.declaration is Declaration.SAFETY:
        figures += PlayerFigures(safeties=1, safeties_no_shot=int(left_no_shot(shot, spec)))
    return figures


def _is_kick(shot: Step) -> bool:
    """The cue ball met a cushion before any ball."""
    for fact in shot.facts:
        if isinstance(fact, RailContact) and fact.ball == CUE:
            return True
        if isinstance(fact, Hit) and fact.involves(CUE):
            return False
    return False
