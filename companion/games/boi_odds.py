"""Bag of Ice odds (B-9): bust chances and the best stopping policy, exactly.

Within a turn only this turn's drawn pieces matter (B-7 refills the bag each
turn; B-9 ignores the target and the other totals), so a turn is a walk over
the multisets of non-red pieces drawn so far. There are
``prod(count + 1)`` of them over the twelve non-red piece kinds
(``2**4 * (2*3*3*2) * 3**4 = 46,656``). ``table()`` computes, once per
process, the value of each under the best policy by dynamic programming
(a multiset's successors hold one more piece, so one sweep from the full
multisets down to the empty one suffices)::

    V(d) = max(bank(d), C(d))
    C(d) = 1/6 * sum over the six faces of Q(d, size),
           on a two-size face the size with the larger Q (B-9)
    Q(d, s) = sum over non-red pieces p of size s left: n_p / N_s * V(d + p)
              (the red piece of that size: 1 / N_s * 0, a bust)

``advice(drawn)`` reads the table (well under a millisecond). The values are
floats; ``tests/test_bag_of_ice_odds.py`` recomputes them with exact
fractions by an independent expectimax over the engine's own chance nodes.
Bust chances are exact ``Fraction`` values (they only count pieces).

Policy ties (B-9): a size choice whose expectations are equal (within
``EPS``) goes to the lower bust chance, then to the smaller size; a draw
whose expectation equals banking goes to banking.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any, Iterable, Sequence

from ..pieces import Color, DieFace, Piece, Size
from .bag_of_ice import DEFAULT_COLORS, BagOfIceState

__all__ = ["Advice", "SizeOdds", "advice", "advice_for", "table", "bank_score", "KINDS", "CAPS",
           "EPS", "index_of"]

EPS = 1e-9
"""Two expectations closer than this are a tie (B-9 tie rules)."""

ROLES = (1, 2, 3, 4)  # positions in ``colors``: yellow, green, cyan, purple roles (B-1)
# the twelve non-red kinds as (size, role), in table order, with their counts in the bag (B-1)
KINDS: tuple[tuple[Size, int], ...] = tuple(
    (s, r) for s in (Size.LARGE, Size.MEDIUM, Size.SMALL) for r in ROLES)
CAPS: tuple[int, ...] = (1, 1, 1, 1, 1, 2, 2, 1, 2, 2, 2, 2)
SIZE_TOTAL = {Size.LARGE: 5, Size.MEDIUM: 7, Size.SMALL: 9}  # including the red one (B-1)

_STRIDES: list[int] = []
_acc = 1
for _cap in reversed(CAPS):
    _STRIDES.append(_acc)
    _acc *= _cap + 1
STRIDES: tuple[int, ...] = tuple(reversed(_STRIDES))
N_STATES = _acc  # 46,656
_TWO_SIZE = [f for f in DieFace if len(f.sizes) == 2]


def index_of(counts: Sequence[int]) -> int:
    """Table index of a drawn multiset given as counts per ``KINDS``."""
    return sum(c * st for c, st in zip(counts, STRIDES))


def bank_score(counts: Sequence[int]) -> int:
    """What banking scores (B-5), from counts per ``KINDS``.

    Every one-color tree that can be made is made (a one-color tree uses one
    piece of each size, like any tree, so it never costs another tree), and
    as many trees as the sizes allow: min(L, M, S). A tree adds 4 to its
    pieces' 6 pips (10), a green/cyan one 9 (15), a yellow/purple one 14 (20).
    """
    lY, lG, lC, lP, mY, mG, mC, mP, sY, sG, sC, sP = counts
    nl, nm, ns = lY + lG + lC + lP, mY + mG + mC + mP, sY + sG + sC + sP
    bonus = (10 * (lY and mY and sY and 1) + 5 * (lG and mG and sG and 1)
             + 5 * (lC and mC and sC and 1) + 10 * (lP and mP and sP and 1))
    return 3 * nl + 2 * nm + ns + 4 * min(nl, nm, ns) + bonus


def _build() -> list[float]:
    """The DP sweep; see the module docstring."""
    sL0, sL1, sL2, sL3, sM0, sM1, sM2, sM3, sS0, sS1, sS2, sS3 = STRIDES
    V = [0.0] * (N_STATES + STRIDES[0] + 1)  # padding: a full kind's successor is weighted 0
    idx = N_STATES
    for cnt in reversed(list(product(*(range(c + 1) for c in CAPS)))):
        idx -= 1
        lY, lG, lC, lP, mY, mG, mC, mP, sY, sG, sC, sP = cnt
        nl, nm, ns = lY + lG + lC + lP, mY + mG + mC + mP, sY + sG + sC + sP
        qL = ((1 - lY) * V[idx + sL0] + (1 - lG) * V[idx + sL1] + (1 - lC) * V[idx + sL2]
              + (1 - lP) * V[idx + sL3]) / (5 - nl)
        qM = ((1 - mY) * V[idx + sM0] + (2 - mG) * V[idx + sM1] + (2 - mC) * V[idx + sM2]
              + (1 - mP) * V[idx + sM3]) / (7 - nm)
        qS = ((2 - sY) * V[idx + sS0] + (2 - sG) * V[idx + sS1] + (2 - sC) * V[idx + sS2]
              + (2 - sP) * V[idx + sS3]) / (9 - ns)
        cont = (qL + qM + qS + (qS if qS > qM else qM) + (qS if qS > qL else qL)
                + (qM if qM > qL else qL)) / 6.0
        bonus = (10 * (lY and mY and sY and 1) + 5 * (lG and mG and sG and 1)
                 + 5 * (lC and mC and sC and 1) + 10 * (lP and mP and sP and 1))
        bank = 3 * nl + 2 * nm + ns + 4 * (nl if nl < nm and nl < ns else nm if nm < ns else ns) + bonus
        V[idx] = cont if cont > bank else bank
    return V


_TABLE: list[float] | None = None


def table() -> list[float]:
    """The best-policy value of every drawn multiset (index ``index_of``),
    built on first use and kept for the process."""
    global _TABLE
    if _TABLE is None:
        _TABLE = _build()
    return _TABLE


# ---------------------------------------------------------------- queries


@dataclass(frozen=True)
class SizeOdds:
    """Drawing one piece of a size now: ``bust_chance`` = reds left / pieces
    left of that size (exact), ``expected`` = expected final turn score of
    drawing it and then playing the best policy (a bust counts 0)."""

    size: Size
    bust_chance: Fraction
    expected: float
    left: int
    reds: int


@dataclass(frozen=True)
class Advice:
    """What the device can show before a decision (B-9).

    ``bust_chance``: chance that the next draw busts if the player rolls now,
    over the six faces, with the policy's size on two-size faces (exact).
    ``expected_continue``: expected final turn score of rolling now and then
    following the best policy; ``bank_score``: what banking scores now;
    ``hint``: ``"draw"`` only when continuing is expected to score more
    (a tie banks), and ``"bank"`` whenever banking now reaches the target
    (B-9 as amended on 2026-11-23: banking wins the game). ``per_size`` and ``size_choice`` (the policy's size on
    each two-size face) are for the size question after a two-size roll.
    """

    drawn: tuple[Piece, ...]
    bank_score: int
    expected_continue: float
    bust_chance: Fraction
    hint: str
    per_size: dict[Size, SizeOdds]
    size_choice: dict[DieFace, Size]

    @property
    def expected_best(self) -> float:
        """The turn's expected final score under the best policy."""
        return max(float(self.bank_score), self.expected_continue)

    def to_json(self) -> dict:
        return {
            "drawn": [str(p) for p in self.drawn], "bank_score": self.bank_score,
            "expected_continue": self.expected_continue, "bust_chance": str(self.bust_chance),
            "hint": self.hint,
            "per_size": {s.letter: {"bust_chance": str(o.bust_chance), "expected": o.expected,
                                    "left": o.left, "reds": o.reds} for s, o in self.per_size.items()},
            "size_choice": {str(f): s.letter for f, s in self.size_choice.items()},
        }


