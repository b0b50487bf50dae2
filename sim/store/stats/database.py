"""The statistics database: an SQLite index of the figures of every game file indexed
(:mod:`.figures`), in the user data folder.

The game files stay the record. The database holds nothing they do not, so it is
rebuilt from them whenever it is missing or damaged (:meth:`StatsDatabase.open`), and
``poolsim stats --import DIR`` fills it from any folder. It is written by one writer at a
time (WAL, a busy timeout for readers), its schema is versioned by ``PRAGMA
user_version`` and brought forward by :data:`MIGRATIONS`; a database written by a newer
poolsim is opened read-only and never written, with a one-line note.

A match is one row however many files hold it: the autosave, the copy the start screen
moves aside, a copy saved from the menu. Its key is its set-up and first step
(:func:`match_key`); the file with the most steps wins. A practice session's file (a
drill's too) is no match, and is not indexed.

A match's review (issue 33) gives each player's accuracy: the window's review, kept in
the data folder by the game's digest (:func:`sim.store.reviewfile.kept_review_path`),
found as the match's file is indexed (its digest,
:func:`sim.store.gamefile.document_digest`), or recorded as the window makes it
(:meth:`StatsDatabase.index_review`, by the match's key). The review files stay its
record: a rebuilt database finds them again. A match indexed again from a file further
on (a branch played after the review) keeps the review it had.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import sqlite3
import time
import zipfile
import zlib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs

from rules import Player
from rules.reading import one_line, shown_text
from rules.userfile import FileRefused, open_regular
from sim.files import held_alone
from sim.paths import data_dir
from sim.physics.table import table_spec
from sim.play.figures.counts import GameFigures, PlayerFigures
from sim.play.review import Review
from sim.store.autosave import autosave_path
from sim.store.gamefile import MAX_FILE_BYTES, SUFFIX, document_digest, read_game_json
from sim.store.reviewfile import ReviewFileError, kept_review_path, load_review
from sim.store.stats.figures import file_figures

FILE_NAME = "statistics.sqlite3"
BUSY_TIMEOUT_S = 5.0

# Each entry brings a database from version i to i + 1 (``PRAGMA user_version``).
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        path TEXT NOT NULL,
        steps INTEGER NOT NULL,
        game TEXT NOT NULL,
        played TEXT NOT NULL
    );
    CREATE TABLE player_matches (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        player TEXT NOT NULL,
        opponent TEXT NOT NULL,
        matches_played INTEGER NOT NULL, matches_won INTEGER NOT NULL,
        racks_played INTEGER NOT NULL, racks_won INTEGER NOT NULL,
        shots INTEGER NOT NULL, fouls INTEGER NOT NULL,
        breaks INTEGER NOT NULL, legal_breaks INTEGER NOT NULL,
        balls_on_break INTEGER NOT NULL, break_and_runs INTEGER NOT NULL,
        run_outs INTEGER NOT NULL, safeties INTEGER NOT NULL,
        safeties_no_shot INTEGER NOT NULL, kicks INTEGER NOT NULL, kicks_made INTEGER NOT NULL
    );
    CREATE INDEX player_matches_player ON player_matches(player);
    CREATE TABLE fouls (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        player TEXT NOT NULL,
        code TEXT NOT NULL,
        count INTEGER NOT NULL
    );
    CREATE TABLE attempts (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        player TEXT NOT NULL,
        ball TEXT NOT NULL,
        pocket TEXT NOT NULL,
        called INTEGER NOT NULL,
        cut REAL NOT NULL,
        distance REAL NOT NULL,
        made INTEGER NOT NULL,
        cue_x REAL,
        cue_y REAL
    );
    CREATE INDEX attempts_player ON attempts(player);
    """,
    # Version 2: practice files are no matches, and a shot from a table set up by hand no
    # break: the figures indexed before are emptied, and indexed again from their files.
    """
    DELETE FROM attempts;
    DELETE FROM fouls;
    DELETE FROM player_matches;
    DELETE FROM matches;
    """,
    # Version 3: the figures a game keeps of its own (rotation's points), by name; the
    # matches indexed before are indexed again from their files to count them.
    """
    CREATE TABLE IF NOT EXISTS own_figures (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        player TEXT NOT NULL,
        name TEXT NOT NULL,
        value INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS own_figures_player ON own_figures(player);
    DELETE FROM attempts;
    DELETE FROM fouls;
    DELETE FROM player_matches;
    DELETE FROM matches;
    """,
    # Version 4: 14.1's own figures (its runs: balls, innings, high run), which a 14.1
    # game indexed before did not have; the matches are indexed again to count them.
    """
    DELETE FROM own_figures;
    DELETE FROM attempts;
    DELETE FROM fouls;
    DELETE FROM player_matches;
    DELETE FROM matches;
    """,
    # Version 5: the files a migration emptied the database of, kept until each is indexed
    # again, so a process killed between the migration and the re-index loses none.
    """
    CREATE TABLE IF NOT EXISTS reindex (path TEXT PRIMARY KEY);
    """,
    # Version 6: each player's accuracy from the match's review (issue 33), and the
    # digest a match's file has, by which its review is found; every match indexed
    # before is indexed again (from the table above) to find its digest and review.
    """
    ALTER TABLE matches ADD COLUMN digest TEXT;
    CREATE TABLE IF NOT EXISTS reviews (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        player TEXT NOT NULL,
        level TEXT NOT NULL,
        accuracy REAL NOT NULL,
        shots INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS reviews_player ON reviews(player);
    INSERT OR IGNORE INTO reindex (path) SELECT path FROM matches
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
REINDEXED_AT = 4  # a database older than this is emptied by its migration, and re-indexed
COUNT_COLUMNS = tuple(field.name for field in attrs.fields(PlayerFigures))


class StatsError(Exception):
    """A game file that cannot be indexed (one line)."""


def database_path() -> Path:
    return data_dir() / FILE_NAME


def user_game_files() -> tuple[Path, ...]:
    """Where the player's own games are: the autosave and the saved games beside it."""
    autosave = autosave_path()
    return (autosave, autosave.parent / "saved")


