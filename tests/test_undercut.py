"""Undercut engine: one or more tests per ruling U-1..U-15, plus the API."""
from __future__ import annotations

import doctest
from dataclasses import replace
from fractions import Fraction

import pytest

from companion.engine import CHANCE, TERMINAL, Termination
from companion.errors import IllegalMoveError, InvalidMoveError, SetupError
from companion.games import spec
from companion.games import undercut
from companion.games.undercut import Bid, Pass, Take, TurnIn, position
from companion.pieces import Bag, Color, Piece, Size

P3 = ["Ann", "Bob", "Cat"]


def new(**kw):
    return spec("undercut").new({"players": P3, **kw})


def play(s, *texts):
    for t in texts:
        s = s.apply_text(t)
    return s


def refused(s, text, *fragments, err=IllegalMoveError):
    """Apply text, expect ``err`` whose message holds each fragment, and the state unchanged."""
    before = s.to_json()
    with pytest.raises(err) as ei:
        s.apply_text(text)
    for f in fragments:
        assert f in str(ei.value), str(ei.value)
    assert s.to_json() == before
    return str(ei.value)


def texts(moves):
    return sorted(str(m) for m in moves)


# A 3-player full-table position with no combo in any hand (checked in the test below).
NO_COMBO = ["rL yM gS bS", "kL rM yS", "gL bM kS"]


def auction(stacks=("yL gM rS", "bL kM yS"), hands=NO_COMBO, **kw):
    """The no-combo position with the two auction stacks drawn as given (U-7 order L, M, S)."""
    s = position({"players": P3, **kw}, hands)
    assert s.phase == "stacks"
    for st in stacks:
        for p in st.split():
            s = s.apply_text(f"got {p}")
    assert s.phase == "bidding"
    return s


def test_doctest_of_the_module():
    assert doctest.testmod(undercut).failed == 0


def test_no_combo_position_really_has_none():
    s = position({"players": P3}, NO_COMBO)
    assert all(s.combos(i) == [] for i in range(3))
    assert s.phase == "stacks" and s.current_player == CHANCE


# ---------------------------------------------------------------- U-1


def test_u1_seventy_five_pieces_five_of_each_color_and_size():
    s = new()
    assert len(s.bag) == 75
    assert {s.bag.count(Piece(c, sz)) for c in undercut.DEFAULT_COLORS for sz in Size} == {5}
    assert s.to_json()["colors"] == ["red", "yellow", "green", "blue", "black"]


def test_u1_color_set_is_a_setting():
    s = new(colors=["white", "cyan", "purple", "orange", "k"])
    assert len(s.bag) == 75 and s.bag.count_color(Color.WHITE) == 15 and s.bag.count_color(Color.RED) == 0
    s = s.apply_text("take LL")
    refused(s, "got rL", "not one of this game's colors (U-1)")
    for bad in (["red"] * 5, ["red", "blue"], ["red", "blue", "green", "black", "mauve"]):
        with pytest.raises(SetupError, match="U-1"):
            new(colors=bad)


# ---------------------------------------------------------------- U-2


@pytest.mark.parametrize("n", [2, 6])
def test_u2_three_to_five_players(n):
    with pytest.raises(SetupError, match="3 to 5 players, not %d \\(U-2\\)" % n):
        spec("undercut").new({"players": [f"P{i}" for i in range(n)]})
    for ok in (3, 5):
        assert spec("undercut").new({"players": [f"P{i}" for i in range(ok)]}).n == ok


def test_u2_one_marker_each():
    s = auction()
    assert s.to_json()["markers_in_hand"] == [0, 1, 2]
    s = s.apply_text("bid A")
    assert s.to_json()["markers_in_hand"] == [1, 2]
    assert s.markers_on_table() == {0}


# ---------------------------------------------------------------- U-3


