"""The ``poolsim`` command.

Heavy imports (pooltool, numba) happen inside the commands that need them, so ``--help``
and argument errors answer at once. Every error is one line on stderr: bad flags or values
exit with status 2, as does any other bad input; no traceback reaches the user.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import click

from rules import TenBall
from rules.games import GAMES as _GAMES
from rules.options import SHOT_CLOCK_S
from rules.reading import shown_text
from sim import sizes
from sim.files import output_problem
from sim.limits import MAX_AIM_DEGREES, MAX_SEED, SKILL_LEVELS

if TYPE_CHECKING:
    from sim.physics.simulate import CueAction, SimulatedShot

GAMES = tuple(_GAMES)  # the referee's games, by the names the scenario format uses
TABLES = ("9ft", "8ft", "7ft")
F = TypeVar("F", bound=Callable[..., Any])
MAX_SELFPLAY_RACKS = 10_000
MAX_DUEL_RACKS = 10_000
MAX_WORKERS = 256
MAX_SHOWN = 40  # characters of a bad value an error repeats


def _shown(value: object) -> str:
    """A bad value as an error line repeats it: quoted, as
    :func:`~rules.reading.shown_text` shows a user's text."""
    return f"'{shown_text(str(value), MAX_SHOWN)}'"


def _label(param: click.Parameter | None) -> str:
    """What an error calls a flag's value: ``shot clock`` for --shot-clock."""
    return param.name.replace("_", " ") if param is not None and param.name else "the value"


