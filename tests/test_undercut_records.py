"""Undercut records written by hand from docs/records.md alone, as an outside
referee would, replayed through ``companion replay FILE --json``: exact
scores, combo values, hands, bag, winner; bad records exit 1 with the line of
the first bad event and the rules' reason (U-3..U-15)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.cli import main

HEADER = {"format": "pyramid-companion-record", "version": 1, "game": "undercut"}

# Score sheet, 4 players, random start (U-14). Expected by hand:
# start 3 -> Cat. Round 1 from Cat: Cat TREE +2 (TREE 3); Dan nothing; Ann TRIPLETS +2
# (TRIPLETS 3) and TREE +3 (TREE 4) = 5; Bob FOURSOME +2 (FOURSOME 3). Dan passes: 1.
# Round 2 from Dan: Ann TREE +4 = 9 (TREE 5). Dan passes again: 2. Round 3: nothing;
# Ann passes: 10, the end is triggered by a pass (U-12); one more scoring phase from Ann,
# nothing. Scores 10 2 2 2: Bob, Cat, Dan tied (U-13): pips 7, 5, 5; Cat and Dan still
# tied: pieces 3 and 2 -> Dan wins.
SCORE_GAME = ["start 3",
              "tree", "done", "done", "triplets", "tree", "done", "foursome", "done",
              "pass 4",
              "done", "tree", "done", "done", "done",
              "pass 4",
              "done", "done", "done", "done",
              "pass 1",
              "done", "done", "done", "done",
              "pips 7", "pips 5", "pips 5", "pieces 3", "pieces 2"]

# Full table, physical bag, start Bob (seat 1). Expected by hand:
# setup from Bob: Bob LMS gL gM gS; Cat SSSSSS rS yS gS bS kS rS; Ann MMM yM yM yM.
# Scoring from Bob: TREE +2, Cat chooses one FOURSOME of the five (+2, rS rS left), Ann
# TRIPLETS +2. Stacks A rL bM yS, B kL kM kS. Bob zero on A, Cat rS on B, Ann zero on B
# (rS back to Cat, U-10), Cat passes (+1) naming M and draws bM. Bob takes A, Ann B.
# Round 2 from Cat: Ann's black TREE +3 (TREE 4). Stacks A yL rM bS, B gL gM rS. Cat
# rS rS on A (2/2), Ann zero on B, Bob bM on A (2/1 < 2/2), Cat rS on A (1/1); Bob passes
# naming L, draws rL (+1). Cat takes A (her rS to the bag), Ann takes B. Round 3 from Bob:
# no combo anywhere, so the next draw is stack A's large.
FULL_GAME = ["take LMS", "got gL", "got gM", "got gS",
             "take SSSSSS", "got rS", "got yS", "got gS", "got bS", "got kS", "got rS",
             "take MMM", "got yM", "got yM", "got yM",
             "tree gL gM gS", "foursome yS gS bS kS", "triplets yM yM yM",
             "got rL", "got bM", "got yS", "got kL", "got kM", "got kS",
             "bid A", "bid B rS", "bid B", "pass M", "got bM",
             "tree kL kM kS",
             "got yL", "got rM", "got bS", "got gL", "got gM", "got rS",
             "bid A rS rS", "bid B", "bid A bM", "bid A rS", "pass L", "got rL"]
FULL_SETUP = {"players": ["Ann", "Bob", "Cat"], "level": "full", "bag": "physical", "start": 1}


def write(tmp_path, setup, moves, name="rec.jsonl", extra=()):
    lines = [json.dumps({**HEADER, "setup": setup})]
    lines += [json.dumps({"seq": i, "type": "move", "move": m}) for i, m in enumerate(moves, 1)]
    lines += list(extra)
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(p)


def replay(path, capsys):
    code = main(["replay", path, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_score_sheet_game_with_a_two_stage_tiebreak(tmp_path, capsys):
    code, out = replay(write(tmp_path, {"players": ["Ann", "Bob", "Cat", "Dan"], "level": "score",
                                        "start": "random"}, SCORE_GAME), capsys)
    assert code == 0 and out["ok"] and out["terminal"] and out["current_player"] == -2
    assert out["scores"] == [10, 2, 2, 2]
    assert out["outcome"] == {"termination": "score_limit", "winners": [3], "scores": [10, 2, 2, 2],
                              "detail": "tie on score and pips broken by fewest pieces in hand (U-13)"}
    st = out["state"]
    assert st["combo_values"] == {"TREE": 5, "TRIPLETS": 3, "FOURSOME": 3}
    assert st["round"] == 4 and st["start_player"] == 0 and st["phase"] == "over" and st["end_triggered"]
    assert st["tiebreak"] == {"tied": [1, 2, 3], "pips": [7, 5, 5], "pieces": [None, 3, 2]}
    assert st["winners"] == [3] and "hands" not in st and "bag" not in st


def test_score_sheet_bad_piece_count_names_its_line(tmp_path, capsys):
    moves = SCORE_GAME[:-2] + ["pieces 1"]  # Cat: 5 pips cannot be 1 piece
    code, out = replay(write(tmp_path, {"players": ["Ann", "Bob", "Cat", "Dan"], "level": "score",
                                        "start": "random"}, moves), capsys)
    assert code == 1 and out["ok"] is False and out["line"] == 1 + len(moves)
    assert out["error"] == f"event {len(moves)}: Cat cannot hold 1 piece: 5 pips make 2 to 5 pieces in a hand with no combo left, not 1 (U-14)"


def test_full_table_game_by_hand(tmp_path, capsys):
    code, out = replay(write(tmp_path, FULL_SETUP, FULL_GAME), capsys)
    assert code == 0 and out["ok"] and not out["terminal"] and out["outcome"] is None
    assert out["moves_in_effect"] == len(FULL_GAME) and out["scores"] == [5, 3, 3]
    st = out["state"]
    assert st["combo_values"] == {"TREE": 4, "TRIPLETS": 3, "FOURSOME": 3}
    assert st["hands"] == [["gL", "gM", "rS"], ["rL", "rL", "bM", "yS"], ["yL", "rM", "bM", "rS", "bS"]]
    assert st["hand_pips"] == [6, 9, 9] and st["hand_pieces"] == [3, 4, 5]
    assert st["bag_count"] == 63 and sum(st["bag"].values()) == 63 and st["bag"]["rL"] == 3
    assert st["round"] == 3 and st["start_player"] == 1 and st["phase"] == "stacks"
    assert st["draw"] == {"for": "stack", "stack": "A", "size": "L", "left": 1}
    assert st["stacks"] == [] and st["markers_in_hand"] == [0, 1, 2]


def test_full_table_same_record_with_a_virtual_bag(tmp_path, capsys):
    """U-15: the bag source changes no rule and no move text."""
    code, out = replay(write(tmp_path, {**FULL_SETUP, "bag": "virtual"}, FULL_GAME), capsys)
    assert code == 0 and out["scores"] == [5, 3, 3] and out["state"]["bag_source"] == "virtual"


def test_full_table_undo_takes_back_the_last_draw(tmp_path, capsys):
    extra = [json.dumps({"seq": len(FULL_GAME) + 1, "type": "undo", "undoes": len(FULL_GAME)})]
    code, out = replay(write(tmp_path, FULL_SETUP, FULL_GAME, extra=extra), capsys)
    assert code == 0 and out["undone"] == [len(FULL_GAME)] and out["current_player"] == -1
    assert out["state"]["phase"] == "pass" and out["state"]["draw"] == {"for": "pass", "seat": 1, "size": "L",
                                                                         "left": 1}
    assert out["scores"] == [5, 3, 3] and out["state"]["stacks"][0]["bid"]["seat"] == 2


@pytest.mark.parametrize("index, move, later, error", [
    (FULL_GAME.index("bid A rS"), "bid A bM", 0,               # Cat: equal value is not lower
     "bid 2 pips/1 piece is not lower than 2 pips/1 piece on stack A (U-9)"),
    (FULL_GAME.index("pass L"), "bid A yS", 0,                 # Bob: 1 pip/1 piece again
     "bid 1 pip/1 piece is not lower than 1 pip/1 piece on stack A (U-9)"),
    (FULL_GAME.index("bid B rS"), "pass S", 0,                 # Cat: stack B has no bid
     "cannot pass: stack B has no bid (U-11)"),
    (FULL_GAME.index("bid B"), "bid A", 0,                     # Ann: nothing is lower than zero
     "bid 0 pips/0 pieces is not lower than 0 pips/0 pieces on stack A (U-9)"),
    (FULL_GAME.index("foursome yS gS bS kS"), "foursome rS rS yS gS", 0,
     "FOURSOME needs four pieces of one size in four different colors (U-5)"),
    (FULL_GAME.index("got rL", 30), "got rM", 0,               # Bob named a large
     "this draw is a large piece for Bob, not rM (U-11)"),
    (FULL_GAME.index("take MMM"), "take MMSS", 3,              # a legal mix; its third draw is a small
     "this draw is a small piece for Ann, not yM (U-3)"),
    (FULL_GAME.index("pass M"), "pass 3", 0,
     "at the full-table level the acting player passes: pass S|M|L (U-11)"),
    (FULL_GAME.index("bid A rS rS"), "bid A rS rS rS", 0, "Cat holds only 2 x rS (U-9)"),
    (FULL_GAME.index("got rL"), "got wL", 0, "wL is not one of this game's colors (U-1)"),
])
def test_full_table_bad_records_stop_at_the_first_bad_event(tmp_path, capsys, index, move, later, error):
    moves = list(FULL_GAME)
    moves[index] = move
    code, out = replay(write(tmp_path, FULL_SETUP, moves), capsys)
    seq = index + 1 + later
    assert code == 1 and out["ok"] is False
    assert out["line"] == seq + 1 and out["error"] == f"event {seq}: {error}"


def test_a_left_out_forced_turn_in_is_applied_as_the_device_would_U6(tmp_path, capsys):
    """U-6: the only possible turn-in is applied without asking. The device
    records it; a hand-written record may leave it out: replay applies it
    where the next event needs it and lists it in implied_moves."""
    i = FULL_GAME.index("tree kL kM kS")
    code, full = replay(write(tmp_path, FULL_SETUP, FULL_GAME), capsys)
    assert code == 0 and full["implied_moves"] == []
    moves = FULL_GAME[:i] + FULL_GAME[i + 1:]
    code, out = replay(write(tmp_path, FULL_SETUP, moves), capsys)
    assert code == 0, out
    assert out["implied_moves"] == [{"before_line": i + 2, "move": "tree kL kM kS"}]
    assert out["state"] == full["state"] and out["scores"] == full["scores"]


def test_a_wrong_move_that_no_forced_move_explains_is_still_refused_U6(tmp_path, capsys):
    i = FULL_GAME.index("tree kL kM kS")
    moves = FULL_GAME[:i] + ["got rS"] + FULL_GAME[i + 1:]
    code, out = replay(write(tmp_path, FULL_SETUP, moves), capsys)
    assert code == 1 and out["line"] == i + 2
    assert out["error"].startswith(f"event {i + 1}: ") and "U-6" in out["error"]


def test_moves_after_the_end_are_refused(tmp_path, capsys):
    moves = SCORE_GAME + ["pass 2"]
    code, out = replay(write(tmp_path, {"players": ["Ann", "Bob", "Cat", "Dan"], "level": "score",
                                        "start": "random"}, moves), capsys)
    assert code == 1 and out["line"] == 1 + len(moves)
    assert out["error"] == f"event {len(moves)}: the game is over (U-12)"


@pytest.mark.parametrize("setup, error", [
    ({"players": ["Ann", "Bob"]}, "bad setup: Undercut needs 3 to 5 players, not 2 (U-2)"),
    ({"players": ["Ann", "Bob", "Cat"], "level": "sheet"},
     "bad setup: level must be \"score\" or \"full\", not 'sheet' (U-14)"),
    ({"players": ["Ann", "Bob", "Cat"], "bag": "box"},
     "bad setup: bag must be \"virtual\" or \"physical\", not 'box' (U-15)"),
    ({"players": ["Ann", "Bob", "Cat"], "start": 3}, "bad setup: start must be a seat 0..2 or \"random\""),
])
def test_bad_setups(tmp_path, capsys, setup, error):
    code, out = replay(write(tmp_path, setup, ["tree"]), capsys)
    assert code == 1 and out == {"ok": False, "file": out["file"], "line": 1, "error": error}


def test_the_installed_command_exits_1_on_a_bad_record(tmp_path):
    moves = list(FULL_GAME)
    moves[FULL_GAME.index("bid B rS")] = "pass S"
    path = write(tmp_path, FULL_SETUP, moves)
    p = subprocess.run([sys.executable, "-m", "companion", "replay", path, "--json"],
                       capture_output=True, text=True, timeout=60)
    out = json.loads(p.stdout)
    assert p.returncode == 1 and out["line"] == FULL_GAME.index("bid B rS") + 2
    assert out["error"].endswith("cannot pass: stack B has no bid (U-11)")


def test_a_record_ending_before_a_forced_turn_in_ends_after_it_U6(tmp_path, capsys):
    """The device never stops before a forced move: neither does replay."""
    i = FULL_GAME.index("tree kL kM kS")
    code, with_it = replay(write(tmp_path, FULL_SETUP, FULL_GAME[:i + 1], name="a.jsonl"), capsys)
    code2, without = replay(write(tmp_path, FULL_SETUP, FULL_GAME[:i], name="b.jsonl"), capsys)
    assert code == code2 == 0
    assert without["implied_moves"] == [{"before_line": i + 2, "move": "tree kL kM kS"}]
    assert without["state"] == with_it["state"]


def test_an_undo_takes_the_implied_moves_after_its_move_with_it_U6(tmp_path, capsys):
    """As the device's undo: the decision and the forced moves that followed it."""
    i = FULL_GAME.index("tree kL kM kS")
    undo = json.dumps({"seq": i + 1, "type": "undo", "undoes": i})  # the last explicit move
    code, out = replay(write(tmp_path, FULL_SETUP, FULL_GAME[:i], extra=[undo]), capsys)
    assert code == 0, out
    code, before = replay(write(tmp_path, FULL_SETUP, FULL_GAME[:i - 1], name="c.jsonl"), capsys)
    assert out["state"] == before["state"] and out["undone"] == [i]


def test_replay_names_the_winner_and_the_seat(tmp_path, capsys):
    """``companion replay FILE`` (no --json) said "winner seat(s): 4": the players had to
    count seats from 1 to find who won. It names them, with the seat."""
    code = main(["replay", write(tmp_path, {"players": ["Ann", "Bob", "Cat", "Dan"], "level": "score",
                                           "start": "random"}, SCORE_GAME)])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[1] == "scores: Ann 10, Bob 2, Cat 2, Dan 2"
    assert out[2] == ("ended (score_limit); winner: Dan (seat 4) - "
                      "tie on score and pips broken by fewest pieces in hand (U-13)")
