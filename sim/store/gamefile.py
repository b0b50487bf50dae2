"""Game files: one zip per game, a readable ``game.json`` and pooltool's own record of
every simulated shot (``shots/NNNN.msgpack``, without the continuized history), so a
replay never depends on simulating identically on another machine.

Saving is atomic (a temporary file in the same folder, flushed to disk, then renamed):
a crash at any moment leaves the previous file whole. Loading is strict and safe:
it never unpickles or executes anything (numpy arrays in the msgpack files are decoded
by hand, numbers only), it checks every key, and it rebuilds the match by running every
recorded stroke and choice through the referee again, refusing a file whose recorded
rulings the referee does not give. Any problem is one :class:`GameFileError` line.

``game.json`` (format ``poolsim-game``, version 5; version 4 had no computer's
``plan``, version 3 no ``arithmetic``, version 2 no lag ``players`` and no
``declined``, version 1 no ``branches`` and no ``in_play``, and all still load)::

    {"format": "poolsim-game", "version": 5, "poolsim": "0.1.0", "pooltool": "0.6.0",
     "created": "2026-11-30T04:10:00+00:00", "arithmetic": ARITHMETIC,
     "setup": {"game", "race_to", "table", "options", "players", "seed", ["practice"],
               ["drill"]},
     "branches": [{"from": {"line": 0, "step": 12}, "records": [RECORD, ...]}, ...],
     "in_play": {"line": 1, "step": 3, "next_is_main": false},
     "records": [
       {"type": "breaker", "breaker": "A", "agreed": true},
       {"type": "lag", "starts": [[x, y], [x, y]], "strokes": [ACTION, ACTION],
        "shots": [SHOT_DATA, SHOT_DATA], "winner": "A" | null, "reasons": [...],
        "players": [PLAYER, PLAYER]},
       {"type": "shot", "rack": 1, "shooter": "A", "placement": [x, y] | null,
        "call": {"ball": "3", "pocket": "rt"} | null, "declaration": null | "safety" | "push-out",
        "action": ACTION, "start": {ball: [x, y]}, "ruling": RULING, **SHOT_DATA,
        "player": PLAYER},
       {"type": "choice", "rack": 1, "player": "B", "choice": "pass", "ruling": RULING},
       {"type": "stalemate", "rack": 1, "agreed": false, "ruling": RULING},
       {"type": "time-foul", "rack": 1, "shooter": "A", "extension": false, "ruling": RULING},
       {"type": "setup", "balls": {ball: [x, y]}, "turn": "A",
        "in_hand": null | "kitchen" | "anywhere", "refereed": false, ["break": true]}]}

    A ``time-foul`` is the shot clock run out before the shooter struck (GEN-17): the
    referee's ``shot-clock`` foul with no stroke (``extension``: one was taken on that
    shot). A version 4 poolsim older than it refuses it as an unknown record type.

    A shot's ``player`` says who played it: absent (or ``{"kind": "person"}``) for a
    person, the computer's level (1..5, perfect) and the seed of its generator for the
    computer; with the state before the shot they make the same decision again
    (``poolsim verify --decisions``). The lag's ``players`` say the same of its two
    strokes, A's then B's (absent in older files: people).

    PLAYER    = {"kind": "person"}
              | {"kind": "computer", "level": "5", "entropy": [seed, ...], ["declined": 12],
                 ["plan": {"action": ACTION, "intent": "pot", "target": "3" | null,
                           "pocket": "rt" | null}]}
                (``declined``: the quiet innings at which a stalemate it offered in this
                quiet stretch was declined, which its decision took into account;
                ``plan``, a shot's only, version 5: what it meant, its stroke before the
                noise of its hand, read by a review rather than decided again)

    ``records`` is the main line; a branch starts after step ``step`` of line ``line``
    (0: the main line, n: branches[n - 1], always an earlier one), as another step in
    place of that line's next; ``in_play``, the step the match is at. A practice
    session (``"practice": true`` in ``setup``, only there) has ``setup`` records: the table set up
    by hand, checked as a position file's balls are (docs/POSITION.md); a drill's session
    names the drill (``"drill": its title``).

    ACTION    = {"speed", "aim", "elevation", "a", "b"}   (sim.physics.simulate.CueAction)
    SHOT_DATA = {"system": "shots/0001.msgpack", "events": [...], "after": {ball: [x, y]},
                 ["arithmetic": ARITHMETIC | null]}
    ARITHMETIC = {"physics": "fixed-dot-1", "libm": "glibc 2.36, FMA", "machine": "x86_64",
                  "processor": "AMD EPYC"}: what the shots were simulated with
                 (sim.numerics.Arithmetic); a shot's own only where it differs from the
                 file's (null: its file, older, recorded none)
    RULING    = every field of rules.Ruling (reasons as {"rule", "text", "foul"})
"""

from __future__ import annotations

import codecs
import contextlib
import copy
import datetime as dt
import gc
import hashlib
import importlib.metadata
import io
import json
import re
import weakref
import zipfile
import zlib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from rules import (
    CUE,
    BallInHand,
    Call,
    Choice,
    Declaration,
    Options,
    Player,
    PocketId,
    Positions,
    Ruling,
)
from rules.errors import FormatError
from rules.facts import OBJECT_BALLS, facts_from_json, facts_to_json
from rules.reading import (
    Reader,
    converted,
    is_finite_number,
    item,
    one_line,
    shown_text,
    whole_number,
)
from rules.userfile import FileRefused, open_regular, read_regular, size_words, too_large
from sim.files import write_atomically
from sim.limits import MAX_SEED
from sim.numerics import Arithmetic, here
from sim.physics.pooltool_setup import POOLTOOL_VERSION
from sim.physics.simulate import CueAction, SimulatedShot, settle_positions, shot_from_system
from sim.physics.table import TABLE_SPECS, TableSpec
from sim.play.game import (
    BreakerRecord,
    ChoiceRecord,
    ComputerPlayer,
    Game,
    GameError,
    GameSetup,
    LagRecord,
    Node,
    Plan,
    Record,
    SetupRecord,
    ShotRecord,
    StalemateRecord,
    Stroke,
    TimeFoulRecord,
)
from sim.play.opponent.levels import LEVEL_NAMES

