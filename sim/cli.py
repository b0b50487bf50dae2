"""The ``poolsim`` command.

Heavy imports (pooltool, numba) happen inside the commands that need them, so ``--help``
and argument errors answer at once. Every error is one line on stderr: bad flags or values
exit with status 2, as does any other bad input; no traceback reaches the user.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from sim.racks import GAMES

if TYPE_CHECKING:
    from sim.physics import CueAction, SimulatedShot

TABLES = ("9ft", "8ft", "7ft")


def _parse_spin(
    _ctx: click.Context, _param: click.Parameter, value: str | None
) -> tuple[float, float]:
    if value is None:
        return (0.0, 0.0)
    parts = value.split(",")
    try:
        a, b = (float(part) for part in parts)
    except ValueError:
        raise click.BadParameter(f"expected two numbers A,B, got {value!r}") from None
    return (a, b)


@click.group(invoke_without_command=True)
@click.version_option(package_name="poolsim", prog_name="poolsim")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """poolsim: a physics-based pool simulator for WPA 10-ball and 61-point rotation."""
    if ctx.invoked_subcommand is None:
        # The desktop table is not built yet; until it is, the bare command shows help.
        click.echo(ctx.get_help())


@cli.command()
@click.option("--game", type=click.Choice(GAMES), default="ten-ball", show_default=True)
@click.option(
    "--seed", type=int, default=1, show_default=True, help="Seed of the rack's random balls."
)
@click.option("--table", "table_size", type=click.Choice(TABLES), default="9ft", show_default=True)
@click.option("--speed", type=float, default=8.0, show_default=True, help="Cue-stick speed, m/s.")
@click.option(
    "--aim",
    type=float,
    default=None,
    help="Aim in degrees (0 = +x, 90 = up the table). Default: at the 1.",
)
@click.option(
    "--elevation", type=float, default=0.0, show_default=True, help="Cue elevation, degrees."
)
@click.option(
    "--spin",
    callback=_parse_spin,
    default=None,
    metavar="A,B",
    help="Tip offsets in ball radii: A side (+ = left), B height (+ = follow).",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the shot as JSON (scenario format vocabulary)."
)
def simulate(
    game: str,
    seed: int,
    table_size: str,
    speed: float,
    aim: float | None,
    elevation: float,
    spin: tuple[float, float],
    as_json: bool,
) -> None:
    """Rack a game and break: one line summary, or the shot as JSON."""
    if aim is not None and not math.isfinite(aim):
        raise click.BadParameter(f"must be finite, got {aim}", param_hint="'--aim'")
    from rules.facts import CUE, facts_to_json
    from sim.physics import CueAction, PlacementError, aim_towards, simulate_shot
    from sim.racks import opening_position
    from sim.table import table_spec

    spec = table_spec(table_size)
    balls = opening_position(game, spec.geometry, seed)
    try:
        action = CueAction(
            speed=speed,
            aim=aim_towards(balls[CUE], balls["1"]) if aim is None else aim,
            elevation=elevation,
            a=spin[0],
            b=spin[1],
        )
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    try:
        shot = simulate_shot(spec, balls, action)
    except PlacementError as error:
        raise click.UsageError(str(error)) from None
    if as_json:
        document = {
            "table": {"width": spec.width, "length": spec.length, "ball_radius": spec.ball_radius},
            "before": {"balls": _rounded_positions(shot.before)},
            "shot": {
                "events": [_rounded_times(event) for event in facts_to_json(shot.facts)],
                "after": _rounded_positions(shot.after),
            },
        }
        click.echo(json.dumps(document, indent=2))
    else:
        click.echo(_summary(game, seed, table_size, action, shot))


def _rounded_positions(positions: dict[str, tuple[float, float]]) -> dict[str, list[float]]:
    return {ball: [round(x, 6), round(y, 6)] for ball, (x, y) in positions.items()}


def _rounded_times(event: dict[str, Any]) -> dict[str, Any]:
    return {**event, "t": round(event["t"], 6)} if "t" in event else event


def _summary(game: str, seed: int, table_size: str, action: CueAction, shot: SimulatedShot) -> str:
    from rules.facts import CUE, Hit, OffTable, Pocketing, RailContact

    first = next((f.other(CUE) for f in shot.facts if isinstance(f, Hit) and f.involves(CUE)), None)
    pocketed = [f"{f.ball} in {f.pocket}" for f in shot.facts if isinstance(f, Pocketing)]
    railed = {f.ball for f in shot.facts if isinstance(f, RailContact) and f.ball != CUE}
    lost = [f.ball for f in shot.facts if isinstance(f, OffTable)]
    parts = [
        f"{game} break, seed {seed}, {table_size}: "
        f"speed {action.speed:g} m/s at {action.aim:.1f} deg",
        f"cue ball first hit {'the ' + first if first else 'nothing'}",
        f"pocketed {', '.join(pocketed) if pocketed else 'nothing'}",
        f"{len(railed)} object balls to a rail",
    ]
    if lost:
        parts.append(f"off the table: {', '.join(lost)}")
    parts.append(
        f"{len(shot.system.events)} events, {shot.system.t:.2f} s of motion, "
        f"simulated in {shot.physics_seconds * 1e3:.0f} ms"
    )
    return "; ".join(parts)


@cli.command()
def warmup() -> None:
    """Compile pooltool's physics now (first run: about 40 s; then cached)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        transient=False,
    ) as progress:
        task = progress.add_task("Loading pooltool", total=None)
        from sim.pooltool_setup import numba_cache_dir
        from sim.warmup import warm_up

        def on_step(done: int, total: int, label: str) -> None:
            progress.update(
                task, completed=done, total=total, description=f"Compiling physics: {label}"
            )

        seconds = warm_up(on_step)
        progress.update(task, description="Physics compiled")
    size = sum(f.stat().st_size for f in numba_cache_dir().rglob("*") if f.is_file())
    click.echo(f"ready in {seconds:.1f} s; numba cache: {numba_cache_dir()} ({size / 1e6:.1f} MB)")


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option(
    "--repeats", type=click.IntRange(1, 100), default=9, show_default=True, help="Breaks per game."
)
def bench(as_json: bool, repeats: int) -> None:
    """Measure simulation speed and overheads on this machine."""
    from sim.bench import format_report, run_bench

    report = run_bench(repeats)
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        for line in format_report(report):
            click.echo(line)


@cli.group()
def rules() -> None:
    """The referee: conformance scenarios."""


@rules.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
def rules_check(files: tuple[Path, ...]) -> None:
    """Run adjudication scenario FILES (the poolsim-scenarios format)."""
    from rules.conformance import check_files

    sys.exit(check_files(list(files), sys.stdout))


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: click's errors as one line, status 2."""
    try:
        status = cli.main(args=argv, prog_name="poolsim", standalone_mode=False)
    except click.UsageError as error:
        where = error.ctx.command_path if error.ctx else "poolsim"
        click.echo(f"{where}: error: {error.format_message()}", err=True)
        sys.exit(2)
    except click.ClickException as error:
        click.echo(f"poolsim: error: {error.format_message()}", err=True)
        sys.exit(error.exit_code)
    except click.Abort:
        click.echo("poolsim: aborted", err=True)
        sys.exit(130)
    sys.exit(status if isinstance(status, int) else 0)
