"""The match as one web page (issue 34), opened in a real headless browser (Debian's
chromium, over CDP: tests/media/browser.py): it loads with no console error and no
network request; the balls it reports are the desktop timeline's to 0.1 mm; it draws
the table; its scrub bar, frame step and event step move the time as they should; its
layout fits a phone and a desktop. Without chromium (``.ci/run`` installs it) the
browser tests are skipped, the page's own checks not."""

from __future__ import annotations

import io
import itertools
import json
import math
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from sim.cli import cli
from sim.media.webpage import page_shots, write_page
from sim.physics.timeline import ShotTimeline
from sim.store.gamefile import load
from tests.media.browser import Browser, chromium_path

GAMES = Path(__file__).resolve().parent.parent / "data" / "games"
DUEL = GAMES / "duel-ten-ball-won.poolsim"  # a 10-ball rack of a duel
PRACTICE = GAMES / "practice-nine-ball.poolsim"  # 9-ball practice: a shot taken again
TOLERANCE = 1e-4  # metres: 0.1 mm
FRAME = 1 / 60
DESKTOP, PHONE = (1280, 800), (390, 844)
MAX_PAGE = 5_000_000  # bytes, for a 10-rack match of about 150 shots

CHROMIUM = chromium_path()
needs_browser = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pages")
    out = {}
    for name, game in (("duel", DUEL), ("practice", PRACTICE)):
        out[name] = folder / f"{name}.html"
        write_page(load(game), out[name])
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM is not None
    opened = Browser(CHROMIUM)
    try:
        yield opened
    finally:
        opened.close()


def _times(timeline: ShotTimeline) -> list[float]:
    """Every event time, a time between each two, and a few fractions of the shot."""
    events = timeline.event_times.tolist()
    between = [(a + b) / 2 for a, b in itertools.pairwise(events) if b > a]
    spread = [timeline.duration * f for f in (0.0, 0.013, 0.29, 0.5, 0.77, 0.999, 1.0)]
    return sorted(set(events + between + spread))


# -- without a browser ---------------------------------------------------------------


def test_the_page_is_one_file_with_no_address_to_fetch(pages: dict[str, Path]) -> None:
    html = pages["practice"].read_text(encoding="utf-8")
    assert "default-src 'none'" in html  # the page may fetch nothing, whatever its code says
    for tag in ('src="http', "src='http", 'href="http', "url(http"):
        assert tag not in html
    data = json.loads(html.split('id="poolsim-data">', 1)[1].split("</script>", 1)[0])
    assert [shot["depth"] for shot in data["shots"]] == [0, 1, 0]  # the branch marked
    assert data["shots"][0]["said"]


def test_a_ten_rack_match_stays_under_five_megabytes(pages: dict[str, Path]) -> None:
    """The page's fixed part (three.js, the viewer, the textures) and its bytes a shot,
    from a rack of a duel, make a 150-shot match well under 5 MB."""
    shots = len(page_shots(load(DUEL)))
    size = pages["duel"].stat().st_size
    fixed = pages["practice"].stat().st_size - 3 * (size / shots)  # an upper bound
    per_shot = (size - max(fixed, 0)) / shots
    assert fixed + 150 * per_shot < MAX_PAGE * 0.7, (fixed, per_shot)


