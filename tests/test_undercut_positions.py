"""Every Undercut position the rules reach can be built from outside:
auction-phase and stack-draw positions (``auction_position``), the U-9 bid
comparison alone (``compare_bids``), and ``from_json(s.to_json()) == s``."""
from __future__ import annotations

import random

import pytest

from companion.engine import pick_chance
from companion.errors import IllegalMoveError, InvalidMoveError, SetupError
from companion.games import spec
from companion.games.undercut import (
    DEFAULT_COLORS, Bid, Kind, Pass, Phase, auction_position, compare_bids, from_json, position,
)
from companion.pieces import Bag, Piece, Size
from companion.games.undercut_moves import find_combos

FULL_SET = Bag.full_sets(DEFAULT_COLORS, 5)
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]
P3 = NAMES[:3]
READ_BACK = (Phase.SCORING, Phase.STACKS, Phase.BIDDING, Phase.PASS)


# ---------------------------------------------------------------- U-9 alone


@pytest.mark.parametrize("a, b, sign", [
    ("yM", "rS rS", -1),        # 2 pips: 1 piece is lower than 2 pieces
    ("rS rS", "yM", 1),
    ("kL", "rS rS", 1),         # 3 pips > 2 pips, whatever the pieces
    ("rS", "bS", 0),            # colors do not count
    ("", "-", 0),               # the zero bid, written two ways
    ("", "rS", -1),
    ("gM rS", "kL", 1),         # equal pips: more pieces is higher
])
def test_compare_bids_U9(a, b, sign):
    assert compare_bids(a, b) == sign
    assert compare_bids(b, a) == -sign
    assert compare_bids([Piece.parse(w) for w in a.split() if w != "-"],
                        [Piece.parse(w) for w in b.split() if w != "-"]) == sign


def test_compare_bids_refuses_what_is_no_bid():
    with pytest.raises(InvalidMoveError):
        compare_bids("qL", "rS")


def test_compare_bids_says_what_the_engine_accepts_as_an_undercut_U9():
    rng = random.Random(9)
    pieces = list(FULL_SET.distinct())
    tried = 0
    for _ in range(300):
        a = rng.sample(pieces, rng.randrange(0, 4))
        b = rng.sample(pieces, rng.randrange(0, 4))
        try:
            s = auction_position({"players": P3, "start": 0}, ["", " ".join(map(str, a)), ""],
                                 ["kL kM kS", "kL kM kS"], [(0, "bid A " + " ".join(map(str, b)))])
        except SetupError:
            continue  # a hand with a combo, too many of a piece: not a position
        tried += 1  # Bob holds a; Ann's b is on stack A
        accepted = s.is_legal(Bid(0, tuple(a)))
        assert accepted == (compare_bids(a, b) < 0)
    assert tried > 200


# ---------------------------------------------------------------- round trips from play


def positions(seed: int, n: int):
    """Every position of a random full-table game (virtual bag)."""
    rng = random.Random(seed)
    s = spec("undercut").new({"players": NAMES[:n], "start": rng.randrange(n)})
    for _ in range(4000):
        yield s
        if s.is_terminal():
            return
        if s.is_chance_node():
            m = pick_chance(s, rng)
        else:
            moves = s.legal_moves()
            passes = [m for m in moves if isinstance(m, Pass)]
            m = rng.choice(passes) if passes and rng.random() < 0.3 else rng.choice(moves)
        s = s.apply(m)


def rebuilt(s):
    """``s`` built again with ``auction_position`` from what the table shows."""
    j = s.to_json()
    setup = {"players": j["players"], "start": j["start_player"]}
    bids = [(st["bid"]["seat"], " ".join(["bid", st["name"], *st["bid"]["pieces"]]))
            for st in j["stacks"] if st["bid"] is not None]
    return auction_position(setup, [" ".join(h) for h in j["hands"]], [" ".join(st["pieces"]) for st in j["stacks"]],
                            bids, j["active_player"] if s.phase == Phase.BIDDING else None,
                            scores=j["scores"], values=list(j["combo_values"].values()), round=j["round"])


@pytest.mark.parametrize("seed, n", [(1, 3), (2, 4), (3, 5), (4, 5), (5, 3)])
def test_to_json_reads_back_into_the_same_position_at_every_step(seed, n):
    seen = set()
    for s in positions(seed, n):
        if s.phase not in READ_BACK:
            continue
        seen.add(s.phase)
        j = s.to_json()
        back = from_json(j)
        assert back == s, (j, back.to_json())
        assert back.to_json() == j
        if s.phase in (Phase.STACKS, Phase.BIDDING):
            assert rebuilt(s) == s
    assert seen == set(READ_BACK)