class FiniteFloat(click.ParamType):  # type: ignore[type-arg]
    """A number that is one: click's FloatRange lets NaN through (every comparison with
    it is false), and infinities are no speed, angle or time. Optionally within
    [low, high]; the flags whose range a model checks (the cue's speed) leave it to it."""

    name = "NUMBER"

    def __init__(self, low: float | None = None, high: float | None = None) -> None:
        self.low, self.high = low, high

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        label = _label(param)
        if isinstance(value, bool):
            self.fail(f"{label} must be a number, got {value!r}", param, ctx)
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            self.fail(f"{label} must be a number, got {_shown(value)}", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{label} must be a finite number, got {_shown(value)}", param, ctx)
        low = -math.inf if self.low is None else self.low
        high = math.inf if self.high is None else self.high
        if not low <= number <= high:
            self.fail(f"{label} must be from {low:g} to {high:g}, got {number:g}", param, ctx)
        return number


class WholeNumber(click.ParamType):  # type: ignore[type-arg]
    """A whole number from ``low`` to ``high``, read from at most a few dozen digits
    (Python refuses to read over 4,300, and a line quoting them is no error message)."""

    name = "INTEGER"

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        label = _label(param)
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            digits = text.removeprefix("-").removeprefix("+")
            if not (digits.isascii() and digits.isdigit()):
                self.fail(
                    f"{_shown(value)} is not a valid integer "
                    f"({label}: a whole number from {self.low} to {self.high})",
                    param,
                    ctx,
                )
            if len(digits) > len(str(self.high)):
                self.fail(
                    f"{label} must be a whole number from {self.low} to {self.high}, "
                    f"got {_shown(value)}",
                    param,
                    ctx,
                )
            number = int(text)
        if not self.low <= number <= self.high:
            self.fail(
                f"{label} must be a whole number from {self.low} to {self.high}, got {number}",
                param,
                ctx,
            )
        return number


SEED = WholeNumber(0, MAX_SEED)  # the seeds GameSetup takes, for every --seed


class ComputerSeat(click.ParamType):  # type: ignore[type-arg]
    """A seat and the computer's level for it: "A:5", "B:perfect"."""

    name = "SEAT:LEVEL"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> tuple[str, str]:
        if isinstance(value, tuple):
            return value  # already converted (a default)
        seat, _, level = str(value).partition(":")
        if seat.strip().upper() not in ("A", "B") or level.strip() not in SKILL_LEVELS:
            self.fail(
                f"expected SEAT:LEVEL, a seat A or B and a level of "
                f"{', '.join(SKILL_LEVELS)} (A:5, B:perfect), got {_shown(value)}",
                param,
                ctx,
            )
        return seat.strip().upper(), level.strip()


class OneLineChoice(click.Choice):  # type: ignore[type-arg]
    """click's choice, saying a missing one on one line (click lists them a line each)."""

    def get_missing_message(self, param: click.Parameter, ctx: click.Context | None) -> str:
        return f"Choose from {', '.join(map(str, self.choices))}"


LEVEL = OneLineChoice(SKILL_LEVELS)


def _check_output(path: Path | None, flag: str, *, folder: bool = False) -> None:
    """An output that cannot be written is said before the work that would fill it."""
    if path is not None and (problem := output_problem(path, folder=folder)) is not None:
        raise click.BadParameter(problem, param_hint=f"'{flag}'")


# Typed (or set in the environment); not a default, nor ``poolsim`` alone invoking ``play``
# (which leaves the source unset).
_GIVEN = (click.core.ParameterSource.COMMANDLINE, click.core.ParameterSource.ENVIRONMENT)


def _refuse_unused(ctx: click.Context, flags: dict[str, str], reason: str) -> None:
    """A flag given that the command would not use is refused, not silently ignored.
    ``flags``: parameter name -> flag."""
    for name, flag in flags.items():
        if ctx.get_parameter_source(name) in _GIVEN:
            raise click.UsageError(f"{flag} {reason}")


def _parse_spin(
    _ctx: click.Context, _param: click.Parameter, value: str | None
) -> tuple[float, float]:
    if value is None:
        return (0.0, 0.0)
    parts = value.split(",")
    try:
        a, b = (float(part) for part in parts)
    except ValueError:
        raise click.BadParameter(f"expected two numbers A,B, got {_shown(value)}") from None
    if not (math.isfinite(a) and math.isfinite(b)):
        raise click.BadParameter(f"expected two finite numbers A,B, got {_shown(value)}")
    return (a, b)


@click.group(invoke_without_command=True)
@click.version_option(package_name="poolsim", prog_name="poolsim")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """poolsim: a physics-based pool simulator for WPA 10-ball, WPA 9-ball, WPA 8-ball and
    61-point rotation.

    With no command, opens the desktop table at its start screen."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(play)


class WindowSize(click.ParamType):  # type: ignore[type-arg]
    """WIDTHxHEIGHT. A type, not a callback: click converts defaults through types, also
    when ``poolsim`` alone invokes ``play`` with its defaults."""

    name = "WIDTHxHEIGHT"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> tuple[int, int]:
        if isinstance(value, tuple):
            return value
        try:
            width, height = sizes.parse_size(str(value))
        except ValueError:
            self.fail(f"expected WIDTHxHEIGHT, got {value!r}", param, ctx)
        if not (320 <= width <= 7680 and 200 <= height <= 4320):
            self.fail(f"{width}x{height} is outside 320x200 .. 7680x4320", param, ctx)
        return (width, height)


def _window_options(command: F) -> F:
    """--screenshot, --frames and --size, as ``play`` and ``replay`` take them."""
    options = [
        click.option(
            "--screenshot",
            type=click.Path(dir_okay=False, path_type=Path),
            default=None,
            help="Render N frames (offscreen when there is no display), save a screenshot, exit.",
        ),
        click.option(
            "--frames",
            type=WholeNumber(1, 100_000),
            default=30,
            show_default=True,
            help="Frames before the screenshot (or after the script).",
        ),
        click.option(
            "--size",
            type=WindowSize(),
            default="1280x800",
            show_default=True,
            help="Window size WIDTHxHEIGHT.",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


_GAME_FLAGS = {  # play's flags that set up the game --game starts
    name: f"--{flag}"
    for name, flag in (
        ("race_to", "race"),
        ("table_size", "table"),
        ("players", "players"),
        ("breaker", "breaker"),
        ("seed", "seed"),
        ("early_ten", "early-ten"),
        ("call_mode", "call-mode"),
        ("shot_clock", "shot-clock"),
    )
}


@cli.command()
@click.option(
    "--game",
    type=click.Choice(GAMES),
    default=None,
    help="Start this game directly, past the start screen.",
)
@click.option("--race", "race_to", type=WholeNumber(1, 99), default=5, show_default=True)
@click.option("--table", "table_size", type=click.Choice(TABLES), default="9ft", show_default=True)
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
@click.option("--seed", type=SEED, default=None, help="Seed of the racks (default: random).")
@click.option(
    "--early-ten",
    type=click.Choice(["spot_continue", "win"]),
    default="spot_continue",
    show_default=True,
    help="10-ball: an early called 10 is re-spotted (WPA) or wins (2009).",
)
@click.option(
    "--call-mode",
    type=click.Choice(["explicit", "infer_obvious"]),
    default="explicit",
    show_default=True,
    help="10-ball and 8-ball: call every shot, or obvious shots need no call.",
)
@click.option(
    "--shot-clock",
    type=FiniteFloat(*SHOT_CLOCK_S),
    default=None,
    help="Shot clock in seconds (default off).",
)
@click.option(
    "--quality",
    type=click.Choice(["fast", "quality"]),
    default="fast",
    show_default=True,
    help="Graphics: fast (any computer) or quality (simplepbr, for a graphics card).",
)
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
@_window_options
@click.option(
    "--script",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Play a JSON list of actions (see sim/app/script.py).",
)
@click.option(
    "--quit-when-ready",
    is_flag=True,
    help="Quit once the window is ready to play and the physics too, printing when each "
    "was (JSON; poolsim bench --startup times launches by it).",
)
def play(
    game: str | None,
    race_to: int,
    table_size: str,
    players: str,
    breaker: str,
    seed: int | None,
    early_ten: str,
    call_mode: str,
    shot_clock: float | None,
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
        _refuse_unused(ctx, _GAME_FLAGS, "applies only with --game")
    if practice:  # a practice table has no match: no race, breaker, calls or clock
        kept = ("table_size", "players", "seed")
        _refuse_unused(
            ctx,
            {name: flag for name, flag in _GAME_FLAGS.items() if name not in kept},
            "does not apply to the practice table",
        )
    if screenshot is None and script is None:
        _refuse_unused(ctx, {"frames": "--frames"}, "applies only with --screenshot or --script")
    else:
        _refuse_unused(
            ctx, {"quit_when_ready": "--quit-when-ready"}, "is for a window that is played"
        )
    _check_output(screenshot, "--screenshot")
    import random

    from rules import Options, Player
    from sim.names import seat_names
    from sim.play.game import Game, GameSetup, shot_clock_options
    from sim.store.autosave import Autosave
    from sim.store.gamefile import GameFileError, load

    chosen: Game | None = None
    try:
        if practice:
            chosen = _practice_game(
                GameSetup(
                    game=game or TenBall.game,
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
                race_to=race_to,
                table=table_size,
                options=Options.from_mapping(
                    {
                        "ten_ball_early_pocket": early_ten,
                        "call_mode": call_mode,
                        **shot_clock_options(shot_clock),
                    }
                ),
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
    _open_window(
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
    if game_given and position.game != setup.game:
        raise click.ClickException(
            f"{position_file}: the position is of {position.kind.display_name}, "
            f"not {setup.kind.display_name} (--game)"
        )
    try:
        return practice_at(setup, position)
    except GameError as error:
        raise click.ClickException(f"{position_file}: {error}") from None


@cli.command()
@click.option("--game", type=click.Choice(GAMES), default=TenBall.game, show_default=True)
@click.option(
    "--seed", type=SEED, default=1, show_default=True, help="Seed of the rack's random balls."
)
@click.option("--table", "table_size", type=click.Choice(TABLES), default="9ft", show_default=True)
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


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
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


@cli.command()
@click.option("--game", type=click.Choice(GAMES), default=TenBall.game, show_default=True)
@click.option(
    "--racks",
    type=WholeNumber(1, MAX_SELFPLAY_RACKS),
    default=3,
    show_default=True,
    help="Racks to play.",
)
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--table", "table_size", type=click.Choice(TABLES), default="9ft", show_default=True)
@click.option(
    "--save",
    "save_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder to save the games in (created if needed), each saved as every rack ends.",
)
def selfplay(game: str, racks: int, seed: int, table_size: str, save_dir: Path | None) -> None:
    """Play whole racks with the built-in shot picker on both sides.

    A run of more than 99 racks is a series of matches of 99 racks, one game file each."""
    import random

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    _check_output(save_dir, "--save", folder=True)  # before the imports: they take seconds
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
        _check_output(target(index), "--save")
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
                GameSetup(game=game, race_to=count, table=table_size, seed=match_seed(seed, index))
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


@cli.command()
@click.option("--game", type=click.Choice(GAMES), default=TenBall.game, show_default=True)
@click.option("--a", "level_a", type=LEVEL, required=True, help="A's level.")
@click.option("--b", "level_b", type=LEVEL, required=True, help="B's level.")
@click.option(
    "--racks", type=WholeNumber(1, MAX_DUEL_RACKS), default=10, show_default=True, help="Racks."
)
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--table", "table_size", type=click.Choice(TABLES), default="9ft", show_default=True)
@click.option(
    "--workers",
    type=WholeNumber(1, MAX_WORKERS),
    default=None,
    help="Processes to play racks on (default: one per core).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
@click.option(
    "--scheduler",
    default=None,
    help="Play the racks on the Dask cluster of this scheduler (tcp://HOST:PORT).",
)
@click.option(
    "--save",
    "save_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
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
) -> None:
    """Two computer players (levels 1 to 5, or perfect) play RACKS racks, A breaking the
    first and every other one; the figures of each side. The same seed plays the same
    racks on any number of workers, or on a Dask cluster (--scheduler). Ctrl-C stops it
    and prints the racks finished."""
    import os

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    if scheduler is not None:
        _check_scheduler(scheduler)
        if workers is not None:
            raise click.UsageError("--workers and --scheduler: the cluster has its own workers")
    _check_output(save_dir, "--save", folder=True)
    from sim.play.duel import DuelInterrupted, DuelSetup, RackOutcome, figures, run_duel
    from sim.store.duelfile import DuelFileError, finished_racks, rack_stem, save_rack
    from sim.store.gamefile import to_bytes

    setup = DuelSetup(
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

    client = _cluster_client(scheduler) if scheduler is not None else None
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


def _cluster_client(scheduler: str) -> Any:
    """A client of the scheduler (``distributed.Client``), connected before the duel's
    progress bar is drawn, so a refusal is the only line."""
    from sim.play.cluster import ClusterError, connect

    try:
        return connect(scheduler)
    except ClusterError as error:
        raise click.ClickException(str(error)) from None


def _since(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    from sim.store.stats.report import since_value

    try:
        return since_value(value)
    except ValueError:
        raise click.BadParameter(f"{_shown(value)} is not a date (YYYY-MM-DD)") from None


def _player_name(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from sim.play.game import MAX_NAME

    if value is not None and (
        not value.strip() or len(value) > MAX_NAME or not value.isprintable()
    ):
        raise click.BadParameter(
            f"{_shown(value)} is not a player's name (1 to {MAX_NAME} printable characters)"
        )
    return value


@cli.command()
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
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
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


def duel_names(level_a: str, level_b: str) -> tuple[str, str]:
    """The computer players' names in a duel's game files (and so in the statistics):
    "computer 3" by its level, with its side when both play at one level."""
    if level_a != level_b:
        return (f"computer {level_a}", f"computer {level_b}")
    return (f"computer {level_a} A", f"computer {level_b} B")


def _check_scheduler(address: str) -> None:
    """A scheduler's address as Dask takes it: tcp://HOST:PORT (before any import)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(address)
        port = parts.port
    except ValueError:
        port = None
        parts = None
    if (
        parts is None
        or parts.scheme not in ("tcp", "tls")
        or not parts.hostname
        or port is None
        or not address.isprintable()
    ):
        raise click.BadParameter(
            f"{_shown(address)} is not a scheduler address (tcp://HOST:PORT)",
            param_hint="'--scheduler'",
        )


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


def _duel_cell(value: Any) -> str:
    """A duel figure as its table shows it: a percentage with its standard error."""
    if isinstance(value, dict):
        return f"{value['value']:.1f} ± {value['standard_error']:.1f}"
    return str(value)


@cli.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--decisions",
    is_flag=True,
    help="Also decide each computer's shot again (its level and seed) and check it is the same.",
)
def verify(file: Path, decisions: bool) -> None:
    """Re-simulate every shot of a saved game, in every branch, and compare with what was
    recorded."""
    from sim.store.gamefile import GameFileError, load

    try:
        game = load(file)  # a file missing or refused is said before pooltool is imported
    except GameFileError as error:
        raise click.ClickException(str(error)) from None
    from sim.store.verify import (
        arithmetic_note,
        game_verdict,
        lines_in_words,
        shot_verdict,
        verify_decisions,
        verify_game,
        verify_time_fouls,
    )

    checks = verify_game(game)
    for check in checks:
        click.echo(f"{check.label}: {shot_verdict(check)}")
    time_fouls = verify_time_fouls(game)
    for foul in time_fouls:
        click.echo(f"{foul.label}: {'ruled the same' if foul.same else 'DIFFERS: another ruling'}")
    misruled = sum(not foul.same for foul in time_fouls)
    lines = lines_in_words(game)
    decided = verify_decisions(game) if decisions else []
    for decision in decided:
        verdict = "the same decision" if decision.same else "DIFFERS: another decision"
        click.echo(f"{decision.label}, computer (level {decision.level}): {verdict}")
    changed = sum(not decision.same for decision in decided)
    differing = sum(not check.consistent for check in checks)
    if differing or changed or misruled:
        if differing:
            click.echo(f"{differing} of {len(checks)} shots differ ({lines})")
        if misruled:
            click.echo(f"{misruled} of {len(time_fouls)} time fouls are ruled otherwise")
        if changed:
            click.echo(f"{changed} of {len(decided)} computer's decisions differ")
        sys.exit(1)
    note = arithmetic_note(checks)
    if note is not None:
        click.echo(note)
    click.echo(f"{len(checks)} shots re-simulated, in {lines}: {game_verdict(checks)}")
    if time_fouls:
        click.echo(f"{len(time_fouls)} time fouls ruled again: all the same")
    if decisions:
        click.echo(f"{len(decided)} computer's decisions made again: all the same")


