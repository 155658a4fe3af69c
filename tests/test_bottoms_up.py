"""Bottoms Up rules: setup, opening, every line of BU-8, BU-7 drops, BU-9 queue, end and score.

Positions come from ``position()``: the field as piece texts bottom to top,
labels A, B, C... in order; pieces come out of a full 90-piece stash unless
``stash`` says otherwise. Every expected field is worked out from the
rulings by hand, not copied from the engine.
"""
from __future__ import annotations

import pytest

from companion.engine import CHANCE, TERMINAL, Termination
from companion.errors import IllegalMoveError, InvalidMoveError, SetupError
from companion.games import spec
from companion.games.bottoms_up import (
    BlueChoice, Place, Reveal, Secret, YellowChoice, label_of, new_game, parse_bu_move, position,
)
from companion.pieces import Piece

P4 = ["Ann", "Bob", "Cat", "Dan"]


def pos(field, **kw):
    setup = {"players": P4, **kw.pop("setup", {})}
    return position(setup, field, **kw)


def play(s, *moves):
    for m in moves:
        s = s.apply_text(m)
    return s


def fld(s):
    return s.field_lines()


def stash(s, piece):
    return s.stash.count(Piece.parse(piece))


def drain(s, *keep):
    """The same position with every stash piece destroyed except ``keep`` (for
    the "none left" cases)."""
    from dataclasses import replace
    from companion.pieces import Bag
    kept = Bag.parse(" ".join(keep))
    gone = [p for p in s.stash if True]
    rest = Bag(gone)
    for p in kept:
        rest = rest.remove(p)
    return replace(s, stash=kept, destroyed=s.destroyed.add(*rest))


# ---------------------------------------------------------------- setup (BU-1..BU-4)


def test_setup_defaults_and_validation():
    s = new_game({"players": P4})
    assert len(s.stash) == 90 and s.phase == "secret" and s.current_player == CHANCE
    assert s.warning is None
    assert new_game({"players": ["a", "b"]}).warning.endswith("(BU-2)")
    assert len(new_game({"players": P4, "stash": 1}).stash) == 18
    for bad in ({"players": ["a"]}, {"players": list("abcdefg")}, {"players": ["a", "a"]},
                {"players": P4, "secret": "bag"}, {"players": P4, "stash": 0}, {"players": P4, "stash": 6},
                {"players": P4, "stash": True}, {"players": P4, "lone_pieces_count": 1},
                {"players": P4, "colour": 1}, {}, []):
        with pytest.raises(SetupError):
            new_game(bad)


def test_secret_draw_is_chance_with_distinct_colors():
    """BU-3: one color per player, all different, each remaining color equally likely."""
    s = new_game({"players": P4})
    outs = s.chance_outcomes()
    assert len(outs) == 6 and all(p == outs[0][1] for _, p in outs)
    s = s.apply_text("secret g")
    assert len(s.chance_outcomes()) == 5 and "secret g" not in [str(m) for m in s.legal_moves()]
    with pytest.raises(IllegalMoveError):
        s.apply_text("secret g")
    s = play(s, "secret r", "secret k", "secret w")
    assert s.phase == "opening" and s.current_player == 0
    assert [c.letter for c in s.secrets] == ["g", "r", "k", "w"]
    assert s.describe(Secret(s.secrets[0])).endswith("secret color is drawn")  # never shows it


def test_opening_places_smalls_as_lone_pieces_in_seat_order():
    """BU-4: a small of any color in the stash, a lone piece; no recalculation."""
    s = new_game({"players": P4, "secret": "physical"})
    assert s.phase == "opening"
    with pytest.raises(IllegalMoveError):
        s.apply_text("place rM")
    s = play(s, "place rS")
    with pytest.raises(IllegalMoveError):
        s.apply_text("place yS on A")
    s = play(s, "place yS", "place yS", "place wS")
    assert fld(s) == ["A: rS", "B: yS", "C: yS", "D: wS"]
    assert s.phase == "play" and s.current_player == 0 and len(s.stash) == 86


def test_empty_field_piece_goes_down_without_recalculation():
    """BU-5: on an empty field the piece goes down as a lone piece."""
    s = pos([])
    assert [str(m) for m in s.legal_moves()][:2] == ["place rS", "place rM"]
    t = s.apply_text("place yL")
    assert fld(t) == ["A: yL"] and t.pending is None and t.current_player == 1
    with pytest.raises(IllegalMoveError):
        t.apply_text("place rS")  # the field is not empty any more


