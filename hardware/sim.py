"""The terminal simulator: the same app, drawn in a terminal, keys as buttons.

Interactive (``companion sim`` or ``companion`` without a board): the 128x64
frame is drawn with Unicode braille (64x16 characters, fits 80x24).

Keys: arrows (or h j k l) = LEFT DOWN UP RIGHT, Enter or Space = OK,
Esc or Backspace = BACK, ``o`` = hold OK, ``b`` = hold BACK, ``r`` = release
a hold, ``q`` or Ctrl-C = quit.

Headless (``companion sim --keys up,ok,...``): the keys are applied in order
and the final frame is saved as PNG (``--screenshot``) and/or printed as text
(``--text``).
"""
from __future__ import annotations

import os
import queue
import select
import sys
import threading
from typing import IO, Iterable

from companion.io import HEIGHT, WIDTH, Key
from companion.loop import STOP
from companion.ui.app import braille

HELP = "arrows/hjkl move  Enter=OK  Esc/Bksp=BACK  o=hold OK  b=hold BACK  q=quit"



class TerminalDisplay:
    """A ``Display`` drawing frames on a terminal with ANSI cursor moves."""

    def __init__(self, stream: IO[str] | None = None, *, title: str = "Pyramid Table Companion (simulator)"):
        self.stream = stream or sys.stdout
        self.title = title
        self._last: bytes | None = None
        self.frames_sent = 0
        self.blanked = False

    def show(self, image) -> None:
        data = image.tobytes()
        if data == self._last and not self.blanked:
            return
        self._last = data
        self.blanked = False
        self._draw(braille(image))

    def _draw(self, lines: list[str]) -> None:
        out = ["\x1b[H\x1b[2J", self.title, "\u250c" + "\u2500" * (WIDTH // 2) + "\u2510"]
        out += ["\u2502" + line + "\u2502" for line in lines]
        out += ["\u2514" + "\u2500" * (WIDTH // 2) + "\u2518", HELP]
        self.stream.write("\r\n".join(out) + "\r\n")
        self.stream.flush()
        self.frames_sent += 1

    def blank(self) -> None:
        self.blanked = True
        self._draw([" " * (WIDTH // 2)] * (HEIGHT // 4))

    def set_contrast(self, level: int) -> None:
        pass

    def close(self) -> None:
        self.blank()


_SEQUENCES = {
    b"\x1b[A": Key.UP, b"\x1b[B": Key.DOWN, b"\x1b[C": Key.RIGHT, b"\x1b[D": Key.LEFT,
    b"\x1bOA": Key.UP, b"\x1bOB": Key.DOWN, b"\x1bOC": Key.RIGHT, b"\x1bOD": Key.LEFT,
}
_SINGLE = {
    b"\r": Key.OK, b"\n": Key.OK, b" ": Key.OK,
    b"\x7f": Key.BACK, b"\x08": Key.BACK, b"\x1b": Key.BACK,
    b"k": Key.UP, b"j": Key.DOWN, b"h": Key.LEFT, b"l": Key.RIGHT,
    b"o": Key.HOLD_OK, b"b": Key.HOLD_BACK, b"r": Key.RELEASE,
}
QUIT = (b"q", b"\x03", b"\x04")


def decode_keys(data: bytes) -> tuple[list[Key | None], bytes]:
    """Keys in a chunk of terminal input; None means quit. Returns the keys and
    an incomplete escape sequence to keep for the next chunk."""
    keys: list[Key | None] = []
    i = 0
    while i < len(data):
        if data[i:i + 1] == b"\x1b":
            seq = data[i:i + 3]
            if seq in _SEQUENCES:
                keys.append(_SEQUENCES[seq])
                i += 3
                continue
            if len(seq) < 3 and seq in (b"\x1b", b"\x1b[", b"\x1bO") and i + len(seq) == len(data) and len(seq) > 1:
                return keys, data[i:]
            if data[i + 1:i + 2] == b"[":  # an unknown CSI sequence: skip it
                j = i + 2
                while j < len(data) and not (0x40 <= data[j] <= 0x7e):
                    j += 1
                i = j + 1
                continue
            keys.append(Key.BACK)
            i += 1
            continue
        ch = data[i:i + 1]
        if ch in QUIT:
            keys.append(None)
        elif ch in _SINGLE:
            keys.append(_SINGLE[ch])
        i += 1
    return keys, b""


def raw_terminal(fd: int) -> list | None:
    """Put a terminal in raw mode now; the settings to restore (``None`` when
    ``fd`` is not a terminal). Done before the first frame is drawn, so a key
    pressed as soon as it shows is never echoed or held in a line buffer."""
    import termios
    import tty
    if not os.isatty(fd):
        return None
    old = termios.tcgetattr(fd)
    tty.setraw(fd)
    return old


def restore_terminal(fd: int, old: list | None) -> None:
    import termios
    if old is not None:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def read_terminal_keys(fd: int, inputs: "queue.Queue", stop: threading.Event, *, raw: bool = True) -> None:
    """Read keys from a terminal in raw mode and post them; quit posts STOP.
    ``raw=False``: the caller has already set raw mode (``raw_terminal``)."""
    old = raw_terminal(fd) if raw else None
    try:
        pending = b""
        while not stop.is_set():
            r, _, _ = select.select([fd], [], [], 0.2)
            if not r:
                if pending:  # a lone Esc: BACK
                    keys, pending = decode_keys(pending + b"\x00")
                    for k in keys:
                        inputs.put(k)
                    pending = b""
                continue
            chunk = os.read(fd, 64)
            if not chunk:
                inputs.put(STOP)
                return
            keys, pending = decode_keys(pending + chunk)
            for k in keys:
                if k is None:
                    inputs.put(STOP)
                    return
                inputs.put(k)
    finally:
        restore_terminal(fd, old)


def parse_key_list(text: str) -> list[Key]:
    """``"down,down,ok,hold-back"`` -> keys (spaces separate too); an unknown
    name, or an empty one (``ok,,ok``, a trailing comma), raises ValueError
    naming it. An empty text is no key."""
    if not text.strip():
        return []
    out = []
    for k, item in enumerate(text.split(","), 1):
        names = item.split()
        if not names:
            raise ValueError(f"empty key name (key list item {k} of {text!r}); known keys: "
                             f"{', '.join(key.value for key in Key)}")
        out += [Key.parse(name) for name in names]
    return out


def run_headless(app, keys: Iterable[Key]) -> None:
    """Apply keys to the app in order, rendering after each one as the loop does."""
    app.frame()
    for k in keys:
        app.handle(k)
        app.frame()
