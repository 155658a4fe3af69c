"""Bag of Ice screens, driven with keys as the headless simulator does.

Each test checks the engine state the keys produced, not only the pictures.
The physical die and bag let the tests enter every face and piece, so the
reference PNGs do not depend on the random generator. Regenerate them after a
deliberate change of the drawing:

    COMPANION_UPDATE_REFERENCE=1 ./run test tests/test_ui_bag_of_ice.py
"""
from __future__ import annotations

import random

import pytest
from PIL import Image

from companion import records
from companion.cli import main
from companion.config import Settings
from companion.games.bag_of_ice import Got
from companion.games.boi_odds import advice_for
from companion.journal import Journal
from companion.pieces import DieFace, Piece, Size
from companion.ui.bag_of_ice import BagOfIceScreen, BustScreen, OddsScreen, ScoreScreen, apart, avg, pct
from companion.ui.common import Report
from companion.ui.widgets import Confirm, Item, Menu, Message

from .screens_util import assert_matches_reference, make_app, press

NAMES = Settings(players=("Ann", "Bob", "Cat"))

# From a fresh main menu: New game, Bag of Ice, 3 players, names as they are,
# then the options (rows: Start game, Target, Die & bag, Start).
VIRTUAL = "ok,down,ok,ok,ok,ok"                                   # defaults: 60, virtual, roll-off
PHYSICAL_ANN = "ok,down,ok,ok,ok,down,down,ok,down,ok,ok,up,up,up,ok"  # physical, Ann starts
PHYSICAL_ROLLOFF = "ok,down,ok,ok,ok,down,down,ok,up,up,ok"        # physical, roll-off
# Target 30 (LEFT three times from 60), physical, Ann starts.
PHYSICAL_30 = "ok,down,ok,ok,ok,down,left,left,left,down,ok,down,ok,ok,up,up,up,ok"

FACES = list(DieFace)  # the face menu's order: S M L S/M S/L M/L


def game_screen(app) -> BagOfIceScreen:
    return next(s for s in reversed(app.stack) if isinstance(s, BagOfIceScreen))


def state(app):
    return game_screen(app).session.state


def dismiss(app) -> None:
    """Close the result pages over the game screen: OK shows the rest of a long
    one, then closes it."""
    for _ in range(20):
        if not isinstance(app.top, Report):
            return
        press(app, "ok")
    raise AssertionError("a report did not close")


def moves(app) -> list[str]:
    return [p.text for p in game_screen(app).session.fold.moves]


def keys_count(*parts: str) -> int:
    return sum(len([k for k in p.split(",") if k]) for p in parts)


def down_ok(i: int) -> str:
    return ",".join(["down"] * i + ["ok"])


def draw(app, face: str, piece: str) -> str:
    """Physical: roll, enter the face (and the size on a two-size face), then
    the piece, by the menus; returns the keys pressed."""
    f, p = DieFace.parse(face), Piece.parse(piece)
    keys = ["ok", down_ok(FACES.index(f))]
    press(app, ",".join(keys))
    if len(f.sizes) == 2:
        keys.append(down_ok(f.sizes.index(p.size)))
        press(app, keys[-1])
    labels = [r.label for r in game_screen(app).rows()]
    keys.append(down_ok(next(i for i, lab in enumerate(labels) if lab.endswith(" " + piece))))
    press(app, keys[-1])
    return ",".join(keys)


# The rules' own scoring example, drawn by Ann: 20 + 10 + 1 + 1 = 32 (B-5).
EXAMPLE = [("L", "yL"), ("M", "yM"), ("S", "yS"), ("L", "gL"), ("S/M", "cM"), ("S", "pS"), ("S/L", "yS"),
           ("S", "cS")]


# ---------------------------------------------------------------- setup (B-3, B-6)


def test_default_setup_rolls_off_and_shows_each_roll_B3(tmp_path):
    app = make_app(tmp_path, settings=NAMES)
    press(app, VIRTUAL)
    st = state(app)
    assert game_screen(app).session.setup == {"players": ["Ann", "Bob", "Cat"], "target": 60,
                                               "start": "rolloff", "die": "virtual", "bag": "virtual"}
    assert st.phase == "decide" and st.target == 60 and st.start == st.active and st.rolloff
    assert isinstance(app.top, Report) and app.top.title == "Roll-off"
    lines = app.top.lines
    best = max(f.pips for s, f in st.rolloff[-1] if s == st.start)
    assert lines[0] == f"{st.players[st.start]} starts: {best} pips"
    rolls = [ln for ln in lines[1:] if not ln.startswith("tie")]
    assert len(rolls) == sum(len(r) for r in st.rolloff)  # every roll is shown
    for line, (seat, face) in zip(rolls, [x for r in st.rolloff for x in r]):
        assert line.split() == [st.players[seat], str(face.pips), "pip" if face.pips == 1 else "pips"]
    for k in range(1, len(st.rolloff)):  # B-3: only the tied highest roll again
        prev = st.rolloff[k - 1]
        top = max(f.pips for _, f in prev)
        assert [s for s, _ in st.rolloff[k]] == [s for s, f in prev if f.pips == top]
    summary = app.top
    if len(lines) > summary.shown:  # a roll-off longer than a page: OK shows its end first
        press(app, "ok")
        assert app.top is summary and lines[-1] in lines[summary.offset:summary.offset + summary.shown]
    press(app, "ok")
    assert isinstance(app.top, BagOfIceScreen)


