"""The main menu's Resume: the session played last, by game and players;
the other unfinished sessions behind "Other games"; a tool never displaces a game."""
from __future__ import annotations

import random

from companion.session import Session
from tests.screens_util import make_app


def test_resume_offers_the_game_played_last_by_name_and_players(tmp_path):
    app = make_app(tmp_path)
    j = app.journal
    older = Session.start(j, "bag_of_ice", {"players": ["Ann", "Bob", "Cy"], "start": 0}, random.Random(1))
    newer = Session.start(j, "undercut", {"players": ["Dana", "Eve", "Finn"], "level": "score", "start": 0},
                          random.Random(1))
    newer.play("tree")
    older.play("roll")  # the device was playing the older game when it stopped
    Session.start(j, "die", {}, random.Random(1))  # a tool opened after both: never displaces a game
    app.home()
    menu = app.top
    labels = [it.label for it in menu.items]
    assert labels[:2] == ["Resume", "Other games"]
    assert "\n".join(menu.footer_lines()) == "Bag of Ice\nAnn, Bob, Cy"  # the game, its players under it
    menu.items[0].action(app)
    assert app.top.session.id == older.id
    app.home()
    app.top.items[1].action(app)
    others = [it.label for it in app.top.items]
    # no name cut to two letters, which no one can read: the first and how many more
    assert others[0] == "Undercut: Dana +2" and others[1].startswith("Pyramid die")


def test_long_names_are_shortened_to_fit_the_line(tmp_path):
    from companion.ui.screens import session_label
    app = make_app(tmp_path)
    s = Session.start(app.journal, "bottoms_up", {"players": ["Alexandra", "Bartholomew", "Christina", "Dominic"]},
                      random.Random(1))
    label = session_label(app, s.id)
    assert len(label) <= 20 and label.startswith("Bottoms Up: ")


def test_a_finished_game_is_left_with_back_ok(tmp_path):
    # leaving a won game took about 7 presses
    from companion.io import Key
    from companion.ui.screens import MainMenu, open_session

    app = make_app(tmp_path)
    s = Session.start(app.journal, "undercut", {"players": ["Ann", "Bob", "Cat"], "level": "score", "start": 0},
                      random.Random(1))
    for m in ["tree", "tree", "triplets", "triplets", "done", "done", "done", "pips 5", "pips 7"]:
        s.play(m)
    assert s.finished
    open_session(app, s.id)
    while type(app.top).__name__ in ("Report", "Message"):  # the result pages of the last move
        app.handle(Key.OK)
    app.handle(Key.BACK)
    app.handle(Key.OK)
    assert isinstance(app.top, MainMenu)


def test_leave_of_a_finished_game_is_kept_after_a_restart(tmp_path):
    """"Leave" was kept in memory only, so "Last game" came back after a
    restart. It is now the session's ``end`` event (reason ``left``)."""
    from companion.io import Key
    from companion.journal import Journal
    from companion.ui.app import App
    from companion.ui.screens import MainMenu, open_session

    app = make_app(tmp_path)
    s = Session.start(app.journal, "undercut", {"players": ["Ann", "Bob", "Cat"], "level": "score", "start": 0},
                      random.Random(1))
    for m in ["tree", "tree", "triplets", "triplets", "done", "done", "done", "pips 5", "pips 7"]:
        s.play(m)
    app.home()
    assert [it.label for it in app.top.items][0] == "Last game"
    open_session(app, s.id)
    while type(app.top).__name__ in ("Report", "Message"):
        app.handle(Key.OK)
    app.handle(Key.BACK)
    app.handle(Key.OK)  # Leave
    assert isinstance(app.top, MainMenu) and "Last game" not in [it.label for it in app.top.items]
    events = app.journal.events(s.id)
    assert (events[-1].type, events[-1].data) == ("end", {"reason": "left"})
    app.journal.close()
    again = App(Journal(str(tmp_path / "ref.db")), rng=random.Random(1))  # a restart
    labels = [it.label for it in again.top.items]
    assert "Last game" not in labels and "Resume" not in labels
    # the game keeps its result: history says who won
    from companion.export import session_summary
    summary = session_summary(again.journal, again.journal.session(s.id))
    assert summary.winners and summary.finished


def test_leave_when_the_journal_refuses_its_end_still_goes_home_and_says_so(tmp_path, monkeypatch):
    """A full disk: the end of the game cannot be written. The main menu leaves the game
    out until the app stops, and says that nothing was saved."""
    from companion.errors import JournalWriteError
    from companion.io import Key
    from companion.ui.screens import MainMenu, open_session

    app = make_app(tmp_path)
    s = Session.start(app.journal, "undercut", {"players": ["Ann", "Bob", "Cat"], "level": "score", "start": 0},
                      random.Random(1))
    for m in ["tree", "tree", "triplets", "triplets", "done", "done", "done", "pips 5", "pips 7"]:
        s.play(m)
    open_session(app, s.id)
    while type(app.top).__name__ in ("Report", "Message"):
        app.handle(Key.OK)

    def full(*args, **kw):
        raise JournalWriteError("the journal's disk is full: this play was not recorded")
    monkeypatch.setattr(app.journal, "append", full)
    app.handle(Key.BACK)
    app.handle(Key.OK)  # Leave
    assert app.top.title == "Not saved" and "disk is full" in app.top.text
    app.handle(Key.OK)
    assert isinstance(app.top, MainMenu) and "Last game" not in [it.label for it in app.top.items]


