"""The scoreboard page (issue 32): a read-only web view of the game being
played, for the phones and the TV at the table. See docs/web.md.

Two parts, neither of which touches the app:

* ``Board`` holds the latest public projection (``companion.public``, V-1).
  The app loop calls ``Board.publish(app)`` after every press, on its own
  thread; the projection is made there only when the journal moved, and
  handed over as one JSON text under a lock. The server never calls the
  app, so the button loop never waits for it (and it only reads: V-2).
* ``WebApp`` is the ASGI application (Starlette's request and response
  classes) that serves the page, the projection, a Server-Sent Events stream
  of it and the history's downloads. Every path starts with the device's
  secret; without it every path answers 404, and with it only GET and HEAD
  are answered (405 otherwise). History and downloads read the journal
  through a read-only connection of their own (SQLite WAL: the app's writes
  go on).

The server that runs it (uvicorn on a thread of its own, its limits and its
restarts) is ``hardware/web_server.py``.
"""
from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import json
import re
import secrets as _secrets
from importlib import resources
from typing import Any, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse

from . import export, plugins, public
from .i18n import language
from .words import page
from .words.titles import title_of
from .journal import Journal
from .listeners import Listeners
from .seats import Seats

SECRET_BYTES = 12          # 96 random bits in every address (the issue asks for at least 64)
DEFAULT_PORT = 8032
DEFAULT_MAX_CLIENTS = 32   # streams at once; past it a newcomer takes one (``_take_place``) or gets 503
PING_S = 5.0               # a comment line on an idle stream: dead clients are found, proxies keep it,
PING_PAD = 2048            # and padded so that a stream nobody reads fills its buffers and is ended
                           # (hardware/web_server.py's WRITE_TIMEOUT_S), idle game or not (issue 47)
TAKEN_RETRY_MS = 10_000    # the reconnect delay said to a stream whose place a newcomer took
RETRY_MS = 1500            # the browser's reconnect delay after a dropped stream
MAX_HEADER_BYTES = 8192    # a request's line and headers; larger gets 431 (uvicorn's parser stops
                           # a larger one that comes in pieces; this, one that comes at once)
SECRET_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")

HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; img-src 'self' data:; style-src 'self'; "
                                "script-src 'self'; connect-src 'self'; base-uri 'none'; "
                                "form-action 'none'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the secret is in the address: never sent on
    "X-Frame-Options": "DENY",
}
NO_STORE = {"Cache-Control": "no-store"}

ASSETS = {  # the page's files, shipped as package data (no CDN, no build step)
    "app.css": "text/css; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "history.js": "text/javascript; charset=utf-8",
    "worker.js": "text/javascript; charset=utf-8",  # one stream for every tab of a browser (issue 37)
    "icon.svg": "image/svg+xml",
    "seat.js": "text/javascript; charset=utf-8",   # a seat's own page (issue 41)
    "seat.css": "text/css; charset=utf-8",
    "after.js": "text/javascript; charset=utf-8",    # a game's BG Stats link and chart (issue 50)
    "players.js": "text/javascript; charset=utf-8",  # the Players page (issue 50)
}
PAGES = {"": "index.html", "tv": "index.html", "history": "history.html", "players": "players.html"}
SEAT_HEAD = (b'<link rel="stylesheet" href="static/seat.css">\n'
             b'<script src="static/seat.js" defer></script>\n')


def new_secret() -> str:
    """A fresh device secret for the page's addresses (URL-safe, 96 bits)."""
    return _secrets.token_urlsafe(SECRET_BYTES)


def valid_secret(text: str) -> bool:
    return bool(SECRET_RE.match(text or ""))


def view_tag(seq: int, text: str) -> str:
    """The id of what a page shows: the journal's seq and a digest of the projection's
    text. Anything that changes the page (a move, leaving a game, the language, V-4)
    changes it, even when the journal's seq does not move (issue 37)."""
    return f"{seq}-{hashlib.blake2b(text.encode('utf-8'), digest_size=6).hexdigest()}"


