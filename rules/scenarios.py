"""Strict reading of adjudication scenario files (scenarios/FORMAT.md, version 1).

Anything the format does not define is an error naming the key: an unknown key, ball,
pocket, event type, choice, foul code, rule ID or option, a missing required key, a value
of the wrong kind. The scenario's ``before`` and ``shot`` become a game state and a
:class:`~rules.shot.Shot`; its ``expect`` objects become checked, typed values.

What the format allows is read as it says, however it is written: an optional key given
as null is absent; an ``expect`` list or map given as null is empty (``choices``: "[]
when none"); a ball id may be written as its number (``10`` for ``"10"``); a
``head-string`` event may leave out its ``ball`` (only the cue ball crosses); ``after``
may leave out unmoved balls, and a ball it lists that the events pocketed or sent off
the table is where the events say (off the table). A break is played from hand in the
kitchen (TB-4, NB-4, ROT-4), so a break without ``ball_in_hand`` has it in the kitchen.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import attrs

from rules.errors import FormatError, IllegalAction
from rules.extras import RulingExtras
from rules.facts import CUE, BallId, Hit, PocketId, balls_gone, facts_from_json
from rules.games import GAMES
from rules.geometry import Point, TableGeometry
from rules.groups import Group, Groups, Loss, Target
from rules.options import Options
from rules.positions import Positions
from rules.reading import (
    Reader,
    at,
    check_keys,
    is_finite_number,
    is_whole,
    item,
    one_line,
    whole_number,
)
from rules.shot import Call, Shot
from rules.state import GameState
from rules.straight_pool import Racking
from rules.terms import (
    SCENARIO_FOUL_CODES,
    BallInHand,
    Choice,
    Declaration,
    FoulCode,
    Phase,
    Player,
    Tally,
)
from rules.userfile import FileRefused, read_regular

FORMAT_NAME = "poolsim-scenarios"
FORMAT_VERSION = 1
MAX_FILE_BYTES = 4 * 2**20  # the largest scenario file poolsim ships is 75 KB
# REFERENCE.md's rule IDs of the games poolsim referees: GEN-1..17, TB-1..20, NB-1..18,
# EB-1..21, ROT-1..20, SP-1..18, and Part B's B-1..59 (shared by every game).
RULE_ID_RANGES = {"GEN": 17, "TB": 20, "NB": 18, "EB": 21, "ROT": 20, "SP": 18, "B": 59}
_RULE_ID = re.compile(r"(GEN|TB|NB|EB|ROT|SP|B)-([1-9][0-9]*)")

# ``before``'s keys in every game (a game's own follow: its extras' ``before_keys``).
BEFORE_KEYS = ("shooter", "phase", "breaker", "ball_in_hand", "balls", "fouls", "score")

E = TypeVar("E")
T = TypeVar("T")


class ScenarioError(FormatError):
    """A malformed scenario file: ``scenario`` is the scenario's id (or ``-``)."""

    def __init__(self, path: Path, scenario: str, key: str, problem: str) -> None:
        super().__init__(key, problem)
        self.path = path
        self.scenario = scenario

    def line(self) -> str:
        return f"error: {self.path}: {self.scenario}: {self.key}: {self.problem}"


@attrs.frozen(kw_only=True)
class Then:
    choose: Choice
    expect: Mapping[str, Any]


@attrs.frozen(kw_only=True)
class Scenario:
    id: str
    rules: tuple[str, ...]
    game: str
    state: GameState
    shot: Shot
    expect: Mapping[str, Any]
    then: Then | None = None


# -- small strict readers (on rules.reading's) ---------------------------------------


class _Object(Reader):
    """An object of a scenario file; a refused value is shown as the JSON it is."""

    __slots__ = ()
    missing = "missing required key"

    @staticmethod
    def show(value: Any) -> str:
        return json.dumps(value)


def _object(value: Any, key: str) -> Mapping[str, Any]:
    return _Object(value, key).data


def _keys(
    data: Mapping[str, Any], key: str, allowed: Sequence[str], required: Sequence[str]
) -> None:
    check_keys(data, key, allowed, required, missing=_Object.missing)


def _enum(kind: Callable[[str], E], value: Any, key: str, what: str) -> E:
    if not isinstance(value, str):
        raise FormatError(key, f"expected a {what}, got {json.dumps(value)}")
    try:
        return kind(value)
    except ValueError:
        raise FormatError(key, f"unknown {what} {value!r}") from None


