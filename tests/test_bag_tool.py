"""The bag tool at the table: the drawn piece in words and large, Keep or Put
back, and the cursor back on the row that drew, so the same size again is
OK, OK (a size with nothing left: the first row that has some)."""
from __future__ import annotations

from companion.games.tools import BagState
from companion.io import Key
from companion.pieces import Size
from companion.ui.screens import BagScreen

from .screens_util import make_app, press


def bag_screen(tmp_path):
    app = make_app(tmp_path)
    press(app, "down,ok,down,ok,ok")  # Tools, Bag, the first preset
    assert isinstance(app.top, BagScreen)
    return app, app.top


def test_the_same_size_again_is_ok_ok(tmp_path):
    app, screen = bag_screen(tmp_path)
    press(app, "down,down")  # large
    large = screen.list.index
    press(app, "ok")  # draw
    st: BagState = screen.state
    assert st.held is not None and st.held.size == Size.LARGE
    press(app, "ok")  # Keep it
    assert screen.state.held is None and screen.list.index == large
    press(app, "ok,ok")  # draw a large again, keep it
    assert [p.size for p in screen.state.kept] == [Size.LARGE, Size.LARGE]
    press(app, "ok,down,ok")  # a third, put back
    assert len(screen.state.kept) == 2 and screen.list.index == large


def test_a_size_with_nothing_left_puts_the_cursor_on_the_first_with_some(tmp_path):
    app, screen = bag_screen(tmp_path)
    press(app, "down,down")  # large
    for _ in range(screen.state.bag.count_size(Size.LARGE)):
        press(app, "ok,ok")  # draw a large, keep it
    assert screen.state.bag.count_size(Size.LARGE) == 0
    rows = screen.rows()
    assert screen.list.index == 0 and rows[0].enabled  # small, not the empty large row
    app.handle(Key.OK)
    assert screen.state.held is not None  # OK draws at once, no "nothing left" message


def test_refill_counts_its_kept_pieces_with_the_right_plural_in_french(tmp_path):
    """ "Remplir : 1 gardée", "Remplir : 2 gardées" (the plural agrees;
    it said "1 gardées")."""
    import dataclasses

    from companion import i18n
    from companion.config import Settings
    from companion.ui import draw

    old = i18n.language()
    try:
        app = make_app(tmp_path, settings=dataclasses.replace(Settings(), language="fr"))
        press(app, "down,ok,down,ok,ok")  # Outils, Sac, the first preset
        assert isinstance(app.top, BagScreen)
        draw.DRAWN = []
        press(app, "ok,ok")  # draw a small, keep it
        assert "Remplir : 1 gardée" in draw.DRAWN, draw.DRAWN
        press(app, "ok,ok")
        assert "Remplir : 2 gardées" in draw.DRAWN, draw.DRAWN
    finally:
        draw.DRAWN = None
        i18n.set_language(old)


def test_the_drawn_piece_s_color_and_size_agree_in_french(tmp_path):
    """The drawn piece is "verte" / "petite" (both said of the piece, feminine in
    French), never "vert" / "petite": drawn until a color whose word on its own
    differs from the word said of a piece."""
    import dataclasses

    from companion import i18n
    from companion.config import Settings
    from companion.pieces import Color
    from companion.ui import draw

    alone = {Color.GREEN: "vert", Color.BLUE: "bleu", Color.BLACK: "noir", Color.WHITE: "blanc",
             Color.PURPLE: "violet", Color.CLEAR: "transparent"}
    of_piece = {Color.GREEN: "verte", Color.BLUE: "bleue", Color.BLACK: "noire", Color.WHITE: "blanche",
                Color.PURPLE: "violette", Color.CLEAR: "transparente"}
    old = i18n.language()
    try:
        app = make_app(tmp_path, settings=dataclasses.replace(Settings(), language="fr"))
        press(app, "down,ok,down,ok,ok")  # Outils, Sac, the first preset
        screen = app.top
        assert isinstance(screen, BagScreen)
        for _ in range(40):
            draw.DRAWN = []
            press(app, "ok")  # draw (the cursor is on a size with pieces)
            held = screen.state.held
            assert held is not None
            if held.color in alone:
                break
            press(app, "down,ok")  # put it back
        else:
            raise AssertionError("no piece of a color with a feminine form was drawn")
        assert of_piece[held.color] in draw.DRAWN and alone[held.color] not in draw.DRAWN, draw.DRAWN
        assert {"petite", "moyenne", "grande"} & set(draw.DRAWN)
        from companion.words.moves import move_words
        line = screen.session.history(move_words)[-1].line  # the draw, in the history and undo question
        assert of_piece[held.color] + "," in line and alone[held.color] + "," not in line, line
    finally:
        draw.DRAWN = None
        i18n.set_language(old)
