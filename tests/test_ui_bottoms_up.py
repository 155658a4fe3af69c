"""Bottoms Up screens, driven with keys as the headless simulator does.

Each test checks the engine state the keys produced, not only the pictures.
Regenerate the reference PNGs after a deliberate change of the drawing:

    COMPANION_UPDATE_REFERENCE=1 ./run test tests/test_ui_bottoms_up.py
"""
from __future__ import annotations

import itertools
import random

import pytest
from PIL import Image

from companion import i18n, records
from companion.i18n import _ as tr
from companion.cli import main
from companion.config import Settings
from companion.games.bottoms_up import COLORS, new_game
from companion.io import Key
from companion.journal import Journal
from companion.pieces import Piece, Size
from companion.ui.bottoms_up import (TITLE_CHARS, BottomsUpScreen, HoldToSee, Pages, ScoreBoard, SecretTour,
                                     TargetPicker, presses_for_place)
from companion.ui.bottoms_up_check import TableField
from companion.ui.draw import CLIPS
from companion.ui.widgets import Confirm, Menu, Message

from .screens_util import assert_hold_back_undoes_from_here, assert_matches_reference, make_app, press, read_through

P = Piece.parse

# From a fresh main menu: New game, Bottoms Up (the third game), the number of
# players (4 by default; DOWN = fewer), names as they are, then the options
# (rows: Start game, Secret colors, Stash, Lone pieces).
BU = "ok,down,down,ok"
DEVICE_4 = BU + ",ok,ok,ok"                                # 4 players, device draws, 90 pieces
TOUR_4 = ",".join(["hold-ok,release"] * 4 + ["ok"])        # BU-3: each looks, then OK
SHORT_DEVICE_4 = BU + ",ok,ok,down,down,left,left,left,left,up,up,ok"    # stash 18 (LEFT four times from 90)
SHORT_PHYSICAL_2 = BU + ",down,down,ok,ok,down,ok,down,left,left,left,left,up,up,ok" # 2 players, table draws, 18
# Opening (BU-4): P1 rS, P2 gS, P3 yS, P4 wS; the rows are the six colors.
OPENING = "ok,down,down,ok,down,down,down,ok,up,up,ok"


def game_screen(app) -> BottomsUpScreen:
    return next(s for s in reversed(app.stack) if isinstance(s, BottomsUpScreen))


def state(app):
    return game_screen(app).session.state


def keys_count(*parts: str) -> int:
    return sum(len([k for k in p.split(",") if k]) for p in parts)


def moves_to(i: int, n: int) -> list[str]:
    """Fewest UP/DOWN presses from the first row to row i of n (lists wrap)."""
    return ["down"] * i if i <= n - i else ["up"] * (n - i)


def place_keys(st, piece, target=None) -> list[str]:
    """The presses for a placement from a fresh turn screen: the color row
    (colors still in the stash), the size (OK, OK for the first size left,
    RIGHT for the second, LEFT for the last; OK alone when only one is
    left), then the target row."""
    p = P(piece) if isinstance(piece, str) else piece
    sizes_all = (Size.SMALL,) if st.phase == "opening" else tuple(Size)
    rows = [c for c in COLORS if any(st.stash.count(Piece(c, z)) for z in sizes_all)]
    keys = moves_to(rows.index(p.color), len(rows))
    sizes = [z for z in sizes_all if st.stash.count(Piece(p.color, z))]
    j = sizes.index(p.size)
    keys += ["ok"] if len(sizes) == 1 else ["ok", "ok"] if j == 0 else ["right"] if j == 1 else ["left"]
    if target is not None:
        labels = [g.label for g in st.field_groups()]
        keys += moves_to(labels.index(target), len(labels)) + ["ok"]
    return keys


def option_keys(st, move: str) -> list[str]:
    opts = [str(m) for m in st.legal_moves()]
    return moves_to(opts.index(move), len(opts)) + ["ok"]


def started(tmp_path, keys=DEVICE_4 + "," + TOUR_4, **kw):
    app = make_app(tmp_path, **kw)
    press(app, keys)
    return app


def after_opening(tmp_path):
    app = started(tmp_path)
    press(app, OPENING)
    return app


# ---------------------------------------------------------------- setup (BU-2, BU-3)


def test_setup_flow_starts_a_device_game_with_the_options(tmp_path):
    app = make_app(tmp_path, settings=Settings(bu_lone_pieces=True))
    press(app, BU + ",ok,ok")
    assert isinstance(app.top, Menu) and app.top.title == "Bottoms Up: options"
    assert [(it.label, it.right) for it in app.top.items] == [
        ("Start game", ""), ("Secret colors", "device"), ("Stash", "90 pieces"), ("Lone pieces", "score")]
    assert app.top.footer == ""  # 4 players: no BU-2 warning
    press(app, "ok")
    st = state(app)
    assert st.players == ("P1", "P2", "P3", "P4") and len(st.stash) == 90
    assert st.lone_count is True  # the house rule's default comes from Settings (BU-11)
    assert st.phase == "opening" and all(st.secrets) and len(set(st.secrets)) == 4  # drawn by the device (BU-3)
    assert isinstance(app.top, SecretTour)


def test_two_players_are_allowed_with_a_warning_BU2(tmp_path):
    app = make_app(tmp_path)
    press(app, BU + ",down,down")
    assert app.top.value == 2
    press(app, "down")
    assert app.top.value == 2  # 2 is the least (BU-2)
    press(app, "ok,ok")
    assert app.top.footer == "best with 4 to 6"  # BU-2, in plain words
    assert_matches_reference(app.frame(), "bu_setup_warning")
    press(app, "down,ok,down,left,left,left,left,up,up,ok")  # secret colors at the table, 18 pieces
    st = state(app)
    assert st.n == 2 and st.warning.endswith("(BU-2)") and st.secret_mode == "physical"
    assert len(st.stash) == 18 and st.secrets == (None, None)
    assert isinstance(app.top, BottomsUpScreen)  # no secret to show: the opening at once


# ---------------------------------------------------------------- secret colors (BU-3)


