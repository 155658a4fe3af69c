"""Every row of the Settings menu reads whole, label and value apart, in English
and French: a settings row has one column less than a
setup's, for the menu's scroll bar ("Lone piec~..no score" was cut)."""
from __future__ import annotations

import pytest

from companion.config import change
from companion.ui.draw import CLIPS
from companion.ui.screens import SettingsMenu
from tests.screens_util import make_app


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
