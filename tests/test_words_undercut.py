"""Undercut's words: every text through the catalog, nothing
clipped with 12-character names in English and French, no ruling id in a
title, names in any script.

Scripted games go through every screen of the game: the setup options, a
random start, the score-sheet game to a tiebreak and its winner, a full-table
round with the physical bag (draws, bids, an undercut, a refused pass, the
pass size, the round summary, the turn-ins played by the device, the scores
and combo values, the hands, the "Why" page), and full-table rounds with the
virtual bag and 5 players (the most Undercut allows, U-2) played by a fixed
random walk of keys.
"""
from __future__ import annotations

import random
import re

import pytest

from companion import i18n
from companion.config import Settings
from companion.games import undercut as uc_engine  # the outcome details are codes the plug-in words
from companion.ui import draw
from companion.ui.draw import CLIPS
from companion.ui.undercut import BidPicker, ScoreScreen, UndercutScreen
from companion.ui.common import Report
from companion.ui.widgets import ChoiceList, Screen

from .i18n_util import pseudo_language, untranslated
from .screens_util import drawn_texts, make_app, press

LONG = ("Alexandrinaa", "Bartholomews", "Christophera", "Dominiquette", "Evangelinaaa")
WORLD = ("Łukasz", "Дмитрий", "Αλέξανδρος", "李华", "Ann 🎲")
SHORTENED = LONG + tuple(n[:k] for n in LONG for k in range(2, len(n)))  # short_names' cuts
RULING = re.compile(r"\b(U|B|BU)-\d+")

# From the main menu: New game, Undercut; the players' number; the names as seated (Next >);
# the options (rows: Start game, Level, Bag, Start).
SHEET_3 = "ok,ok,down,ok,ok,down,ok,up,ok"
SHEET_3_RANDOM = "ok,ok,down,ok,ok,down,ok,down,down,ok,ok,ok,up,up,up,ok"  # start: random
FULL_3_PHYSICAL = "ok,ok,down,ok,ok,down,down,ok,up,up,ok"
FULL_5_VIRTUAL = "ok,ok,up,ok,ok,ok"
SETUP_DRAWS = ("ok,ok,down,ok,down,down,ok,"
               "ok,down,ok,down,down,ok,ok,"
               "ok,down,down,ok,ok,down,ok")
STACK_DRAWS = "ok,ok,ok,down,ok,down,ok,down,ok"

SHEET_GAME = ",".join([
    SHEET_3,
    "back,down,ok,pages",          # the session menu's Why page, then back to the game
    "right,right,left,ok",          # the scores, the combo values, the scores, back
    "down,ok,down,ok,down,ok,ok",   # P1: three TREEs, done
    "ok,ok",                        # P2, P3 done
    "ok,pages",                     # P1 passed: the end is triggered; its note
    "ok,ok,ok",                     # the last scoring phase: all done
    "back,down,ok,pages",           # Why on the tiebreak
    "up,up,up,up,up,ok",            # P2: 5 pips
    "up,up,up,ok",                  # P3: 3 pips: the winner
    "ok,right,ok",                  # the scores and combo values from the winner screen
    "back,down,down,ok,pages",      # Why on the winner screen (Leave comes first)
])
FULL_ROUND = ",".join([
    FULL_3_PHYSICAL, SETUP_DRAWS,
    "back,down,ok,ok,back,back,back",  # the hands, one hand, the session menu, the game
    STACK_DRAWS,
    "back,down,down,ok,pages",      # Why in the auction
    "up,ok,ok,down",                # Pass refused: a stack has no bid; back to A
    "ok,down,down,ok,ok",           # P1 bids yM on A
    "ok,ok",                        # P2: the marker alone on B
    "ok,down,down,ok",              # P3 (the cursor on A) picks rM for A: too high
    "ok,ok",                        # refused (the engine's message), dismissed
    "down,down,ok,up,ok",           # rM back to none; yS instead; bid: P1 is undercut
    "ok",                           # the undercut's note
    "up,ok",                        # P1 passes (UP from A to Pass): the size menu
    "ok,ok",                        # small; red
    "ok,pages",                     # the round summary, the turn-ins played for P2 and P3
    "right,right,ok",               # scores, combo values
])


