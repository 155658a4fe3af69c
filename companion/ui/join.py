"""Joining the scoreboard page (issue 32): the page's address as a QR code on
the OLED, with the address in text beside it, and a new address on demand.

The QR code is drawn by segno at error level L, version as small as the
address allows (3 for an IPv4 address: 29 modules), on a lit quiet zone of
the standard's 4 modules (issue 37), at the largest module that fits the
64-pixel panel with it (one pixel for a version-3 code).
Beside it: a heading, what to do, and DOWN for the address written out
whole (``http://`` kept, broken between its parts, "l" drawn apart from "1"
and "I"), so it can be typed too.

The screen asks the app only for ``app.web`` (a ``PageLink``: the address,
whether it serves, and ``renew``), which the command line gives when the
page runs; without it the screen says that the page is off and how to turn
it on.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ..i18n import _
from ..io import Key
from .draw import CHAR_W, CLIPS, HEIGHT, LINE_H, ROWS, TITLE_H, WIDTH, Canvas, fit, wrap
from .widgets import Confirm, Item, Menu, Screen

if TYPE_CHECKING:  # pragma: no cover
    from .host import Host as App  # the seam: what a screen may ask of the app


class PageLink(Protocol):
    """What the join screen asks of the page's server (hardware/web_server.PageService)."""

    @property
    def address(self) -> str | None: ...

    @property
    def problem(self) -> str: ...

    def renew(self, app: "App") -> None: ...

    def seat_address(self, session: Any, seat: int) -> str | None:
        """A seat's own page (issue 41, V-3), or None."""
        ...


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR code of ``text`` as rows of dark modules (True), no quiet zone."""
    import segno  # start-up: the QR library (24 ms) loads when a code is drawn
    qr = segno.make(text, error="l", micro=False, boost_error=False)
    return [[bool(v) for v in row] for row in qr.matrix]


def qr_layout(n: int, height: int = HEIGHT) -> tuple[int, int]:
    """(pixels a module, quiet-zone pixels on each side) for an ``n``-module code in
    ``height`` pixels: the largest module that leaves a quiet zone of at least one
    module, then every pixel left as quiet zone, up to the standard's 4 modules
    (ISO/IEC 18004). On the 1.3-inch panel a pixel is 0.23 mm: a phone reads
    2-pixel modules at about 10 cm, not 1-pixel ones, so the module's size comes
    before the margin (issue 37 asked for 4 modules; an address's version-3 code
    gets 2 px a module and 3 px of margin, 1.5 modules, where 4 modules would
    need 1-pixel modules)."""
    for scale in (3, 2, 1):
        if (n + 2) * scale <= height:
            return scale, min(4 * scale, (height - n * scale) // 2)
    return 1, 0


def address_lines(url: str, width: int) -> list[str]:
    """``url`` whole (``http://`` kept: a browser needs it typed as shown) in lines of
    at most ``width`` characters, broken between its parts: the scheme, the host
    with its port, the path (the secret), each part on as few lines as it takes
    ("http://" / "192.168.1.20:8032" / "/AbC...xyz/"), and a part longer than a
    line after a dot, a slash or before a colon where that fits, else anywhere."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        scheme, rest = "", url
    host, slash, path = rest.partition("/")
    parts = [p for p in (scheme + sep, host, slash + path) if p]
    out: list[str] = []
    for part in parts:
        if out and len(out[-1]) + len(part) <= width:
            out[-1] += part
            continue
        while part:
            if len(part) <= width:
                out.append(part)
                break
            cuts = [part.rfind(ch, 0, width) + 1 for ch in "./"] + [part.rfind(":", 1, width + 1)]
            cut = max((c for c in cuts if 0 < c <= width), default=width)
            out.append(part[:cut])
            part = part[cut:]
    return out


# Letters an address's secret holds that the screen's font draws nearly alike ("1" and
# "l", "I" and "l" side by side, issue 39): in the written address "l" gets a foot
# turned right, as typewriter faces draw it, so that "1", "l" and "I" read apart.
_TAILED_L = bytes(int(r.replace("#", "1").replace(".", "0"), 2) << 2 for r in (
    "......", ".##...", "..#...", "..#...", "..#...", "..#...", "..#...", "...##.", "......", "......"))


def draw_address(c: Canvas, x: int, y: int, line: str) -> None:
    """A line of the written address: the font's text, "l" with its foot (above)."""
    from PIL import Image  # only the written address draws a cell of its own
    c.text(x, y, line)
    for i, ch in enumerate(line):
        if ch == "l":
            c.d.rectangle((x + i * CHAR_W, y, x + (i + 1) * CHAR_W - 1, y + LINE_H - 1), fill=0)
            c.image.paste(1, (x + i * CHAR_W, y), Image.frombytes("1", (CHAR_W, LINE_H), _TAILED_L))


def draw_qr(c: Canvas, matrix: list[list[bool]], x: int = 0, y: int = 0, height: int = HEIGHT) -> int:
    """Draw ``matrix`` at (x, y): lit quiet zone and light modules, dark modules unlit
    (a QR code is dark on light). Returns its width in pixels."""
    n = len(matrix)
    scale, quiet = qr_layout(n, height)
    size = n * scale + 2 * quiet
    top = y + (height - size) // 2
    c.d.rectangle((x, top, x + size - 1, top + size - 1), fill=1)
    for r, row in enumerate(matrix):
        for col, dark in enumerate(row):
            if dark:
                px, py = x + quiet + col * scale, top + quiet + r * scale
                c.d.rectangle((px, py, px + scale - 1, py + scale - 1), fill=0)
    return size


class JoinScreen(Screen):
    """The page's address: the QR code left; right of it a heading, what to do and
    how to see the address written (issue 39). DOWN (or RIGHT) shows the address
    written out whole for typing, UP (or LEFT) the code again; OK: a menu (Back
    first, then New address, then TV page: the TV page's code and address, for a
    TV's camera or its remote, issue 37); BACK: back. ``tv``: this screen shows
    the TV page's address (``.../tv``)."""

    def __init__(self, tv: bool = False) -> None:
        self.title = _("TV page") if tv else _("Scoreboard page")
        self.tv = tv
        self.address: str | None = None
        self.problem = ""
        self.written = False  # the address written out, instead of the code
        self._matrix: list[list[bool]] | None = None
        self._for: str | None = None

    def on_show(self, app: "App") -> None:
        link: PageLink | None = getattr(app, "web", None)
        self.address = link.address if link is not None else None
        if self.tv and self.address:
            self.address = self.address.rstrip("/") + "/tv"
        self.problem = (link.problem if link is not None
                        else _("The page is off. Turn it on with the setting web = \"auto\" (docs/config.md)."))
        if self.address != self._for:
            self._matrix = qr_matrix(self.address) if self.address else None
            self._for = self.address

    def render(self, c: Canvas) -> None:
        if not self.address or self._matrix is None:
            c.title(self.title)
            for i, line in enumerate(wrap(self.problem or _("The page is not running."), WIDTH // CHAR_W)[:5]):
                c.text(1, 12 + i * LINE_H, line)
            return
        if self.written:
            self.render_written(c)
            return
        left = draw_qr(c, self._matrix) + 2
        room = (WIDTH - left) // CHAR_W
        # the heading, inverted, over the column beside the code; what to do under it
        c.d.rectangle((left - 1, 0, WIDTH - 1, TITLE_H - 2), fill=1)
        c.text(left, 0, fit(_("TV page") if self.tv else _("Scoreboard"), room), invert=True)
        lines = wrap(_("Scan with a phone on this Wi-Fi"), room)
        if self.problem:  # said in full on the written address
            lines = lines[:2] + [_("! see ↓")]
        for cut in lines[3:]:
            CLIPS.add(cut)
        for i, line in enumerate(lines[:3]):
            c.text(left, TITLE_H + 1 + i * LINE_H, line)
        hint = wrap(_("↓ address as text"), room)
        for cut in hint[2:]:
            CLIPS.add(cut)
        for i, line in enumerate(hint[:2]):
            c.text(left, HEIGHT - 2 * LINE_H + i * LINE_H, line)

    def render_written(self, c: Canvas) -> None:
        assert self.address is not None
        c.title(_("Page address"))
        width = WIDTH // CHAR_W
        lines = address_lines(self.address, width)
        y = TITLE_H + 1
        for line in lines[:3]:
            draw_address(c, 1, y, line)
            y += LINE_H
        hint = wrap(self.problem, width)[:1] if self.problem else wrap(_("Type it in a browser; ↑ the code."), width)
        for line in hint[:ROWS - min(3, len(lines))]:
            c.text(1, y, line)
            y += LINE_H

    def on_key(self, key: Key, app: "App") -> None:
        if key == Key.BACK:
            app.pop()
        elif key in (Key.DOWN, Key.RIGHT, Key.UP, Key.LEFT):
            self.written = key in (Key.DOWN, Key.RIGHT) and self.address is not None
        elif key == Key.OK:
            link: PageLink | None = getattr(app, "web", None)
            if link is None:
                app.pop()
                return
            # Back first: OK, OK never asks for a new address (issue 39)
            app.push(Menu(self.title, [
                Item(_("Back"), lambda a: a.pop()),
                Item(_("New address"), lambda a: (a.pop(), a.push(Confirm(
                    _("A new address ends every open page; the table scans the new code."),
                    lambda b: self._renew(b, link), yes=_("Renew"), no=_("Keep"), title=_("New address"))))),
                *([] if self.tv else [Item(_("TV page"), lambda a: (a.pop(), a.push(JoinScreen(tv=True))))]),
            ]))

    def _renew(self, app: "App", link: PageLink) -> None:
        link.renew(app)
        self.on_show(app)
