"""``poolsim stats``: every player's statistics, from the games indexed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from sim.cli.flags import json_option
from sim.cli.values import shown


def _since(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    from sim.store.stats.report import since_value

    try:
        return since_value(value)
    except ValueError:
        raise click.BadParameter(f"{shown(value)} is not a date (YYYY-MM-DD)") from None


def _player_name(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from sim.play.game import MAX_NAME

    if value is not None and (
        not value.strip() or len(value) > MAX_NAME or not value.isprintable()
    ):
        raise click.BadParameter(
            f"{shown(value)} is not a player's name (1 to {MAX_NAME} printable characters)"
        )
    return value


@click.command()
@click.option(
    "--player",
    callback=_player_name,
    default=None,
    help="Only this player (default: every player).",
)
@click.option(
    "--since",
    callback=_since,
    default=None,
    help="Only matches played on or after DATE (YYYY-MM-DD).",
)
@json_option("Print the figures as one JSON object.")
@click.option(
    "--import",
    "import_dir",
    type=click.Path(exists=True, path_type=Path),
    default=None,
    help="Index the game files in DIR (or the file DIR) first.",
)
def stats(player: str | None, since: str | None, as_json: bool, import_dir: Path | None) -> None:
    """Every player's statistics, from the games indexed (the window indexes each game it
    saves; --import indexes game files from anywhere, e.g. a duel's --save folder)."""
    import sqlite3

    from sim.store.stats.database import StatsError, database_path
    from sim.store.stats.report import table_lines

    try:
        reports = _stats_reports(player, since, import_dir)
    except StatsError as error:  # the database or the data folder, in one line
        raise click.ClickException(str(error)) from None
    except sqlite3.Error as error:
        raise click.ClickException(
            f"the statistics database {database_path()} cannot be read ({error}):"
            " remove it and it is rebuilt from your game files"
        ) from None
    if as_json:
        click.echo(json.dumps({"since": since, "players": [r.to_json() for r in reports]}))
    elif not reports:
        click.echo("no games indexed" + (f" for {player}" if player else ""))
    else:
        click.echo("\n".join(table_lines(reports)))


def _stats_reports(player: str | None, since: str | None, import_dir: Path | None) -> list[Any]:
    """The players' reports (``sim.store.stats.report.PlayerReport``), after indexing
    ``import_dir``; notes on stderr."""
    from sim.store.stats.database import opened
    from sim.store.stats.report import players, report

    with opened() as database:
        if database.note is not None:
            click.echo(f"poolsim stats: {database.note}", err=True)
        if import_dir is not None:
            if database.read_only:
                raise click.ClickException("cannot import into a read-only statistics database")
            done = database.index_folders([import_dir])
            for problem in done.problems:
                click.echo(f"poolsim stats: skipped {problem}", err=True)
            click.echo(f"indexed {done.indexed} game files from {import_dir}", err=True)
        names = players(database, since)
        if player is not None:
            names = [name for name in names if name == player]
        return [report(database, name, since) for name in names]
