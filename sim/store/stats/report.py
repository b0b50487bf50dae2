"""Each player's statistics summed from the database (:mod:`.database`): the figures
``poolsim stats`` prints and the window's statistics screen draws.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Sequence
from typing import Any

import attrs

from rules import GAMES
from rules.figures import OwnFigure
from rules.geometry import Point
from rules.terms import FoulCode
from rules.words import FOUL_WORDS
from sim.play.figures.counts import PlayerFigures
from sim.store.stats.database import COUNT_COLUMNS, StatsDatabase

# The figures the games keep of their own (rules.figures), by name.
OWN_FIGURES: dict[str, OwnFigure] = {
    figure.name: figure for kind in GAMES.values() for figure in kind.own_figures
}
# Pot percentage by cut angle: the bins' upper edges (degrees); distance likewise (m).
CUT_BINS = (15.0, 30.0, 45.0, 60.0, 90.0)
DISTANCE_BINS = (0.75, 1.5, 2.25, 10.0)


@attrs.frozen
class Tally:
    """Pots made of pots attempted in one bin, from ``low`` to ``high``."""

    low: float
    high: float
    attempted: int
    made: int

    @property
    def percent(self) -> float | None:
        return 100.0 * self.made / self.attempted if self.attempted else None


@attrs.frozen
class Session:
    """One match's pots, for progress over sessions: when, made and attempted; and the
    player's accuracy in it, if it was reviewed."""

    played: str
    attempted: int
    made: int
    accuracy: float | None = None


@attrs.frozen
class Reviewed:
    """One reviewed match's accuracy (percent) for the player: when, which game, the
    level that reviewed it and the player's shots in it."""

    played: str
    game: str
    level: str
    accuracy: float
    shots: int


@attrs.frozen
class PlayerReport:
    """One player's statistics over the matches chosen."""

    player: str
    counts: PlayerFigures
    fouls: dict[str, int]  # by foul code
    pots_attempted: int
    pots_made: int
    by_cut: tuple[Tally, ...]
    by_distance: tuple[Tally, ...]
    cue_after_pots: tuple[Point, ...]
    sessions: tuple[Session, ...]
    # The games' own figures, by name: summed over the matches, or their best.
    own: dict[str, int] = attrs.field(factory=dict)
    # The accuracy of each reviewed match, oldest first (issue 33).
    reviewed: tuple[Reviewed, ...] = ()

    @property
    def accuracy(self) -> float | None:
        """The mean of the reviewed matches' accuracies (None: none reviewed)."""
        marks = [r.accuracy for r in self.reviewed]
        return sum(marks) / len(marks) if marks else None

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            **attrs.asdict(self.counts),
            "own_figures": dict(sorted(self.own.items())),
            "pots_attempted": self.pots_attempted,
            "pots_made": self.pots_made,
            "fouls_by_kind": dict(sorted(self.fouls.items())),
            "by_cut": [attrs.asdict(t) for t in self.by_cut],
            "by_distance": [attrs.asdict(t) for t in self.by_distance],
            "sessions": [attrs.asdict(s) for s in self.sessions],
            "accuracy": self.accuracy,
            "reviewed": [attrs.asdict(r) for r in self.reviewed],
        }


def since_value(text: str) -> str:
    """A ``--since`` date (``YYYY-MM-DD``) as the database compares it; ValueError else."""
    return dt.date.fromisoformat(text).isoformat()


def players(database: StatsDatabase, since: str | None = None) -> list[str]:
    """Every player with a match indexed (since ``since``), by name."""
    rows = database.connection.execute(
        "SELECT DISTINCT p.player FROM player_matches p JOIN matches m ON m.id = p.match_id"
        " WHERE m.played >= ? ORDER BY p.player",
        (since or "",),
    )
    return [str(row[0]) for row in rows]


