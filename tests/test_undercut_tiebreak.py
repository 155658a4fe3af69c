"""tie-break entries no real hands allow are refused at their own line
(U-14 as amended 2026-11-23), the moves the device plays for a player are said
(U-14), and turn-ins whose order changes nothing are not a choice (U-6 as
amended 2026-11-24). Records written as an outside referee would, replayed
through ``companion replay --json``."""
from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.games.undercut import (COMBO_FREE_COUNTS, HAND_PIPS_PIECES, MAX_HAND_PIPS, position,
                                      tiebreak_refusal)
from companion.pieces import Color, Piece, Size

HEADER = {"format": "pyramid-companion-record", "version": 1, "game": "undercut",
          "setup": {"players": ["Ann", "Bob", "Cat"], "level": "score", "start": 0}}
# Ann 2 + 3 + 2 + 3 = 10: the game ends; Bob and Cat tie on 0 (U-12, U-13).
OPENING = ["tree", "tree", "triplets", "triplets", "done", "done", "done"]


def replay(tmp_path, capsys, moves, header=HEADER):
    path = tmp_path / "game.jsonl"
    lines = [json.dumps(header)] + [json.dumps({"seq": i + 1, "type": "move", "move": m})
                                    for i, m in enumerate(moves)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["replay", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("entries, bad, reason", [
    # 30 pips in 30 pieces would be 30 smalls of the 25, and a hand without combos holds 6
    (["pips 30", "pips 30", "pieces 30"], 2, "holds at most 18 pieces"),
    # two hands cannot hold 200 pips; one without combos holds at most 36
    (["pips 100", "pips 100"], 0, "holds at most 36 pips"),
    # 80 pieces of the 75: already the first 60-pip hand cannot be combo-free
    (["pips 60", "pips 60", "pieces 40", "pieces 40"], 0, "holds at most 36 pips"),
    (["pips 40"], 0, "holds at most 36 pips"),
    # ten smalls in one combo-free hand: at most 6 (3 colors, 2 each)
    (["pips 10", "pips 10", "pieces 10"], 2, "10 pips make 4 to 8 pieces in a hand with no combo left, not 10"),
])
def test_entries_no_real_hands_allow_are_refused_at_their_line_U14(tmp_path, capsys, entries, bad, reason):
    code, out = replay(tmp_path, capsys, OPENING + entries)
    assert code == 1 and out["ok"] is False
    assert out["line"] == 1 + len(OPENING) + bad + 1  # header, then one line per event
    assert reason in out["error"] and "(U-14)" in out["error"]


def test_entries_real_hands_allow_still_decide_the_winner_U13(tmp_path, capsys):
    code, out = replay(tmp_path, capsys, OPENING + ["pips 30", "pips 30", "pieces 12", "pieces 13"])
    assert code == 0 and out["state"]["winners"] == [1]


def test_the_tied_hands_together_fit_in_25_pieces_of_each_size_U14():
    # four hands of 6 smalls: 24 of the 25; a fifth with smalls is one too many
    assert tiebreak_refusal([(6, 6)] * 4) is None
    assert "25 pieces of a size" in tiebreak_refusal([(6, 6)] * 4 + [(2, 2)])
    assert tiebreak_refusal([(6, 6)] * 4 + [(2, 1)]) is None  # a medium instead


def test_the_combo_free_table_matches_a_brute_force_over_hands_U14():
    # Every hand of the 5 colors x 3 sizes with at most 2 of a piece: combo-free means no
    # TREE, no three identical (already), no four colors of one size (U-5, U-6).
    kinds = [(c, s) for c in range(5) for s in range(3)]
    found = set()
    # brute force by size: choose counts per kind with pruning on the size totals
    def rec(i, per_color, used, tot):
        if i == len(kinds):
            found.add(tuple(tot))
            return
        c, s = kinds[i]
        for n in range(3):
            pc = dict(per_color)
            pc[(c, s)] = n
            if n and s == 2 and pc.get((c, 0)) and pc.get((c, 1)):
                continue  # a TREE
            u = list(used)
            if n:
                u[s] += 1
                if u[s] > 3:
                    continue  # a FOURSOME
            t = list(tot)
            t[s] += n
            rec(i + 1, pc, u, t)
    kinds.sort(key=lambda k: (k[0], k[1]))
    rec(0, {}, [0, 0, 0], [0, 0, 0])
    # the engine's triples are (larges, mediums, smalls); the brute force's (size 0, 1, 2)
    assert {(t[0], t[1], t[2]) for t in found} == set(COMBO_FREE_COUNTS)
    assert max(3 * lg + 2 * md + sm for lg, md, sm in COMBO_FREE_COUNTS) == MAX_HAND_PIPS == 36
    assert (30, 30) not in HAND_PIPS_PIECES and (10, 10) not in HAND_PIPS_PIECES


def test_the_one_piece_count_the_pips_allow_is_played_for_the_player_U14(tmp_path, capsys):
    # 36 pips: only 6 of each size, 18 pieces. A record may leave that entry out.
    code, out = replay(tmp_path, capsys, OPENING + ["pips 36", "pips 36", "pieces 18"])
    assert code == 0 and out["implied_moves"] == [{"before_line": len(OPENING) + 5, "move": "pieces 18"}]
    assert out["state"]["winners"] == [1, 2]  # shared win: equal pips, equal pieces


def test_the_device_says_when_it_moved_for_a_player_U14(tmp_path):
    from companion.journal import Journal
    from companion.session import Session
    import random

    j = Journal(str(tmp_path / "j.db"))
    s = Session.start(j, "undercut", HEADER["setup"], rng=random.Random(1))
    for m in OPENING + ["pips 36", "pips 36"]:
        s.play(m)
    lines = [h.line for h in s.history()]
    assert lines[-1] == "Cat had only one move: 18 pieces, the only count 36 pips allow"
    assert s.state.is_terminal()
    j.close()


def P(text):
    return Piece.parse(text)


def test_turn_ins_whose_order_changes_nothing_are_not_a_choice_U6():
    # a TREE and a TRIPLETS of other pieces: either order scores 2 + 2 and leaves the same hand
    s = position({"players": ["Ann", "Bob", "Cat"], "start": 0}, ["rL rM rS yS yS yS", "-", "-"])
    assert len(s.legal_moves()) == 2
    first = s.forced_move()
    assert str(first) == "tree rL rM rS"
    s2 = s.apply(first)
    assert str(s2.forced_move()) == "triplets yS yS yS"
    s3 = s2.apply(s2.forced_move())
    assert s3.scores() == (4, 0, 0) and s3.combo_values() == {"TREE": 3, "TRIPLETS": 3, "FOURSOME": 2}
    assert s.describe_forced(first) == "Ann turns in TREE rL rM rS: +2 (any order scores the same)"


def test_turn_ins_that_share_pieces_are_still_asked_U6():
    # TREE rL rM rS or TRIPLETS rS rS rS: what is left differs, so the player chooses
    s = position({"players": ["Ann", "Bob", "Cat"], "start": 0}, ["rL rM rS rS rS", "-", "-"])
    assert len(s.legal_moves()) == 2 and s.forced_move() is None
    # two TREEs of one color in a hand: the same multiset twice, one move at a time
    s = position({"players": ["Ann", "Bob", "Cat"], "start": 0}, ["rL rM rS rL rM rS", "-", "-"])
    assert s.forced_move() is not None


def test_a_record_may_leave_out_the_turn_ins_the_device_plays_U6(tmp_path, capsys):
    header = {"format": "pyramid-companion-record", "version": 1, "game": "undercut",
              "setup": {"players": ["Ann", "Bob", "Cat"], "level": "full", "bag": "physical", "start": 0}}
    # Ann takes LMS (rL rM rS: a TREE), Bob MMSS, Cat SSSSSS with three yS: a TRIPLETS ...
    setup_moves = ["take LMS", "got rL", "got rM", "got rS",
                   "take MMSS", "got gM", "got bM", "got gS", "got bS",
                   "take SSSSSS", "got yS", "got yS", "got yS", "got kS", "got kS", "got rS"]
    code, full = replay(tmp_path, capsys, setup_moves, header)
    assert code == 0, full
    # Ann's only turn-in and Cat's one TRIPLETS were applied by the device
    assert [m["move"] for m in full["implied_moves"]] == ["tree rL rM rS", "triplets yS yS yS"]
