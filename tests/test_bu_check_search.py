"""Bottoms Up check mode's search (issues 12 and 15): the claim-guided order
and the cuts never change an answer, against an exhaustive search.

The exhaustive search here is independent of ``bu_check``: it tries every
option of every choice and merges two positions only when they are the same
in everything (labels and internal ids included), with no cut at all."""
from __future__ import annotations

import random
import sys

import pytest

from companion.games import bu_check
from companion.games.bottoms_up import position
from companion.games.bu_check import check
from companion.pieces import Piece
from bench.bu_check import by_positions, exhaustive, stacks_of  # the plain search with no cut: the referee of these tests

P4 = ["Ann", "Bob", "Cat", "Dan"]


def random_position(rng):
    """3 to 6 stacks of 1 to 3 pieces; black, white, yellow and blue often
    (the pieces the cuts and the order reason about: BU-8 items 1 to 5)."""
    colors = "rbgywkykwb"
    field = [" ".join(rng.choice(colors) + rng.choice("SML") for _ in range(rng.choice([1, 1, 2, 3])))
             for _ in range(rng.randint(3, 6))]
    target = "ABC"[rng.randrange(min(3, len(field)))]
    return field, f"place {rng.choice('yywbrgk')}{rng.choice('SML')} on {target}"


def near_misses(stacks, rng):
    """The claims a table gets wrong: a piece changed in size or color, two
    swapped, one missing, one moved to another stack."""
    st = [list(x) for x in stacks]
    flat = [(i, j) for i, x in enumerate(st) for j in range(len(x))]
    out = []
    for kind in ("size", "color", "swap", "missing", "moved"):
        new = [list(x) for x in st]
        i, j = rng.choice(flat)
        p = new[i][j]
        if kind == "size":
            new[i][j] = Piece(p.color, rng.choice([z for z in type(p.size) if z != p.size]))
        elif kind == "color":
            new[i][j] = Piece(rng.choice([c for c in type(p.color) if c != p.color and c.value in
                                          ("red", "blue", "green", "yellow", "white", "black")]), p.size)
        elif kind == "swap" and len(new[i]) >= 2:
            a, b = rng.sample(range(len(new[i])), 2)
            new[i][a], new[i][b] = new[i][b], new[i][a]
        elif kind == "missing":
            del new[i][j]
        elif kind == "moved" and len(new) >= 2:
            k = rng.choice([k for k in range(len(new)) if k != i])
            new[k].append(new[i].pop())
        out.append(tuple(sorted(tuple(x) for x in new if x)))
    return out


@pytest.mark.parametrize("seed", range(40))
def test_the_search_agrees_with_an_exhaustive_search(seed):
    """Every answer on a random small position (BU-13), seeded: a reachable
    field is found and its choices replay to it; a field the exhaustive
    search never reaches is never called reachable, and when the search says
    ``complete`` it is ruled out. So no cut (BU-6, BU-8 items 1 and 2, colors)
    and no ordering ever removes a reachable field."""
    rng = random.Random(1000 + seed)
    for _ in range(20):
        field, placement = random_position(rng)
        try:
            s = position({"players": P4}, field)
            start = s.apply_text(placement)
        except Exception:  # noqa: BLE001 - a random field the stash cannot supply
            continue
        truth = exhaustive(start, 3000)
        if truth is not None and start.pending is not None:
            break
    else:
        pytest.skip("no small position with a cascade for this seed")
    results = sorted(truth)
    claims = rng.sample(results, min(4, len(results)))
    for st in list(claims):
        claims += near_misses(st, rng)
    for st in claims:
        table = [" ".join(map(str, x)) for x in st]
        r = check(s, placement, table, max_positions=6000, time_limit=60)
        assert r.complete, (field, placement, table)
        assert r.reachable == (st in truth), (field, placement, table, r.reason)
        if r.reachable:
            end = start
            for c in r.choices:
                end = end.apply_text(c)
            assert end.pending is None and stacks_of(end) == st
        else:
            assert stacks_of(r.result) in truth  # the legal result shown is one the rules give