class Board(Listeners):
    """The latest public projection, published by the app loop, read by the server.

    ``publish`` runs on the loop's thread and costs a tuple comparison when
    nothing the page shows moved. ``snapshot()`` is ``(tag, json_text)``, where
    ``tag`` (``view_tag``) identifies the text: the stream's event id and the
    projection's ETag. ``listen(fn)`` calls ``fn()`` (from the loop's thread: it
    must only hand over, e.g. ``loop.call_soon_threadsafe``) after each new snapshot.

    Between games (RULINGS V-4) every page shows what a page opened then shows:
    the main menu's view, which keeps the last game's final result, marked as
    finished, if the device left a game that was over (``public.idle_view``)."""

    def __init__(self) -> None:
        super().__init__()
        self._key: Any = None
        self._seq = 0
        text = json.dumps(public.idle_view(0), ensure_ascii=False, separators=(",", ":"))
        self._snap: tuple[str, str] = (view_tag(0, text), text)
        self._view: dict[str, Any] = public.idle_view(0)
        self._last: Any = None  # the session last shown playing (its final result may stay, V-4)
        self.seats = Seats()    # the seat pages' addresses (issue 41, V-3): in memory only
        self._playing: Any = None  # the session the device's screen played at the last publish
        self._settings: Any = None
        # the games played out that have seat pages: each page keeps its game's final view (V-3)
        self._finals: dict[int, Any] = {}
        self._final_views: dict[tuple[int, str], dict[str, Any]] = {}
        self._seat_snaps: dict[str, tuple[str, str]] = {}  # each seat page's (tag, text), made with the public one

    def seat_snapshot(self, token: str) -> tuple[str, str] | None:
        """``(tag, json_text)`` for seat page ``token`` (issue 41, RULINGS V-3): its own
        game's view (``public.seat_view``); None for a token that is not (or no longer)
        a seat's. Every known token is compared in constant time (a near miss takes as
        long as a far one)."""
        with self._lock:
            items = list(self._seat_snaps.items())
        raw = token.encode("utf-8", "surrogateescape")
        found = None
        for t, snap in items:
            if _secrets.compare_digest(t.encode("ascii"), raw):
                found = snap
        return found

    def end_seats(self) -> None:
        """Every seat address ends (the device's address was renewed): open seat pages
        end at once, as the public ones do."""
        self.seats.clear()
        with self._lock:
            view = self._view
        self._publish_seats(view)

    def _seat_texts(self, view: dict[str, Any]) -> dict[str, tuple[str, str]]:
        """Each seat page's snapshot: its game's view, whatever the device plays (V-3)."""
        playing = self._playing
        seq = int(view["seq"])
        out: dict[str, tuple[str, str]] = {}
        for sid in [k for k in self._finals if k not in self.seats.sessions()]:
            del self._finals[sid]  # no page left to show it
        for token, seat in self.seats.items():
            if playing is not None and seat.session_id == playing.id:
                if not seat.ended:
                    state = public.SEAT_LIVE
                else:
                    state = public.SEAT_OVER if playing.state.is_terminal() else public.SEAT_ENDED
                base = view
            elif seat.session_id in self._finals:  # played out: its final view stays (V-4)
                base, state = public.kept_view(seq, self._final_view(seat.session_id)), public.SEAT_OVER
            else:  # kept for later, or ended early: not being played now
                base = public.away_view(seq, seat.session_id, seat.game, seat.part["number"])
                state = public.SEAT_ENDED if seat.ended else public.SEAT_AWAY
            plug = plugins.of(seat.game)  # the seat's own part in words (V-3)
            part = plug.seat_words(seat.part) if plug is not None else seat.part
            text = json.dumps(public.seat_view(base, part, state), ensure_ascii=False, separators=(",", ":"))
            out[token] = (view_tag(seq, text), text)
        return out

    def _final_view(self, sid: int) -> dict[str, Any]:
        key = (sid, language())
        got = self._final_views.get(key)
        if got is None:
            s = self._finals[sid]
            self._final_views = {k: v for k, v in self._final_views.items() if k[0] in self._finals}
            got = self._final_views[key] = public.view(s, number=getattr(s, "number", None),
                                                        settings=self._settings)
        return got

    def _publish_seats(self, view: dict[str, Any]) -> None:
        snaps = self._seat_texts(view)
        with self._lock:
            changed = snaps != self._seat_snaps
            self._seat_snaps = snaps
            listeners = list(self._listeners) if changed else []
        self._tell(listeners)

    def snapshot(self) -> tuple[str, str]:
        with self._lock:
            return self._snap

    def seat_snapshots(self) -> dict[str, tuple[str, str]]:
        """Every seat page's ``(tag, text)`` by token, as made now (what the page's own
        process gets, issue 38)."""
        with self._lock:
            return dict(self._seat_snaps)

    def publish(self, app) -> bool:
        """Make the projection of what the device's screen plays, if anything the page
        shows moved since the last one: the journal, the session shown, its end, the
        language, or leaving the game (V-4). True if it did."""
        s = public.session_of(app)
        self._settings = getattr(app, "settings", None)
        left, self._playing = self._playing, s
        if left is not None and (s is None or s.id != left.id):
            self._left(left)
        if s is not None:
            self._last = s
            if len(self.seats):
                self.seats.prune(s)  # its end, or an undo to before the draw (V-3)
            key: Any = (s.id, s.last_seq, bool(s.finished), language(), self.seats.version,
                        public.view_key(app, s))
        else:  # the main menu: its view changes with the language and the game left
            last = self._last
            key = ("idle", language(), None if last is None else (last.id, last.last_seq), self.seats.version)
        if key == self._key:
            return False
        if s is not None:
            view = public.view(s, number=getattr(s, "number", None), settings=self._settings,
                               screen=key[-1][0])
            seq = view["seq"]
        else:
            seq = self._seq
            last = self._last
            # only a game played to its end keeps its result (V-4); one ended early or left
            # unfinished has none to keep
            kept = (public.view(last, number=getattr(last, "number", None))
                    if last is not None and last.state.is_terminal() else None)
            view = public.idle_view(seq, kept)
        self.set(seq, view, key=key)
        return True

    def _left(self, session) -> None:
        """The device left ``session`` (for the main menu or another session): a game
        that ended (played out, or ended early) ends its seats' colors; one played out
        keeps its final view on its seat pages; one kept for later keeps them (V-3)."""
        if session.id not in self.seats.sessions():
            return
        if session.finished:
            self.seats.end_game(session.id)
        if session.state.is_terminal():
            self._finals[session.id] = session
            self._final_views = {k: v for k, v in self._final_views.items() if k[0] != session.id}
        else:
            self._finals.pop(session.id, None)

    def set(self, seq: int, view: dict[str, Any], *, key: Any = None) -> None:
        text = json.dumps(view, ensure_ascii=False, separators=(",", ":"))
        snap = (view_tag(seq, text), text)
        seats = self._seat_texts(view) if (self._seat_snaps or len(self.seats)) else {}
        with self._lock:
            self._key = key
            self._seq = seq
            self._view = view
            changed = snap != self._snap or seats != self._seat_snaps
            self._snap = snap
            self._seat_snaps = seats
            listeners = list(self._listeners) if changed else []
        self._tell(listeners)


