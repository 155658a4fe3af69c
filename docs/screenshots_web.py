"""The README's screenshots of the scoreboard page (issue 32), made in headless
Chromium against a live table (bench/live.py), as a phone (412 x 915) and as a TV
(1920 x 1080, the /tv layout):

    .venv/bin/python docs/screenshots_web.py

It plays the benchmark's key scripts of a game (bench/scripts_*.py) up to a
point worth showing, then saves docs/img/web_*.png."""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.browser import chromium  # noqa: E402
from bench.live import LiveTable  # noqa: E402
from bench.scripts import GAME_SCRIPTS, _load_games  # noqa: E402


def shown(d, seq: int, timeout: float = 10) -> None:
    end = time.monotonic() + timeout
    while d.execute_script("return document.body.dataset.seq") != str(seq):
        if time.monotonic() > end:
            raise RuntimeError("the page did not follow")
        time.sleep(0.02)
    time.sleep(0.2)


def shot(game: str, presses: int, name: str, width: int, height: int, path: str = "") -> None:
    _load_games()
    keys = GAME_SCRIPTS[game](False)[:presses]
    with tempfile.TemporaryDirectory() as tmp, LiveTable(tmp) as t:
        t.press(*keys)
        t.settle()
        d = chromium(width, height)
        try:
            d.get(t.url + path)
            shown(d, json.loads(t.page.board.snapshot()[1])["seq"])
            out = os.path.join(ROOT, "docs", "img", name)
            d.save_screenshot(out)
            print(f"wrote {os.path.relpath(out, ROOT)}")
        finally:
            d.quit()


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
    shot("bottoms_up", 306, "web_phone.png", 412, 915)
    shot("undercut", 40, "web_tv.png", 1920, 1080, "tv")
    seat_shot()
