"""The serial console's port: pyserial, in its own thread.

Opens any pyserial port or URL with ``serial.serial_for_url`` (``/dev/ttyGS0``
on a Pi Zero's USB gadget, ``/dev/serial0``, ``loop://``, ``socket://host:port``),
115200 8N1 by default, and runs the line protocol of ``companion.console``
(docs/console.md) on it. It talks to the app only through ``loop.Call`` items
on the loop's queue (the console's runner), never directly.

Robustness:

* lines are split here on CR, LF or CRLF; a line longer than ``MAX_LINE``
  bytes gets ``ERR line too long`` and is dropped up to its end; bytes that
  are not UTF-8 get ``ERR not UTF-8``;
* a port that fails or disappears (``SerialException``/``OSError``: USB
  unplugged, host gone) is closed and reopened with backoff (0.5 s doubling
  to 10 s) while the game goes on;
* writes use ``write_timeout``: output a host does not read is dropped
  (counted in ``dropped``), so nothing ever waits on a host.
"""
from __future__ import annotations

import sys
import threading
import time
from typing import Any, Callable

import serial

from companion.console import Console
from companion.loop import loop_runner, loop_waker

MAX_LINE = 256
WATCH_POLL_S = 0.25


class LineSplitter:
    """Bytes in, events out: ``("line", text)`` or ``("error", reason)``."""

    def __init__(self, max_line: int = MAX_LINE):
        self.max_line = max_line
        self.buf = bytearray()
        self.discarding = False
        self.after_cr = False

    def feed(self, data: bytes) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for b in data:
            if b == 0x0A and self.after_cr:  # the LF of a CRLF
                self.after_cr = False
                continue
            self.after_cr = b == 0x0D
            if b in (0x0A, 0x0D):
                if self.discarding:
                    self.discarding = False
                else:
                    raw = bytes(self.buf)
                    try:
                        out.append(("line", raw.decode("utf-8")))
                    except UnicodeDecodeError:
                        out.append(("error", "not UTF-8"))
                self.buf.clear()
                continue
            if self.discarding:
                continue
            self.buf.append(b)
            if len(self.buf) > self.max_line:
                out.append(("error", "line too long"))
                self.buf.clear()
                self.discarding = True
        return out


class SerialConsole:
    """The console on a serial port, in a daemon thread. Use as a context
    manager, or ``start()`` then ``close()``."""

    def __init__(self, url: str, console: Console, *, baudrate: int = 115200,
                 write_timeout: float = 0.5, read_timeout: float = 0.05,
                 backoff: tuple[float, float] = (0.5, 10.0), max_line: int = MAX_LINE,
                 opener: Callable[..., Any] = serial.serial_for_url):
        self.url = url
        self.console = console
        self.baudrate = baudrate
        self.write_timeout = write_timeout
        self.read_timeout = read_timeout
        self.backoff = backoff
        self.max_line = max_line
        self.opener = opener
        self.port: Any = None
        self.opens = 0          # successful opens (1 + reconnections)
        self.failures = 0       # port errors and failed opens
        self.dropped = 0        # writes given up (host not reading)
        self.last_error = ""
        self.sent: list[str] = []  # the last lines written (for a log or a test)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    # ------------------------------------------------------------ lifecycle

    def start(self) -> "SerialConsole":
        self._thread = threading.Thread(target=self._run, name="serial-console", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._close_port()

    def __enter__(self) -> "SerialConsole":
        return self.start() if self._thread is None else self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def connected(self) -> bool:
        return self.port is not None

    # ------------------------------------------------------------ port

    def _open(self) -> None:
        self.port = self.opener(self.url, baudrate=self.baudrate, bytesize=serial.EIGHTBITS,
                                parity=serial.PARITY_NONE, stopbits=serial.STOPBITS_ONE,
                                timeout=self.read_timeout, write_timeout=self.write_timeout)
        self.opens += 1
        self.console.unpair()  # a pairing, or a question asked, holds for one link only (issue 14, QA 4 #5)

    def _close_port(self) -> None:
        with self._lock:
            port, self.port = self.port, None
        if port is not None:
            try:
                port.close()
            except Exception:
                pass

    def _fail(self, e: BaseException) -> None:
        self.failures += 1
        self.last_error = f"{type(e).__name__}: {e}"
        if self.failures == 1 or (self.opens == 0 and self.failures in (3, 10)):
            # one line, not one per retry: the port may come (a USB cable plugged in later)
            what = "cannot open" if self.port is None else "lost"
            print(f"companion: serial console: {what} {self.url} ({_short(self.last_error)}); retrying",
                  file=sys.stderr, flush=True)
        self._close_port()

    # ------------------------------------------------------------ thread

    def _run(self) -> None:
        delay = self.backoff[0]
        splitter = LineSplitter(self.max_line)
        next_poll = 0.0
        while not self._stop.is_set():
            if self.port is None:
                try:
                    self._open()
                except (serial.SerialException, OSError, ValueError) as e:
                    self._fail(e)
                    self._stop.wait(delay)
                    delay = min(delay * 2, self.backoff[1])
                    continue
                delay = self.backoff[0]
                splitter = LineSplitter(self.max_line)  # a new link starts clean
            try:
                data = self.port.read(max(1, min(self.port.in_waiting, 4096)))
            except (serial.SerialException, OSError, TypeError, AttributeError) as e:
                # TypeError/AttributeError: pyserial on a port closed under it
                self._fail(e)
                continue
            for kind, text in splitter.feed(data):
                if kind == "error":
                    self._write(self.console.reply_error(text))
                else:
                    self._write(self.console.handle(text))
            if self.console.watching and time.monotonic() >= next_poll:
                next_poll = time.monotonic() + WATCH_POLL_S
                self._write(self.console.poll())

    def _write(self, lines: list[str]) -> None:
        if not lines or self.port is None:
            return
        data = "".join(line + "\r\n" for line in lines).encode("utf-8")
        try:
            self.port.write(data)
        except serial.SerialTimeoutException:
            self.dropped += 1  # the host does not read: drop it and carry on
            return
        except (serial.SerialException, OSError) as e:
            self._fail(e)
            return
        self.sent.extend(lines)
        del self.sent[:-1000]


def _short(text: str, n: int = 120) -> str:
    return text if len(text) <= n else text[:n - 3] + "..."


def start_console(url: str, loop, *, baudrate: int = 115200, read_only: bool = True,
                  **kw: Any) -> SerialConsole:
    """The console on ``url`` for the app run by ``loop``, started."""
    console = Console(loop_runner(loop), read_only=read_only, wake=loop_waker(loop))
    return SerialConsole(url, console, baudrate=baudrate, **kw).start()
