"""The lag for the break (GEN-2, B-11 ``lag_fault_set``), judged from each lag shot's
facts and where its ball came to rest."""

from __future__ import annotations

import attrs

from rules.errors import IllegalAction
from rules.facts import CUE, BallId, OffTable, Pocketing, RailContact, RailName, ShotFacts
from rules.geometry import Point, TableGeometry
from rules.options import Options
from rules.ruling import Reason
from rules.terms import Player


@attrs.frozen(kw_only=True)
class LagShot:
    """One player's lag: the ball ``ball`` struck from ``start`` (behind the head string,
    on the player's side of the long string), the shot's facts (times from that stroke),
    and its resting centre (None when it was pocketed or left the table).
    ``struck_at``: the stroke on a clock common to both lags, in seconds.
    ``crossed_long_string``: the physics saw the ball's centre cross x = W/2 (a ball at
    rest on the opponent's side has crossed whatever this says)."""

    player: Player
    start: Point
    facts: ShotFacts
    rest: Point | None
    ball: BallId = CUE
    struck_at: float = 0.0
    crossed_long_string: bool = False


@attrs.frozen(kw_only=True)
class LagResult:
    """``winner``: None when the lag is to be replayed. For the plain line (the reasons
    are its details): ``faults``, each bad lag's faults in a few words ("touched the foot
    cushion twice"); ``late``, the player who struck after the other's ball had reached
    the foot cushion."""

    winner: Player | None
    reasons: tuple[Reason, ...]
    faults: tuple[tuple[Player, str], ...] = ()
    late: Player | None = None


def judge_lag(first: LagShot, second: LagShot, table: TableGeometry, options: Options) -> LagResult:
    """GEN-2: the ball resting nearest the head cushion wins, unless it is a bad lag.

    Both bad, a tie within ``lag_tie_epsilon``, or a ball struck after the other touched
    the foot cushion: the lag is replayed."""
    if {first.player, second.player} != set(Player):
        raise IllegalAction("GEN-2: the lag is one shot by each player")
    middle = table.width / 2
    for lag in (first, second):
        if not table.in_kitchen(lag.start, options.head_string_epsilon) or lag.start[0] == middle:
            raise IllegalAction(
                f"GEN-2: {lag.player} must lag from behind the head string, "
                "on one side of the long string"
            )
        for fact in lag.facts:
            if isinstance(fact, RailContact) and fact.ball == lag.ball and fact.rail is None:
                raise IllegalAction("GEN-2: a lag needs the name of every cushion it touches")
    if (first.start[0] < middle) == (second.start[0] < middle):
        raise IllegalAction("GEN-2: the two lags start on opposite sides of the long string")

    for lag, other in ((first, second), (second, first)):
        late = _struck_late(lag, other)
        if late is not None:
            return LagResult(winner=None, reasons=(late,), late=other.player)
    faults = {lag.player: _faults(lag, table, options) for lag in (first, second)}
    reasons = tuple(
        Reason("GEN-2", f"{player}'s lag is bad: it {fault}{note}")
        for player, found in faults.items()
        for fault, note in found
    )
    plain = tuple((player, fault) for player, found in faults.items() for fault, _ in found)
    bad = {player for player, found in faults.items() if found}
    if len(bad) == 2:
        return LagResult(
            winner=None,
            reasons=(*reasons, Reason("GEN-2", "both lags are bad: the lag is replayed")),
            faults=plain,
        )
    if len(bad) == 1:
        (loser,) = bad
        return LagResult(
            winner=loser.other,
            reasons=(*reasons, Reason("GEN-2", f"{loser.other} wins the lag")),
            faults=plain,
        )
    assert first.rest is not None and second.rest is not None
    gap = first.rest[1] - second.rest[1]
    if abs(gap) <= options.lag_tie_epsilon:
        return LagResult(
            winner=None,
            reasons=(
                Reason("GEN-2", "the two balls stopped equally near the head cushion: replayed"),
            ),
        )
    winner = first.player if gap < 0 else second.player
    return LagResult(
        winner=winner,
        reasons=(
            Reason(
                "GEN-2", f"{winner}'s ball stopped nearer the head cushion: {winner} wins the lag"
            ),
        ),
    )


def _struck_late(lag: LagShot, other: LagShot) -> Reason | None:
    """GEN-2: replayed when ``other`` was struck after ``lag`` touched the foot cushion."""
    foot = next(
        (
            f.t
            for f in lag.facts
            if isinstance(f, RailContact)
            and f.ball == lag.ball
            and f.rail is RailName.FOOT
            and f.t is not None
        ),
        None,
    )
    if foot is None or other.struck_at <= lag.struck_at + foot:
        return None
    return Reason(
        "GEN-2",
        f"{other.player} struck after {lag.player}'s ball had reached the "
        "foot cushion: the lag is replayed",
    )


def _faults(lag: LagShot, table: TableGeometry, options: Options) -> list[tuple[str, str]]:
    """The GEN-2 faults of one lag (B-11: the S000 set omits the last two), each in a few
    words about the ball, and what the rule adds in the details."""
    own = [
        f
        for f in lag.facts
        if isinstance(f, RailContact | Pocketing | OffTable) and f.ball == lag.ball
    ]
    rails = [f.rail for f in own if isinstance(f, RailContact)]
    faults: list[tuple[str, str]] = []
    feet = rails.count(RailName.FOOT)
    if feet == 0:
        faults.append(("never touched the foot cushion", ""))
    elif feet > 1:
        times = "twice" if feet == 2 else f"{feet} times"
        faults.append((f"touched the foot cushion {times}", "; once is required"))
    if any(isinstance(f, Pocketing | OffTable) for f in own) or lag.rest is None:
        faults.append(("was pocketed or left the table", ""))
    if RailName.LEFT in rails or RailName.RIGHT in rails:
        faults.append(("touched a side cushion", ""))
    if options.lag_fault_set == "wpa" and lag.rest is not None:
        middle = table.width / 2
        rest_side = lag.rest[0] < middle if lag.rest[0] != middle else lag.start[0] < middle
        if lag.crossed_long_string or rest_side != (lag.start[0] < middle):
            faults.append(("crossed into the opponent's half", ""))
        if lag.rest[1] < table.ball_radius - options.contact_epsilon:
            faults.append(("stopped in a corner-pocket opening past the head cushion", ""))
    return faults
