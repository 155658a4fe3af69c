"""The scoreboard page's layout, walked through every game's phases: the
opening, a turn, a score change, a Bag of Ice bust and size choice, an Undercut
auction with its bids and hands (the full-table level), the end with its winner(s),
at 1920x1080 and 960x540 on /tv with 2 to 5 players, and on a phone 320 and 390
CSS px wide in both themes. It fails when:

* on the TV, any element's box leaves the screen, or is cut by a box around it
  (a TV has no scroll bar and no one to scroll it: where a phase holds more than
  fits, the page pages through its parts by itself and says so, "1/2");
* anywhere, a text is clipped (``scrollWidth > clientWidth``) without a title
  that gives it whole;
* on the TV, any text, SVG text (a piece's letter) included, is under the page's
  legibility rule: 1/24 of the screen's height (docs/web.md).

Each case plays one seeded game and keeps the views the device's projection gave
at each phase (companion/public.py), then shows them one after another on one
open page, as the device would publish them, and checks every page of each.
Bounded for a Pi Zero: one page load a case, a handful of phases, French with 3
and 5 players (its words are the longest), English with 2 and 4."""
from __future__ import annotations

import random
import time
from typing import Any, Callable

import pytest

from companion import public
from companion.engine import CHANCE
from companion.i18n import language, set_language
from companion.journal import Journal
from companion.session import Session
from companion.web import Board
from tests.web_util import Served, finished, shown, viewport

pytestmark = pytest.mark.browser

LEGIBLE = 24  # docs/web.md: on /tv every text is at least 1/24 of the screen's height
# the longest names a device takes (companion/names.py: 12 characters)
NAMES = ["Maximilienne", "Bob", "Cyrielle", "Dominique", "Jean-Baptist"]
PLAYERS = {"undercut": (3, 4, 5), "bag_of_ice": (2, 3, 4, 5), "bottoms_up": (2, 3, 4, 5)}


def _table(v: dict[str, Any]) -> dict[str, Any]:
    return v.get("table") or {}


def _kind(v: dict[str, Any]) -> str:
    return (v.get("change") or {}).get("kind", "")


# what each phase is, seen in the projection; the first view of each is kept
PHASES: dict[str, list[tuple[str, Callable[[dict[str, Any]], bool]]]] = {
    "undercut": [
        ("opening", lambda v: True),
        ("auction", lambda v: sum(1 for s in _table(v).get("stacks") or [] if s.get("bid")) >= 2),
        ("marker bid", lambda v: any(s.get("bid") and not s["bid"]["pieces"] for s in _table(v).get("stacks") or [])),
        ("score", lambda v: _kind(v) == "score"),
        ("round", lambda v: (_table(v).get("round") or 0) >= 3),
    ],
    "bag_of_ice": [
        ("opening", lambda v: True),
        ("turn", lambda v: len(_table(v).get("drawn") or []) >= 3),
        ("size", lambda v: bool(_table(v).get("sizes"))),
        ("score", lambda v: _kind(v) == "score"),
        ("bust", lambda v: _kind(v) == "bust"),
    ],
    "bottoms_up": [
        ("opening", lambda v: True),
        ("turn", lambda v: len(_table(v).get("field") or []) >= 4),
        ("tall", lambda v: max((len(s["pieces"]) for s in _table(v).get("field") or []), default=0) >= 4),
    ],
}


def phases(tmp_path, game: str, n: int, lang: str, seed: int = 5) -> list[tuple[str, dict[str, Any]]]:
    """The views of one seeded game at each of its phases, and at its end (the winner
    crowned), in the order they came (their seq rises)."""
    old = language()
    set_language(lang)
    try:
        j = Journal(str(tmp_path / f"{game}{n}.db"))
        setup: dict[str, Any] = {"players": NAMES[:n]}
        if game == "undercut":
            setup["level"] = "full"  # the hands shown: the most a table holds
        s = Session.start(j, game, setup, random.Random(seed))
        pick = random.Random(seed + 1)
        want = list(PHASES[game])
        got: list[tuple[str, dict[str, Any]]] = []
        for _ in range(6000):
            if want:
                v = public.view(s)
                for name, test in list(want):
                    if test(v):
                        got.append((name, v))
                        want.remove((name, test))
                        break
            st = s.state
            if st.is_terminal():
                break
            if st.current_player != CHANCE:
                s.play(pick.choice(list(st.legal_moves())))
        assert s.state.is_terminal(), f"the random {game} game did not end"
        got.append(("end", public.view(s)))
        j.close()
        return got
    finally:
        set_language(old)


