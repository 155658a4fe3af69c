"""The shared screens: main menu, new game, tools, history, settings, about.

Game screens live in ``companion/ui/<game>.py``; each exposes
``setup_screen(app) -> Screen`` (ends by starting a session) and
``play_screen(app, session) -> Screen`` (also used to resume). Until a game's
module exists its menu entry says so instead of failing.
"""
from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Callable

from .. import __version__
from ..config import change
from ..errors import CompanionError
from ..games import GAMES
from ..games.tools import BAG_PRESETS, BagState, DieState, Draw, Keep, PickState, Refill, Return
from ..i18n import LANGUAGES, _, language, ngettext, pgettext
from ..io import Key
from ..names import listed
from ..pieces import DieFace, Size
from ..session import Session
from .base import SessionScreen
from .common import ROSTER_MAX
from .draw import CHAR_W, TITLE_H, WIDTH, Canvas, fit
from .keyboard import NameKeyboard
from .widgets import ChoiceList, Item, Menu, Message, NumberPicker, Screen, bound, item_text
from ..words.moves import seat_name
from ..words.pieces import piece_color_word, piece_size_word, pips_text, size_word
from ..words.titles import title_of

if TYPE_CHECKING:  # pragma: no cover
    from .host import Host as App  # the seam: what a screen may ask of the app

GAME_UIS = {name: entry.ui for name, entry in GAMES.items()}  # a game registered later: its line's

def game_ui(name: str):
    """The UI module of a game, or None while that game is not in this version."""
    try:
        return importlib.import_module(GAME_UIS.get(name) or GAMES[name].ui)
    except ModuleNotFoundError as e:
        if e.name in (GAME_UIS.get(name) or GAMES[name].ui, GAMES[name].module):
            return None
        raise


def play_screen(app: "App", session: Session) -> Screen:
    if session.game in TOOL_SCREENS:
        return TOOL_SCREENS[session.game](session)
    ui = game_ui(session.game)
    if ui is None:
        raise CompanionError(_("{game} is not available in this version").format(game=title_of(session.game)))
    return ui.play_screen(app, session)


def open_session(app: "App", session_id: int) -> None:
    """The session's screen; opened for the first time by this app (after a
    restart, or played on elsewhere), with the pages its last decision showed
    over it (a round summary, a bank, a turn's result): pages still open when
    the app stopped are not lost. The game's ``last_pages(session)`` derives
    them from the journal, as they were shown after that move."""
    shown_here = app.has_open(session_id)
    session = app.resume_session(session_id)
    app.push(play_screen(app, session))
    ui = None if session.game in TOOL_SCREENS else game_ui(session.game)
    pages = getattr(ui, "last_pages", None)
    # after an undo the screen showed the position alone: pages only when a move came last
    moved_last = bool(session.events) and session.events[-1].type == "move"
    if pages is not None and not shown_here and moved_last:
        for screen in reversed(pages(session)):
            app.push(screen)


def _open_from_home(app: "App", session_id: int) -> None:
    app.home()
    open_session(app, session_id)


# ---------------------------------------------------------------- main menu


def session_label(app: "App", sid: int, width: int = 20, *, lines: int = 1) -> str:
    """A session by its game and players, each line in ``width`` characters:
    "Bottoms Up: Ann, Bob, Cy" (issue 13). The names are shortened alike
    (``short_names``) as little as the line allows. With ``lines`` = 2 (the
    main menu's last lines) the players get a line of their own under the
    game's title ("Bottoms Up" / "Élo,Max,Zoë,Ann,Bjø"): at 20 characters a
    line, beside the title they would be cut to a letter or two. The list is
    ``names.listed``: a name only by a form that reads as it, else the first
    ones and how many more ("Maximilienne +4"). Nothing is cut: in one line,
    where no name fits, the number of players does."""
    info = app.journal.session(sid)
    title = title_of(info.game)
    names = info.setup.get("players") if isinstance(info.setup, dict) else None
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        return _first_fitting([f"{title} #{info.number}", title], width)

    if lines >= 2 and len(title) <= width:  # the game's title, the players under it
        alone = listed(names, width)
        if alone is not None:
            return f"{title}\n{alone}"
    labelled = _("{game}: {players}")
    one = listed(names, width - len(labelled.format(game=title, players="")))
    if one is not None:
        return labelled.format(game=title, players=one)
    n = len(names)
    return _first_fitting([_("{game}: {n} players").format(game=title, n=n),
                           f"{title} ({n})", title], width)


