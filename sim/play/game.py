"""The game loop: a match driven shot by shot over the physics and the referee.

A :class:`Game` holds the match's set-up (game, race, table, options, players, seed) and
the immutable :class:`rules.Match` in play, and keeps every step of the match as a
record: the lag, the choice of breaker, each shot (with pooltool's simulated system, for
replay), each choice of the incoming player, each stalemate. Every refused action raises
:class:`GameError` with a one-line message and changes nothing.

A shot goes in two halves so the desktop can simulate in another process:
:meth:`Game.prepare` checks the stroke against the rules and the physics and returns the
balls to simulate; :meth:`Game.commit` takes the simulated shot and applies the ruling.
:meth:`Game.shoot` does both in this process.

The steps form a tree (:mod:`sim.play.branches`), as a chess game's moves and their
variations do: :meth:`Game.take_back` returns the match to the state before its last
shot, keeping that shot as a branch; :meth:`Game.go_to` plays on from any step of any
branch. ``records`` is the line in play, from the first step to the one the match is at.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from enum import StrEnum
from functools import partial
from typing import Any, Protocol, TypeAlias, TypeVar

import attrs
import numpy as np

from rules import (
    CUE,
    DEFAULT_GAME,
    BallId,
    BallInHand,
    Call,
    Choice,
    Declaration,
    GameState,
    IllegalAction,
    LagResult,
    LagShot,
    Match,
    MatchPhase,
    Options,
    Phase,
    Player,
    PocketId,
    Positions,
    Ruling,
    Shot,
    game_kind,
)
from rules.geometry import Point
from rules.practice import practice_state
from sim.limits import MAX_SEED
from sim.physics.facts import first_crossing
from sim.physics.racks import DEFAULT_RACK_GAP, rack, rerack
from sim.physics.simulate import (
    CueAction,
    PlacementError,
    SimulatedShot,
    settle_positions,
    simulate_shot,
)
from sim.physics.table import TableSize, TableSpec, table_spec
from sim.play.branches import GameNode, Line, lines

MAX_RACE = 99
DEFAULT_RACE = 5  # racks, when a match is not told its race
MAX_NAME = 40
MAX_DRILL = 80  # a drill's title, as a game file names it


class Wanted(StrEnum):
    """What the player is to do first, when a move is refused for the want of it: the
    play floor says what is wanted, and the window words it in its own keys."""

    PUT_DOWN = "put the cue ball down"
    CHOICE = "make the choice"
    SET_UP = "set the table up"
    SET_UP_DONE = "shoot from the table as set up"
    NEW_GAME = "a new game, or the shots replayed"


class GameError(ValueError):
    """An action the game refuses; the game is unchanged. ``wanted``: what the player
    is to do first, for the window to say how (None: nothing in particular)."""

    def __init__(self, message: str, wanted: Wanted | None = None) -> None:
        super().__init__(message)
        self.wanted = wanted


def _game_name(_instance: object, _attribute: attrs.Attribute[str], value: str) -> None:
    game_kind(value)  # raises for a game the referee does not know


def _race(_instance: object, _attribute: attrs.Attribute[int], value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_RACE:
        raise ValueError(f"race_to must be a whole number from 1 to {MAX_RACE}, got {value!r}")


def _names(
    _instance: object, _attribute: attrs.Attribute[tuple[str, str]], value: tuple[str, str]
) -> None:
    if len(value) != 2 or not all(isinstance(name, str) for name in value):
        raise ValueError("players: two names")
    for name in value:
        if not name.strip() or len(name) > MAX_NAME or not name.isprintable():
            raise ValueError(f"player names are 1 to {MAX_NAME} printable characters, got {name!r}")
    if value[0].strip() == value[1].strip():
        raise ValueError("the two players need different names")


def _drill(_instance: object, _attribute: attrs.Attribute[str], value: str) -> None:
    if not isinstance(value, str) or len(value) > MAX_DRILL or not value.isprintable():
        raise ValueError(f"a drill's title is up to {MAX_DRILL} printable characters")


def _seed(_instance: object, _attribute: attrs.Attribute[int], value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise ValueError(f"seed must be a whole number from 0 to {MAX_SEED}, got {value!r}")


@attrs.frozen(kw_only=True)
class GameSetup:
    """Everything that decides a match before the first shot."""

    game: str = attrs.field(default=DEFAULT_GAME, validator=_game_name)
    race_to: int = attrs.field(default=1, validator=_race)
    table: TableSize = attrs.field(default=TableSize.NINE_FOOT, converter=TableSize)
    options: Options = attrs.field(factory=Options)
    players: tuple[str, str] = attrs.field(default=("Player A", "Player B"), validator=_names)
    seed: int = attrs.field(default=0, validator=_seed)
    # A practice session (set-ups and free play, sim.play.game.Game.set_up), not a match.
    practice: bool = False
    # The title of the drill this practice session is of ("": none), as its list names it.
    drill: str = attrs.field(default="", validator=_drill)

    def __attrs_post_init__(self) -> None:
        # B-55: a game that counts its games per match (14.1) has them from the race, so
        # the options a game file keeps say the match it was.
        field = self.kind.games_per_match_option
        if field is not None and getattr(self.options, field) != self.race_to:
            counted: dict[str, Any] = {field: self.race_to}
            object.__setattr__(self, "options", attrs.evolve(self.options, **counted))

    @property
    def kind(self) -> type[GameState]:
        """The game's class: what it is (display name, calls, push out, score, rack)."""
        return game_kind(self.game)

    @property
    def spec(self) -> TableSpec:
        return table_spec(self.table)

    def name(self, player: Player) -> str:
        return self.players[0] if player is Player.A else self.players[1]

    def rack_up(self, number: int, breaker: Player) -> dict[BallId, Point]:
        """The object balls of rack ``number``: the same for the same seed, whoever breaks.
        The clearance is the physics' (a frozen rack cannot be simulated, pooltool-notes)
        unless the ``rack_gap`` option asks for more."""
        del breaker  # the rack does not depend on who breaks it
        seed = random.Random(f"{self.seed}:{number}").getrandbits(63)
        geometry = self.spec.geometry
        gap = max(self.options.rack_gap, DEFAULT_RACK_GAP)
        return rack(geometry, self.kind.rack_pattern(self.options), seed, gap)

    def rerack(
        self, number: int, turn: int, staying: Mapping[BallId, Point]
    ) -> dict[BallId, Point]:
        """Rack ``number`` racked again after its ``turn``-th step around the balls
        ``staying`` (14.1's re-racks): laid as :meth:`rack_up` lays a rack, with the
        physics' clearance, shuffled by a seed of its own from the match's seed."""
        seed = random.Random(f"{self.seed}:{number}:{turn}").getrandbits(63)
        geometry = self.spec.geometry
        gap = max(self.options.rack_gap, DEFAULT_RACK_GAP)
        return rerack(geometry, self.kind.rack_pattern(self.options), seed, staying, gap)


