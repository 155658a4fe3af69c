"""Golden Bottoms Up playthroughs (full 90-piece games, 4 and 6 players)
replayed through ``companion.records``; the final scores are recounted
independently from the final field and the secret colors (BU-11, BU-12).

Regenerate with ``.venv/bin/python tests/golden/bottoms_up/make_golden.py``.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from companion import records

GOLDEN = Path(__file__).parent / "golden" / "bottoms_up"
POINTS = {"S": 1, "M": 2, "L": 3}
LETTER = {"red": "r", "blue": "b", "green": "g", "yellow": "y", "white": "w", "black": "k"}

# Pinned after checking them against the recount below (4p also by hand:
# Ann blue N bM + V bM + W bL + Z bS = 8, Bob yellow H yL + T yM = 5,
# Cat red E rS + F rM + K rM + L rS + Q rL = 9, Dan black: no top).
EXPECTED = {
    "full-4p.jsonl": ([8, 5, 9, 0], [2]),
    "full-6p.jsonl": ([11, 3, 0, 11, 16, 17], [5]),
}


def recount(state: dict, lone_count: bool) -> list[int]:
    owner = {LETTER[c]: i for i, c in enumerate(state["secret_colors"])}
    scores = [0] * len(state["players"])
    for g in state["field"]:
        if len(g["pieces"]) < 2 and not lone_count:
            continue
        top = g["pieces"][-1]
        if top[0] in owner:
            scores[owner[top[0]]] += POINTS[top[1]]
    return scores


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_game_replays_to_the_recounted_scores(name):
    rec = records.read(str(GOLDEN / name))
    out = records.replay(rec).to_json()
    st = out["state"]
    assert out["terminal"] and out["outcome"]["termination"] == "stash_empty"
    assert st["stash_count"] == 0
    assert st["field_count"] + st["destroyed_count"] == 90
    assert sum(len(g["pieces"]) for g in st["field"]) == st["field_count"]
    assert len(set(st["secret_colors"])) == len(st["players"])
    scores, winners = EXPECTED[name]
    assert recount(st, rec.setup.get("lone_pieces_count", False)) == scores
    assert out["scores"] == scores and out["outcome"]["winners"] == winners
    best = max(scores)
    assert winners == [i for i, v in enumerate(scores) if v == best]
    # the breakdown adds up to each score
    assert [sum(x["points"] for x in b) for b in st["breakdown"]] == scores


def test_golden_records_are_what_the_script_writes():
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_golden", GOLDEN / "make_golden.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for name, (setup, seed) in mod.GAMES.items():
        rec = records.read(str(GOLDEN / name))
        assert [e.data["move"] for e in rec.events] == mod.play(setup, seed)


# ---------------------------------------------------------------- records written by hand from the docs


def replay_cli(path, capsys):
    import json

    from companion.cli import main
    code = main(["replay", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_hand_record_two_players_to_the_end(capsys):
    """Worked out by hand from the rulings, turn by turn: 18 pieces, Ann blue,
    Bob black. Destroyed: wS (item 5, red on a white small), bS (rS landed on
    kS bS: red destroys it), rS (rM on rS). The last turn empties the stash
    (BU-10). Ann scores D bL 3 + E bM 2 = 5; Bob's blacks top no stack."""
    code, out = replay_cli(GOLDEN / "hand-2p-stash1.jsonl", capsys)
    assert code == 0 and out["terminal"] and out["current_player"] == -2
    assert out["scores"] == [5, 0]
    assert out["outcome"] == {"termination": "stash_empty", "winners": [0], "scores": [5, 0],
                              "detail": "highest score (BU-12)"}
    st = out["state"]
    assert [f"{f['label']}: {' '.join(f['pieces'])}" for f in st["field"]] == [
        "A: kS yS yM", "B: rL gS gL wL", "C: yL kL gM wM", "D: rM bL", "E: kM bM"]
    assert st["destroyed"] == {"bS": 1, "rS": 1, "wS": 1} and st["stash"] == {} and st["stash_count"] == 0
    assert st["secret_colors"] == ["blue", "black"] and st["warning"].endswith("(BU-2)")
    assert st["breakdown"] == [[{"label": "D", "piece": "bL", "points": 3},
                                {"label": "E", "piece": "bM", "points": 2}], []]
    assert st["winners"] == [0] and st["turn"] == 15 and st["turns_played"] == 14