def counts_of(drawn: Iterable[Piece], colors: Sequence[Color] = DEFAULT_COLORS) -> list[int]:
    """Counts per ``KINDS`` of drawn pieces; ``ValueError`` for a bust-color
    piece, a foreign color or more pieces of a kind than the bag holds (B-1)."""
    role = {c: i for i, c in enumerate(colors)}
    counts = [0] * len(KINDS)
    for p in drawn:
        r = role.get(p.color)
        if r is None or r == 0:
            raise ValueError(f"{p} cannot be among a live turn's drawn pieces (B-1, B-4)")
        k = KINDS.index((p.size, r))
        counts[k] += 1
        if counts[k] > CAPS[k]:
            raise ValueError(f"the bag holds only {CAPS[k]} {p} (B-1)")
    return counts


def choose_size(face: DieFace, odds: dict[Size, SizeOdds]) -> Size:
    """The policy's size on a face (B-9 ties: lower bust chance, then smaller size)."""
    sizes = face.sizes
    if len(sizes) == 1:
        return sizes[0]
    a, b = (odds[s] for s in sizes)
    if abs(a.expected - b.expected) > EPS:
        return a.size if a.expected > b.expected else b.size
    if a.bust_chance != b.bust_chance:
        return a.size if a.bust_chance < b.bust_chance else b.size
    return min(a.size, b.size)


