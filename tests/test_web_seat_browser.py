"""A seat's own page in a real browser (RULINGS V-3): joined by the
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
        assert browser.execute_script(box) == height  # the box keeps its size: the page does not jump
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


def page_of(d) -> dict:
    """What the page shows beside the seat's box: its title, the winner banner, the
    connection's alert (a red note over a dimmed page), its links and the address
    it gives for the TV."""
    return d.execute_script("""
        const t = (id) => { const e = document.getElementById(id); return e ? e.innerText.trim() : null; };
        return {title: t('title'), banner: !document.getElementById('end').hidden, end: t('end-title'),
                alert: document.getElementById('conn').hidden ? "" : t('conn'),
                stale: document.body.classList.contains('stale'),
                history: document.getElementById('history-link').href,
                tv: document.getElementById('other-link').href, tv_address: t('tv-address'),
                waiting: t('waiting')};""")


def drawn(d, timeout: float = 10.0) -> dict:
    """The page as drawn, once its first state is in."""
    end = time.monotonic() + timeout
    while True:
        shown = page_of(d)
        if "#" in (shown["title"] or "") or time.monotonic() > end:
            return shown
        time.sleep(0.02)


def state_of(url: str) -> tuple[int, dict]:
    import urllib.error
    import urllib.request
    try:
        with urllib.request.urlopen(url + "state.json", timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, {}


def new_bottoms_up(t) -> None:
    """A new Bottoms Up game from the main menu, its colors drawn by the device."""
    from bench.stale import choose
    t.press(*choose("New game")(t), "down", "down", "ok", "ok", "ok", "ok")
    t.settle()


def menu(t, *labels: str) -> None:
    """The rest of the colors' round passed, then ``labels`` chosen on the session's menu."""
    from bench.stale import choose, session_menu
    if t.call(lambda app: type(app.top).__name__ == "SecretTour"):
        t.press(*TOUR[2:])
        t.settle()
    for key in session_menu(t):
        t.press(key)
        t.settle()
    for label in labels:
        t.press(*choose(label)(t))
        t.settle()


def test_a_seat_page_says_its_game_is_not_played_after_end_session_and_in_the_next_game(browser, tmp_path):
    """RULINGS V-3 (amended): the page belongs to its game. End session ends the color;
    the next game never shows on it, with or without a color."""
    with LiveTable(str(tmp_path)) as t:
        url = joined(t, browser)
        token = url.rstrip("/").rsplit("/", 1)[1]
        color = json.loads(t.page.board.seat_snapshot(token)[1])["seat"]["color_word"]
        menu(t, "End session", "Yes")
        t.settle()
        got = until(browser, lambda g: g["button"] == "" and g["hint"] and "#1" in (g["title"] or "") + g["page"])
        assert color not in got["page"]
        status, view = state_of(url)
        assert status == 200 and "color" not in view["seat"] and view["session"]["number"] == 1
        new_bottoms_up(t)                                  # the next game: #2, colors drawn anew
        assert json.loads(t.page.board.snapshot()[1])["session"]["number"] == 2
        time.sleep(1.0)                                    # an open page has had the time to follow
        for got in (seen(browser), None):
            if got is None:                                # a reload shows the same
                browser.get(url)
                got = until(browser, lambda g: bool(g["hint"]))
            shown = drawn(browser)
            assert "#2" not in shown["title"] and "#1" in shown["title"], shown
            assert got["button"] == "" and got["color"] == "", got
            assert not shown["alert"] and not shown["stale"]
        status, view = state_of(url)
        assert status == 200 and view["session"]["number"] == 1 and "color" not in view["seat"]
        assert view["players"] == [] and view["table"] == {}  # no other game's board under its name


def test_a_kept_games_seat_page_waits_and_comes_back_when_resumed(browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from bench.stale import choose
    with LiveTable(str(tmp_path)) as t:
        url = joined(t, browser)
        token = url.rstrip("/").rsplit("/", 1)[1]
        color = json.loads(t.page.board.seat_snapshot(token)[1])["seat"]["color_word"]
        menu(t, "Leave (kept)")
        t.settle()
        until(browser, lambda g: g["button"] == "" and bool(g["hint"]))
        t.press(*choose("Tools")(t))
        t.press(*choose("Pyramid die")(t))               # the device plays something else
        t.settle()
        time.sleep(1.0)
        got, shown = seen(browser), page_of(browser)
        assert got["button"] == "" and color not in got["page"] and "#1" in shown["title"], (got, shown)
        status, view = state_of(url)
        assert status == 200 and "color" not in view["seat"] and view["players"] == []
        t.press("back", "back")
        t.settle()
        t.press(*choose("Resume")(t))                    # the kept game again: its color comes back
        t.settle()
        assert json.loads(t.page.board.snapshot()[1])["session"]["number"] == 1
        until(browser, lambda g: bool(g["button"]))
        btn = browser.find_element("id", "seat-show")
        ActionChains(browser).click_and_hold(btn).pause(0.6).perform()
        assert until(browser, lambda g: g["color"] != "")["color"] == color
        ActionChains(browser).release(btn).perform()


def test_the_seat_page_keeps_the_final_view_after_the_game_and_ends_with_a_renewal(browser, tmp_path):
    """At a normal end the page shows the game's final public view with its winner
    banner (V-4), on a reload too and over the next game; only the color box says
    the color has ended. Its links go to the public pages, never to its own address."""
    import urllib.request
    from bench.stale import finish
    from companion.public import labels
    with LiveTable(str(tmp_path)) as t:
        url = joined(t, browser)
        token = url.rstrip("/").rsplit("/", 1)[1]
        finish(3)(t)                                     # the game played to its end
        t.settle()
        ended = until(browser, lambda g: g["button"] == "" and g["color"] == ""
                      and g["hint"] == labels()["seat_over"])
        final = json.loads(t.page.board.snapshot()[1])
        assert final["session"]["over"]
        for p in final["players"]:                       # the public final view: every name is there
            assert p["name"] in ended["page"]
        for reload in (False, True):
            if reload:
                browser.get(url)
                until(browser, lambda g: g["hint"] == labels()["seat_over"])
            shown = drawn(browser)
            assert shown["banner"] and not shown["alert"] and not shown["stale"], shown
            for link in (shown["history"], shown["tv"], shown["tv_address"]):
                assert token not in link                 # a link for others never holds the seat's address
            for link in (shown["history"], shown["tv"]):
                with urllib.request.urlopen(link, timeout=10) as r:
                    assert r.status == 200
        menu(t, "Leave")
        new_bottoms_up(t)                                # the next game: the page stays on its own
        time.sleep(1.0)
        shown = page_of(browser)
        assert shown["banner"] and "#1" in shown["title"] and "#2" not in shown["title"], shown
        status, view = state_of(url)
        assert status == 200 and view["session"]["number"] == 1 and view["end"] and "color" not in view["seat"]
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
