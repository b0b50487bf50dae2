"""Replay: any shot, frame by frame, forward and backward, and why the referee ruled.

The viewer works on a list of :class:`ReplayItem` (every shot of a game, or one shot
read from a pooltool file). Keys while it is open:

- Space: play / pause; Left / Right: one frame (1/60 s) back / forward;
- ``[`` / ``]``: the previous / next event (first contact, rails, pockets);
- ``-`` / ``=``: slower / faster (1/8x to 2x); L: loop; T: ball paths on / off;
- Page Up / Page Down: the previous / next shot; Esc: back to the table;
- P (or the Play from here button): back to the table at the position before the shot
  shown, the match as it was then and the shot's stroke loaded; what is played from
  there is a new branch;
- C (or the Compare button, shown for a shot with other attempts): side by side with
  another attempt at the same shot (the shot taken back, the one played in its place, a
  shot played from here): its balls as translucent ghosts, this attempt's paths in gold
  and the other's in cyan, both on one clock (the shorter rests at its end), the panel
  saying where each cue ball stopped and what each potted; C again: the next other
  attempt, then off (:mod:`sim.app.screens.compare`, :mod:`sim.app.scene.ghosts`).

The shot list marks a branch's shots (a shot taken back, a shot played from here) with
an arrow, indented under the shot they were played in place of.

A shot opens at its stroke, playing. The scrub bar at the bottom seeks where it is
clicked and scrubs while dragged; its ticks are the shot's events, and the last event
the frame has passed is named in words at the top of the panel on the right ("the cue
ball hits the 1"), which then says what the referee saw so far (first ball hit, balls
to a rail, balls pocketed), and the ruling once the shot has played to the end. Each
ball's path is drawn in the ball's colour (a stripe's lighter), faded once it rests.
"""

from __future__ import annotations

import bisect
import textwrap
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Protocol

import attrs
import numpy as np
from direct.gui.DirectGui import DGG, DirectButton, DirectFrame, DirectSlider
from direct.gui.OnscreenText import OnscreenText
from direct.showbase.DirectObject import DirectObject
from direct.showbase.ShowBase import ShowBase
from direct.task.Task import Task
from panda3d.core import ClockObject, LineSegs, NodePath, TextNode, TransparencyAttrib

from rules import CUE, PocketId, Ruling
from rules.words import pocket_name
from sim.app.hud.layout import Box
from sim.app.hud.widgets import (
    BUTTON,
    DIM,
    GOLD,
    PANEL,
    RED,
    WHITE,
    button,
    destroy_under,
    fit_width,
    label,
)
from sim.app.marks.tracking import TrackingOverlay
from sim.app.scene.camera import WHOLE_WINDOW, WINDOW_MARGIN
from sim.app.scene.colours import BALL_COLOURS, ball_colour
from sim.app.scene.ghosts import GhostBalls
from sim.app.scene.scene import TableScene
from sim.app.scene.sound import SoundBoard, cues_between, sound_cues
from sim.app.screens.compare import attempt_lines, attempt_name, other_attempts, outcome
from sim.app.screens.review.band import BAND_BOTTOM as REVIEW_BOTTOM
from sim.app.screens.review.band import BEST_LINES, ReviewBand
from sim.app.screens.review.keeper import GameReview
from sim.physics.timeline import BallStates, EventMarker, MarkerKind, ShotTimeline
from sim.play.branches import in_play_order
from sim.play.game import Game, LagRecord, Node, ShotRecord, Stroke, TimeFoulRecord, shot_number
from sim.play.said import detail_lines, record_line

if TYPE_CHECKING:
    from sim.physics.simulate import System

FRAME = 1.0 / 60.0
SPEEDS = (0.125, 0.25, 0.5, 1.0, 1.5, 2.0)
SHOT_LIST = 15  # shots listed at once in the shot list
PATH_EVERY = 0.1  # seconds of shot time between rebuilds of the ball paths in playback
# The most shot time one frame of playback moves on. A frame that took longer (the
# window loading the table, building a timeline, or busy) plays on from where it was
# instead of skipping ahead: a replay opened after a slow load used to open at the end.
MAX_PLAY_STEP = 0.1
EVENT = (0.6, 0.9, 1.0, 1.0)  # the event line: apart from the referee's gold and red
BAR_Y = -0.91  # the scrub bar's height on the screen (aspect2d units)
PLAY_FROM_Y = -0.69  # the Play from here button, at the foot of the referee's panel
LINE_Y = -0.59  # the line's buttons (play on, main line, delete), above it
BRANCH = (0.16, 0.24, 0.3, 0.95)  # a branch's entry in the shot list: bluer than a button
HELP = (
    "Space play/pause · \u2190 \u2192 one frame · [ ] previous/next event · "
    "- = slower/faster · L loop · T paths · click the bar: go there · PgUp PgDn shot · "
    "P play from here · C compare · O play on · V main line · Del delete · "
    "R review · B play the best · Esc back"
)
# The keys in fewer words (L loop left to the whole line), for a window where the whole
# line would be drawn too small to read (a 4:3 window's, a window half a screen wide).
HELP_SHORT = (
    "Space play · ←→ frame · [ ] event · -= speed · T paths · "
    "PgUp/Dn shot · P from here · C compare · O play on · V main · Del delete · "
    "R review · B best · Esc back"
)
HELP_TEXT = 0.028  # the key line's size, drawn smaller only if even the short one is wider
# Side by side: the attempt shown in warm gold, the other (its ghosts and paths) in cyan.
THIS_ATTEMPT = (1.0, 0.66, 0.1)
OTHER_ATTEMPT = (0.25, 0.88, 1.0)
GHOST_TINT = (0.55, 0.95, 1.0)  # the ghosts' colour scale: the ball's own, towards cyan
NO_OTHER = (
    "No other attempt at this shot to compare with (Backspace at the table or P here makes one)."
)

