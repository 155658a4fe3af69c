"""Bag of Ice engine: setup, turns and rulings B-1..B-8 (odds B-9 in
test_bag_of_ice_odds.py, scoring B-5 in test_bag_of_ice_scoring.py)."""
from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from companion import records
from companion.engine import CHANCE, TERMINAL, Termination
from companion.errors import IllegalMoveError, InvalidMoveError, SetupError
from companion.games import spec
from companion.games.bag_of_ice import new_game, position
from companion.pieces import Piece, Size

ABC = ["Ann", "Bob", "Cat"]


def play(state, *texts):
    for t in texts:
        state = state.apply_text(t)
    return state


def refused(state, text, error=IllegalMoveError, match=None):
    before = state.to_json()
    with pytest.raises(error, match=match):
        state.apply_text(text)
    assert state.to_json() == before


# ---------------------------------------------------------------- setup


def test_registry_and_defaults():
    s = spec("bag_of_ice").new({"players": ABC})
    j = s.to_json()
    assert j["target"] == 60  # B-6 default
    assert j["colors"] == ["red", "yellow", "green", "cyan", "purple"]  # B-1 default
    assert (j["die_source"], j["bag_source"]) == ("virtual", "virtual")
    assert j["phase"] == "decide" and s.current_player == 0 and j["turn"] == 1
    assert j["totals"] == [0, 0, 0] and j["bag_count"] == 21


@pytest.mark.parametrize("setup, match", [
    ({}, "players"),
    ({"players": []}, "1 to 12"),
    ({"players": [f"p{i}" for i in range(13)]}, "1 to 12"),
    ({"players": ["Ann", "Ann"]}, "different"),
    ({"players": ["Ann", ""]}, "names"),
    ({"players": ABC, "target": 0}, "target"),
    ({"players": ABC, "target": "60"}, "target"),
    ({"players": ABC, "target": True}, "target"),
    ({"players": ABC, "start": 3}, "start"),
    ({"players": ABC, "start": "highest"}, "start"),
    ({"players": ABC, "die": "wooden"}, "die"),
    ({"players": ABC, "bag": "paper"}, "bag"),
    ({"players": ABC, "colors": ["red", "yellow", "green", "cyan"]}, "5 color"),
    ({"players": ABC, "colors": ["red", "red", "green", "cyan", "purple"]}, "different"),
    ({"players": ABC, "colors": ["red", "mauve", "green", "cyan", "purple"]}, "mauve"),
    ({"players": ABC, "rounds": 3}, "unknown setup key"),
])
def test_setup_errors(setup, match):
    with pytest.raises(SetupError, match=match):
        new_game(setup)


def test_b3_solo_practice_game_keeps_the_turn():
    """B-3: a lone player is a solo practice game: every turn is theirs."""
    s = new_game({"players": ["Solo"], "target": 5})
    s = play(s, "roll", "face L", "got yL", "bank")
    assert s.current_player == 0 and s.scores() == (3,) and s.to_json()["turn"] == 2
    s = play(s, "roll", "face L", "got gL", "bank")
    assert s.is_terminal() and s.outcome().winners == (0,)


# ---------------------------------------------------------------- start (B-3)


def test_b3_random_start_is_one_chance_outcome():
    s = new_game({"players": ABC, "start": "random"})
    assert s.current_player == CHANCE and s.to_json()["phase"] == "start"
    assert s.chance_outcomes() == [(s.parse_move(f"start {i}"), Fraction(1, 3)) for i in (1, 2, 3)]
    refused(s, "start 4", match="no seat 4")
    refused(s, "roll", match="start pick")
    s = s.apply_text("start 2")
    assert s.current_player == 1 and s.to_json()["start_player"] == 1


