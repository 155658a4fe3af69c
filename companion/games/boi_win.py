"""Bag of Ice: advice that plays to win the game, not the turn (B-10).

With two players the chance of winning can be computed exactly, as Neller and
Presser did for the dice game Pig ("Optimal Play of the Dice Game Pig", UMAP
Journal 25(1), 2004). A position is ``(m, o, d)``: the points the mover still
needs, the points the opponent still needs, and the pieces drawn this turn.
``W(m, o)`` is the mover's chance of winning at the start of a turn when both
players play to maximize their own chance. Within a turn, with ``b = 1 -
W(o, m)`` (a bust, or a bank of nothing, passes the turn and the opponent
then needs ``o`` against ``m``)::

    V(d) = 1                                   if bank(d) >= m   (banking wins, B-6)
    V(d) = max(B(d), C(d))                     otherwise
    B(d) = 1 - W(o, m - bank(d))               (B(empty) = b: a bank of 0, B-4)
    C(d) = 1/6 * sum over the six faces of Q(d, size),
           on a two-size face the size with the larger Q
    Q(d, s) = (sum over non-red pieces p of size s left: n_p * V(d + p) + 1 * b) / N_s

``W`` for needs up to ``MAX_NEED`` = 100 is solved once by
``python -m companion.games.boi_win_build`` (numpy, a development tool) and
shipped as a packed table (``boi_win.bin``, 16-bit values, versioned, with a
CRC). On the device a turn is solved from the table in plain Python
(``solve_turn``, a sweep over the 46,656 drawn multisets of ``boi_odds``);
every decision of that turn is then a lookup (``win_advice``).

Ties between banking and drawing, and between the two sizes of a face, go to
B-9's choice (B-10). The advice applies to two players and a target of at
most ``MAX_NEED`` (``applies``); otherwise B-9's advice is the one to give.
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from pathlib import Path
from typing import Callable

from ..pieces import DieFace, Size
from .bag_of_ice import BagOfIceState
from .boi_odds import CAPS, EPS, N_STATES, STRIDES, Advice, advice_for, bank_score, counts_of, index_of

__all__ = ["MAX_NEED", "TABLE_FILE", "WinAdvice", "applies", "table", "w", "solve_turn", "win_advice",
           "pack_table", "unpack_table", "TableError"]

MAX_NEED = 100
TABLE_FILE = Path(__file__).with_name("boi_win.bin")
MAGIC = b"PTCW"
VERSION = 1
SCALE = 65535


class TableError(ValueError):
    """The packed win table is missing, damaged or of another version."""


def pack_table(W: Callable[[int, int], float], max_need: int = MAX_NEED) -> bytes:
    """``W(m, o)`` for needs 1..``max_need`` as the packed file: magic, version (u8), max
    need (u16), then the values row by row (m, then o) as u16 (value x 65535, rounded),
    then the CRC-32 of all that (u32), all little-endian."""
    body = MAGIC + struct.pack("<BH", VERSION, max_need)
    body += struct.pack(f"<{max_need * max_need}H", *(
        max(0, min(SCALE, round(W(m, o) * SCALE))) for m in range(1, max_need + 1)
        for o in range(1, max_need + 1)))
    return body + struct.pack("<I", zlib.crc32(body))


def unpack_table(data: bytes) -> list[list[float]]:
    """``[m][o]`` for needs 0..max (row and column 0 unused) from ``pack_table``'s bytes."""
    if len(data) < 11 or data[:4] != MAGIC or zlib.crc32(data[:-4]) != struct.unpack("<I", data[-4:])[0]:
        raise TableError("the Bag of Ice win table is damaged (checksum)")
    version, n = struct.unpack_from("<BH", data, 4)
    if version != VERSION or len(data) != 7 + 2 * n * n + 4:
        raise TableError(f"the Bag of Ice win table has version {version}, size {len(data)}: not this version's")
    vals = struct.unpack_from(f"<{n * n}H", data, 7)
    rows = [[0.0] * (n + 1)]
    for m in range(n):
        rows.append([0.0] + [v / SCALE for v in vals[m * n:(m + 1) * n]])
    return rows


