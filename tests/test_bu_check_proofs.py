"""Bottoms Up check mode: the proofs that skip options without
applying them (``_Search.hopeless``, ``_may_move``), against an exhaustive
search with no cut (the bench's, bench/bu_check.py)."""
from __future__ import annotations

import random

import pytest

from bench.bu_check import exhaustive, stacks_of
from companion.games import bu_check
from companion.games.bottoms_up import position
from companion.games.bu_check import _code, _may_move, check
from companion.pieces import parse_pieces

from .test_bu_check_search import P4, near_misses, random_position


def moves(text: str, wild=(), again: bool = False) -> bool:
    return _may_move(_code(parse_pieces(text)), wild, again)


def test_a_pass_moves_a_piece_only_where_yellow_acts():
    """BU-8: a yellow move needs yellow over a piece that is not black
    (items 5, 6) or white over yellow (item 4); black stops it (items 1, 2)."""
    assert moves("rS yS") and moves("wS yS") and moves("yS wS")
    assert not moves("kS yS") and not moves("yS kS") and not moves("gS rS bM")
    assert not moves("yS gS")            # green over yellow: it grows, it does not move
    # one pass visits neighbours only (BU-7): yS and wS are not neighbours
    assert not moves("yS rS wS")
    assert moves("yS rS wS", again=True)  # a second pass may find them neighbours (rS destroyed)
    # a blue over a white takes its own effect (item 5): any color, so maybe yellow under wM
    assert moves("wS bS wM") and not moves("gS bS wM")
    assert moves("gS bS wM", wild=(1,))  # a piece whose color is still to be chosen
    # a recolor before the second pass may make any color (BU-8, blue)
    assert not moves("rS bS gS") and moves("rS bS gS", again=True)


def _positions(rng, n):
    """Positions inside random cascades on small random fields (every
    choice point on the way), with the claims a table may enter."""
    out = []
    while len(out) < n:
        for s, truth in _choice_points(rng, *random_position(rng)):
            claims = rng.sample(sorted(truth), min(2, len(truth)))
            for st in list(claims):
                claims += near_misses(st, rng)[:3]
            out.append((s, claims, truth))
    return out


def _choice_points(rng, field, placement):
    """``(position, every field its cascade can end with)`` at each choice point
    of one random cascade from ``placement`` on ``field`` (a small random stash),
    while the exhaustive search can list them; nothing when the stash cannot
    supply the field."""
    try:
        s = position({"players": P4, "stash": rng.choice([2, 3, 5])}, field).apply_text(placement)
    except Exception:  # noqa: BLE001 - a random field the stash cannot supply
        return
    while s.pending is not None:
        truth = exhaustive(s, 3000)
        if truth is None:
            return
        yield s, truth
        s = s.apply(rng.choice(s.pending.options))


@pytest.mark.parametrize("seed", range(8))
def test_an_option_proven_hopeless_never_ends_with_the_claim(seed):
    """Every option ``hopeless`` skips, applied, can only end with fields
    other than the claim (exhaustive search from it); and the search with
    the skips still answers exactly (BU-9, BU-13)."""
    rng = random.Random(7000 + seed)
    fired = 0
    for s, claims, truth in _positions(rng, 6):
        for st in claims:
            table = [" ".join(map(str, x)) for x in st]
            srch = bu_check._Search(s, bu_check.parse_table(table), 200, 300, float("inf"))
            dead = srch.hopeless(s, bu_check._Look(s))
            for m in dead:
                fired += 1
                after = s.apply(m)
                ends = {stacks_of(after)} if after.pending is None else exhaustive(after, 5000)
                assert ends is not None and st not in ends, (s.field_lines(), str(m), table)
            r = check(s, None, table, max_positions=6000, time_limit=60)
            assert r.complete and r.reachable == (st in truth), (s.field_lines(), table)
    assert fired  # the proof is exercised, not only allowed


