"""The scoreboard page: the secret, the methods, the headers, the
limits, the stream and its catch-up, a restart in the middle of a stream, and
the page following the app; the device's QR screen for the page, and the
page's secret kept in the state directory, never in the settings; a TV's remote
finding the page however the address is typed, the worker, the named
downloads. Plain HTTP against a real uvicorn on loopback (hardware/web_server.py)
or Starlette's TestClient (no socket)."""
from __future__ import annotations

import http.client
import json
import random
import socket
import threading
import time

import pytest
from starlette.testclient import TestClient

from companion import public
from companion.journal import Journal
from companion.session import Session
from companion.web import Board, WebApp, new_secret, valid_secret
from companion.ui.widgets import Confirm
from hardware import web_server
from hardware.web_server import WebServer

from .screens_util import HAND, built, drawn_texts, make_app, press
from .web_util import finished


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def game(tmp_path):
    j = Journal(str(tmp_path / "j.db"))
    s = Session.start(j, "bag_of_ice", {"players": ["Ann", "Bob"]}, random.Random(3))
    board = Board()
    v = public.view(s)
    board.set(v["seq"], v)
    yield j, s, board
    j.close()


def publish(board: Board, s: Session) -> None:
    v = public.view(s)
    board.set(v["seq"], v)


@pytest.fixture
def client(game):
    j, s, board = game
    secret = new_secret()
    app = WebApp(board, j.path, secret)
    with TestClient(app) as c:
        yield c, secret, app


def test_a_secret_has_at_least_64_random_bits():
    seen = {new_secret() for _ in range(200)}
    assert len(seen) == 200
    assert all(valid_secret(s) and len(s) >= 16 for s in seen)  # 16 base64 characters: 96 bits
    with pytest.raises(ValueError):
        WebApp(Board(), None, "short")


@pytest.mark.parametrize("path", ["/", "/index.html", "/static/app.js", "/state.json", "/events", "/history",
                                  "/WRONGSECRETWRONGSECRET/", "/WRONGSECRETWRONGSECRET/state.json", "/../etc/passwd"])
@pytest.mark.parametrize("method", ["GET", "HEAD", "POST", "PUT", "DELETE"])
def test_without_the_secret_every_path_and_method_answers_404(client, path, method):
    c, _secret, _app = client
    r = c.request(method, path)
    assert r.status_code == 404
    assert "companion" not in r.text.lower() and "Pyramid" not in r.text


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_with_the_secret_only_get_and_head_are_answered(client, method):
    c, secret, _app = client
    r = c.request(method, f"/{secret}/state.json")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"


def test_pages_assets_and_projection_with_their_headers(client, game):
    c, secret, _app = client
    for path, kind in [("", "text/html"), ("tv", "text/html"), ("history", "text/html"),
                       ("static/app.js", "text/javascript"), ("static/app.css", "text/css"),
                       ("state.json", "application/json"), ("history.json", "application/json")]:
        r = c.get(f"/{secret}/{path}")
        assert r.status_code == 200 and r.headers["content-type"].startswith(kind), path
        assert "default-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
    v = c.get(f"/{secret}/state.json").json()
    assert v["session"]["game"] == "bag_of_ice" and [p["name"] for p in v["players"]] == ["Ann", "Bob"]
    assert c.get(f"/{secret}/state.json").headers["cache-control"] == "no-store"
    assert c.head(f"/{secret}/state.json").status_code == 200


@pytest.mark.parametrize("path", ["static/", "static", "static/web.py", "web_assets/app.js",
                                  "export/1.exe", "export/x.json", "export/99.json"])
def test_no_directory_listing_and_nothing_but_the_named_files(client, path):
    c, secret, _app = client
    assert c.get(f"/{secret}/{path}").status_code == 404


