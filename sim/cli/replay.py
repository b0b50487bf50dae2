"""``poolsim replay``: the shots of a saved game (or a shot pooltool saved), frame by frame
in the window."""

from __future__ import annotations

from pathlib import Path

import click

from sim.cli.flags import check_output, quality_option, refuse_unused, window_options
from sim.cli.play import open_window
from sim.cli.values import WholeNumber


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--shot",
    type=WholeNumber(1, 1_000_000),
    default=None,
    help="Open at this shot of the game (from 1; default: the last).",
)
@quality_option()
@window_options
def replay(
    file: Path,
    shot: int | None,
    quality: str,
    screenshot: Path | None,
    frames: int,
    size: tuple[int, int],
) -> None:
    """Replay the shots of a saved game (or a shot saved by pooltool) frame by frame."""
    if screenshot is None:
        refuse_unused(
            click.get_current_context(), {"frames": "--frames"}, "applies only with --screenshot"
        )
    check_output(screenshot, "--screenshot")
    from sim.app.screens.replay import ReplayItem, game_items, last_in_play
    from sim.store.gamefile import GameFileError, load, read_pooltool_system

    game = None
    shots: tuple[ReplayItem, ...] = ()
    spec = None
    index = None
    try:
        if file.suffix in (".json", ".msgpack"):
            system, spec = read_pooltool_system(file)
            shots = (ReplayItem(file.name, file.stem, system, None),)
        else:
            game = load(file)
            items = game_items(game)
            if not items:
                raise click.ClickException(f"{file}: the game has no shots yet")
            # Shot N is of the line played (a branch's shots are in the viewer's list).
            numbered = [
                i
                for i, item in enumerate(items)
                if not item.label.startswith("Lag") and not item.depth
            ]
            if shot is not None:
                if not 1 <= shot <= len(numbered):
                    raise click.BadParameter(
                        f"the game has shots 1 to {len(numbered)}", param_hint="'--shot'"
                    )
                index = numbered[shot - 1]
            else:
                index = last_in_play(items)
    except GameFileError as error:
        raise click.ClickException(str(error)) from None
    open_window(
        screenshot,
        game=game,
        quality="quality" if quality == "quality" else "fast",
        size=size,
        screenshot=screenshot,
        frames=frames,
        replay=index,
        game_file=file if game is not None else None,
        shots=shots,
        shots_spec=spec,
    )
