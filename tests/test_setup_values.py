"""Setup values stop at their ends: LEFT from a Bag of Ice target of
10 gave 200. On every option of every game's setup screen LEFT and RIGHT step
one value and stop at the first and the last; OK still goes round (OK alone
reaches every value)."""
from __future__ import annotations

import pytest

from companion.io import Key
from companion.ui import bag_of_ice, bottoms_up, undercut
from companion.ui.common import OptionsSetup
from companion.ui.widgets import NumberPicker
from tests.screens_util import make_app, press

NAMES = ["Ann", "Bob", "Cat", "Dan"]


def screens(app) -> list[OptionsSetup]:
    return [bag_of_ice.options_screen(NAMES), bottoms_up.options_screen(app, NAMES),
            undercut.options_screen(NAMES)]


def test_left_from_a_target_of_10_stays_at_10(tmp_path):
    app = make_app(tmp_path)
    screen = bag_of_ice.options_screen(NAMES)
    app.push(screen)
    target = next(o for o in screen.options if o.key == "target")
    press(app, "down")  # the cursor on Target
    for _ in range(10):
        press(app, "left")
    assert target.value == 10
    press(app, "left")
    assert target.value == 10  # not 200
    for _ in range(30):
        press(app, "right")
    assert target.value == 200
    press(app, "ok")
    assert target.value == 10  # OK goes round


@pytest.mark.parametrize("which", range(3))
def test_every_option_of_every_setup_screen_stops_at_both_ends(tmp_path, which):
    app = make_app(tmp_path)
    screen = screens(app)[which]
    app.push(screen)
    checked = 0
    for row, o in enumerate(screen.shown_options(), 1):
        screen.index = row
        ends, first = [], o.index
        for key, toward in ((Key.LEFT, "low"), (Key.RIGHT, "high")):
            seen = []
            for _ in range(len(o.values) + 2):
                screen.on_key(key, app)
                seen.append(o.index)
            end = seen[-1]
            assert end in (0, len(o.values) - 1), (o.key, toward, seen)
            assert seen[-2] == end and seen[-3] == end  # it stays there: no wrap
            # the steps on the way were one at a time, all in one direction
            steps = {b - a for a, b in zip(seen, seen[1:])} - {0}
            assert len(steps) <= 1 and all(abs(s) == 1 for s in steps), (o.key, seen)
            ends.append(end)
        assert sorted(ends) == [0, len(o.values) - 1]  # LEFT went to one end, RIGHT to the other
        o.index = first  # as it was: an option may hide another (Undercut's bag at the score level)
        checked += 1
    assert checked >= 2


def test_a_number_picker_with_choices_stops_at_its_ends(tmp_path):
    app = make_app(tmp_path)
    got = []
    p = NumberPicker("Screen off", 0, 0, 1800, lambda a, v: got.append(v), choices=[0, 30, 60, 300])
    app.push(p)
    press(app, "down")
    assert p.value == 0
    press(app, "right,right,right,right")  # a step a press where the values are few (RIGHT reads as one more), then the end
    assert p.value == 300
    press(app, "up,ok")
    assert got == [300]
