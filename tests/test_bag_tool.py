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
    """ "Remplir : 1 gardée", "Remplir : 2 gardées" (issue 13's correct plurals;
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