def test_place_refusals_leave_the_state_unchanged():
    s = pos(["bM"])
    before = s.to_json()
    with pytest.raises(IllegalMoveError, match="no B on the field"):
        s.apply_text("place rS on B")
    with pytest.raises(IllegalMoveError):
        s.apply_text("blue r")
    with pytest.raises(InvalidMoveError):
        s.apply_text("place rQ on A")
    with pytest.raises(InvalidMoveError):
        s.apply_text("place cS on A")  # cyan is not a Bottoms Up color
    t = pos(["bM"], destroyed="rS rS rS rS")
    t = t.apply_text("place rS on A")
    with pytest.raises(IllegalMoveError, match="no rS left"):
        t.apply_text("place rS on A")
    assert s.to_json() == before


# ---------------------------------------------------------------- BU-8 effects


def test_red_shrinks_each_size():
    assert fld(pos(["bL"]).apply_text("place rS on A")) == ["A: bM rS"]
    assert fld(pos(["bM"]).apply_text("place rS on A")) == ["A: bS rS"]
    s = pos(["bS"]).apply_text("place rS on A")
    assert fld(s) == ["A: rS"] and len(s.destroyed) == 1 and s.destroyed.count(Piece.parse("bS")) == 1


def test_red_on_large_with_no_medium_left_becomes_small():
    """BU-8: a large with no medium left becomes a small."""
    s = drain(pos(["gL"]), "rS", "gS", "kS")
    t = s.apply_text("place rS on A")
    assert fld(t) == ["A: gS rS"] and stash(t, "gL") == 1 and stash(t, "gS") == 0


def test_red_destroys_when_no_smaller_piece_left():
    s = drain(pos(["gL"]), "rS", "kS")
    t = s.apply_text("place rS on A")
    assert fld(t) == ["A: rS"] and t.destroyed.count(Piece.parse("gL")) == s.destroyed.count(Piece.parse("gL")) + 1
    s = drain(pos(["gM"]), "rS", "kS")
    assert fld(s.apply_text("place rS on A")) == ["A: rS"]


def test_replacements_go_through_the_stash():
    """BU-6: the old piece returns to the stash, the replacement comes from it."""
    s = pos(["bL"])
    t = s.apply_text("place rS on A")
    assert stash(t, "bL") == stash(s, "bL") + 1 and stash(t, "bM") == stash(s, "bM") - 1
    assert len(t.destroyed) == 0 and len(t.stash) == len(s.stash) - 1


def test_green_grows_small_and_medium():
    assert fld(pos(["rS"]).apply_text("place gS on A")) == ["A: rM gS"]
    assert fld(pos(["rM"]).apply_text("place gS on A")) == ["A: rL gS"]


def test_green_on_large_spawns_a_lone_small():
    t = pos(["rL", "kS"]).apply_text("place gS on A")
    assert fld(t) == ["A: rL gS", "B: kS", "C: rS"]
    assert "spawns a lone rS as C" in t.last_lines()[1]


def test_green_none_left():
    s = drain(pos(["rS"]), "gS", "kS")
    assert fld(s.apply_text("place gS on A")) == ["A: rS gS"]
    s = drain(pos(["rL"]), "gS", "kS")
    t = s.apply_text("place gS on A")
    assert fld(t) == ["A: rL gS"] and "no rS left to spawn" in t.last_lines()[1]


def test_blue_recolor_is_a_choice_among_stash_colors():
    s = pos(["gM", "kS"])
    t = s.apply_text("place bS on A")
    assert t.pending is not None and t.current_player == 0
    assert [str(m) for m in t.legal_moves()] == ["blue r", "blue b", "blue y", "blue w", "blue k"]
    assert t.forced_move() is None
    u = t.apply_text("blue w")
    assert fld(u) == ["A: wM bS", "B: kS"] and stash(u, "gM") == stash(s, "gM") + 1
    with pytest.raises(IllegalMoveError):
        t.apply_text("blue g")  # not a different color
    with pytest.raises(IllegalMoveError):
        t.apply_text("place rS on B")  # the choice comes first


def test_blue_single_option_is_still_a_choice_and_none_is_nothing():
    s = drain(pos(["gM"]), "bS", "kS", "yM")
    t = s.apply_text("place bS on A")
    assert [str(m) for m in t.legal_moves()] == ["blue y"]
    assert str(t.forced_move()) == "blue y"
    assert fld(t.apply(t.forced_move())) == ["A: yM bS"]
    s = drain(pos(["gM"]), "bS", "kS")
    t = s.apply_text("place bS on A")
    assert t.pending is None and fld(t) == ["A: gM bS"] and t.current_player == 1


