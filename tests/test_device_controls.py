"""The keys and screens at the table: the arrows step as drawn, one short form of a
name, a busy page port said once, and the small screens a table trips over."""
from __future__ import annotations

import pytest

from companion.config import Settings
from companion.ui.widgets import NumberPicker

from .screens_util import make_app, press


# ---------------------------------------------------------------- LEFT/RIGHT step as the arrows say


@pytest.mark.parametrize("keys, game", [("ok,ok", "Undercut"), ("ok,down,ok", "Bag of Ice"),
                                        ("ok,down,down,ok", "Bottoms Up")])
def test_left_and_right_on_a_player_count_step_by_one(tmp_path, keys, game):
    """The count draws "-" at the left and "+" at the right: LEFT is one fewer, RIGHT
    one more (Bag of Ice: 3 then LEFT gave 1, a solo game, and RIGHT 12)."""
    app = make_app(tmp_path)
    press(app, keys)
    picker = app.top
    assert isinstance(picker, NumberPicker) and game in picker.title
    start = picker.value
    press(app, "left")
    assert picker.value == max(picker.lo, start - 1)
    press(app, "right,right")
    assert picker.value == min(picker.hi, max(picker.lo, start - 1) + 2)


def test_every_small_value_screen_steps_by_one_and_a_large_one_says_ten(tmp_path):
    """The start-player count (2 to 12) and Screen off (six values) step by one;
    the seed (0 to 9999) steps by ten and its sides say so."""
    app = make_app(tmp_path, settings=Settings(players=("Ann", "Bob")))
    pickers = []
    orig = NumberPicker.__init__

    def spy(self, *a, **k):
        orig(self, *a, **k)
        pickers.append(self)
    NumberPicker.__init__ = spy
    try:
        from companion.ui.screens import SettingsMenu, ToolsMenu
        for make in (ToolsMenu, SettingsMenu):
            screen = make()
            for it in screen.items:
                if it.action is None:
                    continue
                depth = len(app.stack)
                app.push(screen)
                try:
                    it.action(app)
                except Exception:  # an entry that needs more than a press here
                    pass
                del app.stack[depth:]
    finally:
        NumberPicker.__init__ = orig
    assert pickers
    for p in pickers:
        few = (len(p.choices) if p.choices else p.hi - p.lo + 1) <= 20
        before = p.value
        p.on_key(__import__("companion.io", fromlist=["Key"]).Key.LEFT, app)
        low = p.value
        if few:
            options = p.choices or list(range(p.lo, p.hi + 1))
            assert options.index(before) - options.index(low) in (0, 1), p.title
        texts = _texts(p)
        if not few:
            assert "-10" in texts and "+10" in texts, p.title
        else:
            assert "-" in texts and "+" in texts and "+10" not in texts, p.title


def _texts(screen) -> list[str]:
    from companion.ui import draw
    seen: list[str] = []
    old = draw.Canvas.text

    def spy(self, x, y, s, *a, **k):
        seen.append(s)
        return old(self, x, y, s, *a, **k)
    draw.Canvas.text = spy
    try:
        c = draw.Canvas()
        screen.render(c)
    finally:
        draw.Canvas.text = old
    return seen


# ---------------------------------------------------------------- BACK from the names: the count


@pytest.mark.parametrize("keys", ["ok,ok", "ok,down,ok", "ok,down,down,ok"])
def test_back_from_the_names_returns_to_the_player_count_as_set(tmp_path, keys):
    app = make_app(tmp_path)
    press(app, keys)
    picker = app.top
    assert isinstance(picker, NumberPicker)
    press(app, "up")
    n = picker.value
    press(app, "ok")
    assert not isinstance(app.top, NumberPicker)  # the names
    press(app, "back")
    assert isinstance(app.top, NumberPicker) and app.top.value == n
    press(app, "ok")
    assert len(app.top.names) == n


# ---------------------------------------------------------------- Undercut: the auction's cursor, the Hands