def test_u3_seven_mixes_from_the_start_player():
    s = new(start=2)
    assert s.phase == "setup" and s.current_player == 2
    assert texts(s.legal_moves()) == sorted(f"take {m}" for m in undercut.MIXES)
    refused(s, "take LLL", "LLL is 9 pips; a hand starts with exactly 6 (U-3)")
    s = s.apply_text("take SML")  # any letter order names the same mix
    assert s.current_player == CHANCE and s.pending_draw() == {"for": "hand", "seat": 2, "size": "L", "left": 3}
    s = play(s, "got rL", "got rM")
    refused(s, "got rM", "this draw is a small piece for Cat, not rM (U-3)")
    s = s.apply_text("got gS")
    assert s.current_player == 0 and s.hand(2) == Bag.parse("rL rM gS")  # then clockwise: Ann


def test_u3_draws_are_weighted_by_what_the_bag_holds():
    s = new().apply_text("take LL")
    outs = dict((str(m), p) for m, p in s.chance_outcomes())
    assert set(outs) == {"got rL", "got yL", "got gL", "got bL", "got kL"}
    assert set(outs.values()) == {Fraction(1, 5)}
    s = s.apply_text("got rL")
    outs = dict((str(m), p) for m, p in s.chance_outcomes())
    assert outs["got rL"] == Fraction(4, 24) and outs["got yL"] == Fraction(5, 24)


def test_u3_a_mix_the_bag_cannot_supply_is_refused():
    s = spec("undercut").new({"players": ["A", "B", "C", "D", "E"]})
    colors = "rygbk"
    for seat in range(4):  # 24 of the 25 smalls go out
        s = s.apply_text("take SSSSSS")
        for i in range(6):
            s = s.apply_text(f"got {colors[(seat + i) % 5]}S")
    assert s.current_player == 4 and s.bag.count_size(Size.SMALL) == 1
    assert texts(s.legal_moves()) == ["take LL", "take LMS", "take MMM"]
    refused(s, "take MMSS", "cannot take MMSS: the bag has only 1 small left, MMSS needs 2 (U-3)")


def test_u3_combos_drawn_at_setup_score_at_once():
    s = new()
    s = play(s, "take LMS", "got rL", "got rM", "got rS",
             "take LL", "got yL", "got gL", "take LL", "got bL", "got kL")
    assert s.phase == "scoring" and s.current_player == 0 and s.round == 1
    assert texts(s.legal_moves()) == ["tree rL rM rS"]


# ---------------------------------------------------------------- U-4


def test_u4_values_start_at_two_and_rise_on_their_own_score_level():
    s = new(level="score")
    assert s.combo_values() == {"TREE": 2, "TRIPLETS": 2, "FOURSOME": 2}
    s = play(s, "tree", "tree", "triplets")
    assert s.scores() == (2 + 3 + 2, 0, 0)
    assert s.combo_values() == {"TREE": 4, "TRIPLETS": 3, "FOURSOME": 2}
    s = play(s, "done", "foursome")
    assert s.scores() == (7, 2, 0) and s.combo_values()["FOURSOME"] == 3


def test_u4_full_level_turn_in_adds_then_raises():
    s = position({"players": P3}, ["rL rM rS", "-", "-"], values=[5, 2, 2])
    s2 = s.apply(s.forced_move())
    assert s2.scores() == (5, 0, 0) and s2.combo_values() == {"TREE": 6, "TRIPLETS": 2, "FOURSOME": 2}
    assert s.describe(s.forced_move()) == "Ann turns in TREE rL rM rS: +5"
    assert s2.bag.count(Piece.parse("rL")) == 5  # pieces went back to the bag


# ---------------------------------------------------------------- U-5


def test_u5_foursome_choices_are_distinct_color_sets():
    s = position({"players": P3}, ["rS yS gS bS kS", "-", "-"])
    moves = s.legal_moves()
    assert len(moves) == 5 and all(m.combo == "FOURSOME" for m in moves)
    assert "foursome rS yS gS bS" in texts(moves)
    assert s.forced_move() is None  # a real choice: the device asks (U-6)


def test_u5_same_multiset_is_one_choice():
    s = position({"players": P3}, ["rS rS rS rS", "-", "-"])
    assert texts(s.legal_moves()) == ["triplets rS rS rS"]
    s = position({"players": P3}, ["rL rL rM rM rS rS", "-", "-"])
    assert texts(s.legal_moves()) == ["tree rL rM rS"]


