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


if __name__ == "__main__":
    shot("bottoms_up", 306, "web_phone.png", 412, 915)
    shot("undercut", 40, "web_tv.png", 1920, 1080, "tv")