if TYPE_CHECKING:
    from sim.physics.simulate import System

# Decoding and checking pooltool's systems (sim.physics.systemcodec, .agreement) is
# imported where a file is read or written: they need pooltool at once, and the window
# imports this module before it has pooltool (see sim.physics.pooltool_setup).

FORMAT = "poolsim-game"
VERSION = 5
_KEYS = {  # game.json's keys in each version this poolsim reads
    1: {"format", "version", "poolsim", "pooltool", "created", "setup", "records"},
    2: {"format", "version", "poolsim", "pooltool", "created", "setup", "records", "branches"}
    | {"in_play"},
}
# Version 3: the lag says who struck each stroke ("players"), and the computer's
# "declined" (a stalemate offer declined) is part of its decisions; its top keys are 2's.
_KEYS[3] = _KEYS[2]
# Version 4: the arithmetic the shots were simulated with (sim.numerics.Arithmetic), and a
# shot's own where it was simulated with another.
_KEYS[4] = _KEYS[3] | {"arithmetic"}
# Version 5: a computer's shot keeps its plan (sim.play.game.Plan); the top keys are 4's.
# An older poolsim would refuse the plan's key in a shot's player: the version says why.
_KEYS[5] = _KEYS[4]
MAX_DECLINED = 10_000  # innings: far beyond any rack's
MAX_VERSION_TEXT = 40  # characters of a "poolsim" or "pooltool" version
# A shot's clock reading and extension: in every file since version 2 (poolsim has written
# them since the shot clock came, a day before version 2); version 1 files written before
# the shot clock lack them, and open as they did.
CLOCK_KEYS = ("clock_s", "extension")
CLOCK_KEYS_REQUIRED_FROM = 2
SUFFIX = ".poolsim"
MAX_FILE_BYTES = 256 * 2**20  # a 10-rack match is a few MB
MAX_UNPACKED_BYTES = 1024 * 2**20  # refuses zip bombs
MAX_MEMBERS = 10_000
# game.json holds about 4.7 KB a shot (a 60-shot match: 286 KB, written with indent=1):
# a race to 99, 197 racks at 15 shots, is 14 MB.
MAX_GAME_JSON_BYTES = 32 * 2**20
# 224 values a shot (commas and openings: 13,443 for the 60 shots), some 9,000 shots. It
# bounds what parsing costs: 32 MB of `[{},{},...]` would be 800 MB of empty objects,
# this many at most 150 MB.
MAX_GAME_JSON_VALUES = 2**21
# A shot's system without its continuized history: 0.9 MB for the largest of 55 files.
MAX_SHOT_MEMBER_BYTES = 16 * 2**20
MAX_SHOT_FILE_BYTES = 32 * 2**20  # a shot pooltool saved itself, history and all
_INFLATE_CHUNK = 2**20
# What zipfile raises for a damaged file: RuntimeError, an encrypted member;
# NotImplementedError, an unknown compression.
_DAMAGED = (
    zipfile.BadZipFile,
    EOFError,
    OSError,
    ValueError,
    zlib.error,
    RuntimeError,
    NotImplementedError,
)
_SHOT_MEMBER = re.compile(r"shots/\d{4,6}\.msgpack")


class GameFileError(ValueError):
    """A game file that cannot be read (one line: the file, where, what is wrong)."""


def poolsim_version() -> str:
    try:
        return importlib.metadata.version("poolsim")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


# -- saving -------------------------------------------------------------------------------


def save(game: Game, path: Path) -> None:
    """Write ``game`` to ``path`` atomically (``path`` is replaced only when whole)."""
    write_atomically(Path(path), to_bytes(game))


def to_bytes(game: Game) -> bytes:
    """``game`` as a game file's bytes (what :func:`save` writes): a duel's worker
    encodes its rack so that the file is written where the duel was started."""
    members: dict[str, bytes] = {}
    document = game_document(game, members)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr("game.json", json.dumps(document, indent=1))
        for name, data in members.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def game_document(game: Game, members: dict[str, bytes] | None = None) -> dict[str, Any]:
    """``game`` as a game file's ``game.json`` (the statistics read a match on the table
    from it); each shot's stored system goes into ``members``, by its member's name."""
    members = {} if members is None else members
    main, *branches = game.lines()
    places = {id(game.root): (0, 0)}  # each node's line and step, as the file names it
    for line in (main, *branches):
        places.update((id(node), (line.number, k)) for k, node in enumerate(line.nodes, 1))
    records = [_record_to_json(node.record, members) for node in main.nodes if node.record]
    document = {
        "format": FORMAT,
        "version": VERSION,
        "poolsim": poolsim_version(),
        "pooltool": POOLTOOL_VERSION,
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "arithmetic": here().to_json(),
        "setup": setup_to_json(game.setup),
        "records": records,
        "branches": [
            {
                "from": _place_to_json(places[id(line.start)]),
                "records": [
                    _record_to_json(node.record, members) for node in line.nodes if node.record
                ],
            }
            for line in branches
        ],
        "in_play": {
            **_place_to_json(places[id(game.current)]),
            "next_is_main": game.next_is_main,
        },
    }
    return document


def game_digest(game: Game) -> str:
    """The game's digest (SHA-256, hexadecimal): of its set-up and every step of every
    line, not of when or by which version it was saved, nor of the step it is at. A
    review carries it (``poolsim review --save``) so it is never shown against another
    game, and seeds each shot's judging from it."""
    return document_digest(game_document(game))


def document_digest(document: Mapping[str, Any]) -> str:
    """:func:`game_digest` of the game a ``game.json`` document holds, read without the
    physics (the statistics find a match's review by it): the same for a file of this
    format (an older format's, whose document this version writes otherwise, differs)."""
    played = {key: document.get(key, []) for key in ("setup", "records", "branches")}
    return hashlib.sha256(json.dumps(played, sort_keys=True).encode()).hexdigest()


def _place_to_json(place: tuple[int, int]) -> dict[str, int]:
    return {"line": place[0], "step": place[1]}


