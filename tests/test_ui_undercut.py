"""Undercut screens, driven with keys as the headless simulator does.

Each test checks the engine state the keys produced, not only the pictures.
Regenerate the reference PNGs after a deliberate change of the drawing:

    COMPANION_UPDATE_REFERENCE=1 ./run test tests/test_ui_undercut.py
"""
from __future__ import annotations

import pytest

from companion import records
from companion.cli import main
from companion.journal import Journal
from companion.pieces import Piece
from companion.ui.undercut import BidPicker, Report, ScoreScreen, UndercutScreen
from companion.ui.widgets import Confirm, Message

from .screens_util import assert_hold_back_undoes_from_here, assert_matches_reference, make_app, press

P = Piece.parse

# From a fresh main menu: New game, Undercut, 3 players, names as they are,
# then the options (rows: Start game, Level, Bag (full table only), Start).
SHEET_3 = "ok,ok,down,ok,ok,down,ok,up,ok"              # level: score sheet
FULL_3_PHYSICAL = "ok,ok,down,ok,ok,down,down,ok,up,up,ok"  # full table, physical bag (U-15)
FULL_4_VIRTUAL = "ok,ok,ok,ok,ok"                       # the defaults: 4 players, full, virtual

# Full table, physical bag: each draw menu lists only the colors the bag still
# holds, in the game's color order (red, yellow, green, blue, black).
SETUP_DRAWS = (
    "ok,ok,down,ok,down,down,ok,"    # P1 takes LMS: rL yM gS
    "ok,down,ok,down,down,ok,ok,"    # P2 takes LMS: yL gM rS
    "ok,down,down,ok,ok,down,ok"     # P3 takes LMS: gL rM yS
)
STACK_DRAWS = "ok,ok,ok,down,ok,down,ok,down,ok"  # A = rL rM rS, B = yL yM yS (U-7)


def ok_or_pass(app) -> None:
    """OK, the habit; at an auction where every stack has a bid the cursor is on A (issue
    48), where it was on Pass: UP, OK passes, as OK did."""
    top = app.top
    if isinstance(top, UndercutScreen) and top.state.phase == "bidding" and all(top.state.bids) \
            and top.index == 0:
        press(app, "up,ok")
    else:
        press(app, "ok")


def game_screen(app) -> UndercutScreen:
    return next(s for s in reversed(app.stack) if isinstance(s, UndercutScreen))


def state(app):
    return game_screen(app).session.state


def keys_count(*parts: str) -> int:
    return sum(len([k for k in p.split(",") if k]) for p in parts)


# ---------------------------------------------------------------- score-sheet level


def test_setup_flow_starts_a_score_sheet_game(tmp_path):
    app = make_app(tmp_path)
    press(app, SHEET_3)
    st = state(app)
    assert isinstance(app.top, UndercutScreen)
    assert st.level == "score" and st.players == ("P1", "P2", "P3") and st.start == 0
    assert st.phase == "scoring" and st.combo_values() == {"TREE": 2, "TRIPLETS": 2, "FOURSOME": 2}  # U-4


def test_score_sheet_turn_ins_in_at_most_3_presses_U4_U6(tmp_path):
    app = make_app(tmp_path)
    press(app, SHEET_3)
    tree, triplets, foursome = "down,ok", "down,down,ok", "up,ok"
    for keys in (tree, triplets, foursome):
        assert keys_count(keys) <= 3
    press(app, tree)
    assert_matches_reference(app.frame(), "undercut_sheet_scoring")
    assert state(app).scores() == (2, 0, 0) and state(app).combo_values()["TREE"] == 3  # U-4
    press(app, foursome)  # the cursor went back to Done after the TREE: UP wraps to FOURSOME
    press(app, "ok")  # the cursor is on Done again: one more OK ends the turn-ins, never scores twice
    assert state(app).scores() == (2 + 2, 0, 0)
    assert state(app).combo_values() == {"TREE": 3, "TRIPLETS": 2, "FOURSOME": 3}  # U-5: each rises alone
    st = state(app)
    assert st.active == 1 and st.phase == "scoring"
    press(app, triplets)
    assert state(app).scores() == (4, 2, 0)


