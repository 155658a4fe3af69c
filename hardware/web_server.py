"""The scoreboard page's server (issues 32, 38): uvicorn on a thread of its own,
in a process of its own.

``WebServer(app, host, port).start()`` serves ``companion.web.WebApp`` on its
own event loop and thread, so the button loop never waits for it. Its limits
are uvicorn's settings where uvicorn has one (``timeout_keep_alive``: idle
connections close; ``h11_max_incomplete_event_size``: a request line and
headers larger than ``MAX_HEADER_BYTES`` get 400) and this module's where it
has none (issue 38, docs/web.md's threat model):

* connections: at most ``max_clients + SPARE_CONNECTIONS`` at once and
  ``PER_PEER`` from one peer (an address; an IPv6 one by its /64, issue 47).
  A peer that showed the secret or a seat's token within ``TRUST_S`` is the
  table's; the others are strangers, and together they hold at most all but
  ``1/RESERVED`` of the connections. A connection past a limit takes the place
  of the oldest *idle* one (no whole request in: it waits for headers, or sits
  between requests) of the peer that holds the most, its own first; the
  table's are never put out for a stranger's, and a stranger's fresh
  connection not for another stranger's within ``GRACE_S``. A newcomer is
  known as the table's before its first byte is parsed if its request, read
  ahead (``MSG_PEEK``), starts with the secret. With no room it waits,
  unanswered and unread by the parser, up to ``PARK_S`` for its request (a
  request with the secret then gets room; anything else is closed without a
  word): closed at once, a siege's connections came straight back and filled
  the kernel's queue ahead of a phone's. A stream or a request being answered
  is never put out for a newcomer.
* a client that has not sent its request's headers within ``HEADER_TIMEOUT_S``
  of connecting (or of its last response), ``BUSY_HEADER_TIMEOUT_S`` when the
  server is more than half full, is dropped, whatever it trickles (slowloris);
* a response that cannot write for ``WRITE_TIMEOUT_S`` is ended, and what a
  connection may queue is bounded (``SEND_BUFFER`` in the kernel and as much
  in the event loop): a stream whose reader stops is ended, not fed;
* a request with both Content-Length and Transfer-Encoding (RFC 9112 6.3),
  or a folded header line (obs-fold, RFC 9112 5.2), gets 400 and the
  connection closes; an encoded slash (``%2F``) in the path gets the bare 404
  of any unknown path, before any routing (issue 47);
* every answer the server gives of its own (400, 431, 500) is as bare as the
  page's 404: the same headers, the status's reason as the whole body; what
  bad requests write to the log is rate-limited (``LOG_BURST`` lines, then
  one every ``LOG_EVERY_S``); a client that stops reading or goes away
  mid-response is one line, never a traceback.

A failing server never stops the device: the port taken, a crash, anything
uvicorn raises is said once (``on_fault(message)``, for the OLED's status
and systemd's) and the server starts again after a back-off that doubles from
``RETRY_FIRST_S`` to ``RETRY_MAX_S``. ``state`` says what it is doing:
``starting``, ``serving``, ``retrying`` or ``stopped``; ``last_error`` why.

``PageProcess`` runs that server in the page's own process
(``hardware/web_child.py``, nice 10) and hands it each new
projection of the device's ``Board``; under systemd the page's own unit
connects to it over a Unix socket instead (``channel``). ``PageService`` is
the page as the app sees it.
"""
from __future__ import annotations

import asyncio
import functools
import http
import json
import logging
import os
import random
import re
import resource
import socket
import subprocess
import sys
import threading
import time
from typing import Any, Callable

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from companion import page_secret
from companion.page_secret import device_secret
from companion.web import HEADERS, NO_STORE, Board, WebApp, peer_of

HEADER_TIMEOUT_S = 10.0     # a request's line and headers must be in by then
WRITE_TIMEOUT_S = 10.0      # a stream whose client does not read for this long is ended
KEEP_ALIVE_S = 15           # an idle keep-alive connection is closed after this
MAX_HEADER_BYTES = 8192     # request line + headers (companion.web refuses larger that come at once)
SPARE_CONNECTIONS = 16      # connections beyond the streams' limit, for pages and downloads
PER_PEER = 10               # connections one address may hold (a phone needs 2 to 7: its page, files, stream)
BUSY_HEADER_TIMEOUT_S = 2.0  # the headers' deadline when the server is more than half full
SEND_BUFFER = 16384         # what one connection may queue, in the kernel and again in the event loop
LOG_BURST = 5               # bad requests' log lines at once, then one every LOG_EVERY_S
LOG_EVERY_S = 60.0
RETRY_FIRST_S = 1.0
RETRY_MAX_S = 60.0
TRUST_S = 600.0             # a peer that showed the secret (or a seat's token) this recently is the table's
RESERVED = 3                # strangers (the others) hold at most all but 1/RESERVED of the connections
PEEK_BYTES = 512            # what is read ahead of a newcomer's request when the server is full
PARK_S = 30.0               # a newcomer without room waits up to this long (from half of it), unanswered
PARK_MAX = 4096             # newcomers waiting so at most (and a quarter of the open files' limit
                            # left free); past that one is closed at once
