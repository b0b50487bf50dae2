"""A duel's finished racks on disk, so that a duel stopped (Ctrl-C, a kill, the machine
switched off) goes on from where it was.

``poolsim duel ... --save DIR`` writes, as each rack ends, its game file and then its
figures (``duel-ten-ball-seed1-rack00001.json`` beside ``...rack00001.poolsim``). Started
again with the same folder, the duel reads the figures back and plays only the racks
missing (:func:`finished_racks`). A rack is a pure function of the duel's set-up and its
number (:func:`sim.play.duel.play_rack`), so a rack read back counts exactly as the same
rack played again would; the number of racks asked for is not part of the set-up, so a
duel of 50 racks goes on to 100.

Each rack's figures name the duel they belong to: the game, the table, the seed, the
limits on a rack, and each side's level with its settings as this poolsim defines them
(:func:`sim.play.opponent.settings`: its noise and search, and the breaks it practised
if it plays them). A folder holding racks of another duel, or of a level since changed,
is refused with one line rather than mixed in. Read strictly, as position files are: a
regular file of at most :data:`MAX_FILE_BYTES`, UTF-8 JSON, every key known and none
missing; written atomically (:func:`sim.files.write_atomically`), the game file first,
so a rack whose figures are on disk has its game file too. Each rack keeps the
fingerprint of the code that played it (``"code"``, :mod:`sim.codeprint`); a rack
of another code is read and counted apart in the figures, not refused: the code
changes with every commit that touches the player, and whether its racks may be
counted together is for the person reading the figures.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import attrs

from rules import Options, Player
from rules.errors import FormatError
from sim.files import write_atomically
from sim.play.duel import DuelSetup, RackOutcome, SideFigures
from sim.play.opponent import level_named, settings
from sim.store.gamefile import SUFFIX
from sim.store.positionfile import StrictReader, one_of, read_json_file, shown

FORMAT = "poolsim-duel-rack"
VERSION = 1
FIGURES_SUFFIX = ".json"
# A rack of 300 steps with three numbers a shot is about 20 KB; a megabyte is far more
# than any rack can fill, and bounds what a stray file makes the duel read.
MAX_FILE_BYTES = 2**20
_COUNTS = tuple(
    field.name
    for field in attrs.fields(SideFigures)
    if field.type in (int, "int")  # the whole-number figures; the rest are per shot
)
_PER_SHOT = {"think_seconds": float, "simulations": int, "candidates": int}
OWN = "own"  # the game's own figures of the rack, [[name, value], ...]: only where it has any
_PER_INNING = "runs"  # each inning's balls; absent from a rack saved before it was kept
CODE = "code"  # the fingerprint of the code that played it; absent from older racks


class DuelFileError(ValueError):
    """A duel's saved rack that cannot be used (one line: the file and what is wrong)."""


def rack_stem(setup: DuelSetup, index: int) -> str:
    """The name of rack ``index``'s files, without the suffix."""
    return f"duel-{setup.game}-seed{setup.seed}-rack{index + 1:05d}"


def save_rack(folder: Path, setup: DuelSetup, outcome: RackOutcome) -> None:
    """Rack ``outcome`` into ``folder``: its game file (when the outcome carries one),
    then its figures. OSError if either cannot be written."""
    stem = rack_stem(setup, outcome.index)
    if outcome.file is not None:
        write_atomically(folder / f"{stem}{SUFFIX}", outcome.file)
    write_atomically(folder / f"{stem}{FIGURES_SUFFIX}", figures_bytes(setup, outcome))


def figures_bytes(setup: DuelSetup, outcome: RackOutcome) -> bytes:
    """A rack's figures as its file's bytes (see the module)."""
    document = {
        "format": FORMAT,
        "version": VERSION,
        "duel": _duel(setup),
        "rack": outcome.index + 1,
        "winner": None if outcome.winner is None else outcome.winner.value,
        "sides": {
            player.value: attrs.asdict(side, filter=lambda field, value: field.name != OWN or value)
            for player, side in zip(Player, outcome.sides, strict=True)
        },
    }
    if outcome.code is not None:
        document[CODE] = outcome.code
    return (json.dumps(document, indent=1) + "\n").encode("utf-8")


def _duel(setup: DuelSetup) -> dict[str, Any]:
    """What makes one duel's racks the same as another's (not how many racks): the
    rules chosen too, where they are not the defaults (the files of a duel at the
    defaults read as they did)."""
    options = json.loads(json.dumps(attrs.asdict(setup.options)))  # as the file reads back
    chosen = {} if setup.options == Options() else {"options": options}
    return chosen | {
        "game": setup.game,
        "table": setup.table,
        "seed": setup.seed,
        "max_steps": setup.max_steps,
        "max_reracks": setup.max_reracks,
        "levels": {
            player.value: {
                "level": setup.level(player),
                "settings": settings(level_named(setup.level(player)), setup.game),
            }
            for player in Player
        },
    }