def test_a_resumed_score_sheet_shows_the_cursor_back_on_done_U14(tmp_path):
    """After a turn-in the cursor goes back to Done (one more OK cannot score the
    same combo twice); a resume from the journal shows the same."""
    app = make_app(tmp_path)
    press(app, SHEET_3 + ",down,down,ok")  # P1 turns in TRIPLETS and scores on
    assert state(app).active == 0 and state(app).scores() == (2, 0, 0)
    frame = app.frame()
    again = make_app(tmp_path)  # a fresh app on the same journal
    assert again.top.items[0].label == "Resume"
    press(again, "ok")
    assert again.frame().tobytes() == frame.tobytes()
    press(again, "down,down,ok")  # the same combo again: from Done, as the first time
    assert state(again).combo_values()["TRIPLETS"] == 4 and state(again).scores() == (5, 0, 0)


def test_score_sheet_game_with_pips_tiebreak_U12_U13(tmp_path):
    app = make_app(tmp_path)
    press(app, SHEET_3)
    press(app, "down,ok,down,ok,down,ok,ok")  # P1: three TREEs 2+3+4 = 9 (each from Done), done
    press(app, "ok,ok")  # P2, P3 done
    st = state(app)
    assert st.phase == "auction" and st.scores() == (9, 0, 0)
    press(app, "ok")  # "who passed?": the cursor is on the first seat, P1 (U-11: +1)
    assert isinstance(app.top, Report) and app.top.title == "End triggered"
    assert any(w.startswith("U-12:") for w in game_screen(app).why_lines())  # the id is on the Why page
    st = state(app)
    assert st.scores() == (10, 0, 0) and st.end_triggered and st.phase == "scoring"
    press(app, "ok,ok,ok,ok")  # dismiss; last scoring phase: everyone done
    st = state(app)
    assert st.phase == "tiebreak" and st.tied == (1, 2) and st.active == 1  # U-13
    press(app, "up,up,up,up,up,ok")  # P2 holds 5 pips
    press(app, "up,up,up,ok")  # P3 holds 3 pips
    st = state(app)
    assert st.phase == "over" and st.winners == (2,)
    assert st.detail == "tie on score broken by fewest pips in hand (U-13)"
    img = app.frame()
    assert_matches_reference(img, "undercut_winner_tiebreak")


WON_3 = ",".join([SHEET_3, "down,ok,down,ok,down,ok,ok", "ok,ok", "ok", "ok", "ok", "down,down,ok,ok", "ok"])
"""A score-sheet game played to its winner (as in the headless test below)."""


def test_a_finished_game_s_menu_leaves_but_does_not_offer_to_end_it(tmp_path):
    """A won game is left with BACK, OK; "End session" (meant for a game stopped
    before its end) is not in its menu; an unfinished game's menu still has it."""
    from companion.ui.widgets import Menu
    app = make_app(tmp_path)
    press(app, SHEET_3 + ",back")
    assert isinstance(app.top, Menu)
    labels = [it.label for it in app.top.items]
    assert "End session" in labels and "Leave (kept)" in labels
    press(app, "back")
    (tmp_path / "won").mkdir()
    app = make_app(tmp_path / "won")
    press(app, WON_3)
    assert state(app).is_terminal()
    press(app, "back")
    labels = [it.label for it in app.top.items]
    assert labels[0] == "Leave" and "End session" not in labels
    press(app, "ok")  # BACK, OK: home
    assert len(app.stack) == 1 and "Resume" not in [it.label for it in app.top.items]


def test_headless_sim_plays_a_score_sheet_game_to_the_winner(tmp_path, capsys):
    """From the main menu to the winner screen through the CLI; the journal's
    record replays to the same winner (the docs' score-sheet example)."""
    keys = ",".join([
        SHEET_3,
        "down,ok,down,ok,down,ok,ok",  # Ann: TREE x3 = 9 (the cursor back on Done each time), done
        "ok,ok",                # Bob, Cat done
        "ok",                   # P1 passed: 10, the end is triggered by a pass (U-12)
        "ok",                   # dismiss the U-12 note
        "ok",                   # P1 done
        "down,down,ok,ok",      # P2: TRIPLETS +2, done
        "ok",                   # P3 done: game over
    ])
    shot = tmp_path / "win.png"
    jpath = tmp_path / "j.db"
    assert main(["sim", "--journal", str(jpath), "--seed", "5", "--keys", keys, "--screenshot", str(shot)]) == 0
    j = Journal(str(jpath))
    (info,) = j.sessions()
    moves = [e.data["move"] for e in j.events(info.id)]
    assert moves == ["tree", "tree", "tree", "done", "done", "done", "pass 1", "done", "triplets", "done", "done"]
    text = records.dumps(info.game, info.setup, j.events(info.id))
    result = records.replay(records.parse_lines(text.splitlines())).to_json()
    assert result["terminal"] and result["scores"] == [10, 2, 0]
    assert result["outcome"]["winners"] == [2] and result["outcome"]["detail"] == "lowest score (U-13)"
    assert result["state"]["combo_values"] == {"TREE": 5, "TRIPLETS": 3, "FOURSOME": 2}
    from PIL import Image
    assert_matches_reference(Image.open(shot).convert("1"), "undercut_winner")