def test_hand_record_opening_and_a_round(capsys):
    """rM on rS destroys it (A: rM); gL on gS grows it (B: gM gL); yM on wS:
    item 5, wS moves onto yS (D, queued), yM moves itself to open space and
    takes the freed label C; D's pass: white over yS reflects yellow, yS
    moves to open space (E); kL on rM: no effect (item 2)."""
    code, out = replay_cli(GOLDEN / "hand-4p-opening.jsonl", capsys)
    assert code == 0 and not out["terminal"] and out["outcome"] is None and out["scores"] == [0, 0, 0, 0]
    st = out["state"]
    assert [f"{f['label']}: {' '.join(f['pieces'])}" for f in st["field"]] == [
        "A: rM kL", "B: gM gL", "C: yM", "D: wS", "E: yS"]
    assert st["destroyed"] == {"rS": 1} and st["stash_count"] == 82 and st["field_count"] == 7
    assert st["turn"] == 5 and st["turns_played"] == 4 and st["active_player"] == 0 and st["phase"] == "play"


@pytest.mark.parametrize("keep, move, reason", [
    (13, "blue r", "blue r is not an option now: blue y (BU-8)"),
    (16, "yellow B", "yellow B is not an option now: yellow A yellow C yellow D yellow open (BU-8)"),
    (2, "place kM", "the opening piece must be a small, not kM (BU-4)"),
    (4, "place rL", "put rL on a piece in play: 'place rL on X' (BU-5)"),
    (4, "place rL on Q", "there is no Q on the field (labels: A, B)"),
    (4, "yellow A", "no yellow choice is pending"),
    (4, "place wS on A", "no wS left in the stash"),
    (24, "place rS on A", "the game is over (BU-10)"),
])
def test_hand_bad_records_name_the_first_bad_line(tmp_path, capsys, keep, move, reason):
    """The record's first ``keep`` events, then a refused move and one more:
    exit 1, the line of the refused move (header and comment are lines 1, 2)."""
    lines = (GOLDEN / "hand-2p-stash1.jsonl").read_text().splitlines()
    f = tmp_path / "bad.jsonl"
    f.write_text("\n".join(lines[:2 + keep] + [f'{{"type": "move", "move": "{move}"}}'] + lines[3 + keep:]) + "\n")
    code, out = replay_cli(f, capsys)
    assert code == 1 and out["ok"] is False and out["line"] == keep + 3
    assert out["error"] == f"event {keep + 1}: {reason}"


def test_a_left_out_single_option_choice_is_implied_BU13(tmp_path, capsys):
    """BU-13: the device makes a one-option choice by itself (and records it).
    A hand-written record without it replays the same, the move listed as implied."""
    lines = (GOLDEN / "hand-2p-stash1.jsonl").read_text().splitlines()
    forced = next(i for i, ln in enumerate(lines) if '"blue y"' in ln)
    full_code, full = replay_cli(GOLDEN / "hand-2p-stash1.jsonl", capsys)
    f = tmp_path / "without.jsonl"
    f.write_text("\n".join(lines[:forced] + lines[forced + 1:]) + "\n")
    code, out = replay_cli(f, capsys)
    assert full_code == code == 0, out
    assert full["implied_moves"] == [] and out["implied_moves"] == [{"before_line": forced + 1, "move": "blue y"}]
    assert out["state"] == full["state"] and out["scores"] == full["scores"]