def test_one_expansion_step_serves_both_phases(monkeypatch):
    """Issue 12: breadth first and best first apply options through the same
    ``_Search.step``, and every position the budget counts is one step."""
    callers: list[str] = []
    step = bu_check._Search.step

    def spy(self, *a):
        callers.append(sys._getframe(1).f_code.co_name)
        return step(self, *a)

    monkeypatch.setattr(bu_check._Search, "step", spy)
    s = position({"players": P4}, ["yS", "rS", "bS", "bM", "wS", "wM", "yM"])
    r = check(s, "place yL on A", ["wS wS", "yL", "bS", "bM", "yS"], max_positions=300, time_limit=60)
    assert set(callers) == {"breadth_first", "best_first"}
    assert r.explored == 300 and not r.complete
    assert len(callers) == 301  # the 301st step finds the budget spent and stops the search


def test_claim_guided_order_tries_the_claims_choices_first():
    """A yellow destination that builds one of the table's stacks comes
    first, a stack the table shows unchanged last; a blue color giving a
    piece the table has more of comes before the others."""
    s = position({"players": P4}, ["yS", "rS", "gS", "kS", "wM"]).apply_text("place yL on A")
    want = bu_check.parse_table(["yL", "rS", "gS yS", "kS", "wM"])
    srch = bu_check._Search(s, want, 200, 100, float("inf"))
    order = [str(m) for _, m in srch.order(s, bu_check._Look(s))]
    assert order[0] == "yellow C" and order[-1] != "yellow C"
    # white under blue takes blue's effect (BU-8 item 5): the table's gS starts a stack with it
    s = position({"players": P4}, ["wS", "yM"]).apply_text("place bS on A")
    assert s.pending is not None and s.pending.kind == "blue"
    srch = bu_check._Search(s, bu_check.parse_table(["gS bS", "yM"]), 200, 100, float("inf"))
    scored = [(score, str(m)) for score, m in srch.order(s, bu_check._Look(s))]
    assert scored[0] == (0, "blue g")
    assert dict((m, sc) for sc, m in scored)["blue y"] == 2  # a color the table holds, not that piece
    assert scored[-1][0] == 3                                 # a color the table does not hold


def test_a_landing_that_breaks_a_stack_the_table_shows_comes_later():
    """A yellow landing changes the stack it lands on (BU-9: queued, then
    its pass): on a stack the table shows as it is, it breaks one stack for
    another (a trade, score 1) or breaks one for nothing (score 3, last);
    on a stack the table does not show it builds for free (score 0)."""
    s = position({"players": P4}, ["wS", "gS", "kS"]).apply_text("place yL on A")
    assert s.pending is not None and s.pending.kind == "yellow"

    def scores(table):
        srch = bu_check._Search(s, bu_check.parse_table(table), 200, 100, float("inf"))
        return {str(m): sc for sc, m in srch.order(s, bu_check._Look(s))}

    got = scores(["gS", "kS wS", "yL"])
    assert got["yellow C"] == 0   # kS wS is the table's, and the table has no lone kS
    assert got["yellow B"] == 3   # the table's lone gS broken, nothing built
    got = scores(["gS", "gS wS", "kS", "yL"])
    assert got["yellow B"] == 1   # builds gS wS, but the field's only gS is the table's lone gS: a trade
    assert got["yellow C"] == 3   # breaks the table's lone kS for nothing