# ---------------------------------------------------------------- full table, physical bag


def test_physical_bag_entries_only_offer_what_the_bag_holds_U15(tmp_path):
    app = make_app(tmp_path)
    press(app, FULL_3_PHYSICAL + ",ok")  # P1 takes LMS (U-3)
    st = state(app)
    assert st.pending_draw() == {"for": "hand", "size": "L", "left": 3, "seat": 0}
    labels = [r.label for r in game_screen(app).rows()]
    assert labels == ["red", "yellow", "green", "blue", "black"]  # the size is in the title
    press(app, "ok")
    assert state(app).hands[0] == state(app).hands[0].__class__([P("rL")])


def test_full_table_auction_bids_undercut_and_pass_U7_to_U11(tmp_path):
    app = make_app(tmp_path)
    press(app, FULL_3_PHYSICAL + "," + SETUP_DRAWS)
    st = state(app)
    assert st.phase == "stacks" and [sorted(map(str, h)) for h in st.hands] == [
        ["gS", "rL", "yM"], ["gM", "rS", "yL"], ["gL", "rM", "yS"]]
    press(app, STACK_DRAWS)
    st = state(app)
    assert st.phase == "bidding" and st.active == 0
    assert [tuple(map(str, s)) for s in st.stacks] == [("rL", "rM", "rS"), ("yL", "yM", "yS")]
    assert_matches_reference(app.frame(), "undercut_auction_empty")

    bid_yM = "ok,down,down,ok,ok"  # open A, the picker lists gS yM rL: add yM, bid
    assert keys_count(bid_yM) <= 8
    img = press(app, "ok,down,down,ok")
    assert isinstance(app.top, BidPicker) and app.top.pieces() == (P("yM"),)
    press(app, "ok")
    st = state(app)
    assert st.bids[0] == (0, (P("yM"),)) and st.active == 1
    press(app, "ok,ok")  # P2: cursor on B (the stack without a bid): the zero bid (U-9)
    st = state(app)
    assert st.bids[1] == (1, ()) and st.active == 2
    assert_matches_reference(app.frame(), "undercut_auction")

    # P3 tries rM on A: 2 pips/1 piece is not lower than 2 pips/1 piece (U-9)
    before = state(app)
    press(app, "ok,down,down,ok")  # every stack has a bid: the cursor on A, not Pass: a habitual OK must not open Pass
    assert isinstance(app.top, BidPicker)
    assert_matches_reference(app.frame(), "undercut_bid_picker")
    press(app, "ok")
    # the picker refuses it in the screens' words (U-9); the engine would refuse it too
    assert isinstance(app.top, Message) and app.top.title == "Too high" and "lower" in app.top.text
    assert state(app) == before
    from companion.errors import IllegalMoveError
    from companion.games.undercut_moves import Bid
    with pytest.raises(IllegalMoveError, match="U-9"):
        before.apply(Bid(0, (P("rM"),)))
    press(app, "ok,down,down,ok,up,ok")  # dismiss; rM back to none; add yS instead
    assert app.top.pieces() == (P("yS"),) and app.top.verdict() == (True, "lower")
    press(app, "ok")
    st = state(app)
    assert st.bids[0] == (2, (P("yS"),))
    assert P("yM") in st.hands[0] and st.active == 0  # U-10: back to P1 at once, P1 acts
    assert isinstance(app.top, Report) and app.top.title == "Bid undercut"
    press(app, "ok")

    # P1 passes: every stack has a bid, the cursor on A, UP wraps to Pass;
    # small; the table draws rS
    press(app, "up,ok")
    assert isinstance(app.top, Message) is False
    press(app, "ok")
    st = state(app)
    assert st.phase == "pass" and st.pending_draw()["size"] == "S" and st.scores() == (1, 0, 0)
    press(app, "ok")  # red small
    st = state(app)
    # U-11: A to P3, B to P2, bid pieces to the bag, P1 starts round 2; U-6 applies the
    # single TREEs in seat order from P1: P2 yellow TREE +2, P3 red TREE +3.
    assert st.round == 2 and st.start == 0 and st.phase == "stacks"
    assert st.scores() == (1, 2, 3) and st.combo_values()["TREE"] == 4
    assert sorted(map(str, st.hands[0])) == ["gS", "rL", "rS", "yM"]
    assert sorted(map(str, st.hands[2])) == ["gL", "rM"]
    assert isinstance(app.top, Report) and app.top.title == "Round 1 over"
    assert app.top.lines[0] == "P1 passed: +1, drew"  # wrapped: "... a small red."
    text = " ".join(app.top.lines)
    assert "P1 passed: +1, drew a small red." in text and "P3 takes A: rL rM rS" in text
    assert "Back to the bag: yS" in text and "P1 starts round 2." in text
    assert_matches_reference(app.frame(), "undercut_round_summary")
    summary = app.top
    assert len(summary.lines) > summary.shown  # longer than a page: OK shows its end first
    press(app, "ok")
    assert app.top is summary and summary.offset + summary.shown == len(summary.lines)
    press(app, "ok")
    assert isinstance(app.top, Report) and app.top.title == "Only one move"
    assert " ".join(app.top.lines).split() == "P2: TREE +2 back to the bag: yL yM yS P3: TREE +3 back to the bag: rL rM rS".split()
    press(app, "ok" if len(app.top.lines) <= app.top.shown else "ok,ok")  # its end, then closed
    assert isinstance(app.top, UndercutScreen)
    press(app, "right")
    assert isinstance(app.top, ScoreScreen)
    assert_matches_reference(app.frame(), "undercut_scores")


