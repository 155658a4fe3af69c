"""Records say who moved: a move event's ``"seat"``, written by the
device on every move it journals and checked by replay; a record without seats
that reads two ways says so in the replay's JSON (docs/records.md)."""
from __future__ import annotations

import json
import random

import pytest

from companion import records
from companion.cli import main
from companion.errors import RecordError
from companion.games.undercut import SPEC
from companion.journal import Journal
from companion.session import Session

FIVE = {"players": ["Ann", "Bob", "Cat", "Dan", "Eve"], "level": "full", "bag": "physical", "start": 0}

# A 5-player full-table game (U-3..U-13), played to its end. Worked by hand:
# Setup from Ann: Ann, Bob, Cat, Eve draw a TREE each (LMS), Dan LL rL yL.
# Round 1 scoring, each TREE the only turn-in (forced, U-6): Ann 2, Bob 3, Cat 4, Eve 5; TREE 6.
# Stacks A rL yM bS, B yL yM yS, C gL rM kS, D bL gM gS. Zero bids A..D by Ann..Dan; Eve has
# nothing to undercut with and passes (+1 = 6) naming L: kL.
# Round 2 from Eve: only Bob has a combo, his TREE (forced): 3 + 6 = 9; TREE 7.
# Stacks A rL kM kS, B yL gM gS, C bL rM gS, D gL kM kS. Eve zero on A, Ann yM on B, Bob
# zero on C, Cat kS on B (Ann's yM back, U-10), Dan zero on D; Ann passes (+1 = 3) naming S: rS.
# Round 3 from Ann (the last: nobody is at 10 yet, Cat's TREE brings it, U-12):
#   Ann rL yM bS rS and Bob bL rM gS hold no combo;
#   Cat gL rM yL gM gS: the TREE gL gM gS is her only combo (forced): 4 + 7 = 11; TREE 8;
#   Dan rL yL bL gL gM gS kM kS chooses between the TREE gL gM gS and the FOURSOME
#   rL yL gL bL (they share gL: a real choice, U-6): he turns in the TREE, 0 + 8 = 8; TREE 9;
#   Eve kL rL kM kS: the TREE kL kM kS is her only combo (forced): 6 + 9 = 15.
# The phase ends with the end triggered: lowest score wins, Ann with 3 (U-13).
GAME = [
    "take LMS", "got rL", "got rM", "got rS",
    "take LMS", "got yL", "got yM", "got yS",
    "take LMS", "got bL", "got bM", "got bS",
    "take LL", "got rL", "got yL",
    "take LMS", "got kL", "got kM", "got kS",
    "tree rL rM rS", "tree yL yM yS", "tree bL bM bS", "tree kL kM kS",
    "got rL", "got yM", "got bS", "got yL", "got yM", "got yS",
    "got gL", "got rM", "got kS", "got bL", "got gM", "got gS",
    "bid A", "bid B", "bid C", "bid D", "pass L", "got kL",
    "tree yL yM yS",
    "got rL", "got kM", "got kS", "got yL", "got gM", "got gS",
    "got bL", "got rM", "got gS", "got gL", "got kM", "got kS",
    "bid A", "bid B yM", "bid C", "bid B kS", "bid D", "pass S", "got rS",
    "tree gL gM gS", "tree gL gM gS", "tree kL kM kS",
]
SCORES = [3, 9, 11, 8, 15]
HEADER = {"format": records.FORMAT, "version": 1, "game": "undercut", "setup": FIVE}


def referee_record(*, seats: bool, forced: bool = False) -> list[str]:
    """The game as an outside referee writes it from its own engine: forced moves
    left out (``forced=False``), which records may do; with or without seats."""
    st = SPEC.new(FIVE)
    lines = [json.dumps(HEADER)]
    for text in GAME:
        event: dict = {"type": "move", "move": text}
        if seats and st.current_player >= 0:
            event["seat"] = st.current_player
        if forced or st.forced_move() is None:
            lines.append(json.dumps(event))
        st = st.apply_text(text)
    return lines


def run(tmp_path, capsys, lines: list[str]) -> tuple[int, dict]:
    path = tmp_path / "rec.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["replay", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_the_game_as_played_ends_with_the_rules_scores():
    st = SPEC.new(FIVE)
    for text in GAME:
        st = st.apply_text(text)
    assert st.is_terminal() and list(st.scores()) == SCORES and st.outcome().winners == (0,)