def test_b3_rolloff_highest_pip_total_starts_and_tied_highest_roll_again():
    """B-3: everybody rolls; highest pip total starts; the tied highest reroll.
    S/M and L both total 3 pips: a tie."""
    s = new_game({"players": ["Ann", "Bob", "Cat", "Dan"], "start": "rolloff"})
    assert s.current_player == CHANCE and s.roller == 0
    assert {p for _, p in s.chance_outcomes()} == {Fraction(1, 6)}
    s = play(s, "face S/M", "face L", "face M/L", "face M/L")
    # Cat and Dan tied on 5: only they roll again
    assert s.current_player == CHANCE and s.to_json()["rolloff_contenders"] == [2, 3] and s.roller == 2
    assert s.describe(s.parse_move("face S")) == "Cat rolls S (1 pip) in the roll-off"
    s = play(s, "face S", "face S/L")
    j = s.to_json()
    assert j["start_player"] == 3 and s.current_player == 3 and j["phase"] == "decide"
    assert j["rolloff"] == [
        [{"seat": 0, "face": "S/M", "pips": 3}, {"seat": 1, "face": "L", "pips": 3},
         {"seat": 2, "face": "M/L", "pips": 5}, {"seat": 3, "face": "M/L", "pips": 5}],
        [{"seat": 2, "face": "S", "pips": 1}, {"seat": 3, "face": "S/L", "pips": 4}],
    ]


def test_b3_rolloff_tie_of_pip_totals_across_faces():
    """B-3: S/M (3) and L (3) tie; a lower roll does not matter."""
    s = play(new_game({"players": ["Ann", "Bob"], "start": "rolloff"}), "face S/M", "face L")
    assert s.current_player == CHANCE and s.to_json()["rolloff_contenders"] == [0, 1]
    s = play(s, "face S", "face M")
    assert s.current_player == 1


# ---------------------------------------------------------------- turns (B-2, B-4)


def test_b2_roll_is_a_chance_node_over_six_equal_faces():
    s = new_game({"players": ABC}).apply_text("roll")
    assert s.current_player == CHANCE
    assert [str(m) for m, _ in s.chance_outcomes()] == ["face S", "face M", "face L", "face S/M", "face S/L", "face M/L"]
    assert all(p == Fraction(1, 6) for _, p in s.chance_outcomes())


def test_b4_draw_weights_by_count_and_two_size_face_asks_for_a_size():
    """B-4: on a two-size face the player picks a size first; every piece of that
    size is equally likely: two cyan mediums twice as likely as one yellow medium."""
    s = play(new_game({"players": ABC}), "roll", "face S/M")
    assert s.current_player == 0 and [str(m) for m in s.legal_moves()] == ["size S", "size M"]
    refused(s, "size L", match="shows small and medium, not large")
    refused(s, "got yS", match="pick a size")
    s = s.apply_text("size M")
    probs = {str(m): p for m, p in s.chance_outcomes()}
    assert probs == {"got cM": Fraction(2, 7), "got gM": Fraction(2, 7), "got pM": Fraction(1, 7),
                     "got rM": Fraction(1, 7), "got yM": Fraction(1, 7)}


def test_b4_one_size_face_goes_straight_to_the_draw():
    s = play(new_game({"players": ABC}), "roll", "face L")
    assert s.current_player == CHANCE and s.to_json()["size"] == "L" and s.to_json()["face"] == "L"
    assert sum(p for _, p in s.chance_outcomes()) == 1 and len(s.chance_outcomes()) == 5


def test_b4_red_busts_turn_scores_nothing_and_passes_on():
    s = play(new_game({"players": ABC}), "roll", "face L", "got yL", "roll", "face S", "got rS")
    j = s.to_json()
    assert j["totals"] == [0, 0, 0] and s.current_player == 1 and j["turn"] == 2
    assert j["history"][0] == [{"turn": 1, "result": "bust", "score": 0, "pieces": ["yL", "rS"], "bust_on": "rS"}]
    assert j["last_turn"]["seat"] == 0


def test_b4_bank_before_the_first_draw_scores_zero():
    s = new_game({"players": ABC}).apply_text("bank")
    assert s.scores() == (0, 0, 0) and s.current_player == 1
    assert s.to_json()["history"][0] == [{"turn": 1, "result": "bank", "score": 0, "pieces": [], "bust_on": None}]


def test_b4_every_size_keeps_its_red_so_a_size_is_never_empty():
    """B-4: draw every non-red small; the next small draw can only be the red one."""
    s = new_game({"players": ["Solo"], "target": 999})
    for p in ["yS", "yS", "gS", "gS", "cS", "cS", "pS", "pS"]:
        s = play(s, "roll", "face S", f"got {p}")
    s = play(s, "roll", "face S")
    assert s.chance_outcomes() == [(s.parse_move("got rS"), Fraction(1))]
    assert s.bust_chance(Size.SMALL) == 1