def test_secret_tour_shows_each_color_only_while_held_BU3(tmp_path):
    app = started(tmp_path, DEVICE_4)
    tour = app.top
    assert isinstance(tour, SecretTour) and tour.seat == 0
    neutral = app.frame()
    assert_matches_reference(neutral, "bu_pass")
    press(app, "ok")  # OK before looking: a message, nothing changes
    assert isinstance(app.top, Message) and "hold OK" in app.top.text and "P1, P2, P3, P4" in app.top.text
    press(app, "ok")
    assert app.top is tour and tour.seen == set()
    img = press(app, "hold-ok")
    assert tour.showing
    assert_matches_reference(img, "bu_reveal")  # seed 7: P1 is green
    assert state(app).secrets[0].value == "green"
    press(app, "release")
    assert not tour.showing and tour.seat == 1 and tour.seen == {0}
    # the neutral view names the next player and shows no color
    assert app.frame().tobytes() != img.tobytes()
    press(app, "up")  # P1 again
    assert tour.seat == 0
    press(app, "down," + ",".join(["hold-ok,release"] * 3))
    assert tour.final and tour.seen == {0, 1, 2, 3}
    press(app, "ok")
    assert isinstance(app.top, BottomsUpScreen) and state(app).phase == "opening"


def test_a_hold_while_the_hold_OK_box_is_open_shows_the_color_BU3(tmp_path):
    """The box a short OK opens says "hold OK to see your color"; a player
    who does just that sees it (the box closes), and the release hides it."""
    app = started(tmp_path, DEVICE_4)
    tour = app.top
    hidden = secret_frames(app)
    press(app, "ok")
    assert isinstance(app.top, Message) and "hold OK" in app.top.text
    img = press(app, "hold-ok")
    assert app.top is tour and tour.showing
    assert img.tobytes() in hidden  # the holder's color, whole, no box over it
    img = press(app, "release")
    assert not tour.showing and tour.seen == {0} and tour.seat == 1
    assert img.tobytes() not in hidden
    press(app, "ok,ok")  # OK, then OK again: the box closes as before
    assert app.top is tour and tour.seen == {0}


def test_a_tap_then_a_hold_shows_the_second_players_color_BU3(tmp_path):
    """The keys that once showed the wrong color, headless: tour, a tap (the box), a hold, a release, a hold."""
    app = make_app(tmp_path)
    img = press(app, "ok,down,down,ok,ok,ok,ok,ok,hold-ok,release,hold-ok")
    assert isinstance(app.top, SecretTour) and app.top.showing and app.top.seat == 1
    assert img.tobytes() in secret_frames(app)


def test_neutral_view_is_the_same_whatever_the_colors(tmp_path):
    frames = []
    for seed in (1, 2):
        app = make_app(tmp_path / str(seed), seed=seed)
        press(app, DEVICE_4)
        frames.append((state(app).secrets, app.frame().tobytes(), press(app, "hold-ok").tobytes()))
    (c1, n1, h1), (c2, n2, h2) = frames
    assert c1[0] != c2[0] and n1 == n2 and h1 != h2


def test_the_history_screens_of_a_game_under_way_never_show_a_secret_color_V1(tmp_path):
    """RULINGS V-1: History > Bottoms Up > the game > Moves, and the
    game's own History, read the same whatever colors were drawn."""
    from companion.ui.base import history_screen
    from companion.ui.history import open_summary
    from companion.export import session_summary
    seen = []
    for seed in (1, 2):
        app = make_app(tmp_path / str(seed), seed=seed)
        press(app, DEVICE_4 + "," + TOUR_4 + "," + OPENING)
        session = game_screen(app).session
        app.home()
        info = app.journal.session(session.id)
        open_summary(app, session_summary(app.journal, info))
        texts = [it.label + it.right for it in app.top.items if not it.label[:2].isdigit()]  # not the date
        app.top.items[1].action(app)  # Moves
        texts += [it.label for it in app.top.items]
        texts += [it.label for it in history_screen(session).items]
        seen.append((session.state.secrets, texts))
    (c1, t1), (c2, t2) = seen
    assert c1 != c2 and t1 == t2
    assert any("secret color is drawn" in t for t in t1)


def secret_frames(app) -> set[bytes]:
    """What every seat's secret color looks like on screen (BU-3)."""
    from companion.ui.bottoms_up import draw_secret
    from companion.ui.draw import Canvas
    out = set()
    for seat in range(state(app).n):
        c = Canvas()
        draw_secret(c, state(app), seat)
        out.add(c.image.tobytes())
    return out


def test_a_slow_ok_acts_as_ok_and_never_shows_a_secret_color_BU3(tmp_path):
    """A hold of OK (a slow press) on the turn, size, target and choice
    screens is an OK: the choice is made and no secret color is drawn."""
    app = after_opening(tmp_path)
    secrets = secret_frames(app)
    grid = game_screen(app).grid
    press(app, "down")  # the turn screen: blue
    shown = [press(app, "hold-ok"), press(app, "release")]  # the color picked: its sizes
    from companion.ui.bottoms_up import SizeStage
    assert isinstance(app.top, SizeStage) and grid.size == Size.SMALL
    shown += [press(app, "down,hold-ok"), press(app, "release")]  # the medium picked: the target
    assert isinstance(app.top, TargetPicker) and app.top.piece == P("bM")
    shown += [press(app, "hold-ok"), press(app, "release")]  # bM on A
    st = state(app)
    assert st.pending is not None and st.pending.kind == "blue"  # BU-8: the blue choice
    shown += [press(app, "down,hold-ok"), press(app, "release")]  # green
    st = state(app)
    assert st.pending is None and st.field_lines()[0] == "A: gS bM" and st.active == 1
    assert isinstance(app.top, Pages)
    press(app, "back")  # close the result
    press(app, ",".join(place_keys(st, "yM", "B")[:-1]))  # P2: yM on B, a yellow choice
    shown += [press(app, "hold-ok"), press(app, "release")]
    st = state(app)
    assert st.pending is not None and st.pending.kind == "yellow"
    shown += [press(app, "down,hold-ok"), press(app, "release")]  # gS onto C
    assert state(app).field_lines() == ["A: gS bM", "B: yM", "C: yM gS", "D: wS"]
    assert not secrets & {img.tobytes() for img in shown}
    # The deliberate way stays: the session menu's Secret colors, hold OK.
    press(app, "back,back")  # close the result; the session menu
    menu = app.top
    assert isinstance(menu, Menu)
    labels = [it.label for it in menu.items]
    press(app, ",".join(["down"] * labels.index("Secret colors")) + ",ok")
    assert isinstance(app.top, SecretTour) and app.top.seat == state(app).active
    assert press(app, "hold-ok").tobytes() in secrets
    press(app, "release")  # the pass goes round the table; BACK: the game
    assert isinstance(app.top, SecretTour) and app.top.seat == (state(app).active + 1) % state(app).n
    press(app, "back")
    assert isinstance(app.top, BottomsUpScreen)


