"""The shared screens speak the catalog's language and cut nothing:
main menu, new game, tools, history, settings, about, the session
menu, undo, the roster, in the pseudo-language (every text marked) and in French; text kept 2 pixels
clear of a scroll bar."""
from __future__ import annotations

import pytest

from companion import i18n
from companion.config import Settings
from companion.ui.draw import CLIPS
from companion.ui.undercut import UndercutScreen
from tests.i18n_util import pseudo_language, untranslated
from tests.screens_util import make_app, press

NAMES = ("Alexandrinaa", "Bartholomews", "Christabelle", "Dominiquette")  # 12 characters each

WANDER = [
    "down,ok,ok,back,ok,back,down,ok,ok,back,down,ok,back,back",       # tools: die, bag presets, start player
    "down,ok,ok,ok,ok,hold-back,back,back",                             # the die: two rolls, the undo question
    "down,ok,down,ok,ok,ok,hold-back,back,ok,hold-back,back,back",      # the bag: a draw, undo, keep, undo
    "down,ok,down,down,ok,ok,ok,hold-back,back,back",                   # the start player: a pick, undo
    "down,down,ok,back",                                                # history (empty)
    "down,down,down,ok,down,down,down,down,down,down,down,down,back",  # every setting
    "up,ok,back",                                                       # about
    "ok,ok,ok,down,ok,down,ok,back,back,back,back",                     # new game > Undercut > seats > roster pick
]
GAME = "ok,ok,ok,ok,ok"  # an Undercut game with the roster seated
SESSION_MENU = "back,down,down,down,down,down,back"  # the session menu (the game's own screens: its tests)


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.set_language("en")


def wander(app, drawn=None) -> int:
    """Every shared screen, then a game's session menu; returns the texts cut
    on the shared screens (the game screen itself is its module's to check)."""
    CLIPS.reset()
    for keys in WANDER:
        app.home()
        press(app, keys)
    cut = CLIPS.count
    app.home()
    press(app, GAME)
    if drawn is not None:
        drawn.clear()
    for key in SESSION_MENU.split(","):
        CLIPS.reset()
        press(app, key)
        if not isinstance(app.top, (UndercutScreen,)):
            cut += CLIPS.count
    if drawn is not None:  # only what the session menu drew
        drawn[:] = [t for t in drawn if t not in GAME_TEXTS(app)]
    return cut


def GAME_TEXTS(app) -> set[str]:
    from companion.ui import draw
    from companion.ui.draw import Canvas
    old, draw.DRAWN = draw.DRAWN, []
    try:
        screen = next(s for s in reversed(app.stack) if isinstance(s, UndercutScreen))
        screen.render(Canvas())
        return set(draw.DRAWN)
    finally:
        draw.DRAWN = old


def test_every_shared_text_goes_through_the_catalog(tmp_path):
    app = make_app(tmp_path, settings=Settings(players=NAMES))
    with pseudo_language() as drawn:
        wander(app)
        assert len(drawn) > 100
        before = untranslated(drawn, NAMES)
        wander(app, drawn)
        after = untranslated(drawn, NAMES)
    assert before == [] and after == []


def test_in_french_nothing_is_cut_with_long_names(tmp_path):
    app = make_app(tmp_path, settings=Settings(players=NAMES, language="fr"))
    assert i18n.language() == "fr"
    assert wander(app) == 0, CLIPS.examples


def test_language_is_chosen_in_settings_and_applies_from_the_next_screen(tmp_path):
    app = make_app(tmp_path)
    app.settings_path = str(tmp_path / "companion.toml")
    press(app, "down,down,down,ok")  # Settings: Language first
    assert app.top.items[0].right == "English"
    press(app, "ok")
    assert app.settings.language == "fr" and i18n.language() == "fr"
    assert app.top.items[0].label == "Langue" and app.top.items[0].right == "Français"
    assert 'language = "fr"' in (tmp_path / "companion.toml").read_text()
    app.home()
    assert [it.label for it in app.top.items][:2] == ["Nouvelle partie", "Outils"]
    press(app, "down,down,down,ok,ok")  # back to English, each language named in itself
    assert app.settings.language == "en" and app.top.items[0].right == "English"


def test_text_in_the_large_font_past_the_right_edge_is_counted_as_clipped():
    """The large font cuts as silently as the small one would: 11 characters at
    2x are 132 pixels. The clip log counts it, so the bench and the screen tests
    see it."""
    from companion.ui.draw import CLIPS, Canvas

    CLIPS.reset()
    c = Canvas()
    c.big(0, 0, "ABCDEFGHIJ", 2)  # 120 px: fits
    c.center(20, "Konstantinos", scale=2)  # 144 px: does not
    assert CLIPS.count == 1 and CLIPS.examples == ["Konstantinos"]
    CLIPS.reset()


def test_french_punctuation_never_starts_a_line():
    from companion.ui.draw import wrap

    assert wrap("Annuler : P1 garde 0 ?", 21) == ["Annuler : P1 garde", "0 ?"]
    assert wrap("dé : petite ou moyenne, par taille :", 21) == ["dé : petite ou", "moyenne, par taille :"]
    for line in wrap("Annuler : P1 garde 0 ? « oui » ; non !", 10):
        assert line.split()[0] not in {"?", "!", ":", ";", "»"}