CHECK = """
const [tv, rule] = arguments;
const H = innerHeight, W = innerWidth, least = H / rule - 0.5, bad = [];
const say = (why, e, extra) => bad.push([why, e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
  (typeof e.className === 'string' && e.className ? '.' + e.className.trim().replace(/ +/g, '.') : ''),
  (e.textContent || '').trim().slice(0, 40), extra]);
function hidden(e) {
  if (e.closest('.sr-only, [hidden], noscript, title, script, style, head')) return true;
  for (let a = e; a; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.display === 'none' || s.visibility === 'hidden') return true;
    if (s.clip && s.clip.startsWith('rect(0px')) return true;  // visually hidden, for a screen reader
  }
  return false;
}
function ownText(e) { return [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()); }
function titled(e) { return !!e.closest('[title]'); }
for (const e of document.querySelectorAll('body *')) {
  if (hidden(e)) continue;
  const r = e.getBoundingClientRect();
  if (!r.width && !r.height) continue;
  const svgText = e instanceof SVGTextElement;
  if (tv) {  // nothing off the screen, nothing cut by a box around it
    if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1)
      say('off the screen', e, [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)]);
    else for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const ar = a.getBoundingClientRect();
      if (r.top < ar.top - 1 || r.bottom > ar.bottom + 1 || (!ownText(e) && (r.left < ar.left - 1 || r.right > ar.right + 1))) {
        say('cut by ' + a.tagName.toLowerCase() + (a.id ? '#' + a.id : '') + '.' + a.className, e,
            [Math.round(r.top), Math.round(r.bottom), Math.round(ar.top), Math.round(ar.bottom)]);
        break;
      }
    }
  } else if (r.left < -1 || r.right > W + 1) {
    say('off the screen sideways', e, [Math.round(r.left), Math.round(r.right)]);
  }
  if (svgText) {  // a piece's letter: its size as drawn, the SVG's scale applied
    const svg = e.ownerSVGElement, box = svg.viewBox.baseVal, sr = svg.getBoundingClientRect();
    const size = parseFloat(getComputedStyle(e).fontSize) * (box && box.height ? sr.height / box.height : 1);
    if (tv && size < least) say('under 1/' + rule, e, size.toFixed(1));
    continue;
  }
  if (!ownText(e)) continue;
  if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible' && !titled(e))
    say('clipped', e, [e.scrollWidth, e.clientWidth]);
  if (tv && parseFloat(getComputedStyle(e).fontSize) < least) say('under 1/' + rule, e, getComputedStyle(e).fontSize);
}
const de = document.documentElement;
if (de.scrollWidth > de.clientWidth) bad.push(['scrolls sideways', 'html', '', [de.scrollWidth, de.clientWidth]]);
if (tv && de.scrollHeight > de.clientHeight) bad.push(['scrolls', 'html', '', [de.scrollHeight, de.clientHeight]]);
return {bad, pages: parseInt(document.body.dataset.pages || '1', 10), page: document.body.dataset.page || ''};
"""

NEXT_PAGE = "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));"


def walk(d, board: Board, views: list[tuple[str, dict[str, Any]]], *, tv: bool) -> list[Any]:
    """Every phase's view shown in turn on the open page, each of its pages checked:
    what is wrong, by phase and page."""
    bad: list[Any] = []
    for name, v in views:
        board.set(v["seq"], v)
        shown(d, v["seq"], timeout=20)
        got = d.execute_script(CHECK, tv, LEGIBLE)
        pages = got["pages"]
        for k in range(pages):
            if k:
                d.execute_script(NEXT_PAGE)
                time.sleep(0.15)
                got = d.execute_script(CHECK, tv, LEGIBLE)
            bad += [(name, f"{k + 1}/{pages}", *b) for b in got["bad"]]
    return bad


def summary(bad: list[Any]) -> str:
    """What is wrong, once per kind and element, with the first phase it was seen in."""
    seen: dict[tuple[str, str], Any] = {}
    for phase, page, why, what, text, extra in bad:
        seen.setdefault((why, what), (phase, page, text, extra))
    return "\n".join(f"{why}: {what} {text!r} {extra} (at {phase} {page})"
                     for (why, what), (phase, page, text, extra) in seen.items())