def test_yellow_moves_to_another_piece_or_open_space():
    s = pos(["gM", "rS", "bL gS"])
    t = s.apply_text("place yS on A")
    assert [str(m) for m in t.legal_moves()] == ["yellow B", "yellow C", "yellow open"]
    assert fld(t.apply_text("yellow open")) == ["A: yS", "B: rS", "C: bL gS", "D: gM"]
    u = t.apply_text("yellow C")  # gM lands on C: C recalculated from the bottom
    # bL under gS: green on a large spawns a lone bS (D); gS under gM grows to gM
    assert fld(u) == ["A: yS", "B: rS", "C: bL gM gM", "D: bS"]
    assert any(l == "C recalculated" for l in u.last_lines())


def test_white_reflects_lower_piece_own_effect():
    """BU-8 item 4: U white: L takes the effect of L's own color."""
    assert fld(pos(["rM"]).apply_text("place wS on A")) == ["A: rS wS"]
    assert fld(pos(["gM"]).apply_text("place wS on A")) == ["A: gL wS"]
    t = pos(["bM"]).apply_text("place wS on A")
    assert t.pending.kind == "blue" and fld(t.apply_text("blue g")) == ["A: gM wS"]
    t = pos(["yM", "kS"]).apply_text("place wS on A")
    assert t.pending.kind == "yellow"
    assert fld(t.apply_text("yellow B")) == ["A: wS", "B: kS yM"]


def test_white_on_white_and_black_on_both_sides():
    """BU-8 items 1-3."""
    assert fld(pos(["wM"]).apply_text("place wS on A")) == ["A: wM wS"]  # item 3
    for u in ("rS", "bS", "gS", "yS", "wS", "kS"):
        t = pos(["kM", "gS"]).apply_text(f"place {u} on A")  # item 1: black lower is immune
        assert t.pending is None and fld(t) == ["A: kM " + u, "B: gS"], u
    for low in ("rM", "gM", "bM", "yM", "wM"):
        t = pos([low]).apply_text("place kS on A")  # item 2: black has no effect
        assert fld(t) == [f"A: {low} kS"]


def test_lower_white_takes_upper_effect_then_upper_takes_its_own():
    """BU-8 item 5, red: wM -> wS, then rM shrinks itself to rS."""
    t = pos(["wM"]).apply_text("place rM on A")
    assert fld(t) == ["A: wS rS"]
    # even when the first half destroyed the white piece
    t = pos(["wS"]).apply_text("place rM on A")
    assert fld(t) == ["A: rS"] and t.destroyed.count(Piece.parse("wS")) == 1
    # green: both grow
    assert fld(pos(["wS"]).apply_text("place gS on A")) == ["A: wM gM"]


def test_lower_white_with_blue_and_yellow_uppers_asks_twice():
    t = pos(["wM", "kS"]).apply_text("place bS on A")
    assert t.pending.kind == "blue" and t.pending_json()["piece"] == "wM"
    t = t.apply_text("blue r")
    assert fld(t) == ["A: rM bS", "B: kS"] and t.pending.kind == "blue" and t.pending_json()["piece"] == "bS"
    t = t.apply_text("blue g")  # after the item-5 half the pass goes on: gS is now the top
    assert fld(t) == ["A: rM gS", "B: kS"] and t.pending is None
    # yellow: the white piece moves, then the yellow moves itself (even though L moved)
    t = pos(["wM", "kS"]).apply_text("place yS on A")
    t = t.apply_text("yellow B")
    assert t.pending.kind == "yellow" and t.pending_json()["piece"] == "yS"
    assert [str(m) for m in t.legal_moves()] == ["yellow B", "yellow open"]
    t = t.apply_text("yellow open")
    # A emptied and freed its label; the yS went to open space and took the first free label
    assert fld(t) == ["A: yS", "B: kS wM"]


def test_item5_recolored_white_still_lets_the_upper_take_its_own_effect():
    """BU-8 item 5: 'even when the first half ... recolored L'."""
    t = pos(["wS"]).apply_text("place gS on A")   # first half grows wS to wM, then gS grows to gM
    assert fld(t) == ["A: wM gM"]
    t = pos(["wS"]).apply_text("place bM on A").apply_text("blue k")
    assert fld(t) == ["A: kS bM"] and t.pending.kind == "blue"


