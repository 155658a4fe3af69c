"""The words of the Bag of Ice screens.

Scripted games walk every screen of the game (setup, roll-off, the turn, the
size choice, the physical entries, the bank summary, the bust, the scores, a
player's turns, the odds, the session menu's "Why" page, the winner) and
check what was drawn:

* in the pseudo-language every text comes from the catalog;
* with 12-character names, 2 to 12 players, in English and in French,
  nothing is clipped (``draw.CLIPS``);
* no ruling id (B-3, B-9...) in a title or an instruction (only the "Why"
  page names them);
* names in any script draw without an exception.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from companion import i18n
from companion.config import Settings
from companion.io import Key
from companion.journal import Journal
from companion.ui.app import App
from companion.ui import draw
from companion.ui.bag_of_ice import BROKEN_LABEL, BagOfIceScreen, BustScreen, OddsScreen, ScoreScreen, Summary
from companion.ui.common import OptionsSetup, PlayersSetup, Report
from companion.names import short_names
from companion.ui.draw import CLIPS
from companion.ui.widgets import Confirm, Menu, NumberPicker

from .i18n_util import pseudo_language, untranslated
from .screens_util import fixed_clock


def make_app(tmp_path, seed: int = 7, settings: Settings | None = None) -> App:
    """screens_util.make_app with the journal in memory: the scripts press thousands of keys."""
    return App(Journal(":memory:", clock=fixed_clock()), settings or Settings(), rng=random.Random(seed))

LONG = ("Alexandrinee", "Bartholomews", "Christophers", "Dominiqueeee", "Evangelinaaa", "Maximilianes",
        "Alexandrinea", "Bartholomewz", "Guillermines", "Henriettaaaa", "Isabellinaaa", "Jacquelinees")
WORLD = ("Łukasz", "Дмитрий", "Αλέξανδρος", "李华", "Ann 🎲", "Zoë")
BOI_PIECE = re.compile(r"[cp][SML]")
RULING = re.compile(r"\b(?:U|B|BU)-\d+\b")

# Texts of the shared screens (common.py, widgets.py, base.py, keyboard.py, screens.py: the main
# engineer's files) that a Bag of Ice script passes through. They are not this game's words; the
# pseudo-language check leaves them to the shared screens' own tests.
SHARED = {"Back to game", "History", "Undo last", "Leave (kept)", "End session", "Leave", "Yes", "No",
          "Undo", "Keep", "Confirm", "Main menu", "New game", "Resume", "Tools", "Settings", "Quit"}


def shared(text: str) -> bool:
    return text in SHARED or text.startswith(("Undo: ", "History #", "x ", "Nothing to undo"))


MINE = (BagOfIceScreen, Summary, BustScreen, ScoreScreen, OddsScreen, Report, OptionsSetup, PlayersSetup,
        NumberPicker)


def is_mine(top, title: str) -> bool:
    """A frame of this game's screens: its own classes, the pages and menus it opens (the
    setup, the session menu, the rule-broken question), not the main menu, the undo question
    (base.py), the history (base.py) or the name keyboard."""
    if isinstance(top, MINE):
        return True
    if isinstance(top, Confirm):
        return title == i18n._("Rule broken")
    if isinstance(top, Menu):
        return title.startswith(i18n._("Bag of Ice #{n}").split("{")[0])
    return False


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.set_language("en")


class Walk:
    """Presses keys one at a time, drawing a frame after each, and keeps what
    each frame drew with the screen it drew: (screen, title, texts)."""

    def __init__(self, app):
        self.app = app
        self.frames: list[tuple[object, str, list[str]]] = []
        self.seen: set[str] = set()

    def key(self, name: str) -> None:
        self.app.handle(Key.parse(name))
        self.draw()

    def keys(self, names: str) -> None:
        for k in filter(None, names.split(",")):
            self.key(k)

    def draw(self) -> None:
        old = draw.DRAWN
        draw.DRAWN = texts = []
        titles: list[str] = []
        real_title = draw.Canvas.title

        def title(c, s, right="", **kw):
            titles.append(s)
            real_title(c, s, right, **kw)
        draw.Canvas.title = title
        try:
            self.app.frame()
        finally:
            draw.Canvas.title = real_title
            draw.DRAWN = old
        if old is not None:
            old.extend(texts)
        top = self.app.top
        self.seen.add(screen_kind(top))
        self.frames.append((top, titles[0] if titles else "", texts))


def screen_kind(s) -> str:
    if isinstance(s, BagOfIceScreen):
        return f"game:{s.state.phase}"
    return type(s).__name__


def game(app) -> BagOfIceScreen:
    return next(s for s in reversed(app.stack) if isinstance(s, BagOfIceScreen))


def pick(w: Walk, label: str) -> None:
    """OK on the row of the top menu whose label is ``label``."""
    labels = [it.label for it in w.app.top.items]
    w.keys(",".join(["down"] * labels.index(label) + ["ok"]))


def close_pages(w: Walk) -> None:
    """OK on a page of lines: it shows the rest of a long one first, then closes it."""
    for _ in range(100):
        if not isinstance(w.app.top, Report):
            return
        w.key("ok")
    raise AssertionError("a page did not close")


def extras(w: Walk) -> None:
    """From the game screen: the scores and a player's turns, the odds, the session menu's Why page."""
    app = w.app
    w.key("right")  # the scoreboard
    w.key("ok")     # a player's turns
    close_pages(w)
    w.key("left")
    g = game(app)
    if g.state.phase in ("decide", "size"):
        w.key("hold-ok")  # the odds while OK is held
        w.key("down")
        w.key("release")
    w.key("back")  # the session menu
    assert isinstance(app.top, Menu)
    if i18n._("Why (rules)") in [it.label for it in app.top.items]:
        pick(w, i18n._("Why (rules)"))
        for _ in range(8):
            w.key("down")
        close_pages(w)
    else:
        w.key("back")
    assert isinstance(app.top, BagOfIceScreen)


def play(w: Walk, rng: random.Random, steps: int = 3000) -> None:
    """Random rows (roll, bank, sizes, faces, pieces, rule broken, start player) to the winner."""
    app = w.app
    for step in range(steps):
        top = app.top
        if isinstance(top, Confirm):
            w.keys("down,ok")  # yes
        elif isinstance(top, BagOfIceScreen):
            st = top.state
            if st.phase == "over":
                w.keys("ok,down,ok,ok,left")  # the scoreboard, a player's turns
                extras(w)
                return
            if step % 9 == 4:
                extras(w)
            rows = top.rows()
            k = rng.randrange(len(rows))
            if rows[k].label == i18n._(BROKEN_LABEL) and rng.random() > 0.1:
                k = 0  # a rule broken now and then
            if st.phase == "decide" and len(st.drawn) < 3:
                k = 0  # roll on: longer turns, trees and busts
            w.keys(",".join(["down"] * k + ["ok"]))
        else:  # a roll-off, start, bank summary or a bust: shown, then closed
            if isinstance(top, Report):
                w.key("down")
            w.key("ok")
    raise AssertionError(f"the game did not end: {screen_kind(app.top)} {[screen_kind(s) for s in app.stack]}")


def setup_keys(n: int, *, physical: bool, target_left: int, start: int = 0) -> str:
    """From the main menu: New game, Bag of Ice, ``n`` players (default 3), names as they are,
    target 60 - 10 * target_left, the die and bag, the start option moved ``start`` times."""
    count = ["up"] * (n - 3) if n >= 3 else ["down"] * (3 - n)
    move = ["left"] * target_left if target_left >= 0 else ["right"] * -target_left
    keys = ["ok", "down", "ok", *count, "ok", "ok", "down", *move, "down"]
    if physical:
        keys.append("ok")
    if n > 1:
        keys += ["down", *["ok"] * start]
    keys += ["up"] * (3 if n > 1 else 2) + ["ok"]
    return ",".join(keys)


SCRIPTS = [  # (players, physical, target 60 - 10 * left, start option presses, seed)
    (12, False, 5, 0, 1),   # the most players: roll-off, target 10
    (2, True, 3, 0, 2),     # physical, roll-off entered, advice to win (two players)
    (6, True, 4, 1, 3),     # physical, the device picks the start player
    (4, False, 3, 1, 4),    # virtual, random start
    (5, True, 4, 2, 5),     # physical, the first player starts
    (1, False, 4, 0, 6),    # solo practice
    (3, False, -14, 0, 7),  # target 200: three-digit totals
    (2, False, -4, 0, 8),   # target 100, the most the advice to win plays for
]


def run_scripts(names: tuple[str, ...], tmp_path, language: str = "en") -> Walk:
    walks = []
    for k, (n, physical, left, start, seed) in enumerate(SCRIPTS):
        d = tmp_path / f"g{k}"
        d.mkdir()
        app = make_app(d, seed=seed, settings=Settings(players=names[:n], language=language))
        if language == i18n.PSEUDO:
            i18n.set_language(i18n.PSEUDO)
        w = Walk(app)
        w.draw()
        w.keys(setup_keys(n, physical=physical, target_left=left, start=start))
        assert game(app).state.n == n and game(app).state.players == names[:n]
        play(w, random.Random(seed))
        if physical:  # undo back to the start: the start entry
            g = game(app)
            while g.session.fold.moves and g.state.phase not in ("start", "rolloff"):
                w.keys("hold-back,ok")
                while not isinstance(app.top, BagOfIceScreen):
                    w.key("ok")
            extras(w)
        walks.append(w)
    seen = set().union(*(w.seen for w in walks))
    for kind in ("game:decide", "game:size", "game:roll", "game:draw", "game:rolloff", "game:start",
                 "game:over", "BustScreen", "Summary", "ScoreScreen", "OddsScreen", "Report", "Confirm",
                 "NumberPicker", "PlayersSetup", "OptionsSetup", "Menu"):
        assert kind in seen, f"no script reached {kind}: {sorted(seen)}"
    w = walks[0]
    w.frames = [f for x in walks for f in x.frames]
    return w


def test_every_text_goes_through_the_catalog(tmp_path):
    names = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu")
    with pseudo_language() as drawn:
        w = run_scripts(names, tmp_path, language=i18n.PSEUDO)
    assert drawn
    mine = [t for top, title, texts in w.frames if is_mine(top, title) for t in texts]
    # Bag of Ice's cyan (c) and purple (p) pieces are codes too (i18n_util.PIECE knows rygbkw)
    mine = [" ".join(w for w in t.split(" ") if not BOI_PIECE.fullmatch(w)) for t in mine]
    bad = sorted({t for t in untranslated(mine, names) if not shared(t)})
    assert bad == [], bad


@pytest.mark.parametrize("language", ["en", "fr"])
def test_nothing_is_clipped_with_long_names(tmp_path, language):
    assert all(len(n) == 12 for n in LONG)
    CLIPS.reset()
    try:
        run_scripts(LONG, tmp_path, language)
        assert CLIPS.count == 0, CLIPS.examples
    finally:
        CLIPS.reset()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_ruling_id_in_titles_or_instructions(tmp_path, language):
    w = run_scripts(LONG, tmp_path, language)
    why = i18n._("Why")
    for top, title, texts in w.frames:
        if not is_mine(top, title):
            continue  # the undo question shows the journal's move line (engine words, base.py)
        assert not RULING.search(title), title
        if title == why:  # the Why page names the rulings (and only it)
            continue
        bad = [t for t in texts if RULING.search(t)]
        assert bad == [], (type(top).__name__, title, bad)


def test_the_why_page_lists_the_rulings_behind_the_screen(tmp_path):
    app = make_app(tmp_path, settings=Settings(players=("Ann", "Bob")))
    w = Walk(app)
    w.keys(setup_keys(2, physical=False, target_left=0) + ",ok")
    lines = game(app).why_lines()
    assert [ln.split(":")[0] for ln in lines if RULING.match(ln)] == ["B-4", "B-1", "B-5", "B-9", "B-10", "B-6"]
    i18n.set_language("fr")
    fr = game(app).why_lines()
    assert fr[0].startswith("B-4 : ") and "rouge" in fr[0]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_names_in_any_script_draw(tmp_path, language):
    names = WORLD + LONG[:6]
    run_scripts(names, tmp_path, language)


def test_french_words_of_the_rules(tmp_path):
    app = make_app(tmp_path, settings=Settings(players=("Ann", "Bob", "Cat"), language="fr"))
    w = Walk(app)
    w.keys(setup_keys(3, physical=True, target_left=0, start=2))  # physical, Ann starts
    w.keys("ok,down,down,ok")  # roll, face L
    texts = " ".join(t for _top, _t, ts in w.frames[-1:] for t in ts)
    assert "Ann lance" in texts or "Ann pioche" in texts
    rows = [r.label for r in game(app).rows()]
    assert rows[0] == "jaune yL" and rows[-1] == "Faute : tour perdu"
    assert isinstance(app.top, BagOfIceScreen)
    assert i18n.ngettext("{n} pip", "{n} pips", 1).format(n=1) == "1 encoche"
    assert i18n.ngettext("{n} pip", "{n} pips", 0).format(n=0) == "0 encoche"  # French: 0 is singular
    assert i18n.ngettext("{n} pip", "{n} pips", 3).format(n=3) == "3 encoches"


def test_setup_screens_are_this_games(tmp_path):
    app = make_app(tmp_path, settings=Settings(players=("Ann", "Bob", "Cat"), language="fr"))
    w = Walk(app)
    w.keys("ok,down,ok")
    assert isinstance(app.top, NumberPicker) and app.top.title == "Bag of Ice : joueurs"


def test_every_message_drawn_is_in_the_french_catalog(tmp_path, monkeypatch):
    """A text marked in a way the extractor misses (a ``_()`` inside an f-string...) would be
    drawn untranslated in French although the pseudo-language passes: every message the scripts
    translate must be a message of the compiled French catalog."""
    from companion.i18n import PseudoTranslations
    asked: set[tuple[str, ...]] = set()
    real_g, real_n, real_p = PseudoTranslations.gettext, PseudoTranslations.ngettext, PseudoTranslations.pgettext
    monkeypatch.setattr(PseudoTranslations, "gettext", lambda self, m: (asked.add((m,)), real_g(self, m))[1])
    monkeypatch.setattr(PseudoTranslations, "ngettext",
                        lambda self, a, b, n: (asked.add((a, b)), real_n(self, a, b, n))[1])
    monkeypatch.setattr(PseudoTranslations, "pgettext",
                        lambda self, c, m: (asked.add((c + "\x04" + m,)), real_p(self, c, m))[1])
    names = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu")
    with pseudo_language():
        run_scripts(names, tmp_path, language=i18n.PSEUDO)
    source = (Path(__file__).parents[1] / "companion" / "ui" / "bag_of_ice.py").read_text(encoding="utf-8")
    catalog = i18n._translation("fr")._catalog  # type: ignore[attr-defined]
    mine = {m for m in asked if m[0].split("\x04")[-1] in source}
    assert mine
    missing = sorted(m for m in mine if (m[0] if len(m) == 1 else (m[0], 0)) not in catalog)
    assert missing == [], missing


@pytest.mark.parametrize("language", ["en", "fr"])
def test_whose_turn_scores_and_verdicts_are_large(tmp_path, language, monkeypatch):
    """Read across the table: whose turn and the turn score, the bust, the winner and
    the totals are drawn with Canvas.big."""
    bigs: list[str] = []
    real_big = draw.Canvas.big
    monkeypatch.setattr(draw.Canvas, "big", lambda c, x, y, s, scale=2, **kw: (bigs.append(s),
                                                                                real_big(c, x, y, s, scale, **kw)))
    app = make_app(tmp_path, seed=4, settings=Settings(players=LONG[:3], language=language))
    w = Walk(app)
    w.keys(setup_keys(3, physical=False, target_left=3) + ",ok")
    seen = set()
    for _ in range(600):
        top = app.top
        bigs.clear()
        w.draw()
        if isinstance(top, BagOfIceScreen):
            st = top.state
            if st.phase == "decide":
                short = short_names(st.players, 7)[st.active]
                assert short in bigs and str(top.advice().bank_score) in bigs
                seen.add("turn")
            elif st.phase == "over":
                assert short_names(st.players, 10)[st.winner] in bigs and str(st.totals[st.winner]) in bigs
                w.key("ok")  # the scoreboard
                bigs.clear()
                w.draw()
                assert [str(t) for t in st.totals] == [b for b in bigs if b.isdigit()]
                seen.add("over")
                break
            w.keys("ok" if st.phase != "decide" or len(st.drawn) < 3 else "down,ok")
        else:
            if isinstance(top, BustScreen):
                assert i18n._("BUST!") in bigs
                seen.add("bust")
            w.key("ok")
    assert seen == {"turn", "bust", "over"}


def test_the_undo_question_s_keep_answer_is_not_the_word_for_bank():
    """In French "Bank" is "Garder": the undo question's "Keep" answer was "Garder" too,
    so "Annuler : Chloé garde 20 et gagne ? Garder / Annuler" offered "Garder" as the
    answer that does not undo, read by a player as "bank". "Keep" says "Conserver"."""
    app = make_app(Path("unused"), settings=Settings(language="fr"))
    bank_word = i18n._("Bank +{n} = {total}").split()[0]
    assert bank_word == "Garder"
    for k in "ok,down,ok,down,ok,ok,ok".split(","):  # Bag of Ice, 2 players, start
        app.handle(Key.parse(k))
        app.frame()
    while not isinstance(app.top, BagOfIceScreen):
        app.handle(Key.OK)
    for k in ("down", "ok", "ok", "hold-back"):  # bank 0, close the summary, undo
        app.handle(Key.parse(k))
        app.frame()
    assert isinstance(app.top, Confirm)
    answers = [it.label for it in app.top.items]
    assert answers == ["Conserver", "Annuler"] and bank_word not in answers