def test_pass_is_refused_while_a_stack_has_no_bid_U11(tmp_path):
    app = make_app(tmp_path)
    press(app, FULL_3_PHYSICAL + "," + SETUP_DRAWS + "," + STACK_DRAWS)
    before = state(app)
    press(app, "up,ok")  # up from A wraps to Pass
    assert isinstance(app.top, Message) and "No bid on: A, B" in app.top.text
    assert "U-11" not in app.top.text
    assert state(app) == before


def test_hands_from_the_game_menu(tmp_path):
    app = make_app(tmp_path)
    press(app, FULL_3_PHYSICAL + "," + SETUP_DRAWS + ",back,down,ok")  # menu: Scores, Hands
    labels = [(it.label, it.right) for it in app.top.items]
    assert labels == [("P1", "6 pips"), ("P2", "6 pips"), ("P3", "6 pips")]
    press(app, "down,ok")
    assert isinstance(app.top, Report) and app.top.lines == ["6 pips, 3 pieces", "large yellow", "medium green", "small red"]


# ---------------------------------------------------------------- full table, virtual bag


def test_virtual_setup_tells_which_pieces_to_take_from_the_tray_U3_U15(tmp_path):
    app = make_app(tmp_path)
    press(app, FULL_4_VIRTUAL)
    st = state(app)
    assert st.phase == "setup" and st.n == 4 and st.bag_mode == "virtual"
    press(app, "ok")  # P1 takes LMS; the device draws the colors
    hand = state(app).hands[0]
    assert sorted(p.size.letter for p in hand) == ["L", "M", "S"]
    assert isinstance(app.top, Report) and app.top.title == "P1 takes:"
    from companion.ui.undercut import piece_words
    assert sorted(w.strip() for w in app.top.lines) == sorted(piece_words(p) for p in hand)


@pytest.mark.parametrize("seed", range(6))
def test_every_piece_to_take_from_the_tray_is_on_the_page_U3_U15(tmp_path, seed):
    """Six smalls (or a medium and four smalls) are 6 (5) pieces: listed one a line under
    "P1 takes:" they ran past the page's 5 lines, and OK (which closes the page) left the
    last ones unseen. Alike pieces share a line with their count: every piece is shown."""
    from companion.ui.undercut import piece_words
    for mix_keys, n in (("down,down,down,down,down,ok", 6), ("down,down,down,down,ok", 5)):
        app = make_app(tmp_path / f"{n}", seed=seed)
        press(app, FULL_4_VIRTUAL + "," + mix_keys)
        hand = state(app).hands[0]
        assert len(hand) == n
        page = app.top
        assert isinstance(page, Report) and page.title == "P1 takes:"
        assert len(page.lines) <= page.shown  # nothing below the page
        listed = []
        for line in page.lines:
            words, _x, count = line.strip().partition(" ×")
            listed += [words] * int(count or 1)
        assert sorted(listed) == sorted(piece_words(p) for p in hand)


