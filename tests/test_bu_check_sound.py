"""Bottoms Up check mode: soundness of every cut at once.

``check`` must never say "reachable" for a field the rules cannot give, and
never rule out for certain (``complete``) a field they can. On random small
positions (a few lone pieces and short stacks, yellow and white often, a
small stash so that effects run out, BU-6) its answer is compared with the
exhaustive search of the bench (bench/bu_check.py: every choice, no cut, no
merging) for the cascade's own results, their near misses and random
fields of the same pieces. A larger run of the same harness:
``python -m tests.test_bu_check_sound 3000`` (cases, then a seed).

The last tests are facts that look like cuts and are not: the rules can
bring a stack back after a piece landed on it, and a piece can end right
under a red one. A proof that forgets them would refuse reachable fields.
"""
from __future__ import annotations

import random
import sys

import pytest

from bench.bu_check import exhaustive, near_misses, table_of
from companion.errors import SetupError
from companion.games.bottoms_up import position
from companion.games.bu_check import check

P4 = ["Ann", "Bob", "Cat", "Dan"]
WEIGHTS = {"y": 4, "w": 3, "r": 2, "g": 2, "b": 2, "k": 1}  # yellow and white: the long cascades (BU-8 items 4, 5)


def _piece(rng: random.Random) -> str:
    return rng.choices(list(WEIGHTS), list(WEIGHTS.values()))[0] + rng.choice("SML")


def random_case(rng: random.Random, max_groups: int = 5):
    """(position, placement, position after it) with a choice pending: 2 to
    ``max_groups`` stacks of 1 to 3 pieces, 1 to 5 pieces of each kind in
    the game (a scarce stash), a yellow or white placed more often than not."""
    while True:
        per = rng.choice([1, 2, 2, 3, 5])
        field = [" ".join(_piece(rng) for _ in range(rng.choice([1, 1, 2, 2, 3])))
                 for _ in range(rng.randint(2, max_groups))]
        try:
            s = position({"players": P4, "stash": per}, field)
        except SetupError:  # the stash cannot supply that field
            continue
        moves = s.legal_moves()
        light = [m for m in moves if m.piece.color.letter in "yw"]
        m = rng.choice(light if light and rng.random() < 0.7 else moves)
        after = s.apply(m)
        if after.pending is not None:
            return s, m, after


def _shuffled(rng: random.Random, stacks: tuple) -> tuple:
    """The same pieces in random stacks of 1 to 3."""
    pcs = [p for st in stacks for p in st]
    rng.shuffle(pcs)
    out, i = [], 0
    while i < len(pcs):
        k = rng.randint(1, 3)
        out.append(tuple(pcs[i:i + k]))
        i += k
    return tuple(sorted(out))


def compare(n: int, seed: int, cap: int = 1500, report=None) -> dict:
    """``n`` random cases whose cascade tree has at most ``cap`` positions:
    every claim's answer against the exhaustive search's. Returns counts;
    a disagreement is listed under ``wrong``."""
    rng = random.Random(seed)
    out: dict = {"cases": 0, "claims": 0, "complete": 0, "wrong": []}
    while out["cases"] < n:
        before, m, after = random_case(rng)
        finals = exhaustive(after, cap)
        if finals is None:  # too large to know the truth
            continue
        out["cases"] += 1
        ends = sorted(finals)
        claims = set(rng.sample(ends, min(2, len(ends))))
        for st in sorted(claims):
            claims.update(x for _, x in near_misses(st, rng))
            claims.add(_shuffled(rng, st))
        for st in sorted(claims):
            r = check(before, m, table_of(st))
            out["claims"] += 1
            out["complete"] += r.complete
            truth = st in finals
            if (r.reachable and not truth) or (r.complete and not r.reachable and truth):
                bad = (before.field_lines(), str(m), table_of(st), truth, r.reason)
                out["wrong"].append(bad)
                if report:
                    report(bad)
    return out