# ---------------------------------------------------------------- BU-7 passes


def test_destroyed_piece_lets_the_pieces_above_drop_and_the_pass_goes_on():
    """BU-7: gS destroyed by rS; the pieces above drop; the pass visits the
    noted pieces in order: rS (now bottom) is then affected by bS above it."""
    s = pos(["gS rS"])
    t = s.apply_text("place bS on A")
    # noted: gS, rS, bS. gS under rS: destroyed, rS and bS drop. rS under bS: recolor.
    assert t.pending is not None and t.pending_json()["piece"] == "rS"
    assert fld(t) == ["A: rS bS"]
    assert fld(t.apply_text("blue y")) == ["A: yS bS"]


def test_replacement_keeps_its_place_and_counts_as_visited():
    """BU-7: each piece is affected as the lower piece at most once per pass."""
    t = pos(["bS", "gM"]).apply_text("place rS on A")  # bS destroyed; then nothing above rS
    assert fld(t) == ["A: rS", "B: gM"]
    # gM under gS grows to gL once, not again
    t = pos(["rM gS"]).apply_text("place gS on A")
    # noted rM, gS, gS: rM grows to rL (gS above), gS grows to gM (gS above)
    assert fld(t) == ["A: rL gM gS"]


def test_top_piece_is_not_affected_and_only_the_pass_order_counts():
    t = pos(["yS gS"]).apply_text("place rM on A")
    # yS under gS: grows to yM; gS under rM: shrinks -> destroyed (small) ; rM top stays
    assert fld(t) == ["A: yM rM"]


# ---------------------------------------------------------------- BU-9 queue


def test_yellow_cascade_resolved_in_queue_order():
    """BU-9: moves queue recalculations; the current pass finishes first, then
    the queue in order; a stack queued twice is recalculated twice."""
    s = pos(["rS yS", "kS", "gM"])
    t = s.apply_text("place yS on A")
    # A noted rS, yS, yS(new). rS under yS: moves (choice 1)
    assert t.pending_json()["piece"] == "rS"
    t = t.apply_text("yellow B")       # rS onto kS: B queued; A drops to yS yS
    # A's pass goes on before B: noted yS (old) under yS (new): moves (choice 2)
    assert t.pending_json()["piece"] == "yS" and t.to_json()["queue"] == ["B"]
    t = t.apply_text("yellow C")       # yS onto gM: C queued after B
    assert fld(t) == ["A: yS", "B: kS rS", "C: gM yS"]
    # B recalculated first: kS immune, then C: yS moves gM (choice 3)
    assert t.pending_json()["piece"] == "gM" and t.pending_json()["label"] == "C"
    assert t.to_json()["queue"] == []
    lines = t.last_lines()
    assert lines.index("B recalculated") < next(i for i, l in enumerate(lines) if l.startswith("C: recalculating"))
    t = t.apply_text("yellow A")       # gM onto yS: A queued; green grows yS -> yM
    assert fld(t) == ["A: yM gM", "B: kS rS", "C: yS"] and t.pending is None
    assert t.current_player == 1


def test_queued_stack_that_no_longer_exists_is_skipped():
    """BU-9: A is queued twice, its first pass empties it, the second is skipped."""
    s = pos(["yS", "wS", "kM"])
    t = s.apply_text("place yM on B")  # wS under yM: item 5: wS moves, then yM moves itself
    t = t.apply_text("yellow A")       # wS onto yS: A queued
    assert t.pending_json()["piece"] == "yM"
    t = t.apply_text("yellow A")       # yM onto A too (B empties): A queued again
    # B's pass is over; A's first pass: yS under wS reflects yellow: yS moves itself
    assert fld(t) == ["A: yS wS yM", "C: kM"] and t.to_json()["queue"] == ["A"]
    assert t.pending_json()["piece"] == "yS"
    t = t.apply_text("yellow open")    # yS to open space: first free label B
    assert t.pending_json()["piece"] == "wS"  # wS under yM: item 5
    t = t.apply_text("yellow open")    # wS: D
    t = t.apply_text("yellow open")    # yM moves itself: A empties, yM takes the freed label A
    assert fld(t) == ["A: yM", "B: yS", "C: kM", "D: wS"]
    assert "a queued stack no longer exists: skipped (BU-9)" in t.last_lines()
    assert t.pending is None and t.current_player == 1


