"""The steps of a game's line a review judges, as plain data that crosses to another
process: each shot, choice and time foul with the state before it, what the player did,
and the referee's ruling on it; and each step's seed, from the game's digest and the
step's place, so a review comes out the same wherever its steps are judged."""

from __future__ import annotations

import math
from enum import StrEnum

import attrs

from rules import CUE, BallId, Choice, Declaration, GameState, Phase, Player, PocketId, Ruling
from rules.facts import Hit, Pocketing
from rules.geometry import Point
from sim.physics.facts import first_heading
from sim.physics.table import pocket_mouths
from sim.play.game import (
    ChoiceRecord,
    ComputerPlayer,
    Game,
    Node,
    ShotRecord,
    Stroke,
    TimeFoulRecord,
    shot_name,
)
from sim.play.opponent.strokes import Intent

# Degrees: an object ball sent off this far from every pocket's line was not being potted
# (a person's pot is read from where the ball first hit went; a safety off it otherwise).
POTTED_WITHIN = 12.0


class StepKind(StrEnum):
    SHOT = "shot"
    CHOICE = "choice"
    TIME_FOUL = "time foul"


@attrs.frozen
class Option:
    """What a player meant: a stroke's intent, and for a pot the ball and the pocket;
    for a safety or a kick the ball it was played off (None: not known)."""

    intent: Intent | None
    target: BallId | None = None
    pocket: PocketId | None = None


@attrs.frozen(kw_only=True)
class Step:
    """One step of the line: ``place`` its number among the steps reviewed (from 1),
    ``name`` as a player names it ("rack 1, shot 3"), ``player`` who was at the table
    (the shooter, or the chooser of a choice), ``before`` the state it was played from;
    ``stroke`` the stroke as struck (a shot), ``choice`` the choice made, ``ruling``
    the referee's; ``meant`` what a person's shot was meant as, read from the stroke and
    what it did (a computer's is decided again from its seed)."""

    place: int
    rack: int
    name: str
    kind: StepKind
    player: Player
    before: GameState
    ruling: Ruling
    stroke: Stroke | None = None
    choice: Choice | None = None
    meant: Option | None = None

    @property
    def computer(self) -> ComputerPlayer | None:
        """The computer that played the step (None: a person)."""
        return self.stroke.player if self.stroke is not None else None


def steps_of(game: Game, line: int = 0) -> list[Step]:
    """The shots, choices and time fouls of line ``line`` of ``game`` (0: the main line,
    then its branches as the game file numbers them; GameError for none such), from the
    match's first step: a branch's steps before its branch point included."""
    found = game.lines()
    game.line_shot_nodes(line)  # a line that is not there: its one-line GameError
    chosen = found[line]
    end = chosen.nodes[-1] if chosen.nodes else chosen.start
    steps: list[Step] = []
    for node in end.path():
        step = _step(game, node, len(steps) + 1)
        if step is not None:
            steps.append(step)
    return steps


def step_nodes(game: Game, line: int = 0) -> list[Node]:
    """The game's steps :func:`steps_of` gives for line ``line``, as the nodes of its
    tree, in the same order (the window finds a shot's review by its node)."""
    found = game.lines()
    game.line_shot_nodes(line)
    chosen = found[line]
    end = chosen.nodes[-1] if chosen.nodes else chosen.start
    return [node for node in end.path() if _judged(node)]


def _judged(node: Node) -> bool:
    """A step the review judges: a shot with the referee on, a choice, a time foul."""
    record = node.record
    if node.parent is None or not isinstance(record, ShotRecord | ChoiceRecord | TimeFoulRecord):
        return False
    if node.parent.match.rack is None:
        return False
    # Free play on a practice table: nothing to judge by.
    return not isinstance(record, ShotRecord) or record.refereed


def _step(game: Game, node: Node, place: int) -> Step | None:
    record = node.record
    if not _judged(node) or not isinstance(record, ShotRecord | ChoiceRecord | TimeFoulRecord):
        return None
    assert node.parent is not None and node.parent.match.rack is not None
    before = node.parent.match.rack
    if isinstance(record, ShotRecord):
        return Step(
            place=place,
            rack=record.rack,
            name=shot_name(node),
            kind=StepKind.SHOT,
            player=record.shooter,
            before=before,
            ruling=record.ruling,
            stroke=record.stroke,
            meant=meant_by_person(game, before, record),
        )
    if isinstance(record, ChoiceRecord):
        return Step(
            place=place,
            rack=record.rack,
            name=f"rack {record.rack}, {record.player}'s choice",
            kind=StepKind.CHOICE,
            player=record.player,
            before=before,
            ruling=record.ruling,
            choice=record.choice,
        )
    return Step(
        place=place,
        rack=record.rack,
        name=f"rack {record.rack}, time foul",
        kind=StepKind.TIME_FOUL,
        player=record.shooter,
        before=before,
        ruling=record.ruling,
    )


def meant_by_person(game: Game, before: GameState, record: ShotRecord) -> Option:
    """What a shot was meant as, read as docs/REVIEW.md says: the break; a push out or a
    safety by its declaration; a call's ball and pocket; otherwise the first ball hit,
    potted in the pocket it went to or whose line it left on (within
    :data:`POTTED_WITHIN`), or a safety off it."""
    stroke = record.stroke
    if before.phase is Phase.BREAK:
        return Option(Intent.BREAK)
    first = next(
        (
            other
            for fact in record.simulated.facts
            if isinstance(fact, Hit)
            for other in fact.balls
            if CUE in fact.balls and other != CUE
        ),
        None,
    )
    if stroke.declaration is Declaration.PUSH_OUT:
        return Option(Intent.PUSH_OUT, first)
    if stroke.declaration is Declaration.SAFETY:
        return Option(Intent.SAFETY, first)
    if stroke.call is not None:
        return Option(Intent.POT, stroke.call.ball, stroke.call.pocket)
    if first is None:
        return Option(Intent.KICK)
    for fact in record.simulated.facts:
        if isinstance(fact, Pocketing) and fact.ball == first:
            return Option(Intent.POT, first, fact.pocket)
    heading = first_heading(record.simulated.system, first)
    pocket = _pocket_on_line(game, record.start[first], heading)
    return Option(Intent.POT, first, pocket) if pocket else Option(Intent.SAFETY, first)


def _pocket_on_line(game: Game, ball: Point, heading: float | None) -> PocketId | None:
    """The pocket whose mouth lies nearest ``heading`` from ``ball``, within
    :data:`POTTED_WITHIN` degrees (None: none does, or the ball never moved)."""
    if heading is None:
        return None
    off = {}
    for pocket, mouth in pocket_mouths(game.setup.spec).items():
        towards = math.degrees(math.atan2(mouth[1] - ball[1], mouth[0] - ball[0]))
        off[pocket] = abs((towards - heading + 180.0) % 360.0 - 180.0)
    nearest = min(off, key=lambda pocket: off[pocket])
    return nearest if off[nearest] <= POTTED_WITHIN else None


def step_entropy(digest: str, place: int) -> tuple[int, ...]:
    """The seed of step ``place``'s generators: the game's digest (hexadecimal) in
    64-bit words, and the place."""
    words = tuple(int(digest[i : i + 16], 16) for i in range(0, min(len(digest), 64), 16))
    return (*words, place)
