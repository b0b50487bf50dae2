"""``poolsim drill``: a drill on a practice table, or the shipped drills listed with a
player's best."""

from __future__ import annotations

from pathlib import Path

import click

from sim.cli.flags import check_output, quality_option, refuse_unused, script_option, window_options
from sim.cli.play import open_window
from sim.cli.values import shown


@click.command()
@click.argument("name", required=False, default=None)
@click.option("--list", "listed", is_flag=True, help="List the drills, with the player's best.")
@click.option(
    "--player",
    default=None,
    help="Whose drill history (default: Player 1).",
)
@quality_option()
@window_options
@script_option
def drill(
    name: str | None,
    listed: bool,
    player: str | None,
    quality: str,
    screenshot: Path | None,
    frames: int,
    size: tuple[int, int],
    script: Path | None,
) -> None:
    """Practise a drill (docs/DRILLS.md): NAME (a shipped drill, or a drill file of your
    own, FILE.json) opens it on a practice table; --list lists the shipped ones."""
    from sim.play.game import MAX_NAME
    from sim.store.drillfile import DrillFileError, drill_named, load_drill, shipped_drills
    from sim.store.drillhistory import DEFAULT_PLAYER, DrillHistory

    ctx = click.get_current_context()
    if player is not None:
        player = player.strip()
        if not player or len(player) > MAX_NAME or not player.isprintable():
            raise click.BadParameter(
                f"a name of 1 to {MAX_NAME} printable characters, got {shown(player)}",
                param_hint="'--player'",
            )
    who = player or DEFAULT_PLAYER
    if listed:
        if name is not None:
            raise click.UsageError("--list takes no drill name")
        refuse_unused(
            ctx,
            {
                "screenshot": "--screenshot",
                "script": "--script",
                "frames": "--frames",
                "size": "--size",
                "quality": "--quality",
            },
            "is for a drill opened at the table",
        )
        try:
            drills = shipped_drills()
        except DrillFileError as error:
            raise click.ClickException(str(error)) from None
        history = DrillHistory()
        if history.set_aside is not None:
            click.echo(
                f"note: the drill history could not be read; kept aside as {history.set_aside}",
                err=True,
            )
        click.echo(f"{'NAME':<22} {'TITLE':<30} {'GAME':<18} {'ATTEMPTS':>8}  BEST ({who})")
        for shipped in drills:
            d = shipped.drill
            best = history.best(d.name, who)
            best_shown = "-" if best is None else f"{best.best} of {best.max_points}"
            click.echo(
                f"{d.name:<22} {d.title:<30} {d.position.kind.display_name:<18} "
                f"{d.attempts:>8}  {best_shown}"
            )
        return
    if name is None:
        raise click.UsageError("name a drill (poolsim drill --list lists them)")
    if screenshot is None and script is None:
        refuse_unused(ctx, {"frames": "--frames"}, "applies only with --screenshot or --script")
    check_output(screenshot, "--screenshot")
    try:
        # A drill of one's own, by its file (docs/DRILLS.md), or a shipped one by name.
        shipped = load_drill(Path(name)) if name.endswith(".json") else drill_named(name)
    except DrillFileError as error:
        raise click.ClickException(str(error)) from None
    open_window(
        screenshot or script,
        drill=shipped,
        player=who,
        quality="quality" if quality == "quality" else "fast",
        size=size,
        screenshot=screenshot,
        frames=frames,
        script=script,
    )
