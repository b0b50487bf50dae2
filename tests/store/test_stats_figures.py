"""The players' figures (sim.play.figures) of a game file, each against a count by hand on
a small game document written here shot by shot (only the keys the figures read)."""

from __future__ import annotations

from typing import Any

import pytest

from sim.physics.table import PocketId, pocket_mouth, table_spec
from sim.play.figures.attempts import left_no_shot, pot_attempted
from sim.play.figures.counts import PlayerFigures
from sim.play.geometry.pots import cut_and_distance
from sim.store.stats.figures import file_figures, step_of_record

SPEC = table_spec("9ft")
RADIUS = SPEC.ball_radius
MOUTHS = {p.value: pocket_mouth(SPEC.build(), p) for p in PocketId}
Balls = dict[str, tuple[float, float]]


def shot(
    shooter: str,
    start: Balls,
    after: Balls,
    *,
    call: tuple[str, str] | None = None,
    declaration: str | None = None,
    pocketed: dict[str, str] | None = None,  # ball: pocket
    fouls: tuple[str, ...] = (),
    next_shooter: str | None = None,
    kick: bool = False,
    rack_over: bool = False,
    winner: str | None = None,
    ball_in_hand: str | None = None,
) -> dict[str, Any]:
    pocketed = pocketed or {}
    first = min((b for b in start if b != "cue"), key=int)
    events: list[dict[str, Any]] = [{"type": "rail", "ball": "cue", "rail": "left"}] if kick else []
    events.append({"type": "hit", "balls": ["cue", first]})
    events += [{"type": "pocket", "ball": b, "pocket": p} for b, p in pocketed.items()]
    return {
        "type": "shot",
        "rack": 1,
        "shooter": shooter,
        "call": {"ball": call[0], "pocket": call[1]} if call else None,
        "declaration": declaration,
        "start": {b: list(xy) for b, xy in start.items()},
        "events": events,
        "after": {b: list(xy) for b, xy in after.items()},
        "ruling": {
            "foul_codes": list(fouls),
            "pocketed": list(pocketed),
            "next_shooter": next_shooter or shooter,
            "ball_in_hand": ball_in_hand,
            "rack_over": rack_over,
            "rerack": False,
            "winner": winner,
            "positions": {b: list(xy) for b, xy in after.items()},
            "score": {"A": 0, "B": 0},
        },
    }


def document(game: str, records: list[dict[str, Any]], race_to: int = 1) -> dict[str, Any]:
    return {
        "format": "poolsim-game",
        "setup": {"game": game, "race_to": race_to, "table": "9ft", "players": ["Ann", "Bob"]},
        "records": records,
    }


# A rack of 10-ball: Ann breaks (the 2 down), pots the 1, misses the 3; Bob kicks safe
# behind the 10 (Ann has no shot); Ann scratches; Bob runs the 3 and the 10 out.
CUE_HIDDEN = (0.635, 1.0)
RACK = [
    shot(
        "A",
        {"cue": (0.6, 0.5), "1": (0.635, 1.9), "2": (0.7, 2.0), "3": (0.5, 2.0), "10": (0.9, 2.1)},
        {"cue": (0.635, 1.5), "1": (0.635, 2.0), "3": (0.4, 2.2), "10": (0.9, 2.1)},
        pocketed={"2": "lt"},
    ),
    shot(
        "A",
        {"cue": (0.635, 1.5), "1": (0.635, 2.0), "3": (0.4, 2.2), "10": (0.9, 2.1)},
        {"cue": (0.6, 1.8), "3": (0.4, 2.2), "10": (0.9, 2.1)},
        call=("1", "rt"),
        pocketed={"1": "rt"},
    ),
    shot(
        "A",
        {"cue": (0.6, 1.8), "3": (0.4, 2.2), "10": (0.9, 2.1)},
        {"cue": (0.7, 1.4), "3": (0.2, 2.3), "10": (0.9, 2.1)},
        call=("3", "lt"),
        next_shooter="B",
    ),
    shot(
        "B",
        {"cue": (0.7, 1.4), "3": (0.2, 2.3), "10": (0.9, 2.1)},
        {"cue": CUE_HIDDEN, "10": (0.635, 1.06), "3": (0.635, 2.0)},
        declaration="safety",
        kick=True,
        next_shooter="A",
    ),
    shot(
        "A",
        {"cue": CUE_HIDDEN, "10": (0.635, 1.06), "3": (0.635, 2.0)},
        {"10": (0.635, 1.06), "3": (0.7, 2.1)},
        call=("3", "lb"),
        pocketed={"cue": "lb"},
        fouls=("scratch",),
        next_shooter="B",
        ball_in_hand="table",
    ),
    shot(
        "B",
        {"cue": (0.5, 1.7), "10": (0.635, 1.06), "3": (0.7, 2.1)},
        {"cue": (0.3, 1.5), "10": (0.635, 1.06)},
        call=("3", "rt"),
        pocketed={"3": "rt"},
    ),
    shot(
        "B",
        {"cue": (0.3, 1.5), "10": (0.635, 1.06)},
        {"cue": (0.8, 0.9)},
        call=("10", "lb"),
        pocketed={"10": "lb"},
        rack_over=True,
        winner="B",
    ),
]