def test_undo_restores_the_position_before_a_random_draw(tmp_path):
    app = make_app(tmp_path)
    press(app, FULL_4_VIRTUAL)
    before = state(app)
    press(app, "ok,ok")  # take LMS (three random draws), dismiss the tray note
    assert len(state(app).bag) == 72
    press(app, "hold-back")
    assert isinstance(app.top, Confirm)
    press(app, "ok")  # "Undo" is preselected: hold BACK, OK
    assert state(app) == before and isinstance(app.top, UndercutScreen)


def test_a_virtual_round_keeps_75_pieces_and_resumes_on_the_same_screen(tmp_path):
    app = make_app(tmp_path)
    press(app, FULL_4_VIRTUAL + ",ok,ok,ok,ok,ok,ok,ok")  # four LMS takes (the last note still up)
    while not isinstance(app.top, UndercutScreen):
        press(app, "ok")
    st = state(app)
    assert st.phase == "bidding" and len(st.stacks) == 3  # U-7: players - 1
    assert len(st.piece_census()) == 75
    for _ in range(3):
        press(app, "ok,ok")  # zero bids on A, B, C (U-9)
    press(app, "up,ok,ok")  # P4 passes (UP wraps from A to Pass), small
    st = state(app)
    assert st.round == 2 and st.start == 3 and st.scores()[3] >= 1 and len(st.piece_census()) == 75
    while not isinstance(app.top, UndercutScreen):
        press(app, "ok")
    frame = app.frame()
    sid = game_screen(app).session.id
    app.home()  # leave, then resume from the journal: the same screen comes back
    assert app.top.items[0].label == "Resume"
    press(app, "ok")
    assert state(app) == st and app.frame().tobytes() == frame.tobytes()
    assert game_screen(app).session.id == sid


@pytest.mark.parametrize("level_keys", [SHEET_3, FULL_3_PHYSICAL])
def test_score_screen_from_the_session_menu(tmp_path, level_keys):
    app = make_app(tmp_path)
    press(app, level_keys + ",back,ok")
    assert isinstance(app.top, ScoreScreen)
    press(app, "ok")
    assert isinstance(app.top, UndercutScreen)


@pytest.mark.parametrize("seed", [1, 2])
def test_random_keys_never_crash_and_keep_75_pieces(tmp_path, seed):
    """Any key anywhere: the app stays up, refusals change nothing, and the
    full table always accounts for all 75 pieces (U-14)."""
    import random
    rnd = random.Random(seed)
    app = make_app(tmp_path, seed=seed)
    press(app, FULL_4_VIRTUAL)
    sid = game_screen(app).session.id
    keys = ["ok"] * 6 + ["up", "down", "back", "right", "left", "hold-back"]
    for _ in range(400):
        press(app, rnd.choice(keys))
        screens = [s for s in app.stack if isinstance(s, UndercutScreen)]
        if not screens:  # left the session: resume it
            app.home()
            if app.top.items[0].label != "Resume":
                break
            press(app, "ok")
            continue
        st = screens[-1].session.state
        assert len(st.piece_census()) == 75
    assert len(app.resume_session(sid).fold.moves) > 10  # the keys really played


def test_physical_bag_random_start_is_named_by_the_table(tmp_path):
    """With the physical bag the table draws who starts: the screen lists the
    players (the chance point's options by type, not by their text)."""
    import random as _random

    from companion.session import Session
    from companion.ui.undercut import UndercutScreen
    app = make_app(tmp_path)
    s = Session.start(app.journal, "undercut", {"players": ["Ann", "Bob", "Cat"], "level": "full",
                                                "bag": "physical", "start": "random"}, _random.Random(1))
    screen = UndercutScreen(s)
    app.push(screen)
    assert [r.label for r in screen.rows()] == ["Ann", "Bob", "Cat"]
    press(app, "down,ok")
    assert s.state.start == 1


