"""Bottoms Up check mode (BU-13): the slowest answer over generated hard cases.

    .venv/bin/python -m bench.bu_check [--quick]

Cases: yellow pieces on yellow over fields of lone pieces (the brief's "six
lone pieces and a yellow large on a yellow small"), white/yellow item-5
pairs, blue choices, a larger field of stacks; for each, a reachable target
found by random legal choices (deep cascades) and unreachable targets (a
perturbed result, a field with a piece the rules cannot keep). ``HARD`` are
the slowest cases found: a reachable field whose shortest cascade has 9
choices (about 110,000 positions to search, so not found within the budget)
and a 15-piece field whose unreachable target cannot be ruled out. Every
search stops at its budget of positions (6,000; the 0.9 s time limit is only
a guard): an unfinished search says
"not found up to N choices" (``complete`` false), never a wrong "yes".
Prints one line per case and the slowest time; ``measure()`` gives
``{"bu_check_slowest_s": ...}`` to bench.
"""
from __future__ import annotations

import json
import random
import sys
import time

from companion.games.bottoms_up import position
from companion.games.bu_check import check

P4 = ["Ann", "Bob", "Cat", "Dan"]
FIELDS = [
    (["yS", "rS", "gS", "bS", "wS", "kS", "gM"], "place yL on A"),
    (["yS", "rS", "gS", "bS", "wS", "kS", "yM"], "place yL on A"),
    (["yS", "rS", "bS", "bM", "wS", "wM", "yM"], "place yL on A"),
    (["wM", "yS", "yM", "bS", "gL", "rM", "kS"], "place yL on A"),
    (["yS yS", "wS", "bM", "gS", "rL", "kM"], "place yM on A"),
    (["bS wS", "yS", "yM", "gM", "rS", "kL"], "place yL on A"),
    (["bL", "kS rS", "wM yS", "wS yM", "wL yS wM", "bS", "rS", "gM bL wL"], "place yL on A"),
]
HARD = [
    ("9-choice cascade", ["yS", "rS", "bS", "bM", "wS", "wM", "yM"], "place yL on A",
     ["wS wS", "yL", "bS", "bM", "yS"]),
    ("15 pieces, A moved away", ["bL", "kS rS", "wM yS", "wS yM", "wL yS wM", "bS", "rS", "gM bL wL"],
     "place yL on A", ["kS rS", "wM yS", "wS yM", "wL yS wM", "bS", "rS", "gM bL wL"]),
]


def random_result(start, rng, max_choices=12):
    s, path = start, []
    while s.pending is not None:
        opts = s.pending.options
        m = opts[-1] if len(path) >= max_choices and s.pending.kind == "yellow" else rng.choice(opts)
        s = s.apply(m)
        path.append(str(m))
    return s, path


def cases(quick: bool):
    rng = random.Random(7)
    fields = FIELDS[:3] if quick else FIELDS
    for field, placement in fields:
        s = position({"players": P4}, field)
        start = s.apply_text(placement)
        for k in range(2 if quick else 4):
            end, path = random_result(start, rng)
            table = [" ".join(map(str, g.pieces)) for g in end.groups]
            yield f"{placement} on {field}: reachable ({len(path)} choices)", s, placement, table
            if len(table) >= 2:
                bad = table[1:] + [table[0] + " kS"]
                yield f"{placement} on {field}: perturbed", s, placement, bad
        yield f"{placement} on {field}: impossible kL", s, placement, ["kL"]
    for name, field, placement, table in HARD:
        yield f"hard: {name}", position({"players": P4}, field), placement, table


def measure(quick: bool = False, verbose: bool = False) -> dict:
    slowest = 0.0
    rows = []
    for name, s, placement, table in cases(quick):
        t0 = time.perf_counter()
        r = check(s, placement, table)
        dt = time.perf_counter() - t0
        slowest = max(slowest, dt)
        rows.append((dt, name, r.reachable, r.complete, r.depth, r.explored))
        if verbose:
            print(f"{dt:7.3f}s  {'yes' if r.reachable else 'no '}  "
                  f"{'complete' if r.complete else f'up to {r.depth} choices'}  nodes={r.explored}  {name}")
    return {"bu_check_slowest_s": round(slowest, 3), "bu_check_cases": len(rows),
            "bu_check_incomplete": sum(1 for r in rows if not r[2] and not r[3])}


if __name__ == "__main__":
    fig = measure(quick="--quick" in sys.argv, verbose=True)
    print(json.dumps(fig))