def test_physical_rolloff_enters_each_roll_and_the_tied_roll_again_B3(tmp_path):
    app = make_app(tmp_path, settings=NAMES)
    press(app, PHYSICAL_ROLLOFF)
    st = state(app)
    assert st.phase == "rolloff" and st.roller == 0
    rows = game_screen(app).rows()  # each face in words, its pip total on the right (B-2, B-3)
    assert [r.label for r in rows] == ["small", "medium", "large", "small or medium", "small or large",
                                       "medium or large"]
    assert [r.right for r in rows] == ["1", "2", "3", "3", "4", "5"]
    press(app, down_ok(3) + "," + down_ok(5) + "," + down_ok(5))  # Ann S/M 3, Bob M/L 5, Cat M/L 5
    st = state(app)
    assert st.phase == "rolloff" and st.contenders == (1, 2) and st.roller == 1  # the tied roll again
    press(app, down_ok(2) + "," + down_ok(0))  # Bob L 3, Cat S 1
    st = state(app)
    assert st.phase == "decide" and st.start == 1 and st.active == 1
    assert isinstance(app.top, Report) and app.top.lines[0] == "Bob starts: 3 pips"
    assert "tie: round 2" in app.top.lines and len(app.top.lines) == 1 + 3 + 1 + 2


def test_random_start_is_shown_and_the_table_may_name_one_after_an_undo_B3(tmp_path):
    app = make_app(tmp_path, settings=NAMES)
    press(app, "ok,down,ok,ok,ok,down,down,down,ok,up,up,up,ok")  # Start: random (virtual)
    st = state(app)
    assert st.start is not None and not st.rolloff
    assert isinstance(app.top, Report) and " ".join(app.top.lines) == (
        f"{st.players[st.start]} starts (drawn at random).")
    (tmp_path / "p").mkdir()
    app = make_app(tmp_path / "p", settings=NAMES)
    press(app, "ok,down,ok,ok,ok,down,down,ok,down,ok,up,up,up,ok")  # physical, random: the device picks
    assert moves(app) == [f"start {state(app).start + 1}"] and isinstance(app.top, Report)
    press(app, "hold-back,ok")  # undo: the table names the start player instead
    assert state(app).phase == "start"
    assert [r.label for r in game_screen(app).rows()] == ["Ann", "Bob", "Cat", "Device picks"]
    press(app, "down,ok")
    assert state(app).start == 1 and state(app).phase == "decide"


def test_options_target_source_start_and_solo_practice_B3_B6(tmp_path):
    app = make_app(tmp_path, settings=NAMES)
    press(app, "ok,down,ok,down,down,down,ok,ok")  # 3 -> 2 -> 1 (1 is the least), names, options
    assert [it.label for it in app.top.items] == ["Start game", "Target", "Die & bag"]  # no start for one
    press(app, "down,right,right,up,ok")  # target 80 (RIGHT +10 twice), Start game
    st = state(app)
    assert st.players == ("Ann",) and st.target == 80 and st.active == 0
    press(app, "ok,ok,ok")
    assert state(app).active == 0  # solo: every turn is Ann's
    (tmp_path / "b").mkdir()
    app2 = make_app(tmp_path / "b", settings=NAMES)
    press(app2, "ok,down,ok," + ",".join(["up"] * 12) + ",ok,ok")
    st_opts = app2.top
    assert [it.right for it in st_opts.items][1:] == ["60", "virtual", "roll-off"]
    press(app2, "down,down,down,ok,ok,ok,ok,up,up,up,ok")  # Start: roll-off, random, P1... -> the 3rd name
    st = state(app2)
    assert st.n == 12 and st.start == 2 and st.players[:3] == ("Ann", "Bob", "Cat")


# ---------------------------------------------------------------- the turn (B-4, B-5, B-9)


def test_one_ok_rolls_and_draws_B4(tmp_path):
    """OK on the turn screen is the whole roll and draw: one press, three events
    (two-size face: the size question, then one more press)."""
    app = make_app(tmp_path, seed=3, settings=NAMES)
    press(app, VIRTUAL + ",ok")
    seen_one = seen_two = 0
    for _ in range(60):
        if not isinstance(app.top, BagOfIceScreen):
            press(app, "ok")  # a bust or bank summary
            continue
        st = state(app)
        if st.phase == "decide" and len(st.drawn) >= 3:
            press(app, "down,ok")
            continue
        assert st.phase == "decide" and game_screen(app).index == 0  # the cursor is on Roll & draw
        n0 = len(moves(app))
        press(app, "ok")
        new = moves(app)[n0:]
        assert new[0] == "roll" and new[1].startswith("face ")
        face = DieFace.parse(new[1].split()[1])
        if len(face.sizes) == 1:
            assert len(new) == 3 and new[2].startswith("got ") and Piece.parse(new[2][4:]).size == face.sizes[0]
            seen_one += 1
            continue
        st = state(app)
        assert len(new) == 2 and st.phase == "size" and st.face == face
        rows = game_screen(app).rows()
        adv = advice_for(st)
        for r, s in zip(rows, face.sizes):  # each size with its bust chance and its average (B-9)
            o = adv.per_size[s]
            assert [r.label] + r.right.split() == [
                {Size.SMALL: "small", Size.MEDIUM: "medium", Size.LARGE: "large"}[s],
                apart(st.bust_chance(s), [st.bust_chance(z) for z in face.sizes]), avg(o.expected)]
        press(app, "ok")  # the cursor on the hint's size, not against the advice
        assert moves(app)[n0 + 2:n0 + 4][0] == f"size {adv.size_choice[face].letter}"
        seen_two += 1
    assert seen_one and seen_two