def default_race(kind: type[GameState]) -> int:
    """A match's race when none is chosen: the game's own games per match (14.1's one
    game, B-55), or a race to 5 racks."""
    field = kind.games_per_match_option
    return DEFAULT_RACE if field is None else int(getattr(Options(), field))


@attrs.frozen
class Plan:
    """What the computer meant by a stroke: its cue action before the noise of its
    hand, what for (``intent``: "break", "pot", "safety", "kick" or "push-out", the
    opponent's ``Intent``), and for a pot the ball and the pocket. Kept with the stroke
    (game file version 5), so a review takes the plan from the file rather than
    deciding it again (a level-5 search each)."""

    action: CueAction
    intent: str
    target: BallId | None = None
    pocket: PocketId | None = None


@attrs.frozen
class ComputerPlayer:
    """The computer played the stroke: at ``level`` (1..5, perfect), its generator seeded
    from ``entropy``; ``declined``: the quiet innings at which a stalemate it offered in
    this quiet stretch was declined (None: none was), which holds it back from offering
    again for a while (:mod:`sim.play.stalemate`). With the state before the shot that
    is all it takes to make the same decision again (``poolsim verify --decisions``);
    ``plan``, what it meant by its stroke, saves deciding it again to know that."""

    level: str
    entropy: tuple[int, ...]
    declined: int | None = None
    plan: Plan | None = None  # what it meant (None: a choice, a lag, an older file)

    def generator(self) -> np.random.Generator:
        """The decision's generator, seeded from ``entropy``: the same numbers wherever
        the decision is made again (a duel, a calibration, ``verify --decisions``)."""
        return np.random.default_rng(np.random.SeedSequence(list(self.entropy)))


