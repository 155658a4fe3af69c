"""A seat's own page in a real browser (issue 41, RULINGS V-3): joined by the
address zbar decodes from the device's frame while the player holds OK, the
color shown only while the phone's button is held (or after a tap, until the
next), live updates, and the address ending with the game and with a renewal."""
from __future__ import annotations

import json
import time


from bench.live import LiveTable
from bench.scripts_bottoms_up import START, TOUR
from tests.test_seat_screen import scan


def seen(d) -> dict:
    return d.execute_script("""
        const t = (id) => { const e = document.getElementById(id); return e ? e.innerText.trim() : null; };
        const c = document.getElementById('seat-color');
        return {seq: document.body.dataset.seq || "", color: c && !c.hidden ? c.innerText.trim() : "",
                title: t('seat-title'), hint: t('seat-hint'),
                button: (b => b && !b.hidden ? b.innerText.trim() : "")(document.getElementById('seat-show')),
                page: document.body.innerText};""")


def until(d, pred, timeout: float = 10.0) -> dict:
    end = time.monotonic() + timeout
    while True:
        got = seen(d)
        if pred(got):
            return got
        if time.monotonic() > end:
            raise AssertionError(f"the seat page shows {got}")
        time.sleep(0.02)


def test_a_seat_page_from_the_devices_code_shows_the_color_only_while_held(browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    with LiveTable(str(tmp_path)) as t:
        t.press(*START, "hold-ok")
        t.settle()
        frame = t.call(lambda app: app.frame())
        seat, word = t.call(lambda app: (app.top.seat, None))
        url = scan(frame, tmp_path)
        t.press("release")
        t.settle()
        color = json.loads(t.page.board.seat_snapshot(url.rstrip("/").rsplit("/", 1)[1])[1])["seat"]
        assert color["seat"] == seat
        browser.get(url)
        got = until(browser, lambda g: g["title"] and g["button"])
        assert got["color"] == "" and color["color_word"] not in got["page"]  # hidden until held
        btn = browser.find_element("id", "seat-show")
        box = "return document.querySelector('.seat').getBoundingClientRect().height"
        height = browser.execute_script(box)
        chain = ActionChains(browser)
        chain.click_and_hold(btn).pause(0.6).perform()
        held = until(browser, lambda g: g["color"] != "")
        assert held["color"] == color["color_word"]
        assert browser.execute_script(box) == height  # the box keeps its size: the page does not jump (issue 46)
        ActionChains(browser).release(btn).perform()
        until(browser, lambda g: g["color"] == "")                          # released: hidden again
        assert browser.execute_script(box) == height
        btn.click()                                                          # a tap: shown until the next
        until(browser, lambda g: g["color"] == color["color_word"])
        btn.click()
        until(browser, lambda g: g["color"] == "")
        # live: the game goes on, the seat page follows it
        before = seen(browser)["seq"]
        t.press(*TOUR[2:], *["ok"] * 6)                   # the others look, then play
        t.settle()
        want = str(json.loads(t.page.board.snapshot()[1])["seq"])
        assert want != before
        until(browser, lambda g: g["seq"] == want)


def joined(t, browser) -> str:
    """The first player holds OK on the device, and their phone opens the seat page."""
    t.press(*START, "hold-ok")
    t.settle()
    url = t.call(lambda app: app.top.address)
    t.press("release")
    browser.get(url)
    until(browser, lambda g: bool(g["button"]))
    return url


def test_the_seat_page_ends_with_the_game_and_with_a_renewal(browser, tmp_path):
    from bench.stale import finish
    from companion.public import labels
    with LiveTable(str(tmp_path)) as t:
        url = joined(t, browser)
        finish(3)(t)                                     # the game played to its end
        t.settle()
        ended = until(browser, lambda g: g["button"] == "" and g["color"] == ""
                      and g["hint"] == labels()["seat_ended"])
        final = json.loads(t.page.board.snapshot()[1])
        assert final["session"]["over"]
        for p in final["players"]:                       # the public final view: every name is there
            assert p["name"] in ended["page"]
        browser.get(url)                                 # a fresh load: the address has ended
        assert "Not Found" in browser.page_source
    with LiveTable(str(tmp_path / "renew")) as t:
        url = joined(t, browser)
        t.call(lambda app: app.web.renew(app))
        deadline = time.monotonic() + 5
        while "Not Found" not in browser.page_source and time.monotonic() < deadline:
            status = browser.execute_script("return document.getElementById('status').className")
            if "off" in status or "expired" in status or "gone" in status:
                break
            time.sleep(0.05)
        browser.get(url)
        assert "Not Found" in browser.page_source
