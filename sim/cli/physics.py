"""The physics on its own: ``poolsim simulate`` (a rack broken, in one line or as the
scenario format's JSON), ``poolsim warmup`` (the physics compiled) and ``poolsim bench``
(figures measured on this machine)."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

import click

from rules.games import DEFAULT_GAME
from sim.cli.flags import game_option, json_option, seed_option, table_option
from sim.cli.values import FiniteFloat, WholeNumber, shown
from sim.limits import MAX_AIM_DEGREES

if TYPE_CHECKING:
    from sim.physics.simulate import CueAction, SimulatedShot


def _parse_spin(
    _ctx: click.Context, _param: click.Parameter, value: str | None
) -> tuple[float, float]:
    if value is None:
        return (0.0, 0.0)
    parts = value.split(",")
    try:
        a, b = (float(part) for part in parts)
    except ValueError:
        raise click.BadParameter(f"expected two numbers A,B, got {shown(value)}") from None
    if not (math.isfinite(a) and math.isfinite(b)):
        raise click.BadParameter(f"expected two finite numbers A,B, got {shown(value)}")
    return (a, b)


@click.command()
@game_option(DEFAULT_GAME)
@seed_option(1, help="Seed of the rack's random balls.")
@table_option
@click.option(
    "--speed", type=FiniteFloat(), default=8.0, show_default=True, help="Cue-stick speed, m/s."
)
@click.option(
    "--aim",
    type=FiniteFloat(-MAX_AIM_DEGREES, MAX_AIM_DEGREES),
    default=None,
    help=(
        "Aim in degrees, -360 to 360 (0 = +x, 90 = up the table). Default: at the apex "
        "ball (the 1; in 8-ball whichever ball the seed racks there)."
    ),
)
@click.option(
    "--elevation",
    type=FiniteFloat(),
    default=0.0,
    show_default=True,
    help="Cue elevation, degrees.",
)
@click.option(
    "--spin",
    callback=_parse_spin,
    default=None,
    metavar="A,B",
    help="Tip offsets in ball radii: A side (+ = left), B height (+ = follow).",
)
@json_option("Print the shot as JSON (scenario format vocabulary).")
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
    from rules.facts import CUE, facts_to_json
    from sim.physics.racks import opening_position
    from sim.physics.simulate import CueAction, PlacementError, aim_towards, simulate_shot
    from sim.physics.table import table_spec

    spec = table_spec(table_size)
    balls = opening_position(game, spec.geometry, seed)
    apex = min((b for b in balls if b != CUE), key=lambda b: balls[b][1])
    try:
        action = CueAction(
            speed=speed,
            aim=aim_towards(balls[CUE], balls[apex]) if aim is None else aim % 360.0,
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
    from rules.positions import describe
    from rules.words import pocket_name

    first = next((f.other(CUE) for f in shot.facts if isinstance(f, Hit) and f.involves(CUE)), None)
    pocketed = [
        f"{describe([f.ball])} in the {pocket_name(f.pocket)}"
        for f in shot.facts
        if isinstance(f, Pocketing)
    ]
    railed = {f.ball for f in shot.facts if isinstance(f, RailContact) and f.ball != CUE}
    lost = [describe([f.ball]) for f in shot.facts if isinstance(f, OffTable)]
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


@click.command()
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
        from sim.paths import numba_cache_dir
        from sim.physics.simulators.warmup import warm_up

        def on_step(done: int, total: int, label: str) -> None:
            progress.update(
                task, completed=done, total=total, description=f"Compiling physics: {label}"
            )

        seconds = warm_up(on_step)
        progress.update(task, description="Physics compiled")
    size = sum(f.stat().st_size for f in numba_cache_dir().rglob("*") if f.is_file())
    click.echo(f"ready in {seconds:.1f} s; numba cache: {numba_cache_dir()} ({size / 1e6:.1f} MB)")


@click.command()
@json_option("Print the figures as JSON.")
@click.option(
    "--repeats", type=WholeNumber(1, 100), default=9, show_default=True, help="Breaks per game."
)
@click.option(
    "--render",
    is_flag=True,
    help="Also time the desktop table's frames (both presets) and the computer thinking "
    "while it draws.",
)
@click.option(
    "--startup",
    is_flag=True,
    help="Also time launches: to the start screen, to a table, to the physics ready.",
)
def bench(as_json: bool, repeats: int, render: bool, startup: bool) -> None:
    """Measure simulation speed and overheads on this machine."""
    from sim.bench import format_report, run_bench

    report = run_bench(repeats, render=render, startup=startup)
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        for line in format_report(report):
            click.echo(line)