def setup_to_json(setup: GameSetup) -> dict[str, Any]:
    """The set-up as game.json has it; ``practice`` only in a practice session's and
    ``drill`` only in a drill's (a match's file is as it always was)."""
    return {
        "game": setup.game,
        "race_to": setup.race_to,
        "table": setup.table.value,
        "options": attrs.asdict(setup.options),
        "players": list(setup.players),
        "seed": setup.seed,
        **({"practice": True} if setup.practice else {}),
        **({"drill": setup.drill} if setup.drill else {}),
    }


def _action_to_json(action: CueAction) -> dict[str, float]:
    return attrs.asdict(action)


# The bytes of each shot that came without them (simulated in this process), kept while
# its shot lives: an autosave after every shot then only packs the new one.
_PACKED: weakref.WeakKeyDictionary[SimulatedShot, bytes] = weakref.WeakKeyDictionary()


def _packed(simulated: SimulatedShot) -> bytes:
    """The shot's system as msgpack: the bytes it was read from (the physics worker's, a
    file's member) written as they are, or packed here once."""
    if simulated.packed is not None:
        return simulated.packed
    if simulated not in _PACKED:
        from sim.physics.systemcodec import system_to_bytes

        _PACKED[simulated] = system_to_bytes(simulated.system)
    return _PACKED[simulated]


def _shot_data(simulated: SimulatedShot, members: dict[str, bytes]) -> dict[str, Any]:
    name = f"shots/{len(members) + 1:04d}.msgpack"
    members[name] = _packed(simulated)
    data: dict[str, Any] = {
        "system": name,
        "events": facts_to_json(simulated.facts),
        "after": _positions_to_json(simulated.after),
    }
    if simulated.arithmetic != here():  # a shot read from a file simulated elsewhere
        arithmetic = simulated.arithmetic
        data["arithmetic"] = None if arithmetic is None else arithmetic.to_json()
    return data


def _positions_to_json(positions: Mapping[str, tuple[float, float]]) -> dict[str, list[float]]:
    return {ball: [x, y] for ball, (x, y) in positions.items()}


def ruling_to_json(ruling: Ruling) -> dict[str, Any]:
    """Every field of the ruling, in JSON types (the game file's record of it); what the
    game alone decides (its ``extras``, such as 8-ball's groups) after them, written by
    the game, so the games without extras write their files as they did."""
    data = _ruling_fields(ruling)
    if ruling.extras is not None:
        data |= ruling.extras.to_json(ruling)
    return data


def _ruling_fields(ruling: Ruling) -> dict[str, Any]:
    return {
        "turn": ruling.turn,
        "player": ruling.player.value,
        "foul_codes": [code.value for code in ruling.foul_codes],
        "next_shooter": ruling.next_shooter.value,
        "ball_in_hand": ruling.ball_in_hand.value if ruling.ball_in_hand else None,
        "choices": sorted(choice.value for choice in ruling.choices),
        "choice_rule": ruling.choice_rule,
        "phase": ruling.phase.value,
        "positions": _positions_to_json(ruling.positions),
        "spotted": _positions_to_json(ruling.spotted),
        "pocketed": list(ruling.pocketed),
        "fouls": ruling.fouls.as_dict(),
        "warning": sorted(player.value for player in ruling.warning),
        "score": ruling.score.as_dict(),
        "rack_over": ruling.rack_over,
        "winner": ruling.winner.value if ruling.winner else None,
        "rerack": ruling.rerack,
        "next_breaker": ruling.next_breaker.value if ruling.next_breaker else None,
        "reasons": [
            {"rule": reason.rule, "text": reason.text, "foul": reason.foul}
            for reason in ruling.reasons
        ],
        "quiet_innings": ruling.quiet_innings,
        "extensions_used": ruling.extensions_used.as_dict(),
    }


def _record_to_json(record: Record, members: dict[str, bytes]) -> dict[str, Any]:
    match record:
        case BreakerRecord(breaker=breaker, agreed=agreed):
            return {"type": "breaker", "breaker": breaker.value, "agreed": agreed}
        case LagRecord():
            return {
                "type": "lag",
                "starts": [list(start) for start in record.starts],
                "strokes": [_action_to_json(action) for action in record.strokes],
                "shots": [_shot_data(shot, members) for shot in record.simulated],
                "winner": record.result.winner.value if record.result.winner else None,
                "reasons": [str(reason) for reason in record.result.reasons],
                "players": [_lag_player_to_json(player) for player in record.players],
            }
        case ShotRecord():
            stroke = record.stroke
            return {
                "type": "shot",
                "rack": record.rack,
                "shooter": record.shooter.value,
                "placement": list(stroke.placement) if stroke.placement else None,
                "call": (
                    {"ball": stroke.call.ball, "pocket": stroke.call.pocket.value}
                    if stroke.call
                    else None
                ),
                "declaration": stroke.declaration.value if stroke.declaration else None,
                "clock_s": stroke.clock_s,
                "extension": stroke.extension,
                "action": _action_to_json(stroke.action),
                "start": _positions_to_json(record.start),
                "ruling": ruling_to_json(record.ruling),
                **_shot_data(record.simulated, members),
                **_player_to_json(stroke.player),
            }
        case ChoiceRecord():
            return {
                "type": "choice",
                "rack": record.rack,
                "player": record.player.value,
                "choice": record.choice.value,
                "ruling": ruling_to_json(record.ruling),
                # The computer's choice: its level and seed, under its own key (a choice's
                # "player" is the chooser, A or B); none for a person's.
                **({"computer": _computer_object(record.by)} if record.by else {}),
            }
        case StalemateRecord():
            return {
                "type": "stalemate",
                "rack": record.rack,
                "agreed": record.agreed,
                "ruling": ruling_to_json(record.ruling),
            }
        case TimeFoulRecord():
            return {
                "type": "time-foul",
                "rack": record.rack,
                "shooter": record.shooter.value,
                "extension": record.extension,
                "ruling": ruling_to_json(record.ruling),
            }
        case SetupRecord():
            return {
                "type": "setup",
                "balls": _positions_to_json(record.balls),
                "turn": record.turn.value,
                "in_hand": record.in_hand.value if record.in_hand else None,
                "refereed": record.refereed,
                **({"break": True} if record.breaking else {}),  # only a break says so
            }
    raise TypeError(f"not a game record: {record!r}")


# -- loading --------------------------------------------------------------------------------