def _load_shot(file: Path, shot: int, branch: int | None = None) -> tuple[Any, Any]:
    """A saved game and the node of its shot number ``shot`` (from 1): along the line the
    match is at, or along line ``branch`` (0: the main line, then the branches as the
    game file numbers them, counted from the match's first shot); or a one-line error."""
    from sim.play.game import GameError
    from sim.store.gamefile import GameFileError, load

    try:
        game = load(file)
    except GameFileError as error:
        raise click.ClickException(str(error)) from None
    if branch is None:
        shots = game.shot_nodes()
        line = "the game"
    else:
        try:
            shots = game.line_shot_nodes(branch)
        except GameError as error:
            raise click.BadParameter(str(error), param_hint="'--branch'") from None
        line = "the main line" if branch == 0 else f"branch {branch}"
    if not shots:
        raise click.ClickException(f"{file}: {line} has no shots yet")
    if not 1 <= shot <= len(shots):
        raise click.BadParameter(f"{line} has shots 1 to {len(shots)}", param_hint="'--shot'")
    return game, shots[shot - 1]


def _branch_option(command: F) -> F:
    """``--branch N``: the line of a game's tree that ``--shot`` counts along."""
    option = click.option(
        "--branch",
        type=WholeNumber(0, 1_000_000),
        default=None,
        help=(
            "The line of the game's branches --shot counts along: 0 the main line, then the "
            "branches as docs/GAMEFILE.md numbers them (default: the line the match is at)."
        ),
    )
    return option(command)