# A moving ball's path stands out; a ball at rest (or down) keeps its path, thinner and
# faded only a little (more would blend its colour into the cloth's and lose it).
# Every event of the shot has its tick on the scrub bar, coloured by its kind.
TICK_COLOURS: dict[MarkerKind, tuple[float, float, float, float]] = {
    MarkerKind.STRIKE: (0.95, 0.95, 0.95, 1),
    MarkerKind.FIRST_CONTACT: (1.0, 0.85, 0.3, 1),
    MarkerKind.HIT: (0.75, 0.6, 1.0, 1),
    MarkerKind.RAIL: (0.5, 0.8, 1.0, 1),
    MarkerKind.POCKET: (1.0, 0.4, 0.35, 1),
}
PATH_MOVING = (3.0, 1.0)  # line thickness (pixels), alpha
PATH_RESTING = (2.0, 0.75)


def _ball_words(ball: str) -> str:
    return "the cue ball" if ball == CUE else f"the {ball}"


def event_words(marker: EventMarker) -> str:
    """One event in a player's words: "the cue ball hits the 1", "the 6 reaches the head
    rail", "the 3 drops in the foot-left corner" (the HUD's names for pockets)."""
    balls = [_ball_words(b) for b in marker.balls]
    if marker.kind is MarkerKind.STRIKE:
        return f"the cue strikes {balls[0]}"
    if marker.kind in (MarkerKind.FIRST_CONTACT, MarkerKind.HIT):
        return f"{balls[0]} hits {balls[1]}" if len(balls) == 2 else " and ".join(balls) + " meet"
    if marker.kind is MarkerKind.RAIL:
        return f"{balls[0]} reaches the {marker.place} rail"
    return f"{balls[0]} drops in the {_pocket_words(marker.place)}"


def _pocket_words(place: str | None) -> str:
    """A pocket by its one name (:func:`rules.words.pocket_name`): "foot-left corner"."""
    return pocket_name(place) if place in set(PocketId) else "pocket"


# Where the viewer's own panels end, in aspect2d units: the shot list's right edge
# (from the window's left), the referee's panel's left edge (from the right) and the top
# of the scrub bar's band. The table is framed between them, never under them.
LIST_RIGHT = 0.42
PANEL_LEFT = 0.92
BAND_TOP = -0.76
MIN_TABLE_SHARE = 0.35  # narrower than this share of the window: the whole window


def table_box(aspect: float) -> Box:
    """The part of the window (render2d units) the viewer leaves the table: between its
    shot list, its panel, its scrub bar and the review's band. On a window too narrow
    for that (taller than wide), the whole window, the panels see-through over it."""
    left, right = (-aspect + LIST_RIGHT) / aspect, (aspect - PANEL_LEFT) / aspect
    if right - left < 2 * MIN_TABLE_SHARE:
        return WHOLE_WINDOW
    return Box(left, right, BAND_TOP, REVIEW_BOTTOM).shrunk(WINDOW_MARGIN)


@attrs.frozen(eq=False)
class ReplayItem:
    label: str  # "Rack 1, shot 3: Ann" (14.1: "Game 1, ...")
    short: str  # "1.3 Ann", for the shot list
    system: System
    ruling: Ruling | None
    names: tuple[str, str] = ("A", "B")
    said: str = ""  # the referee's plain line for the shot
    game: str = ""  # the game's display name ("9-ball"); none for a pooltool shot file
    # The game's step the shot is (a shot can be played from again), none for a lag
    # shot or a pooltool shot file; and how deep in the branches it is (0: the line in play).
    node: Node | None = None
    depth: int = 0
    struck: bool = True  # False: no stroke, the table as it lay (a time foul, GEN-17)
    # With no stroke, what the step was, in place of what the referee saw.
    note: str = ""

    @property
    def racked(self) -> bool:
        """The balls racked between two shots (14.1's re-rack), not a turn of the game."""
        return self.node is None and not self.struck


BRANCH_MARK = "\u21b3 "  # ↳, before a branch's shot in the shot list
BRANCH_INDENT = 0.035  # aspect2d units a level of branches moves a shot list entry right
SHOT_ENTRY = 0.034  # a shot list entry's text scale, when it fits
SHOT_LIST_HALF = 0.18  # an entry's farthest reach from the list's middle: its half, less a margin


