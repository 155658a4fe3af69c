"""The terminal simulator: the same app, drawn in a terminal, keys as buttons.

Interactive (``companion sim`` or ``companion`` without a board): the 128x64
frame is drawn with Unicode braille (64x16 characters, fits 80x24).

Keys: arrows (or h j k l) = LEFT DOWN UP RIGHT, Enter or Space = OK,
Esc or Backspace = BACK, ``o`` = hold OK, ``b`` = hold BACK, ``r`` = release
a hold, Ctrl-L = draw again, ``q`` or Ctrl-C = quit. A terminal smaller than
the frame gets a line saying the size it needs; a resize redraws.

Headless (``companion sim --keys up,ok,...``): the keys are applied in order
and the final frame is saved as PNG (``--screenshot``) and/or printed as text
(``--text``).
"""
from __future__ import annotations

import os
import queue
import select
import sys
import textwrap
import threading
from typing import IO, Callable, Iterable

from companion.io import HEIGHT, WIDTH, Key, key_names
from companion.loop import STOP
from companion.braille import braille

HELP = "arrows/hjkl move  Enter/Space=OK  Esc/Bksp=BACK  o/b=hold OK/BACK  r=release  q=quit"
NEED_COLS, NEED_ROWS = WIDTH // 2 + 2, HEIGHT // 4 + 5  # the box (66 x 18), the title, the help, the cursor
BLANK_NOTE = "screen off (idle): any key wakes it"