def _first_fitting(texts: list[str], width: int) -> str:
    return next((t for t in texts if len(t) <= width), fit(texts[-1], width))


FOOTER_CHARS = ChoiceList.room(2, 1)  # 19: a menu row beside a scroll bar


class MainMenu(Menu):
    def __init__(self) -> None:
        super().__init__(_("Pyramid Companion"), self._items, on_back=lambda app: None)
        self._resumable: list[int] = []

    def heading(self) -> tuple[str, str]:
        return _("Pyramid Companion"), ""  # drawn in the language of the moment (the menu lives on)

    def on_show(self, app: "App") -> None:
        infos = app.journal.sessions()  # read once for both
        self._resumable = app.unfinished(infos)
        self._finished = app.last_finished(infos)
        # back home, the cursor is on Last game, Resume (or New game); back (BACK) from
        # History, Settings, About or the page's QR code, on that entry again (issue 39)
        kept = [i for i, it in enumerate(self._items()) if self._kept is not None and it.value == self._kept]
        self.index = kept[0] if kept else 0
        # the game under the cursor, by name and players, on the last two lines (issue 13)
        # 19 characters from x=7: the footer's last pixels keep 2 columns from the list's
        # scroll bar, which runs beside it (issue 39: "...,Łuka" ended 1 pixel from it)
        self._labels = {sid: session_label(app, sid, FOOTER_CHARS, lines=2)
                        for sid in ([self._finished] if self._finished is not None else []) + self._resumable[:1]}
        self._others = [(sid, session_label(app, sid), session_label(app, sid, FOOTER_CHARS, lines=2))
                        for sid in self._resumable[1:]]

    _others: list[tuple[int, str, str]] = []
    _finished: int | None = None
    _kept: str | None = None  # the entry the cursor comes back to (``KEEPS_CURSOR``)
    KEEPS_CURSOR = ("history", "settings", "about", "page")

    def on_key(self, key: Key, app: "App") -> None:
        if key == Key.OK:
            items = self.items
            here = items[self.index].value if items else None
            self._kept = here if here in self.KEEPS_CURSOR else None
        super().on_key(key, app)

    def forget_cursor(self) -> None:
        """Sent home (``App.home``: a game left, a session ended): the first entry next."""
        self._kept = None
    _labels: dict[int, str] = {}

    def footer_lines(self) -> list[str]:
        """The game the row under the cursor opens (Last game, Resume), else the first
        of them, named by its game and players."""
        rows = [sid for sid in ([self._finished] if self._finished is not None else []) + self._resumable[:1]]
        if not rows:
            return []
        sid = rows[self.index] if self.index < len(rows) else rows[0]
        return self._labels[sid].split("\n")

    def _items(self) -> list[Item]:
        items = []
        if self._finished is not None:
            # the device stopped on a game's end, or it was just played: its result
            # again, with the pages of its last move and the undo of it (QA 3)
            fid = self._finished
            items.append(Item(_("Last game"), lambda app: open_session(app, fid)))
        if self._resumable:
            sid = self._resumable[0]
            items.append(Item(_("Resume"), lambda app: open_session(app, sid)))
            if self._others:
                others = list(self._others)
                items.append(Item(_("Other games"), lambda app: app.push(OtherGames(others)),
                                  right=str(len(others))))
        items += [
            Item(_("New game"), lambda app: app.push(NewGameMenu())),
            Item(_("Tools"), lambda app: app.push(ToolsMenu())),
            # start-up: History and the exports under it (30 ms on a PC) load when it is opened
            Item(_("History"), lambda app: app.push(importlib.import_module(".history", __package__).HistoryScreen()),
                 value="history"),
            Item(_("Settings"), lambda app: app.push(SettingsMenu()), value="settings"),
            Item(_("About"), lambda app: app.push(about_screen(app)), value="about"),
            # the page's QR code (issue 32); last, so the entries above keep their places
            Item(_("Scoreboard page"), lambda app: app.push(importlib.import_module(".join", __package__).JoinScreen()),
                 value="page"),
        ]
        return items


class OtherGames(Menu):
    """The unfinished sessions but the one Resume opens, a line each ("Bottoms Up (5)"
    where the names do not fit); the last two lines name the one under the cursor
    by its game and players, as the main menu does for Resume (issue 13)."""

    def __init__(self, others: list[tuple[int, str, str]]) -> None:
        self.others = others
        super().__init__(_("Unfinished"), [Item(label, bound(_open_from_home, sid)) for sid, label, _two in others])

    def footer_lines(self) -> list[str]:
        """The cursor's session by its game and players."""
        return self.others[min(self.index, len(self.others) - 1)][2].split("\n") if self.others else []