def test_the_end_is_said_after_the_turn_ins_that_reached_it_U6_U12(tmp_path):
    """A pass, then the device's own turn-ins (U-6) bring Eve to 10 points: the pages
    said "End triggered: Eve has 10 points" before "Only one move", the page with the
    turn-in that got her there. They come in the order of play: the round's summary,
    the turn-ins, then the end."""
    from companion.config import Settings
    app = make_app(tmp_path, settings=Settings(players=["Ann", "Bob", "Cy", "Dee", "Eve"]))
    press(app, "ok,ok,up,ok,ok,ok")  # 5 players, full table, virtual bag
    titles: list[str] = []
    seen: list[Report] = []
    for _ in range(200):  # every take "one of each size", zero bids, every pass a small
        top = app.top
        if isinstance(top, Report) and not any(top is r for r in seen):
            seen.append(top)
            titles.append(top.title)
        if state(app).end_triggered and "End triggered" in titles:
            break
        ok_or_pass(app)
    end = titles.index("End triggered")
    assert titles[end - 1] == "Only one move", titles
    assert titles[end - 2].startswith("Round"), titles
    st = state(app)
    assert max(st.points) >= 10


def test_the_undo_question_names_the_pass_it_takes_back_U11(tmp_path):
    """After a pass the device draws the passer's piece, plays the only turn-ins (U-6) and
    draws the next round's stacks (U-7). Hold BACK asked "Undo: yS drawn for stack D?",
    and OK took back the pass and all of that: the question names the pass first."""
    from companion.config import Settings
    app = make_app(tmp_path, settings=Settings(players=["Ann", "Bob", "Cy", "Dee", "Eve"]))
    press(app, "ok,ok,up,ok,ok,ok")  # 5 players, full table, virtual bag
    for _ in range(100):  # every take "one of each size", zero bids, the pass a small
        if state(app).round == 2 and state(app).phase == "bidding" and isinstance(app.top, UndercutScreen):
            break
        ok_or_pass(app)
    before_pass = [s for s in game_screen(app).session.fold.states if s.round == 1][-1]
    passer = before_pass.players[before_pass.active]
    press(app, "hold-back")
    assert isinstance(app.top, Confirm)
    assert app.top.question.startswith(f"Undo: {passer} passes"), app.top.question
    press(app, "ok")
    st = state(app)
    assert st.round == 1 and st.phase == "bidding" and st.players[st.active] == passer


def test_the_undo_question_of_a_die_roll_is_the_roll_s_face(tmp_path):
    """A decision and its one draw (the die rolled) is said by the draw alone, as before."""
    app = make_app(tmp_path)
    press(app, "down,ok,ok,ok,hold-back")  # Tools, die, roll, undo
    assert isinstance(app.top, Confirm) and app.top.question.startswith("Undo: rolled ")


def test_ok_on_a_long_round_summary_shows_its_end_before_closing_it_U11(tmp_path):
    """5 players: the round summary (U-11) is longer than a page; OK first turns to
    the page that shows its last line ("P5 starts round 2."), the next OK closes it."""
    app = make_app(tmp_path)
    press(app, "ok,ok,up,ok,ok,ok")  # Undercut, 5 players, full table, virtual bag
    while not (isinstance(app.top, UndercutScreen) and state(app).phase == "bidding"):
        press(app, "ok")  # the takes and the tray notes
    assert state(app).n == 5 and len(state(app).stacks) == 4  # U-7
    for _ in range(4):
        press(app, "ok,ok")  # zero bids on A to D (U-9)
    press(app, "up,ok,ok")  # P5 passes (UP wraps from A to Pass), small (U-11)
    top = app.top
    assert isinstance(top, Report) and top.title == "Round 1 over"
    assert len(top.lines) > top.shown and top.lines[-1] == "P5 starts round 2."
    visible = top.lines[top.offset:top.offset + top.shown]
    assert top.lines[-1] not in visible
    press(app, "ok")
    assert app.top is top  # still open, now at its end
    assert top.lines[-1] in top.lines[top.offset:top.offset + top.shown]
    press(app, "ok")
    assert app.top is not top and top not in app.stack


