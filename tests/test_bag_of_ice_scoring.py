"""Bag of Ice scoring (B-5): ``best_arrangement`` against a brute force over
every multiset of non-red pieces the 21-piece bag allows (B-1), and the
rules' own example (32)."""
from __future__ import annotations

from functools import lru_cache
from itertools import product

import pytest

from companion.games.bag_of_ice import best_arrangement, tree_points
from companion.games.boi_odds import KINDS, bank_score
from companion.games.tools import bag_of_ice_bag
from companion.pieces import Piece, Size, parse_pieces

# B-1, written out here independently of the preset: the non-red pieces and their counts
NON_RED = {"yL": 1, "gL": 1, "cL": 1, "pL": 1,
           "yM": 1, "gM": 2, "cM": 2, "pM": 1,
           "yS": 2, "gS": 2, "cS": 2, "pS": 2}
MONO = {"y": 20, "p": 20, "g": 15, "c": 15}  # B-5


def test_b1_the_non_red_pieces_are_the_preset_minus_one_red_of_each_size():
    """B-1: 21 pieces; the bust color has one of each size."""
    bag = bag_of_ice_bag()
    assert len(bag) == 21
    expected = {Piece.parse(k): n for k, n in NON_RED.items()}
    expected.update({Piece.parse("rL"): 1, Piece.parse("rM"): 1, Piece.parse("rS"): 1})
    assert dict(bag.items()) == expected


LOOSE_PIPS = {"L": 3, "M": 2, "S": 1}


def brute_force(pieces: list[str]) -> int:
    """Every way to form disjoint trees: each large is loose or tops a tree
    with any available medium and small; the rest are loose."""
    larges = tuple(sorted(p for p in pieces if p[1] == "L"))
    mediums = tuple(sorted(p for p in pieces if p[1] == "M"))
    smalls = tuple(sorted(p for p in pieces if p[1] == "S"))
    return _go(larges, mediums, smalls)


@lru_cache(maxsize=None)
def _go(larges: tuple[str, ...], meds: tuple[str, ...], sms: tuple[str, ...]) -> int:
    """Best total of these pieces (sorted tuples), trying every tree for the first large."""
    if not larges:
        return sum(LOOSE_PIPS[p[1]] for p in meds + sms)
    L, rest_l = larges[0], larges[1:]
    best = 3 + _go(rest_l, meds, sms)  # this large stays loose
    for mi in sorted({meds.index(m) for m in meds}):
        for si in sorted({sms.index(s) for s in sms}):
            m, s = meds[mi], sms[si]
            value = MONO.get(L[0], 10) if L[0] == m[0] == s[0] else 10
            rest = _go(rest_l, meds[:mi] + meds[mi + 1:], sms[:si] + sms[si + 1:])
            best = max(best, value + rest)
    return best


def all_multisets():
    kinds = list(NON_RED)
    for counts in product(*(range(NON_RED[k] + 1) for k in kinds)):
        yield counts, [k for k, n in zip(kinds, counts) for _ in range(n)]


def test_b5_best_arrangement_equals_brute_force_on_every_multiset():
    """B-5 on all 46,656 multisets: the score is the brute-force optimum, the
    trees are real disjoint trees of the drawn pieces with correct points,
    every piece is in one tree or loose, and the odds module's bank score agrees."""
    kinds_index = {f"{'?ygcp'[r]}{s.letter}": i for i, (s, r) in enumerate(KINDS)}
    seen = 0
    for counts, names in all_multisets():
        pieces = [Piece.parse(n) for n in names]
        score, trees, loose = best_arrangement(pieces)
        assert score == brute_force(names), names
        used = [p for t in trees for p in t.pieces] + list(loose)
        assert sorted(used) == sorted(pieces)
        for t in trees:
            assert [p.size for p in t.pieces] == [Size.LARGE, Size.MEDIUM, Size.SMALL]
            assert t.points == tree_points(t.pieces)
        assert score == sum(t.points for t in trees) + sum(p.pips for p in loose)
        odds_counts = [0] * 12
        for n in names:
            odds_counts[kinds_index[n]] += 1
        assert bank_score(odds_counts) == score
        seen += 1
    assert seen == 2**4 * 2 * 3 * 3 * 2 * 3**4 == 46656


def test_b5_rules_example_scores_32():
    """The rules' example: a yellow tree (20), a mixed tree (10), two spare smalls (2) = 32;
    swapping the purple small for the yellow or cyan small changes nothing."""
    for text in ("yL yM yS gL cM pS yS cS", "yL yM yS gL cM yS pS cS", "yL yM yS gL cM cS yS pS"):
        arr = best_arrangement(parse_pieces(text))
        assert arr.score == 32
        assert sorted(t.points for t in arr.trees) == [10, 20]
        assert [t.kind for t in arr.trees] == ["yellow", "mixed"]
        assert sorted(p.size for p in arr.loose) == [Size.SMALL, Size.SMALL]


@pytest.mark.parametrize("text, score, kinds", [
    ("", 0, []),
    ("pL pM pS", 20, ["purple"]),                      # B-5: purple tree 20
    ("gL gM gS", 15, ["green"]),                       # cyan/green tree 15
    ("cL cM cS", 15, ["cyan"]),
    ("yL yM gS", 10, ["mixed"]),                       # the ruling's own mixed example
    ("yL yM yS pL pM pS", 40, ["purple", "yellow"]),
    ("yL gM gS gL yM yS", 35, ["yellow", "green"]),    # regroup into one-color trees
    ("gL gM cM gS", 17, ["green"]),                    # tree + a loose medium
    ("yL gL cL pL yS", 13, []),                        # no medium: no tree, pips only
])
def test_b5_small_cases(text, score, kinds):
    arr = best_arrangement(parse_pieces(text))
    assert arr.score == score
    assert sorted(t.kind for t in arr.trees) == sorted(kinds)


def test_b5_custom_colors_keep_the_roles():
    """B-1: the colors are a setting; values follow the roles (2nd and 5th color 20, 3rd and 4th 15)."""
    from companion.pieces import Color
    colors = (Color.BLACK, Color.WHITE, Color.BLUE, Color.GREEN, Color.ORANGE)
    assert best_arrangement(parse_pieces("wL wM wS"), colors).score == 20
    assert best_arrangement(parse_pieces("bL bM bS"), colors).score == 15
    assert best_arrangement(parse_pieces("oL oM oS gL gM gS"), colors).score == 35