SHEET_PIECES = ",".join([
    SHEET_3, "down,ok,down,ok,down,ok,ok", "ok,ok", "ok,ok", "ok,ok,ok",
    "up,up,up,ok", "up,up,up,ok",   # P2 and P3 both 3 pips: the pieces decide (U-13)
    "up,ok", "up,up,ok",            # P2 1 piece... as the entries allow
    "ok,ok,ok,ok,ok",
])
SCRIPTS = {  # name: (keys, players, seed of a random walk of keys after them, or None)
    "sheet": (SHEET_GAME, 3, None),
    "sheet_pieces": (SHEET_PIECES, 3, None),
    "sheet_random_start": (SHEET_3_RANDOM + ",ok", 3, None),
    "full_physical": (FULL_ROUND, 3, None),
    "full_virtual_4": ("ok,ok,ok,ok,ok", 4, 3),   # to the winner, through a choice of turn-ins
    "full_virtual_5": (FULL_5_VIRTUAL, 5, 7),     # the most players (U-2), to the winner
}


def ours(screen: Screen) -> bool:
    """A screen this game draws (the shared menus and the engine's refusals are not)."""
    return isinstance(screen, (UndercutScreen, BidPicker, ScoreScreen, Report)) or \
        getattr(screen, "owner", None) == "undercut"


def play(tmp_path, name: str, names, *, language: str | None = None, each=None) -> list[type]:
    """Play one script; after every key, ``each(app)`` when the screen is this game's."""
    keys, n, walk = SCRIPTS[name]
    app = make_app(tmp_path / name, settings=Settings(players=tuple(names[:n])))
    if language:
        i18n.set_language(language)
    seen: list[type] = []

    def step(k: str) -> None:
        app.handle(__import__("companion.io", fromlist=["Key"]).Key.parse(k))
        if ours(app.top):
            seen.append(type(app.top))
            if each:
                each(app)
    for k in filter(None, keys.split(",")):
        if k == "pages":  # OK on each page of lines up: a long one shows its end, then closes
            for _i in range(100):
                if not isinstance(app.top, Report):
                    break
                step("ok")
            continue
        step(k)
    if walk:
        rnd = random.Random(walk)
        choices = ["ok"] * 8 + ["up", "down", "down", "back", "right", "left"]
        for _i in range(1500):
            step(rnd.choice(choices))
            if not any(isinstance(s, UndercutScreen) for s in app.stack):
                break
    return seen


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.set_language("en")
    draw.DRAWN = None


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_every_text_goes_through_the_catalog(tmp_path, script):
    found: list[str] = []

    def each(app):
        draw.DRAWN = drawn = []
        app.frame()
        found.extend(untranslated(drawn, SHORTENED))
    with pseudo_language():
        seen = play(tmp_path, script, LONG, language=i18n.PSEUDO, each=each)
    assert seen, "the script never reached the game's screens"
    assert found == [], found[:10]


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_nothing_is_clipped_with_long_names(tmp_path, script, language):
    clipped: list[str] = []

    def each(app):
        CLIPS.reset()
        app.frame()
        if CLIPS.count:
            clipped.append(f"{type(app.top).__name__}: {CLIPS.examples}")
    play(tmp_path, script, LONG, language=language, each=each)
    assert clipped == [], clipped[:10]


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_no_ruling_id_in_a_title(tmp_path, script):
    titles: list[str] = []
    original = draw.Canvas.title

    def spy(self, s, right="", **kw):
        titles.append(f"{s} | {right}")
        return original(self, s, right, **kw)

    def each(app):
        draw.Canvas.title = spy
        try:
            app.frame()
        finally:
            draw.Canvas.title = original
    for language in ("en", "fr"):
        play(tmp_path / language, script, LONG, language=language, each=each)
    assert titles and [t for t in titles if RULING.search(t)] == []


