"""The scoreboard page's server (issue 32): uvicorn on a thread of its own.

``WebServer(app, host, port).start()`` serves ``companion.web.WebApp`` on its
own event loop and thread, so the button loop never waits for it. Its limits
are uvicorn's settings where uvicorn has one (``limit_concurrency``: the
connection past it gets 503; ``timeout_keep_alive``: idle connections close;
``h11_max_incomplete_event_size``: a request line and headers larger than
``MAX_HEADER_BYTES`` get 400) and this module's where it has none: a client
that has not sent its request's headers within ``HEADER_TIMEOUT_S`` of
connecting (or of its last response) is dropped, whatever it trickles
(slowloris); a stream that cannot write for ``WRITE_TIMEOUT_S`` is ended.

A failing server never stops the device: the port taken, a crash, anything
uvicorn raises is said once (``on_fault(message)``, for the OLED's status
and systemd's) and the server starts again after a back-off that doubles from
``RETRY_FIRST_S`` to ``RETRY_MAX_S``. ``state`` says what it is doing:
``starting``, ``serving``, ``retrying`` or ``stopped``; ``last_error`` why.
"""
from __future__ import annotations

import asyncio
import logging
import os
import socket
import subprocess
import threading
import time
from typing import Any, Callable

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from companion import page_secret
from companion.page_secret import device_secret
from companion.web import Board, WebApp

HEADER_TIMEOUT_S = 10.0     # a request's line and headers must be in by then
WRITE_TIMEOUT_S = 10.0      # a stream whose client does not read for this long is ended
KEEP_ALIVE_S = 15           # an idle keep-alive connection is closed after this
MAX_HEADER_BYTES = 8192     # request line + headers (companion.web refuses larger that come at once)
SPARE_CONNECTIONS = 16      # connections beyond the streams' limit, for pages and downloads
RETRY_FIRST_S = 1.0
RETRY_MAX_S = 60.0

log = logging.getLogger("companion.web")


class _Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline on each request's headers."""

    _deadline: asyncio.TimerHandle | None = None
    _seen: Any = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._seen = self.cycle
        self._deadline = self.loop.call_later(HEADER_TIMEOUT_S, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.cycle is self._seen and not self.transport.is_closing():
            self.transport.close()  # its headers never came: a slowloris, or a dead client

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.cycle is not self._seen:
            self._disarm()  # a request's headers are in

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)


class _TimedSend:
    """An ASGI app wrapper: a ``send`` that does not complete within
    ``WRITE_TIMEOUT_S`` (a client that stopped reading) ends the response."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def timed(message) -> None:
            await asyncio.wait_for(send(message), timeout=WRITE_TIMEOUT_S)
        await self.app(scope, receive, timed)


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


class WebServer:
    """Serves ``app`` (an ASGI app) on ``host:port`` from its own thread; see the module docstring."""

    def __init__(self, app, host: str, port: int, *, max_clients: int = 32, fd: int | None = None,
                 on_fault: Callable[[str], None] | None = None, sleep: Callable[[float], bool] | None = None):
        self.app = app
        self.host = host
        self.port = port
        self.fd = fd  # a listening socket systemd handed over (companion.socket): served instead of host:port
        self.max_clients = max_clients
        self.on_fault = on_fault or (lambda message: None)
        self.state = "stopped"
        self.last_error = ""
        self.faults = 0
        self.started = threading.Event()  # set once it serves (tests, the simulator's address)
        self._stop = threading.Event()
        self._sleep = sleep or self._stop.wait
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def config(self) -> uvicorn.Config:
        where: dict[str, Any] = {"fd": self.fd} if self.fd is not None else {"host": self.host, "port": self.port}
        return uvicorn.Config(
            _TimedSend(self.app), **where, http=_Protocol, ws="none",
            lifespan="on", log_level="warning", access_log=False, server_header=False, date_header=False,
            limit_concurrency=self.max_clients + SPARE_CONNECTIONS, timeout_keep_alive=KEEP_ALIVE_S,
            h11_max_incomplete_event_size=MAX_HEADER_BYTES, timeout_graceful_shutdown=1,
            proxy_headers=False)

    def start(self) -> "WebServer":
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
            if time.monotonic() - began > RETRY_MAX_S:
                delay = RETRY_FIRST_S  # it served a good while: start the back-off again
            if self._sleep(delay):
                break
            delay = min(delay * 2, RETRY_MAX_S)
        self.state = "stopped"

    async def _serve(self, server: uvicorn.Server) -> None:
        task = asyncio.ensure_future(server.serve())
        while not task.done() and not server.started:
            await asyncio.sleep(0.02)
        if server.started:
            self.state = "serving"
            self.started.set()
        await task


# ---------------------------------------------------------------- the page as the app sees it


SD_LISTEN_FDS_START = 3


def systemd_socket() -> int | None:
    """The listening socket systemd passed (socket activation, companion.socket), or None."""
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
    press by the loop), its ``WebApp`` and its ``WebServer``. It is the app's
    ``app.web`` (``companion.ui.join.PageLink``): ``address``, ``problem`` and
    ``renew(app)``. ``on_fault(message)`` hears a failure once (the OLED's
    message, systemd's status); the game goes on whatever the server does."""

    def __init__(self, app, *, simulator: bool, on_fault: Callable[[str], None] | None = None):
        s = app.settings
        secret = device_secret(app)  # the user's, else the device's own in its state directory (0600)
        self.board = Board()
        self.webapp = WebApp(self.board, app.journal.path, secret, max_clients=s.web_clients)
        self.host = listen_host(s.web, simulator=simulator)
        self.port = s.web_port
        fd = None if simulator else systemd_socket()
        if fd is not None:  # the service: the socket unit says where (docs/web.md)
            with socket.socket(fileno=os.dup(fd)) as sock:
                self.host, self.port = sock.getsockname()[:2]
        self.server = WebServer(self.webapp, self.host, self.port, max_clients=s.web_clients, fd=fd,
                                on_fault=on_fault)
        self._shown_host: str | None = None

    @property
    def address(self) -> str:
        if self._shown_host is None:  # asked once, when the QR screen or the simulator shows it
            wide = self.host in ("0.0.0.0", "::")
            self._shown_host = (lan_address() or socket.gethostname()) if wide else self.host
        host = f"[{self._shown_host}]" if ":" in self._shown_host else self._shown_host
        return f"http://{host}:{self.port}/{self.webapp.secret}/"

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
        return self.address.replace(f"/{self.webapp.secret}/", f"/{token}/")

    def renew(self, app) -> None:
        """A new secret: kept in the state directory, and every open page ends (their old
        address answers 404), seat pages too (V-3)."""
        secret = page_secret.renew(app)
        self.board.end_seats()  # every seat's address ends with the device's (V-3)
        self.webapp.renew(secret)

    def start(self, loop) -> "PageService":
        loop.watchers.append(self.board.publish)
        self.server.start()
        return self

    def close(self) -> None:
        self.server.close()
