"""``poolsim duel --scheduler`` at an address where no Dask scheduler answers: one line
and status 2 within 15 s, whatever listens there (loopback only), and no line of the
progress bar before it; and no line from Dask's threads after it."""

from __future__ import annotations

import http.server
import os
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from tests.run import poolsim

BOUND_S = 15.0
Greeter = Callable[[socket.socket], None]


def _say_nothing(connection: socket.socket) -> None:
    """Accept, and never answer (a port forwarded to nothing, a stuck service)."""


def _junk(connection: socket.socket) -> None:
    connection.sendall(os.urandom(4096))


def _huge_frame(connection: socket.socket) -> None:
    """A frame length of 2^62 bytes, the first thing a Dask peer reads."""
    connection.sendall(struct.pack("Q", 2**62))


def _small_junk(connection: socket.socket) -> None:
    """A frame of plausible length that holds no Dask greeting."""
    connection.sendall(struct.pack("Q", 12) + b"hello, world")


@pytest.fixture
def listener(request: pytest.FixtureRequest) -> Iterator[int]:
    """A port on 127.0.0.1 where ``request.param`` greets each connection."""
    greet: Greeter = request.param
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:  # closed: the test is over
                return
            held.append(connection)  # kept open, as a live service would
            greet(connection)

    threading.Thread(target=serve, daemon=True).start()
    yield server.getsockname()[1]
    server.close()
    for connection in held:
        connection.close()


@pytest.fixture
def http_server() -> Iterator[int]:
    """An HTTP server on 127.0.0.1: it waits for a request, so it says nothing first."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def _duel_at(address: str) -> tuple[list[str], float]:
    started = time.monotonic()
    result = poolsim("duel", "--a", "1", "--b", "1", "--racks", "1", "--scheduler", address)
    elapsed = time.monotonic() - started
    assert result.returncode == 2 and result.stdout == "", result.stderr
    return result.stderr.splitlines(), elapsed


@pytest.mark.parametrize(
    ("listener", "said"),
    [
        (_say_nothing, "said nothing in 5 s"),
        (_junk, "is not a Dask scheduler"),
        (_huge_frame, "announces 4,611,686,018,427,387,904 bytes"),
        (_small_junk, "answers something else"),
    ],
    indirect=["listener"],
)
def test_a_listener_that_is_no_scheduler_is_one_line_within_15_s(listener: int, said: str) -> None:
    lines, elapsed = _duel_at(f"tcp://127.0.0.1:{listener}")
    assert len(lines) == 1 and said in lines[0], lines
    assert elapsed < BOUND_S


def test_an_http_server_is_no_scheduler_one_line_within_15_s(http_server: int) -> None:
    lines, elapsed = _duel_at(f"tcp://127.0.0.1:{http_server}")
    assert lines == [
        f"poolsim: error: tcp://127.0.0.1:{http_server} is not a Dask scheduler:"
        " it said nothing in 5 s"
    ]
    assert elapsed < BOUND_S


def test_a_closed_port_and_tls_without_certificates_are_one_line() -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]  # closed when the block ends: nothing listens
    lines, _ = _duel_at(f"tcp://127.0.0.1:{port}")
    assert lines == [
        f"poolsim: error: cannot reach the scheduler at tcp://127.0.0.1:{port}: Connection refused"
    ]
    lines, _ = _duel_at(f"tls://127.0.0.1:{port}")
    assert len(lines) == 1 and "tls:// needs Dask's TLS certificates" in lines[0]
