"""Every drill poolsim ships can be made: its file's reference strokes, played with the
physics on a practice table set up at the drill's position (as ``poolsim drill`` does),
are an attempt the scorer calls made. The kick and the bank are made as their titles
say: the cue ball reaches a rail before the 7, the 8 a rail before its pocket."""

from __future__ import annotations

import os
import sys

import attrs
import pytest

from rules import CUE
from rules.facts import Hit, Pocketing, RailContact, ShotFacts
from sim.physics.simulate import simulate_shot
from sim.play.drill import attempt_over, score_attempt
from sim.play.game import Game, GameSetup, Stroke
from sim.store.drillfile import ShippedDrill, shipped_drills

pytestmark = pytest.mark.physics

SHIPPED = shipped_drills()


def play_reference(shipped: ShippedDrill) -> tuple[list[ShotFacts], Game]:
    drill = shipped.drill
    game = Game(GameSetup(game=drill.position.game, table=drill.position.table, practice=True))
    game.set_up(drill.position)
    shots: list[ShotFacts] = []
    for action in shipped.reference:
        assert not attempt_over(drill, shots), f"{drill.name}: over before its reference ends"
        shots.append(game.shoot(Stroke(action=action)).simulated.facts)
    return shots, game


@pytest.mark.parametrize("shipped", SHIPPED, ids=[s.drill.name for s in SHIPPED])
def test_the_reference_strokes_make_the_drill(shipped: ShippedDrill) -> None:
    shots, game = play_reference(shipped)
    assert attempt_over(shipped.drill, shots)
    assert game.rack is not None
    cue_at = game.rack.balls.get(CUE)
    score = score_attempt(shipped.drill, shots, cue_at)
    assert score.made, f"{shipped.drill.name}: {score.words}"
    assert score.points == shipped.drill.max_points


def test_the_eight_kinds_of_drill_are_shipped() -> None:
    names = {s.drill.name for s in SHIPPED}
    assert {
        "stop-shot",
        "follow",
        "draw",
        "thin-cut",
        "three-ball-run-out",
        "one-rail-kick",
        "bank",
        "break-area-position",
    } <= names


def _before(facts: ShotFacts, first: type, ball: str, then: object) -> bool:
    """Whether a fact of kind ``first`` for ``ball`` comes before ``then``."""
    for fact in facts:
        if fact == then:
            return False
        if isinstance(fact, first) and getattr(fact, "ball", None) == ball:
            return True
    return False


def test_the_kick_reaches_a_rail_first_and_the_bank_drives_the_8_into_one() -> None:
    by_name = {s.drill.name: s for s in SHIPPED}
    (kick,), _ = play_reference(by_name["one-rail-kick"])
    first_hit = next(f for f in kick if isinstance(f, Hit))
    assert first_hit.balls == (CUE, "7") or first_hit.balls == ("7", CUE)
    assert _before(kick, RailContact, CUE, first_hit)
    (bank,), _ = play_reference(by_name["bank"])
    pocketed = next(f for f in bank if isinstance(f, Pocketing))
    assert _before(bank, RailContact, "8", pocketed)


SEARCH = os.environ.get("POOLSIM_DRILL_SEARCH") == "1"


@pytest.mark.skipif(not SEARCH, reason="POOLSIM_DRILL_SEARCH=1 searches round each drill")
@pytest.mark.parametrize(
    "shipped",
    [s for s in SHIPPED if s.drill.shots == 1],
    ids=[s.drill.name for s in SHIPPED if s.drill.shots == 1],
)
def test_how_much_room_each_drill_leaves(shipped: ShippedDrill) -> None:
    """A search round the reference stroke (aim +-1 degree by 0.05, speed -30% to +30%,
    draw or follow +-0.1): the share of strokes that make the drill, a measure of how
    hard it is, printed; the drill is made by more than the reference alone."""
    drill = shipped.drill
    (reference,) = shipped.reference
    spec = drill.position.spec
    made = tried = 0
    for step in range(-20, 21):
        for scale in (0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3):
            for db in (-0.1, 0.0, 0.1):
                try:
                    action = attrs.evolve(
                        reference,
                        aim=reference.aim + step * 0.05,
                        speed=reference.speed * scale,
                        b=reference.b + db,
                    )
                except ValueError:  # past the miscue limit
                    continue
                shot = simulate_shot(spec, drill.position.balls, action)
                tried += 1
                made += score_attempt(drill, [shot.facts], shot.after.get(CUE)).made
    sys.__stdout__.write(f"\n{drill.name}: {made} of {tried} strokes round the reference make it")
    assert made > 1