@contextlib.contextmanager
def _unreadable_as_error(path: Path) -> Iterator[None]:
    """A file that is not one to read (special, too large) or cannot be read, said as the
    game file's one-line error."""
    try:
        yield
    except FileRefused as error:
        raise GameFileError(f"{path}: {error}") from None
    except OSError as error:
        raise GameFileError(f"{path}: cannot read: {error.strerror or error}") from None


def load(path: Path) -> Game:
    """Read a game file; :class:`GameFileError` (one line) for anything wrong with it.
    Only a regular file is opened; its members are inflated a chunk at a time, never past
    their declared sizes or their caps, and a shot's member only when its record takes
    it."""
    path = Path(path)
    with _unreadable_as_error(path):
        file = open_regular(path, MAX_FILE_BYTES, "a game file")
    with file:
        try:
            zf = zipfile.ZipFile(file)
            infos = _member_infos(zf)
            info = infos.pop("game.json", None)
            text = None if info is None else read_game_json(zf, info)
        except FileRefused as error:
            raise GameFileError(f"{path}: {error}") from None
        except _DAMAGED as error:
            raise GameFileError(
                f"{path}: not a poolsim game file (damaged or truncated: {error})"
            ) from None
        with zf:
            if text is None:
                raise GameFileError(f"{path}: not a poolsim game file (no game.json)")
            return _game_from_zip(path, text, _Members(zf, infos))


def _game_from_zip(path: Path, text: bytes, members: Mapping[str, bytes]) -> Game:
    document = _document(path, text)
    try:
        with _collector_paused():
            return _game_from_json(document, members)
    except FormatError as error:
        raise GameFileError(f"{path}: {_short(error.key)}: {_short(error.problem)}") from None


def _short(text: str, limit: int = 160) -> str:
    """A part of an error line as :func:`~rules.reading.shown_text` shows it: the key or
    the value a file holds may be megabytes long, and a line is read by a person."""
    return shown_text(text, limit)


def _document(path: Path, data: bytes) -> Any:
    """game.json's document: UTF-8 text (json would also take UTF-16 and UTF-32, and a
    byte-order mark; poolsim writes none of them), JSON, its integers of sane length."""
    # JSON text holds no NUL byte (a control character is escaped even in a string): one
    # is the mark of UTF-16 or UTF-32.
    if data.startswith(codecs.BOM_UTF8) or b"\x00" in data:
        raise GameFileError(f"{path}: game.json: not UTF-8 text (UTF-16, UTF-32 or a BOM)")
    try:
        return json.loads(data.decode("utf-8"), parse_int=whole_number)
    except UnicodeDecodeError as error:
        raise GameFileError(f"{path}: game.json: not UTF-8 text ({error.reason})") from None
    except json.JSONDecodeError as error:
        raise GameFileError(f"{path}: game.json is not valid JSON: {error}") from None
    except ValueError as error:  # whole_number's refusal
        raise GameFileError(f"{path}: game.json: {one_line(error)}") from None
    except RecursionError:
        raise GameFileError(f"{path}: game.json is nested too deep to be a game") from None


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused: loading makes a few hundred thousand
    objects that all live on, and the collector would go through the growing heap again
    and again looking for garbage there is none of (a quarter of the time of a load)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _member_infos(zf: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    """The members of a game file by name: only game.json and shots, and not more of them,
    or more bytes in all (as they declare), than a game file can hold."""
    infos = zf.infolist()
    if len(infos) > MAX_MEMBERS:
        raise ValueError(f"{len(infos)} members")
    if sum(info.file_size for info in infos) > MAX_UNPACKED_BYTES:
        raise ValueError("it unpacks to more than a game file can hold")
    members = {}
    for info in infos:
        if info.filename != "game.json" and not _SHOT_MEMBER.fullmatch(info.filename):
            raise ValueError(f"unexpected member {info.filename!r}")
        members[info.filename] = info
    return members


def read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int, kind: str) -> bytes:
    """A member's bytes, inflated a chunk at a time, exactly as many as it declares and
    at most ``limit`` (else :class:`FileRefused`, naming ``kind``). Read whole, as
    ``zf.read`` does, zipfile inflates up to 2 GB in one call before it cuts the bytes to
    the declared size, and then stops there without a word, so a member whose CRC is that
    of its first bytes passes. Here zipfile only inflates: it is given a copy of the
    member's entry that declares one byte more and no CRC (it checks none then), and the
    size and the CRC are checked here, a member that inflates further refused one byte
    past its size, the rest never inflated."""
    if info.file_size > limit:
        raise FileRefused(f"{info.filename}: {too_large(info.file_size, limit, kind)}")
    probe = copy.copy(info)
    probe.file_size = info.file_size + 1
    del probe.CRC
    chunks, size, crc = [], 0, 0
    with zf.open(probe) as member:
        while chunk := member.read(_INFLATE_CHUNK):
            size += len(chunk)
            if size > info.file_size:
                raise FileRefused(
                    f"{info.filename}: inflates past the {size_words(info.file_size)} it declares"
                )
            crc = zlib.crc32(chunk, crc)
            chunks.append(chunk)
    if size < info.file_size:
        raise FileRefused(
            f"{info.filename}: ends before the {size_words(info.file_size)} it declares"
        )
    if crc != info.CRC:
        raise zipfile.BadZipFile(f"Bad CRC-32 for file {info.filename!r}")  # zipfile's words
    return b"".join(chunks)


