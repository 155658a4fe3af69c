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
    # kS is black: never affected, it stays on the field (BU-8 item 1): refused at once, for certain
    assert not r.reachable and r.difference and r.complete and r.explored == 0
    assert "kS never moves or changes (BU-8 item 1)" in r.reason


# ---------------------------------------------------------------- the cuts are sound


def random_position(rng):
    """3 to 5 groups of 1 or 2 random pieces, black, white and yellow often."""
    colors = "rbgywkyk"
    field = [" ".join(rng.choice(colors) + rng.choice("SML") for _ in range(rng.choice([1, 1, 2])))
             for _ in range(rng.randint(3, 5))]
    return field, f"place {rng.choice('yywbrgk')}{rng.choice('SML')} on {rng.choice('ABC')}"


@pytest.mark.parametrize("seed", range(30))
def test_every_result_of_random_positions_is_found(seed):
    """BU-13 exactness: every field a plain enumeration reaches (up to 3
    choices) is reachable for ``check``, whose cuts (destroyed pieces, black
    pieces that never move, colors without blue) must never remove it; the
    choices it gives replay to that field."""
    import random
    rng = random.Random(seed)
    field, placement = random_position(rng)
    s = position({"players": P4}, field)
    start = s.apply_text(placement)
    results = all_results(start, limit=3)
    for stacks in rng.sample(sorted(results), min(8, len(results))):
        table = [" ".join(map(str, st)) for st in stacks]
        r = check(s, placement, table, time_limit=5)
        assert r.reachable and r.reason is None, (field, placement, table)
        end = start
        for c in r.choices:
            end = end.apply_text(c)
        assert sorted(g.pieces for g in end.groups) == sorted(stacks)


def test_black_pieces_never_move_or_change_and_nothing_goes_under_them():
    """BU-8 items 1 and 2: the checks refused at once (complete, nothing explored)."""
    s = position({"players": P4}, ["gS kM rS", "yS", "bM"])
    place = "place yL on B"   # yS moves: the choice is where
    ok = check(s, place, ["gS kM rS", "yL", "bM", "yS"])
    assert ok.reachable and ok.choices == ("yellow open",)
    for table, why in [
        (["gS kM yS", "yM rS", "bM"], "B"),                    # reachable: kM and gS stay, rS moves up
        (["yS gS kM rS", "yL", "bM"], "A"),                    # nothing can come under kM
        (["gS rS", "yL", "bM yS"], "A"),                       # kM cannot leave the field
        (["gS kS rS", "yL", "bM yS"], "A"),                    # nor change
    ]:
        r = check(s, place, table)
        if why == "B":
            assert r.reason is None and r.reachable
            continue
        assert not r.reachable and r.complete and r.explored == 0
        assert r.reason.startswith("A: its black kM never moves or changes (BU-8 item 1)")
    # gS is the bottom piece under kM: its upper piece is black (no effect, BU-8 item 2) and
    # nothing is below it, so it is never the upper piece of a white (item 5): it never leaves
    r = check(s, place, ["gS rS", "yL", "bM yS", "kM"])
    assert not r.reachable and r.complete and r.explored == 0
    assert "gS under black never changes (BU-8 item 2)" in r.reason


def test_without_blue_no_color_appears_and_without_red_nothing_goes():
    s = position({"players": P4}, ["rS", "yS", "wM"])
    r = check(s, "place yS on A", ["rS", "yS yS", "wM", "rS"])   # a second rS from nowhere
    assert not r.reachable and r.complete and "with no blue piece" in r.reason
    s = position({"players": P4}, ["gS", "yS", "wM"])
    r = check(s, "place yS on A", ["yS", "yS", "wM"])              # gS cannot go without red
    assert not r.reachable and r.complete and "none of the 1 can go" in r.reason
    r = check(s, "place yS on A", ["yS", "yS gM", "wM"])          # gS can grow (green is there)
    assert r.reason is None
    s = position({"players": P4}, ["wS", "yS", "wM"])
    r = check(s, "place yS on C", ["wS", "yS", "yS wL"])          # no red, green or blue: no size changes
    assert not r.reachable and r.complete and "no piece can change" in r.reason


def test_destroyed_pieces_never_come_back():
    s = position({"players": P4}, ["gS", "yS"], destroyed="gS gS gS gS")
    r = check(s, "place yS on A", ["gS", "gS", "yS", "yS"])
    assert not r.reachable and r.complete and "(BU-6)" in r.reason


def test_budget_is_counted_in_positions_not_seconds():
    """The same question gets the same answer on an idle or a loaded
    machine; the wall clock is only a guard. The 9-choice cascade of
    bench/bu_check.py's HARD cases runs the budget out (BU-9: no length limit)."""
    s = position({"players": P4}, ["yS", "rS", "bS", "bM", "wS", "wM", "yM"])
    table = ["wS wS", "yL", "bS", "bM", "yS"]
    a = check(s, "place yL on A", table, max_positions=800, time_limit=60)
    b = check(s, "place yL on A", table, max_positions=800, time_limit=30)
    assert not a.complete and a.explored == 800
    assert a.to_json() == b.to_json()
    c = check(s, "place yL on A", table, max_positions=1600, time_limit=60)
    assert c.explored == 1600 and c.depth >= a.depth


def test_impossible_reason_names_colors_in_vocabulary_order():
    """With no blue piece (BU-8) the first color found short is the
    vocabulary's first (companion/pieces.py), not a set's hash order."""
    s = position({"players": P4}, ["yS", "wS", "rS", "kS"])
    r = check(s, "place yL on A", ["yL", "yS", "wS", "wM", "rS", "rM", "kS"])
    assert not r.reachable and r.complete
    assert r.reason.startswith("the table has 2 red pieces")


def test_the_legal_result_shown_is_the_one_with_the_fewest_differing_stacks():
    """A table moved rS (under yM, BU-8 item 6) onto B's wS and kept the rS: but a
    red on a white destroys both small pieces (item 5: the white shrinks, then the
    red itself). The result shown must be that branch, which differs from the table
    in one stack (B), not the open-space one, which differs in two (B and a lone rS);
    both used to score alike."""
    s = position({"players": ["Ann", "Bob", "Cat", "Dan", "Eve"]}, ["yS bS", "wS", "yS", "kS", "rS"])
    r = check(s, "place yM on E", ["A: yS bS", "B: rS", "C: yS", "D: kS", "E: yM"])
    assert not r.reachable and r.complete
    assert r.choices == ("yellow B",)
    assert sorted(r.result_field) == ["A: yS bS", "C: yS", "D: kS", "E: yM"]
    assert r.difference is not None and r.difference.startswith("B:")