def test_a_list_of_piece_codes_is_never_split_across_lines():
    """A stack's pieces, or pieces going back to the bag, wrapped as "rL rM" above "kS"
    read as two groups (Undercut's round summary: "Ann takes A: rL rM" / "kS"; the
    only-one-move page: "back to the bag: kM" / "kM kM"). A list that fits a line
    moves to the next line whole; a longer one fills each line."""
    from companion.ui.draw import wrap

    assert wrap("Ann takes A: rL rM kS", 20) == ["Ann takes A:", "rL rM kS"]
    assert wrap("Anne prend A : rL rM kS", 20) == ["Anne prend A :", "rL rM kS"]
    assert wrap("  retour au sac : kM kM kM", 20) == ["retour au sac :", "kM kM kM"]
    assert wrap("Back to the bag: rS, gM and kL.", 20) == ["Back to the bag: rS,", "gM and kL."]
    long = wrap("bag: rL rM rS yL yM yS gL gM gS bL bM", 20)
    assert long == ["bag:", "rL rM rS yL yM yS gL", "gM gS bL bM"]
    assert all(len(line) <= 20 for line in long)


def test_points_never_start_a_line():
    """The only-one-move page wrapped "Dominique : TRIPLET" above a lone "+2"."""
    from companion.ui.draw import wrap

    assert wrap("Dominique : TRIPLET +2", 20) == ["Dominique :", "TRIPLET +2"]
    assert wrap("Eve: TREE +5", 10) == ["Eve:", "TREE +5"]
    for line in wrap("Ann gains +3, Bob loses -12; Cy +1.", 10):  # each fits beside its word
        assert not line.startswith(("+", "-")), line


def test_the_settings_title_follows_the_language_switched_on_it(tmp_path):
    """After Language was switched, the Settings title stayed in the old
    language over entries in the new one; the seed is saved as an integer."""
    import tomllib

    from companion.config import Settings
    from companion.i18n import set_language
    from companion.ui import draw

    from .screens_util import make_app, press
    cfg = tmp_path / "companion.toml"
    app = make_app(tmp_path, settings=Settings(seed="7", language="en"))
    app.settings_path = str(cfg)
    try:
        press(app, "down,down,down,ok")  # Settings (no session: New game, Tools, History, Settings)
        assert app.top.heading()[0] == "Settings"
        press(app, "ok")  # Language: English -> Français
        draw.DRAWN = []
        app.frame()
        assert app.top.heading()[0] == "Réglages" and "Réglages" in draw.DRAWN and "Settings" not in draw.DRAWN
        assert app.top.items[0].label == "Langue"
        press(app, "ok")  # and back
        draw.DRAWN = []
        app.frame()
        assert "Settings" in draw.DRAWN and "Réglages" not in draw.DRAWN
        assert tomllib.loads(cfg.read_text())["seed"] == 7
    finally:
        draw.DRAWN = None
        set_language("en")


def test_a_count_stays_with_its_word():
    """The French bid picker wrapped "À battre : 3 enc., 1" above "pce (Anne)"; the
    count goes down with its word, in the shared wrap (it was a private glue in
    one screen)."""
    from companion.ui.draw import wrap

    assert wrap("À battre : 3 enc., 1 pce (Anne)", 20) == ["À battre : 3 enc.,", "1 pce (Anne)"]
    for line in wrap("To beat: 12 pips, 4 pieces", 14):
        assert not line.split()[-1].isdigit(), line


# ---------------------------------------------------------------- text near the scroll bar


def test_text_within_2_pixels_of_a_scroll_bar_is_counted_as_clipped():
    """By its lit pixels: "Ł" lights its cell's last column, "c" does not."""
    from companion.ui.draw import CHAR_W, CLIPS, WIDTH, Canvas
    for text, cells_end, counted in (("abc", WIDTH - 2, True), ("abc", WIDTH - 3, False),
                                     ("abŁ", WIDTH - 3, True), ("abŁ", WIDTH - 4, False)):
        CLIPS.reset()
        c = Canvas()
        c.scrollbar(0, 5, 10)
        c.text(cells_end + 1 - 3 * CHAR_W, 20, text)
        assert (CLIPS.count == 1) is counted, (text, cells_end)


def test_the_main_menu_footer_keeps_2_pixels_from_the_scroll_bar(tmp_path):
    from companion.config import Settings
    from companion.ui.draw import CLIPS, HEIGHT, LINE_H, WIDTH
    app = make_app(tmp_path, settings=Settings(players=("Alex", "Bob", "Cy", "Dee", "Łukasz")))
    press(app, "ok,ok,up,ok,ok,ok")  # Undercut with the 5 roster names
    app.home()
    CLIPS.reset()
    img = app.frame()
    footer = app.top.footer_lines()
    # no name cut past its one short form ("Łuk"): the first ones and how many more
    assert footer[0] == "Undercut" and footer[1] == "Alex, Bob, Cy +2"
    assert CLIPS.count == 0, CLIPS.examples
    px = img.load()
    assert len(app.top.items) > app.top.shown()  # a scroll bar, whose track runs beside the footer
    for y in range(HEIGHT - 2 * LINE_H, HEIGHT):
        assert not any(px[x, y] for x in (WIDTH - 3, WIDTH - 2)), y
