"""Each player's drill history: every finished drill session, kept in the player's data
folder (``drills.json`` in :func:`sim.paths.data_dir`), so the drill list and the end of
a session can say the player's best and last scores.

The history is the player's record, never a gate: a missing file is an empty history,
and a file that cannot be read (cut short, edited by hand, of a newer poolsim) is set
aside beside it (``drills.json.unreadable-<time>``, kept for the player to look at) and
started again. Every write is atomic (:func:`sim.files.write_atomically`).

The document::

    {"format": "poolsim-drill-history", "version": 1,
     "sessions": [{"drill": "stop-shot", "player": "Ann", "finished": "2026-12-02T04:10:00Z",
                   "points": [20, 8, 14], "made": 1, "max_points": 20}]}
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import attrs

from rules.reading import is_whole
from sim.files import write_atomically
from sim.paths import data_dir
from sim.play.drill import DrillSession

FORMAT = "poolsim-drill-history"
VERSION = 1
MAX_FILE_BYTES = 8 * 2**20  # years of sessions at 200 bytes each
MAX_SESSIONS = 20_000  # the oldest go first past this
DEFAULT_PLAYER = "Player 1"


def history_path() -> Path:
    return data_dir() / "drills.json"


@attrs.frozen
class SessionEntry:
    """One finished session: each attempt's points, how many were made, the most an
    attempt could score, and when it finished (UTC, to the second)."""

    drill: str
    player: str
    finished: str
    points: tuple[int, ...]
    made: int
    max_points: int

    @property
    def best(self) -> int:
        return max(self.points, default=0)

    @property
    def words(self) -> str:
        """ "best 20 of 20, 3 of 5 made (2026-12-02)"."""
        return (
            f"best {self.best} of {self.max_points}, {self.made} of {len(self.points)} made "
            f"({self.finished[:10]})"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "drill": self.drill,
            "player": self.player,
            "finished": self.finished,
            "points": list(self.points),
            "made": self.made,
            "max_points": self.max_points,
        }


def _entry(data: Any) -> SessionEntry:
    """One session as read; ValueError for anything not as written here."""
    keys = {"drill", "player", "finished", "points", "made", "max_points"}
    if not isinstance(data, dict) or set(data) != keys:
        raise ValueError("a session is not as written")
    points = data["points"]
    if not (
        isinstance(data["drill"], str)
        and isinstance(data["player"], str)
        and isinstance(data["finished"], str)
        and isinstance(points, list)
        and all(map(is_whole, points))
        and is_whole(data["made"])
        and is_whole(data["max_points"])
    ):
        raise ValueError("a session's value is not as written")
    dt.datetime.fromisoformat(data["finished"])  # ValueError when it is no time
    return SessionEntry(
        drill=data["drill"],
        player=data["player"],
        finished=data["finished"],
        points=tuple(points),
        made=data["made"],
        max_points=data["max_points"],
    )


class DrillHistory:
    """The sessions in one history file, oldest first. ``set_aside``: where an unreadable
    file was moved when this history was read (None: it was read, or was not there)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else history_path()
        self.set_aside: Path | None = None
        self.sessions: list[SessionEntry] = self._read()

    def _read(self) -> list[SessionEntry]:
        try:
            with self.path.open("rb") as file:
                data = file.read(MAX_FILE_BYTES + 1)
        except FileNotFoundError:
            return []
        except OSError:
            return self._start_again()
        try:
            if len(data) > MAX_FILE_BYTES:
                raise ValueError("too large")
            document = json.loads(data.decode("utf-8"))
            if (
                not isinstance(document, dict)
                or document.get("format") != FORMAT
                or document.get("version") != VERSION
                or not isinstance(document.get("sessions"), list)
            ):
                raise ValueError("not a drill history")
            return [_entry(item) for item in document["sessions"]]
        except (ValueError, RecursionError):  # JSON, UTF-8 and the checks above
            return self._start_again()

    def _start_again(self) -> list[SessionEntry]:
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.unreadable-{stamp}")
        try:
            self.path.replace(aside)
            self.set_aside = aside
        except OSError:
            self.set_aside = None  # cannot move it: the next write replaces it
        return []

    def of(self, drill: str, player: str) -> list[SessionEntry]:
        """The player's sessions of a drill, oldest first."""
        return [s for s in self.sessions if s.drill == drill and s.player == player]

    def best(self, drill: str, player: str) -> SessionEntry | None:
        """The player's session with the best attempt (the earliest of equals)."""
        return max(self.of(drill, player), key=lambda s: s.best, default=None)

    def last(self, drill: str, player: str) -> SessionEntry | None:
        sessions = self.of(drill, player)
        return sessions[-1] if sessions else None

    def add(
        self, session: DrillSession, player: str, when: dt.datetime | None = None
    ) -> SessionEntry:
        """Keep a finished session and write the history (atomically; OSError if the
        folder cannot be written, the history here still holding it)."""
        if not session.finished:
            raise ValueError("only a finished session goes into the history")
        finished = (when or dt.datetime.now(dt.UTC)).astimezone(dt.UTC)
        entry = SessionEntry(
            drill=session.drill.name,
            player=player,
            finished=finished.strftime("%Y-%m-%dT%H:%M:%SZ"),
            points=tuple(s.points for s in session.scores),
            made=session.made,
            max_points=session.drill.max_points,
        )
        self.sessions = [*self.sessions, entry][-MAX_SESSIONS:]
        document = {
            "format": FORMAT,
            "version": VERSION,
            "sessions": [s.to_json() for s in self.sessions],
        }
        write_atomically(self.path, (json.dumps(document, indent=1) + "\n").encode())
        return entry
