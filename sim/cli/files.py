"""The commands on files: ``poolsim verify`` (a saved game simulated again),
``poolsim position`` (the position before a shot, written as a file), ``poolsim
review`` (a saved game judged shot by shot, docs/REVIEW.md) and ``poolsim rules check``
(the referee against scenario files)."""

from __future__ import annotations

import json
import os
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from sim.cli.flags import (
    branch_option,
    check_output,
    check_spreading,
    cluster_client,
    json_option,
    refuse_unused,
    scheduler_option,
    workers_option,
)
from sim.cli.values import LEVEL, WholeNumber


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--decisions",
    is_flag=True,
    help="Also decide each computer's shot again (its level and seed) and check it is the same.",
)
def verify(file: Path, decisions: bool) -> None:
    """Re-simulate every shot of a saved game, in every branch, and compare with what was
    recorded."""
    from sim.store.gamefile import GameFileError, load

    try:
        game = load(file)  # a file missing or refused is said before pooltool is imported
    except GameFileError as error:
        raise click.ClickException(str(error)) from None
    from sim.store.verify import (
        arithmetic_note,
        game_verdict,
        lines_in_words,
        shot_verdict,
        verify_decisions,
        verify_game,
        verify_time_fouls,
    )

    checks = verify_game(game)
    for check in checks:
        click.echo(f"{check.label}: {shot_verdict(check)}")
    time_fouls = verify_time_fouls(game)
    for foul in time_fouls:
        click.echo(f"{foul.label}: {'ruled the same' if foul.same else 'DIFFERS: another ruling'}")
    misruled = sum(not foul.same for foul in time_fouls)
    lines = lines_in_words(game)
    decided = verify_decisions(game) if decisions else []
    for decision in decided:
        verdict = "the same decision" if decision.same else "DIFFERS: another decision"
        click.echo(f"{decision.label}, computer (level {decision.level}): {verdict}")
    changed = sum(not decision.same for decision in decided)
    differing = sum(not check.consistent for check in checks)
    if differing or changed or misruled:
        if differing:
            click.echo(f"{differing} of {len(checks)} shots differ ({lines})")
        if misruled:
            click.echo(f"{misruled} of {len(time_fouls)} time fouls are ruled otherwise")
        if changed:
            click.echo(f"{changed} of {len(decided)} computer's decisions differ")
        sys.exit(1)
    note = arithmetic_note(checks)
    if note is not None:
        click.echo(note)
    click.echo(f"{len(checks)} shots re-simulated, in {lines}: {game_verdict(checks)}")
    if time_fouls:
        click.echo(f"{len(time_fouls)} time fouls ruled again: all the same")
    if decisions:
        click.echo(f"{len(decided)} computer's decisions made again: all the same")


def load_shot(file: Path, shot: int, branch: int | None = None) -> tuple[Any, Any]:
    """A saved game and the node of its shot number ``shot`` (from 1): along the line the
    match is at, or along line ``branch`` (0: the main line, then the branches as the
    game file numbers them, counted from the match's first shot); or a one-line error."""
    from sim.play.game import GameError
    from sim.store.gamefile import GameFileError, load

    try:
        game = load(file)
    except GameFileError as error:
        raise click.ClickException(str(error)) from None
    if branch is None:
        shots = game.shot_nodes()
        line = "the game"
    else:
        try:
            shots = game.line_shot_nodes(branch)
        except GameError as error:
            raise click.BadParameter(str(error), param_hint="'--branch'") from None
        line = "the main line" if branch == 0 else f"branch {branch}"
    if not shots:
        raise click.ClickException(f"{file}: {line} has no shots yet")
    if not 1 <= shot <= len(shots):
        raise click.BadParameter(f"{line} has shots 1 to {len(shots)}", param_hint="'--shot'")
    return game, shots[shot - 1]


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--shot",
    type=WholeNumber(1, 1_000_000),
    required=True,
    help="The position before this shot of the game (from 1).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="The position file to write (JSON, docs/POSITION.md).",
)
@branch_option
def position(file: Path, shot: int, output: Path, branch: int | None) -> None:
    """Write the position before one shot of a saved game: the balls, whose turn, and the
    cue ball in hand as the match had them."""
    check_output(output, "-o")
    from sim.play.position import PositionError, position_before
    from sim.store.positionfile import save_position

    game, node = load_shot(file, shot, branch)
    try:
        taken = position_before(game, node)
    except PositionError as error:  # a ball the physics eased across the head string...
        raise click.ClickException(
            f"{file}: the position before shot {shot} is not one a table can play: {error}"
        ) from None
    try:
        save_position(taken, output)
    except OSError as error:
        raise click.ClickException(f"cannot write {output}: {error.strerror or error}") from None
    click.echo(f"wrote {output}")


