"""Helpers of the page's tests: whole games played to their end through
the engine (random legal moves, the device's draws), a page served for them on
loopback, and a Chromium whose viewport is exactly the size asked (a TV's
1920x1080 or 960x540, a phone's 320 CSS px)."""
from __future__ import annotations

import json
import random
import time
from typing import Any

from companion import public
from companion.engine import CHANCE
from companion.journal import Journal
from companion.session import Session
from companion.web import Board, WebApp, new_secret


def play(j: Journal, game: str, setup: dict[str, Any], seed: int = 5, *, moves: int = 5000) -> Session:
    """A session of ``game`` played with random legal moves: ``moves`` of them, or to its end."""
    s = Session.start(j, game, setup, random.Random(seed))
    pick = random.Random(seed + 1)
    for _ in range(moves):
        st = s.state
        if st.is_terminal():
            break
        if st.current_player != CHANCE:
            s.play(pick.choice(list(st.legal_moves())))
    return s


def finished(j: Journal, game: str, setup: dict[str, Any], seed: int = 5) -> Session:
    s = play(j, game, setup, seed)
    assert s.state.is_terminal(), f"the random {game} game did not end"
    return s


def publish(board: Board, s: Session) -> dict[str, Any]:
    v = public.view(s)
    board.set(v["seq"], v)
    return v


class Served:
    """A page for ``board`` on a free loopback port (the real server)."""

    def __init__(self, board: Board, journal_path: str | None):
        from hardware.web_server import WebServer
        from bench.live import free_port
        self.secret = new_secret()
        self.app = WebApp(board, journal_path, self.secret)
        self.port = free_port()
        self.server = WebServer(self.app, "127.0.0.1", self.port).start()
        assert self.server.started.wait(10), self.server.last_error
        self.url = f"http://127.0.0.1:{self.port}/{self.secret}/"

    def close(self) -> None:
        self.server.close()


def viewport(d, width: int, height: int, *, dark: bool | None = None, scale: float = 1.0) -> None:
    """The page's viewport exactly ``width`` x ``height`` CSS px, and the system's theme."""
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": False})
    if dark is not None:
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})


def shown(d, seq: int, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while d.execute_script("return document.body.dataset.seq") != str(seq):
        if time.monotonic() > end:
            raise AssertionError(f"the page did not show seq {seq}")
        time.sleep(0.02)
    time.sleep(0.1)


def load(d, url: str, board: Board) -> dict[str, Any]:
    d.get(url)
    v = json.loads(board.snapshot()[1])
    shown(d, v["seq"])
    return v
