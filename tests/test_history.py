"""The History screen: past games per kind (their rows and titles), per-name totals."""
from __future__ import annotations

from companion.io import Key

from .screens_util import assert_matches_reference, make_app, press
from .test_export import play_tally, tally  # noqa: F401  (fixture)


def _labels(app):
    return [(it.label, it.right) for it in app.top.items]


def test_empty_history_is_the_same_empty_list(tmp_path):
    app = make_app(tmp_path)
    press(app, "down,down,ok")
    assert app.top.title == "History" and _labels(app) == [("(no sessions yet)", "")]


def test_history_per_kind_with_players_winner_and_totals(tmp_path, tally):
    app = make_app(tmp_path)
    j = app.journal
    play_tally(j, ["roll", "gain 3", "roll", "gain 1", "roll", "gain 2"])                 # Ann wins 5-1
    play_tally(j, ["roll", "gain 1", "roll", "gain 3", "pass", "roll", "gain 3"], players=("Cy", "Bob"))
    play_tally(j, ["roll", "gain 1"])                                                     # open
    press(app, "down,ok,ok,ok,back,back")                                                 # a die session
    app.home()                                                                            # Resume is first now
    img = press(app, "down,down,down,ok")
    assert app.top.title == "History"
    assert _labels(app) == [("Player totals", ""), ("Pyramid die", "1"), ("Tally", "3")]
    assert_matches_reference(img, "history_kinds")

    img = press(app, "down,down,ok")                                                      # Tally
    # one form for every game: its number, as the device says it, and its players
    assert _labels(app) == [("#3 Ann,Bob", "open"), ("#2 Cy,Bob", "Bob"), ("#1 Ann,Bob", "Ann")]
    assert_matches_reference(img, "history_tally")

    press(app, "down,down,ok")                                                            # the first game
    assert app.top.title == "Tally #1"  # as the game's own session menu names it
    labels = [lab for lab, _ in _labels(app)]
    assert "Resume" not in labels and labels[:2] == ["Moves", "Winner: Ann"]
    assert ("Ann", "5") in _labels(app) and ("Bob", "1") in _labels(app)
    press(app, "ok")                                                                      # Moves
    assert app.top.title.startswith("History #")
    press(app, "back,back,back")

    img = press(app, "up,up,ok")                                                          # Player totals
    assert app.top.title == "Wins/games"
    assert _labels(app) == [("Bob", "1/2"), ("Ann", "1/1"), ("Cy", "0/1")]
    assert_matches_reference(img, "history_totals")


def test_an_open_game_can_be_resumed_from_history(tmp_path, monkeypatch):
    app = make_app(tmp_path)
    press(app, "down,ok,ok,ok")                  # die with one roll, left open
    app.home()
    press(app, "down,down,down,ok")              # History (Resume is first now)
    press(app, "ok")                             # Pyramid die (no names: no Player totals entry)
    assert app.top.title == "Pyramid die"
    press(app, "ok")
    assert [lab for lab, _ in _labels(app)][0] == "Resume"
    press(app, "ok")
    assert app.top.session.game == "die" and len(app.top.session.state.rolls) == 1
    assert len(app.stack) == 2                   # home, then the die


def test_rows_of_long_names_identify_their_game_without_cutting(tmp_path, tally):
    """With five long names a row read "11-26 ~ Maximilienne": the
    players were cut to nothing. Each row says the game's number and
    the players shortened alike, or the first ones and how many more; a long
    winner's name is shortened alike too. Nothing is cut."""
    from companion.ui.draw import CLIPS
    app = make_app(tmp_path)
    j = app.journal
    five = ("Élodie-Marie", "Maximilienne", "Anne-Sophie", "Bjørn Ødegår")  # tally: 2 to 4
    play_tally(j, ["pass", "roll", "gain 3"], players=five, target=3)  # Maximilienne wins
    play_tally(j, ["roll", "gain 1"], players=five)           # open
    play_tally(j, ["roll", "gain 3"], players=("Ann", "Maximilienne"), target=3)  # Ann wins
    app.home()
    labels = [it.label for it in app.top.items]
    press(app, ",".join(["down"] * labels.index("History") + ["ok"]))
    labels = [it.label for it in app.top.items]
    press(app, ",".join(["down"] * labels.index("Tally") + ["ok"]))
    CLIPS.reset()
    app.frame()
    rows = _labels(app)
    assert rows[0] == ("#3 Ann,Maxim~", "Ann")  # the one short form of a name, the cut marked
    assert rows[1][1] == "open" and rows[2][1] == "Maxim~"
    for (lab, _), n in zip(rows[1:], (2, 1)):  # the first players and how many more
        assert lab == f"#{n} Élodi~ +3"  # the name's one short form , not a cut of the row
    assert CLIPS.count == 0, CLIPS.examples


def test_a_name_in_player_totals_opens_its_numbers_per_game(tmp_path, tally):
    """OK on a name shows that player's plays and wins, win share, best score
    and last date per game, counted as the totals count (the open game is no play);
    the first row switches to the last evening."""
    from companion import export
    app = make_app(tmp_path)
    j = app.journal
    play_tally(j, ["roll", "gain 3", "roll", "gain 1", "roll", "gain 2"])                 # Ann wins 5-1
    play_tally(j, ["roll", "gain 1", "roll", "gain 3", "pass", "roll", "gain 3"], players=("Cy", "Bob"))
    play_tally(j, ["roll", "gain 1", "roll", "gain 3"] * 4, target=20)                    # open: Bob has 12
    bob = [s.scores[s.players.index("Bob")] for s in export.summaries(j) if s.termination]
    assert max(bob) < 12
    date = export.summaries(j)[0].created[5:10]
    app.home()
    press(app, "down,down,down,ok,ok")                                                    # History (Resume first), Player totals
    assert app.top.title == "Wins/games" and _labels(app)[0] == ("Bob", "1/2")
    press(app, "ok")
    assert app.top.title == "Bob"
    assert _labels(app) == [("all games", ""), ("Tally", "1/2"), (" Win share", "50%"),
                            (" Best score", str(max(bob))), (" Last played", date)]
    press(app, "ok")                                                                      # the last evening
    assert _labels(app)[0] == ("last evening", "") and _labels(app)[1] == ("Tally", "1/2")


# ---------------------------------------------------------------- history rows


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


# ---------------------------------------------------------------- a damaged session the device continued


def test_a_damaged_session_the_device_continued_is_over_on_the_history_screen_too(tmp_path):
    """Its end event lies past the damage, where the replay stops: the summary
    (the History screen's, the export's) still counts it as ended, so History
    neither calls it "open" nor offers to resume it."""
    from companion.export import session_summary
    from companion.journal import Journal
    from companion.ui.history import session_result

    from .test_journal_checksum import _damaged_die_session
    path = str(tmp_path / "j.db")
    sid, _other = _damaged_die_session(path)
    with Journal(path) as j:
        assert not session_summary(j, j.session(sid)).finished  # damaged, not continued yet
        j.continue_damaged()
        s = session_summary(j, j.session(sid))
        assert s.ended and s.finished and session_result(s) == "end"
