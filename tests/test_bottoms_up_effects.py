"""Every line of BU-8, one exact case each.

* item 6: each effect (red, green, blue, yellow) on each kind of lower
  piece (four effect colors x three sizes),
* item 4: each reflection (white on each colored lower piece, each size),
* item 5: a white lower piece under each effect color, each size,
* item 3: white on white; items 1 and 2: black on both sides,
* every "none left" case: no smaller piece, no medium for a large, no other
  color, no larger piece, no small to spawn, directly and through white.

The field is always ``A: <lower>`` and ``B: kS`` (a black lone piece, immune,
so a yellow move onto it changes nothing there); the upper piece goes on A.
Every expected field is written out by hand from the rulings.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.bottoms_up import position
from companion.pieces import Bag, Piece

P4 = ["Ann", "Bob", "Cat", "Dan"]


def pos(field, keep=None):
    """``field`` from a full stash; with ``keep`` every other stash piece is
    taken out of the game (destroyed) for the "none left" cases."""
    s = position({"players": P4}, field)
    if keep is None:
        return s
    kept = Bag.parse(keep)
    rest = s.stash
    for p in kept:
        rest = rest.remove(p)
    return replace(s, stash=kept, destroyed=s.destroyed.add(*rest))


def put(lower, upper, keep=None):
    return pos([lower, "kS"], keep).apply_text(f"place {upper} on A")


def opts(s):
    return [str(m) for m in s.legal_moves()]


def destroyed(s):
    return {str(p): n for p, n in s.destroyed.items()}


def newly_destroyed(lower, upper, keep):
    """The pieces a placement destroyed (the ``keep`` set-up destroys the rest of the stash first)."""
    s = pos([lower, "kS"], keep)
    t = s.apply_text(f"place {upper} on A")
    return t, {str(p): t.destroyed.count(p) - s.destroyed.count(p)
               for p in t.destroyed.distinct() if t.destroyed.count(p) > s.destroyed.count(p)}


def done(s):
    """Nothing pending and the turn passed to Bob (BU-9: the cascade is over)."""
    return s.pending is None and s.current_player == 1


# ---------------------------------------------------------------- item 6: red


@pytest.mark.parametrize("lower, field", [
    ("rL", ["A: rM rS", "B: kS"]), ("bL", ["A: bM rS", "B: kS"]),
    ("gL", ["A: gM rS", "B: kS"]), ("yL", ["A: yM rS", "B: kS"]),
    ("rM", ["A: rS rS", "B: kS"]), ("bM", ["A: bS rS", "B: kS"]),
    ("gM", ["A: gS rS", "B: kS"]), ("yM", ["A: yS rS", "B: kS"]),
])
def test_bu8_item6_red_shrinks_large_and_medium(lower, field):
    """BU-8 red: the same color one size smaller; the old piece goes back to the stash (BU-6)."""
    s = pos([lower, "kS"])
    t = s.apply_text("place rS on A")
    assert t.field_lines() == field and done(t) and destroyed(t) == {}
    old, new = Piece.parse(lower), Piece.parse(field[0].split()[1])
    assert t.stash.count(old) == s.stash.count(old) + 1
    assert t.stash.count(new) == s.stash.count(new) - 1 - (new == Piece.parse("rS"))


@pytest.mark.parametrize("lower", ["rS", "bS", "gS", "yS"])
def test_bu8_item6_red_destroys_a_small(lower):
    """BU-8 red: a small is destroyed, out of the game for good (BU-6); rS drops onto nothing."""
    t = put(lower, "rS")
    assert t.field_lines() == ["A: rS", "B: kS"] and done(t)
    assert destroyed(t) == {lower: 1}
    assert len(t.stash) == 90 - 3 and t.stash.count(Piece.parse(lower)) == 5 - 1 - (lower == "rS")


def test_bu8_item6_red_destroys_and_the_pieces_above_drop():
    """BU-7: the destroyed bottom piece lets the pieces above drop."""
    t = pos(["gS rM"]).apply_text("place kS on A")  # gS under rM: destroyed; rM under kS: nothing
    assert t.field_lines() == ["A: rM kS"] and destroyed(t) == {"gS": 1}


# ---------------------------------------------------------------- item 6: green


@pytest.mark.parametrize("lower, field", [
    ("rS", ["A: rM gS", "B: kS"]), ("bS", ["A: bM gS", "B: kS"]),
    ("gS", ["A: gM gS", "B: kS"]), ("yS", ["A: yM gS", "B: kS"]),
    ("rM", ["A: rL gS", "B: kS"]), ("bM", ["A: bL gS", "B: kS"]),
    ("gM", ["A: gL gS", "B: kS"]), ("yM", ["A: yL gS", "B: kS"]),
])
def test_bu8_item6_green_grows_small_and_medium(lower, field):
    t = put(lower, "gS")
    assert t.field_lines() == field and done(t) and destroyed(t) == {}


@pytest.mark.parametrize("lower", ["rL", "bL", "gL", "yL"])
def test_bu8_item6_green_on_a_large_spawns_a_lone_small_of_its_color(lower):
    s = pos([lower, "kS"])
    t = s.apply_text("place gS on A")
    spawn = lower[0] + "S"
    assert t.field_lines() == [f"A: {lower} gS", "B: kS", f"C: {spawn}"] and done(t)
    assert t.stash.count(Piece.parse(spawn)) == s.stash.count(Piece.parse(spawn)) - 1 - (spawn == "gS")


# ---------------------------------------------------------------- item 6: blue


@pytest.mark.parametrize("lower, answer, field", [
    ("rL", "blue w", "A: wL bS"), ("bL", "blue r", "A: rL bS"), ("gL", "blue k", "A: kL bS"),
    ("yL", "blue g", "A: gL bS"), ("rM", "blue b", "A: bM bS"), ("bM", "blue y", "A: yM bS"),
    ("gM", "blue r", "A: rM bS"), ("yM", "blue w", "A: wM bS"), ("rS", "blue g", "A: gS bS"),
    ("bS", "blue k", "A: kS bS"), ("gS", "blue y", "A: yS bS"), ("yS", "blue b", "A: bS bS"),
])
def test_bu8_item6_blue_asks_for_any_other_color_in_the_stash(lower, answer, field):
    s = pos([lower, "kS"])
    t = s.apply_text("place bS on A")
    assert opts(t) == [f"blue {c}" for c in "rbgywk" if c != lower[0]]
    assert t.pending_json()["piece"] == lower and t.forced_move() is None
    u = t.apply_text(answer)
    assert u.field_lines() == [field, "B: kS"] and done(u)
    new = Piece.parse(field.split()[1])
    assert u.stash.count(Piece.parse(lower)) == s.stash.count(Piece.parse(lower)) + 1 - (lower == "bS")
    assert u.stash.count(new) == s.stash.count(new) - 1 - (new == Piece.parse("bS"))


# ---------------------------------------------------------------- item 6: yellow


@pytest.mark.parametrize("lower", ["rL", "bM", "gS", "yL", "yS", "rS"])
def test_bu8_item6_yellow_moves_onto_another_group_or_to_open_space(lower):
    t = put(lower, "yS")
    assert opts(t) == ["yellow B", "yellow open"] and t.pending_json()["piece"] == lower
    onto = t.apply_text("yellow B")       # lands on kS: B queued, kS is immune (item 1)
    assert onto.field_lines() == ["A: yS", f"B: kS {lower}"] and done(onto)
    assert "B: recalculating (queued, BU-9)" in onto.last_lines()
    away = t.apply_text("yellow open")
    assert away.field_lines() == ["A: yS", "B: kS", f"C: {lower}"] and done(away)


# ---------------------------------------------------------------- item 4: reflections


@pytest.mark.parametrize("lower, field, gone", [
    ("rL", ["A: rM wS", "B: kS"], {}),
    ("rM", ["A: rS wS", "B: kS"], {}),
    ("rS", ["A: wS", "B: kS"], {"rS": 1}),           # a small shrinks: destroyed, wS drops
    ("gS", ["A: gM wS", "B: kS"], {}),
    ("gM", ["A: gL wS", "B: kS"], {}),
    ("gL", ["A: gL wS", "B: kS", "C: gS"], {}),     # a large spawns a lone small
])
def test_bu8_item4_white_reflects_red_and_green(lower, field, gone):
    """BU-8 item 4: under white, the lower piece takes its own color's effect."""
    t = put(lower, "wS")
    assert t.field_lines() == field and destroyed(t) == gone and done(t)