def test_downloads_of_a_session(client, game):
    c, secret, _app = client
    _j, s, _b = game
    r = c.get(f"/{secret}/export/{s.id}.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert "attachment" in r.headers["content-disposition"]
    assert c.get(f"/{secret}/export/{s.id}.json").json()["game"] == "bag_of_ice"
    png = c.get(f"/{secret}/export/{s.id}.png")
    assert png.status_code == 200 and png.content[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_history_reads_again_only_the_sessions_that_changed(client, game, monkeypatch):
    """history.json keeps each session's line until the session changes (bench/web.py's
    load: replaying every session at every request took the button loop's CPU)."""
    from companion import export
    c, secret, _app = client
    j, s, _b = game
    calls: list[int] = []
    real = export.session_summary
    monkeypatch.setattr(export, "session_summary", lambda jj, info: calls.append(info.id) or real(jj, info))
    first = c.get(f"/{secret}/history.json").json()["games"]
    assert [g["over"] for g in first] == [False] and calls
    calls.clear()
    assert c.get(f"/{secret}/history.json").json()["games"] == first and calls == []  # nothing changed
    s.end("closed")
    other = Session.start(j, "undercut", {"players": ["Ann", "Bob", "Cy"]}, random.Random(4))
    games = c.get(f"/{secret}/history.json").json()["games"]
    assert [g["over"] for g in games] == [False, True] and games[1]["number"] == first[0]["number"]
    assert calls and set(calls) <= {s.id, other.id}


# ---------------------------------------------------------------- over a real socket


@pytest.fixture
def served(game):
    j, s, board = game
    secret = new_secret()
    app = WebApp(board, j.path, secret, max_clients=3, ping_s=0.5)
    port = free_port()
    srv = WebServer(app, "127.0.0.1", port, max_clients=3).start()
    assert srv.started.wait(10), srv.last_error
    yield srv, port, secret, app
    srv.close()


class Stream:
    """An SSE client on a raw socket: its events as (id, data) as they come."""

    def __init__(self, port: int, path: str, last_id: str | None = None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        extra = f"Last-Event-ID: {last_id}\r\n" if last_id else ""
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n{extra}\r\n".encode())
        self.events: list[tuple[str, str]] = []
        self.head = b""
        self.closed = threading.Event()
        self._buf = b""
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        cur: dict[str, str] = {}
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    break
                self._buf += data
                if not self.head and b"\r\n\r\n" in self._buf:
                    self.head, self._buf = self._buf.split(b"\r\n\r\n", 1)
                while b"\n" in self._buf and self.head:
                    line, self._buf = self._buf.split(b"\n", 1)
                    text = line.decode("utf-8", "replace").rstrip("\r")
                    if text.startswith("id: "):
                        cur["id"] = text[4:]
                    elif text.startswith("data: "):
                        cur["data"] = text[6:]
                    elif text == "" and "data" in cur:
                        self.events.append((cur.get("id", ""), cur["data"]))
                        cur = {}
        except OSError:
            pass
        self.closed.set()

    def wait(self, n: int, timeout: float = 5) -> bool:
        end = time.monotonic() + timeout
        while len(self.events) < n and time.monotonic() < end:
            time.sleep(0.01)
        return len(self.events) >= n

    def close(self) -> None:
        try:  # shutdown first: a close alone leaves the reader's recv holding the socket open
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def test_the_stream_sends_each_new_state_with_the_journals_seq(served, game):
    srv, port, secret, _app = served
    _j, s, board = game
    st = Stream(port, f"/{secret}/events")
    assert st.wait(1)
    assert b"text/event-stream" in st.head and b"no-store" in st.head
    first = int(st.events[0][0].split("-")[0])  # the id: the journal's seq and the text's digest
    s.play("roll")
    publish(board, s)
    assert st.wait(2)
    tag, data = st.events[-1]
    seq = int(tag.split("-")[0])
    assert seq > first and json.loads(data)["seq"] == seq == s.last_seq and tag == board.snapshot()[0]
    st.close()


def test_a_reconnect_resumes_from_the_last_seq_seen(served, game):
    srv, port, secret, _app = served
    _j, s, board = game
    seen = board.snapshot()[0]
    st = Stream(port, f"/{secret}/events", last_id=seen)
    time.sleep(0.3)
    assert st.events == []  # nothing missed: nothing sent again
    st.close()
    s.play("roll")
    publish(board, s)  # while the page was away
    st = Stream(port, f"/{secret}/events", last_id=seen)
    assert st.wait(1) and int(st.events[0][0].split("-")[0]) == s.last_seq  # the newest state at once
    st.close()


def test_the_stream_past_the_limit_gets_503(served):
    srv, port, secret, _app = served
    streams = [Stream(port, f"/{secret}/events") for _ in range(3)]
    assert all(st.wait(1) for st in streams)
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("GET", f"/{secret}/events")
    assert c.getresponse().status == 503
    streams[0].close()
    time.sleep(0.3)
    again = Stream(port, f"/{secret}/events")
    assert again.wait(1)  # a place came free
    for st in streams[1:] + [again]:
        st.close()


def test_headers_too_large_are_refused(served):
    srv, port, secret, _app = served
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("GET", f"/{secret}/state.json", headers={"X-Big": "a" * (web_server.MAX_HEADER_BYTES + 100)})
    assert c.getresponse().status in (400, 431)


def test_a_slowloris_client_is_dropped(game, monkeypatch):
    monkeypatch.setattr(web_server, "HEADER_TIMEOUT_S", 0.5)
    j, _s, board = game
    secret = new_secret()
    port = free_port()
    with WebServer(WebApp(board, j.path, secret), "127.0.0.1", port) as srv:
        assert srv.started.wait(10)
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(b"GET /" + secret.encode())
        start = time.monotonic()
        closed = False
        while time.monotonic() - start < 4:
            try:
                sock.sendall(b"a")  # a byte at a time, never the end of the headers
                time.sleep(0.1)
                if sock.recv(1, socket.MSG_DONTWAIT) == b"":
                    closed = True
                    break
            except BlockingIOError:
                continue
            except OSError:
                closed = True
                break
        sock.close()
        assert closed and time.monotonic() - start < 3
        ok = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        ok.request("GET", f"/{secret}/state.json")
        assert ok.getresponse().status == 200  # others are served all the while


def test_a_restart_in_the_middle_of_a_stream_catches_up(game):
    j, s, board = game
    secret = new_secret()
    port = free_port()
    srv = WebServer(WebApp(board, j.path, secret), "127.0.0.1", port).start()
    assert srv.started.wait(10)
    st = Stream(port, f"/{secret}/events")
    assert st.wait(1)
    last = st.events[-1][0]
    srv.close()  # the device restarts: the stream ends
    assert st.closed.wait(5)
    s.play("roll")
    publish(board, s)
    srv = WebServer(WebApp(board, j.path, secret), "127.0.0.1", port).start()
    assert srv.started.wait(10)
    again = Stream(port, f"/{secret}/events", last_id=last)  # what EventSource sends on its reconnect
    assert again.wait(1) and int(again.events[0][0].split("-")[0]) == s.last_seq > int(last.split("-")[0])
    again.close()
    srv.close()


def test_a_port_taken_is_said_once_and_retried_while_the_game_goes_on(game):
    j, _s, board = game
    blocker = socket.socket()
    blocker.bind(("127.0.0.1", 0))
    blocker.listen()
    port = blocker.getsockname()[1]
    faults: list[str] = []
    waits: list[float] = []
    gate = threading.Event()

    def sleep(delay: float) -> bool:
        waits.append(delay)
        if len(waits) >= 3:
            blocker.close()  # the port comes free
        return gate.wait(0.01)

    srv = WebServer(WebApp(board, j.path, new_secret()), "127.0.0.1", port, on_fault=faults.append, sleep=sleep)
    srv.start()
    try:
        assert srv.started.wait(15), srv.last_error
        assert len(faults) == 1 and "8" not in faults[0][:0]  # said once, however many tries
        assert waits[:3] == [1.0, 2.0, 4.0]  # the back-off doubles
        assert srv.state == "serving"
    finally:
        srv.close()


def test_renewing_the_secret_ends_open_streams_and_old_addresses(served, game):
    srv, port, secret, app = served
    st = Stream(port, f"/{secret}/events")
    assert st.wait(1)
    new = new_secret()
    app.renew(new)
    assert st.closed.wait(5)
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("GET", f"/{secret}/state.json")
    assert c.getresponse().status == 404
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("GET", f"/{new}/state.json")
    assert c.getresponse().status == 200


def test_a_socket_systemd_hands_over_is_served(game, monkeypatch):
    """companion.socket (socket activation): the service has no network of its own and serves
    the listening socket it is given (fd 3, LISTEN_PID/LISTEN_FDS)."""
    import os
    j, _s, board = game
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    monkeypatch.setenv("LISTEN_PID", str(os.getpid()))
    monkeypatch.setenv("LISTEN_FDS", "1")
    assert web_server.systemd_socket() == 3
    monkeypatch.setenv("LISTEN_PID", "1")
    assert web_server.systemd_socket() is None  # meant for another process
    secret = new_secret()
    with WebServer(WebApp(board, j.path, secret), "ignored", 1, fd=listener.fileno()) as srv:
        assert srv.started.wait(10), srv.last_error
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        c.request("GET", f"/{secret}/state.json")
        assert c.getresponse().status == 200
    listener.close()


def test_the_address_under_the_service_comes_from_the_units_file(tmp_path, monkeypatch):
    f = tmp_path / "address"
    f.write_text("127.0.1.1 192.168.4.17 fd00::5\n")
    monkeypatch.setenv("COMPANION_ADDRESS_FILE", str(f))
    assert web_server.lan_address() == "192.168.4.17"


# ---------------------------------------------------------------- doctor and the join screen


def test_doctor_says_the_address_and_whether_the_port_opens():
    from companion.config import Settings
    from hardware.doctor import Report, check_page
    lines: list[str] = []
    port = free_port()
    secret = new_secret()
    check_page(Report(lines.append), Settings(web="127.0.0.1", web_port=port, web_secret=secret))
    assert "can be opened" in lines[-1] and f"http://127.0.0.1:{port}/{secret}/" in lines[-1]
    taken = socket.socket()
    taken.bind(("127.0.0.1", port))
    taken.listen()
    lines.clear()
    check_page(Report(lines.append), Settings(web="127.0.0.1", web_port=port, web_secret=secret))
    assert "in use" in lines[-1] and f"http://127.0.0.1:{port}/{secret}/" in lines[-1]
    taken.close()
    lines.clear()
    check_page(Report(lines.append), Settings(web="off"))
    assert "off" in lines[-1]


class _Link:
    def __init__(self, address: str):
        self.address = address
        self.problem = ""
        self.renewed = 0

    def renew(self, app) -> None:
        self.renewed += 1
        self.address = self.address.rsplit("/", 2)[0] + "/" + new_secret() + "/"


def test_the_join_screen_draws_the_qr_code_of_the_address_and_writes_it_beside(tmp_path):
    from companion.io import Key
    from companion.ui.draw import Canvas
    from companion.ui.join import JoinScreen, address_lines, qr_layout, qr_matrix
    from tests.screens_util import make_app
    app = make_app(tmp_path)
    url = f"http://192.168.100.200:8032/{new_secret()}/"
    app.web = _Link(url)
    screen = JoinScreen()
    app.push(screen)
    img = app.frame()
    m = qr_matrix(url)
    assert len(m) == 29  # version 3
    scale, quiet = qr_layout(len(m))
    # 2-pixel modules (a phone reads them from the panel), and every pixel left as margin
    assert scale == 2 and quiet == 3
    assert qr_layout(21) == (2, 8) and qr_layout(15, 100) == (3, 12)  # room: the standard's 4 modules
    size = len(m) * scale + 2 * quiet
    top = (64 - size) // 2
    for y in range(top, top + quiet):  # the margin is lit all round
        assert all(img.getpixel((x, y)) for x in range(size))
    for r in range(len(m)):  # every module where segno puts it: dark unlit, light lit
        for c in range(len(m)):
            px = img.getpixel((quiet + c * scale, top + quiet + r * scale))
            assert bool(px) != m[r][c], (r, c)
    lines = address_lines(url, 21)  # written out whole on its own page (DOWN), scheme kept
    assert "".join(lines) == url and lines[:2] == ["http://", "192.168.100.200:8032"]
    # OK > TV page (after Back and New address): the TV page's address and its code
    app.handle(Key.OK)
    app.handle(Key.DOWN)
    app.handle(Key.DOWN)
    app.handle(Key.OK)                 # TV page
    tv = app.top
    assert isinstance(tv, JoinScreen) and tv.address == url + "tv" and tv._matrix == qr_matrix(url + "tv")
    app.handle(Key.BACK)
    assert app.top is screen
    # OK > New address (after Back) > confirm: renewed, and the code follows
    app.handle(Key.OK)
    app.handle(Key.DOWN)
    app.handle(Key.OK)                 # New address
    app.handle(Key.RIGHT)              # the confirm box's Yes
    app.handle(Key.OK)
    assert app.web.renewed == 1 and screen.address == app.web.address != url
    c = Canvas()
    screen.render(c)
    assert c.image.tobytes() != img.tobytes()


def test_the_join_screen_without_the_page_says_how_to_turn_it_on(tmp_path):
    from companion.ui.join import JoinScreen
    from tests.screens_util import make_app
    app = make_app(tmp_path)
    app.push(JoinScreen())
    text = app.screen_text()
    assert text.strip()
    assert app.top.problem and "web" in app.top.problem


# ---------------------------------------------------------------- the page follows the app


def test_the_board_follows_the_device_into_another_session_and_its_language(tmp_path):
    from bench.live import LiveTable
    from companion.config import change
    with LiveTable(str(tmp_path)) as t:
        t.press("down", "ok", "ok")          # Tools > Pyramid die: a session
        t.settle()
        first = json.loads(t.page.board.snapshot()[1])
        assert first["session"]["game"] == "die" and first["session"]["number"] == 1
        t.call(lambda app: app.home())
        t.settle()
        assert json.loads(t.page.board.snapshot()[1])["session"] is None  # the main menu
        from companion.ui.screens import ToolsMenu
        t.call(lambda app: app.push(ToolsMenu()))  # (the main menu now starts with Resume)
        t.press("down", "ok", "ok")               # Bag > the first preset: another session
        t.settle()
        second = json.loads(t.page.board.snapshot()[1])
        assert second["session"]["game"] == "bag" and second["session"]["number"] == 2
        assert second["seq"] > first["seq"]
        t.call(lambda app: app.save_settings(change(app.settings, language="fr")))
        t.settle()
        fr = json.loads(t.page.board.snapshot()[1])
        assert fr["lang"] == "fr" and fr["labels"]["scores"] == "Scores" and fr["labels"]["moves"] == "Derniers coups"


def test_a_handler_that_fails_answers_500_and_the_server_goes_on(game):
    j, _s, board = game
    secret = new_secret()
    app = WebApp(board, j.path, secret)
    port = free_port()
    with WebServer(app, "127.0.0.1", port) as srv:
        assert srv.started.wait(10)
        real = board.snapshot
        board.snapshot = lambda: (_ for _ in ()).throw(RuntimeError("boom"))  # type: ignore[method-assign]
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        c.request("GET", f"/{secret}/state.json")
        assert c.getresponse().status == 500
        board.snapshot = real  # type: ignore[method-assign]
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        c.request("GET", f"/{secret}/state.json")
        assert c.getresponse().status == 200 and srv.state == "serving"


def test_the_qr_code_on_the_panel_scans(tmp_path):
    """The frame as the panel shows it (lit pixels light, the panel's dark border around
    the lit quiet zone), enlarged as a phone's camera sees it, read by zbar (Debian's
    zbar-tools, which ./run test installs with the browser)."""
    import shutil
    import subprocess
    from PIL import Image, ImageOps
    from companion.ui.join import JoinScreen
    from tests.screens_util import make_app
    zbar = shutil.which("zbarimg")
    if zbar is None:
        pytest.skip("no zbarimg here (apt-get install zbar-tools)")
    for url in (f"http://192.168.1.20:8032/{new_secret()}/", f"http://10.0.100.254:65535/{new_secret()}/",
                f"http://127.0.0.1:8032/{new_secret()}/"):
        app = make_app(tmp_path)
        app.web = _Link(url)
        app.push(JoinScreen())
        frame = app.frame().convert("L").point(lambda v: 255 if v else 0)
        seen = ImageOps.expand(frame.resize((frame.width * 6, frame.height * 6), Image.NEAREST), border=30, fill=0)
        path = tmp_path / "panel.png"
        seen.save(path)
        out = subprocess.run([zbar, "-q", "--raw", str(path)], capture_output=True, text=True, timeout=30).stdout
        assert out.strip() == url
        app.journal.close()


def test_the_page_starts_after_the_first_frame_and_is_closed_with_the_app(tmp_path):
    """cli._page: the web stack is set up by a call the loop runs after the first frame, so
    the device's first frame never waits for it (start-up); the caller closes it."""
    from bench.live import LiveTable
    from companion.cli import _page
    with LiveTable(str(tmp_path), page=False) as t:
        frames_at_start: list[int] = []
        pages = _page(t.app, t.loop, simulator=True, started=lambda page: frames_at_start.append(t.display.frames))
        t.settle()
        assert pages and t.app.web is pages[0] and frames_at_start and frames_at_start[0] >= 1
        assert pages[0].server.started.wait(10)
        seq, text = pages[0].board.snapshot()
        assert json.loads(text)["session"] is None  # published at once: the main menu
        pages[0].close()
    off = Journal(str(tmp_path / "off.db"))
    from companion.config import Settings
    from companion.ui.app import App
    from companion.loop import Loop
    import queue as _q
    app = App(off, Settings(web="off"))
    assert _page(app, Loop(app, None, _q.Queue()), simulator=True) == [] and app.web is None
    off.close()


# ---------------------------------------------------------------- the device's QR screen for the page


class _Link:
    def __init__(self, address: str):
        self.address = address
        self.problem = ""
        self.renewed = 0

    def renew(self, app) -> None:
        self.renewed += 1
        self.address = self.address[:-3] + "xy/"


URL = "http://192.168.1.20:8032/Il1lI0OoAbCdEf_-/"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_qr_screen_has_a_heading_and_says_what_to_do(tmp_path, lang):
    from companion.config import Settings
    from companion.i18n import _
    from companion.ui.draw import CLIPS
    from companion.ui.join import JoinScreen
    app = make_app(tmp_path, settings=Settings(language=lang))
    app.web = _Link(URL)
    app.push(JoinScreen())
    CLIPS.reset()
    texts = drawn_texts(app)
    assert texts[0] == _("Scoreboard")
    assert " ".join(texts[1:4]) == _("Scan with a phone on this Wi-Fi")
    assert " ".join(texts[4:]) == _("↓ address as text")
    press(app, "down")  # the address written out
    texts = drawn_texts(app)
    assert texts[0] == _("Page address") and texts[1:4] == ["http://", "192.168.1.20:8032", "/Il1lI0OoAbCdEf_-/"]
    assert CLIPS.count == 0, CLIPS.examples


def test_the_written_address_keeps_its_scheme_and_draws_1_l_and_I_apart(tmp_path):
    from companion.ui.draw import CHAR_W, LINE_H, TITLE_H
    from companion.ui.join import JoinScreen, address_lines
    assert address_lines(URL, 21) == ["http://", "192.168.1.20:8032", "/Il1lI0OoAbCdEf_-/"]
    assert address_lines("http://10.0.0.2:80/abc/", 21) == ["http://10.0.0.2:80", "/abc/"]
    assert address_lines("http://10.0.0.2:80/a/", 21) == ["http://10.0.0.2:80/a/"]
    for width in (10, 14, 21):
        lines = address_lines(URL, width)
        assert "".join(lines) == URL and all(len(x) <= width for x in lines)
    app = make_app(tmp_path)
    app.web = _Link(URL)
    app.push(JoinScreen())
    img = press(app, "down")
    y = TITLE_H + 1 + 2 * LINE_H  # the secret's line: "/Il1lI0O..."
    cells = [img.crop((1 + i * CHAR_W, y, 1 + (i + 1) * CHAR_W, y + LINE_H)).tobytes() for i in range(6)]
    assert len({cells[1], cells[2], cells[3]}) == 3  # I, l, 1 each its own
    assert cells[2] == cells[4] and cells[1] == cells[5]  # the same letter alike


def test_ok_on_the_qr_screen_never_preselects_a_new_address_and_the_question_is_whole(tmp_path):
    from companion.config import Settings
    from companion.ui.draw import CLIPS
    from companion.ui.join import JoinScreen
    for lang in ("en", "fr"):
        app = make_app(tmp_path / lang, settings=Settings(language=lang))
        app.web = link = _Link(URL)
        screen = JoinScreen()
        app.push(screen)
        press(app, "ok,ok")  # OK, OK: back on the code, nothing renewed
        assert app.top is screen and link.renewed == 0
        CLIPS.reset()
        press(app, "ok,down,ok")  # New address: the question
        assert isinstance(app.top, Confirm) and app.top.index == 0  # the harmless answer first
        app.frame()
        assert CLIPS.count == 0, CLIPS.examples
        press(app, "right,ok")
        assert link.renewed == 1 and app.top is screen and screen.address == link.address


# ---------------------------------------------------------------- the page's secret: in the state directory, never in the settings


def test_the_page_secret_lives_in_the_state_directory_0600_and_never_in_the_settings(tmp_path):
    import stat
    from hardware.web_server import PageService
    app, cfg = built(tmp_path, HAND)
    page = PageService(app, simulator=True)
    secret_file = tmp_path / "state" / "web_secret"
    secret = secret_file.read_text().strip()
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    assert page.address.endswith(f"/{secret}/") and len(secret) >= 16
    assert cfg.read_text(encoding="utf-8") == HAND  # the settings file untouched
    page.renew(app)  # New address: a new secret, in the same place
    again = secret_file.read_text().strip()
    assert again != secret and page.address.endswith(f"/{again}/")
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    assert cfg.read_text(encoding="utf-8") == HAND
    app.journal.close()
    app, cfg = built(tmp_path, None)  # the next start keeps it
    assert PageService(app, simulator=True).address.endswith(f"/{again}/")
    app.journal.close()


def test_a_secret_an_older_version_wrote_into_the_settings_moves_to_the_state_directory(tmp_path):
    import stat
    from companion import config
    from hardware.web_server import PageService
    old = config.dumps(config.Settings(players=("Ann",), contrast=90, web_secret="A" * 16))  # every key
    assert old.startswith("# Pyramid Table Companion settings") and "web_secret" in old
    app, cfg = built(tmp_path, old)
    page = PageService(app, simulator=True)
    assert page.address.endswith("/" + "A" * 16 + "/")  # the same address: open pages go on
    secret_file = tmp_path / "state" / "web_secret"
    assert secret_file.read_text().strip() == "A" * 16 and stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    text = cfg.read_text(encoding="utf-8")
    assert "web_secret" not in text and text == "".join(
        line for line in old.splitlines(keepends=True) if not line.startswith("web_secret"))
    app.journal.close()


def test_a_secret_the_user_chose_is_used_and_left_in_their_file(tmp_path):
    from hardware.web_server import PageService
    mine = HAND + 'web_secret = "our-own-secret-16"\n'
    app, cfg = built(tmp_path, mine)
    assert PageService(app, simulator=True).address.endswith("/our-own-secret-16/")
    assert cfg.read_text(encoding="utf-8") == mine and not (tmp_path / "state" / "web_secret").exists()
    app.journal.close()


# ---------------------------------------------------------------- a finished game's ways in: a TV's remote, the worker, the downloads


@pytest.fixture
def finished_client(tmp_path):
    """A finished two-player Bag of Ice game on the board, and a client that does not follow redirects."""
    journal = Journal(str(tmp_path / "finished.db"))
    s = finished(journal, "bag_of_ice", {"players": ["Ann", "Bob"]}, 5)
    board = Board()
    publish(board, s)
    secret = new_secret()
    with TestClient(WebApp(board, journal.path, secret), follow_redirects=False) as c:
        yield c, secret, s
    journal.close()


@pytest.mark.parametrize("typed, page", [("", ""), ("/tv/", "tv"), ("/TV", "tv"), ("/Tv/", "tv"),
                                         ("/history/", "history"), ("/HISTORY", "history")])
def test_a_tv_remote_finds_the_page_however_the_address_is_typed(finished_client, typed, page):
    c, secret, _s = finished_client
    r = c.get(f"/{secret}{typed}")
    assert r.status_code == 308 and r.headers["location"] == f"/{secret}/{page}"
    assert c.get(r.headers["location"]).status_code == 200
    assert c.get(f"/WRONGSECRETWRONGSECRET{typed}").status_code == 404  # still nothing without the secret


def test_the_worker_is_served(finished_client):
    c, secret, _s = finished_client
    r = c.get(f"/{secret}/static/worker.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert "EventSource" in r.text


def test_downloads_are_named_for_what_they_are_and_the_history_has_scores(finished_client):
    c, secret, s = finished_client
    for fmt, name in (("json", "bag-of-ice-1.jsonl"), ("csv", "bag-of-ice-1.csv"), ("png", "bag-of-ice-1.png")):
        r = c.get(f"/{secret}/export/1.{fmt}")
        assert r.status_code == 200 and f'filename="{name}"' in r.headers["content-disposition"]
    h = json.loads(c.get(f"/{secret}/history.json").text)
    g = h["games"][0]
    assert g["scores"] == list(s.state.scores()) and g["files"]["json"] == "bag-of-ice-1.jsonl"
    assert g["result"].startswith("Winner: ")
    assert h["labels"]["json"] == "record (JSON lines)"
