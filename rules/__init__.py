"""poolsim's referee: WPA 10-ball, WPA 9-ball, WPA 8-ball, 61-point 15-ball rotation and
WPA 14.1 continuous (straight pool), pure and deterministic.

    state = TenBall.new_rack(rack_positions, breaker=Player.A)
    ruling = state.rule(shot)        # the referee's decision, as data
    state = state.apply(ruling)      # or state.push(shot)
    if state.legal_choices:          # a decision turn
        state = state.choose(Choice.PASS)

Rule IDs (GEN-n, TB-n, NB-n, EB-n, ROT-n, SP-n, B-n) are those of the rules reference;
docs/RULES.md says how poolsim applies them.
"""

from rules.eight_ball import EightBall
from rules.errors import FormatError, IllegalAction
from rules.facts import CUE, BallId, PocketId, RailName
from rules.games import DEFAULT_GAME, GAMES, PLAYABLE_GAMES, fullest_rack, game_kind
from rules.geometry import TableGeometry
from rules.groups import Group, Groups, Loss, Target
from rules.lag import LagResult, LagShot, judge_lag
from rules.match import Match, MatchPhase
from rules.nine_ball import NineBall
from rules.options import Options
from rules.positions import Positions
from rules.rack import RackPattern
from rules.rotation import Rotation
from rules.ruling import Reason, Ruling
from rules.shot import Call, Shot
from rules.spotting import spot_ball, spot_balls
from rules.state import Decision, GameState, RackResult
from rules.straight_pool import StraightPool, StraightPoolExtras
from rules.ten_ball import TenBall
from rules.terms import BallInHand, Choice, Declaration, FoulCode, Phase, Player, Tally

__all__ = [
    "CUE",
    "DEFAULT_GAME",
    "GAMES",
    "PLAYABLE_GAMES",
    "BallId",
    "BallInHand",
    "Call",
    "Choice",
    "Decision",
    "Declaration",
    "EightBall",
    "FormatError",
    "FoulCode",
    "GameState",
    "Group",
    "Groups",
    "IllegalAction",
    "LagResult",
    "LagShot",
    "Loss",
    "Match",
    "MatchPhase",
    "NineBall",
    "Options",
    "Phase",
    "Player",
    "PocketId",
    "Positions",
    "RackPattern",
    "RackResult",
    "RailName",
    "Reason",
    "Rotation",
    "Ruling",
    "Shot",
    "StraightPool",
    "StraightPoolExtras",
    "TableGeometry",
    "Tally",
    "Target",
    "TenBall",
    "fullest_rack",
    "game_kind",
    "judge_lag",
    "spot_ball",
    "spot_balls",
]