@pytest.mark.parametrize("lower", ["bS", "bM", "bL"])
def test_bu8_item4_white_reflects_blue(lower):
    t = put(lower, "wS")
    assert opts(t) == ["blue r", "blue g", "blue y", "blue w", "blue k"]
    assert t.apply_text("blue y").field_lines() == [f"A: y{lower[1]} wS", "B: kS"]


@pytest.mark.parametrize("lower", ["yS", "yM", "yL"])
def test_bu8_item4_white_reflects_yellow(lower):
    t = put(lower, "wS")
    assert opts(t) == ["yellow B", "yellow open"]
    assert t.apply_text("yellow B").field_lines() == ["A: wS", f"B: kS {lower}"]
    assert t.apply_text("yellow open").field_lines() == ["A: wS", "B: kS", f"C: {lower}"]


# ---------------------------------------------------------------- item 5: white lower piece


@pytest.mark.parametrize("lower, upper, field, gone", [
    # red: the white piece shrinks (or is destroyed), then the red piece shrinks itself
    ("wL", "rS", ["A: wM", "B: kS"], {"rS": 1}),
    ("wM", "rS", ["A: wS", "B: kS"], {"rS": 1}),
    ("wS", "rS", ["B: kS"], {"wS": 1, "rS": 1}),     # both destroyed: A is gone
    ("wL", "rM", ["A: wM rS", "B: kS"], {}),
    ("wS", "rL", ["A: rM", "B: kS"], {"wS": 1}),
    # green: the white piece grows (or spawns), then the green piece grows (or spawns)
    ("wS", "gS", ["A: wM gM", "B: kS"], {}),
    ("wM", "gS", ["A: wL gM", "B: kS"], {}),
    ("wL", "gS", ["A: wL gM", "B: kS", "C: wS"], {}),
    ("wL", "gL", ["A: wL gL", "B: kS", "C: wS", "D: gS"], {}),
    ("wM", "gL", ["A: wL gL", "B: kS", "C: gS"], {}),
])
def test_bu8_item5_white_takes_the_effect_then_the_upper_takes_its_own(lower, upper, field, gone):
    t = put(lower, upper)
    assert t.field_lines() == field and destroyed(t) == gone and done(t)


