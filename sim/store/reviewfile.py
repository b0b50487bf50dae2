"""A review kept as a file of its own (``poolsim review --save``): the review's JSON
object (:meth:`sim.play.review.Review.to_json`), carrying the digest of the game it was
made of, so it is never shown against another game, nor written over one of another."""

from __future__ import annotations

import contextlib
import glob
import json
from pathlib import Path

from rules.userfile import FileRefused, read_regular
from sim.files import write_atomically
from sim.paths import data_dir
from sim.play.review import Review, review_from_json

MAX_REVIEW_BYTES = 16 * 2**20  # a 10-rack match's review is about 200 KB


class ReviewFileError(ValueError):
    """A review file that cannot be used here (one line, its path first)."""


def save_review(review: Review, path: Path) -> None:
    """Write ``review`` to ``path`` (atomically: the old file stays whole until then)."""
    write_atomically(path, json.dumps(review.to_json(), indent=1).encode())


def load_review(path: Path) -> Review:
    """The review in ``path``; :class:`ReviewFileError` for anything else."""
    try:
        data = read_regular(path, MAX_REVIEW_BYTES, "a review file")
    except FileRefused as error:
        raise ReviewFileError(f"{path}: {error}") from None
    except OSError as error:
        raise ReviewFileError(f"{path}: cannot read: {error.strerror or error}") from None
    try:
        return review_from_json(json.loads(data))
    except (ValueError, KeyError, TypeError) as error:
        raise ReviewFileError(f"{path}: not a poolsim review ({error})") from None


def check_review_target(path: Path, digest: str) -> None:
    """A review of the game ``digest`` may be written to ``path``: nothing is there, or
    a review of the same game (made again, at another level or of another line);
    :class:`ReviewFileError` for a review of another game or any other file."""
    if not path.exists() and not path.is_symlink():
        return
    kept = load_review(path)
    if kept.digest != digest:
        raise ReviewFileError(
            f"{path} is the review of another game (digest {kept.digest[:12]}, this game's"
            f" is {digest[:12]}): refused, not written over"
        )


def review_beside(game_file: Path, level: str) -> Path:
    """Where ``poolsim review --racks`` keeps a game's review at ``level``: beside the
    game, named after it (``GAME.review-level5.json``), where :func:`find_review` finds
    it for the replay."""
    return game_file.with_name(f"{game_file.stem}.review-level{level}.json")


def kept_beside(game_file: Path, digest: str, level: str) -> Review | None:
    """The review of the game ``digest`` (its main line) at ``level`` kept beside
    ``game_file`` by an earlier run; None: none, or a file that is not one (it is made
    again and written over)."""
    path = review_beside(game_file, level)
    if not path.is_file():
        return None
    try:
        kept = load_review(path)
    except ReviewFileError:
        return None
    if kept.digest != digest or kept.level != level or kept.line != 0:
        return None
    return kept


REVIEWS_FOLDER = "reviews"  # in the user data folder: the window's reviews, by digest


def kept_review_path(digest: str) -> Path:
    """Where the window keeps the review of the game ``digest`` (the user data folder's
    ``reviews/DIGEST.json``), and looks for it first."""
    return data_dir() / REVIEWS_FOLDER / f"{digest}.json"


def find_review(digest: str, game_file: Path | None = None) -> Review | None:
    """A saved review of the game ``digest``: the window's own, or one ``poolsim review
    --save`` wrote beside ``game_file`` (a ``.json`` file of its folder whose name starts
    with the game file's, ``match.poolsim`` -> ``match.review.json``); the first whose
    digest is this game's. None: there is none (a file that is no review is passed over)."""
    places = [kept_review_path(digest)]
    if game_file is not None:
        with contextlib.suppress(OSError):
            places += sorted(game_file.parent.glob(f"{glob.escape(game_file.stem)}*.json"))
    for place in places:
        if not place.is_file():
            continue
        try:
            review = load_review(place)
        except ReviewFileError:
            continue
        if review.digest == digest:
            return review
    return None


def keep_review(review: Review) -> Path:
    """The window's review written where :func:`find_review` looks first."""
    path = kept_review_path(review.digest)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_review(review, path)
    return path