def test_a_rack_counted_by_hand() -> None:
    figures = file_figures(document("ten-ball", RACK), SPEC)
    ann, bob = figures.counts
    assert figures.players == ("Ann", "Bob")
    assert ann == PlayerFigures(
        matches_played=1,
        racks_played=1,
        shots=4,
        fouls=1,
        breaks=1,
        legal_breaks=1,
        balls_on_break=1,
    )
    assert bob == PlayerFigures(
        matches_played=1,
        matches_won=1,
        racks_played=1,
        racks_won=1,
        shots=3,
        run_outs=1,
        safeties=1,
        safeties_no_shot=1,
        kicks=1,
        kicks_made=1,
    )
    assert figures.fouls == ({"scratch": 1}, {})
    attempts = [(a.player, a.ball, a.pocket, a.made) for a in figures.attempts]
    assert attempts == [
        ("Ann", "1", "rt", True),
        ("Ann", "3", "lt", False),
        ("Ann", "3", "lb", False),
        ("Bob", "3", "rt", True),
        ("Bob", "10", "lb", True),
    ]
    assert figures.attempts[0].cue_after == (0.6, 1.8)  # where the cue ball stopped
    assert figures.attempts[1].cue_after is None  # a miss


def test_a_break_and_run_is_not_also_a_run_out() -> None:
    start = {"cue": (0.6, 0.5), "1": (0.635, 1.9), "10": (0.635, 2.0)}
    records = [
        shot("A", start, {"cue": (0.6, 1.5), "10": (0.635, 2.0)}, pocketed={"1": "lt"}),
        shot(
            "A",
            {"cue": (0.6, 1.5), "10": (0.635, 2.0)},
            {"cue": (0.6, 1.7)},
            call=("10", "rt"),
            pocketed={"10": "rt"},
            rack_over=True,
            winner="A",
        ),
    ]
    ann, bob = file_figures(document("ten-ball", records, race_to=3), SPEC).counts
    assert (ann.break_and_runs, ann.run_outs, ann.racks_won, ann.matches_played) == (1, 0, 1, 0)
    assert bob == PlayerFigures(racks_played=1)


def test_a_rack_won_leaving_balls_behind_is_not_a_run_out() -> None:
    """9-ball: the 9 on a combination, the 2 still on the table."""
    records = [
        shot("A", {"cue": (0.6, 0.5), "1": (0.6, 1.9), "2": (0.3, 2.0), "9": (0.7, 2.0)},
             {"cue": (0.6, 1.0), "1": (0.6, 1.9), "2": (0.3, 2.0), "9": (0.7, 2.0)},
             next_shooter="B"),
        shot("B", {"cue": (0.6, 1.0), "1": (0.6, 1.9), "2": (0.3, 2.0), "9": (0.7, 2.0)},
             {"cue": (0.6, 1.5), "1": (0.6, 2.2), "2": (0.3, 2.0)},
             pocketed={"9": "rt"}, rack_over=True, winner="B"),
    ]  # fmt: skip
    ann, bob = file_figures(document("nine-ball", records), SPEC).counts
    assert (bob.racks_won, bob.run_outs, bob.break_and_runs) == (1, 0, 0)
    assert ann.legal_breaks == 1 and ann.balls_on_break == 0


def test_without_a_call_the_pot_attempted_is_the_ball_on_and_where_it_went() -> None:
    start = {"cue": (0.635, 1.0), "1": (0.635, 2.0), "5": (0.2, 1.0)}
    down = shot("A", start, {"cue": (0.635, 1.9), "5": (0.2, 1.0)}, pocketed={"1": "rt"})
    attempt = pot_attempted(step_of_record(down), False, ("Ann", "Bob"), MOUTHS, RADIUS)
    assert attempt is not None
    assert (attempt.ball, attempt.pocket, attempt.called, attempt.made) == ("1", "rt", False, True)
    # Missed, rolling toward the foot-left corner (x = 0, y = length): that pocket.
    rolled = shot("A", start, {"cue": (0.635, 1.5), "1": (0.3, 2.4), "5": (0.2, 1.0)})
    attempt = pot_attempted(step_of_record(rolled), False, ("Ann", "Bob"), MOUTHS, RADIUS)
    assert attempt is not None and (attempt.ball, attempt.pocket, attempt.made) == (
        "1",
        "lt",
        False,
    )
    a_break = pot_attempted(step_of_record(down), True, ("Ann", "Bob"), MOUTHS, RADIUS)
    assert a_break is None
    safe = shot("A", start, start, declaration="safety")
    assert pot_attempted(step_of_record(safe), False, ("Ann", "Bob"), MOUTHS, RADIUS) is None