def play_example(app) -> list[str]:
    keys = []
    for face, piece in EXAMPLE:
        keys.append(draw(app, face, piece))
    return keys


def test_bank_in_two_presses_shows_the_arrangement_B5_B7(tmp_path):
    app = make_app(tmp_path, settings=NAMES)
    press(app, PHYSICAL_ANN)
    play_example(app)
    st = state(app)
    assert [str(p) for p in st.drawn] == ["yL", "yM", "yS", "gL", "cM", "pS", "yS", "cS"]
    assert st.turn_score() == 32 and game_screen(app).index == 0
    bank = "down,ok"
    assert keys_count(bank) == 2
    press(app, bank)
    assert isinstance(app.top, Report) and app.top.title == "Ann banks 32" and app.top.right == ""
    # the rules' example: "swapping the purple small for the yellow or cyan small
    # does not change the points"; the device scored this one of them
    assert app.top.lines == ["yellow tree      +20",
                             "tree gL cM cS    +10",
                             "loose pS yS       +2",
                             "total 0 + 32 = 32"]
    assert_matches_reference(app.frame(), "boi_bank")
    st = state(app)
    assert st.totals == (32, 0, 0) and st.active == 1 and len(st.bag) == 21 and not st.drawn  # B-7
    press(app, "ok")
    assert isinstance(app.top, BagOfIceScreen)


def test_turn_screen_shows_total_score_pieces_odds_and_hint_B9(tmp_path):
    app = make_app(tmp_path, settings=NAMES)
    press(app, PHYSICAL_ANN)
    for face, piece in EXAMPLE[:5]:
        draw(app, face, piece)
    st = state(app)
    adv = advice_for(st)
    assert st.turn_score() == 25 == adv.bank_score
    rows = game_screen(app).rows()
    assert [r.label for r in rows] == ["Roll & draw", "Bank +25 = 25", "Rule broken: bust"]
    assert rows[0].right == f"avg {avg(adv.expected_continue)}"
    img = app.frame()
    assert_matches_reference(img, "boi_turn")
    press(app, "hold-ok")  # the odds in full while OK is held
    assert isinstance(app.top, OddsScreen)
    b = adv.bust_chance
    assert app.top.lines[:2] == [f"bust chance {pct(b)}", f"exactly {b.numerator}/{b.denominator}"]
    assert app.top.lines[2:5] == ["small: 1 red of 8", "medium: 1 red of 5", "large: 1 red of 3"]
    assert app.top.lines[6:8] == [f"bank: {adv.bank_score}", f"hint: {adv.hint}"]
    press(app, "release")
    assert isinstance(app.top, BagOfIceScreen)

    # Hints off (Settings > BoI hints): the same screen without the hint, the odds kept.
    app.save_settings(Settings(players=NAMES.players, boi_hints=False))
    press(app, "hold-ok")
    assert app.top.lines[6] == f"bank: {adv.bank_score}" and not any("hint" in ln for ln in app.top.lines)
    press(app, "release")
    off = app.frame()
    band = (0, 31, 128, 41)  # the odds line
    assert off.crop(band).tobytes() != img.crop(band).tobytes()
    assert off.crop((0, 0, 128, 31)).tobytes() == img.crop((0, 0, 128, 31)).tobytes()
    assert off.crop((0, 41, 128, 64)).tobytes() == img.crop((0, 41, 128, 64)).tobytes()


def test_two_size_face_asks_the_size_with_each_bust_chance_B4_B9(tmp_path):
    app = make_app(tmp_path, settings=NAMES)
    press(app, PHYSICAL_ANN)
    draw(app, "L", "yL")
    press(app, "down,ok,ok")  # Ann banks 3; dismiss the summary
    press(app, "ok," + down_ok(4))  # Bob rolls S/L
    st = state(app)
    assert st.phase == "size" and st.face == DieFace.SL and st.active == 1
    rows = game_screen(app).rows()
    assert [r.label for r in rows] == ["small", "large", "Rule broken: bust"]
    assert [r.right.split()[0] for r in rows[:2]] == ["11%", "20%"]
    assert_matches_reference(app.frame(), "boi_size")
    press(app, "down,ok")  # large
    st = state(app)
    assert st.phase == "draw" and st.size == Size.LARGE
    labels = [r.label for r in game_screen(app).rows()]  # B-8: only larges, the bust color last
    assert labels == ["yellow yL", "green gL", "cyan cL", "purple pL", "red rL", "Rule broken: bust"]
    assert game_screen(app).rows()[4].right == "BUST"
    # each piece says how many the bag holds, the last one too ("1 left" was blank)
    bag = state(app).bag
    assert [r.right for r in game_screen(app).rows()[:4]] == [
        f"{n} left" for n in (bag.count(Piece.parse(t)) for t in ("yL", "gL", "cL", "pL"))]
    assert bag.count(Piece.parse("yL")) == 1