def test_a_slow_ok_with_colors_drawn_at_the_table_acts_as_ok(tmp_path):
    app = make_app(tmp_path)
    press(app, SHORT_PHYSICAL_2 + ",hold-ok,release")  # P1's opening small: red, at once
    assert state(app).field_lines() == ["A: rS"] and not isinstance(app.top, Message)


# ---------------------------------------------------------------- opening and turns (BU-4, BU-5)


def test_opening_places_one_small_each_BU4(tmp_path):
    app = started(tmp_path)
    screen = app.top
    assert screen.grid.rows() == list(COLORS) and screen.grid.size_set == (Size.SMALL,)
    press(app, "down,ok")  # blue: its only size, the small, at once
    st = state(app)
    assert st.field_lines() == ["A: bS"] and st.active == 1 and st.phase == "opening"
    press(app, "ok,ok,ok")
    st = state(app)
    assert st.field_lines() == ["A: bS", "B: rS", "C: rS", "D: rS"]
    assert st.phase == "play" and st.active == 0 and len(st.stash) == 86
    assert isinstance(app.top, BottomsUpScreen)  # no result page for opening pieces


def test_turn_screen_and_press_counts_BU5_BU13(tmp_path):
    app = after_opening(tmp_path)
    st = state(app)
    assert st.field_lines() == ["A: rS", "B: gS", "C: yS", "D: wS"]
    assert_matches_reference(app.frame(), "bu_turn")
    # bM on A: blue row, RIGHT takes the medium, A is under the cursor, OK: 3 presses
    keys = "down,right"
    press(app, keys)
    assert isinstance(app.top, TargetPicker) and app.top.piece == P("bM")
    assert_matches_reference(app.frame(), "bu_target")
    press(app, "ok")
    assert keys_count(keys, "ok") == 3 <= 6
    st = state(app)
    assert st.pending is not None and st.pending.kind == "blue"  # BU-8: blue on rS asks for a color
    assert_matches_reference(app.frame(), "bu_blue")
    rows = [r.label for r in game_screen(app).rows()]
    # only the other colors with a small in the stash, with their counts (BU-8)
    assert rows == ["blue   bS 5 left", "green  gS 4 left", "yellow yS 4 left", "white  wS 4 left",
                    "black  kS 5 left"]  # one space: "bleu   bL 5 restent" keeps a cell before the scroll mark
    press(app, "down,ok")  # green: one rules choice, 2 presses
    st = state(app)
    assert st.pending is None and st.field_lines()[0] == "A: gS bM" and st.active == 1
    assert isinstance(app.top, Pages) and app.top.lines[:2] == ["*A: gS bM", " B: gS  C: yS  D: wS"]
    assert "A: blue turns rS into gS" in " ".join(x.strip() for x in app.top.lines)
    press(app, "ok")  # a result longer than the screen: the first OK shows its end
    assert isinstance(app.top, Pages) and app.top.offset + app.top.shown == len(app.top.lines)
    press(app, "ok")  # and the next closes it
    assert isinstance(app.top, BottomsUpScreen)


def test_press_counts_over_every_placement_of_a_first_turn(tmp_path):
    """Every placement of the first turn (18 pieces x 4 lone pieces) played
    with the keys ``place_keys`` gives: the presses the README quotes."""
    app = after_opening(tmp_path)
    st = state(app)
    counts = []
    for m in st.legal_moves():
        keys = [k.name.lower() for k in presses_for_place(st, m)]
        sess = game_screen(app).session
        n0 = len(sess.fold.moves)
        press(app, ",".join(keys))
        assert sess.fold.moves[n0].move == m  # the keys played exactly this placement
        counts.append(len(keys))
        sess.undo()
        app.home()
        press(app, "ok")  # Resume: a fresh turn screen
        assert state(app) == st
    # 4.83 on average before RIGHT/LEFT picked a group in one press; goal <= 4.5
    assert len(counts) == 72 and min(counts) == 2 and max(counts) == 7
    assert sum(counts) == 294  # 4.08 on average
    assert sum(c <= 5 for c in counts) == 64  # 89% in 5 or fewer


def test_only_colors_and_sizes_in_the_stash_are_offered(tmp_path):
    app = started(tmp_path, SHORT_DEVICE_4 + "," + TOUR_4)
    press(app, "ok,ok,ok,ok")  # rS bS gS yS: one piece per color and size; each OK takes the first color left
    assert state(app).field_lines() == ["A: rS", "B: bS", "C: gS", "D: yS"]
    grid = game_screen(app).grid
    red = P("rS").color
    assert grid.sizes(red) == [Size.MEDIUM, Size.LARGE]
    press(app, "ok")  # red: the size stage starts on the medium, the first size left
    assert grid.size == Size.MEDIUM
    press(app, "down")
    assert grid.size == Size.LARGE
    press(app, "down")
    assert grid.size == Size.MEDIUM  # the small is skipped: none left
    assert_matches_reference(app.frame(), "bu_size")
    press(app, "back")
    assert grid.size is None and isinstance(app.top, BottomsUpScreen)  # BACK: back to the colors
    press(app, "ok,ok,ok")  # rM on A (rS): red destroys rS (a small, BU-8)
    st = state(app)
    assert st.field_lines()[0] == "A: rM" and st.destroyed.count(P("rS")) == 1
    press(app, "back")  # close the result
    press(app, "ok")  # P2: red has only rL left: OK takes it at once
    assert isinstance(app.top, TargetPicker) and app.top.piece == P("rL")
    press(app, "ok,back")  # on A (rM): no rS left to shrink to: rM is destroyed (BU-8); close the result
    st = state(app)
    assert st.field_lines()[0] == "A: rL" and all(st.stash.count(Piece(red, z)) == 0 for z in Size)
    assert red not in game_screen(app).grid.rows()  # no red left: the row is gone