def test_move_to_open_space_ends_a_cascade():
    s = pos(["yS", "yS", "yS"])
    t = s.apply_text("place yS on A")
    for _ in range(5):
        t = t.apply_text("yellow B") if t.pending and "yellow B" in [str(m) for m in t.legal_moves()] else t
    while t.pending is not None:
        t = t.apply_text("yellow open")
    assert t.current_player == 1
    assert sum(len(g.slots) for g in t.groups) == 4


# ---------------------------------------------------------------- labels, end, score


def test_labels_are_stable_and_the_first_free_one_is_reused():
    assert [label_of(i) for i in (0, 25, 26, 27, 52)] == ["A", "Z", "AA", "AB", "BA"]
    s = pos({"A": "yS", "C": "kS"})
    t = s.apply_text("place yS on A").apply_text("yellow open")
    assert fld(t) == ["A: yS", "B: yS", "C: kS"]


def test_game_ends_when_the_stash_is_empty_and_scores_tops():
    """BU-10, BU-11, BU-12: 4 players, stash 1 per color and size (18 pieces)."""
    s = pos(["rS"], setup={"stash": 1}, secrets=["r", "g", "b", "k"])
    s = drain(s, "kL")
    t = s.apply_text("place kL on A")
    assert t.is_terminal() and t.current_player == TERMINAL
    o = t.outcome()
    assert o.termination == Termination.STASH_EMPTY
    # A = rS kL: a stack topped by a black large: 3 for the black player (seat 3)
    assert o.scores == (0, 0, 0, 3) and o.winners == (3,)
    assert t.to_json()["breakdown"][3] == [{"label": "A", "piece": "kL", "points": 3}]
    with pytest.raises(IllegalMoveError):
        t.apply_text("place rS on A")


def test_lone_pieces_score_only_with_the_house_rule_and_ties_share():
    field = ["rS kM", "gL", "bS"]
    base = drain(pos(field, secrets=["k", "g", "b", "y"]), "yS")
    t = base.apply_text("place yS on C")
    assert t.pending is not None
    t = t.apply_text("yellow open")  # bS to open space: C = yS, D = bS
    assert t.is_terminal() and t.scores() == (2, 0, 0, 0)
    lone = drain(pos(field, setup={"lone_pieces_count": True}, secrets=["k", "g", "b", "y"]), "yS")
    t = lone.apply_text("place yS on C").apply_text("yellow open")
    # kM 2, gL 3, yS 1, bS 1
    assert t.scores() == (2, 3, 1, 1) and t.outcome().winners == (1,)
    tie = drain(pos(["rS kM", "wS gM"], secrets=["k", "g", "b", "y"]), "kS").apply_text("place kS on A")
    # A = rS kM kS: top kS 1 for seat 0; B top gM 2 for seat 1
    assert tie.scores() == (1, 2, 0, 0)


def test_physical_mode_reveals_colors_at_the_end():
    s = drain(pos(["rS"], setup={"secret": "physical"}), "gS")
    t = s.apply_text("place gS on A")
    assert t.phase == "reveal" and t.current_player == 0 and t.scores() == (0, 0, 0, 0)
    t = t.apply_text("reveal g")
    with pytest.raises(IllegalMoveError):
        t.apply_text("reveal g")
    t = play(t, "reveal r", "reveal b", "reveal k")
    assert t.is_terminal() and t.scores() == (1, 0, 0, 0)  # A = rM gS


def test_move_texts_round_trip_and_describe():
    s = pos(["wM", "kS"])
    for m in s.legal_moves():
        assert s.parse_move(str(m)) == m
    t = s.apply_text("place bS on A")
    for m in t.legal_moves():
        assert t.parse_move(str(m)) == m
    assert t.describe(BlueChoice(Piece.parse("rS").color)) == "Ann: blue turns wM into rM on A"
    assert s.describe(Place(Piece.parse("yL"), "B")) == "Ann places yL on B (kS)"
    y = pos(["yS", "kS"]).apply_text("place yS on A")
    assert y.describe(YellowChoice(None)) == "Ann: yellow moves yS from A to open space"
    for text in ("place yL on C", "place rS", "yellow AB", "yellow open", "blue g", "secret k", "reveal w"):
        assert str(parse_bu_move(text)) == text
    assert str(parse_bu_move("PLACE yl ON c")) == "place yL on C"
    for bad in ("", "place", "place yL under C", "yellow 3", "blue q", "jump"):
        with pytest.raises(InvalidMoveError):
            parse_bu_move(bad)