GRACE_S = 1.0               # a fresh connection's time to send its request before it can be put out
TRUSTED_KEPT = 1024         # addresses remembered at most (the oldest forgotten first)

log = logging.getLogger("companion.web")
requests_log = logging.getLogger("companion.web.requests")  # bad requests and failed handlers: rate-limited


class RateLimit(logging.Filter):
    """Lets ``burst`` records through, then one every ``every`` seconds; the next
    one let through says how many were left out. A flood of bad requests
    writes a few lines, not megabytes to the SD card."""

    def __init__(self, burst: int = LOG_BURST, every: float = LOG_EVERY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.burst, self.every, self.clock = burst, every, clock
        self.tokens = float(burst)
        self.last = clock()
        self.dropped = 0
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        with self._lock:
            now = self.clock()
            self.tokens = min(float(self.burst), self.tokens + (now - self.last) / self.every)
            self.last = now
            if self.tokens < 1:
                self.dropped += 1
                return False
            self.tokens -= 1
            if self.dropped:
                record.msg = f"{record.msg} ({self.dropped} more like it not logged)"
                self.dropped = 0
            if record.exc_info and self.tokens < self.burst - 1:
                record.exc_info = None  # one traceback per burst is enough
                record.exc_text = None
            return True


_LIMIT = RateLimit()


def limit_logs() -> None:
    """Rate-limit what uvicorn's and this server's request errors write, in one
    budget for both (idempotent)."""
    for name in ("uvicorn.error", "companion.web.requests"):
        logger = logging.getLogger(name)
        if _LIMIT not in logger.filters:
            logger.addFilter(_LIMIT)


def _reason(status: int) -> bytes:
    return http.HTTPStatus(status).phrase.encode()


def bare(status: int, *, close: bool = False) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of an answer the server gives of its own: the same
    shape as the page's 404 (``companion.web.HEADERS``, no-store, the reason
    as the body), so that none of them tells more than the 404 does."""
    body = _reason(status)
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    headers += [(k.lower().encode(), v.encode()) for k, v in {**NO_STORE, **HEADERS}.items()]
    if close:
        headers.append((b"connection", b"close"))
    return headers, body


_FOLD = re.compile(rb"\n[ \t]")


def _park_room() -> int:
    """How many newcomers may wait (``_Protocol._park``): ``PARK_MAX``, and never more
    than three quarters of this process's open files' limit (a full table of files
    would stop every accept, a phone's too)."""
    try:
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (OSError, ValueError):
        return 0
    return PARK_MAX if soft == resource.RLIM_INFINITY else min(PARK_MAX, soft * 3 // 4 - 64)


def more_files(n: int = 8192) -> None:
    """This process's open files' soft limit raised towards ``n`` (within the hard
    limit; systemd's default soft limit is 1024): room for newcomers to wait."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = n if hard == resource.RLIM_INFINITY else min(n, hard)
        if soft != resource.RLIM_INFINITY and soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    except (OSError, ValueError):
        pass


class _Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline on each request's headers,
    a share of the connections per address and bare 400s (module docstring)."""

    _deadline: asyncio.TimerHandle | None = None
    _seen: Any = None
    _peer = ""    # what it counts as (``companion.web.peer_of``: an IPv6 address by its /64)
    _addr = ""    # its own address: what the table's trust is kept by
    _since = 0.0
    _idle = True  # no whole request in since it connected or since its last response
    _first = True  # no request yet: in its grace (GRACE_S) it is not put out for a newcomer
    _tail = b""   # the end of the headers' bytes so far (a fold across two reads)
    _parked = False  # no room when it came: it waits for its request (``_park``), neither counted nor served

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._addr = self.client[0] if self.client else ""
        self._peer = peer_of(self._addr)
        self._since = time.monotonic()
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
            except OSError:
                pass
        transport.set_write_buffer_limits(high=SEND_BUFFER)
        if not self._admit():
            self._park()  # no room, and nobody idle to give it up: it waits, unanswered
            return
        self._served().add(self)
        self._arm()

    def _park(self) -> None:
        """No room for it now: it waits ``PARK_S`` for its request, unanswered, and is
        closed without a word after that (or at once past ``PARK_MAX`` waiting). A
        request that shows the secret then gets room (``data_received``). Closed at
        once, a siege's connection came back at once, and a phone's waited behind
        thousands of them in the kernel's queue; waiting, they do not come back."""
        parked: set[_Protocol] = getattr(self.config, "companion_parked", set())
        if len(parked) >= _park_room():
            self.transport.close()
            return
        self._parked = True
        parked.add(self)
        self._disarm()
        # spread over half of PARK_S: a siege's connections do not all come back at once
        self._deadline = self.loop.call_later(PARK_S * (0.5 + random.random() / 2), self.transport.close)

    def _unpark(self) -> None:
        if self._parked:
            self._parked = False
            getattr(self.config, "companion_parked", set()).discard(self)
            self._disarm()

    # ------------------------------------------------------------ connections' shares

    def _limit(self) -> int:
        return int(getattr(self.config, "companion_limit", 48))

    def _open(self) -> list["_Protocol"]:
        return [c for c in self._served() if c is not self and not c.transport.is_closing()]

    def _served(self) -> set["_Protocol"]:
        """The connections given room (not those waiting: they may be thousands, and
        every newcomer looks at each of these)."""
        served = getattr(self.config, "companion_served", None)
        if served is None:
            served = self.config.companion_served = set()  # type: ignore[attr-defined]
        return served

    def _trusted(self, now: float) -> bool:
        """Its address showed the secret or a seat's token within ``TRUST_S``."""
        seen = getattr(self.config, "companion_trusted", {}).get(self._addr)
        return seen is not None and now - seen < TRUST_S

    def _shows_secret(self, ahead: bytes | None = None) -> bool:
        """Whether what it has sent so far (``ahead``, else read ahead and left for the
        parser) is a request whose path starts with the secret or a seat's token; its
        address is then the table's (``_TimedSend.knows``)."""
        guard = getattr(self.config, "companion_guard", None)
        if guard is None:
            return False
        if ahead is None:
            sock = self.transport.get_extra_info("socket")
            if sock is None:
                return False
            try:
                with sock.dup() as peek:
                    ahead = peek.recv(PEEK_BYTES, socket.MSG_PEEK | socket.MSG_DONTWAIT)
            except OSError:
                return False
        line = ahead.split(b"\r\n", 1)[0].split(b" ")
        if len(line) < 2 or not guard.knows(line[1].split(b"?", 1)[0], self._addr):
            return False
        return True

    def _in_grace(self, now: float) -> bool:
        return self._first and now - self._since < GRACE_S

    def _admit(self, ahead: bytes | None = None) -> bool:
        """Room for this connection, or False (module docstring). The table's
        connections (``_trusted``, or one whose request, read ahead, shows the secret)
        are never put out for a stranger's, and strangers hold at most all but
        ``1/RESERVED`` of them together; a stranger's fresh connection is not put out
        for another stranger's within its grace (``GRACE_S``): a newcomer is refused instead."""
        now = time.monotonic()
        others = self._open()
        ours = {c: c._trusted(now) for c in others}
        me = self._trusted(now)
        limit = self._limit()
        strangers = [c for c in others if not ours[c]]
        if not me and (len(strangers) >= limit - limit // RESERVED or len(others) >= limit):
            me = self._shows_secret(ahead)  # its request may be in already: a phone's is, a siege's never

        def may_go(c: "_Protocol") -> bool:  # idle, and not the table's for a stranger
            return c._idle and (me or not ours[c])

        def heaviest(pool: list["_Protocol"]) -> "_Protocol | None":  # the oldest of the address holding most
            count: dict[str, int] = {}
            for c in others:
                count[c._peer] = count.get(c._peer, 0) + 1
            return max(pool, key=lambda c: (count[c._peer], -c._since), default=None)

        def put_out(victim: "_Protocol | None") -> bool:
            if victim is None:
                return False
            victim.transport.close()
            others.remove(victim)
            return True

        per_peer = int(getattr(self.config, "companion_per_peer", PER_PEER))
        mine = [c for c in others if c._peer == self._peer]
        if len(mine) >= per_peer:  # this address has its share: its own oldest idle one goes, a stranger's first
            if not put_out(min((c for c in mine if may_go(c) and not c._in_grace(now)),
                               key=lambda c: (ours[c], c._since), default=None)):
                return False
        strangers = [c for c in strangers if c in others]
        if not me:  # a stranger: only a stranger's idle connection past its grace may go
            if len(strangers) >= limit - limit // RESERVED or len(others) >= limit:
                return put_out(heaviest([c for c in strangers if c._idle and not c._in_grace(now)]))
            return True
        if len(others) >= limit:  # the table's: a stranger's idle one goes (even fresh), else the table's own
            idle = [c for c in strangers if c._idle]
            return put_out(heaviest([c for c in idle if not c._in_grace(now)])
                           or min(idle, key=lambda c: c._since, default=None)
                           or heaviest([c for c in others if c._idle and not c._in_grace(now)]))
        return True

    # ------------------------------------------------------------ the headers' deadline

    def _arm(self) -> None:
        self._disarm()
        self._seen = self.cycle
        self._idle = True
        busy = len(self._open()) * 2 > self._limit()
        self._deadline = self.loop.call_later(BUSY_HEADER_TIMEOUT_S if busy else HEADER_TIMEOUT_S,
                                              self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.cycle is self._seen and not self.transport.is_closing():
            self.transport.close()  # its headers never came: a slowloris, or a dead client

    def data_received(self, data: bytes) -> None:
        if self._parked:  # its request came: room now if it shows the secret (or if some came free)
            self._unpark()
            if not self._admit(data[:PEEK_BYTES]):
                self.transport.close()
                return
            self._served().add(self)
            self._arm()
        if self._folded(data):  # RFC 9112 5.2: a folded header line is refused
            requests_log.warning("scoreboard page: a request with a folded header line")
            self.send_400_response("obs-fold")
            return
        super().data_received(data)
        if self.cycle is not self._seen:
            self._idle = False
            self._first = False
            self._disarm()  # a request's headers are in
            if self.cycle is not None:  # its app has not run yet: it may end the connection at once
                ext: dict[str, Any] = self.cycle.scope.setdefault("extensions", {})
                ext["companion.abort"] = self.transport.abort

    def _folded(self, data: bytes) -> bool:
        """Whether the headers coming in (before h11 has them whole) hold a line that
        starts with a space or a tab: an obs-fold, which h11 would join."""
        if self.conn.their_state is not h11.IDLE:
            self._tail = b""
            return False
        seen = self._tail + data
        end = seen.find(b"\r\n\r\n")
        head = seen if end < 0 else seen[:end]
        self._tail = seen[-3:] if end < 0 else b""
        return _FOLD.search(head) is not None

    def send_400_response(self, msg: str) -> None:
        """uvicorn's 400 for what the parser refuses, as bare as the 404 (``bare``)."""
        if self.conn.our_state not in (h11.IDLE, h11.SEND_RESPONSE):
            self.transport.close()
            return
        headers, body = bare(400, close=True)
        try:
            out = self.conn.send(h11.Response(status_code=400, headers=headers, reason=_reason(400)))
            out += self.conn.send(h11.Data(data=body)) + self.conn.send(h11.EndOfMessage())
            self.transport.write(out)
        except h11.LocalProtocolError:
            pass
        self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc) -> None:
        self._unpark()
        self._served().discard(self)
        self._disarm()
        super().connection_lost(exc)


class _TimedSend:
    """An ASGI app wrapper: a ``send`` that does not complete within
    ``WRITE_TIMEOUT_S`` (a client that stopped reading) ends the response; a
    request with both Content-Length and Transfer-Encoding gets a bare 400 and
    the connection closes; a handler that fails gets a bare 500, logged
    (rate-limited), and the server goes on."""

    def __init__(self, app, trusted: dict[str, float] | None = None) -> None:
        self.app = app
        self.trusted = {} if trusted is None else trusted  # address -> when it last showed the secret

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        names = {k for k, _v in scope.get("headers", ())}
        if b"content-length" in names and b"transfer-encoding" in names:  # RFC 9112 6.3: close after
            requests_log.warning("scoreboard page: a request with Content-Length and Transfer-Encoding")
            return await self._bare(send, 400, close=True)
        raw = scope.get("raw_path") or b""
        if b"%2f" in raw.lower():  # an encoded slash never routes: the bare 404 of any unknown path
            return await self._bare(send, 404, close=False)
        self.knows(raw, (scope.get("client") or ("",))[0])
        started = False

        async def timed(message) -> None:
            nonlocal started
            started = True
            await asyncio.wait_for(send(message), timeout=WRITE_TIMEOUT_S)
        try:
            await self.app(scope, receive, timed)
        except asyncio.TimeoutError:  # expected (a phone asleep, a guest that never reads): one line
            requests_log.warning("scoreboard page: a client stopped reading for %g s; its response ended",
                                 WRITE_TIMEOUT_S)
            abort = scope.get("extensions", {}).get("companion.abort")
            if abort is not None:
                abort()  # what was queued for it goes now, not when it reads again
                await asyncio.sleep(0)  # the server sees it gone: it adds no line of its own
        except asyncio.CancelledError:
            raise
        except OSError as e:
            if not started:
                raise
            requests_log.warning("scoreboard page: a client went away mid-response (%s)", type(e).__name__)
        except Exception as e:
            requests_log.error("scoreboard page: a request failed: %s: %s", type(e).__name__, e, exc_info=True)
            if started:
                raise
            await self._bare(send, 500, close=True)

    def knows(self, raw_path: bytes, addr: str) -> bool:
        """Whether ``raw_path`` starts with the secret or a live seat's token; if so,
        ``addr`` is the table's for ``TRUST_S`` (``_Protocol._admit``)."""
        knows = getattr(self.app, "knows", None)
        parts = raw_path.split(b"/", 2)
        if knows is None or not addr or len(parts) < 2 or parts[0] or not knows(parts[1].decode("latin-1")):
            return False
        if len(self.trusted) >= TRUSTED_KEPT and addr not in self.trusted:
            for old in sorted(self.trusted, key=self.trusted.__getitem__)[:TRUSTED_KEPT // 2]:
                del self.trusted[old]  # the longest unseen go
        self.trusted[addr] = time.monotonic()
        return True

    @staticmethod
    async def _bare(send, status: int, *, close: bool) -> None:
        headers, body = bare(status, close=close)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body, "more_body": False})


def port_free(host: str, port: int) -> str | None:
    """None if ``host:port`` can be bound now, else why not (``doctor``)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as e:
            return e.strerror or str(e)
    return None



def back_off(delay: float, began: float, sleep: Callable[[float], bool]) -> float | None:
    """Wait ``delay`` before a restart (1 s, 2 s, 4 s ... up to 60 s; back to 1 s after
    a good while served since ``began``) and return the next delay; None if
    ``sleep`` says to stop."""
    if time.monotonic() - began > RETRY_MAX_S:
        delay = RETRY_FIRST_S  # it served a good while: start the back-off again
    if sleep(delay):
        return None
    return min(delay * 2, RETRY_MAX_S)

class WebServer:
    """Serves ``app`` (an ASGI app) on ``host:port`` from its own thread; see the module docstring."""

    def __init__(self, app, host: str, port: int, *, max_clients: int = 32, fd: int | None = None,
                 on_fault: Callable[[str], None] | None = None, sleep: Callable[[float], bool] | None = None,
                 per_peer: int = PER_PEER):
        self.app = app
        self.per_peer = per_peer
        self.host = host
        self.port = port
        self.fd = fd  # a listening socket systemd handed over (socket activation, a unit of the owner's): served instead of host:port
        self.max_clients = max_clients
        self.on_fault = on_fault or (lambda message: None)
        self.state = "stopped"
        self.last_error = ""
        self.faults = 0
        self.started = threading.Event()  # set once it serves (tests, the simulator's address)
        self.trusted: dict[str, float] = {}  # the table's addresses (``_TimedSend._trust``), kept over restarts
        self._stop = threading.Event()
        self._sleep = sleep or self._stop.wait
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def config(self) -> uvicorn.Config:
        where: dict[str, Any] = {"fd": self.fd} if self.fd is not None else {"host": self.host, "port": self.port}
        limit_logs()
        guard = _TimedSend(self.app, self.trusted)
        config = uvicorn.Config(
            guard, **where, http=_Protocol, ws="none",
            lifespan="on", log_level="warning", access_log=False, server_header=False, date_header=False,
            limit_concurrency=None, timeout_keep_alive=KEEP_ALIVE_S,  # _Protocol shares the connections
            h11_max_incomplete_event_size=MAX_HEADER_BYTES, timeout_graceful_shutdown=1,
            proxy_headers=False)
        config.companion_limit = self.max_clients + SPARE_CONNECTIONS  # type: ignore[attr-defined]
        config.companion_per_peer = self.per_peer  # type: ignore[attr-defined]
        config.companion_trusted = self.trusted  # type: ignore[attr-defined]
        config.companion_guard = guard  # type: ignore[attr-defined]
        config.companion_parked = set()  # type: ignore[attr-defined]
        config.companion_served = set()  # type: ignore[attr-defined]
        return config

    def start(self) -> "WebServer":
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="companion-web", daemon=True)
        self._thread.start()
        return self

    def close(self, timeout: float = 3.0) -> None:
        self._stop.set()
        ending = getattr(self.app, "end_streams", None)
        if ending is not None:  # open streams end first, so that the shutdown waits for none
            ending()
        if self._server is not None:  # uvicorn looks at it every 0.1 s
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
        self.state = "stopped"

    def __enter__(self) -> "WebServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def _run(self) -> None:
        delay = RETRY_FIRST_S
        said = ""
        while not self._stop.is_set():
            self.state = "starting"
            self._server = uvicorn.Server(self.config())
            began = time.monotonic()
            error = ""
            try:
                asyncio.run(self._serve(self._server))
                if not self._stop.is_set():
                    error = "the server stopped" if self._server.started else f"port {self.port} cannot be opened"
            except (SystemExit, Exception) as e:  # uvicorn exits when it cannot bind
                error = f"{type(e).__name__}: {e}" if not isinstance(e, SystemExit) else \
                    f"port {self.port} on {self.host} cannot be opened (in use?)"
            self.started.clear()
            if self._stop.is_set():
                break
            self.faults += 1
            self.last_error = error or "the server stopped"
            self.state = "retrying"
            if self.last_error != said:  # said once, not at every retry
                said = self.last_error
                log.warning("scoreboard page: %s; trying again", self.last_error)
                try:
                    self.on_fault(f"page: {self.last_error}")
                except Exception:
                    pass
            later = back_off(delay, began, self._sleep)
            if later is None:
                break
            delay = later
        self.state = "stopped"

    async def _serve(self, server: uvicorn.Server) -> None:
        task = asyncio.ensure_future(server.serve())
        while not task.done() and not server.started:
            await asyncio.sleep(0.02)
        if server.started:
            self.state = "serving"
            self.started.set()
        await task


# ---------------------------------------------------------------- the page's own process


def _running(proc) -> bool:
    return proc.poll() is None


class PageProcess:
    """The page served from a process of its own (``hardware.web_child``), so
    that nothing a guest sends takes the device's interpreter (issue 38): the
    device only hands each new projection over, on a thread of its own
    (``Board.listen``: the loop's thread only sets a flag), newest first, no
    backlog. The same face as ``WebServer`` (``start``, ``close``, ``started``,
    ``state``, ``last_error``, ``faults``) plus ``renew(secret)``.

    A page process that ends (a crash, killed, out of memory) is said once
    (``on_fault``) and started again after a back-off that doubles from
    ``RETRY_FIRST_S`` to ``RETRY_MAX_S``; the game goes on meanwhile. The
    server's own faults inside it (a port taken) come over its stdout and are
    said the same way."""

    def __init__(self, board, journal_path: str | None, secret: str, host: str, port: int, *,
                 max_clients: int = 32, fd: int | None = None,
                 on_fault: Callable[[str], None] | None = None,
                 sleep: Callable[[float], bool] | None = None, channel: str | None = None):
        self.board = board
        self.channel = channel  # a Unix socket the page's unit connects to (systemd), instead of a child
        self.journal_path = journal_path
        self.secret = secret
        self.host, self.port, self.fd = host, port, fd
        self.max_clients = max_clients
        self.on_fault = on_fault or (lambda message: None)
        self.state = "stopped"
        self.last_error = ""
        self.faults = 0
        self.connections = 0      # as the page process last said (bench/web.py waits for 0)
        self.streams = 0
        self.pid: int | None = None
        self.started = threading.Event()
        self._stop = threading.Event()
        self._sleep = sleep or self._stop.wait
        self._said = ""
        self._proc: Any = None
        self._thread: threading.Thread | None = None
        self._dirty = threading.Condition()
        self._pending_secret: str | None = None
        self._unlisten: Callable[[], None] | None = None

    # ------------------------------------------------------------ the device's side

    _sent = 0            # lines handed to the page's process, and those it said it has handled
    _acked = 0
    _have: Any = None    # (public tag, seat snapshots) last handed over

    def wait_synced(self, timeout: float = 5.0) -> bool:
        """Until the page's process has what the board holds now (tests and benchmarks
        that open a page right after a press; the device never waits for it)."""
        end = time.monotonic() + timeout
        get = getattr(self.board, "seat_snapshots", None)
        while time.monotonic() < end:
            now = (self.board.snapshot()[0], get() if get is not None else {})
            if self.started.is_set() and self._have == now and self._acked >= self._sent:
                return True
            time.sleep(0.005)
        return False

    def _poke(self) -> None:  # on the loop's thread: only a flag, the writer sends
        with self._dirty:
            self._dirty.notify()

    def renew(self, secret: str) -> None:
        self.secret = secret
        with self._dirty:
            self._pending_secret = secret
            self._dirty.notify()

    def start(self) -> "PageProcess":
        self._stop.clear()
        self._unlisten = self.board.listen(self._poke)
        self._thread = threading.Thread(target=self._run, name="companion-page", daemon=True)
        self._thread.start()
        return self

    def close(self, timeout: float = 3.0) -> None:
        self._stop.set()
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None
        with self._dirty:
            self._dirty.notify_all()
        proc = self._proc
        if proc is not None:
            try:
                proc.stdin.close()  # its end of input: it closes its streams and stops
            except OSError:
                pass
            try:
                proc.wait(timeout)
            except Exception:
                proc.kill()
                proc.wait(timeout)
        if self._thread is not None:
            self._thread.join(timeout)
        self.started.clear()
        self.state = "stopped"

    def __enter__(self) -> "PageProcess":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def _fault(self, error: str) -> None:
        self.faults += 1
        self.last_error = error
        if error != self._said:  # said once, not at every retry
            self._said = error
            log.warning("scoreboard page: %s; trying again", error)
            try:
                self.on_fault(f"page: {error}")
            except Exception:
                pass

    def _run(self) -> None:
        if self.channel is not None:
            return self._serve_channel(self.channel)
        delay = RETRY_FIRST_S
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(x for x in (root, env.get("PYTHONPATH", "")) if x)
        while not self._stop.is_set():
            self.state = "starting"
            began = time.monotonic()
            try:
                proc = subprocess.Popen(
                    [sys.executable, "-m", "hardware.web_child"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, text=True, env=env, close_fds=True,
                    pass_fds=(self.fd,) if self.fd is not None else ())
            except OSError as e:
                proc = None
                error = f"the page's process cannot start: {e}"
            if proc is not None:
                self._proc, self.pid = proc, proc.pid
                threading.Thread(target=self._relay_log, args=(proc,), name="companion-page-log",
                                 daemon=True).start()
                reader = threading.Thread(target=self._read, args=(proc.stdout,), name="companion-page-out",
                                          daemon=True)
                reader.start()
                self._write(proc.stdin, functools.partial(_running, proc))  # until it ends or the device closes it
                code = proc.wait()
                reader.join(2)
                self.started.clear()
                self._proc = None
                if self._stop.is_set():
                    break
                error = f"the page's process ended (exit code {code})"
            self.state = "retrying"
            self._fault(error)
            later = back_off(delay, began, self._sleep)
            if later is None:
                break
            delay = later
        self.state = "stopped"

    def _serve_channel(self, path: str) -> None:
        """Under systemd: the page is its own unit (companion-page.service, with the
        network this unit has not); it connects to ``path`` and gets what a child
        gets on its stdin. systemd restarts it (and backs off); a page that goes
        away is said once here."""
        try:
            os.unlink(path)
        except OSError:
            pass
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o077)  # only this user (the page's unit runs as it) may connect
        try:
            listener.bind(path)
        finally:
            os.umask(old)
        listener.listen(1)
        listener.settimeout(0.5)
        try:
            while not self._stop.is_set():
                self.state = "starting"
                try:
                    conn, _ = listener.accept()
                except socket.timeout:
                    continue
                except OSError as e:
                    self._fault(f"the page's channel failed: {e}")
                    if self._sleep(RETRY_FIRST_S):
                        break
                    continue
                conn.settimeout(None)
                with conn:
                    out = conn.makefile("w", encoding="utf-8")
                    inp = conn.makefile("r", encoding="utf-8")
                    reader = threading.Thread(target=self._read, args=(inp,), name="companion-page-out",
                                              daemon=True)
                    reader.start()
                    self._write(out, reader.is_alive)
                    try:
                        conn.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    reader.join(2)
                self.started.clear()
                if not self._stop.is_set():
                    self.state = "retrying"
                    self._fault("the page's process went away")
        finally:
            listener.close()
            try:
                os.unlink(path)
            except OSError:
                pass
            self.state = "stopped"

    def _write(self, out, alive: Callable[[], bool]) -> None:
        """Hands the config, then each newest projection (and a renewed secret) over."""
        self._sent = self._acked = 0

        def line(obj: dict[str, Any]) -> bool:
            try:
                out.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")
                out.flush()
                self._sent += 1
                return True
            except (OSError, ValueError):
                return False
        def seats() -> dict[str, tuple[str, str]]:
            get = getattr(self.board, "seat_snapshots", None)
            return get() if get is not None else {}
        tag, text = self.board.snapshot()
        sent_seats = seats()
        with self._dirty:
            self._pending_secret = None
        if not line({"secret": self.secret, "journal": self.journal_path, "host": self.host, "port": self.port,
                     "fd": self.fd, "clients": self.max_clients,
                     "snaps": [{"key": "public", "tag": tag, "text": text}],
                     "seats": {k: list(v) for k, v in sent_seats.items()}}):
            return
        sent = tag
        while not self._stop.is_set() and alive():
            with self._dirty:
                secret, self._pending_secret = self._pending_secret, None
                if secret is None and self.board.snapshot()[0] == sent and seats() == sent_seats:
                    self._dirty.wait(0.5)
                    secret, self._pending_secret = self._pending_secret, None
            if secret is not None and not line({"secret": secret}):
                return
            now = seats()  # the seat pages' snapshots (issue 41) before the public one that moves them
            if now != sent_seats:
                if not line({"seats": {k: list(v) for k, v in now.items()}}):
                    return
                sent_seats = now
            tag, text = self.board.snapshot()
            if tag != sent:
                if not line({"snap": {"key": "public", "tag": tag, "text": text}}):
                    return
                sent = tag
            self._have = (sent, sent_seats)

    def _read(self, stream) -> None:
        """What the page's process says: ``serving``, ``fault ...``, ``load C S``."""
        try:
            for raw in stream:
                word, _, rest = raw.rstrip("\n").partition(" ")
                if word == "serving":
                    self.state = "serving"
                    self.last_error = ""
                    self.started.set()
                elif word == "fault":
                    self.started.clear()
                    self._fault(rest.removeprefix("page: "))
                    self.state = "retrying"
                elif word == "ack":
                    try:
                        self._acked = int(rest)
                    except ValueError:
                        pass
                elif word == "load":
                    try:
                        self.connections, self.streams = (int(x) for x in rest.split())
                    except ValueError:
                        pass
        except (OSError, ValueError):  # the channel closed under it
            pass

    @staticmethod
    def _relay_log(proc) -> None:
        child = logging.getLogger("companion.web.page")
        for raw in proc.stderr:  # already rate-limited in the page process
            if raw.strip():
                child.warning("%s", raw.rstrip("\n"))


# ---------------------------------------------------------------- the page as the app sees it


SD_LISTEN_FDS_START = 3


def systemd_socket() -> int | None:
    """The listening socket systemd passed (socket activation: a socket unit of the owner's; the shipped units use none since issue 38), or None."""
    if os.environ.get("LISTEN_PID") != str(os.getpid()):
        return None
    try:
        n = int(os.environ.get("LISTEN_FDS", "0"))
    except ValueError:
        return None
    return SD_LISTEN_FDS_START if n >= 1 else None


def lan_address() -> str | None:
    """This machine's address on the local network (the first global IPv4
    address), for the page's address; None when it has none. Asks the
    system, sends nothing. Under the service, whose network is private, the
    unit writes the Pi's addresses to ``$COMPANION_ADDRESS_FILE`` first."""
    path = os.environ.get("COMPANION_ADDRESS_FILE")
    if path:
        try:
            with open(path, encoding="ascii", errors="replace") as f:
                for word in f.read().split():
                    if "." in word and not word.startswith("127."):
                        return word
        except OSError:
            pass
    try:
        out = subprocess.run(["ip", "-4", "-o", "addr", "show", "scope", "global"], capture_output=True,
                             text=True, timeout=2).stdout
    except (OSError, subprocess.SubprocessError):
        out = ""
    for line in out.splitlines():
        parts = line.split()
        if "inet" in parts:
            return parts[parts.index("inet") + 1].split("/")[0]
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            ip = str(info[4][0])
            if not ip.startswith("127."):
                return ip
    except OSError:
        pass
    return None


def listen_host(setting: str, *, simulator: bool) -> str:
    """Where the page listens: ``auto`` is the local network on the device
    (every IPv4 address) and loopback in the simulator; else the setting."""
    if setting == "auto":
        return "127.0.0.1" if simulator else "0.0.0.0"
    return setting


class PageService:
    """The scoreboard page of a running app: its ``Board`` (published after every
    press by the loop) and its server: by default a process of its own
    (``PageProcess``, issue 38), with ``process=False`` ``WebApp`` on a
    ``WebServer`` thread in this process (tests that look inside the server).
    It is the app's ``app.web`` (``companion.ui.join.PageLink``): ``address``,
    ``problem`` and ``renew(app)``. ``on_fault(message)`` hears a failure once
    (the OLED's message, systemd's status); the game goes on whatever the
    server does."""

    def __init__(self, app, *, simulator: bool, on_fault: Callable[[str], None] | None = None,
                 process: bool = True):
        s = app.settings
        secret = device_secret(app)  # the user's, else the device's own in its state directory (0600)
        self.secret = secret
        self.board = Board()
        self.host = listen_host(s.web, simulator=simulator)
        self.port = s.web_port
        fd = None if simulator else systemd_socket()
        if fd is not None:  # a socket unit of the owner's says where
            with socket.socket(fileno=os.dup(fd)) as sock:
                self.host, self.port = sock.getsockname()[:2]
        self.webapp: Any = None
        self.server: Any
        channel = None if simulator else os.environ.get("COMPANION_PAGE_SOCKET") or None
        if process:  # under systemd the page is a unit of its own that connects to the channel
            self.server = PageProcess(self.board, app.journal.path, secret, self.host, self.port,
                                      max_clients=s.web_clients, fd=fd, on_fault=on_fault, channel=channel)
        else:
            self.webapp = WebApp(self.board, app.journal.path, secret, max_clients=s.web_clients)
            self.server = WebServer(self.webapp, self.host, self.port, max_clients=s.web_clients, fd=fd,
                                    on_fault=on_fault)
        self._shown_host: str | None = None

    @property
    def address(self) -> str:
        if self._shown_host is None:  # asked once, when the QR screen or the simulator shows it
            wide = self.host in ("0.0.0.0", "::")
            self._shown_host = (lan_address() or socket.gethostname()) if wide else self.host
        host = f"[{self._shown_host}]" if ":" in self._shown_host else self._shown_host
        return f"http://{host}:{self.port}/{self.secret}/"

    @property
    def problem(self) -> str:
        return "" if self.server.state in ("serving", "starting") else self.server.last_error

    def seat_address(self, session, seat: int) -> str | None:
        """Seat ``seat``'s own page in ``session`` (issue 41, RULINGS V-3): the page's
        address with the seat's token in place of the device's secret, made on first
        use, in memory only; None if the device drew no color for that seat."""
        token = self.board.seats.token_for(session, seat, getattr(session, "number", None))
        if token is None:
            return None
        return self.address.replace(f"/{self.secret}/", f"/{token}/")

    def renew(self, app) -> None:
        """A new secret: kept in the state directory, and every open page ends (their old
        address answers 404), seat pages too (V-3), in the page's process as well."""
        secret = page_secret.renew(app)
        self.secret = secret
        self.board.end_seats()  # every seat's address ends with the device's (V-3)
        (self.webapp or self.server).renew(secret)

    def start(self, loop) -> "PageService":
        loop.watchers.append(self.board.publish)
        self.server.start()
        return self

    def close(self) -> None:
        self.server.close()
