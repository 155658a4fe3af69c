"""``SessionScreen``: the base of every screen that plays a session.

It gives each game the same handling of the shared keys:

* hold BACK: undo the last decision (asks first; unlimited; random draws
  included; an undone draw stays visible in the history);
* BACK: the session menu (the game's own items, History, Undo, Leave);
* a move the rules refuse: its reason in a message, nothing changed.

A game screen subclasses it, draws ``render`` and handles the other keys,
calling ``self.play(app, move_text)``.
"""
from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, TypeVar

from ..engine import Decision, State
from ..io import Key
from ..session import Session
from ..shown import Shown
from ..i18n import _
from .common import Report
from ..words.moves import move_words
from .draw import CHAR_W, WIDTH, wrap
from .widgets import ChoiceList, Confirm, Item, CursorScreen, Menu, Screen

if TYPE_CHECKING:  # pragma: no cover
    from .host import Host as App  # the seam: what a screen may ask of the app


S = TypeVar("S", bound=State)


def state_as(kind: type[S], state: State) -> S:
    """``state`` as its game's own state class: a game's screens show only that
    game's sessions (``Session.state`` is typed as any game's ``State``)."""
    assert isinstance(state, kind), f"a {kind.__name__} screen got a {type(state).__name__}"
    return state


class SessionScreen(CursorScreen):
    shows = Shown.GAME

    def __init__(self, session: Session):
        self.session = session

    @property
    def state(self):
        return self.session.state

    _decided: tuple = (None, None)
    list: ChoiceList  # the cursor list a game screen draws its decision with

    def decision(self) -> Decision:
        """The decision the position waits for (``State.decision``), once per position."""
        st = self.state
        if self._decided[0] is not st:
            self._decided = (st, st.decision())
        return self._decided[1]

    def play(self, app: "App", move) -> None:
        """Play a move (text or Move); refusals reach the user as a message."""
        self.session.play(move)
        self.after_play(app)

    def after_play(self, app: "App") -> None:
        """Hook: e.g. show a result screen. Default: nothing."""

    def menu_items(self, app: "App") -> builtins.list[Item]:  # the attribute `list` shadows the builtin here
        """The game's own entries of the session menu."""
        return []

    def ask_undo(self, app: "App") -> None:
        shown = self.session.last_line(move_words)
        if shown is None:
            app.message(_("Nothing to undo yet."))
            return
        question = _("Undo: {move}?").format(move=shown)
        if self.session.undo_names_decision():
            # name the decision first, not only the last move ("yS drawn for stack D" when
            # the undo takes back Eve's pass and the whole next round's start)
            first = self.session.undo_first_line(move_words)
            question = _("Undo: {first} … {last}?").format(first=first, last=shown)
            if len(wrap(question, WIDTH // CHAR_W)) > Confirm.QUESTION_LINES:
                question = _("Undo: {move} …?").format(move=first)
        # hold BACK is deliberate: "Undo" is preselected, so hold BACK, OK undoes (issue 13)
        app.confirm(question, self._undo, yes=_("Undo"), no=_("Keep"), title=_("Undo"), preselect_yes=True)

    def _undo(self, app: "App") -> None:
        if self in app.stack:  # asked over a picker or a menu the game opened (issue 39): those close
            while app.top is not self:
                app.pop()
        self.session.undo()  # the game screen shows the position before it at once
        self.after_undo(app)

    def after_undo(self, app: "App") -> None:
        """Hook after an undo (default: nothing)."""

    def why_lines(self) -> builtins.list[str]:
        """The rulings behind what the screen shows now, each as "U-6: ..." in
        a few words: the session menu's "Why" page (ruling ids stay out of
        titles and instructions, issue 13). Default: none, no page."""
        return []

    def open_menu(self, app: "App") -> None:
        why = self.why_lines()
        items = self.menu_items(app) + ([Item(_("Why (rules)"), lambda a: (a.pop(), a.push(
            Report(_("Why"), why))))] if why else []) + [
            Item(_("Back to game"), lambda a: a.pop()),
            Item(_("History"), lambda a: a.push(history_screen(self.session))),
            Item(_("Undo last"), lambda a: (a.pop(), self.ask_undo(a))),
        ]
        if getattr(app, "web", None) is not None:  # the scoreboard page's QR code, mid-game (issue 32)
            from .join import JoinScreen  # start-up: the QR screen (2 ms) loads when the page is on
            items.append(Item(_("Scoreboard page"), lambda a: (a.pop(), a.push(JoinScreen()))))
        if self.session.finished:
            # a finished game is left with BACK, OK (issue 13): "Leave" comes first; there is
            # nothing left to end, so "End session" is not offered (an undo still reopens it)
            items = [Item(_("Leave"), lambda a: a.leave(self.session.id))] + items
        else:
            end = Item(_("End session"), lambda a: a.confirm(_("End this session for good?"), self._end))
            items += [Item(_("Leave (kept)"), lambda a: a.home()), end]
        menu = Menu(self.session_title(), items)
        menu.shows = Shown.SESSION_MENU
        app.push(menu)

    def _end(self, app: "App") -> None:
        self.session.end("ended by the players")
        app.home()

    def session_title(self) -> str:
        return _("#{id} menu").format(id=self.session.number)

    def on_key(self, key: Key, app: "App") -> None:
        if key == Key.HOLD_BACK:
            self.ask_undo(app)
        elif key == Key.BACK:
            self.open_menu(app)
        else:
            self.on_game_key(key, app)

    def on_game_key(self, key: Key, app: "App") -> None:
        """Override: the game's own keys."""


def close_scores(app: "App") -> None:
    """BACK on a game's scores: back to the game; a finished game's session menu opens
    at once, "Leave" first, so that a finished game is left with BACK, OK from its
    scores as from its winner screen (issue 48: it took BACK, BACK, OK)."""
    app.pop()
    under = app.top
    if isinstance(under, SessionScreen) and under.session.finished:
        under.open_menu(app)


def history_screen(session: Session) -> Screen:
    """Every move of the session, newest first; undone ones marked with x."""
    def items() -> list[Item]:
        out = []
        for h in reversed(session.history(move_words)):
            out.append(Item(("x " if h.undone else "") + h.line))
        return out or [Item(_("(no moves yet)"))]
    # worded once when opened (a re-fold of the session): nothing is played while it is shown
    return Menu(_("History #{id}").format(id=session.number), items(), on_select=lambda app, it: app.message(it.label))