def test_red_piece_busts_with_a_clear_screen_B4(tmp_path):
    app = make_app(tmp_path, settings=NAMES)
    press(app, PHYSICAL_ANN)
    draw(app, "M", "gM")
    draw(app, "S/L", "rL")
    assert isinstance(app.top, BustScreen)
    assert_matches_reference(app.frame(), "boi_bust")
    st = state(app)
    assert st.totals == (0, 0, 0) and st.active == 1 and st.history[-1].bust_on == "rL"
    assert [str(p) for p in st.history[-1].pieces] == ["gM", "rL"]
    press(app, "ok")
    assert isinstance(app.top, BagOfIceScreen) and state(app).phase == "decide"


def test_hold_back_on_the_bust_screen_undoes_each_entry(tmp_path):
    """Physical: every entry is its own event; hold BACK steps back over them
    one by one, from the bust screen too."""
    app = make_app(tmp_path, settings=NAMES)
    press(app, PHYSICAL_ANN)
    draw(app, "M", "gM")
    draw(app, "S/L", "rL")
    assert isinstance(app.top, BustScreen)
    undo = "hold-back,ok"
    phases = []
    for _ in range(4):
        press(app, undo)
        st = state(app)
        phases.append((st.phase, st.active, [str(p) for p in st.drawn]))
    assert phases == [("draw", 0, ["gM"]), ("size", 0, ["gM"]), ("roll", 0, ["gM"]), ("decide", 0, ["gM"])]
    assert isinstance(app.top, BagOfIceScreen)
    undone = [h.text for h in game_screen(app).session.history() if h.undone]
    assert undone == ["roll", "face S/L", "size L", "got rL"]  # they stay in the history


def test_rule_broken_busts_in_physical_mode_only_B8(tmp_path):
    app = make_app(tmp_path, settings=NAMES)
    press(app, PHYSICAL_ANN)
    draw(app, "S", "yS")
    press(app, "back")
    labels = [it.label for it in app.top.items]
    assert labels[:3] == ["Scores", "Odds", "Rule broken: bust"]
    press(app, "back,ok," + down_ok(0))  # roll, face S: the piece menu also offers it, last
    assert game_screen(app).rows()[-1].label == "Rule broken: bust"
    press(app, "up,ok")
    assert isinstance(app.top, Confirm)
    before = state(app)
    press(app, "ok")  # "No" is preselected: nothing happens
    assert state(app) == before
    press(app, "ok,down,ok")  # the cursor is still on it: Yes
    assert isinstance(app.top, BustScreen)
    st = state(app)
    assert st.history[-1].bust_on == "broken" and st.active == 1 and st.totals == (0, 0, 0)

    (tmp_path / "v").mkdir()
    virt = make_app(tmp_path / "v", settings=NAMES)
    press(virt, VIRTUAL)
    dismiss(virt)  # the roll-off summary (one OK a page)
    press(virt, "back")
    assert "Rule broken: bust" not in [it.label for it in virt.top.items]
    assert all("Rule broken" not in r.label for r in game_screen(virt).rows())


def test_a_refused_entry_shows_its_reason_and_changes_nothing_B8(tmp_path, monkeypatch):
    """The menus offer only legal entries; should a wrong one reach the
    engine anyway (a wrong size for the face), the reason is on screen and
    nothing changes."""
    app = make_app(tmp_path, settings=NAMES)
    press(app, PHYSICAL_ANN + ",ok," + down_ok(0))  # face S: a small is asked
    screen = game_screen(app)
    before, n0 = state(app), len(moves(app))
    monkeypatch.setattr(screen, "rows", lambda: [Item("yM", lambda a: screen.do(a, Got(Piece.parse("yM"))))])
    press(app, "ok")
    assert isinstance(app.top, Message) and app.top.title == "Not allowed"
    assert app.top.text == "yM is a medium, but the face S asks for a small"  # the ruling id stays off the screen
    assert app.last_error.endswith("(B-8)")  # and in the log, the console and this test
    assert state(app) == before and len(moves(app)) == n0


# ---------------------------------------------------------------- scores, undo, resume


def test_scoreboard_and_turn_history(tmp_path):
    app = make_app(tmp_path, settings=NAMES)
    press(app, PHYSICAL_ANN)
    draw(app, "L", "gL")
    draw(app, "M", "gM")
    press(app, "down,ok,ok")           # Ann banks 5
    draw(app, "M", "pM")
    draw(app, "S", "rS")               # Bob busts, 2 lost
    press(app, "ok,down,ok,ok")        # dismiss; Cat banks 0
    press(app, "right")
    assert isinstance(app.top, ScoreScreen) and app.top.index == 0  # Ann's turn again
    press(app, "ok")
    assert app.top.lines == ["1 bank, 0 busts", "turn 1: +5 gL gM", "now: 0"]
    press(app, "ok,down,ok")
    assert app.top.title == "Bob: 0" and app.top.lines == ["0 banks, 1 bust", "turn 1: bust, lost 2"]
    press(app, "ok,down,ok")
    assert app.top.lines == ["1 bank, 0 busts", "turn 1: nothing drawn"]
    press(app, "ok,left")
    assert isinstance(app.top, BagOfIceScreen)