def report(database: StatsDatabase, player: str, since: str | None = None) -> PlayerReport:
    """``player``'s statistics over the matches indexed (played on or after ``since``)."""
    db = database.connection
    after = since or ""
    sums = ", ".join(f"COALESCE(SUM(p.{c}), 0)" for c in COUNT_COLUMNS)
    row = db.execute(
        f"SELECT {sums} FROM player_matches p JOIN matches m ON m.id = p.match_id"
        " WHERE p.player = ? AND m.played >= ?",
        (player, after),
    ).fetchone()
    counts = PlayerFigures(*(int(value) for value in row))
    fouls = {
        str(code): int(count)
        for code, count in db.execute(
            "SELECT f.code, SUM(f.count) FROM fouls f JOIN matches m ON m.id = f.match_id"
            " WHERE f.player = ? AND m.played >= ? GROUP BY f.code",
            (player, after),
        )
    }
    own = {
        str(name): int(best if _best(str(name)) else total)
        for name, total, best in db.execute(
            "SELECT o.name, SUM(o.value), MAX(o.value) FROM own_figures o"
            " JOIN matches m ON m.id = o.match_id WHERE o.player = ? AND m.played >= ?"
            " GROUP BY o.name",
            (player, after),
        )
    }
    attempts = db.execute(
        "SELECT a.cut, a.distance, a.made, a.cue_x, a.cue_y, m.played FROM attempts a"
        " JOIN matches m ON m.id = a.match_id WHERE a.player = ? AND m.played >= ?"
        " ORDER BY m.played",
        (player, after),
    ).fetchall()
    return PlayerReport(
        player=player,
        counts=counts,
        fouls=fouls,
        pots_attempted=len(attempts),
        pots_made=sum(1 for a in attempts if a[2]),
        by_cut=_tallies([(a[0], bool(a[2])) for a in attempts], CUT_BINS),
        by_distance=_tallies([(a[1], bool(a[2])) for a in attempts], DISTANCE_BINS),
        cue_after_pots=tuple((a[3], a[4]) for a in attempts if a[2] and a[3] is not None),
        sessions=_sessions(db, player, after),
        own=own,
        reviewed=_reviewed(db, player, after),
    )


def _reviewed(db: sqlite3.Connection, player: str, after: str) -> tuple[Reviewed, ...]:
    rows = db.execute(
        "SELECT m.played, m.game, r.level, r.accuracy, r.shots FROM reviews r"
        " JOIN matches m ON m.id = r.match_id WHERE r.player = ? AND m.played >= ?"
        " ORDER BY m.played, m.id",
        (player, after),
    )
    return tuple(Reviewed(str(p), str(g), str(lv), float(a), int(n)) for p, g, lv, a, n in rows)


def _best(name: str) -> bool:
    """The own figure ``name`` is a best over matches (a high run), not a sum."""
    figure = OWN_FIGURES.get(name)
    return figure is not None and figure.best


def _tallies(values: Sequence[tuple[float, bool]], edges: Sequence[float]) -> tuple[Tally, ...]:
    tallies = []
    low = 0.0
    for high in edges:
        inside = [
            made
            for value, made in values
            if low <= value < high or (high == edges[-1] and value >= low)
        ]
        tallies.append(Tally(low, high, len(inside), sum(inside)))
        low = high
    return tuple(tallies)


def _sessions(db: sqlite3.Connection, player: str, after: str) -> tuple[Session, ...]:
    rows = db.execute(
        "SELECT m.played, COUNT(a.made), COALESCE(SUM(a.made), 0),"
        " (SELECT AVG(r.accuracy) FROM reviews r WHERE r.match_id = m.id AND r.player = ?)"
        " FROM matches m"
        " JOIN player_matches p ON p.match_id = m.id AND p.player = ?"
        " LEFT JOIN attempts a ON a.match_id = m.id AND a.player = ?"
        " WHERE m.played >= ? GROUP BY m.id ORDER BY m.played",
        (player, player, player, after),
    )
    return tuple(
        Session(str(played), int(n), int(made), None if accuracy is None else float(accuracy))
        for played, n, made, accuracy in rows
    )


def foul_words(code: str) -> str:
    """A foul code as a player reads it."""
    try:
        return FOUL_WORDS[FoulCode(code)]
    except ValueError:
        return code


def _percent(made: int, attempted: int) -> str:
    return f"{made}/{attempted} ({100 * made / attempted:.0f}%)" if attempted else "0/0"


