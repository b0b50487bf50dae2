"""Damaged game files, fuzzed: every case either loads (and then verifies without an
exception) or is refused with a :class:`GameFileError` of one line; never another
exception, never a hang, never unbounded memory, and the file is never changed.

The cases are made from one real match (a lag and a whole rack), seeded:

- truncations of the file at any byte;
- byte flips in every member, the zip written again around it (its CRC right, so the
  reader of the member meets the damage), and flips of the zip's own bytes;
- wrong types across the JSON tree: a node of game.json (any node, the document
  itself included) replaced by a value of each JSON type;
- oversized members (game.json padded, a huge string, a huge list, deep nesting, an
  integer of thousands of digits, thousands of members) and lying ones (a member whose
  declared size or CRC is not its own, a duplicate, an unexpected name).

Each case runs in a child forked from the test process (the physics is warm there):
its address space is capped, it is killed after :data:`CASE_SECONDS`, and it reports
its outcome, its time and its peak RSS. A small seeded set runs in the suite; more with
``POOLSIM_FUZZ_CASES=5000`` (and another seed with ``POOLSIM_FUZZ_SEED``). The run's
figures (cases, clean refusals, peak memory, the slowest case) are printed (``-s``).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import resource
import select
import signal
import struct
import time
import traceback
import warnings
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from sim.play.game import Game
from sim.store.gamefile import GameFileError, load, save
from sim.store.verify import verify_game
from tests.store.test_gamefile import played

__all__ = ["played"]  # the fixture, shared with the game-file tests

pytestmark = pytest.mark.physics

CASES = int(os.environ.get("POOLSIM_FUZZ_CASES", "36"))
SEED = int(os.environ.get("POOLSIM_FUZZ_SEED", "15"))
CASE_SECONDS = 60.0
# A case's memory: the growth of its peak RSS over the warm process it was forked from
# (the bound for any file given), and a hard cap on its address space.
CASE_GROWTH_BYTES = 300 * 2**20
CASE_ADDRESS_SPACE_EXTRA = 2 * 2**30
MAX_LINE = 400  # a refusal's length after the file's name: a line a person reads

Members = dict[str, bytes]


@attrs.frozen
class Case:
    """A damaged file: its name (the family and what was done) and its bytes."""

    name: str
    data: bytes


@attrs.frozen
class Outcome:
    case: str
    result: str  # "loaded", "refused", or what went wrong
    detail: str
    seconds: float
    peak_rss: int  # bytes, the child's
    growth: int  # bytes, the child's peak RSS over its RSS when forked


# -- zips --------------------------------------------------------------------------------


def read_members(data: bytes) -> Members:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {info.filename: zf.read(info) for info in zf.infolist()}


def zipped(members: Members | list[tuple[str, bytes]]) -> bytes:
    items = members.items() if isinstance(members, dict) else members
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf,
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("ignore", UserWarning)  # a duplicate name, made on purpose
        for name, content in items:
            # A fixed time: the same seed makes the same bytes.
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            zf.writestr(info, content, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def with_game_json(members: Members, document: Any) -> bytes:
    return zipped({**members, "game.json": json.dumps(document).encode()})


_LOCAL = b"PK\x03\x04"
_CENTRAL = b"PK\x01\x02"


def patched_header(data: bytes, member: str, field: str, value: int) -> bytes:
    """``data`` with a member's CRC, compressed or declared size set to ``value`` in both
    its local header and its central directory entry (a member that lies)."""
    local_offsets = {"crc": 14, "compress_size": 18, "file_size": 22}
    central_offsets = {"crc": 16, "compress_size": 20, "file_size": 24}
    out = bytearray(data)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        info = zf.getinfo(member)
    at = info.header_offset
    assert out[at : at + 4] == _LOCAL
    struct.pack_into("<I", out, at + local_offsets[field], value)
    name = member.encode()
    central = data.find(_CENTRAL + data[at + 4 : at + 6])
    while central != -1:
        name_length = struct.unpack_from("<H", data, central + 28)[0]
        if data[central + 46 : central + 46 + name_length] == name:
            struct.pack_into("<I", out, central + central_offsets[field], value)
            break
        central = data.find(_CENTRAL, central + 4)
    return bytes(out)


# -- the cases -----------------------------------------------------------------------------


def json_paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every node of a JSON tree, as the keys and indices that lead to it."""
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from json_paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from json_paths(value, (*path, index))