@attrs.frozen(kw_only=True)
class Stroke:
    """What the player does at the table: where the cue ball goes when it is in hand,
    the call or declaration, and the cue action; ``player``: the computer that played it
    (None: a person)."""

    action: CueAction
    placement: Point | None = None
    call: Call | None = None
    declaration: Declaration | None = attrs.field(
        default=None, converter=attrs.converters.optional(Declaration)
    )
    clock_s: float | None = None  # shot clock: seconds from its start to the stroke (GEN-17)
    extension: bool = False  # the player took a shot-clock extension (B-18)
    player: ComputerPlayer | None = None


def shot_of(stroke: Stroke, simulated: SimulatedShot) -> Shot:
    """The shot the referee rules on: the stroke's placement and declarations, and what
    the physics made of it (its facts, and the balls left on the table at rest)."""
    return Shot(
        facts=simulated.facts,
        placement=stroke.placement,
        call=stroke.call,
        declaration=stroke.declaration,
        resting=Positions(simulated.resting),
        clock_s=stroke.clock_s,
        extension=stroke.extension,
    )


@attrs.frozen(kw_only=True)
class PreparedShot:
    """A stroke the rules and the physics accept, and the balls to simulate."""

    rack: int
    turn: int
    shooter: Player
    stroke: Stroke
    start: Positions  # the balls at the stroke, the cue ball where it was placed


@attrs.frozen(kw_only=True, eq=False)
class ShotRecord:
    rack: int
    shooter: Player
    stroke: Stroke
    start: Positions
    simulated: SimulatedShot
    ruling: Ruling
    refereed: bool = True  # False: free play on a practice table (rules.practice)


@attrs.frozen(kw_only=True)
class ChoiceRecord:
    rack: int
    player: Player
    choice: Choice
    ruling: Ruling
    by: ComputerPlayer | None = None  # the computer made the choice (None: a person)


@attrs.frozen(kw_only=True)
class StalemateRecord:
    rack: int
    agreed: bool
    ruling: Ruling


@attrs.frozen(kw_only=True)
class TimeFoulRecord:
    """The shot clock ran out before ``shooter`` struck (GEN-17): the referee's foul with
    no stroke; ``extension``: the shooter had taken a B-18 extension on that shot."""

    rack: int
    shooter: Player
    extension: bool
    ruling: Ruling


@attrs.frozen(kw_only=True, eq=False)
class LagRecord:
    """Both lag shots (each ball alone on the table), and the verdict (GEN-2);
    ``players``: who struck each (None: a person; the computer: its level and seed, with
    which ``poolsim verify --decisions`` makes its lag stroke again)."""

    starts: tuple[Point, Point]  # A's, then B's
    strokes: tuple[CueAction, CueAction]
    simulated: tuple[SimulatedShot, SimulatedShot]
    result: LagResult
    players: tuple[ComputerPlayer | None, ComputerPlayer | None] = (None, None)


@attrs.frozen(kw_only=True)
class BreakerRecord:
    """Who breaks the first rack: chosen by the lag winner (GEN-3), or agreed."""

    breaker: Player
    agreed: bool  # no lag: the players agreed


