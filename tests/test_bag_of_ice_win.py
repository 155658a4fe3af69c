"""Bag of Ice advice to win the game, two players (B-10)."""
from __future__ import annotations

import struct
from fractions import Fraction

import pytest

from companion.games import boi_win
from companion.games.bag_of_ice import position
from companion.games.boi_odds import SIZE_TOTAL, advice_for
from companion.games.boi_win_build import value_iteration
from companion.pieces import DieFace

TABLE = boi_win.table()
N = boi_win.MAX_NEED
ULP = 1 / boi_win.SCALE


def test_the_packaged_table_matches_a_fresh_small_need_solve():
    # plain value iteration over all pairs at once with the pure-Python turn solve:
    # another algorithm than the generator's need-sum order and secant steps
    vi = value_iteration(4)
    for m in range(1, 5):
        for o in range(1, 5):
            assert abs(vi[m][o] - TABLE[m][o]) <= ULP / 2 + 1e-12, (m, o)


def test_w_1_1_is_315_358():
    # Needing 1 point, any piece but red wins by banking it. On each face take the size with
    # the lowest red share; a bust hands the turn over: x = 1 - r x with r the bust chance.
    red = {s: Fraction(1, n) for s, n in SIZE_TOTAL.items()}
    r = sum(min(red[s] for s in f.sizes) for f in DieFace) / 6
    exact = 1 / (1 + r)
    assert exact == Fraction(315, 358)
    assert abs(TABLE[1][1] - float(exact)) <= ULP / 2
    solved = boi_win.solve_turn(1, 1, W=lambda m, o: float(exact) if (m, o) == (1, 1) else boi_win.w(m, o))
    assert solved.V[0] == pytest.approx(float(exact), abs=1e-15)


def test_w_is_monotone_in_both_needs():
    for m in range(1, N + 1):
        for o in range(1, N + 1):
            if m < N:
                assert TABLE[m][o] >= TABLE[m + 1][o], (m, o)
            if o < N:
                assert TABLE[m][o] <= TABLE[m][o + 1], (m, o)


def test_the_30_against_55_example_draws_where_b9_banks():
    # Target 60, 30 banked against 55, a yellow tree (20) drawn: B-9 banks, which leaves a
    # 22.5% chance to win; drawing on gives 49.4% (B-10).
    st = position({"players": ["Ann", "Bob"], "target": 60}, drawn="yL yM yS", totals=[30, 55], active=0)
    assert advice_for(st).hint == "bank"
    adv = boi_win.win_advice(st)
    assert adv.hint == "draw"
    assert adv.bank == pytest.approx(0.225, abs=0.001) and adv.draw == pytest.approx(0.494, abs=0.001)


def test_banking_the_target_wins_for_sure():
    st = position({"players": ["Ann", "Bob"], "target": 60}, drawn="yS", totals=[59, 10], active=0)
    adv = boi_win.win_advice(st)
    assert adv.bank == 1.0 and adv.hint == "bank"


def test_the_advice_applies_to_two_players_and_targets_up_to_100_only():
    assert boi_win.applies(position({"players": ["A", "B"], "target": 100}))
    assert not boi_win.applies(position({"players": ["A", "B", "C"], "target": 60}))
    assert not boi_win.applies(position({"players": ["A", "B"], "target": 110}))
    with pytest.raises(ValueError, match="two players"):
        boi_win.win_advice(position({"players": ["A", "B", "C"], "target": 60}))


def test_a_damaged_table_is_refused():
    data = bytearray(boi_win.TABLE_FILE.read_bytes())
    assert len(data) / 1024 <= 20  # boi_win_table_kb's goal
    data[50] ^= 1
    with pytest.raises(boi_win.TableError, match="damaged"):
        boi_win.unpack_table(bytes(data))
    good = boi_win.TABLE_FILE.read_bytes()
    other = good[:4] + struct.pack("<B", 9) + good[5:-4]
    import zlib
    with pytest.raises(boi_win.TableError, match="version"):
        boi_win.unpack_table(other + struct.pack("<I", zlib.crc32(other)))


def test_a_two_player_game_shows_the_win_chances_on_every_turn_screen(tmp_path):
    from companion.io import Key
    from tests.screens_util import make_app

    app = make_app(tmp_path, seed=3)
    # New game, Bag of Ice, 2 players, names, options (target 60, virtual, roll-off), start
    for k in ["ok", "down", "ok", "down", "ok", "ok", "ok", "ok", "ok"]:
        app.handle(Key.parse(k))
        app.frame()
    seen = 0
    for k in (["ok"] * 3 + ["down", "ok", "ok"]) * 6:
        text = app.screen_text() if hasattr(app, "screen_text") else ""
        top = app.top
        if type(top).__name__ == "BagOfIceScreen" and top.state.phase == "decide":
            rows = top.rows()
            assert rows[0].right.startswith("win "), rows[0]
            seen += 1
        app.handle(Key.parse(k))
        app.frame()
    assert seen >= 3, text