def test_u5_definitions_and_refusals():
    s = position({"players": P3}, ["rL rM rS yS gS bS yL yL yL", "-", "-"])
    assert texts(s.legal_moves()) == ["foursome rS yS gS bS", "tree rL rM rS", "triplets yL yL yL"]
    refused(s, "tree rL rM yS", "TREE needs one large, one medium and one small of one color (U-5)")
    refused(s, "triplets yL yL rL", "TRIPLETS needs three identical pieces (U-5)")
    refused(s, "foursome rS yS gS gS", "FOURSOME needs four pieces of one size in four different colors (U-5)")
    refused(s, "tree gL gM gS", "Ann does not hold gL gM gS")
    refused(s, "tree", "name the pieces of the TREE")


# ---------------------------------------------------------------- U-6


def test_u6_scoring_in_seat_order_from_the_start_player_and_must_continue():
    # Start Bob; Bob has two combos sharing no piece, Cat one, Ann one.
    s = position({"players": P3, "start": 1}, ["kL kM kS", "rL rM rS yM yM yM", "gS bS yS rS"])
    assert s.current_player == 1 and len(s.legal_moves()) == 2
    refused(s, "done", "Bob still holds a combo and must turn it in (U-6)")
    s = s.apply_text("triplets yM yM yM")
    assert s.current_player == 1  # the TREE left must be turned in too
    assert s.forced_move() == TurnIn("TREE", tuple(Bag.parse("rL rM rS")))
    s = s.apply(s.forced_move())
    assert s.current_player == 2 and str(s.forced_move()) == "foursome rS yS gS bS"
    s = s.apply(s.forced_move())
    assert s.current_player == 0
    s = s.apply(s.forced_move())
    assert s.scores() == (3, 2 + 2, 2) and s.phase == "stacks"


def test_u6_score_level_flow_is_short():
    s = new(level="score", start=2)
    assert s.current_player == 2
    s = play(s, "done", "tree", "done", "done")
    assert s.phase == "auction" and s.scores() == (2, 0, 0)
    refused(s, "tree", "only in the scoring phase (U-6)")


# ---------------------------------------------------------------- U-7


def test_u7_players_minus_one_stacks_of_l_m_s():
    s = position({"players": ["A", "B", "C", "D"]}, ["rL yM", "gL bM", "kL rM", "yL gM"])
    seen = []
    while s.phase == "stacks":
        d = s.pending_draw()
        seen.append(d["stack"] + d["size"])
        s = s.apply(s.legal_moves()[0])
    assert seen == ["AL", "AM", "AS", "BL", "BM", "BS", "CL", "CM", "CS"]
    assert [len(st["pieces"]) for st in s.to_json()["stacks"]] == [3, 3, 3]
    assert s.phase == "bidding" and s.current_player == 0


def bag_only(s, text):
    """The same position with only ``text`` left in the bag (the rest moved to Ann's hand)."""
    keep = Bag.parse(text)
    rest = s.bag.remove(*keep)
    return replace(s, bag=keep, hands=(s.hands[0].add(*rest),) + s.hands[1:])


def test_u7_sizes_missing_from_the_bag_are_skipped_and_empty_stacks_not_formed():
    s = position({"players": ["A", "B", "C", "D"]}, ["rL yM", "gL bM", "kL rM", "yL gM"])
    assert s.pending_draw()["stack"] == "A"
    s = bag_only(s, "kM rS yS")._next_stack_draw()  # no large left: A starts with its medium
    seen = []
    while s.phase == "stacks":
        d = s.pending_draw()
        seen.append(d["stack"] + d["size"])
        s = s.apply(s.legal_moves()[0])
    assert seen == ["AM", "AS", "BS"]  # B has no L or M left; C is not formed
    assert [st["pieces"] for st in s.to_json()["stacks"]] == [["kM", "rS"], ["yS"]]
    assert s.bids == (None, None) and s.bag == Bag()


