"""The end of a game in a real browser: the "Log this play in BG Stats" link on the phone page,
a seat page and the History page (its href followed: the play it carries is the
records'), the chart at the end and in History (its table's numbers against the
CSV rows written out by hand), the Players page (its numbers against the replayed
games counted by hand), axe with nothing serious, the TV left as it was (none of it
shows on /tv, so the 1/24 rule holds as before), and before the end no link and no
chart anywhere (V-1)."""
from __future__ import annotations

import csv
import io
import json
import time
import urllib.error
import urllib.request
from urllib.parse import parse_qs, urlsplit

import pytest

from companion import export, records
from companion.journal import Journal
from companion.web import Board
from tests.test_web_a11y import LEGIBILITY, LEGIBLE, axe_violations, wait_games
from tests.web_util import Served, finished, load, play, publish, viewport


def _until(fn, timeout: float = 15):
    end = time.monotonic() + timeout
    while True:
        got = fn()
        if got:
            return got
        assert time.monotonic() < end, "the page did not show it in time"
        time.sleep(0.1)


def _play_of(href: str) -> dict:
    parts = urlsplit(href)
    assert parts.scheme == "https" and parts.netloc == "app.bgstatsapp.com" and parts.path == "/createPlay.html"
    return json.loads(parse_qs(parts.query)["data"][0])


def _records_of(j: Journal, number: int) -> dict:
    info = j.by_number(number)
    rec = records.parse_lines(records.dumps(info.game, info.setup, j.events(info.id)).splitlines())
    return records.replay(rec).to_json()


def _csv_points(j: Journal, number: int) -> list[list[str]]:
    """The chart's table as it must read, from the CSV export written out by hand: the
    start's zeros, then each turn's last row."""
    info = j.by_number(number)
    s = export.session_summary(j, info)
    rows = list(csv.reader(io.StringIO(export.scores_csv(s.fold, info.setup))))
    n = len(s.players)
    by_turn: dict[int, list[str]] = {}
    for r in rows[1:]:
        by_turn[int(r[0])] = r[-n:]
    return [[str(v) for v in s.fold.states[0].scores()]] + [by_turn[t] for t in sorted(by_turn)]


TABLE = """
const t = document.querySelector(arguments[0] + ' .chart-table');
if (!t) return null;
return [...t.querySelectorAll('tbody tr')].map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent));
"""


@pytest.fixture
def served(tmp_path):
    made = []

    def make(j: Journal, s):
        board = Board()
        publish(board, s)
        srv = Served(board, j.path)
        made.append(srv)
        return board, srv
    yield make
    for srv in made:
        srv.close()


@pytest.mark.parametrize("game, setup", [("undercut", {"players": ["Ann", "Bob", "Cy"], "level": "full"}),
                                         ("bag_of_ice", {"players": ["Ann", "Bob"]}),
                                         ("bottoms_up", {"players": ["Ann", "Bob", "Cy", "Dee"]})])
def test_the_phone_page_links_the_play_to_bg_stats_and_shows_the_chart(browser, served, tmp_path, game, setup):
    j = Journal(str(tmp_path / "j.db"))
    s = finished(j, game, setup, 5)
    board, srv = served(j, s)
    viewport(browser, 390, 844, dark=True)
    v = load(browser, srv.url, board)
    href = _until(lambda: browser.execute_script(
        "const a = document.querySelector('#after a.bgstats'); return a && a.href"))
    assert browser.execute_script("return document.querySelector('#after a.bgstats').textContent") \
        == v["labels"]["bgstats"] == "Log this play in BG Stats"
    data = _play_of(href)
    out = _records_of(j, s.number)
    assert [p["score"] for p in data["players"]] == out["scores"]
    assert [i for i, p in enumerate(data["players"]) if p["winner"]] == out["outcome"]["winners"]
    assert all(p["rank"] == 1 for p in data["players"] if p["winner"])
    assert data["game"]["highestWins"] == (game != "undercut")
    # the chart: its table reads as the CSV rows, its image is the device's SVG
    got = _until(lambda: browser.execute_script(TABLE, "#after"))
    assert got == _csv_points(j, s.number)
    src = browser.execute_script("return document.querySelector('#after img.chart-img').src")
    with urllib.request.urlopen(src, timeout=30) as r:
        assert r.headers["Content-Type"].startswith("image/svg+xml") and b"<polyline" in r.read()
    assert _until(lambda: browser.execute_script(
        "const i = document.querySelector('#after img.chart-img'); return i.complete && i.naturalWidth > 0"))
    bad = axe_violations(browser)
    assert not bad, [(b["id"], b["help"]) for b in bad]


def test_a_seat_page_has_the_link_at_the_end_and_none_before(browser, tmp_path):
    """Each seat page shows the same link once the game is over (its last view
    is the public one), and none while the game goes on (V-1)."""
    from bench.stale import finish
    from bench.live import LiveTable
    from tests.test_web_seat_browser import joined
    with LiveTable(str(tmp_path)) as t:
        joined(t, browser)
        assert not browser.execute_script("return document.querySelector('#after a.bgstats, #after .chart')")
        finish(3)(t)
        t.settle()
        href = _until(lambda: browser.execute_script(
            "const a = document.querySelector('#after a.bgstats'); return a && a.href"))
        final = json.loads(t.page.board.snapshot()[1])
        data = _play_of(href)
        assert [p["score"] for p in data["players"]] == [p["score"] for p in final["players"]]
        assert [p["name"] for p in data["players"]] == [p["name"] for p in final["players"]]
        # the secret colors are in the play once over (V-1 allows it then), as roles
        assert all(p.get("role") for p in data["players"])


