"""The page under siege: many addresses without the
secret, one guest with it holding the streams, a stream nobody reads in an
idle game, an encoded slash and folded headers. Plain sockets against the
real uvicorn on loopback; 127.0.0.2.. are other peers than 127.0.0.1 (Linux
routes the whole 127/8 to loopback). No timing is asserted: every wait is a
bounded loop with a generous end."""
from __future__ import annotations

import logging
import random
import socket
import threading
import time

import pytest

from companion import public
from companion.journal import Journal
from companion.session import Session
from companion.web import Board, WebApp, new_secret, peer_of
from hardware import web_server
from hardware.web_server import WebServer
from tests.test_web_guard import _siege, free_port, get, raw

PEERS = [f"127.0.0.{k}" for k in range(10, 50)]  # 40 addresses: twice the server's 20 connections


@pytest.fixture
def page(tmp_path):
    j = Journal(str(tmp_path / "j.db"))
    s = Session.start(j, "bag_of_ice", {"players": ["Ann", "Bob"]}, random.Random(3))
    board = Board()
    v = public.view(s)
    board.set(v["seq"], v)
    secret = new_secret()
    app = WebApp(board, j.path, secret, max_clients=4, ping_s=0.5)
    port = free_port()
    srv = WebServer(app, "127.0.0.1", port, max_clients=4).start()  # 4 + 16 = 20 connections
    assert srv.started.wait(30), srv.last_error
    yield srv, port, secret, app, board, s
    srv.close()
    j.close()


def _open_count(srv) -> int:
    return len(srv._server.server_state.connections)


def _first_state(port: int, path: str, *, src: str = "127.0.0.1", timeout: float = 30.0) -> bytes:
    """A stream's answer up to its first state (b"" if it was refused or closed first)."""
    got = b""
    try:
        with socket.socket() as s:
            s.bind((src, 0))
            s.settimeout(timeout)
            s.connect(("127.0.0.1", port))
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            end = time.monotonic() + timeout
            while b"event: state" not in got and time.monotonic() < end:
                piece = s.recv(65536)
                if not piece:
                    break
                got += piece
    except OSError:
        pass
    return got


def _response(sock) -> bytes:
    """One whole response read from ``sock`` (b"" if it closed or failed first)."""
    got = b""
    try:
        while b"\r\n\r\n" not in got:
            piece = sock.recv(65536)
            if not piece:
                return b""
            got += piece
        head, _, body = got.partition(b"\r\n\r\n")
        size = int(next((x.split(b":")[1] for x in head.split(b"\r\n") if x.lower().startswith(b"content-length:")),
                        b"0"))
        while len(body) < size:
            piece = sock.recv(65536)
            if not piece:
                return b""
            body += piece
    except OSError:
        return b""
    return got


def _get(port: int, path: str) -> int:
    try:
        return raw(port, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode(), timeout=30)[0]
    except OSError:
        return 0  # put out or refused before its answer


def test_peer_of_counts_an_ipv6_host_by_its_64():
    assert peer_of("2001:db8:1:2::1") == peer_of("2001:db8:1:2:ffff:ffff:ffff:fffe") == "2001:db8:1:2::/64"
    assert peer_of("2001:db8:1:3::1") != peer_of("2001:db8:1:2::1")
    assert peer_of("fe80::1%wlan0") == "fe80::/64"
    assert peer_of("::ffff:192.168.1.7") == "192.168.1.7"  # an IPv4 address on a dual-stack socket
    assert peer_of("192.168.1.7") == "192.168.1.7" != peer_of("192.168.1.8")


def test_many_addresses_without_the_secret_do_not_keep_a_phone_off_the_page(page):
    """40 peers, each holding 4 idle connections (within its share of 10) and
    reopening each as it drops, against a server of 20 connections: a phone on
    fresh connections still gets every page, file and stream it asks for."""
    srv, port, secret, app, board, s = page
    base = f"/{secret}/"
    assert _get(port, base + "state.json") == 200  # the phone has been at the table
    stop = threading.Event()
    opened = [0]
    t = threading.Thread(target=_siege, args=(port, stop, PEERS, 4 * len(PEERS), opened), daemon=True)
    t.start()
    try:
        end = time.monotonic() + 30
        while _open_count(srv) < 20 and time.monotonic() < end:  # the siege holds everything it can
            time.sleep(0.05)
        statuses = []
        streams = []
        for path in ("", "static/app.js", "state.json", "tv", "static/app.css", "history.json") * 3:
            statuses.append(_get(port, base + path))
            if path == "state.json":
                streams.append(_first_state(port, base + "events"))
    finally:
        stop.set()
        t.join(30)
    assert opened[0] > 4 * len(PEERS)  # the siege did reopen what was dropped
    assert statuses == [200] * len(statuses), statuses
    assert all(x.startswith(b"HTTP/1.1 200") and b"event: state" in x for x in streams), [x[:40] for x in streams]


