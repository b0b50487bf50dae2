"""The words the window shows, without a window: the physics' warm-up line."""

from __future__ import annotations

import attrs

from sim.app.hud.texts import physics_status
from sim.physics.simulators.simulator import Progress


@attrs.define
class Simulator:
    """Just what the status line reads of a simulator."""

    ready: bool = False
    progress: Progress | None = None


def test_ready_says_nothing() -> None:
    assert physics_status(Simulator(ready=True), 0.0) == ""  # type: ignore[arg-type]


def test_before_the_first_report() -> None:
    assert physics_status(Simulator(), 5.0) == "starting the physics..."  # type: ignore[arg-type]


def test_a_first_run_says_it_compiles_and_counts_the_seconds() -> None:
    progress = Progress(0, 4, "a cut shot into a corner pocket", first_run=True, started=100.0)
    line = physics_status(Simulator(progress=progress), 172.9)  # type: ignore[arg-type]
    assert (
        line == "First run: compiling the physics, once · 1:12 (usually 40 s to 2 min) · step 1/4"
    )
    assert len(line) <= 84  # it fits between the camera buttons and the referee panel


def test_the_seconds_count_while_the_process_starts() -> None:
    progress = Progress(0, 0, "starting", first_run=True, started=100.0)
    line = physics_status(Simulator(progress=progress), 109.0)  # type: ignore[arg-type]
    assert line == "First run: compiling the physics, once · 0:09 (usually 40 s to 2 min)"


def test_a_later_run_never_claims_a_first_one() -> None:
    progress = Progress(2, 4, "a rotation break", first_run=False, started=10.0)
    line = physics_status(Simulator(progress=progress), 11.5)  # type: ignore[arg-type]
    assert line == "loading the physics · 0:01 · step 3/4"


def test_a_refusal_is_worded_with_the_windows_key_for_what_is_wanted() -> None:
    from sim.app.hud.texts import ASKED, refusal
    from sim.play.game import GameError, Wanted

    wanted = GameError("the cue ball is in hand: put it down first", Wanted.PUT_DOWN)
    assert refusal(wanted) == "the cue ball is in hand: put it down first (click, or Space)"
    assert refusal(GameError("no call is needed here")) == "no call is needed here"
    assert set(ASKED) == set(Wanted)  # every want has its words in the window
