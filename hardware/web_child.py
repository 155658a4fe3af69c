"""The scoreboard page's own process (issue 38): ``python -m hardware.web_child``.

The device's process (``hardware.web_server.PageProcess``) starts it after its
first frame and talks to it over the child's stdin, one JSON object a line.
Under systemd the page is a unit of its own (systemd/companion-page.service:
the network is there, the device's unit has none): ``--connect PATH`` then
reads the same lines from the device's Unix socket, and ``--enabled`` is its
``ExecCondition=`` (exit 1 when the settings say ``web = "off"``).

* first ``{"secret", "journal", "host", "port", "fd", "clients", "snaps"}``: where it
  listens (``fd``: a listening socket handed over, systemd's), the journal it
  reads (read-only, V-2) and the secret in every address (never on the command
  line: ``ps`` shows that to every user) and the projections as they are now;
* then ``{"snap": {"key": K, "tag": T, "text": X}}``: the newest projection
  of ``K`` (``"public"``: the page's), as ``Board.snapshot()`` made it in the
  device's process; only the newest matters, so the device sends no backlog;
* ``{"seats": {TOKEN: [T, X]}}``: every seat page's snapshot (issue 41),
  before the public one that moved them;
* ``{"secret": S}``: a renewal; old addresses answer 404 and open pages end
  at once (``WebApp.renew``).

Its stdout says ``serving``, ``fault MESSAGE`` (the server's own retries, said
once), ``ack N`` when it has handled the N-th line and ``load CONNECTIONS
STREAMS`` when those change; its log lines go to
stderr, rate-limited, and the device relays them to its log. The end of stdin
(the device gone or closing) stops it. It runs at a lower priority than the
device (``lower_priority``): whatever arrives, a press on the device comes first. It never writes to
the journal and never calls the app: it could not (V-2).
"""
from __future__ import annotations

import json
import logging
import os
import secrets
import socket
import sys
import threading
import time
from typing import Any

from companion.listeners import Listeners

NICE = 10  # the device's loop (nice 0) gets about nine times the page's share of a busy core


def lower_priority() -> str:
    """This process (and every thread it starts after) at a lower priority than
    the device (nice ``NICE``): a press on the device comes first, whatever the
    page is asked, and the page still gets its share when the machine is busy
    with other work (the idle class starved it then: a page's update waited for
    a moment when nothing else ran). Returns what it got."""
    try:
        os.nice(NICE)
        return f"nice {NICE}"
    except OSError:
        return "normal"


class Mirror(Listeners):
    """The device's projections as the child last heard them: the ``Board`` API
    that ``companion.web.WebApp`` reads (``snapshot``, ``listen``)."""

    def __init__(self) -> None:
        super().__init__()
        self._snaps: dict[str, tuple[str, str]] = {"public": ("0", "{}")}
        self._seats: dict[str, tuple[str, str]] = {}  # seat pages' (tag, text) by token

    def snapshot(self, key: str = "public") -> tuple[str, str]:
        with self._lock:
            return self._snaps[key]

    def seat_snapshot(self, token: str) -> tuple[str, str] | None:
        """As ``companion.web.Board.seat_snapshot``: every known token compared in
        constant time; None for a token that is not a seat's."""
        with self._lock:
            items = list(self._seats.items())
        raw = token.encode("utf-8", "surrogateescape")
        found = None
        for t, snap in items:
            if secrets.compare_digest(t.encode("ascii", "replace"), raw):
                found = snap
        return found

    def put_seats(self, seats: dict[str, Any]) -> None:
        snaps = {str(k): (str(v[0]), str(v[1])) for k, v in seats.items()}
        with self._lock:
            changed = snaps != self._seats
            self._seats = snaps
            listeners = list(self._listeners) if changed else []
        self._tell(listeners)

    def put(self, key: str, tag: str, text: str) -> None:
        with self._lock:
            changed = self._snaps.get(key) != (tag, text)
            self._snaps[key] = (tag, text)
            listeners = list(self._listeners) if changed else []
        self._tell(listeners)


_out: Any = sys.stdout


def _say(line: str) -> None:
    try:
        _out.write(line + "\n")
        _out.flush()
    except (OSError, ValueError):
        pass


def enabled() -> int:
    """``--enabled``: 0 if the settings turn the page on, 1 if ``web = "off"`` (the
    page unit's ``ExecCondition=``: off, the unit does not start and nothing listens)."""
    from companion.config import load_lenient  # only for the unit's condition: not the web stack
    settings, _path, _problems = load_lenient(None)
    return 1 if settings.web == "off" else 0


def _connect(path: str, timeout: float = 60.0):
    """``--connect PATH``: the device's channel (its unit makes it once its first frame is out)."""
    end = time.monotonic() + timeout
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
            return sock
        except OSError:
            sock.close()
            if time.monotonic() > end:
                raise
            time.sleep(0.5)


def main(argv: list[str] | None = None) -> int:
    global _out
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--enabled"]:
        return enabled()
    lower_priority()
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(message)s")
    source: Any = sys.stdin
    if argv[:1] == ["--connect"] and len(argv) > 1:
        sock = _connect(argv[1])
        source = sock.makefile("r", encoding="utf-8")
        _out = sock.makefile("w", encoding="utf-8")
    first = source.readline()
    if not first:
        return 0
    cfg: dict[str, Any] = json.loads(first)
    from companion.web import WebApp  # after the config line: --enabled must not load the web stack
    from hardware.web_server import WebServer, more_files  # same reason
    more_files()  # room for a siege's newcomers to wait unanswered (hardware/web_server.py's _park)
    board = Mirror()
    for s in cfg.get("snaps", ()):  # what the device shows now, before the first request
        board.put(str(s.get("key", "public")), str(s["tag"]), str(s["text"]))
    board.put_seats(cfg.get("seats") or {})
    app = WebApp(board, cfg.get("journal"), cfg["secret"], max_clients=int(cfg.get("clients", 32)))  # type: ignore[arg-type]
    server = WebServer(app, cfg.get("host", "127.0.0.1"), int(cfg.get("port", 0)),
                       max_clients=int(cfg.get("clients", 32)), fd=cfg.get("fd"),
                       on_fault=lambda message: _say(f"fault {message}"))
    server.start()
    done = threading.Event()

    def watch() -> None:  # "serving" once it serves; the connections and streams as they change
        said_serving = False
        last = None
        while not done.is_set():
            if server.started.is_set() and not said_serving:
                said_serving = True
                _say("serving")
            elif not server.started.is_set():
                said_serving = False
            inner = server._server
            conns = len(inner.server_state.connections) if inner is not None else 0
            now = (conns, app.streams)
            if now != last:
                last = now
                _say(f"load {conns} {app.streams}")
            time.sleep(0.05)
    threading.Thread(target=watch, name="page-watch", daemon=True).start()
    handled = 1
    _say("ack 1")
    for line in source:
        handled += 1
        try:
            msg = json.loads(line)
        except ValueError:
            _say(f"ack {handled}")
            continue
        if "snap" in msg:
            s = msg["snap"]
            board.put(str(s.get("key", "public")), str(s["tag"]), str(s["text"]))
        if "seats" in msg:
            board.put_seats(msg["seats"] or {})
        if "secret" in msg:
            app.renew(str(msg["secret"]))
        _say(f"ack {handled}")  # handled: a page asked now gets it
    done.set()
    server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
