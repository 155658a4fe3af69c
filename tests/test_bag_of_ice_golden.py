"""Golden Bag of Ice playthrough (3 players, roll-off start, target 60)
replayed through ``companion.records``; the final totals are recounted
independently from the move texts alone (B-3 roll-off, B-4 busts, B-5
scoring, B-6 end, B-7 refill).

Regenerate with ``.venv/bin/python tests/golden/bag_of_ice/make_golden.py``.
"""
from __future__ import annotations

import importlib.util
from itertools import permutations
from pathlib import Path

from companion import records

GOLDEN = Path(__file__).parent / "golden" / "bag_of_ice"
PIPS = {"S": 1, "M": 2, "L": 3}
FACE_PIPS = {"S": 1, "M": 2, "L": 3, "S/M": 3, "S/L": 4, "M/L": 5}
TREE = {"y": 20, "p": 20, "g": 15, "c": 15}


def score(pieces: list[str]) -> int:
    """B-5 by plain search: for every order of the larges, mediums and smalls,
    the first t of each form trees (t = 0..max); keep the best total."""
    ls = [p for p in pieces if p[1] == "L"]
    ms = [p for p in pieces if p[1] == "M"]
    ss = [p for p in pieces if p[1] == "S"]
    best = sum(PIPS[p[1]] for p in pieces)
    k = min(len(ls), len(ms), len(ss))
    for lo in set(permutations(ls)):
        for mo in set(permutations(ms)):
            for so in set(permutations(ss)):
                for t in range(k + 1):  # the first t of each order form trees
                    total = 0
                    for L, M, S in zip(lo[:t], mo[:t], so[:t]):
                        total += TREE.get(L[0], 10) if L[0] == M[0] == S[0] else 10
                    rest = list(lo[t:]) + list(mo[t:]) + list(so[t:])
                    best = max(best, total + sum(PIPS[p[1]] for p in rest))
    return best


def recount(players: int, moves: list[str]) -> tuple[list[int], int, int]:
    """Totals, start seat and number of turns from the move texts."""
    n = players
    # B-3 roll-off: every contender rolls in seat order, the tied highest roll again
    contenders, i = list(range(n)), 0
    while True:
        rolls = [FACE_PIPS[moves[i + j].split()[1]] for j in range(len(contenders))]
        i += len(contenders)
        top = max(rolls)
        contenders = [c for c, r in zip(contenders, rolls) if r == top]
        if len(contenders) == 1:
            break
    seat, totals, drawn, turns = contenders[0], [0] * n, [], 0
    start = seat
    for m in moves[i:]:
        word, *arg = m.split()
        if word == "got":
            if arg[0][0] == "r":           # B-4: red busts
                drawn, seat, turns = [], (seat + 1) % n, turns + 1
            else:
                drawn.append(arg[0])
        elif word == "bank":
            totals[seat] += score(drawn)
            turns += 1
            if totals[seat] >= 60:         # B-6
                break
            drawn, seat = [], (seat + 1) % n  # B-7
    return totals, start, turns


def test_golden_game_replays_to_the_recounted_totals():
    rec = records.read(str(GOLDEN / "game-3p.jsonl"))
    out = records.replay(rec).to_json()
    st = out["state"]
    moves = [e.data["move"] for e in rec.events]
    totals, start, turns = recount(3, moves)
    assert out["terminal"] and out["outcome"]["termination"] == "target"
    assert out["scores"] == totals == st["totals"]
    winner = out["outcome"]["winners"][0]
    assert totals[winner] >= 60 and all(t < 60 for i, t in enumerate(totals) if i != winner)
    assert st["start_player"] == start
    assert sum(len(h) for h in st["history"]) == turns == st["turn"]
    # each seat's history adds up to its total, busts score 0
    for seat, h in enumerate(st["history"]):
        assert sum(t["score"] for t in h) == totals[seat]
        assert all(t["score"] == 0 for t in h if t["result"] == "bust")
        assert all(score(t["pieces"]) == t["score"] for t in h if t["result"] == "bank")
    assert st["bag_count"] + len(st["drawn"]) == 21


def test_golden_record_is_what_the_script_writes():
    spec = importlib.util.spec_from_file_location("make_golden", GOLDEN / "make_golden.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for name, (setup, seed) in mod.GAMES.items():
        rec = records.read(str(GOLDEN / name))
        assert rec.setup == setup
        assert [e.data["move"] for e in rec.events] == mod.play(setup, seed)
