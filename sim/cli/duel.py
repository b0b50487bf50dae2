"""``poolsim duel``: two computer players, on this machine's processes or a Dask cluster,
and the figures of each side."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from rules.games import DEFAULT_GAME, game_kind
from sim.cli.flags import (
    check_output,
    check_spreading,
    chosen_rules,
    cluster_client,
    game_option,
    json_option,
    rule_flags,
    save_folder_option,
    scheduler_option,
    seed_option,
    table_option,
    workers_option,
)
from sim.cli.values import LEVEL, WholeNumber

MAX_DUEL_RACKS = 10_000


@click.command()
@game_option(DEFAULT_GAME)
@click.option("--a", "level_a", type=LEVEL, required=True, help="A's level.")
@click.option("--b", "level_b", type=LEVEL, required=True, help="B's level.")
@click.option(
    "--racks",
    type=WholeNumber(1, MAX_DUEL_RACKS),
    default=10,
    show_default=True,
    help="Racks (of 14.1: games, each to --points).",
)
@seed_option(1)
@table_option
@rule_flags
@workers_option("Processes to play racks on (default: one per core).")
@json_option("Print the figures as one JSON object.")
@scheduler_option("Play the racks on the Dask cluster of this scheduler (tcp://HOST:PORT).")
@save_folder_option(
    help=(
        "Folder to keep every rack in, as a game file and its figures (created if needed);"
        " a duel started again with the same folder plays only the racks not in it yet."
    ),
)
def duel(
    game: str,
    level_a: str,
    level_b: str,
    racks: int,
    seed: int,
    table_size: str,
    workers: int | None,
    as_json: bool,
    scheduler: str | None,
    save_dir: Path | None,
    **rule_values: Any,
) -> None:
    """Two computer players (levels 1 to 5, or perfect) play RACKS racks, A breaking the
    first and every other one; the figures of each side. The same seed plays the same
    racks on any number of workers, or on a Dask cluster (--scheduler). Ctrl-C stops it
    and prints the racks finished."""
    import os

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    check_spreading(workers, scheduler)
    check_output(save_dir, "--save", folder=True)
    from rules import Options
    from sim.play.duel import DuelInterrupted, DuelSetup, RackOutcome, figures, run_duel
    from sim.store.duelfile import DuelFileError, finished_racks, rack_stem, save_rack
    from sim.store.gamefile import to_bytes

    rules = chosen_rules(click.get_current_context(), game_kind(game), rule_values)
    setup = DuelSetup(
        options=Options.from_mapping(rules),
        game=game,
        levels=(level_a, level_b),
        racks=racks,
        seed=seed,
        table=table_size,
        names=duel_names(level_a, level_b),
    )
    done: dict[int, RackOutcome] = {}
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
        try:
            done = finished_racks(save_dir, setup)
        except DuelFileError as error:
            raise click.ClickException(str(error)) from None

    def keep(outcome: RackOutcome) -> None:
        if save_dir is None:
            return
        try:
            save_rack(save_dir, setup, outcome)
        except OSError as error:
            where = save_dir / rack_stem(setup, outcome.index)
            raise click.ClickException(
                f"cannot save {where}: {error.strerror or error}; the racks saved before are kept"
            ) from None

    client = cluster_client(scheduler) if scheduler is not None else None
    wins = {"A": 0, "B": 0}
    for outcome in done.values():
        if outcome.winner is not None:
            wins[outcome.winner.value] += 1
    console = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("A {task.fields[a]} - {task.fields[b]} B"),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        task = progress.add_task(
            f"{game}: racks", total=racks, completed=len(done), a=wins["A"], b=wins["B"]
        )
        if done:
            console.print(
                f"{len(done)} of {racks} racks already played, in {save_dir}: "
                f"the duel goes on from them (A {wins['A']} - {wins['B']} B)"
            )

        def on_rack(outcome: RackOutcome) -> None:
            keep(outcome)
            if outcome.winner is not None:
                wins[outcome.winner.value] += 1
            progress.update(task, advance=1, a=wins["A"], b=wins["B"])
            if not console.is_terminal:  # a log has no bar: a line a rack instead
                winner = f"{outcome.winner.value} won" if outcome.winner else "not won"
                console.print(
                    f"rack {outcome.index + 1} of {racks}: {winner} (A {wins['A']} - {wins['B']} B)"
                )

        encode = to_bytes if save_dir is not None else None
        try:
            if scheduler is not None:
                from sim.play.cluster import ClusterError, run_on_cluster

                try:
                    outcomes = run_on_cluster(setup, scheduler, on_rack, encode, done, client)
                except ClusterError as error:
                    kept = f": the racks finished are kept in {save_dir}" if save_dir else ""
                    raise click.ClickException(f"{error}{kept}") from None
            else:
                outcomes = run_duel(setup, workers or os.cpu_count() or 1, on_rack, encode, done)
            stopped = False
        except DuelInterrupted as interrupted:
            outcomes, stopped = interrupted.finished, True
    _print_duel(figures(setup, outcomes), as_json)
    if stopped:
        click.echo(f"poolsim duel: stopped after {len(outcomes)} of {racks} racks", err=True)
        sys.exit(130)


def duel_names(level_a: str, level_b: str) -> tuple[str, str]:
    """The computer players' names in a duel's game files (and so in the statistics):
    "computer 3" by its level, with its side when both play at one level."""
    if level_a != level_b:
        return (f"computer {level_a}", f"computer {level_b}")
    return (f"computer {level_a} A", f"computer {level_b} B")


DUEL_ROWS = (
    ("level", "level"),
    ("racks_won", "racks won"),
    ("breaks", "breaks"),
    ("break_and_runs", "break and runs"),
    ("shots", "shots"),
    ("fouls", "fouls"),
    ("called_pots_attempted", "called pots attempted"),
    ("called_pots_made", "called pots made"),
    ("safeties", "safeties"),
    ("think_seconds_median", "thinking, median s/shot"),
    ("think_seconds_p95", "thinking, 95th percentile"),
    ("break_and_run_percent", "break-and-runs, % of breaks"),
    ("foul_percent", "fouls, % of shots"),
    ("called_pots_made_percent", "called pots made, %"),
    ("balls_per_inning", "balls per inning"),
    ("high_run", "high run"),
)


def _print_duel(report: dict[str, Any], as_json: bool) -> None:
    """A duel's figures: one JSON object, or a table with a column per player."""
    if as_json:
        click.echo(json.dumps(report))
        return
    from rich.console import Console
    from rich.table import Table

    players = report["players"]
    seeds = (
        "held out: outside the seeds the opponent is tuned on"
        if report["held_out"]
        else "a seed the opponent is tuned on: how it fits these racks, not its strength"
    )
    table = Table(title=f"{report['racks']} racks of seed {report['seed']} ({seeds})")
    table.add_column("")
    for name in players:
        table.add_column(name, justify="right")
    for key, label in (*DUEL_ROWS, *report.get("own_figures", {}).items()):
        table.add_row(label, *(_duel_cell(figures[key]) for figures in players.values()))
    Console().print(table)
    click.echo(code_words(report["code"]))


def code_words(versions: dict[str, int]) -> str:
    """What the figures say of the code that played the racks: one version, or how
    many racks each played (see sim.codeprint)."""
    from sim.play.duel import CODE_NOT_RECORDED

    recorded = {code: racks for code, racks in versions.items() if code != CODE_NOT_RECORDED}
    parts = [f"{_racks(racks)} played by {code}" for code, racks in recorded.items()]
    if unrecorded := versions.get(CODE_NOT_RECORDED, 0):
        parts.append(f"{_racks(unrecorded)} saved before racks recorded their code")
    if not parts:
        return "code: no racks played"
    if len(parts) == 1 and recorded:
        return f"code: every rack played by the same code ({next(iter(recorded))})"
    if len(parts) == 1:
        return f"code: {parts[0]}"
    return (
        f"code: {'; '.join(parts)}. Their figures count together only if the changes"
        " between those versions left the play alone"
    )


def _racks(count: int) -> str:
    return f"{count} rack" if count == 1 else f"{count} racks"


def _duel_cell(value: Any) -> str:
    """A duel figure as its table shows it: a percentage with its standard error."""
    if isinstance(value, dict):
        return f"{value['value']:.1f} ± {value['standard_error']:.1f}"
    return str(value)