def test_once_every_stack_has_a_bid_a_habitual_ok_never_opens_pass_U11(tmp_path):
    from companion.ui.undercut import BidPicker, Report, UndercutScreen
    from .test_ui_undercut import FULL_3_PHYSICAL, SETUP_DRAWS, STACK_DRAWS
    app = make_app(tmp_path)
    press(app, FULL_3_PHYSICAL + "," + SETUP_DRAWS + "," + STACK_DRAWS)
    press(app, "ok,down,down,ok,ok")  # P1 bids yM on A
    press(app, "ok,ok")  # P2: the zero bid on B
    press(app, "ok,down,down,ok,ok")  # P3 tries rM on A: too high
    press(app, "ok,down,down,ok,up,ok,ok")  # dismissed, rM out, yS in: P3 undercuts A
    assert isinstance(app.top, Report) and app.top.title == "Bid undercut"
    press(app, "ok")
    assert isinstance(app.top, UndercutScreen)
    press(app, "ok")  # the habit: a stack's bid picker, which BACK leaves; not "Pass: which size?"
    assert isinstance(app.top, BidPicker)
    assert "Pass" not in getattr(app.top, "title", "")


def test_back_from_the_hands_returns_to_the_session_menu(tmp_path):
    from .test_ui_undercut import FULL_3_PHYSICAL, SETUP_DRAWS
    app = make_app(tmp_path)
    press(app, FULL_3_PHYSICAL + "," + SETUP_DRAWS + ",back")
    menu = app.top
    press(app, "down,ok")
    assert app.top.title == "Hands"
    press(app, "back")
    assert app.top is menu


# ---------------------------------------------------------------- Bag of Ice: the size screen


def size_screens(tmp_path, seeds=range(1, 40)):
    """Two-player Bag of Ice games played by the first row (then Bank when the roll
    is refused) until a two-size face asks the size: the game screen there."""
    from companion.games.bag_of_ice import Phase
    from .test_ui_bag_of_ice import game_screen, state
    for seed in seeds:
        app = make_app(tmp_path / str(seed), seed=seed, settings=Settings(players=("Ann", "Bob")))
        press(app, "ok,down,ok,left,ok,ok,ok")  # 2 players, their names, the defaults
        for _ in range(60):
            try:
                st = state(app)
            except StopIteration:
                press(app, "ok")
                continue
            if st.phase == Phase.SIZE:
                yield app, game_screen(app)
                break
            if st.is_terminal():
                break
            press(app, "ok")


def test_the_size_screen_tells_the_sizes_apart_and_starts_on_the_advice_B9_B10(tmp_path):
    from companion.games.bag_of_ice import PickSize
    seen = 0
    for app, screen in size_screens(tmp_path):
        if app.top is not screen:
            continue
        seen += 1
        rows = screen.sync()
        options = screen.decision().options
        sizes = [o.move.size for o in options if isinstance(o.move, PickSize)]
        w = screen.win()
        adv = w or screen.advice()
        advised = adv.size_choice[screen.state.face]
        assert sizes[screen.index] == advised  # the cursor on the size the hint line names
        figures = ([w.per_size[s] for s in sizes] if w is not None
                   else [screen.advice().per_size[s].expected for s in sizes])
        rights = [it.right for it in rows]
        if abs(float(figures[0]) - float(figures[1])) >= 0.0001:  # apart by 0.01 points
            assert rights[0].split()[-1] != rights[1].split()[-1], rights
    assert seen >= 3


def test_a_whole_percent_that_would_read_alike_gets_its_tenth():
    from fractions import Fraction
    from companion.words.table import apart
    assert apart(Fraction(556, 1000), [Fraction(556, 1000), Fraction(559, 1000)]) == "55.6%"
    assert apart(Fraction(559, 1000), [Fraction(556, 1000), Fraction(559, 1000)]) == "55.9%"
    assert apart(Fraction(1, 2), [Fraction(1, 2), Fraction(1, 4)]) == "50%"
    assert apart(Fraction(5341, 10000), [Fraction(5341, 10000), Fraction(5344, 10000)]) == "53.41%"