def test_pages_open_when_the_app_stopped_are_shown_again_on_resume_U11(tmp_path):
    """The app stops while the round summary (U-11) is on screen: a fresh app on the
    same journal resumes with the same pages over the game screen, in the same
    order; leaving and resuming within one app does not show them twice."""
    app = make_app(tmp_path)
    press(app, "ok,ok,up,ok,ok,ok")  # Undercut, 5 players, full table, virtual bag
    while not (isinstance(app.top, UndercutScreen) and state(app).phase == "bidding"):
        press(app, "ok")
    for _ in range(4):
        press(app, "ok,ok")  # zero bids on A to D (U-9)
    press(app, "up,ok,ok")  # P5 passes (UP wraps from A to Pass), small (U-11)
    shown = [(s.title, s.lines) for s in reversed(app.stack) if isinstance(s, Report)]
    assert shown[0][0] == "Round 1 over"
    after = state(app)

    again = make_app(tmp_path)  # the app stopped with the pages open: a fresh one resumes
    assert again.top.items[0].label == "Resume"
    press(again, "ok")
    assert [(s.title, s.lines) for s in reversed(again.stack) if isinstance(s, Report)] == shown
    assert state(again) == after
    while isinstance(again.top, Report):
        press(again, "back")
    assert isinstance(again.top, UndercutScreen)
    press(again, "back")  # the session menu: Leave (kept), then Resume in the same app
    press(again, ",".join(["down"] * [it.label for it in again.top.items].index("Leave (kept)") + ["ok"]))
    press(again, "ok")
    assert isinstance(again.top, UndercutScreen)  # seen here already: not shown twice


def test_who_passed_starts_on_the_first_seat_every_round_U11(tmp_path):
    """From the second round the cursor sat on the last passer (the new
    start player), so DOWN counted from a different seat each round and a pass
    went silently to the wrong player. The list is in seat order; the cursor
    starts on its first seat every round."""
    from companion.ui.common import Report as Page
    app = make_app(tmp_path)
    press(app, SHEET_3)
    press(app, "ok,ok,ok")  # the first scoring phase: everyone done
    screen = game_screen(app)
    assert state(app).phase == "auction" and screen.index == 0
    press(app, "down,down,ok")  # P3 passed: +1, P3 starts the next round (U-11)
    while isinstance(app.top, (Page, Report, Message)):
        press(app, "ok")
    assert state(app).scores() == (0, 0, 1) and state(app).start == 2
    press(app, "ok,ok,ok")  # the scoring phase: everyone done
    assert state(app).phase == "auction"
    assert game_screen(app).index == 0  # P1, not P3 the last passer
    assert game_screen(app).rows()[0].label.startswith("P1")
    press(app, "down,ok")  # one DOWN: P2, as in the first round
    assert state(app).scores() == (0, 1, 1)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_bag_option_is_offered_at_the_full_table_only_U14_U15(tmp_path, language):
    """At the score-sheet level the device never draws nor checks a
    piece (U-14), so the virtual/physical bag (U-15) changes nothing there: the
    row is hidden, and comes back with the full table."""
    from companion.i18n import _, set_language
    app = make_app(tmp_path)
    set_language(language)
    try:
        press(app, "ok,ok,down,ok,ok")  # New game, Undercut, 3 players, names: the options
        labels = [it.label for it in app.top.items]
        assert labels == [_("Start game"), _("Level"), _("Bag"), _("Starts")]
        press(app, "down,ok")  # Level: score sheet
        assert [it.label for it in app.top.items] == [_("Start game"), _("Level"), _("Starts")]
        press(app, "down,right")  # the row under Level is now Starts: RIGHT picks P2
        assert app.top.items[2].right == "P2"
        press(app, "up,ok")  # Level: full table again, the bag is back
        assert [it.label for it in app.top.items][2] == _("Bag")
        press(app, "ok,up,ok")  # score sheet again; Start game
        st = state(app)
        assert st.level == "score" and st.start == 1
        assert "bag" not in game_screen(app).session.setup
    finally:
        set_language("en")


def test_hold_back_on_a_round_summary_asks_the_undo_question(tmp_path):
    """Hold BACK was ignored on the pages a move showed (the round
    summary after a pass, U-11): they close and the game's undo question opens."""
    from companion.config import Settings
    app = make_app(tmp_path, settings=Settings(players=["Ann", "Bob", "Cy"]))
    press(app, "ok,ok,up,ok,ok,ok")  # 3 players, full table, virtual bag
    for _ in range(200):
        if isinstance(app.top, Report) and any(isinstance(s, UndercutScreen) for s in app.stack):
            break
        press(app, "ok")
    assert isinstance(app.top, Report)
    under = [s for s in app.stack if isinstance(s, UndercutScreen)][-1]
    press(app, "hold-back")
    assert isinstance(app.top, Confirm) and app.top.question.startswith("Undo: ")
    assert app.stack[app.stack.index(under) + 1] is app.top  # the pages closed, the box over the game


