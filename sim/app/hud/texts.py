"""The words on the screen, from the controller's state (no Panda3D): the scoreboard,
what the player is to do now, the referee's plain line and its details, the choices
explained. Pockets, fouls and choices are named as :mod:`rules.words` names them."""

from __future__ import annotations

import attrs

from rules import (
    BallInHand,
    Choice,
    Declaration,
    GameState,
    Match,
    MatchPhase,
    Phase,
    Player,
)
from rules.geometry import distance
from rules.words import CHOICE_WORDS, DECLARATION_WORDS, pocket_name
from sim.physics.simulators.compiled import TYPICAL_FIRST_RUN
from sim.physics.simulators.simulator import Simulator
from sim.play.game import (
    ChoiceRecord,
    GameError,
    ShotRecord,
    StalemateRecord,
    TimeFoulRecord,
    Wanted,
)
from sim.play.said import detail_lines, record_line
from sim.play.table.controller import TableController
from sim.play.table.turn import Stage


@attrs.frozen
class PlayerPanel:
    name: str
    # The number beside the name: the racks (or games) won, or in a match of one game
    # that keeps score (14.1 to its points, rotation to 61) that game's score, as its
    # scoreboard shows it: the games won say 0-0 until the match is over.
    racks: int
    fouls: int
    warned: bool
    at_table: bool
    # The game's words for the player (GameState.player_words): 8-ball's "solids · 5
    # left" (EB-7, EB-20), rotation's "38 points · 23 to win" (ROT-9).
    words: str | None = None


@attrs.frozen
class Scoreboard:
    players: tuple[PlayerPanel, PlayerPanel]
    title: str  # "10-ball · race to 5 · rack 2"
    status: str  # "lowest ball: 3 · cue ball in hand (kitchen)"
    # One person alone at a practice table with the referee off: no score, no opponent.
    solo: bool = False


def scoreboard(controller: TableController) -> Scoreboard:
    game = controller.game
    setup = game.setup
    state = game.rack
    racks = game.match.racks_won
    if state is not None and state.keeps_score and setup.race_to == 1:
        racks = state.score
    at_table = controller.shooter if controller.stage is not Stage.OVER else None
    panels = []
    for player in Player:
        panels.append(
            PlayerPanel(
                name=controller.seat_name(player),
                racks=racks[player],
                fouls=state.fouls[player] if state is not None else 0,
                warned=state is not None and player in state.warned and not state.is_over,
                at_table=player is at_table,
                words=state.player_words(player) if state is not None else None,
            )
        )
    if setup.practice:
        title = practice_title(controller)
    else:
        unit = setup.kind.race_unit
        if setup.race_to == 1:  # a single game or rack: "race to 1 · game 1" says nothing
            title = f"{setup.kind.display_name} · one {unit}"
        else:
            title = f"{setup.kind.display_name} · race to {setup.race_to}"
            if game.match.rack_number:
                title += f" · {unit} {rack_in_race(game.match)}"
    status: list[str] = []
    if state is not None and not state.is_over:
        status.extend(state.status_words())  # what to hit first, what wins (the game's)
        # Not while a shot plays: the cue ball was put down and struck (the break's "in
        # hand behind the head string" stayed up while the balls rolled).
        playing = controller.stage in (Stage.SIMULATING, Stage.WATCH)
        in_hand = None if playing else state.ball_in_hand
        if in_hand is BallInHand.KITCHEN:
            status.append("cue ball in hand behind the head string")
        elif in_hand is BallInHand.ANYWHERE:
            status.append("cue ball in hand anywhere")
    if controller.call is not None:
        status.append(f"call: {controller.call}")
    elif controller.declaration is not None:
        status.append(f"declared: {DECLARATION_WORDS[controller.declaration]}")
    solo = setup.practice and (state is None or not state.refereed)
    return Scoreboard(
        players=(panels[0], panels[1]), title=title, status=" · ".join(status), solo=solo
    )


def rack_in_race(match: Match) -> int:
    """The rack as the players count it: one more than the racks decided (the last one
    once the match is over). A rack racked again (an illegal 8-ball break's re-rack, a
    stalemate) is the same rack, though the referee racks it anew."""
    decided = match.racks_won.a + match.racks_won.b
    return decided if match.phase is MatchPhase.OVER else decided + 1


