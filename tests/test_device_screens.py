"""The device's screens as a table meets them: the secret colors mid-game, undo from every
screen a game shows, the step log's wrapping, the keyboard's letters, text kept clear of the
scroll bar, the QR screen, paged reports, option and history rows, the main menu's cursor,
the settings file edited in place and the page's secret kept out of it."""
from __future__ import annotations

import itertools
import random

import pytest

from companion.io import Key
from companion.ui.bottoms_up import BottomsUpScreen, HoldToSee, SecretTour
from companion.ui.widgets import Confirm

from .screens_util import make_app, press
from .test_ui_bottoms_up import DEVICE_4, OPENING, TOUR_4, game_screen, secret_frames, started, state


# ---------------------------------------------------------------- the in-game secret colors (BU-3)


def in_game_tour(tmp_path, seed: int = 7):
    """A Bottoms Up game after the opening (P1 to play); the session menu's Secret colors."""
    app = started(tmp_path, DEVICE_4 + "," + TOUR_4 + "," + OPENING, seed=seed)
    assert isinstance(app.top, BottomsUpScreen)
    press(app, "back,ok")  # Secret colors: the session menu's first entry
    assert isinstance(app.top, SecretTour) and app.top.from_menu
    return app


def test_in_game_secret_colors_behave_as_the_opening_ones_BU3(tmp_path):
    app = in_game_tour(tmp_path)
    tour = app.top
    events = len(game_screen(app).session.events)
    secrets = secret_frames(app)
    st = state(app)
    assert tour.seat == st.active == 0
    press(app, "ok")  # a tap: the box, as at the opening, not the game
    assert isinstance(app.top, HoldToSee) and "hold OK" in app.top.text
    img = press(app, "hold-ok")  # a hold there shows the color
    assert app.top is tour and tour.showing and img.tobytes() in secrets
    img = press(app, "release")
    assert img.tobytes() not in secrets
    # the pass goes round: the next player's turn to look, no trip back to the game
    assert app.top is tour and tour.seat == 1 and tour.seen == {0}
    for seat in (1, 2, 3):
        assert tour.seat == seat
        assert press(app, "hold-ok").tobytes() in secrets
        press(app, "release")
    assert tour.final and app.top is tour
    assert "Pass to P1:" in _texts(app)
    press(app, "hold-ok,release")  # everyone has seen: a hold shows nothing, plays nothing
    assert app.top is tour and not tour.showing
    press(app, "ok")
    assert isinstance(app.top, BottomsUpScreen)
    assert len(game_screen(app).session.events) == events


def test_the_in_game_pass_starts_with_the_player_to_play_and_goes_round(tmp_path):
    app = started(tmp_path, DEVICE_4 + "," + TOUR_4 + "," + OPENING)
    press(app, "ok,ok,ok")  # P1 takes a red small... on A
    while not isinstance(app.top, BottomsUpScreen):
        press(app, "ok")
    assert state(app).active == 1
    press(app, "back,ok")
    tour = app.top
    assert isinstance(tour, SecretTour) and tour.seat == 1
    press(app, "hold-ok,release,hold-ok,release,hold-ok,release")
    assert tour.seat == 0 and not tour.final
    press(app, "ok")
    assert isinstance(app.top, HoldToSee) and app.top.text.endswith("Still to look: P1.")


def test_back_leaves_the_in_game_secret_colors_at_once(tmp_path):
    app = in_game_tour(tmp_path)
    press(app, "hold-ok,release,back")
    assert isinstance(app.top, BottomsUpScreen)


def _texts(app) -> str:
    from companion.ui import draw
    seen: list[str] = []
    old = draw.Canvas.text

    def spy(self, x, y, s, *a, **k):
        seen.append(s)
        return old(self, x, y, s, *a, **k)
    draw.Canvas.text = spy
    try:
        app.frame()
    finally:
        draw.Canvas.text = old
    return "\n".join(seen)


