"""The engine API on the tools: die, bag, pick."""
from fractions import Fraction
import random

import pytest

from companion.engine import CHANCE, pick_chance
from companion.errors import IllegalMoveError, InvalidMoveError
from companion.games import spec
from companion.pieces import Bag, DieFace, Piece, Size


def test_die_roll_is_a_chance_node_with_six_equal_faces():
    """Ruling B-2: six equally likely faces with pip totals 1,2,3,3,4,5."""
    s = spec("die").new({}).apply_text("roll")
    assert s.current_player == CHANCE
    outs = s.chance_outcomes()
    assert [str(m) for m, _ in outs] == ["face S", "face M", "face L", "face S/M", "face S/L", "face M/L"]
    assert {p for _, p in outs} == {Fraction(1, 6)}
    assert [f.pips for f in DieFace] == [1, 2, 3, 3, 4, 5]


def test_moves_round_trip_through_text():
    for name, setup in (("die", {}), ("bag", {"preset": "undercut"}), ("pick", {"players": 5})):
        s = spec(name).new(setup)
        seen = 0
        for _ in range(6):
            for m in s.legal_moves():
                assert s.parse_move(str(m)) == m
                seen += 1
            s = s.apply(s.legal_moves()[0])
        assert seen > 0


def test_illegal_move_leaves_state_unchanged():
    s = spec("bag").new({"preset": "bag_of_ice"})
    before = s.to_json()
    with pytest.raises(IllegalMoveError):
        s.apply_text("keep")
    with pytest.raises(InvalidMoveError):
        s.apply_text("draw Q")
    assert s.to_json() == before


def test_bag_presets_have_the_ruling_counts():
    """U-1: 75 pieces; B-1: 21 pieces with 5 larges, 7 mediums, 9 smalls; BU-1: 90."""
    assert len(spec("bag").new({"preset": "undercut"}).bag) == 75
    boi = spec("bag").new({"preset": "bag_of_ice"}).bag
    assert (len(boi), boi.count_size(Size.LARGE), boi.count_size(Size.MEDIUM), boi.count_size(Size.SMALL)) == (21, 5, 7, 9)
    assert len(spec("bag").new({"preset": "bottoms_up"}).bag) == 90


def test_bag_draw_weights_by_count_and_keep_return():
    """B-4: two cyan mediums are twice as likely as one yellow medium."""
    s = spec("bag").new({"preset": "bag_of_ice"}).apply_text("draw M")
    probs = {str(m): p for m, p in s.chance_outcomes()}
    assert probs["got cM"] == 2 * probs["got yM"] == Fraction(2, 7)
    s = s.apply_text("got cM")
    assert len(s.bag) == 20 and s.held == Piece.parse("cM")
    kept = s.apply_text("keep")
    assert len(kept.bag) == 20 and kept.kept == (Piece.parse("cM"),)
    back = s.apply_text("return")
    assert len(back.bag) == 21
    with pytest.raises(IllegalMoveError):
        kept.apply_text("draw M").apply_text("got rL")


def test_pick_chance_uses_only_the_injected_generator():
    s = spec("pick").new({"players": 4}).apply_text("pick")
    a = [str(pick_chance(s, random.Random(7))) for _ in range(3)]
    assert len(set(a)) == 1  # same seed, same pick
    picks = {str(pick_chance(s, random.Random(i))) for i in range(200)}
    assert picks == {"start 1", "start 2", "start 3", "start 4"}


def test_bag_multiset_operations():
    b = Bag.parse("rL rL yS")
    assert len(b) == 3 and b.count(Piece.parse("rL")) == 2
    assert str(b.remove(Piece.parse("rL"))) == "rL yS"
    with pytest.raises(IllegalMoveError):
        b.remove(Piece.parse("gM"))
    assert Bag.from_json(b.to_json()) == b


def test_pick_names_come_from_the_setup_and_are_checked():
    from companion.errors import SetupError
    st = spec("pick").new({"players": 3, "names": ["Ann", "Bob"]})
    assert st.names == ("Ann", "Bob") and spec("pick").new({"players": 3}).names == ()
    for bad in (["Ann", "Bob", "Cat", "Dan"], "Ann", [""], [3]):
        with pytest.raises(SetupError):
            spec("pick").new({"players": 3, "names": bad})
