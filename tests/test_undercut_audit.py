"""Undercut audit: edge cases of rulings U-3..U-13 that the per-ruling tests
in ``test_undercut.py`` leave open (combo choices that change what is left,
the rules' own bid-order examples, fewer stacks than players - 1, the pass
draw before the bids go back, the end triggered in a full-level scoring
phase, tiebreaks read after the last scoring phase). Every test asserts exact
scores, values, hands or messages."""
from __future__ import annotations

from dataclasses import replace

import pytest

from companion.engine import CHANCE, TERMINAL
from companion.errors import IllegalMoveError
from companion.games import spec
from companion.games.undercut import Bid, position
from companion.pieces import Bag, Piece, Size

P3 = ["Ann", "Bob", "Cat"]
P4 = ["Ann", "Bob", "Cat", "Dan"]
NO_COMBO = ["rL yM gS bS", "kL rM yS", "gL bM kS"]


def play(s, *texts):
    for t in texts:
        s = s.apply_text(t)
    return s


def refused(s, text, *fragments):
    before = s.to_json()
    with pytest.raises(IllegalMoveError) as ei:
        s.apply_text(text)
    for f in fragments:
        assert f in str(ei.value), str(ei.value)
    assert s.to_json() == before
    return str(ei.value)


def texts(moves):
    return sorted(str(m) for m in moves)


def draw_stacks(s, *stacks):
    for st in stacks:
        for p in st.split():
            s = s.apply_text(f"got {p}")
    return s


# ---------------------------------------------------------------- U-3


def test_u3_setup_combo_is_scored_before_the_first_auction():
    s = spec("undercut").new({"players": P3, "start": 2})
    s = play(s, "take LMS", "got rL", "got rM", "got rS",      # Cat: a TREE
             "take LL", "got yL", "got gL", "take MMM", "got bM", "got kM", "got yM")
    assert s.phase == "scoring" and s.current_player == 2
    s = s.apply(s.forced_move())
    assert s.scores() == (0, 0, 2) and s.combo_values()["TREE"] == 3
    assert s.hand(2) == Bag() and s.bag.count(Piece.parse("rL")) == 5
    assert s.phase == "stacks" and s.pending_draw()["stack"] == "A"


# ---------------------------------------------------------------- U-5, U-6


def test_u6_the_choice_decides_what_is_left_to_turn_in():
    """rS x3 + yS gS bS kS: TRIPLETS first leaves a FOURSOME (must follow);
    a FOURSOME with rS first leaves rS rS kS (nothing)."""
    s = position({"players": P3}, ["rS rS rS yS gS bS kS", "-", "-"])
    assert texts(s.legal_moves()) == sorted(
        ["triplets rS rS rS", "foursome rS yS gS bS", "foursome rS yS gS kS", "foursome rS yS bS kS",
         "foursome rS gS bS kS", "foursome yS gS bS kS"])
    assert s.forced_move() is None
    a = s.apply_text("triplets rS rS rS")
    assert a.current_player == 0 and str(a.forced_move()) == "foursome yS gS bS kS"
    a = a.apply(a.forced_move())
    assert a.scores() == (4, 0, 0) and a.combo_values() == {"TREE": 2, "TRIPLETS": 3, "FOURSOME": 3}
    assert a.hand(0) == Bag() and a.phase == "stacks"
    b = s.apply_text("foursome gS rS bS yS")  # any order names the same turn-in
    assert b.scores() == (2, 0, 0) and b.combo_values() == {"TREE": 2, "TRIPLETS": 2, "FOURSOME": 3}
    assert b.hand(0) == Bag.parse("rS rS kS") and b.phase == "stacks"


def test_u6_tree_or_triplets_sharing_a_piece():
    s = position({"players": P3}, ["rL rM rS rS rS", "-", "-"])
    assert texts(s.legal_moves()) == ["tree rL rM rS", "triplets rS rS rS"]
    t = s.apply_text("tree rL rM rS")
    assert t.hand(0) == Bag.parse("rS rS") and t.scores() == (2, 0, 0) and t.phase == "stacks"
    u = s.apply_text("triplets rS rS rS")
    assert u.hand(0) == Bag.parse("rL rM") and u.combo_values()["TRIPLETS"] == 3 and u.combo_values()["TREE"] == 2


def test_u4_u6_two_trees_each_raise_the_value():
    s = position({"players": P3}, ["-", "rL rM rS yL yM yS", "-"], values=[4, 2, 2])
    assert s.current_player == 1 and texts(s.legal_moves()) == ["tree rL rM rS", "tree yL yM yS"]
    s = s.apply_text("tree yL yM yS")
    assert s.current_player == 1 and str(s.forced_move()) == "tree rL rM rS"
    s = s.apply(s.forced_move())
    assert s.scores() == (0, 4 + 5, 0) and s.combo_values()["TREE"] == 6