WALK_KEYS = ["ok", "hold-ok", "release", "up", "down", "left", "right", "hold-back", "back"]


def _walk(app, keys) -> None:
    """Press ``keys`` while the secret colors (or a box over them) are on top."""
    for k in keys:
        top = app.top
        over_tour = len(app.stack) > 1 and isinstance(app.stack[-2], SecretTour)
        if not (isinstance(top, SecretTour) or over_tour and isinstance(top, (HoldToSee, Confirm))):
            return
        app.handle(Key.parse(k))
        app.frame()


@pytest.mark.parametrize("where", ["opening", "in game"])
def test_no_hold_or_tap_on_the_secret_colors_ever_journals_a_move(tmp_path, where):
    """Every sequence of 4 keys, then 300 random walks of 12,
    on the opening tour and on the session menu's: nothing is journaled."""
    make = (lambda p: started(p, DEVICE_4)) if where == "opening" else in_game_tour
    app = make(tmp_path / "walk")
    count = app.journal.count()
    stack = list(app.stack)
    tour = app.top
    seat = tour.seat
    rng = random.Random(39)
    walks = [list(w) for w in itertools.product(WALK_KEYS, repeat=4)]
    walks += [[rng.choice(WALK_KEYS) for _ in range(12)] for _ in range(300)]
    for walk in walks:
        _walk(app, walk)
        assert app.journal.count() == count, walk
        # back on the tour, as it was opened, for the next walk
        del app.stack[:]
        app.stack.extend(stack)
        tour.showing = tour.final = False
        tour.seen.clear()
        tour.seat = seat


def test_bench_counts_presses_to_see_ones_color_mid_game_within_its_goal():
    from bench.__main__ import GOALS, KEYS, PRESSES, presses_secret_color_midgame
    n = presses_secret_color_midgame()
    assert n is not None and n <= GOALS["presses_secret_color_midgame"][1] == 4
    assert "presses_secret_color_midgame" in KEYS and "presses_secret_color_midgame" in dict(PRESSES)


# ---------------------------------------------------------------- hold BACK: undo from every game screen


def assert_hold_back_undoes_from_here(app, game_type) -> None:
    """Hold BACK asks the undo question over the screen in view; Keep leaves that
    screen as it was, hold BACK, OK undoes the last decision and shows the game."""
    here = app.top
    game = next(s for s in reversed(app.stack) if isinstance(s, game_type))
    moves = len(game.session.fold.moves)
    press(app, "hold-back")
    assert isinstance(app.top, Confirm) and app.top.title == "Undo" and app.stack[-2] is here
    press(app, "up,ok")  # Keep
    assert app.top is here and len(game.session.fold.moves) == moves
    press(app, "hold-back,ok")  # Undo is preselected
    assert app.top is game and len(game.session.fold.moves) < moves


def test_hold_back_undoes_from_the_undercut_bid_picker_and_the_pass_size(tmp_path):
    from companion.ui.undercut import BidPicker, UndercutScreen
    from .test_ui_undercut import FULL_3_PHYSICAL, SETUP_DRAWS, STACK_DRAWS
    app = make_app(tmp_path)
    press(app, FULL_3_PHYSICAL + "," + SETUP_DRAWS + "," + STACK_DRAWS + ",ok,down,down,ok,ok,ok,ok")
    st = game_screen_of(app, UndercutScreen).session.state
    assert st.phase == "bidding" and all(st.bids)
    press(app, "up,ok")  # P3 passes (every stack has a bid, the cursor on A: UP wraps to Pass)
    assert app.top.title == "Pass: which size?"
    assert_hold_back_undoes_from_here(app, UndercutScreen)  # P2's bid undone
    press(app, "ok")  # P2 at the auction again: open the bid picker
    assert isinstance(app.top, BidPicker)
    assert_hold_back_undoes_from_here(app, UndercutScreen)