def test_a_phone_that_showed_the_secret_keeps_its_idle_connection_under_a_siege(tmp_path, monkeypatch):
    """The phone's keep-alive connection, idle between two requests, is the
    oldest idle one of the server: strangers coming and going may not put it out."""
    monkeypatch.setattr(web_server, "HEADER_TIMEOUT_S", 300.0)  # only eviction may end it here
    monkeypatch.setattr(web_server, "BUSY_HEADER_TIMEOUT_S", 300.0)
    monkeypatch.setattr(web_server, "KEEP_ALIVE_S", 300)
    board = Board()
    secret = new_secret()
    app = WebApp(board, None, secret, max_clients=4, ping_s=0.5)
    port = free_port()
    srv = WebServer(app, "127.0.0.1", port, max_clients=4).start()
    assert srv.started.wait(30), srv.last_error
    phone = socket.create_connection(("127.0.0.1", port), timeout=30)
    request = f"GET /{secret}/state.json HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    phone.sendall(request)
    assert _response(phone).startswith(b"HTTP/1.1 200")
    stop = threading.Event()
    opened = [0]
    t = threading.Thread(target=_siege, args=(port, stop, PEERS, 4 * len(PEERS), opened), daemon=True)
    t.start()
    try:
        end = time.monotonic() + 120
        while opened[0] < 4 * len(PEERS) + 40 and time.monotonic() < end:  # newcomers came after the first
            time.sleep(0.05)
        phone.sendall(request)
        answer = _response(phone)
    finally:
        stop.set()
        t.join(30)
        phone.close()
        srv.close()
    assert opened[0] >= 4 * len(PEERS) + 40
    assert answer.startswith(b"HTTP/1.1 200"), answer[:60]


def test_a_strangers_fresh_connection_has_its_grace_and_strangers_leave_the_table_room(page, monkeypatch):
    monkeypatch.setattr(web_server, "GRACE_S", 120.0, raising=False)  # as long as this test may take on a slow machine
    monkeypatch.setattr(web_server, "HEADER_TIMEOUT_S", 120.0)
    monkeypatch.setattr(web_server, "BUSY_HEADER_TIMEOUT_S", 120.0)
    srv, port, secret, app, board, s = page
    room = 20 - 20 // getattr(web_server, "RESERVED", 3)  # what strangers may hold of the server's 20
    fresh = []
    for k in range(room):
        c = socket.socket()
        c.bind((f"127.0.0.{20 + k}", 0))
        c.settimeout(30)
        c.connect(("127.0.0.1", port))
        fresh.append(c)
    end = time.monotonic() + 30
    while _open_count(srv) < room and time.monotonic() < end:
        time.sleep(0.02)
    assert _open_count(srv) == room
    late = socket.socket()
    late.bind(("127.0.0.99", 0))
    late.settimeout(30)
    late.connect(("127.0.0.1", port))
    late.sendall(b"GET /not-the-secret-either/ HTTP/1.1\r\nHost: x\r\n\r\n")
    try:
        refused = late.recv(1) == b""
    except OSError:
        refused = True
    late.close()
    assert refused  # no room for one more stranger, and no fresh one is put out for it: closed unanswered
    for c in fresh:  # each fresh one is still there and answered
        c.sendall(b"GET /not-the-secret-at-all/ HTTP/1.1\r\nHost: x\r\n\r\n")
        assert c.recv(65536).startswith(b"HTTP/1.1 404")
        c.close()
    assert _get(port, f"/{secret}/state.json") == 200  # and the table always has its room