def test_instructions_name_no_ruling_but_the_why_page_does(tmp_path):
    whys: list[list[str]] = []

    def each(app):
        game = next((s for s in reversed(app.stack) if isinstance(s, UndercutScreen)), None)
        if game is None:  # the setup's options
            return
        whys.append(game.why_lines())
        if isinstance(app.top, UndercutScreen):
            title, big = app.top.header()
            assert not RULING.search(title) and not RULING.search(big)
            assert not any(RULING.search(r.label + r.right) for r in app.top.rows())
    play(tmp_path, "full_physical", LONG, each=each)
    ids = {w.split(":")[0] for ws in whys for w in ws}
    assert ids >= {"U-3", "U-7", "U-8", "U-9", "U-10", "U-11", "U-15"}
    whys.clear()
    play(tmp_path / "sheet", "sheet", LONG, each=each)
    ids = {w.split(":")[0] for ws in whys for w in ws}
    assert ids >= {"U-4", "U-5", "U-6", "U-11", "U-12", "U-13"}


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_names_in_any_script_draw(tmp_path, script):
    def each(app):
        app.frame()
    for language in ("en", "fr"):
        seen = play(tmp_path / language, script, WORLD, language=language, each=each)
        assert UndercutScreen in seen


def test_french_words_of_the_rules(tmp_path):
    shown: list[str] = []

    def each(app):
        draw.DRAWN = drawn = []
        app.frame()
        shown.extend(drawn)
    play(tmp_path, "full_physical", LONG, language="fr", each=each)
    play(tmp_path / "s", "sheet", LONG, language="fr", each=each)
    text = "\n".join(shown)
    for word in ("ARBRE", "TRIPLET", "QUADRUPLET", "encoche", "Enchère", "Passer", "sac", "petite",
                 "moyenne", "grande", "Phase de score", "Gagnant", "Sous-enchère"):
        assert word in text, word