def test_hold_back_undoes_from_the_bottoms_up_size_and_target_lists(tmp_path):
    from companion.ui.bottoms_up import SizeStage, TargetPicker
    app = started(tmp_path, DEVICE_4 + "," + TOUR_4 + "," + OPENING)
    press(app, "ok")  # red: its sizes
    assert isinstance(app.top, SizeStage)
    assert_hold_back_undoes_from_here(app, BottomsUpScreen)  # P4's opening small
    press(app, "ok")  # P4's small again (the first color left)
    press(app, "ok,ok")  # P1: red, small: where?
    assert isinstance(app.top, TargetPicker)
    assert_hold_back_undoes_from_here(app, BottomsUpScreen)


def game_screen_of(app, kind):
    return next(s for s in reversed(app.stack) if isinstance(s, kind))


# ---------------------------------------------------------------- the Bottoms Up step log


def result_pages(tmp_path, seeds=(0,)):
    """Every turn's result page of random 4-player games, with the turn's step texts."""
    from companion.ui.bottoms_up import Pages, completed_turn, turn_log
    from .test_ui_bottoms_up import option_keys, place_keys
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


# ---------------------------------------------------------------- Ł and the keyboard's other letters


def _cells(ch: str) -> set[tuple[int, int]]:
    from companion.ui.glyphs import table
    rows = table()[2][ch]
    return {(x, y) for y, r in enumerate(rows) for x in range(6) if r >> (7 - x) & 1}


@pytest.mark.parametrize("ch", ["Ł", "ł"])
def test_a_stroked_l_draws_a_rising_stroke_through_its_stem(ch):
    cells = _cells(ch)
    stem = max(range(6), key=lambda x: sum(1 for c in cells if c[0] == x))
    right = {y for x, y in cells if x > stem and y < 7}  # the stroke, not the foot or the top serif
    left = {y for x, y in cells if x < stem and 2 < y < 7}
    assert len(right) >= 2 and left and max(left) > max(right), sorted(cells)  # rising: left low, right high
    assert cells != _cells("t") and cells != _cells("L" if ch == "Ł" else "l")


def test_every_letter_of_the_keyboard_draws_unlike_any_other_in_both_cases():
    """"Ł" read as "t"; the keyboard's other Latin letters, small and capital (the
    large font is the same cells, scaled), each draw unlike every other and their base letter
    (misc-fixed's "Å" was its "Â")."""
    import unicodedata
    from companion.ui.glyphs import has_glyph
    from companion.ui.keyboard import PAGES
    letters = {c for _tag, chars in PAGES for c in chars if c.isalpha()}
    letters |= {c.upper() for c in letters if len(c.upper()) == 1 and has_glyph(c.upper())}
    letters |= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    letters = {c for c in letters if unicodedata.name(c).startswith("LATIN")}  # Cyrillic А is Latin A's twin
    drawn: dict[frozenset, str] = {}
    for c in sorted(letters):
        assert has_glyph(c), c
        cells = frozenset(_cells(c))
        assert cells not in drawn, (c, drawn.get(cells))
        drawn[cells] = c
        base = unicodedata.normalize("NFD", c)[0]
        assert base == c or cells != frozenset(_cells(base)), c


# ---------------------------------------------------------------- text near the scroll bar


def test_text_within_2_pixels_of_a_scroll_bar_is_counted_as_clipped():
    """By its lit pixels: "Ł" lights its cell's last column, "c" does not."""
    from companion.ui.draw import CHAR_W, CLIPS, WIDTH, Canvas
    for text, cells_end, counted in (("abc", WIDTH - 2, True), ("abc", WIDTH - 3, False),
                                     ("abŁ", WIDTH - 3, True), ("abŁ", WIDTH - 4, False)):
        CLIPS.reset()
        c = Canvas()
        c.scrollbar(0, 5, 10)
        c.text(cells_end + 1 - 3 * CHAR_W, 20, text)
        assert (CLIPS.count == 1) is counted, (text, cells_end)