@attrs.frozen(kw_only=True)
class SetupRecord:
    """The table set up by hand (a practice table): every ball on it, whose turn, the cue
    ball in hand (``balls`` may hold it where it waits, as a position's do), and whether
    the referee rules from here (``refereed``) or it is free play (:mod:`rules.practice`).
    The match after it is that position's rack alone, a race to 1."""

    balls: Positions = attrs.field(converter=Positions)
    turn: Player = attrs.field(converter=Player)
    in_hand: BallInHand | None = attrs.field(
        default=None, converter=attrs.converters.optional(BallInHand)
    )
    refereed: bool = False
    # A rack as racked, the cue ball in hand in the kitchen, the referee on: a break
    # (TB-4, NB-4, EB-4, ROT-4), refereed as one.
    breaking: bool = False


class Placed(Protocol):
    """A table to set up: a position (:class:`sim.play.position.Position`, which checks
    it is one the table can play) as :meth:`Game.set_up` reads it."""

    @property
    def game(self) -> str: ...
    @property
    def table(self) -> TableSize: ...
    @property
    def balls(self) -> Positions: ...
    @property
    def turn(self) -> Player: ...
    @property
    def in_hand(self) -> BallInHand | None: ...


Record: TypeAlias = (
    ShotRecord
    | TimeFoulRecord
    | ChoiceRecord
    | StalemateRecord
    | LagRecord
    | BreakerRecord
    | SetupRecord
)
_R = TypeVar(
    "_R",
    ShotRecord,
    TimeFoulRecord,
    ChoiceRecord,
    StalemateRecord,
    LagRecord,
    BreakerRecord,
    SetupRecord,
)
_T = TypeVar("_T")


Node: TypeAlias = GameNode[Record]


def shot_number(node: Node) -> tuple[int, int]:
    """Where the shot of ``node`` is in its line: its rack, and its number in that rack
    counting the shots before it on the way to it (a branch's own shots included)."""
    record = node.record
    if not isinstance(record, ShotRecord):
        raise GameError("that step is not a shot")
    count = sum(
        1
        for step in node.path()
        if isinstance(step.record, ShotRecord) and step.record.rack == record.rack
    )
    return record.rack, count


def shot_name(node: Node) -> str:
    """A shot as a player names it: "rack 1, shot 3"."""
    rack, number = shot_number(node)
    return f"rack {rack}, shot {number}"