def test_b5_bank_scores_the_best_arrangement():
    """B-5 through the engine: the rules' example turn banks 32."""
    s = new_game({"players": ABC})
    for face, p in [("L", "yL"), ("M", "yM"), ("S", "yS"), ("L", "gL"), ("M", "cM"), ("S", "pS"),
                    ("S", "yS"), ("S", "cS")]:
        s = play(s, "roll", f"face {face}", f"got {p}")
    j = s.to_json()
    assert j["turn_score"] == 32
    assert [t["kind"] for t in j["arrangement"]["trees"]] == ["yellow", "mixed"]
    assert s.describe(s.parse_move("bank")) == "Ann banks 32"
    s = s.apply_text("bank")
    assert s.scores() == (32, 0, 0)


def test_b6_reaching_the_target_ends_the_game_at_once():
    """B-6: the player who reaches the target wins at once; the target is a setting."""
    s = new_game({"players": ABC, "target": 20})
    s = play(s, "roll", "face L", "got yL", "roll", "face M", "got yM", "roll", "face S", "got yS")
    assert s.describe(s.parse_move("bank")) == "Ann banks 20 and wins (B-6)"
    s = s.apply_text("bank")
    assert s.is_terminal() and s.current_player == TERMINAL and s.legal_moves() == []
    o = s.outcome()
    assert o.termination == Termination.TARGET and o.winners == (0,) and o.scores == (20, 0, 0)
    j = s.to_json()
    assert j["winners"] == [0] and j["phase"] == "over" and "(B-6)" in j["result"]
    assert j["drawn"] == ["yL", "yM", "yS"]  # the winning turn stays on show
    refused(s, "roll", match="game is over")


def test_b6_below_target_play_goes_on():
    s = new_game({"players": ABC, "target": 21})
    s = play(s, "roll", "face L", "got yL", "roll", "face M", "got yM", "roll", "face S", "got yS", "bank")
    assert not s.is_terminal() and s.current_player == 1 and s.outcome() is None


def test_b7_every_piece_returns_to_the_bag_between_turns():
    s = play(new_game({"players": ABC}), "roll", "face L", "got yL", "roll", "face M", "got gM")
    assert s.to_json()["bag_count"] == 19
    after_bank = s.apply_text("bank")
    assert after_bank.to_json()["bag_count"] == 21 and after_bank.to_json()["drawn"] == []
    after_bust = play(s, "roll", "face M", "got rM")
    assert after_bust.to_json()["bag_count"] == 21 and after_bust.to_json()["drawn"] == []


def test_b8_physical_entries_are_checked_against_the_face_and_the_bag():
    """B-8: in physical mode the table enters face and piece; a piece of the wrong
    size or one not in the bag is refused with the reason; `broken` busts."""
    s = new_game({"players": ABC, "die": "physical", "bag": "physical"})
    assert "broken" in [str(m) for m in s.legal_moves()]
    s = play(s, "roll", "face M", "got gM", "roll", "face M", "got gM", "roll", "face S")
    refused(s, "got yM", match="yM is a medium, but the face S asks for a small \\(B-8\\)")
    s2 = play(s, "got yS", "roll", "face M/L", "size L")
    refused(s2, "got gM", match="gM is a medium, but large was picked on M/L \\(B-8\\)")
    s3 = play(new_game({"players": ABC, "bag": "physical"}), "roll", "face M", "got gM", "roll", "face M", "got gM",
              "roll", "face M")
    refused(s3, "got gM", match="no gM left in the bag")
    refused(s3, "got wM", match="not one of this game's colors")
    b = s3.apply_text("broken")
    assert b.scores() == (0, 0, 0) and b.current_player == 1
    assert b.to_json()["history"][0][0]["bust_on"] == "broken"
    assert b.to_json()["history"][0][0]["result"] == "bust"


@pytest.mark.parametrize("moves", [[], ["roll"], ["roll", "face S/L"], ["roll", "face S"]])
def test_b8_broken_busts_at_any_point_of_a_physical_turn(moves):
    s = play(new_game({"players": ABC, "die": "physical"}), "roll", "face L", "got pL", *moves)
    s = s.apply_text("broken")
    assert s.scores() == (0, 0, 0) and s.current_player == 1 and s.to_json()["bag_count"] == 21
    assert s.describe(s.parse_move("bank")) == "Bob banks 0"


def test_b8_broken_is_refused_in_virtual_mode_and_before_the_start():
    refused(new_game({"players": ABC}), "broken", match="physical")
    refused(new_game({"players": ABC, "bag": "physical", "start": "rolloff"}), "broken", match="no turn")


