"""Solve ``W(m, o)`` for Bag of Ice win advice and write the packed table (B-10).

    pip install -e '.[dev]'                       # numpy: a development tool only
    python -m companion.games.boi_win_build       # about 3 minutes; rewrites boi_win.bin
    python -m companion.games.boi_win_build --max-need 8 --check-only

The recurrence is ``boi_win``'s. A bust or a bank of 0 leaves ``m + o``
unchanged and every other bank lowers it, so need-sums are solved in
increasing order; within one sum ``(m, o)`` is coupled only with ``(o, m)``:
``x = f_mo(1 - y)``, ``y = f_om(1 - x)``, with ``f`` the turn's win chance
from the empty draw as a function of the bust value. ``g(x) = f_mo(1 -
f_om(1 - x))`` is increasing, piecewise linear, with slope below 1: its fixed
point is found by the secant method, to 1e-13.

Checks, printed and failing the run: the Bellman residual of the whole
table (each ``W(m, o)`` against one more turn solved from the table); an
independent small-need solve by plain value iteration over all pairs at
once, with ``boi_win.solve_turn`` (pure Python), for needs up to 6; and
``W(1, 1) = 315/358`` exactly.
"""
from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from itertools import product

from .boi_odds import CAPS, N_STATES, STRIDES
from .boi_win import MAX_NEED, TABLE_FILE, pack_table, solve_turn, unpack_table

W11 = Fraction(315, 358)


class VectorTurn:
    """The turn recurrence over all drawn multisets at once, layer by layer (numpy)."""

    def __init__(self):
        import numpy as np  # a dev extra (the table's build), never on the device
        self.np = np
        cnt = np.array(list(product(*(range(c + 1) for c in CAPS))), dtype=np.int64)  # (N, 12)
        nl, nm, ns = cnt[:, 0:4].sum(1), cnt[:, 4:8].sum(1), cnt[:, 8:12].sum(1)
        lY, lG, lC, lP, mY, mG, mC, mP, sY, sG, sC, sP = cnt.T
        bonus = (10 * ((lY > 0) & (mY > 0) & (sY > 0)) + 5 * ((lG > 0) & (mG > 0) & (sG > 0))
                 + 5 * ((lC > 0) & (mC > 0) & (sC > 0)) + 10 * ((lP > 0) & (mP > 0) & (sP > 0)))
        self.score = 3 * nl + 2 * nm + ns + 4 * np.minimum(np.minimum(nl, nm), ns) + bonus
        self.left = {"L": 5 - nl, "M": 7 - nm, "S": 9 - ns}
        caps = np.array(CAPS)
        self.weight = caps[None, :] - cnt                     # pieces of each kind left
        idx = np.arange(N_STATES)
        self.succ = np.where(self.weight > 0, idx[:, None] + np.array(STRIDES)[None, :], 0)
        total = cnt.sum(1)
        self.layers = [np.nonzero(total == k)[0] for k in range(int(total.max()) + 1)]

    def first(self, m: int, o: int, b: float, W) -> float:
        """The win chance from the empty draw, with bust value ``b`` and ``W`` for smaller sums."""
        np = self.np
        V = np.zeros(N_STATES)
        bank_of = np.array([b] + [1.0 - W[o][m - s] for s in range(1, m)] + [1.0])
        for ids in reversed(self.layers):
            s = self.score[ids]
            wgt, succ = self.weight[ids], self.succ[ids]
            part = wgt * V[succ]
            qL = (part[:, 0:4].sum(1) + b) / self.left["L"][ids]
            qM = (part[:, 4:8].sum(1) + b) / self.left["M"][ids]
            qS = (part[:, 8:12].sum(1) + b) / self.left["S"][ids]
            cont = (qL + qM + qS + np.maximum(qS, qM) + np.maximum(qS, qL) + np.maximum(qM, qL)) / 6.0
            bank = bank_of[np.minimum(s, m)]
            V[ids] = np.where(s >= m, 1.0, np.maximum(bank, cont))
        return float(V[0])