class NewGameMenu(Menu):
    def __init__(self) -> None:
        super().__init__(_("New game"), lambda: [Item(_(title), bound(self._pick, name))
                                                 for name, (_mod, title, *_parts) in GAMES.items()])

    @staticmethod
    def _pick(app: "App", name: str) -> None:
        ui = game_ui(name)
        if ui is None:
            app.message(_("{game} is coming in a later version of the companion.").format(game=title_of(name)),
                        title=title_of(name))
            return
        app.push(ui.setup_screen(app))


def about_screen(app: "App") -> Screen:
    n = len(app.journal.sessions())
    games = ", ".join(title_of(g) for g in GAMES)
    return Message(_("Pyramid Table Companion {version}").format(version=__version__) + "\n"
                   + ngettext("{n} session in {file}", "{n} sessions in {file}", n).format(
                       n=n, file=os.path.basename(app.journal.path))
                   + f"\n{games}. " + _("Keys: UP DOWN OK BACK; hold BACK = undo."), title=_("About"))


# ---------------------------------------------------------------- tools


class ToolsMenu(Menu):
    def __init__(self) -> None:
        super().__init__(_("Tools"), lambda: [
            Item(_("Pyramid die"), lambda app: start_tool(app, "die", {})),
            Item(_("Bag"), lambda app: app.push(Menu(_("Bag preset"), [
                Item(title_of(key), bound(_start_bag, key),
                     right=ngettext("{n} piece", "{n} pieces", len(make())).format(n=len(make())))
                for key, (_label, make) in BAG_PRESETS.items()]))),
            Item(_("Start player"), lambda app: app.push(NumberPicker(
                _("How many players?"), 4, 2, 12, _start_pick))),
        ])


def _start_pick(app: "App", n: int) -> None:
    """The start-player pick among ``n``: the roster's names of the first seats go in
    the setup, so the pick, its history and its record name them."""
    names = list(app.settings.players[:n])
    start_tool(app, "pick", {"players": n, **({"names": names} if names else {})})


def _start_bag(app: "App", preset: str) -> None:
    app.pop()
    start_tool(app, "bag", {"preset": preset})


def start_tool(app: "App", name: str, setup: dict) -> None:
    session = app.start_session(name, setup)
    app.push(TOOL_SCREENS[name](session))


class ToolScreen(SessionScreen):
    """Tools end their session when left with BACK (a game is kept instead)."""

    def on_key(self, key: Key, app: "App") -> None:
        if key == Key.BACK:
            self.session.end("closed")
            app.pop()
        elif key == Key.HOLD_BACK:
            self.ask_undo(app)
        else:
            self.on_game_key(key, app)


def draw_face(c: Canvas, face: DieFace, x: int, y_base: int) -> None:
    for s in face.sizes:
        x += c.pyramid(x, y_base, s, scale=2) + 4


class DieScreen(ToolScreen):
    """Pyramid die: OK rolls; the face is drawn big and named; a log of rolls."""

    def render(self, c: Canvas) -> None:
        st: DieState = self.state
        c.title(_("Pyramid die"), f"#{len(st.rolls)}" if st.rolls else "")
        if not st.rolls:
            c.center(28, _("OK: roll"))
            c.center(52, _("hold BACK: undo"))
            return
        face = st.rolls[-1]
        draw_face(c, face, 2, 62)
        c.big(70, TITLE_H + 2, face.label, 2)
        pips = pips_text(face.pips)
        c.text(min(70, WIDTH - CHAR_W * len(pips) - 1), TITLE_H + 26, pips)  # "3 encoches" is longer
        log = " ".join(f.label for f in reversed(st.rolls[-6:-1]))
        c.text(70, TITLE_H + 38, log[:9])

    def on_game_key(self, key: Key, app: "App") -> None:
        if key == Key.OK:
            self.play(app, "roll")


def _left(n: int) -> str:
    return ngettext("{n} left", "{n} left", n).format(n=n)