def _bool(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise FormatError(key, f"expected true or false, got {json.dumps(value)}")
    return value


def _number(value: Any, key: str) -> float:
    if not is_finite_number(value):
        raise FormatError(key, f"expected a number, got {json.dumps(value)}")
    return float(value)


def _player(value: Any, key: str) -> Player:
    return _enum(Player, value, key, "player")


def _optional(read: Callable[[Any, str], T], value: Any, key: str) -> T | None:
    return None if value is None else read(value, key)


def _ball_id(value: Any) -> Any:
    """A ball id as the format spells it: ``10`` (a number) is the 10."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _ball(game: str) -> Callable[[Any, str], BallId]:
    balls = {CUE, *GAMES[game].object_balls}

    def read(value: Any, key: str) -> BallId:
        ball = _ball_id(value)
        if not isinstance(ball, str) or ball not in balls:
            raise FormatError(key, f"unknown ball {json.dumps(value)} in {game}")
        return ball

    return read


def _given(data: Mapping[str, Any], key: str) -> Any:
    """An optional key's value; null is the same as leaving the key out."""
    return data.get(key)


def _or_empty(value: Any) -> Any:
    return {} if value is None else value


def _point(value: Any, key: str) -> Point:
    if not isinstance(value, list) or len(value) != 2:
        raise FormatError(key, f"expected [x, y], got {json.dumps(value)}")
    return (_number(value[0], item(key, 0)), _number(value[1], item(key, 1)))


def _positions(value: Any, key: str, game: str) -> Positions:
    read_ball = _ball(game)
    data = _object(value, key)
    return Positions({read_ball(b, at(key, b)): _point(p, at(key, b)) for b, p in data.items()})


def _per_player(value: Any, key: str, *, signed: bool = False) -> dict[Player, int]:
    """``{"A": n, "B": m}``; ``signed``: a 14.1 score, which may go negative (SP-16)."""
    data = _object({} if value is None else value, key)
    out: dict[Player, int] = {}
    for name, count in data.items():
        player = _player(name, at(key, name))
        if not is_whole(count) or (count < 0 and not signed):
            wanted = "a whole number" if signed else "a whole number >= 0"
            raise FormatError(at(key, name), f"expected {wanted}, got {count!r}")
        out[player] = count
    return out


def _count(value: Any, key: str) -> int:
    if not is_whole(value) or value < 0:
        raise FormatError(key, f"expected a whole number >= 0, got {json.dumps(value)}")
    return int(value)


def _extras(cls: type[GameState]) -> type[RulingExtras]:
    """What a scenario may say of the game beyond what every game's may (FORMAT.md
    "8-ball", "14.1"), as its ruling extras say it; nothing, for a game without."""
    return cls.extras_type or RulingExtras


def _racking(value: Any, key: str) -> Racking | None:
    """FORMAT.md ``racking``: null, or ``{"count": 14, "break_ball": [x, y], "cue_ball":
    [x, y] or "kitchen"}`` (a 15-ball racking has no ``break_ball``)."""
    if value is None:
        return None
    data = _object(value, key)
    count = data.get("count")
    if count not in (14, 15) or isinstance(count, bool):
        raise FormatError(at(key, "count"), f"expected 14 or 15, got {json.dumps(count)}")
    keys = ["count", "cue_ball", *(["break_ball"] if count == 14 else [])]
    _keys(data, key, keys, keys)
    cue = data["cue_ball"]
    return Racking(
        count=count,
        break_ball=_point(data["break_ball"], at(key, "break_ball")) if count == 14 else None,
        cue_ball=None if cue == "kitchen" else _point(cue, at(key, "cue_ball")),
    )


def _list(value: Any, key: str) -> list[Any]:
    if not isinstance(value, list):
        raise FormatError(key, f"expected a list, got {json.dumps(value)}")
    return value


def _warning(value: Any, key: str) -> frozenset[Player]:
    if value is None:
        return frozenset()
    if isinstance(value, list):
        return frozenset(_player(v, item(key, i)) for i, v in enumerate(value))
    return frozenset({_player(value, key)})


def _groups(value: Any, key: str) -> Groups:
    """FORMAT.md ``groups``: ``{"A": "solids", "B": "stripes"}``; null or both null, open."""
    data = _object({} if value is None else value, key)
    _keys(data, key, ["A", "B"], [])
    read = {
        name: _optional(lambda v, k: _enum(Group, v, k, "group"), data.get(name), at(key, name))
        for name in ("A", "B")
    }
    try:
        return Groups(read["A"], read["B"])
    except ValueError as error:
        raise FormatError(key, str(error)) from None


def _rule_id(value: Any, key: str) -> str:
    match = _RULE_ID.fullmatch(value) if isinstance(value, str) else None
    if match is None or int(match.group(2)) > RULE_ID_RANGES[match.group(1)]:
        raise FormatError(key, f"unknown rule ID {json.dumps(value)}")
    return str(value)


# -- the parts of a scenario ------------------------------------------------------------


# FORMAT.md's keys of one game or another, as read; each game's ruling extras say which
# of them its scenarios may use (``expect_keys``, ``before_keys``).
GAME_EXPECT_READERS: dict[str, Callable[[Any, str], Any]] = {
    "groups": _groups,  # 8-ball
    "target": lambda v, k: _enum(Target, v, k, "target"),
    "illegal_break": _bool,
    "loss": lambda v, k: _optional(lambda x, y: _enum(Loss, x, y, "loss"), v, k),
    "breaking_foul": _bool,  # 14.1
    "points": _count,
    "penalty": _count,
    "run": _count,
    "high_run": _per_player,
    "racking": _racking,
}
GAME_BEFORE_READERS: dict[str, Callable[[Any, str], Any]] = {
    "groups": _groups,  # 8-ball: absent, the table is open
    "run": lambda v, k: 0 if v is None else _count(v, k),  # 14.1: the shooter's run
    "high_run": lambda v, k: _tally(_per_player(v, k)),  # each player's high run
}


def _expect(value: Any, key: str, game: str) -> dict[str, Any]:
    """``expect``: each key read into the type the runner compares."""
    data = _object(value, key)
    read_ball = _ball(game)

    def items(v: Any, k: str) -> list[Any]:  # a list given as null is the empty list
        return [] if v is None else _list(v, k)

    def codes(v: Any, k: str) -> frozenset[FoulCode]:
        read = [_enum(FoulCode, c, item(k, i), "foul code") for i, c in enumerate(items(v, k))]
        for i, code in enumerate(read):
            if code not in SCENARIO_FOUL_CODES:
                raise FormatError(item(k, i), f"unknown foul code {code.value!r}")
        return frozenset(read)

    extras = _extras(GAMES[game])
    readers: dict[str, Callable[[Any, str], Any]] = {
        "foul": _bool,
        "foul_codes": codes,
        "next_shooter": _player,
        "ball_in_hand": lambda v, k: _optional(
            lambda x, y: _enum(BallInHand, x, y, "ball-in-hand value"), v, k
        ),
        "phase": lambda v, k: _enum(Phase, v, k, "phase"),
        "choices": lambda v, k: frozenset(
            _enum(Choice, c, item(k, i), "choice") for i, c in enumerate(items(v, k))
        ),
        "spotted": lambda v, k: frozenset(
            read_ball(b, item(k, i)) for i, b in enumerate(items(v, k))
        ),
        "spot_positions": lambda v, k: dict(_positions({} if v is None else v, k, game)),
        "score": lambda v, k: _per_player(v, k, signed=extras.signed_scores),
        "fouls": _per_player,
        "warning": _warning,
        "rack_over": _bool,
        "winner": lambda v, k: _optional(_player, v, k),
        "rerack": _bool,
        "next_breaker": lambda v, k: _optional(_player, v, k),
    }
    # The game's own keys (FORMAT.md "8-ball", "14.1"), and none of the shared keys its
    # rulings never answer (14.1's re-rack is ``racking``, not ``rerack``).
    readers = {name: read for name, read in readers.items() if name not in extras.unanswered_keys}
    readers |= {name: GAME_EXPECT_READERS[name] for name in extras.expect_keys}
    _keys(data, key, list(readers), [])
    return {name: readers[name](v, at(key, name)) for name, v in data.items()}


def _state(
    value: Any, game: str, table: TableGeometry, options: Options
) -> tuple[GameState, Point | None]:
    """``before`` as a game state, and the cue ball's placement when it was in hand."""
    data = _object(value, "before")
    cls = GAMES[game]
    extras = _extras(cls)
    _keys(
        data,
        "before",
        [*BEFORE_KEYS, *extras.before_keys],
        ["shooter", "phase", "balls"],
    )
    shooter = _player(data["shooter"], "before.shooter")
    phase = _enum(Phase, data["phase"], "before.phase", "phase")
    if phase is Phase.AFTER_BREAK and not GAMES[game].has_push_out:
        # TB-8, NB-8: the phase exists for the push out the shot after the break may be.
        raise FormatError("before.phase", "after-break is a phase of the games with a push out")
    in_hand = _optional(
        lambda v, k: _enum(BallInHand, v, k, "ball-in-hand value"),
        _given(data, "ball_in_hand"),
        "before.ball_in_hand",
    )
    if in_hand is None and phase is Phase.BREAK:
        in_hand = BallInHand.KITCHEN  # TB-4, ROT-4: every break is played from the kitchen
    if in_hand is BallInHand.ANYWHERE and extras.kitchen_only:  # FORMAT.md "14.1": SP-10
        text = f"{cls.display_name} has the cue ball in hand in the kitchen only"
        raise FormatError("before.ball_in_hand", text)
    balls = _positions(data["balls"], "before.balls", game)
    fouls = _per_player(_given(data, "fouls"), "before.fouls")
    score = _per_player(_given(data, "score"), "before.score", signed=extras.signed_scores)
    breaker = _given(data, "breaker")
    placement = balls.get(CUE) if in_hand else None
    extra = {
        name: GAME_BEFORE_READERS[name](_given(data, name), f"before.{name}")
        for name in extras.before_keys
    }
    try:
        state = cls(
            balls=balls.without(CUE) if in_hand else balls,
            table=table,
            options=options,
            shooter=shooter,
            breaker=shooter if breaker is None else _player(breaker, "before.breaker"),
            phase=phase,
            ball_in_hand=in_hand,
            fouls=_tally(fouls),
            score=_tally(score),
            **extra,
        )
    except IllegalAction as error:
        raise FormatError("before", str(error)) from None
    return state, placement


def _tally(counts: Mapping[Player, int]) -> Tally:
    return Tally(a=counts.get(Player.A, 0), b=counts.get(Player.B, 0))


def _shot(value: Any, game: str, placement: Point | None) -> Shot:
    data = _object(value, "shot")
    _keys(data, "shot", ["call", "declare", "events", "after"], ["events"])
    call = None
    if _given(data, "call") is not None:
        raw = _object(data["call"], "shot.call")
        _keys(raw, "shot.call", ["ball", "pocket"], ["ball", "pocket"])
        ball = _ball(game)(raw["ball"], "shot.call.ball")
        if ball == CUE:
            raise FormatError("shot.call.ball", "a call names an object ball")
        call = Call(ball, _enum(PocketId, raw["pocket"], "shot.call.pocket", "pocket"))
    declaration = _optional(
        lambda v, k: _enum(Declaration, v, k, "declaration"), data.get("declare"), "shot.declare"
    )
    cls = GAMES[game]
    if declaration is Declaration.PUSH_OUT and cls.calls_shots and not cls.has_push_out:
        # GEN-7: where a shot is called, its only other declaration is a safety (EB-10, SP-6)
        raise FormatError("shot.declare", f"{cls.display_name} has no push out: safety only")
    try:
        facts = facts_from_json(_events(data["events"]))
    except FormatError as error:
        raise error.under("shot") from None
    read_ball = _ball(game)
    for i, fact in enumerate(facts):
        for ball in fact.balls if isinstance(fact, Hit) else (fact.ball,):
            read_ball(
                ball, at(item("shot.events", i), "balls" if isinstance(fact, Hit) else "ball")
            )
    after = _given(data, "after")
    resting = None if after is None else _positions(after, "shot.after", game)
    return Shot(
        facts=facts, placement=placement, call=call, declaration=declaration, resting=resting
    )


def _events(value: Any) -> Any:
    """The events as :func:`~rules.facts.facts_from_json` reads them: ball numbers as ids,
    and the cue ball named in a ``head-string`` event that leaves it out."""
    if not isinstance(value, list):
        return value
    events = []
    for event in value:
        if isinstance(event, Mapping):
            event = dict(event)
            if "ball" in event:
                event["ball"] = _ball_id(event["ball"])
            if isinstance(event.get("balls"), list):
                event["balls"] = [_ball_id(b) for b in event["balls"]]
            if event.get("type") == "head-string" and "ball" not in event:
                event["ball"] = CUE
        events.append(event)
    return events


def _with_unmoved_balls(shot: Shot, state: GameState) -> Shot:
    """A scenario's ``after`` may list only the balls that matter to it: a ball on the
    table at the stroke that it leaves out, and that no event pocketed or sent off the
    table, stayed where it was. A ball that an event pocketed or sent off the table is
    not on the table at rest, whatever ``after`` says (FORMAT.md: such balls are absent;
    an author may have written where the ruling puts it back)."""
    if shot.resting is None:
        return shot
    start = state.balls if shot.placement is None else state.balls.moved({CUE: shot.placement})
    gone = balls_gone(shot.facts)
    unmoved = {b: p for b, p in start.items() if b not in gone and b not in shot.resting}
    resting = shot.resting.without(*gone).moved(unmoved)
    if resting == shot.resting:
        return shot
    return attrs.evolve(shot, resting=resting)


def _scenario(data: Any, table: TableGeometry) -> Scenario:
    data = _object(data, "scenario")
    _keys(
        data,
        "",
        ["id", "rules", "note", "game", "options", "before", "shot", "expect", "then"],
        ["id", "rules", "game", "before", "shot", "expect"],
    )
    game = data["game"]
    if game not in GAMES:
        raise FormatError("game", f"unknown game {json.dumps(game)}")
    rule_ids = tuple(
        _rule_id(r, item("rules", i)) for i, r in enumerate(_list(data["rules"], "rules"))
    )
    if _given(data, "note") is not None and not isinstance(data["note"], str):
        raise FormatError("note", "expected text")
    try:
        options = Options.from_mapping(_or_empty(_given(data, "options")))
    except FormatError as error:
        raise error.under("options") from None
    state, placement = _state(data["before"], game, table, options)
    then = None
    if _given(data, "then") is not None:
        raw = _object(data["then"], "then")
        _keys(raw, "then", ["choose", "expect"], ["choose", "expect"])
        then = Then(
            choose=_enum(Choice, raw["choose"], "then.choose", "choice"),
            expect=_expect(raw["expect"], "then.expect", game),
        )
    return Scenario(
        id=data["id"],
        rules=rule_ids,
        game=game,
        state=state,
        shot=_with_unmoved_balls(_shot(data["shot"], game, placement), state),
        expect=_expect(data["expect"], "expect", game),
        then=then,
    )


def _table(value: Any) -> TableGeometry:
    data = _object(value, "table")
    _keys(data, "table", ["width", "length", "ball_radius"], [])
    sizes = {name: _number(v, f"table.{name}") for name, v in data.items()}
    try:
        return TableGeometry(**sizes)
    except ValueError as error:
        raise FormatError("table", str(error)) from None


def read_scenarios(path: Path) -> list[Scenario | ScenarioError]:
    """Every scenario of the file at ``path``, in order, each read or refused on its own:
    a malformed scenario is a :class:`ScenarioError` in its place (its id, or
    ``scenarios[i]``); a file that cannot be read at all is a single one (``-``)."""
    try:
        text = read_regular(path, MAX_FILE_BYTES, "a scenario file").decode("utf-8")
        data = json.loads(text, parse_int=whole_number)
    except FileRefused as error:
        return [ScenarioError(path, "-", "file", str(error))]
    except OSError as error:
        return [ScenarioError(path, "-", "file", error.strerror or str(error))]
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        return [ScenarioError(path, "-", "file", f"not JSON: {one_line(error)}")]
    except ValueError as error:  # whole_number's refusal
        return [ScenarioError(path, "-", "file", one_line(error))]
    try:
        top = _object(data, "file")
        _keys(
            top, "", ["format", "version", "table", "scenarios"], ["format", "version", "scenarios"]
        )
        if top["format"] != FORMAT_NAME:
            raise FormatError(
                "format", f"expected {FORMAT_NAME!r}, got {json.dumps(top['format'])}"
            )
        if top["version"] != FORMAT_VERSION or isinstance(top["version"], bool):
            raise FormatError("version", f"unsupported version {json.dumps(top['version'])}")
        table = _table(_or_empty(_given(top, "table")))
        entries = _list(top["scenarios"], "scenarios")
    except FormatError as error:
        return [ScenarioError(path, "-", error.key, error.problem)]
    read: list[Scenario | ScenarioError] = []
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        raw_id = entry.get("id") if isinstance(entry, Mapping) else None
        name = raw_id if isinstance(raw_id, str) and raw_id else item("scenarios", index)
        try:
            if not isinstance(raw_id, str) or not raw_id:
                raise FormatError("id", "expected a non-empty text id")
            if raw_id in seen:
                raise FormatError("id", "duplicate id in this file")
            seen.add(raw_id)
            read.append(_scenario(entry, table))
        except FormatError as error:
            read.append(ScenarioError(path, name, error.key, error.problem))
    return read


def load_scenarios(path: Path) -> list[Scenario]:
    """Every scenario of the file at ``path``; :class:`ScenarioError` on the first fault."""
    scenarios: list[Scenario] = []
    for entry in read_scenarios(path):
        if isinstance(entry, ScenarioError):
            raise entry
        scenarios.append(entry)
    return scenarios
