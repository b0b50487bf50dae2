"""The commands on files: ``poolsim verify`` (a saved game simulated again),
``poolsim position`` (the position before a shot, written as a file) and
``poolsim rules check`` (the referee against scenario files)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from sim.cli.flags import branch_option, check_output
from sim.cli.values import WholeNumber


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