# ---------------------------------------------------------------- French words; yellow in the large font


def test_french_session_menu_says_a_whole_undo(tmp_path):
    from companion import i18n
    app = make_app(tmp_path, settings=Settings(language="fr"))
    try:
        press(app, "ok,ok,ok,ok,ok,back")
        labels = [it.label for it in app.top.items]
        undo = next(label for label in labels if label.startswith("Annuler"))
        assert not undo.endswith("dernier") and undo == "Annuler le coup"
    finally:
        i18n.set_language("en")


def test_the_french_close_anyway_box_keeps_off_the_right_edge(tmp_path):
    from companion import i18n
    from companion.ui.widgets import Confirm
    from .test_ui_bottoms_up import BU
    app = make_app(tmp_path, settings=Settings(language="fr"))
    try:
        img = press(app, BU + ",ok,ok,ok,back")
        assert isinstance(app.top, Confirm) and "Fermer" in app.top.question
        box = img.crop((0, 20, 128, 64))
        lit = [x for x in range(128) for y in range(box.height - 10) if box.getpixel((x, y))]
        assert max(lit) <= 127 - 6, max(lit)  # a free column before the edge
    finally:
        i18n.set_language("en")


def test_every_private_color_is_in_the_large_font_beside_the_code(tmp_path):
    import dataclasses
    import random
    from companion.games.bottoms_up import COLORS
    from companion.journal import Journal
    from companion.session import Session
    from companion.ui import draw
    from companion.ui.bottoms_up import draw_secret
    j = Journal(str(tmp_path / "j.db"))
    s = Session.start(j, "bottoms_up", {"players": ["Ann", "Bob"], "secret": "device"}, random.Random(1))
    url = "http://192.168.1.20:8032/AbCdEfGhIjKlMnOp/"
    for color in COLORS:
        st = dataclasses.replace(s.state, secrets=(color,) + s.state.secrets[1:])
        big: list[str] = []
        old = draw.Canvas.big

        def spy(self, x, y, text, *a, **k):
            big.append(text)
            return old(self, x, y, text, *a, **k)
        draw.Canvas.big = spy
        try:
            draw_secret(draw.Canvas(), st, 0, url, True)
        finally:
            draw.Canvas.big = old
        assert len(big) == 1, color
    j.close()


# ---------------------------------------------------------------- the simulator's page port


def test_web_port_option_sets_the_page_port_for_the_run(tmp_path, capsys):
    from companion.cli import build_app, parser
    for argv in (["sim", "--web-port", "18481"], ["--web-port", "18481"]):
        args = parser().parse_args(argv + ["--journal", str(tmp_path / "j.db"),
                                           "--config", str(tmp_path / "none.toml")])
        app = build_app(args)
        try:
            assert app.settings.web_port == 18481
        finally:
            app.journal.close()
    for bad in ("0", "70000", "x"):
        with pytest.raises(SystemExit):
            parser().parse_args(["sim", "--web-port", bad])
        assert "not a TCP port" in capsys.readouterr().err


# ---------------------------------------------------------------- a busy port in the simulator