def test_one_point_is_singular(tmp_path):
    from companion.ui.undercut import pieces_count, pips_text
    assert pips_text(1) == "1 pip" and pips_text(2) == "2 pips" and pieces_count(1) == "1 piece"
    i18n.set_language("fr")
    assert pips_text(0) == "0 encoche" and pips_text(2) == "2 encoches" and pieces_count(1) == "1 pièce"


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("k", [2, 3, 5])
def test_a_shared_win_of_long_names_is_not_clipped(tmp_path, language, k):
    """A shared win (U-13: tied on score, pips and pieces) among ``k`` of 5 long names."""
    from dataclasses import replace
    from types import SimpleNamespace

    from companion.ui.draw import Canvas
    app = make_app(tmp_path, settings=Settings(players=LONG))
    press(app, "ok,ok,up,ok,ok,down,ok,up,ok")  # 5 players, score sheet
    st = next(s for s in app.stack if isinstance(s, UndercutScreen)).session.state
    seats = tuple(range(k))
    over = replace(st, phase="over", winners=seats, tied=seats, tb_pips=(4,) * 5, tb_pieces=(2,) * 5,
                   detail=uc_engine.WON_SHARED)
    i18n.set_language(language)
    CLIPS.reset()
    draw.DRAWN = drawn = []
    UndercutScreen(SimpleNamespace(state=over)).render(Canvas())
    assert CLIPS.count == 0, CLIPS.examples
    assert any(LONG[0][:5] in t for t in drawn)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_tie_broken_by_pieces_lists_pieces_only_U13(tmp_path, language):
    """Four tied on score; pips 5, 3, 5, 3: the two with 3 pips count their pieces, 2
    and 3. The winner screen said "tie broken by pieces" above "Bo 5 Cy 2 De 5 Ev 3":
    the 5s were pips, read as pieces (Bob and Dee would have had the fewest but for
    2). It lists the pieces of the hands that counted them: "Cy 2 Eve 3"."""
    from dataclasses import replace
    from types import SimpleNamespace

    from companion.ui.draw import Canvas
    app = make_app(tmp_path, settings=Settings(players=["Ann", "Bob", "Cy", "Dee", "Eve"]))
    press(app, "ok,ok,up,ok,ok,down,ok,up,ok")  # 5 players, score sheet
    st = next(s for s in app.stack if isinstance(s, UndercutScreen)).session.state
    over = replace(st, phase="over", winners=(2,), tied=(1, 2, 3, 4), tb_pips=(None, 5, 3, 5, 3),
                   tb_pieces=(None, None, 2, None, 3),
                   detail=uc_engine.WON_BY_PIECES)
    i18n.set_language(language)
    draw.DRAWN = drawn = []
    UndercutScreen(SimpleNamespace(state=over)).render(Canvas())
    assert i18n._("tie broken by pieces") in drawn
    assert drawn[-1] == "Cy 2 Eve 3"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_two_foursomes_of_one_colors_tell_their_sizes_apart_U5(language):
    """A hand with a FOURSOME of smalls and one of mediums in the same four colors: both
    rows read "FOURSOME r y g b +2" (QUADRUPLET rygb), a choice (U-6) between two equal
    rows. Where the colors alone would not tell them apart, the rows say the size."""
    from types import SimpleNamespace

    from companion.games.undercut import position
    i18n.set_language(language)
    st = position({"players": ["Ann", "Bob", "Cy"], "start": 0}, ["rS yS gS bS rM yM gM bM", "kL", "kM"])
    d = st.decision()
    screen = UndercutScreen(SimpleNamespace(state=st))
    rows = [screen.item(o) for o in d.options]
    labels = [r.label for r in rows]
    assert len(labels) == 2 and len(set(labels)) == 2, labels
    assert any("M:" in t for t in labels) and any("S:" in t for t in labels)
    assert all(len(r.label) + 1 + len(r.right) <= ChoiceList.ROOM for r in rows)
    # one foursome per size: the colors say it, as before
    st = position({"players": ["Ann", "Bob", "Cy"], "start": 0}, ["rS yS gS bS kS", "kL", "kM"])
    screen = UndercutScreen(SimpleNamespace(state=st))
    assert all(":" not in screen.item(o).label for o in st.decision().options)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_too_high_message_fits_its_box_U9(language):
    """OK on a bid that is not lower says why in a message box of 5 lines under its
    title. The French took 6: the box showed "... ou autant d'encoches en moins" and
    hid "de pièces." below, the rule cut in the middle of its last clause."""
    from companion.ui.draw import BOX_ROWS, CHAR_W, WIDTH, wrap
    i18n.set_language(language)
    text = i18n._("A bid must be lower than the one to beat: fewer pips, or as many pips in fewer pieces.")
    assert len(wrap(text, WIDTH // CHAR_W)) <= BOX_ROWS - 1


def test_an_undercut_bid_s_pieces_go_back_in_good_french_U10():
    """U-10: "Anne reprend son marqueur et petite rouge, petite rouge." had no article
    before the pieces; they are listed after "et ses pièces :"."""
    from companion.pieces import Piece
    from companion.ui.undercut import pieces_words
    i18n.set_language("fr")
    line = i18n.ngettext("{name} takes back the marker and {pieces}.", "{name} takes back the marker and {pieces}.",
                         2).format(name="Anne", pieces=pieces_words([Piece.parse("rS"), Piece.parse("rS")]))
    assert line == "Anne reprend son marqueur et ses pièces : petite rouge, petite rouge."


LONG_NAMES = ("Élodie-Marie", "Maximilienne", "Zoë", "Anne-Sophie", "Bjørn Ødegår")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_bid_picker_names_who_holds_the_bid_to_beat_U9(tmp_path, language):
    """The French picker dropped the bidder's name and, once a piece was
    added, the "Mise :" prefix. Both languages carry the same facts: the value to
    beat, who holds it, and "Bid:" before this bid's value where it fits. The words are
    whole (no "pc", "enc.", "pce"): the name is shortened alike where the two
    lines need it, and the French row gives way to the value alone."""
    from companion.i18n import _, set_language
    app = make_app(tmp_path, settings=Settings(players=LONG_NAMES))
    set_language(language)
    try:
        # 4 players, full table, virtual: Élodie-Marie bids a small on A, Maximilienne opens A
        press(app, ",".join(["ok"] * 15 + ["down", "ok", "ok", "up", "ok"]))
        picker = app.top
        assert isinstance(picker, BidPicker) and picker.state.bids[0][0] == 0
        CLIPS.reset()
        draw.DRAWN = []
        app.frame()
        beat = " ".join(draw.DRAWN[2:4])  # under the title and its verdict
        assert beat.startswith(_("To beat: {value}").format(value="").split()[0])
        from companion.names import reads_as
        holder = beat[beat.index("(") + 1:beat.index(")")]
        assert reads_as(holder, "Élodie-Marie"), beat  # shortened alike where the lines need it
        press(app, "down,down,down,ok")  # add a medium: this bid is 3 pips, 1 piece
        draw.DRAWN = []
        app.frame()
        bid_row = next(t for t in draw.DRAWN if "3 pips" in t or "3 encoches" in t)
        # the label always, and a space after the comma: "Mise :" on its own line
        assert bid_row == {"en": "Bid: 3 pips, 1 piece", "fr": "3 encoches, 1 pièce"}[language]
        if language == "fr":
            assert draw.DRAWN[draw.DRAWN.index(bid_row) - 1] == "Mise :"
        assert CLIPS.count == 0, CLIPS.examples
    finally:
        draw.DRAWN = None
        set_language("en")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_stacks_from_the_tray_are_in_words_U7(tmp_path, language):
    """With the virtual bag the stacks to take from the tray were piece
    codes ("A: rL rM kS"); README promises words. Each stack is a large, a medium
    and a small (U-7): a line names the sizes in order, each stack's line its colors."""
    from companion.i18n import _, set_language
    from companion.pieces import Size
    from companion.words.pieces import piece_color_word, piece_size_word
    app = make_app(tmp_path, settings=Settings(players=LONG_NAMES))
    set_language(language)
    try:
        press(app, "ok,ok,up,ok,ok,ok")  # 5 players, full table, virtual bag
        for _i in range(40):
            if isinstance(app.top, Report) and app.top.title == _("Stacks from the tray"):
                break
            press(app, "ok")
        else:
            raise AssertionError("no stacks page")
        st = game_screen_state(app)
        CLIPS.reset()
        app.frame()
        lines = app.top.lines
        assert lines[0] == "/".join(piece_size_word(z) for z in (Size.LARGE, Size.MEDIUM, Size.SMALL))
        assert len(lines) == 5 and len(st.stacks) == 4  # one page: no extra press
        for k, (line, stack) in enumerate(zip(lines[1:], st.stacks)):
            colors = [piece_color_word(p.color) for p in sorted(stack, key=lambda p: -p.size.pips)]
            assert line == "ABCD"[k] + ": " + "/".join(colors)
            assert not re.search(r"\b[a-z][SML]\b", line)  # no piece code
        assert CLIPS.count == 0
    finally:
        set_language("en")


def game_screen_state(app):
    return next(s for s in reversed(app.stack) if isinstance(s, UndercutScreen)).session.state


def test_a_stack_short_of_a_size_names_each_piece_U7():
    from companion.pieces import Piece
    from companion.ui.undercut import stack_lines
    P = Piece.parse
    assert stack_lines([[P("rL"), P("kS")], [P("yL"), P("yM"), P("gS")]]) == [
        "A: large red", "   small black", "B: large yellow", "   medium yellow", "   small green"]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_tie_line_never_names_a_player_by_letters_from_the_middle_U13(tmp_path, language):
    """The tie-break line once read "tie broken by pips / Mud 5 Mhl 3 Maxi 4" for Marie-Claude,
    Marie-Chloé, Maximilienne: no table reads "Mud" as Marie-Claude. Where the
    line's room leaves only such forms, the figures are left to the scores page."""
    from dataclasses import replace
    from types import SimpleNamespace

    from companion.names import reads_as
    from companion.ui.draw import Canvas
    names = ["Marie-Claire", "Marie-Claude", "Marie-Chloé", "Maximilienne", "Maximiliana"]
    app = make_app(tmp_path, settings=Settings(players=names))
    press(app, "ok,ok,up,ok,ok,down,ok,up,ok")  # 5 players, score sheet
    st = next(s for s in app.stack if isinstance(s, UndercutScreen)).session.state
    over = replace(st, phase="over", winners=(2,), tied=(1, 2, 3), tb_pips=(None, 5, 3, 4, None),
                   detail=uc_engine.WON_BY_PIPS)
    i18n.set_language(language)
    draw.DRAWN = drawn = []
    UndercutScreen(SimpleNamespace(state=over)).render(Canvas())
    assert i18n._("tie broken by pips") in drawn
    last = drawn[-1].split()
    if last[-1].isdigit():  # the tie line: every name in it reads as its player
        shown = last[0::2]
        assert all(reads_as(x, n) for x, n in zip(shown, names[1:4])), drawn[-1]
    else:
        assert drawn[-1] == i18n._("OK: all scores")


def test_a_bid_value_is_said_in_whole_words():
    """"4 pips" stays plural; "2 pips, 2 pc" and, in French, "1 enc.,
    1 pce" are not words. The value is written out, a space after its comma."""
    from companion import i18n
    from companion.ui.undercut import value_forms
    assert value_forms((4, 2)) == ["4 pips, 2 pieces"]  # a space after the comma
    assert value_forms((1, 1)) == ["1 pip, 1 piece"]
    assert value_forms((0, 0)) == ["marker only"]
    try:
        i18n.set_language("fr")
        assert value_forms((1, 1)) == ["1 encoche, 1 pièce"]
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_bid_picker_writes_its_words(tmp_path, language):
    """The picker's rows and the bid to beat: no "pc", "pce" or "enc." in any frame."""
    from companion import i18n
    from companion.config import Settings
    from companion.ui import draw
    app = make_app(tmp_path, settings=Settings(players=["Alexandrinas", "Bo", "Cy"], language=language))
    press(app, "ok,ok,ok,ok,ok")  # Undercut, 3 players, full table, virtual bag
    try:
        draw.DRAWN = drawn = []
        for _ in range(60):
            top = app.top
            if type(top).__name__ == "UndercutScreen" and top.state.phase == "bidding":
                press(app, "ok,down,ok,up,ok")  # the picker: a piece, then the bid (lower or not)
                press(app, "back,back")
            else:
                press(app, "ok")
        assert any(i18n._("Bid on {stack}").format(stack="A") in t for t in drawn)
        words = {w.strip(".,()") for t in drawn for w in t.split()}
        assert not words & {"pc", "pce", "enc", "pip,", "pc,"}, sorted(words & {"pc", "pce", "enc"})
    finally:
        draw.DRAWN = None
        i18n.set_language("en")


def test_french_plurals_of_pieces():
    """"ses pièces" was said of one piece, and "seules yL" of one loose piece."""
    from companion import i18n
    try:
        i18n.set_language("fr")
        one = i18n.ngettext("{name} takes back the marker and {pieces}.", "{name} takes back the marker and {pieces}.", 1)
        assert "sa pièce" in one and "ses" not in one
        assert i18n.ngettext("loose {pieces}", "loose {pieces}", 1).startswith("seule ")
        assert i18n.ngettext("loose {pieces}", "loose {pieces}", 2).startswith("seules ")
        moved = i18n.ngettext("{label}: gone, its piece moved", "{label}: gone, its pieces moved", 1)
        assert "sa pièce déplacée" in moved
    finally:
        i18n.set_language("en")


# ---------------------------------------------------------------- the bid picker's Bid row


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_bid_row_keeps_its_label_and_a_space_after_the_comma_for_every_value(tmp_path, lang):
    import re
    from companion.config import Settings
    from companion.i18n import _
    from companion.ui.draw import CLIPS
    from companion.ui.undercut import BidPicker, bid_value, value_words
    app = make_app(tmp_path, settings=Settings(language=lang))
    press(app, ",".join(["ok"] * 15))  # 4 players, full table, virtual: P1 opens A's picker
    picker = app.top
    assert isinstance(picker, BidPicker)
    values = set()
    for j in range(len(picker.have)):  # every piece of the hand, one after the other
        press(app, ",".join(["down"] * (j + 1) + ["ok"] * picker.have[j][1]))
        CLIPS.reset()
        texts = drawn_texts(app)
        value = value_words(bid_value(picker.pieces()))
        values.add(value)
        row = next(t for t in texts if t.endswith(value))
        label = _("Bid: {value}").format(value=value)
        assert row == label or (row == value and texts[texts.index(row) - 1] == _("Bid:")), texts
        assert not re.search(r",\S", row)
        assert CLIPS.count == 0, CLIPS.examples
    assert max(len(_("Bid: {value}").format(value=v)) for v in values) > 20  # a long value was seen