def test_two_equal_idle_stacks_are_one_destination():
    """Landing on either of two lone gS gives the same position up to labels
    (``canonical_key``): the second is not applied; a queued stack is never
    merged with an idle one (its pass is still to come, BU-9)."""
    s = position({"players": P4}, ["wS", "gS", "gS", "rS"]).apply_text("place yL on A")
    assert s.pending is not None and s.pending.kind == "yellow"
    srch = bu_check._Search(s, bu_check.parse_table(["gS wS", "gS", "rS", "yL"]), 200, 300, float("inf"))
    offered = [str(m) for _, m in srch.options(s, bu_check._Look(s))]
    assert sorted(offered) == ["yellow B", "yellow D", "yellow open"]
    b, c = s.apply_text("yellow B"), s.apply_text("yellow C")
    assert bu_check.canonical_key(b) == bu_check.canonical_key(c)
    # and the answers stay exact where the field has equal stacks
    before = position({"players": P4}, ["rS", "gS", "gS", "kS", "rS"])
    start = before.apply_text("place yM on A")
    truth = exhaustive(start)
    assert truth is not None and len(truth) > 1
    rng = random.Random(3)
    for st in sorted(truth):
        for claim in [st, *near_misses(st, rng)]:
            r = check(before, "place yM on A", [" ".join(map(str, x)) for x in claim])
            assert r.complete and r.reachable == (claim in truth), claim


def test_doctest_of_the_module():
    """The module's example: the legal result shown for a claim out of reach
    is the nearest, with the fewest choices (the yellow to open space)."""
    import doctest
    assert doctest.testmod(bu_check).failed == 0


def test_the_guess_at_a_pass_follows_the_effects():
    """``_predict_pass`` (ordering only) plays BU-7/BU-8 on one stack: yellow
    moves the piece away, red shrinks, green grows, blue leaves the color
    open, white reflects, black stops; the stash decides what is left."""
    from companion.games.bu_check import _predict_pass
    from companion.pieces import Piece, Size
    full = {Piece.parse(f"{c}{z}"): 5 for c in "rbgywk" for z in "SML"}
    guess = lambda text, stash=full: _predict_pass(parse_pieces(text), stash)  # noqa: E731
    assert guess("rS yL") == parse_pieces("yL")
    assert guess("bM rS") == parse_pieces("bS rS")
    assert guess("bS rS") == parse_pieces("rS")                   # a small is destroyed
    assert guess("bS gS") == parse_pieces("bM gS")
    assert guess("gS bS") == (Size.SMALL, Piece.parse("bS"))     # any color
    assert guess("gM wS") == parse_pieces("gL wS")                 # reflection: its own green
    assert guess("wS rM") == parse_pieces("rS")                    # item 5: white destroyed, red shrinks
    assert guess("rS kS yS") == parse_pieces("rS kS yS")           # black: no effect either way
    assert guess("bS gS", {}) == parse_pieces("bS gS")             # nothing to grow into
    assert guess("gS bS yS") == (Size.SMALL, Piece.parse("yS"))  # bS moved away
    assert guess("wS bS yM") is None  # item 5: bS takes any color, and that color decides the rest


def test_one_character_a_piece_is_a_bijection():
    """``_code`` writes every piece ``Piece.parse`` reads as its own
    character, so two stacks have the same code exactly when they are equal
    and the canonical form merges nothing it did not merge before."""
    from companion.games.bu_check import _pieces
    from companion.pieces import Color, Piece, Size
    every = [Piece(c, z) for c in Color for z in Size]
    codes = [_code((p,)) for p in every]
    assert len(set(codes)) == len(every) and all(len(c) == 1 for c in codes)
    stack = tuple(every)
    assert _pieces(_code(stack)) == stack


# ---------------------------------------------------------------- what lies under a black (``_segment_closure``)

def _segment_field(rng):
    """Random stacks with black pieces in them, white, yellow and blue
    often (the effects that move or recolor), so that segments under a
    black are long enough to do something."""
    colors = "rbgywkwyb"
    field = []
    for _ in range(rng.randint(3, 6)):
        n = rng.choice([1, 2, 3, 4, 4])
        pcs = [rng.choice(colors) + rng.choice("SML") for _ in range(n)]
        if n >= 2 and rng.random() < 0.7:
            pcs[rng.randrange(1, n)] = "k" + rng.choice("SML")
        field.append(" ".join(pcs))
    return field