@cli.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--shot",
    type=WholeNumber(1, 1_000_000),
    required=True,
    help="The position before this shot of the game (from 1).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="The position file to write (JSON, docs/POSITION.md).",
)
@_branch_option
def position(file: Path, shot: int, output: Path, branch: int | None) -> None:
    """Write the position before one shot of a saved game: the balls, whose turn, and the
    cue ball in hand as the match had them."""
    _check_output(output, "-o")
    from sim.play.position import PositionError, position_before
    from sim.store.positionfile import save_position

    game, node = _load_shot(file, shot, branch)
    try:
        taken = position_before(game, node)
    except PositionError as error:  # a ball the physics eased across the head string...
        raise click.ClickException(
            f"{file}: the position before shot {shot} is not one a table can play: {error}"
        ) from None
    try:
        save_position(taken, output)
    except OSError as error:
        raise click.ClickException(f"cannot write {output}: {error.strerror or error}") from None
    click.echo(f"wrote {output}")


@cli.command()
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
@click.option(
    "--quality", type=click.Choice(["fast", "quality"]), default="fast", show_default=True
)
@_branch_option
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
        _refuse_unused(
            click.get_current_context(),
            {"shot": "--shot", "branch": "--branch"},
            "does not apply to a position",
        )
    if diagram is not None:
        _refuse_unused(
            click.get_current_context(),
            {"fps": "--fps", "camera": "--camera", "quality": "--quality"},
            "does not apply to --diagram (a still, top-down picture)",
        )
    _check_output(frames_dir, "--frames", folder=True)
    for path, flag, suffix, what in (
        (gif, "--gif", ".gif", "a GIF"),
        (mp4, "--mp4", ".mp4", "an MP4"),
        (diagram, "--diagram", ".png", "a PNG"),
    ):
        _check_output(path, flag)
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
    game, node = _load_shot(file, shot, branch)
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
    _refuse_unused(
        ctx,
        {"shot": "--shot", "fps": "--fps", "size": "--size", "camera": "--camera"},
        "does not apply to --html (the page has every shot, and its own views)",
    )
    _refuse_unused(ctx, {"quality": "--quality"}, "does not apply to --html")
    _check_output(html, "--html")
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


