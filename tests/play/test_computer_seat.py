"""The computer at the table, without a window (issue 12, item 3): its seat plays the
lag, the breaker's choice and its shots through the table's logic, each shot recorded
with its level and seed; a person is refused at its turn; taking back goes to the
person's last shot; the hint loads a stroke. The thinking runs in this process here
(:class:`InProcessThinker`); the window's is a process of its own (tests/app)."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rules import CUE, GAMES, Phase, Player
from sim.physics.simulate import simulate_shot
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.physics.table import table_spec
from sim.play.game import Game, GameError, GameSetup, LagRecord, ShotRecord, shot_of
from sim.play.opponent.player import ThinkRequest
from sim.play.opponent.thinker_process import (
    HINT_PATH_POINTS,
    InProcessThinker,
    ThinkerProcess,
    Thought,
    hint,
    leave_words,
    place_words,
)
from sim.play.table.controller import TableController
from sim.play.table.turn import Stage
from sim.store.verify import verify_decisions
from tests.play.test_controller import Clock

R = table_spec("9ft").ball_radius

pytestmark = pytest.mark.physics


@pytest.fixture
def worker() -> Iterator[InProcessSimulator]:
    physics = InProcessSimulator()
    yield physics
    physics.close()


def table(
    worker: InProcessSimulator, computers: dict[Player, str], breaker: Player | None = None
) -> tuple[TableController, Clock]:
    clock = Clock()
    game = Game(GameSetup(game="ten-ball", race_to=2, seed=3, players=("Ann", "Bob")))
    if breaker is not None:
        game.start(breaker)
    controller = TableController(game, worker, None, clock=clock, computers=computers)
    return controller, clock


def run(
    controller: TableController, clock: Clock, until: Callable[[], object], limit: float = 120.0
) -> list[str]:
    """Frames (a twentieth of a second each) until ``until()``; the thinking lines seen."""
    seen = []
    deadline = time.monotonic() + limit
    while not until():
        assert time.monotonic() < deadline, f"stuck at {controller.stage}"
        clock.now += 0.05
        controller.update()
        words = controller.seat.words()
        if words:
            seen.append(words)
    return seen


def test_two_computers_lag_choose_and_shoot(worker: InProcessSimulator) -> None:
    controller, clock = table(worker, {Player.A: "1", Player.B: "1"})
    game = controller.game
    run(controller, clock, lambda: len(game.shots) >= 2)
    (lag,) = [r for r in game.records if isinstance(r, LagRecord)]
    # Each lag stroke the computer's own, and made again the same from its seed.
    assert [p.level if p else None for p in lag.players] == ["1", "1"]
    lags = [c for c in verify_decisions(game) if c.label.startswith("lag")]
    assert [c.label for c in lags] == ["lag (A)", "lag (B)"] and all(c.same for c in lags)
    shots = [r for r in game.records if isinstance(r, ShotRecord)]
    for shot in shots:
        player = shot.stroke.player
        assert player is not None and player.level == "1"
    assert shots[0].stroke.player != shots[1].stroke.player  # each decision its own seed
    assert (
        controller.seat_name(Player.A) == "Ann (level 1)"
    )  # the name the referee uses, with its level


def test_the_computer_thinks_shows_its_stroke_then_strikes(worker: InProcessSimulator) -> None:
    controller, clock = table(worker, {Player.A: "1"}, breaker=Player.A)
    seen = run(controller, clock, lambda: controller.seat.showing is not None)
    assert seen == ["Ann (level 1) is thinking… 0 s"]  # answered at the first look
    assert controller.stage is Stage.AIM and controller.shot_in_play
    struck_at = controller.seat.showing.until  # type: ignore[union-attr]
    assert controller.aim.action() == controller.seat.showing.stroke.action  # type: ignore[union-attr]
    run(controller, clock, lambda: controller.stage is Stage.SIMULATING or controller.watching)
    assert clock.now >= struck_at  # the cue rested on its aim first


def test_a_person_is_refused_at_the_computers_turn(worker: InProcessSimulator) -> None:
    controller, _clock = table(worker, {Player.B: "1"}, breaker=Player.B)
    with pytest.raises(GameError, match="Bob \\(level 1\\)'s turn"):
        controller.confirm_placement()
    assert controller.move_cue_ball((0.6, 0.4)) is False
    controller.set_direction(12.0)  # ignored: the computer's aim is its own
    assert controller.aim.direction != 12.0
    with pytest.raises(GameError, match="person at the table"):
        controller.seat.ask_hint()


def test_the_hint_at_the_lag_says_the_lag_has_none(worker: InProcessSimulator) -> None:
    controller, _clock = table(worker, {})  # no breaker: the match opens with the lag
    assert controller.stage is Stage.LAG
    with pytest.raises(GameError, match=r"the lag has no hint: .* foot rail"):
        controller.seat.ask_hint()
    assert controller.seat.thinking is None


def test_take_it_again_goes_back_to_the_persons_shot(worker: InProcessSimulator) -> None:
    controller, clock = table(worker, {Player.B: "1"}, breaker=Player.A)
    controller.placement = (0.635, 0.5)
    controller.confirm_placement()
    controller.set_power(0.2)  # a soft break: Bob comes to the table
    controller.strike()
    game = controller.game
    run(controller, clock, lambda: len(game.shots) >= 2 and not controller.shot_in_play)
    person = game.shots[0]
    assert person.stroke.player is None and game.shots[1].stroke.player is not None
    taken = controller.branches.take_back()
    assert taken is person
    assert controller.shooter is Player.A and controller.computer_level is None
    assert controller.aim.action() == person.stroke.action


def test_the_hint_loads_the_computers_stroke(worker: InProcessSimulator) -> None:
    controller, clock = table(worker, {}, breaker=Player.A)
    controller.seat.ask_hint()
    run(controller, clock, lambda: controller.seat.thinking is None)
    hint = controller.seat.hint
    assert hint is not None and hint.words.startswith("break")
    assert controller.message == f"Hint: {hint.words}"
    assert controller.stage is Stage.AIM  # the cue ball put down where the hint puts it
    assert controller.placement is not None
    assert hint.cue_after is not None


def test_the_thinker_process_answers_as_this_process_does() -> None:
    """The window's thinker: the same move from another process, by job number."""
    game = Game(GameSetup(game="ten-ball", seed=3))
    game.start(Player.A)
    state = game.rack
    assert state is not None
    request = ThinkRequest(state, "9ft", "1", (3, 1, 1, 0))
    local = InProcessThinker()
    expected = local.take(local.ask(request))
    process = ThinkerProcess().start()
    try:
        answer = process.wait(process.ask(request))
    finally:
        process.close()
    assert isinstance(answer, Thought) and isinstance(expected, Thought)
    assert answer.move.stroke == expected.move.stroke


