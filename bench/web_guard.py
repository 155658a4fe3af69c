"""The scoreboard page against a guest on the Wi-Fi (issue 38), for ``python -m bench``
(through ``bench.web.measure_web``). Three of the contract's keys:

* ``web_siege_page_ok``: the share of a second peer's requests answered 200
  while one peer holds ``SIEGE_CONNECTIONS`` connections, each reopened as
  soon as it drops, that never send a byte. The siege is another process
  (``python -m bench.web_guard siege``) on 127.0.0.2; the second peer, on
  127.0.0.1, opens the page as a phone does (the page, its files, the
  projection, the history, a stream that must get the next press's update),
  one request after another for the whole siege.
* ``web_flood_event_p99_ratio``: the presses' press-to-frame p99 (a press put
  on the loop's queue to its turn of the loop done: handling, the frame, the
  projection the page gets) under a flood from ``FLOOD_PROCESSES`` processes,
  each from a loopback address of its own, downloading the PNG score sheet and
  sending requests with ``FLOOD_HEADER_KB`` KB of headers (no secret needed)
  as fast as the server answers, over the same presses without the flood;
  passes with and without taken in turns, each on a fresh journal, each press
  counted with the least of its passes (as ``web_load_event_cpu_ratio``). The flood's
  processes run in the idle scheduling class (below the page's own process): at a
  table they are phones, not programs on the device.
* ``web_many_peers_page_ok`` and ``web_many_peers_page_p95_ms`` (issue 47): the
  share of a phone's requests answered 200, and their p95, while
  ``MANY_PEERS`` peers (127.0.0.3 and up, another process) hold
  ``MANY_CONNECTIONS`` idle connections each, within their share, each
  reopened as it drops; the phone, on 127.0.0.1, loads the page,
  ``static/app.js``, ``state.json`` and a stream's first state, over and over,
  each on a fresh connection.
* ``web_guest_streams_page_ok`` (issue 47): the share of a phone's stream
  requests that open and deliver a state while one guest with the secret
  holds ``GUEST_STREAMS`` streams from ``GUEST_ADDRESSES`` addresses (another
  process), half of them never reading, each reopened as it ends.
* ``web_bad_request_log_bytes``: what the page writes to the log while
  10,000 malformed requests arrive (a request line that is not one, a
  non-ASCII first segment, Content-Length with Transfer-Encoding, a header
  with no colon, an oversized header): every log record of the process
  serving the page, formatted as the service's log has it.
"""
from __future__ import annotations

import argparse
import io
import json
import logging
import os
import selectors
import socket
import statistics
import subprocess
import sys
import threading
import time
from typing import Any
from urllib.parse import urlsplit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = "127.0.0.1"
SIEGE_PEER = "127.0.0.2"
SIEGE_CONNECTIONS = 500
FLOOD_PROCESSES = 8
FLOOD_CONNECTIONS = 4          # at once, per flood process
FLOOD_HEADER_KB = 100
BAD_REQUESTS = 10_000
MANY_PEERS = 200               # 127.0.0.3 .. 127.0.0.202: loopback only
MANY_CONNECTIONS = 10          # each, within its share (PER_PEER)
GUEST_STREAMS = 50
GUEST_ADDRESSES = 5            # 127.0.0.3 .. 127.0.0.7
MAX_SECONDS = 120.0            # any child of this module ends by itself by then


def _target(url: str) -> tuple[int, str]:
    u = urlsplit(url)
    if u.scheme != "http" or u.hostname != HOST or not u.port:
        raise SystemExit(f"only http://{HOST}:PORT/ (got {url!r})")
    return u.port, u.path if u.path.endswith("/") else u.path + "/"


# ================================================================ children


