"""Pairing questions on the device: one at a time, answered only for
the link that asked, and not asked again at once after one ended without Allow."""
from __future__ import annotations

import random
import time

from companion.console import READ_ONLY, Console, ConsoleError, direct
from companion.io import Key
from companion.journal import Journal
from companion.ui.app import App
from companion.ui.widgets import Confirm
from hardware.serial_console import SerialConsole

from .test_console_serial import Rig, wait_for

ASKED = "OK pairing: a player must choose Allow on the device, then press works"
ASKING = "OK pairing: the device is already asking; a player must choose Allow on the device, then press works"


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def make(tmp_path):
    app = App(Journal(str(tmp_path / "j.db")), rng=random.Random(1))
    app.home()
    clock = Clock()
    return app, Console(direct(app), clock=clock), clock


def boxes(app) -> int:
    return sum(isinstance(s, Confirm) for s in app.stack)


def allow(app) -> None:
    """A player at the table: to Allow, OK."""
    app.handle(Key.RIGHT)
    app.handle(Key.OK)


def test_a_second_pair_while_the_device_asks_adds_no_box(tmp_path):
    app, c, _clock = make(tmp_path)
    assert c.handle("pair") == [ASKED, ""]
    for _ in range(4):
        assert c.handle("pair") == [ASKING, ""]
    assert boxes(app) == 1
    app.handle(Key.OK)  # one Refuse clears it: the table is back to its game
    assert boxes(app) == 0 and type(app.top).__name__ == "MainMenu"
    assert c.handle("press ok") == ["ERR " + READ_ONLY, ""]


def test_the_question_of_a_lost_link_is_withdrawn_and_the_new_link_starts_unpaired(tmp_path):
    app, c, _clock = make(tmp_path)
    sc = SerialConsole("loop://", c, backoff=(0.01, 0.02))
    sc._open()
    try:
        assert c.handle("pair") == [ASKED, ""] and boxes(app) == 1
        sc._close_port()
        sc._open()  # link B
        assert boxes(app) == 0  # link A's question left the device
        allow(app)  # a player's Allow now answers nothing
        assert not c.paired and c.handle("press down") == ["ERR " + READ_ONLY, ""]
        assert c.handle("status")[-2] == "read-only: yes"
        # link B asks for itself (link A's question did not count as refused)
        assert c.handle("pair") == [ASKED, ""]
        allow(app)
        assert c.paired and c.handle("press down")[0] == "OK pressed 1"
    finally:
        sc._close_port()


def test_an_allow_on_a_question_left_by_a_busy_app_is_void_for_the_new_link(tmp_path):
    app, c, _clock = make(tmp_path)
    c.handle("pair")
    run = c.run

    def busy(fn, redraw=False):
        raise ConsoleError("busy (the app did not answer)")
    c.run = busy
    c.unpair()  # a new link, while the app cannot take the question off
    c.run = run
    assert boxes(app) == 1  # still shown...
    allow(app)  # ...and answered Allow
    assert not c.paired and c.handle("press down") == ["ERR " + READ_ONLY, ""]
    # a stale question still shown when the new link asks is taken off first
    c.handle("pair")
    c.run = busy
    c.unpair()
    c.run = run
    assert c.handle("pair") == [ASKED, ""] and boxes(app) == 1
    allow(app)
    assert c.paired


def test_after_a_refusal_pair_waits_a_pause_that_doubles(tmp_path):
    app, c, clock = make(tmp_path)
    c.handle("pair")
    app.handle(Key.OK)  # Refuse
    assert c.handle("pair") == ["ERR the last pairing question was not allowed; ask again in 30 s", ""]
    assert boxes(app) == 0
    clock.t += 29.5
    assert c.handle("pair")[0].endswith("ask again in 1 s")
    clock.t += 0.5
    assert c.handle("pair") == [ASKED, ""]
    app.handle(Key.BACK)  # BACK on the question is no Allow either
    assert boxes(app) == 0 and c.handle("pair")[0].endswith("ask again in 60 s")
    clock.t += 60
    c.handle("pair")
    allow(app)  # an Allow ends the series
    assert c.paired
    c.handle("unpair")
    c.handle("pair")
    app.handle(Key.OK)
    assert c.handle("pair")[0].endswith("ask again in 30 s")


def test_unpair_withdraws_a_pending_question(tmp_path):
    app, c, clock = make(tmp_path)
    c.handle("pair")
    assert c.handle("unpair") == ["OK control: read-only", ""]
    assert boxes(app) == 0 and not c.paired
    # a pair/unpair loop cannot keep putting boxes on the device
    assert c.handle("pair")[0].startswith("ERR the last pairing question was not allowed")
    assert boxes(app) == 0


def test_over_a_pty_a_stale_question_does_not_pair_the_next_link(tmp_path):
    """Link A asks, is unplugged; link B comes; a player
    then chooses Allow on what the device shows."""
    r = Rig(tmp_path, read_only=True)
    try:
        assert r.command("pair")[0] == ASKED
        assert r.command("pair")[0] == ASKING
        opens = r.sc.opens
        r.unplug()
        time.sleep(0.3)
        r.plug()
        wait_for(lambda: r.sc.opens > opens and r.sc.connected, what="reopen", timeout=10)
        r.buf = b""
        status = r.command("status")
        assert "read-only: yes" in status and "screen: Serial console" not in status
        r.inputs.put(Key.RIGHT)
        r.inputs.put(Key.OK)
        time.sleep(0.3)
        assert "read-only: yes" in r.command("status")
        assert r.command("press down")[0] == "ERR " + READ_ONLY
    finally:
        r.close()