class BagScreen(ToolScreen):
    """Virtual bag: the sizes with their counts are the menu; OK draws one.
    The drawn piece is shown big with Keep / Put back under it; after either,
    the cursor is back on the row that drew it, so drawing the same size again
    is OK, OK (a size with nothing left: the first that has some)."""

    def __init__(self, session: Session):
        super().__init__(session)
        self.list = ChoiceList()
        self.drew_from = 0  # the list's row of the last draw

    def sync(self, rows: list[Item]) -> None:
        default = 0
        if self.state.held is None:
            enabled = [i for i, it in enumerate(rows) if it.enabled]
            default = self.drew_from if self.drew_from in enabled else (enabled[0] if enabled else 0)
        self.list.sync(self.state.held, rows, default)

    def rows(self) -> list[Item]:
        st: BagState = self.state

        def play(move) -> Callable[["App"], None]:
            return lambda app: self.play(app, move)

        def draw(row: int, size: Size | None) -> Callable[["App"], None]:
            def act(app: "App") -> None:
                self.drew_from = row  # the cursor comes back here after Keep it / Put it back
                self.play(app, Draw(size))
            return act
        if st.held is not None:
            return [Item(_("Keep it"), play(Keep())), Item(_("Put it back"), play(Return()))]
        rows = [Item(size_word(z), draw(i, z), right=_left(st.bag.count_size(z)),
                     enabled=bool(st.bag.count_size(z))) for i, z in enumerate(Size)]
        rows.append(Item(_("any size"), draw(len(rows), None), right=_left(len(st.bag)),
                         enabled=bool(st.bag)))
        if st.kept:
            rows.append(Item(ngettext("Refill: {n} kept", "Refill: {n} kept", len(st.kept)).format(n=len(st.kept)),
                              play(Refill())))
        return rows

    def render(self, c: Canvas) -> None:
        st: BagState = self.state
        rows = self.rows()
        self.sync(rows)
        c.title(title_of(st.preset), _left(len(st.bag)))
        if st.held is not None:
            p = st.held
            c.piece(4, 60, p, scale=2)
            # the color and the size both said of the piece: French "verte" / "petite" agree
            # with "pièce" (a color on its own, "vert", would not)
            word = piece_color_word(p.color)
            if len(word) <= 6:  # the large font holds six letters here
                c.big(46, TITLE_H + 2, word, 2)
            else:  # "transparent": whole, in the small font
                c.text(46, TITLE_H + 6, word)
            c.text(46, TITLE_H + 22, piece_size_word(p.size))
            for i, it in enumerate(rows):
                y = 42 + 10 * i
                if i == self.list.index:
                    c.d.polygon([(40, y + 1), (44, y + 4), (40, y + 7)], fill=1)
                c.text(47, y, it.label)
            return
        for i, it in enumerate(rows[:5]):
            c.row(i, item_text(it, ChoiceList.ROOM) if it.enabled else f"({it.label})",
                  selected=(i == self.list.index))

    def on_game_key(self, key: Key, app: "App") -> None:
        rows = self.rows()
        self.sync(rows)
        if key == Key.OK and rows and not rows[self.list.index].enabled:
            app.message(_("No piece of that size is left in the bag."))
            return
        self.list.key(key, rows, app)


class PickScreen(ToolScreen):
    """Pick a start player among N: OK picks. The pick is named: the roster's
    name of that seat (Settings > Player names, the order a new game seats
    them in, kept in the setup), else "Player 3" in words."""

    def render(self, c: Canvas) -> None:
        st: PickState = self.state
        c.title(_("Start player of {n}").format(n=st.players))
        if st.picks:
            name = seat_name(st, st.picks[-1])
            # as large as the name allows: 3x up to 7 characters, 2x up to 10
            scale = next((k for k in (3, 2) if len(name) * CHAR_W * k <= WIDTH), 1)
            c.center(TITLE_H + 4 + (3 - scale) * 5, name, scale=scale)
            c.center(48, _("starts"))
        else:
            c.center(28, _("OK: pick"))

    def on_game_key(self, key: Key, app: "App") -> None:
        if key == Key.OK:
            self.play(app, "pick")


TOOL_SCREENS = {"die": DieScreen, "bag": BagScreen, "pick": PickScreen}


# ---------------------------------------------------------------- history


# ---------------------------------------------------------------- settings