def read_document(path: Path) -> Mapping[str, Any]:
    """A game file's ``game.json``, read as the saved-games list reads it (no physics);
    :class:`StatsError` naming the file for anything wrong."""
    try:
        with open_regular(path, MAX_FILE_BYTES, "a game file") as file, zipfile.ZipFile(file) as zf:
            document = json.loads(read_game_json(zf, zf.getinfo("game.json")))
    except KeyError:
        raise StatsError(f"{path}: not a poolsim game file (no game.json)") from None
    except FileRefused as error:
        raise StatsError(f"{path}: {error}") from None
    except (ValueError, RecursionError) as error:
        raise StatsError(f"{path}: not a poolsim game file: {error}") from None
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, RuntimeError) as error:
        raise StatsError(f"{path}: damaged: {error}") from None
    if not isinstance(document, dict) or document.get("format") != "poolsim-game":
        raise StatsError(f"{path}: not a poolsim game file")
    return document


def match_key(document: Mapping[str, Any]) -> str:
    """The match a file holds, whichever file and however far on: its set-up and the
    main line's first step."""
    first = document["records"][0] if document["records"] else None
    text = json.dumps([document["setup"], first], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _steps(document: Mapping[str, Any]) -> int:
    return len(document["records"]) + sum(
        len(branch["records"]) for branch in document.get("branches", ())
    )


@attrs.frozen
class Indexed:
    """What :meth:`StatsDatabase.index_folders` did: files indexed, and a line for each
    file it could not read."""

    indexed: int
    problems: tuple[str, ...]


class StatsDatabase:
    """The statistics database at ``path`` (see the module). Use :meth:`open`."""

    def __init__(self, connection: sqlite3.Connection, path: Path, note: str | None) -> None:
        self.connection = connection
        self.path = path
        self.note = note  # a one-line note for the user (a rebuild, a newer database)
        self.read_only = note is not None and "read-only" in note

    @classmethod
    def open(
        cls, path: Path | None = None, rebuild_from: Iterable[Path] | None = None
    ) -> StatsDatabase:
        """The database at ``path`` (default: the user data folder's), created or brought
        to this poolsim's schema. A damaged one is moved aside and rebuilt from the game
        files in ``rebuild_from``; a newer one is opened read-only. Any number of
        processes may open it at once (the window's autosave and ``poolsim stats`` in a
        terminal). :class:`StatsError` (one line) for a database or a data folder that
        cannot be used."""
        path = database_path() if path is None else Path(path)
        folders = user_game_files() if rebuild_from is None else tuple(rebuild_from)
        _make_folder(path.parent)
        try:
            return cls._opened(path, folders)
        except _FAILURES as error:
            damage = _damage(path)
            if damage is None:  # locked, unwritable, or what a check cannot call damage
                raise StatsError(f"the statistics database {path}: {_said(error)}") from None
        database = cls._set_aside_and_opened(path, folders)
        if database.note is None:  # another process rebuilt it meanwhile
            return database
        database.note = f"the statistics database was damaged ({damage}): {database.note}"
        return database

    @classmethod
    def _opened(cls, path: Path, folders: tuple[Path, ...]) -> StatsDatabase:
        """The database at ``path`` brought to this schema (or read-only if newer); the
        user's game files indexed if this process created it. sqlite3's errors raised."""
        connection = _connect(path)
        try:
            version = _user_version(connection)
            if version > SCHEMA_VERSION:
                connection.close()
                return cls._read_only(path, version)
            migrated = _migrate(connection)
        except BaseException:
            connection.close()
            raise
        database = cls(connection, path, None)
        if migrated is not None and migrated < REINDEXED_AT:
            database.index_folders(folders)
        database.index_pending()
        return database

    @classmethod
    def _read_only(cls, path: Path, version: int) -> StatsDatabase:
        uri = f"{path.resolve().as_uri()}?mode=ro"
        connection = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S)
        connection.text_factory = _text
        note = (
            f"the statistics database {path} is from a newer poolsim (schema {version},"
            f" this poolsim reads {SCHEMA_VERSION}): opened read-only"
        )
        return cls(connection, path, note)

    @classmethod
    def _set_aside_and_opened(cls, path: Path, folders: tuple[Path, ...]) -> StatsDatabase:
        """The damaged database at ``path`` moved aside (with its journal files) and a new
        one built from ``folders``, its note saying so; under the folder's lock, and only
        if the file there is still damaged: another process may have rebuilt it already,
        and its live database is never moved (then that one is opened, with no note)."""
        with _exclusive(path):
            if _damage(path) is None:
                return cls._opened_or_refused(path, ())
            for extra in ("", "-wal", "-shm", "-journal"):
                with contextlib.suppress(FileNotFoundError):
                    path.with_name(path.name + extra).replace(
                        path.with_name(f"{path.name}.damaged{extra}")
                    )
            database = cls._opened_or_refused(path, folders)
        database.note = "rebuilt from the game files"
        return database

    @classmethod
    def _opened_or_refused(cls, path: Path, folders: tuple[Path, ...]) -> StatsDatabase:
        try:
            return cls._opened(path, folders)
        except _FAILURES as error:
            raise StatsError(f"the statistics database {path}: {_said(error)}") from None

    def close(self) -> None:
        self.connection.close()

    def index_file(self, path: Path) -> bool:
        """Index the game file ``path``: its match's figures replace what an earlier
        file of the same match with fewer steps gave. False if it was indexed already
        from a file as far on; :class:`StatsError` for a file that cannot be read."""
        if self.read_only:
            return False
        document = read_document(path)
        if _is_practice(document):  # practice is no match: its shots are not a match's
            return False
        try:
            key, steps = match_key(document), _steps(document)
            figures = file_figures(document, table_spec(str(document["setup"]["table"])))
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise StatsError(f"{path}: not a poolsim game file: {error!r}") from None
        played = str(document.get("created", ""))[:19] or dt.datetime.now(dt.UTC).isoformat()
        digest = document_digest(document)
        kept = _kept_accuracies(digest, figures.players)
        with _writing(self.connection):  # a file's figures all or nothing
            row = self.connection.execute(
                "SELECT id, steps FROM matches WHERE key = ?", (key,)
            ).fetchone()
            if row is not None and row[1] > steps:
                return False
            if row is not None:
                if kept is None:  # the review it had stays with the match
                    kept = _accuracies_of(self.connection, row[0])
                self.connection.execute("DELETE FROM matches WHERE id = ?", (row[0],))
            match_id = self.connection.execute(
                "INSERT INTO matches (key, path, steps, game, played, digest)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (key, str(path.resolve()), steps, figures.game, played, digest),
            ).lastrowid
            assert match_id is not None
            _insert_figures(self.connection, match_id, figures)
            _insert_accuracies(self.connection, match_id, kept or [])
        return True

    def index_review(self, review: Review, key: str, names: tuple[str, str]) -> bool:
        """Each player's accuracy from ``review`` for the match of key ``key`` (its players
        ``names``, A's then B's), replacing its review's; False: that match is not
        indexed (yet: its file, indexed later, finds the review by its digest)."""
        if self.read_only:
            return False
        rows = _review_rows(review, names)
        with _writing(self.connection):
            row = self.connection.execute("SELECT id FROM matches WHERE key = ?", (key,)).fetchone()
            if row is None:
                return False
            self.connection.execute("DELETE FROM reviews WHERE match_id = ?", (row[0],))
            _insert_accuracies(self.connection, row[0], rows)
        return True

    def index_pending(self) -> None:
        """The files a migration emptied the database of, indexed again, each then struck
        off (a process killed meanwhile leaves the rest to the next; indexing a file twice
        is harmless: a match is one row)."""
        listed = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'reindex'"
        if self.connection.execute(listed).fetchone() is None:
            return  # a database of this schema without its tables: its first query says so
        pending = [Path(name) for (name,) in self.connection.execute("SELECT path FROM reindex")]
        for path in pending:
            if path.is_file():
                self.index_folders([path])
            with _writing(self.connection):
                self.connection.execute("DELETE FROM reindex WHERE path = ?", (str(path),))

    def index_folders(self, folders: Iterable[Path]) -> Indexed:
        """Index every game file in ``folders`` (and the files named among them)."""
        files: list[Path] = []
        for folder in folders:
            if folder.is_file():
                files.append(folder)
            elif folder.is_dir():
                files.extend(sorted(folder.rglob(f"*{SUFFIX}")))
        indexed, problems = 0, []
        for path in files:
            try:
                indexed += int(self.index_file(path))
            except StatsError as error:
                problems.append(str(error))
        return Indexed(indexed, tuple(problems))