def test_a_stack_draw_position_is_a_chance_node_that_draws_the_next_piece_U7():
    s = auction_position({"players": P3, "start": 2}, ["rS", "", "yM"], ["kL kM kS", "gL"])
    assert s.decision().kind == Kind.STACK_DRAW and s.current_player == -1
    assert s.pending_draw() == {"for": "stack", "size": "M", "left": 1, "stack": "B"}
    assert {str(m) for m, _ in s.chance_outcomes()} == {"got rM", "got yM", "got gM", "got bM", "got kM"}
    # two stacks of three for three players: the bidding starts at the start player (U-8)
    t = s.apply_text("got gM").apply_text("got gS")
    assert t.phase == Phase.BIDDING and t.current_player == 2
    assert t == auction_position({"players": P3, "start": 2}, ["rS", "", "yM"], ["kL kM kS", "gL gM gS"])
    assert from_json(s.to_json()) == s and from_json(t.to_json()) == t


def test_a_size_the_bag_has_none_of_is_skipped_and_only_then_U7():
    # every small but one in the hands: stack A takes the last, stack B has none
    smalls = [f"{c}S" for c in "rygbk" for _ in range(5)]
    hands = [" ".join(smalls[:8]), " ".join(smalls[8:16]), " ".join(smalls[16:24])]
    try:
        auction_position({"players": P3, "start": 0}, hands, ["rL rM kS", "yL yM"])
    except SetupError as e:
        assert "combo" in str(e)  # eight smalls of five colors hold a FOURSOME: not an auction
    hands = ["rS rS yS yS gS gS", "bS bS kS kS rL", "yL"]
    s = auction_position({"players": P3, "start": 0}, hands, ["rL rM"])
    assert s.pending_draw()["size"] == "S"  # the bag still has smalls: stack A draws one
    with pytest.raises(SetupError, match="does not come next"):
        auction_position({"players": P3, "start": 0}, hands, ["rL rM", "yL yM yS"])


# ---------------------------------------------------------------- refusals


def test_a_bid_not_lower_than_the_bid_it_undercuts_is_refused_U9():
    with pytest.raises(SetupError, match=r"bid 2 \(1: bid A rS rS\).*not lower than 2 pips/1 piece on stack A \(U-9\)"):
        # the hands as they would be: Ann's yM back with her (U-10), Bob's rS rS on stack A
        auction_position({"players": P3, "start": 0}, ["yM", "", ""], ["kL kM kS", "gL gM gS"],
                         [(0, "bid A yM"), (1, "bid A rS rS")])


def test_a_marker_used_twice_is_refused_U8():
    with pytest.raises(SetupError, match="Ann's marker is already on stack A"):
        auction_position({"players": P3, "start": 0}, ["", "", ""], ["kL kM kS", "gL gM gS"],
                         [(0, "bid A"), (0, "bid B")])
    with pytest.raises(SetupError, match="Bob's marker is on stack B: .* skipped \\(U-8\\)"):
        auction_position({"players": P3, "start": 0}, ["", "", ""], ["kL kM kS", "gL gM gS"],
                         [(0, "bid A"), (1, "bid B")], to_act=1)


def test_more_than_the_75_pieces_is_refused_U1():
    big = " ".join(str(p) for p in FULL_SET)
    with pytest.raises(SetupError, match="76 pieces .* the game has 75 \\(U-1\\)"):
        auction_position({"players": P3, "start": 0}, [big, "rS", ""], [])
    with pytest.raises(SetupError, match="6 x rL: the game has 5 of each piece"):
        auction_position({"players": P3, "start": 0}, ["rL rL rL", "rL rL", ""], ["rL rM"])
    with pytest.raises(SetupError, match="not one of this game's colors"):
        auction_position({"players": P3, "start": 0}, ["wL", "", ""], [])


def test_other_impossible_auctions_are_refused():
    setup = {"players": P3, "start": 0}
    with pytest.raises(SetupError, match="holds a combo .*tree rL rM rS.* \\(U-6\\)"):
        auction_position(setup, ["rL rM rS", "", ""], [])
    with pytest.raises(SetupError, match="no auction follows \\(U-12\\)"):
        auction_position(setup, ["", "", ""], [], scores=[10, 0, 0])
    with pytest.raises(SetupError, match="3 players bid for 2 stacks at most"):
        auction_position(setup, ["", "", ""], ["kL kM kS", "gL gM gS", "rL rM rS"])
    with pytest.raises(SetupError, match="bids come after"):
        auction_position(setup, ["", "", ""], ["kL kM kS"], [(0, "bid A")])
    # Ann's undercut yM is back in her hand (U-10): a hand given without it cannot be
    with pytest.raises(SetupError, match=r"bid 1 \(0: bid A yM\): Ann holds no yM"):
        auction_position(setup, ["", "", ""], ["kL kM kS", "gL gM gS"], [(0, "bid A yM"), (1, "bid A rS")])
    assert auction_position(setup, ["yM", "", ""], ["kL kM kS", "gL gM gS"],
                            [(0, "bid A yM"), (1, "bid A rS")]).current_player == 2
    with pytest.raises(SetupError, match="not a bid"):
        auction_position(setup, ["", "", ""], ["kL kM kS", "gL gM gS"], [(0, "pass L")])


