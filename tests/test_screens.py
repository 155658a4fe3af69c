"""Reference PNGs of the shared screens; long pages, the main menu's cursor, and
undo by hold BACK on every screen a game shows.

Regenerate: COMPANION_UPDATE_REFERENCE=1 ./run test tests/test_screens.py
"""
import random

import pytest

from companion.io import Key
from companion.ui.bottoms_up import SecretTour
from companion.ui.widgets import Confirm

from .screens_util import assert_matches_reference, make_app, press

SCREENS = {
    "main_menu": "",
    "new_game": "ok",
    "tools": "down,ok",
    "die_ready": "down,ok,ok",
    "die_rolled": "down,ok,ok,ok,ok,ok",
    "die_undo_confirm": "down,ok,ok,ok,hold-back",
    "bag_presets": "down,ok,down,ok",
    "bag_counts": "down,ok,down,ok,ok",
    "bag_drawn": "down,ok,down,ok,ok,down,down,ok",
    "pick_count": "down,ok,down,down,ok",
    "pick_result": "down,ok,down,down,ok,ok,ok",
    "history_empty": "down,down,ok",
    "settings": "down,down,down,ok",
    "name_entry": "down,down,down,ok,down,down,down,down,down,ok,ok,ok,right,ok,right",  # the keyboard: "An"
    "about": "up,up,ok",  # About, above the last entry (Scoreboard page)
}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_reference(tmp_path, name):
    app = make_app(tmp_path)
    img = press(app, SCREENS[name])
    assert img.size == (128, 64) and img.mode == "1"
    assert img.getbbox() is not None  # something is drawn
    assert_matches_reference(img, name)


def test_resume_comes_first_after_an_unfinished_session(tmp_path):
    app = make_app(tmp_path)
    press(app, "down,ok,ok,ok")      # a die session with one roll
    app.home()
    items = app.top.items
    assert items[0].label == "Resume" and items[1].label == "New game"
    press(app, "ok")                 # Resume opens the die with its roll
    assert len(app.top.session.state.rolls) == 1


def test_unavailable_game_says_so_instead_of_failing(tmp_path, monkeypatch):
    from companion.ui import screens
    monkeypatch.setitem(screens.GAME_UIS, "undercut", "companion.ui.no_such_module")
    app = make_app(tmp_path)
    press(app, "ok,ok")
    assert "later version" in app.top.text


def test_every_screen_works_with_up_down_ok_back_only(tmp_path):
    """Walk the menus with the four basic keys and come back to the main menu."""
    app = make_app(tmp_path)
    for keys in SCREENS.values():
        press(app, keys)
        for _ in range(12):
            if len(app.stack) == 1:
                break
            # a session screen opens its menu on BACK: choose "Leave"
            if app.top.__class__.__name__.endswith("Screen") and hasattr(app.top, "session"):
                app.top.session.end("test")
                app.pop()
            else:
                app.handle(Key.BACK)
        assert len(app.stack) == 1


def test_name_entry_saves_to_settings(tmp_path):
    app = make_app(tmp_path)
    app.settings_path = str(tmp_path / "companion.toml")
    # Settings > Player names > + add name; the name keyboard: OK types the home key's
    # "a" (a capital first), RIGHT, OK "n" twice; hold OK is done
    press(app, "down,down,down,ok,down,down,down,down,down,ok,ok,ok,right,ok,right,ok,hold-ok")
    assert app.settings.players == ("Ann",)
    assert (tmp_path / "companion.toml").read_text().count("players") == 1


def test_reference_comparison_detects_one_pixel(tmp_path):
    app = make_app(tmp_path)
    img = press(app, "")
    assert_matches_reference(img, "menu", folder=tmp_path, update=True)
    assert_matches_reference(img, "menu", folder=tmp_path, update=False)
    img.putpixel((64, 40), 1 - img.getpixel((64, 40)))
    with pytest.raises(AssertionError, match="1 pixels differ"):
        assert_matches_reference(img, "menu", folder=tmp_path, update=False)
    assert (tmp_path / "menu.actual.png").exists()


def test_list_cursor_helpers_shared_by_every_list_screen():
    """UP/DOWN wrap; LEFT/RIGHT page and stop at the ends; the view scrolls
    as little as needed to keep the cursor row shown."""
    from companion.ui.widgets import scrolled, stepped
    assert stepped(0, Key.UP, 6) == 5 and stepped(5, Key.DOWN, 6) == 0
    assert stepped(2, Key.LEFT, 6, page=5) == 0 and stepped(2, Key.RIGHT, 6, page=5) == 5
    assert stepped(2, Key.LEFT, 6) == 2 and stepped(2, Key.OK, 6, page=5) == 2  # no page: LEFT is the screen's own
    assert scrolled(0, 3, 5) == 0          # above the view: it starts at the cursor
    assert scrolled(9, 3, 5) == 5          # below: the cursor becomes the last shown row
    assert scrolled(5, 3, 5) == 3          # inside: the view stays


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_start_player_tool_names_the_pick(tmp_path, language):
    """A seat the roster names shows that name; a seat past the roster shows
    "Player 3" in words, never "P3"."""
    from companion import i18n
    from companion.config import Settings
    from companion.ui import draw
    from companion.ui.screens import PickScreen
    app = make_app(tmp_path, settings=Settings(players=("Ann", "Bob"), language=language))
    try:
        press(app, "down,ok,down,down,ok,ok")  # Tools, Start player, 4 players
        screen = app.top
        assert isinstance(screen, PickScreen)
        named = set()
        clipped = draw.CLIPS.count
        for _ in range(60):
            draw.DRAWN = []
            press(app, "ok")
            seat = screen.state.picks[-1]
            want = ("Ann", "Bob")[seat] if seat < 2 else i18n._("Player {n}").format(n=seat + 1)
            assert want in draw.DRAWN and f"P{seat + 1}" not in draw.DRAWN, draw.DRAWN
            assert draw.CLIPS.count == clipped
            named.add(seat < 2)
            if named == {True, False}:
                break
        assert named == {True, False}
        # the names are in the setup: the history names the picks too
        assert screen.session.setup["names"] == ["Ann", "Bob"]
        from companion.words.moves import move_words
        lines = [h.line for h in screen.session.history(move_words)]
        for seat in screen.state.picks:
            who = ("Ann", "Bob")[seat] if seat < 2 else i18n._("Player {n}").format(n=seat + 1)
            assert i18n._("{name} starts").format(name=who) in lines
    finally:
        draw.DRAWN = None
        i18n.set_language("en")


# ---------------------------------------------------------------- long pages, the main menu's cursor, undo on every screen


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