def _make_folder(folder: Path) -> None:
    """The data folder, made if missing; :class:`StatsError` (one line) if it cannot be
    (a file on the way, a read-only system folder)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StatsError(
            f"the data folder {folder} cannot be used: {error.strerror or error}"
        ) from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StatsError(f"the data folder {folder} cannot be used: it cannot be written")


def _text(data: bytes) -> str:
    """SQLite's text as str: a damaged file's bytes may not be UTF-8 (then the damage is
    found by the integrity check, not by a decoding error on the way)."""
    return data.decode("utf-8", "replace")


def _connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S)
    connection.text_factory = _text
    try:
        _write_ahead(connection)
        connection.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        connection.close()
        raise
    return connection


def _write_ahead(connection: sqlite3.Connection) -> None:
    """The database in WAL mode (once set, it stays). The switch from a new file's
    rollback journal answers "locked" at once, without the busy timeout, while another
    process opening it too holds a lock: tried again until the timeout."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            busy = getattr(error, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_BUSY
            if not busy or time.monotonic() > deadline:
                raise
        time.sleep(0.02)


def _user_version(connection: sqlite3.Connection) -> int:
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


def _indexed_paths(connection: sqlite3.Connection) -> tuple[Path, ...]:
    """The files the database's matches were indexed from (those still there)."""
    rows = connection.execute("SELECT path FROM matches").fetchall()
    return tuple(path for (name,) in rows if (path := Path(name)).is_file())