@lru_cache(maxsize=1)
def table() -> list[list[float]]:
    """The packaged ``W`` table, read once."""
    try:
        return unpack_table(TABLE_FILE.read_bytes())
    except OSError as e:
        raise TableError(f"the Bag of Ice win table cannot be read: {e}") from None


def w(m: int, o: int) -> float:
    """``W(m, o)``: 1 when the mover needs nothing more, 0 when the opponent does."""
    if m <= 0:
        return 1.0
    if o <= 0:
        return 0.0
    return table()[m][o]


# ---------------------------------------------------------------- one turn

@lru_cache(maxsize=1)
def _states() -> list[tuple[int, int, int, int, int, tuple[int, ...]]]:
    """Per drawn multiset, in index order: (bank score, larges, mediums, smalls, index, counts)."""
    out = []
    for idx, cnt in enumerate(product(*(range(c + 1) for c in CAPS))):
        nl, nm, ns = sum(cnt[0:4]), sum(cnt[4:8]), sum(cnt[8:12])
        out.append((bank_score(cnt), nl, nm, ns, idx, cnt))
    return out


@dataclass(frozen=True)
class TurnSolve:
    """A turn solved for the win: ``V[index]`` per drawn multiset (``boi_odds.index_of``)."""

    m: int
    o: int
    bust_value: float
    V: list[float]
    bank_of: list[float]  # the win chance of banking a turn score s < m

    def bank_value(self, counts: list[int]) -> float:
        score = _states()[index_of(counts)][0]
        return 1.0 if score >= self.m else self.bank_of[score]

    def size_values(self, counts: list[int]) -> dict[Size, float]:
        """The win chance of drawing a piece of each size now (then playing on for the win)."""
        idx = index_of(counts)
        V, b = self.V, self.bust_value
        sL0, sL1, sL2, sL3, sM0, sM1, sM2, sM3, sS0, sS1, sS2, sS3 = STRIDES
        lY, lG, lC, lP, mY, mG, mC, mP, sY, sG, sC, sP = counts
        nl, nm, ns = lY + lG + lC + lP, mY + mG + mC + mP, sY + sG + sC + sP
        return {
            Size.LARGE: ((1 - lY) * V[idx + sL0] + (1 - lG) * V[idx + sL1] + (1 - lC) * V[idx + sL2]
                         + (1 - lP) * V[idx + sL3] + b) / (5 - nl),
            Size.MEDIUM: ((1 - mY) * V[idx + sM0] + (2 - mG) * V[idx + sM1] + (2 - mC) * V[idx + sM2]
                          + (1 - mP) * V[idx + sM3] + b) / (7 - nm),
            Size.SMALL: ((2 - sY) * V[idx + sS0] + (2 - sG) * V[idx + sS1] + (2 - sC) * V[idx + sS2]
                         + (2 - sP) * V[idx + sS3] + b) / (9 - ns),
        }


def solve_turn(m: int, o: int, W: Callable[[int, int], float] = w) -> TurnSolve:
    """The win chance of every drawn multiset of a turn where the mover needs ``m`` and
    the opponent ``o`` (the sweep of the module docstring; plain Python)."""
    b = 1.0 - W(o, m)
    bank_of = [1.0 - W(o, m - s) if 0 < s < m else 1.0 for s in range(m + 1)]
    bank_of[0] = b
    sL0, sL1, sL2, sL3, sM0, sM1, sM2, sM3, sS0, sS1, sS2, sS3 = STRIDES
    V = [0.0] * (N_STATES + STRIDES[0] + 1)  # padding: a full kind's successor is weighted 0
    for score, nl, nm, ns, idx, cnt in reversed(_states()):
        if score >= m:
            V[idx] = 1.0
            continue
        lY, lG, lC, lP, mY, mG, mC, mP, sY, sG, sC, sP = cnt
        qL = ((1 - lY) * V[idx + sL0] + (1 - lG) * V[idx + sL1] + (1 - lC) * V[idx + sL2]
              + (1 - lP) * V[idx + sL3] + b) / (5 - nl)
        qM = ((1 - mY) * V[idx + sM0] + (2 - mG) * V[idx + sM1] + (2 - mC) * V[idx + sM2]
              + (1 - mP) * V[idx + sM3] + b) / (7 - nm)
        qS = ((2 - sY) * V[idx + sS0] + (2 - sG) * V[idx + sS1] + (2 - sC) * V[idx + sS2]
              + (2 - sP) * V[idx + sS3] + b) / (9 - ns)
        cont = (qL + qM + qS + (qS if qS > qM else qM) + (qS if qS > qL else qL)
                + (qM if qM > qL else qL)) / 6.0
        bank = bank_of[score]
        V[idx] = cont if cont > bank else bank
    return TurnSolve(m, o, b, V, bank_of[:m])


