"""Every row of the Settings menu reads whole, label and value apart, in English
and French: a settings row has one column less than a
setup's, for the menu's scroll bar ("Lone piec~..no score" was cut); every option row, a game's setup's too, sets label and value apart with a leader."""
from __future__ import annotations

import pytest

from companion.config import change
from companion.ui.draw import CLIPS
from companion.ui.screens import SettingsMenu
from tests.screens_util import make_app, press


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("flags", [{}, {"bu_lone_pieces": True, "bu_seat_color": False, "boi_hints": False}])
def test_every_settings_row_reads_whole(tmp_path, lang, flags):
    app = make_app(tmp_path)
    app.save_settings(change(app.settings, language=lang, **flags))
    menu = SettingsMenu()
    app.push(menu)
    CLIPS.reset()
    for i in range(len(menu.items)):
        menu.index = i
        app.frame()
    assert CLIPS.count == 0, CLIPS.examples
    app.journal.close()


# ---------------------------------------------------------------- option rows


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("keys", ["ok,ok,ok,ok", "ok,down,ok,ok,ok", "ok,down,down,ok,ok,ok", "down,down,down,ok"])
def test_option_rows_set_label_and_value_apart_with_a_leader(tmp_path, lang, keys):
    """A row read "Secret colors device", "Niveau table entière": each option row has dots
    on the baseline between its label and its value, whatever the space between them."""
    from companion.config import Settings
    from companion.ui.draw import CHAR_W, LINE_H, TITLE_H
    from companion.ui.widgets import item_text
    app = make_app(tmp_path, settings=Settings(language=lang))
    img = press(app, keys)  # the options of Undercut, Bag of Ice, Bottoms Up; Settings
    menu = app.top
    rows = [(i, it) for i, it in enumerate(menu.items[:menu.shown()]) if it.right]
    assert len(rows) >= 3
    room = menu.list.room(len(menu.items), menu.shown(), menu.list.x)
    for i, it in rows:
        text = item_text(it, room)
        start = len(text) - len(it.right)
        end = len(text[:start].rstrip())
        y = TITLE_H + i * LINE_H + 7
        x0, x1 = menu.list.x + CHAR_W * end, menu.list.x + CHAR_W * start
        dots = [x for x in range(x0, x1) if img.getpixel((x, y))]
        assert len(dots) >= 2 and all(b - a >= 2 for a, b in zip(dots, dots[1:])), (text, dots)