def test_u6_refusals_in_scoring_name_the_due_turn_ins():
    s = position({"players": P3}, ["kL kM kS", "-", "-"])
    msg = refused(s, "got yL", "no draw is pending", "Ann must turn in a combo (U-6): tree kL kM kS")
    assert msg.startswith("got yL is a draw")
    refused(s, "bid A", "bids are placed only in the auction (U-8)", "tree kL kM kS")
    refused(s, "tree rL rM rS", "Ann does not hold rL rM rS")


# ---------------------------------------------------------------- U-7, U-8, U-11


def test_u7_u11_new_round_stacks_and_bidding_start_with_the_passer():
    s = position({"players": P3}, NO_COMBO)
    s = draw_stacks(s, "yL gM rS", "bL kM yS")
    s = play(s, "bid A", "bid B", "pass M")  # Cat passes
    s = s.apply_text("got kM")
    assert s.start == 2 and s.round == 2 and s.scores() == (0, 0, 1)
    assert s.hand(0) == Bag.parse("rL yL yM gM rS gS bS") and s.hand(1) == Bag.parse("kL bL rM kM yS yS")
    assert s.hand(2) == Bag.parse("gL bM kM kS")
    assert s.phase == "stacks" and s.pending_draw() == {"for": "stack", "stack": "A", "size": "L", "left": 1}
    s = draw_stacks(s, "rL rM yS", "gL yM kS")
    assert s.phase == "bidding" and s.current_player == 2  # the passer bids first (U-8)
    assert len(s.legal_moves()) == 2 * 2 ** 4  # Cat: every subset of gL bM kM kS, on A or on B
    refused(s, "pass S", "cannot pass: stack A has no bid (U-11)")


def four_player_short_bag():
    """4 players; only kM and rS left in the bag: one stack (kM rS) is formed (U-7)."""
    s = position({"players": P4}, ["rL yM", "gL bM", "kL rM", "yL gM"])
    keep = Bag.parse("kM rS")
    rest = s.bag.remove(*keep)
    s = replace(s, bag=keep, hands=(s.hands[0].add(*rest),) + s.hands[1:])._next_stack_draw()
    return draw_stacks(s, "kM rS")


def test_u8_u11_fewer_stacks_leave_more_markers_and_an_empty_bag_pass_gives_nothing():
    s = four_player_short_bag()
    assert s.phase == "bidding" and len(s.stacks) == 1 and s.bag == Bag()
    s = s.apply_text("bid A")  # Ann, zero
    assert s.current_player == 1 and s.to_json()["markers_in_hand"] == [1, 2, 3]
    assert texts(s.legal_moves()) == ["pass"]  # nothing is lower than zero; every stack has a bid
    refused(s, "pass S", "cannot name small: none left in the bag (U-11)")
    t = s.apply_text("pass")
    assert t.scores() == (0, 1, 0, 0) and t.start == 1 and t.round == 2
    assert t.hand(1) == Bag.parse("gL bM")  # the empty bag gave nothing
    assert t.hand(0).count(Piece.parse("kM")) == s.hand(0).count(Piece.parse("kM")) + 1
    assert len(t.piece_census()) == 75


def test_u11_the_pass_draw_comes_before_the_bids_go_back():
    s = position({"players": P3}, NO_COMBO)
    s = draw_stacks(s, "yL gM rS", "bL kM yS")
    s = play(s, "bid A rL", "bid B")  # Ann bids her large on A
    larges = [p for p in s.bag if p.size == Size.LARGE]
    s = replace(s, bag=s.bag.remove(*larges), hands=s.hands[:2] + (s.hands[2].add(*larges),))
    assert s.bag.count_size(Size.LARGE) == 0 and s.current_player == 2
    # rL will go back to the bag, but only after the passer's draw
    refused(s, "pass L", "cannot name large: none left in the bag (U-11)")
    assert "pass L" not in texts(s.legal_moves())
    t = s.apply_text("pass S")
    assert all(m.piece.size == Size.SMALL for m, _ in t.chance_outcomes())
    t = t.apply_text("got kS")
    assert t.bag.count(Piece.parse("rL")) == 1 and t.bag.count_size(Size.LARGE) == 1


# ---------------------------------------------------------------- U-9