def test_the_bench_clipping_run_sees_the_main_menu_footer_of_a_table_of_short_names(monkeypatch):
    """clipped_text_draws covers the main menu (bench.main_menu_clips): with the footer
    as wide as before it counts it; as drawn now, nothing."""
    from bench.__main__ import main_menu_clips
    from companion.ui import screens
    from companion.ui.draw import CLIPS
    CLIPS.reset()
    main_menu_clips("en")
    assert CLIPS.count == 0, CLIPS.examples
    monkeypatch.setattr(screens, "FOOTER_CHARS", 22)
    CLIPS.reset()
    main_menu_clips("fr")
    assert CLIPS.count > 0 and "Alex,Bob,Cy,Dee,Łukasz" in CLIPS.examples


def test_the_main_menu_footer_keeps_2_pixels_from_the_scroll_bar(tmp_path):
    from companion.config import Settings
    from companion.ui.draw import CLIPS, HEIGHT, LINE_H, WIDTH
    app = make_app(tmp_path, settings=Settings(players=("Alex", "Bob", "Cy", "Dee", "Łukasz")))
    press(app, "ok,ok,up,ok,ok,ok")  # Undercut with the 5 roster names
    app.home()
    CLIPS.reset()
    img = app.frame()
    footer = app.top.footer_lines()
    # no name cut past its one short form ("Łuk"): the first ones and how many more
    assert footer[0] == "Undercut" and footer[1] == "Alex, Bob, Cy +2"
    assert CLIPS.count == 0, CLIPS.examples
    px = img.load()
    assert len(app.top.items) > app.top.shown()  # a scroll bar, whose track runs beside the footer
    for y in range(HEIGHT - 2 * LINE_H, HEIGHT):
        assert not any(px[x, y] for x in (WIDTH - 3, WIDTH - 2)), y


# ---------------------------------------------------------------- the scoreboard page's QR screen


class _Link:
    def __init__(self, address: str):
        self.address = address
        self.problem = ""
        self.renewed = 0

    def renew(self, app) -> None:
        self.renewed += 1
        self.address = self.address[:-3] + "xy/"


URL = "http://192.168.1.20:8032/Il1lI0OoAbCdEf_-/"


def drawn_texts(app) -> list[str]:
    from companion.ui import draw
    draw.DRAWN = []
    try:
        app.frame()
        return list(draw.DRAWN)
    finally:
        draw.DRAWN = None


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_qr_screen_has_a_heading_and_says_what_to_do(tmp_path, lang):
    from companion.config import Settings
    from companion.i18n import _
    from companion.ui.draw import CLIPS
    from companion.ui.join import JoinScreen
    app = make_app(tmp_path, settings=Settings(language=lang))
    app.web = _Link(URL)
    app.push(JoinScreen())
    CLIPS.reset()
    texts = drawn_texts(app)
    assert texts[0] == _("Scoreboard")
    assert " ".join(texts[1:4]) == _("Scan with a phone on this Wi-Fi")
    assert " ".join(texts[4:]) == _("↓ address as text")
    press(app, "down")  # the address written out
    texts = drawn_texts(app)
    assert texts[0] == _("Page address") and texts[1:4] == ["http://", "192.168.1.20:8032", "/Il1lI0OoAbCdEf_-/"]
    assert CLIPS.count == 0, CLIPS.examples


def test_the_written_address_keeps_its_scheme_and_draws_1_l_and_I_apart(tmp_path):
    from companion.ui.draw import CHAR_W, LINE_H, TITLE_H
    from companion.ui.join import JoinScreen, address_lines
    assert address_lines(URL, 21) == ["http://", "192.168.1.20:8032", "/Il1lI0OoAbCdEf_-/"]
    assert address_lines("http://10.0.0.2:80/abc/", 21) == ["http://10.0.0.2:80", "/abc/"]
    assert address_lines("http://10.0.0.2:80/a/", 21) == ["http://10.0.0.2:80/a/"]
    for width in (10, 14, 21):
        lines = address_lines(URL, width)
        assert "".join(lines) == URL and all(len(x) <= width for x in lines)
    app = make_app(tmp_path)
    app.web = _Link(URL)
    app.push(JoinScreen())
    img = press(app, "down")
    y = TITLE_H + 1 + 2 * LINE_H  # the secret's line: "/Il1lI0O..."
    cells = [img.crop((1 + i * CHAR_W, y, 1 + (i + 1) * CHAR_W, y + LINE_H)).tobytes() for i in range(6)]
    assert len({cells[1], cells[2], cells[3]}) == 3  # I, l, 1 each its own
    assert cells[2] == cells[4] and cells[1] == cells[5]  # the same letter alike