_SOLVED: dict[tuple[int, int], TurnSolve] = {}
"""The turns solved so far, by (need, opponent's need): a few, the oldest dropped."""


def _solve(m: int, o: int) -> TurnSolve:
    """``solve_turn`` once per (m, o); the app's worker thread fills it, the screen reads it."""
    solved = _SOLVED.get((m, o))
    if solved is None:
        solved = solve_turn(m, o)
        while len(_SOLVED) >= 4:
            _SOLVED.pop(next(iter(_SOLVED)), None)
        _SOLVED[(m, o)] = solved
    return solved


# ---------------------------------------------------------------- advice

def applies(state: BagOfIceState) -> bool:
    """B-10 applies: two players and a target of at most ``MAX_NEED``."""
    return state.n == 2 and state.target <= MAX_NEED


def needs(state: BagOfIceState) -> tuple[int, int]:
    """(what the active player still needs, what the other needs)."""
    assert state.active is not None
    me = state.active
    return state.target - state.totals[me], state.target - state.totals[1 - me]


def is_solved(state: BagOfIceState) -> bool:
    """The active player's turn is solved already (its advice is a lookup)."""
    return needs(state) in _SOLVED


def prepare(state: BagOfIceState) -> None:
    """Solve the active player's turn now (the app does this after the turn's first frame)."""
    _solve(*needs(state))


@dataclass(frozen=True)
class WinAdvice:
    """The win chances before a decision (B-10), beside B-9's figures (``score``).

    ``bank``: the chance of winning if the player banks now; ``draw``: if they
    roll and play on for the win; ``hint``: ``"bank"`` or ``"draw"`` (ties go to
    B-9's hint); ``per_size``: the chance of winning by drawing a piece of each
    size now; ``size_choice``: the size to take on each two-size face (ties to
    B-9's size)."""

    bank: float
    draw: float
    hint: str
    per_size: dict[Size, float]
    size_choice: dict[DieFace, Size]
    score: Advice

    def to_json(self) -> dict:
        return {"bank": self.bank, "draw": self.draw, "hint": self.hint,
                "per_size": {s.letter: v for s, v in self.per_size.items()},
                "size_choice": {str(f): s.letter for f, s in self.size_choice.items()},
                "score": self.score.to_json()}


def win_advice(state: BagOfIceState) -> WinAdvice:
    """The advice for the win at the active player's decision (``applies`` must hold)."""
    if not applies(state):
        raise ValueError("the win advice needs two players and a target of at most 100 (B-10)")
    solve = _solve(*needs(state))
    counts = counts_of(state.drawn, state.colors)
    score = advice_for(state)
    per = solve.size_values(counts)
    choice: dict[DieFace, Size] = {}
    for face in DieFace:
        if len(face.sizes) == 2:
            a, c = face.sizes
            if abs(per[a] - per[c]) <= EPS:
                choice[face] = score.size_choice[face]
            else:
                choice[face] = a if per[a] > per[c] else c
    draw = sum(per[choice.get(f, f.sizes[0])] for f in DieFace) / 6.0
    bank = solve.bank_value(counts)
    if abs(draw - bank) <= EPS:
        hint = score.hint
    else:
        hint = "draw" if draw > bank else "bank"
    return WinAdvice(bank, draw, hint, per, choice, score)
