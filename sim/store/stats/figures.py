"""A game file's statistics, read from its records: pure functions of ``game.json`` (the
rulings, the shots' facts and strokes) and the table, so a count by hand on a small file
is the test of each figure.

What each figure means (docs/STATISTICS.md says the same for players):

- **racks won / played**: a rack over with a winner (a re-rack is not a rack played);
  **matches won / played**: a match whose race was reached.
- **break**: a rack's first shot; **legal break**: one without a foul; **balls on the
  break**: the object balls it pocketed. On a table set up by hand (a practice file's
  ``setup`` record) the first shot is a break only if the set-up was a rack racked to
  be broken (its ``"break": true``).
- **break-and-run**: the breaker won the rack and the other player never shot in it,
  without a foul. **Run-out**: a rack won in one visit to the table that did not start
  with the break and pocketed every object ball on the table when it began, without a
  foul (a break-and-run is not also a run-out).
- **pot attempted**: every shot but a break, a push-out and a declared safety. The pot
  attempted is the called ball and pocket; in a game without calls (or a shot without
  one) it is inferred: the ball on (the lowest object ball on the table) and, if it went
  down, its pocket; if not, the pocket its path pointed at most nearly (the pocket
  whose direction from the ball's start is nearest the direction it rolled), and for a
  ball that never moved, the pocket with the thinnest cut from the cue ball. So in a
  game without calls a safety played without a declaration counts as a miss.
  **Made**: that ball in that pocket (inferred: in any pocket), without a foul.
  **Cut angle**: between the cue ball's path to the ghost ball and the object ball's to
  the pocket's mouth; **distance**: the cue ball's path to the ghost ball plus the
  object ball's to the mouth (metres).
- **fouls**: the player's shots with a foul, and the times the shot clock ran out with
  no stroke (GEN-17: a foul, not a shot); **by kind**: the referee's foul codes on them
  (a shot can break two rules: a wrong ball first and no rail).
- **safety**: a shot declared safe; it **left no shot** when the incoming player was
  not given ball in hand and had no straight pot of the ball on: no pocket the shot
  picker's geometry (:func:`sim.play.picker.pots`) finds open, cut up to its limit and
  both paths clear of other balls.
- **kick**: a shot (not a break) whose cue ball met a cushion before any ball; **kick
  made**: one without a foul (it hit the ball it had to).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs

from rules import CUE
from rules.geometry import Point
from sim.physics.table import TableSpec, pocket_mouths
from sim.play.picker import pots
from sim.store.savedgames import line_in_play

NOT_POTS = ("push-out", "safety")  # declarations that are not a pot attempted


@attrs.frozen
class PotAttempt:
    """One pot attempted (see the module): by whom, what, how hard, and whether made;
    ``cue_after``: where the cue ball stopped after a pot made (None: missed, or the cue
    ball went down)."""

    player: str
    ball: str
    pocket: str
    called: bool
    cut: float  # degrees
    distance: float  # metres
    made: bool
    cue_after: Point | None = None


@attrs.frozen
class PlayerFigures:
    """One player's counts over one game file (or, added up, many)."""

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
    """A game file's statistics: per player (by name, in the file's A-B order) the
    counts and fouls by code, and every pot attempted."""

    game: str
    players: tuple[str, str]
    counts: tuple[PlayerFigures, PlayerFigures]
    fouls: tuple[Mapping[str, int], Mapping[str, int]]
    attempts: tuple[PotAttempt, ...]