def test_ok_on_the_qr_screen_never_preselects_a_new_address_and_the_question_is_whole(tmp_path):
    from companion.config import Settings
    from companion.ui.draw import CLIPS
    from companion.ui.join import JoinScreen
    for lang in ("en", "fr"):
        app = make_app(tmp_path / lang, settings=Settings(language=lang))
        app.web = link = _Link(URL)
        screen = JoinScreen()
        app.push(screen)
        press(app, "ok,ok")  # OK, OK: back on the code, nothing renewed
        assert app.top is screen and link.renewed == 0
        CLIPS.reset()
        press(app, "ok,down,ok")  # New address: the question
        assert isinstance(app.top, Confirm) and app.top.index == 0  # the harmless answer first
        app.frame()
        assert CLIPS.count == 0, CLIPS.examples
        press(app, "right,ok")
        assert link.renewed == 1 and app.top is screen and screen.address == link.address


# ---------------------------------------------------------------- the bid picker's Bid row


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_bid_row_keeps_its_label_and_a_space_after_the_comma_for_every_value(tmp_path, lang):
    import re
    from companion.config import Settings
    from companion.i18n import _
    from companion.ui.draw import CLIPS
    from companion.ui.undercut import BidPicker, bid_value, value_words
    app = make_app(tmp_path, settings=Settings(language=lang))
    press(app, ",".join(["ok"] * 15))  # 4 players, full table, virtual: P1 opens A's picker
    picker = app.top
    assert isinstance(picker, BidPicker)
    values = set()
    for j in range(len(picker.have)):  # every piece of the hand, one after the other
        press(app, ",".join(["down"] * (j + 1) + ["ok"] * picker.have[j][1]))
        CLIPS.reset()
        texts = drawn_texts(app)
        value = value_words(bid_value(picker.pieces()))
        values.add(value)
        row = next(t for t in texts if t.endswith(value))
        label = _("Bid: {value}").format(value=value)
        assert row == label or (row == value and texts[texts.index(row) - 1] == _("Bid:")), texts
        assert not re.search(r",\S", row)
        assert CLIPS.count == 0, CLIPS.examples
    assert max(len(_("Bid: {value}").format(value=v)) for v in values) > 20  # a long value was seen


# ---------------------------------------------------------------- open space (BU-9)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_open_space_row_does_not_promise_the_cascade_stops_BU9(tmp_path, lang):
    """BU-9: a move to open space queues nothing, but stacks queued earlier are still
    recalculated: the row must not say "stop", and the Why page says what happens."""
    from companion.config import Settings
    from companion.i18n import _
    from .test_ui_bottoms_up import place_keys
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


# ---------------------------------------------------------------- long pages


def test_right_pages_the_bag_of_ice_roll_off_page_before_closing_it_B3(tmp_path):
    from companion.ui.bag_of_ice import BagOfIceScreen, Summary
    app = make_app(tmp_path)
    press(app, "ok,down,ok,up,up,up,up,up,ok,ok,ok")  # Bag of Ice, 8 players, the defaults: roll-off
    page = app.top
    assert isinstance(page, Summary) and page.title == "Roll-off" and len(page.lines) > page.shown
    press(app, "right")  # the other rolls
    assert app.top is page and page.offset + page.shown == len(page.lines)
    press(app, "left")
    assert app.top is page and page.offset == 0
    press(app, "right,right")  # at the end, RIGHT closes it
    assert isinstance(app.top, BagOfIceScreen)