def test_from_json_refuses_a_position_that_does_not_add_up_U14():
    s = auction_position({"players": P3, "start": 1}, ["rS", "yM", ""], ["kL kM kS", "gL gM gS"], [(1, "bid A")])
    j = s.to_json()
    assert from_json(j) == s
    bad = {**j, "bag": {**j["bag"], "rL": j["bag"]["rL"] - 1}}
    with pytest.raises(SetupError, match="bag is"):
        from_json(bad)
    with pytest.raises(SetupError, match="marker is on stack A"):
        from_json({**j, "active_player": 1})
    with pytest.raises(SetupError, match="phases scoring, stacks, bidding and pass"):
        from_json({**j, "phase": "over"})
    with pytest.raises(SetupError, match="not an Undercut position"):
        from_json({k: v for k, v in j.items() if k != "hands"})
    scoring = position({"players": P3, "start": 0}, ["rL rM rS", "yL yM yS", ""])
    assert from_json(scoring.to_json()) == scoring
    with pytest.raises(SetupError, match="Ann turns in before Bob and still holds a combo"):
        from_json({**scoring.to_json(), "active_player": 1})


# ---------------------------------------------------------------- random play from built positions


def random_auction(rng: random.Random):
    """A random auction position built from outside: combo-free hands, stacks
    drawn from what is left, then some legal bids; with the bids as placed."""
    n = rng.choice([3, 4, 5])
    setup = {"players": NAMES[:n], "start": rng.randrange(n)}
    bag = FULL_SET
    hands = []
    for _ in range(n):
        h = Bag()
        for _ in range(rng.randrange(0, 9)):
            p = rng.choice(list(bag.distinct()))
            if not find_combos(h.add(p)):
                h, bag = h.add(p), bag.remove(p)
        hands.append(h)
    stacks = []
    for _ in range(n - 1 if rng.random() < 0.7 else rng.randrange(0, n)):
        st = []
        for size in (Size.LARGE, Size.MEDIUM, Size.SMALL):
            if bag.count_size(size):
                p = rng.choice([q for q in bag.distinct() if q.size == size])
                st.append(p)
                bag = bag.remove(p)
        stacks.append(" ".join(map(str, st)))
    if stacks and rng.random() < 0.3:  # stop in the middle of the last stack: a stack draw
        last = stacks[-1].split()
        stacks[-1] = " ".join(last[:rng.randrange(1, len(last) + 1)])
    texts = [" ".join(map(str, h)) for h in hands]
    scores = [rng.randrange(0, 10) for _ in range(n)]
    values = [rng.randrange(2, 8) for _ in range(3)]
    s = auction_position(setup, texts, stacks, scores=scores, values=values, round=rng.randrange(1, 6))
    placed = []
    while s.phase == Phase.BIDDING and rng.random() < 0.8:
        bids = [m for m in s.legal_moves() if isinstance(m, Bid)]
        if not bids:
            break
        m = rng.choice(bids)
        placed.append((s.current_player, str(m)))
        s = s.apply(m)
    return setup, stacks, placed, s, scores, values


KINDS: set = set()


@pytest.mark.parametrize("seed", range(40))
def test_random_play_from_built_auction_positions_meets_no_error_the_rules_do_not_call_for(seed):
    rng = random.Random(seed)
    setup, stacks, placed, s, scores, values = random_auction(rng)
    KINDS.add(s.decision().kind)
    # built again from the bids as placed, and read back from its JSON: the same position
    if s.phase == Phase.BIDDING:
        again = auction_position(setup, [" ".join(map(str, h)) for h in s.hands], stacks, placed,
                                 scores=scores, values=values, round=s.round)
        assert again == s
    assert from_json(s.to_json()) == s
    for _ in range(3000):
        assert s.piece_census() == FULL_SET  # U-14
        if s.phase in READ_BACK:
            assert from_json(s.to_json()) == s
        if s.is_terminal():
            break
        if s.is_chance_node():
            m = pick_chance(s, rng)
        else:
            moves = s.legal_moves()
            assert moves  # a player to act always has a move (U-8, U-11)
            m = rng.choice(moves)
            assert s.parse_move(str(m)) == m
        s = s.apply(m)  # any error here is one the rules do not call for
    assert s.is_terminal()
    with pytest.raises(IllegalMoveError, match="U-12"):
        s.apply_text("pass L")


def test_the_random_positions_are_of_every_auction_kind():
    for seed in range(40):
        KINDS.add(random_auction(random.Random(seed))[3].decision().kind)
    assert {Kind.BID, Kind.STACK_DRAW} <= KINDS