def read_game_json(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """The bytes of game.json, bounded in size and in what they would parse to:
    :class:`FileRefused` past :data:`MAX_GAME_JSON_BYTES` or :data:`MAX_GAME_JSON_VALUES`
    (counted as the commas and openings that start them, which over-counts any in text)."""
    text = read_member(zf, info, MAX_GAME_JSON_BYTES, "game.json")
    values = text.count(b",") + text.count(b"[") + text.count(b"{")
    if values > MAX_GAME_JSON_VALUES:
        raise FileRefused(
            f"game.json: more than {MAX_GAME_JSON_VALUES:,} values, more than a game holds"
        )
    return text


class _Members(Mapping[str, bytes]):
    """The shot members of an open game file, each read when a record takes it (so a
    file of lying or oversized shots costs no more than its first)."""

    def __init__(self, zf: zipfile.ZipFile, infos: dict[str, zipfile.ZipInfo]) -> None:
        self.zf = zf
        self.infos = infos

    def __getitem__(self, name: str) -> bytes:
        info = self.infos[name]
        try:
            return read_member(self.zf, info, MAX_SHOT_MEMBER_BYTES, "a shot")
        except FileRefused as error:
            raise FormatError(name, str(error).removeprefix(f"{name}: ")) from None
        except _DAMAGED as error:
            raise FormatError(name, f"damaged ({error})") from None

    def __contains__(self, name: object) -> bool:
        return name in self.infos

    def __iter__(self) -> Iterator[str]:
        return iter(self.infos)

    def __len__(self) -> int:
        return len(self.infos)


class _Reader(Reader):
    """Strict access to an object of ``game.json`` (the document itself is named so)."""

    __slots__ = ()

    def __init__(self, data: Any, where: str) -> None:
        super().__init__(data, where, "game.json")


def _game_from_json(document: Any, members: Mapping[str, bytes]) -> Game:
    top = _Reader(document, "")
    if top.data.get("format") != FORMAT:
        raise FormatError("format", f"not a poolsim game file (format {top.data.get('format')!r})")
    version = top.data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise FormatError(
            "version", f"version {version} was written by a newer poolsim; this one reads {VERSION}"
        )
    if not isinstance(version, int) or isinstance(version, bool) or version not in _KEYS:
        raise FormatError("version", f"unknown version {version!r}")
    top.keys(_KEYS[version])
    for key in ("poolsim", "pooltool"):
        top.convert(key, _version_text)
    top.convert("created", _created)
    arithmetic = top.convert("arithmetic", Arithmetic.from_json) if version >= 4 else None
    game = top.convert("setup", _game_from_setup)
    shots = _Shots(members, arithmetic, version)
    lines = [_replay_line(game, top.get("records", list), "records", shots)]
    if version >= 2:
        for index, entry in enumerate(top.get("branches", list)):
            branch = _Reader(entry, item("branches", index)).keys({"from", "records"})
            start = branch.convert("from", lambda value: _place(value, game, lines, end=False))
            game.go_to(start)
            steps = _replay_line(game, branch.get("records", list), branch.at("records"), shots)
            if not steps:
                raise FormatError(branch.at("records"), "a branch has at least one step")
            lines.append(steps)
        in_play = top.sub("in_play")
        in_play.keys({"line", "step", "next_is_main"})
        node = converted(
            in_play.where,
            {k: in_play.data[k] for k in ("line", "step")},
            lambda value: _place(value, game, lines, end=True),
        )
        game.go_to(node, main=in_play.get("next_is_main", bool))
    shots.check_all_used()
    return game


def _version_text(value: Any) -> str:
    """The poolsim or pooltool version that wrote the file: "0.6.0", never a NUL."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_VERSION_TEXT:
        raise ValueError(f"expected a version of 1 to {MAX_VERSION_TEXT} characters")
    if not value.isprintable():
        raise ValueError(f"expected a version of printable characters, got {value!r}")
    return value


def _created(value: Any) -> str:
    """When the file was written: an ISO 8601 date and time, as poolsim writes it."""
    try:
        dt.datetime.fromisoformat(value if isinstance(value, str) else "")
    except ValueError:
        raise ValueError(f"expected an ISO 8601 date and time, got {_short(repr(value))}") from None
    return str(value)


def _replay_line(game: Game, entries: list[Any], where: str, shots: _Shots) -> list[Node]:
    """Each record of a line played from the game's step in play; the line's nodes."""
    nodes = []
    for index, entry in enumerate(entries):
        reader = _Reader(entry, item(where, index))
        kind = reader.data.get("type")
        replay = _REPLAYS.get(kind) if isinstance(kind, str) else None
        if replay is None:
            raise FormatError(reader.at("type"), f"unknown record type {kind!r}")
        try:
            replay(game, reader, shots)
        except GameError as error:
            raise FormatError(reader.where, f"the game refuses it: {error}") from None
        nodes.append(game.current)
    return nodes


def _place(value: Any, game: Game, lines: list[list[Node]], *, end: bool) -> Node:
    """The node after step ``step`` of line ``line`` (an earlier line; 0 the main line):
    where a branch starts, which is never a line's first step or last (``end``: where
    play is, which may be any)."""
    reader = _Reader(value, "").keys({"line", "step"})
    line, step = reader.get("line", int), reader.get("step", int)
    if not 0 <= line < len(lines):
        raise ValueError(f"line {line}: expected 0 (the main line) to {len(lines) - 1}")
    steps = len(lines[line])
    low = 0 if line == 0 else 1
    high = steps if end else steps - 1
    if not low <= step <= high:
        if low > high:
            raise ValueError(f"line {line} has {steps} steps: nothing branches off it there")
        raise ValueError(f"step {step}: line {line} has steps {low} to {high} here")
    return game.root if step == 0 else lines[line][step - 1]


def _game_from_setup(data: Any) -> Game:
    """The game of the set-up, its first rack built (an error there is the set-up's)."""
    setup = _setup_from_json(data)
    setup.rack_up(1, Player.A)
    return Game(setup)


def _setup_from_json(data: Any) -> GameSetup:
    reader = _Reader(data, "").keys(
        {"game", "race_to", "table", "options", "players", "seed"},
        frozenset({"practice", "drill"}),
    )
    players = reader.get("players", list)
    if len(players) != 2 or not all(isinstance(name, str) for name in players):
        raise FormatError("players", "expected two names")
    return GameSetup(
        game=reader.get("game", str),
        race_to=reader.get("race_to", int),
        table=reader.get("table", str),
        options=reader.convert("options", Options.from_mapping),
        players=(players[0], players[1]),
        seed=reader.get("seed", int),
        practice=reader.convert("practice", _flag),
        drill=reader.optional("drill", str) or "",
    )


def _flag(value: Any) -> bool:
    """True or false (absent: false)."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {Reader.show(value)}")
    return value


def _point(value: Any) -> tuple[float, float]:
    if not isinstance(value, list) or len(value) != 2 or not all(map(is_finite_number, value)):
        raise ValueError(f"expected [x, y] as two finite numbers, got {value!r}")
    return (float(value[0]), float(value[1]))


def _lag_start(game: Game, value: Any) -> tuple[float, float]:
    """Where a lag's cue ball starts: a point the physics can put it (on the bed, clear of
    the cushions and pockets), as verify's re-simulation will."""
    point = _point(value)
    settle_positions(game.setup.spec, {CUE: point})  # PlacementError: a ValueError
    return point


