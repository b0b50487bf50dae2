"""The sounds of a shot: the cue tip, ball on ball, ball on cushion, a ball dropping.

Three parts, each testable alone:

- :func:`sound_cues` turns a shot's timeline into what to play when, each as loud as
  the impact was hard (pure: the timeline's events and the balls' speeds at them);
- :func:`synthesise` makes the sounds themselves, from damped resonances and a seeded
  noise (no recordings to license; made in memory when the window opens);
- :class:`SoundBoard` plays cues through Panda3D's audio manager, a few voices a sound so
  that a break's rattle of clicks overlaps as it does at a table. With no audio device
  (or ``audio-library-name null``) it plays nothing (the M key tells the player why).
"""

from __future__ import annotations

import io
import math
import wave
from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING

import attrs
import numpy as np
from numpy.typing import NDArray

from sim.physics.timeline import MarkerKind, ShotTimeline

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase
    from panda3d.core import AudioSound

RATE = 44_100  # samples a second
SYNTH_VERSION = 1  # part of each sound's name: bump when the sounds change
VOICES = 6  # copies of each sound that may play at once
MERGE_S = 0.012  # hits of one kind closer than this are heard as one (the loudest)
QUIETEST = 0.04  # softer impacts are not played at all


class SoundKind(StrEnum):
    STRIKE = "strike"  # the cue tip on the cue ball
    CLICK = "click"  # ball on ball
    CUSHION = "cushion"  # ball on a cushion or a jaw
    POCKET = "pocket"  # a ball dropping into a pocket


# The impact speed (m/s) that plays a sound at full volume: a hard break shot, a hard
# hit, a ball driven into a rail, a ball fired into a pocket.
FULL_VOLUME_SPEED = {
    SoundKind.STRIKE: 8.0,
    SoundKind.CLICK: 5.0,
    SoundKind.CUSHION: 4.0,
    SoundKind.POCKET: 3.0,
}
_KIND_OF_MARKER = {
    MarkerKind.STRIKE: SoundKind.STRIKE,
    MarkerKind.FIRST_CONTACT: SoundKind.CLICK,
    MarkerKind.HIT: SoundKind.CLICK,
    MarkerKind.RAIL: SoundKind.CUSHION,
    MarkerKind.POCKET: SoundKind.POCKET,
}


@attrs.frozen
class SoundCue:
    """Play ``kind`` at ``t`` seconds into the shot, at ``volume`` (0..1)."""

    t: float
    kind: SoundKind
    volume: float


def loudness(speed: float, kind: SoundKind) -> float:
    """Volume 0..1 for an impact at ``speed`` m/s: the square root of the speed's share of
    full volume, as loudness grows more slowly than the energy of the hit."""
    return min(1.0, math.sqrt(max(0.0, speed) / FULL_VOLUME_SPEED[kind]))


def sound_cues(timeline: ShotTimeline) -> tuple[SoundCue, ...]:
    """What to play, in time order. The impact speed of a strike is the cue ball's speed
    just after it; of a ball-ball hit, the two balls' relative speed just before it; of a
    cushion or a pocket, the ball's speed just before it."""
    cues: list[SoundCue] = []
    before_eps, after_eps = 1e-7, 1e-6
    for marker in timeline.markers:
        kind = _KIND_OF_MARKER[marker.kind]
        rows = [timeline.index(ball) for ball in marker.balls]
        if kind is SoundKind.STRIKE:
            just_after = min(marker.t + after_eps, timeline.duration)
            velocity = timeline.at(just_after).velocities[rows[0]]
        else:
            states = timeline.at(max(0.0, marker.t - before_eps)).velocities
            velocity = states[rows[0]] - (states[rows[1]] if len(rows) > 1 else 0.0)
        volume = loudness(float(np.linalg.norm(velocity[:2])), kind)
        if volume >= QUIETEST:
            cues.append(SoundCue(marker.t, kind, volume))
    return merge_close(cues)


def merge_close(cues: Iterable[SoundCue], window: float = MERGE_S) -> tuple[SoundCue, ...]:
    """One cue for hits of a kind within ``window`` of the first of them (the loudest
    volume, the first time): a rack's balls touch many times in a millisecond, and the
    ear hears one crack."""
    merged: list[SoundCue] = []
    open_cue: dict[SoundKind, int] = {}  # kind -> index in merged of its latest cue
    for cue in sorted(cues, key=lambda c: c.t):
        at = open_cue.get(cue.kind)
        if at is not None and cue.t - merged[at].t < window:
            if cue.volume > merged[at].volume:
                merged[at] = attrs.evolve(merged[at], volume=cue.volume)
            continue
        open_cue[cue.kind] = len(merged)
        merged.append(cue)
    return tuple(merged)


def cues_between(cues: Sequence[SoundCue], start: float, end: float) -> list[SoundCue]:
    """The cues with ``start < t <= end`` (a frame's worth; a cue at 0 plays when
    ``start`` is below 0)."""
    return [cue for cue in cues if start < cue.t <= end]


# -- synthesis ------------------------------------------------------------------------------