def test_a_busy_page_port_is_said_once_under_the_frame_with_no_traceback_and_no_address(tmp_path):
    """A second simulator on a port another program holds: no traceback and no "[Errno
    98]" lines over the frame, no address printed (it would answer another program),
    and the line under the frame says why the page is off."""
    import os
    import socket
    import time
    from .ptyrun import PtyCompanion
    port = 18480 + 3
    held = socket.socket()
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    held.bind(("127.0.0.1", port))
    held.listen()
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "COMPANION_CONFIG": "", "COLUMNS": "120", "LINES": "50"}
    c = PtyCompanion("sim", "--journal", str(tmp_path / "j.db"), "--web-port", str(port), env=env)
    try:
        import fcntl
        import struct
        import termios
        fcntl.ioctl(c.master, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 120, 0, 0))
        assert c.read_until_frames(1, timeout=60) >= 1
        deadline = time.monotonic() + 90
        while b"Scoreboard page off" not in c.out and time.monotonic() < deadline:
            c.read_until_frames(c.frames() + 1, timeout=1)
        assert b"Scoreboard page off" in c.out, c.out[-800:]
        c.read_until_frames(c.frames() + 1, timeout=8)  # the page's retries: 1 s, 2 s, 4 s
        out = c.out.decode("utf-8", "replace")
        assert "Traceback" not in out and "Task exception" not in out, out[-1500:]
        assert "Errno 98" not in out and "companion: scoreboard" not in out, out[-1500:]
        assert f"127.0.0.1:{port}/" not in out  # no address that does not answer
        assert "in use" in out.split("Scoreboard page off", 1)[1][:200]
        os.write(c.master, b"q")
        c.proc.wait(timeout=20)
    finally:
        c.close()
        held.close()


# ---------------------------------------------------------------- leaving a finished game from its scores


def test_a_finished_bottoms_up_game_is_left_with_back_ok_from_its_scores(tmp_path):
    """The README: a finished game is left with BACK, OK; from the Scores page it
    took BACK, BACK, OK (BACK only closed the page)."""
    import random
    from companion.ui.bottoms_up import Pages, ScoreBoard
    from companion.ui.screens import MainMenu
    from .test_ui_bottoms_up import BU, TOUR_4, option_keys, place_keys, state
    app = make_app(tmp_path, seed=7)
    press(app, BU + ",ok,ok,down,down,left,left,left,left,up,up,ok," + TOUR_4)
    rnd = random.Random(5)
    while state(app).phase != "over":
        st = state(app)
        m = rnd.choice(st.legal_moves())
        k = option_keys(st, str(m)) if st.pending is not None else place_keys(st, m.piece, m.target)
        press(app, ",".join(k))
        while isinstance(app.top, Pages):
            press(app, "ok")
    press(app, "ok")
    assert isinstance(app.top, ScoreBoard)
    press(app, "back,ok")
    assert isinstance(app.top, MainMenu)


# ---------------------------------------------------------------- one name, one short form


def _drawn_while(app, keys: list[str]) -> list[str]:
    from companion.io import Key
    from companion.ui import draw
    texts: list[str] = []
    old, draw.DRAWN = draw.DRAWN, texts
    try:
        for k in keys:
            app.handle(Key.parse(k))
            app.frame()
    finally:
        draw.DRAWN = old
    return texts


@pytest.mark.parametrize("language", ["en", "fr"])
def test_bottoms_up_titles_keep_names_whole_or_in_their_one_short_form(tmp_path, language):
    """'Łukas: rL on A turn 2', 'Łuka: wM on A turn 10', 'Юли: new color for bL': a
    title gives up its turn tag before it cuts a name past its one short form."""
    import random
    from bench.__main__ import shortened_forms
    from companion import i18n
    from companion.names import CUT, SHORT
    from .test_ui_bottoms_up import BU, TOUR_4, option_keys, place_keys, state
    names = ("Łukasz", "Юлиана", "Maximilienne", "Bob")
    app = make_app(tmp_path, seed=7, settings=Settings(players=names, language=language))
    try:
        keys = (BU + ",ok,ok,ok," + TOUR_4).split(",")
        texts = _drawn_while(app, keys)
        rnd = random.Random(5)
        for _ in range(40):
            st = state(app)
            if st.phase == "over":
                break
            m = rnd.choice(st.legal_moves())
            k = option_keys(st, str(m)) if st.pending is not None else place_keys(st, m.piece, m.target)
            texts += _drawn_while(app, k)
            while app.top.__class__.__name__ == "Pages":
                texts += _drawn_while(app, ["ok"])
        for name in names:
            one = name if len(name) <= SHORT else name[:SHORT - 1] + CUT
            forms = shortened_forms(name, texts) - {one}
            assert not forms, (name, forms)
    finally:
        i18n.set_language("en")


