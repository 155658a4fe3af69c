"""Bottoms Up check mode (issue 15): the proofs that skip options without
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
        field, placement = random_position(rng)
        try:
            s = position({"players": P4}, field).apply_text(placement)
        except Exception:  # noqa: BLE001 - a random field the stash cannot supply
            continue
        while s.pending is not None:
            truth = exhaustive(s, 3000)
            if truth is None:
                break
            claims = rng.sample(sorted(truth), min(2, len(truth)))
            for st in list(claims):
                claims += near_misses(st, rng)[:3]
            out.append((s, claims, truth))
            s = s.apply(rng.choice(s.pending.options))
    return out


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
