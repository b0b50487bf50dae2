"""The game review in the window (issue 33): the replay's band (each shot's tag beside it
in the shot list, the rack's evaluation graph, the shot's three values and the best
option in words), the best option's lines on the cloth, Play the best as a branch, the
review made in the background from the replay (R) and found again by the game's digest.

The review runs here in this process, a step a frame, at level 1 (the window's runs in
a process of its own at level 5: :mod:`tests.play.test_review_background`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from panda3d.core import KeyboardButton

from rules import Player
from sim.app.main import PoolApp
from sim.app.screens.modes import MatchSummaryMode, ReplayMode
from sim.app.screens.replay import ReplayView
from sim.app.screens.review.keeper import GameReviews, in_this_process
from sim.app.script import run_script
from sim.play.game import ShotRecord
from sim.play.review import Review, ReviewJob, StepReview, Tag, accuracy, review_game
from sim.play.table.turn import Stage
from sim.store.gamefile import game_digest, load
from sim.store.reviewfile import kept_review_path, save_review
from tests.app.test_app_fuzz import game_at_match_over
from tests.app.test_drill_app import click_widget
from tests.app.test_replay_app import press
from tests.app.test_replay_compare import ball_in_hand, cut_into_the_side

pytestmark = pytest.mark.app

GAMES = Path(__file__).resolve().parent.parent / "data" / "games"


def reviewed(app: PoolApp, view: ReplayView, frames: int = 20) -> None:
    """Frames until the review is whole (a step judged each frame here)."""
    source = view.band.source
    assert source is not None
    for _ in range(frames):
        if source.review is not None:
            break
        app.step()
    app.step()
    assert source.review is not None, source.status


def test_review_from_the_replay_band_best_lines_and_play_the_best(
    table: PoolApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path))
    table.reviews = GameReviews(in_this_process, level="1", keep=True)
    table.play(ball_in_hand())
    table.step(2)
    run_script(table, [*cut_into_the_side(table), {"shoot": "skip"}])
    run_script(table, [{"replay": None}])
    view = table.replay
    assert isinstance(view, ReplayView)
    # No review yet: the band says so and offers one; nothing is drawn on the cloth.
    assert "Not reviewed yet" in view.band.text
    assert view.band.review_button is not None
    assert view.band.overlay is not None and view.band.overlay.showing is None
    source = view.band.source
    assert source is not None
    view.band.start()  # the button's command: the progress line at once
    assert source.running and "Reviewing at level" in view.band.text
    assert "0 of 2 shots judged" in view.band.text
    source.run, source.on_done = None, None  # forgotten: R starts it again
    press(table, KeyboardButton.ascii_key("r"))
    assert source.run is not None
    reviewed(table, view)
    assert table.controller is not None
    game = table.controller.game
    kept = kept_review_path(game_digest(game))
    assert kept.is_file()  # found again next time by the game's digest

    # The shot shown: its tag, its three values and the best option in words.
    step = view.band.step
    assert step is not None and step.name == "rack 1, shot 2"
    text = view.band.text
    assert f"Rack 1, shot 2: {step.tag.value}" in text
    assert "best " in text and "chosen " in text and "actual " in text
    assert f"Best: {step.best_option[:30]}" in text
    # A chip of its tag's colour beside each of the two shots in the shot list.
    assert len(view.band.chips.getChildren()) == 2
    # The best option's tracking lines on the cloth, beside the shot's own paths.
    assert view.band.overlay.showing is not None
    assert view.band.play_best_button is not None

    # Play the best (B): back at the table before the shot, the best stroke loaded.
    best = view.band.best_stroke()
    assert best is not None
    shot_node = view.item.node
    assert shot_node is not None
    # Not at a seat the computer plays here (it would play its own stroke again).
    replay_mode = table.modes.screen
    assert isinstance(replay_mode, ReplayMode) and replay_mode.plays_best(shot_node)
    controller = table.controller
    controller.computers[Player.B] = "3"
    try:
        assert not replay_mode.plays_best(shot_node)
        view.band.show(shot_node)
        assert view.band.play_best_button is None
        view.band.play_best()
        assert table.replay is view  # nothing happened
    finally:
        del controller.computers[Player.B]
    view.band.show(shot_node)
    assert view.band.play_best_button is not None
    press(table, KeyboardButton.ascii_key("b"))
    assert table.replay is None
    assert controller.stage in (Stage.AIM, Stage.PLACE)
    assert controller.aim.direction == pytest.approx(best.action.aim % 360.0)
    run_script(table, [{"shoot": "skip"}])
    branch = game.last_shot()
    assert branch is not None and branch is not shot_node
    assert branch.parent is shot_node.parent  # a new branch from the same position
    assert isinstance(branch.record, ShotRecord)
    assert branch.record.stroke.action.aim == pytest.approx(best.action.aim)

    # The replay again: the reviewed shot keeps its review; the branch is not reviewed.
    run_script(table, [{"replay": None}])
    view = table.replay
    assert isinstance(view, ReplayView)
    assert view.item.node is branch
    assert "not reviewed" in view.band.text and "branch" in view.band.text
    view.select(next(i for i, item in enumerate(view.items) if item.node is shot_node))
    assert view.band.step is step


def test_a_saved_review_beside_the_game_is_found_by_its_digest(
    table: PoolApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path / "user"))
    file = GAMES / "practice-nine-ball.poolsim"
    game = load(file)
    digest = game_digest(game)
    review = review_game(game, digest, "1")
    beside = tmp_path / "games"
    beside.mkdir()
    (beside / file.name).write_bytes(file.read_bytes())
    save_review(review, beside / "practice-nine-ball.review.json")
    reviews = GameReviews(in_this_process, level="1")
    assert reviews.of(load(file)).review is None  # not beside the game: not found
    found = GameReviews(in_this_process, level="1").of(game, beside / file.name)
    assert found.review == review
    # Another game's review, even beside it, is never shown against this one.
    other = load(GAMES / "ten-ball-saved-by-56f7334.poolsim")
    assert GameReviews().of(other, beside / file.name).review is None


class Instant:
    """A review run that answers at its second poll with made-up marks: A's shots cost
    nothing, B's ten points each (the summary shows what a review says; the review
    itself is tested in tests/play)."""

    def __init__(self, jobs: Sequence[ReviewJob], digest: str, level: str, line: int) -> None:
        self.level, self.total, self.done, self.failed = level, len(jobs), 0, None
        self.polls = 0
        self.review = Review(
            digest,
            level,
            line,
            tuple(
                StepReview(
                    place=job.step.place,
                    rack=job.step.rack,
                    name=job.step.name,
                    kind=job.step.kind.value,
                    player=job.step.player.value,
                    best=0.6,
                    chosen=0.6 if job.step.player.value == "A" else 0.5,
                    actual=0.5,
                    skill=0.0 if job.step.player.value == "A" else 0.1,
                    luck=0.0,
                    decision=0.0,
                    execution=0.0,
                    tag=Tag.BEST if job.step.player.value == "A" else Tag.INACCURACY,
                    accuracy=accuracy(0.0 if job.step.player.value == "A" else 0.1),
                    best_option="pot the 1",
                    played="pot the 1",
                )
                for job in jobs
            ),
        )

    ready_at = 2  # the poll that answers

    def poll(self) -> Review | None:
        self.polls += 1
        if self.polls < self.ready_at:
            return None
        self.done = self.total
        return self.review

    def close(self) -> None:
        pass


def summary_of(table: PoolApp) -> MatchSummaryMode:
    table.play(game_at_match_over(4))
    table.step(2)
    table.show_match_summary()
    screen = table.modes.screen
    assert isinstance(screen, MatchSummaryMode)
    return screen


def test_the_match_summary_shows_the_accuracy_once_the_review_is_made(
    table: PoolApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path))

    class Later(Instant):
        ready_at = 8  # some frames after the summary is up

    table.reviews = GameReviews(Later, level="1")
    screen = summary_of(table)
    summary = screen.summary
    # Started as the match ended: on its way, the window not waiting for it.
    if screen.review.review is None:
        assert [t.getText() for t in summary.accuracy_labels] == ["…", "…"]
        assert "Reviewing at level 1" in summary.status.getText()
    # The frame the review comes in draws it: the reviews are polled before the screens,
    # so a window at rest, which draws that frame for its new words, shows the figures
    # (it showed them only once the mouse moved).
    for _ in range(10):
        table.step()
        if screen.review.review is not None:
            break
    assert screen.review.review is not None
    assert [t.getText() for t in summary.accuracy_labels] == ["100 %", "64 %"]
    assert summary.review_button is not None and not summary.review_button.isHidden()
    assert summary.review_button["text"] == "Open the review"
    click_widget(table, summary.review_button)
    view = table.replay
    assert isinstance(view, ReplayView)
    step = view.band.step  # the shot that cost the most: one of B's
    assert step is not None and step.player == "B" and step.tag is Tag.INACCURACY


def test_a_scripted_windows_summary_reviews_the_match_on_its_button(
    table: PoolApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path))
    assert not table.reviews.unasked  # a test's window: no review unasked
    table.reviews = GameReviews(Instant, level="1", unasked=False)
    summary = summary_of(table).summary
    assert [t.getText() for t in summary.accuracy_labels] == ["-", "-"]
    assert summary.review_button is not None and summary.review_button["text"] == "Review the match"
    click_widget(table, summary.review_button)
    table.step(3)
    assert [t.getText() for t in summary.accuracy_labels] == ["100 %", "64 %"]
