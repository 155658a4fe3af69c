"""The page follows what the device shows (RULINGS V-4): it keeps the
winner while the device shows its end pages (Bag of Ice's winning bank, Bottoms
Up's scores and what scored), it never runs ahead of the device (a bust still on
screen, Undercut's "Who passed?", the secret-color round from the menu), and the
History page speaks the device's language. The screens declare what they show
(``companion.shown``); the app publishes it (``App.showing``); the projection
follows it without looking at the app."""
from __future__ import annotations

import json
import os
import random
import time

import pytest

from bench.live import LiveTable
from companion.engine import pick_chance
from companion.journal import Journal
from companion.session import Session
from companion.shown import Shown
from companion.words import page

GAMES = {
    "bag_of_ice": {"players": ["Ann", "Bob"]},
    "bottoms_up": {"players": ["Ann", "Bob", "Cy"], "secret": "device"},
    "undercut": {"players": ["Ann", "Bob", "Cy"]},
}


def play_until(session: Session, rng: random.Random, stop) -> None:
    """Seeded legal moves (the device's draws by ``rng``) until ``stop(session)``."""
    for _ in range(20000):
        st = session.state
        if stop(session) or st.is_terminal():
            return
        session.play(str(pick_chance(st, rng) if st.is_chance_node() else rng.choice(sorted(st.legal_moves(), key=str))))


def journal_with(folder: str, game: str, seed: int, stop=lambda s: False, setup=None) -> Session:
    """The table's journal with one ``game`` played by seeded moves until ``stop`` (or its end)."""
    os.makedirs(folder, exist_ok=True)
    j = Journal(os.path.join(folder, "journal.db"))
    s = Session.start(j, game, setup or GAMES[game], random.Random(seed))
    play_until(s, random.Random(seed + 1), stop)
    j.close()
    return s


def tv_of(d) -> dict:
    return d.execute_script("""
        const b = document.body;
        return {seq: b.dataset.seq || "", banner: !document.getElementById('end').hidden,
                waiting: document.getElementById('waiting').textContent,
                to_act: document.querySelectorAll('#scores .to-act').length};""")


def follows(d, t, pred, timeout: float = 10.0) -> dict:
    """The TV page once it shows the board's newest projection (then ``pred`` is asked of it)."""
    want = str(json.loads(t.page.board.snapshot()[1])["seq"])
    end = time.monotonic() + timeout
    while True:
        got = tv_of(d)
        if (got["seq"] == want and pred(got)) or time.monotonic() > end:
            return got
        time.sleep(0.05)


def lines_of(screen) -> list:
    lines = getattr(screen, "lines", None) or []
    return list(lines() if callable(lines) else lines)


def device_top(t) -> dict:
    """The device's top screen, as the table reads it: its title and lines."""
    return t.call(lambda app: {"title": str(getattr(app.top, "title", "")),
                               "lines": [str(x) for x in lines_of(app.top)],
                               "shown": app.showing()[1].value})


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_tv_keeps_the_winner_through_the_devices_end_pages(browser, tmp_path, game):
    """The device reopens the game it stopped on (main menu > Last game) with the
    pages its last move showed; then OK through them to the winner and what scored.
    Whenever the device shows the end (its winner, the scores, what scored), the TV
    shows the winner banner, never "the device shows what happened"."""
    from bench.stale import choose
    folder = str(tmp_path / game)
    s = journal_with(folder, game, 5)
    assert s.state.is_terminal()
    with LiveTable(folder) as t:
        t.press(*choose("Last game")(t))
        t.settle()
        browser.get(t.url + "tv")
        pending = page.end_pending_words()
        went, crowned_pages = [], 0
        for _press in range(6):
            top = device_top(t)
            tv = follows(browser, t, lambda g: True)
            went.append((top["title"], top["shown"], tv["banner"]))
            if top["shown"] == Shown.MAIN_MENU.value:
                break
            if top["shown"] == Shown.MOVE.value:   # a page of what the last move did: not the end yet
                tv = follows(browser, t, lambda g: g["waiting"] == pending)
                assert not tv["banner"] and tv["waiting"] == pending, went
            else:                                   # the device shows the end: so does the TV
                tv = follows(browser, t, lambda g: g["banner"])
                assert tv["banner"] and tv["waiting"] != pending, went
                crowned_pages += 1
            if game == "bag_of_ice" and _press == 0:  # the bank that won says so on the device
                assert any("wins!" in line for line in top["lines"]), top
                assert tv["banner"], went
            t.press("ok")
            t.settle()
        assert crowned_pages >= 1, went
        if game == "bottoms_up":  # OK, OK on the winner: the scores, then what scored
            assert ("Scores", Shown.SCORED.value, True) in went, went