class TerminalDisplay:
    """A ``Display`` drawing frames on a terminal with ANSI cursor moves."""

    def __init__(self, stream: IO[str] | None = None, *, title: str = "Pyramid Table Companion (simulator)"):
        self.stream = stream or sys.stdout
        self.title = title
        self._last: bytes | None = None
        self._lines: list[str] = []
        self.footer = ""  # a line under the help (the scoreboard page's address), where it fits
        self.frames_sent = 0
        self.blanked = False

    def show(self, image) -> None:
        data = image.tobytes()
        if data == self._last and not self.blanked:
            return
        self._last = data
        self.blanked = False
        self._lines = braille(image)
        self._draw(self._lines)

    def redraw(self) -> None:
        """Draw the last frame again (the terminal was resized, or Ctrl-L)."""
        if self.blanked:
            self.blank()
        elif self._lines:
            self._draw(self._lines)

    def size(self) -> tuple[int, int]:
        """The terminal's columns and lines (80 x 24 when it cannot say)."""
        try:
            size = _size(self.stream.fileno())
        except (AttributeError, OSError, ValueError):  # not a file (a test's StringIO)
            size = None
        return (size.columns, size.lines) if size and size.columns and size.lines else (80, 24)  # 0 x 0: unsized pty

    def _draw(self, lines: list[str], title: str = "") -> None:
        cols, rows = self.size()
        if cols < NEED_COLS or rows < NEED_ROWS:  # a wrapped frame is unreadable: say what it needs (QA 5)
            out = ["\x1b[H\x1b[2J"] + _wrap(f"The simulator needs a terminal of {NEED_COLS} x {NEED_ROWS}; "
                                            f"this one is {cols} x {rows}. Make it larger (q quits).", cols)
            self.stream.write("\r\n".join(out[:max(2, rows)]) + "\r\n")
            self.stream.flush()
            self.frames_sent += 1
            return
        out = ["\x1b[H\x1b[2J", title or self.title, "\u250c" + "\u2500" * (WIDTH // 2) + "\u2510"]
        out += ["\u2502" + line + "\u2502" for line in lines]
        out += ["\u2514" + "\u2500" * (WIDTH // 2) + "\u2518", HELP if cols >= len(HELP) else HELP[:cols]]
        if self.footer and rows > NEED_ROWS:
            out.append(self.footer[:cols])
        self.stream.write("\r\n".join(out) + "\r\n")
        self.stream.flush()
        self.frames_sent += 1

    def set_footer(self, text: str) -> None:
        """The line under the help (the scoreboard page's address): written in its place
        under the frame on the screen, and with every frame from now on."""
        self.footer = text
        cols, rows = self.size()
        if self._lines and not self.blanked and cols >= NEED_COLS and rows > NEED_ROWS:
            row = len(self._lines) + 6  # the clear line, title, top rule, the lines, bottom rule, help
            self.stream.write(f"\x1b7\x1b[{row};1H{text[:cols]}\x1b[K\x1b8")  # the cursor stays where it was
            self.stream.flush()

    def blank(self) -> None:
        self.blanked = True
        self._draw([" " * (WIDTH // 2)] * (HEIGHT // 4), title=f"{self.title}: {BLANK_NOTE}")

    def set_contrast(self, level: int) -> None:
        pass

    def close(self) -> None:
        self.blank()


def _wrap(text: str, cols: int) -> list[str]:
    """``text`` in lines of at most ``cols`` characters (at least 10)."""
    return textwrap.wrap(text, max(10, cols))


def needs_utf8(stream: IO[str]) -> str | None:
    """Why ``stream`` cannot show the braille frames (an encoding without them), else None."""
    enc = getattr(stream, "encoding", None) or "ascii"
    try:
        "\u2800\u250c".encode(enc)
    except (UnicodeEncodeError, LookupError):
        return (f"the simulator draws the screen with Unicode braille, which this terminal's encoding ({enc}) "
                f"cannot show: use a UTF-8 terminal (e.g. LANG=C.UTF-8); for scripts: companion sim --keys "
                f"up,ok --screenshot out.png")
    return None


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
            if len(seq) < 3 and seq in (b"\x1b", b"\x1b[", b"\x1bO") and i + len(seq) == len(data):
                # the rest may come in the next read (ssh, tmux, a serial link split an arrow key);
                # a lone Esc with nothing after it is BACK once the reader's wait runs out (QA 5)
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
    import termios  # POSIX terminal modules: only a real terminal needs them
    import tty
    if not os.isatty(fd):
        return None
    old = termios.tcgetattr(fd)
    tty.setraw(fd)
    return old


def restore_terminal(fd: int, old: list | None) -> None:
    import termios  # POSIX terminal modules: only a real terminal needs them
    if old is not None:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def read_terminal_keys(fd: int, inputs: "queue.Queue", stop: threading.Event, *, raw: bool = True,
                       redraw: Callable[[], None] | None = None) -> None:
    """Read keys from a terminal in raw mode and post them; quit posts STOP.
    ``raw=False``: the caller has already set raw mode (``raw_terminal``).
    ``redraw`` is called on Ctrl-L and when the terminal's size changes."""
    old = raw_terminal(fd) if raw else None
    size = _size(fd)
    try:
        pending = b""
        while not stop.is_set():
            r, _, _ = select.select([fd], [], [], 0.2)
            now = _size(fd)
            if redraw is not None and now != size:
                size = now
                redraw()
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
            if redraw is not None and b"\x0c" in chunk:  # Ctrl-L: draw the screen again
                redraw()
            keys, pending = decode_keys(pending + chunk)
            for k in keys:
                if k is None:
                    inputs.put(STOP)
                    return
                inputs.put(k)
    finally:
        restore_terminal(fd, old)


def _size(fd: int) -> os.terminal_size | None:
    """The terminal's size, ``None`` when ``fd`` is not a terminal."""
    try:
        return os.get_terminal_size(fd)
    except OSError:
        return None


def parse_key_list(text: str) -> list[Key]:
    """``"down,down,ok,hold-back"`` -> keys (``companion.io.key_names``); an
    unknown name, or an empty one (``ok,,ok``, a trailing comma), raises
    ValueError naming it. An empty text is no key."""
    try:
        names = key_names(text)
    except ValueError as e:
        raise ValueError(f"{e}; known keys: {', '.join(key.value for key in Key)}") from None
    return [Key.parse(name) for name in names]


def run_headless(app, keys: Iterable[Key]) -> None:
    """Apply keys to the app in order, rendering after each one as the loop does."""
    app.frame()
    for k in keys:
        app.handle(k)
        app.frame()
