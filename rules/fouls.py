"""The fouls both games read the same way from a shot (GEN-6, GEN-9..13, GEN-17) and the
break requirement (TB-6, ROT-5), as pure functions of the shot, its reading and the table.

Each found foul carries its code and the reason a player is told; GEN-14 lists them all
and the game applies one penalty.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from rules.analysis import ShotReading
from rules.facts import CUE, OffTable, Pocketing
from rules.geometry import TableGeometry
from rules.options import Options
from rules.positions import describe
from rules.ruling import Reason
from rules.shot import Shot
from rules.terms import FoulCode
from rules.words import FOUL_WORDS, pocket_name


@attrs.frozen
class Foul:
    code: FoulCode
    rule: str
    text: str

    @property
    def reason(self) -> Reason:
        return Reason(self.rule, self.text, foul=True)


def codes_and_reasons(
    found: Iterable[Foul], *, struck: bool = True
) -> tuple[tuple[FoulCode, ...], tuple[Reason, ...]]:
    """The codes (each once, in the order found) and the reasons of ``found``. With no
    stroke (``struck`` False: the shot clock ran out, GEN-17) the time foul stands alone:
    a cue ball never struck hit no ball, but that is no foul of its own."""
    found = [f for f in found if struck or f.code is FoulCode.SHOT_CLOCK]
    return tuple(dict.fromkeys(f.code for f in found)), tuple(f.reason for f in found)


def general_fouls(
    shot: Shot,
    reading: ShotReading,
    table: TableGeometry,
    options: Options,
    *,
    kitchen_in_hand: bool,
    hill_hill: bool,
) -> list[Foul]:
    """GEN-9, GEN-12, GEN-6 (with B-16 ``foul``), GEN-17 and GEN-13."""
    found: list[Foul] = []
    for fact in reading.facts:
        if isinstance(fact, Pocketing) and fact.ball == CUE:
            text = f"the cue ball was pocketed in the {pocket_name(fact.pocket)}"
            found.append(Foul(FoulCode.SCRATCH, "GEN-9", text))
        elif isinstance(fact, OffTable) and fact.ball == CUE:
            found.append(Foul(FoulCode.CUE_OFF_TABLE, "GEN-9", "the cue ball left the table"))
        elif isinstance(fact, OffTable):
            found.append(Foul(FoulCode.BALL_OFF_TABLE, "GEN-12", f"the {fact.ball} left the table"))
    placement = shot.placement
    if (
        kitchen_in_hand
        and placement
        and not table.in_kitchen(placement, options.head_string_epsilon)
    ):
        text = (
            f"the cue ball was in hand in the kitchen but was struck from y = "
            f"{placement[1]:.3f} m, on or past the head string (y = {table.head_string_y:.3f} m)"
        )
        found.append(Foul(FoulCode.BAD_PLACEMENT, "GEN-6", text))
    limit = options.shot_clock_s
    if limit is not None and shot.clock_s is not None:
        if shot.extension and options.shot_clock_extension_s is not None:
            limit += options.shot_clock_extension_s
        clock_off = hill_hill and options.shot_clock_off_at_hill_hill
        # "Not struck before the clock expires": a stroke as it runs out is late too.
        if shot.clock_s >= limit and not clock_off:
            text = (
                f"the shot clock ran out: the stroke came at {shot.clock_s:.1f} s "
                f"and the clock allows {limit:.1f} s"
            )
            found.append(Foul(FoulCode.SHOT_CLOCK, "GEN-17", text))
    for code in sorted(shot.referee_fouls):
        rule = "GEN-17" if code is FoulCode.SHOT_CLOCK else "GEN-13"
        text = f"the referee called a foul: {FOUL_WORDS[code]}"
        if not shot.struck:
            text = "the shot clock ran out before the stroke: the referee calls the foul"
        found.append(Foul(code, rule, text))
    return found


def contact_fouls(
    reading: ShotReading, options: Options, *, is_break: bool, break_rule: str
) -> list[Foul]:
    """GEN-10 (on the break under ``break_rule`` and B-2) and, off the break, GEN-11."""
    first, lowest = reading.first_contact, reading.lowest
    if first is None:
        no_hit = [Foul(FoulCode.NO_HIT, "GEN-10", "the cue ball hit no ball")]
        if not is_break:  # "filed under 6.2 and also fails 6.3"; on the break, break_fouls
            text = "with no ball hit, no ball was driven to a cushion either"
            no_hit.append(Foul(FoulCode.NO_RAIL, "GEN-11", text))
        return no_hit
    found: list[Foul] = []
    if first != lowest and (not is_break or options.break_must_hit_lowest_first):
        text = f"the cue ball hit the {first} first; the lowest ball was the {lowest}"
        found.append(Foul(FoulCode.WRONG_BALL, break_rule if is_break else "GEN-10", text))
    if not is_break and not reading.pocketed and not reading.rail_after_first_contact:
        text = f"after the cue ball hit the {first}, no ball reached a cushion and none dropped"
        found.append(Foul(FoulCode.NO_RAIL, "GEN-11", text))
    return found


def break_fouls(reading: ShotReading, options: Options, rule: str) -> list[Foul]:
    """TB-6 / ROT-5 with B-3: a ball pocketed, or enough object balls to a cushion; with a
    failed requirement, GEN-11's ``no-rail`` too where nothing reached a cushion."""
    counted = set(reading.rail_balls)
    if options.break_rail_count_mode == "distinct_excluding_first_ball":
        counted.discard(reading.lowest or "")
    if options.break_pocketed_counts_as_rail:
        counted.update(reading.pocketed)
    needed = options.break_required_rail_balls
    if reading.pocketed or len(counted) >= needed:
        return []
    if counted:
        balls = f"only {len(counted)} object ball{'s' if len(counted) != 1 else ''}"
        balls += f" ({describe(counted)})"
    else:
        balls = "no object ball"
    text = f"nothing was pocketed and {balls} reached a cushion; the break needs {needed}"
    found = [Foul(FoulCode.ILLEGAL_BREAK, rule, text)]
    # GEN-11 knows no exception for the break (and GEN-10: a no-hit "also fails 6.3"),
    # but TB-6 / ROT-5 decide whether a break is legal: GEN-11 is listed only beside a
    # failed break requirement, never a foul on its own (GEN-14: one foul either way).
    if not reading.rail_after_first_contact:
        what = "no ball was hit" if reading.first_contact is None else "after the first contact"
        found.append(
            Foul(FoulCode.NO_RAIL, "GEN-11", f"{what}, no ball reached a cushion and none dropped")
        )
    return found
