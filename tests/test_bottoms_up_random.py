"""Random play (hypothesis): conservation, no return from destruction, every
pass terminates, refused moves change nothing, texts round-trip."""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from companion.engine import pick_chance
from companion.errors import IllegalMoveError
from companion.games.bottoms_up import new_game


def census(s):
    return len(s.stash) + sum(len(g.slots) for g in s.groups) + len(s.destroyed)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 6), per=st.sampled_from([1, 2]),
       physical=st.booleans())
def test_random_games_keep_the_invariants(seed, n, per, physical):
    rng = random.Random(seed)
    s = new_game({"players": [f"p{i}" for i in range(n)], "stash": per,
                  "secret": "physical" if physical else "device"})
    total = 18 * per
    destroyed_before = 0
    choices_this_turn = 0
    for _ in range(3000):
        if s.is_terminal():
            break
        assert census(s) == total
        assert len(s.destroyed) >= destroyed_before  # destroyed pieces never return
        destroyed_before = len(s.destroyed)
        if s.is_chance_node():
            s = s.apply(pick_chance(s, rng))
            continue
        moves = s.legal_moves()
        assert moves
        m = rng.choice(moves)
        assert s.parse_move(str(m)) == m
        if rng.random() < 0.1:  # a refused move changes nothing
            before = s.to_json()
            try:
                s.apply_text("place rS on ZZ")
            except IllegalMoveError:
                pass
            assert s.to_json() == before
        # end cascades sometimes: the pass must terminate once open space is chosen
        if s.pending is not None and s.pending.kind == "yellow" and choices_this_turn > 6:
            m = s.pending.options[-1]
        s = s.apply(m)
        choices_this_turn = choices_this_turn + 1 if s.pending is not None else 0
    assert s.is_terminal()
    assert len(s.stash) == 0 and census(s) == total
    o = s.outcome()
    assert o is not None and max(o.scores) == o.scores[o.winners[0]]
