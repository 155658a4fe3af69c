"""Joining the scoreboard page (issue 32): the page's address as a QR code on
the OLED, with the address in text beside it, and a new address on demand.

The QR code is drawn by segno at error level L, version as small as the
address allows (3 for an IPv4 address: 29 modules), on a lit quiet zone of
the standard's 4 modules (issue 37), at the largest module that fits the
64-pixel panel with it (one pixel for a version-3 code).
The address is written beside it, broken where it reads well (after the
dots, the port, and in the secret), so it can be typed too.

The screen asks the app only for ``app.web`` (a ``PageLink``: the address,
whether it serves, and ``renew``), which the command line gives when the
page runs; without it the screen says that the page is off and how to turn
it on.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ..i18n import _
from ..io import Key
from .draw import CHAR_W, HEIGHT, LINE_H, WIDTH, Canvas, wrap
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


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR code of ``text`` as rows of dark modules (True), no quiet zone."""
    import segno  # start-up: the QR library (24 ms) loads when a code is drawn
    qr = segno.make(text, error="l", micro=False, boost_error=False)
    return [[bool(v) for v in row] for row in qr.matrix]


def qr_layout(n: int, height: int = HEIGHT) -> tuple[int, int]:
    """(pixels a module, quiet-zone modules) for an ``n``-module code in ``height`` pixels:
    the standard's quiet zone of 4 modules (ISO/IEC 18004) at the largest module that
    fits; only a code too large for it gets a narrower one (issue 37: 1 module was not
    enough for some phones' readers)."""
    for quiet in (4, 2, 1):
        for scale in (3, 2, 1):
            if (n + 2 * quiet) * scale <= height:
                return scale, quiet
    return 1, 0


def address_lines(url: str, width: int) -> list[str]:
    """``url`` without its scheme, in lines of at most ``width`` characters, broken
    after a dot or a slash or before a colon where that fits, else anywhere."""
    rest = url.split("://", 1)[-1]
    out: list[str] = []
    while rest:
        if len(rest) <= width:
            out.append(rest)
            break
        # after a dot or a slash, before a colon (the port reads ":8032/"); else anywhere
        cuts = [rest.rfind(ch, 0, width) + 1 for ch in "./"] + [rest.rfind(":", 1, width + 1)]
        cut = max((c for c in cuts if 0 < c <= width), default=width)
        out.append(rest[:cut])
        rest = rest[cut:]
    return out


def draw_qr(c: Canvas, matrix: list[list[bool]], x: int = 0, y: int = 0, height: int = HEIGHT) -> int:
    """Draw ``matrix`` at (x, y): lit quiet zone and light modules, dark modules unlit
    (a QR code is dark on light). Returns its width in pixels."""
    n = len(matrix)
    scale, quiet = qr_layout(n, height)
    size = (n + 2 * quiet) * scale
    top = y + (height - size) // 2
    c.d.rectangle((x, top, x + size - 1, top + size - 1), fill=1)
    for r, row in enumerate(matrix):
        for col, dark in enumerate(row):
            if dark:
                px, py = x + (col + quiet) * scale, top + (r + quiet) * scale
                c.d.rectangle((px, py, px + scale - 1, py + scale - 1), fill=0)
    return size


class JoinScreen(Screen):
    """The page's address: QR code left, text right. OK: the TV page's address (its QR
    code, for a TV's camera or to type it with a remote, issue 37) or a new address;
    BACK: back. ``tv``: this screen shows the TV page's address (``.../tv``)."""

    def __init__(self, tv: bool = False) -> None:
        self.title = _("TV page") if tv else _("Scoreboard page")
        self.tv = tv
        self.address: str | None = None
        self.problem = ""
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
        left = draw_qr(c, self._matrix) + 2
        room = (WIDTH - left) // CHAR_W
        lines = address_lines(self.address, room)
        if self.problem:
            lines = lines[:5] + ["!"]
        top = max(0, (HEIGHT - len(lines) * LINE_H) // 2)
        for i, line in enumerate(lines[:HEIGHT // LINE_H]):
            c.text(left, top + i * LINE_H, line)

    def on_key(self, key: Key, app: "App") -> None:
        if key == Key.BACK:
            app.pop()
        elif key == Key.OK:
            link: PageLink | None = getattr(app, "web", None)
            if link is None:
                app.pop()
                return
            app.push(Menu(self.title, [
                *([] if self.tv else [Item(_("TV page"), lambda a: (a.pop(), a.push(JoinScreen(tv=True))))]),
                Item(_("New address"), lambda a: (a.pop(), a.push(Confirm(
                    _("A new address ends every open page; the table scans the new code."),
                    lambda b: self._renew(b, link), yes=_("New address"), title=_("New address"))))),
                Item(_("Back"), lambda a: a.pop()),
            ]))

    def _renew(self, app: "App", link: PageLink) -> None:
        link.renew(app)
        self.on_show(app)