def game_figures(document: Mapping[str, Any], spec: TableSpec) -> GameFigures:
    """The statistics of the game ``document`` (a game file's ``game.json``) played on
    the table ``spec``; KeyError, TypeError or ValueError for a document not shaped as
    a game file."""
    setup = document["setup"]
    names = (str(setup["players"][0]), str(setup["players"][1]))
    mouths = {pocket.value: mouth for pocket, mouth in pocket_mouths(spec).items()}
    records = [r for r in line_in_play(document) if isinstance(r, dict)]
    shots = [r for r in records if r.get("type") == "shot"]
    # A rack's turns: its shots and its time fouls (a rack may end on a third foul).
    racks: dict[int, list[dict[str, Any]]] = {}
    for turn in records:
        if turn.get("type") in ("shot", "time-foul"):
            racks.setdefault(int(turn["rack"]), []).append(turn)
    counts = {side: PlayerFigures() for side in ("A", "B")}
    fouls: dict[str, Counter[str]] = {"A": Counter(), "B": Counter()}
    attempts: list[PotAttempt] = []
    breaks = _breaks(records)
    for rack in racks.values():
        for side, figures in _rack_figures(rack, id(rack[0]) in breaks).items():
            counts[side] += figures
    for turn in records:
        if turn.get("type") == "time-foul":  # a foul of its own kind, and no shot
            side = str(turn["shooter"])
            fouls[side].update(str(code) for code in turn["ruling"]["foul_codes"])
            counts[side] += PlayerFigures(fouls=1)
    for shot in shots:
        side = str(shot["shooter"])
        fouls[side].update(str(code) for code in shot["ruling"]["foul_codes"])
        is_break = id(shot) in breaks
        counts[side] += _shot_figures(shot, is_break, spec)
        attempt = pot_attempted(shot, is_break, names, mouths, spec.ball_radius)
        if attempt is not None:
            attempts.append(attempt)
    won = _racks_won(records)
    if max(won.values()) >= int(setup["race_to"]):
        for side in counts:
            counts[side] += PlayerFigures(
                matches_played=1, matches_won=int(won[side] == max(won.values()))
            )
    return GameFigures(
        game=str(setup["game"]),
        players=names,
        counts=(counts["A"], counts["B"]),
        fouls=(dict(fouls["A"]), dict(fouls["B"])),
        attempts=tuple(attempts),
    )


def _breaks(records: Sequence[Mapping[str, Any]]) -> set[int]:
    """The breaks among the shots of ``records`` (by ``id``): each rack's first shot,
    but after a set-up by hand the next shot only if the set-up was a rack to break."""
    breaks: set[int] = set()
    racks: set[Any] = set()
    set_up: bool | None = None  # a set-up met before the next shot: was it a break's?
    for record in records:
        if record.get("type") == "setup":
            set_up = record.get("break") is True
        elif record.get("type") == "shot":
            first = record["rack"] not in racks if set_up is None else set_up
            if first:
                breaks.add(id(record))
            racks.add(record["rack"])
            set_up = None
    return breaks