def test_the_history_page_links_each_finished_game_and_folds_its_chart(browser, served, tmp_path):
    j = Journal(str(tmp_path / "h.db"))
    a = finished(j, "bag_of_ice", {"players": ["Ann", "Bob"]}, 5)
    b = finished(j, "undercut", {"players": ["Ann", "Bob", "Cy"], "level": "full"}, 6)
    c = play(j, "bottoms_up", {"players": ["Ann", "Bob", "Cy", "Dee"]}, 7, moves=6)  # open: no link, no chart
    board, srv = served(j, c)
    viewport(browser, 390, 844, dark=False)
    browser.get(srv.url + "history")
    wait_games(browser)
    rows = _until(lambda: browser.execute_script("""
      return [...document.querySelectorAll('#games li.game')].map(li => [li.querySelector('h2').textContent,
        (li.querySelector('a.bgstats') || {}).href || null, !!li.querySelector('details.chart-details')]);"""))
    by_title = {t: (href, has_chart) for t, href, has_chart in rows}
    assert by_title[f"Bottoms Up #{c.number}"] == (None, False)  # V-1: before the end, nothing
    for s in (a, b):
        href, has_chart = by_title[f"{'Bag of Ice' if s is a else 'Undercut'} #{s.number}"]
        assert has_chart and href
        data = _play_of(href)
        assert [p["score"] for p in data["players"]] == _records_of(j, s.number)["scores"]
    browser.execute_script("document.querySelectorAll('details.chart-details').forEach(d => d.open = true)")
    tables = browser.execute_script("""
      return [...document.querySelectorAll('#games li.game')].filter(li => li.querySelector('.chart-table'))
        .map(li => [li.querySelector('h2').textContent, [...li.querySelectorAll('.chart-table tbody tr')]
        .map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent))]);""")
    for title, got in tables:
        number = int(title.rsplit("#", 1)[1])
        assert got == _csv_points(j, number)
    bad = axe_violations(browser)
    assert not bad, [(x["id"], x["help"]) for x in bad]


def test_the_players_page_counts_as_the_records_say(browser, served, tmp_path):
    j = Journal(str(tmp_path / "p.db"))
    games = [finished(j, "bag_of_ice", {"players": ["Ann", "Bob"]}, 5),
             finished(j, "bag_of_ice", {"players": ["Bob", "Cy"]}, 8),
             finished(j, "undercut", {"players": ["Ann", "Bob", "Cy"], "level": "full"}, 6)]
    open_game = play(j, "bag_of_ice", {"players": ["Ann", "Cy"]}, 9, moves=4)  # no play yet
    board, srv = served(j, open_game)
    # by hand, from the replayed records: per name and game, plays and wins
    want: dict[tuple[str, str], list[int]] = {}
    for s in games:
        out = _records_of(j, s.number)
        names = s.setup["players"]
        for i, name in enumerate(names):
            w = want.setdefault((name, s.game), [0, 0, None])
            w[0] += 1
            w[1] += i in out["outcome"]["winners"]
            score = out["scores"][i]
            w[2] = score if w[2] is None else (min(w[2], score) if s.game == "undercut" else max(w[2], score))
    for dark in (True, False):
        viewport(browser, 390, 844, dark=dark)
        browser.get(srv.url + "players")
        _until(lambda: browser.execute_script("return document.body.dataset.players"))
        got = browser.execute_script("""
          return [...document.querySelectorAll('.player')].flatMap(sec => [...sec.querySelectorAll('tbody tr')]
            .map(tr => [sec.querySelector('h2').textContent, tr.dataset.game,
                        ...[...tr.querySelectorAll('td')].map(td => td.textContent)]));""")
        assert {(n, g): [int(p), int(w), int(best)] for n, g, p, w, _share, best, _last in got} == \
            {k: v for k, v in want.items()}
        for n, g, p, w, share, _best, _last in got:
            assert share == f"{round(100 * int(w) / int(p))} %"
        bad = axe_violations(browser)
        assert not bad, [(x["id"], x["help"]) for x in bad]
    browser.execute_script("document.getElementById('scope').click()")
    _until(lambda: browser.execute_script("return document.body.dataset.scope") == "evening")


def test_before_the_end_no_link_no_chart_and_the_tv_is_as_before_V1(browser, served, tmp_path):
    j = Journal(str(tmp_path / "v.db"))
    s = play(j, "bottoms_up", {"players": ["Ann", "Bob", "Cy", "Dee"]}, 5, moves=8)
    assert not s.state.is_terminal()
    board, srv = served(j, s)
    viewport(browser, 390, 844)
    v = load(browser, srv.url, board)
    assert v["after"] is None
    assert browser.execute_script("return document.getElementById('after').hidden") is True
    assert not browser.execute_script("return document.querySelector('a.bgstats, .chart, img.chart-img')")
    # nor at the chart's address
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(srv.url + f"chart/{s.number}.svg", timeout=30)
    assert e.value.code == 404
    # over: on the TV neither the link nor the chart shows; every text keeps the 1/24 rule
    j2 = Journal(str(tmp_path / "v2.db"))
    s2 = finished(j2, "undercut", {"players": ["Ann", "Bob", "Cy"], "level": "full"}, 6)
    board2, srv2 = served(j2, s2)
    viewport(browser, 1920, 1080, dark=True)
    v2 = load(browser, srv2.url + "tv", board2)
    assert v2["after"] and v2["after"]["bgstats"]
    assert browser.execute_script("return getComputedStyle(document.getElementById('after')).display") == "none"
    got = browser.execute_script(LEGIBILITY, LEGIBLE)
    assert not got["bad"], got["bad"]
