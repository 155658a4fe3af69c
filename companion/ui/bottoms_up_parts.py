"""What both Bottoms Up screens share (issue 40): the game screen
(``ui.bottoms_up``) and check mode (``ui.bottoms_up_check``) import it, and
neither imports the other back. The field and stack lines, the piece grid
and the pager of lines.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..shown import Shown
from ..games.bottoms_up import COLORS, BottomsUpState
from ..i18n import _
from ..io import Key
from ..pieces import Color, Piece, Size
from ..words.pieces import color_word
from .common import Report
from .draw import CHAR_W, LINE_H, ROWS, TITLE_H, WIDTH, Canvas, fit, wrap
from .widgets import scrolled

if TYPE_CHECKING:  # pragma: no cover
    from .host import Host as App  # the seam: what a screen may ask of the app

SIZES = (Size.SMALL, Size.MEDIUM, Size.LARGE)
LINE_CHARS = WIDTH // CHAR_W  # 21
ROW_CHARS = (WIDTH - 7) // CHAR_W  # 20: a menu row after the cursor arrow


# ---------------------------------------------------------------- text helpers


def stack_text(label: str, pieces: Sequence[Piece], width: int = ROW_CHARS) -> str:
    """``C: wS rM bL``; a stack too tall for ``width`` loses its bottom
    pieces first (the top is the piece things go on): ``C: .. bL kS``."""
    words = [str(p) for p in pieces]
    text = f"{label}: " + " ".join(words)
    if len(text) <= width:
        return text
    while words and len(f"{label}: .. " + " ".join(words)) > width:
        words.pop(0)
    return f"{label}: .. " + " ".join(words)


def stack_lines(label: str, pieces: Sequence[Piece], *, mark: str = "", width: int = LINE_CHARS) -> list[str]:
    """A stack on as many lines as it needs, bottom to top; continuation
    lines are indented under the first piece."""
    head = f"{mark}{label}: "
    lines, line = [], head
    for p in map(str, pieces):
        if len(line) + len(p) > width and line.strip() and line != head:
            lines.append(line.rstrip())
            line = " " * len(head)
        line += p + " "
    lines.append(line.rstrip())
    return lines


def field_lines(st: BottomsUpState, changed: set[str] | frozenset[str] = frozenset(),
                *, marks: bool = False, gone: Sequence[str] = (), width: int = LINE_CHARS) -> list[str]:
    """The field for a pager, in label order; with ``marks`` the changed
    groups come first, each on its own line(s) marked ``*``, then the
    ``gone`` lines (stacks taken off, ``gone_lines``). Other groups share
    lines when they fit (``B: wS  D: yS gM``)."""
    groups = st.field_groups()
    out: list[str] = []
    if marks:
        for g in groups:
            if g.label in changed:
                out += stack_lines(g.label, g.pieces, mark="*", width=width)
        out += gone
    lead = " " if marks else ""
    packed = ""
    for g in groups:
        if marks and g.label in changed:
            continue
        text = f"{g.label}: " + " ".join(map(str, g.pieces))
        if packed and len(packed) + 2 + len(text) <= width:
            packed += "  " + text
            continue
        if packed:
            out.append(packed)
            packed = ""
        if len(lead + text) > width:
            out += stack_lines(g.label, g.pieces, mark=lead, width=width)
        else:
            packed = lead + text
    if packed:
        out.append(packed)
    return out or [_("(no piece in play)")]


class PieceGrid:
    """Pick a piece: a row per color (with its counts per size), then the size.

    Stage 1: UP/DOWN move over the colors; OK picks the color (its only size
    at once when just one is left); LEFT/RIGHT go straight to the color's
    sizes, one step to the left or right of the first. Stage 2: UP/DOWN (or
    LEFT/RIGHT) move over the sizes left, OK picks, BACK goes back to the
    colors. ``counts(piece)`` limits the offer to what is in stock (``None``:
    any piece, no counts). ``extra`` rows come first (picked as their text);
    the cursor starts on the first color.
    """

    NAME_X, CELL_X, CELL_W = 7, 52, 25

    def __init__(self, counts: Callable[[Piece], int] | None = None, extra: Sequence[str] = (),
                 sizes: Sequence[Size] = SIZES):
        self.counts = counts
        self.extra = list(extra)
        self.size_set = tuple(sizes)
        self.row = len(self.extra)
        self.top = 0
        self.size: Size | None = None

    def count(self, p: Piece) -> int:
        if p.size not in self.size_set:
            return 0
        return 1 if self.counts is None else self.counts(p)

    def colors(self) -> list[Color]:
        return [c for c in COLORS if any(self.count(Piece(c, z)) for z in SIZES)]

    def rows(self) -> list[Color | str]:
        return [*self.extra, *self.colors()]

    def sizes(self, color: Color) -> list[Size]:
        return [z for z in SIZES if self.count(Piece(color, z))]

    @property
    def color(self) -> Color | None:
        rows = self.rows()
        r = rows[self.row] if rows else None
        return r if isinstance(r, Color) else None

    def key(self, key: Key) -> Piece | str | None:
        """Handle a key; returns the picked piece, a picked extra row's text,
        ``"back"`` for BACK at the colors, else ``None``."""
        rows = self.rows()
        if not rows:
            return "back" if key == Key.BACK else None
        self.row = min(self.row, len(rows) - 1)
        if self.size is None:
            if key in (Key.UP, Key.DOWN):
                self.row = (self.row + (1 if key == Key.DOWN else -1)) % len(rows)
            elif key == Key.BACK:
                return "back"
            elif key in (Key.OK, Key.LEFT, Key.RIGHT):
                row = rows[self.row]
                if not isinstance(row, Color):  # an extra row (Color is a str too)
                    return row if key == Key.OK else None
                sizes = self.sizes(row)
                if len(sizes) == 1:
                    return Piece(row, sizes[0])
                if key == Key.OK:  # the size step, cursor on the smallest (UP/DOWN/OK alone reach every size)
                    self.size = sizes[0]
                    return None
                # Shortcuts: RIGHT takes the second size left, LEFT the largest, in one press.
                return Piece(row, sizes[1] if key == Key.RIGHT else sizes[-1])
            return None
        color = self.color
        assert color is not None
        sizes = self.sizes(color)
        if key in (Key.UP, Key.DOWN, Key.LEFT, Key.RIGHT):
            d = 1 if key in (Key.DOWN, Key.RIGHT) else -1
            self.size = sizes[(sizes.index(self.size) + d) % len(sizes)] if self.size in sizes else sizes[0]
        elif key == Key.OK:
            picked = Piece(color, self.size)
            self.size = None
            return picked
        elif key == Key.BACK:
            self.size = None
        return None

    def render(self, c: Canvas, first_row: int = 0) -> None:
        rows = self.rows()
        self.row = min(self.row, max(0, len(rows) - 1))
        shown = ROWS - first_row
        self.top = scrolled(self.row, self.top, shown)
        for i, row in enumerate(rows[self.top:self.top + shown]):
            k = self.top + i
            y = TITLE_H + (first_row + i) * LINE_H
            if k == self.row:
                c.d.polygon([(0, y + 1), (4, y + 4), (0, y + 7)], fill=1)
            if not isinstance(row, Color):
                c.text(self.NAME_X, y, fit(row, ROW_CHARS))
                continue
            c.text(self.NAME_X, y, color_word(row))
            for j, z in enumerate(SIZES):
                n = self.count(Piece(row, z))
                if not n:
                    continue
                cell = z.letter if self.counts is None else f"{z.letter}{n}"
                x = self.CELL_X + j * self.CELL_W
                c.text(x, y, cell, invert=(k == self.row and self.size == z))
        c.scrollbar(self.top, shown, len(rows), top=TITLE_H + first_row * LINE_H)  # beside the rows only


class Pages(Report):
    """Pre-formatted lines under a title: UP/DOWN scroll a line, LEFT/RIGHT a
    page; OK closes it (and calls ``then``), BACK closes it. While lines below
    have never been on screen, OK first shows the end (issue 39); with
    ``read_through`` (a check's verdict, whose first difference and legal
    result come after the verdict itself) it turns a page at a time."""

    def __init__(self, title: str, lines: list[str], *, right: str = "",
                 then: Callable[["App"], Any] | None = None, banner: str = "", read_through: bool = False,
                 shows: Shown | None = None):
        super().__init__(title, [], right=right, banner=banner, shows=shows)
        self.lines = self._fit_log(lines, LINE_CHARS)
        if len(self.lines) > self.shown:  # a free column before the scroll bar
            self.lines = self._fit_log(lines, LINE_CHARS - 1)
        self.then = then
        self.read_through = read_through

    @staticmethod
    def _fit_log(lines: list[str], width: int) -> list[str]:
        return [w for line in lines for w in ([line] if len(line) <= width else log_lines([line], width))]

    def on_key(self, key: Key, app: "App") -> None:
        last = max(0, len(self.lines) - self.shown)
        if key == Key.DOWN:
            self.offset = min(last, self.offset + 1)
        elif key == Key.UP:
            self.offset = max(0, self.offset - 1)
        elif key == Key.RIGHT:
            self.offset = min(last, self.offset + self.shown)
        elif key == Key.LEFT:
            self.offset = max(0, self.offset - self.shown)
        elif key == Key.BACK:
            app.pop()
        elif key == Key.OK and self.read_through and self.unseen():  # a verdict: a page at a time
            self.offset = min(last, self.offset + self.shown)
        elif key == Key.OK and self.unseen():
            # a page whose scroll bar shows more below is not closed by the first OK: it shows
            # the end, as every long page does (issue 39); the next OK closes it
            self.offset = last
        elif key == Key.OK:
            app.pop()
            if self.then:
                self.then(app)
        self.seen_to = max(self.seen_to, self.offset + self.shown)


def log_lines(lines: list[str], width: int = LINE_CHARS) -> list[str]:
    """Step-log lines wrapped to the screen (``width`` characters), once (issue
    39: a second wrap left single words on lines of their own). The
    continuation lines are indented two cells, so each step reads as one
    block under its stack's label, and a step never ends on a lone word when
    the line above can give it company."""
    out = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        first, *rest = wrap(line, width)
        block = [first] + [LOG_INDENT + w for w in wrap(" ".join(rest), width - len(LOG_INDENT))]
        out += no_lone_word(block, width)
    return out


LOG_INDENT = "  "


def no_lone_word(block: list[str], width: int) -> list[str]:
    """A wrapped block whose last line is a single word takes the last word of
    the line above down with it, when both lines still fit and the line above
    keeps two words (the same number of lines)."""
    if len(block) < 2 or len(block[-1].split()) != 1:
        return block
    above = block[-2].split()
    if len(above) < 3 and not (len(block) == 2 and len(above) >= 2 and not block[-2].startswith(" ")):
        return block
    lead = block[-2][:len(block[-2]) - len(block[-2].lstrip())]
    moved = above[-1]
    last = block[-1].strip()
    new_last = LOG_INDENT + moved + " " + last
    if len(new_last) > width or len(above) - 1 < 2:
        return block
    return block[:-2] + [lead + " ".join(above[:-1]), new_last]