def _is_practice(document: Mapping[str, Any]) -> bool:
    setup = document.get("setup")
    return isinstance(setup, dict) and setup.get("practice") is True


def _migrate(connection: sqlite3.Connection) -> int | None:
    """Bring the database to :data:`SCHEMA_VERSION` in one exclusive transaction, its
    version read again inside it: of processes opening a fresh database at once, one
    migrates and the others wait (the busy timeout), then find it done. The version it
    was at if this one migrated it (0: it created the tables), else None."""
    if _user_version(connection) == SCHEMA_VERSION:
        return None
    with _writing(connection):
        version = _user_version(connection)
        # The files a database to be emptied had indexed, read in the same transaction.
        before = _indexed_paths(connection) if 0 < version < REINDEXED_AT else ()
        for number in range(version, SCHEMA_VERSION):
            for statement in _statements(MIGRATIONS[number]):
                if not _added_already(connection, statement):
                    connection.execute(statement)
        connection.executemany(
            "INSERT OR IGNORE INTO reindex (path) VALUES (?)", [(str(p),) for p in before]
        )
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return None if version == SCHEMA_VERSION else version


@contextlib.contextmanager
def _writing(connection: sqlite3.Connection) -> Iterator[None]:
    """One transaction that holds the write lock from its start (``BEGIN IMMEDIATE``, which
    waits out another writer for the busy timeout): what it reads, such as the schema's
    version or a match's row, no other process changes before it commits."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def _added_already(connection: sqlite3.Connection, statement: str) -> bool:
    """``statement`` adds a column its table has (SQLite has no ``ADD COLUMN IF NOT
    EXISTS``): a database whose version was set back by hand keeps its columns."""
    words = statement.split()
    if [w.upper() for w in words[:2]] != ["ALTER", "TABLE"] or len(words) < 6:
        return False
    table, column = words[2], words[5]
    rows = connection.execute(f"PRAGMA table_info({table})").fetchall()
    return any(row[1] == column for row in rows)


def _statements(script: str) -> list[str]:
    """A migration's statements one by one (``executescript`` would commit the
    transaction first). The schema's text holds no ';' but between statements."""
    return [statement for statement in script.split(";") if statement.strip()]