def test_a_piece_set_apart_that_can_grow_into_a_stacks_base_comes_before_a_useless_one():
    """A yellow's lower piece moved to open space is never recalculated as a
    lone piece, but a piece landing on it later makes it a stack's base, and
    red or green (BU-8) change its size on the way: wM set apart, gL landed on
    it, gives wL gL (item 5: the white grows, then the large green puts a gS
    on the field). Open space for a piece whose color starts one of the
    table's stacks comes before open space for one that starts none. From a
    5-player game of the bench (bench/bu_check.py), found in 6 choices within
    the default budget; before this order it was not found."""
    players = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    s = position({"players": players}, ["rM", "gM wM", "wS", "bS kM wM kS", "wS wL wM kS kS yM"])
    table = ["bS kM wM kS", "gS", "rS wS", "wS wL wM kS kS yL", "wL gL", "yM"]
    r = check(s, "place yL on B", table)
    assert r.reachable and r.choices[0] == "yellow open"
    end = s.apply_text("place yL on B")
    for c in r.choices:
        end = end.apply_text(c)
    assert sorted(stacks_of(end)) == sorted(tuple(Piece.parse(t) for t in st.split()) for st in table)
    start = s.apply_text("place yL on B")  # wM under yL must move (BU-8 item 6)
    srch = bu_check._Search(start, bu_check.parse_table(table), 200, 100, float("inf"))
    scores = {str(m): sc for sc, m in srch.order(start, bu_check._Look(start))}
    assert scores["yellow open"] == 2


def test_same_answer_twice_on_a_whole_game_claim():
    """The budget is counted in positions: the same claim, the same answer."""
    from bench.bu_check import claims, table_of
    for name, before, move, _after, st, _known in claims(True, [(5, 102)], limit=24):
        a = check(before, move, table_of(st))
        b = check(before, move, table_of(st), time_limit=30)
        assert a.to_json() == b.to_json(), name


def _issue_42_claims():
    from bench.bu_check import HARD, claims, table_of
    for name, field, placement, table in HARD:  # each spends the whole budget of 300 positions
        yield name, position({"players": P4}, field), placement, table
    for name, before, move, _after, st, _known in claims(True, [(5, 102)], limit=24):
        yield name, before, move, table_of(st)


@pytest.mark.parametrize("factor", [1, 10, 100])
def test_same_verdicts_with_a_slower_clock(factor):
    """Issue 42: the budget is counted in positions, so a PC, a Pi Zero 2 W
    (about 10 times slower) and a machine 10 times slower still give the same
    verdicts; the time guard is a safety net that never fires on them. The old
    0.9 s guard gave other answers at 100 times and on the issue's emulated
    arm64 (144 positions explored, not 300). Issue 51: the clock advances by
    the positions searched (``by_positions``), not by this machine's time, so
    the test says the same on a PC, a Pi or an emulator (``slowed(100)`` failed
    under qemu, its slowest search taking 0.31 s: 31 s against the guard)."""
    for name, before, move, table in _issue_42_claims():
        a = check(before, move, table)
        b = check(before, move, table, clock=by_positions(factor))
        assert not b.timed_out, name
        assert a.to_json() == b.to_json(), name


def test_a_clock_far_slower_still_trips_the_guard():
    """The clock of the test above is live: at 1000 times a PC the budget's
    300 positions would take about 100 s, so the 30 s guard fires on every
    claim that spends the whole budget, and the verdict says so."""
    from bench.bu_check import HARD
    for name, field, placement, table in HARD:
        r = check(position({"players": P4}, field), placement, table, clock=by_positions(1000))
        assert r.timed_out and not r.complete and r.explored < 300, name


def test_the_time_guard_says_time_ran_out():
    """When the safety net does fire (a clock that jumps a minute at every
    read), the verdict says so: open, ``timed_out``, never a budget's answer
    nor a certain "no"."""
    from bench.bu_check import HARD
    name, field, placement, table = HARD[0]
    s = position({"players": P4}, field)
    ticks = iter(range(0, 10**6, 60))
    r = check(s, placement, table, clock=lambda: float(next(ticks)))
    assert r.timed_out and not r.complete and not r.reachable, name
    assert r.explored < 300 and r.to_json()["timed_out"] is True
    full = check(s, placement, table)
    assert not full.timed_out and full.explored == 300 and full.to_json()["timed_out"] is False


