"""Every open page tells the truth (RULINGS V-4): the stream's id
identifies what the page shows, so leaving a game, ending it, a language switch
or anything else that changes the projection reaches pages already open, and an
open page shows what a freshly loaded one shows."""
from __future__ import annotations

import json
import random

import pytest

from bench.live import LiveTable
from bench.stale import check_walk, tour
from companion import public
from companion.shown import Shown
from companion.journal import Journal
from companion.session import Session
from companion.web import Board, view_tag

from tests.test_web import Stream, game, served  # noqa: F401  (the fixtures of a served game)


class FakeApp:
    """A screen stack: the sessions played, top last."""

    def __init__(self) -> None:
        self.stack: list = []


class Playing:
    def __init__(self, session) -> None:
        self.session = session


def shown(app: FakeApp) -> tuple:
    """What the app publishes for ``Board.publish`` (``App.showing``): the top session,
    its game screen shown; no session: the main menu."""
    s = app.stack[-1].session if app.stack else None
    return s, (Shown.GAME if s is not None else Shown.MAIN_MENU)


def finished_bag_of_ice(j: Journal) -> Session:
    """A Bag of Ice game played to its end with seeded draws."""
    s = Session.start(j, "bag_of_ice", {"players": ["Ann", "Bob"]}, random.Random(5))
    rng = random.Random(5)
    from companion.engine import pick_chance
    while not s.state.is_terminal():
        st = s.state
        if st.is_chance_node():
            s.play(str(pick_chance(st, rng)))
        else:
            texts = [str(m) for m in st.legal_moves()]
            s.play("bank" if "bank" in texts and st.turn_score() >= 10 else
                   "roll" if "roll" in texts else texts[0])
    return s


def test_the_tag_follows_the_text_not_only_the_seq():
    a, b = view_tag(5, '{"x":1}'), view_tag(5, '{"x":2}')
    assert a != b and a.startswith("5-") and b.startswith("5-")
    assert view_tag(5, '{"x":1}') == a  # the same page, the same id (a reconnect sends nothing)


def test_leaving_a_game_reaches_the_board_with_a_new_tag(tmp_path):
    j = Journal(str(tmp_path / "j.db"))
    s = Session.start(j, "bag_of_ice", {"players": ["Ann", "Bob"]}, random.Random(3))
    board, app = Board(), FakeApp()
    app.stack = [Playing(s)]
    assert board.publish(*shown(app))
    playing_tag, playing = board.snapshot()
    assert json.loads(playing)["playing"] is True
    app.stack = []                                # Leave (kept): the main menu, same journal seq
    assert board.publish(*shown(app))
    tag, text = board.snapshot()
    idle = json.loads(text)
    assert tag != playing_tag and tag.split("-")[0] == playing_tag.split("-")[0]
    assert idle["session"] is None and idle["playing"] is False  # an unfinished game is not kept (V-4)
    assert idle == public.idle_view(idle["seq"])  # what a page opened now shows
    assert not board.publish(*shown(app))                 # nothing moved: nothing sent
    j.close()


def test_a_finished_game_left_stays_marked_finished_until_another_starts(tmp_path):
    j = Journal(str(tmp_path / "j.db"))
    s = finished_bag_of_ice(j)
    board, app = Board(), FakeApp()
    app.stack = [Playing(s)]
    board.publish(*shown(app))
    over = json.loads(board.snapshot()[1])
    assert over["session"]["over"] and over["result"] and over["playing"] is True
    app.stack = []                                # Leave: the main menu
    board.publish(*shown(app))
    kept = json.loads(board.snapshot()[1])
    assert kept["playing"] is False and kept["to_act"] is None       # V-4: marked as finished
    assert kept["result"] == over["result"] and kept["players"] == over["players"]
    assert kept["waiting"] == public.idle_view(0)["waiting"]          # "No game is being played."
    s2 = Session.start(j, "die", {}, random.Random(1))               # another game starts
    app.stack = [Playing(s2)]
    board.publish(*shown(app))
    assert json.loads(board.snapshot()[1])["session"]["id"] == s2.id
    app.stack = []                                 # left unfinished: the old result is gone too
    board.publish(*shown(app))
    assert json.loads(board.snapshot()[1])["session"] is None
    j.close()


def test_a_language_switch_on_the_main_menu_reaches_the_board(tmp_path):
    from companion.i18n import set_language
    board, app = Board(), FakeApp()
    try:
        set_language("en")
        board.publish(*shown(app))
        en_tag, en = board.snapshot()
        set_language("fr")
        assert board.publish(*shown(app))
        fr_tag, fr = board.snapshot()
    finally:
        set_language("en")
    assert fr_tag != en_tag and json.loads(fr)["lang"] == "fr" and json.loads(en)["lang"] == "en"
    assert json.loads(fr)["waiting"] != json.loads(en)["waiting"]


def test_an_open_stream_gets_the_main_menu_when_the_game_is_left(served, game):  # noqa: F811
    _srv, port, secret, _app = served
    _j, s, board = game
    st = Stream(port, f"/{secret}/events")
    assert st.wait(1)
    first_id, first = st.events[-1]
    board.set(s.last_seq, public.idle_view(s.last_seq))  # the main menu: the journal's seq did not move
    assert st.wait(2), "the open page never heard that the game was left"
    tag, data = st.events[-1]
    assert tag != first_id and tag.split("-")[0] == first_id.split("-")[0]
    assert json.loads(data)["session"] is None
    st.close()


@pytest.mark.parametrize("kind", ["bag_of_ice", "bottoms_up", "undercut"])
def test_an_open_page_shows_what_a_fresh_page_shows_after_every_press(browser, tmp_path, kind):
    """The acceptance test: a long walk of keys (the game's opening, then seeded keys
    through menus, leaves, ends, undos, resumes and language switches); after every
    press the open page equals a freshly loaded one within 1 s."""
    with LiveTable(str(tmp_path), seed=11) as t:
        out = check_walk(browser, t, tour(kind, 11, 80))
    seen = out["seen"]
    assert out["stale"] == [], out["stale"][:3]
    # the walk went where the defect was: out of games (unfinished, finished, a tool),
    # back in, an end, and languages switched in games and between them
    assert seen["not_found"] == [], seen
    assert seen["idle"] >= 4 and seen["finished_kept"] >= 1 and seen["sessions"] >= 2, seen
    assert seen["lang_switches"] == 4, seen


def test_a_game_ended_early_is_not_kept_as_a_result(tmp_path):
    j = Journal(str(tmp_path / "j.db"))
    s = Session.start(j, "bag_of_ice", {"players": ["Ann", "Bob"]}, random.Random(3))
    board, app = Board(), FakeApp()
    app.stack = [Playing(s)]
    board.publish(*shown(app))
    s.end("ended by the players")                 # End session: over, but not played to its end
    board.publish(*shown(app))
    assert json.loads(board.snapshot()[1])["session"]["over"]
    app.stack = []
    board.publish(*shown(app))
    assert json.loads(board.snapshot()[1])["session"] is None  # V-4: no final result to keep
    j.close()