def download_file(game: str, number: int, fmt: str) -> str:
    """A download's file name, for what it is: ``undercut-7.jsonl`` (the JSON lines
    record), ``bag-of-ice-3.csv`` (scores per turn), ``bottoms-up-2.png`` (score sheet)."""
    slug = re.sub(r"[^a-z0-9]+", "-", (game or "game").lower()).strip("-") or "game"
    return f"{slug}-{number}.{'jsonl' if fmt == 'json' else fmt}"


def download_name(journal, number: int, fmt: str) -> str:
    return download_file(journal.by_number(number).game, number, fmt)


def _asset(name: str) -> bytes:
    return resources.files("companion").joinpath("web_assets", name).read_bytes()


_PING = ": " + "." * PING_PAD + "\n\n"


def peer_of(host: str) -> str:
    """The peer an address counts as (issue 47): an IPv4 address itself (an
    IPv4-mapped IPv6 one as IPv4), an IPv6 address by its /64, which one host
    may hold whole."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


class _Held:
    """An open stream: whose (``peer_of``), since when, how to end it at once."""

    __slots__ = ("peer", "abort", "since", "taken")
    _count = 0

    def __init__(self, peer: str, abort: Callable[[], None] | None) -> None:
        _Held._count += 1
        self.peer, self.abort, self.since, self.taken = peer, abort, _Held._count, False


class WebApp:
    """The page's ASGI application (see the module docstring).

    ``board``: the projection; ``journal_path``: the journal the history and
    the downloads read (read-only); ``secret``: the path's first part;
    ``max_clients``: streams at once (the next gets 503)."""

    def __init__(self, board: Board, journal_path: str | None, secret: str, *,
                 max_clients: int = DEFAULT_MAX_CLIENTS, ping_s: float = PING_S):
        if not valid_secret(secret):
            raise ValueError("the page's secret must be 16 to 64 URL-safe characters")
        self.board = board
        self.journal_path = journal_path
        self.secret = secret
        self.max_clients = max_clients
        self.ping_s = ping_s
        self.streams = 0
        self._held: list[_Held] = []  # the open streams, oldest first (``_take_place``)
        self.generation = 0  # bumped by renew(): every open stream ends
        self._files = {name: _asset(name) for name in (*ASSETS, *set(PAGES.values()))}
        # a seat's own page (issue 41): the scoreboard with the "Your color" box's files
        self._seat_page = self._files["index.html"].replace(b"</head>", SEAT_HEAD + b"</head>", 1)
        # history.json's line of each session, until the session (its SessionInfo) or the
        # language changes: each request opens a journal of its own, so export's summary
        # cache never hits, and replaying every session of a long history at every request
        # took the button loop's share of the CPU (bench/web.py's load: frames came late)
        self._history_lines: dict[int, tuple[Any, dict[str, Any]]] = {}
        self._changed: asyncio.Event | None = None
        self._aloop: asyncio.AbstractEventLoop | None = None
        self._unlisten: Callable[[], None] | None = None

    # ------------------------------------------------------------ wiring

    def renew(self, secret: str) -> None:
        """A new secret (Settings > renew): old addresses answer 404, open streams end."""
        if not valid_secret(secret):
            raise ValueError("the page's secret must be 16 to 64 URL-safe characters")
        self.secret = secret
        self.generation += 1
        self._wake()

    def end_streams(self) -> None:
        """End every open stream (the server is stopping): they close cleanly."""
        self.generation += 1
        self._wake()

    def _wake(self) -> None:
        loop, ev = self._aloop, self._changed
        if loop is not None and ev is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._fire)

    def _fire(self) -> None:
        old, self._changed = self._changed, asyncio.Event()
        if old is not None:
            old.set()

    def _bind(self) -> None:
        """On the server's event loop, at its first request: listen to the board."""
        loop = asyncio.get_running_loop()
        if self._aloop is loop:
            return
        if self._unlisten is not None:
            self._unlisten()
        self._aloop, self._changed = loop, asyncio.Event()
        self._unlisten = self.board.listen(self._wake)

    # ------------------------------------------------------------ ASGI

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            while True:
                msg = await receive()
                if msg["type"] == "lifespan.startup":
                    self._bind()
                    await send({"type": "lifespan.startup.complete"})
                elif msg["type"] == "lifespan.shutdown":
                    if self._unlisten is not None:
                        self._unlisten()
                        self._unlisten = None
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        self._bind()
        size = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"") + sum(
            len(k) + len(v) + 4 for k, v in scope.get("headers", ()))
        if size > MAX_HEADER_BYTES:
            response: Response = PlainTextResponse("Request Header Fields Too Large", status_code=431,
                                                   headers={"Connection": "close", **NO_STORE})
        else:
            response = await self.respond(Request(scope, receive))
        response.headers.update(HEADERS)
        try:
            await response(scope, receive, send)
        finally:
            release = getattr(response, "release", None)
            if release is not None:  # a stream's place comes free when it ends,
                release()            # however it ends (a client gone, a restart, taken)

    def _not_found(self) -> Response:
        return PlainTextResponse("Not Found", status_code=404, headers=NO_STORE)

    async def respond(self, request: Request) -> Response:
        parts = request.url.path.split("/")
        # "/SECRET/rest": a wrong or missing secret is 404 for every path and method,
        # so nothing tells a scanner that a companion listens here
        if len(parts) < 2 or parts[0] != "":
            return self._not_found()
        seat: str | None = None  # a seat page's token (issue 41, V-3) in place of the secret
        if not _secrets.compare_digest(parts[1].encode("utf-8", "surrogateescape"), self.secret.encode()):
            if self.board.seat_snapshot(parts[1]) is None:  # renewed, or never one: like any wrong secret
                return self._not_found()
            seat = parts[1]
        if request.method not in ("GET", "HEAD"):
            return PlainTextResponse("Method Not Allowed: the page only looks (V-2)", status_code=405,
                                     headers={"Allow": "GET, HEAD", **NO_STORE})
        rest = "/".join(parts[2:])
        wanted = rest.rstrip("/").lower()
        if (len(parts) < 3 or rest != wanted) and wanted in PAGES:
            # "/SECRET", "/SECRET/tv/", "/SECRET/TV": typed on a TV's remote, they find the page
            return Response(status_code=308, headers={"Location": f"/{parts[1]}/{wanted}", **NO_STORE})
        if rest in PAGES:
            if seat is not None and rest == "":  # told the public address for its links (V-3)
                home = f'<meta name="scoreboard-home" content="/{self.secret}/">\n'.encode()
                page = self._seat_page.replace(b"</head>", home + b"</head>", 1)
            else:
                page = self._files[PAGES[rest]]
            return Response(page, media_type="text/html; charset=utf-8",
                            headers={"Cache-Control": "no-cache"})
        if rest.startswith("static/") and rest[7:] in ASSETS:
            return Response(self._files[rest[7:]], media_type=ASSETS[rest[7:]],
                            headers={"Cache-Control": "no-cache"})
        if rest == "state.json":
            tag, text = self._snapshot(seat) or self.board.snapshot()
            return Response(text, media_type="application/json", headers={"ETag": f'"{tag}"', **NO_STORE})
        if rest == "events":
            if request.method == "HEAD":  # its headers only: no body, so it holds no stream's place
                return Response(b"", media_type="text/event-stream", headers=NO_STORE)
            return self._stream(request, seat)
        if rest == "history.json":
            return await self._history()
        if rest in ("players.json", "players-evening.json"):
            scope = "evening" if rest == "players-evening.json" else "all"
            return await self._json(lambda j: public.players_view(j, scope), "the players")
        m = re.fullmatch(r"chart/(\d{1,12})\.svg", rest)
        if m:
            return await self._chart(int(m.group(1)))
        m = re.fullmatch(r"export/(\d{1,12})\.(json|csv|png)", rest)
        if m:
            return await self._export(int(m.group(1)), m.group(2))
        return self._not_found()

    # ------------------------------------------------------------ the stream

    def _snapshot(self, seat: str | None) -> tuple[str, str] | None:
        """What page ``seat`` shows (the public page's for None); None once a seat's
        address has ended."""
        if seat is None:
            return self.board.snapshot()
        return self.board.seat_snapshot(seat)

    def knows(self, first: str) -> bool:
        """Whether ``first`` (an address's first segment) is the secret or a live seat's
        token: its sender is one of the table's (hardware/web_server.py keeps its
        connections before a stranger's, issue 47)."""
        if _secrets.compare_digest(first.encode("utf-8", "surrogateescape"), self.secret.encode()):
            return True
        return self.board.seat_snapshot(first) is not None  # a seat's address that still answers

    def _take_place(self, peer: str) -> bool:
        """Every stream's place is taken: the newest stream of the peer holding the
        most ends, if that peer holds more than ``peer`` does (issue 47: a browser
        needs one stream, so a phone or a TV always gets its own, whatever one
        guest holds). False if no peer holds more."""
        count: dict[str, int] = {}
        for h in self._held:
            count[h.peer] = count.get(h.peer, 0) + 1
        top = max(count.values(), default=0)
        if top <= count.get(peer, 0):
            return False
        victim = max((h for h in self._held if count[h.peer] == top), key=lambda h: h.since)
        victim.taken = True
        self._release(victim)
        if victim.abort is not None:
            victim.abort()  # at once, even if it is stuck writing to a reader that stopped
        else:
            self._wake()
        return True

    def _release(self, held: "_Held") -> None:
        if held in self._held:
            self._held.remove(held)
            self.streams -= 1

    def _stream(self, request: Request, seat: str | None = None) -> Response:
        peer = peer_of(request.client.host if request.client else "")
        if self.streams >= self.max_clients and not self._take_place(peer):
            return PlainTextResponse("Service Unavailable: too many pages open", status_code=503,
                                     headers={"Retry-After": "10", **NO_STORE})
        last = request.headers.get("last-event-id", "")
        abort = request.scope.get("extensions", {}).get("companion.abort")
        held = _Held(peer, abort)
        self._held.append(held)
        self.streams += 1
        generation, secret = self.generation, self.secret

        async def events():
            yield f"retry: {RETRY_MS}\n\n"
            sent = last
            while generation == self.generation and not held.taken:
                if seat is None:
                    tag, text = self.board.snapshot()
                else:  # a seat's page: an undo to before the draw or a renewal ends it (V-3)
                    snap = self.board.seat_snapshot(seat)
                    if snap is None:
                        yield 'event: gone\ndata: {"reason":"seat"}\n\n'
                        return
                    tag, text = snap
                if tag != sent:
                    # an update's id is the tag of what the page shows (the journal's seq and
                    # the text's digest, issue 37): a reconnect (Last-Event-ID) gets the
                    # newest state at once if the page missed any, whatever changed
                    yield f"id: {tag}\nevent: state\ndata: {text}\n\n"
                    sent = tag
                changed = self._changed
                assert changed is not None
                try:
                    await asyncio.wait_for(changed.wait(), timeout=self.ping_s)
                except asyncio.TimeoutError:
                    yield _PING  # padded: a reader that stopped is found out, idle game or not
            if held.taken:  # a newcomer has its place: come back later, not at once
                yield f"retry: {TAKEN_RETRY_MS}\n\n"
            elif generation != self.generation and (self.secret != secret or seat is not None):
                yield "event: gone\ndata: {}\n\n"  # the secret was renewed: the page says so

        response = StreamingResponse(events(), media_type="text/event-stream",
                                     headers={"X-Accel-Buffering": "no", "Connection": "close", **NO_STORE})
        response.release = lambda: self._release(held)  # type: ignore[attr-defined]
        return response

    # ------------------------------------------------------------ history and downloads

    def _read(self, fn: Callable[[Any], Any]) -> Any:
        if self.journal_path is None:
            raise LookupError("no journal")
        with Journal(self.journal_path, read_only=True) as j:
            return fn(j)

    async def _history(self) -> Response:

        def read(j) -> list[dict[str, Any]]:
            out = []
            for info in j.sessions():  # newest first, as export.summaries
                key = (info, language())
                known = self._history_lines.get(info.id)
                if known is None or known[0] != key:
                    s = export.session_summary(j, info)
                    hidden = public.holds_hidden(j, info)
                    known = (key, {"id": s.shown, "number": s.shown, "date": s.date, "game": s.game,
                                   "title": title_of(s.game), "players": list(s.players),
                                   "scores": list(s.scores) if not s.error else [],
                                   "result": page.summary_result(s),
                                   "over": bool(s.ended), "hidden": hidden,
                                   **public.history_extra(j, info, s),
                                   "files": {f: download_file(s.game, s.shown, f) for f in ("json", "csv", "png")}})
                    self._history_lines[info.id] = known
                out.append(known[1])
            return out
        try:
            items = await run_in_threadpool(self._read, read)
        except Exception as e:  # a journal that cannot be read is said, the page stays up
            return PlainTextResponse(f"the history cannot be read: {type(e).__name__}", status_code=503,
                                     headers=NO_STORE)
        body = {"lang": language(), "labels": public.labels(), "games": items}
        return Response(json.dumps(body, ensure_ascii=False), media_type="application/json", headers=NO_STORE)

    async def _json(self, fn: Callable[[Any], Any], what: str) -> Response:
        try:
            body = await run_in_threadpool(self._read, fn)
        except Exception as e:  # a journal that cannot be read is said, the page stays up
            return PlainTextResponse(f"{what} cannot be read: {type(e).__name__}", status_code=503, headers=NO_STORE)
        return Response(json.dumps(body, ensure_ascii=False), media_type="application/json", headers=NO_STORE)

    async def _chart(self, number: int) -> Response:
        """Game ``#number``'s chart (issue 50): 404 while it is not over (V-1)."""
        try:
            data = await run_in_threadpool(self._read, lambda j: public.chart_svg(j, number))
        except KeyError:
            return self._not_found()
        except Exception as e:
            return PlainTextResponse(f"this chart cannot be drawn: {type(e).__name__}", status_code=503,
                                     headers=NO_STORE)
        if data is None:
            return self._not_found()
        return Response(data, media_type="image/svg+xml", headers=NO_STORE)

    async def _export(self, sid: int, fmt: str) -> Response:
        """Session ``#sid`` as the table numbers it (``Journal.number``)."""
        try:
            data = await run_in_threadpool(self._read, lambda j: public.export(j, sid, fmt))
        except KeyError:
            return self._not_found()
        except public.HiddenInformation as e:  # V-1: an unfinished game that holds a secret color
            return PlainTextResponse(str(e), status_code=403, headers=NO_STORE)
        except Exception as e:
            return PlainTextResponse(f"this game cannot be exported: {type(e).__name__}", status_code=503,
                                     headers=NO_STORE)
        media = {"json": "application/json", "csv": "text/csv; charset=utf-8", "png": "image/png"}[fmt]
        name = await run_in_threadpool(self._read, lambda j: download_name(j, sid, fmt))
        return Response(data, media_type=media,
                        headers={"Content-Disposition": f'attachment; filename="{name}"', **NO_STORE})
