"""``poolsim selfplay``: whole racks played by the built-in shot picker on both sides."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import click

from rules.games import DEFAULT_GAME, game_kind
from sim.cli.flags import (
    check_output,
    chosen_rules,
    game_option,
    rule_flags,
    save_folder_option,
    seed_option,
    table_option,
)
from sim.cli.values import WholeNumber

MAX_SELFPLAY_RACKS = 10_000


@click.command()
@game_option(DEFAULT_GAME)
@click.option(
    "--racks",
    type=WholeNumber(1, MAX_SELFPLAY_RACKS),
    default=3,
    show_default=True,
    help="Racks to play (of 14.1: games, each to --points).",
)
@seed_option(1)
@table_option
@rule_flags
@save_folder_option(
    "Folder to save the games in (created if needed), each saved as every rack ends."
)
def selfplay(
    game: str,
    racks: int,
    seed: int,
    table_size: str,
    save_dir: Path | None,
    **rule_values: Any,
) -> None:
    """Play whole racks with the built-in shot picker on both sides.

    A run of more than 99 racks is a series of matches of 99 racks, one game file each."""
    import random

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from rules import Options

    rules = chosen_rules(click.get_current_context(), game_kind(game), rule_values)
    options = Options.from_mapping(rules)
    check_output(save_dir, "--save", folder=True)  # before the imports: they take seconds
    from sim.play.game import Game, GameSetup
    from sim.play.selfplay import RackSummary, match_seed, match_sizes, play_racks, summarize
    from sim.store.gamefile import SUFFIX, save

    sizes_ = match_sizes(racks)

    def target(index: int) -> Path | None:
        if save_dir is None:
            return None
        number = "" if len(sizes_) == 1 else f"-{index + 1:03d}"
        return save_dir / f"selfplay-{game}-seed{seed}{number}{SUFFIX}"

    for index in range(len(sizes_)):
        check_output(target(index), "--save")
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    summaries: list[RackSummary] = []
    saved: list[Path] = []
    players: tuple[str, str] = ("", "")
    console = Console()
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[shots]} shots"),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        task = progress.add_task(f"{game}: racks", total=racks, shots=0)
        shots_before = 0
        for index, count in enumerate(sizes_):
            match = Game(
                GameSetup(
                    game=game,
                    race_to=count,
                    table=table_size,
                    seed=match_seed(seed, index),
                    options=options,
                )
            )
            players = match.setup.players
            path = target(index)

            def on_record(played: Game, _record: object, before: int = shots_before) -> None:
                progress.update(task, shots=before + len(played.shots))

            def on_rack_end(played: Game, path: Path | None = path) -> None:
                progress.advance(task)
                if path is not None:
                    _save_rack(save, played, path)

            play_racks(match, count, rng, on_record=on_record, on_rack_end=on_rack_end)
            shots_before += len(match.shots)
            summaries += [
                attrs.evolve(rack, number=len(summaries) + i)
                for i, rack in enumerate(summarize(match), start=1)
            ]
            if path is not None:
                saved.append(path)
        progress.update(task, completed=racks)
    if len(summaries) <= MAX_RACKS_SHOWN:
        table = Table(title=f"{game}, seed {seed}")
        for column in ("rack", "winner", "shots", "fouls", "break and run"):
            table.add_column(column)
        for rack in summaries:
            winner = rack.winner or ("re-rack" if rack.rerack else "-")
            table.add_row(
                str(rack.number),
                winner,
                str(rack.shots),
                str(rack.fouls),
                "yes" if rack.break_and_run else "",
            )
        console.print(table)
    wins = {name: sum(1 for r in summaries if r.winner == name) for name in players}
    console.print(
        f"{len(summaries)} racks, {sum(r.shots for r in summaries)} shots, "
        f"{sum(r.fouls for r in summaries)} fouls, "
        f"{sum(r.break_and_run for r in summaries)} break-and-runs; "
        + ", ".join(f"{name} {count}" for name, count in wins.items())
    )
    if len(saved) == 1:
        console.print(f"saved {saved[0]}")
    elif saved:
        console.print(f"saved {len(saved)} games in {save_dir}")


MAX_RACKS_SHOWN = 99  # a longer run prints its totals only


def _save_rack(save: Callable[[Any, Path], None], game: Any, path: Path) -> None:
    """Save the match as a rack ends (atomically: the racks saved before stay whole if
    this fails), or stop the run with one line."""
    try:
        save(game, path)
    except OSError as error:
        raise click.ClickException(
            f"cannot save {path}: {error.strerror or error}; the racks saved before are in it"
        ) from None
