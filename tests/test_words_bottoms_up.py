"""The words of the Bottoms Up screens.

Scripted games go through every screen of the game (setup options, the
secret colors, the opening, turns with the size step and the target list,
blue and yellow choices, the turn pages, the field, check mode with both
verdicts, the physical colors' reveal, the winner and the scores, the
session menu's "Why" page) and check:

* in the pseudo-language every text drawn on those screens went through
  the catalog (``tests/i18n_util.py``);
* with six 12-character names, in English and in French, nothing is clipped
  (``draw.CLIPS``);
* no ruling id (BU-8, ...) is in a title or an instruction: they stay on
  the "Why" page;
* names in any script draw without an exception.

Frames of the shared screens (the player count and names of the setup, the
session menu's shared entries, History, undo) are checked with the shared
screens (tests/test_words_shared.py) and are left out of the catalog check here; their clipping
counts all the same.
"""
from __future__ import annotations

import random
import re

import pytest

from companion import i18n
from companion.config import Settings
from companion.io import Key
from companion.names import short_names
from companion.ui import draw
from companion.ui.base import SessionScreen
from companion.ui.bottoms_up import BottomsUpScreen, Pages
from companion.ui.common import Report
from companion.ui.draw import CLIPS
from companion.ui.widgets import Confirm, Menu, Message, NumberPicker

from .i18n_util import pseudo_language, untranslated
from .screens_util import make_app, press
from .test_ui_bottoms_up import BU, DEVICE_4, OPENING, TOUR_4, game_screen, option_keys, place_keys, started, state

LONG6 = ("Alexandrinas", "Bartholomews", "Christophers", "Maximilianus", "Maximilianna", "Evangelinexx")
WORLD6 = ("Łukasz", "Дмитрий", "Αλέξανδρος", "李华", "Ann 🎲", "Zoë")
RULING = re.compile(r"\b(U|B|BU)-\d+")
SHARED: set[str] = set()  # the shared screens' texts go through the catalog too (test_words_shared)


class Run:
    """Presses keys on an app and keeps, per frame, what the game's screens drew."""

    def __init__(self, app) -> None:
        self.app = app
        self.frames: list[tuple[object, list[str]]] = []

    def ours(self, top) -> bool:
        """A frame of a Bottoms Up screen (or a box one of them opened)."""
        mod = type(top).__module__
        if mod.startswith("companion.ui.bottoms_up"):
            return True
        return isinstance(top, (Menu, Message, Confirm, Report, NumberPicker))

    def press(self, keys: str | list[str]) -> None:
        names = keys.split(",") if isinstance(keys, str) else keys
        for name in filter(None, names):
            self.app.handle(Key.parse(name))
            self.frame()

    def frame(self) -> None:
        old = draw.DRAWN
        draw.DRAWN = drawn = []
        try:
            self.app.frame()
        finally:
            draw.DRAWN = old
        if old is not None:
            old.extend(drawn)
        top = self.app.top
        if self.ours(top):
            self.frames.append((top, [t for t in drawn if t not in SHARED]))

    @property
    def game(self) -> BottomsUpScreen:
        return next(s for s in reversed(self.app.stack) if isinstance(s, BottomsUpScreen))

    @property
    def state(self):
        return self.game.session.state

    def menu_to(self, label: str) -> bool:
        """In the session menu: the entry ``label`` (translated), OK; False when absent."""
        labels = [it.label for it in self.app.top.items]
        if label not in labels:
            return False
        self.press(["down"] * labels.index(label) + ["ok"])
        return True

    def to_row(self, text: str, *, words: bool = True) -> None:
        """In a list: the cursor to the first row whose label holds ``text``
        (translated when ``words``; a stack label or a number is not), OK."""
        top = self.app.top
        text = i18n._(text) if words else text
        k = next(i for i, it in enumerate(top.items) if text in it.label)
        d = k - top.index
        self.press(["down"] * d if d >= 0 else ["up"] * -d)
        self.press("ok")

    def read_through(self) -> None:
        """OK on a check verdict until its end was on screen, then OK: what next."""
        for _ in range(50):
            top = self.app.top
            if not (getattr(top, "read_through", False) and top.seen_to < len(top.lines)):
                break
            self.press("ok")
        self.press("ok")

    def visit_menu(self, entry: str) -> None:
        """BACK, the session menu's ``entry``, look at it (a page down), close it."""
        self.press("back")
        assert isinstance(self.app.top, Menu)
        if self.menu_to(i18n._(entry)):  # a page down (Pages; a Report closes on RIGHT), close
            self.press("right,down,ok" if isinstance(self.app.top, Pages) else "down,ok")
        while not isinstance(self.app.top, SessionScreen):
            self.press("back")


SHORT = "down,down,left,left,left,left,up,up"           # options: the stash of 18 pieces (LEFT four times from 90)
PHYSICAL = "down,ok,down,left,left,left,left,up,up"     # options: colors drawn at the table, 18 pieces