def test_refusals_and_parse_errors_change_nothing():
    s = new_game({"players": ABC})
    refused(s, "got yL", match="Ann to roll or bank")
    refused(s, "size S", match="not possible now")
    refused(s, "face S", match="not possible now")
    for bad in ("", "jump", "roll 2", "size Q", "face S/S", "got zz", "start 0", "start x"):
        refused(s, bad, error=InvalidMoveError)
    assert s.describe(s.parse_move("roll")) == "Ann rolls the die"


def test_describe_lines():
    s = play(new_game({"players": ABC}), "roll")
    assert s.describe(s.parse_move("face S/M")) == "Ann rolls S/M"
    s = s.apply_text("face S/M")
    assert s.describe(s.parse_move("size M")) == "Ann picks medium"
    s = s.apply_text("size M")
    assert s.describe(s.parse_move("got cM")) == "Ann draws cM"
    assert s.describe(s.parse_move("got rM")) == "Ann busts on rM"


def test_position_helper_and_bust_chance():
    s = position({"players": ABC}, "yL gM", totals=[5, 6, 7], active=2)
    assert s.current_player == 2 and s.scores() == (5, 6, 7)
    assert s.bust_chance(Size.LARGE) == Fraction(1, 4) and s.bust_chance(Size.MEDIUM) == Fraction(1, 6)
    with pytest.raises(SetupError):
        position({"players": ABC}, "rS")
    with pytest.raises(SetupError):
        position({"players": ABC}, "yL yL")


def test_every_legal_move_round_trips_through_text():
    for setup in ({"players": ABC, "start": "rolloff"}, {"players": ABC, "start": "random", "bag": "physical"}):
        s = new_game(setup)
        import random
        rng = random.Random(3)
        for _ in range(300):
            if s.is_terminal():
                break
            for m in s.legal_moves():
                assert s.parse_move(str(m)) == m
                assert s.parse_move(str(m).upper()) == m or str(m).startswith("got")
            s = s.apply(rng.choice(s.legal_moves()))


def test_doc_example_replays_to_the_stated_result():
    """The example record in docs/records-bag_of_ice.md (the referees' contract)."""
    doc = (Path(__file__).parents[1] / "docs" / "records-bag_of_ice.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```jsonl\n(.*?)```", doc, re.S)
    assert len(blocks) == 1
    out = records.replay(records.parse_lines(blocks[0].splitlines())).to_json()
    st = out["state"]
    # Bob (roll-off 5 pips against 3) starts: green tree 15; Ann busts on rL;
    # Bob banks yS + pL = 4 (the face M entered by mistake is undone); Ann's yellow tree 20 wins.
    assert out["terminal"] and out["scores"] == [20, 19]
    assert out["outcome"] == {"termination": "target", "winners": [0], "scores": [20, 19],
                              "detail": "Ann reached the target 20 (B-6)"}
    assert out["undone"] == [21] and st["start_player"] == 1
    assert st["history"] == [
        [{"turn": 2, "result": "bust", "score": 0, "pieces": ["cM", "rL"], "bust_on": "rL"},
         {"turn": 4, "result": "bank", "score": 20, "pieces": ["yL", "yM", "yS"], "bust_on": None}],
        [{"turn": 1, "result": "bank", "score": 15, "pieces": ["gL", "gM", "gS"], "bust_on": None},
         {"turn": 3, "result": "bank", "score": 4, "pieces": ["yS", "pL"], "bust_on": None}],
    ]
    assert st["rolloff"] == [[{"seat": 0, "face": "S/M", "pips": 3}, {"seat": 1, "face": "M/L", "pips": 5}]]
    assert st["drawn"] == ["yL", "yM", "yS"] and st["bag_count"] == 18


def test_a_bust_with_nothing_to_lose_says_bust_not_lost_0():
    """B-4: a red piece busts and the turn scores nothing. A turn that busted on
    its first draw lost nothing: its history line says "bust", not "lost 0"
    (French showed "perdu, -0")."""
    from companion.games.bag_of_ice import TurnResult, new_game
    from companion.ui.bag_of_ice import turn_line
    from companion.pieces import Piece

    st = new_game({"players": ["Ann", "Bob"]})
    t = TurnResult(turn=3, seat=0, score=0, pieces=(Piece.parse("rM"),), bust_on="rM")
    assert turn_line(3, t, st) == "turn 3: bust"