def figure_rows(
    report: PlayerReport, foul_codes: Sequence[str] = (), own: Sequence[str] = ()
) -> list[tuple[str, str]]:
    """A player's figures as (label, value) rows, as the command line and the window
    show them; ``foul_codes``: the kinds of foul to list (default: the player's);
    ``own``: the games' own figures to list, by name (default: the player's)."""
    counts = report.counts
    accuracy = report.accuracy
    reviewed = len(report.reviewed)
    rows = [
        (
            "accuracy (reviewed)",
            "-"
            if accuracy is None
            else f"{accuracy:.0f}% ({reviewed} match{'es' * (reviewed != 1)})",
        ),
        ("matches won", _percent(counts.matches_won, counts.matches_played)),
        ("racks won", _percent(counts.racks_won, counts.racks_played)),
        ("legal breaks", _percent(counts.legal_breaks, counts.breaks)),
        ("balls on the break", str(counts.balls_on_break)),
        ("break-and-runs", str(counts.break_and_runs)),
        ("run-outs", str(counts.run_outs)),
        ("shots", str(counts.shots)),
        ("pots made", _percent(report.pots_made, report.pots_attempted)),
    ]
    rows += [
        (f"  cut {t.low:.0f}-{t.high:.0f} deg", _percent(t.made, t.attempted))
        for t in report.by_cut
    ]
    for t in report.by_distance:
        high = f"{t.high:.2f} m" if t.high < DISTANCE_BINS[-1] else "more"
        rows.append((f"  distance {t.low:.2f}-{high}", _percent(t.made, t.attempted)))
    rows += [
        ("safeties (left no shot)", f"{counts.safeties} ({counts.safeties_no_shot})"),
        ("kicks made", _percent(counts.kicks_made, counts.kicks)),
        ("fouls", str(counts.fouls)),
    ]
    codes = foul_codes or sorted(report.fouls)
    rows += [(f"  {foul_words(code)}", str(report.fouls.get(code, 0))) for code in codes]
    for name in own or sorted(report.own, key=own_order):
        rows.append((own_words(name), str(report.own.get(name, 0))))
        mean = OWN_FIGURES[name].mean_words(report.own) if name in OWN_FIGURES else None
        if mean is not None:
            rows.append(mean)  # balls per inning, beside the balls
    return rows


def own_order(name: str) -> tuple[int, str]:
    """Where a game's own figure is listed: in the order its game names them (14.1's
    balls before the innings they are read over), a name from a newer poolsim last."""
    names = list(OWN_FIGURES)
    return (names.index(name), name) if name in OWN_FIGURES else (len(names), name)


def own_words(name: str) -> str:
    """A game's own figure as a player reads it (its name, from a newer poolsim)."""
    figure = OWN_FIGURES.get(name)
    return figure.words if figure is not None else name


def table_lines(reports: Sequence[PlayerReport]) -> list[str]:
    """The reports as a table, one column a player, for the command line."""
    codes = sorted({code for r in reports for code in r.fouls})
    own = sorted({name for r in reports for name in r.own}, key=own_order)
    columns = [figure_rows(r, codes, own) for r in reports]
    labels = [label for label, _ in columns[0]] if columns else []
    rows = [("", [r.player for r in reports])]
    rows += [(label, [column[i][1] for column in columns]) for i, label in enumerate(labels)]
    width = max(len(label) for label, _ in rows)
    widths = [max(len(row[1][i]) for row in rows) for i in range(len(reports))]
    lines = [
        f"{label:<{width}}  " + "  ".join(f"{cell:>{widths[i]}}" for i, cell in enumerate(cells))
        for label, cells in rows
    ]
    return lines + accuracy_lines(reports)


def accuracy_lines(reports: Sequence[PlayerReport]) -> list[str]:
    """Each player's accuracy over time, by game: a line a player and game, its reviewed
    matches oldest first ("Ann, 9-ball: 2026-12-01 61%, 2026-12-06 72%")."""
    lines = []
    for r in reports:
        games = sorted({reviewed.game for reviewed in r.reviewed})
        for game in games:
            marks = ", ".join(
                f"{reviewed.played[:10]} {reviewed.accuracy:.0f}%"
                for reviewed in r.reviewed
                if reviewed.game == game
            )
            kind = GAMES.get(game)
            lines.append(f"{r.player}, {kind.display_name if kind else game}: {marks}")
    return ["", "accuracy over time (reviewed matches)", *lines] if lines else []