def start(tmp_path, names, options: str = SHORT, seed: int = 7) -> Run:
    """A new game from the main menu with ``names`` seated from the roster."""
    lang = i18n.language()
    app = make_app(tmp_path, seed=seed, settings=Settings(players=tuple(names)))
    i18n.set_language(lang)  # the app set the settings' language (unset: the locale's)
    run = Run(app)
    n = len(names)
    count = ["up"] * (n - 4) if n >= 4 else ["down"] * (4 - n)
    run.press(BU)
    run.press(count + ["ok", "ok"])  # the count; the names as they are: Next
    run.press(options)
    run.press("ok")  # Start game
    return run


def secret_tour(run: Run) -> None:
    n = run.state.n
    run.press("ok,ok")  # OK before looking: the message
    run.press("back")   # BACK before everyone looked: the question
    run.press("ok")     # No, stay
    run.press(",".join(["hold-ok,release"] * n) + ",ok")


def play_out(run: Run, seed: int) -> None:
    """Random legal moves to the end, looking at every side screen on the way."""
    rnd = random.Random(seed)
    step = 0
    while run.state.phase in ("opening", "play", "reveal"):
        st = run.state
        step += 1
        if step % 3 == 0:
            run.visit_menu("Why (rules)")
        if step % 5 == 0:
            run.visit_menu("Field view")
        if step % 7 == 0 and st.secret_mode == "device":
            run.press("back")  # the session menu's Secret colors: hold OK, release (BU-3)
            assert run.menu_to(i18n._("Secret colors"))
            run.press("hold-ok,release,back")  # the pass goes round: BACK, the game
        if st.pending is not None and step % 2 == 0:
            run.press("right,back")  # the turn so far
        m = rnd.choice(st.legal_moves())
        if st.pending is not None or st.phase == "reveal":
            run.press(option_keys(st, str(m)))
        else:
            keys = place_keys(st, m.piece, m.target)
            run.press(keys)
        if isinstance(run.app.top, Pages):
            run.press("down,right")
        while isinstance(run.app.top, Pages):  # OK shows the end of a long result, then closes it
            run.press("ok")
        if step % 4 == 0 and st.phase == "play":
            run.visit_menu("Last turn")
    run.press("ok,down,down,right")  # the winner, then the scores
    while isinstance(run.app.top, Pages):  # OK shows the end of a long page, then closes it
        run.press("ok")
    run.visit_menu("Why (rules)")
    run.visit_menu("Scores")


def check_mode(run: Run) -> None:
    """Both verdicts of check mode, after the opening of 4 (rS gS yS wS, as in
    tests/test_ui_bottoms_up.py): yM on A; the table's field edited."""
    run.press("back")
    assert run.menu_to(i18n._("Check mode"))
    run.press("ok,down,down,down,right,ok")  # the message; yM; on A
    run.to_row("A:", words=False)
    run.to_row("1.", words=False)
    run.press("up,ok")                       # remove rS
    run.to_row("Done")
    run.to_row("C:", words=False)
    run.to_row("1.", words=False)
    run.press("ok,ok")                       # rS instead of yS
    run.to_row("Done")
    run.to_row("Check it")                   # right
    run.press("down")
    run.read_through()
    run.to_row("Edit the field")
    run.press("back,ok")                     # drop the stacks? No
    run.to_row("+ new lone piece")
    run.press("ok,down,ok")                  # a new lone rM
    run.to_row("Check it")                   # differs
    run.press("down,right")
    run.read_through()
    run.to_row("Resolve step by step")       # the device asks the yellow choice
    st = run.state
    run.press(option_keys(st, str(st.legal_moves()[0])))
    while isinstance(run.app.top, Pages):
        run.press("ok")


def scripts(tmp_path, names) -> list[Run]:
    """Every screen: a device game of ``names`` (6), check mode (4), a physical game of 3 to the reveal."""
    run = start(tmp_path / "device", names)
    secret_tour(run)
    play_out(run, 11)
    four = start(tmp_path / "check", names[:4], "")
    secret_tour(four)
    four.press(OPENING)
    check_mode(four)
    phys = start(tmp_path / "physical", names[:3], PHYSICAL)
    play_out(phys, 4)
    return [run, four, phys]


def shortened(names) -> list[str]:
    """The names as the screens may draw them: whole or shortened (``short_names``)."""
    return [s for w in range(1, 13) for s in short_names(names, w)]


def drawn_texts(runs: list[Run]) -> list[str]:
    return [t for r in runs for _top, texts in r.frames for t in texts]


@pytest.fixture
def english():
    try:
        yield
    finally:
        i18n.set_language("en")