def test_a_game_with_the_computers_shots_saves_and_loads(
    worker: InProcessSimulator, tmp_path: Path
) -> None:
    from sim.store.gamefile import load, save

    controller, clock = table(worker, {Player.A: "1"}, breaker=Player.A)
    run(controller, clock, lambda: len(controller.game.shots) >= 1 and not controller.shot_in_play)
    path = tmp_path / "g.poolsim"
    save(controller.game, path)
    again = load(path)
    assert again.shots[0].stroke.player == controller.game.shots[0].stroke.player
    # Opened again (or resumed), the game knows who played its seats: A the computer.
    assert again.computer_seats() == {Player.A: "1"}
    resumed = TableController(again, worker, None, clock=clock, computers=again.computer_seats())
    assert resumed.computers == {Player.A: "1"}


def test_the_seats_follow_each_seats_last_shot() -> None:
    from sim.physics.simulate import CueAction
    from sim.play.game import ComputerPlayer, Stroke

    game = Game(GameSetup(game="ten-ball", race_to=2, seed=3, players=("Ann", "Bob")))
    game.start(Player.A)
    assert game.computer_seats() == {}
    computer = ComputerPlayer("3", (3, 1, 1, 0))
    game.shoot(Stroke(action=CueAction(8.0, 90.0), placement=(0.635, 0.5), player=computer))
    assert game.computer_seats() == {game.shots[0].shooter: "3"}


