"""The ``poolsim`` command: its group, its entry point, and its commands, each group of
them a module of this package (the flags they share in :mod:`sim.cli.flags`).

Heavy imports (pooltool, numba) happen inside the commands that need them, so ``--help``
and argument errors answer at once. Every error is one line on stderr: bad flags or values
exit with status 2, as does any other bad input; no traceback reaches the user.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from rules import PLAYABLE_GAMES

# The modules, not their commands, by these names: ``sim.cli.play`` stays the module.
from sim.cli import drill, duel, export, files, physics, play, replay, selfplay, stats


@click.group(invoke_without_command=True)
@click.version_option(package_name="poolsim", prog_name="poolsim")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """poolsim: a physics-based pool simulator (its games: see below).

    With no command, opens the desktop table at its start screen."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(play.play)


# The games named as the registry names them, so a new game is listed without an edit here.
_NAMES = [kind.display_name for kind in PLAYABLE_GAMES.values()]
cli.help = (
    f"poolsim: a physics-based pool simulator for {', '.join(_NAMES[:-1])} and {_NAMES[-1]}."
    "\n\nWith no command, opens the desktop table at its start screen."
)


# Every command, each from the module of its group (--help lists them by name).
for _command in (
    play.play,
    physics.simulate,
    physics.warmup,
    physics.bench,
    selfplay.selfplay,
    duel.duel,
    stats.stats,
    files.verify,
    files.review,
    files.position,
    export.export,
    replay.replay,
    drill.drill,
    files.rules,
):
    cli.add_command(_command)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: click's errors as one line, status 2."""
    try:
        status = cli.main(args=argv, prog_name="poolsim", standalone_mode=False)
    except click.UsageError as error:
        where = error.ctx.command_path if error.ctx else "poolsim"
        click.echo(f"{where}: error: {error.format_message()}", err=True)
        sys.exit(2)
    except click.ClickException as error:
        # Bad input of any kind (a file that cannot be read...) is status 2, as bad flags.
        click.echo(f"poolsim: error: {error.format_message()}", err=True)
        sys.exit(2)
    except click.Abort:
        click.echo("poolsim: aborted", err=True)
        sys.exit(130)
    sys.exit(status if isinstance(status, int) else 0)