def empty_bag(s):
    """The same position with every piece of the bag moved to Ann's hand."""
    return replace(s, bag=Bag(), hands=(s.hands[0].add(*s.bag),) + s.hands[1:])


def test_u7_no_stack_formed_start_player_can_only_pass():
    s = position({"players": P3, "start": 2}, NO_COMBO)
    assert s.phase == "stacks" and s.pending_draw() == {"for": "stack", "stack": "A", "size": "L", "left": 1}
    s = replace(empty_bag(s), pending=(), draw_for=None)._next_stack_draw()
    assert s.phase == "bidding" and s.stacks == () and s.current_player == 2
    assert texts(s.legal_moves()) == ["pass"] and str(s.forced_move()) == "pass"
    after = s.apply_text("pass")  # an empty bag gives nothing (U-11)
    assert after.scores() == (0, 0, 1) and after.hand(2) == s.hand(2) and after.round == 2
    assert len(after.piece_census()) == 75


# ---------------------------------------------------------------- U-8


def test_u8_bidding_order_skips_markers_on_the_table():
    s = auction(start=1)
    assert s.current_player == 1  # start player first
    s = s.apply_text("bid A")      # Bob: zero bid
    assert s.current_player == 2
    s = s.apply_text("bid B kS")   # Cat
    assert s.current_player == 0   # Ann: the only marker in hand
    s = s.apply_text("bid B")      # Ann undercuts Cat (U-10): Cat's marker is back
    assert s.current_player == 2   # Bob skipped (marker on A), Cat's turn


# ---------------------------------------------------------------- U-9


def test_u9_lower_means_fewer_pips_or_equal_pips_fewer_pieces():
    s = auction()
    s = s.apply_text("bid A yM")  # Ann: 2 pips / 1 piece
    assert s.bid_to_beat(0) == (2, 1)
    msg = refused(s, "bid A rM yS", "bid 3 pips/2 pieces is not lower than 2 pips/1 piece on stack A (U-9)")
    assert msg.endswith("(U-9)")
    t = auction(hands=["rL yM gS bS", "kL rS yS", "gL bM kS"])
    t = t.apply_text("bid A gS bS")  # Ann: two smalls, 2 pips / 2 pieces
    t2 = t.apply_text("bid A")       # Bob: zero bid is lower than anything
    assert t2.bid_to_beat(0) == (0, 0)
    t = t.apply_text("bid B kL")     # Bob: anything goes on an empty stack
    t = t.apply_text("bid A bM")     # Cat: one medium beats two smalls
    assert t.bid_to_beat(0) == (2, 1)


def test_u9_bids_come_from_the_hand_and_legal_bids_lists_them():
    s = auction()
    refused(s, "bid A kL", "Ann holds no kL (U-9)")
    refused(s, "bid A gS gS", "Ann holds only 1 x gS (U-9)")
    refused(s, "bid C", "there is no stack C (stacks: A, B) (U-7)")
    assert len(s.legal_bids(0)) == 2 ** 4  # every subset of 4 distinct pieces
    s = s.apply_text("bid A yM")
    bids = s.legal_bids(0)  # Bob: kL rM yS, lower than 2 pips/1 piece
    assert texts(bids) == ["bid A", "bid A yS"]
    assert all(b.value < (2, 1) for b in bids)


# ---------------------------------------------------------------- U-10


def test_u10_undercut_bid_returns_at_once():
    s = auction().apply_text("bid A yM gS")
    assert s.hand(0) == Bag.parse("rL bS")
    s = s.apply_text("bid A yS")  # Bob undercuts
    assert s.hand(0) == Bag.parse("rL yM gS bS")
    assert s.to_json()["stacks"][0]["bid"] == {"seat": 1, "pieces": ["yS"], "pips": 1, "count": 1}
    assert 0 not in s.markers_on_table()


# ---------------------------------------------------------------- U-11


def test_u11_cannot_pass_with_a_stack_without_bid():
    s = auction().apply_text("bid A")
    refused(s, "pass L", "cannot pass: stack B has no bid (U-11)")