def test_bench_reports_issue_15_keys():
    import bench.__main__ as main
    from bench.bu_check import measure_claims
    keys = ["bu_check_claims", "bu_check_complete_rate", "bu_check_wrong", "bu_check_p50_s", "bu_check_p99_s"]
    assert set(keys) | {"bu_check_slowest_s"} <= set(main.KEYS)
    fig = measure_claims(True, games=[(4, 101)], limit=6, slow=lambda: by_positions(10))
    assert set(keys) <= set(fig)
    assert fig["bu_check_claims"] > 0 and fig["bu_check_wrong"] == 0
    assert "bu_check_same_verdict_slow" in main.KEYS and main.GOALS["bu_check_same_verdict_slow"] == (">=", 1.0)
    assert fig["bu_check_same_verdict_slow"] == 1.0  # issue 42: the same answers on a machine ten times slower
    assert 0 <= fig["bu_check_complete_rate"] <= 1 and fig["bu_check_p50_s"] <= fig["bu_check_p99_s"]


@pytest.mark.parametrize("seed", range(12))
def test_check_from_a_turn_already_under_way(seed):
    """Check mode from a choice (``placement=None``): after the first choices
    of a cascade, the search answers for the rest of it, and agrees with the
    exhaustive search from that position (BU-9, BU-13)."""
    rng = random.Random(5000 + seed)
    for _ in range(40):
        field, placement = random_position(rng)
        try:
            s = position({"players": P4}, field).apply_text(placement)
        except Exception:  # noqa: BLE001 - a random field the stash cannot supply
            continue
        while s.pending is not None and rng.random() < 0.6:  # some choices already made
            nxt = s.apply(rng.choice(s.pending.options))
            if nxt.pending is None:
                break
            s = nxt
        truth = exhaustive(s, 3000) if s.pending is not None else None
        if truth is not None:
            break
    else:
        pytest.skip("no small position under way for this seed")
    claims = rng.sample(sorted(truth), min(3, len(truth)))
    for st in list(claims):
        claims += near_misses(st, rng)[:3]
    for st in claims:
        table = [" ".join(map(str, x)) for x in st]
        r = check(s, None, table, max_positions=6000, time_limit=60)
        assert r.complete and r.reachable == (st in truth), (field, placement, table)
        if r.reachable:
            end = s
            for c in r.choices:
                end = end.apply_text(c)
            assert stacks_of(end) == st


def test_the_stress_bench_runs_and_finds_no_wrong_answer():
    """bench.bu_check_stress (the note's independent figures) on a few small fields."""
    from bench.bu_check_stress import run
    fig = run(5, 3, cap=3000)
    assert fig["positions"] == 3 and fig["claims"] > 30
    assert fig["wrong"] == 0


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_verdict_screen_says_time_ran_out(lang):
    """Issue 42: an answer the time guard stopped is titled "not found" and says
    that time ran out, never what the budget rules out nor "not reachable"."""
    from bench.bu_check import HARD
    from companion import i18n
    from companion.games.bottoms_up import parse_bu_move
    from companion.ui import bottoms_up_check as ui_check
    name, field, placement, table = HARD[0]
    s = position({"players": P4}, field)
    ticks = iter(range(0, 10**6, 60))
    r = check(s, placement, table, clock=lambda: float(next(ticks)))
    assert r.timed_out, name
    i18n.set_language(lang)  # conftest puts English back
    try:
        page = ui_check.verdict(ui_check.TableField(s, parse_bu_move(placement), lambda *a: None,
                                                    lambda *a: None), r)
        _ = i18n._
        text = " ".join(x.strip() for x in page.lines)
        assert page.title == _("Check: not found") and page.banner == _("NOT FOUND")
        assert text.startswith(_("Not found: time ran out before the search could say.").split()[0])
        assert ("time ran out" if lang == "en" else "le temps a manqué") in text
        assert "no cascade" not in text and "Not reachable" not in text
    finally:
        i18n.set_language("en")
