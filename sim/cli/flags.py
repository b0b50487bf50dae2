"""The flags several commands share, each written once as a decorator (the rule options'
built from what each game declares of them, :mod:`rules.offered`), and the refusals said
before any work: an output that cannot be written, a flag given where it does not apply."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from rules.games import PLAYABLE_GAMES as _GAMES
from rules.games import games_offering, offered_options
from rules.offered import RuleOption, chosen_fields
from rules.state import GameState
from sim.cli.values import SEED, FiniteFloat, WholeNumber, WindowSize, shown
from sim.files import output_problem

MAX_WORKERS = 256
GAMES = tuple(_GAMES)  # the referee's games, by the names the scenario format uses
TABLES = ("9ft", "8ft", "7ft")
F = TypeVar("F", bound=Callable[..., Any])


def _applied(command: F, *options: Callable[[F], F]) -> F:
    """``command`` with ``options`` (listed as ``--help`` lists them)."""
    for option in reversed(options):
        command = option(command)
    return command


def game_option(default: str | None, help: str | None = None) -> Callable[[F], F]:
    """``--game``: one of the referee's games."""
    return click.option(
        "--game",
        type=click.Choice(GAMES),
        default=default,
        show_default=default is not None,
        help=help,
    )


def table_option(command: F) -> F:
    """``--table``: the table's size."""
    option = click.option(
        "--table", "table_size", type=click.Choice(TABLES), default="9ft", show_default=True
    )
    return option(command)


def seed_option(default: int | None, help: str | None = None) -> Callable[[F], F]:
    """``--seed``: the seed of the racks (any GameSetup takes)."""
    return click.option(
        "--seed", type=SEED, default=default, show_default=default is not None, help=help
    )


def json_option(help: str) -> Callable[[F], F]:
    """``--json``: the command's output as JSON rather than lines."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def save_folder_option(help: str) -> Callable[[F], F]:
    """``--save DIR``: a folder the command keeps its games in (created if needed)."""
    return click.option(
        "--save",
        "save_dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help=help,
    )


def quality_option(help: str | None = None) -> Callable[[F], F]:
    """``--quality``: the graphics preset of a window or a render."""
    return click.option(
        "--quality",
        type=click.Choice(["fast", "quality"]),
        default="fast",
        show_default=True,
        help=help,
    )


def window_options(command: F) -> F:
    """--screenshot, --frames and --size, as ``play``, ``replay`` and ``drill`` take them."""
    return _applied(
        command,
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
    )


def script_option(command: F) -> F:
    """``--script FILE``: a JSON list of the window's actions to play."""
    option = click.option(
        "--script",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Play a JSON list of actions (see sim/app/script.py).",
    )
    return option(command)


def branch_option(command: F) -> F:
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


def workers_option(help: str) -> Callable[[F], F]:
    """``--workers K``: processes to spread the work on (a duel's racks, a review's shots)."""
    return click.option("--workers", type=WholeNumber(1, MAX_WORKERS), default=None, help=help)


def scheduler_option(help: str) -> Callable[[F], F]:
    """``--scheduler tcp://HOST:PORT``: the Dask cluster to spread the work on instead."""
    return click.option("--scheduler", default=None, help=help)


def check_spreading(workers: int | None, scheduler: str | None) -> None:
    """``--workers`` and ``--scheduler`` as they may be given (before any import): one or
    the other, a scheduler's address as Dask takes it (tcp://HOST:PORT)."""
    if scheduler is None:
        return
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(scheduler)
        port = parts.port
    except ValueError:
        port = None
        parts = None
    if (
        parts is None
        or parts.scheme not in ("tcp", "tls")
        or not parts.hostname
        or port is None
        or not scheduler.isprintable()
    ):
        raise click.BadParameter(
            f"{shown(scheduler)} is not a scheduler address (tcp://HOST:PORT)",
            param_hint="'--scheduler'",
        )
    if workers is not None:
        raise click.UsageError("--workers and --scheduler: the cluster has its own workers")


