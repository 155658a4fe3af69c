"""Check mode against a plain exhaustive search on random fields (BU-13, issue 15).

    python -m bench.bu_check_stress [--seed N] [--positions N]

An independent look at the answers ``bu_check.check`` gives, apart from the
claim set of whole games (bench/bu_check.py): random fields of 3 to 9
stacks of 1 to 4 pieces, yellow, white, blue and black often (the pieces the
search reasons about), 2 to 5 players, a random placement with a cascade.
The truth is every field the cascade can end with, by the bench's plain
search with no cut (``exhaustive``; placements with a larger tree than
20,000 positions are skipped). The claims: up to five of those results, near
misses of each (``near_misses``) and the results of the three positions
before (fields of another position). A "yes" must replay to its claim; an
answer for certain must agree with the truth; an unfinished answer is
counted, never wrong. About 15 minutes for 200 positions here; prints one
JSON line: ``positions``, ``claims``, ``wrong``, ``unfinished``.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time

from companion.games.bottoms_up import position
from companion.games.bu_check import check
from companion.errors import CompanionError

from .bu_check import exhaustive, near_misses, stacks_of

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def random_field(rng: random.Random) -> tuple[list[str], str]:
    colors = "rbgywkykwbyyw"
    field = [" ".join(rng.choice(colors) + rng.choice("SML") for _ in range(rng.choice([1, 1, 1, 2, 2, 3, 4])))
             for _ in range(rng.randint(3, 9))]
    target = "ABCDE"[rng.randrange(min(5, len(field)))]
    return field, f"place {rng.choice('yyywbrgk')}{rng.choice('SML')} on {target}"


def run(seed: int, positions: int, cap: int = 20000, out=sys.stdout) -> dict:
    rng = random.Random(seed)
    wrong = unfinished = total = done = 0
    others: list[tuple] = []
    t0 = time.perf_counter()
    while done < positions:
        field, placement = random_field(rng)
        try:
            s = position({"players": PLAYERS[:rng.randint(2, 5)]}, field)
            start = s.apply_text(placement)
        except CompanionError:  # a field the stash cannot supply, a placement the rules refuse
            continue
        if start.pending is None:
            continue
        truth = exhaustive(start, cap=cap)
        if truth is None:
            continue
        done += 1
        results = sorted(truth)
        claims = rng.sample(results, min(5, len(results)))
        for st in list(claims):
            claims += [c for _kind, c in near_misses(st, rng)]
        claims += others[-3:]
        others.append(results[0])
        for st in claims:
            total += 1
            r = check(s, placement, [" ".join(map(str, x)) for x in st])
            if not r.complete:
                unfinished += 1
                continue
            ok = r.reachable == (st in truth)
            if ok and r.reachable:
                end = start
                for c in r.choices:
                    end = end.apply_text(c)
                ok = end.pending is None and stacks_of(end) == st
            if not ok:
                wrong += 1
                print(f"WRONG: {field} {placement} claim {st} said reachable={r.reachable}", file=out)
    return {"seed": seed, "positions": done, "claims": total, "wrong": wrong, "unfinished": unfinished,
            "seconds": round(time.perf_counter() - t0, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bu_check_stress", description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--positions", type=int, default=200)
    a = ap.parse_args(argv)
    fig = run(a.seed, a.positions)
    print(json.dumps(fig))
    return 1 if fig["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