@pytest.mark.parametrize("lower", ["wS", "wM", "wL"])
def test_bu8_item5_blue_asks_twice(lower):
    z = lower[1]
    t = put(lower, "bS")
    assert opts(t) == ["blue r", "blue b", "blue g", "blue y", "blue k"]
    assert t.pending_json()["piece"] == lower
    t = t.apply_text("blue r")
    assert t.field_lines() == [f"A: r{z} bS", "B: kS"]
    assert t.pending_json()["piece"] == "bS" and opts(t) == ["blue r", "blue g", "blue y", "blue w", "blue k"]
    t = t.apply_text("blue g")
    assert t.field_lines() == [f"A: r{z} gS", "B: kS"] and done(t)


@pytest.mark.parametrize("lower", ["wS", "wM", "wL"])
def test_bu8_item5_yellow_moves_both(lower):
    t = put(lower, "yS")
    assert opts(t) == ["yellow B", "yellow open"] and t.pending_json()["piece"] == lower
    t = t.apply_text("yellow B")         # the white piece lands on kS (B queued)
    assert t.pending_json()["piece"] == "yS" and opts(t) == ["yellow B", "yellow open"]
    u = t.apply_text("yellow open")      # A empties and frees its label; yS takes it
    assert u.field_lines() == ["A: yS", f"B: kS {lower}"] and done(u)
    v = t.apply_text("yellow B")         # both on kS; B queued twice: kS immune, wS/wM/wL under yS
    # second pass of B: the white piece under yS takes yellow (item 5) again: a new choice
    assert v.field_lines() == [f"B: kS {lower} yS"] and v.pending_json()["piece"] == lower


# ---------------------------------------------------------------- items 1 to 3


@pytest.mark.parametrize("low", ["wS", "wM", "wL"])
def test_bu8_item3_white_on_white_is_nothing(low):
    t = put(low, "wM")
    assert t.field_lines() == [f"A: {low} wM", "B: kS"] and done(t)


