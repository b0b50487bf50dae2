"""Writing a file or a folder so that a reader, a crash or a kill never sees half of it:
everything is written beside the target under a temporary name, flushed to disk, and
renamed onto the target only when whole. Game files, preferences and exports all write
this way. And a lock held by one process at a time (:func:`held_alone`), for the steps
several processes must not take at once (a first set-up, a damaged file moved aside)."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

try:  # POSIX; on Windows the lock is not taken (the steps it guards are rare there)
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]


@contextlib.contextmanager
def held_alone(lock_path: Path) -> Iterator[None]:
    """Held by one process at a time: an advisory lock on ``lock_path`` (made if need
    be), released when the block ends or the process dies. OSError if it cannot be
    opened."""
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(lock_path, "a+b")  # noqa: SIM115 (closed below, which unlocks it)
    try:
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield
    finally:
        handle.close()


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, flush it to disk, then rename
    it over ``path``: the old file stays whole until the new one is. A failure removes
    the temporary file and raises (OSError)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with replacing(path) as temporary, temporary.open("wb") as file:
        file.write(data)


@contextlib.contextmanager
def replacing(path: Path, *, keep_suffix: bool = False) -> Iterator[Path]:
    """A new, empty temporary file beside ``path`` for the caller to write (by name, as
    writers such as imageio want); when the block ends, it is flushed to disk and renamed
    over ``path``. If the block raises, the temporary file is removed and ``path`` left
    as it was. ``keep_suffix``: the temporary name ends in ``path``'s suffix (ffmpeg
    picks the container by it), else in ``.tmp`` (no reader takes it for the real file).
    The folder must exist; OSError if a file cannot be made there."""
    if keep_suffix:
        prefix, suffix = f".{path.stem}.", f".tmp{path.suffix}"
    else:
        prefix, suffix = f".{path.name}.", ".tmp"
    handle, name = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=path.parent)
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
        _flush(temporary)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _flush_folder(path.parent)


def remove_leftovers(path: Path) -> list[Path]:
    """Remove the temporary files a writer of ``path`` killed mid-write left beside it
    (named as :func:`replacing` names them); returns what was removed. Only for a caller
    that owns ``path`` now: another process writing it at this moment would lose its
    write (it fails, and says so)."""
    removed = []
    for leftover in path.parent.glob(f".{path.name}.*.tmp"):
        with contextlib.suppress(FileNotFoundError):
            leftover.unlink()
            removed.append(leftover)
    return removed


@contextlib.contextmanager
def replacing_folder(path: Path) -> Iterator[Path]:
    """A new temporary folder beside ``path`` for the caller to fill; when the block ends,
    it is renamed to ``path``, which must then be absent or an empty folder. If the block
    raises, the temporary folder and what it holds are removed. The parent must exist;
    OSError if a folder cannot be made there."""
    staging = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent))
    try:
        yield staging
        if path.is_dir():
            path.rmdir()  # empty, or this fails: the staging folder takes its place
        staging.rename(path)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _flush(path: Path) -> None:
    """The file's bytes on the disk, not only in the system's cache."""
    with path.open("rb") as file:
        os.fsync(file.fileno())


def _flush_folder(folder: Path) -> None:
    """A rename in ``folder`` made durable (POSIX; elsewhere a folder cannot be opened)."""
    if hasattr(os, "O_DIRECTORY"):
        directory = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


def output_problem(path: Path, *, folder: bool = False) -> str | None:
    """Why ``path`` cannot be written (as a file, or as a folder when ``folder``), said
    before any long work begins; None when it can. The folders missing on the way may be
    made (the writers make them): the nearest one that exists must be a folder this
    process can make files in, which is tried with a file made and removed at once."""
    try:
        return _output_problem(path, folder=folder)
    except OSError as error:  # a name too long, a loop of links...
        return f"cannot write {path}: {error.strerror or error}"


def _output_problem(path: Path, *, folder: bool) -> str | None:
    if path.exists() or path.is_symlink():
        if folder and not path.is_dir():
            return f"{path} is a file, not a folder"
        if not folder and path.is_dir():
            return f"{path} is a folder"
        if not folder and not path.is_file():
            return f"{path} is not a regular file"
    start = path if folder else path.parent
    existing = next((p for p in (start, *start.parents) if p.exists()), None)
    if existing is None:  # pragma: no cover - the root always exists
        return f"no folder on the way to {path} exists"
    if not existing.is_dir():
        return f"cannot write {path}: {existing} is a file, not a folder"
    try:
        handle, name = tempfile.mkstemp(prefix=".poolsim-probe.", suffix=".tmp", dir=existing)
    except OSError as error:
        return f"cannot write {path}: {existing}: {error.strerror or error}"
    os.close(handle)
    os.unlink(name)
    longest = 255 if not hasattr(os, "pathconf") else os.pathconf(existing, "PC_NAME_MAX")
    if any(len(part.encode()) > longest for part in path.relative_to(existing).parts):
        return f"cannot write {path}: a name on the way is longer than {longest} bytes"
    return None
