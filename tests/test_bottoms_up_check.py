"""Bottoms Up check mode (BU-13) against brute force over every choice sequence."""
from __future__ import annotations

import pytest

from companion.errors import IllegalMoveError, InvalidMoveError
from companion.games.bottoms_up import position
from companion.games.bu_check import check, first_difference, parse_table

P4 = ["Ann", "Bob", "Cat", "Dan"]


def all_results(state, limit=6):
    """Every field reachable with at most ``limit`` choices, by plain tree
    enumeration (no memo, no pruning): {sorted stacks: first choice path}."""
    out = {}

    def walk(s, path):
        if s.pending is None:
            out.setdefault(tuple(sorted(g.pieces for g in s.groups)), path)
            return
        if len(path) >= limit:
            return
        for m in s.pending.options:
            walk(s.apply(m), path + (str(m),))

    walk(state, ())
    return out


CASES = [
    (["yS", "rS", "gS"], "place yL on A"),
    (["wM", "kS", "bS"], "place yS on A"),
    (["gS rS", "yM"], "place bS on A"),
    (["wS", "yS", "gL"], "place bM on A"),
    (["kM", "wS", "rM"], "place yM on B"),
]


@pytest.mark.parametrize("field,placement", CASES)
def test_every_brute_force_result_is_reachable_with_replayable_choices(field, placement):
    s = position({"players": P4}, field)
    start = s.apply_text(placement)
    results = all_results(start, limit=4)
    assert len(results) >= 3
    for stacks in results:
        table = [" ".join(map(str, st)) for st in stacks]
        r = check(s, placement, table)
        assert r.reachable and r.difference is None, table
        end = start
        for c in r.choices:
            end = end.apply_text(c)
        assert end.pending is None
        assert sorted(g.pieces for g in end.groups) == sorted(stacks)


@pytest.mark.parametrize("field,placement", CASES[:3])
def test_fields_outside_the_brute_force_set_are_refused(field, placement):
    s = position({"players": P4}, field)
    start = s.apply_text(placement)
    results = all_results(start, limit=8)
    # perturb every result: swap the two lowest pieces of its tallest stack, or add a piece
    tried = 0
    for stacks in list(results)[:8]:
        st = [list(x) for x in stacks]
        tall = max(st, key=len)
        if len(tall) >= 2 and tall[0] != tall[1]:
            tall[0], tall[1] = tall[1], tall[0]
        else:
            st.append([tall[0]])
        key = tuple(sorted(tuple(x) for x in st))
        if key in results:
            continue
        tried += 1
        table = [" ".join(map(str, x)) for x in st]
        r = check(s, placement, table, time_limit=0.15)
        assert not r.reachable and r.difference, table
        assert r.complete or r.depth >= 3
        assert r.result.pending is None  # a legal result
        assert tuple(sorted(g.pieces for g in r.result.groups)) in all_results(start, limit=len(r.choices))
    assert tried >= 3


def test_check_at_a_choice_and_errors():
    s = position({"players": P4}, ["yS", "rS", "gS"]).apply_text("place yL on A")
    r = check(s, None, {"A": "yL", "B": "rS", "C": "gS", "D": "yS"})
    assert r.reachable and r.choices == ("yellow open",)
    with pytest.raises(IllegalMoveError):
        check(position({"players": P4}, ["yS"]), "place yL on Q", ["yL"])
    with pytest.raises(InvalidMoveError):
        check(position({"players": P4}, ["yS"]), "place yL on A", ["yL zz"])


def test_first_difference_names_labels_in_order():
    s = position({"players": P4}, ["wS rM", "kS", "gS"])
    assert first_difference(s, parse_table(["A: wS rM", "kS", "gS"])) is None
    assert first_difference(s, parse_table(["A: wS", "kS", "gS"])) == "A: the rules give wS rM, the table has wS"
    assert first_difference(s, parse_table(["wS rM", "kS"])) == "C: the rules give gS, the table has no such stack"
    assert first_difference(s, parse_table(["wS rM", "kS", "gS", "yL"])) == "the table has yL, which the rules do not give"


def test_six_lone_pieces_and_a_yellow_large_on_a_yellow_small_is_fast(monkeypatch):
    """The brief's hard case: a reachable deep target is found, an impossible one
    is refused with a legal result and the depth searched."""
    s = position({"players": P4}, ["yS", "rS", "gS", "bS", "wS", "kS", "gM"])
    r = check(s, "place yL on A", ["yL", "rS", "gS", "bS", "wS", "kS", "gM", "yS"])
    assert r.reachable and r.choices == ("yellow open",)
    r = check(s, "place yL on A", ["kL"], time_limit=0.3)
    assert not r.reachable and r.difference and r.depth >= 3