def advice(drawn: Iterable[Piece], colors: Sequence[Color] = DEFAULT_COLORS, *,
           need: int | None = None) -> Advice:
    """The odds for a turn whose drawn pieces are ``drawn`` (B-9).

    What a referee outside the project passes:

    * ``drawn``: this turn's pieces so far (``Piece`` values, e.g.
      ``[Piece.parse("gL"), Piece.parse("yS")]``; empty at a turn's start),
      all of a live turn: no piece of the bust color, at most as many of a
      kind as the 21-piece bag holds (B-1); else ``ValueError`` says which.
    * ``colors``: the game's five colors in role order, the bust color
      first (the setup's ``colors``; default red, yellow, green, cyan, purple, B-1).
    * ``need``: the points the player still needs to reach the target (target
      minus their banked total); when banking now scores at least that much the
      hint is ``"bank"`` (B-9, amended 2026-11-23). Without it the hint looks
      at the turn alone, as B-9 does otherwise. ``advice_for(state)`` passes
      all three from a ``BagOfIceState``.

    It returns an ``Advice`` (``to_json()`` for JSON): ``hint`` (``"draw"`` or
    ``"bank"``), ``bank_score``, ``expected_continue``, the exact
    ``bust_chance`` and, for a two-size face, ``size_choice``. Pure: the same
    answer for the same pieces, about a millisecond after the table is built."""
    drawn = tuple(drawn)
    counts = counts_of(drawn, colors)
    V = table()
    idx = index_of(counts)
    per_size: dict[Size, SizeOdds] = {}
    for size in Size:
        left_total = SIZE_TOTAL[size] - sum(c for c, (s, _) in zip(counts, KINDS) if s == size)
        acc = 0.0
        for k, (s, _) in enumerate(KINDS):
            if s == size and counts[k] < CAPS[k]:
                acc += (CAPS[k] - counts[k]) * V[idx + STRIDES[k]]
        per_size[size] = SizeOdds(size, Fraction(1, left_total), acc / left_total, left_total, 1)
    choice = {f: choose_size(f, per_size) for f in DieFace}
    cont = sum(per_size[choice[f]].expected for f in DieFace) / 6
    bust = sum((per_size[choice[f]].bust_chance for f in DieFace), Fraction(0)) / 6
    bank = bank_score(counts)
    hint = "draw" if cont > bank + EPS else "bank"
    if need is not None and drawn and bank >= need:
        hint = "bank"  # B-9 (amended): banking now reaches the target and wins
    return Advice(drawn, bank, cont, bust, hint, per_size, {f: choice[f] for f in _TWO_SIZE})


_last: tuple[Any, Any] = (None, None)  # the last state asked and its advice


def advice_for(state: BagOfIceState) -> Advice:
    """``advice`` for the active player's turn in an engine state, with what
    they still need to reach the target (B-9's exception for a winning bank).
    The device's screen and the page's projection ask for the same position
    after a press: the second gets the first's advice (one tuple, read at once)."""
    global _last
    last = _last
    if last[0] is state:
        return last[1]
    need = None
    if state.active is not None:
        need = state.target - state.totals[state.active]
    adv = advice(state.drawn, state.colors, need=need)
    _last = (state, adv)
    return adv