def test_yellow_choice_cascade_and_result_with_step_log_BU8_BU9(tmp_path):
    app = after_opening(tmp_path)
    press(app, "down,right,ok,down,ok,back")  # P1: bM on A, blue -> green; close the result
    st = state(app)
    keys = place_keys(st, "yM", "B")
    assert keys == ["down", "down", "down", "right", "down", "ok"]
    press(app, ",".join(keys))
    st = state(app)
    assert st.pending.kind == "yellow"
    assert_matches_reference(app.frame(), "bu_yellow")
    # open space first, always in view and said to end the move; the cursor on the first group
    assert [r.label for r in game_screen(app).rows()] == [
        "open space (alone)", "onto A: gS bM", "onto C: yS", "onto D: wS"]
    assert game_screen(app).index == 1
    press(app, "left")  # the turn so far
    assert isinstance(app.top, Pages) and app.top.title == "P2: yM on B, so far"
    press(app, "back,down,ok")  # gS onto C: C is queued and recalculated (BU-9)
    st = state(app)
    assert st.field_lines() == ["A: gS bM", "B: yM", "C: yM gS", "D: wS"]
    top = app.top
    assert isinstance(top, Pages) and top.title == "P2: yM on B" and top.right == "turn 2"
    assert_matches_reference(app.frame(), "bu_result")
    assert top.lines[:4] == ["*B: yM", "*C: yM gS", " A: gS bM  D: wS", "steps:"]
    text = " ".join(x.strip() for x in top.lines[4:])
    for step in ("B: P2 puts yM on gS", "B: yellow moves gS onto C; the pieces above drop; "
                 "C is recalculated later", "B: recalculated", "C: its turn to be recalculated",
                 "C: yS grows to yM", "C: recalculated"):
        assert step in text
    press(app, "right")  # a page down
    assert top.offset == 5
    press(app, "back,back,down,ok")  # close; session menu > Field view (after Secret colors)
    assert isinstance(app.top, Pages) and app.top.title == "In play: 6"
    assert_matches_reference(app.frame(), "bu_field")
    lines = app.top.lines
    assert lines[:2] == ["A: gS bM  B: yM", "C: yM gS  D: wS"]
    assert lines[2:8] == ["stash: 84 pieces", "  S M L    S M L", "r 5 5 5  b 5 4 5", "g 3 5 5  y 5 3 5",
                          "w 4 5 5  k 5 5 5", "destroyed: 0 pieces"]
    assert lines[8:10] == ["piece codes:", "r red, y yellow,"]  # the legend of the piece codes


def test_a_one_option_choice_is_made_by_the_device_and_said_BU13(tmp_path):
    app = started(tmp_path, SHORT_PHYSICAL_2)
    for move in ["place rS", "place wS", "place rM on B", "place yS on A"]:
        st = state(app)
        piece, _, target = (move.split()[1:] + ["", ""])[:3]
        press(app, ",".join(place_keys(st, piece, target or None)))
        while isinstance(app.top, Pages):  # a long result: OK shows its end, then closes
            press(app, "ok")
    sess = game_screen(app).session
    assert [p.text for p in sess.fold.moves][-2:] == ["place yS on A", "yellow open"]  # applied alone
    press(app, "back,down,down,ok")  # session menu: Field view, Check mode, Last turn
    assert isinstance(app.top, Pages) and app.top.title == "P2: yS on A"
    assert "A: yellow moves rS to open space as B; the pieces above drop (the only option)" in " ".join(
        x.strip() for x in app.top.lines)


# ---------------------------------------------------------------- undo, resume, bad input


def test_undo_reaches_every_event(tmp_path):
    app = after_opening(tmp_path)
    opening = state(app)
    press(app, "down,right,ok")  # bM on A: the blue choice is pending
    pending = state(app)
    press(app, "down,ok,ok")  # green; close the result
    press(app, "hold-back")
    assert isinstance(app.top, Confirm) and "blue turns rS into gS" in app.top.question
    press(app, "ok")  # "Undo" is preselected: hold BACK, OK
    assert state(app) == pending
    press(app, "hold-back,ok")  # the placement itself
    assert state(app) == opening and isinstance(app.top, BottomsUpScreen)
    press(app, "hold-back,ok")  # P4's opening small
    assert state(app).field_lines() == ["A: rS", "B: gS", "C: yS"] and state(app).active == 3


def test_undo_back_to_the_start_keeps_the_secret_colors_and_says_so(tmp_path):
    """The message said the colors were drawn again and everyone should
    look again, while an undo never draws again (session.py): the same colors
    came back. It says what happens: each player keeps the color drawn (BU-3)."""
    app = started(tmp_path)
    colors = state(app).secrets
    press(app, "hold-back,ok")  # the secret draw is undone and comes back the same
    assert isinstance(app.top, Message) and "keeps the secret color" in app.top.text
    assert "drawn again" not in app.top.text
    press(app, "ok")
    assert isinstance(app.top, BottomsUpScreen) and state(app).phase == "opening"
    assert state(app).secrets == colors and len(game_screen(app).session.fold.undone) == 4


def test_resume_lands_on_the_pending_choice(tmp_path):
    app = after_opening(tmp_path)
    press(app, "down,right,ok")
    frame = app.frame()
    app.home()
    assert app.top.items[0].label == "Resume"
    press(app, "ok")
    assert state(app).pending.kind == "blue" and app.frame().tobytes() == frame.tobytes()


def test_refusals_change_nothing(tmp_path):
    app = after_opening(tmp_path)
    before = state(app)
    sess = game_screen(app).session
    press(app, "back,down,down,ok,ok")  # check mode
    press(app, "down,right,ok")  # bM on A, into the table's field
    field = app.top
    assert isinstance(field, TableField)
    press(app, "down,ok,down,ok,up,ok,ok,up,ok,up,ok")  # A: remove rS, remove bM, Done: A is gone
    assert [label for label, _ in field.groups] == ["B", "C", "D"]
    field.groups.clear()
    field.index = 0
    press(app, "ok")  # Check it with nothing entered
    assert isinstance(app.top, Message) and "empty" in app.top.text
    press(app, "ok,back")
    assert isinstance(app.top, Confirm)  # the entered stacks are not dropped without asking
    press(app, "down,ok,back")  # yes; BACK on the colors leaves check mode
    assert isinstance(app.top, BottomsUpScreen) and not app.top.check
    assert state(app) == before and len(sess.fold.moves) == 8


# ---------------------------------------------------------------- check mode (BU-13)


def enter_check(app, placement_keys: str) -> TableField:
    press(app, "back,down,down,ok")  # session menu: Secret colors, Field view, Check mode
    assert isinstance(app.top, Message) and app.top.title == "Check mode"
    press(app, "ok," + placement_keys)
    assert isinstance(app.top, TableField)
    return app.top