def test_u11_pass_scores_draws_and_resolves():
    s = auction()
    s = play(s, "bid A yM", "bid A yS", "bid B")  # Ann, Bob undercuts, Cat zero on B
    assert s.current_player == 0
    refused(s, "pass", "name the size to draw: pass S pass M pass L (U-11)")
    bag_before = s.bag
    s = s.apply_text("pass L")
    assert s.scores() == (1, 0, 0) and s.current_player == CHANCE
    # the passer draws from the bag as it is, before the bids go back (U-11)
    assert {str(m) for m, _ in s.chance_outcomes()} == {f"got {p}" for p in bag_before.distinct() if p.size == Size.LARGE}
    s = s.apply_text("got gL")
    assert s.hand(0) == Bag.parse("rL yM gS bS gL")
    assert s.hand(1) == Bag.parse("kL rM yL gM rS")   # stack A; yS went to the bag
    assert s.hand(2) == Bag.parse("gL bM kS bL kM yS")
    assert s.start == 0 and s.round == 2 and s.stacks == () and len(s.piece_census()) == 75


def test_u11_absent_size_cannot_be_named():
    s = auction()
    s = play(s, "bid A", "bid B")
    larges = [p for p in s.bag if p.size == Size.LARGE]
    s = replace(s, bag=s.bag.remove(*larges), hands=(s.hands[0].add(*larges),) + s.hands[1:])
    refused(s, "pass L", "cannot name large: none left in the bag (U-11)")
    assert "pass L" not in texts(s.legal_moves())


def test_u11_score_level_pass_names_the_passer():
    s = play(new(level="score"), "done", "done", "done")
    assert s.current_player == 0 and texts(s.legal_moves()) == ["pass 1", "pass 2", "pass 3"]
    s = s.apply_text("pass 3")
    assert s.scores() == (0, 0, 1) and s.start == 2 and s.phase == "scoring" and s.current_player == 2
    refused(s, "pass 2", "after the scoring phase (U-11)")


# ---------------------------------------------------------------- U-12


def test_u12_end_in_scoring_phase_finishes_the_phase():
    s = new(level="score", start=0)
    s = replace(s, points=(9, 0, 0))
    s = s.apply_text("tree")  # Ann reaches 11
    assert s.end_triggered and not s.is_terminal()
    s = play(s, "done", "foursome", "done", "tree", "done")
    assert s.is_terminal() and s.scores() == (11, 2, 3) and s.outcome().winners == (1,)
    assert s.current_player == TERMINAL and s.legal_moves() == []
    refused(s, "done", "the game is over (U-12)")


def test_u12_end_by_a_pass_plays_one_more_scoring_phase():
    s = new(level="score")
    s = replace(s, points=(0, 9, 0))
    s = play(s, "done", "done", "done", "pass 2")
    assert s.end_triggered and s.phase == "scoring" and s.current_player == 1
    s = play(s, "done", "done", "tree")
    assert not s.is_terminal()
    s = s.apply_text("done")
    o = s.outcome()
    assert o.termination == Termination.SCORE_LIMIT and o.scores == (2, 10, 0) and o.winners == (2,)
    assert o.detail == "lowest score (U-13)"


def test_u12_full_level_end_by_a_pass():
    s = position({"players": P3}, NO_COMBO, scores=[3, 3, 9])
    for p in "yL gM rS bL kM yS".split():
        s = s.apply_text(f"got {p}")
    s = play(s, "bid A", "bid B", "pass S")  # Cat passes
    assert s.end_triggered and s.scores() == (3, 3, 10) and not s.is_terminal()
    s = s.apply_text("got rS")  # the auction resolves; no combo: the last scoring phase is empty
    assert s.is_terminal()
    # Ann: rL yM gS bS + yL gM rS = 13 pips; Bob: kL rM yS + bL kM yS = 12 pips
    assert s.to_json()["hand_pips"][:2] == [13, 12]
    assert s.outcome().winners == (1,) and "fewest pips" in s.outcome().detail


# ---------------------------------------------------------------- U-13


