"""The scoreboard page against a guest on the Wi-Fi (issue 38): one peer's
share of the connections, bad requests (non-ASCII paths, Content-Length with
Transfer-Encoding, what the parser refuses) answered as barely as a wrong
secret and logged with a limit, HEAD on the stream, a stream that never reads.
Plain sockets against the real uvicorn on loopback; 127.0.0.2.. are other
peers than 127.0.0.1 (Linux routes the whole 127/8 to loopback)."""
from __future__ import annotations

import logging
import random
import selectors
import socket
import threading
import time

import pytest

from companion import public
from companion.journal import Journal
from companion.session import Session
from companion.web import Board, WebApp, new_secret
from hardware import web_server
from hardware.web_server import WebServer


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
    srv = WebServer(app, "127.0.0.1", port, max_clients=4).start()
    assert srv.started.wait(10), srv.last_error
    yield srv, port, secret, app, board, s
    srv.close()
    j.close()


def raw(port: int, data: bytes, *, src: str = "127.0.0.1", timeout: float = 5.0):
    """Sends ``data`` on a fresh connection; (status, headers, body, closed by the server)."""
    sock = socket.socket()
    sock.bind((src, 0))
    sock.settimeout(timeout)
    sock.connect(("127.0.0.1", port))
    sock.sendall(data)
    buf = b""
    while b"\r\n\r\n" not in buf:
        piece = sock.recv(65536)
        if not piece:
            break
        buf += piece
    head, _, body = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and lines[0] else 0
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    n = int(headers.get("content-length", "0"))
    while len(body) < n:
        piece = sock.recv(65536)
        if not piece:
            break
        body += piece
    try:
        sock.settimeout(1.0)
        closed = sock.recv(1) == b""
    except (socket.timeout, TimeoutError):
        closed = False
    except OSError:
        closed = True
    sock.close()
    return status, headers, body, closed


def get(port: int, path: str, *, method: str = "GET", src: str = "127.0.0.1", extra: str = "") -> tuple:
    return raw(port, f"{method} {path} HTTP/1.1\r\nHost: x\r\n{extra}\r\n".encode(), src=src)


def test_a_non_ascii_first_segment_is_a_404_like_any_wrong_secret(page):
    srv, port, secret, app, _board, _s = page
    wrong = get(port, "/wrong-secret-0123456789/")
    for path in ("/%C3%A9/", "/%C3%A9/events", "/%FF%FE/state.json", f"/{secret[:-1]}%C3%A9/"):
        status, headers, body, _closed = get(port, path)
        assert status == 404, path
        assert set(headers) == set(wrong[1]) and body == wrong[2] == b"Not Found"
        assert headers["x-content-type-options"] == "nosniff"
    assert get(port, f"/{secret}/state.json")[0] == 200