def test_the_command_writes_a_page_of_one_rack_or_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "rack.html"
    result = runner.invoke(cli, ["export", str(PRACTICE), "--html", str(out), "--rack", "2"])
    assert result.exit_code == 0, result.output
    assert "wrote" in result.output and out.stat().st_size > 100_000
    line = tmp_path / "line.html"
    result = runner.invoke(cli, ["export", str(PRACTICE), "--html", str(line), "--branch", "1"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["export", str(PRACTICE), "--html", str(line), "--branch", "9"])
    assert result.exit_code == 2 and "no branch 9" in result.output
    result = runner.invoke(cli, ["export", str(PRACTICE), "--html", str(out), "--rack", "9"])
    assert result.exit_code != 0 and "rack 9 has no shots" in result.output
    result = runner.invoke(cli, ["export", str(PRACTICE), "--html", str(out), "--fps", "20"])
    assert result.exit_code != 0 and "--fps does not apply to --html" in result.output
    result = runner.invoke(cli, ["export", str(PRACTICE), "--gif", str(out), "--rack", "1"])
    assert result.exit_code != 0 and "--rack goes with --html" in result.output


# -- in the browser ------------------------------------------------------------------


@needs_browser
@pytest.mark.parametrize("name", ["practice", "duel"])
def test_the_page_loads_with_no_error_and_no_request(
    browser: Browser, pages: dict[str, Path], name: str
) -> None:
    browser.open(pages[name], *DESKTOP)
    browser.evaluate("window.poolsim.select(window.poolsim.shots - 1)")
    browser.evaluate("window.poolsim.setView('overhead'); window.poolsim.setView('behind')")
    browser.key("PageUp", "PageUp", 33)
    assert browser.errors() == []
    assert browser.requests() == []


@needs_browser
@pytest.mark.parametrize("name,game", [("practice", PRACTICE), ("duel", DUEL)])
def test_the_balls_are_where_the_desktop_timeline_has_them(
    browser: Browser, pages: dict[str, Path], name: str, game: Path
) -> None:
    browser.open(pages[name], *DESKTOP)
    shots = page_shots(load(game))
    assert browser.evaluate("window.poolsim.shots") == len(shots)
    for index, shot in enumerate(shots):
        timeline = ShotTimeline.from_system(shot.system)
        times = _times(timeline)
        got = browser.evaluate(
            f"{json.dumps(times)}.map((t) => [window.poolsim.positions({index}, t),"
            f" window.poolsim.orientations({index}, t)])"
        )
        for t, (positions, orientations) in zip(times, got, strict=True):
            states = timeline.at(t)
            for b, ball in enumerate(timeline.ball_ids):
                error = np.abs(np.array(positions[ball]) - states.positions[b]).max()
                assert error <= TOLERANCE, f"shot {index}, t={t}, ball {ball}: {error} m off"
                # A turn of the ball: the same rotation (q or -q) to a small angle.
                dot = abs(float(np.dot(orientations[ball], states.orientations[b])))
                assert 2 * math.acos(min(dot, 1.0)) < 1e-3, f"shot {index}, t={t}, ball {ball}"


@needs_browser
@pytest.mark.parametrize("size", [DESKTOP, PHONE])
def test_a_screenshot_shows_the_table_and_the_layout_fits(
    browser: Browser, pages: dict[str, Path], size: tuple[int, int]
) -> None:
    browser.open(pages["duel"], *size, mobile=size == PHONE)
    browser.evaluate("window.poolsim.seek(0.4); window.poolsim.setView('overhead')")
    browser.evaluate(
        "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    box = browser.evaluate(
        "(() => { const r = document.getElementById('view').getBoundingClientRect();"
        " return [r.left, r.top, r.width, r.height]; })()"
    )
    shot = Image.open(io.BytesIO(browser.screenshot())).convert("RGB")
    left, top, width, height = (round(v) for v in box)
    assert width > 200 and height > 200
    canvas = np.asarray(shot.crop((left, top, left + width, top + height)))
    colours = len(np.unique(canvas.reshape(-1, 3), axis=0))
    assert colours > 500, f"the canvas has {colours} colours: blank?"
    r, g, b = (canvas[..., i].astype(int) for i in range(3))
    cloth = ((g > r + 20) & (g > b + 10)).mean()
    assert cloth > 0.15, f"only {cloth:.0%} of the view is cloth"
    # Nothing sticks out sideways; every button is inside the page's width.
    assert browser.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    right = browser.evaluate(
        "Math.max(...[...document.querySelectorAll('button')].map((b) =>"
        " b.getBoundingClientRect().right))"
    )
    assert right <= size[0]


@needs_browser
def test_the_scrub_bar_and_the_steps_move_the_time(
    browser: Browser, pages: dict[str, Path]
) -> None:
    browser.open(pages["duel"], *DESKTOP)
    browser.evaluate("window.poolsim.select(0); window.poolsim.pause()")

    def state() -> dict[str, float]:
        value: dict[str, float] = browser.evaluate("window.poolsim.state()")
        return value

    duration = state()["duration"]
    bar = browser.evaluate(
        "(() => { const r = document.getElementById('scrub').getBoundingClientRect();"
        " return [r.left, r.top, r.width, r.height]; })()"
    )
    left, top, width, height = bar
    for fraction in (0.25, 0.75, 0.5):
        browser.click(left + width * fraction, top + height / 2)
        # A range input maps a click across its width less its thumb's: a few per cent.
        assert state()["t"] == pytest.approx(fraction * duration, abs=0.04 * duration)
    assert not state()["playing"]

    browser.evaluate("window.poolsim.seek(0.5)")
    browser.key("ArrowRight", "ArrowRight", 39)
    assert state()["t"] == pytest.approx(0.5 + FRAME, abs=1e-9)
    browser.key("ArrowLeft", "ArrowLeft", 37)
    browser.key("ArrowLeft", "ArrowLeft", 37)
    assert state()["t"] == pytest.approx(0.5 - FRAME, abs=1e-9)

    events = sorted(
        {m.t for m in ShotTimeline.from_system(page_shots(load(DUEL))[0].system).markers}
    )
    browser.evaluate("window.poolsim.seek(0)")
    for expected in events[1:4]:
        if expected <= 1e-9:
            continue
        browser.key("]", "BracketRight", 221)
        assert state()["t"] == pytest.approx(expected, abs=1e-9)
    browser.key("[", "BracketLeft", 219)
    assert state()["t"] == pytest.approx(events[2], abs=1e-9)

    browser.key(" ", "Space", 32)
    assert state()["playing"]
    browser.key(" ", "Space", 32)
    assert not state()["playing"]
    browser.key("=", "Equal", 187)
    assert state()["speed"] == 1.5
    browser.key("l", "KeyL", 76)
    assert state()["loop"]
    browser.key("PageDown", "PageDown", 34)
    assert state()["shot"] == 1 and state()["playing"]  # a shot opens at its stroke, playing
    assert state()["t"] < 1.0
    assert browser.errors() == []


def test_the_vendored_three_is_the_pinned_version() -> None:
    from sim.media.webpage import THREE_VERSION
    from sim.paths import assets_dir

    head = (assets_dir() / "web" / "vendor" / "three" / "three.module.min.js").read_text()[:400]
    assert f'const t="{THREE_VERSION.split(".")[1]}"' in head
    assert (
        (assets_dir() / "web" / "vendor" / "three" / "LICENSE")
        .read_text()
        .startswith("The MIT License")
    )


@needs_browser
def test_the_mouse_orbits_and_the_keys_switch_views_and_paths(
    browser: Browser, pages: dict[str, Path]
) -> None:
    browser.open(pages["practice"], *DESKTOP)
    browser.evaluate("window.poolsim.pause()")
    box = browser.evaluate(
        "(() => { const r = document.getElementById('view').getBoundingClientRect();"
        " return [r.left, r.top, r.width, r.height]; })()"
    )
    left, top, width, height = box
    centre = (left + width / 2, top + height / 2)
    before = browser.evaluate("window.poolsim.camera()")
    browser.drag(centre, (centre[0] + width / 4, centre[1]))
    deadline = time.monotonic() + 5.0  # the orbit eases in over frames (damping)
    while True:
        after = browser.evaluate("window.poolsim.camera()")
        moved = float(np.linalg.norm(np.subtract(after["position"], before["position"])))
        if moved > 0.2 or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert moved > 0.2, "dragging the mouse did not orbit the camera"
    assert after["target"] == pytest.approx(before["target"])  # it turned round the table

    browser.key("2", "Digit2", 50)  # overhead: straight down onto the table's centre
    position = browser.evaluate("window.poolsim.camera()")["position"]
    assert position[2] > 2.0 and abs(position[0] - 1.27 / 2) < 0.01
    browser.evaluate(
        "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    assert browser.evaluate("window.poolsim.labels()") > 0  # the numbers over the balls
    browser.key("3", "Digit3", 51)
    browser.evaluate(
        "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    browser.key("t", "KeyT", 84)
    assert browser.evaluate("window.poolsim.paths()") is False
    browser.key("t", "KeyT", 84)
    assert browser.evaluate("window.poolsim.paths()") is True
    assert browser.errors() == []