def test_the_page_does_not_run_ahead_of_a_bust_still_on_the_device(tmp_path):
    from bench.stale import choose

    def busted(s: Session) -> bool:
        h = getattr(s.state, "history", ())
        return bool(h) and h[-1].bust
    s = journal_with(str(tmp_path), "bag_of_ice", 3, busted)
    assert busted(s) and not s.state.is_terminal()
    with LiveTable(str(tmp_path)) as t:
        t.press(*choose("Resume")(t))
        t.settle()
        assert device_top(t)["shown"] == Shown.MOVE.value      # BUST! is on the device's screen
        v = json.loads(t.page.board.snapshot()[1])
        assert v["to_act"] is None and v["waiting"] == page.move_page_words()
        assert v["change"]["kind"] == "bust"
        t.press("ok")                                           # the device goes on: so does the page
        t.settle()
        v = json.loads(t.page.board.snapshot()[1])
        assert v["to_act"] == s.state.current_player and v["waiting"] != page.move_page_words()


def test_who_passed_marks_nobody_to_play(tmp_path):
    from bench.stale import choose
    from companion.games.undercut import Kind
    s = journal_with(str(tmp_path), "undercut", 3, lambda s: s.state.decision().kind == Kind.WHO_PASSED,
                     {"players": ["Ann", "Bob", "Cy"], "level": "score"})  # the score sheet (U-11)
    assert s.state.decision().kind == Kind.WHO_PASSED
    with LiveTable(str(tmp_path)) as t:
        t.press(*choose("Resume")(t))
        t.settle()
        for _ in range(6):  # the pages of the move before, then the question
            if device_top(t)["shown"] != Shown.MOVE.value:
                break
            t.press("ok")
            t.settle()
        assert device_top(t)["shown"] == Shown.QUESTION.value
        v = json.loads(t.page.board.snapshot()[1])
        assert v["to_act"] is None


def test_the_secret_color_round_from_the_menu_shows_on_the_page(tmp_path):
    from bench.scripts_bottoms_up import START, TOUR
    from tests.test_web_seat_browser import menu
    with LiveTable(str(tmp_path)) as t:
        t.press(*START, *TOUR, "ok", "ok", "ok")
        t.settle()
        assert json.loads(t.page.board.snapshot()[1])["to_act"] is not None
        menu(t, "Secret colors")                                # the round again, mid-game (BU-3)
        assert t.call(lambda app: type(app.top).__name__) == "SecretTour"
        v = json.loads(t.page.board.snapshot()[1])
        assert v["to_act"] is None and v["waiting"] == page.secret_tour_words()


def test_the_history_page_speaks_the_devices_language(browser, tmp_path):
    """The page's own process has no settings: it follows the language of the
    projections the device hands it, also for history.json and its page."""
    from bench.stale import switch_language
    journal_with(str(tmp_path), "undercut", 4)
    with LiveTable(str(tmp_path)) as t:
        switch_language(t)
        t.settle()
        assert t.call(lambda app: app.settings.language) == "fr"
        browser.get(t.url + "history")
        end = time.monotonic() + 10
        while time.monotonic() < end:
            got = browser.execute_script("return {lang: document.documentElement.lang, "
                                         "title: document.getElementById('title').textContent, "
                                         "games: document.body.dataset.games || ''};")
            if got["games"] and got["lang"] == "fr":
                break
            time.sleep(0.1)
        assert got["lang"] == "fr" and got["title"] == "Historique", got
        text = browser.find_element("id", "games").text
        assert "Undercut" in text or "Sous-enchère" in text or "#1" in text
        import urllib.request
        with urllib.request.urlopen(t.url + "history.json", timeout=10) as r:
            h = json.loads(r.read())
        assert h["lang"] == "fr" and h["labels"]["history"] == "Historique"