def test_what_the_server_answers_of_its_own_is_as_bare_as_the_404(page):
    srv, port, secret, _app, _board, _s = page
    _st, h404, _b, _c = get(port, "/nothing-here-at-all/")
    status, headers, body, closed = raw(port, b"GARBAGE\r\n\r\n")
    assert status == 400 and body == b"Bad Request" and closed
    assert set(headers) - {"connection"} == set(h404)  # the same header set: nothing more to recognise
    assert b"uvicorn" not in body.lower() and "server" not in headers and "date" not in headers
    status, headers, body, closed = raw(port, b"GET /\xc3\xa9/ HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 400 and body == b"Bad Request" and set(headers) - {"connection"} == set(h404)


def test_content_length_with_transfer_encoding_is_refused_and_closed(page):
    srv, port, secret, _app, _board, _s = page
    status, headers, body, closed = raw(port, (
        f"GET /{secret}/state.json HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
        "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n").encode())
    assert status == 400 and closed and headers.get("connection") == "close" and body == b"Bad Request"
    status, _h, _b, closed = get(port, f"/{secret}/state.json")
    assert status == 200 and not closed  # an ordinary request keeps its connection


def test_bad_requests_write_a_few_lines_to_the_log_not_one_each(page, caplog):
    srv, port, secret, _app, _board, _s = page
    caplog.set_level(logging.INFO)
    for i in range(60):
        kind = i % 3
        if kind == 0:
            raw(port, b"GARBAGE\r\n\r\n")
        elif kind == 1:
            get(port, "/%C3%A9/")
        else:
            raw(port, f"GET /{secret}/ HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n"
                      "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n".encode())
    written = sum(len(r.getMessage()) + len(r.exc_text or "") for r in caplog.records)
    assert len(caplog.records) <= web_server.LOG_BURST + 1 and "Traceback" not in caplog.text, caplog.text
    assert written < 2000


def test_rate_limit_lets_a_burst_through_then_says_what_it_left_out():
    now = [0.0]
    f = web_server.RateLimit(burst=2, every=10.0, clock=lambda: now[0])
    rec = lambda: logging.LogRecord("x", logging.WARNING, "f", 1, "bad", None, None)  # noqa: E731
    assert [f.filter(rec()) for _ in range(5)] == [True, True, False, False, False]
    now[0] = 10.0
    r = rec()
    assert f.filter(r) and "3 more like it not logged" in r.getMessage()


def test_head_on_the_stream_holds_no_place(page):
    srv, port, secret, app, _board, _s = page
    socks = []
    for _ in range(8):  # twice the streams' limit, each connection kept open
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(f"HEAD /{secret}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        head = sock.recv(4096)
        assert head.startswith(b"HTTP/1.1 200") and b"text/event-stream" in head
        socks.append(sock)
    time.sleep(0.2)
    assert app.streams == 0
    status, headers, _b, _c = raw(port, f"GET /{secret}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode(), timeout=2)
    assert status == 200 and headers["content-type"].startswith("text/event-stream")
    for sock in socks:
        sock.close()


def test_a_stream_that_never_reads_is_bounded_and_ended(page, monkeypatch):
    monkeypatch.setattr(web_server, "WRITE_TIMEOUT_S", 1.0)
    srv, port, secret, app, board, s = page
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"GET /{secret}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    end = time.monotonic() + 5
    while not app.streams and time.monotonic() < end:
        time.sleep(0.01)
    assert app.streams == 1
    view = public.view(s)
    view["pad"] = "x" * 1400  # each event as large as a full table's
    seq = view["seq"]
    deadline = time.monotonic() + 20
    while app.streams and time.monotonic() < deadline:  # a press every 5 ms, the reader never reads
        seq += 1
        board.set(seq, dict(view, seq=seq))
        time.sleep(0.005)
    assert app.streams == 0, "the stream that never reads is still open"
    assert seq - view["seq"] < 1500  # ended within seconds, not fed for ever
    got = 0
    sock.settimeout(2)
    end = time.monotonic() + 10
    try:
        while (piece := sock.recv(65536)) and time.monotonic() < end:
            got += len(piece)
    except OSError:  # reset: the server let go of what it had queued
        pass
    sock.close()
    assert got < 256 * 1024  # what was queued for it (kernel and loop) is bounded: not every state
    end = time.monotonic() + 5
    while srv._server.server_state.connections and time.monotonic() < end:
        time.sleep(0.05)
    assert not srv._server.server_state.connections  # nothing of it left on the server


def _siege(port: int, stop: threading.Event, sources: list[str], n: int, opened: list[int]) -> None:
    """``n`` connections from ``sources``, each reopened as soon as it drops; they never send."""
    sel = selectors.DefaultSelector()
    i = 0

    def one() -> None:
        nonlocal i
        s = socket.socket()
        s.setblocking(False)
        s.bind((sources[i % len(sources)], 0))
        i += 1
        try:
            s.connect_ex(("127.0.0.1", port))
            sel.register(s, selectors.EVENT_READ)
            opened[0] += 1
        except OSError:
            s.close()
    for _ in range(n):
        one()
    while not stop.is_set():
        for key, _ in sel.select(0.05):
            sock = key.fileobj
            try:
                data = sock.recv(4096)  # type: ignore[union-attr]
            except OSError:
                data = b""
            if not data:
                sel.unregister(sock)
                sock.close()  # type: ignore[union-attr]
                one()
    for key in list(sel.get_map().values()):
        key.fileobj.close()  # type: ignore[union-attr]
    sel.close()


@pytest.mark.parametrize("sources", [["127.0.0.2"], [f"127.0.0.{k}" for k in range(2, 10)]],
                         ids=["one-address", "eight-addresses"])
def test_one_peer_holding_500_connections_does_not_keep_the_page_from_another(page, sources):
    srv, port, secret, app, board, s = page
    stop = threading.Event()
    opened = [0]
    t = threading.Thread(target=_siege, args=(port, stop, sources, 500, opened), daemon=True)
    t.start()
    try:
        time.sleep(1.5)  # the siege holds everything it can
        statuses = []
        stream = socket.create_connection(("127.0.0.1", port), timeout=10)
        stream.sendall(f"GET /{secret}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        first = stream.recv(65536)
        assert first.startswith(b"HTTP/1.1 200"), first[:200]
        for path in ("", "static/app.js", "static/app.css", "state.json", "history.json", "tv") * 2:
            statuses.append(get(port, f"/{secret}/{path}")[0])
            time.sleep(0.1)
        seq = int(board.snapshot()[0].split("-")[0]) + 1
        v = public.view(s)
        board.set(seq, dict(v, seq=seq, mark="after-the-siege"))
        got = b""
        end = time.monotonic() + 5
        while b"after-the-siege" not in got and time.monotonic() < end:
            got += stream.recv(65536)
        stream.close()
    finally:
        stop.set()
        t.join(10)
    assert statuses == [200] * len(statuses)
    assert b"after-the-siege" in got, "the stream did not update under the siege"
    assert opened[0] > 500  # the siege did reopen what was dropped


# ---------------------------------------------------------------- the page's own process


def _events(port: int, path: str, n: int, timeout: float = 10.0) -> bytes:
    got = b""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        end = time.monotonic() + timeout
        while got.count(b"event: ") < n and time.monotonic() < end:
            piece = s.recv(65536)
            if not piece:
                break
            got += piece
    return got


def test_the_page_is_served_from_a_process_of_its_own_that_follows_the_device(tmp_path):
    import json
    import os
    from bench.live import LiveTable
    from bench.scripts_bag_of_ice import START
    with LiveTable(str(tmp_path)) as t:
        pid = t.page.server.pid
        assert pid and pid != os.getpid()
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            assert t.page.secret.encode() not in f.read()  # never on a command line (ps shows it)
        port = int(t.url.split(":")[2].split("/")[0])
        base = "/" + t.url.split("/", 3)[3]
        t.press(*START)
        t.settle()
        tag, text = t.page.board.snapshot()
        end = time.monotonic() + 5
        while time.monotonic() < end:
            status, headers, body, _c = get(port, base + "state.json")
            if status == 200 and headers.get("etag") == f'"{tag}"':
                break
            time.sleep(0.05)
        assert json.loads(body) == json.loads(text)  # the device's snapshot, as the device made it


def test_a_page_process_that_dies_is_said_once_and_started_again_while_the_game_goes_on(tmp_path):
    import os
    import signal
    from bench.live import LiveTable
    from bench.scripts_bag_of_ice import START
    faults: list[str] = []
    with LiveTable(str(tmp_path)) as t:
        t.page.server.on_fault = faults.append
        port = int(t.url.split(":")[2].split("/")[0])
        base = "/" + t.url.split("/", 3)[3]
        for _round in range(2):
            pid = t.page.server.pid
            os.kill(pid, signal.SIGKILL)
            end = time.monotonic() + 3
            while t.page.server.pid == pid and time.monotonic() < end:
                t.press("down")  # the device answers all the while
                t.settle()
                time.sleep(0.05)
            assert t.page.server.pid != pid
            assert t.page.server.started.wait(10)
            assert get(port, base + "state.json")[0] == 200
        assert len(faults) == 1 and "ended" in faults[0]  # said once, not at every restart
        assert t.page.server.faults == 2
        before = t.display.frames
        t.press(*START)
        t.settle()
        assert t.display.frames > before


def test_renewing_the_secret_ends_the_page_process_streams_at_once(tmp_path):
    import threading as _t
    from bench.live import LiveTable
    with LiveTable(str(tmp_path)) as t:
        port = int(t.url.split(":")[2].split("/")[0])
        old = "/" + t.url.split("/", 3)[3]
        out: list[bytes] = []
        reader = _t.Thread(target=lambda: out.append(_events(port, old + "events", 2)), daemon=True)
        reader.start()
        time.sleep(0.5)
        t0 = time.monotonic()
        t.call(lambda app: app.web.renew(app))
        reader.join(5)
        assert out and b"event: gone" in out[0] and time.monotonic() - t0 < 2
        assert get(port, old + "state.json")[0] == 404
        assert get(port, "/" + t.url.split("/", 3)[3] + "state.json")[0] == 200


def test_the_guard_bench_reports_its_three_keys(tmp_path):
    """bench/web_guard.py at a tiny size: the contract's keys, with figures that can fail."""
    from bench.scripts_bag_of_ice import START
    from bench.web_guard import measure_guard
    keys = START + ["ok"] * 6 + ["down", "ok"] + ["ok"] * 4
    fig = measure_guard(str(tmp_path), [keys], siege_s=2.0, bad=300, flood_s=1.5, flood_repeats=1,
                        many_s=1.5, many_peers=20, guest_s=1.5)
    assert fig["web_siege_requests"] > 0 and 0.0 <= fig["web_siege_page_ok"] <= 1.0
    assert fig["web_siege_connections_opened"] >= 500
    assert fig["web_bad_requests"] == 300 and 0 < fig["web_bad_request_log_bytes"] < 10_000
    assert fig["web_flood_event_p99_ratio"] > 0 and fig["web_flood_presses"] == len(keys)
    assert fig["web_flood_requests"] > 0
    assert 0.0 <= fig["web_many_peers_page_ok"] <= 1.0 and 0.0 <= fig["web_guest_streams_page_ok"] <= 1.0