def test_undo_reaches_every_roll_and_draw(tmp_path):
    app = make_app(tmp_path, seed=3, settings=NAMES)
    press(app, VIRTUAL + ",ok")
    undo = "hold-back,ok"  # ask, Yes, dismiss "Undone"
    found_two = False
    for _ in range(40):
        while not isinstance(app.top, BagOfIceScreen):
            press(app, "ok")
        before = state(app)
        press(app, "ok")
        after = state(app)
        if after.phase == "size":  # two-size face: the size and draw, then the roll, come back one by one
            press(app, "ok")
            press(app, undo)
            assert state(app) == after
            press(app, undo)
            assert state(app) == before
            found_two = True
            break
        press(app, undo)  # roll, face and draw (or bust) undone together
        assert state(app) == before
        press(app, "ok")  # play it again (a new draw) and go on
    assert found_two
    history = game_screen(app).session.history()
    assert any(h.undone and h.text.startswith("got ") for h in history)  # undone draws stay visible


def test_resume_lands_on_the_same_screen(tmp_path):
    app = make_app(tmp_path, settings=NAMES)
    press(app, PHYSICAL_ANN)
    draw(app, "L", "yL")
    press(app, "ok," + down_ok(3))  # the size question of S/M
    frame = app.frame()
    app.home()
    assert app.top.items[0].label == "Resume"
    press(app, "ok")
    assert isinstance(app.top, BagOfIceScreen) and state(app).phase == "size"
    assert app.frame().tobytes() == frame.tobytes()


# ---------------------------------------------------------------- whole games (B-6)


STORY = [
    # Ann: yellow tree, banks 20
    "ok,down,down,ok,ok", "ok,down,ok,ok", "ok,ok,ok", "down,ok", "ok",
    # Bob: S/L, large, red: bust
    "ok,down,down,down,down,ok", "down,ok", "down,down,down,down,ok", "ok",
    # Cat: M, gM, banks 2
    "ok,down,ok,down,ok", "down,ok", "ok",
    # Ann: green tree 15: 35 >= 30 wins at once (B-6)
    "ok,down,down,ok,down,ok", "ok,down,ok,down,ok", "ok,ok,down,ok", "down,ok", "ok",
]


def test_headless_sim_plays_a_game_from_the_main_menu_to_the_winner_B6(tmp_path):
    cfg = tmp_path / "companion.toml"
    cfg.write_text('players = ["Ann", "Bob", "Cat"]\n')
    keys = ",".join([PHYSICAL_30] + STORY)
    shot = tmp_path / "win.png"
    jpath = tmp_path / "j.db"
    assert main(["sim", "--journal", str(jpath), "--config", str(cfg), "--seed", "5", "--keys", keys,
                 "--screenshot", str(shot)]) == 0
    j = Journal(str(jpath))
    (info,) = j.sessions()
    assert info.setup == {"players": ["Ann", "Bob", "Cat"], "target": 30, "start": 0,
                          "die": "physical", "bag": "physical"}
    got = [e.data["move"] for e in j.events(info.id)]
    assert got == ["roll", "face L", "got yL", "roll", "face M", "got yM", "roll", "face S", "got yS", "bank",
                   "roll", "face S/L", "size L", "got rL",
                   "roll", "face M", "got gM", "bank",
                   "roll", "face L", "got gL", "roll", "face M", "got gM", "roll", "face S", "got gS", "bank"]
    text = records.dumps(info.game, info.setup, j.events(info.id))
    result = records.replay(records.parse_lines(text.splitlines())).to_json()
    assert result["terminal"] and result["scores"] == [35, 0, 2]
    assert result["outcome"]["winners"] == [0] and result["outcome"]["detail"] == "Ann reached the target 30 (B-6)"
    assert_matches_reference(Image.open(shot).convert("1"), "boi_winner")


def test_a_virtual_game_to_the_winner_with_the_press_targets(tmp_path):
    """A whole virtual game following the hint: every roll and draw is one OK
    (a two-size face: one more press for the size), every bank two presses."""
    app = make_app(tmp_path, seed=4, settings=NAMES)
    press(app, VIRTUAL)
    decisions = 0
    while True:
        while not isinstance(app.top, BagOfIceScreen):
            press(app, "ok")
        st = state(app)
        if st.phase == "over":
            break
        decisions += 1
        n0 = len(moves(app))
        if st.phase == "size":
            keys = "ok" if advice_for(st).size_choice[st.face] == st.face.sizes[0] else "down,ok"
            press(app, keys)
            assert moves(app)[n0].startswith("size ") and moves(app)[n0 + 1].startswith("got ")
        elif advice_for(st).hint == "draw":
            press(app, "ok")
            assert moves(app)[n0] == "roll"
        else:
            press(app, "down,ok")
            assert moves(app)[n0:] == ["bank"]
        assert decisions < 2000
    st = state(app)
    assert st.totals[st.winner] >= 60 and max(st.totals) == st.totals[st.winner]
    assert isinstance(app.top, BagOfIceScreen) and not game_screen(app).rows()  # the winner screen
    press(app, "ok")
    assert isinstance(app.top, ScoreScreen) and app.top.index == st.winner
    again = app.resume_session(game_screen(app).session.id)
    assert again.state == st and again.finished