def replaced(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    copy = json.loads(json.dumps(document))
    node = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copy


# A value of each JSON type, a few of each: the plain, the edge, the absurd.
JSON_TYPES: dict[str, list[Any]] = {
    "null": [None],
    "bool": [True, False],
    "int": [0, -1, 3, 2**63, 10**39],
    "float": [0.5, -2.5, 1e308, -1e-308],
    "str": ["", "x", "shots/0001.msgpack", "A", "ten-ball"],
    "list": [[], [0], [[0.5, 0.5]], [None, None]],
    "object": [{}, {"x": 1}, {"cue": [0.5, 0.5]}],
}


def type_cases(members: Members, rng: random.Random) -> Iterator[Case]:
    """Every node of game.json replaced by each JSON type (in a seeded order)."""
    document = json.loads(members["game.json"])
    pairs = [(path, kind) for path in json_paths(document) for kind in JSON_TYPES]
    rng.shuffle(pairs)
    for path, kind in pairs:
        value = rng.choice(JSON_TYPES[kind])
        place = "".join(f"[{key!r}]" for key in path) or "document"
        yield Case(
            f"type {place} = {kind} {value!r}"[:160],
            with_game_json(members, replaced(document, path, value)),
        )


def truncation_cases(data: bytes, rng: random.Random) -> Iterator[Case]:
    while True:
        cut = rng.randrange(len(data))
        yield Case(f"truncate at {cut}", data[:cut])


def member_flip_cases(members: Members, rng: random.Random) -> Iterator[Case]:
    """A byte of every member in turn flipped, the zip written again around it."""
    names = sorted(members)
    while True:
        for name in names:
            content = bytearray(members[name])
            if not content:
                continue
            at, mask = rng.randrange(len(content)), 1 << rng.randrange(8)
            content[at] ^= mask
            yield Case(f"flip {name} byte {at} ^ {mask}", zipped({**members, name: bytes(content)}))


def zip_flip_cases(data: bytes, rng: random.Random) -> Iterator[Case]:
    while True:
        damaged = bytearray(data)
        at, mask = rng.randrange(len(data)), 1 << rng.randrange(8)
        damaged[at] ^= mask
        yield Case(f"flip zip byte {at} ^ {mask}", bytes(damaged))


def oversized_cases(data: bytes, members: Members) -> Iterator[Case]:
    """Handmade: members too large, too many, too deep."""
    text = members["game.json"]
    document = json.loads(text)
    shot = next(name for name in sorted(members) if name.startswith("shots/"))
    # Oversized.
    yield Case(
        "oversized game.json padded with 20 MB of spaces",
        zipped({**members, "game.json": b" " * 20 * 2**20 + text}),
    )
    big_name = replaced(document, ("setup", "players", 0), "A" * 5 * 2**20)
    yield Case("oversized a 5 MB player name", with_game_json(members, big_name))
    first_shot = next(i for i, r in enumerate(document["records"]) if r["type"] == "shot")
    many_events = replaced(
        document,
        ("records", first_shot, "events"),
        [{"type": "hit", "a": "cue", "b": "1"}] * 200_000,
    )
    yield Case("oversized 200,000 events", with_game_json(members, many_events))
    yield Case(
        "oversized nested 200,000 deep",
        zipped({**members, "game.json": b"[" * 200_000 + b"]" * 200_000}),
    )
    yield Case(
        "oversized seed of 5,000 digits",
        zipped({**members, "game.json": text.replace(b'"seed": 21', b'"seed": ' + b"7" * 5000, 1)}),
    )
    yield Case(
        "oversized race_to of 100,000 digits",
        zipped(
            {
                **members,
                "game.json": text.replace(b'"race_to": 3', b'"race_to": ' + b"7" * 100_000, 1),
            }
        ),
    )
    yield Case(
        "oversized a float of 100,000 digits",
        zipped(
            {
                **members,
                "game.json": text.replace(
                    b'"race_to": 3', b'"race_to": 1' + b"7" * 100_000 + b".5", 1
                ),
            }
        ),
    )
    yield Case(
        "oversized a shot member 8 MB longer",
        zipped({**members, shot: members[shot] + b"\0" * 8 * 2**20}),
    )
    yield Case(
        "oversized 10,001 members",
        zipped(
            [*members.items()] + [(f"shots/{n:06d}.msgpack", b"") for n in range(100_000, 110_001)]
        ),
    )
    yield Case(
        "oversized 9,000 unused members",
        zipped(
            [*members.items()] + [(f"shots/{n:06d}.msgpack", b"") for n in range(100_000, 109_000)]
        ),
    )
    yield Case(
        "oversized game.json of NaN and Infinity",
        zipped(
            {
                **members,
                "game.json": text.replace(b'"race_to": 3', b'"race_to": NaN', 1).replace(
                    b"0.", b"Infinity, 0.", 3
                ),
            }
        ),
    )


def lying_cases(data: bytes, members: Members) -> Iterator[Case]:
    """Handmade: members that are not what they declare, or not what a game file holds."""
    text = members["game.json"]
    shot = next(name for name in sorted(members) if name.startswith("shots/"))
    for name in ("game.json", shot):
        real = zipfile.ZipFile(io.BytesIO(data)).getinfo(name)
        for size in (0, real.file_size // 2, real.file_size + 1, 2**31):
            yield Case(
                f"lying {name} declares {size} bytes", patched_header(data, name, "file_size", size)
            )
        for size in (0, real.compress_size // 2, real.compress_size + 100):
            yield Case(
                f"lying {name} declares {size} compressed bytes",
                patched_header(data, name, "compress_size", size),
            )
        yield Case(
            f"lying {name} declares another CRC", patched_header(data, name, "crc", real.CRC ^ 1)
        )
    yield Case(
        "lying a member 258 KB declared, 16 MB inflated",
        patched_header(
            zipped({**members, shot: b"\0" * 16 * 2**20}), shot, "file_size", 258 * 1024
        ),
    )
    yield Case("lying game.json twice", zipped([*members.items(), ("game.json", text)]))
    yield Case("lying a shot member twice", zipped([*members.items(), (shot, members[shot])]))
    yield Case("lying an unexpected member ../evil", zipped([*members.items(), ("../evil", b"x")]))
    yield Case("lying a member that is a folder", zipped([*members.items(), ("shots/", b"")]))
    yield Case("lying no game.json", zipped({k: v for k, v in members.items() if k != "game.json"}))
    yield Case("lying an empty zip", zipped({}))
    yield Case("lying an empty file", b"")
    stored = io.BytesIO()
    with zipfile.ZipFile(stored, "w", compression=zipfile.ZIP_STORED) as zf:
        for name, content in members.items():
            zf.writestr(name, content)
    yield Case("lying stored, not deflated", stored.getvalue())
    yield Case("lying the zip appended twice", data + data)
    yield Case("lying a prefix before the zip", b"#!/bin/sh\n" + data)


def cases(data: bytes, count: int, seed: int) -> Iterator[Case]:
    """``count`` cases, the families taken in turn (so a small set has each kind), the
    handmade oversized and lying ones first among theirs."""
    rng = random.Random(seed)
    members = read_members(data)
    families: list[Iterator[Case]] = [
        type_cases(members, random.Random(rng.random())),
        truncation_cases(data, random.Random(rng.random())),
        member_flip_cases(members, random.Random(rng.random())),
        oversized_cases(data, members),
        type_cases(members, random.Random(rng.random())),
        lying_cases(data, members),
        zip_flip_cases(data, random.Random(rng.random())),
    ]
    made = 0  # made one at a time: a large run never holds its cases all at once
    while made < count and families:
        for family in list(families):
            if made >= count:
                break
            case = next(family, None)
            if case is None:
                families.remove(family)
            else:
                made += 1
                yield case


# -- running a case, bounded ------------------------------------------------------------


def _rss_now() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _address_space() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _judge(path: Path) -> tuple[str, str]:
    """What loading ``path`` (and verifying what loads) gives: the result and a detail."""
    try:
        game = load(path)
    except GameFileError as error:
        text = str(error)
        if "\n" in text or not text.startswith(str(path)):
            return "refused in more than one line", text[:500]
        if len(text) > len(str(path)) + MAX_LINE:
            return f"refused in a line of {len(text)} characters", text[:500]
        return "refused", text
    checks = verify_game(game)
    same = sum(check.identical for check in checks)
    return "loaded", f"{len(game.records)} records, {same} of {len(checks)} shots identical"


def run_case(case: Case, folder: Path) -> Outcome:
    """``case`` loaded in a forked child: killed after CASE_SECONDS, its address space
    capped; a result other than "loaded" or "refused" is a failure."""
    path = folder / "case.poolsim"
    path.write_bytes(case.data)
    digest = hashlib.sha256(case.data).hexdigest()
    reader, writer = os.pipe()
    started = time.perf_counter()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child
        os.close(reader)
        status = 0
        try:
            at_fork = _rss_now()
            limit = _address_space() + CASE_ADDRESS_SPACE_EXTRA
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            try:
                result, detail = _judge(path)
            except BaseException as error:
                result = f"crashed: {type(error).__name__}"
                detail = traceback.format_exc()[-2000:]
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
            report = {"result": result, "detail": detail, "peak": peak, "growth": peak - at_fork}
            os.write(writer, json.dumps(report).encode())
        except BaseException:
            status = 1
        finally:
            os._exit(status)
    os.close(writer)
    chunks: list[bytes] = []
    deadline = started + CASE_SECONDS
    timed_out = False
    while True:
        left = deadline - time.perf_counter()
        if left <= 0:
            timed_out = True
            os.kill(child, signal.SIGKILL)
            break
        ready, _, _ = select.select([reader], [], [], left)
        if ready:
            chunk = os.read(reader, 65536)
            if not chunk:
                break
            chunks.append(chunk)
    os.close(reader)
    _, status = os.waitpid(child, 0)
    seconds = time.perf_counter() - started
    if timed_out:
        return Outcome(case.name, "timed out", f"after {CASE_SECONDS:.0f} s", seconds, 0, 0)
    if not chunks:
        return Outcome(case.name, "died", f"status {status}", seconds, 0, 0)
    report = json.loads(b"".join(chunks))
    result, detail = report["result"], report["detail"]
    if hashlib.sha256(path.read_bytes()).hexdigest() != digest:
        result, detail = "changed the file", detail
    elif report["growth"] > CASE_GROWTH_BYTES:
        result = f"used {report['growth'] / 2**20:.0f} MB ({result})"
    return Outcome(case.name, result, detail, seconds, report["peak"], report["growth"])


def summary(outcomes: list[Outcome]) -> str:
    refused = sum(o.result == "refused" for o in outcomes)
    loaded = sum(o.result == "loaded" for o in outcomes)
    slowest = max(outcomes, key=lambda o: o.seconds)
    hungriest = max(outcomes, key=lambda o: o.peak_rss)
    growth = max(outcomes, key=lambda o: o.growth)
    return (
        f"{len(outcomes)} cases (seed {SEED}): {refused} clean refusals, {loaded} loaded and "
        f"verified, {len(outcomes) - refused - loaded} failures; peak RSS "
        f"{hungriest.peak_rss / 2**20:.0f} MB ({hungriest.case}), largest growth over the "
        f"warm process {growth.growth / 2**20:.0f} MB ({growth.case}); slowest "
        f"{slowest.seconds:.2f} s ({slowest.case})"
    )


# -- the tests ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def base_file(played: Game, tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("fuzz") / "base.poolsim"
    save(played, path)
    return path.read_bytes()


def test_the_cases_are_the_same_for_a_seed(base_file: bytes) -> None:
    first = list(cases(base_file, 14, SEED))
    again = list(cases(base_file, 14, SEED))
    assert [c.name for c in first] == [c.name for c in again]
    assert [c.data for c in first] == [c.data for c in again]
    assert {c.name.split()[0] for c in first} == {"type", "truncate", "flip", "oversized", "lying"}


def test_the_base_file_loads_and_verifies(base_file: bytes, tmp_path: Path) -> None:
    outcome = run_case(Case("the match as saved", base_file), tmp_path)
    assert outcome.result == "loaded", outcome
    assert outcome.detail.endswith(" shots identical") and " 0 of" not in outcome.detail


def test_every_damaged_file_loads_or_is_one_clean_line(base_file: bytes, tmp_path: Path) -> None:
    outcomes = [run_case(case, tmp_path) for case in cases(base_file, CASES, SEED)]
    print("\n" + summary(outcomes))
    failures = [o for o in outcomes if o.result not in ("loaded", "refused")]
    assert not failures, "\n".join(f"{o.case}: {o.result}: {o.detail}" for o in failures[:20])
    assert sum(o.result == "refused" for o in outcomes) > len(outcomes) // 2


def _bomb(members: Members, inflated: int) -> bytes:
    """The file with a shot member of ``inflated`` bytes of zeros that declares 258 KB
    (written in chunks: the test itself stays small)."""
    shot = next(name for name in sorted(members) if name.startswith("shots/"))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for name, content in members.items():
            if name != shot:
                zf.writestr(name, content)
        with zf.open(shot, "w", force_zip64=False) as member:
            zeros = b"\0" * 2**20
            for _ in range(inflated // len(zeros)):
                member.write(zeros)
    return patched_header(buffer.getvalue(), shot, "file_size", 258 * 1024)


def test_a_member_that_inflates_far_past_its_declared_size_is_bounded(
    base_file: bytes, tmp_path: Path
) -> None:
    case = Case(
        "lying a member 258 KB declared, 320 MB inflated",
        _bomb(read_members(base_file), 400 * 2**20),
    )
    outcome = run_case(case, tmp_path)
    assert outcome.result == "refused", outcome
