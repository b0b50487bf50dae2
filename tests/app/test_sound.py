"""Sounds: each event of a shot becomes a cue as loud as its impact; the sounds are
synthesised the same every time; the table and the replay viewer play a shot's cues as
it plays out (and none when a replay is stepped); M says when there is no audio device."""

from __future__ import annotations

import io
import wave
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pytest
from panda3d.core import KeyboardButton

from rules import CUE, Player
from rules.geometry import Point
from sim.app.main import PoolApp
from sim.app.scene.sound import (
    RATE,
    SoundBoard,
    SoundCue,
    SoundKind,
    cues_between,
    loudness,
    merge_close,
    sound_cues,
    synthesise,
    wav_bytes,
)
from sim.app.screens.replay import ReplayView
from sim.physics.simulate import CueAction, aim_towards
from sim.physics.timeline import MarkerKind, ShotTimeline
from sim.play.game import Game, GameSetup, Stroke
from sim.play.table.turn import Stage
from tests.app.test_table_app import press, started_game, wait_for

SPOT = (0.635, 0.5)


def broken(speed: float, seed: int = 5) -> Game:
    game = Game(GameSetup(game="ten-ball", race_to=3, seed=seed, players=("Ann", "Bob")))
    game.start(Player.A)
    state = game.rack
    assert state is not None
    aim = aim_towards(SPOT, state.balls["1"])
    game.shoot(Stroke(action=CueAction(speed, aim), placement=SPOT))
    return game


def break_timeline(speed: float) -> ShotTimeline:
    return ShotTimeline.from_system(broken(speed).shots[-1].simulated.system)


@pytest.mark.physics
def test_a_break_sounds_as_it_plays_out() -> None:
    timeline = break_timeline(8.0)
    cues = sound_cues(timeline)
    assert [c.t for c in cues] == sorted(c.t for c in cues)
    assert cues[0] == SoundCue(0.0, SoundKind.STRIKE, loudness(8.0, SoundKind.STRIKE))
    assert all(0.0 < c.volume <= 1.0 for c in cues)
    kinds = {c.kind for c in cues}
    assert {SoundKind.CLICK, SoundKind.CUSHION} <= kinds
    drops = [m for m in timeline.markers if m.kind is MarkerKind.POCKET]
    assert len([c for c in cues if c.kind is SoundKind.POCKET]) == len(drops)
    # The rack's balls touch many times in the first milliseconds: heard as one crack.
    contact = next(m.t for m in timeline.markers if m.kind is MarkerKind.FIRST_CONTACT)
    cracks = [c for c in cues if c.kind is SoundKind.CLICK and c.t - contact < 0.012]
    assert len(cracks) == 1 and cracks[0].volume > 0.7


@pytest.mark.physics
def test_a_harder_stroke_is_louder() -> None:
    soft, hard = sound_cues(break_timeline(2.0)), sound_cues(break_timeline(8.0))
    assert soft[0].kind is hard[0].kind is SoundKind.STRIKE
    assert soft[0].volume < hard[0].volume
    assert loudness(0.0, SoundKind.CLICK) == 0.0 and loudness(50.0, SoundKind.CLICK) == 1.0


def test_hits_close_together_merge_into_the_loudest() -> None:
    cues = [
        SoundCue(0.100, SoundKind.CLICK, 0.3),
        SoundCue(0.105, SoundKind.CLICK, 0.8),
        SoundCue(0.106, SoundKind.CUSHION, 0.5),  # another kind: heard apart
        SoundCue(0.140, SoundKind.CLICK, 0.2),  # later: heard apart
    ]
    assert merge_close(cues) == (
        SoundCue(0.100, SoundKind.CLICK, 0.8),
        SoundCue(0.106, SoundKind.CUSHION, 0.5),
        SoundCue(0.140, SoundKind.CLICK, 0.2),
    )


def test_cues_between_two_frames() -> None:
    cues = [SoundCue(t, SoundKind.CLICK, 1.0) for t in (0.0, 0.5, 1.0)]
    assert cues_between(cues, -1.0, 0.0) == cues[:1]  # the strike at 0 on the first frame
    assert cues_between(cues, 0.0, 0.5) == [cues[1]]  # each cue once: (start, end]
    assert cues_between(cues, 0.5, 0.9) == []


def test_the_sounds_are_made_the_same_every_time() -> None:
    for kind in SoundKind:
        sound = synthesise(kind)
        assert np.array_equal(sound, synthesise(kind))
        assert np.max(np.abs(sound)) == pytest.approx(0.9)
        assert 0.05 <= len(sound) / RATE <= 0.5
        assert abs(sound[-1]) < 0.01  # faded out: no click at the end
    with wave.open(io.BytesIO(wav_bytes(synthesise(SoundKind.CLICK)))) as wav:
        assert (wav.getframerate(), wav.getnchannels(), wav.getsampwidth()) == (RATE, 1, 2)
        assert wav.getnframes() == len(synthesise(SoundKind.CLICK))