# What opening a database may raise: SQLite's errors, and a damaged schema's bytes in
# one of its messages, which Python cannot decode.
_FAILURES = (sqlite3.DatabaseError, UnicodeDecodeError)

# SQLite's primary result codes for a file that is not a database or is damaged.
_DAMAGE_CODES = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def _damage(path: Path) -> str | None:
    """What is wrong with the database at ``path``, in one line, if an integrity check
    proves it damaged; None if it is not (or cannot be checked: locked, unwritable,
    missing), so a live database is never taken for a damaged one."""
    try:
        connection = sqlite3.connect(
            f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S
        )
    except sqlite3.Error:
        return None
    connection.text_factory = _text
    try:
        rows = connection.execute("PRAGMA quick_check(1)").fetchall()
    except UnicodeDecodeError:  # SQLite's message quotes the schema, which is not text
        return "its schema is not UTF-8 text"
    except sqlite3.DatabaseError as error:
        code = getattr(error, "sqlite_errorcode", None)
        return _said(error) if code is not None and code & 0xFF in _DAMAGE_CODES else None
    finally:
        connection.close()
    found = str(rows[0][0]) if rows else "nothing"
    return None if found == "ok" else f"quick_check: {shown_text(found, 120)}"


def _said(error: Exception) -> str:
    """SQLite's message, which may quote a damaged file's bytes, as a user's text is shown."""
    return shown_text(one_line(error), 200)


@contextlib.contextmanager
def _exclusive(path: Path) -> Iterator[None]:
    """Held by one process at a time (an advisory lock on a file beside ``path``): the
    check that a database is damaged and its move aside, together."""
    held = contextlib.ExitStack()
    try:
        held.enter_context(held_alone(path.with_name(path.name + ".lock")))
    except OSError as error:
        raise StatsError(
            f"the statistics database {path}: cannot lock: {error.strerror or error}"
        ) from None
    with held:
        yield