def test_the_bench_counts_one_short_form_for_a_long_name():
    from bench.__main__ import GOALS, KEYS, measure_name_shortenings
    fig = measure_name_shortenings(True)
    assert "name_shortenings_max" in KEYS and GOALS["name_shortenings_max"] == ("<=", 1)
    assert fig["name_shortenings_max"] <= 1, fig


def test_a_cut_name_is_marked_and_never_another_whole_name():
    from companion.names import short_names
    for width in range(6, 12):
        short = short_names(["Maximilienne", "Bob"], width)[0]
        assert short == "Maxim~"  # one form, whatever the room, never "Maximilien"


# ---------------------------------------------------------------- the scoreboard says whose turn it is


def _drawn_frame(app) -> list[str]:
    from companion.ui import draw
    texts: list[str] = []
    old, draw.DRAWN = draw.DRAWN, texts
    try:
        app.frame()
    finally:
        draw.DRAWN = old
    return texts


@pytest.mark.parametrize("language, said", [("en", "to play: {name}"), ("fr", "à jouer : {name}")])
@pytest.mark.parametrize("players", [("Ann", "Bob"), ("Ann", "Maximilienne", "Cat"),
                                     ("Ann", "Bob", "Cat", "Dee", "Eve"),
                                     ("Ann", "Bob", "Cat", "Dee", "Eve", "Fay", "Gus", "Maximilienne")])
def test_the_bag_of_ice_scoreboard_says_whose_turn_it_is_underneath(tmp_path, language, said, players):
    """RIGHT opens the scoreboard over a Bag of Ice game; it quietly took many keys (UP/DOWN
    pick a player, OK shows turns) with nothing in words saying whose turn it is underneath.
    It says so, as the player's name or its one short form, while the game goes on; after
    UP/DOWN too (the highlight then marks another player)."""
    from companion import i18n
    from companion.names import short_names
    from companion.ui.bag_of_ice import BagOfIceScreen, ScoreScreen
    from companion.ui.draw import CLIPS

    try:
        app = make_app(tmp_path, settings=Settings(players=players, language=language))
        press(app, "ok,down,ok")
        picker = app.top
        assert isinstance(picker, NumberPicker)
        press(app, ",".join(["left"] * (picker.value - len(players)) or ["right"] * (len(players) - picker.value)))
        press(app, "ok,ok,ok")  # the names as they are, the options as they are: the roll-off
        for _ in range(10):
            if isinstance(app.top, BagOfIceScreen):
                break
            press(app, "ok")
        game = app.top
        assert isinstance(game, BagOfIceScreen)
        st = game.session.state
        assert st.players == players and st.active is not None
        name = st.players[st.active]
        forms = {name, short_names(players, 6)[st.active]}
        clips = CLIPS.count
        press(app, "right")
        assert isinstance(app.top, ScoreScreen)
        for keys in ("", "down"):
            press(app, keys)
            texts = _drawn_frame(app)
            assert any(said.format(name=f) in t for t in texts for f in forms), texts
        assert CLIPS.count == clips
        press(app, "left")
        assert app.top is game
    finally:
        i18n.set_language("en")


# ---------------------------------------------------------------- the accent pages: the arrows go as drawn


def _to_accent_page(app, kb, page: int) -> None:
    """Turn the name keyboard to ``page`` by "…" as a player does: from home to "…", then
    OK until the page shows; the cursor stands on "…", where the page starts."""
    from companion.io import Key
    from companion.ui.keyboard import HOME, MORE, path_to
    assert kb.pos == HOME and kb.page == 0
    keys = path_to(MORE) or []
    for key in keys[:-1]:
        app.handle(key)
    for _ in range(page):
        app.handle(Key.OK)
    assert kb.page == page


