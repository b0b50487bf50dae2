"""Take it again and branches: a shot taken back returns the match to the state before it
and stays in the game as a branch; the steps form a tree of lines (python-chess's
variations) that can be played on from anywhere, made the main line, or deleted, and
nothing is ever lost by it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules import MatchPhase, Player
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.play.branches import GameNode, in_play_order
from sim.play.game import ChoiceRecord, Game, GameError, GameSetup, Record, ShotRecord
from sim.play.selfplay import play_turn
from sim.play.table.controller import TableController
from sim.play.table.turn import Stage
from sim.store.autosave import Autosave
from sim.store.gamefile import load, save
from tests.play.test_controller import Clock, run_until

pytestmark = pytest.mark.physics


def played(shots: int, seed: int = 7, game: str = "ten-ball") -> Game:
    """A match of ``shots`` shots by the built-in player (and the choices between)."""
    match = Game(GameSetup(game=game, race_to=3, seed=seed))
    match.start(Player.A)
    rng = random.Random(seed)
    while len(match.shots) < shots:
        play_turn(match, rng)
    return match


def test_taking_back_returns_the_match_and_keeps_the_shot_as_a_branch() -> None:
    match = played(4)
    before = match.current.parent
    assert before is not None
    last = match.shots[-1]
    taken = match.take_back()
    assert taken is last
    assert match.current is before and match.match is before.match  # no replay: a pointer
    assert len(match.shots) == 3 and len(match.lines()) == 1  # the shot is still main
    assert any(node.record is last for node in match.root.nodes())
    # The next shot played there is the main line now; the one taken back a branch.
    again = match.shoot(taken.stroke)
    main, branch = match.lines()
    assert main.nodes[-1].record is again and match.current.is_mainline()
    assert [node.record for node in branch.nodes] == [last] and branch.start is before
    # The same stroke from the same balls is the same shot, to the last bit.
    assert again.simulated.facts == last.simulated.facts
    assert again.simulated.after == last.simulated.after


def test_taking_back_goes_past_the_choice_after_a_foul() -> None:
    match = played(30, seed=11)
    node = next(
        n
        for n in match.current.path()
        if isinstance(n.record, ChoiceRecord)
        and n.parent is not None
        and isinstance(n.parent.record, ShotRecord)
    )
    match.go_to(node)
    foul = node.parent
    assert foul is not None and isinstance(foul.record, ShotRecord)
    assert match.take_back() is foul.record
    assert match.current is foul.parent
    state = match.rack
    assert state is not None and state.pending is None  # a shot turn, not the choice


def test_nothing_to_take_back_and_steps_of_another_game() -> None:
    match = Game(GameSetup(seed=1))
    with pytest.raises(GameError, match="no shot to take back"):
        match.take_back()
    match.start(Player.B)
    with pytest.raises(GameError, match="no shot to take back"):
        match.take_back()
    other = played(1)
    with pytest.raises(GameError, match="not of this game"):
        match.go_to(other.current)
    assert match.changes == 1 and len(match.records) == 1


def test_play_from_an_earlier_shot_opens_a_branch_and_the_main_line_stays() -> None:
    match = played(6)
    main_before = [node.record for node in match.lines()[0].nodes]
    third = next(n for n in match.current.path() if n.record is match.shots[2])
    assert third.parent is not None and isinstance(third.record, ShotRecord)
    match.go_to(third.parent)
    new = match.shoot(third.record.stroke)
    main, branch = match.lines()
    assert [node.record for node in main.nodes] == main_before
    assert branch.start is third.parent and branch.nodes[0].record is new
    assert match.records[-1] is new and not match.current.is_mainline()
    # Promoted, the branch is the main line, the old line a branch off it.
    match.promote_to_main(match.current)
    main, branch = match.lines()
    assert main.nodes[-1].record is new and branch.nodes[-1].record is main_before[-1]


def test_deleting_a_branch_and_refusing_the_line_in_play() -> None:
    match = played(3)
    old = match.current
    match.shoot(match.take_back().stroke)
    assert len(match.lines()) == 2
    with pytest.raises(GameError, match="line in play cannot be deleted"):
        match.delete(match.current)
    with pytest.raises(GameError, match="line in play cannot be deleted"):
        match.delete(match.current.path()[0])
    match.delete(old)
    assert len(match.lines()) == 1 and all(n is not old for n in match.root.nodes())


def test_a_snapshot_is_unchanged_by_later_steps_and_tree_changes() -> None:
    match = played(3)
    copy = match.snapshot()
    records = copy.records
    match.take_back()
    match.promote_to_main(match.current)
    play_turn(match, random.Random(1))
    assert copy.records == records and len(copy.lines()) == 1
    assert copy.current.record is records[-1] and copy.changes < match.changes


def test_the_tree_is_walked_without_recursion() -> None:
    """A branch of a branch of a branch... to any depth: lines and copies never recurse."""
    match = Game(GameSetup(seed=1))
    node: GameNode[Record] = match.root
    for _ in range(5000):
        node.add_variation(None, match.match)  # type: ignore[arg-type]
        node = node.add_variation(None, match.match)  # type: ignore[arg-type]
    assert len(match.lines()) == 5001
    copy, _ = match.root.copy_tree()
    assert sum(1 for _ in copy.nodes()) == 10001


def test_in_play_order_lists_each_step_then_the_steps_played_in_its_place() -> None:
    """As a chess program lists variations: the line in play at depth 0, each step
    followed by the others played in its place (and the rest of their lines) a level
    deeper; what was played after the step in play is a branch too."""
    match = Game(GameSetup(seed=1))
    root: GameNode[str] = GameNode(parent=None, record=None, match=match.match)
    a = root.add_variation("a", match.match)
    b = a.add_variation("b", match.match)  # the main line: a b c
    c = b.add_variation("c", match.match)
    b2 = a.add_variation("b2", match.match)  # played in b's place, and on: b2 c2
    b2.add_variation("c2", match.match)
    b2.add_variation("c3", match.match)  # in c2's place, deeper
    c.add_variation("d", match.match)  # after c
    order = [(node.record, depth) for node, depth in in_play_order(root, c)]
    assert order == [
        ("a", 0),
        ("b", 0),
        ("b2", 1),
        ("c2", 1),
        ("c3", 2),
        ("c", 0),
        ("d", 1),
    ]
    # Playing along the branch: it is the line in play, the main line a branch of it.
    order = [(node.record, depth) for node, depth in in_play_order(root, b2)]
    assert order == [("a", 0), ("b2", 0), ("b", 1), ("c", 1), ("d", 1), ("c2", 1), ("c3", 1)]


# -- the table: take it again, play from here ---------------------------------------------


def controller_after(shots: int, tmp_path: Path) -> tuple[TableController, Clock]:
    clock = Clock()
    autosave = Autosave(tmp_path / "auto.poolsim")
    controller = TableController(played(shots), InProcessSimulator(), autosave, clock=clock)
    return controller, clock


def test_take_it_again_at_the_table(tmp_path: Path) -> None:
    """The balls where they were, the match as it was, the same stroke loaded: shot again
    unchanged, it is the same shot; the attempt taken back is in the autosave."""
    controller, clock = controller_after(5, tmp_path)
    last = controller.game.shots[-1]
    taken = controller.branches.take_back()
    assert taken is last
    assert controller.stage is Stage.AIM
    assert controller.balls() == dict(last.start)
    stroke = controller.stroke()
    assert stroke.action == last.stroke.action  # exactly: power to speed does not round it
    assert (stroke.placement, stroke.call, stroke.declaration) == (
        last.stroke.placement,
        last.stroke.call,
        last.stroke.declaration,
    )
    assert "taken back" in controller.message
    controller.flush()
    kept = load(tmp_path / "auto.poolsim")
    assert len(kept.shots) == 4 and any(n.record for n in kept.root.nodes())
    assert kept.next_is_main and len([n for n in kept.root.nodes()]) == len(
        list(controller.game.root.nodes())
    )
    controller.strike()
    run_until(controller, clock, {Stage.WATCH})
    again = controller.game.shots[-1]
    assert again is not last and again.simulated.facts == last.simulated.facts
    run_until(controller, clock, {Stage.AIM, Stage.PLACE, Stage.CHOOSE, Stage.OVER})
    controller.flush()
    kept = load(tmp_path / "auto.poolsim")
    assert [len(line.nodes) for line in kept.lines()] == [
        len(line.nodes) for line in controller.game.lines()
    ]
    assert len(kept.lines()) == 2 and kept.lines()[1].nodes[0].record.stroke == last.stroke  # type: ignore[union-attr]
    controller.close()


def test_a_changed_stroke_after_taking_back_is_the_players_own(tmp_path: Path) -> None:
    controller, _clock = controller_after(3, tmp_path)
    last = controller.branches.take_back()
    controller.set_power(controller.aim.power * 0.9)
    assert controller.stroke().action.speed < last.stroke.action.speed
    controller.close()


def test_play_from_a_replayed_shot_at_the_table(tmp_path: Path) -> None:
    controller, clock = controller_after(6, tmp_path)
    game = controller.game
    second = next(n for n in game.current.path() if n.record is game.shots[1])
    assert isinstance(second.record, ShotRecord)
    main = [n.record for n in game.lines()[0].nodes]
    controller.branches.play_from(second)
    assert controller.balls() == dict(second.record.start)
    assert controller.stroke().action == second.record.stroke.action
    controller.strike()
    run_until(controller, clock, {Stage.AIM, Stage.PLACE, Stage.CHOOSE, Stage.OVER})
    assert [n.record for n in game.lines()[0].nodes] == main  # the main line as it was
    assert len(game.lines()) == 2 and game.records[-1] is game.lines()[1].nodes[0].record
    # Back to the end of the main line, and on from there.
    controller.branches.continue_from(game.lines()[0].nodes[-1])
    assert game.current.is_mainline() and game.records == main
    controller.close()


def test_no_take_back_while_the_physics_has_the_shot(tmp_path: Path) -> None:
    controller, _clock = controller_after(2, tmp_path)
    state = controller.state
    assert state is not None
    if controller.stage is Stage.PLACE:
        controller.confirm_placement()
    if controller.stage is Stage.CHOOSE:
        pytest.skip("the seed left a choice here")
    controller.strike()
    assert controller.stage is Stage.SIMULATING and not controller.branches.can_take_back
    with pytest.raises(GameError, match="still in the physics"):
        controller.branches.take_back()
    controller.close()


def test_an_opened_game_taken_back_is_archived_not_dropped(tmp_path: Path) -> None:
    """Opened from a saved file, a shot taken back and shot again leaves as many steps as
    the file had: the autosave is still another game, and is archived, never removed."""
    saved = tmp_path / "saved" / "mine.poolsim"
    game = played(3)
    save(game, saved)
    opened = load(saved)
    autosave = Autosave(tmp_path / "auto.poolsim")
    autosave.opened_from(saved, opened)
    clock = Clock()
    controller = TableController(opened, InProcessSimulator(), autosave, clock=clock)
    controller.branches.take_back()
    controller.flush()
    kept = autosave.archive()
    assert kept is not None and kept != saved and kept.is_file()
    assert len(load(kept).lines()) == 1 and load(kept).next_is_main
    assert load(saved).changes  # the saved file is untouched
    controller.close()


def test_the_match_over_can_be_taken_back() -> None:
    match = Game(GameSetup(race_to=1, seed=2))
    match.start(Player.A)
    rng = random.Random(2)
    while match.phase is not MatchPhase.OVER:
        play_turn(match, rng)
    match.take_back()
    assert match.phase is MatchPhase.RACK and match.winner() is None


def test_a_step_of_another_game_changes_nothing_at_the_table(tmp_path: Path) -> None:
    controller, _clock = controller_after(2, tmp_path)
    other = played(2, seed=3)
    stroke, changes = controller.stroke(), controller.game.changes
    for refused in (controller.branches.play_from, controller.branches.continue_from):
        with pytest.raises(GameError, match="not of this game"):
            refused(other.current.path()[-1])
    assert controller.stroke() == stroke and controller.game.changes == changes
    controller.close()


def test_promoting_and_deleting_at_the_table_are_autosaved(tmp_path: Path) -> None:
    controller, _clock = controller_after(4, tmp_path)
    game = controller.game
    second = next(n for n in game.current.path() if n.record is game.shots[1])
    controller.branches.play_from(second)
    controller.game.shoot(controller.stroke())  # the branch's first shot, as a step
    branch = game.current
    controller.branches.promote_to_main(branch)
    controller.flush()
    assert load(tmp_path / "auto.poolsim").lines()[0].nodes[-1].record is not None
    assert load(tmp_path / "auto.poolsim").current.is_mainline()
    old = game.lines()[1].nodes[0]
    controller.branches.delete(old)
    controller.flush()
    assert len(load(tmp_path / "auto.poolsim").lines()) == 1
    controller.close()
