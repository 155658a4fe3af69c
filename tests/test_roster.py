"""The player roster: names kept in the settings across games; setup
seats the players from it in order, a seat takes another roster name or a new
one ("New name", last), and a new name joins the roster."""
from __future__ import annotations

from companion.config import Settings
from companion.ui.common import PlayersSetup
from companion.ui.keyboard import NameKeyboard, presses_for
from companion.ui.undercut import UndercutScreen
from tests.screens_util import make_app, press

ROSTER = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


def test_four_roster_players_are_seated_in_five_presses_from_new_game(tmp_path):
    app = make_app(tmp_path, settings=Settings(players=ROSTER[:4]))
    press(app, "ok,ok,ok,ok,ok")  # New game, Undercut, 4 players, Next (the roster seated), Start
    assert isinstance(app.top, UndercutScreen)
    assert app.top.state.players == ("Ann", "Bob", "Cat", "Dan")


def test_a_seat_takes_another_roster_name_or_a_new_one_which_joins_the_roster(tmp_path):
    app = make_app(tmp_path, settings=Settings(players=ROSTER))
    press(app, "ok,ok,down,ok")  # New game, Undercut, 3 players
    setup = app.top
    assert isinstance(setup, PlayersSetup) and setup.names == ["Ann", "Bob", "Cat"]
    press(app, "down,down,ok")  # seat 2: the roster's names not seated, the seat's own first... then New name
    labels = [it.label for it in app.top.items]
    assert labels == ["Bob", "Dan", "Eve", "Fay", "New name"] and app.top.index == 0
    press(app, "down,down,ok")  # Eve
    assert app.top is setup and setup.names == ["Ann", "Eve", "Cat"]
    press(app, "down,ok")  # seat 3: the cursor on its name, Cat
    assert app.top.index == 1
    press(app, "down,down,down,ok")  # New name, last
    assert isinstance(app.top, NameKeyboard)
    keys = ",".join(presses_for("Zoe"))
    press(app, keys)
    assert app.top is setup and setup.names == ["Ann", "Eve", "Zoe"]
    assert app.settings.players == ROSTER + ("Zoe",)  # kept for the next games


def test_with_an_empty_roster_a_seat_opens_the_keyboard(tmp_path):
    app = make_app(tmp_path)
    press(app, "ok,ok,down,ok,down,ok")  # New game, Undercut, 3 players, seat 1
    assert isinstance(app.top, NameKeyboard)
