"""The README's screenshots of the scoreboard page (issues 32 and 37), made in
headless Chromium with the page served on loopback, in the dark theme:

* ``web_phone.png``: a phone (412 x 915) during a Bottoms Up game, played
  through the device's keys (the benchmark's key script, bench/scripts_*.py,
  on a live table, bench/live.py);
* ``web_tv.png``: a TV (the /tv layout at 1920 x 1080) at the end of a
  five-player Undercut game at the full-table level (seeded random legal
  moves): the winner's banner, the rule's reason, the players in final order.

    .venv/bin/python docs/screenshots_web.py
"""
from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.browser import chromium  # noqa: E402
from bench.live import LiveTable, free_port  # noqa: E402
from bench.scripts import GAME_SCRIPTS, _load_games  # noqa: E402


def exact(d, width: int, height: int) -> None:
    """The viewport exactly ``width`` x ``height`` CSS px, in the dark theme."""
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    d.execute_cdp_cmd("Emulation.setEmulatedMedia",
                      {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})


def shown(d, seq: int, timeout: float = 10) -> None:
    end = time.monotonic() + timeout
    while d.execute_script("return document.body.dataset.seq") != str(seq):
        if time.monotonic() > end:
            raise RuntimeError("the page did not follow")
        time.sleep(0.02)
    time.sleep(0.3)


def save(d, name: str) -> None:
    out = os.path.join(ROOT, "docs", "img", name)
    d.save_screenshot(out)
    print(f"wrote {os.path.relpath(out, ROOT)}")


def phone(game: str, presses: int, name: str, width: int = 412, height: int = 915) -> None:
    _load_games()
    keys = GAME_SCRIPTS[game](False)[:presses]
    with tempfile.TemporaryDirectory() as tmp, LiveTable(tmp) as t:
        t.press(*keys)
        t.settle()
        d = chromium(width, height)
        try:
            exact(d, width, height)
            d.get(t.url)
            shown(d, json.loads(t.page.board.snapshot()[1])["seq"])
            save(d, name)
        finally:
            d.quit()


def tv_at_the_end(name: str, seed: int = 5, width: int = 1920, height: int = 1080) -> None:
    from companion import public
    from companion.engine import CHANCE
    from companion.journal import Journal
    from companion.session import Session
    from companion.web import Board, WebApp, new_secret
    from hardware.web_server import WebServer
    with tempfile.TemporaryDirectory() as tmp:
        j = Journal(os.path.join(tmp, "journal.db"))
        s = Session.start(j, "undercut", {"players": ["Ann", "Bob", "Cyrielle", "Dominique", "Eve"],
                                          "level": "full"}, random.Random(seed))
        pick = random.Random(seed + 1)
        while not s.state.is_terminal():
            if s.state.current_player != CHANCE:
                s.play(pick.choice(list(s.state.legal_moves())))
        board = Board()
        v = public.view(s)
        board.set(v["seq"], v)
        secret, port = new_secret(), free_port()
        server = WebServer(WebApp(board, j.path, secret), "127.0.0.1", port).start()
        d = None
        try:
            assert server.started.wait(10), server.last_error
            d = chromium(width, height)
            exact(d, width, height)
            d.get(f"http://127.0.0.1:{port}/{secret}/tv")
            shown(d, v["seq"])
            save(d, name)
        finally:
            if d is not None:
                d.quit()
            server.close()
            j.close()


if __name__ == "__main__":
    phone("bottoms_up", 306, "web_phone.png")
    tv_at_the_end("web_tv.png")