def test_u9_the_rules_own_examples_in_one_auction():
    s = position({"players": P3}, ["rL yM gS bS", "kL rS yS", "gL bM kS"])
    s = draw_stacks(s, "yL gM rS", "bL kM yS")
    s = s.apply_text("bid A rL")                    # Ann: 3 pips / 1 piece
    s = s.apply_text("bid A rS yS")                 # Bob: two smalls are less than one large
    assert s.hand(0) == Bag.parse("rL yM gS bS") and s.bid_to_beat(0) == (2, 2)
    s = s.apply_text("bid A bM")                    # Cat: one medium is less than two smalls
    assert s.hand(1) == Bag.parse("kL rS yS") and s.current_player == 0
    refused(s, "bid A gS bS", "bid 2 pips/2 pieces is not lower than 2 pips/1 piece on stack A (U-9)")
    refused(s, "bid A yM", "bid 2 pips/1 piece is not lower than 2 pips/1 piece on stack A (U-9)")
    s = s.apply_text("bid A gS")                    # Ann: 1 pip
    assert s.hand(2) == Bag.parse("gL bM kS") and s.current_player == 1
    refused(s, "bid A yS", "bid 1 pip/1 piece is not lower than 1 pip/1 piece on stack A (U-9)")
    s = s.apply_text("bid A")                       # Bob: zero
    assert s.hand(0) == Bag.parse("rL yM gS bS") and s.bid_to_beat(0) == (0, 0)
    assert s.current_player == 2 and s.legal_bids(0) == []   # nothing undercuts a zero bid
    refused(s, "bid A", "bid 0 pips/0 pieces is not lower than 0 pips/0 pieces on stack A (U-9)")
    assert s.legal_bids(1)[0] == Bid(1, ())          # any bid may go on a stack with no bid


# ---------------------------------------------------------------- U-12, U-13


def test_u12_full_level_end_triggered_in_a_scoring_phase_finishes_it_without_an_auction():
    s = position({"players": P3, "start": 1}, ["kL kM kS", "rL rM rS", "yS gS bS kS"], scores=[0, 9, 0])
    assert not s.end_triggered and s.current_player == 1
    s = s.apply(s.forced_move())                     # Bob: TREE +2 = 11, the end is triggered
    assert s.end_triggered and not s.is_terminal() and s.current_player == 2
    s = s.apply(s.forced_move())                     # Cat: FOURSOME +2, the phase goes on
    s = s.apply(s.forced_move())                     # Ann: TREE +3
    assert s.is_terminal() and s.current_player == TERMINAL and s.phase == "over"
    assert s.scores() == (3, 11, 2) and s.combo_values() == {"TREE": 4, "TRIPLETS": 2, "FOURSOME": 3}
    assert s.stacks == () and len(s.bag) == 75 and s.round == 1   # no auction was drawn
    assert s.outcome().winners == (2,) and s.outcome().detail == "lowest score (U-13)"
    refused(s, "bid A", "the game is over (U-12)")


def test_u13_full_level_tiebreak_reads_the_hands_after_the_last_scoring_phase():
    # Bob holds 7 pips before the phase, 1 after his TREE; Cat holds 2.
    s = position({"players": P3}, ["rL rM rS", "yL yM yS gS", "kM"], scores=[9, 3, 6])
    s = s.apply(s.forced_move())                     # Ann 11: the end is triggered
    s = s.apply(s.forced_move())                     # Bob: TREE +3 = 6, tied with Cat
    assert s.is_terminal() and s.scores() == (11, 6, 6)
    assert s.outcome().winners == (1,)
    assert s.outcome().detail == "tie on score broken by fewest pips in hand (U-13)"
    assert s.to_json()["tiebreak"] == {"tied": [1, 2], "pips": [1, 2], "pieces": [1, 1]}


def test_u12_a_pass_at_nine_ends_after_one_more_full_scoring_phase():
    s = position({"players": P3}, NO_COMBO, scores=[9, 0, 0])
    s = draw_stacks(s, "rL rM rS", "bL kM yS")
    s = play(s, "bid A gS", "bid B", "bid A")       # Cat undercuts Ann with a zero bid
    assert s.current_player == 0 and s.hand(0) == Bag.parse("rL yM gS bS")
    s = s.apply_text("pass M")                      # Ann: 10, the end is triggered by a pass
    assert s.end_triggered and s.scores() == (10, 0, 0) and s.current_player == CHANCE
    s = s.apply_text("got bM")
    # the auction is resolved, then one more full scoring phase from the passer
    assert s.phase == "scoring" and s.start == 0 and s.round == 2 and s.current_player == 2
    assert s.hand(2) == Bag.parse("gL rL bM rM rS kS")
    assert str(s.forced_move()) == "tree rL rM rS"
    s = s.apply(s.forced_move())
    assert s.is_terminal() and s.scores() == (10, 0, 2) and s.stacks == ()
    assert s.outcome().winners == (1,) and s.outcome().detail == "lowest score (U-13)"


def test_describe_a_bid_while_the_stacks_are_being_drawn():
    s = position({"players": P3}, NO_COMBO)
    s = s.apply_text("got yL")
    assert s.phase == "stacks" and s.describe(Bid(0, ())) == "Ann bids 0 pips/0 pieces on A (marker only)"


def test_u14_score_level_wrong_moves_say_what_is_awaited():
    s = spec("undercut").new({"players": P3, "level": "score", "start": 1})
    refused(s, "take LMS", "the score-sheet level has no setup moves",
            "now Bob is scoring: tree, triplets, foursome or done (U-6)")
    refused(s, "pass 2", "a pass is entered after the scoring phase (U-11); now Bob is scoring")
    s = s.apply_text("done")
    refused(s, "bid A", "does not track bids", "now Cat is scoring")
