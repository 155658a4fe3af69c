"""The serial console's line protocol (pure: no port, no thread of its own).

``Console.handle(line)`` takes one decoded input line and returns the reply
lines; ``Console.poll()`` returns the event lines a running ``watch`` has to
stream. The adapter (``hardware/serial_console.py``) owns the port, splits
bytes into lines and writes the replies. The protocol is specified in
``docs/console.md``; in short:

* every reply is a status line, ``OK [info]`` or ``ERR <reason>``, then zero or
  more body lines (never empty), then one empty line;
* commands: ``help``, ``status``, ``screen``, ``press KEY[,KEY...]``,
  ``games [json]``, ``export ID json|csv``, ``events ID [SINCE]``,
  ``watch [ID]``, ``stop``, ``quit``/``bye``;
* control (issue 14): read-only by default (``Settings.read_only``, true
  unless set false): ``press`` gets ``ERR read-only`` until the players
  allow it with OK at a prompt on the device that ``pair`` raises; the
  pairing lasts until ``unpair``, the link is lost or the app restarts.
  One question at a time (QA 4 #5): a ``pair`` while one is on the device
  adds no box; an answer counts only for the link that asked (``unpair()``
  on a new link withdraws it and makes a late Allow void); after a question
  that ended without Allow, ``pair`` is refused for a pause (``PAIR_PAUSE_S``,
  doubling with each such question in a row, at most ``PAIR_PAUSE_MAX_S``).

The app is reached only through ``run(fn, redraw)``, which must execute
``fn(app)`` on the app loop's thread and return its result (``loop.loop_runner``
makes one that puts a ``loop.Call`` on the loop's queue and waits; ``direct``
calls at once, for a single-threaded caller). The console never offers a
shell and never opens a file: nothing a user types names a path.
"""
from __future__ import annotations

import json
import math
import threading
import time
import weakref
from collections import deque
from typing import Any, Callable

from . import public
from .braille import braille
from .public import public_event
from .errors import CompanionError, ConsoleError
from .export import scores_csv, session_summary, summaries
from .i18n import _
from .io import Key, key_names
from .records import dumps
from .words.titles import title_of

MAX_KEYS = 64          # keys in one press command
READ_ONLY = "read-only (send pair, then a player chooses Allow on the device)"
ECHO_MEMORY = 256      # recent output lines remembered to recognise an echo
PAIR_PAUSE_S = 30.0    # no new pairing question this long after one ended without Allow...
PAIR_PAUSE_MAX_S = 600.0  # ...doubling for each such question in a row, up to this
ASKING = "OK pairing: the device is already asking; a player must choose Allow on the device, then press works"
Runner = Callable[..., Any]

HELP = [
    "help                   this list",
    "status                 screen title, session, player to act, scores",
    "screen                 the current frame as 16 lines of braille",
    "press KEY[,KEY...]     press buttons: up down left right ok back hold-ok hold-back release",
    "games [json]           every session: #number, date, game, players, result",
    "export ID json|csv     a session as its game record, or its scores per turn as CSV",
    "events ID [SINCE]      the session's events after seq SINCE, as JSON lines",
    "watch [ID]             stream new events as JSON lines until any line is sent",
    "stop                   end a watch",
    "pair | unpair          ask the players (on the device) to let this console press buttons",
    "quit | bye             end a watch and say goodbye",
    "Replies: a status line (OK or ERR reason), body lines, an empty line.",
]



def direct(app) -> Runner:
    """A runner for a caller on the app's own thread (tests, headless)."""
    def run(fn: Callable[[Any], Any], redraw: bool = False) -> Any:
        return fn(app)
    return run


def screen_title(app) -> str:
    """The top screen's title; a game screen without one is named by its game."""
    top = app.top
    if getattr(top, "title", ""):
        return top.title
    s = getattr(top, "session", None)
    if s is not None and hasattr(s, "game"):
        return title_of(s.game, translated=False)
    return type(top).__name__


