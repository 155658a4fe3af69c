"""The app: a stack of screens over the journal, driven by logical keys.

One thread owns an ``App``: it calls ``handle(key)`` for each input event and
``frame()`` for the picture to show. Nothing here knows where keys come from
or where frames go (GPIO and OLED, terminal simulator, serial console).

Global keys: a hold of BACK on a game screen asks to undo the last decision
(unlimited, with a confirm); a refused action shows its reason in a message
and changes nothing.
"""
from __future__ import annotations

import os
import random
from typing import TYPE_CHECKING, Any, Callable

from PIL import Image

from .. import config
from ..config import Settings, save as save_settings
from ..i18n import _, set_language
from ..errors import CompanionError, ConfigError, JournalWriteError
from ..io import Key
from ..journal import Journal, SessionInfo
from ..session import Session
from ..shown import Shown
from ..words.table import plain
from .common import Report
from .draw import Canvas, font
from .screens import GAMES, MainMenu, game_ui, open_session
from .widgets import Confirm, Message, Question, Screen

if TYPE_CHECKING:  # pragma: no cover
    from .host import Host


LEFT = "left"
"""The ``end`` event's reason when a finished game is left with "Leave" (``App.leave``)."""


class App:
    def __init__(self, journal: Journal, settings: Settings | None = None, *,
                 rng: random.Random | None = None, settings_path: str | None = None):
        self.journal = journal
        self.settings = settings or Settings()
        self.settings_path = settings_path
        set_language(self.settings.language)
        # Slow preparation a screen asks for (a Bag of Ice turn solved for the win): the app
        # loop runs it on a worker thread after the frame and redraws; without a loop
        # (headless, tests) it runs at once.
        self.background: Callable[[Callable[[], None], Callable[["App"], Any] | None], None] | None = None
        # the scoreboard page when it runs (hardware.web_server.PageService, a ui.join.PageLink)
        self.web: Any = None
        seed = self.settings.seed_value()
        self.rng = rng or random.Random(seed)
        self.stack: list[Screen] = []
        self.frames = 0
        self.last_error: str | None = None
        # Sessions opened by this app, by id: the main menu asks each for
        # "finished" instead of replaying it from the journal every time.
        self._live: dict[int, Session] = {}
        # Sessions of other origins already replayed: id -> (event count, finished).
        self._replayed: dict[int, tuple[int, bool]] = {}
        self._notices: list[str] = []  # messages a key's work left to show once it is done
        self._left: set[int] = set()  # left with "Leave" while its end could not be written (``leave``)
        self.push(MainMenu())

    # ------------------------------------------------------------ screen stack
    @property
    def top(self) -> Screen:
        return self.stack[-1]

    def push(self, screen: Screen) -> None:
        self.stack.append(screen)
        screen.on_show(self)

    def pop(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()
            self.top.on_show(self)

    def replace(self, screen: Screen) -> None:
        if len(self.stack) > 1:
            self.stack.pop()
        self.push(screen)

    def home(self) -> None:
        del self.stack[1:]
        forget = getattr(self.top, "forget_cursor", None)  # home: the menu's first entry (issue 39)
        if forget is not None:
            forget()
        self.top.on_show(self)

    def message(self, text: str, *, title: str = "", then: Callable[[Host], Any] | None = None) -> None:
        self.push(Message(text, title=title, then=then))

    def confirm(self, question: str, on_yes: Callable[[Host], Any], **kw: Any) -> None:
        self.push(Confirm(question, on_yes, **kw))

    def ask(self, question: str, answer: Callable[[Host, bool], Any], **kw: Any) -> Screen:
        """A ``Confirm`` that says how it was answered (``widgets.Question``): the
        serial console's pairing question. Returns the screen it pushed."""
        screen = Question(question, answer, **kw)
        self.push(screen)
        return screen

    # ------------------------------------------------------------ sessions
    def open_session(self, session_id: int) -> None:
        """The session's screen over the stack, with the pages its last move
        showed (``screens.open_session``): History's Resume asks for it."""
        open_session(self, session_id)

    def start_session(self, game: str, setup: dict[str, Any]) -> Session:
        s = Session.start(self.journal, game, setup, self.rng)
        self._live[s.id] = s
        return s

    def has_open(self, session_id: int) -> bool:
        """This app opened the session (started or resumed it) and it has not
        changed elsewhere since: its pages were shown here already."""
        return session_id in self._live

    def resume_session(self, session_id: int) -> Session:
        s = Session.resume(self.journal, session_id, self.rng)
        self._live[s.id] = s
        return s

    def unfinished(self, infos: list[SessionInfo] | None = None) -> list[int]:
        """Ids of sessions that can be resumed: the one played last first (the one the
        device was playing when it stopped, not the newest created), games before tools
        (a die or a bag left open never displaces a game).

        A session this app has open answers from memory; another one is
        replayed once and remembered until its journal event count changes
        (the serial console, say, played in it). ``infos``: the journal's
        sessions, when the caller has read them already."""
        infos = self.journal.sessions() if infos is None else infos
        out = [info for info in infos if not info.ended and not self._finished(info)]
        out.sort(key=lambda i: (i.game in GAMES, i.last_time, i.id), reverse=True)
        return [i.id for i in out]

    def last_finished(self, infos: list[SessionInfo] | None = None) -> int | None:
        """The game played last, when its last move ended it and it has not been
        left with "Leave" (its ``end`` event, ``leave``): the device may have
        stopped on its result (a bank that won, the last placement), which the
        main menu then offers again, with the pages that move showed and the
        undo of it. ``None`` otherwise (a tool played since does not count).
        ``infos`` as for ``unfinished``."""
        games = [i for i in (self.journal.sessions() if infos is None else infos) if i.game in GAMES]
        if not games:
            return None
        last = max(games, key=lambda i: (i.last_time, i.id))
        if last.ended or last.id in self._left or not self._finished(last):
            return None
        return last.id

    def leave(self, session_id: int) -> None:
        """Back to the main menu from a finished game, which it no longer offers,
        also after a restart (issue 34): the session gets an ``end`` event (reason
        ``left``; the journal is append-only). Should the journal refuse it (a full
        disk), the main menu still leaves the game out until the app stops, and
        the refusal is said over it."""
        self._left.add(session_id)
        session = self._live.get(session_id)
        try:
            if session is None:
                session = self.resume_session(session_id)
            if session.finished and not session.ended:
                session.end(LEFT)
        finally:
            self.home()

    def _finished(self, info: SessionInfo) -> bool:
        """Has the session's game ended (the rules' end, not an ``end`` event)?
        A session that no longer replays counts as finished: it is not offered."""
        live = self._live.get(info.id)
        if live is not None and len(live.events) == info.events:
            return live.finished
        self._live.pop(info.id, None)
        known = self._replayed.get(info.id)
        if known is None or known[0] != info.events:
            try:
                finished = Session.resume(self.journal, info.id, self.rng).finished
            except CompanionError:
                finished = True
            known = self._replayed[info.id] = (info.events, finished)
        return known[1]

    def warm_up(self) -> None:
        """Load what later screens need (the games' screen modules and their
        ``warm_up()`` hooks, the fonts) so that the first press of each does not
        wait for it. The app loop
        calls this once the first frame is on the display."""
        font()
        for name in GAMES:
            ui = game_ui(name)
            hook = getattr(ui, "warm_up", None)  # a game's own slow start (e.g. the Bag of Ice odds table)
            if hook is not None:
                hook()

    def prepare(self, job: Callable[[], None], then: Callable[["App"], Any] | None = None) -> None:
        """Run ``job`` (pure work that fills a cache) off the press path when a loop is there,
        then ``then(app)`` on the app's own thread (at once when there is no loop)."""
        if self.background is None:
            job()
            if then is not None:
                then(self)
        else:
            self.background(job, then)

    def save_settings(self, settings: Settings) -> None:
        self.settings = settings
        set_language(settings.language)  # from the next screen drawn on, no restart
        if self.settings_path:
            try:
                kept = save_settings(settings, self.settings_path)
            except ConfigError as e:
                kept = self._save_elsewhere(settings, e)
            if kept:  # the file was not TOML: kept whole, said after the key that saved
                self._notices.append(_("The settings file could not be read: it is kept as {path}, "
                                       "and the settings are saved anew.").format(path=kept))

    def _save_elsewhere(self, settings: Settings, error: ConfigError) -> str | None:
        """The settings file cannot be written (``/etc/companion`` under the
        service's read-only system, QA 4): the settings go to the first place
        settings are read from that takes them, which is read first from then
        on (config.candidate_paths); the screen says where. Else the error."""
        old = self.settings_path or ""
        paths = [os.path.abspath(p) for p in config.candidate_paths()]
        if os.path.abspath(old) not in paths:  # a file named with --config: that one or nothing
            raise error
        for path in paths[:paths.index(os.path.abspath(old))]:  # the places read before it
            try:
                kept = save_settings(settings, path)
            except ConfigError:
                continue
            self.settings_path = path
            self._notices.append(_("{old} cannot be written: the settings are saved to {new}, "
                                   "which is read first from now on.").format(old=old, new=path))
            return kept
        raise error

    # ------------------------------------------------------------ events
    def handle(self, key: Key) -> None:
        """One input event. Errors the user caused become a message."""
        try:
            if key == Key.HOLD_BACK:
                self._pages_give_way_to_undo()
                if self._undo_from_above():
                    return
            self.top.on_key(key, self)
            while self._notices:  # over whatever screen the key led to
                self.message(self._notices.pop(0), title=_("Settings"))
        except JournalWriteError as e:
            self.last_error = str(e)
            self.message(_("{error}. Nothing was changed.").format(error=e), title=_("Not saved"))
        except CompanionError as e:
            self.last_error = str(e)
            self.message(plain(str(e)), title=_("Not allowed"))

    def _pages_give_way_to_undo(self) -> None:
        """Hold BACK on pages a move showed over its game (a round summary, a
        turn's result, the tray's stacks) asks the game's undo question: the
        pages close first, as BACK would close them (QA pass 2)."""
        k = len(self.stack) - 1
        while k > 0 and isinstance(self.stack[k], Report):
            k -= 1
        if k < len(self.stack) - 1 and hasattr(self.stack[k], "ask_undo"):
            while len(self.stack) - 1 > k:
                self.pop()

    def _undo_from_above(self) -> bool:
        """Hold BACK on a screen a game opened over itself (a size, target or bid
        picker, "Pass: which size?", the session menu, a check in progress) asks
        the game's undo question over it (issue 39): "Keep" leaves that screen as
        it was, "Undo" closes it and undoes. Boxes (a question, a message) and
        screens that keep hold BACK to themselves (``Screen.keeps_hold_back``: the
        secret colors) are left to their own keys."""
        top = self.top
        if top.overlay or top.keeps_hold_back or hasattr(top, "ask_undo"):
            return False
        game = next((s for s in reversed(self.stack[:-1]) if hasattr(s, "ask_undo")), None)
        if game is None:
            return False
        game.ask_undo(self)
        return True

    def showing(self) -> tuple[Session | None, Shown]:
        """What the device's screen shows, for the views off the device (issue 45): the
        session of the top-most screen that plays one (None: the main menu) and what the
        top-most screen that declares it shows over that session (``Screen.declared``).
        The stack is read here and nowhere else: the views get these two values."""
        session: Session | None = None
        shown: Shown | None = None
        for screen in reversed(self.stack):
            if shown is None:
                shown = screen.declared()
            s = getattr(screen, "session", None)
            if s is not None and isinstance(s, Session):
                session = s
                break
        if session is None:
            return None, Shown.MAIN_MENU
        return session, shown or Shown.GAME

    def frame(self) -> Image.Image:
        c = Canvas()
        base = len(self.stack) - 1
        while base > 0 and self.stack[base].overlay:  # a box is drawn over the screen it answers
            base -= 1
        for screen in self.stack[base:]:
            if screen is not self.top and screen.private:
                continue  # a box over a secret: the secret is not drawn around it
            screen.render(c)
        self.frames += 1
        return c.image

    def screen_text(self) -> str:
        return frame_to_text(self.frame())


def frame_to_text(img: Image.Image) -> str:
    """The frame as text art, two pixel rows per line (half blocks)."""
    w, h = img.size
    px = img.load()
    assert px is not None  # an image made in memory always has its pixels
    lines = []
    for y in range(0, h, 2):
        row = []
        for x in range(w):
            top = px[x, y]
            bot = px[x, y + 1] if y + 1 < h else 0
            row.append("\u2588" if top and bot else "\u2580" if top else "\u2584" if bot else " ")
        lines.append("".join(row).rstrip())
    return "\n".join(lines)
