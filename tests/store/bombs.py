"""Game files that lie: a zip member whose deflated bytes inflate far past the size it
declares, built in a moment without inflating anything (a 4 GB member would take the
test a minute to compress): after a full flush deflate forgets what came before, so one
flushed block of a repeated chunk can be repeated as it is."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

CHUNK = 2**20
_DEFLATED = 8


def deflated_repeat(head: bytes, chunk: bytes, count: int) -> bytes:
    """Raw deflate of ``head`` followed by ``count`` copies of ``chunk``."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    start = compressor.compress(head) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    again = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    assert again == block, "a flushed block depends on what came before"
    return start + block * (count - 1) + again + compressor.flush()


def crc_of_repeat(head: bytes, chunk: bytes, count: int) -> int:
    crc = zlib.crc32(head)
    for _ in range(count):
        crc = zlib.crc32(chunk, crc)
    return crc


def write_zip(path: Path, members: list[tuple[str, bytes, int, int]]) -> Path:
    """A zip of deflated members, each ``(name, deflated bytes, declared size, crc)``, the
    declared size written in both the local and the central header, as it is."""
    local, central = bytearray(), bytearray()
    for name, data, size, crc in members:
        encoded = name.encode()
        offset = len(local)
        local += struct.pack(
            "<IHHHHHIIIHH", 0x04034B50, 20, 0, _DEFLATED, 0, 0x21, crc, len(data), size,
            len(encoded), 0,
        )  # fmt: skip
        local += encoded + data
        central += struct.pack(
            "<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, _DEFLATED, 0, 0x21, crc, len(data),
            size, len(encoded), 0, 0, 0, 0, 0, offset,
        )  # fmt: skip
        central += encoded
    end = struct.pack(
        "<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(central), len(local), 0
    )
    path.write_bytes(bytes(local + central + end))
    return path


def lying_member(path: Path, name: str = "game.json", gigabytes: int = 4) -> Path:
    """The issue's file: a member that declares 258 KB and inflates to ``gigabytes`` of
    zeros (its CRC is of the 258 KB it declares, so only inflating past them shows it)."""
    declared = 258 * 1024
    zeros = bytes(CHUNK)
    data = deflated_repeat(b"", zeros, gigabytes * 1024)
    return write_zip(path, [(name, data, declared, zlib.crc32(bytes(declared)))])


def whitespace_around(path: Path, document: bytes, megabytes: int = 900) -> Path:
    """The issue's other file: a valid ``game.json`` followed by ``megabytes`` of spaces,
    its size declared honestly."""
    spaces = b" " * CHUNK
    data = deflated_repeat(document, spaces, megabytes)
    size = len(document) + megabytes * CHUNK
    return write_zip(path, [("game.json", data, size, crc_of_repeat(document, spaces, megabytes))])
