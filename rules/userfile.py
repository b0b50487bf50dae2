"""Opening a file a user names: a regular file only, and never more of it than its kind
can hold.

Every reader of a user's file goes through here: scenario files (:mod:`rules.scenarios`,
so this is the lowest floor, ``rules``, which may not import ``sim``), game files and
pooltool's shots (``sim.store.gamefile``), the saved-games list, preferences and scripts.
``/dev/zero`` would be read for ever, a FIFO would block the open until a writer came,
and a folder or a device is no document: each is refused by its ``stat`` before it is
opened, and again by ``fstat`` after (so a file swapped in between is caught too), and
the open itself never blocks (``O_NONBLOCK``). Reading stops at the reader's limit even if
the file grows while it is read.

Pure in the sense ``rules`` keeps: no clock and no randomness, only the file asked for.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

# A FIFO opened for reading waits for a writer unless the open does not block; POSIX only.
_NONBLOCKING = getattr(os, "O_NONBLOCK", 0)
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class FileRefused(ValueError):
    """A file that is not read: it is not a regular file, or is larger than its kind can
    be. One line, without the path (the reader puts its own first)."""


def open_regular(path: Path, limit: int, kind: str) -> BinaryIO:
    """``path`` opened for reading in binary, if it is a regular file of at most ``limit``
    bytes; else :class:`FileRefused` naming ``kind`` ("a scenario file"), or OSError
    if it cannot be opened (each reader words that its own way). The caller still bounds
    what it reads (the file may grow): :func:`read_regular` does."""
    _check(os.stat(path), limit, kind)
    descriptor = os.open(path, os.O_RDONLY | _NONBLOCKING | getattr(os, "O_BINARY", 0))
    try:
        _check(os.fstat(descriptor), limit, kind)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def read_regular(path: Path, limit: int, kind: str) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes, read to at most
    ``limit`` bytes (:class:`FileRefused` or OSError otherwise, as :func:`open_regular`)."""
    with open_regular(path, limit, kind) as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise FileRefused(too_large(len(data), limit, kind))
    return data


def too_large(size: int, limit: int, kind: str) -> str:
    """The words for a file or a part of one past its limit."""
    return f"{size_words(size)} is larger than {kind} can be (at most {size_words(limit)})"


def size_words(size: int) -> str:
    """A size in the words a player reads: ``258 KB``, ``4.3 MB``."""
    return f"{size / 2**10:.0f} KB" if size < 2**20 else f"{size / 2**20:.1f} MB"


def _check(status: os.stat_result, limit: int, kind: str) -> None:
    for is_kind, name in _KINDS:
        if is_kind(status.st_mode):
            raise FileRefused(f"not a regular file ({name})")
    if not stat.S_ISREG(status.st_mode):
        raise FileRefused("not a regular file")
    if status.st_size > limit:
        raise FileRefused(too_large(status.st_size, limit, kind))