def _other_machine() -> None:
    """The guests stand for other machines on the network: on this one they take
    no CPU the device or the page would use (the idle class; nice 19 where
    that is not to be had)."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        try:
            os.nice(19)
        except OSError:
            pass


def _more_files(n: int) -> None:
    """Room for ``n`` sockets in this process (the soft limit is often 1024)."""
    try:
        import resource  # only the guests need it (and it is POSIX only)
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = n if hard == resource.RLIM_INFINITY else min(n, hard)
        if soft != resource.RLIM_INFINITY and soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    except (ImportError, ValueError, OSError):
        pass


def siege_main(argv: list[str]) -> int:
    """``siege URL --seconds S``: SIEGE_CONNECTIONS connections from SIEGE_PEER, each
    reopened as it drops, sending nothing; prints how many it opened in all."""
    p = argparse.ArgumentParser(prog="python -m bench.web_guard siege")
    p.add_argument("url")
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--connections", type=int, default=SIEGE_CONNECTIONS)
    a = p.parse_args(argv)
    port, _ = _target(a.url)
    _other_machine()
    end = time.monotonic() + min(a.seconds, MAX_SECONDS)
    sel = selectors.DefaultSelector()
    opened = 0

    def one() -> None:
        nonlocal opened
        s = socket.socket()
        s.setblocking(False)
        try:
            s.bind((SIEGE_PEER, 0))
            s.connect_ex((HOST, port))
            sel.register(s, selectors.EVENT_READ)
            opened += 1
        except OSError:
            s.close()
    for _ in range(min(a.connections, 1000)):
        one()
    print("ready", flush=True)
    while time.monotonic() < end:
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
    print(json.dumps({"opened": opened}), flush=True)
    return 0


def flood_main(argv: list[str]) -> int:
    """``flood URL N --png ID --seconds S``: FLOOD_CONNECTIONS connections from
    127.3.0.N, in turn downloading the PNG sheet and sending a request with
    FLOOD_HEADER_KB KB of headers, as fast as answered; prints the count."""
    p = argparse.ArgumentParser(prog="python -m bench.web_guard flood")
    p.add_argument("url")
    p.add_argument("n", type=int)
    p.add_argument("--png", type=int, required=True)
    p.add_argument("--seconds", type=float, default=10.0)
    a = p.parse_args(argv)
    port, base = _target(a.url)
    _other_machine()
    src = f"127.3.0.{1 + a.n % 250}"
    stuffed = (f"GET /{'x' * 22}/ HTTP/1.1\r\nHost: {HOST}\r\n" + "".join(
        f"X-Pad-{i}: {'a' * 1000}\r\n" for i in range(FLOOD_HEADER_KB)) + "\r\n").encode()
    png = f"GET {base}export/{a.png}.png HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode()
    end = time.monotonic() + min(a.seconds, MAX_SECONDS)
    done = [0]
    stop = threading.Event()

    def wait_for_stop() -> None:  # a line on stdin, or its end (the parent gone): stop
        sys.stdin.readline()
        stop.set()
    threading.Thread(target=wait_for_stop, daemon=True).start()
    print("ready", flush=True)

    def work(k: int) -> None:
        i = k
        while time.monotonic() < end and not stop.is_set():
            i += 1
            try:
                with socket.socket() as s:
                    s.bind((src, 0))
                    s.settimeout(10)
                    s.connect((HOST, port))
                    s.sendall(png if i % 2 else stuffed)
                    while s.recv(65536):
                        pass
                done[0] += 1
            except OSError:
                time.sleep(0.01)
    threads = [threading.Thread(target=work, args=(k,), daemon=True) for k in range(FLOOD_CONNECTIONS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(json.dumps({"requests": done[0]}), flush=True)
    return 0


def many_main(argv: list[str]) -> int:
    """``many URL --peers P --connections C --seconds S``: C idle connections from
    each of P loopback addresses (127.0.0.3 and up), each reopened as it drops;
    prints how many it opened in all."""
    p = argparse.ArgumentParser(prog="python -m bench.web_guard many")
    p.add_argument("url")
    p.add_argument("--peers", type=int, default=MANY_PEERS)
    p.add_argument("--connections", type=int, default=MANY_CONNECTIONS)
    p.add_argument("--seconds", type=float, default=10.0)
    a = p.parse_args(argv)
    port, _ = _target(a.url)
    _other_machine()
    _more_files(a.peers * a.connections + 64)
    end = time.monotonic() + min(a.seconds, MAX_SECONDS)
    sel = selectors.DefaultSelector()
    opened = 0
    peers = [f"127.0.0.{3 + k}" for k in range(min(a.peers, 250))]  # 127.0.0.x only: never another address

    def one(src: str) -> None:
        nonlocal opened
        s = socket.socket()
        s.setblocking(False)
        try:
            s.bind((src, 0))
            s.connect_ex((HOST, port))
            sel.register(s, selectors.EVENT_READ, src)
            opened += 1
        except OSError:
            s.close()
    for src in peers:
        for _ in range(a.connections):
            one(src)
    print("ready", flush=True)
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()
    while time.monotonic() < end and not stop.is_set():
        for key, _ in sel.select(0.05):
            sock = key.fileobj
            try:
                data = sock.recv(4096)  # type: ignore[union-attr]
            except OSError:
                data = b""
            if not data:
                sel.unregister(sock)
                sock.close()  # type: ignore[union-attr]
                one(key.data)
    print(json.dumps({"opened": opened}), flush=True)
    return 0


def _ended(sock: socket.socket) -> bool:
    """Whether the server ended a connection this end never reads (its FIN or RST
    came: TCP state CLOSE_WAIT or CLOSE), without reading what it holds."""
    try:
        state = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0]
    except OSError:
        return True
    return state in (7, 8)


def guest_main(argv: list[str]) -> int:
    """``guest URL --streams N --addresses A --seconds S``: one guest with the secret
    holding N streams from A loopback addresses (127.0.0.3 and up), every other one
    never reading; each reopened as it ends. Prints how many it opened."""
    p = argparse.ArgumentParser(prog="python -m bench.web_guard guest")
    p.add_argument("url")
    p.add_argument("--streams", type=int, default=GUEST_STREAMS)
    p.add_argument("--addresses", type=int, default=GUEST_ADDRESSES)
    p.add_argument("--seconds", type=float, default=10.0)
    a = p.parse_args(argv)
    port, base = _target(a.url)
    _other_machine()
    end = time.monotonic() + min(a.seconds, MAX_SECONDS)
    sel = selectors.DefaultSelector()
    never: dict[int, socket.socket] = {}  # the streams that never read, by their number
    opened = 0
    request = f"GET {base}events HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()

    def one(k: int) -> None:
        nonlocal opened
        s = socket.socket()
        try:
            if k % 2:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.bind((f"127.0.0.{3 + k % max(1, min(a.addresses, 250))}", 0))
            s.settimeout(5)
            s.connect((HOST, port))
            s.sendall(request)
            s.setblocking(False)
            if k % 2:
                never[k] = s
            else:
                sel.register(s, selectors.EVENT_READ, k)
            opened += 1
        except OSError:
            s.close()
    for k in range(a.streams):
        one(k)
    print("ready", flush=True)
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()
    looked = time.monotonic()
    while time.monotonic() < end and not stop.is_set():
        for key, _ in sel.select(0.1):
            sock = key.fileobj
            try:
                gone = not sock.recv(65536)  # type: ignore[union-attr]
            except OSError:
                gone = True
            if gone:
                sel.unregister(sock)
                sock.close()  # type: ignore[union-attr]
                one(key.data)
        if time.monotonic() - looked > 0.5:
            looked = time.monotonic()
            for k, sock in list(never.items()):
                if _ended(sock):
                    del never[k]
                    sock.close()
                    one(k)
    print(json.dumps({"opened": opened}), flush=True)
    return 0


class _Child:
    def __init__(self, *args: str, timeout: float) -> None:
        self.timeout = timeout
        self.proc = subprocess.Popen([sys.executable, "-m", "bench.web_guard", *args], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != "ready":
            self.proc.kill()
            raise RuntimeError(f"bench.web_guard {args[0]} did not start")

    def result(self) -> dict[str, Any]:
        try:
            out, _ = self.proc.communicate("stop\n", timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
            return {}
        lines = out.strip().splitlines()
        return json.loads(lines[-1]) if lines else {}

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)


# ================================================================ the second peer


def _request(port: int, path: str, timeout: float = 10.0) -> int:
    import http.client
    c = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        c.request("GET", path)
        r = c.getresponse()
        r.read()
        return r.status
    except (OSError, http.client.HTTPException):
        return 0
    finally:
        c.close()


def measure_siege(folder: str, seconds: float) -> dict[str, Any]:
    from bench.live import LiveTable
    from bench.scripts_bag_of_ice import START
    pages = ["", "static/app.js", "static/app.css", "static/icon.svg", "state.json", "history.json", "tv"]
    with LiveTable(folder) as t:
        port, base = _target(t.url)
        t.press(*START)
        t.settle()
        siege = _Child("siege", t.url, "--seconds", str(seconds + 3), timeout=seconds + 30)
        statuses: list[int] = []
        streams_ok = streams = 0
        try:
            time.sleep(1.0)  # the siege takes what it can
            end = time.monotonic() + seconds
            i = 0
            while time.monotonic() < end:
                if i % len(pages) == 0:  # a phone opening the page: its stream gets the next press
                    streams += 1
                    streams_ok += _stream_updates(t, port, base)
                statuses.append(_request(port, base + pages[i % len(pages)]))
                i += 1
            res = siege.result()
        finally:
            siege.kill()
    ok = sum(s == 200 for s in statuses)
    return {"web_siege_page_ok": round(ok / len(statuses), 4) if statuses else None,
            "web_siege_requests": len(statuses), "web_siege_streams_updated": f"{streams_ok}/{streams}",
            "web_siege_statuses": {str(k): statuses.count(k) for k in sorted(set(statuses))},
            "web_siege_connections_opened": res.get("opened")}


def _stream_updates(t, port: int, base: str) -> int:
    """1 if a stream opened now is answered 200 and sends the state at once."""
    try:
        with socket.create_connection((HOST, port), timeout=10) as s:
            s.sendall(f"GET {base}events HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
            got = b""
            while b"event: state" not in got:
                piece = s.recv(65536)
                if not piece:
                    return 0
                got += piece
            return int(got.startswith(b"HTTP/1.1 200"))
    except OSError:
        return 0


# ================================================================ many addresses, one guest's streams


def _timed(fn) -> tuple[bool, float]:
    t0 = time.perf_counter()
    ok = bool(fn())
    return ok, (time.perf_counter() - t0) * 1000


def measure_many(folder: str, seconds: float, peers: int = MANY_PEERS,
                 connections: int = MANY_CONNECTIONS) -> dict[str, Any]:
    from bench.live import LiveTable
    from bench.scripts_bag_of_ice import START
    from bench.walks import percentile
    with LiveTable(folder) as t:
        port, base = _target(t.url)
        t.press(*START)
        t.settle()
        many = _Child("many", t.url, "--peers", str(peers), "--connections", str(connections),
                      "--seconds", str(seconds + 10), timeout=seconds + 40)
        results: list[tuple[bool, float]] = []
        try:
            time.sleep(1.0)  # the peers take what they can
            end = time.monotonic() + seconds
            asks = [lambda: _request(port, base) == 200, lambda: _request(port, base + "static/app.js") == 200,
                    lambda: _request(port, base + "state.json") == 200, lambda: _stream_updates(t, port, base)]
            i = 0
            while time.monotonic() < end:  # the phone, each request on a fresh connection
                results.append(_timed(asks[i % len(asks)]))
                i += 1
            res = many.result()
        finally:
            many.kill()
    ok = [x for x, _ in results]
    return {"web_many_peers_page_ok": round(sum(ok) / len(ok), 4) if ok else None,
            "web_many_peers_page_p95_ms": round(percentile([ms for _, ms in results], 0.95), 1) if results else None,
            "web_many_peers_requests": len(results), "web_many_peers_failed": len(ok) - sum(ok),
            "web_many_peers_connections_opened": res.get("opened"), "web_many_peers": peers,
            "web_many_peers_connections": connections}


def measure_guest_streams(folder: str, seconds: float, streams: int = GUEST_STREAMS,
                          addresses: int = GUEST_ADDRESSES) -> dict[str, Any]:
    from bench.live import LiveTable
    from bench.scripts_bag_of_ice import START
    with LiveTable(folder) as t:
        port, base = _target(t.url)
        t.press(*START)
        t.settle()
        guest = _Child("guest", t.url, "--streams", str(streams), "--addresses", str(addresses),
                       "--seconds", str(seconds + 10), timeout=seconds + 40)
        got: list[int] = []
        held = 0
        try:
            end = time.monotonic() + 10
            while t.page.server.streams < t.settings.web_clients and time.monotonic() < end:
                time.sleep(0.05)  # the guest holds every stream it can
            held = t.page.server.streams
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                got.append(_stream_updates(t, port, base))
                time.sleep(0.1)
            res = guest.result()
        finally:
            guest.kill()
    return {"web_guest_streams_page_ok": round(sum(got) / len(got), 4) if got else None,
            "web_guest_streams_requests": len(got), "web_guest_streams_held_before": held,
            "web_guest_streams_opened": res.get("opened"), "web_guest_streams": streams,
            "web_guest_streams_addresses": addresses}


# ================================================================ the flood


def measure_flood(folder: str, scripts: list[list[str]], seconds: float, repeats: int) -> dict[str, Any]:
    from bench.live import LiveTable
    from bench.scripts_bag_of_ice import START
    from bench.web import FRAME_LATE_MS, Meter, _pass_interval, _per_event, percentile, play_scripts
    interval = _pass_interval(scripts, seconds)
    quiet: list[list[float]] = []
    flooded: list[list[float]] = []
    served = 0
    order = [x for rep in range(repeats) for x in ((False, True) if rep % 2 == 0 else (True, False))]
    for i, under in enumerate(order):
        with LiveTable(os.path.join(folder, f"pass-{i}")) as t:
            # a game on the journal, for its PNG sheet (the flood's downloads)
            t.press(*START)
            t.settle()
            png = t.call(lambda app: app.journal.number(app.journal.sessions()[0].id))
            m = Meter(t)
            if not under:
                quiet.append([x.wall_ms for x in play_scripts(m, scripts, interval)])
                continue
            kids = [_Child("flood", t.url, str(k), "--png", str(png), "--seconds", str(seconds * 3 + 10),
                           timeout=seconds * 3 + 40) for k in range(FLOOD_PROCESSES)]
            try:
                time.sleep(1.0)
                flooded.append([x.wall_ms for x in play_scripts(m, scripts, interval)])
                served += sum(k.result().get("requests", 0) for k in kids)
            finally:
                for k in kids:
                    k.kill()
    # each press with the least of its passes, as web_load_event_cpu_ratio takes it: what other
    # work on this shared machine adds to one pass does not count; the flood is in every flooded
    # pass, so what it adds to a press stays
    min_q, min_f = _per_event(quiet, min), _per_event(flooded, min)
    p99_q, p99_f = percentile(min_q, 0.99), percentile(min_f, 0.99)
    pooled_q = percentile([x for r in quiet for x in r], 0.99)
    pooled_f = percentile([x for r in flooded for x in r], 0.99)
    return {"web_flood_event_p99_ratio": round(p99_f / p99_q, 3),
            "web_flood_press_wall_p99_ms": round(p99_f, 2), "web_quiet_flood_press_wall_p99_ms": round(p99_q, 2),
            "web_flood_event_p99_ratio_pooled": round(pooled_f / pooled_q, 3),
            "web_flood_press_wall_median_ms": round(statistics.median(min_f), 2),
            "web_quiet_flood_press_wall_median_ms": round(statistics.median(min_q), 2),
            "web_flood_frames_late": sum(x > FRAME_LATE_MS for r in flooded for x in r),
            "web_flood_repeats": repeats,
            "web_flood_presses": len(min_f), "web_flood_processes": FLOOD_PROCESSES,
            "web_flood_requests": served}


# ================================================================ bad requests and the log


BAD = [  # each closes its connection (the server's answer, or Connection: close): one request each
    b"GARBAGE\r\n\r\n",
    b"GET /%C3%A9/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    b"GET /%C3%A9/events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n",
    b"GET /\xff\xfe/ HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",
]


def _bad_sender(port: int, src: str, n: int, counts: list[int]) -> None:
    for i in range(n):
        try:
            with socket.socket() as s:
                s.bind((src, 0))
                s.settimeout(5)
                s.connect((HOST, port))
                s.sendall(BAD[i % len(BAD)])
                while s.recv(65536):
                    pass
            counts[0] += 1
        except OSError:
            counts[1] += 1


def measure_bad_log(folder: str, n: int = BAD_REQUESTS) -> dict[str, Any]:
    from bench.live import LiveTable
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    level = root.level
    root.setLevel(logging.INFO)
    try:
        with LiveTable(folder) as t:
            port, _ = _target(t.url)
            counts = [0, 0]
            t0 = time.monotonic()
            senders = [threading.Thread(target=_bad_sender, args=(port, f"127.4.0.{k + 1}", n // 4, counts))
                       for k in range(4)]
            for s in senders:
                s.start()
            for s in senders:
                s.join()
            took = time.monotonic() - t0
            time.sleep(0.5)  # what the page process says last reaches the log
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    text = out.getvalue()
    return {"web_bad_request_log_bytes": len(text.encode()), "web_bad_requests": counts[0],
            "web_bad_requests_failed": counts[1], "web_bad_requests_s": round(took, 1),
            "web_bad_request_log_lines": text.count("\n")}


# ================================================================ all three


def measure_guard(folder: str, scripts: list[list[str]], *, siege_s: float = 20.0, bad: int = BAD_REQUESTS,
                  flood_s: float = 15.0, flood_repeats: int = 2, many_s: float = 20.0,
                  many_peers: int = MANY_PEERS, guest_s: float = 15.0) -> dict[str, Any]:
    out: dict[str, Any] = {}
    out.update(measure_siege(os.path.join(folder, "siege"), siege_s))
    out.update(measure_many(os.path.join(folder, "many"), many_s, many_peers))
    out.update(measure_guest_streams(os.path.join(folder, "guest"), guest_s))
    out.update(measure_bad_log(os.path.join(folder, "bad"), bad))
    out.update(measure_flood(os.path.join(folder, "flood"), scripts, flood_s, flood_repeats))
    return out


def note(fig: dict[str, Any]) -> str:
    def f(k: str) -> str:
        v = fig.get(k)
        return "n/a" if v is None else str(v)
    return (
        "* **The page against a guest on the Wi-Fi** (issue 38, bench/web_guard.py). "
        f"`web_siege_page_ok`: another process on {SIEGE_PEER} holds {SIEGE_CONNECTIONS} connections that "
        f"never send, each reopened as soon as it drops ({f('web_siege_connections_opened')} opened in all), "
        f"while the second peer, 127.0.0.1, opens the page as a phone does, one request after another: "
        f"{f('web_siege_requests')} requests ({f('web_siege_statuses')}), and {f('web_siege_streams_updated')} "
        f"streams opened under the siege got the state. "
        f"`web_flood_event_p99_ratio`: {FLOOD_PROCESSES} processes (the idle scheduling class, each from a loopback address of "
        f"its own, {FLOOD_CONNECTIONS} connections at once) download the PNG score sheet and send requests "
        f"with {FLOOD_HEADER_KB} KB of headers in turn, as fast as answered ({f('web_flood_requests')} "
        f"requests answered in all), while the scripted sessions are played; the presses' press-to-frame p99 ({f('web_flood_press_wall_p99_ms')} ms, median "
        f"{f('web_flood_press_wall_median_ms')} ms, {f('web_flood_presses')} presses) over the same presses "
        f"without the flood ({f('web_quiet_flood_press_wall_p99_ms')} ms, median "
        f"{f('web_quiet_flood_press_wall_median_ms')} ms), {f('web_flood_repeats')} passes of each taken in "
        f"turns, each on a fresh journal, each press counted with the least of its passes (every press of "
        f"every pass pooled: {f('web_flood_event_p99_ratio_pooled')}); frames later than 100 ms under the "
        f"flood: {f('web_flood_frames_late')}. The page's process runs at nice 10 "
        f"(hardware/web_child.py; `Nice=10` in its unit): a press comes first. "
        f"`web_many_peers_page_ok` (issue 47): another process holds {MANY_CONNECTIONS} idle connections "
        f"from each of {f('web_many_peers')} loopback addresses (127.0.0.3 and up), each reopened as it "
        f"drops ({f('web_many_peers_connections_opened')} opened in all), while the phone, 127.0.0.1, loads "
        f"the page, `static/app.js`, `state.json` and a stream's first state, each on a fresh connection: "
        f"{f('web_many_peers_requests')} requests, {f('web_many_peers_failed')} not answered, p95 "
        f"{f('web_many_peers_page_p95_ms')} ms (`web_many_peers_page_p95_ms`). "
        f"`web_guest_streams_page_ok`: one guest with the secret holds {GUEST_STREAMS} streams from "
        f"{GUEST_ADDRESSES} addresses, every other one never reading, each reopened as it ends "
        f"({f('web_guest_streams_held_before')} held when the phone began, "
        f"{f('web_guest_streams_opened')} opened in all); the phone's stream requests that opened and "
        f"delivered a state, of {f('web_guest_streams_requests')}. "
        f"`web_bad_request_log_bytes`: {f('web_bad_requests')} malformed requests of {len(BAD)} kinds (no "
        f"request line, a non-ASCII first segment, Content-Length with Transfer-Encoding, a header without "
        f"a colon, raw bytes in the path, a 9 KB header) from four peers in {f('web_bad_requests_s')} s: the "
        f"log records they caused, formatted ({f('web_bad_request_log_lines')} lines).")


def measure(quick: bool) -> dict[str, Any]:
    """The three keys as ``python -m bench`` runs them (its step after the page's)."""
    import tempfile
    from bench.scripts import all_scripts
    with tempfile.TemporaryDirectory(prefix="bench-web-guard-") as d:
        out = measure_guard(d, all_scripts(quick), siege_s=8.0 if quick else 20.0,
                            flood_s=6.0 if quick else 15.0, flood_repeats=2 if quick else 3,
                            many_s=8.0 if quick else 20.0, guest_s=6.0 if quick else 15.0)
    print("bench: a guest on the Wi-Fi done", file=sys.stderr)
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "siege":
        return siege_main(argv[1:])
    if argv and argv[0] == "flood":
        return flood_main(argv[1:])
    if argv and argv[0] == "many":
        return many_main(argv[1:])
    if argv and argv[0] == "guest":
        return guest_main(argv[1:])
    print(json.dumps(measure("--quick" in argv), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