@pytest.mark.parametrize("setup_keys", [VIRTUAL, PHYSICAL_ROLLOFF])
def test_random_keys_never_crash_and_keep_21_pieces(tmp_path, setup_keys):
    """Any key anywhere: the app stays up, and the bag and the drawn pieces
    always account for the 21 pieces (B-1)."""
    rnd = random.Random(len(setup_keys))
    app = make_app(tmp_path, seed=9, settings=NAMES)
    press(app, setup_keys)
    sid = game_screen(app).session.id
    keys = ["ok"] * 8 + ["up", "down", "down", "back", "right", "left", "hold-back", "hold-ok", "release"]
    for _ in range(500):
        press(app, rnd.choice(keys))
        if not any(isinstance(s, BagOfIceScreen) for s in app.stack):
            app.home()
            if app.top.items[0].label != "Resume":
                break
            press(app, "ok")
            continue
        st = state(app)
        assert len(st.bag) + len(st.drawn) == 21
        if isinstance(app.top, Menu) and app.top.title.startswith("Bag of Ice #"):
            press(app, "back")  # the session menu: do not end the session for good
    assert len(app.resume_session(sid).fold.moves) > 20  # the keys really played


def test_the_guide_shows_the_bag_of_ice_screens():
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    guide = root / "docs" / "guide" / "bag_of_ice.md"
    images = [ln.split("](", 1)[1].split(")", 1)[0] for ln in guide.read_text().split("![")[1:]]
    script = (root / "docs" / "screenshots_bag_of_ice.sh").read_text()
    assert len(images) >= 5
    for img in images:
        assert (guide.parent / img).is_file(), img
        stem = Path(img).stem
        made = f"shot {stem} " in script or f"shot2 {stem.removesuffix('_fr')} " in script  # shot2: en and _fr
        assert made, img  # made by the screenshot script


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_names_screen_is_titled_as_in_the_other_games(tmp_path, language):
    """New game, a game, the number of players: the names screen says "<game>: names"
    with the same "Next >" row in Bag of Ice as in Undercut and Bottoms Up."""
    from companion import i18n
    from companion.games import GAMES
    from companion.ui.common import PlayersSetup
    from companion.words.titles import title_of
    try:
        seen = {}
        for i, game in enumerate(GAMES):
            (tmp_path / game).mkdir()
            app = make_app(tmp_path / game, settings=Settings(language=language))
            press(app, ",".join(["ok"] + ["down"] * i + ["ok", "ok"]))  # New game, the game, players
            assert isinstance(app.top, PlayersSetup)
            assert app.top.title == i18n._("{game}: names").format(game=title_of(game))
            seen[game] = app.top.items[0].label
        assert set(seen.values()) == {i18n._("Next >")}, seen
        assert "bag_of_ice" in seen
    finally:
        i18n.set_language("en")


def test_the_french_hint_line_says_which_advice_it_gives_B9_B10(tmp_path):
    """Two players (B-10 applies): the turn screen says the advice plays to win;
    with the advice setting on the turn score (B-9) it is the bust chance and the
    hint. The two are told apart in French too (the English "bust 15.9%  win: draw"
    does not fit 21 French characters): the hint line keeps the bust chance (issue
    34), and the Roll row says "gagne 54%" where the other says "moy. 3"."""
    from companion import i18n
    from companion.ui import draw
    lines, rows = {}, {}
    try:
        for advice in ("win", "score"):
            (tmp_path / advice).mkdir()
            app = make_app(tmp_path / advice, settings=Settings(language="fr", boi_advice=advice))
            press(app, "ok,down,ok,down,ok,ok,ok")  # Bag of Ice, 2 players, the default options
            press(app, "ok")
            while not (isinstance(app.top, BagOfIceScreen) and state(app).phase == "decide"):
                press(app, "ok")  # the roll-off summary, then roll & draw (and a size)
            draw.DRAWN = []
            app.frame()
            hints = (i18n._("draw"), i18n._("bank"))
            (line,) = [t for t in draw.DRAWN if t.endswith(hints)]
            assert len(line) <= 21
            lines[advice] = line
            rows[advice] = [t for t in draw.DRAWN if t.startswith(i18n._("Roll & draw"))]
    finally:
        draw.DRAWN = None
        i18n.set_language("en")
    assert lines["win"].startswith("risque ") and lines["score"].startswith("risque "), lines
    assert "gagne " in rows["win"][0] and "gagne" not in rows["score"][0], rows


