"""The serial console over real links: a pty pair (the
test is the host on the master side, pyserial opens the slave) and pyserial's
``loop://``. The app runs in a real ``Loop`` thread; the console reaches it
only through ``Call`` items on the loop's queue.

Also writes/checks the session transcript in docs/console.md
(``COMPANION_UPDATE_DOCS=1`` rewrites it after a deliberate change).
"""
from __future__ import annotations

import json
import os
import queue
import random
import re
import select
import threading
import time
from pathlib import Path

import pytest

from companion.config import Settings
from companion.console import READ_ONLY, Console
from companion.loop import loop_runner, loop_waker
from companion.io import Key
from companion.journal import Journal
from companion.loop import STOP, Call, Loop
from companion.records import parse_lines, replay
from companion.ui.app import App
from hardware.serial_console import LineSplitter, SerialConsole

from .test_console import FakeDisplay
from .test_export import clock, play_tally, tally  # noqa: F401  (fixture)

DOC = Path(__file__).resolve().parent.parent / "docs" / "console.md"


def wait_for(pred, timeout: float = 5.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


class Rig:
    """An app in a running loop thread, a pty pair behind a stable symlink
    (like /dev/ttyGS0), and the console on it."""

    def __init__(self, tmp_path, *, read_only=False, write_timeout=0.3, tally_session=False):
        self.app = App(Journal(":memory:", clock=clock()), Settings(), rng=random.Random(5))
        self.inputs: queue.Queue = queue.Queue()
        self.loop = Loop(self.app, FakeDisplay(), self.inputs, idle_blank_s=0, tick_s=0.05)
        self.thread = threading.Thread(target=self.loop.run, daemon=True)
        self.thread.start()
        self.link = str(tmp_path / "ttyCOMPANION")
        self.master = -1
        self.plug()
        console = Console(loop_runner(self.loop, timeout=3), read_only=read_only, wake=loop_waker(self.loop))
        self.sc = SerialConsole(self.link, console, write_timeout=write_timeout, backoff=(0.05, 0.2)).start()
        wait_for(lambda: self.sc.connected, what="the port to open")
        self.buf = b""

    def plug(self) -> None:
        """A new pty pair; the symlink points at its slave."""
        master, slave = os.openpty()
        name = os.ttyname(slave)
        os.close(slave)  # pyserial opens it by name
        tmp = self.link + ".new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(name, tmp)
        os.replace(tmp, self.link)
        self.master = master

    def unplug(self) -> None:
        os.close(self.master)
        self.master = -1
        os.unlink(self.link)

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def read_until(self, end: bytes, timeout: float = 5.0) -> bytes:
        deadline = time.monotonic() + timeout
        while end not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {end!r} in {self.buf[-300:]!r}")
            r, _, _ = select.select([self.master], [], [], left)
            if r:
                self.buf += os.read(self.master, 65536)
        i = self.buf.index(end) + len(end)
        out, self.buf = self.buf[:i], self.buf[i:]
        return out

    def drain(self, quiet: float = 0.3) -> bytes:
        got = b""
        while True:
            r, _, _ = select.select([self.master], [], [], quiet)
            if not r:
                return got
            got += os.read(self.master, 65536)

    def command(self, line: str) -> list[str]:
        """Send a line, read one reply (up to its empty end line)."""
        self.send(line.encode() + b"\r\n")
        return self.read_until(b"\r\n\r\n").decode().split("\r\n")[:-2]

    def close(self) -> None:
        self.sc.close()
        self.inputs.put(STOP)
        self.thread.join(timeout=2)
        if self.master >= 0:
            os.close(self.master)


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path)
    yield r
    r.close()


# ---------------------------------------------------------------- line splitting