def test_with_seats_a_left_out_forced_move_with_the_next_move_s_text_is_read_by_the_seat_U6(tmp_path, capsys):
    """The case that showed it: Cat's forced TREE gL gM gS (U-6) is left out and Dan's
    chosen TREE gL gM gS has the same text; Dan's seat says it is his. Eve's
    forced TREE follows at the end of the record and the game ends."""
    lines = referee_record(seats=True)
    last = json.loads(lines[-1])
    assert (last["move"], last["seat"]) == ("tree gL gM gS", 3)
    code, out = run(tmp_path, capsys, lines)
    assert code == 0 and out["ok"]
    assert out["terminal"] and out["current_player"] == -2
    assert out["scores"] == SCORES
    assert out["outcome"] == {"termination": "score_limit", "winners": [0], "scores": SCORES,
                              "detail": "lowest score (U-13)"}
    assert out["ambiguous"] == [] and out["ambiguous_complete"] is True
    n = len(lines)
    assert out["implied_moves"][-2:] == [{"before_line": n, "move": "tree gL gM gS"},
                                         {"before_line": n + 1, "move": "tree kL kM kS"}]


def test_without_seats_the_json_reports_both_readings(tmp_path, capsys):
    """The same record without seats: the last line reads as Cat's forced move
    (taken: fewest moves left out, docs/records.md) or as Dan's after Cat's was
    left out. Both fit the whole record, and the JSON says so."""
    lines = referee_record(seats=False)
    code, out = run(tmp_path, capsys, lines)
    assert code == 0 and out["ok"]
    # the reading taken: the game goes on, Dan to choose
    assert not out["terminal"] and out["current_player"] == 3 and out["scores"] == [3, 9, 11, 0, 6]
    assert out["ambiguous"] == [{
        "line": len(lines), "move": "tree gL gM gS",
        "readings": [
            {"left_out": [], "seat": 2, "terminal": False, "current_player": 3,
             "scores": [3, 9, 11, 0, 6], "outcome": None},
            {"left_out": ["tree gL gM gS"], "seat": 3, "terminal": True, "current_player": -2,
             "scores": SCORES, "outcome": {"termination": "score_limit", "winners": [0], "scores": SCORES,
                                           "detail": "lowest score (U-13)"}},
        ]}]
    assert out["ambiguous_complete"] is True
    # the summary without --json says it too
    path = tmp_path / "rec.jsonl"
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert f"line {len(lines)} (tree gL gM gS) reads 2 ways, the first taken" in text
    assert "Dan's move after tree gL gM gS left out (the game ends)" in text


def test_a_record_with_every_move_reads_one_way_with_or_without_seats(tmp_path, capsys):
    for seats in (False, True):
        code, out = run(tmp_path, capsys, referee_record(seats=seats, forced=True))
        assert code == 0 and out["scores"] == SCORES and out["terminal"]
        assert out["implied_moves"] == [] and out["ambiguous"] == []


def test_a_move_whose_seat_is_not_the_one_to_act_is_refused_at_its_line(tmp_path, capsys):
    lines = referee_record(seats=True, forced=True)
    k = next(i for i, line in enumerate(lines) if json.loads(line).get("move") == "bid B yM")
    bad = json.loads(lines[k])
    assert bad["seat"] == 0
    bad["seat"] = 1
    code, out = run(tmp_path, capsys, lines[:k] + [json.dumps(bad)] + lines[k + 1:])
    assert code == 1 and out["ok"] is False and out["line"] == k + 1
    assert "the move is marked seat 1 (Bob), but seat 0 (Ann) is to act" in out["error"]


def test_a_seat_on_a_chance_outcome_or_a_seat_that_is_no_number_is_refused(tmp_path, capsys):
    lines = referee_record(seats=True, forced=True)
    draw = json.loads(lines[2])
    assert draw == {"type": "move", "move": "got rL"}
    code, out = run(tmp_path, capsys, lines[:2] + [json.dumps({**draw, "seat": 0})] + lines[3:])
    assert code == 1 and out["line"] == 3 and "chance outcome" in out["error"]
    first = json.loads(lines[1])
    for seat in ("0", True, -1, 1.0):
        code, out = run(tmp_path, capsys, lines[:1] + [json.dumps({**first, "seat": seat})] + lines[2:])
        assert code == 1 and out["line"] == 2 and '"seat" must be a seat number' in out["error"]