def test_a_bust_on_screen_when_the_app_stopped_is_shown_again_on_resume_B4(tmp_path):
    """The app stops on the bust screen (B-4): a fresh app on the same journal
    resumes with it over the game screen; closed, the next player's turn. After
    an undo, a resume shows the position alone (not the page of the decision
    before, Ann's bank)."""
    app = make_app(tmp_path, settings=NAMES)
    press(app, PHYSICAL_ANN)
    draw(app, "M", "gM")
    press(app, "down,ok,ok")  # Ann banks 2 (B-5); its summary closed
    assert state(app).totals[0] == 2 and state(app).active == 1
    draw(app, "S/L", "rL")  # Bob busts (B-4)
    assert isinstance(app.top, BustScreen)
    frame = app.frame().tobytes()
    again = make_app(tmp_path, settings=NAMES)
    press(again, "ok")  # Resume
    assert isinstance(again.top, BustScreen) and again.frame().tobytes() == frame
    press(again, "ok")
    assert isinstance(again.top, BagOfIceScreen) and state(again).active == 2
    for _ in range(6):  # undo the bust step by step (physical: piece, face, roll): Bob's turn again
        press(again, "hold-back,ok")
        if state(again).active == 1 and not state(again).drawn and state(again).phase == "decide":
            break
    assert isinstance(again.top, BagOfIceScreen) and state(again).active == 1 and state(again).phase == "decide"
    assert again.stack[-1] is game_screen(again)  # nothing over it
    third = make_app(tmp_path, settings=NAMES)
    press(third, "ok")  # after an undo, a resume shows the position alone (no older page)
    assert isinstance(third.top, BagOfIceScreen) and state(third) == state(again)


def test_the_cursor_starts_on_bank_when_banking_wins_B6_B9(tmp_path):
    """When banking now reaches the target (B-6; B-9's hint is "bank")
    the cursor starts on Bank, so the habitual single OK banks the win; DOWN
    keeps it there (DOWN, OK banks as on any turn); below the target it starts
    on Roll & draw."""
    app = make_app(tmp_path, settings=NAMES)
    press(app, PHYSICAL_30)
    for face, piece in EXAMPLE[:5]:
        draw(app, face, piece)
    assert state(app).turn_score() == 25 and game_screen(app).index == 0  # 25 < 30: Roll & draw
    for face, piece in EXAMPLE[5:]:
        draw(app, face, piece)
        if state(app).turn_score() >= 30:
            break
    st = state(app)
    assert st.turn_score() >= 30 and advice_for(st).hint == "bank"
    screen = game_screen(app)
    assert screen.rows()[screen.index].label.startswith("Bank") and screen.index == 1
    press(app, "down")
    assert screen.index == 1
    press(app, "up")
    assert screen.index == 0  # Roll & draw is still there, one press up
    press(app, "down")
    assert screen.index == 1
    press(app, "ok")
    assert moves(app)[-1] == "bank" and state(app).winner == 0 and state(app).totals[0] == st.turn_score()


def test_one_ok_banks_a_win_in_a_virtual_game_B6(tmp_path):
    """Virtual die and bag, target 30: on the first turn whose bank reaches it, OK banks."""
    app = make_app(tmp_path, seed=2, settings=NAMES)
    press(app, "ok,down,ok,ok,ok,down,left,left,left,up,ok")  # target 30, virtual, roll-off
    for _ in range(400):
        if not isinstance(app.top, BagOfIceScreen):
            press(app, "ok")
            continue
        st = state(app)
        if st.phase == "over":
            break
        if st.phase == "decide" and st.drawn and st.totals[st.active] + st.turn_score() >= st.target:
            assert game_screen(app).index == 1
            press(app, "down,ok")  # DOWN stays on Bank
            assert moves(app)[-1] == "bank" and state(app).phase == "over"
            return
        press(app, "ok")
    raise AssertionError("no winning bank reached")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_bust_screen_shows_12_character_names_whole_B4(tmp_path, language):
    """In French "Élodie-Marie pioche rS" and "suivant : Maximilienne" were
    one letter too long and lost a letter. The whole names fit: what busted takes
    two lines under a lower band where one is too short."""
    from companion import i18n
    from companion.ui import draw as drawing
    from companion.ui.draw import CLIPS
    app = make_app(tmp_path, settings=Settings(players=("Élodie-Marie", "Maximilienne", "Zoë")))
    press(app, PHYSICAL_ANN)  # physical, the first name starts
    i18n.set_language(language)
    try:
        draw(app, "M", "gM")
        draw(app, "S/L", "rL")
        assert isinstance(app.top, BustScreen)
        CLIPS.reset()
        drawing.DRAWN = []
        app.frame()
        text = list(drawing.DRAWN)
        assert CLIPS.count == 0, CLIPS.examples
        if language == "en":
            assert "Élodie-Marie drew rL" in text and "next: Maximilienne" in text
        else:
            assert "Élodie-Marie" in text and "pioche rL" in text and "puis : Maximilienne" in text
            assert "2 points perdus" in text
    finally:
        drawing.DRAWN = None
        i18n.set_language("en")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_odds_title_keeps_a_12_character_name_whole_B9(tmp_path, language):
    """The French odds title read "Chances : Élodie-Mari". Where the
    words and the name do not fit together, the name is the title and the word
    goes to its right."""
    from companion import i18n
    from companion.ui import draw as drawing
    from companion.ui.draw import CLIPS
    app = make_app(tmp_path, settings=Settings(players=("Élodie-Marie", "Maximilienne", "Zoë")))
    press(app, PHYSICAL_ANN)
    i18n.set_language(language)
    try:
        draw(app, "M", "gM")
        press(app, "hold-ok")
        assert isinstance(app.top, OddsScreen)
        CLIPS.reset()
        drawing.DRAWN = []
        app.frame()
        if language == "en":
            assert app.top.title == "Odds: Élodie-Marie" and "Odds: Élodie-Marie" in drawing.DRAWN
        else:
            assert (app.top.title, app.top.right) == ("Élodie-Marie", "chances")
            assert "Élodie-Marie" in drawing.DRAWN and "chances" in drawing.DRAWN
        assert CLIPS.count == 0, CLIPS.examples
    finally:
        drawing.DRAWN = None
        i18n.set_language("en")