def test_line_splitter_handles_cr_lf_crlf_long_lines_and_bad_utf8():
    sp = LineSplitter(max_line=8)
    assert sp.feed(b"ab\rcd\nef\r") == [("line", "ab"), ("line", "cd"), ("line", "ef")]
    assert sp.feed(b"\ngh") == []                       # the LF of CRLF is not an empty line
    assert sp.feed(b"\n\n") == [("line", "gh"), ("line", "")]
    assert sp.feed(b"123456789abc") == [("error", "line too long")]
    assert sp.feed(b"def\nok\n") == [("line", "ok")]     # discarded up to its newline
    assert sp.feed(b"\xff\xfe\n\xc3\xa9\n") == [("error", "not UTF-8"), ("line", "\u00e9")]
    assert sp.feed(b"12345678\n") == [("line", "12345678")]  # exactly the limit is fine


# ---------------------------------------------------------------- over a pty


def test_every_command_over_a_pty(rig, tally):
    s = play_tally(rig.app.journal, ["roll", "gain 2", "pass", "roll", "gain 3"])
    assert rig.command("help")[0] == "OK commands"
    assert rig.command("status")[:2] == ["OK status", "screen: Pyramid Companion"]
    assert rig.command("press down,ok,ok") == ["OK pressed 3", "screen: Pyramid die"]
    assert rig.app.top.session.game == "die"
    screen = rig.command("screen")
    assert screen[0] == "OK screen" and len(screen) == 17
    games = rig.command("games")
    assert games[0] == "OK 2 games" and games[2] == f"#{s.number}  2026-05-01 12:00  Tally  Ann, Bob  won by Ann"
    rec = rig.command(f"export {s.number} json")
    assert replay(parse_lines(rec[1:])).to_json()["scores"] == [5, 0]
    assert rig.command(f"export {s.number} csv")[1:] == [
        "turn,seq,player,move,description,Ann,Bob", "1,3,chance,gain 2,Ann gains 2,2,0",
        "2,6,chance,gain 3,Ann gains 3,5,0"]
    assert rig.command(f"events {s.number} 5")[1:] == [json.dumps(
        {"session": s.number, "seq": 6, "type": "move", "move": "gain 3", "time": s.events[-1].time})]
    die = rig.app.top.session.number  # the number games shows, not the journal's id
    assert rig.command(f"watch {die}") == [f"OK watching session {die}; send any line to stop"]
    rig.inputs.put(Key.OK)                                   # a button press on the device: roll
    first = json.loads(rig.read_until(b"\r\n").decode())
    second = json.loads(rig.read_until(b"\r\n").decode())
    assert (first["move"], second["move"][:4]) == ("roll", "face")
    assert rig.command("stop") == ["OK stopped"]
    assert rig.command("bye") == ["OK bye"]
    assert rig.command("nonsense") == ["ERR unknown command 'nonsense' (try: help)"]


def test_read_only_over_a_pty(tmp_path):
    r = Rig(tmp_path, read_only=True)
    try:
        assert r.command("press ok") == ["ERR " + READ_ONLY]
        assert r.app.top.title == "Pyramid Companion" and r.app.journal.count() == 0
        assert r.command("status")[-1] == "read-only: yes"
    finally:
        r.close()


def test_overlong_line_and_invalid_utf8_over_a_pty(rig):
    rig.send(b"press " + b"ok," * 100 + b"\r\n")             # 306 bytes
    assert rig.read_until(b"\r\n\r\n") == b"ERR line too long\r\n\r\n"
    rig.send(b"stat\xff\xfeus\r\n")
    assert rig.read_until(b"\r\n\r\n") == b"ERR not UTF-8\r\n\r\n"
    assert rig.app.top.title == "Pyramid Companion" and rig.app.journal.count() == 0
    assert rig.command("status")[0] == "OK status"           # nothing else happened


def test_a_burst_of_garbage_changes_nothing_and_the_link_still_answers(rig):
    rng = random.Random(99)
    junk = bytes(rng.randrange(256) for _ in range(20000))
    junk = junk.replace(b"p", b"q")                          # no accidental "press" command
    rig.send(junk)
    rig.send(b"\r\n")
    rig.drain()
    assert rig.app.journal.count() == 0 and len(rig.app.stack) == 1
    assert rig.command("status")[0] == "OK status"
    assert rig.sc._thread.is_alive()