def test_one_pass_over_a_segment_is_what_the_engine_does():
    """``_one_pass`` plays BU-7/BU-8 on a segment with a black on top, for
    any stash: every result of the engine's pass (a black placed on the
    segment starts it; each yellow to open space so no other stack is ever
    recalculated, every blue color tried; small stashes of 1 or 2 pieces a
    kind, thinned at random, so replacements run out) is one of its results."""
    from companion.games.bu_check import _one_pass
    rng = random.Random(11)
    # first cases where a replacement runs out (one piece a kind: the field holds it):
    # red destroys a medium with no small left, green and blue find nothing
    fixed = [("rM rS", 1), ("rL rS", 1), ("rL wS", 1), ("gS gM", 1), ("gM gL", 1), ("bS bM", 1),
             ("wS rM", 1), ("rL rM", 2), ("wM gL", 1)]
    tried = 0
    while tried < 300 + len(fixed):
        if tried < len(fixed):
            seg, per = fixed[tried]
            gone = ""
        else:
            seg = " ".join(rng.choice("rbgywwyb") + rng.choice("SML") for _ in range(rng.randint(1, 4)))
            gone = " ".join(rng.choice("rbgyw") + rng.choice("SML") for _ in range(rng.randint(0, 4)))
            per = rng.choice([1, 2, 5])
        try:
            s = position({"players": P4, "stash": per}, [seg], destroyed=gone).apply_text("place kS on A")
        except Exception:  # noqa: BLE001 - a stash that cannot supply them
            continue
        tried += 1
        listed = _one_pass(_code(parse_pieces(seg)))
        if listed is None:  # too many to list: the cut falls back to the count of pieces
            continue
        want = listed[0]
        todo = [s]
        while todo:
            t = todo.pop()
            if t.pending is None:
                a = next(g for g in t.groups if g.label == "A")
                assert _code(a.pieces[:-1]) in want, (seg, gone, t.field_lines())
                continue
            for m in t.pending.options:
                if t.pending.kind == "blue" or m.target is None:
                    todo.append(t.apply(m))


@pytest.mark.parametrize("seed", range(6))
def test_the_black_segments_cut_never_refuses_a_reachable_field(seed):
    """``_Target.why_not`` with the segments under blacks (``_segment_closure``)
    against the exhaustive search: at every choice point of random cascades
    on fields with black pieces, no field the cascade can end with is
    refused; the cut does refuse near misses (it is exercised), and check
    mode still answers exactly."""
    rng = random.Random(9100 + seed)
    refused = 0
    positions = 0
    while positions < 8:
        field = _segment_field(rng)
        placement = f"place {rng.choice('yywbrg')}{rng.choice('SML')} on {'ABC'[rng.randrange(min(3, len(field)))]}"
        for s, truth in _choice_points(rng, field, placement):
            positions += 1
            for st in sorted(truth):
                tgt = bu_check._Target(bu_check.parse_table([" ".join(map(str, x)) for x in st]))
                assert tgt.why_not(s) is None, (s.field_lines(), st)
            for st in sorted(truth)[:3]:
                for miss in near_misses(st, rng):
                    table = [" ".join(map(str, x)) for x in miss]
                    if miss not in truth and bu_check._Target(bu_check.parse_table(table))._black(
                            s, bu_check._Look(s)):
                        refused += 1
                    r = check(s, None, table, max_positions=6000, time_limit=60)
                    assert not r.complete or r.reachable == (miss in truth), (s.field_lines(), table)
    assert refused  # the proof is exercised, not only allowed


def test_a_segment_under_a_black_keeps_what_it_cannot_lose():
    """gM gS under kM: green grows gM at most (BU-8), gS is under a black
    (item 2) and never the upper piece of a white (item 5): neither can ever
    leave, so a field where kM is the bottom of its stack is refused at once."""
    from companion.games.bu_check import _segment_closure
    assert _segment_closure(_code(parse_pieces("gM gS"))) == {_code(parse_pieces(t)) for t in ("gM gS", "gL gS")}
    # wS yS: yellow moves the white, then itself (item 5): both can leave
    assert "" in _segment_closure(_code(parse_pieces("wS yS")))
    s = position({"players": P4}, ["gM gS kM rM", "yS", "wS"])
    r = check(s, "place yL on B", ["kM gS gM rM", "yL", "wS", "yS"])
    assert not r.reachable and r.complete and r.explored == 0
    assert r.reason.startswith("A: its black kM never moves or changes (BU-8 item 1)")