def practice_title(controller: TableController) -> str:
    """The practice table's title: the game, and whether the referee rules."""
    setup = controller.game.setup
    table = controller.set_up.table
    state = controller.state
    if table is not None:
        refereed = table.refereed
    else:
        refereed = state is not None and state.refereed and controller.game.match.rack_number > 0
    referee = "referee on" if refereed else "referee off"
    return f"Practice · {setup.kind.display_name} · {referee}"


def prompt(controller: TableController) -> str:
    """What the player at the table is to do now, in a line (and, once the rack has been
    quiet long enough, that they may offer a stalemate)."""
    line = _prompt(controller)
    if controller.stalemate.may_offer:
        return f"{line} · O: offer a stalemate"
    return line


def _prompt(controller: TableController) -> str:
    stage = controller.stage
    if stage is Stage.SETUP:
        return (
            "Set up: drag a ball to move it, off the cloth (or right-click) to take it off; "
            "Space to shoot" + ("; U: back as it was" if controller.set_up.can_cancel else "")
        )
    name = controller.seat_name(controller.shooter)
    state = controller.state
    computer = computer_prompt(controller, name)
    if computer is not None:
        return computer
    hint = thinking_words(controller)  # a person asked for the hint: it says it is thinking
    if hint is not None and stage not in (Stage.SIMULATING, Stage.WATCH):
        return hint
    if stage is Stage.LAG:
        stored = controller.lag.stored()
        if stored is not None:  # both lags are struck together: say the first one waits
            return (
                f"{controller.seat_name(stored)}'s lag stroke is set and waits for "
                f"{name}'s · {name} lags (blue-tinted ball): aim at the foot rail, Space"
            )
        return f"{name} lags (white ball): aim at the foot rail, set the power, Space"
    if stage is Stage.BREAKER:
        return f"{name} won the lag and chooses who breaks"
    if stage is Stage.PLACE:
        where = (
            "behind the head string"
            if state is not None and state.ball_in_hand is BallInHand.KITCHEN
            else "anywhere"
        )
        return f"{name}: cue ball in hand {where} — move it with the mouse, click to put it down"
    if stage is Stage.SIMULATING:
        if not controller.worker.ready:  # the stroke waits for the warm-up: say so
            return "your shot plays as soon as the physics is ready"
        return "the physics is working..."
    if stage is Stage.WATCH:
        return "Space: skip to the end of the shot"
    if stage is Stage.CHOOSE:
        return f"{name} chooses"
    if stage is Stage.OFFER:
        return f"{offer_question(controller)} (Y / N)"
    if stage is Stage.OVER and controller.practice:
        winner = controller.game.winner()
        won = f"{controller.game.setup.name(winner)} wins the rack: " if winner else ""
        return f"{won}U to set the table up again, Backspace to take the shot again"
    if stage is Stage.OVER:
        winner = controller.game.winner()
        return (
            f"{controller.game.setup.name(winner)} wins the match"
            if winner
            else "the match is over"
        )
    assert state is not None
    if state.phase is Phase.BREAK:
        return f"{name} to break: drag to aim, wheel or arrows for power, Space to shoot"
    if controller.declaration is Declaration.PUSH_OUT and not controller.needs_call:
        return f"{name} pushes out (no ball need be hit): aim, set the power, Space to shoot"
    if controller.needs_call and controller.call is None:
        extra = " or P to push out" if controller.can_declare(Declaration.PUSH_OUT) else ""
        return (
            f"{name}: call — click a ball then a pocket — or S for a safety{extra}; Space to shoot"
        )
    if controller.can_declare(Declaration.PUSH_OUT) and not controller.needs_call:  # NB-8
        return f"{name}: P to push out, or drag to aim, wheel or arrows for power, Space to shoot"
    return f"{name}: drag to aim, wheel or arrows for power, Space to shoot"


def thinking_words(controller: TableController) -> str | None:
    """The computer thinking, and for how long ("Computer (level 3) is thinking… 2 s"),
    or None. While the physics is still loading the count says so: the thinker's process
    loads it too before it can think, which on a first run takes minutes, and a count
    with no reason beside it reads as a freeze."""
    thinking = controller.seat.words()
    if thinking is None or controller.worker.ready:
        return thinking
    return f"{thinking} · waiting for the physics to load"


def computer_prompt(controller: TableController, name: str) -> str | None:
    """The computer at the table: thinking (and for how long), or the stroke it is about
    to play; None when it is a person's turn, or the shot is under way."""
    if controller.computer_level is None or controller.stage in (Stage.SIMULATING, Stage.WATCH):
        return None
    thinking = thinking_words(controller)
    if thinking is not None:
        return thinking
    showing = controller.seat.showing
    if showing is None:
        return f"{name} is at the table"
    stroke = showing.stroke
    if stroke.call is not None:
        return f"{name} calls the {stroke.call.ball} in the {pocket_name(stroke.call.pocket)}"
    if stroke.declaration is not None:
        return f"{name} declares a {DECLARATION_WORDS[stroke.declaration]}"
    return f"{name} plays this stroke"