def _idle_text(seconds: int) -> str:
    """The screen-off delay in words: never, 5 min, 90 s."""
    if seconds == 0:
        return _("never")
    if seconds % 60 == 0:
        return _("{n} min").format(n=seconds // 60)
    return _("{n} s").format(n=seconds)



class SettingsMenu(Menu):
    def __init__(self) -> None:
        super().__init__(_("Settings"), self._items)
        self._app: "App | None" = None

    def heading(self) -> tuple[str, str]:
        return _("Settings"), self.right  # in the language of the moment: Language switches it here

    def on_show(self, app: "App") -> None:
        self._app = app

    def _items(self) -> list[Item]:
        s = self._app.settings if self._app else None
        if s is None:
            return []
        idle = _idle_text(s.idle_blank_s)
        lang = s.language if s.language in LANGUAGES else language()
        return [
            Item(_("Language"), self._language, right=LANGUAGES.get(lang, lang), leader=True),
            Item(_("Contrast"), self._contrast, right=str(s.contrast), leader=True),
            Item(_("Screen off"), self._idle, right=idle, leader=True),
            Item(_("Rotation"), self._rotation, right=f"{s.rotation}°", leader=True),
            Item(_("Seed"), self._seed, right=s.seed or _("random"), leader=True),
            Item(_("Player names"), lambda app: app.push(PlayerNames())),  # no value: no leader
            Item(_("Ice hints"), lambda app: self._set(app, boi_hints=not s.boi_hints),
                 right=_("on") if s.boi_hints else _("off"), leader=True),
            Item(_("Ice advice"), lambda app: self._set(app, boi_advice="score" if s.boi_advice == "win" else "win"),
                 right=pgettext("advice", "to win") if s.boi_advice == "win" else pgettext("advice", "score"), leader=True),
            # "Lone piece": a settings row has a column less than the setup's (its scroll bar)
            Item(_("Lone piece"), lambda app: self._set(app, bu_lone_pieces=not s.bu_lone_pieces),
                 right=pgettext("lone pieces", "score") if s.bu_lone_pieces else pgettext("lone pieces", "no score"), leader=True),
            # issue 41: the color beside the seat page's QR code, or the code alone
            Item(_("Seat color"), lambda app: self._set(app, bu_seat_color=not s.bu_seat_color),
                 right=pgettext("seat color", "shown") if s.bu_seat_color else pgettext("seat color", "QR only"),
                 leader=True),
        ]

    def _language(self, app: "App") -> None:
        """English, Français, ... each named in itself; applied from the next screen on (issue 21)."""
        codes = list(LANGUAGES)
        cur = app.settings.language if app.settings.language in LANGUAGES else language()
        self._set(app, language=codes[(codes.index(cur) + 1) % len(codes)] if cur in codes else codes[0])

    @staticmethod
    def _set(app: "App", **kw) -> None:
        app.save_settings(change(app.settings, **kw))

    def _contrast(self, app: "App") -> None:
        app.push(NumberPicker(_("Contrast"), app.settings.contrast, 0, 255, lambda a, v: self._set(a, contrast=v),
                              step=1))

    def _idle(self, app: "App") -> None:
        choices = [0, 60, 120, 300, 600, 1800]
        cur = app.settings.idle_blank_s if app.settings.idle_blank_s in choices else 300
        app.push(NumberPicker(_("Screen off"), cur, 0, 1800, lambda a, v: self._set(a, idle_blank_s=v),
                              choices=choices, fmt=_idle_text))

    def _rotation(self, app: "App") -> None:
        self._set(app, rotation=180 if app.settings.rotation == 0 else 0)

    def _seed(self, app: "App") -> None:
        cur = app.settings.seed_value()
        app.push(NumberPicker(_("Seed (0: random)"), cur or 0, 0, 9999,
                              lambda a, v: self._set(a, seed="" if v == 0 else str(v))))


class PlayerNames(Menu):
    """Names offered at game setup: pick one to rename, or add one."""

    def __init__(self) -> None:
        super().__init__(_("Player names"), self._items)
        self._app: "App | None" = None

    def on_show(self, app: "App") -> None:
        self._app = app

    def _items(self) -> list[Item]:
        names = list(self._app.settings.players) if self._app else []
        items = [Item(n, bound(self._edit, i)) for i, n in enumerate(names)]
        if len(names) < ROSTER_MAX:
            items.append(Item(_("+ add name"), lambda app: self._edit(app, len(names))))
        if names:
            items.append(Item(_("- remove last"), lambda app: self._save(app, names[:-1])))
        return items

    def _edit(self, app: "App", i: int) -> None:
        names = list(app.settings.players)
        cur = names[i] if i < len(names) else ""

        def done(a: "App", name: str) -> None:
            new = names[:]
            if i < len(new):
                new[i] = name
            else:
                new.append(name)
            self._save(a, new)
        app.push(NameKeyboard(_("Name {n}").format(n=i + 1), cur, done,
                              taken=tuple(n for k, n in enumerate(names) if k != i)))

    @staticmethod
    def _save(app: "App", names: list[str]) -> None:
        app.save_settings(change(app.settings, players=tuple(names)))