def test_every_text_of_the_game_goes_through_the_catalog(tmp_path, english):
    with pseudo_language():
        runs = scripts(tmp_path, LONG6)
    texts = drawn_texts(runs)
    assert len(texts) > 1000
    assert any("Ŕéçàĺçúĺàţéđ" in t or "ŕéçàĺçúĺàţéđ" in t for t in texts)  # step texts built in the UI
    bad = untranslated(texts, shortened(LONG6))
    assert bad == [], sorted(set(bad))[:30]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_six_long_names_draw_nothing_clipped(tmp_path, english, lang):
    i18n.set_language(lang)
    CLIPS.reset()
    runs = scripts(tmp_path, LONG6)
    assert sum(len(r.frames) for r in runs) > 300
    assert CLIPS.count == 0, CLIPS.examples
    if lang == "fr":  # really French: the words of the rules
        texts = " ".join(drawn_texts(runs))
        for word in ("réserve", "pile", "petite", "Prenez une pièce"):
            assert word in texts, word


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_ruling_id_in_titles_or_instructions(tmp_path, english, lang):
    i18n.set_language(lang)
    runs = scripts(tmp_path, ("Ann", "Bob", "Cy", "Dee", "Eve"))
    why = i18n._("Why")
    pages = [(top, texts) for r in runs for top, texts in r.frames
             if not (isinstance(top, Report) and top.title == why)]
    ids = [t for _top, texts in pages for t in texts if RULING.search(t)]
    assert ids == []
    # ... and the "Why" page lists them, in the language of the screens
    why_pages = [texts for r in runs for top, texts in r.frames if isinstance(top, Report) and top.title == why]
    assert why_pages and any(RULING.search(t) for texts in why_pages for t in texts)


def test_why_lines_follow_the_decision(tmp_path, english):
    run = start(tmp_path, ("Ann", "Bob", "Cy", "Dee"))
    secret_tour(run)
    assert [w[:4] for w in run.game.why_lines()] == ["BU-4", "BU-3"]
    run.press(OPENING)
    assert run.game.why_lines()[0].startswith("BU-5: take any piece")
    i18n.set_language("fr")
    assert run.game.why_lines()[0].startswith("BU-5 : prenez")


def test_names_in_any_script_draw_without_an_exception(tmp_path, english):
    for lang in ("en", "fr"):
        i18n.set_language(lang)
        runs = scripts(tmp_path / lang, WORLD6)
        assert runs[0].state.phase == "over"
        assert any("李华" in t for t in drawn_texts(runs))


# ---------------------------------------------------------------- the step log


def result_pages(tmp_path, seeds=(0,)):
    """Every turn's result page of random 4-player games, with the turn's step texts."""
    from companion.ui.bottoms_up import Pages, completed_turn, turn_log
    for seed in seeds:
        app = make_app(tmp_path / str(seed), seed=seed)
        press(app, DEVICE_4 + "," + TOUR_4)
        rnd = random.Random(seed)
        while state(app).phase in ("opening", "play"):
            st = state(app)
            m = rnd.choice(st.legal_moves())
            keys = option_keys(st, str(m)) if st.pending is not None else place_keys(st, m.piece, m.target)
            press(app, ",".join(keys))
            if isinstance(app.top, Pages):
                session = game_screen(app).session
                steps, _changed = turn_log(session, *completed_turn(session))
                yield app.top, steps
                press(app, "back")


def test_the_step_log_wraps_once_with_indented_continuations_and_no_lone_words(tmp_path):
    from companion.ui.draw import wrap
    checked = 0
    for page, steps in result_pages(tmp_path):
        lines = page.lines
        width = max(len(x) for x in lines)
        assert width <= 21
        log = lines[lines.index("steps:") + 1:]
        k = 0
        for step in steps:  # each step: its first line, then its continuations, indented
            assert log[k] == step[:len(log[k])], (step, log[k:k + 3])
            block = [log[k]]
            k += 1
            while k < len(log) and log[k].startswith("  "):
                block.append(log[k])
                k += 1
            assert " ".join(x.strip() for x in block) == step
            assert len(block) <= len(wrap(step, width - 2))  # wrapped once: no line more than needed
            if len(block) > 1 and len(block[-2].split()) >= 3:
                assert len(block[-1].split()) > 1 or len(block[-1]) > width // 2, block  # no lone word
            checked += len(block) > 1
        assert k == len(log)
    assert checked > 50


# ---------------------------------------------------------------- open space (BU-9)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_open_space_row_does_not_promise_the_cascade_stops_BU9(tmp_path, lang):
    """BU-9: a move to open space queues nothing, but stacks queued earlier are still
    recalculated: the row must not say "stop", and the Why page says what happens."""
    from companion.config import Settings
    from companion.i18n import _
    app = started(tmp_path, DEVICE_4 + "," + TOUR_4 + "," + OPENING, settings=Settings(language=lang))
    press(app, "down,right,ok,down,ok")  # P1: bM on A: blue on rS, green
    while not isinstance(app.top, BottomsUpScreen):
        press(app, "ok")
    press(app, ",".join(place_keys(state(app), "yM", "B")))  # P2: yM on B: yellow on gS
    screen = game_screen(app)
    assert state(app).pending is not None and state(app).pending.kind == "yellow"
    first = screen.rows()[0].label
    assert first == _("open space (alone)")
    assert "stop" not in first and "fin" not in first
    why = " ".join(screen.why_lines())
    assert "BU-9" in why and ("queued before" in why or "déjà en attente" in why)