def test_right_hand_text_keeps_clear_of_the_scroll_mark(tmp_path):
    """Once "Alexandra" in the auction list and "0/1" in the bid picker ran up to
    the column beside the scroll mark. A list with a mark keeps a free cell before it."""
    from companion.config import Settings
    from companion.ui.draw import CLIPS
    app = make_app(tmp_path, settings=Settings(players=["Alexandra", "Bo", "Cy", "Di", "Ed"]))
    press(app, "ok,ok,up,ok,ok,ok")  # Undercut, 5 players, full table, virtual bag
    while not (isinstance(app.top, UndercutScreen) and state(app).phase == "bidding"):
        press(app, "ok")
    CLIPS.reset()
    img = press(app, "ok,ok,down")  # Alexandra bids zero on A: her name is on the right of row A
    assert any(it.right.startswith("Alexa") for it in game_screen(app).rows())  # whole or "Alexa~"
    for _ in range(8):
        img = press(app, "down")  # the rows under the name: no text in the last cell before the mark
        assert not any(img.getpixel((x, y)) for x in range(121, 127) for y in range(31, 64)), "text by the mark"
    press(app, "up,up,up,up,up,up,up,up,up,ok")  # a bid picker (a hand of several kinds)
    picker = app.top
    assert isinstance(picker, BidPicker)
    if 1 + len(picker.have) > 4:  # a scroll mark beside the rows under "No bid yet."
        for _ in range(6):
            img = press(app, "down")
            assert not any(img.getpixel((x, y)) for x in range(121, 127) for y in range(21, 64))
    assert CLIPS.count == 0, CLIPS.examples


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_5_player_round_summary_shows_its_end_on_the_first_ok_and_closes_on_the_next(
        tmp_path, language):
    """With five long names the round summary (U-11) took three pages: the
    first OK turned one page, the end needed two and closing three. The README says
    the first OK shows the end: every summary, and every "Stacks from the tray" (U-7),
    holds two screens at most, so OK shows its end and the next OK closes it."""
    from companion import i18n
    from companion.config import Settings
    names = ["Alexandrinas", "Bartholomews", "Christophers", "Maximilianus", "Evangelinexx"]
    app = make_app(tmp_path, settings=Settings(players=names, language=language))
    try:
        press(app, "ok,ok,up,ok,ok,ok")  # Undercut, 5 players, full table, virtual bag
        titles = (i18n._("Round {n} over").format(n=1), i18n._("Round {n} over").format(n=2),
                  i18n._("Stacks from the tray"))
        checked = 0
        for _ in range(300):
            top = app.top
            if isinstance(top, Report) and top.title in titles:
                assert top.offset == 0 and len(top.lines) <= 2 * top.shown, top.lines
                if len(top.lines) > top.shown:
                    press(app, "ok")
                    assert app.top is top and top.lines[-1] in top.lines[top.offset:top.offset + top.shown]
                press(app, "ok")
                assert top not in app.stack
                checked += 1
                if state(app).round > 2:
                    break
                continue
            ok_or_pass(app)
        assert checked >= 4
    finally:
        i18n.set_language("en")


def test_stacks_from_the_tray_with_long_colour_words_fit_two_screens_U7():
    """"B: yellow/yellow/yellow" is longer than a line: each piece got a line of its own,
    twelve lines for four stacks, three screens. The row goes on under itself instead."""
    from companion.pieces import Piece
    from companion.ui.undercut import stack_lines
    st = [[Piece.parse(c) for c in row.split()] for row in ("yL yM yS", "gL bM rS", "yL yM gS", "kL kM kS")]
    lines = stack_lines(st)
    assert lines == ["large/medium/small", "A: yellow/yellow/", "   yellow", "B: green/blue/red",
                     "C: yellow/yellow/", "   green", "D: black/black/black"]
    assert all(len(t) <= 20 for t in lines)


# ---------------------------------------------------------------- hold BACK: undo from the bid picker and the pass size


def test_hold_back_undoes_from_the_undercut_bid_picker_and_the_pass_size(tmp_path):
    from companion.ui.undercut import BidPicker, UndercutScreen
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


def game_screen_of(app, kind):
    return next(s for s in reversed(app.stack) if isinstance(s, kind))
