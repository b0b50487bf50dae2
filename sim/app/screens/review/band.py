"""The review's band in the replay, across the top of the table between the shot list and
the referee's panel: the rack's evaluation graph (:mod:`.graph`) on the left; on the
right the shot shown's tag, its three values (best, chosen, actual), skill and luck,
the best option in words and Play the best (B), which loads the best option's stroke
at the table as a new branch. The best option's tracking lines lie on the cloth beside
the paths of the shot played. Each shot of the shot list gets a chip of its tag's colour.

With no review yet, the band says so and offers Review this game (R), made in the
background (the window never waits), its progress said as it goes; the band draws
itself again when the review moves on (:meth:`ReviewBand.frame`).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence

from direct.gui.DirectGui import DirectButton, DirectFrame
from panda3d.core import NodePath, TextNode

from sim.app.hud.widgets import DIM, GOLD, NOTICE, PANEL, WHITE, button, destroy_under, label
from sim.app.marks.tracking import TrackingOverlay
from sim.app.screens.review.graph import TAG_COLOURS, draw_axis, draw_graph, draw_legend
from sim.app.screens.review.keeper import GameReview
from sim.physics.tracking import TrackingLines
from sim.play.game import Node, Stroke
from sim.play.review import StepReview
from sim.play.review.bestplan import lines_from_json, stroke_from_json
from sim.play.review.marks import points
from sim.play.review.words import percent

# The band's height on the screen (aspect2d units): the table is framed under it.
BAND_BOTTOM = 0.6
BAND_TOP = 0.985
AXIS = 0.2  # room left of the graph for its axis' words
GRAPH_SHARE = 0.44  # of the band's width, the graph's (its axis' words included)
TEXT = 0.032
SMALL_TEXT = 0.027  # the best option's words on a narrow window
BEST_LINES_SHOWN = 4  # the lines for the best option and the stroke played
LINE = 0.045
BEST_LINES = (0.45, 1.0, 0.45)  # the best option on the cloth: a bright green
CHIP = (0.011, 0.024)  # half a chip's width and height


class ReviewBand:
    """The band (see the module) from ``left`` to ``right`` of ``root``; ``source`` the
    game's review (None: shots of no game, no review); ``overlay`` draws the best
    option's lines; ``on_start`` asks for the review, ``on_play_best`` plays the best."""

    def __init__(
        self,
        root: NodePath,
        span: tuple[float, float],
        names: tuple[str, str],
        source: GameReview | None,
        overlay: TrackingOverlay | None,
        on_start: Callable[[], None],
        on_play_best: Callable[[Node, Stroke], None],
        plays_best: Callable[[Node], bool] = lambda node: True,
    ) -> None:
        self.left, self.right = span
        self.names = names
        self.source = source
        self.overlay = overlay
        self.on_start = on_start
        self.on_play_best = on_play_best
        self.plays_best = plays_best
        self.parent = root
        self.root = root.attachNewNode("review-band")  # made again at each drawing
        self.chips = root.attachNewNode("review-chips")
        self.node: Node | None = None
        self.play_best_button: DirectButton | None = None
        self.review_button: DirectButton | None = None
        self.text = ""  # what the band says now, in one string (tests read it)
        self._drawn: object = None

    @property
    def step(self) -> StepReview | None:
        """The review of the shot shown (None: none)."""
        return None if self.source is None else self.source.step(self.node)

    def show(self, node: Node | None) -> None:
        """The band for the shot of ``node`` (None: a lag shot, or a shot of no game)."""
        self.node = node
        self._drawn = None
        self.frame()

    def frame(self) -> bool:
        """Drawn again when the review moved on (its progress, its end): whether it was."""
        status = None if self.source is None else self.source.status
        key = (self.node, status, self.source is not None and self.source.review is not None)
        if key == self._drawn:
            return False
        self._drawn = key
        self._draw()
        return True

    # -- what the player does -------------------------------------------------------------

    def start(self) -> None:
        """R, Review this game: the review made in the background."""
        if self.source is not None and self.source.review is None and not self.source.running:
            self.on_start()
            self._drawn = None
            self.frame()

    def best_stroke(self) -> Stroke | None:
        step = self.step
        if step is None or step.best_stroke is None:
            return None
        return stroke_from_json(step.best_stroke)

    def play_best(self) -> None:
        """B, Play the best: the table before the shot shown, the best stroke loaded."""
        stroke = self.best_stroke()
        if stroke is not None and self.node is not None and self.plays_best(self.node):
            self.on_play_best(self.node, stroke)

    def best_lines(self) -> TrackingLines | None:
        step = self.step
        return None if step is None or step.best_lines is None else lines_from_json(step.best_lines)

    # -- drawing --------------------------------------------------------------------------

    def draw_chips(self, rows: Sequence[tuple[Node | None, float]], x: float) -> None:
        """A chip of each listed shot's tag at ``x``, on its row's height (``rows``: each
        entry's node and the y of its text)."""
        destroy_under(self.chips)
        self.chips = self.parent.attachNewNode("review-chips")
        if self.source is None or self.source.review is None:
            return
        w, h = CHIP
        for node, y in rows:
            step = self.source.step(node)
            if step is not None:
                DirectFrame(
                    parent=self.chips,
                    frameColor=TAG_COLOURS[step.tag],
                    frameSize=(x - w, x + w, y - h + 0.012, y + h + 0.012),
                )

    def _draw(self) -> None:
        destroy_under(self.root)
        self.root = self.parent.attachNewNode("review-band")
        self.play_best_button = self.review_button = None
        if self.overlay is not None:
            self.overlay.show(None)
        if self.source is None:
            self.text = ""
            return
        DirectFrame(
            parent=self.root,
            frameColor=PANEL,
            frameSize=(self.left, self.right, BAND_BOTTOM, BAND_TOP),
        )
        split = self.left + (self.right - self.left) * GRAPH_SHARE
        box = (self.left + AXIS, split - 0.02, BAND_BOTTOM + 0.08, BAND_TOP - 0.02)
        step = self.step
        review = self.source.review
        if review is not None and step is not None:
            draw_graph(self.root, self.source.rack(step), step, box)
            draw_axis(self.root, self.names, box, AXIS - 0.02)
            draw_legend(self.root, self.left + 0.02, BAND_BOTTOM + 0.02)
        lines = self._lines(step)
        self.text = " ".join(text for text, _, _ in lines)
        x = (split + 0.02) if review is not None and step is not None else self.left + 0.04
        y = BAND_TOP - 0.05
        for text, colour, size in lines:
            label(self.root, text, (x, y), size, colour, TextNode.ALeft)
            y -= LINE if size > TEXT else size * 1.2  # the title a little apart
        self._buttons(step)
        lines_drawn = self.best_lines()
        if self.overlay is not None and lines_drawn is not None:
            self.overlay.show(lines_drawn)

    def _lines(self, step: StepReview | None) -> list[tuple[str, tuple[float, ...], float]]:
        """The band's words for the shot shown, each with its colour and size."""
        source = self.source
        assert source is not None
        said: list[tuple[str, tuple[float, ...], float]]
        if source.review is None:
            status = source.status
            colour = NOTICE if source.failed else WHITE
            said = [(part, colour, TEXT) for part in textwrap.wrap(status, self._chars(TEXT, 1.0))]
            if source.run is None or source.failed:
                said.append(
                    ("The review judges every shot as a chess engine judges moves.", DIM, TEXT)
                )
            return [("Game review", GOLD, 0.04), *said]
        if step is None:
            why = "a lag shot" if self.node is None else "not on the line reviewed (a branch)"
            return [("Game review", GOLD, 0.04), (f"This shot is not reviewed: {why}.", DIM, TEXT)]
        luck = round(points(step.luck), 1) + 0.0
        skill = f"-{points(step.skill):.1f}" if step.skill > 0 else "0.0"
        values = f"best {percent(step.best)} · chosen {percent(step.chosen)}"
        if step.kind != "choice":
            values += f" · actual {percent(step.actual)}"
        marks = f"skill {skill} · luck {luck:+.1f} · accuracy {step.accuracy:.0f} %"
        if step.missed_pot:
            marks += " · a makeable pot missed"
        said = [
            (f"{step.name.capitalize()}: {step.tag.value}", TAG_COLOURS[step.tag], 0.04),
            (values, WHITE, TEXT),
            (marks, DIM, TEXT),
        ]
        played = step.tag.value != "best"
        said += self._fitted(f"Best: {step.best_option}", WHITE, BEST_LINES_SHOWN - played)
        if played:
            said += self._fitted(f"Played: {step.played}", DIM, 1)
        return said

    def _fitted(
        self, text: str, colour: tuple[float, ...], lines: int
    ) -> list[tuple[str, tuple[float, ...], float]]:
        """``text`` wrapped in at most ``lines`` lines: at the band's size, or smaller on
        a narrow window, or cut short with an ellipsis (never cut off unsaid)."""
        for size in (TEXT, SMALL_TEXT):
            parts = textwrap.wrap(text, self._chars(size))
            if len(parts) <= lines:
                return [(part, colour, size) for part in parts]
        parts = textwrap.wrap(text, self._chars(SMALL_TEXT))[:lines]
        parts[-1] = parts[-1][: self._chars(SMALL_TEXT) - 1].rstrip() + "…"
        return [(part, colour, SMALL_TEXT) for part in parts]

    def _buttons(self, step: StepReview | None) -> None:
        source = self.source
        assert source is not None
        y = BAND_BOTTOM + 0.035
        if source.review is None and not source.running:
            self.review_button = button(
                self.root,
                "Review this game (R)",
                (self.left + 0.04 + 0.3, y),
                self.start,
                0.034,
            )
        elif step is not None and step.best_stroke is not None and self.node is not None:
            if self.plays_best(self.node):
                self.play_best_button = button(
                    self.root, "Play the best (B)", (self.right - 0.2, y), self.play_best, 0.034
                )
            else:  # the computer plays that seat here: it would play its own stroke
                label(
                    self.root,
                    "the computer's seat: its best is drawn",
                    (self.right - 0.03, y - 0.01),
                    0.028,
                    DIM,
                    TextNode.ARight,
                )

    def _chars(self, size: float, share: float = 1.0 - GRAPH_SHARE) -> int:
        """How many characters a line of the band's text side takes at ``size``."""
        return max(20, int((self.right - self.left) * share / (size * 0.52)))

    def destroy(self) -> None:
        if self.overlay is not None:
            self.overlay.destroy()
        destroy_under(self.root)
        destroy_under(self.chips)