@click.group()
def rules() -> None:
    """The referee: conformance scenarios."""


@rules.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
def rules_check(files: tuple[Path, ...]) -> None:
    """Run adjudication scenario FILES (the poolsim-scenarios format)."""
    from rules.conformance import check_files

    sys.exit(check_files(list(files), sys.stdout, sys.stderr))


@click.command()
@click.argument("file", required=False, type=click.Path(path_type=Path))
@click.option(
    "--level",
    type=LEVEL,
    default="5",
    show_default=True,
    help=(
        "The computer level that reviews: its search finds the best option, its noise"
        " values strokes."
    ),
)
@click.option(
    "--branch",
    type=WholeNumber(0, 1_000_000),
    default=0,
    show_default=True,
    help="The line to review: 0 the main line, then the branches as docs/GAMEFILE.md numbers them.",
)
@click.option(
    "--racks",
    "racks_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help=(
        "Review every game file of this folder (a duel's --save) instead of FILE: per computer"
        " level, the accuracy and the mean luck with its standard error."
    ),
)
@json_option("Print the review as one JSON object.")
@workers_option("Processes to review shots on (default: one per core).")
@scheduler_option("Review the shots on the Dask cluster of this scheduler (tcp://HOST:PORT).")
@click.option(
    "--save",
    "save_to",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help=(
        "Write the review to this file, with the game's digest (a review of another game"
        " there is refused)."
    ),
)
def review(
    file: Path | None,
    level: str,
    branch: int,
    racks_dir: Path | None,
    as_json: bool,
    workers: int | None,
    scheduler: str | None,
    save_to: Path | None,
) -> None:
    """Review a saved game as a chess engine reviews one: per shot the best option's
    value, the chosen stroke's and what happened, its tag (best, good, inaccuracy,
    mistake, blunder), skill and luck; per player the accuracy and the costliest shots
    (docs/REVIEW.md)."""
    check_spreading(workers, scheduler)
    check_output(save_to, "--save")
    if (file is None) == (racks_dir is None):
        raise click.UsageError("give a game FILE or --racks DIR (one of them)")
    ctx = click.get_current_context()
    if racks_dir is not None:
        refuse_unused(ctx, {"branch": "--branch", "save_to": "--save"}, "applies to one game FILE")
    spreading = {"workers": workers or os.cpu_count() or 1, "scheduler": scheduler}
    if file is not None:
        _review_one(file, level, branch, spreading, as_json, save_to)
    else:
        assert racks_dir is not None
        _review_folder(racks_dir, level, spreading, as_json)


def _loaded(file: Path) -> Any:
    """A game file, loaded, or its one line."""
    from sim.store.gamefile import GameFileError, load

    try:
        return load(file)
    except GameFileError as error:
        raise click.ClickException(str(error)) from None


def _review_one(
    file: Path,
    level: str,
    branch: int,
    spreading: dict[str, Any],
    as_json: bool,
    save_to: Path | None,
) -> None:
    """``poolsim review FILE``: checked (the game, its line, the file to save to), then
    judged with a progress bar on a terminal, printed and saved."""
    from sim.play.game import GameError
    from sim.play.review import review_jobs
    from sim.play.review.summary import Review
    from sim.play.review.words import player_lines, step_line
    from sim.store.gamefile import game_digest
    from sim.store.reviewfile import ReviewFileError, check_review_target, save_review

    game = _loaded(file)
    digest = game_digest(game)
    try:
        jobs = review_jobs(game, digest, level, branch)
    except GameError as error:
        raise click.BadParameter(str(error), param_hint="'--branch'") from None
    if not jobs:
        raise click.ClickException(f"{file}: the line has no shots to review")
    if save_to is not None:
        try:
            check_review_target(save_to, digest)
        except ReviewFileError as error:
            raise click.ClickException(str(error)) from None
    judged = _judged(jobs, spreading, f"reviewing at level {level}")
    review = Review(digest, level, branch, tuple(judged))
    if as_json:
        click.echo(json.dumps(review.to_json()))
    else:
        for step in review.steps:
            click.echo(step_line(step))
        for line in player_lines(review, game.setup.players):
            click.echo(line)
    if save_to is not None:
        try:
            save_review(review, save_to)
        except OSError as error:
            raise click.ClickException(
                f"cannot write {save_to}: {error.strerror or error}"
            ) from None
        if not as_json:
            click.echo(f"wrote {save_to}")