def finished_racks(folder: Path, setup: DuelSetup) -> dict[int, RackOutcome]:
    """The racks of ``setup``'s duel already in ``folder``, by number (from 0);
    :class:`DuelFileError` for a file of another duel or one that cannot be read. A rack
    with no figures file is not finished (its game file alone is written over)."""
    found: dict[int, RackOutcome] = {}
    ours = _duel(setup)
    for index in range(setup.racks):
        path = folder / f"{rack_stem(setup, index)}{FIGURES_SUFFIX}"
        if not path.exists() and not path.is_symlink():
            continue
        document = read_json_file(path, MAX_FILE_BYTES, DuelFileError, "a duel's rack")
        try:
            found[index] = _outcome(document, ours, index)
        except FormatError as error:
            raise DuelFileError(f"{path}: {error.key}: {error.problem}") from None
        except _OtherDuel as other:
            raise DuelFileError(
                f"{path}: a rack of another duel ({other}); "
                "save this one to another folder, or remove that one's files"
            ) from None
    return found


class _OtherDuel(Exception):
    """The rack belongs to a duel of another set-up (what differs)."""


def _outcome(document: Any, ours: dict[str, Any], index: int) -> RackOutcome:
    """Rack ``index``'s figures from its document, of the duel ``ours`` (:func:`_duel`)."""
    top = StrictReader(document, "", "the rack")
    given = top.data.get("format")
    if given != FORMAT:
        raise FormatError("format", f"not a poolsim duel rack (format {shown(given)})")
    version = top.data.get("version")
    if version != VERSION or isinstance(version, bool):
        raise FormatError("version", f"unknown version {shown(version)}; this reads {VERSION}")
    top.keys(("format", "version", "duel", "rack", "winner", "sides"), (CODE,))
    duel = top.get("duel", dict)
    if duel != ours:
        differ = sorted(key for key in ours.keys() | duel.keys() if duel.get(key) != ours.get(key))
        raise _OtherDuel(", ".join(f"its {key} is not this duel's" for key in differ))
    if top.get("rack", int) != index + 1:
        raise FormatError("rack", f"expected {index + 1}, as the file's name says")
    winner = top.convert(
        "winner", lambda value: None if value is None else Player(one_of(value, ["A", "B"]))
    )
    sides = top.sub("sides").keys(("A", "B"))
    a, b = (_side(sides.sub(player.value)) for player in Player)
    code = top.convert(CODE, _fingerprint) if CODE in top.data else None
    return RackOutcome(index, winner, (a, b), code=code)


def _side(reader: StrictReader) -> SideFigures:
    reader.keys((*_COUNTS, *_PER_SHOT), (OWN, _PER_INNING))
    counts: dict[str, Any] = {}
    for name in _COUNTS:
        value = reader.get(name, int)
        if value < 0:
            raise FormatError(reader.at(name), f"expected a count, got {value}")
        counts[name] = value
    per_shot: dict[str, Any] = {
        name: reader.convert(name, _numbers(kind)) for name, kind in _PER_SHOT.items()
    }
    own = reader.convert(OWN, _own) if OWN in reader.data else ()
    runs = reader.convert(_PER_INNING, _numbers(int)) if _PER_INNING in reader.data else ()
    return SideFigures(**counts, **per_shot, own=own, runs=runs)


def _fingerprint(value: Any) -> str:
    """A code's fingerprint: a sha256 in lower-case hex (:mod:`sim.codeprint`)."""
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{64}", value):
        raise ValueError(f"expected a sha256 in hex, got {shown(value)}")
    return value


def _own(value: Any) -> tuple[tuple[str, int], ...]:
    """The game's own figures of a rack: a list of [name, whole number]."""
    if not isinstance(value, list) or not all(
        isinstance(pair, list)
        and len(pair) == 2
        and isinstance(pair[0], str)
        and isinstance(pair[1], int)
        and not isinstance(pair[1], bool)
        for pair in value
    ):
        raise ValueError(f"expected a list of [name, whole number], got {shown(value)}")
    return tuple((str(name), int(number)) for name, number in value)


def _numbers(kind: type) -> Any:
    def make(value: Any) -> tuple[float, ...] | tuple[int, ...]:
        if not isinstance(value, list) or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0
            for v in value
        ):
            raise ValueError(f"expected a list of finite numbers not below 0, got {shown(value)}")
        if kind is int and not all(isinstance(v, int) for v in value):
            raise ValueError(f"expected a list of whole numbers, got {shown(value)}")
        return tuple(kind(v) for v in value)

    return make
