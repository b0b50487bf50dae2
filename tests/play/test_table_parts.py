"""The table controller's collaborators, each on its own: a small stand-in for the table
(only what the part reads of :class:`sim.play.table.turn.Table`), a real game where the
part asks the game, and no physics. The controller with all its parts is tested in
test_controller, test_branches, test_stalemate and test_computer_seat."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, cast

import attrs
import pytest

from rules import CUE, MatchPhase, Options, Player
from sim.physics.simulate import CueAction
from sim.physics.simulators.simulator import ShotRequest
from sim.play.game import Game, GameError, GameSetup, Stroke
from sim.play.table.lag import LAG_POWER, SOFTER_B, LagTable
from sim.play.table.practice import SetupSession
from sim.play.table.preview import PREVIEW_AFTER, Preview
from sim.play.table.shotclock import ShotClock
from sim.play.table.talk import StalemateTalk
from sim.play.table.turn import Aim, Stage, StalemateOffer, Table


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def stand_in(**parts: Any) -> Table:
    """A table with only the parts a collaborator reads (the rest is absent, so a part
    that reads more than it should fails loudly)."""
    return cast(Table, SimpleNamespace(**parts))


def started(game: str = "rotation", options: Options | None = None) -> Game:
    match = Game(GameSetup(game=game, race_to=2, seed=3, options=options or Options()))
    match.start(Player.A)
    return match


# -- the shot clock ------------------------------------------------------------------------


def test_the_shot_clock_counts_down_from_the_turns_start_and_stops_while_paused() -> None:
    clock, game = Clock(), started(options=Options(shot_clock_s=10.0))
    shot_clock = ShotClock(
        stand_in(clock=clock, state=game.rack, stage=Stage.AIM, computer_level=None)
    )
    clock.now += 4.0
    assert shot_clock.left() == pytest.approx(6.0)
    shot_clock.pause()
    clock.now += 30.0  # in the menu
    shot_clock.resume()
    assert shot_clock.left() == pytest.approx(6.0) and not shot_clock.paused
    shot_clock.pause()
    shot_clock.restart()  # a turn that starts behind the menu starts paused
    clock.now += 5.0
    shot_clock.resume()
    assert shot_clock.left() == pytest.approx(10.0)


def test_the_shot_clock_shows_only_while_a_stroke_is_set_up_and_only_when_there_is_one() -> None:
    clock = Clock()
    timed = started(options=Options(shot_clock_s=10.0)).rack
    assert ShotClock(stand_in(clock=clock, state=timed, stage=Stage.WATCH)).left() is None
    untimed = started().rack
    assert (
        ShotClock(stand_in(clock=clock, state=untimed, stage=Stage.AIM, computer_level=None)).left()
        is None
    )


def test_an_extension_adds_its_time_once_and_is_refused_without_any() -> None:
    clock = Clock()
    options = Options(
        shot_clock_s=10.0, shot_clock_extension_s=25.0, shot_clock_extensions_per_rack=1
    )
    shot_clock = ShotClock(
        stand_in(
            clock=clock,
            state=started(options=options).rack,
            stage=Stage.AIM,
            computer_level=None,
        )
    )
    shot_clock.take_extension()
    assert shot_clock.left() == pytest.approx(35.0)
    shot_clock.restart()
    assert not shot_clock.extension
    plain = ShotClock(stand_in(clock=clock, state=started().rack, stage=Stage.AIM))
    with pytest.raises(GameError, match="no shot-clock extensions"):
        plain.take_extension()
    deciding = started(options=options).rack
    assert deciding is not None
    off = ShotClock(
        stand_in(
            clock=clock,
            state=attrs.evolve(deciding, hill_hill=True),
            stage=Stage.AIM,
            computer_level=None,
        )
    )
    assert off.left() is None  # B-18: no clock in a hill-hill deciding rack
    with pytest.raises(GameError, match="the shot clock is off in this rack"):
        off.take_extension()


# -- the lag ---------------------------------------------------------------------------------


def test_the_lag_balls_wait_on_either_side_and_each_player_lags_from_their_own() -> None:
    game = Game(GameSetup(game="nine-ball", race_to=2, seed=3))
    table = stand_in(
        game=game, clock=Clock(), shooter=Player.A, powers={}, aim=Aim(power=0.3), worker=None
    )
    lag = LagTable(table)
    a, b = lag.balls()
    geometry = game.setup.spec.geometry
    assert a[0] < geometry.width / 2 < b[0] and a[1] == b[1] < geometry.head_string_y
    assert lag.start() == a
    assert lag.stored() is None
    lag.strike()  # A's stroke set: B's turn, from B's ball, B's own lag power
    assert lag.start() == b and lag.powers == {Player.A: 0.3} and lag.stored() is Player.A
    assert table.powers == {}  # a lag's soft pace is not the player's power in the rack
    assert table.aim.direction == 90.0 and len(lag.strokes) == 1
    assert table.aim.power == pytest.approx(LAG_POWER[game.setup.table] - SOFTER_B)


def test_the_computer_that_won_the_lag_chooses_who_breaks_and_the_lag_is_over_once() -> None:
    game = Game(GameSetup(game="nine-ball", race_to=2, seed=3))
    saved: list[str] = []
    table = stand_in(
        game=game,
        stage=Stage.BREAKER,
        computers={Player.A: "3"},
        shooter=Player.A,
        save=lambda: saved.append("save"),
        reset_turn=lambda: saved.append("turn"),
    )
    lag = LagTable(table)
    with pytest.raises(GameError, match="the computer won the lag"):
        lag.choose_breaker(Player.B)
    with pytest.raises(GameError, match="the lag is over"):
        lag.skip(Player.A)
    assert saved == []


def test_no_lag_the_players_agree_who_breaks() -> None:
    game = Game(GameSetup(game="nine-ball", race_to=2, seed=3))
    saved: list[str] = []
    table = stand_in(
        game=game,
        stage=Stage.LAG,
        save=lambda: saved.append("save"),
        reset_turn=lambda: saved.append("turn"),
    )
    LagTable(table).skip(Player.B)
    assert game.phase is MatchPhase.RACK and saved == ["save", "turn"]
    assert game.rack is not None and game.rack.shooter is Player.B


# -- the practice set-up ------------------------------------------------------------------


def test_a_match_is_never_set_up_by_hand() -> None:
    session = SetupSession(stand_in(practice=False))
    with pytest.raises(GameError, match="practice table only"):
        session.begin()
    with pytest.raises(GameError, match="not being set up"):
        session.current()


def test_a_set_up_begun_before_the_first_rack_starts_racked_and_cannot_be_cancelled() -> None:
    game = Game(GameSetup(game="nine-ball", race_to=1, seed=3, practice=True))
    owner = stand_in(practice=True, shot_in_play=False, state=game.rack, game=game, message="x")
    session = SetupSession(owner)
    table = session.begin()
    assert session.begin() is table  # the one in progress
    assert len(table.balls) == 10 and owner.message == ""  # the 9-ball rack and the cue ball
    assert not session.can_cancel
    with pytest.raises(GameError, match="set the table up first"):
        session.cancel()
    assert session.position().balls == table.balls


# -- the stalemate talk ------------------------------------------------------------------


def test_an_offer_made_at_another_step_is_no_longer_pending() -> None:
    game = started("nine-ball")
    talk = StalemateTalk(stand_in(game=game))
    talk.offer = StalemateOffer(by=Player.A, node=game.current, quiet=6)
    assert talk.pending is talk.offer
    game.go_to(game.root)  # the table went back a step
    assert talk.pending is None
    with pytest.raises(GameError, match="no stalemate has been offered"):
        talk.answer(agree=True)


def test_a_person_may_not_offer_on_a_practice_table_or_at_the_computers_turn() -> None:
    game = started("nine-ball")
    base = dict(game=game, state=game.rack, stage=Stage.AIM, computer_level=None)
    assert not StalemateTalk(stand_in(**base, practice=True)).may_offer
    assert not StalemateTalk(stand_in(**{**base, "computer_level": "3"}, practice=False)).may_offer


# -- the preview ------------------------------------------------------------------------------


class Physics:
    """A worker that only takes previews."""

    ready = True

    def __init__(self) -> None:
        self.previews: list[ShotRequest] = []

    def preview(self, request: ShotRequest) -> None:
        self.previews.append(request)

    def preview_result(self) -> None:
        return None


def aiming(clock: Clock, physics: Physics, stroke: Callable[[], Stroke]) -> Table:
    prepared = SimpleNamespace(start={CUE: (0.5, 0.5)}, stroke=stroke())
    game = SimpleNamespace(
        prepare=lambda _stroke: prepared, setup=SimpleNamespace(table=SimpleNamespace(value="9ft"))
    )
    return stand_in(
        clock=clock, stage=Stage.AIM, tracking=True, worker=physics, game=game, stroke=stroke
    )


def test_a_resting_aim_is_simulated_ahead_once_and_again_after_each_change() -> None:
    clock, physics = Clock(), Physics()
    stroke = Stroke(action=CueAction(speed=2.0, aim=90.0))
    preview = Preview(aiming(clock, physics, lambda: stroke))
    preview.frame(considered=True)
    assert physics.previews == [] and preview.pending  # not at rest yet
    clock.now += PREVIEW_AFTER
    preview.frame(considered=True)
    preview.frame(considered=True)
    assert len(physics.previews) == 1 and preview.pending and preview.lines is None
    preview.touch()  # the aim moved: the old stroke's request is dropped
    assert preview.request is None
    clock.now += PREVIEW_AFTER
    preview.frame(considered=False)  # the computer's aim, before its stroke: not yet
    assert len(physics.previews) == 1
    preview.frame(considered=True)
    assert len(physics.previews) == 2