def test_a_seat_that_decides_nothing_changes_nothing_BU13():
    """A Bottoms Up record whose forced "yellow open" (BU-13) is left out reads
    one way as a whole (the other stops later): nothing is ambiguous."""
    from tests.test_records import BU_FORCED_TWICE
    left_out = BU_FORCED_TWICE[:10] + BU_FORCED_TWICE[11:]
    out = records.replay(records.parse_lines(left_out)).to_json()
    assert out["ambiguous"] == [] and out["implied_moves"] == [{"before_line": 11, "move": "yellow open"}]


@pytest.fixture
def journal(tmp_path):
    j = Journal(str(tmp_path / "j.db"))
    yield j
    j.close()


def test_the_device_writes_the_seat_on_every_move_forced_ones_included(journal, tmp_path):
    """The device's own record of the game: each player move carries the seat
    that was to act (forced moves too, U-6, U-14); draws carry none."""
    s = Session.start(journal, "undercut", FIVE, random.Random(1))
    while not s.state.is_terminal():  # the device plays the forced moves by itself
        s.play(GAME[len(s.fold.moves)])
    assert s.state.is_terminal() and list(s.state.scores()) == SCORES
    events = journal.events(s.id)
    assert [e.data["move"] for e in events] == GAME
    st = SPEC.new(FIVE)
    forced_seen = 0
    for e in events:
        if st.current_player >= 0:
            assert e.data["seat"] == st.current_player
            forced_seen += st.forced_move() is not None
        else:
            assert "seat" not in e.data
        st = st.apply_text(e.data["move"])
    assert forced_seen == 7  # the TREEs of round 1 (4), Bob's in round 2, Cat's and Eve's in round 3
    rec = tmp_path / "dev.jsonl"
    rec.write_text(s.record_text(), encoding="utf-8")
    out = records.replay(records.read(str(rec))).to_json()
    assert out["scores"] == SCORES and out["implied_moves"] == [] and out["ambiguous"] == []


def test_an_undo_then_the_seat_of_the_move_played_again(journal):
    s = Session.start(journal, "bag_of_ice", {"players": ["Ann", "Bob"], "start": 1}, random.Random(3))
    s.play("roll")
    s.undo()
    s.play("bank")
    moves = [e for e in journal.events(s.id) if e.type == "move"]
    assert moves[0].data == {"move": "roll", "seat": 1} and "seat" not in moves[1].data
    assert moves[-1].data == {"move": "bank", "seat": 1}
    with pytest.raises(RecordError):
        records.check_seat(s.state, {"seat": "1"})


def test_a_score_sheet_pass_is_marked_with_the_start_player_s_seat_U11_U14(journal):
    """``pass 2`` names the passer (Bob), but the table enters it at the start
    player's turn (U-14): its seat is the start player's, and replay checks that."""
    s = Session.start(journal, "undercut", {"players": ["Ann", "Bob", "Cat"], "level": "score", "start": 2},
                      random.Random(1))
    for text in ("done", "done", "done", "pass 2"):
        s.play(text)
    moves = [e.data for e in journal.events(s.id)]
    assert moves == [{"move": "done", "seat": 2}, {"move": "done", "seat": 0}, {"move": "done", "seat": 1},
                     {"move": "pass 2", "seat": 2}]
    head = json.dumps({**HEADER, "setup": {"players": ["Ann", "Bob", "Cat"], "level": "score", "start": 2}})
    lines = [head] + [json.dumps({"type": "move", **m}) for m in moves]
    assert records.replay(records.parse_lines(lines)).fold.state.scores() == (0, 1, 0)
    wrong = lines[:-1] + [json.dumps({"type": "move", "move": "pass 2", "seat": 1})]
    with pytest.raises(RecordError, match=r"marked seat 1 \(Bob\), but seat 2 \(Cat\) is to act"):
        records.replay(records.parse_lines(wrong))