def test_a_computers_seat_is_named_for_what_it_is() -> None:
    from sim.names import seat_names

    assert seat_names(("Ann", "Player 2"), {Player.B: "3"}) == ("Ann", "Computer (level 3)")
    assert seat_names(("Player 1", "Player 2"), {Player.A: "1", Player.B: "1"}) == (
        "Computer A (level 1)",
        "Computer B (level 1)",
    )
    assert seat_names(("Ann", "Bob"), {Player.B: "perfect"}) == ("Ann", "Bob")  # named
    assert seat_names(("Player 1", "Bob"), {Player.A: "perfect"})[0] == "Computer (perfect)"


def test_a_computer_seat_the_player_named_keeps_its_name_with_its_level() -> None:
    """With `--players Ann,Bob --computer B:5` the referee's lines say "Bob": the
    scoreboard and the thinking line say "Bob (level 5)", not another name."""
    from sim.names import computer_seat_name

    assert computer_seat_name("Bob", "5", 1) == "Bob (level 5)"
    assert computer_seat_name("Bob", "perfect", 1) == "Bob (perfect)"
    assert computer_seat_name("Player 2", "3", 1) == "Computer (level 3)"
    assert computer_seat_name("", "3", 0) == "Computer (level 3)"
    assert computer_seat_name("Computer B (level 1)", "1", 1) == "Computer B (level 1)"


def test_the_hint_names_the_nearest_ball_the_next_shot_may_hit() -> None:
    """In 14.1 any ball is on (SP-6): the hint names the one the cue ball is left near,
    not the lowest number on the table (it said "it leaves you the 1" of a ball 1.5 m
    away); in 9-ball it is still the lowest."""
    balls = {CUE: (0.5, 1.0), "1": (1.0, 2.4), "9": (0.6, 1.2)}
    straight = GAMES["straight-pool"](balls=balls, phase=Phase.PLAY)
    assert leave_words(straight, straight, (0.5, 1.0), "9ft").startswith(
        "it leaves you the 9, 0.2 m from the cue ball"
    )
    nine = GAMES["nine-ball"](balls=balls, phase=Phase.PLAY)
    assert leave_words(nine, nine, (0.5, 1.0), "9ft").startswith("it leaves you the 1, 1.5 m")


def test_a_hint_hooked_from_every_one_rail_path_kicks_off_more_rails() -> None:
    """Seen at the table (issue 31's play-through): the cue ball by the left rail with
    the 9 between it and the 2, every straight and one-rail path crossing a ball. The
    hint said "play safe off the 2" and loaded a hit through the 9 (a foul); then
    "no legal hit found". The two-rail kicks find one: the hint says how many rails
    its cue ball takes, its stroke hits the 2 first, and the faint line follows it."""
    balls = {
        CUE: (0.04, 2.43),
        "2": (0.12, 1.55),
        "3": (1.04, 2.49),
        "4": (0.8, 0.63),
        "5": (0.57, 2.29),
        "6": (0.38, 2.41),
        "7": (0.45, 2.24),
        "9": (0.07, 2.05),
        "10": (0.74, 2.21),
    }
    state = GAMES["ten-ball"](balls=balls, phase=Phase.PLAY)
    request = ThinkRequest(state=state, table="9ft", level="perfect", entropy=(1,))
    thought = hint(1, request)
    assert thought.hint is not None and thought.move.plan is not None
    assert re.match(r"kick at the 2 off (two|three) rails; it leaves", thought.hint.words)
    shot = simulate_shot(table_spec("9ft"), state.balls, thought.move.plan.action)
    assert not state.rule(shot_of(thought.move.plan, shot)).foul
    # The ghost's faint line follows the cue ball's way, not a straight line to its end.
    path = thought.hint.cue_path
    assert 2 <= len(path) <= HINT_PATH_POINTS
    assert path[0] == pytest.approx(balls[CUE], abs=1e-3)
    assert thought.hint.cue_after is not None
    assert path[-1] == pytest.approx(thought.hint.cue_after, abs=1e-9)


