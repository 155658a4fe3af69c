"""Bag of Ice odds (B-9): table build time and per-query time.

    .venv/bin/python -m bench.boi_odds [--quick]

Builds the best-policy table (46,656 drawn multisets) a few times in this
process and reports the best and the median build; then times ``advice()``
on random reachable drawn sets (every size of turn) and reports the median,
the 99th percentile and the slowest query. ``measure()`` gives
``{"boi_table_s": ..., "boi_query_ms": ...}`` (median build, median query)
to ``python -m bench``. Goals: build under 1 s, a query under 1 ms.
"""
from __future__ import annotations

import json
import random
import statistics
import sys
import time

from companion.games import boi_odds
from companion.games.tools import bag_of_ice_bag


def random_drawn(rng: random.Random) -> list:
    """A random live turn: a random number of non-red pieces from the bag."""
    pool = [p for p in bag_of_ice_bag() if p.color.value != "red"]
    rng.shuffle(pool)
    return pool[: rng.randint(0, len(pool))]


def measure(quick: bool = False, verbose: bool = False) -> dict:
    builds = []
    for _ in range(2 if quick else 5):
        t0 = time.perf_counter()
        boi_odds._build()
        builds.append(time.perf_counter() - t0)
    boi_odds.table()  # the cached table the queries read
    rng = random.Random(1)
    sets = [random_drawn(rng) for _ in range(500 if quick else 5000)]
    times = []
    for d in sets:
        t0 = time.perf_counter()
        boi_odds.advice(d)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    fig = {
        "boi_table_s": round(statistics.median(builds), 4),
        "boi_query_ms": round(statistics.median(times), 4),
    }
    if verbose:
        print(f"table: {boi_odds.N_STATES} drawn multisets; build best {min(builds):.3f} s, "
              f"median {statistics.median(builds):.3f} s over {len(builds)} builds (goal < 1 s)")
        print(f"advice(): {len(times)} queries; median {statistics.median(times):.4f} ms, "
              f"p99 {times[int(len(times) * 0.99)]:.4f} ms, slowest {times[-1]:.4f} ms (goal < 1 ms)")
        empty = boi_odds.advice(())
        print(f"empty turn: expected best {empty.expected_best:.4f}, bust chance {empty.bust_chance} "
              f"({float(empty.bust_chance):.4f}), hint {empty.hint}")
    return fig


def measure_win(quick: bool = False, verbose: bool = False) -> dict:
    """B-10: the per-turn solve for the win (plain Python, as on the device) at the needs
    of real two-player turns, and the packaged table's size. ``boi_win_turn_ms`` is the
    99th percentile of the solve (goal <= 100 ms here), ``boi_win_table_kb`` the table
    (goal <= 20)."""
    from companion.games import boi_win
    boi_win._states()  # the drawn multisets, built once per process like the odds table
    rng = random.Random(2)
    pairs = [(rng.randint(1, 100), rng.randint(1, 100)) for _ in range(20 if quick else 100)]
    pairs += [(60, 60), (100, 100), (100, 1)]  # a game's first turn, the largest needs
    times = []
    for m, o in pairs:
        t0 = time.perf_counter()
        boi_win.solve_turn(m, o)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    kb = boi_win.TABLE_FILE.stat().st_size / 1024
    if verbose:
        print(f"win solve: {len(times)} turns; median {statistics.median(times):.1f} ms, p99 {p99:.1f} ms, "
              f"slowest {times[-1]:.1f} ms (goal <= 100 ms); table {kb:.2f} KiB (goal <= 20)")
    return {"boi_win_turn_ms": round(p99, 2), "boi_win_table_kb": round(kb, 2)}


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(json.dumps(measure(quick=quick, verbose=True) | measure_win(quick=quick, verbose=True)))
