"""Similar long names on the game screens, shortened by one rule
(names.short_names) into forms the table recognises: never a digit, an
arrow or a lone letter from the middle standing in for a name."""
from __future__ import annotations

import re

from companion.config import Settings
from companion.io import Key
from companion.ui import draw

from .screens_util import make_app

SIMILAR = ("Marie-Claire", "Marie-Claude", "Marie-Chloé", "Maximilienne", "Maximiliana")


def drawn(app, keys: str) -> list[str]:
    """Every text drawn while ``keys`` are pressed, one after the other."""
    texts: list[str] = []
    old, draw.DRAWN = draw.DRAWN, texts
    try:
        for name in filter(None, keys.split(",")):
            app.handle(Key.parse(name))
            app.frame()
    finally:
        draw.DRAWN = old
    return texts


def name_words(texts: list[str]) -> set[str]:
    return {w for t in texts for w in re.findall(r"\S+", t) if w[:1] == "M"}


def test_bag_of_ice_turns_name_each_player_recognisably(tmp_path):
    app = make_app(tmp_path, settings=Settings(players=SIMILAR))
    # New game, Bag of Ice, 3 players (the roster's first three), start; the turns
    texts = drawn(app, "ok,down,ok,ok,ok,ok,ok,down,ok,ok,down,ok,ok")
    words = name_words(texts)
    assert {"M-Clai~", "M-Clau~"} <= words  # the turn screen, large (7 letters), the cut marked
    assert {"M-Claire", "M-Claude", "M-Chloé"} <= words  # the roll-off (9)
    assert words <= set(SIMILAR) | {"M-Clai~", "M-Clau~", "M-Chloé", "M-Claire", "M-Claude"}
    assert not any(re.search(r"Marie-?\d|Mari->|MariC\b", t) for t in texts)


def test_undercut_scores_name_each_player_recognisably(tmp_path):
    app = make_app(tmp_path, settings=Settings(players=SIMILAR))
    # New game, Undercut, 5 players, full table, the setup draws; the score screen
    texts = drawn(app, "ok,ok,up,ok,ok,ok,ok,ok,ok,ok,ok,ok,ok,ok,ok,ok,ok,right")
    words = name_words(texts)
    # six letters a name: the letters that tell them apart, after the cut mark
    assert {"M~ire", "M~ude", "M~hlo", "Ma~enn", "Ma~ana"} <= words
    assert not words & {"MarieC", "Mariel", "Marie-", "Maximl", "Maximi", "Maximilien"}


def test_bottoms_up_titles_name_the_active_player_recognisably(tmp_path):
    """Titles once read "Mi: new color for rS", "M-Cir: rS on A  turn 1". A title takes
    its shorter wording, or leaves out its turn tag, rather than a form of the
    name nobody reads as the player (names.reads_as)."""
    app = make_app(tmp_path, settings=Settings(players=SIMILAR, seed=5))
    # New game, Bottoms Up, 4 players, the secret colors shown one by one, then
    # P1 puts a small blue on A (a red small): the blue choice for it
    texts = drawn(app, "ok,down,down,ok,ok,ok,ok" + ",hold-ok,release" * 4
                  + ",ok,ok,down,ok,down,down,ok,down,down,down,down,ok,down,ok,ok,ok")
    assert "M-Claire: recolor rS" in texts
    texts = drawn(app, "ok")  # blue chosen: the turn's result, its turn tag left out for the name
    assert "Marie-Claire: bS on A" in texts and "turn 1" not in texts


def test_names_in_a_script_the_font_lacks_draw_apart(tmp_path):
    """Once "李华" and "王芳" both drew as "□□" on every screen: the font draws
    every character it lacks as one replacement box. Each such character is now a box
    holding its code point, so two different names never draw alike, shortened or
    not, on any screen: here the Bag of Ice score screen, where both names stand."""
    from companion.ui.glyphs import render
    assert render("李华").tobytes() != render("王芳").tobytes()
    sample = [chr(c) for c in range(0x4E00, 0x4E00 + 2000)] + ["😀", "🎲", "\u0600"]
    assert len({render(ch).tobytes() for ch in sample}) == len(sample)
    assert all(render(ch).getbbox() for ch in sample)
    app = make_app(tmp_path, settings=Settings(players=("李华", "王芳")))
    drawn(app, "ok,down,ok,down,ok,ok,ok,ok,ok")  # Bag of Ice, 2 players, the start
    app.handle(Key.parse("right"))  # the score screen: both names, side by side
    img = app.frame()
    left, right = img.crop((1, 11, 13, 21)), img.crop((65, 11, 77, 21))
    assert left.getbbox() and right.getbbox() and left.tobytes() != right.tobytes()