def test_a_page_of_three_screens_shows_its_end_on_the_first_ok_and_closes_on_the_next(tmp_path):
    """A 4-turn-in "Only one move" page (a Report, as the round summary) took an
    OK a screen; the round summary's first OK shows its end: every long page does."""
    from companion.ui.common import Report
    app = make_app(tmp_path)
    page = Report("Only one move", [f"P1 turns in a TREE {k}: +{k}" for k in range(13)])
    app.push(page)
    assert len(page.lines) > 2 * page.shown
    press(app, "ok")
    assert app.top is page and page.offset + page.shown == len(page.lines) and not page.unseen()
    press(app, "ok")
    assert app.top is not page


def test_a_bottoms_up_result_does_not_close_on_the_first_ok_while_more_is_below_BU13(tmp_path):
    from companion.ui.bottoms_up import Pages
    app = started(tmp_path, DEVICE_4 + "," + TOUR_4 + "," + OPENING)
    press(app, "down,right,ok,down,ok")  # P1: bM on A, blue: green; the turn's result
    page = app.top
    assert isinstance(page, Pages) and len(page.lines) > page.shown
    press(app, "ok")
    assert app.top is page and page.offset + page.shown == len(page.lines)
    press(app, "ok")
    assert isinstance(app.top, BottomsUpScreen)


# ---------------------------------------------------------------- the main menu's cursor


@pytest.mark.parametrize("entry,out", [("History", "back"), ("Settings", "back"), ("About", "ok"),
                                       ("Scoreboard page", "back")])
def test_the_main_menu_keeps_its_cursor_after_a_screen_of_its_own(tmp_path, entry, out):
    app = make_app(tmp_path)
    press(app, "ok,ok,ok,ok,ok")  # an Undercut game: the menu has Resume
    app.home()
    menu = app.top
    labels = [it.label for it in menu.items]
    k = labels.index(entry)
    press(app, ",".join(["down"] * k + ["ok", out]))
    assert app.top is menu and menu.index == k, (labels, menu.index)
    press(app, "ok")
    app.home()  # sent home (a game left, a session ended): the first entry
    assert app.top is menu and menu.index == 0
    press(app, ",".join(["down"] * k))
    new = labels.index("New game")  # a game's way in: back home, the cursor is on Resume as before
    press(app, ",".join(["up"] * (k - new) + ["ok", "back"]))
    assert app.top is menu and menu.index == 0


# ---------------------------------------------------------------- option rows


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("keys", ["ok,ok,ok,ok", "ok,down,ok,ok,ok", "ok,down,down,ok,ok,ok", "down,down,down,ok"])
def test_option_rows_set_label_and_value_apart_with_a_leader(tmp_path, lang, keys):
    """A row read "Secret colors device", "Niveau table entière": each option row has dots
    on the baseline between its label and its value, whatever the space between them."""
    from companion.config import Settings
    from companion.ui.draw import CHAR_W, LINE_H, TITLE_H
    from companion.ui.widgets import item_text
    app = make_app(tmp_path, settings=Settings(language=lang))
    img = press(app, keys)  # the options of Undercut, Bag of Ice, Bottoms Up; Settings
    menu = app.top
    rows = [(i, it) for i, it in enumerate(menu.items[:menu.shown()]) if it.right]
    assert len(rows) >= 3
    room = menu.list.room(len(menu.items), menu.shown(), menu.list.x)
    for i, it in rows:
        text = item_text(it, room)
        start = len(text) - len(it.right)
        end = len(text[:start].rstrip())
        y = TITLE_H + i * LINE_H + 7
        x0, x1 = menu.list.x + CHAR_W * end, menu.list.x + CHAR_W * start
        dots = [x for x in range(x0, x1) if img.getpixel((x, y))]
        assert len(dots) >= 2 and all(b - a >= 2 for a, b in zip(dots, dots[1:])), (text, dots)