def _judged(
    jobs: list[Any],
    spreading: dict[str, Any],
    what: str,
    on_step: Callable[[int, Any], None] | None = None,
) -> list[Any]:
    """The jobs judged, with a progress bar on a terminal (none when piped);
    ``on_step(index, step)`` hears of each job judged."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from sim.play.review import judge_all

    scheduler = spreading["scheduler"]
    client = cluster_client(scheduler) if scheduler is not None else None
    console = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=not console.is_terminal,
    ) as progress:
        task = progress.add_task(what, total=len(jobs))
        try:
            return judge_all(
                jobs,
                workers=spreading["workers"],
                scheduler=scheduler,
                client=client,
                on_step=lambda index, step: _advanced(progress, task, on_step, index, step),
            )
        except Exception as error:
            from sim.play.cluster import ClusterError

            if isinstance(error, ClusterError):
                raise click.ClickException(str(error)) from None
            raise


def _advanced(
    progress: Any,
    task: Any,
    on_step: Callable[[int, Any], None] | None,
    index: int,
    step: Any,
) -> None:
    progress.advance(task)
    if on_step is not None:
        on_step(index, step)


def _review_folder(folder: Path, level: str, spreading: dict[str, Any], as_json: bool) -> None:
    """``poolsim review --racks DIR``: every game file of a duel's folder reviewed (the
    main line of each), and per computer level (and for a person's shots) the shots'
    accuracy and mean luck with its standard error. Each game's review is kept beside it
    as it is finished (``GAME.review-LEVEL.json``, where the replay finds it too), and a
    review kept there already is used again: a run stopped part way goes on from the
    games it finished."""
    from sim.play.review import Collected, Review, luck_figure, review_jobs
    from sim.store.gamefile import game_digest
    from sim.store.reviewfile import kept_beside, review_beside, save_review

    files = sorted(folder.glob("*.poolsim"))
    if not files:
        raise click.ClickException(f"{folder}: no game files (*.poolsim) in it")
    reviews: list[Review | None] = []
    games_jobs: list[list[Any]] = []  # each game's jobs (its steps, who played them)
    jobs: list[Any] = []  # those still to judge
    # Each of those's game (its place in files) and its place among that game's jobs.
    owners: list[tuple[int, int]] = []
    collecting: dict[int, Collected] = {}  # the games being reviewed, by their place
    for index, path in enumerate(files):
        game = _loaded(path)
        digest = game_digest(game)
        games_jobs.append(review_jobs(game, digest, level))
        reviews.append(kept_beside(path, digest, level))
        if reviews[-1] is None:
            collecting[index] = Collected(games_jobs[-1], digest, level, 0)
            jobs += games_jobs[-1]
            owners += [(index, place) for place in range(len(games_jobs[-1]))]

    def finished_step(job_index: int, step: Any) -> None:
        owner, place = owners[job_index]
        collected = collecting[owner]
        collected.judged[place] = step
        review = collected.review()
        if review is not None:
            reviews[owner] = review
            path = review_beside(files[owner], level)
            try:
                save_review(review, path)
            except OSError as error:
                raise click.ClickException(
                    f"cannot write {path}: {error.strerror or error}"
                ) from None

    if jobs:
        what = f"reviewing {len(collecting)} games at level {level}"
        _judged(jobs, spreading, what, finished_step)
    by_level: dict[str, list[Any]] = {}
    for game_jobs, review in zip(games_jobs, reviews, strict=True):
        assert review is not None
        for job, step in zip(game_jobs, review.steps, strict=True):
            computer = job.step.computer
            if step.kind == "shot":
                played = f"computer {computer.level}" if computer is not None else "person"
                by_level.setdefault(played, []).append(step)
    report = {}
    for played, steps in sorted(by_level.items()):
        luck, error = luck_figure(steps)
        report[played] = {
            "shots": len(steps),
            "accuracy": statistics.fmean(s.accuracy for s in steps),
            "luck": luck,
            "luck_standard_error": error,
        }
    if as_json:
        click.echo(json.dumps({"games": len(files), "level": level, "levels": report}))
        return
    click.echo(f"{len(files)} games reviewed at level {level}")
    for played, figures in report.items():
        click.echo(
            f"{played}: {figures['shots']} shots, accuracy {figures['accuracy']:.1f} %,"
            f" luck {100 * figures['luck']:+.2f} ± {100 * figures['luck_standard_error']:.2f}"
            " points (mean ± standard error)"
        )