def _resonances(
    duration: float, modes: Sequence[tuple[float, float, float]], rng: np.random.Generator
) -> NDArray[np.float64]:
    """A sum of damped sines (frequency Hz, decay time s, amplitude), each at a random
    phase, with a 0.3 ms rise so that the attack does not click."""
    t = np.arange(int(duration * RATE)) / RATE
    out = np.zeros_like(t)
    for frequency, decay, amplitude in modes:
        phase = rng.uniform(0, 2 * math.pi)
        out += amplitude * np.exp(-t / decay) * np.sin(2 * math.pi * frequency * t + phase)
    return np.asarray(out * np.minimum(1.0, t / 0.0003), dtype=np.float64)


def _noise_burst(
    duration: float, decay: float, smooth: int, rng: np.random.Generator
) -> NDArray[np.float64]:
    """Noise decaying with ``decay`` (s), low-passed by a moving average of ``smooth``."""
    n = int(duration * RATE)
    raw = rng.standard_normal(n + smooth)
    noise = np.convolve(raw, np.ones(smooth) / smooth, mode="valid")[:n]
    return np.asarray(noise * np.exp(-np.arange(n) / RATE / decay), dtype=np.float64)


def synthesise(kind: SoundKind) -> NDArray[np.float64]:
    """The sound of ``kind``, mono at :data:`RATE`, peak 0.9; the same every time."""
    rng = np.random.default_rng(list(SoundKind).index(kind) + 1)
    if kind is SoundKind.CLICK:  # phenolic balls: a bright, very short crack
        sound = _resonances(
            0.06, [(2650, 0.006, 1.0), (4100, 0.004, 0.7), (6300, 0.0025, 0.45)], rng
        ) + 0.25 * _noise_burst(0.06, 0.0012, 2, rng)
    elif kind is SoundKind.STRIKE:  # a leather tip: a duller, lower tock
        sound = _resonances(
            0.08, [(1250, 0.008, 1.0), (2100, 0.005, 0.5), (320, 0.02, 0.35)], rng
        ) + 0.2 * _noise_burst(0.08, 0.002, 6, rng)
    elif kind is SoundKind.CUSHION:  # rubber and wood: a thud
        sound = _resonances(0.18, [(150, 0.045, 1.0), (410, 0.02, 0.45)], rng) + 0.5 * (
            _noise_burst(0.18, 0.01, 24, rng)
        )
    else:  # a pocket: the drop's clunk, then the ball rattling down the liner
        sound = _resonances(0.45, [(110, 0.09, 1.0), (230, 0.05, 0.6)], rng)
        for offset, level in ((0.05, 0.35), (0.11, 0.25), (0.16, 0.15)):
            start = int(offset * RATE)
            tap = level * _resonances(0.05, [(900, 0.006, 1.0), (1700, 0.004, 0.5)], rng)
            sound[start : start + len(tap)] += tap[: len(sound) - start]
    fade = np.minimum(1.0, (len(sound) - np.arange(len(sound))) / (0.005 * RATE))
    sound = sound * fade  # no click at the cut
    peak = float(np.max(np.abs(sound)))
    return np.asarray(sound * (0.9 / peak), dtype=np.float64)


def wav_bytes(samples: NDArray[np.float64]) -> bytes:
    """16-bit mono WAV."""
    pcm = np.round(np.clip(samples, -1.0, 1.0) * 32767).astype("<i2")
    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(RATE)
        wav.writeframes(pcm.tobytes())
    return out.getvalue()


# -- playing ----------------------------------------------------------------------------------


class SoundBoard:
    """Plays :class:`SoundCue` s through ``base``'s sound-effects manager. The sounds are
    made in memory (a few milliseconds) and handed to Panda3D through a RAM disk of its
    virtual file system: nothing is written to the player's disk."""

    MOUNT = "/poolsim-sounds"

    def __init__(self, base: ShowBase, enabled: bool = True) -> None:
        from panda3d.core import Filename, VirtualFileMountRamdisk, VirtualFileSystem

        self.enabled = enabled
        manager = base.sfxManagerList[0] if base.sfxManagerList else None
        self.available = manager is not None and manager.isValid()
        self._voices: dict[SoundKind, list[AudioSound]] = {}
        self._next: dict[SoundKind, int] = {}
        if not self.available:
            return
        files = VirtualFileSystem.getGlobalPtr()
        if not files.isDirectory(Filename(self.MOUNT)):
            files.mount(VirtualFileMountRamdisk(), self.MOUNT, 0)
        for kind in SoundKind:
            name = Filename(f"{self.MOUNT}/v{SYNTH_VERSION}-{kind.value}.wav")
            files.writeFile(name, wav_bytes(synthesise(kind)), False)
            self._voices[kind] = [base.loader.loadSfx(name) for _ in range(VOICES)]
            self._next[kind] = 0

    def toggle(self) -> bool:
        self.enabled = not self.enabled
        return self.enabled

    def play(self, cues: Iterable[SoundCue]) -> int:
        """Play ``cues`` now; how many were played."""
        if not (self.enabled and self.available):
            return 0
        played = 0
        for cue in cues:
            voices = self._voices[cue.kind]
            index = self._next[cue.kind]
            self._next[cue.kind] = (index + 1) % len(voices)
            sound = voices[index]
            sound.stop()
            sound.setVolume(cue.volume)
            sound.play()
            played += 1
        return played
