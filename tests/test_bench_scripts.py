"""The bench's scripted games are play (bench/scripts*.py): no script keeps
pressing on a game that is already over, which would measure a finished
game's screens instead of a table playing."""
from __future__ import annotations

import random

import pytest

import bench.scripts as scripts
from companion.config import Settings
from companion.io import Key
from companion.journal import Journal
from companion.ui.app import App
from companion.ui.base import SessionScreen

scripts._load_games()
AFTER_THE_END = 12  # presses a table makes on a finished game: the winner, the scores, leaving


@pytest.mark.parametrize("quick", [True, False])
@pytest.mark.parametrize("game", sorted(scripts.GAME_SCRIPTS))
def test_a_scripted_game_does_not_play_on_after_its_end(tmp_path, game, quick):
    keys = scripts.GAME_SCRIPTS[game](quick)
    app = App(Journal(str(tmp_path / "j.db")), Settings(), rng=random.Random(3))  # as bench.ui_events
    app.warm_up()
    after_end = 0
    played = False
    for name in keys:
        app.handle(Key.parse(name))
        app.frame()
        games = [s.session for s in app.stack if isinstance(s, SessionScreen)]
        played = played or bool(games)
        if any(g.state.is_terminal() for g in games):
            after_end += 1
    assert played, "the script opened no session"
    assert after_end <= AFTER_THE_END, f"{after_end} presses on a finished {game} game"