def test_the_port_goes_away_and_comes_back_while_the_game_goes_on(rig):
    assert rig.command("press down,ok,ok") == ["OK pressed 3", "screen: Pyramid die"]
    rig.unplug()                                             # USB cable pulled
    wait_for(lambda: not rig.sc.connected, what="the console to notice")
    rig.inputs.put(Key.OK)                                   # the game goes on meanwhile
    wait_for(lambda: rig.app.top.session.state.rolls, what="the roll")
    time.sleep(0.3)                                          # a few reopen attempts fail
    assert rig.sc.failures >= 2
    rig.plug()                                               # plugged in again
    wait_for(lambda: rig.sc.connected, what="the reopen")
    assert rig.sc.opens == 2
    st = rig.command("status")
    assert st[1] == "screen: Pyramid die" and st[3] == "player: seat 1"


def test_a_host_that_never_reads_stalls_nothing(tmp_path):
    r = Rig(tmp_path, write_timeout=0.05)
    try:
        for _ in range(60):                                  # ~200 kB of replies nobody reads
            r.send(b"screen\r\n")
        wait_for(lambda: r.sc.dropped > 0, timeout=10, what="a write to time out")
        # the app loop keeps running: keys on the queue are handled at once
        for k in (Key.DOWN, Key.OK, Key.OK):
            r.inputs.put(k)
        wait_for(lambda: getattr(r.app.top, "session", None) is not None, timeout=1, what="the keys")
        probe = Call(lambda app: app.top.title, redraw=False)
        t0 = time.monotonic()
        r.inputs.put(probe)
        probe.future.result(timeout=1)
        assert time.monotonic() - t0 < 0.5
        # once the host reads again, the console answers again
        wait_for(lambda: not r.drain(0.5), timeout=30, what="the backlog to pass")
        assert r.command("status")[1] == "screen: Pyramid die"
    finally:
        r.close()


# ---------------------------------------------------------------- over loop://


def _loop_console(app_loop):
    console = Console(loop_runner(app_loop, timeout=3), wake=loop_waker(app_loop), read_only=False)
    return SerialConsole("loop://", console, write_timeout=0.2, backoff=(0.05, 0.2)).start()


@pytest.fixture
def app_loop():
    app = App(Journal(":memory:"), Settings(), rng=random.Random(5))
    loop = Loop(app, FakeDisplay(), queue.Queue(), idle_blank_s=0, tick_s=0.05)
    t = threading.Thread(target=loop.run, daemon=True)
    t.start()
    yield loop
    loop.inputs.put(STOP)
    t.join(timeout=2)


def test_loop_url_commands_errors_and_no_echo_storm(app_loop):
    """loop:// sends every reply straight back in: the console must answer the
    commands and recognise its own lines (no endless ERR ping-pong)."""
    with _loop_console(app_loop) as sc:
        wait_for(lambda: sc.connected)
        sc.port.write(b"press down,ok,ok,ok\r\nstatus\r\n" + b"x" * 300 + b"\r\nst\xffx\r\n")
        wait_for(lambda: "ERR not UTF-8" in sc.sent, what="all four replies")
        time.sleep(0.3)
        n = len(sc.sent)
        time.sleep(0.3)
        assert len(sc.sent) == n                             # quiet: no storm
        assert sc.sent[:3] == ["OK pressed 4", "screen: Pyramid die", ""]
        assert "OK status" in sc.sent and "ERR line too long" in sc.sent
        assert not any(line.startswith("ERR unknown") for line in sc.sent)
        assert app_loop.app.top.session.state.rolls


def test_loop_url_port_closed_under_the_console_is_reopened(app_loop):
    with _loop_console(app_loop) as sc:
        wait_for(lambda: sc.connected)
        first = sc.port
        first.close()                                        # the port fails under the reader
        wait_for(lambda: sc.opens == 2 and sc.port is not None and sc.port is not first, what="a new port")
        sc.port.write(b"status\r\n")
        wait_for(lambda: "OK status" in sc.sent)
        assert sc.failures >= 1


