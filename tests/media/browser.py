"""A real headless browser for the web page's tests: Debian's ``chromium``, driven over
the Chrome DevTools Protocol with the ``websockets`` package (synchronous client).

Playwright would download its own browser; this drives the one the system has, with
the handful of CDP calls the tests need: open a page, evaluate JavaScript, click, press
keys, set the viewport, take a screenshot; and it records the console's errors, the
page's uncaught exceptions and every network request the page makes.
"""

from __future__ import annotations

import base64
import contextlib
import json
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--allow-file-access-from-files",
)
# Schemes a page may load from without touching any network.
LOCAL_SCHEMES = ("file:", "data:", "blob:", "about:")


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class Browser:
    """One chromium process and one tab in it."""

    def __init__(self, executable: str, timeout: float = 60.0) -> None:
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="poolsim-chromium-")
        self.process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self.profile}",
             "--remote-debugging-port=0", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        url = self._devtools_url()
        self._stack = contextlib.ExitStack()
        self.socket: ClientConnection = self._stack.enter_context(
            connect(url, max_size=None, open_timeout=timeout)
        )
        self._id = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", session=True)

    def _devtools_url(self) -> str:
        assert self.process.stderr is not None
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line:
                break
            found = re.search(r"DevTools listening on (ws://\S+)", line)
            if found:
                return found.group(1)
        raise RuntimeError("chromium did not start its DevTools server")

    def call(self, method: str, *, session: bool = False, **params: Any) -> dict[str, Any]:
        """One CDP command; its result (the events that come meanwhile are kept)."""
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        self.socket.send(json.dumps(message))
        while True:
            reply = json.loads(self.socket.recv(timeout=self.timeout))
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            if "method" in reply:
                self.events.append(reply)

    def page(self, method: str, **params: Any) -> dict[str, Any]:
        return self.call(method, session=True, **params)

    def open(self, path: Path, width: int, height: int, mobile: bool = False) -> None:
        """Open a file at a viewport size and wait until the page says it is ready."""
        self.page(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=mobile,
        )
        self.events.clear()
        self.page("Page.navigate", url=path.resolve().as_uri())
        deadline = time.monotonic() + self.timeout
        while not self.evaluate("Boolean(window.poolsim && window.poolsim.ready)"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{path.name} did not become ready: {self.errors()}")
            time.sleep(0.1)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression (a promise's, once it settles)."""
        result = self.page(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def errors(self) -> list[str]:
        """The console's errors and the page's uncaught exceptions so far."""
        found = []
        for event in self.events:
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(json.dumps(params["exceptionDetails"])[:500])
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append(json.dumps(params.get("args"))[:500])
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                found.append(params["entry"].get("text", "")[:500])
        return found

    def requests(self) -> list[str]:
        """Every URL the page asked for over the network (not its own file, data, blob)."""
        urls = [
            e["params"]["request"]["url"]
            for e in self.events
            if e["method"] == "Network.requestWillBeSent"
        ]
        return [url for url in urls if not url.startswith(LOCAL_SCHEMES)]

    def all_requests(self) -> list[str]:
        return [
            e["params"]["request"]["url"][:80]
            for e in self.events
            if e["method"] == "Network.requestWillBeSent"
        ]

    def click(self, x: float, y: float) -> None:
        for kind in ("mousePressed", "mouseReleased"):
            self.page("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def drag(self, start: tuple[float, float], end: tuple[float, float], steps: int = 8) -> None:
        """Press the left button at ``start``, move to ``end``, release."""
        (x0, y0), (x1, y1) = start, end
        self.page("Input.dispatchMouseEvent", type="mouseMoved", x=x0, y=y0)
        self.page(
            "Input.dispatchMouseEvent", type="mousePressed", x=x0, y=y0, button="left", clickCount=1
        )
        for i in range(1, steps + 1):
            x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
            self.page(
                "Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y, button="left", buttons=1
            )
        self.page(
            "Input.dispatchMouseEvent",
            type="mouseReleased",
            x=x1,
            y=y1,
            button="left",
            clickCount=1,
        )

    def key(self, key: str, code: str, key_code: int) -> None:
        """Press and release one key as a keyboard would."""
        text = key if len(key) == 1 else ""
        self.page(
            "Input.dispatchKeyEvent",
            type="keyDown",
            key=key,
            code=code,
            windowsVirtualKeyCode=key_code,
            text=text,
        )
        self.page(
            "Input.dispatchKeyEvent",
            type="keyUp",
            key=key,
            code=code,
            windowsVirtualKeyCode=key_code,
        )

    def screenshot(self) -> bytes:
        return base64.b64decode(self.page("Page.captureScreenshot", format="png")["data"])

    def close(self) -> None:
        try:
            self._stack.close()
        finally:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            shutil.rmtree(self.profile, ignore_errors=True)