def test_the_winner_screen_names_every_other_total_or_says_how_many_more():
    """With four players the winner screen's last line dropped the third
    other total without a sign ("Ann 41  Bob 30", Dee 25 missing)."""
    from companion.games.bag_of_ice import position
    from companion.ui.bag_of_ice import COLS, others_line
    st = position({"players": ["Cat", "Ann", "Bob", "Dee"]}, totals=[60, 41, 30, 25])
    assert others_line(st, 0) == "Ann 41 Bob 30 Dee 25"  # two spaces apart do not fit: one
    st = position({"players": ["Cat", "Ann", "Bob"]}, totals=[60, 41, 30])
    assert others_line(st, 0) == "Ann 41  Bob 30"
    long = ["Alexandrinas", "Bartholomews", "Christophers", "Maximilianus"]
    st = position({"players": long}, totals=[60, 41, 30, 25])
    line = others_line(st, 0)
    assert len(line) <= COLS and all(f" {n}" in line for n in (41, 30, 25))  # every total, shorter names
    st = position({"players": [f"P{i}" for i in range(1, 13)]}, totals=[60] + list(range(11, 0, -1)))
    line = others_line(st, 0)
    assert len(line) <= COLS and line.startswith("P2 11") and "+" in line
    assert int(line.rsplit("+", 1)[1]) + sum(1 for w in line.split() if w.startswith("P")) == 11


def test_a_game_ended_by_its_last_move_comes_back_after_a_restart(tmp_path):
    """A win (B-6) with the device stopping on it left nothing to resume:
    the summary of the winning bank and the winner were not shown again, and
    that bank could no longer be undone. The main menu offers the game played
    last as "Last game" until it is left with "Leave"."""
    from companion.ui.app import App
    from companion.ui.screens import MainMenu
    keys = ",".join([PHYSICAL_30] + STORY[:-1])  # all but the OK that closes the winning bank's summary
    app = make_app(tmp_path, settings=NAMES)
    press(app, keys)
    assert state(app).phase == "over" and isinstance(app.top, Report)
    # the device stops here; a new app on the same journal
    again = App(Journal(str(tmp_path / "ref.db")), NAMES, rng=random.Random(1))
    menu = again.top
    assert isinstance(menu, MainMenu) and menu.items[0].label == "Last game"
    assert menu.footer_lines() == ["Bag of Ice", "Ann, Bob, Cat"]
    press(again, "ok")
    assert isinstance(again.top, Report) and "Ann wins!" in " ".join(again.top.lines)
    press(again, "ok")
    assert state(again).phase == "over"
    press(again, "hold-back,ok")  # the winning bank is undone: the game goes on
    assert state(again).phase != "over" and state(again).totals[0] < 30
    # played on, then won again and left: the main menu no longer offers it
    press(again, "down,ok,ok")
    assert state(again).phase == "over"
    press(again, "back,ok")  # the session menu's first row on a finished game: Leave
    assert isinstance(again.top, MainMenu) and again.top.items[0].label == "New game"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_turn_screen_says_the_bust_chance_and_the_total_in_every_language(tmp_path, language):
    """Two players (B-10's chance to win on the rows): the French screen left out the
    bust chance ("pour gagner : piocher") and the total after banking ("Garder +2"
    with no "= 2"), both of which the English screen shows."""
    from companion import i18n
    from companion.ui import draw
    app = make_app(tmp_path, seed=5, settings=Settings(players=("Ann", "Bob"), language=language))
    try:
        press(app, "ok,down,ok,down,ok,ok,ok,ok,ok,ok")  # Bag of Ice, 2 players, start, a draw
        st = app.top.state
        assert isinstance(app.top, BagOfIceScreen) and st.phase == "decide" and st.drawn
        draw.DRAWN = drawn = []
        app.frame()
        pct_text = pct(advice_for(st).bust_chance)
        total = st.totals[st.active] + advice_for(st).bank_score
        assert any(pct_text in t for t in drawn), drawn
        bank = i18n._("Bank +{n}").format(n=advice_for(st).bank_score)
        assert any(t.startswith(bank) and f"= {total}" in t for t in drawn), drawn
    finally:
        draw.DRAWN = None
        i18n.set_language("en")


# ---------------------------------------------------------------- the roll-off page (B-3)


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