def test_serial_console_closes_cleanly_even_when_the_port_never_opens(tmp_path):
    console = Console(lambda fn, redraw=False: None)
    sc = SerialConsole(str(tmp_path / "no-such-tty"), console, backoff=(0.02, 0.05)).start()
    wait_for(lambda: sc.failures >= 3, what="retries with backoff")
    t0 = time.monotonic()
    sc.close()
    assert time.monotonic() - t0 < 1 and not sc._thread.is_alive()


# ---------------------------------------------------------------- transcript in docs/console.md

TRANSCRIPT_START = "<!-- transcript: written by tests/test_console_serial.py, do not edit -->"
TRANSCRIPT_END = "<!-- end of transcript -->"


def test_docs_transcript_is_a_real_session(tmp_path):
    """Run a scripted session over a pty and compare it with the transcript in
    docs/console.md (COMPANION_UPDATE_DOCS=1 rewrites it)."""
    r = Rig(tmp_path)
    out: list[str] = []
    try:
        from companion.session import Session
        s = Session.start(r.app.journal, "pick", {"players": 3}, random.Random(8))
        s.play("pick")                                       # the device picks the start player
        s.play("pick")

        def run(line: str) -> None:
            out.append(f"> {line}")
            out.extend(r.command(line))
            out.append("")
        for line in ("help", "status", "press down,ok,ok,ok", "status", "screen", "games",
                     f"export {s.number} json", f"export {s.number} csv", f"events {s.number} 3", "press up,jump",
                     "export 99 csv"):
            run(line)
        die = r.app.top.session.number
        out.append(f"> watch {die}")
        out.extend(r.command(f"watch {die}"))
        out.append("")
        out.append("(OK is pressed on the device)")
        r.inputs.put(Key.OK)
        out.append(r.read_until(b"\r\n").decode().rstrip("\r\n"))
        out.append(r.read_until(b"\r\n").decode().rstrip("\r\n"))
        run("stop")
        run("bye")
    finally:
        r.close()
    text = "\n".join(out).rstrip() + "\n"
    # times of the device's own events depend on the wall clock of this run
    text = re.sub(r'"time": "[^"]+"', '"time": "2026-05-01T12:00:00.000+00:00"', text)
    doc = DOC.read_text(encoding="utf-8")
    block = f"{TRANSCRIPT_START}\n```text\n{text}```\n{TRANSCRIPT_END}"
    pattern = re.compile(re.escape(TRANSCRIPT_START) + r".*?" + re.escape(TRANSCRIPT_END), re.S)
    if os.environ.get("COMPANION_UPDATE_DOCS") == "1":
        DOC.write_text(pattern.sub(lambda m: block, doc), encoding="utf-8")
        return
    m = pattern.search(doc)
    assert m, "docs/console.md has no transcript block"
    assert m.group(0) == block, "docs/console.md transcript differs; run with COMPANION_UPDATE_DOCS=1"


def test_cli_starts_the_console_from_serial_option_or_setting(app_loop):
    import argparse
    from companion import cli, config
    assert cli._serial_console(argparse.Namespace(serial=None), app_loop.app, app_loop) is None
    sc = cli._serial_console(argparse.Namespace(serial="loop://"), app_loop.app, app_loop)
    try:
        wait_for(lambda: sc.connected)
        assert sc.url == "loop://" and sc.baudrate == 115200 and sc.console.read_only  # read-only by default
    finally:
        sc.close()
    app_loop.app.settings = config.change(app_loop.app.settings, serial="loop://", read_only=True)  # explicit
    sc = cli._serial_console(argparse.Namespace(serial=None), app_loop.app, app_loop)
    try:
        wait_for(lambda: sc.connected)
        sc.port.write(b"press ok\r\n")
        wait_for(lambda: "ERR " + READ_ONLY in sc.sent)
    finally:
        sc.close()