def _keyboard(tmp_path):
    from companion.ui.keyboard import NameKeyboard
    kb = NameKeyboard("Name", "", lambda a, n: None)
    app = make_app(tmp_path)
    app.push(kb)
    return app, kb


def _drawn_cells(kb) -> dict[tuple[int, int], str]:
    """What the player sees in each cell of the grid, by its drawn place."""
    from companion.ui.keyboard import COLS, ROWS
    return {(r, c): kb.label(kb.cell(r, c)) for r in range(ROWS) for c in range(COLS)}


@pytest.mark.parametrize("page", [1, 2])
def test_on_an_accent_page_the_arrows_reach_a_key_as_the_drawing_shows(tmp_path, page):
    """'A first try at "Ł" typed "Ř"': blank cells were skipped, so one arrow could cross
    two drawn keys, or wrap. Every cell of a Latin accent page is a key: from where the
    page starts, a player who sees a letter R rows and C columns away presses R times
    UP or DOWN and C times LEFT or RIGHT, in either order, and types that letter."""
    from companion.ui.keyboard import COLS, PAGES, ROWS
    tag, letters = PAGES[page]
    app, kb = _keyboard(tmp_path)
    for order in ("rows first", "columns first"):
        for goal_ch in letters:
            _to_accent_page(app, kb, page)
            start = kb.pos
            typed = kb.label(goal_ch)  # as drawn: the first letter a capital ("ı" is "I")
            goal = next(rc for rc, lab in _drawn_cells(kb).items() if lab == typed)
            dr, dc = goal[0] - start[0], goal[1] - start[1]
            vertical = ["down" if dr > 0 else "up"] * abs(dr)
            across = ["right" if dc > 0 else "left"] * abs(dc)
            keys = vertical + across if order == "rows first" else across + vertical
            press(app, ",".join(keys + ["ok"]))
            assert kb.text == typed, (tag, goal_ch, goal, order, kb.text)
            press(app, "back")  # the letter deleted; the cursor home, on a-z
            assert kb.text == "" and kb.page == 0
    assert ROWS * COLS == len(letters) + 6  # every cell a key: six controls and the letters


def test_the_first_try_at_a_capital_l_with_stroke_types_it(tmp_path):
    """The finding: on the "ął" page, the cursor on "…", "Ł" drawn up and to the left;
    its drawn rows and columns, pressed, type "Ł" (they typed "Ř" or another key)."""
    app, kb = _keyboard(tmp_path)
    _to_accent_page(app, kb, 2)
    cells = _drawn_cells(kb)
    (r, c), = [rc for rc, lab in cells.items() if lab == "Ł"]
    r0, c0 = kb.pos
    keys = ["up" if r < r0 else "down"] * abs(r - r0) + ["left" if c < c0 else "right"] * abs(c - c0)
    press(app, ",".join(keys + ["ok"]))
    assert kb.text == "Ł"


def test_a_full_bag_of_ice_scoreboard_marks_whose_turn_it_is(tmp_path):
    """12 players fill the screen in small text: a ">" after the total of the player to
    play (none was drawn beyond 6 players), within the screen."""
    from companion.ui.bag_of_ice import BagOfIceScreen, ScoreScreen
    from companion.ui.draw import CLIPS
    players = tuple(f"P{i}" for i in range(1, 13))
    app = make_app(tmp_path, settings=Settings(players=players))
    press(app, "ok,down,ok," + ",".join(["right"] * 9) + ",ok,ok,ok")
    for _ in range(10):
        if isinstance(app.top, BagOfIceScreen):
            break
        press(app, "ok")
    assert isinstance(app.top, BagOfIceScreen) and app.top.session.state.n == 12
    clips = CLIPS.count
    press(app, "right,down")
    assert isinstance(app.top, ScoreScreen)
    assert _drawn_frame(app).count(">") == 1 and CLIPS.count == clips