def game_items(game: Game) -> list[ReplayItem]:
    """Every shot of a game, lag shots included: the line in play, oldest first, each
    shot followed by the shots played in its place (taken back, or played from the
    replay) and the rest of their branches, a level deeper."""
    items: list[ReplayItem] = []
    names = game.setup.players
    kind = game.setup.kind.display_name
    unit = game.setup.kind.race_unit.capitalize()  # "Rack 2", 14.1's "Game 1" (racked anew)
    for node, depth in in_play_order(game.root, game.current):
        record = node.record
        if isinstance(record, LagRecord):
            for name, shot in zip(names, record.simulated, strict=True):
                items.append(
                    ReplayItem(
                        f"Lag: {name}",
                        f"lag {name}",
                        shot.system,
                        None,
                        names,
                        game=kind,
                        depth=depth,
                    )
                )
        elif isinstance(record, ShotRecord):
            rack, number = shot_number(node)
            name = game.setup.name(record.shooter)
            branch = " (a branch)" if depth else ""
            label = f"{unit} {rack}, shot {number}: {name}{branch}"
            short = (
                "  " * max(0, depth - 1)
                + (BRANCH_MARK if depth else "")
                + f"{rack}.{number} {name}"
            )
            said = record_line(record, game.setup)
            system = record.simulated.system
            items.append(
                ReplayItem(
                    label,
                    short,
                    system,
                    record.ruling,
                    names,
                    said=said,
                    game=kind,
                    node=node,
                    depth=depth,
                )
            )
            racked = racked_item(game, record, label, short)
            if racked is not None:
                items.append(attrs.evolve(racked, depth=depth))
        elif isinstance(record, TimeFoulRecord):
            items.append(time_foul_item(game, node, record, depth))
    return items


def time_foul_item(game: Game, node: Node, record: TimeFoulRecord, depth: int) -> ReplayItem:
    """A time foul in the shot list (GEN-17): the table as it lay when the shot clock ran
    out, nothing moving, and the referee's line; played from again as a shot is."""
    from sim.physics.simulate import still_system

    assert node.parent is not None and node.parent.match.rack is not None
    name = game.setup.name(record.shooter)
    branch = " (a branch)" if depth else ""
    short = "  " * max(0, depth - 1) + (BRANCH_MARK if depth else "") + f"{record.rack}. {name}"
    return ReplayItem(
        f"Rack {record.rack}: {name}'s shot clock ran out{branch}",
        short + ": time",
        still_system(game.setup.spec, node.parent.match.rack.balls),
        record.ruling,
        game.setup.players,
        said=record_line(record, game.setup),
        game=game.setup.kind.display_name,
        node=node,
        depth=depth,
        struck=False,
        note="no stroke: the shot clock ran out first",
    )


def racked_item(game: Game, record: ShotRecord, label: str, short: str) -> ReplayItem | None:
    """The balls racked again after a shot (14.1's re-rack, SP-14), a step of its own
    after it: the table as the next shot starts, nothing moving, and what was racked;
    None when the shot racked nothing."""
    from sim.physics.simulate import still_system

    spec = game.setup.spec
    words = game.setup.kind.racking_words(record.ruling, spec.geometry)
    if words is None:
        return None
    return ReplayItem(
        f"{label}: the balls racked",
        f"{short} racked",
        still_system(spec, record.ruling.positions),
        None,
        game.setup.players,
        said=words,
        game=game.setup.kind.display_name,
        struck=False,
        note=words,
    )


def last_in_play(items: Sequence[ReplayItem]) -> int:
    """The index of the last shot of the line in play (the last shot if none is), not
    the balls racked after it."""
    last = (i for i in range(len(items) - 1, -1, -1) if items[i].depth == 0)
    return next((i for i in last if not items[i].racked), len(items) - 1)


class ReplayHost(Protocol):
    """What the viewer asks of the window (``PoolApp``): the table it draws the balls on,
    the sounds, and to be told it closed."""

    @property
    def base(self) -> ShowBase: ...
    @property
    def scene(self) -> TableScene | None: ...
    @property
    def sounds(self) -> SoundBoard: ...

    def replay_closed(self) -> None: ...
    def play_from(self, node: Node) -> None:
        """Close the viewer and play from before the shot of ``node``."""

    def play_on(self, node: Node) -> None:
        """Close the viewer and play on from the end of the line ``node`` is on."""

    def make_main_line(self, node: Node) -> list[ReplayItem]:
        """The line through ``node`` made the main line; the game's shots again."""
        ...

    def delete_line(self, node: Node) -> list[ReplayItem]:
        """The branch ``node`` starts deleted; the game's shots again."""
        ...

    def line_start(self, node: Node) -> Node | None:
        """Where the branch ``node`` is on leaves the line in play (None: it is on it)."""
        ...

    def game_review(self) -> GameReview | None:
        """The review of the game replayed (None: shots of no game)."""
        ...

    def start_review(self) -> None:
        """The game replayed reviewed in the background."""

    def play_best(self, node: Node, stroke: Stroke) -> None:
        """Close the viewer and play ``stroke`` from before the shot of ``node``."""

    def plays_best(self, node: Node) -> bool:
        """A person plays the seat of ``node``'s shot here (the computer would only play
        its own stroke again)."""
        ...