def solve(max_need: int, log=print) -> list[list[float]]:
    turn = VectorTurn()
    W = [[0.0] * (max_need + 1) for _ in range(max_need + 1)]
    start = time.perf_counter()
    for total in range(2, 2 * max_need + 1):
        for m in range(max(1, total - max_need), min(max_need, total - 1) + 1):
            o = total - m
            if o < m:
                continue  # solved with (o, m)

            def g(x: float, m: int = m, o: int = o) -> float:
                y = turn.first(o, m, 1.0 - x, W)
                return turn.first(m, o, 1.0 - y, W)
            x0, g0 = 0.5, g(0.5)
            x1 = g0
            for _ in range(60):
                g1 = g(x1)
                if abs(g1 - x1) < 1e-13:
                    break
                d = (g1 - x1) - (g0 - x0)
                x2 = x1 - (g1 - x1) * (x1 - x0) / d if abs(d) > 1e-15 else g1
                x0, g0, x1 = x1, g1, min(1.0, max(0.0, x2))
            W[m][o] = x1
            W[o][m] = turn.first(o, m, 1.0 - x1, W)
        if total % 20 == 0:
            log(f"need-sum {total}: {time.perf_counter() - start:.0f} s")
    return W


def bellman_residual(W: list[list[float]], max_need: int) -> float:
    turn = VectorTurn()
    worst = 0.0
    for m in range(1, max_need + 1):
        for o in range(1, max_need + 1):
            worst = max(worst, abs(turn.first(m, o, 1.0 - W[o][m], W) - W[m][o]))
    return worst


def value_iteration(max_need: int, rounds: int = 200) -> list[list[float]]:
    """Plain value iteration over all pairs at once with the device's pure-Python turn
    solve: independent of ``solve``'s ordering and secant steps."""
    W = [[0.5] * (max_need + 1) for _ in range(max_need + 1)]

    def lookup(table):
        return lambda m, o: 1.0 if m <= 0 else 0.0 if o <= 0 else table[m][o]
    for _ in range(rounds):
        new = [[0.0] * (max_need + 1) for _ in range(max_need + 1)]
        for m in range(1, max_need + 1):
            for o in range(1, max_need + 1):
                new[m][o] = solve_turn(m, o, W=lookup(W)).V[0]
        delta = max(abs(new[m][o] - W[m][o]) for m in range(1, max_need + 1) for o in range(1, max_need + 1))
        W = new
        if delta < 1e-12:
            break
    return W


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m companion.games.boi_win_build")
    ap.add_argument("--max-need", type=int, default=MAX_NEED)
    ap.add_argument("--check-only", action="store_true", help="solve and check, write nothing")
    args = ap.parse_args(argv)
    W = solve(args.max_need)
    res = bellman_residual(W, args.max_need)
    print(f"Bellman residual: {res:.2e}")
    small = min(6, args.max_need)
    vi = value_iteration(small)
    diff = max(abs(vi[m][o] - W[m][o]) for m in range(1, small + 1) for o in range(1, small + 1))
    print(f"value iteration, needs up to {small}: largest difference {diff:.2e}")
    print(f"W(1, 1) = {W[1][1]!r}, 315/358 = {float(W11)!r}")
    ok = res < 1e-9 and diff < 1e-9 and abs(W[1][1] - float(W11)) < 1e-12
    if not ok:
        print("checks FAILED: nothing written")
        return 1
    if not args.check_only:
        data = pack_table(lambda m, o: W[m][o], args.max_need)
        assert unpack_table(data)[1][1] == round(float(W11) * 65535) / 65535
        TABLE_FILE.write_bytes(data)
        print(f"wrote {TABLE_FILE.name}: {len(data)} bytes ({len(data) / 1024:.2f} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
