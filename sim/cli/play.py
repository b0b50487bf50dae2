"""``poolsim play``: the desktop table, at its start screen or straight into a game or a
practice table; and the window every command that opens one runs."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from rules.games import DEFAULT_GAME, game_kind, offered_options
from sim.cli.flags import (
    check_output,
    chosen_rules,
    game_option,
    quality_option,
    refuse_unused,
    rule_flag_name,
    rule_flags,
    script_option,
    seed_option,
    table_option,
    window_options,
)
from sim.cli.values import ComputerSeat, WholeNumber

_GAME_FLAGS = {  # play's flags that set up the game --game starts
    name: f"--{flag}"
    for name, flag in (
        ("race_to", "race"),
        ("table_size", "table"),
        ("players", "players"),
        ("breaker", "breaker"),
        ("seed", "seed"),
    )
} | {rule_flag_name(option): option.flag for option in offered_options()}


@click.command()
@game_option(None, help="Start this game directly, past the start screen.")
@click.option(
    "--race",
    "race_to",
    type=WholeNumber(1, 99),
    default=None,
    help="Racks to win, or the games of a game that counts them (B-55) "
    "[default: 5, or the game's own: 14.1 is one game].",
)
@table_option
@click.option(
    "--players",
    default="Player 1,Player 2",
    show_default=True,
    help="The two names, comma separated.",
)
@click.option(
    "--breaker",
    type=click.Choice(["lag", "A", "B"]),
    default="lag",
    show_default=True,
    help="Who breaks first (lag: lag for it, GEN-2).",
)
@seed_option(None, help="Seed of the racks (default: random).")
@rule_flags
@quality_option(help="Graphics: fast (any computer) or quality (simplepbr, for a graphics card).")
@click.option(
    "--practice",
    is_flag=True,
    help="Open the practice table (set up any position, referee off) of --game and --table.",
)
@click.option(
    "--position",
    "position_file",
    type=click.Path(path_type=Path),
    default=None,
    help="With --practice: start from this position file (docs/POSITION.md).",
)
@click.option("--resume", is_flag=True, help="Go on with the autosaved game.")
@click.option(
    "--open", "open_file", type=click.Path(path_type=Path), default=None, help="Open a saved game."
)
@click.option(
    "--computer",
    "computers",
    type=ComputerSeat(),
    multiple=True,
    help="The computer plays this seat at this level: A:5, B:3 or B:perfect (levels 1-5, "
    "perfect); repeat it for both seats. With --game, --resume or --open.",
)
@window_options
@script_option
@click.option(
    "--quit-when-ready",
    is_flag=True,
    help="Quit once the window is ready to play and the physics too, printing when each "
    "was (JSON; poolsim bench --startup times launches by it).",
)
def play(
    game: str | None,
    race_to: int | None,
    table_size: str,
    players: str,
    breaker: str,
    seed: int | None,
    quality: str,
    practice: bool,
    position_file: Path | None,
    resume: bool,
    open_file: Path | None,
    screenshot: Path | None,
    frames: int,
    size: tuple[int, int],
    script: Path | None,
    quit_when_ready: bool,
    computers: tuple[tuple[str, str], ...],
    **rule_values: Any,
) -> None:
    """Open the desktop table (start screen, or straight into a game or practice)."""
    if sum(bool(x) for x in (practice or game, resume, open_file)) > 1:
        raise click.UsageError("choose one of --game (or --practice), --resume and --open")
    if position_file is not None and not practice:
        raise click.UsageError("--position applies only with --practice")
    seats = [seat for seat, _ in computers]
    if len(set(seats)) < len(seats):
        raise click.BadParameter("each seat once (A:5 and B:3)", param_hint="'--computer'")
    if computers and practice:
        raise click.UsageError("--computer seats the computer in a match, not at practice")
    if computers and not (game or resume or open_file):
        raise click.UsageError(
            "--computer needs a game on the table (--game, --resume or --open); "
            "on the start screen, choose the seats there"
        )
    names = tuple(name.strip() for name in players.split(","))
    if len(names) != 2:
        raise click.BadParameter(
            "expected two names separated by a comma", param_hint="'--players'"
        )
    ctx = click.get_current_context()
    if game is None and not practice:
        refuse_unused(ctx, _GAME_FLAGS, "applies only with --game")
    if practice:  # a practice table has no match: no race, breaker, calls or clock
        kept = ("table_size", "players", "seed")
        refuse_unused(
            ctx,
            {name: flag for name, flag in _GAME_FLAGS.items() if name not in kept},
            "does not apply to the practice table",
        )
    if screenshot is None and script is None:
        refuse_unused(ctx, {"frames": "--frames"}, "applies only with --screenshot or --script")
    else:
        refuse_unused(
            ctx, {"quit_when_ready": "--quit-when-ready"}, "is for a window that is played"
        )
    check_output(screenshot, "--screenshot")
    import random

    from rules import Options, Player
    from sim.names import seat_names
    from sim.play.game import Game, GameSetup, default_race
    from sim.store.autosave import Autosave
    from sim.store.gamefile import GameFileError, load

    chosen: Game | None = None
    try:
        if practice:
            chosen = _practice_game(
                GameSetup(
                    game=game or DEFAULT_GAME,
                    table=table_size,
                    players=(names[0], names[1]),
                    seed=seed if seed is not None else random.SystemRandom().randrange(2**63),
                    practice=True,
                ),
                position_file,
                game_given=game is not None,
            )
        elif game is not None:
            setup = GameSetup(
                game=game,
                race_to=race_to if race_to is not None else default_race(game_kind(game)),
                table=table_size,
                options=Options.from_mapping(chosen_rules(ctx, game_kind(game), rule_values)),
                players=seat_names(
                    (names[0], names[1]), {Player(seat): level for seat, level in computers}
                ),
                seed=seed if seed is not None else random.SystemRandom().randrange(2**63),
            )
            chosen = Game(setup)
            if breaker != "lag":
                chosen.start(Player(breaker))
        elif resume:
            autosave = Autosave()
            if not autosave.exists():
                raise click.ClickException(f"no autosaved game at {autosave.path}")
            chosen = autosave.resume()
        elif open_file is not None:
            chosen = load(open_file)
    except GameFileError as error:
        raise click.ClickException(str(error)) from None
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    if script is not None and chosen is None:
        raise click.UsageError("--script needs a game on the table (--game, --resume or --open)")
    open_window(
        screenshot or script or quit_when_ready,
        game=chosen,
        resumed=resume,
        quality="quality" if quality == "quality" else "fast",
        size=size,
        screenshot=screenshot,
        frames=frames,
        script=script,
        quit_when_ready=quit_when_ready,
        computers=computers,
    )


def _practice_game(setup: Any, position_file: Path | None, *, game_given: bool) -> Any:
    """A practice session of ``setup`` (a ``GameSetup``), set up from ``position_file``
    if one is given (its game and table are the table's): one line for a bad file."""
    from sim.play.game import Game, GameError
    from sim.store.opening import practice_at
    from sim.store.positionfile import PositionFileError, load_position

    if position_file is None:
        return Game(setup)
    try:
        position = load_position(position_file)
    except PositionFileError as error:
        raise click.ClickException(str(error)) from None
    if game_given and position.kind is not setup.kind:
        raise click.ClickException(
            f"{position_file}: the position is of {position.kind.display_name}, "
            f"not {setup.kind.display_name} (--game)"
        )
    try:
        return practice_at(setup, position)
    except GameError as error:
        raise click.ClickException(f"{position_file}: {error}") from None


def open_window(offscreen_output: object, **launch: Any) -> None:
    """Run the desktop table (offscreen when there is no display, which only makes sense
    with something to write: a screenshot, a script's, the times of --quit-when-ready)
    and exit with its status."""
    from sim.app.launch import Launch, has_display, run

    offscreen = not has_display()
    if offscreen and not offscreen_output:
        raise click.ClickException(
            "no display to open a window on; --screenshot FILE renders offscreen"
        )
    sys.exit(run(Launch(offscreen=offscreen, **launch)))
