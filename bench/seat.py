"""A seat's own page (issue 41, RULINGS V-3) in headless Chromium.

A Bottoms Up game with the page on: the first player holds OK on the device to
see their color, the phone's camera is zbar reading the device's frame (or the
screen's own address where zbar is missing, said in the extras), and the seat
page is opened in Chromium; then the game is played through the keys.

* ``web_seat_update_p95_ms``: from a press put on the loop's queue to the seat
  page's DOM showing its seq (the same ``MutationObserver`` as
  ``web_update_p95_ms``), every press of the script that moved the journal.
* ``presses_secret_color_phone``: mid-game, the player sees their color again
  on the phone (holds the page's button until the color's word shows): the
  presses that took on the device. None if the color never showed or was not
  that seat's.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from typing import Any

from .scripts_bottoms_up import START, STRETCH, TOUR
from .walks import percentile
from .web import OBSERVE, Meter, update_lags


def _scan(frame, folder: str) -> str | None:
    zbar = shutil.which("zbarimg")
    if zbar is None:
        return None
    from PIL import Image, ImageOps
    f = frame.convert("L").point(lambda v: 255 if v else 0)
    seen = ImageOps.expand(f.resize((f.width * 6, f.height * 6), Image.NEAREST), border=30, fill=0)
    path = os.path.join(folder, "panel.png")
    seen.save(path)
    out = subprocess.run([zbar, "-q", "--raw", path], capture_output=True, text=True, timeout=30).stdout
    return out.strip() or None


def measure(folder: str, *, stretches: int = 6, interval_s: float = 0.08) -> dict[str, Any]:
    from .browser import Unavailable, chromium
    from .live import LiveTable
    try:
        d = chromium(390, 844)
    except Unavailable as e:
        return {"web_seat_update_p95_ms": None, "presses_secret_color_phone": None, "web_seat_reason": str(e)}
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.action_chains import ActionChains
    out: dict[str, Any] = {}
    try:
        with LiveTable(folder) as t:
            t.press(*START, "hold-ok")
            t.settle()
            frame = t.call(lambda app: app.frame())
            seat, address = t.call(lambda app: (app.top.seat, app.top.address))
            url = _scan(frame, folder)
            out["web_seat_joined_by"] = "zbar" if url else "the screen's address (no zbar here)"
            url = url or address
            t.press("release")
            t.settle()
            token = url.rstrip("/").rsplit("/", 1)[1]
            want = json.loads(t.page.board.seat_snapshot(token)[1])["seat"]
            d.get(url)
            end = time.monotonic() + 15
            while d.execute_script("return document.body.dataset.seq") is None:
                if time.monotonic() > end:
                    return {**out, "web_seat_update_p95_ms": None, "presses_secret_color_phone": None,
                            "web_seat_reason": "the seat page never rendered"}
                time.sleep(0.05)
            d.execute_script(OBSERVE)
            m = Meter(t)
            presses = m.play(TOUR[2:] + STRETCH * stretches, interval_s)
            time.sleep(1.0)
            seen = {int(k): v / 1000 for k, v in d.execute_script("return window.__seen").items()}
            # mid-game: the player looks again, on the phone only
            device_before = len(m.presses)
            btn = d.find_element("id", "seat-show")
            ActionChains(d).click_and_hold(btn).pause(0.3).perform()
            shown = ""
            end = time.monotonic() + 5
            while time.monotonic() < end and not shown:
                shown = d.execute_script(
                    "const c = document.getElementById('seat-color'); return c && !c.hidden ? c.innerText : '';")
                time.sleep(0.02)
            ActionChains(d).release(btn).perform()
            right = shown.strip() == want["color_word"] and want["seat"] == seat
            out["presses_secret_color_phone"] = len(m.presses) - device_before if right else None
    except WebDriverException as e:
        return {**out, "web_seat_update_p95_ms": None, "presses_secret_color_phone": None,
                "web_seat_reason": f"Chromium failed: {type(e).__name__}: {str(e).splitlines()[0][:200]}"}
    finally:
        d.quit()
    lags, missed = update_lags(presses, seen)
    return {**out, "web_seat_update_p95_ms": round(percentile(lags, 0.95), 1) if lags else None,
            "web_seat_update_p50_ms": round(percentile(lags, 0.5), 1) if lags else None,
            "web_seat_update_presses": len(lags), "web_seat_update_missed": missed}


def note(fig: dict[str, Any]) -> str:
    """The paragraph of docs/performance.md on the seat page, with this run's figures."""
    def f(k: str) -> str:
        v = fig.get(k)
        return "n/a" if v is None else str(v)
    return (
        "* **A seat's own page** (issue 41, RULINGS V-3, bench/seat.py). A Bottoms Up game with the page "
        "on; the first player holds OK on the device to see their color and the seat page's address is "
        f"read from the device's frame ({fig.get('web_seat_joined_by', 'n/a')}), then opened in headless "
        "Chromium at a phone's size while the game is played through the keys, one every 80 ms. "
        f"`web_seat_update_p95_ms`: a press to the seat page's DOM showing its seq: {f('web_seat_update_p95_ms')} ms "
        f"(median {f('web_seat_update_p50_ms')} ms over {f('web_seat_update_presses')} presses, "
        f"{f('web_seat_update_missed')} never shown). `presses_secret_color_phone`: mid-game the player holds "
        "the page's button until their color's word shows; the presses that took on the device: "
        f"{f('presses_secret_color_phone')}.")