# ---------------------------------------------------------------- History


def test_history_rows_carry_the_game_number_in_one_form_and_name_games_as_their_menus_do(tmp_path):
    import re
    from companion.ui.history import KindScreen
    from companion.ui.screens import play_screen
    app = make_app(tmp_path)
    for keys in ("ok,ok,ok,ok,ok", "down,ok,down,ok,ok,ok,ok", "down,down,ok,down,down,ok,ok,ok,ok"):
        press(app, keys)  # Undercut, Bag of Ice, Bottoms Up: sessions 1, 2, 3
        app.home()
    labels = [it.label for it in app.top.items]
    press(app, ",".join(["down"] * labels.index("History") + ["ok"]))
    history = app.top
    kinds = [it.label for it in history.items if it.label != "Player totals"]
    assert kinds == ["Undercut", "Bag of Ice", "Bottoms Up"]
    for n, kind in enumerate(kinds, 1):
        k = [it.label for it in history.items].index(kind)
        history.index = k
        press(app, "ok")
        assert isinstance(app.top, KindScreen)
        rows = [it.label for it in app.top.items]
        assert rows == [f"#{n} P1,P2,P3" if kind == "Bag of Ice" else f"#{n} P1,P2,P3,P4"], rows
        assert all(re.fullmatch(r"#\d+ \S.*", r) for r in rows)
        press(app, "ok")  # the session: titled as the game's own session menu
        session = app.resume_session(app.journal.by_number(n).id)
        assert app.top.title == play_screen(app, session).session_title() == f"{kind} #{n}"
        press(app, "back,back")


# ---------------------------------------------------------------- the keyboard's blank keys


def test_no_blank_key_of_any_keyboard_page_can_be_selected(tmp_path):
    """A blank cell of the "ął" page could be selected, and OK typed nothing.
    Every arrow from every key of every page lands on a key."""
    from companion.ui.keyboard import COLS, PAGES, ROWS, NameKeyboard, page_grid
    kb = NameKeyboard("Name", "", lambda a, n: None)
    app = make_app(tmp_path)
    app.push(kb)
    for p in range(len(PAGES)):
        grid = page_grid(p)
        for r in range(ROWS):
            for c in range(COLS):
                if not grid[r][c]:
                    continue
                for key in ("up", "down", "left", "right"):
                    kb.page, kb.pos = p, (r, c)
                    press(app, key)
                    assert grid[kb.pos[0]][kb.pos[1]], (PAGES[p][0], (r, c), key, kb.pos)
    assert sum(not cell for row in page_grid(2) for cell in row) == 6  # "ął": 24 letters in 30 cells


# ---------------------------------------------------------------- the settings file and the page's secret


def built(tmp_path, config_text: str | None):
    from companion.cli import build_app, parser
    cfg = tmp_path / "companion.toml"
    if config_text is not None:
        cfg.write_text(config_text, encoding="utf-8")
    return build_app(parser().parse_args(["sim", "--config", str(cfg), "--journal", str(tmp_path / "state" / "j.db")])), cfg


HAND = '# our table\nplayers = ["Ann", "Bob"]  # the regulars\n'


def test_a_hand_written_settings_file_changes_only_where_the_device_changed_it(tmp_path):
    from companion.ui.screens import SettingsMenu
    app, cfg = built(tmp_path, HAND)
    assert app.settings.players == ("Ann", "Bob")
    app.push(SettingsMenu())
    press(app, "ok")  # Language: Français
    assert app.settings.language == "fr"
    assert cfg.read_text(encoding="utf-8") == HAND + 'language = "fr"\n'
    assert not (tmp_path / "companion.toml.bak").exists()
    press(app, "ok")  # back to English: the file says so, the rest as written
    assert cfg.read_text(encoding="utf-8") == HAND + 'language = "en"\n'
    app.journal.close()


