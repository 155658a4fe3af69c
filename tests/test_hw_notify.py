"""sd_notify datagrams received on a test AF_UNIX notify socket."""
from __future__ import annotations

import os
import socket
import uuid

import pytest

from hardware.notify import SystemdNotifier, watchdog_interval


@pytest.fixture
def notify_socket(tmp_path):
    path = str(tmp_path / "notify")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    s.settimeout(2)
    yield path, s
    s.close()


def received(s: socket.socket) -> str:
    return s.recv(4096).decode()


def test_ready_watchdog_status_stopping(notify_socket, monkeypatch):
    path, s = notify_socket
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    n = SystemdNotifier()
    assert n.enabled
    assert n.ready()
    assert received(s) == "READY=1"
    assert n.watchdog()
    assert received(s) == "WATCHDOG=1"
    assert n.status("3 players\nround 2")
    assert received(s) == "STATUS=3 players round 2"
    assert n.stopping()
    assert received(s) == "STOPPING=1"
    n.close()


def test_abstract_socket_name():
    name = f"companion-test-{uuid.uuid4().hex}"
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind("\0" + name)
    s.settimeout(2)
    try:
        n = SystemdNotifier("@" + name)
        n.ready()
        assert received(s) == "READY=1"
    finally:
        s.close()


def test_without_notify_socket_everything_is_a_no_op(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    n = SystemdNotifier()
    assert not n.enabled
    assert not n.ready() and not n.watchdog() and not n.stopping() and not n.status("x")


def test_watchdog_pings_are_rate_limited(notify_socket):
    path, s = notify_socket
    t = [0.0]
    n = SystemdNotifier(path, clock=lambda: t[0], min_interval=5)
    assert n.watchdog()
    assert received(s) == "WATCHDOG=1"
    t[0] = 4.9
    assert not n.watchdog()  # every loop turn may call it; only some pings go out
    t[0] = 5.0
    assert n.watchdog()
    assert received(s) == "WATCHDOG=1"


def test_a_vanished_socket_does_not_fail_the_app(tmp_path):
    n = SystemdNotifier(str(tmp_path / "gone"))
    assert n.ready() is False


def test_watchdog_interval():
    assert watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "junk"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None


def test_default_min_interval_is_a_quarter_of_the_watchdog(notify_socket, monkeypatch):
    path, _ = notify_socket
    monkeypatch.setenv("WATCHDOG_USEC", "20000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert SystemdNotifier(path).min_interval == 5.0


def test_the_service_status_line_names_the_board_and_the_journal(tmp_path):
    """systemd/README.md promises a "Status: ..." line once ready; the
    board start sends this one after READY=1."""
    import random

    from companion.cli import ready_status
    from companion.journal import Journal
    from companion.session import Session
    from companion.ui.app import App
    app = App(Journal(str(tmp_path / "j.db")), rng=random.Random(1))
    assert ready_status("diy", app) == f"diy: ready; journal {tmp_path / 'j.db'}, 0 sessions, 0 to resume"
    Session.start(app.journal, "bag_of_ice", {"players": ["Ann", "Bob"], "start": 0}, random.Random(1))
    assert ready_status("diy", app).endswith("1 session, 1 to resume")
    app.journal.close()
