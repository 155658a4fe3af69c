"""The README's screenshots of the scoreboard page (issues 32 and 37), made in
headless Chromium with the page served on loopback, in the dark theme:

* ``web_phone.png``: a phone (412 x 915) during a Bottoms Up game, played
  through the device's keys (the benchmark's key script, bench/scripts_*.py,
  on a live table, bench/live.py);
* ``web_tv.png``: a TV (the /tv layout at 1920 x 1080) at the end of a
  five-player Undercut game at the full-table level (seeded random legal
  moves): the winner's banner, the rule's reason and the tie-break's figures,
  the players in final order, the table's first page ("1/2": the TV pages
  what does not fit, issue 46);
* ``web_seat.png``: a seat's own page (issue 41) on a phone, in a phone's frame;
* ``web_after.png``: the phone page at the end of a three-player Undercut game
  (issue 50): the "Log this play in BG Stats" link and the chart of the game.

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


def after_shot(name: str = "web_after.png", seed: int = 6, width: int = 412, height: int = 915) -> None:
    """The phone page at the end of a game, scrolled to its BG Stats link and its chart (issue 50)."""
    from companion import public
    from companion.engine import CHANCE
    from companion.journal import Journal
    from companion.session import Session
    from companion.web import Board, WebApp, new_secret
    from hardware.web_server import WebServer
    with tempfile.TemporaryDirectory() as tmp:
        j = Journal(os.path.join(tmp, "journal.db"))
        s = Session.start(j, "undercut", {"players": ["Ann", "Bob", "Cyrielle"], "level": "full"},
                          random.Random(seed))
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
            d.get(f"http://127.0.0.1:{port}/{secret}/")
            shown(d, v["seq"])
            end = time.monotonic() + 10
            while not d.execute_script("const i = document.querySelector('#after img.chart-img');"
                                       "return i && i.complete && i.naturalWidth > 0"):
                if time.monotonic() > end:
                    raise RuntimeError("the chart did not load")
                time.sleep(0.05)
            d.execute_script("document.getElementById('end').scrollIntoView()")
            time.sleep(0.3)
            save(d, name)
        finally:
            if d is not None:
                d.quit()
            server.close()
            j.close()


def seat_shot(name: str = "web_seat.png", width: int = 390, height: int = 844) -> None:
    """A seat's own page (issue 41) on a phone, the color shown while the button is held."""
    from selenium.webdriver.common.action_chains import ActionChains

    from bench.scripts_bottoms_up import START, TOUR
    with tempfile.TemporaryDirectory() as tmp, LiveTable(tmp) as t:
        t.press(*START, "hold-ok")
        t.settle()
        url = t.call(lambda app: app.top.address)
        t.press("release", *TOUR[2:], *["ok"] * 14)
        t.settle()
        d = chromium(width, height)
        exact(d, width, height)
        try:
            d.get(url)
            shown(d, json.loads(t.page.board.snapshot()[1])["seq"])
            btn = d.find_element("id", "seat-show")
            ActionChains(d).click_and_hold(btn).pause(0.5).perform()
            time.sleep(0.2)
            raw = os.path.join(tmp, "seat.png")
            d.save_screenshot(raw)
            ActionChains(d).release(btn).perform()
        finally:
            d.quit()
        in_a_phone(raw, os.path.join(ROOT, "docs", "img", name))


def in_a_phone(src: str, dst: str) -> None:
    """The screenshot in a phone's frame on the table, as a photo would show it."""
    from PIL import Image, ImageDraw, ImageFilter
    screen = Image.open(src).convert("RGB")
    w, h = screen.size
    bezel, pad = 18, 40
    W, H = w + 2 * (bezel + pad), h + 2 * (bezel + pad) + 40
    out = Image.new("RGB", (W, H), (196, 164, 120))            # a wooden table
    shadow = Image.new("L", (W, H), 0)
    ImageDraw.Draw(shadow).rounded_rectangle((pad + 10, pad + 16, W - pad + 6, H - pad + 6), 56, fill=150)
    out.paste((90, 70, 50), (0, 0), shadow.filter(ImageFilter.GaussianBlur(14)))
    g = ImageDraw.Draw(out)
    g.rounded_rectangle((pad, pad, W - pad, H - pad), 56, fill=(24, 24, 26), outline=(70, 70, 74), width=3)
    top = pad + bezel + 40
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), 30, fill=255)
    out.paste(screen, (pad + bezel, top), mask)
    g.rounded_rectangle((W // 2 - 45, pad + 16, W // 2 + 45, pad + 30), 7, fill=(8, 8, 10))  # the speaker
    out.save(dst, optimize=True)


if __name__ == "__main__":
    phone("bottoms_up", 306, "web_phone.png")
    tv_at_the_end("web_tv.png")
    seat_shot()
    after_shot()
