"""Random play over both Undercut levels (hypothesis), checking invariants at
every step: U-14 conservation of the 75 pieces, U-4 values and scores only
rising, U-8 the bidder always holds a marker, refused actions change nothing,
and every legal move's text round-trips."""
from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from companion.engine import CHANCE, pick_chance
from companion.errors import IllegalMoveError, InvalidMoveError
from companion.games import spec
from companion.games.undercut import DEFAULT_COLORS, Pass
from companion.pieces import Bag

FULL_SET = Bag.full_sets(DEFAULT_COLORS, 5)
PROBES = ["pass L", "pass S", "pass", "bid A", "bid B kL kL", "bid D", "done", "tree rL rM rS",
          "triplets", "got rL", "got kS", "take LL", "take SSSSSS", "pips 3", "pieces 1",
          "pass 1", "start 1", "foursome rS yS gS bS", "bid A rS"]


def run(seed: int, level: str, n: int, start) -> None:
    rng = random.Random(seed)
    names = ["Ann", "Bob", "Cat", "Dan", "Eve"][:n]
    s = spec("undercut").new({"players": names, "level": level, "start": start})
    for step in range(3000):
        if s.is_terminal():
            break
        j = s.to_json()
        if s.is_chance_node():
            outs = s.chance_outcomes()
            assert outs and sum(p for _, p in outs) == Fraction(1)
            moves = [m for m, _ in outs]
        else:
            moves = s.legal_moves()
            assert moves, j
        for m in moves:  # text round trip of every legal move
            assert s.parse_move(str(m)) == m
        # a probe: legal or refused, and a refusal leaves the state as it was
        probe = rng.choice(PROBES)
        try:
            s.apply_text(probe)
        except (IllegalMoveError, InvalidMoveError):
            assert s.to_json() == j
        if s.is_chance_node():
            m = pick_chance(s, rng)
        else:
            passes = [m for m in moves if isinstance(m, Pass)]
            m = rng.choice(passes) if passes and rng.random() < 0.3 else rng.choice(moves)
        t = s.apply(m)
        assert s.to_json() == j  # apply never changes the old state
        # scores and combo values only rise (U-4, U-11)
        assert all(a <= b for a, b in zip(s.scores(), t.scores()))
        assert all(a <= b for a, b in zip(s.values, t.values))
        if level == "full":
            assert t.piece_census() == FULL_SET  # U-14
            if t.phase == "bidding":
                assert t.current_player not in t.markers_on_table()  # U-8
                assert len(t.stacks) <= n - 1  # U-7
        s = t
    assert s.is_terminal(), "a random game must end"
    o = s.outcome()
    assert max(o.scores) >= 10 and o.winners
    assert all(o.scores[w] == min(o.scores) for w in o.winners)  # U-13


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(3, 5), start=st.sampled_from([0, 1, "random"]))
def test_random_play_full_level(seed, n, start):
    run(seed, "full", n, start)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(3, 5), start=st.sampled_from([0, 2, "random"]))
def test_random_play_score_level(seed, n, start):
    run(seed, "score", n, start)
