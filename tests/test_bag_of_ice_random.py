"""Random play (hypothesis): 21 pieces accounted for (bag + drawn, B-1, B-7),
totals only rising, a bust scores 0 (B-4), refused moves change nothing,
every legal move's text round-trips, the game ends at the target (B-6)."""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from companion.engine import pick_chance
from companion.errors import IllegalMoveError, InvalidMoveError
from companion.games.bag_of_ice import new_game

BAD = ["got wL", "size Q", "start 99", "bank now", "got rS", "size L", "face S", "roll", "bank", "broken", "start 1"]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 12), start=st.sampled_from([0, "random", "rolloff"]),
       physical=st.booleans(), target=st.sampled_from([15, 30, 60]), bank_p=st.sampled_from([0.2, 0.4]))
def test_random_games_keep_the_invariants(seed, n, start, physical, target, bank_p):
    rng = random.Random(seed)
    s = new_game({"players": [f"p{i}" for i in range(n)], "start": start, "target": target,
                  "bag": "physical" if physical else "virtual"})
    for _ in range(20000):
        if s.is_terminal():
            break
        assert len(s.bag) + len(s.drawn) == 21
        if rng.random() < 0.15:  # a refused move changes nothing
            before = s.to_json()
            text = rng.choice(BAD)
            try:
                s.apply_text(text)
            except (IllegalMoveError, InvalidMoveError):
                assert s.to_json() == before
        if s.is_chance_node():
            m = pick_chance(s, rng)
            assert m in s.legal_moves()
        else:
            moves = s.legal_moves()
            assert moves
            for mv in moves:
                assert s.parse_move(str(mv)) == mv
            names = [str(mv) for mv in moves]
            if "bank" in names:
                m = moves[names.index("bank")] if rng.random() < bank_p else moves[0]
                if physical and rng.random() < 0.03:
                    m = moves[names.index("broken")]
            else:
                m = rng.choice(moves)
        assert s.parse_move(str(m)) == m
        new = s.apply(m)
        assert all(a <= b for a, b in zip(s.totals, new.totals))  # totals only rise
        if len(new.history) > len(s.history):
            t = new.history[-1]
            if t.bust:
                assert t.score == 0 and new.totals == s.totals
            else:
                assert new.totals[t.seat] - s.totals[t.seat] == t.score == s.turn_score()
            if not new.is_terminal():
                assert len(new.bag) == 21 and new.drawn == ()  # B-7
        s = new
    assert s.is_terminal()
    o = s.outcome()
    assert o.winners[0] == s.history[-1].seat and o.scores[o.winners[0]] >= target
    assert sum(1 for v in o.scores if v >= target) == 1
    j = s.to_json()
    assert [sum(t["score"] for t in h) for h in j["history"]] == list(o.scores)