@pytest.mark.parametrize("seed", range(3))
def test_check_agrees_with_the_exhaustive_search_on_small_random_fields(seed):
    """No cut refuses a field the rules give, and no "yes" is wrong (BU-13);
    most answers are complete on fields this small."""
    got = compare(5, 4400 + seed)
    assert not got["wrong"], got["wrong"][:3]
    assert got["claims"] >= 15 and got["complete"] >= 0.8 * got["claims"]


def test_a_stack_landed_on_can_come_back():
    """wS landed on kS, then yL on wS: in A's pass the white takes yellow's
    move and yellow then moves itself (BU-8 item 5), so A is a lone kS again.
    A cut "a stack a piece landed on never shows its old pieces" is false."""
    s = position({"players": P4}, ["kS", "wS"])
    mid = s.apply_text("place yL on B").apply_text("yellow A").apply_text("yellow A")
    assert mid.field_lines() == ["A: kS wS yL"] and mid.pending is not None
    r = check(mid, None, ["kS", "wS", "yL"])
    assert r.reachable and r.choices == ("yellow open", "yellow open")


def test_a_near_miss_of_the_bench_is_reached_by_breaking_a_stack_and_building_it_again():
    """A claim of the bench's whole games (5 players, seed 102, turn 65: the
    true result with yM gS swapped to gS yM). The table shows N as wS gL,
    as it was; the only known way there lands yL on N (gL moves away,
    BU-8 item 6) and, ten choices later, gL back onto N's wS. From the
    position after the landing the search finds it (11 more choices)."""
    field = {"A": "yM kL gM bM rL", "B": "gL kM kS yL kM rL kL yS kM bL", "C": "wL gM rM",
             "D": "gL wM kS kM rM", "E": "wS wL wM kS kS bL wL bM", "F": "yS gM yS bM",
             "G": "gS kL wL gL kL", "H": "rL kM yL", "I": "kL yL", "J": "gS", "K": "gM bL bL",
             "L": "rS kS wM wS", "M": "bM yL yL", "N": "wS gL", "O": "rM bS", "P": "yS", "Q": "bM"}
    s = position({"players": ["P1", "P2", "P3", "P4", "P5"]}, field,
                 destroyed="bS gS gS gS gM rS rS rS rS rM wS wS wM wM wL yS")
    claim = ["kL yL", "bM", "gS kL wL gL kL yL", "gS yM", "gM bL bL", "gL kM kS yL kM rL kL yS kM bL",
             "gL wM kS kM rM", "rS kS wM bS rM", "rM bS", "rL kM yL", "wS", "wS gL",
             "wS wL wM kS kS bL wL bM", "wL gM rM", "yS", "yS gM yS bM", "yM kL gM bM rL", "yL"]
    mid = s.apply_text("place yM on M").apply_text("yellow L").apply_text("yellow N")
    n = mid.group("N")
    assert n is not None and " ".join(map(str, n.pieces)) == "wS gL yL"  # broken: yL landed on it
    r = check(mid, None, claim)
    assert r.reachable and r.complete and "yellow N" in r.choices  # ... and built again


def test_a_piece_can_end_right_under_a_red():
    """bM under rM at the end of a pass: bM was visited under gM, which grows
    nothing when no bL is left (BU-8 green), then gM moved away under yS and
    yS was destroyed under rM, so rM dropped onto bM after bM's visit (BU-7).
    With a bL in the stash the same claim is out of reach."""
    short = position({"players": P4}, ["bM gM yS", "gS"], destroyed="bL bL bL bL bL")
    r = check(short, "place rM on A", ["bM rM", "gS", "gM"])
    assert r.reachable and r.complete
    full = position({"players": P4}, ["bM gM yS", "gS"])
    r = check(full, "place rM on A", ["bM rM", "gS", "gM"])
    assert not r.reachable and r.complete


if __name__ == "__main__":  # pragma: no cover - the larger run, by hand
    cases = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    res = compare(cases, seed, cap=3000, report=lambda bad: print("WRONG", bad, flush=True))
    print({k: (len(v) if k == "wrong" else v) for k, v in res.items()})