def test_a_hint_with_every_path_blocked_says_it_fouls() -> None:
    """The cue ball in a ring of six balls, none of them the ball on, a millimetre
    apart: every stroke meets one of them first. The least harmful stroke is loaded,
    and the words say no legal hit was found rather than promise a kick or a safety."""
    centre, reach = (0.6, 1.2), 2 * R + 0.001
    ring = {
        str(number): (
            centre[0] + reach * math.cos(math.radians(60 * k)),
            centre[1] + reach * math.sin(math.radians(60 * k)),
        )
        for k, number in enumerate(range(2, 8))
    }
    balls = {CUE: centre, "1": (0.3, 2.2), **ring}
    state = GAMES["ten-ball"](balls=balls, phase=Phase.PLAY)
    thought = hint(1, ThinkRequest(state=state, table="9ft", level="perfect", entropy=(1,)))
    assert thought.hint is not None
    assert thought.hint.words.endswith("no legal hit found, a foul (wrong ball hit first)")
    assert thought.move.kind.value in ("kick", "safety")


def test_the_hint_says_where_a_ball_lies_as_a_player_would() -> None:
    """Seen at the table: a ball in the middle of the foot rail was "near the foot-right
    corner", 0.6 m from it. Near a pocket it is still named by the pocket; on a cushion,
    by the rail; elsewhere by the part of the table."""
    width, length = 1.27, 2.54  # the 9-ft table's bed, metres (x across, y to the foot)
    assert place_words((width - 0.1, length - 0.1), "9ft") == "near the foot-right corner"
    assert place_words((width / 2, length - 0.05), "9ft") == "on the foot rail"
    assert place_words((0.05, length / 4), "9ft") == "on the left rail"
    assert place_words((width / 2, length / 2 + 0.4), "9ft") == "in the middle of the table"
    assert place_words((width / 2, length - 0.5), "9ft") == "in the foot end of the table"


def test_a_level_5_decision_is_the_same_with_simulations_shared_with_a_helper() -> None:
    """The window's thinker shares its simulations with a helper process
    (sim.physics.simulators.shared): the move is the one thought with every simulation
    here, to the bit, so the computer at the table plays as it does in a duel."""
    import attrs
    import numpy as np

    from sim.physics.simulators.shared import new_links, start_helper, stop_helper
    from sim.play.opponent import decide, level_named
    from tests.physics.test_shared_simulator import helped

    game = Game(GameSetup(game="ten-ball", seed=3))
    game.start(Player.A)
    state = game.rack
    assert state is not None
    opening = decide(state, table_spec("9ft"), level_named("1"), np.random.default_rng(1))
    assert opening.stroke is not None
    game.shoot(opening.stroke)
    state = game.rack
    assert state is not None and state.phase is not Phase.BREAK
    (link,) = new_links(1)
    process = start_helper(link)
    try:
        simulator = helped(link)
        level = level_named("5")
        spec = table_spec("9ft")
        shared_move = decide(state, spec, level, np.random.default_rng(7), simulator)
        assert simulator.lent > 0
    finally:
        stop_helper(process, link)
    local_move = decide(state, spec, level, np.random.default_rng(7))
    assert attrs.evolve(shared_move, seconds=0.0) == attrs.evolve(local_move, seconds=0.0)
