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

import pytest

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


# ---------------------------------------------------------------- records written by hand from the docs


def replay_cli(path, capsys):
    from companion.cli import main
    code = main(["replay", str(path), "--json"])
    import json
    return code, json.loads(capsys.readouterr().out)


def test_hand_record_rolloff_tie_and_the_rules_example(capsys):
    """Written from docs/records.md alone. Roll-off: Ann S/M and Bob L tie on 3
    pips (Cat S: 1), they roll again: Ann M (2), Bob S/L (4): Bob starts (B-3).
    Bob draws the rules' example yL yM yS gL cM pS yS cS: 20 + 10 + 1 + 1 = 32
    (B-5). Cat busts on rM (B-4), Ann banks before drawing: 0. Bob draws pL:
    3, total 35, the target (B-6)."""
    code, out = replay_cli(GOLDEN / "hand-rolloff-example.jsonl", capsys)
    assert code == 0 and out["ok"] and out["terminal"] and out["current_player"] == -2
    assert out["scores"] == [0, 35, 0]
    assert out["outcome"] == {"termination": "target", "winners": [1], "scores": [0, 35, 0],
                              "detail": "Bob reached the target 35 (B-6)"}
    st = out["state"]
    assert st["start_player"] == 1 and st["winners"] == [1] and st["phase"] == "over"
    assert [[r["pips"] for r in rnd] for rnd in st["rolloff"]] == [[3, 3, 1], [2, 4]]
    bob = st["history"][1]
    assert [(t["turn"], t["result"], t["score"]) for t in bob] == [(1, "bank", 32), (4, "bank", 3)]
    assert st["history"][2] == [{"turn": 2, "result": "bust", "score": 0, "pieces": ["rM"], "bust_on": "rM"}]
    assert st["history"][0] == [{"turn": 3, "result": "bank", "score": 0, "pieces": [], "bust_on": None}]
    assert st["drawn"] == ["pL"] and st["bag_count"] == 20 and "pL" not in st["bag"]


def test_hand_record_random_start_broken_rule_and_undo(capsys):
    """Random start picks seat 2 (Bob, 1-based); Bob breaks a rule with the die
    physical: bust (B-8); Ann's size M on S/M is undone, she picks S: pM pS
    pL, a purple tree 20 >= 12 (B-5, B-6)."""
    code, out = replay_cli(GOLDEN / "hand-random-broken.jsonl", capsys)
    assert code == 0 and out["scores"] == [20, 0] and out["undone"] == [13]
    assert out["outcome"]["winners"] == [0] and out["outcome"]["termination"] == "target"
    st = out["state"]
    assert st["history"][1] == [{"turn": 1, "result": "bust", "score": 0, "pieces": ["yL"], "bust_on": "broken"}]
    assert st["history"][0] == [{"turn": 2, "result": "bank", "score": 20, "pieces": ["pM", "pS", "pL"],
                                 "bust_on": None}]
    assert st["arrangement"] == {"score": 20, "trees": [{"pieces": ["pL", "pM", "pS"], "kind": "purple",
                                                         "points": 20}], "loose": []}


@pytest.mark.parametrize("moves, line, reason", [
    (["roll", "face S", "got yM"], 4, "yM is a medium, but the face S asks for a small (B-8)"),
    (["roll", "face M", "got gM", "roll", "face M", "got gM", "roll", "face M", "got gM"], 10,
     "no gM left in the bag: already drawn this turn (B-1)"),
    (["roll", "face S/M", "got yS"], 4, "pick a size: size S or size M (B-4)"),
    (["bank", "bank", "got yS"], 4, "got yS is not possible now"),
    (["broken"], 2, "broken is only for a physical die or bag (B-8)"),
    (["roll", "face Q"], 3, "unknown die face"),
])
def test_hand_bad_records_name_the_first_bad_line(tmp_path, capsys, moves, line, reason):
    head = '{"format": "pyramid-companion-record", "version": 1, "game": "bag_of_ice", "setup": {"players": ["Ann", "Bob"]}}'
    f = tmp_path / "bad.jsonl"
    f.write_text("\n".join([head] + [f'{{"type": "move", "move": "{m}"}}' for m in moves] + ['{"type": "move", "move": "roll"}']) + "\n")
    code, out = replay_cli(f, capsys)
    assert code == 1 and out["ok"] is False and out["line"] == line and reason in out["error"]