@attrs.frozen
class RefereeWords:
    """What the referee says of the last step: ``lead``, one plain line (red when
    ``foul``), and ``details``, every reason with its rule ID, each with whether it is a
    foul."""

    lead: str
    foul: bool
    details: list[tuple[str, bool]]


def referee_words(controller: TableController) -> RefereeWords:
    setup = controller.game.setup
    spoken = controller.spoken
    details = detail_lines(controller.reasons, setup.players)
    if spoken is None:
        return RefereeWords(lead="", foul=False, details=details)
    foul = False
    if isinstance(spoken, ShotRecord | TimeFoulRecord | ChoiceRecord | StalemateRecord):
        foul = spoken.ruling.foul
    return RefereeWords(lead=record_line(spoken, setup), foul=foul, details=details)


def offer_question(controller: TableController) -> str:
    """A stalemate offered, asked of the other player in plain words: "Computer (level 5)
    offers a stalemate: no ball has gone down for 12 innings. Agree and re-rack, or play
    on?" (empty when none is offered)."""
    offer = controller.stalemate.pending
    if offer is None:
        return ""
    innings = f"{offer.quiet} inning{'s' if offer.quiet != 1 else ''}"
    return (
        f"{controller.seat_name(offer.by)} offers a stalemate: no ball has gone down for "
        f"{innings}. Agree and re-rack, or play on?"
    )


def stalemate_answers(controller: TableController) -> list[tuple[str, str, bool]]:
    """The two answers to a stalemate offered, as buttons: the name, what it means, and
    whether it agrees."""
    offer = controller.stalemate.pending
    if offer is None:
        return []
    state = controller.state
    breaker = controller.seat_name(state.breaker) if state is not None else "its breaker"
    offered = controller.seat_name(offer.by)
    plays = "plays its shot" if offer.by in controller.computers else "shoots"
    return [
        ("Agree (Y)", f"the rack is racked again; {breaker} breaks it again", True),
        ("Play on (N)", f"{offered} {plays}", False),
    ]


def choice_label(choice: Choice, state: GameState) -> tuple[str, str]:
    """A choice's button: its name, and what it means here (spotting a lowest ball that
    is on the foot spot already moves no ball: the button says so)."""
    words = CHOICE_WORDS[choice]
    lowest = state.lowest
    if choice is Choice.SPOT_LOWEST and lowest is not None:
        gap = distance(state.balls[lowest], state.table.foot_spot)
        if gap <= state.options.contact_epsilon:
            already = f"the {lowest} is on the foot spot already"
            return words.label, f"{already}; cue ball in hand in the kitchen"
    return words.label, words.meaning


def physics_status(simulator: Simulator, now: float) -> str:
    """How far the physics is from ready, in a short line ("" once it is): a first run
    says it is compiling, once, and counts the seconds against what it usually takes (its
    first step alone is most of it); a later run says it is loading what was compiled.
    ``now``: ``time.monotonic()``. Short, so it fits between the HUD's corners."""
    if simulator.ready:
        return ""
    progress = simulator.progress
    if progress is None:
        return "starting the physics..."
    seconds = max(0, int(now - progress.started))
    elapsed = f"{seconds // 60}:{seconds % 60:02d}"
    step = f" · step {min(progress.done + 1, progress.total)}/{progress.total}"
    step = step if progress.total else ""  # the process is still starting
    if progress.first_run:
        return f"First run: compiling the physics, once · {elapsed} ({TYPICAL_FIRST_RUN}){step}"
    return f"loading the physics · {elapsed}{step}"


# How the window asks for what the play floor wants first: its keys and buttons.
ASKED = {
    Wanted.PUT_DOWN: "click, or Space",
    Wanted.CHOICE: "one of the buttons below",
    Wanted.SET_UP: "U, or Set up",
    Wanted.SET_UP_DONE: "Space, or Done",
    Wanted.NEW_GAME: "New game, or R to replay the shots",
}


def refusal(error: GameError) -> str:
    """A move refused, in the window's words: the play floor's line, and the key or
    button that does what is wanted first."""
    return str(error) if error.wanted is None else f"{error} ({ASKED[error.wanted]})"
