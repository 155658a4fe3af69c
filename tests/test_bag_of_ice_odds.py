"""Bag of Ice odds (B-9): the DP table against an independent exact
expectimax over the engine's own chance nodes (Fractions, memo), per-size
bust chances, tie rules, and the query API."""
from __future__ import annotations

from fractions import Fraction

import pytest

from companion.engine import CHANCE
from companion.games import boi_odds
from companion.games.bag_of_ice import Bank, Roll, position
from companion.pieces import DieFace, Size, parse_pieces

SOLO = {"players": ["Solo"], "target": 10_000}  # B-9: the target plays no part


class Expectimax:
    """Exact best-policy values by walking the engine: ``decide`` = max(bank,
    roll), chance nodes = sum of p * value, ``size`` = max over the sizes, a
    bust (the turn ended without banking) = 0."""

    def __init__(self) -> None:
        self.memo: dict = {}

    def key(self, s):
        return (s.phase, tuple(sorted(s.drawn)), s.face, s.size)

    def bank(self, s) -> Fraction:
        after = s.apply(Bank())
        return Fraction(after.history[-1].score)

    def value(self, s) -> Fraction:
        k = self.key(s)
        if k not in self.memo:
            self.memo[k] = self._value(s)
        return self.memo[k]

    def _value(self, s) -> Fraction:
        if s.phase == "decide":
            return max(self.bank(s), self.value(s.apply(Roll())))
        if s.phase == "size":
            return max(self.value(s.apply(m)) for m in s.legal_moves())
        assert s.current_player == CHANCE
        total = Fraction(0)
        for m, p in s.chance_outcomes():
            nxt = s.apply(m)
            if len(nxt.history) > len(s.history):  # the turn ended: a bust (B-4)
                assert nxt.history[-1].bust and nxt.history[-1].score == 0
                continue
            total += p * self.value(nxt)
        return total

    def draw_value(self, s, size: Size) -> Fraction:
        """Expected final turn score of drawing ``size`` now (via a face showing it)."""
        face = {Size.SMALL: DieFace.S, Size.MEDIUM: DieFace.M, Size.LARGE: DieFace.L}[size]
        from companion.games.bag_of_ice import Face
        return self.value(s.apply(Roll()).apply(Face(face)))


POSITIONS = [
    "yL yM yS gL gM cM cS pS",
    "gL cL gM cM gM gS gS cS",
    "yL pL yM pM gM yS pS cS cS",
    "cL cM cM cS gS gS yS",
    "yL gL cL pL yM gM cM",
]


@pytest.mark.parametrize("drawn", POSITIONS)
def test_b9_table_matches_exact_expectimax(drawn):
    """B-9: expected final turn score of continuing (best policy, bust = 0,
    pieces already drawn included) vs banking, the per-size expectations, the
    policy's size choice on two-size faces and the bust chance over the die,
    all equal to an exact recomputation through the engine."""
    s = position(SOLO, drawn)
    ex = Expectimax()
    adv = boi_odds.advice(s.drawn)
    bank = ex.bank(s)
    cont = ex.value(s.apply(Roll()))
    assert adv.bank_score == bank
    assert adv.expected_continue == pytest.approx(float(cont), abs=1e-9)
    assert adv.expected_best == pytest.approx(float(max(bank, cont)), abs=1e-9)
    assert adv.hint == ("draw" if cont > bank else "bank")
    per = {size: ex.draw_value(s, size) for size in Size}
    for size in Size:
        assert adv.per_size[size].expected == pytest.approx(float(per[size]), abs=1e-9)
        # B-9: reds of that size left / pieces of that size left
        left = s.bag.count_size(size)
        assert adv.per_size[size].bust_chance == Fraction(1, left)
    bust = Fraction(0)
    for face in DieFace:
        sizes = face.sizes
        if len(sizes) == 1:
            chosen = sizes[0]
        else:
            a, b = sizes
            if per[a] != per[b]:
                chosen = a if per[a] > per[b] else b
            else:  # tie: the lower bust chance, then the smaller size
                chosen = min(sizes, key=lambda z: (Fraction(1, s.bag.count_size(z)), z))
            assert adv.size_choice[face] == chosen
        bust += Fraction(1, 6) * Fraction(1, s.bag.count_size(chosen))
    assert adv.bust_chance == bust