@pytest.mark.parametrize("upper", ["rS", "bS", "gS", "yS", "wS", "kS", "gL"])
@pytest.mark.parametrize("low", ["kS", "kL"])
def test_bu8_item1_black_lower_is_immune_even_to_white(low, upper):
    t = put(low, upper)
    assert t.field_lines() == [f"A: {low} {upper}", "B: kS"] and done(t) and destroyed(t) == {}


@pytest.mark.parametrize("low", ["rS", "bL", "gL", "yM", "wS", "wL"])
def test_bu8_item2_black_upper_has_no_effect_even_on_white(low):
    t = put(low, "kL")
    assert t.field_lines() == [f"A: {low} kL", "B: kS"] and done(t)


# ---------------------------------------------------------------- none left


def test_none_left_red_large_without_medium_becomes_small():
    t = put("bL", "rS", keep="bS rS")
    assert t.field_lines() == ["A: bS rS", "B: kS"] and t.stash.count(Piece.parse("bL")) == 1


@pytest.mark.parametrize("lower", ["bL", "bM"])
def test_none_left_red_without_a_smaller_piece_destroys(lower):
    t, gone = newly_destroyed(lower, "rS", keep="rS gS gM")
    assert t.field_lines() == ["A: rS", "B: kS"] and gone == {lower: 1} and done(t)


def test_none_left_red_through_white():
    t = put("rL", "wS", keep="wS rS")                 # reflection: rL, no rM: becomes rS
    assert t.field_lines() == ["A: rS wS", "B: kS"]
    t, gone = newly_destroyed("wL", "rM", keep="rM rS")  # item 5: wL has nothing smaller: destroyed
    assert t.field_lines() == ["A: rS", "B: kS"] and gone == {"wL": 1}


@pytest.mark.parametrize("lower", ["gS", "gM", "gL"])
def test_none_left_blue_with_no_other_color_of_that_size_does_nothing(lower):
    t = put(lower, "bS", keep=f"bS {lower}")          # only its own color is left
    assert t.field_lines() == [f"A: {lower} bS", "B: kS"] and done(t)
    t = put(lower.replace("g", "b"), "wS", keep=f"wS {lower.replace('g', 'b')}")  # reflected
    assert t.pending is None and t.field_lines() == [f"A: b{lower[1]} wS", "B: kS"]


def test_none_left_blue_single_option_is_forced():
    t = put("gM", "bS", keep="bS kM")
    assert opts(t) == ["blue k"] and str(t.forced_move()) == "blue k"


@pytest.mark.parametrize("lower, keep", [("rS", "gS rL"), ("rM", "gS rS")])
def test_none_left_green_with_no_larger_piece_does_nothing(lower, keep):
    t = put(lower, "gS", keep=keep)
    assert t.field_lines() == [f"A: {lower} gS", "B: kS"] and done(t)


def test_none_left_green_with_no_small_to_spawn_does_nothing():
    t = put("rL", "gS", keep="gS rM")
    assert t.field_lines() == ["A: rL gS", "B: kS"] and done(t)
    assert "no rS left to spawn" in t.last_lines()[1]
    t = put("gL", "wS", keep="wS")                    # reflected, none left
    assert t.field_lines() == ["A: gL wS", "B: kS"]
    t = put("wM", "gS", keep="gS")                    # item 5: no wL, no gM: nothing twice
    assert t.field_lines() == ["A: wM gS", "B: kS"]


def test_none_left_is_judged_at_the_moment_of_the_effect():
    """BU-6: a piece given back earlier in the same pass can be taken again."""
    s = pos(["gM bM"], keep="bS yM")
    t = s.apply_text("place bS on A")   # gM under bM: only yellow has a medium
    assert opts(t) == ["blue y"]
    t = t.apply_text("blue y")          # gM goes back to the stash
    assert opts(t) == ["blue g"]        # bM under bS: gM is there again
    t = t.apply_text("blue g")
    assert t.field_lines() == ["A: yM gM bS"] and done(t) and len(t.stash) == 1
    assert t.stash.count(Piece.parse("bM")) == 1
    # red then nothing left: rM cannot grow (no rL), gS is destroyed (a small)
    s = pos(["rM gS"], keep="rS")
    t = s.apply_text("place rS on A")
    assert t.field_lines() == ["A: rM rS"] and len(t.stash) == 0
    assert t.destroyed.count(Piece.parse("gS")) == s.destroyed.count(Piece.parse("gS")) + 1