def _racks_won(records: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    won = {"A": 0, "B": 0}
    for record in records:
        ruling = record.get("ruling")
        if isinstance(ruling, dict) and ruling.get("rack_over") and ruling.get("winner") in won:
            won[ruling["winner"]] += 1
    return won


def _object_balls(positions: Mapping[str, Any]) -> set[str]:
    return {ball for ball in positions if ball != CUE}


def _rack_figures(rack: Sequence[Mapping[str, Any]], broken: bool) -> dict[str, PlayerFigures]:
    """Racks, break-and-runs and run-outs of one rack's shots and time fouls (in order); ``broken``:
    its first shot was a break (not a shot from a table set up by hand)."""
    last = rack[-1]["ruling"]
    if not last["rack_over"] or last["rerack"] or last["winner"] not in ("A", "B"):
        return {}
    winner = str(last["winner"])
    loser = "B" if winner == "A" else "A"
    figures = {
        winner: PlayerFigures(racks_played=1, racks_won=1),
        loser: PlayerFigures(racks_played=1),
    }
    visit = list(_last_visit(rack))
    clean = not any(shot["ruling"]["foul_codes"] for shot in visit)
    if clean and broken and visit[0] is rack[0]:
        figures[winner] += PlayerFigures(break_and_runs=1)
    elif clean:
        on_table = _object_balls(visit[0]["start"])
        down = {str(ball) for shot in visit for ball in shot["ruling"]["pocketed"]}
        if on_table <= down:
            figures[winner] += PlayerFigures(run_outs=1)
    return figures


def _last_visit(rack: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """The rack's last shots by the player who took its last shot: their last visit."""
    shooter = rack[-1]["shooter"]
    start = len(rack)
    while start > 0 and rack[start - 1]["shooter"] == shooter:
        start -= 1
    yield from rack[start:]


def _shot_figures(shot: Mapping[str, Any], is_break: bool, spec: TableSpec) -> PlayerFigures:
    ruling = shot["ruling"]
    foul = bool(ruling["foul_codes"])
    if is_break:
        made = sum(1 for ball in ruling["pocketed"] if ball != CUE)
        return PlayerFigures(
            shots=1, fouls=int(foul), breaks=1, legal_breaks=int(not foul), balls_on_break=made
        )
    figures = PlayerFigures(shots=1, fouls=int(foul))
    if _is_kick(shot["events"]):
        figures += PlayerFigures(kicks=1, kicks_made=int(not foul))
    if shot.get("declaration") == "safety":
        figures += PlayerFigures(safeties=1, safeties_no_shot=int(left_no_shot(shot, spec)))
    return figures


def _is_kick(events: Sequence[Mapping[str, Any]]) -> bool:
    """The cue ball met a cushion before any ball."""
    for event in events:
        if event.get("type") == "rail" and event.get("ball") == CUE:
            return True
        if event.get("type") == "hit" and CUE in event.get("balls", ()):
            return False
    return False


def left_no_shot(shot: Mapping[str, Any], spec: TableSpec) -> bool:
    """After ``shot``, the other player is at the table without ball in hand and has no
    straight pot of the ball on (see the module)."""
    ruling = shot["ruling"]
    if ruling["foul_codes"] or ruling["rack_over"] or ruling["ball_in_hand"] is not None:
        return False
    if ruling["next_shooter"] == shot["shooter"]:
        return False
    positions = {str(ball): _point(xy) for ball, xy in ruling["positions"].items()}
    if CUE not in positions:
        return False
    on = _ball_on(positions)
    if on is None:
        return False
    return not pots(positions, positions[CUE], on, spec)


def _ball_on(positions: Mapping[str, Any]) -> str | None:
    """The lowest object ball on the table (the rotation games' ball on)."""
    balls = sorted(_object_balls(positions), key=lambda ball: (len(ball), ball))
    return balls[0] if balls else None


def _point(value: Any) -> Point:
    x, y = float(value[0]), float(value[1])
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ValueError(f"not a point: {value!r}")
    return (x, y)


def pot_attempted(
    shot: Mapping[str, Any],
    is_break: bool,
    names: tuple[str, str],
    mouths: Mapping[str, Point],
    radius: float,
) -> PotAttempt | None:
    """The pot ``shot`` attempted (see the module), or None: a break, a push-out, a
    declared safety, or no ball to attempt."""
    ruling = shot["ruling"]
    if is_break or shot.get("declaration") in NOT_POTS:
        return None
    start = {str(ball): _point(xy) for ball, xy in shot["start"].items()}
    if CUE not in start:
        return None
    foul = bool(ruling["foul_codes"])
    went = {
        str(event["ball"]): str(event["pocket"])
        for event in shot["events"]
        if event.get("type") == "pocket"
    }
    call = shot.get("call")
    if call is not None:
        ball, pocket = str(call["ball"]), str(call["pocket"])
        made = went.get(ball) == pocket and not foul
    else:
        on = _ball_on(start)
        if on is None:
            return None
        ball = on
        after = {str(b): _point(xy) for b, xy in shot["after"].items()}
        pocket = went.get(ball) or _pocket_meant(
            start[CUE], start[ball], after.get(ball), mouths, radius
        )
        made = ball in went and not foul
    if ball not in start or pocket not in mouths:
        return None
    cut, distance = cut_and_distance(start[CUE], start[ball], mouths[pocket], radius)
    cue_after = None
    if made and CUE in shot["after"]:
        cue_after = _point(shot["after"][CUE])
    return PotAttempt(
        player=names[0] if shot["shooter"] == "A" else names[1],
        ball=ball,
        pocket=pocket,
        called=call is not None,
        cut=cut,
        distance=distance,
        made=made,
        cue_after=cue_after,
    )


def _pocket_meant(
    cue: Point, ball: Point, rest: Point | None, mouths: Mapping[str, Point], radius: float
) -> str:
    """The pocket a ball that did not go down was nearest to going in: the one its path
    pointed at most nearly, or (it never moved) the one with the thinnest cut."""
    if rest is not None and math.dist(ball, rest) > radius / 10:
        rolled = _unit(ball, rest)
        return min(mouths, key=lambda p: _angle(rolled, _unit(ball, mouths[p])))
    return min(mouths, key=lambda p: cut_and_distance(cue, ball, mouths[p], radius)[0])


def cut_and_distance(cue: Point, ball: Point, mouth: Point, radius: float) -> tuple[float, float]:
    """The cut angle (degrees) and the distance (metres) of potting the ball at ``ball``
    into the mouth ``mouth`` from ``cue`` (see the module)."""
    to_pocket = _unit(ball, mouth)
    ghost = (ball[0] - 2 * radius * to_pocket[0], ball[1] - 2 * radius * to_pocket[1])
    to_ghost = _unit(cue, ghost)
    return _angle(to_ghost, to_pocket), math.dist(cue, ghost) + math.dist(ball, mouth)


def _unit(a: Point, b: Point) -> tuple[float, float]:
    d = math.dist(a, b)
    return ((b[0] - a[0]) / d, (b[1] - a[1]) / d) if d > 0 else (0.0, 0.0)


def _angle(u: tuple[float, float], v: tuple[float, float]) -> float:
    return math.degrees(math.acos(max(-1.0, min(1.0, u[0] * v[0] + u[1] * v[1]))))