def _menu_text(app) -> list[str]:
    from companion.ui import draw
    draw.DRAWN = []
    try:
        app.frame()
        return list(draw.DRAWN)
    finally:
        draw.DRAWN = None


FIVE = ["Élodie-Marie", "Maximilienne", "Zoë", "Anne-Sophie", "Bjørn Ødegår"]


def test_resume_names_five_players_without_cutting(tmp_path):
    # "Bottoms Up: 5 player" was cut and named nobody; the table recognises a game by its players
    from companion.i18n import set_language
    from companion.ui.draw import CLIPS
    for lang, game_line in (("en", "Bottoms Up"), ("fr", "Bottoms Up")):
        set_language(lang)
        try:
            app = make_app(tmp_path / lang)
            Session.start(app.journal, "bottoms_up", {"players": FIVE}, random.Random(1))
            app.home()
            CLIPS.reset()
            drawn = _menu_text(app)
            assert "\n".join(app.top.footer_lines()) == f"{game_line}\nÉlodi~, Maxim~ +3"
            assert game_line in drawn and "Élodi~, Maxim~ +3" in drawn
            assert CLIPS.count == 0, CLIPS.examples
        finally:
            set_language("en")


def test_resume_names_three_players_whole_in_both_languages(tmp_path):
    from companion.i18n import set_language
    from companion.ui.draw import CLIPS
    for lang in ("en", "fr"):
        want = "Bag of Ice\nAnn, Bob, Cy"
        set_language(lang)
        try:
            app = make_app(tmp_path / lang)
            Session.start(app.journal, "bag_of_ice", {"players": ["Ann", "Bob", "Cy"], "start": 0},
                          random.Random(1))
            app.home()
            CLIPS.reset()
            _menu_text(app)
            assert "\n".join(app.top.footer_lines()) == want
            assert CLIPS.count == 0
        finally:
            set_language("en")


def test_other_games_name_the_players_of_the_one_under_the_cursor(tmp_path):
    """Two unfinished 5-player games read alike ("Bottoms Up: 5 player", cut)
    in Other games. Each row fits; the last lines name the players of the row
    under the cursor, as the main menu does for Resume."""
    from companion.io import Key
    from companion.ui.draw import CLIPS
    app = make_app(tmp_path)
    j = app.journal
    Session.start(j, "bottoms_up", {"players": FIVE}, random.Random(1))
    Session.start(j, "bottoms_up", {"players": ["Ann", "Bob", "Cy", "Dee", "Eve"]}, random.Random(1))
    Session.start(j, "bag_of_ice", {"players": ["Ann", "Bob"], "start": 0}, random.Random(1))
    app.home()
    app.top.items[1].action(app)  # Other games
    CLIPS.reset()
    rows = [it.label for it in app.top.items]
    # one line each: all five names do not fit, the first one and how many more do
    # "Élodi~ +4" (the name's one short form) does not fit: the number of players does
    assert sorted(rows) == ["Bottoms Up (5)", "Bottoms Up: Ann +4"]
    seen = []
    for _i in range(2):
        drawn = _menu_text(app)
        seen.append("\n".join(app.top.footer_lines()))
        assert app.top.footer_lines()[1] in drawn
        app.handle(Key.DOWN)
    assert sorted(seen) == sorted(["Bottoms Up\nAnn,Bob,Cy,Dee,Eve", "Bottoms Up\nÉlodi~, Maxim~ +3"])
    assert CLIPS.count == 0, CLIPS.examples


def test_similar_names_are_named_by_the_first_ones_and_how_many_more(tmp_path):
    """Maximilienne and Maximiliana read "Maen" and "Maan" in the Resume
    lines: forms taken from the middle of names, which nobody reads as a player.
    Where every name cannot keep its start, the first ones do, then "+N"."""
    app = make_app(tmp_path)
    names = ["Maximilienne", "Éléonore", "Maximiliana", "Jeanne-Marie", "Marie-Claude"]
    Session.start(app.journal, "bottoms_up", {"players": names}, random.Random(1))
    app.home()
    game, players = app.top.footer_lines()
    assert game == "Bottoms Up" and len(players) <= 20
    shown, more = players.rsplit(" +", 1)
    parts = shown.split(", ")
    assert int(more) == len(names) - len(parts) and parts
    from companion.names import reads_as
    assert all(reads_as(p, names[i]) for i, p in enumerate(parts)), parts