def cluster_client(scheduler: str) -> Any:
    """A client of the scheduler (``distributed.Client``), connected before any progress
    bar is drawn, so a refusal is the only line."""
    from sim.play.cluster import ClusterError, connect

    try:
        return connect(scheduler)
    except ClusterError as error:
        raise click.ClickException(str(error)) from None


def rule_flag_name(option: RuleOption) -> str:
    """The parameter a rule option's flag fills: ``early_ten`` for ``--early-ten``."""
    return option.flag.removeprefix("--").replace("-", "_")


def _in_words(kinds: tuple[type[GameState], ...]) -> str:
    """ "10-ball and 8-ball"."""
    names = [kind.display_name for kind in kinds]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _rule_flag(option: RuleOption) -> Callable[[F], F]:
    """The flag of ``option``: one of its values, or any number in its range (a whole
    number when the values offered are); its help begun with the games that offer it,
    unless every game (or none yet) does."""
    offering = games_offering(option)
    help = option.help
    if 0 < len(offering) < len(GAMES):
        help = f"{_in_words(offering)}: {help[:1].lower()}{help[1:]}"
    callback = None
    value_type: click.ParamType[Any]
    if option.numbers is not None:
        low, high = option.numbers
        numbers = [value for value in option.values if value is not None]
        whole = all(isinstance(v, int) and not isinstance(v, bool) for v in numbers)
        value_type = WholeNumber(int(low), int(high)) if whole else FiniteFloat(low, high)
    else:
        by_text = {str(value): value for value in option.values}  # a choice typed, as a value
        value_type = click.Choice(list(by_text))
        callback = lambda _ctx, _param, text: by_text.get(text, text)  # noqa: E731
    return click.option(
        option.flag,
        rule_flag_name(option),
        type=value_type,
        callback=callback,
        default=option.default,
        show_default=option.default is not None,
        help=help,
    )


def rule_flags(command: F) -> F:
    """A flag for every rule option a game offers (``--early-ten``, ``--call-mode``,
    ``--shot-clock``), read by :func:`chosen_rules`."""
    return _applied(command, *(_rule_flag(option) for option in offered_options()))


def chosen_rules(
    ctx: click.Context, kind: type[GameState], given_values: dict[str, Any]
) -> dict[str, Any]:
    """The :class:`~rules.options.Options` fields of the rule flags (``given_values``: their
    parameters' values) for a game of ``kind``: its own options, each at the value given or
    its default; a flag of another game's option is refused."""
    for option in offered_options():
        if option not in kind.rule_options and given(ctx, rule_flag_name(option)):
            raise click.UsageError(
                f"{option.flag} applies only to {_in_words(games_offering(option))}"
            )
    values = {option.name: given_values[rule_flag_name(option)] for option in kind.rule_options}
    return chosen_fields(kind.rule_options, values)


def check_output(path: Path | None, flag: str, *, folder: bool = False) -> None:
    """An output that cannot be written is said before the work that would fill it."""
    if path is not None and (problem := output_problem(path, folder=folder)) is not None:
        raise click.BadParameter(problem, param_hint=f"'{flag}'")


# Typed (or set in the environment); not a default, nor ``poolsim`` alone invoking ``play``
# (which leaves the source unset).
_GIVEN = (click.core.ParameterSource.COMMANDLINE, click.core.ParameterSource.ENVIRONMENT)


def given(ctx: click.Context, name: str) -> bool:
    """Whether the parameter ``name`` was given (typed, or set in the environment)."""
    return ctx.get_parameter_source(name) in _GIVEN


def refuse_unused(ctx: click.Context, flags: dict[str, str], reason: str) -> None:
    """A flag given that the command would not use is refused, not silently ignored.
    ``flags``: parameter name -> flag."""
    for name, flag in flags.items():
        if given(ctx, name):
            raise click.UsageError(f"{flag} {reason}")