def _open_window(offscreen_output: object, **launch: Any) -> None:
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


@cli.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--shot",
    type=WholeNumber(1, 1_000_000),
    default=None,
    help="Open at this shot of the game (from 1; default: the last).",
)
@click.option(
    "--quality", type=click.Choice(["fast", "quality"]), default="fast", show_default=True
)
@_window_options
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
        _refuse_unused(
            click.get_current_context(), {"frames": "--frames"}, "applies only with --screenshot"
        )
    _check_output(screenshot, "--screenshot")
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
    _open_window(
        screenshot,
        game=game,
        quality="quality" if quality == "quality" else "fast",
        size=size,
        screenshot=screenshot,
        frames=frames,
        replay=index,
        shots=shots,
        shots_spec=spec,
    )


@cli.command()
@click.argument("name", required=False, default=None)
@click.option("--list", "listed", is_flag=True, help="List the drills, with the player's best.")
@click.option(
    "--player",
    default=None,
    help="Whose drill history (default: Player 1).",
)
@click.option(
    "--quality", type=click.Choice(["fast", "quality"]), default="fast", show_default=True
)
@_window_options
@click.option(
    "--script",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Play a JSON list of actions (see sim/app/script.py).",
)
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
                f"a name of 1 to {MAX_NAME} printable characters, got {_shown(player)}",
                param_hint="'--player'",
            )
    who = player or DEFAULT_PLAYER
    if listed:
        if name is not None:
            raise click.UsageError("--list takes no drill name")
        _refuse_unused(
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
            shown = "-" if best is None else f"{best.best} of {best.max_points}"
            click.echo(
                f"{d.name:<22} {d.title:<30} {d.position.kind.display_name:<18} "
                f"{d.attempts:>8}  {shown}"
            )
        return
    if name is None:
        raise click.UsageError("name a drill (poolsim drill --list lists them)")
    if screenshot is None and script is None:
        _refuse_unused(ctx, {"frames": "--frames"}, "applies only with --screenshot or --script")
    _check_output(screenshot, "--screenshot")
    try:
        # A drill of one's own, by its file (docs/DRILLS.md), or a shipped one by name.
        shipped = load_drill(Path(name)) if name.endswith(".json") else drill_named(name)
    except DrillFileError as error:
        raise click.ClickException(str(error)) from None
    _open_window(
        screenshot or script,
        drill=shipped,
        player=who,
        quality="quality" if quality == "quality" else "fast",
        size=size,
        screenshot=screenshot,
        frames=frames,
        script=script,
    )


@cli.group()
def rules() -> None:
    """The referee: conformance scenarios."""


@rules.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
def rules_check(files: tuple[Path, ...]) -> None:
    """Run adjudication scenario FILES (the poolsim-scenarios format)."""
    from rules.conformance import check_files

    sys.exit(check_files(list(files), sys.stdout, sys.stderr))


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


if __name__ == "__main__":  # python -m sim.cli, as the installed poolsim
    main()