def _positions(value: Any) -> Positions:
    if not isinstance(value, dict):
        raise ValueError(f"expected an object of ball positions, got {Reader.show(value)}")
    return Positions({ball: _point(point) for ball, point in value.items()})


def _an_object(value: Any) -> None:
    """A value that must be an object (said at its key, not as the document)."""
    if not isinstance(value, dict):
        raise ValueError(f"expected an object, got {Reader.show(value)}")


def _action(value: Any) -> CueAction:
    _an_object(value)
    reader = _Reader(value, "").keys({"speed", "aim", "elevation", "a", "b"})
    return CueAction(**{key: reader.get(key, (int, float)) for key in reader.data})


def _call(value: Any) -> Call | None:
    if value is None:
        return None
    _an_object(value)
    reader = _Reader(value, "").keys({"ball", "pocket"})
    return Call(ball=reader.get("ball", str), pocket=reader.get("pocket", str))


def _seconds(value: Any) -> float | None:
    """A shot clock reading: absent, or a finite number of seconds >= 0."""
    if value is None:
        return None
    if not is_finite_number(value):
        raise ValueError(f"expected seconds, got {value!r}")
    if value < 0:
        raise ValueError(f"seconds cannot be negative, got {value!r}")
    return float(value)


def _clock_reading(value: Any, game: Game) -> float | None:
    """A shot's clock reading: null when the match has no shot clock (poolsim writes no
    reading then, and the referee would rule on none)."""
    seconds = _seconds(value)
    if seconds is not None and game.setup.options.shot_clock_s is None:
        raise ValueError(f"the shot clock is off: expected null, got {value!r}")
    return seconds


def _player_to_json(player: ComputerPlayer | None) -> dict[str, Any]:
    """The shot's ``player`` key: none for a person (as files before it had)."""
    return {} if player is None else {"player": _computer_object(player)}


def _lag_player_to_json(player: ComputerPlayer | None) -> dict[str, Any]:
    """Who struck a lag stroke: ``{"kind": "person"}``, or the computer's object."""
    return {"kind": "person"} if player is None else _computer_object(player)


def _computer_object(player: ComputerPlayer) -> dict[str, Any]:
    declined = {} if player.declined is None else {"declined": player.declined}
    plan = {} if player.plan is None else {"plan": _plan_to_json(player.plan)}
    return {
        "kind": "computer",
        "level": player.level,
        "entropy": list(player.entropy),
        **declined,
        **plan,
    }


def _plan_to_json(plan: Plan) -> dict[str, Any]:
    return {
        "action": _action_to_json(plan.action),
        "intent": plan.intent,
        "target": plan.target,
        "pocket": None if plan.pocket is None else plan.pocket.value,
    }


# What a computer's stroke may be meant as (sim.play.opponent.strokes.Intent's values).
PLAN_INTENTS = frozenset({"break", "pot", "safety", "kick", "push-out"})
POCKET_NAMES = frozenset(pocket.value for pocket in PocketId)


def _plan(value: Any) -> Plan:
    """A computer's plan: its action, what for, and a pot's ball and pocket."""
    reader = _Reader(value, "plan").keys({"action", "intent", "target", "pocket"})
    intent = reader.get("intent", str)
    if intent not in PLAN_INTENTS:
        raise FormatError(reader.at("intent"), f"one of {', '.join(sorted(PLAN_INTENTS))}")
    target, pocket = value["target"], value["pocket"]
    if target is not None and target not in OBJECT_BALLS:
        raise FormatError(reader.at("target"), "an object ball (1 to 15) or null")
    if pocket is not None and not (isinstance(pocket, str) and pocket in POCKET_NAMES):
        raise FormatError(reader.at("pocket"), "a pocket (lb, lc, lt, rb, rc, rt) or null")
    action = reader.convert("action", _action)
    return Plan(action, intent, target, None if pocket is None else PocketId(pocket))


MAX_ENTROPY_WORDS = 16  # a decision's seed: a handful of whole numbers


def _shot_player(value: Any) -> ComputerPlayer | None:
    """Who played a shot: absent or {"kind": "person"}, or the computer's level and
    seed (whole numbers from 0 to 2**63 - 1)."""
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("kind") not in ("person", "computer"):
        raise ValueError(
            f'expected {{"kind": "person" | "computer", ...}}, got {Reader.show(value)}'
        )
    if value["kind"] == "person":
        _Reader(value, "").keys({"kind"})
        return None
    reader = _Reader(value, "").keys({"kind", "level", "entropy"}, optional={"declined", "plan"})
    level = reader.get("level", str)
    if level not in LEVEL_NAMES:
        raise ValueError(f"a level is one of {', '.join(LEVEL_NAMES)}, got {level!r}")
    entropy = reader.get("entropy", list)
    if not 1 <= len(entropy) <= MAX_ENTROPY_WORDS or not all(
        type(word) is int and 0 <= word <= MAX_SEED for word in entropy
    ):
        raise ValueError(f"entropy: 1 to {MAX_ENTROPY_WORDS} whole numbers from 0 to {MAX_SEED}")
    declined = value.get("declined")
    if declined is not None and (type(declined) is not int or not 0 <= declined <= MAX_DECLINED):
        raise ValueError(f"declined: the innings of a stalemate declined, 0 to {MAX_DECLINED}")
    plan = _plan(value["plan"]) if "plan" in value else None
    return ComputerPlayer(level, tuple(entropy), declined, plan)


def _lag_players(value: Any) -> tuple[ComputerPlayer | None, ComputerPlayer | None]:
    """Who struck the two lag strokes (version 3; absent in older files: people, as the
    computer's lag was not yet recorded as its own)."""
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"expected two players, A's then B's, got {Reader.show(value)}")
    first, second = (_shot_player(player) for player in value)
    return first, second