def test_check_mode_reachable_table_records_the_turn(tmp_path):
    app = after_opening(tmp_path)
    field = enter_check(app, "down,down,down,right,ok")  # yM on A (rS): yellow moves rS
    assert field.table() == ["A: rS yM", "B: gS", "C: yS", "D: wS"]
    assert_matches_reference(app.frame(), "bu_check_field")
    # The table moved rS onto C (yS), and C's recalculation destroyed yS (red on a small).
    press(app, "down,ok,down,ok,up,ok,up,ok")   # A: remove rS; Done
    press(app, "down,down,ok,down,ok,ok,ok")    # C: change yS to rS
    press(app, "up,ok")                         # Done
    assert field.table() == ["A: yM", "B: gS", "C: rS", "D: wS"]
    assert field.edited == {"A", "C"}
    press(app, "up,up,up,ok")  # Check it
    assert isinstance(app.top, Pages) and app.top.title == "Check: right"
    assert_matches_reference(app.frame(), "bu_check_verdict")
    assert "choices: move onto C" in " ".join(app.top.lines)
    read_through(app)  # the verdict read to its end, then what next
    press(app, "ok")  # Record this turn
    st = state(app)
    assert st.field_lines() == ["A: yM", "B: gS", "C: rS", "D: wS"] and st.active == 1
    assert [p.text for p in game_screen(app).session.fold.moves][-2:] == ["place yM on A", "yellow C"]
    assert isinstance(app.top, Pages) and app.top.title == "P1: yM on A"  # the turn's result
    assert not game_screen(app).check


def test_check_mode_choices_have_one_colon_in_french(tmp_path):
    """The verdict's choices follow "choix :" as verbs ("choix : déplacer sur C"),
    never "choix : jaune : sur C" (a colon in a choice after the colon of the list)."""
    from companion import i18n
    try:
        app = started(tmp_path, settings=Settings(language="fr"))
        press(app, OPENING)
        press(app, "back,down,down,ok")  # the session menu: Secret colors, Field view, Check mode
        assert isinstance(app.top, Message)
        press(app, "ok,down,down,down,right,ok")  # yM on A (rS)
        assert isinstance(app.top, TableField)
        press(app, "down,ok,down,ok,up,ok,up,ok")   # A: remove rS; Done
        press(app, "down,down,ok,down,ok,ok,ok")    # C: change yS to rS
        press(app, "up,ok,up,up,up,ok")             # Done; Check it
        assert isinstance(app.top, Pages) and app.top.title == "Contrôle : juste"
        text = " ".join(x.strip() for x in app.top.lines)
        assert "choix : déplacer sur C" in text, text
        assert all(line.count(" : ") <= 1 for line in app.top.lines), app.top.lines
    finally:
        i18n.set_language("en")


def test_check_mode_not_reachable_shows_a_legal_result_and_the_difference(tmp_path):
    app = after_opening(tmp_path)
    field = enter_check(app, "down,down,down,right,ok")  # yM on A (rS)
    # The table put rS on C (yS) and forgot C's recalculation (red destroys yS).
    press(app, "down,ok,down,ok,up,ok,up,ok")            # A: remove rS; Done
    press(app, "down,down,ok,down,down,ok,ok,ok,back")   # C: + piece on top: rS; Done
    assert field.table() == ["A: yM", "B: gS", "C: yS rS", "D: wS"]
    before = state(app)
    press(app, "up,up,up,ok")
    top = app.top
    assert isinstance(top, Pages) and top.title == "Check: differs"
    assert_matches_reference(app.frame(), "bu_check_differs")
    text = " ".join(x.strip() for x in top.lines)
    assert "First difference: C: the rules give rS, the table has yS rS" in text
    assert "A legal result:" in text and "its choices: move onto C" in text
    assert state(app) == before  # nothing recorded yet
    # OK does not skip what is below the first page (else the legal result is never seen)
    assert len(top.lines) > top.shown
    press(app, "ok")
    assert app.top is top and top.offset > 0
    read_through(app)  # what next, once the difference and the legal result were on screen
    assert [it.label for it in app.top.items] == ["Edit the field", "Resolve step by step", "Record legal result"]
    press(app, "down,ok")  # resolve it with the device, step by step
    st = state(app)
    assert st.pending is not None and st.pending.kind == "yellow" and not game_screen(app).check
    assert isinstance(app.top, BottomsUpScreen)


# ---------------------------------------------------------------- end, scores, winner (BU-10..BU-12)


def scripted_game(seed: int, setup: dict) -> tuple[list[str], list[str]]:
    """A whole game with moves picked at random (seeded): the keys that play it
    from the first turn screen (closing each turn's result) and every move
    of the record (the device's one-option choices included)."""
    rnd = random.Random(seed)
    st = new_game({**setup, "secret": "physical"})  # the keys do not depend on the colors
    keys: list[str] = []
    moves: list[str] = []
    while st.phase in ("opening", "play"):
        m = rnd.choice(st.legal_moves())
        keys += option_keys(st, str(m)) if st.pending is not None else place_keys(st, m.piece, m.target)
        before = st
        st = st.apply(m)
        moves.append(str(m))
        while st.forced_move() is not None:
            moves.append(str(st.forced_move()))
            st = st.apply(st.forced_move())
        if before.phase == "play" and st.pending is None:
            keys.append("back")  # close the turn's result (OK shows the end of a long one first)
    return keys, moves


def test_headless_sim_plays_a_short_game_to_the_winner(tmp_path):
    """18 pieces, 4 players, device colors: from the main menu to the winner
    screen through the CLI; the journal's record replays to the same result."""
    setup = {"players": ["P1", "P2", "P3", "P4"], "stash": 1}
    play, moves = scripted_game(11, setup)
    keys = ",".join([SHORT_DEVICE_4, TOUR_4] + play)
    shot = tmp_path / "win.png"
    jpath = tmp_path / "j.db"
    assert main(["sim", "--journal", str(jpath), "--seed", "7", "--keys", keys, "--screenshot", str(shot)]) == 0
    j = Journal(str(jpath))
    (info,) = j.sessions()
    played = [e.data["move"] for e in j.events(info.id) if e.type == "move"]
    assert [m for m in played if not m.startswith("secret")] == moves
    text = records.dumps(info.game, info.setup, j.events(info.id))
    result = records.replay(records.parse_lines(text.splitlines())).to_json()
    assert result["terminal"] and result["state"]["phase"] == "over"
    assert result["state"]["stash_count"] == 0
    scores = result["scores"]
    best = max(scores)
    assert result["outcome"]["winners"] == [i for i, s in enumerate(scores) if s == best]
    assert_matches_reference(Image.open(shot).convert("1"), "bu_winner")