@pytest.fixture
def served(tmp_path):
    made = []

    def make(board: Board) -> Served:
        srv = Served(board, None)
        made.append(srv)
        return srv
    yield make
    for srv in made:
        srv.close()


TV_CASES = [(game, n, size) for game in PLAYERS for n in PLAYERS[game] for size in ((1920, 1080), (960, 540))]


@pytest.mark.parametrize("game, n, size", TV_CASES,
                         ids=[f"{g}-{n}-{w}x{h}" for g, n, (w, h) in TV_CASES])
def test_the_tv_shows_every_phase_whole_and_legible(browser, served, tmp_path, game, n, size):
    views = phases(tmp_path, game, n, "fr" if n % 2 else "en")
    board = Board()
    board.set(views[0][1]["seq"], views[0][1])
    srv = served(board)
    w, h = size
    viewport(browser, w, h, dark=True)
    browser.get(srv.url + "tv")
    bad = walk(browser, board, views, tv=True)
    assert not bad, summary(bad)


PHONE_CASES = [(game, width, dark) for game in PLAYERS for width in (320, 390) for dark in (True, False)]


@pytest.mark.parametrize("game, width, dark", PHONE_CASES,
                         ids=[f"{g}-{w}-{'dark' if d else 'light'}" for g, w, d in PHONE_CASES])
def test_the_phone_shows_every_phase_without_cutting_a_text(browser, served, tmp_path, game, width, dark):
    views = phases(tmp_path, game, 5, "fr" if width == 320 else "en")  # the narrowest, the longest words
    board = Board()
    board.set(views[0][1]["seq"], views[0][1])
    srv = served(board)
    viewport(browser, width, 844, dark=dark)
    browser.get(srv.url)
    bad = walk(browser, board, views, tv=False)
    assert not bad, summary(bad)


# ---------------------------------------------------------------- ties, the end, an idle TV


PLACES = """
return {places: [...document.querySelectorAll('#scores .place')].map(e => e.textContent),
        marks: [...document.querySelectorAll('#scores .winner .mark')].map(e => e.textContent),
        deltas: document.querySelectorAll('#scores .delta').length,
        reason: document.getElementById('end-reason').textContent,
        movesShown: !document.getElementById('moves-box').hidden,
        title: document.getElementById('title').textContent};
"""


def test_tied_players_share_a_place_and_the_end_has_no_boxed_change(browser, served, tmp_path):
    j = Journal(str(tmp_path / "bu.db"))
    for seed in range(1, 40):
        s = finished(j, "bottoms_up", {"players": NAMES[:4]}, seed)
        if len(s.state.outcome().winners) == 2:
            break
    else:
        pytest.skip("no shared win among the seeds")
    v = public.view(s)
    board = Board()
    board.set(v["seq"], v)
    viewport(browser, 390, 844, dark=True)
    browser.get(served(board).url)
    shown(browser, v["seq"], timeout=20)
    got = browser.execute_script(PLACES)
    assert got["places"][:3] == ["1.", "1.", "3."]  # a shared win: 1, 1, 3 (BU-12)
    assert len(got["marks"]) == 2 and all(m.startswith("★ ") for m in got["marks"])
    assert got["deltas"] == 0  # the winner banner says what counts: no last change boxed under it
    j.close()


def test_a_tied_undercut_shows_its_tiebreak_figures(browser, served, tmp_path):
    j = Journal(str(tmp_path / "uc.db"))
    for seed in range(1, 60):
        s = finished(j, "undercut", {"players": NAMES, "level": "full"}, seed)
        if len(s.state.tied) > 1:
            break
    else:
        pytest.skip("no tied game among the seeds")
    v = public.view(s)
    board = Board()
    board.set(v["seq"], v)
    viewport(browser, 1920, 1080, dark=True)
    browser.get(served(board).url + "tv")
    shown(browser, v["seq"], timeout=20)
    got = browser.execute_script(PLACES)
    assert "pips" in v["end"]["reason"] and got["reason"] == v["end"]["reason"]  # "Ann 5 pips · Bob 8 pips" (U-14)
    assert got["title"] == f"Undercut #{v['session']['number']}"
    j.close()


def test_an_idle_tv_shows_no_lone_heading(browser, served):
    board = Board()
    viewport(browser, 1920, 1080, dark=True)
    browser.get(served(board).url + "tv")
    shown(browser, 0, timeout=20)
    assert browser.execute_script(PLACES)["movesShown"] is False
