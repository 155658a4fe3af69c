"""The undo question and the History's moves speak the screens' language:
``ui.moves.move_words`` words every move of random games of the
three games in the catalog's words, never the engines' English and never a
ruling id."""
from __future__ import annotations

import random
import re

import pytest

from companion import i18n
from companion.engine import pick_chance
from companion.games import spec
from companion.words.moves import move_words
from tests.i18n_util import pseudo_language, untranslated

GAMES = [
    ("bag_of_ice", {"players": ["Ann", "Bob"], "target": 20}),
    ("bag_of_ice", {"players": ["Ann", "Bob"], "target": 20, "die": "physical", "bag": "physical", "start": "rolloff"}),
    ("undercut", {"players": ["Ann", "Bob", "Cat"], "level": "full"}),
    ("undercut", {"players": ["Ann", "Bob", "Cat"], "level": "score"}),
    ("bottoms_up", {"players": ["Ann", "Bob", "Cat", "Dan"], "stash": 1}),
    ("bottoms_up", {"players": ["Ann", "Bob"], "stash": 1, "secret": "physical"}),
]


def lines_of(game, setup, seed=3):
    rng = random.Random(seed)
    st = spec(game).new(setup)
    out = []
    for _ in range(300):
        if st.is_terminal():
            break
        m = pick_chance(st, rng) if st.is_chance_node() else rng.choice(st.legal_moves())
        out.append(move_words(st, m))
        st = st.apply(m)
    return out


@pytest.mark.parametrize("game,setup", GAMES)
def test_every_move_is_worded_through_the_catalog(game, setup):
    try:
        with pseudo_language():
            lines = lines_of(game, setup)
    finally:
        i18n.set_language("en")
    assert len(lines) > 10
    assert untranslated(lines, setup["players"]) == []
    assert not [x for x in lines if re.search(r"\b(U|B|BU)-\d+", x)]


def test_french_undo_question_and_history(tmp_path):
    from companion.config import Settings
    from tests.screens_util import make_app, press
    app = make_app(tmp_path, settings=Settings(language="fr", players=("Ann", "Bob", "Cat")))
    try:
        press(app, "ok,down,ok,ok,ok,ok")  # Bag of Ice, 3 players, start
        from companion.ui.common import Report
        while isinstance(app.top, Report):
            press(app, "ok")  # the roll-off summary (OK shows the end of a long one first)
        press(app, "ok")  # roll & draw
        press(app, "hold-back")
        assert app.top.title == "Annuler" and "pioche" in app.top.question or "perd" in app.top.question
        press(app, "back,back")  # keep it; the session menu
        labels = [it.label for it in app.top.items]
        press(app, ",".join(["down"] * labels.index("Historique") + ["ok"]))
        moves = [it.label for it in app.top.items]
        assert any("lance le dé" in x for x in moves), moves
    finally:
        i18n.set_language("en")


def test_a_size_mix_taken_at_setup_is_said_in_words_U3():
    """The undo question said "Ann takes L M S": a mix is words, as on its menu."""
    st = spec("undercut").new({"players": ["Ann", "Bob", "Cat"], "level": "full", "start": 0})
    rng = random.Random(1)
    while st.is_chance_node():
        st = st.apply(pick_chance(st, rng))
    said = {str(m): move_words(st, m) for m in st.legal_moves() if str(m).startswith("take ")}
    assert said["take LMS"] == "Ann takes one of each size"
    assert said["take LL"] == "Ann takes 2 large"
    assert not any(re.search(r"\b[LMS] [LMS]\b", line) for line in said.values()), said