class Game:
    """A match in progress: the tree of its steps from ``root``, and ``current``, the step
    the match is at (``records`` is the line to it, oldest first)."""

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.root: Node = GameNode(
            parent=None,
            record=None,
            match=Match(
                game=setup.game,
                race_to=setup.race_to,
                rack_up=setup.rack_up,
                table=setup.spec.geometry,
                options=setup.options,
            ),
        )
        self.current: Node = self.root
        # Whether a step taken where the line already goes on becomes its main variation
        # (after a take back: the attempt that counts now) or a branch (from a replay).
        self.next_is_main = False
        self.changes = 0  # every step added and every change to the tree counts one

    # -- what the game says ----------------------------------------------------------

    @property
    def match(self) -> Match:
        """The match at the step in play (an immutable value)."""
        return self.current.match

    @property
    def records(self) -> list[Record]:
        """The line in play: every step from the first to the current one."""
        return [node.record for node in self.current.path() if node.record is not None]

    @property
    def phase(self) -> MatchPhase:
        return self.match.phase

    @property
    def rack(self) -> GameState | None:
        """The rack in play (or the last one, once the match is over)."""
        return self.match.rack

    @property
    def shots(self) -> list[ShotRecord]:
        return [record for record in self.records if isinstance(record, ShotRecord)]

    def computer_seats(self) -> dict[Player, str]:
        """The seats the computer played on the line in play, each at the level of that
        seat's last shot (a seat the computer gave up to a person is a person's): a game
        resumed or opened plays on with the same players."""
        seats: dict[Player, str] = {}
        for record in self.shots:
            computer = record.stroke.player
            if computer is None:
                seats.pop(record.shooter, None)
            else:
                seats[record.shooter] = computer.level
        return seats

    def winner(self) -> Player | None:
        return self.match.outcome()

    @property
    def branched(self) -> bool:
        """Some step has another played from the same place (a shot taken back...)."""
        return any(len(node.variations) > 1 for node in self.root.nodes())

    def snapshot(self) -> Game:
        """The game as it is now, unaffected by later steps or changes to its tree (for
        saving it elsewhere, in another thread)."""
        copy = Game.__new__(Game)
        copy.setup, copy.next_is_main, copy.changes = self.setup, self.next_is_main, self.changes
        copy.root, copies = self.root.copy_tree()
        copy.current = copies[id(self.current)]
        return copy

    # -- the tree of steps (take back, branches) ----------------------------------------

    def lines(self) -> list[Line[Record]]:
        """The tree as lines: the main line, then each branch (as a game file stores it)."""
        return lines(self.root)

    def shot_nodes(self) -> list[Node]:
        """The nodes of the shots on the line in play, first to last (shot N is [N-1])."""
        return [node for node in self.current.path() if isinstance(node.record, ShotRecord)]

    def line_shot_nodes(self, number: int) -> list[Node]:
        """The nodes of the shots of line ``number`` (0: the main line, then the branches
        as :meth:`lines` and game files number them), first to last as a player counts
        them: from the match's first shot, the shots before the branch point included."""
        found = self.lines()
        if not 0 <= number < len(found):
            have = {1: "no branches, only the main line 0", 2: "the main line 0 and branch 1"}.get(
                len(found), f"the main line 0 and branches 1 to {len(found) - 1}"
            )
            raise GameError(f"the game has no branch {number}: it has {have}")
        line = found[number]
        end = line.nodes[-1] if line.nodes else line.start
        return [node for node in end.path() if isinstance(node.record, ShotRecord)]

    def last_shot(self) -> Node | None:
        """The node of the last shot on the line in play (None before the first)."""
        node: Node | None = self.current
        while node is not None and not isinstance(node.record, ShotRecord):
            node = node.parent
        return node

    def take_back(self) -> ShotRecord | TimeFoulRecord:
        """The match back to the state before its last shot or time foul (and any choice
        after it): it and what followed stay in the tree, and the next step played here
        becomes the main line, the step taken back a branch. Returns that step."""
        node = self.last_turn()
        if node is None or node.parent is None:
            raise GameError("there is no shot to take back")
        assert isinstance(node.record, ShotRecord | TimeFoulRecord)
        self.go_to(node.parent, main=True)
        return node.record

    def last_turn(self) -> Node | None:
        """The node of the last shot or time foul (GEN-17, no stroke) on the line in
        play: what take-it-again takes back (None before either)."""
        node: Node | None = self.current
        while node is not None and not isinstance(node.record, ShotRecord | TimeFoulRecord):
            node = node.parent
        return node

    def go_to(self, node: Node, *, main: bool = False) -> None:
        """Play on from ``node`` (a step of this game's tree): the match is as it was
        after it. A step played there that is not the one already there becomes the
        main line (``main``) or a branch."""
        if node.root() is not self.root:
            raise GameError("that step is not of this game")
        self.current = node
        self.next_is_main = main
        self.changes += 1

    def promote_to_main(self, node: Node) -> None:
        """The line through ``node`` becomes the main line."""
        if node.root() is not self.root:
            raise GameError("that step is not of this game")
        node.promote_to_main()
        self.changes += 1

    def delete(self, node: Node) -> None:
        """Delete ``node`` and every step after it: a branch, never the line in play."""
        if node.root() is not self.root or node.parent is None:
            raise GameError("that is not a step of this game that can be deleted")
        if node.is_on_line_to(self.current):
            raise GameError("the line in play cannot be deleted: play from another first")
        node.remove()
        self.changes += 1

    def off_line_in_play(self, node: Node) -> Node | None:
        """The first step of the branch ``node`` is on, where it leaves the line in play
        (what deleting "this branch" deletes); None when ``node`` is on the line in play."""
        if node.root() is not self.root:
            raise GameError("that step is not of this game")
        while node.parent is not None and not node.parent.is_on_line_to(self.current):
            node = node.parent
        return None if node.is_on_line_to(self.current) else node

    # -- before the first rack (GEN-2, GEN-3) ------------------------------------------

    def start(self, breaker: Player) -> BreakerRecord:
        """The players agree who breaks the first rack (no lag)."""
        match = self._rules(lambda: self.match.start(breaker))
        return self._keep(BreakerRecord(breaker=breaker, agreed=True), match)

    def lag(
        self,
        starts: tuple[Point, Point],
        strokes: tuple[CueAction, CueAction],
        players: tuple[ComputerPlayer | None, ComputerPlayer | None] = (None, None),
    ) -> LagRecord:
        """Both players lag (A's ball and stroke first); each ball is simulated alone.
        Replayed lags leave the match where it was; the record says why. ``players``:
        who struck each stroke (None: a person)."""
        self._require_lag()
        spec = self.setup.spec
        simulated = [
            self._physics(partial(simulate_shot, spec, {CUE: start}, action))
            for start, action in zip(starts, strokes, strict=True)
        ]
        return self.lag_from(starts, strokes, (simulated[0], simulated[1]), players)

    def lag_from(
        self,
        starts: tuple[Point, Point],
        strokes: tuple[CueAction, CueAction],
        simulated: tuple[SimulatedShot, SimulatedShot],
        players: tuple[ComputerPlayer | None, ComputerPlayer | None] = (None, None),
    ) -> LagRecord:
        """The lag, from its two simulated shots (simulated here or elsewhere)."""
        self._require_lag()
        middle = self.setup.spec.width / 2
        first, second = (
            LagShot(
                player=player,
                start=start,
                facts=shot.facts,
                rest=shot.after.get(CUE),
                crossed_long_string=(
                    first_crossing(shot.system.balls[CUE], axis=0, level=middle) is not None
                ),
            )
            for player, start, shot in zip(Player, starts, simulated, strict=True)
        )
        result = self._rules(lambda: self.match.judge_lag(first, second))
        match = self._rules(lambda: self.match.lag(first, second))
        return self._keep(
            LagRecord(
                starts=starts, strokes=strokes, simulated=simulated, result=result, players=players
            ),
            match,
        )

    def choose_breaker(self, breaker: Player) -> BreakerRecord:
        """GEN-3: the lag winner chooses who breaks."""
        match = self._rules(lambda: self.match.choose_breaker(breaker))
        return self._keep(BreakerRecord(breaker=breaker, agreed=False), match)

    # -- a table set up by hand (practice) ------------------------------------------------

    def set_up(
        self, position: Placed, *, refereed: bool = False, breaking: bool = False
    ) -> SetupRecord:
        """Set the table up as ``position`` says, as the next step (at any point: before
        the first shot, after shots, after a rack ends). The match after it is that
        position's rack alone, a race to 1: refereed, by the game's own rules with whose
        turn and the cue ball in hand as the position says; otherwise free play.
        ``breaking``: the position is a rack to break, refereed as a break."""
        if breaking and not (refereed and position.in_hand is BallInHand.KITCHEN):
            raise GameError(
                "a break is refereed, from the cue ball in hand in the kitchen: switch the "
                "referee on"
            )
        if position.game != self.setup.game:
            raise GameError(
                f"the position is of {game_kind(position.game).display_name}, "
                f"this table plays {self.setup.kind.display_name}"
            )
        if TableSize(position.table) is not self.setup.table:
            raise GameError(
                f"the position is for the {TableSize(position.table).value} table, "
                f"this is the {self.setup.table.value}"
            )
        record = SetupRecord(
            balls=position.balls,
            turn=position.turn,
            in_hand=position.in_hand,
            refereed=refereed,
            breaking=breaking,
        )
        return self._set_up(record)

    def _set_up(self, record: SetupRecord) -> SetupRecord:
        balls = record.balls.without(CUE) if record.in_hand is not None else record.balls
        state = self._rules(
            lambda: self.setup.kind(
                balls=balls,
                table=self.setup.spec.geometry,
                options=self.setup.options,
                shooter=record.turn,
                breaker=record.turn,
                phase=Phase.BREAK if record.breaking else Phase.PLAY,
                ball_in_hand=record.in_hand,
            )
        )
        match = Match(
            game=self.setup.game,
            race_to=1,
            rack_up=self.setup.rack_up,
            table=self.setup.spec.geometry,
            options=self.setup.options,
            rack=state if record.refereed else practice_state(state),
            rack_number=self.match.rack_number + 1,
        )
        return self._keep(record, match)

    # -- a shot ----------------------------------------------------------------------

    def prepare(self, stroke: Stroke) -> PreparedShot:
        """Check ``stroke`` against the rules (turn, ball in hand, call, declaration) and
        the physics (the cue ball clear of balls and cushions), without shooting."""
        state = self._state_for_shot()
        # The referee's own checks: a ruling on a shot with no facts yet is a dry run.
        dry = Shot(
            placement=stroke.placement,
            call=stroke.call,
            declaration=stroke.declaration,
            clock_s=stroke.clock_s,
            extension=stroke.extension,
        )
        self._rules(lambda: state.rule(dry))
        start = (
            state.balls if stroke.placement is None else state.balls.moved({CUE: stroke.placement})
        )
        self._physics(lambda: settle_positions(self.setup.spec, start))
        return PreparedShot(
            rack=self.match.rack_number,
            turn=state.turn,
            shooter=state.shooter,
            stroke=stroke,
            start=start,
        )

    def simulate(self, prepared: PreparedShot) -> SimulatedShot:
        """The physics of a prepared shot (pure: may run in another process)."""
        return self._physics(
            lambda: simulate_shot(self.setup.spec, prepared.start, prepared.stroke.action)
        )

    def commit(self, prepared: PreparedShot, simulated: SimulatedShot) -> ShotRecord:
        """Rule on a simulated shot and move the match on."""
        state = self._state_for_shot()
        if (prepared.rack, prepared.turn) != (self.match.rack_number, state.turn):
            raise GameError("that shot was prepared for another turn")
        shot = shot_of(prepared.stroke, simulated)
        ruling = self._rules(lambda: state.rule(shot))
        match = self._after(ruling)
        return self._keep(
            ShotRecord(
                rack=prepared.rack,
                shooter=prepared.shooter,
                stroke=prepared.stroke,
                start=prepared.start,
                simulated=simulated,
                ruling=ruling,
                refereed=state.refereed,
            ),
            match,
        )

    def shoot(self, stroke: Stroke) -> ShotRecord:
        prepared = self.prepare(stroke)
        return self.commit(prepared, self.simulate(prepared))

    def time_foul(self, *, extension: bool = False) -> TimeFoulRecord:
        """GEN-17: the shot clock ran out before the stroke; the referee calls the foul
        with no stroke played. ``extension``: the shooter had taken one on this shot."""
        state = self._state_for_shot()
        number = self.match.rack_number
        ruling = self._rules(lambda: state.rule_time_foul(extension=extension))
        match = self._after(ruling)
        record = TimeFoulRecord(
            rack=number, shooter=state.shooter, extension=extension, ruling=ruling
        )
        return self._keep(record, match)

    # -- between shots -----------------------------------------------------------------

    def choose(self, choice: Choice | str, *, by: ComputerPlayer | None = None) -> ChoiceRecord:
        """The incoming player's option (shoot, pass, spot-lowest, kitchen, replay);
        ``by``: the computer chose it, at that level and seed."""
        state = self._state_in_rack()
        ruling = self._rules(lambda: state.rule_choice(choice))
        match = self._after(ruling)
        return self._keep(
            ChoiceRecord(
                rack=match.rack_number,
                player=ruling.player,
                choice=Choice(choice),
                ruling=ruling,
                by=by,
            ),
            match,
        )

    def declare_stalemate(self, *, agreed: bool = False) -> StalemateRecord:
        """GEN-16: the rack is racked again and its breaker breaks again."""
        state = self._state_in_rack()
        number = self.match.rack_number
        ruling = self._rules(lambda: state.rule_stalemate(agreed=agreed))
        match = self._after(ruling)
        return self._keep(StalemateRecord(rack=number, agreed=agreed, ruling=ruling), match)

    def redo(self, record: Record) -> Record:
        """Take a recorded step again, as it was recorded (its simulated shots included):
        rebuilds a game from another's records."""
        match record:
            case BreakerRecord(breaker=breaker, agreed=True):
                return self.start(breaker)
            case BreakerRecord(breaker=breaker):
                return self.choose_breaker(breaker)
            case LagRecord(starts=starts, strokes=strokes, simulated=simulated, players=players):
                return self.lag_from(starts, strokes, simulated, players)
            case ShotRecord(stroke=stroke, simulated=simulated):
                return self.commit(self.prepare(stroke), simulated)
            case ChoiceRecord(choice=choice):
                return self.choose(choice)
            case StalemateRecord(agreed=agreed):
                return self.declare_stalemate(agreed=agreed)
            case TimeFoulRecord(extension=extension):
                return self.time_foul(extension=extension)
            case SetupRecord():
                return self._set_up(record)
        raise TypeError(f"not a game record: {record!r}")

    # -- helpers ------------------------------------------------------------------------

    def _require_lag(self) -> None:
        if self.phase is not MatchPhase.LAG:
            raise GameError(f"the match is at {self.phase.value}, not at the lag")

    def _state_in_rack(self) -> GameState:
        if self.phase is not MatchPhase.RACK:
            raise GameError(f"no rack is in play: the match is at {self.phase.value}")
        assert self.match.rack is not None
        return self.match.rack

    def _state_for_shot(self) -> GameState:
        state = self._state_in_rack()
        if state.pending is not None:
            allowed = ", ".join(sorted(c.value for c in state.pending.choices))
            raise GameError(
                f"{self.setup.name(state.pending.chooser)} must first choose: {allowed}"
            )
        return state

    def _after(self, ruling: Ruling) -> Match:
        """The match after ``ruling``; where it racks the rack in play again (14.1), the
        balls racked by the physics around those the game says stay (a frozen rack
        cannot be simulated), not the referee's frozen triangle."""
        match = self._rules(lambda: self.match.apply(ruling))
        state = match.rack
        staying = self.setup.kind.reracked_around(ruling)
        if staying is None or state is None or match.rack_number != self.match.rack_number:
            return match
        balls = self.setup.rerack(match.rack_number, state.turn, staying)
        return attrs.evolve(match, rack=attrs.evolve(state, balls=Positions(balls)))

    def _keep(self, record: _R, match: Match) -> _R:
        """``record`` as the next step of the line in play, the match after it ``match``."""
        main = self.next_is_main
        self.current = self.current.add_variation(record, match, main=main)
        self.next_is_main = False
        self.changes += 1
        return record

    @staticmethod
    def _rules(call: Callable[[], _T]) -> _T:
        try:
            return call()
        except IllegalAction as error:
            raise GameError(str(error)) from None

    @staticmethod
    def _physics(call: Callable[[], _T]) -> _T:
        try:
            return call()
        except PlacementError as error:
            raise GameError(str(error)) from None
