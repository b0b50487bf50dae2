"""``poolsim export``: one shot of a saved game rendered (frames, a GIF, an MP4, a
diagram), the whole match as one web page, or a position file drawn."""

from __future__ import annotations

from pathlib import Path

import click

from sim.cli.files import load_shot
from sim.cli.flags import branch_option, check_output, quality_option, refuse_unused
from sim.cli.values import FiniteFloat, WholeNumber


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--shot",
    type=WholeNumber(1, 1_000_000),
    default=1,
    show_default=True,
    help="Which shot of the game (from 1).",
)
@click.option(
    "--frames",
    "frames_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write PNG frames into this folder.",
)
@click.option(
    "--gif",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write an animated GIF.",
)
@click.option(
    "--mp4",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write an H.264 MP4 video.",
)
@click.option(
    "--diagram",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write a top-down diagram of the shot (PNG).",
)
@click.option(
    "--html",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the whole match (every shot, branches marked) as one self-contained web page.",
)
@click.option(
    "--rack",
    type=WholeNumber(1, 1_000_000),
    default=None,
    help="With --html: only this rack's shots.",
)
@click.option("--fps", type=FiniteFloat(1, 120), default=30.0, show_default=True)
@click.option("--size", default="1280x720", show_default=True, help="Frame size WIDTHxHEIGHT.")
@click.option(
    "--camera",
    type=click.Choice(["overhead", "broadcast", "behind"]),
    default="broadcast",
    show_default=True,
)
@quality_option()
@branch_option
def export(
    file: Path,
    shot: int,
    branch: int | None,
    frames_dir: Path | None,
    gif: Path | None,
    mp4: Path | None,
    diagram: Path | None,
    html: Path | None,
    rack: int | None,
    fps: float,
    size: str,
    camera: str,
    quality: str,
) -> None:
    """Render one shot of a saved game: frames, a GIF, an MP4, or a diagram; the whole
    match as one web page (--html); or draw a position file (.json) as a diagram."""
    from sim.media.export import (
        ExportError,
        parse_size,
        write_frames,
        write_gif,
        write_mp4,
        write_png,
    )

    outputs = [o for o in (frames_dir, gif, mp4, diagram, html) if o is not None]
    if len(outputs) != 1:
        raise click.UsageError("give exactly one of --frames, --gif, --mp4, --diagram and --html")
    if rack is not None and html is None:
        raise click.UsageError("--rack goes with --html (a page of one rack's shots)")
    if html is not None:
        _export_html(file, html, branch, rack)
        return
    if file.suffix == POSITION_SUFFIX:
        if diagram is None:
            raise click.UsageError("a position is a still: export it with --diagram")
        refuse_unused(
            click.get_current_context(),
            {"shot": "--shot", "branch": "--branch"},
            "does not apply to a position",
        )
    if diagram is not None:
        refuse_unused(
            click.get_current_context(),
            {"fps": "--fps", "camera": "--camera", "quality": "--quality"},
            "does not apply to --diagram (a still, top-down picture)",
        )
    check_output(frames_dir, "--frames", folder=True)
    for path, flag, suffix, what in (
        (gif, "--gif", ".gif", "a GIF"),
        (mp4, "--mp4", ".mp4", "an MP4"),
        (diagram, "--diagram", ".png", "a PNG"),
    ):
        check_output(path, flag)
        if path is not None and path.suffix.lower() != suffix:  # said before the game is loaded
            problem = f"{path}: the name of {what} file ends in {suffix}"
            raise click.BadParameter(problem, param_hint=f"'{flag}'")
    try:
        width, height = parse_size(size)
    except ExportError as error:
        raise click.BadParameter(str(error), param_hint="'--size'") from None
    if diagram is not None:
        from sim.media.diagram import MAX_WIDTH, MIN_WIDTH

        if not MIN_WIDTH <= width <= MAX_WIDTH:
            raise click.BadParameter(
                f"a diagram is {MIN_WIDTH} to {MAX_WIDTH} pixels wide, got {width}",
                param_hint="'--size'",
            )
    if file.suffix == POSITION_SUFFIX:
        assert diagram is not None  # checked above: a position is only drawn
        _export_position(file, diagram, width)
        return
    game, node = load_shot(file, shot, branch)
    record = node.record
    try:
        if diagram is not None:
            from sim.media.diagram import shot_diagram

            picture = shot_diagram(
                record,
                game.setup.spec,
                width=width,
                players=game.setup.players,
                kind=game.setup.kind,
                shot_number=shot,
                branch=branch or None,
            )
            write_png(picture, diagram)
            click.echo(f"wrote {diagram}")
            return
        from rich.progress import track

        from sim.app.render import offscreen_shot_frames
        from sim.physics.timeline import ShotTimeline, frame_count

        duration = ShotTimeline.from_system(record.simulated.system).duration
        frames = track(
            offscreen_shot_frames(
                record,
                game.setup.spec,
                size=(width, height),
                fps=fps,
                camera=camera,
                quality="quality" if quality == "quality" else "fast",
            ),
            total=frame_count(duration, fps),
            description=f"rendering shot {shot}" + (f" of branch {branch}" if branch else ""),
            transient=True,
        )
        if frames_dir is not None:
            count = write_frames(frames, frames_dir)
            target: Path = frames_dir
        elif gif is not None:
            count = write_gif(frames, gif, fps)
            target = gif
        else:
            assert mp4 is not None
            count = write_mp4(frames, mp4, fps)
            target = mp4
    except ExportError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"wrote {count} frames to {target}")


def _export_html(file: Path, html: Path, branch: int | None, rack: int | None) -> None:
    """``export --html``: the match as one web page (:mod:`sim.media.webpage`)."""
    ctx = click.get_current_context()
    refuse_unused(
        ctx,
        {"shot": "--shot", "fps": "--fps", "size": "--size", "camera": "--camera"},
        "does not apply to --html (the page has every shot, and its own views)",
    )
    refuse_unused(ctx, {"quality": "--quality"}, "does not apply to --html")
    check_output(html, "--html")
    if html.suffix.lower() not in (".html", ".htm"):
        raise click.BadParameter(
            f"{html}: the name of a web page ends in .html", param_hint="'--html'"
        )
    if file.suffix == POSITION_SUFFIX:
        raise click.UsageError("a position is a still: export it with --diagram")
    from sim.media.webpage import WebPageError, write_page
    from sim.store.gamefile import GameFileError, load

    try:
        game = load(file)
    except GameFileError as error:
        raise click.ClickException(str(error)) from None
    if branch is not None:
        from sim.play.game import GameError

        try:
            game.line_shot_nodes(branch)
        except GameError as error:
            raise click.BadParameter(str(error), param_hint="'--branch'") from None
    try:
        size = write_page(game, html, branch=branch, rack=rack)
    except WebPageError as error:
        raise click.ClickException(f"{file}: {error}") from None
    except OSError as error:
        raise click.ClickException(f"cannot write {html}: {error.strerror or error}") from None
    click.echo(f"wrote {html} ({size / 1e6:.2f} MB)")


POSITION_SUFFIX = ".json"  # a position file (docs/POSITION.md); game files are .poolsim


def _export_position(file: Path, diagram: Path, width: int) -> None:
    from sim.media.diagram import position_diagram
    from sim.media.export import ExportError, write_png
    from sim.store.positionfile import PositionFileError, load_position

    try:
        picture = position_diagram(load_position(file), width=width)
        write_png(picture, diagram)
    except (PositionFileError, ExportError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"wrote {diagram}")