def test_the_page_secret_lives_in_the_state_directory_0600_and_never_in_the_settings(tmp_path):
    import stat
    from hardware.web_server import PageService
    app, cfg = built(tmp_path, HAND)
    page = PageService(app, simulator=True)
    secret_file = tmp_path / "state" / "web_secret"
    secret = secret_file.read_text().strip()
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    assert page.address.endswith(f"/{secret}/") and len(secret) >= 16
    assert cfg.read_text(encoding="utf-8") == HAND  # the settings file untouched
    page.renew(app)  # New address: a new secret, in the same place
    again = secret_file.read_text().strip()
    assert again != secret and page.address.endswith(f"/{again}/")
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    assert cfg.read_text(encoding="utf-8") == HAND
    app.journal.close()
    app, cfg = built(tmp_path, None)  # the next start keeps it
    assert PageService(app, simulator=True).address.endswith(f"/{again}/")
    app.journal.close()


def test_a_secret_an_older_version_wrote_into_the_settings_moves_to_the_state_directory(tmp_path):
    import stat
    from companion import config
    from hardware.web_server import PageService
    old = config.dumps(config.Settings(players=("Ann",), contrast=90, web_secret="A" * 16))  # every key
    assert old.startswith("# Pyramid Table Companion settings") and "web_secret" in old
    app, cfg = built(tmp_path, old)
    page = PageService(app, simulator=True)
    assert page.address.endswith("/" + "A" * 16 + "/")  # the same address: open pages go on
    secret_file = tmp_path / "state" / "web_secret"
    assert secret_file.read_text().strip() == "A" * 16 and stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    text = cfg.read_text(encoding="utf-8")
    assert "web_secret" not in text and text == "".join(
        line for line in old.splitlines(keepends=True) if not line.startswith("web_secret"))
    app.journal.close()


def test_a_secret_the_user_chose_is_used_and_left_in_their_file(tmp_path):
    from hardware.web_server import PageService
    mine = HAND + 'web_secret = "our-own-secret-16"\n'
    app, cfg = built(tmp_path, mine)
    assert PageService(app, simulator=True).address.endswith("/our-own-secret-16/")
    assert cfg.read_text(encoding="utf-8") == mine and not (tmp_path / "state" / "web_secret").exists()
    app.journal.close()


@pytest.mark.parametrize("game", ["undercut", "bag_of_ice", "bottoms_up"])
def test_hold_back_asks_the_undo_on_every_screen_a_game_shows(tmp_path, game):
    """Undo must work from every screen of a game. Along the bench's scripted
    game, on every screen over a game (but the secret colors and the boxes), hold BACK
    asks the undo question (or says there is nothing to undo); Keep changes nothing."""
    import bench.scripts as scripts
    from companion.config import Settings
    from companion.journal import Journal
    from companion.ui.app import App
    from companion.ui.base import SessionScreen
    from companion.ui.widgets import Message
    scripts._load_games()
    app = App(Journal(str(tmp_path / "j.db")), Settings(), rng=random.Random(3))
    kinds = set()
    for name in scripts.GAME_SCRIPTS[game](True):
        top = app.top
        if any(isinstance(s, SessionScreen) for s in app.stack) and not top.overlay \
                and not isinstance(top, SecretTour):
            stack, events = list(app.stack), app.journal.count()
            app.handle(Key.HOLD_BACK)
            if isinstance(app.top, Message):
                assert app.top.text == "Nothing to undo yet.", app.top.text
                app.handle(Key.OK)
            else:
                assert isinstance(app.top, Confirm) and app.top.title == "Undo", type(top).__name__
                app.handle(Key.UP)
                app.handle(Key.OK)  # Keep
            kinds.add(type(top).__name__)
            if app.stack != stack:  # a result page closes first (and asks over its game): as before
                assert all(s in stack for s in app.stack) and app.journal.count() == events
                continue
            assert app.journal.count() == events
        app.handle(Key.parse(name))
    assert len(kinds) >= 4, kinds