def test_registry_and_to_json_shape():
    s = spec("bottoms_up").new({"players": P4})
    j = s.to_json()
    for key in ("players", "field", "stash", "stash_count", "destroyed", "destroyed_count", "pending",
                "active_player", "secret_colors", "scores", "winners", "phase", "last_steps", "queue"):
        assert key in j
    t = pos(["gM"]).apply_text("place bS on A")
    j = t.to_json()
    assert j["phase"] == "choice" and j["pending"]["options"][0] == "blue r" and j["recalculating"] == "A"
    assert j["field"] == [{"label": "A", "pieces": ["gM", "bS"]}]
    assert j["stash_count"] + j["field_count"] + j["destroyed_count"] == 90


def test_doc_example_replays_to_the_stated_result():
    """The example record in docs/records-bottoms_up.md (the referees' contract)."""
    import re
    from pathlib import Path

    from companion import records

    doc = (Path(__file__).parents[1] / "docs" / "records-bottoms_up.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```jsonl\n(.*?)```", doc, re.S)
    assert len(blocks) == 1
    out = records.replay(records.parse_lines(blocks[0].splitlines())).to_json()
    st = out["state"]
    assert [f"{f['label']}: {' '.join(f['pieces'])}" for f in st["field"]] == [
        "A: rS kM bL", "B: kS yM kL bM", "C: gL", "D: wS wM wL", "E: rL bS", "F: yS", "G: gS rM"]
    assert st["destroyed"] == {"gM": 1, "yL": 1}
    assert out["scores"] == [2, 6, 0, 0] and out["outcome"]["winners"] == [1]
    assert out["outcome"]["detail"] == "highest score (BU-12)"


def test_bu12_tied_highest_scores_share_the_win():
    """BU-12: ties share the win; BU-11: colors nobody drew score for nobody."""
    s = drain(pos(["rS kM", "gL bM", "yS"], secrets=["k", "b", "g", "w"]), "wS")
    t = s.apply_text("place wS on C")   # yS under wS: reflection, yS moves itself
    t = t.apply_text("yellow open")      # the last piece: C = wS, D = yS (lone, nobody scores)
    assert t.is_terminal() and t.field_lines() == ["A: rS kM", "B: gL bM", "C: wS", "D: yS"]
    o = t.outcome()
    assert o.scores == (2, 2, 0, 0) and o.winners == (0, 1)
    assert o.detail == "shared win: 2 players tied on 2 (BU-12)"
    assert t.to_json()["winners"] == [0, 1]


def test_bu12_nobody_scores_everybody_shares():
    s = drain(pos(["rS", "gS"], secrets=["k", "b", "w", "y"]), "kS")
    t = s.apply_text("place kS on A")    # A = rS kS: black tops, black's owner scores 1
    assert t.scores() == (1, 0, 0, 0) and t.outcome().winners == (0,)
    s = drain(pos(["rS", "gS"], secrets=["k", "b", "w", "y"]), "gM")
    t = s.apply_text("place gM on A")    # no rM left: rS stays; green is nobody's color
    assert t.field_lines() == ["A: rS gM", "B: gS"] and t.is_terminal()
    assert t.scores() == (0, 0, 0, 0) and t.outcome().winners == (0, 1, 2, 3)


def test_bu10_a_spawn_can_empty_the_stash_and_the_turn_still_finishes():
    """BU-10: the end is judged at the start of the next turn, after the whole cascade."""
    s = drain(pos(["rL", "yS"]), "gS", "rS")
    t = s.apply_text("place gS on A")    # green on a large spawns the last piece, rS
    assert t.field_lines() == ["A: rL gS", "B: yS", "C: rS"] and len(t.stash) == 0
    assert t.is_terminal() and t.to_json()["phase"] == "over"


def test_step_kinds_are_an_enum_printing_the_records_words():
    """The log's kinds are a StrEnum (a typo fails at import) whose values are
    the words records print: a log's JSON is unchanged."""
    import json

    from companion.games.bottoms_up import StepKind, position
    s = position({"players": ["Ann", "Bob"]}, ["rS", "gS"]).apply_text("place yL on A")
    kinds = [st.kind for st in s.last_steps]
    assert kinds and all(isinstance(k, StepKind) for k in kinds)
    words = [json.loads(json.dumps(st.to_json()))["kind"] for st in s.last_steps]
    assert words == [k.value for k in kinds]
    assert type(words[0]) is str and words[0] == "place"
