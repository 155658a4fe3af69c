"""The bench's scripted games are play (bench/scripts*.py): no script keeps
pressing on a game that is already over, which would measure a finished
game's screens instead of a table playing. The bench's clipping run sees the
main menu, and the presses to see one's color mid-game stay within their goal."""
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


def test_the_bench_counts_a_name_with_a_letter_from_another_keyboard_page():
    """"Łukasz" took about 35 presses (45 as counted), the keyboard staying on
    Ł's page. The bench types it on the real app and reports presses_name_other_page."""
    from bench.__main__ import GOALS, KEYS, PRESSES, measure_presses
    fig = measure_presses()
    # 33 before blank keys were skipped, 32 before the accent pages were laid out
    # around "…", where their cursor starts
    assert fig["presses_name_other_page"] == 28
    assert "presses_name_other_page" in KEYS and GOALS["presses_name_other_page"] == ("<=", 33)
    assert any(k == "presses_name_other_page" for k, _what in PRESSES)


def test_no_text_is_cut_or_meets_a_scroll_mark_in_the_quick_clipping_run():
    """clipped_text_draws and clipped_text_draws_fr also count text that runs up to a
    scroll mark, and are 0."""
    from bench.__main__ import measure_clips
    fig = measure_clips(True)
    assert fig["clipped_text_draws"] == 0 and fig["clipped_text_draws_fr"] == 0, fig


# ---------------------------------------------------------------- the bench's clipping run and the secret colors' presses


def test_the_bench_clipping_run_sees_the_main_menu_footer_of_a_table_of_short_names(monkeypatch):
    """clipped_text_draws covers the main menu (bench.main_menu_clips): with the footer
    as wide as before it counts it; as drawn now, nothing."""
    from bench.__main__ import main_menu_clips
    from companion.ui import screens
    from companion.ui.draw import CLIPS
    CLIPS.reset()
    main_menu_clips("en")
    assert CLIPS.count == 0, CLIPS.examples
    monkeypatch.setattr(screens, "FOOTER_CHARS", 22)
    CLIPS.reset()
    main_menu_clips("fr")
    assert CLIPS.count > 0 and "Alex,Bob,Cy,Dee,Łukasz" in CLIPS.examples


def test_bench_counts_presses_to_see_ones_color_mid_game_within_its_goal():
    from bench.__main__ import GOALS, KEYS, PRESSES, presses_secret_color_midgame
    n = presses_secret_color_midgame()
    assert n is not None and n <= GOALS["presses_secret_color_midgame"][1] == 4
    assert "presses_secret_color_midgame" in KEYS and "presses_secret_color_midgame" in dict(PRESSES)