def test_one_guest_with_the_secret_holding_every_stream_leaves_a_phone_its_own(page):
    """A guest with the secret holds every stream (4) from two addresses, half of
    them never reading: a phone's stream takes the place of the guest's newest,
    every time."""
    srv, port, secret, app, board, s = page
    path = f"/{secret}/events"
    guest = []
    for k in range(4):
        c = socket.socket()
        if k % 2:
            c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        c.bind((f"127.0.0.{5 + k % 2}", 0))
        c.settimeout(30)
        c.connect(("127.0.0.1", port))
        c.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        if not k % 2:
            assert c.recv(65536).startswith(b"HTTP/1.1 200")
        guest.append(c)
    end = time.monotonic() + 30
    while app.streams < 4 and time.monotonic() < end:
        time.sleep(0.02)
    assert app.streams == 4
    got = [_first_state(port, path) for _ in range(3)]
    for c in guest:
        c.close()
    assert all(x.startswith(b"HTTP/1.1 200") and b"event: state" in x for x in got), [x[:40] for x in got]


def test_a_stream_nobody_reads_is_ended_in_an_idle_game_and_logged_in_one_line(page, monkeypatch, caplog):
    monkeypatch.setattr(web_server, "WRITE_TIMEOUT_S", 1.0)
    caplog.set_level(logging.INFO)
    srv, port, secret, app, board, s = page
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"GET /{secret}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    end = time.monotonic() + 30
    while not app.streams and time.monotonic() < end:
        time.sleep(0.01)
    assert app.streams == 1
    end = time.monotonic() + 120  # nothing is pressed: only the stream's pings go out
    while app.streams and time.monotonic() < end:
        time.sleep(0.1)
    sock.close()
    assert app.streams == 0, "a stream nobody reads stays open while the game is idle"
    assert "Traceback" not in caplog.text and not any(r.exc_info for r in caplog.records), caplog.text
    assert len(caplog.records) <= 1, [r.getMessage() for r in caplog.records]


def test_an_encoded_slash_never_routes(page):
    srv, port, secret, app, board, s = page
    wrong = get(port, "/wrong-secret-0123456789/")
    for path in (f"/{secret}%2Fstate.json", f"/{secret}%2fstate.json", f"/{secret}/static%2Fapp.js",
                 f"/{secret}/export%2F1.json", "/x%2F/"):
        status, headers, body, _closed = get(port, path)
        assert (status, body) == (404, b"Not Found"), path
        assert set(headers) == set(wrong[1])  # as bare as any unknown path
    assert get(port, f"/{secret}/state.json?x=%2F")[0] == 200  # in the query it is no path


def test_a_folded_header_line_is_refused_with_a_bare_400(page):
    srv, port, secret, app, board, s = page
    _st, h404, _b, _c = get(port, "/nothing-here-at-all/")
    for fold in (b" ", b"\t"):
        status, headers, body, closed = raw(port, (
            f"GET /{secret}/state.json HTTP/1.1\r\nHost: x\r\nX-Long: one\r\n".encode() + fold + b"two\r\n\r\n"))
        assert (status, body) == (400, b"Bad Request") and closed
        assert set(headers) - {"connection"} == set(h404)
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)  # a fold split across two reads
    sock.sendall(f"GET /{secret}/state.json HTTP/1.1\r\nHost: x\r\nX-Long: one\r\n".encode())
    time.sleep(0.2)
    sock.sendall(b" two\r\n\r\n")
    assert sock.recv(65536).startswith(b"HTTP/1.1 400")
    sock.close()
    assert get(port, f"/{secret}/state.json", extra="X-Ok: yes\r\n")[0] == 200


def test_the_siege_bench_reports_its_keys(tmp_path):
    """bench/web_guard.py's guard steps at a tiny size: the contract's keys, with figures that can fail."""
    from bench.web_guard import measure_guest_streams, measure_many
    fig = measure_many(str(tmp_path / "many"), 2.0, peers=20, connections=3)
    assert fig["web_many_peers_requests"] > 0 and 0.0 <= fig["web_many_peers_page_ok"] <= 1.0
    assert fig["web_many_peers_page_p95_ms"] > 0 and fig["web_many_peers_connections_opened"] >= 60
    fig = measure_guest_streams(str(tmp_path / "guest"), 2.0, streams=10, addresses=2)
    assert fig["web_guest_streams_requests"] > 0 and 0.0 <= fig["web_guest_streams_page_ok"] <= 1.0
    assert fig["web_guest_streams_opened"] >= 10