def test_u13_full_level_tiebreaks():
    # Bob and Cat tie on 3; Bob 3 pips in 2 pieces, Cat 3 pips in 1 piece.
    base = {"players": P3}
    s = position(base, ["rL", "yM gS", "kL"], scores=[12, 3, 3])
    assert s.is_terminal()
    assert s.outcome().winners == (2,) and "fewest pieces" in s.outcome().detail
    s = position(base, ["rL", "yM", "kL"], scores=[10, 3, 3])
    assert s.outcome().winners == (1,) and s.outcome().detail == "tie on score broken by fewest pips in hand (U-13)"
    s = position(base, ["rL", "yM", "kM"], scores=[10, 3, 3])
    assert s.outcome().winners == (1, 2) and s.outcome().detail.startswith("shared win")
    assert s.to_json()["tiebreak"] == {"tied": [1, 2], "pips": [2, 2], "pieces": [1, 1]}


def test_u13_score_level_asks_tied_players():
    s = new(level="score")
    s = replace(s, points=(9, 0, 0))
    s = play(s, "tree", "done", "done", "done")  # Ann 11, Bob 0, Cat 0
    assert s.phase == "tiebreak" and s.current_player == 1
    s = s.apply_text("pips 5")
    assert s.current_player == 2
    t = s.apply_text("pips 4")
    assert t.outcome().winners == (2,) and "pips" in t.outcome().detail
    s = s.apply_text("pips 5")  # still tied: piece counts
    assert s.current_player == 1
    refused(s, "pieces 1", "5 pips make 2 to 5 pieces in a hand with no combo left, not 1 (U-14)")
    s = play(s, "pieces 3", "pieces 3")
    assert s.outcome().winners == (1, 2) and s.outcome().detail.startswith("shared win")


# ---------------------------------------------------------------- U-14


def test_u14_score_level_does_not_track_pieces():
    s = new(level="score")
    refused(s, "tree rL rM rS", "does not track pieces", "(U-14)")
    with pytest.raises(IllegalMoveError, match="U-14"):
        s.hand(0)
    assert "bag" not in s.to_json() and "hands" not in s.to_json()


def test_u14_full_level_conserves_the_75_pieces():
    s = auction()
    full = Bag.full_sets(undercut.DEFAULT_COLORS, 5)
    for t in ("bid A yM", "bid A yS", "bid B", "pass M", "got kM"):
        assert s.piece_census() == full
        s = s.apply_text(t)
    assert s.piece_census() == full


# ---------------------------------------------------------------- U-15


def test_u15_physical_bag_same_moves_checked_against_the_bag():
    v = new()
    p = new(bag="physical")
    assert p.to_json()["bag_source"] == "physical" and v.to_json()["bag_source"] == "virtual"
    assert texts(p.apply_text("take LL").legal_moves()) == texts(v.apply_text("take LL").legal_moves())
    s = p.apply_text("take LL")
    for _ in range(5):
        s = s.apply_text("got rL") if s.current_player == CHANCE else s.apply_text("take LL")
    # Ann got rL rL, Bob rL rL, Cat draws: one rL is left
    s = play(s, "take LL", "got rL")
    refused(s, "got rL", "the bag holds no rL now")
    refused(s, "got rM", "this draw is a large piece for Cat, not rM (U-3)")


# ---------------------------------------------------------------- API


def test_setup_validation():
    for bad, frag in (({"players": P3, "level": "x"}, "U-14"), ({"players": P3, "bag": "box"}, "U-15"),
                      ({"players": P3, "start": 3}, "start must be"), ({"players": P3, "start": True}, "start"),
                      ({"players": P3, "colour": []}, "unknown setup key"), ({"players": ["A", "A", "B"]}, "different"),
                      ({}, "U-2")):
        with pytest.raises(SetupError, match=frag):
            spec("undercut").new(bad)


def test_random_start_is_a_uniform_chance_outcome():
    s = new(start="random")
    assert s.current_player == CHANCE and s.to_json()["start_player"] is None
    assert [(str(m), p) for m, p in s.chance_outcomes()] == [(f"start {i}", Fraction(1, 3)) for i in (1, 2, 3)]
    s = s.apply_text("start 2")
    assert s.start == 1 and s.current_player == 1 and s.phase == "setup"
    refused(new(start="random"), "start 4", "no seat 4")