def test_cut_angle_and_distance() -> None:
    mouth = MOUTHS["rt"]
    straight = (mouth[0] - 0.5, mouth[1] - 0.5)
    cue = (straight[0] - 0.5, straight[1] - 0.5)
    cut, distance = cut_and_distance(cue, straight, mouth, RADIUS)
    assert cut == pytest.approx(0.0, abs=1e-4)
    assert distance == pytest.approx(2 * 0.5 * 2**0.5 - 2 * RADIUS)
    square = (straight[0] + 0.5, straight[1] - 0.5)  # the cue ball's path at 90 degrees
    assert cut_and_distance(square, straight, mouth, RADIUS)[0] == pytest.approx(90, abs=5)


def test_a_safety_leaves_no_shot_only_when_every_pot_is_blocked() -> None:
    assert left_no_shot(step_of_record(RACK[3]), SPEC)
    open_table = shot(
        "B", RACK[3]["start"], {"cue": (0.635, 1.5), "3": (0.635, 2.0)},
        declaration="safety", next_shooter="A",
    )  # fmt: skip
    assert not left_no_shot(step_of_record(open_table), SPEC)
    fouled = shot(
        "B", RACK[3]["start"], RACK[3]["after"], declaration="safety", fouls=("no-rail",),
        next_shooter="A", ball_in_hand="table",
    )  # fmt: skip
    assert not left_no_shot(step_of_record(fouled), SPEC)


def test_a_shot_from_a_table_set_up_by_hand_is_no_break() -> None:
    """Issue 28, friction 14: on the practice table a shot after a set-up by hand is an
    ordinary shot; only a set-up racked to be broken ("break": true) makes a break."""
    table = {"cue": (0.635, 0.6), "1": (0.635, 1.5)}
    setup = {"type": "setup", "balls": {}, "turn": "A", "in_hand": None, "refereed": False}
    first, second = shot("A", table, table), shot("A", table, table)
    (ann, _) = file_figures(document("nine-ball", [setup, first, setup, second]), SPEC).counts
    assert (ann.shots, ann.breaks, ann.legal_breaks) == (2, 0, 0)
    racked = {**setup, "break": True}
    (ann, _) = file_figures(document("nine-ball", [racked, first, second]), SPEC).counts
    assert (ann.shots, ann.breaks) == (2, 1)
    (ann, _) = file_figures(document("nine-ball", [first, second]), SPEC).counts
    assert ann.breaks == 1  # a match's rack: its first shot is the break


def time_foul(
    shooter: str, *, rack_over: bool = False, winner: str | None = None
) -> dict[str, Any]:
    """The shot clock run out before ``shooter`` struck (GEN-17): a foul with no stroke."""
    other = "B" if shooter == "A" else "A"
    return {
        "type": "time-foul",
        "rack": 1,
        "shooter": shooter,
        "extension": False,
        "ruling": {
            "foul_codes": ["shot-clock"],
            "pocketed": [],
            "next_shooter": other,
            "ball_in_hand": "anywhere",
            "rack_over": rack_over,
            "rerack": False,
            "winner": winner,
            "positions": {},
            "score": {"A": 0, "B": 0},
        },
    }


def test_a_time_foul_is_a_foul_of_its_kind_and_no_shot() -> None:
    """Ann's clock runs out once before her scratch: one more foul, by its kind, no shot."""
    records = [*RACK[:4], time_foul("A"), *RACK[4:]]
    figures = file_figures(document("ten-ball", records), SPEC)
    ann, bob = figures.counts
    assert (ann.shots, ann.fouls) == (4, 2)
    assert figures.fouls == ({"scratch": 1, "shot-clock": 1}, {})
    assert bob.run_outs == 1  # Bob's run out after it stands


def test_a_rack_lost_on_a_time_foul_is_played_and_won() -> None:
    records = [*RACK[:4], time_foul("A", rack_over=True, winner="B")]
    ann, bob = file_figures(document("ten-ball", records), SPEC).counts
    assert (ann.racks_played, bob.racks_played, bob.racks_won) == (1, 1, 1)
    assert bob.run_outs == 0 and ann.fouls == 1