def test_score_screen_breakdown_and_lone_pieces_house_rule_BU11(tmp_path):
    for lone, keys_lone in ((False, ""), (True, "down,down,down,ok,up,up,up,")):
        app = make_app(tmp_path / str(lone), seed=7)
        press(app, BU + ",ok,ok,down,down,left,left,left,left,up,up," + keys_lone + "ok," + TOUR_4)
        sess = game_screen(app).session
        rnd = random.Random(5)
        while state(app).phase != "over":
            st = state(app)
            m = rnd.choice(st.legal_moves())
            k = option_keys(st, str(m)) if st.pending is not None else place_keys(st, m.piece, m.target)
            press(app, ",".join(k))
            while isinstance(app.top, Pages):  # a long result: OK shows its end, then closes
                press(app, "ok")
        st = state(app)
        assert st.lone_count is lone and isinstance(app.top, BottomsUpScreen)
        press(app, "ok")  # every score in the large font, then OK: the breakdown
        assert isinstance(app.top, ScoreBoard)
        if not lone:
            assert_matches_reference(app.frame(), "bu_scoreboard")
        press(app, "ok")
        assert isinstance(app.top, Pages) and app.top.title == "Scores"
        lines = app.top.lines
        assert lines[0] == ("stacks + lone pieces" if lone else "only stacks score")
        for i, name in enumerate(st.players):
            row = next(x for x in lines if x.startswith(name))
            assert row.split()[-1] == str(st.final_scores()[i]) and st.secrets[i].value in row
        for i, items in enumerate(st.score_breakdown()):
            for b in items:
                words = f"{b['label']} {P(b['piece']).size.name.lower()} {P(b['piece']).color.value}: {b['points']}"
                assert words in " ".join(lines)
                assert lone or len(st.group(b["label"]).pieces) >= 2  # BU-11: stacks only
        if not lone:
            assert_matches_reference(app.frame(), "bu_scores")
        assert sess.finished


def test_physical_colors_are_entered_at_the_end_BU3_BU10(tmp_path):
    app = started(tmp_path, SHORT_PHYSICAL_2)
    play, moves = scripted_game(4, {"players": ["P1", "P2"], "stash": 1})
    press(app, ",".join(play))
    st = state(app)
    assert st.phase == "reveal" and len(st.stash) == 0 and st.active == 0
    assert [r.label for r in game_screen(app).rows()] == [c.value for c in COLORS]
    press(app, "down,down,ok")  # P1 drew green
    assert [r.label for r in game_screen(app).rows()] == ["red", "blue", "yellow", "white", "black"]
    press(app, "ok")  # P2 drew red
    st = state(app)
    assert st.phase == "over" and [c.value for c in st.secrets] == ["green", "red"]


# ---------------------------------------------------------------- robustness


@pytest.mark.parametrize("seed", [1, 2])
def test_random_keys_never_crash_and_keep_every_piece(tmp_path, seed):
    """Any key anywhere: the app stays up, refusals change nothing, and the 90
    pieces are always in play, in the stash or destroyed (BU-1, BU-6)."""
    rnd = random.Random(seed)
    app = make_app(tmp_path, seed=seed)
    press(app, DEVICE_4)
    sid = game_screen(app).session.id
    keys = ["ok"] * 6 + ["up", "down", "down", "back", "right", "left", "hold-ok", "release", "hold-back"]
    for _ in range(500):
        press(app, rnd.choice(keys))
        screens = [s for s in app.stack if isinstance(s, BottomsUpScreen)]
        if not screens:
            app.home()
            if app.top.items[0].label != "Resume":
                break
            press(app, "ok")
            continue
        st = screens[-1].session.state
        assert sum(len(g.pieces) for g in st.groups) + len(st.stash) + len(st.destroyed) == 90
    assert len(app.resume_session(sid).fold.moves) > 10


def test_a_cascade_back_at_a_field_it_had_says_so_BU9(tmp_path):
    # taking the first group at every yellow choice moved pieces between A and B
    # again and again; the step log now says when the field is back where it was
    import random

    from companion.engine import pick_chance
    from companion.games import spec
    from companion.ui.bottoms_up import turn_log

    setup = {"players": ["A", "B", "C", "D"]}
    rng = random.Random(0)
    st = spec("bottoms_up").new(setup)
    moves, fields, start = [], [], 0
    while True:  # the same walk as the search that found it: first group at each yellow choice
        if st.is_chance_node():
            m = pick_chance(st, rng)
        else:
            opts = list(st.legal_moves())
            if st.pending is not None and st.pending.kind == "yellow":
                m = next(o for o in opts if o.target is not None)
            else:
                m = rng.choice(opts)
        if st.pending is None and not st.is_chance_node():
            start = len(moves)  # a placement starts the turn's log
        st = st.apply(m)
        moves.append(str(m))
        f = tuple(st.field_lines())
        if st.pending is not None and f in fields:
            break
        fields = fields + [f] if st.pending is not None else [f]
        assert len(moves) < 400
    from types import SimpleNamespace

    from companion.records import Event, fold
    played = SimpleNamespace(fold=fold("bottoms_up", setup, [Event(i + 1, "move", {"move": t})
                                                            for i, t in enumerate(moves)]))
    lines, _ = turn_log(played, start)
    assert any("again: open space can end it" in line for line in lines), lines


