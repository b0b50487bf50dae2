"""The match summary, as a broadcast shows it when a match ends: the two players side by
side, their figures between them (racks, balls on the break, break-and-runs, run-outs,
pots, safeties, fouls, and the game's own figures), counted from the live match's
records by the players' figures (:mod:`sim.play.figures`), as ``poolsim stats`` counts
a saved game; and each player's accuracy from the game's review (issue 33), which the
window starts in the background as the match ends (:class:`MatchSummaryMode`): the row
says it is on its way, then the figures; Open the review opens the replay with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from direct.gui.DirectGui import DirectFrame
from panda3d.core import TextNode

from rules import GAMES
from sim.app.hud.widgets import DIM, GOLD, WHITE, button, fit_width, label
from sim.app.screens.review.keeper import GameReview
from sim.play.figures.counts import GameFigures, PlayerFigures
from sim.play.figures.live import figures_of
from sim.play.game import Game
from sim.play.review.words import percent

HALF_WIDTH = 0.78
TOP = 0.56
ROW = 0.075
MIN_ROW = 0.055  # rows closed up no further: a line of text and a little air
TEXT = 0.045
FRAMING = 0.46  # the frame's height beside its rows: the title, the names, the button
ACCURACY = "accuracy (review)"
CLOSE_BESIDE = 0.3  # Close's x beside the review's button
NAME_WIDTH = 0.36  # a name's column: centred 0.2 in from the frame's edge, a margin kept


def _pots(figures: GameFigures, player: str) -> str:
    attempts = [a for a in figures.attempts if a.player == player]
    made = sum(a.made for a in attempts)
    if not attempts:
        return "0/0"
    return f"{made}/{len(attempts)} ({100 * made / len(attempts):.0f}%)"


def summary_rows(figures: GameFigures) -> list[tuple[str, str, str]]:
    """(A's figure, what it is, B's figure), top to bottom."""
    a, b = figures.counts

    def both(field: Callable[[PlayerFigures], object]) -> tuple[str, str]:
        return str(field(a)), str(field(b))

    kind = GAMES[figures.game]
    rows = [(f"{kind.race_unit}s won", both(lambda p: p.racks_won))]  # 14.1: games
    if kind.rack_figures:
        rows += [
            ("balls on the break", both(lambda p: p.balls_on_break)),
            ("break-and-runs", both(lambda p: p.break_and_runs)),
            ("run-outs", both(lambda p: p.run_outs)),
        ]
    rows += [
        ("pots made", (_pots(figures, figures.players[0]), _pots(figures, figures.players[1]))),
        ("safeties", both(lambda p: p.safeties)),
        ("  left no shot", both(lambda p: p.safeties_no_shot)),
        ("kicks made", both(lambda p: f"{p.kicks_made}/{p.kicks}")),
        ("fouls", both(lambda p: p.fouls)),
    ]
    for figure in figures.own_figures:
        rows.append(
            (figure.words, (str(figures.own[0][figure.name]), str(figures.own[1][figure.name])))
        )
        means = [figure.mean_words(own) for own in figures.own]
        if means[0] is not None and means[1] is not None:
            rows.append((means[0][0], (means[0][1], means[1][1])))  # balls per inning
    return [(left, what, right) for what, (left, right) in rows]


class MatchSummary:
    """The summary of ``game``'s match over the table, closed by its button; between
    ``floor`` and ``ceiling`` (the HUD's words, in a row of their own above the dock on a
    narrow window, and the scoreboard stay in view): its rows close up when a game's own
    figures make more of them than fit at full spacing."""

    def __init__(
        self,
        parent: Any,
        game: Game,
        on_close: Callable[[], None],
        floor: float = -1.0,
        ceiling: float = 1.0,
        review: GameReview | None = None,
        on_review: Callable[[], None] | None = None,
    ) -> None:
        figures = figures_of(game)
        rows = summary_rows(figures)
        self.review = review
        if review is not None:  # the review's row first: the figure a match is judged by
            rows.insert(0, ("…", ACCURACY, "…"))
            rows.append(("", "", ""))  # the review's progress, under the figures
        row = max(MIN_ROW, min(ROW, (ceiling - floor - FRAMING) / len(rows)))
        bottom = TOP - 0.2 - row * len(rows) - 0.16
        self.frame = DirectFrame(
            parent=parent,
            frameColor=(0.02, 0.04, 0.035, 0.93),
            frameSize=(-HALF_WIDTH, HALF_WIDTH, bottom, TOP + 0.1),
        )
        self.frame.setZ(max(0.0, floor - bottom))
        label(self.frame, "Match summary", (0, TOP), 0.05, GOLD, TextNode.ACenter)
        names = figures.players
        x = HALF_WIDTH - 0.2
        for name, at in ((names[0], -x), (names[1], x)):
            # A long name ("Computer (level 3)") whole, drawn smaller to fit its column.
            shown = label(self.frame, name, (at, TOP - 0.11), 0.055, WHITE, TextNode.ACenter)
            fit_width(shown, NAME_WIDTH, 0.055)
        y = TOP - 0.22
        self.accuracy_labels = []
        for left, what, right in rows:
            texts = [
                label(self.frame, left, (-x, y), TEXT, WHITE, TextNode.ACenter),
                label(self.frame, what, (0, y), TEXT * 0.9, DIM, TextNode.ACenter),
                label(self.frame, right, (x, y), TEXT, WHITE, TextNode.ACenter),
            ]
            if what == ACCURACY:
                self.accuracy_labels = [texts[0], texts[2]]
            y -= row
        self.status = label(self.frame, "", (0, y + row), TEXT * 0.8, DIM, TextNode.ACenter)
        self._shown: object = None
        if review is None or on_review is None:
            self.review_button = None
            self.close_button = button(self.frame, "Close", (0, bottom + 0.08), on_close, 0.045)
        else:
            at = bottom + 0.08
            self.review_button = button(
                self.frame, "Review the match", (-0.25, at), on_review, 0.045
            )
            self.close_button = button(self.frame, "Close", (CLOSE_BESIDE, at), on_close, 0.045)
        self.update()

    def update(self) -> None:
        """The review's row as the review comes: on its way, then each player's accuracy
        (a player who played no shot the referee ruled on has none: "-")."""
        review = self.review
        if review is None or review.status == self._shown:
            return
        self._shown = review.status
        if review.review is None:
            self.status.setText(review.status)
            for text in self.accuracy_labels:
                text.setText("…" if review.running else "-")
            self._review_button(shown=not review.running)  # to ask for it, or to wait
            return
        self.status.setText(f"Reviewed at level {review.review.level}")
        for text, seat in zip(self.accuracy_labels, "AB", strict=True):
            accuracy = review.accuracy(seat)
            text.setText("-" if accuracy is None else percent(accuracy / 100))
        if self.review_button is not None:
            self.review_button["text"] = "Open the review"
        self._review_button(shown=True)

    def _review_button(self, *, shown: bool) -> None:
        """The review's button beside Close, or Close alone in the middle."""
        if self.review_button is None:
            return
        if shown:
            self.review_button.show()
            self.close_button.setX(CLOSE_BESIDE)
        else:
            self.review_button.hide()
            self.close_button.setX(0.0)

    def destroy(self) -> None:
        self.frame.destroy()