def test_b9_table_matches_exact_expectimax_on_many_small_positions():
    """B-9 on every position with 12+ pieces drawn that holds all four larges
    (one shared exact memo): the table value is the exact best value."""
    from itertools import product
    ex = Expectimax()
    kinds = ["yM", "gM", "cM", "pM", "yS", "gS", "cS", "pS"]
    caps = [1, 2, 2, 1, 2, 2, 2, 2]
    checked = 0
    for counts in product(*(range(c + 1) for c in caps)):
        if sum(counts) < 8:
            continue
        drawn = "yL gL cL pL " + " ".join(k for k, n in zip(kinds, counts) for _ in range(n))
        s = position(SOLO, drawn)
        exact = ex.value(s)
        assert boi_odds.advice(s.drawn).expected_best == pytest.approx(float(exact), abs=1e-9), drawn
        checked += 1
    assert checked > 50


def test_b9_empty_turn_figures():
    """B-9 before the first draw: bank scores 0 (B-4), a draw is worth more; per-size bust
    chances are 1/9, 1/7, 1/5 (one red of each size among 9 smalls, 7 mediums, 5 larges)."""
    adv = boi_odds.advice(())
    assert adv.bank_score == 0 and adv.hint == "draw" and adv.expected_continue > 0
    assert [adv.per_size[z].bust_chance for z in (Size.SMALL, Size.MEDIUM, Size.LARGE)] == [
        Fraction(1, 9), Fraction(1, 7), Fraction(1, 5)]
    # the die: S, M, L, then the policy's sizes on S/M, S/L, M/L
    expected = Fraction(1, 6) * sum(Fraction(1, {Size.SMALL: 9, Size.MEDIUM: 7, Size.LARGE: 5}[z]) for z in (
        Size.SMALL, Size.MEDIUM, Size.LARGE, adv.size_choice[DieFace.SM], adv.size_choice[DieFace.SL],
        adv.size_choice[DieFace.ML]))
    assert adv.bust_chance == expected


def test_b9_nothing_left_but_reds_banks():
    """B-9 ties go to banking: with only the reds left, a draw is sure to bust."""
    everything = "yL gL cL pL yM gM gM cM cM pM yS yS gS gS cS cS pS pS"
    adv = boi_odds.advice(parse_pieces(everything))
    assert adv.expected_continue == 0 and adv.hint == "bank"
    assert all(o.bust_chance == 1 for o in adv.per_size.values())
    assert adv.bank_score == 20 + 15 + 15 + 20 + 2 + 2 + 4  # four one-color trees + loose


def test_b9_tie_rules_of_choose_size():
    """B-9: equal expectations go to the lower bust chance, then the smaller size."""
    S, M = Size.SMALL, Size.MEDIUM
    odds = {S: boi_odds.SizeOdds(S, Fraction(1, 3), 5.0, 3, 1), M: boi_odds.SizeOdds(M, Fraction(1, 4), 5.0, 4, 1)}
    assert boi_odds.choose_size(DieFace.SM, odds) == M
    odds[M] = boi_odds.SizeOdds(M, Fraction(1, 3), 5.0, 3, 1)
    assert boi_odds.choose_size(DieFace.SM, odds) == S
    odds[S] = boi_odds.SizeOdds(S, Fraction(1, 3), 4.0, 3, 1)
    assert boi_odds.choose_size(DieFace.SM, odds) == M


def test_b9_advice_for_a_state_and_custom_colors():
    from companion.games.boi_odds import advice_for
    setup = {**SOLO, "colors": ["black", "white", "blue", "green", "orange"]}
    s = position(setup, "wL wM wS")
    a = advice_for(s)
    assert a.bank_score == 20  # the yellow role (B-1)
    assert a.expected_continue == boi_odds.advice(parse_pieces("yL yM yS")).expected_continue
    with pytest.raises(ValueError):
        boi_odds.advice(parse_pieces("rS"))  # a live turn has no red piece
    with pytest.raises(ValueError):
        boi_odds.advice(parse_pieces("yM yM"))  # the bag holds one yM


def test_the_hint_is_bank_when_banking_reaches_the_target():
    # B-9, amended 2026-11-23: the turn alone says "draw" (one small is worth 1, going
    # on is worth more), but banking that 1 point reaches the target and wins the game.
    from companion.games.bag_of_ice import position

    st = position({"players": ["Ann", "Bob"], "target": 60}, drawn="yS", totals=[59, 10], active=0)
    assert boi_odds.advice(st.drawn).hint == "draw"
    assert boi_odds.advice_for(st).hint == "bank"
    assert boi_odds.advice(st.drawn, need=1).hint == "bank"
    assert boi_odds.advice(st.drawn, need=2).hint == "draw"  # one point short: B-9 as before
    # nothing drawn yet: banking 0 never wins, the hint is the turn's
    fresh = position({"players": ["Ann", "Bob"], "target": 60}, drawn="", totals=[59, 10], active=0)
    assert boi_odds.advice_for(fresh).hint == "draw"