def test_check_the_rest_of_a_turn_already_under_way(tmp_path):
    """At a pending choice the table resolves the rest by hand and
    checks the stacks it has now; the turn is recorded from there."""
    app = after_opening(tmp_path)
    press(app, "down,down,down,right,ok")  # yM on A (rS): yellow moves rS, the device asks where
    assert state(app).pending is not None
    press(app, "back")
    labels = [it.label for it in app.top.items]
    assert "Check the rest" in labels and "Check mode" not in labels
    press(app, ",".join(["down"] * labels.index("Check the rest") + ["ok"]))
    field = app.top
    assert isinstance(field, TableField) and field.heading()[0] == "Table's stacks"
    assert field.table() == ["A: rS yM", "B: gS", "C: yS", "D: wS"]
    press(app, "down,ok,down,ok,up,ok,up,ok")   # A: remove rS; Done
    press(app, "down,down,ok,down,ok,ok,ok")    # C: change yS to rS
    press(app, "up,ok")                         # Done
    press(app, "up,up,up,ok")  # Check it
    assert isinstance(app.top, Pages) and app.top.title == "Check: right"
    read_through(app)
    press(app, "ok")  # Record this turn
    st = state(app)
    assert st.field_lines() == ["A: yM", "B: gS", "C: rS", "D: wS"] and st.active == 1
    assert [p.text for p in game_screen(app).session.fold.moves][-2:] == ["place yM on A", "yellow C"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_check_the_rest_title_is_never_cut_by_the_list_position(tmp_path, lang):
    """The table's field under "Check the rest" is a list longer than the screen, so its
    title bar carries the cursor's place ("1/6"): "Table: the stacks now" was cut to
    "Table: the stack~". The title fits beside any place up to "10/12" in both languages."""
    app = after_opening(tmp_path)
    try:
        i18n.set_language(lang)
        press(app, "down,down,down,right,ok,back")  # yM on A: yellow asks where rS goes; the session menu
        labels = [it.label for it in app.top.items]
        CLIPS.reset()
        press(app, ",".join(["down"] * labels.index(tr("Check the rest")) + ["ok"]))
        field = app.top
        assert isinstance(field, TableField)
        press(app, ",".join(["down"] * len(field.items)))  # every row, the position tag each time
        assert CLIPS.count == 0, CLIPS.examples
        assert len(field.heading()[0]) + 1 + len("10/12") <= TITLE_CHARS
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_dropping_the_stacks_entered_asks_with_both_answers_whole(tmp_path, lang):
    """BACK from the table's field after an edit asks whether to drop it; the two
    answers sit side by side and must both show whole ("Conserver" / "Effacer")."""
    app = after_opening(tmp_path)
    try:
        i18n.set_language(lang)
        press(app, "down,down,down,right,ok,back")  # a yellow choice pending; the session menu
        labels = [it.label for it in app.top.items]
        press(app, ",".join(["down"] * labels.index(tr("Check the rest")) + ["ok"]))
        press(app, "down,ok,down,ok,ok,ok,up,ok")  # A: change its bottom piece; Done
        CLIPS.reset()
        press(app, "back")
        assert isinstance(app.top, Confirm)
        assert CLIPS.count == 0, CLIPS.examples
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_check_mode_out_of_budget_says_not_found_never_not_reachable(tmp_path, monkeypatch, lang):
    """An unfinished search (the budget ran out) is no verdict: the
    screen says what was ruled out, titles it "not found" and shows the
    nearest legal result, and never claims the field is not reachable. The
    field: bench.bu_check's 9-choice cascade, on a budget of 40 positions."""
    import companion.ui.bottoms_up_check as ui_check
    from companion.games.bottoms_up import parse_bu_move, position as bu_position
    real = ui_check.check
    results = []

    def small_budget(*args, **kw):
        results.append(real(*args, max_positions=40, **kw))
        return results[-1]

    monkeypatch.setattr(ui_check, "check", small_budget)
    app = after_opening(tmp_path)
    i18n.set_language(lang)  # conftest puts English back
    CLIPS.reset()
    before = bu_position({"players": ["P1", "P2", "P3", "P4"]}, ["yS", "rS", "bS", "bM", "wS", "wM", "yM"])
    field = ui_check.TableField(before, parse_bu_move("place yL on A"), lambda *a: None, lambda *a: None)
    field.groups = [(label, [Piece.parse(x) for x in st.split()]) for label, st in
                    zip("ABCDE", ["wS wS", "yL", "bS", "bM", "yS"])]
    app.push(field)
    field.run_check(app)
    r = results[-1]
    assert not r.complete and not r.reachable and r.depth >= 1
    top = app.top
    _ = i18n._
    assert isinstance(top, Pages) and top.title == _("Check: not found") and top.banner == _("NOT FOUND")
    text = " ".join(x.strip() for x in top.lines)
    if lang == "en":
        assert "Not reachable" not in text
        assert text.startswith("Not found: no cascade of") and "The nearest legal result found:" in text
        assert "First difference: " in text
    else:
        assert "Impossible" not in text
        assert text.startswith("Introuvé : aucune cascade de") and "Le résultat légal le plus proche" in text
    app.frame()
    assert CLIPS.count == 0, CLIPS.examples
    read_through(app)  # what next: "Search longer" and the same three ways on
    assert app.top.title == _("Check: not found")
    assert [it.label for it in app.top.items] == [_("Search longer"), _("Edit the field"),
                                                  _("Resolve step by step"), _("Record legal result")]


@pytest.mark.parametrize("n", [2, 4, 6])
def test_a_shared_win_lists_the_winners_apart_BU12(n):
    """The shared winners were joined by "& " ("Ann& Bob& Cy& Dee"): the "&" stuck to
    each name. They are listed "Ann, Bob, Cy, Dee", in the room the screen counted."""
    from types import SimpleNamespace

    from companion.ui import draw
    from companion.ui.draw import Canvas
    names = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo")[:n]
    fake = SimpleNamespace(players=names, winners=lambda: tuple(range(n)), final_scores=lambda: (3,) * n,
                           secrets=tuple(COLORS[:n]))
    draw.DRAWN = drawn = []
    CLIPS.reset()
    try:
        BottomsUpScreen.render_winner(SimpleNamespace(state=fake), Canvas())
    finally:
        draw.DRAWN = None
    assert not any("&" in t for t in drawn) and CLIPS.count == 0, CLIPS.examples
    if n < 6:  # six share one line: their initials
        assert ", ".join(names) in drawn


def test_the_lone_pieces_option_says_what_it_does_in_french_BU11(tmp_path):
    """BU-11's house rule "lone pieces count": "Pièce seule  compte / ignorée", the
    same words in Settings and in the game's options, whole on the row (it said
    "Pièces seules  oui / non")."""
    from companion import i18n
    from companion.ui import draw
    try:
        app = make_app(tmp_path, settings=Settings(language="fr"))
        press(app, "down,down,down,ok")  # Settings
        rows = {it.label: it.right for it in app.top.items}
        assert rows.get("Pièce seule") == "ignorée", rows
        press(app, ",".join(["down"] * list(rows).index("Pièce seule") + ["ok"]))  # toggle
        assert {it.label: it.right for it in app.top.items}["Pièce seule"] == "compte"
        press(app, "back,up,up,up")  # the main menu, its cursor on Settings: to New game
        clipped = draw.CLIPS.count
        press(app, BU + ",ok,ok")  # New game, Bottoms Up, players, names: the options
        rows = {it.label: it.right for it in app.top.items}
        assert rows.get("Pièce seule") == "compte", rows  # the setting is the default
        app.frame()
        assert draw.CLIPS.count == clipped
    finally:
        i18n.set_language("en")


def test_a_turn_s_result_open_when_the_app_stopped_is_shown_again_on_resume_BU13(tmp_path):
    """The app stops on a turn's result (BU-13): a fresh app on the same journal
    resumes with the same page over the turn screen; an opening placement has none."""
    app = after_opening(tmp_path)
    press(app, "down,right,ok,down,ok")  # P1: bM on A, blue: green
    assert isinstance(app.top, Pages)
    title, lines = app.top.title, app.top.lines
    again = make_app(tmp_path)
    press(again, "ok")  # Resume
    assert isinstance(again.top, Pages) and (again.top.title, again.top.lines) == (title, lines)
    press(again, "back")
    assert isinstance(again.top, BottomsUpScreen) and state(again).active == 1
    (tmp_path / "opening").mkdir()
    first = started(tmp_path / "opening")
    press(first, "down,ok")  # an opening small: no result page (BU-4)
    fresh = make_app(tmp_path / "opening")
    press(fresh, "ok")
    assert isinstance(fresh.top, BottomsUpScreen)


def test_a_stack_destroyed_whole_is_listed_with_its_pieces_BU6_BU8(tmp_path):
    """The result lists a stack the turn took off the field, with the
    pieces destroyed there, among the changed ones (BU-8 item 5: red on white
    destroys both; BU-6: they leave the game)."""
    app = after_opening(tmp_path)  # A: rS, B: gS, C: yS, D: wS
    st = state(app)
    press(app, ",".join(place_keys(st, "yM", "A")))  # yellow moves rS: where?
    st = state(app)
    assert st.pending is not None and st.pending.kind == "yellow"
    press(app, ",".join(option_keys(st, "yellow D")))  # onto wS: red on white, both destroyed
    st = state(app)
    assert st.field_lines() == ["A: yM", "B: gS", "C: yS"] and len(st.destroyed) == 2
    top = app.top
    assert isinstance(top, Pages)
    assert top.lines[:3] == ["*A: yM", "*D: gone, wS rS", "    destroyed"]
    assert top.lines[3] == " B: gS  C: yS"
    i18n.set_language("fr")
    try:
        from companion.ui.bottoms_up import gone_lines
        assert gone_lines({"D": [P("wS"), P("rS")]}) == ["*D : vide, wS rS", "     détruites"]
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_search_longer_after_not_found_answers_with_ten_times_the_budget(tmp_path, monkeypatch, lang):
    """A search that ran out is no verdict, so the table may ask for a
    longer one: "Search longer" checks again with ten times the budget, off the
    press path (here, with no loop, at once) and its verdict replaces the
    waiting screen. The claim: a 12-choice cascade of random legal choices,
    not found on 40 positions, found within 3,000."""
    import companion.ui.bottoms_up_check as ui_check
    from companion.games.bottoms_up import parse_bu_move, position as bu_position
    real = ui_check.check
    budgets = []

    def counted(*args, max_positions=40, **kw):  # the first check on a small budget
        budgets.append(max_positions)
        return real(*args, max_positions=max_positions, **kw)

    monkeypatch.setattr(ui_check, "check", counted)
    app = after_opening(tmp_path)
    i18n.set_language(lang)
    CLIPS.reset()
    _ = i18n._
    before = bu_position({"players": ["P1", "P2", "P3", "P4"]}, ["yS", "rS", "bS", "bM", "wS", "wM", "yM"])
    field = ui_check.TableField(before, parse_bu_move("place yL on A"), lambda *a: None, lambda *a: None)
    field.groups = [(label, [Piece.parse(x) for x in st.split()]) for label, st in
                    zip("ABCDEF", ["wM", "rS", "yM", "yS", "yS rM", "kL bS"])]
    app.push(field)
    field.run_check(app)
    assert app.top.title == _("Check: not found")
    for _k in range(20):  # the verdict's pages, then what next
        if isinstance(app.top, Menu):
            break
        press(app, "ok")
    assert [it.label for it in app.top.items][0] == _("Search longer")
    press(app, "ok")
    assert budgets == [40, ui_check.LONGER_POSITIONS]
    top = app.top
    assert isinstance(top, Pages) and top.title == _("Check: right") and top.banner == _("RIGHT")
    app.frame()
    assert CLIPS.count == 0, CLIPS.examples
    # while it searches (with a loop, on a worker thread) the table sees what it waits for
    wait = ui_check.Searching(field)
    app.push(wait)
    app.frame()
    assert CLIPS.count == 0, CLIPS.examples
    press(app, "back")
    assert app.top is top


def test_a_restart_during_the_secret_colors_tour_brings_the_tour_back(tmp_path):
    """The device stopped after Ann had looked; on Resume the game went
    straight to "Put down a small" and nobody else was asked to look (BU-3)."""
    from companion.journal import Journal
    from companion.ui.app import App
    app = started(tmp_path, keys=DEVICE_4 + ",hold-ok,release")  # Ann has looked, Bob is next
    assert isinstance(app.top, SecretTour)
    again = App(Journal(str(tmp_path / "ref.db")), rng=random.Random(2))
    press(again, "ok")  # Resume
    assert isinstance(again.top, SecretTour) and again.top.seat == 0
    press(again, TOUR_4)
    assert isinstance(again.top, BottomsUpScreen) and state(again).phase == "opening"
    # once a small is down, a restart goes back to the game itself
    press(again, "ok")
    third = App(Journal(str(tmp_path / "ref.db")), rng=random.Random(2))
    press(third, "ok")
    assert isinstance(third.top, BottomsUpScreen)


def test_left_and_right_lower_and_raise_the_stash_as_they_do_the_bag_of_ice_target(tmp_path):
    """RIGHT took the stash from 90 to 72 while it raises the Bag of Ice
    target. On every option RIGHT raises the number and LEFT lowers it; OK
    still steps down the stash (a shorter game is the usual change)."""
    app = make_app(tmp_path)
    press(app, BU + ",ok,ok,down,down")  # the options, the cursor on Stash
    stash = lambda: next(o for o in app.top.options if o.key == "stash").value  # noqa: E731
    assert stash() == 5  # 90 pieces: 5 of each color and size
    press(app, "left")
    assert stash() == 4  # 72
    press(app, "right")
    assert stash() == 5
    press(app, "ok")
    assert stash() == 4  # OK: the next shorter game


# ---------------------------------------------------------------- the secret colors from the session menu (BU-3)


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


# ---------------------------------------------------------------- hold BACK: undo from the size and target lists


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


# ---------------------------------------------------------------- a long result page (BU-13)


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