class ReplayView(DirectObject):  # type: ignore[misc]
    def __init__(
        self, app: ReplayHost, items: Sequence[ReplayItem], index: int | None = None
    ) -> None:
        super().__init__()
        if not items:
            raise ValueError("there is no shot to replay")
        self.app = app
        self.base = app.base
        self.items = list(items)
        self.index = (
            len(self.items) - 1 if index is None else max(0, min(index, len(self.items) - 1))
        )
        self.t = 0.0
        self.playing = True
        self.speed_index = SPEEDS.index(1.0)
        self.loop = False
        self.trails = True
        aspect = self.aspect = self.base.getAspectRatio()
        self.root = self.base.aspect2d.attachNewNode("replay")
        DirectFrame(parent=self.root, frameColor=PANEL, frameSize=(-aspect, aspect, -1.0, -0.78))
        self.title = label(self.root, "", (-aspect + 0.05, -0.83), 0.045, GOLD, TextNode.ALeft)
        self.clock_text = label(
            self.root, "", (aspect - 0.05, -0.83), 0.045, WHITE, TextNode.ARight
        )
        # A click on the bar seeks there: a page as long as the whole bar takes the thumb
        # to the click at once (Panda3D's slider then drags it on from there).
        self.slider = DirectSlider(
            parent=self.root,
            range=(0.0, 1.0),
            value=0.0,
            pageSize=1.0,
            pos=(0, 0, BAR_Y),
            scale=(aspect - 0.1, 1, 0.5),
            frameColor=(0.25, 0.25, 0.25, 1),
            thumb_frameColor=(0.95, 0.75, 0.3, 1),
            thumb_frameSize=(-0.012, 0.012, -0.09, 0.09),
            thumb_relief=DGG.FLAT,
            command=self._scrubbed,
        )
        self._bar_ends = self._thumb_travel()
        self.ticks = self.root.attachNewNode("ticks")
        self.help_text = label(self.root, HELP, (0, -0.985), HELP_TEXT, DIM, TextNode.ACenter)
        if self.help_text.textNode.getWidth() * HELP_TEXT > 2 * aspect - 0.06:
            self.help_text.setText(HELP_SHORT)
        fit_width(self.help_text, 2 * aspect - 0.06, HELP_TEXT)
        self.panel = DirectFrame(
            parent=self.root, frameColor=PANEL, frameSize=(aspect - 0.9, aspect - 0.02, -0.74, 0.76)
        )
        # The last event the frame has passed, in words, at the top of the panel.
        self.event_text = label(self.root, "", (aspect - 0.87, 0.69), 0.04, EVENT, TextNode.ALeft)
        self.event_text.setWordwrap(0.84 / 0.04)
        self.panel_lines: list[OnscreenText] = []
        # The shot list on the left: the shots around this one, a click away.
        self.shot_list = DirectFrame(
            parent=self.root,
            frameColor=PANEL,
            frameSize=(-aspect + 0.02, -aspect + 0.40, -0.74, 0.76),
        )
        self.shot_buttons: list[DirectButton] = []
        # The review's band across the top of the table, its best option on the cloth.
        scene = app.scene
        overlay = (
            None
            if scene is None
            else TrackingOverlay(
                self.base, scene.spec.ball_radius, colour=scene.drawn_colour(BEST_LINES)
            )
        )
        self.band = ReviewBand(
            self.root,
            (-aspect + LIST_RIGHT + 0.02, aspect - PANEL_LEFT - 0.02),
            self.items[0].names,
            app.game_review(),
            overlay,
            app.start_review,
            app.play_best,
            app.plays_best,
        )
        # Play from here: the table at the position before the shot shown (a game's shot).
        self.play_button = button(
            self.root, "Play from here", (aspect - 0.62, PLAY_FROM_Y), self.play_from_here
        )
        # Compare: side by side with another attempt at the shot (shown when there is one).
        self.compare_button = button(
            self.root, "Compare", (aspect - 0.2, PLAY_FROM_Y), self.cycle_compare
        )
        # The line the shot shown is on: play on from its end, make it the main line,
        # delete it (a branch; Delete asks again before it deletes).
        self.line_buttons = {
            name: button(
                self.root, text, (aspect - 0.75 + i * 0.29, LINE_Y), action, 0.034, width=0.27
            )
            for i, (name, text, action) in enumerate(
                (
                    ("play_on", "Play on (O)", self.play_on),
                    ("main", "Main line (V)", self.make_main),
                    ("delete", "Delete (Del)", self.delete_line),
                )
            )
        }
        self._delete_armed: Node | None = None  # Delete pressed once on this branch
        self.comparing: int | None = None  # the index in ``items`` of the other attempt
        self.compare_note = ""  # C on a shot with no other attempt says so
        self.ghosts: GhostBalls | None = None  # made at the first comparison
        self.other_paths = self.base.render.attachNewNode("replay-other-paths")
        self.other_paths.setLightOff()
        self.other_paths.setTransparency(TransparencyAttrib.MAlpha)
        self.other_paths.setDepthWrite(False)
        self.paths = self.base.render.attachNewNode("replay-paths")
        self.paths.setLightOff()
        self.paths.setTransparency(TransparencyAttrib.MAlpha)
        self.paths.setDepthWrite(False)
        self._setting_slider = False
        # The frame after a shot is (re)started moves time on by nothing: its clock step
        # holds however long the start took (loading the window, building the timeline).
        self._just_started = True
        self._shown_panel: object = None
        self._trail_t = -1.0
        self.destroyed = False
        self._bind()
        self.select(self.index)
        self.base.taskMgr.add(self._frame, "replay-frame")

    # -- building blocks ---------------------------------------------------------------

    def _bind(self) -> None:
        keys = {
            "space": self.toggle_play,
            "arrow_left": lambda: self.step_frames(-1),
            "arrow_right": lambda: self.step_frames(1),
            "arrow_left-repeat": lambda: self.step_frames(-1),
            "arrow_right-repeat": lambda: self.step_frames(1),
            "[": lambda: self.jump_event(-1),
            "]": lambda: self.jump_event(1),
            "-": lambda: self.change_speed(-1),
            "=": lambda: self.change_speed(1),
            "+": lambda: self.change_speed(1),
            "l": self.toggle_loop,
            "t": self.toggle_trails,
            "page_up": lambda: self.select(self.index - 1),
            "page_down": lambda: self.select(self.index + 1),
            "p": self.play_from_here,
            "c": self.cycle_compare,
            "o": self.play_on,
            "v": self.make_main,
            "delete": self.delete_line,
            "r": self.band.start,
            "b": self.band.play_best,
            "escape": self.close,
        }
        for key, action in keys.items():
            self.accept(key, action)

    # -- what is shown -----------------------------------------------------------------------

    @property
    def item(self) -> ReplayItem:
        return self.items[self.index]

    @property
    def speed(self) -> float:
        return SPEEDS[self.speed_index]

    @property
    def duration(self) -> float:
        """The clock's length: the shot's, or side by side the longer attempt's."""
        if self.comparing is None:
            return self.timeline.duration
        return max(self.timeline.duration, self.other_timeline.duration)

    def others(self) -> list[int]:
        """The indices in ``items`` of the other attempts at the shot shown."""
        # A time foul has no stroke to set beside another attempt's (nor one beside it).
        nodes = [item.node if item.struck else None for item in self.items]
        return other_attempts(nodes, self.index)

    def compare(self, number: int | None) -> None:
        """Side by side with the other attempt ``number`` (0 first, as :meth:`others`
        lists them), on the same clock from where it is now; None: off."""
        if number is None:
            self.comparing = None
        else:
            others = self.others()
            if not others:
                raise ValueError(NO_OTHER)
            if not 0 <= number < len(others):
                raise ValueError(
                    f"this shot has {len(others)} other attempt{'s' if len(others) > 1 else ''}"
                    f" (0 to {len(others) - 1}), not {number}"
                )
            self.comparing = others[number]
            other = self.items[self.comparing]
            self.other_timeline = ShotTimeline.from_system(other.system)
            self.other_frames = self.other_timeline.frames(60.0)
            if self.ghosts is None:
                assert self.app.scene is not None
                self.ghosts = GhostBalls(self.app.scene, self.app.scene.drawn_colour(GHOST_TINT))
        self.compare_note = ""
        if self.comparing is None and self.ghosts is not None:
            self.ghosts.hide()
        self._trail_t = -1.0
        self._shown_panel = None
        self._draw_ticks()
        self.set_time(self.t)

    def cycle_compare(self) -> None:
        """C: the next other attempt, then off; a shot with none says so."""
        others = self.others()
        if not others:
            self.compare_note = NO_OTHER
            self._shown_panel = None
            self.show()
            return
        number = None if self.comparing is None else others.index(self.comparing) + 1
        self.compare(0 if number is None else (number if number < len(others) else None))

    def select(self, index: int) -> None:
        """Show shot ``index`` from its start."""
        self.index = max(0, min(index, len(self.items) - 1))
        self.timeline = ShotTimeline.from_system(self.item.system)
        self.sounds = sound_cues(self.timeline)
        self.frames = self.timeline.frames(60.0)  # for the ball paths
        self.t = 0.0
        self.playing = True
        self._just_started = True
        self._trail_t = -1.0
        self._marker_times = [m.t for m in self.timeline.markers]
        self.comparing = None  # a new shot: side by side again only when asked
        self.compare_note = ""
        if self.ghosts is not None:
            self.ghosts.hide()
        self._draw_ticks()
        self._draw_shot_list()
        self.band.show(self.item.node)
        if self.item.node is None:
            self.play_button.hide()
        else:
            self.play_button.show()
        if self.others():
            self.compare_button.show()
        else:
            self.compare_button.hide()
        self._delete_armed = None
        self._show_line_buttons()
        self._shown_panel = None
        self.show()

    def bar_x(self, fraction: float) -> float:
        """Where on the screen (aspect2d x) the scrub bar shows ``fraction`` of the shot:
        the thumb's centre then, and that time's tick."""
        start, end = self._bar_ends
        return start + (end - start) * fraction

    def _thumb_travel(self) -> tuple[float, float]:
        """The thumb's centre at the bar's two ends: half the thumb's width in from the
        bar's (as Panda3D's slider lays it; the thumb itself is placed only at render)."""
        left, right = self.slider["frameSize"][:2]
        thumb_left, thumb_right = self.slider.thumb["frameSize"][:2]
        half = (thumb_right - thumb_left) / 2
        scale = float(self.slider.getSx())
        return ((left + half) * scale, (right - half) * scale)

    def set_time(self, t: float) -> None:
        self.t = min(max(0.0, t), self.duration)
        self.show()

    def step_frames(self, count: int) -> None:
        """One frame (1/60 s) at a time; pauses the replay."""
        self.playing = False
        self.set_time(round(self.t / FRAME) * FRAME + count * FRAME)

    def jump_event(self, direction: int) -> None:
        self.playing = False
        times = sorted({m.t for m in self.timeline.markers})
        if direction > 0:
            later = [t for t in times if t > self.t + 1e-9]
            self.set_time(later[0] if later else self.duration)
        else:
            earlier = [t for t in times if t < self.t - 1e-9]
            self.set_time(earlier[-1] if earlier else 0.0)

    def change_speed(self, step: int) -> None:
        self.speed_index = max(0, min(len(SPEEDS) - 1, self.speed_index + step))

    def toggle_play(self) -> None:
        if not self.playing and self.t >= self.duration:
            self.t = 0.0
        self.playing = not self.playing

    def play_from_here(self) -> None:
        """Back to the table before the shot shown, to play it again as a new branch
        (a lag shot, or a shot of no game, cannot be)."""
        node = self.item.node
        if node is not None:
            self.app.play_from(node)

    def _show_line_buttons(self) -> None:
        """Play on for any shot of a game; Main line for a shot off it; Delete for a
        shot off the line in play."""
        node = self.item.node
        shown = {
            "play_on": node is not None,
            "main": node is not None and not node.is_mainline(),
            "delete": node is not None and self.app.line_start(node) is not None,
        }
        for name, entry in self.line_buttons.items():
            entry.show() if shown[name] else entry.hide()

    def play_on(self) -> None:
        """O: back to the table at the end of the line the shot shown is on, to play on
        from there (a branch: the match as it was at its last step)."""
        node = self.item.node
        if node is not None:
            self.app.play_on(node)

    def make_main(self) -> None:
        """V: the line of the shot shown becomes the main line (saved so)."""
        node = self.item.node
        if node is None or node.is_mainline():
            self._note("This shot is on the main line already.")
            return
        self._reload(self.app.make_main_line(node), node, "This line is now the main line.")

    def delete_line(self) -> None:
        """Delete: the branch of the shot shown, every shot of it, after asking once more
        (never the line in play)."""
        node = self.item.node
        start = None if node is None else self.app.line_start(node)
        if node is None or start is None:
            self._note("The line in play cannot be deleted (play from another shot first).")
            return
        if self._delete_armed is not start:
            self._delete_armed = start
            count = sum(1 for step in start.nodes() if isinstance(step.record, ShotRecord))
            self._note(
                f"Delete this branch ({count} shot{'s' * (count != 1)})? "
                "Press Delete again to delete it."
            )
            return
        parent = start.parent
        self._reload(self.app.delete_line(start), parent, "The branch is deleted.")

    def _note(self, text: str) -> None:
        self.compare_note = text
        self._shown_panel = None
        self.show()

    def _reload(self, items: list[ReplayItem], near: Node | None, note: str) -> None:
        """The game's shots listed again (after a change to its tree), showing ``near``'s
        shot, or the one before it, or the last in play."""
        self.items = list(items)
        nodes = [item.node for item in self.items]
        index = None
        while near is not None and index is None:
            index = next((i for i, n in enumerate(nodes) if n is near), None)
            near = near.parent
        self.select(last_in_play(self.items) if index is None else index)
        self._note(note)

    def toggle_loop(self) -> None:
        self.loop = not self.loop

    def toggle_trails(self) -> None:
        self.trails = not self.trails
        self._trail_t = -1.0
        self.show()

    def show(self) -> None:
        """Balls, paths, the scrub bar, the clock and the referee's panel at ``t``."""
        states = self.timeline.at(min(self.t, self.timeline.duration))
        assert self.app.scene is not None
        self.app.scene.set_states(list(self.timeline.ball_ids), states)
        if self.comparing is not None and self.ghosts is not None:
            other = self.other_timeline
            self.ghosts.show(
                other.ball_ids,
                other.at(min(self.t, other.duration)),
                self.timeline.ball_ids,
                states,
            )
        duration = self.duration
        self._setting_slider = True
        self.slider["value"] = self.t / duration if duration > 0 else 0.0
        self._setting_slider = False
        speed = self.speed
        speed_text = f"{speed:g}x" if speed >= 1 else f"1/{round(1 / speed)}x"
        status = "playing" if self.playing else "paused"
        loop = " · loop" if self.loop else ""
        game = f"{self.item.game} · " if self.item.game else ""
        self.title.setText(f"Replay {self.index + 1}/{len(self.items)} · {game}{self.item.label}")
        frame = round(self.t / FRAME)
        self.clock_text.setText(
            f"{self.t:5.2f} / {duration:.2f} s · frame {frame} · {speed_text} {status}{loop}"
        )
        # The title in the room the clock leaves it on the bar (a narrow window's less).
        clock = self.clock_text.textNode.getWidth() * 0.045
        fit_width(self.title, 2 * self.aspect - 0.15 - clock, 0.045)
        self._draw_paths()
        self._draw_event()
        self._draw_panel()

    # -- drawing -----------------------------------------------------------------------------------

    def _draw_shot_list(self) -> None:
        for old in self.shot_buttons:
            old.destroy()
        aspect = self.base.getAspectRatio()
        first = max(0, min(self.index - SHOT_LIST // 2, len(self.items) - SHOT_LIST))
        shown = range(first, min(len(self.items), first + SHOT_LIST))
        self.shot_buttons = []
        for row, index in enumerate(shown):
            item = self.items[index]
            entry = button(
                self.shot_list,
                item.short,
                (-aspect + 0.21 + item.depth * BRANCH_INDENT, 0.68 - row * 0.095),
                partial(self.select, index),
                scale=SHOT_ENTRY,
                pad=(0.3, 0.25),
            )
            # A long entry ("1.91 Computer (level 3) racked") drawn smaller, inside the list.
            low, high = entry.getBounds()[:2]  # its frame about its place, unscaled
            reach = max(-low, high) * SHOT_ENTRY
            room = SHOT_LIST_HALF - item.depth * BRANCH_INDENT
            if reach > room:
                entry.setScale(SHOT_ENTRY * room / reach)
            idle = BRANCH if item.depth else BUTTON
            entry["frameColor"] = (0.55, 0.42, 0.1, 0.95) if index == self.index else idle
            self.shot_buttons.append(entry)
        rows = [(self.items[index].node, 0.68 - row * 0.095) for row, index in enumerate(shown)]
        self.band.draw_chips(rows, -aspect + 0.385)

    def _draw_ticks(self) -> None:
        for child in self.ticks.getChildren():
            child.removeNode()
        duration = self.duration or 1.0
        lines = LineSegs("ticks")
        lines.setThickness(2)
        for marker in self.timeline.markers:
            x = self.bar_x(marker.t / duration)
            lines.setColor(*TICK_COLOURS[marker.kind])
            lines.moveTo(x, 0, -0.875)
            lines.drawTo(x, 0, -0.855)
        self.ticks.attachNewNode(lines.create())

    def _draw_event(self) -> None:
        """The last event at or before ``t`` in words, with its time; events at the same
        instant together (a ball that hits another and a rail at once)."""
        count = bisect.bisect_right(self._marker_times, self.t + 1e-9)
        if count == 0:
            self.event_text.setText("")
            return
        at = self._marker_times[count - 1]
        same = [m for m in self.timeline.markers[:count] if m.t == at]
        words = "; ".join(event_words(m) for m in same[:2])
        if len(same) > 2:
            words += f" (and {len(same) - 2} more)"
        self.event_text.setText(f"{at:.2f} s: {words}")

    def _draw_paths(self) -> None:
        if not self.trails:
            self.paths.hide()
            self.other_paths.hide()
            return
        self.paths.show()
        # Rebuilding every path costs milliseconds: while playing forward, only every
        # PATH_EVERY of a second; at once when paused, stepped or scrubbed.
        moved = self.t - self._trail_t
        if abs(moved) < 1e-9 or (self.playing and 0 < moved < PATH_EVERY):
            return
        self._trail_t = self.t
        comparing = self.comparing is not None
        assert self.app.scene is not None
        drawn = self.app.scene.drawn_colour
        this = drawn(THIS_ATTEMPT) if comparing else None
        _draw_tracks(self.paths, self.timeline, self.frames, self.t, this, drawn)
        if comparing:
            self.other_paths.show()
            other = drawn(OTHER_ATTEMPT)
            _draw_tracks(
                self.other_paths, self.other_timeline, self.other_frames, self.t, other, drawn
            )
        else:
            self.other_paths.hide()

    def _compare_lines(self) -> list[tuple[str, tuple[float, ...]]]:
        """Side by side: the legend, each attempt in its colour, where its cue ball
        stopped and what it potted (as each has played by then); or C's note."""
        if self.compare_note:
            return [(self.compare_note, DIM), ("", WHITE)]
        if self.comparing is None:
            return []
        assert self.app.scene is not None
        geometry = self.app.scene.spec.geometry
        others = self.others()
        other_item = self.items[self.comparing]
        this_end = outcome(self.timeline)
        other_end = outcome(self.other_timeline)
        this_done = self.t >= self.timeline.duration - 1e-9
        other_done = self.t >= self.other_timeline.duration - 1e-9
        kept = "a branch" if self.item.depth else "the match went on from it"
        name = attempt_name(
            others.index(self.comparing) + 1, len(others), branch=bool(other_item.depth)
        )
        lines: list[tuple[str, tuple[float, ...]]] = [
            (f"This attempt ({kept})", (*THIS_ATTEMPT, 1))
        ]
        if this_done:
            lines += [(text, WHITE) for text in attempt_lines(this_end, other_end, geometry)]
        else:
            lines.append(("still rolling", DIM))
        lines.append((name, (*OTHER_ATTEMPT, 1)))
        if other_done:
            lines += [(text, WHITE) for text in attempt_lines(other_end, this_end, geometry)]
        else:
            lines.append(("still rolling", DIM))
        lines.append(("", WHITE))
        return lines

    def _draw_panel(self) -> None:
        """What the referee saw up to ``t``; the ruling once the shot is over; side by
        side, the two attempts first."""
        markers = [m for m in self.timeline.markers if m.t <= self.t + 1e-9]
        done = self.t >= self.timeline.duration - 1e-9
        other_done = self.comparing is not None and self.t >= self.other_timeline.duration - 1e-9
        key = (len(markers), done, self.index, self.comparing, other_done, self.compare_note)
        if key == self._shown_panel:
            return
        self._shown_panel = key
        for line in self.panel_lines:
            line.destroy()
        self.panel_lines = []
        first = next((m for m in markers if m.kind is MarkerKind.FIRST_CONTACT), None)
        railed = sorted(
            {b for m in markers if m.kind is MarkerKind.RAIL for b in m.balls if b != CUE}, key=int
        )
        dropped = [
            f"{'cue ball' if m.balls[0] == CUE else m.balls[0]} in the {_pocket_words(m.place)}"
            for m in markers
            if m.kind is MarkerKind.POCKET
        ]
        saw = [
            (
                f"first ball hit: the {next(b for b in first.balls if b != CUE)}"
                if first
                else "first ball hit: none yet",
                WHITE,
            ),
            (f"balls to a rail: {', '.join(railed) if railed else 'none yet'}", WHITE),
            (f"pocketed: {', '.join(dropped) if dropped else 'none yet'}", WHITE),
        ]
        if not self.item.struck:
            saw = [(self.item.note, WHITE)]
        heading = "Racked for the next shot" if self.item.racked else "What the referee saw"
        seen = [*self._compare_lines(), (heading, GOLD), *saw]
        ruling = self.item.ruling
        if ruling is not None:
            seen.append(("", WHITE))
            if done:
                seen.append(("The ruling", GOLD))
                if self.item.said:  # the plain line first, then why (with rule IDs)
                    seen.append((self.item.said, RED if ruling.foul else WHITE))
                    seen.append(("", WHITE))
                for text, foul in detail_lines(ruling.reasons, self.item.names):
                    seen.append((text, RED if foul else WHITE))
            else:
                seen.append(("The ruling: at the end of the shot", DIM))
        aspect = self.base.getAspectRatio()
        y = 0.57  # under the event line (two lines at most)
        for text, colour in seen:
            for part in _wrap(text, 40) or [""]:
                if y < PLAY_FROM_Y + 0.06:  # the panel's lines end over its button
                    break
                self.panel_lines.append(
                    label(self.root, part, (aspect - 0.87, y), 0.036, colour, TextNode.ALeft)
                )
                y -= 0.045

    # -- every frame -----------------------------------------------------------------------------

    def _scrubbed(self) -> None:
        """The player dragged the scrub bar. (Setting the bar ourselves also lands here,
        an event later: a value that is already ``t`` is ignored.)"""
        t = float(self.slider["value"]) * self.duration
        if self._setting_slider or abs(t - self.t) < FRAME / 4:
            return
        self.playing = False
        self.set_time(t)

    def _frame(self, task: Task) -> int:
        started, self._just_started = self._just_started, False
        if self.band.frame():  # the review came in: its tags beside the shots too
            self._draw_shot_list()
        if self.playing and not started:
            dt = min(ClockObject.getGlobalClock().getDt(), MAX_PLAY_STEP)
            t = self.t + dt * self.speed
            if t >= self.duration:
                if self.loop:
                    t = 0.0
                else:
                    t = self.duration
                    self.playing = False
            # Sounds only while playing forward (not when stepping or scrubbing); the
            # strike at 0 too when playing starts from the beginning; up to the end
            # when a loop wraps round.
            heard_from = self.t if self.t > 0 else -1.0
            heard_to = t if t >= self.t else self.timeline.duration
            self.app.sounds.play(cues_between(self.sounds, heard_from, heard_to))
            self.set_time(t)
        return int(Task.cont)

    def rebuilt(self) -> ReplayView:
        """The same viewer laid out for the window's new shape: same shot, time, speed,
        loop, paths and play/pause (this one is destroyed)."""
        self.destroy()
        view = ReplayView(self.app, self.items, self.index)
        view.speed_index, view.loop, view.trails = self.speed_index, self.loop, self.trails
        view.playing = self.playing
        if self.comparing is not None:
            view.compare(self.others().index(self.comparing))
        view.set_time(self.t)
        return view

    def close(self) -> None:
        self.destroy()
        self.app.replay_closed()

    def destroy(self) -> None:
        """Take the viewer off the window (once: closing it destroys it, and so does
        the window's closing the screen that is up)."""
        if self.destroyed:
            return
        self.destroyed = True
        self.ignoreAll()
        self.base.taskMgr.remove("replay-frame")
        self.band.destroy()
        self.paths.removeNode()
        self.other_paths.removeNode()
        if self.ghosts is not None:
            self.ghosts.destroy()
        destroy_under(self.root)


def _draw_tracks(
    parent: NodePath,
    timeline: ShotTimeline,
    frames: BallStates,
    t: float,
    colour: tuple[float, float, float] | None,
    drawn: Callable[[Sequence[float]], tuple[float, float, float]],
) -> None:
    """Under ``parent`` (emptied first), each ball's path up to ``t``: in its ball's
    colour, or all in ``colour`` (an attempt's, side by side); thinner and faded a
    little once the ball rests. ``drawn``: a colour as the graphics preset takes it."""
    for child in parent.getChildren():
        child.removeNode()
    count = int(np.searchsorted(frames.t, t, side="right"))
    if count < 2:
        return
    positions = frames.positions[:count]
    pocketed = frames.pocketed[:count]
    now = timeline.at(min(t, timeline.duration))
    z = 0.002
    for j, ball in enumerate(timeline.ball_ids):
        track = positions[:, j]
        if np.ptp(track[:, :2], axis=0).max() < 1e-6:
            continue  # it has not moved (yet)
        resting = bool(now.pocketed[j]) or int(now.motion[j]) == 0
        thickness, alpha = PATH_RESTING if resting else PATH_MOVING
        lines = LineSegs(f"path-{ball}")
        lines.setThickness(thickness)
        lines.setColor(*(colour or drawn(BALL_COLOURS.get(ball, ball_colour(ball)))), 1.0)
        down = np.flatnonzero(pocketed[:, j])
        xy = track[: down[0] if len(down) else count, :2]
        if len(xy) < 2:
            continue
        # Only the frames where it moved: a ball rests most of a long shot, and each
        # point costs (a break's paths at its end took 72 ms to build, now 12).
        moved_here = np.concatenate(([True], np.any(xy[1:] != xy[:-1], axis=1)))
        points = xy[moved_here].tolist()
        lines.moveTo(points[0][0], points[0][1], z)
        for x, y in points[1:]:
            lines.drawTo(x, y, z)
        parent.attachNewNode(lines.create()).setAlphaScale(alpha)


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width)