class Voice:
    """Stands in for a Panda3D AudioSound: records what it was told."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, float | None]] = []

    def stop(self) -> None:
        self.calls.append(("stop", None))

    def setVolume(self, volume: float) -> None:
        self.calls.append(("volume", volume))

    def play(self) -> None:
        self.calls.append(("play", None))


def test_the_board_takes_turns_between_voices_and_stays_quiet_when_off() -> None:
    board = object.__new__(SoundBoard)  # no audio device here: give it voices by hand
    voices = [Voice(), Voice()]
    board.enabled, board.available = True, True
    board._voices = {SoundKind.CLICK: voices}  # type: ignore[dict-item]
    board._next = {SoundKind.CLICK: 0}
    cues = [SoundCue(t, SoundKind.CLICK, v) for t, v in ((0.0, 0.5), (0.01, 0.9), (0.02, 0.2))]
    assert board.play(cues) == 3
    assert voices[0].calls == [
        ("stop", None), ("volume", 0.5), ("play", None),
        ("stop", None), ("volume", 0.2), ("play", None),
    ]  # fmt: skip
    assert voices[1].calls == [("stop", None), ("volume", 0.9), ("play", None)]
    board.toggle()
    assert board.play(cues) == 0 and len(voices[0].calls) == 6  # off: nothing played
    board.toggle()
    board.available = False
    assert board.play(cues) == 0


class Speaker:
    """Stands in for the SoundBoard: records what it is asked to play."""

    def __init__(self) -> None:
        self.available = True
        self.enabled = True
        self.played: list[SoundCue] = []

    def play(self, cues: Iterable[SoundCue]) -> int:
        cues = list(cues)
        self.played += cues
        return len(cues)

    def toggle(self) -> bool:
        self.enabled = not self.enabled
        return self.enabled


def shoot_from_hand(table: PoolApp, spot: Point, at: Point, power: float) -> Speaker:
    """The 10-ball break of ``started_game`` struck from ``spot`` towards ``at`` on the
    table, with a Speaker listening, played out to the ruling."""
    speaker = Speaker()
    table.sounds = speaker  # type: ignore[assignment]
    table.play(started_game(5))
    controller = table.controller
    assert controller is not None
    table.step(2)
    controller.placement = spot
    controller.confirm_placement()
    controller.aim_at(at)
    controller.set_power(power)
    controller.strike()
    wait_for(table, {Stage.AIM, Stage.PLACE, Stage.CHOOSE, Stage.OVER})
    return speaker


def key(letter: str) -> object:
    return KeyboardButton.asciiKey(letter)


@pytest.mark.app
def test_the_table_plays_a_shot_and_its_replay(table: PoolApp) -> None:
    one = started_game(5).rack.balls["1"]  # type: ignore[union-attr]
    speaker = shoot_from_hand(table, SPOT, one, 0.8)
    controller = table.controller
    assert controller is not None
    shot = controller.game.shots[-1].simulated.system
    expected = sound_cues(ShotTimeline.from_system(shot))
    assert speaker.played == list(expected)  # every cue once, in order, none skipped
    # The replay plays them again as it plays forward; stepping frames plays nothing.
    speaker.played.clear()
    table.open_replay()
    viewer = table.replay
    assert isinstance(viewer, ReplayView)
    for _ in range(30):
        table.step()
    assert speaker.played and speaker.played[0].kind is SoundKind.STRIKE
    press(table, KeyboardButton.space())  # pause
    heard = len(speaker.played)
    for _ in range(5):
        press(table, KeyboardButton.right())
    assert len(speaker.played) == heard
    # M turns the sound off and on again, also during a replay.
    press(table, key("m"))
    assert not speaker.enabled and "sound off" in table.hud.shown_message()
    press(table, key("m"))
    assert speaker.enabled and table.hud.shown_message() == "sound on"
    assert CUE in viewer.timeline.ball_ids


@pytest.mark.app
def test_no_audio_device_is_said_plainly(table: PoolApp) -> None:
    """Offscreen there is no audio (as on a machine with no sound card): M says so."""
    assert not table.sounds.available
    table.play(Game(GameSetup(game="rotation", race_to=1, seed=1, players=("Ann", "Bob"))))
    press(table, key("m"))
    assert table.hud is not None
    assert table.hud.shown_message() == "no sound: poolsim found no audio device"


def test_a_machine_with_no_sound_device_is_told_apart(tmp_path: Path) -> None:
    """The window goes silent at once where there is nothing to play sound on (rather
    than letting OpenAL and ALSA print their errors)."""
    from sim.app.headless import audio_device_present

    def present(cards: str | None, **environ: str) -> bool:
        asound = tmp_path / "proc" / "asound"
        asound.mkdir(parents=True, exist_ok=True)
        (asound / "cards").unlink(missing_ok=True)
        if cards is not None:
            (asound / "cards").write_text(cards)
        return audio_device_present("linux", environ, tmp_path)

    assert not present(None)
    assert not present("--- no soundcards ---\n")
    assert present(" 0 [PCH            ]: HDA-Intel - HDA Intel PCH\n")
    assert present(None, PULSE_SERVER="tcp:localhost")
    runtime = tmp_path / "run" / "user" / "1000"
    (runtime / "pulse").mkdir(parents=True)
    assert not present(None, XDG_RUNTIME_DIR="/run/user/1000")
    (runtime / "pipewire-0").touch()
    assert present(None, XDG_RUNTIME_DIR="/run/user/1000")
    assert audio_device_present("win32", {}, tmp_path)


@pytest.mark.app
def test_the_drop_at_the_very_end_of_a_shot_is_heard(table: PoolApp) -> None:
    """A cue ball rolled into a corner: the shot ends as it drops, and the drop plays."""
    width = started_game(5).setup.spec.geometry.width
    corner = (width + 0.05, -0.05)  # through the right corner of the head rail
    speaker = shoot_from_hand(table, (1.0, 0.3), corner, 0.35)
    controller = table.controller
    assert controller is not None
    timeline = ShotTimeline.from_system(controller.game.shots[-1].simulated.system)
    assert timeline.markers[-1].kind is MarkerKind.POCKET
    assert timeline.markers[-1].t == pytest.approx(timeline.duration)
    assert speaker.played == list(sound_cues(timeline))
    assert speaker.played[-1].kind is SoundKind.POCKET