def test_parse_errors_are_invalid_move_errors():
    s = auction()
    for t in ("", "bid Z", "bid", "take LQ", "pips x", "hop", "start 0", "got zz"):
        refused(s, t, err=InvalidMoveError)
    assert s.parse_move("bid a -") == Bid(0, ())
    assert s.parse_move("BID A yS gS") == s.parse_move("bid A gS yS")
    assert str(Pass(size=Size.LARGE)) == "pass L" and str(Pass(seat=0)) == "pass 1" and str(Pass()) == "pass"


def test_wrong_phase_refusals():
    s = auction()
    refused(s, "take LL", "only at setup (U-3)")
    refused(s, "got rL", "no draw is pending")
    refused(s, "tree rL rM rS", "only in the scoring phase (U-6)")
    refused(s, "pips 3", "U-13")
    refused(s, "pass 2", "pass S|M|L (U-11)")
    sc = new(level="score")
    refused(sc, "bid A", "does not track bids")


def test_to_json_and_describe():
    s = auction()
    j = s.to_json()
    for key in ("level", "players", "scores", "combo_values", "start_player", "phase", "active_player",
                "end_triggered", "bag", "bag_count", "hands", "hand_pips", "hand_pieces", "stacks", "draw"):
        assert key in j
    assert j["hands"][0] == ["rL", "yM", "gS", "bS"] and j["hand_pips"] == [7, 6, 6]
    assert j["bag_count"] == 75 - 10 - 6 and j["winners"] is None
    assert s.describe(s.parse_move("bid A yM")) == "Ann bids 2 pips/1 piece on A (yM)"
    t = s.apply_text("bid A yM")
    assert t.describe(t.parse_move("bid A")) == "Bob bids 0 pips/0 pieces on A (marker only), undercuts Ann"
    assert new().describe(Take("LMS")) == "Ann takes LMS"
    assert new(start="random").describe(new(start="random").parse_move("start 3")) == "Cat starts"
    u = play(auction(), "bid A", "bid B")
    assert u.describe(u.parse_move("pass M")) == "Cat passes: +1, draws a medium"
    assert u.apply_text("pass M").describe(u.parse_move("got rM")) == "drew rM for Cat"


def test_doc_examples_replay_to_the_stated_results():
    """The example records in docs/records-undercut.md (the referees' contract)."""
    import re
    from pathlib import Path

    from companion import records

    doc = (Path(__file__).parents[1] / "docs" / "records-undercut.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```jsonl\n(.*?)```", doc, re.S)
    assert len(blocks) == 3
    one = records.replay(records.parse_lines(blocks[0].splitlines())).to_json()
    assert one["scores"] == [10, 2, 0] and one["outcome"]["winners"] == [2]
    assert one["state"]["combo_values"] == {"TREE": 5, "TRIPLETS": 3, "FOURSOME": 2} and one["state"]["round"] == 2
    tb = records.replay(records.parse_lines(blocks[1].splitlines())).to_json()
    assert tb["outcome"] == {"termination": "score_limit", "winners": [3], "scores": [10, 2, 2, 2],
                             "detail": "tie on score and pips broken by fewest pieces in hand (U-13)"}
    assert tb["state"]["combo_values"] == {"TREE": 5, "TRIPLETS": 3, "FOURSOME": 3} and tb["state"]["round"] == 4
    assert tb["state"]["tiebreak"] == {"tied": [1, 2, 3], "pips": [7, 5, 5], "pieces": [None, 3, 2]}
    two = records.replay(records.parse_lines(blocks[2].splitlines())).to_json()["state"]
    assert two["scores"] == [2, 1, 0] and two["bag_count"] == 64 and two["start_player"] == 1
    assert two["hands"] == [["kL", "yM", "gS"], ["yL", "gL", "kS"], ["bL", "gM", "bM", "kM", "yS"]]
    assert two["draw"] == {"for": "stack", "size": "L", "left": 1, "stack": "A"} and two["phase"] == "stacks"
