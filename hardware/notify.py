"""sd_notify without a library: datagrams to ``$NOTIFY_SOCKET``.

    n = SystemdNotifier()
    n.ready()                 # READY=1 once the display is up (Type=notify)
    n.watchdog()              # WATCHDOG=1 from the app loop (WatchdogSec=)
    n.status("2 sessions")    # STATUS=...
    n.stopping()              # STOPPING=1 on the way out

Without ``NOTIFY_SOCKET`` (not started by systemd) every method does
nothing. Abstract socket names (``@name``) are supported. ``watchdog()`` may
be called on every loop turn: it sends at most once per ``min_interval``
(a quarter of the watchdog period when systemd set one).
"""
from __future__ import annotations

import os
import socket
import time
from typing import Callable, Mapping


def watchdog_interval(env: Mapping[str, str] | None = None) -> float | None:
    """The ping period in seconds: half of ``WATCHDOG_USEC``, or None when
    there is no watchdog (or ``WATCHDOG_PID`` names another process)."""
    env = os.environ if env is None else env
    usec = env.get("WATCHDOG_USEC")
    if not usec:
        return None
    pid = env.get("WATCHDOG_PID")
    if pid and pid.isdigit() and int(pid) != os.getpid():
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    return value / 2 / 1_000_000 if value > 0 else None


class SystemdNotifier:
    def __init__(self, address: str | None = None, *, clock: Callable[[], float] = time.monotonic,
                 min_interval: float | None = None):
        self.address = os.environ.get("NOTIFY_SOCKET", "") if address is None else address
        self.clock = clock
        period = watchdog_interval()
        self.min_interval = min_interval if min_interval is not None else (period / 2 if period else 0.0)
        self._last_ping: float | None = None
        self._sock: socket.socket | None = None
        if self.address:
            target = self.address
            if target.startswith("@"):
                target = "\0" + target[1:]
            self._target = target
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)

    @property
    def enabled(self) -> bool:
        return self._sock is not None

    def notify(self, message: str) -> bool:
        """Send one message (``KEY=value`` lines); False if not sent."""
        if self._sock is None:
            return False
        try:
            self._sock.sendto(message.encode("utf-8"), self._target)
            return True
        except OSError:
            return False  # systemd gone (shutdown): never fail the app for this

    def ready(self) -> bool:
        return self.notify("READY=1")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def status(self, text: str) -> bool:
        return self.notify("STATUS=" + " ".join(text.split()))

    def watchdog(self) -> bool:
        """WATCHDOG=1, at most once per ``min_interval``."""
        now = self.clock()
        if self._last_ping is not None and now - self._last_ping < self.min_interval:
            return False
        self._last_ping = now
        return self.notify("WATCHDOG=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