def _computer_choice(value: Any) -> ComputerPlayer:
    """The computer that made a choice: its level and seed, as a shot's player is."""
    player = _shot_player(value)
    if player is None:
        raise ValueError("a choice's computer is the computer's, not a person's")
    return player


def _extension(value: Any) -> bool:
    """Whether the shot clock's extension was called: true or false (absent: false)."""
    return _flag(value)


def _lag_reasons(value: Any) -> list[str]:
    """A lag's reasons: its words, a list of strings (not checked against the referee's)."""
    if not isinstance(value, list) or not all(isinstance(text, str) for text in value):
        raise ValueError(f"expected a list of texts, got {Reader.show(value)}")
    return value


def _reasons(value: Any) -> None:
    """A ruling's reasons: a list of {"rule", "text", "foul"} (the words are free)."""
    if not isinstance(value, list):
        raise ValueError(f"expected a list of reasons, got {Reader.show(value)}")
    for index, entry in enumerate(value):
        reason = _Reader(entry, item("", index)).keys({"rule", "text", "foul"})
        reason.get("rule", str)
        reason.get("text", str)
        reason.get("foul", bool)


def _player(value: Any) -> Player:
    return Player(value)


def _shot_arithmetic(value: Any) -> Arithmetic | None:
    """A shot's own arithmetic: null where the file it came from did not record one."""
    return None if value is None else Arithmetic.from_json(value)


class _Shots:
    """The shot members of a file, each taken by one record: read, checked against the
    record, and kept with its shot as the bytes to write it back (an autosave after
    loading then packs only new shots)."""

    def __init__(
        self, members: Mapping[str, bytes], arithmetic: Arithmetic | None, version: int = VERSION
    ) -> None:
        from sim.physics.systemcodec import SharedParts

        self.members = members
        self.arithmetic = arithmetic  # the file's: a shot's own, where it has one, differs
        self.version = version  # the file's: which keys its shot records must hold
        self.used: set[str] = set()
        # The frozen parts (table, ball parameters...) that every shot of a file repeats.
        self.shared = SharedParts()

    def take(
        self,
        reader: _Reader,
        game: Game,
        start: Mapping[str, tuple[float, float]],
        action: CueAction,
    ) -> SimulatedShot:
        """The simulated shot of a record: pooltool's system, checked against the record
        (the stroke ``action`` from ``start`` on the set-up's table, and its own events)."""
        from sim.physics.agreement import system_disagreement
        from sim.physics.systemcodec import system_from_bytes

        name = reader.get("system", str)
        if name not in self.members:
            raise FormatError(reader.at("system"), f"no member {name!r} in the file")
        if name in self.used:
            raise FormatError(reader.at("system"), f"{name!r} is used twice")
        self.used.add(name)
        data = self.members[name]
        system = reader.convert("system", lambda _: system_from_bytes(data, self.shared))
        disagreement = system_disagreement(system, game.setup.spec, start, action)
        if disagreement is not None:
            raise FormatError(reader.at("system"), f"is not the recorded shot: {disagreement}")
        simulated = reader.convert(
            "system", lambda _: shot_from_system(game.setup.spec, system, packed=data)
        )
        events = reader.convert("events", facts_from_json)
        if events != simulated.facts:
            raise FormatError(reader.at("events"), "do not match the simulated shot")
        after = reader.convert("after", _positions)
        if dict(after) != simulated.after:
            raise FormatError(reader.at("after"), "does not match the simulated shot")
        arithmetic = self.arithmetic
        if "arithmetic" in reader.data:
            arithmetic = reader.convert("arithmetic", _shot_arithmetic)
        return attrs.evolve(simulated, arithmetic=arithmetic)

    def check_all_used(self) -> None:
        unused = sorted(set(self.members) - self.used)
        if unused:
            named = ", ".join(unused[:3]) + (", ..." if len(unused) > 3 else "")
            raise FormatError("records", f"{len(unused)} shot files no record uses: {named}")


# The words of a ruling: a newer poolsim may put them better without changing a decision.
WORDING = ("reasons", "choice_rule")


def same_decision(recorded: Any, ruling: Ruling) -> bool:
    """The recorded ruling (JSON) decides what ``ruling`` decides, whatever the words."""
    if not isinstance(recorded, dict):
        return False
    ours = ruling_to_json(ruling)
    return {k: v for k, v in recorded.items() if k not in WORDING} == {
        k: v for k, v in ours.items() if k not in WORDING
    }


def _check_ruling(reader: _Reader, ruling: Ruling) -> None:
    ruling_reader = reader.sub("ruling")
    ruling_reader.convert("reasons", _reasons)
    if not same_decision(reader.data.get("ruling"), ruling):
        raise FormatError(reader.at("ruling"), "is not the referee's ruling on this record")


def _replay_breaker(game: Game, reader: _Reader, _shots: _Shots) -> None:
    reader.keys({"type", "breaker", "agreed"})
    breaker = reader.convert("breaker", _player)
    if reader.get("agreed", bool):
        game.start(breaker)
    else:
        game.choose_breaker(breaker)


def _replay_lag(game: Game, reader: _Reader, shots: _Shots) -> None:
    reader.keys({"type", "starts", "strokes", "shots", "winner", "reasons"}, optional={"players"})
    starts = reader.get("starts", list)
    strokes = reader.get("strokes", list)
    lag_shots = reader.get("shots", list)
    if not len(starts) == len(strokes) == len(lag_shots) == 2:
        raise FormatError(reader.where, "a lag has two starts, two strokes and two shots")
    points = [
        converted(item(reader.at("starts"), i), p, lambda value: _lag_start(game, value))
        for i, p in enumerate(starts)
    ]
    actions = [converted(item(reader.at("strokes"), i), a, _action) for i, a in enumerate(strokes)]
    simulated = [
        shots.take(
            _Reader(shot, f"{reader.at('shots')}[{i}]").keys(
                {"system", "events", "after"}, {"arithmetic"}
            ),
            game,
            {"cue": points[i]},
            actions[i],
        )
        for i, shot in enumerate(lag_shots)
    ]
    players = reader.convert("players", _lag_players) if "players" in reader.data else (None, None)
    record = game.lag_from(
        (points[0], points[1]), (actions[0], actions[1]), (simulated[0], simulated[1]), players
    )
    reader.convert("reasons", _lag_reasons)
    winner = record.result.winner.value if record.result.winner else None
    if reader.data.get("winner") != winner:
        raise FormatError(reader.at("winner"), "is not the referee's verdict on this lag")


