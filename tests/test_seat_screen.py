"""Joining a seat (RULINGS V-3): while a player holds OK to see their
secret color, the device also shows the QR code of that seat's own page; the
code scans from the panel's frame; a setting draws the color too or only the
code; without the page the screen is as before."""
from __future__ import annotations

import json
import shutil
import subprocess
import urllib.request

import pytest
from PIL import Image, ImageOps

from bench.live import LiveTable
from bench.scripts_bottoms_up import START
from companion.config import change


def scan(frame, tmp_path) -> str:
    zbar = shutil.which("zbarimg")
    if zbar is None:
        pytest.skip("no zbarimg here (apt-get install zbar-tools)")
    f = frame.convert("L").point(lambda v: 255 if v else 0)
    seen = ImageOps.expand(f.resize((f.width * 6, f.height * 6), Image.NEAREST), border=30, fill=0)
    path = tmp_path / "panel.png"
    seen.save(path)
    return subprocess.run([zbar, "-q", "--raw", str(path)], capture_output=True, text=True, timeout=30).stdout.strip()


def held_frame(t):
    t.press("hold-ok")
    t.settle()
    return t.call(lambda app: app.frame()), t.call(lambda app: (app.top.seat, app.top.session))


def test_holding_ok_shows_the_seats_code_and_the_code_opens_that_seats_color(tmp_path):
    with LiveTable(str(tmp_path)) as t:
        t.press(*START)
        t.settle()
        frame, (seat, session) = held_frame(t)
        url = scan(frame, tmp_path)
        assert url.startswith("http://127.0.0.1:") and url != t.url and url.endswith("/")
        assert t.page.secret not in url            # the seat's token, not the device's secret
        got = json.load(urllib.request.urlopen(url + "state.json", timeout=5))
        assert got["seat"]["seat"] == seat and got["seat"]["color"] == session.state.secrets[seat].value
        t.press("release")
        t.settle()
        # the next player's hold shows the next seat's code: another address
        frame2, (seat2, _s) = held_frame(t)
        assert seat2 != seat and scan(frame2, tmp_path) not in ("", url)


def test_the_code_alone_when_the_setting_says_so(tmp_path):
    """With the code alone nothing drawn depends on the color: two seats of other
    colors give the same frame (same address); with the color they differ."""
    import dataclasses
    import random
    from companion.games.bottoms_up import Color
    from companion.journal import Journal
    from companion.session import Session
    from companion.ui.bottoms_up import draw_secret
    from companion.ui.draw import Canvas
    j = Journal(str(tmp_path / "j.db"))
    s = Session.start(j, "bottoms_up", {"players": ["Ann", "Bob"], "secret": "device"}, random.Random(1))
    a = s.state
    other = next(c for c in Color if c not in a.secrets)
    b = dataclasses.replace(a, secrets=(other,) + a.secrets[1:])
    url = "http://192.168.1.20:8032/AbCdEfGhIjKlMnOp/"

    def frame(st, show):
        c = Canvas()
        draw_secret(c, st, 0, url, show)
        return c.image.tobytes()
    assert frame(a, False) == frame(b, False)
    assert frame(a, True) != frame(b, True)
    j.close()
    with LiveTable(str(tmp_path / "live")) as t:
        t.call(lambda app: app.save_settings(change(app.settings, bu_seat_color=False)))
        t.press(*START)
        t.settle()
        alone, (seat, session) = held_frame(t)
        assert t.call(lambda app: app.top.show_color) is False
        assert scan(alone, tmp_path).startswith("http://")


def test_without_the_page_the_color_screen_is_as_before(tmp_path):
    from tests.screens_util import make_app
    from companion.ui.bottoms_up import SecretTour
    from companion.session import Session
    import random
    app = make_app(tmp_path)
    s = Session.start(app.journal, "bottoms_up", {"players": ["Ann", "Bob"], "secret": "device"}, random.Random(1))
    app.push(SecretTour(s))
    app.handle_key = getattr(app, "handle_key", None)
    app.top.on_key(__import__("companion.io", fromlist=["Key"]).Key.HOLD_OK, app)
    assert app.top.address is None                          # no page: no code
    text = app.screen_text()
    assert text.strip()
    app.journal.close()