def _insert_figures(connection: sqlite3.Connection, match_id: int, figures: GameFigures) -> None:
    columns = ", ".join(COUNT_COLUMNS)
    marks = ", ".join("?" for _ in COUNT_COLUMNS)
    for index, (name, counts, fouls) in enumerate(
        zip(figures.players, figures.counts, figures.fouls, strict=True)
    ):
        opponent = figures.players[1 - index]
        connection.execute(
            f"INSERT INTO player_matches (match_id, player, opponent, {columns})"
            f" VALUES (?, ?, ?, {marks})",
            (match_id, name, opponent, *(getattr(counts, c) for c in COUNT_COLUMNS)),
        )
        connection.executemany(
            "INSERT INTO fouls (match_id, player, code, count) VALUES (?, ?, ?, ?)",
            [(match_id, name, code, count) for code, count in sorted(fouls.items())],
        )
        connection.executemany(
            "INSERT INTO own_figures (match_id, player, name, value) VALUES (?, ?, ?, ?)",
            [(match_id, name, figure, value) for figure, value in figures.own[index].items()],
        )
    connection.executemany(
        "INSERT INTO attempts (match_id, player, ball, pocket, called, cut, distance, made,"
        " cue_x, cue_y) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                match_id,
                a.player,
                a.ball,
                a.pocket,
                int(a.called),
                a.cut,
                a.distance,
                int(a.made),
                *(a.cue_after if a.cue_after is not None else (None, None)),
            )
            for a in figures.attempts
        ],
    )


AccuracyRow = tuple[str, str, float, int]  # player, level, accuracy (percent), shots


def _review_rows(review: Review, names: tuple[str, str]) -> list[AccuracyRow]:
    """Each player's row of a review: their name, the level, their accuracy and shots."""
    rows = []
    for player, name in zip(Player, names, strict=True):
        accuracy = review.accuracy(player)
        if accuracy is not None:
            rows.append((name, review.level, accuracy, len(review.of(player))))
    return rows


def _kept_accuracies(digest: str, names: tuple[str, str]) -> list[AccuracyRow] | None:
    """The rows of the window's review of the game ``digest`` (None: there is none, or
    it cannot be read: the statistics never fail on a review)."""
    path = kept_review_path(digest)
    if not path.is_file():
        return None
    try:
        return _review_rows(load_review(path), names)
    except ReviewFileError:
        return None


def _accuracies_of(connection: sqlite3.Connection, match_id: int) -> list[AccuracyRow]:
    rows = connection.execute(
        "SELECT player, level, accuracy, shots FROM reviews WHERE match_id = ?", (match_id,)
    )
    return [(str(p), str(level), float(a), int(n)) for p, level, a, n in rows]


def _insert_accuracies(
    connection: sqlite3.Connection, match_id: int, rows: Iterable[AccuracyRow]
) -> None:
    connection.executemany(
        "INSERT INTO reviews (match_id, player, level, accuracy, shots) VALUES (?, ?, ?, ?, ?)",
        [(match_id, *row) for row in rows],
    )


def index_review_quietly(review: Review, document: Mapping[str, Any]) -> None:
    """The review of the match whose file would hold ``document`` (its ``game.json``)
    in the user's statistics, saying nothing if it cannot be (as :func:`index_quietly`);
    a practice session's review is of no match."""
    if _is_practice(document):
        return
    names = tuple(str(name) for name in document["setup"]["players"])
    assert len(names) == 2
    with contextlib.suppress(StatsError, sqlite3.Error, OSError), opened() as database:
        database.index_review(review, match_key(document), (names[0], names[1]))


def index_quietly(path: Path) -> None:
    """Index the game file just saved at ``path`` in the user's statistics, saying
    nothing if it cannot be: the statistics are an index, never a reason to fail a save
    (a damaged database is rebuilt the next time it is opened)."""
    with contextlib.suppress(StatsError, sqlite3.Error, OSError), opened() as database:
        database.index_file(path)


@contextlib.contextmanager
def opened(
    path: Path | None = None, rebuild_from: Iterable[Path] | None = None
) -> Iterator[StatsDatabase]:
    """:meth:`StatsDatabase.open`, closed after the ``with``."""
    database = StatsDatabase.open(path, rebuild_from)
    try:
        yield database
    finally:
        database.close()