def _replay_shot(game: Game, reader: _Reader, shots: _Shots) -> None:
    clock_required = shots.version >= CLOCK_KEYS_REQUIRED_FROM
    reader.keys(
        {
            "type",
            "rack",
            "shooter",
            "placement",
            "call",
            "declaration",
            "action",
            "start",
            "ruling",
            "system",
            "events",
            "after",
            *(CLOCK_KEYS if clock_required else ()),
        },
        frozenset({"player", "arithmetic", *(() if clock_required else CLOCK_KEYS)}),
    )
    placement = reader.data.get("placement")
    stroke = Stroke(
        action=reader.convert("action", _action),
        placement=None if placement is None else reader.convert("placement", _point),
        call=reader.convert("call", _call),
        declaration=reader.convert("declaration", lambda v: None if v is None else Declaration(v)),
        clock_s=reader.convert("clock_s", lambda value: _clock_reading(value, game)),
        extension=reader.convert("extension", _extension),
        player=reader.convert("player", _shot_player),
    )
    prepared = game.prepare(stroke)
    if reader.get("rack", int) != prepared.rack:
        raise FormatError(reader.at("rack"), f"expected rack {prepared.rack}")
    if reader.convert("shooter", _player) is not prepared.shooter:
        raise FormatError(reader.at("shooter"), f"it is {prepared.shooter}'s shot")
    if reader.convert("start", _positions) != prepared.start:
        raise FormatError(reader.at("start"), "is not where the balls were")
    simulated = shots.take(reader, game, prepared.start, stroke.action)
    record = game.commit(prepared, simulated)
    _check_ruling(reader, record.ruling)


def _replay_choice(game: Game, reader: _Reader, _shots: _Shots) -> None:
    reader.keys({"type", "rack", "player", "choice", "ruling"}, optional={"computer"})
    choice = reader.convert("choice", Choice)
    by = reader.convert("computer", _computer_choice) if "computer" in reader.data else None
    record = game.choose(choice, by=by)
    if (
        reader.get("rack", int) != record.rack
        or reader.convert("player", _player) is not record.player
    ):
        raise FormatError(reader.where, "is not this rack's choice")
    _check_ruling(reader, record.ruling)


def _replay_stalemate(game: Game, reader: _Reader, _shots: _Shots) -> None:
    reader.keys({"type", "rack", "agreed", "ruling"})
    record = game.declare_stalemate(agreed=reader.get("agreed", bool))
    if reader.get("rack", int) != record.rack:
        raise FormatError(reader.at("rack"), f"expected rack {record.rack}")
    _check_ruling(reader, record.ruling)


def _replay_time_foul(game: Game, reader: _Reader, _shots: _Shots) -> None:
    """GEN-17: the referee's time foul, with no stroke (no shot member of its own)."""
    reader.keys({"type", "rack", "shooter", "extension", "ruling"})
    record = game.time_foul(extension=reader.convert("extension", _extension))
    if reader.get("rack", int) != record.rack:
        raise FormatError(reader.at("rack"), f"expected rack {record.rack}")
    if reader.convert("shooter", _player) is not record.shooter:
        raise FormatError(reader.at("shooter"), f"it is {record.shooter}'s shot")
    _check_ruling(reader, record.ruling)


def _replay_setup(game: Game, reader: _Reader, _shots: _Shots) -> None:
    """A table set up by hand: a position the table can play (as a position file's)."""
    from sim.play.position import Position

    reader.keys({"type", "balls", "turn", "in_hand", "refereed"}, optional={"break"})
    in_hand = reader.data.get("in_hand")
    position = converted(
        reader.where,
        reader.data,
        lambda data: Position(
            game=game.setup.game,
            table=game.setup.table,
            balls=_positions(data["balls"]),
            turn=_player(data["turn"]),
            in_hand=None if in_hand is None else BallInHand(in_hand),
        ),
    )
    breaking = reader.get("break", bool) if "break" in reader.data else False
    try:
        game.set_up(position, refereed=reader.get("refereed", bool), breaking=breaking)
    except GameError as error:
        raise FormatError(reader.at("break"), str(error)) from None


_REPLAYS: dict[str, Callable[[Game, _Reader, _Shots], None]] = {
    "breaker": _replay_breaker,
    "lag": _replay_lag,
    "shot": _replay_shot,
    "choice": _replay_choice,
    "stalemate": _replay_stalemate,
    "time-foul": _replay_time_foul,
    "setup": _replay_setup,
}


def read_pooltool_system(path: Path) -> tuple[System, TableSpec]:
    """A shot saved by pooltool itself (``System.save`` as .json or .msgpack), and the
    poolsim table it was played on. Decoded safely, as game files are."""
    from sim.physics.systemcodec import system_from_bytes, system_from_json

    path = Path(path)
    with _unreadable_as_error(path):
        data = read_regular(path, MAX_SHOT_FILE_BYTES, "a pooltool shot")
    try:
        if path.suffix == ".msgpack":
            system = system_from_bytes(data)
        elif path.suffix == ".json":
            system = system_from_json(json.loads(data))
        else:
            raise GameFileError(f"{path}: a pooltool shot is a .json or .msgpack file")
    except GameFileError:
        raise
    except Exception as error:  # cattrs and msgpack raise many kinds; all mean "not a shot"
        raise GameFileError(
            f"{path}: not a pooltool shot ({type(error).__name__}: {one_line(error)})"
        ) from None
    if not system.events:
        raise GameFileError(f"{path}: the pooltool system has not been simulated (no events)")
    for spec in TABLE_SPECS.values():
        if abs(spec.width - system.table.w) < 1e-3 and abs(spec.length - system.table.l) < 1e-3:
            return system, spec
    raise GameFileError(
        f"{path}: a {system.table.w:.3f} x {system.table.l:.3f} m table; poolsim draws "
        + ", ".join(s.size.value for s in TABLE_SPECS.values())
    )