def _parse_id(text: str) -> int:
    if not text.isdigit() or len(text) > 12:
        raise ConsoleError(f"bad session id {text[:20]!r} (a number, see: games)")
    return int(text)


def _json(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


class Console:
    """One console's state: read-only flag, running watch, recent output."""

    def __init__(self, run: Runner, *, read_only: bool = True, wake: Callable[[], None] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.run = run
        self.read_only = read_only
        self.paired = False  # the players allowed control on the device (``pair``)
        self.wake = wake
        self.clock = clock
        self.link = 0        # the link's number: ``unpair()`` (a new link) counts up
        self._asking: Any = None  # the pairing question this link put on the device (``App.ask``)
        self._asked: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()  # question -> its link
        self._not_allowed = 0   # questions in a row that ended without Allow
        self._pause_until = 0.0  # no new question before this (``clock``)
        self._pair_lock = threading.Lock()  # link/paired: the port's thread vs the app's
        self.watching = False
        self.watch_id: int | None = None
        self._watch_marks: dict[int, tuple[int, int]] = {}  # session -> (events, last seq sent)
        self._watch_count = -1                   # journal size at the last poll
        self._recent: deque[str] = deque(maxlen=ECHO_MEMORY)
        self._recent_set: dict[str, int] = {}

    # ------------------------------------------------------------ output memory

    def remember(self, lines: list[str]) -> list[str]:
        """Note lines about to be sent, so an echo of them is recognised."""
        for line in lines:
            if not line:
                continue
            if len(self._recent) == self._recent.maxlen:
                old = self._recent[0]
                n = self._recent_set.get(old, 0) - 1
                if n <= 0:
                    self._recent_set.pop(old, None)
                else:
                    self._recent_set[old] = n
            self._recent.append(line)
            self._recent_set[line] = self._recent_set.get(line, 0) + 1
        return lines

    def is_echo(self, line: str) -> bool:
        """A line the console sent itself (a host or a wire that echoes):
        status lines and recently sent lines are never taken for commands."""
        return line.startswith(("OK", "ERR")) or line in self._recent_set

    # ------------------------------------------------------------ entry points

    def handle(self, line: str) -> list[str]:
        """Reply lines (status, body, empty end line) for one input line; [] for
        an ignored line (empty, or an echo of the console's own output)."""
        line = _edit(line).strip()
        if self.is_echo(line):
            return []
        if self.watching:
            self.watching = False
            return self.remember(["OK stopped", ""])
        if not line:
            return []
        words = line.split()
        cmd, args = words[0].lower(), words[1:]
        fn = COMMANDS.get(cmd)
        try:
            if fn is None:
                raise ConsoleError(f"unknown command {cmd[:20]!r} (try: help)")
            out = fn(self, args)
        except ConsoleError as e:
            out = [f"ERR {e}"]
        except CompanionError as e:
            out = [f"ERR {e}"]
        except Exception as e:  # never let a bug take the console down
            out = [f"ERR internal error ({type(e).__name__})"]
        return self.remember(out + [""])

    def reply_error(self, reason: str) -> list[str]:
        """The reply to a line the adapter refused (too long, not UTF-8); it ends a watch too."""
        self.watching = False
        return self.remember([f"ERR {reason}", ""])

    def poll(self) -> list[str]:
        """New events for a running watch, one JSON line each ([] if none)."""
        if not self.watching:
            return []
        try:
            lines = self.run(self._poll)
        except (ConsoleError, CompanionError):
            return []
        return self.remember(lines)

    # ------------------------------------------------------------ commands

    def cmd_help(self, args: list[str]) -> list[str]:
        return ["OK commands", *HELP]

    def cmd_status(self, args: list[str]) -> list[str]:
        self._no_args(args, "status")

        def fn(app) -> list[str]:
            s, shown = app.showing()
            out = ["OK status", f"screen: {screen_title(app)}"]
            if s is None:
                out += ["session: -", "player: -", "scores: -"]
            else:
                # the public projection the page draws too (RULINGS V-1): one view of the game
                v = public.view(s, shown, app.settings, number=s.number)
                names = [p["name"] for p in v["players"]]
                p = v["to_act"]
                who = ("chance" if v["device_acts"] else "game over" if v["session"]["over"]
                       else names[p] if p is not None and 0 <= p < len(names)
                       else f"seat {p + 1}" if p is not None else "-")
                sc = [p["score"] for p in v["players"]]
                out += [f"session: {s.number} {s.game}", f"player: {who}",
                        "scores: " + (", ".join(f"{n} {v}" for n, v in zip(names, sc)) if sc else "-")]
            out.append("read-only: " + ("yes" if not self.may_press else "no (paired)" if self.paired else "no"))
            return out
        return self.run(fn)

    def cmd_screen(self, args: list[str]) -> list[str]:
        self._no_args(args, "screen")
        return self.run(lambda app: ["OK screen", *braille(app.frame())])

    @property
    def may_press(self) -> bool:
        return not self.read_only or self.paired

    @property
    def control(self) -> str:
        """``allowed`` (read_only = false), ``paired`` or ``read-only``."""
        return "allowed" if not self.read_only else "paired" if self.paired else "read-only"

    def cmd_pair(self, args: list[str]) -> list[str]:
        """Ask the players, on the device, to let this console press buttons.
        The prompt's default is Refuse, and the console cannot answer it: its
        presses are refused until a player chose Allow with the buttons.

        One question at a time: while this link's question is on the device,
        ``pair`` answers ``ASKING`` and adds no box. After a question that
        ended without Allow (Refuse, BACK, ``unpair``), ``pair`` is refused for
        a pause, so a host cannot keep the table answering it."""
        self._no_args(args, "pair")
        if self.may_press:
            return [f"OK control: {self.control}"]
        link = self.link

        def fn(app) -> list[str]:
            self._withdraw_stale(app)
            asking = self._asking
            if asking is not None and asking in app.stack:
                return [ASKING]
            self._asking = None  # gone without an answer (the screens were reset): ask again
            wait = self._pause_until - self.clock()
            if wait > 0:
                raise ConsoleError("the last pairing question was not allowed; "
                                   f"ask again in {math.ceil(wait)} s")
            if self.wake:
                self.wake()
            asked: list[Any] = []
            prompt = app.ask(_("A computer on the serial link asks to press the buttons. Allow it?"),
                             lambda app, allowed: self.answered(asked[0], allowed),
                             yes=_("Allow"), no=_("Refuse"), title=_("Serial console"))
            asked.append(prompt)
            self._asked[prompt] = link
            self._asking = prompt
            return ["OK pairing: a player must choose Allow on the device, then press works"]
        return self.run(fn, redraw=True)

    def cmd_unpair(self, args: list[str]) -> list[str]:
        """Give the buttons back; a question still on the device is withdrawn
        (and counts as not allowed: see ``cmd_pair``)."""
        self._no_args(args, "unpair")
        with self._pair_lock:
            self.paired = False
            asking, self._asking = self._asking, None
        if asking is not None:
            self._withdraw(asking, not_allowed=True)
        return [f"OK control: {self.control}"]

    def unpair(self) -> None:
        """A new link (reconnection): the pairing does not carry over, and a
        question an earlier link asked is withdrawn; should it still be
        answered (the app did not take the withdrawal), the answer is void."""
        with self._pair_lock:
            self.link += 1
            self.paired = False
            asking, self._asking = self._asking, None
        if asking is not None:
            self._withdraw(asking, not_allowed=False)

    def answered(self, prompt: Any, allowed: bool) -> None:
        """On the app's thread: a player answered ``prompt`` (Allow, or
        Refuse/BACK). It counts only while it is this link's open question."""
        with self._pair_lock:
            if prompt is not self._asking or self._asked.get(prompt) != self.link:
                return  # a withdrawn question, or one from an earlier link
            self._asking = None
            if allowed:
                self.paired = True
                self._not_allowed = 0
            else:
                self._not_allowed_now()

    def _not_allowed_now(self) -> None:
        self._not_allowed += 1
        pause = min(PAIR_PAUSE_S * 2 ** min(self._not_allowed - 1, 16), PAIR_PAUSE_MAX_S)
        self._pause_until = self.clock() + pause

    def _withdraw(self, prompt: Any, *, not_allowed: bool) -> None:
        """Take ``prompt`` off the device (best effort: a busy app keeps it,
        and then its answer is ignored, see ``answered``)."""
        if not_allowed:
            with self._pair_lock:
                self._not_allowed_now()
        try:
            self.run(lambda app: _take_off(app, prompt), redraw=True)
        except (ConsoleError, CompanionError):
            pass

    def _withdraw_stale(self, app) -> None:
        """On the app's thread: questions of this console that are no longer
        its open one (an earlier link's, left by a busy app) leave the device."""
        for screen in list(app.stack):
            if screen in self._asked and screen is not self._asking:
                _take_off(app, screen)

    def cmd_press(self, args: list[str]) -> list[str]:
        if not self.may_press:
            raise ConsoleError(READ_ONLY)
        try:
            names = key_names(" ".join(args))  # "down,ok", "down ok", "down, ok"
        except ValueError:  # "up,,down": a key left out (a typo): nothing is pressed (QA 4)
            raise ConsoleError("an empty key between commas: write the keys as down,ok") from None
        if not names:
            raise ConsoleError("press needs keys, e.g. press down,ok")
        if len(names) > MAX_KEYS:
            raise ConsoleError(f"at most {MAX_KEYS} keys in one press")
        keys = []
        for n in names:
            try:
                keys.append(Key.parse(n))
            except ValueError:
                raise ConsoleError(f"unknown key {n.strip()[:20]!r} (keys: "
                                   f"{' '.join(k.value for k in Key)})") from None
        wake = self.wake

        def fn(app) -> list[str]:
            if wake:
                wake()
            before = app.last_error
            for k in keys:
                app.handle(k)
            out = [f"OK pressed {len(keys)}", f"screen: {screen_title(app)}"]
            if app.last_error is not before and app.last_error:
                out.append(f"refused: {app.last_error}")
            return out
        return self.run(fn, redraw=True)

    def cmd_games(self, args: list[str]) -> list[str]:
        if args not in ([], ["json"]):
            raise ConsoleError("usage: games [json]")
        items = self.run(lambda app: summaries(app.journal))
        if args:
            return [f"OK {len(items)} games", *[_json(s.to_json()) for s in items]]
        out = [f"OK {len(items)} games"]
        for s in items:
            players = ", ".join(s.players) or "-"
            out.append(f"#{s.shown}  {s.date}  {s.title}  {players}  {s.result_text()}")
        return out

    def cmd_export(self, args: list[str]) -> list[str]:
        if len(args) != 2 or args[1].lower() not in ("json", "csv"):
            raise ConsoleError("usage: export ID json|csv")
        sid, fmt = _parse_id(args[0]), args[1].lower()

        def fn(app) -> list[str]:
            info = self._info(app, sid)
            events = app.journal.events(info.id)
            if fmt == "json":
                if any(public.hidden_event(info, e) for e in events):
                    raise ConsoleError(f"session {sid} is not over and holds hidden information; "
                                       "export it when the game has ended")
                text = dumps(info.game, info.setup, events, session=info.number, created=info.created)
            else:
                s = session_summary(app.journal, info)
                if s.fold is None:
                    raise ConsoleError(f"session {sid} cannot be read: {s.error}")
                text = scores_csv(s.fold, info.setup)
            return [f"OK export {sid} {fmt}", *text.splitlines()]
        return self.run(fn)

    def cmd_events(self, args: list[str]) -> list[str]:
        if not 1 <= len(args) <= 2:
            raise ConsoleError("usage: events ID [SINCE]")
        sid = _parse_id(args[0])
        since = 0
        if len(args) == 2:
            if not args[1].isdigit() or len(args[1]) > 12:
                raise ConsoleError("SINCE must be a seq number (0 for all)")
            since = int(args[1])

        def fn(app) -> list[str]:
            info = self._info(app, sid)
            evs = [e for e in app.journal.events(info.id) if e.seq > since]
            return [f"OK {len(evs)} events", *[_json(public_event(info, e)) for e in evs]]
        return self.run(fn)

    def cmd_watch(self, args: list[str]) -> list[str]:
        if len(args) > 1:
            raise ConsoleError("usage: watch [ID]")
        sid = _parse_id(args[0]) if args else None

        def fn(app) -> tuple[int, dict[int, tuple[int, int]], int | None]:
            watched = self._info(app, sid).id if sid is not None else None
            return app.journal.count(), {info.id: (info.events, self._last_seq(app, info))
                                         for info in app.journal.sessions()}, watched
        count, marks, watched = self.run(fn)
        self.watching, self.watch_id = True, watched
        self._watch_count, self._watch_marks = count, marks
        what = f"session {sid}" if sid is not None else "every session"
        return [f"OK watching {what}; send any line to stop"]

    def cmd_stop(self, args: list[str]) -> list[str]:
        return ["OK not watching"]

    def cmd_quit(self, args: list[str]) -> list[str]:
        self.watching = False
        return ["OK bye"]

    # ------------------------------------------------------------ helpers

    @staticmethod
    def _no_args(args: list[str], cmd: str) -> None:
        if args:
            raise ConsoleError(f"{cmd} takes no arguments")

    @staticmethod
    def _info(app, number: int):
        """The session shown as ``#number`` (``games``; issue 34)."""
        try:
            return app.journal.by_number(number)
        except KeyError:
            raise ConsoleError(f"no session {number} (see: games)") from None

    def _poll(self, app) -> list[str]:
        j = app.journal
        n = j.count()
        if n == self._watch_count:
            return []
        self._watch_count = n
        out: list[str] = []
        infos = [j.session(self.watch_id)] if self.watch_id is not None else j.sessions()[::-1]
        for info in infos:
            known = self._watch_marks.get(info.id)
            if known is not None and known[0] == info.events:
                continue  # nothing new in this session
            if known is None:  # a session started during the watch: its start first
                out.append(_json({"session": info.number, "seq": info.id, "type": "start",
                                  "game": info.game, "setup": info.setup, "time": info.created}))
                mark = info.id
            else:
                mark = known[1]
            for e in j.events(info.id):
                if e.seq > mark:
                    out.append(_json(public_event(info, e)))
                    mark = e.seq
            self._watch_marks[info.id] = (info.events, mark)
        return out

    @staticmethod
    def _last_seq(app, info) -> int:
        evs = app.journal.events(info.id) if info.events else []
        return evs[-1].seq if evs else info.id


def _take_off(app, screen) -> None:
    """Remove ``screen`` from the app's stack wherever it is."""
    if screen not in app.stack:
        return
    if app.top is screen:
        app.pop()
    else:
        app.stack.remove(screen)


def _edit(line: str) -> str:
    """Apply backspaces (DEL or BS) a terminal user typed."""
    if "\x7f" not in line and "\x08" not in line:
        return line
    out: list[str] = []
    for ch in line:
        if ch in "\x7f\x08":
            if out:
                out.pop()
        else:
            out.append(ch)
    return "".join(out)


COMMANDS: dict[str, Callable[[Console, list[str]], list[str]]] = {
    "help": Console.cmd_help,
    "status": Console.cmd_status,
    "screen": Console.cmd_screen,
    "press": Console.cmd_press,
    "games": Console.cmd_games,
    "export": Console.cmd_export,
    "events": Console.cmd_events,
    "watch": Console.cmd_watch,
    "stop": Console.cmd_stop,
    "pair": Console.cmd_pair,
    "unpair": Console.cmd_unpair,
    "quit": Console.cmd_quit,
    "bye": Console.cmd_quit,
}
