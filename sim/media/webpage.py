"""A whole match as one web page (``poolsim export GAME --html OUT.html``): one HTML file
that plays every shot in any browser, offline, with no install and no server.

Why this design:

- **No physics in the page, and no frame dump.** A game file holds pooltool's state of
  every ball at every event of every shot. Between two events a ball's motion is a
  closed form (:mod:`sim.physics.timeline`), so the page carries only those states and
  evaluates the same closed forms in JavaScript (``assets/web/viewer.js`` ports
  :meth:`ShotTimeline._evaluate`, the coefficients and the orientation knots). A
  ten-rack match is a few hundred kilobytes of states, where frames at 60 fps would be
  hundreds of megabytes.
- **Compact states.** A ball at rest (or down) keeps its state from one event to the
  next; only changed (event, ball) states are stored, marked in a byte a cell. Event
  times and start orientations are float64; a ball state (position, velocity, angular
  velocity) is float32, which keeps a position to well under a micrometre. The arrays
  are little-endian bytes in base64 inside a JSON block.
- **Self-contained.** three.js (pinned, vendored from the npm registry with its licence
  in ``assets/web/vendor/three``) and its OrbitControls are inlined as ``data:``
  modules of an import map, the ball textures and the cloth as ``data:`` PNGs, so the
  page makes no network request at all.
- **The words are poolsim's own.** The referee's plain line and its details (with rule
  IDs), the shot's label, the call and the score come from :mod:`sim.play.said` and the
  game tree here, in Python; the page only shows them.

The page's JavaScript API, ``window.poolsim``, lets a test drive it and read back where
the balls are (``tests/media/test_webpage.py``).
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
from numpy.typing import NDArray

from rules import CUE, Match
from rules.words import DECLARATION_WORDS
from sim.files import replacing
from sim.paths import assets_dir
from sim.physics.timeline import ShotTimeline
from sim.play.branches import in_play_order
from sim.play.game import Game, GameError, LagRecord, ShotRecord, shot_number
from sim.play.said import detail_lines, record_line

if TYPE_CHECKING:
    from sim.physics.simulate import System

THREE_VERSION = "0.170.0"  # assets/web/vendor/three: build/three.module.min.js of it
FORMAT = 1  # the page's data format (window.poolsim.format)
# pooltool's motion states that leave a ball's state unchanged from event to event.
_AT_REST = (0, 4)  # stationary, pocketed
# The balls' path colours as the desktop replay draws them (sim.app.replay.BALL_COLOURS,
# which media may not import): solids as the standard set, a stripe's lighter.
_SOLID_COLOURS: dict[int, tuple[float, float, float]] = {
    1: (1.0, 0.82, 0.1),
    2: (0.35, 0.55, 1.0),
    3: (0.95, 0.15, 0.12),
    4: (0.62, 0.3, 0.9),
    5: (1.0, 0.5, 0.05),
    6: (0.1, 0.72, 0.3),
    7: (0.85, 0.35, 0.25),
    8: (0.08, 0.08, 0.08),
}
_STRIPE_LIGHTER = 0.4


class WebPageError(ValueError):
    """A page that cannot be made; the message is one line."""


def path_colour(ball: str) -> str:
    """The colour of a ball's path, as CSS hex (the desktop replay's)."""
    number = int(ball) if ball.isdigit() else 0
    rgb: tuple[float, ...]
    if ball == CUE:
        rgb = (1.0, 1.0, 1.0)
    elif number in _SOLID_COLOURS:
        rgb = _SOLID_COLOURS[number]
    elif number - 8 in _SOLID_COLOURS:  # a stripe: its solid's colour, lighter
        rgb = tuple(c + (1 - c) * _STRIPE_LIGHTER for c in _SOLID_COLOURS[number - 8])
    else:
        rgb = (0.75, 0.75, 0.75)  # a ball of no standard set (a lag's second cue ball)
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgb)


def _b64(array: NDArray[Any], dtype: str) -> str:
    return base64.b64encode(np.ascontiguousarray(array, dtype=dtype).tobytes()).decode("ascii")


def shot_data(system: System, params_index: dict[tuple[float, ...], int]) -> dict[str, Any]:
    """One shot's motion: event times, the changed ball states, the balls' parameters
    (an index into the page's table of parameter sets), start orientations, markers."""
    timeline = ShotTimeline.from_system(system)
    ids = timeline.ball_ids
    balls = [system.balls[b] for b in ids]
    histories = [ball.history.states for ball in balls]
    rvw = np.array([[s.rvw for s in h] for h in histories]).transpose(1, 0, 2, 3)  # E,B,3,3
    motion = np.array([[s.s for s in h] for h in histories], dtype=np.uint8).T  # E,B
    changed = np.ones(motion.shape, dtype=bool)
    same = np.all(rvw[1:] == rvw[:-1], axis=(2, 3)) & (motion[1:] == motion[:-1])
    changed[1:] = ~(same & np.isin(motion[1:], _AT_REST))
    param_sets = []
    for ball in balls:
        p = ball.params
        key = tuple(float(getattr(p, name)) for name in ("R", "u_s", "u_r", "u_sp", "g"))
        param_sets.append(params_index.setdefault(key, len(params_index)))
    return {
        "ids": list(ids),
        "params": param_sets,
        "t": _b64(timeline.event_times, "<f8"),
        "q0": _b64(timeline.start_orientations, "<f8"),
        "new": _b64(changed, "u1"),
        "rvw": _b64(rvw[changed].reshape(-1, 9), "<f4"),
        "m": _b64(motion[changed], "u1"),
        "markers": [
            {"t": m.t, "kind": str(m.kind), "balls": list(m.balls), "place": m.place}
            for m in timeline.markers
        ],
    }


def _score(match: Match, game: Game) -> str:
    """Racks won (and a rotation rack's points) after a step of the match."""
    names = game.setup.players
    won = match.racks_won
    text = f"{names[0]} {won.a}-{won.b} {names[1]}"
    state = match.rack
    if state is not None and state.keeps_score:
        text += f" · points {state.score.a}-{state.score.b}"
    return text


def _call(record: ShotRecord) -> str:
    stroke = record.stroke
    if stroke.call is not None:
        return f"call: {stroke.call}"
    if stroke.declaration is not None:
        return f"declared: {DECLARATION_WORDS[stroke.declaration]}"
    return ""


@attrs.frozen
class PageShot:
    """One shot of the page, in the page's order: its system and its words."""

    system: System
    words: dict[str, Any]


def page_shots(game: Game, branch: int | None = None, rack: int | None = None) -> list[PageShot]:
    """Every shot of ``game`` in the desktop replay's order (the line in play, each shot
    followed by the branches played in its place, a level deeper; lag shots first), or
    the shots of line ``branch`` only (0: the main line); of rack ``rack`` only if given.
    The page's shot N is this list's item N."""
    setup = game.setup
    names = setup.players
    if branch is None:
        nodes = in_play_order(game.root, game.current)
    else:
        nodes = [(node, 0) for node in game.line_shot_nodes(branch)]
    shots: list[PageShot] = []
    for node, depth in nodes:
        record = node.record
        if isinstance(record, LagRecord) and rack is None:
            for name, shot in zip(names, record.simulated, strict=True):
                words = {
                    "label": f"Lag: {name}", "short": f"lag {name}", "depth": depth, "rack": 0,
                    "said": "", "details": [], "shooter": name, "score": "", "score_before": "",
                    "call": "",
                }  # fmt: skip
                shots.append(PageShot(shot.system, words))
        elif isinstance(record, ShotRecord) and rack in (None, record.rack):
            rack_number, number = shot_number(node)
            name = setup.name(record.shooter)
            ruling = record.ruling
            words = {
                "label": f"Rack {rack_number}, shot {number}: {name}"
                + (" (a branch)" if depth else ""),
                "short": f"{rack_number}.{number} {name}",
                "depth": depth,
                "rack": rack_number,
                "said": record_line(record, setup),
                "details": [[text, foul] for text, foul in detail_lines(ruling.reasons, names)],
                "shooter": name,
                "score": _score(node.match, game),
                "score_before": _score(node.parent.match, game) if node.parent else "",
                "call": _call(record),
            }
            shots.append(PageShot(record.simulated.system, words))
    if not shots:
        where = f"rack {rack}" if rack is not None else "the game"
        raise WebPageError(f"{where} has no shots to show")
    return shots


def match_data(game: Game, branch: int | None = None, rack: int | None = None) -> dict[str, Any]:
    """The page's data: the match's words, its table and every shot's motion
    (:func:`page_shots` says which shots, in which order)."""
    setup = game.setup
    names = setup.players
    shots = page_shots(game, branch, rack)
    params_index: dict[tuple[float, ...], int] = {}
    entries = [{**shot_data(shot.system, params_index), **shot.words} for shot in shots]
    title = setup.kind.display_name
    if setup.practice:
        title = f"Practice · {title}"
    else:
        title = f"{names[0]} v {names[1]} · {title} · race to {setup.race_to}"
    if rack is not None:
        title += f" · rack {rack}"
    if branch is not None:
        title += " · main line" if branch == 0 else f" · branch {branch}"
    return {
        "format": FORMAT,
        "title": title,
        "players": list(names),
        "params": [list(key) for key in params_index],
        "table": _table(shots[0].system),
        "colours": {ball: path_colour(ball) for ball in (CUE, *map(str, range(1, 16)))},
        "shots": entries,
    }


def _table(system: System) -> dict[str, Any]:
    """The table the page draws: the cloth's size, the cushions' straight noses (x1, y1,
    x2, y2) and height, the pockets (id, centre x, y, radius), as the physics has them."""
    table = system.table
    cushions = [
        [float(v) for v in (*seg.p1[:2], *seg.p2[:2])]
        for seg in table.cushion_segments.linear.values()
    ]
    height = max(float(seg.p1[2]) for seg in table.cushion_segments.linear.values())
    return {
        "width": float(table.w),
        "length": float(table.l),
        "cushion_height": height,
        "pockets": [
            [pid, float(p.center[0]), float(p.center[1]), float(p.radius)]
            for pid, p in table.pockets.items()
        ],
        "cushions": cushions,
    }


def _data_url(path: Path, mime: str) -> str:
    return f"data:{mime};base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def _json_in_html(value: object) -> str:
    """JSON safe inside a <script> element: no "</" to end it early."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def page_html(data: dict[str, Any]) -> str:
    """The page: the template with the viewer, three.js, the textures and ``data``."""
    web = assets_dir() / "web"
    vendor = web / "vendor" / "three"
    balls = assets_dir() / "balls"
    textures = {
        ball: _data_url(balls / f"{ball}.png", "image/png")
        for ball in (CUE, *map(str, range(1, 16)))
    }
    for number in range(1, 16):
        textures[f"label-{number}"] = _data_url(balls / f"label-{number}.png", "image/png")
    textures["cloth"] = _data_url(assets_dir() / "cloth.png", "image/png")
    imports = {
        "imports": {
            "three": _data_url(vendor / "three.module.min.js", "text/javascript"),
            "three/addons/controls/OrbitControls.js": _data_url(
                vendor / "OrbitControls.js", "text/javascript"
            ),
        }
    }
    template = (web / "viewer.html").read_text(encoding="utf-8")
    css = (web / "viewer.css").read_text(encoding="utf-8")
    script = (web / "viewer.js").read_text(encoding="utf-8")
    if "</script" in script.lower() or "</style" in css.lower():
        raise WebPageError("the viewer's code would end its own element early")
    parts = {
        "{{TITLE}}": _html_text(str(data["title"])),
        "{{STYLE}}": css,
        "{{IMPORTMAP}}": _json_in_html(imports),
        "{{TEXTURES}}": _json_in_html(textures),
        "{{DATA}}": _json_in_html(data),
        "{{SCRIPT}}": script,
    }
    html = template
    for key, value in parts.items():
        if html.count(key) != 1:
            raise WebPageError(f"the page template must hold {key} once")
        html = html.replace(key, value)
    return html


def _html_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_page(game: Game, out: Path, *, branch: int | None = None, rack: int | None = None) -> int:
    """Write the match's page to ``out`` atomically; return its size in bytes."""
    try:
        data = match_data(game, branch, rack)
    except GameError as error:
        raise WebPageError(str(error)) from None
    html = page_html(data).encode("utf-8")
    with replacing(out) as temporary:
        temporary.write_bytes(html)
    return len(html)
