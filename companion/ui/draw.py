"""Drawing on the 128x64 1-bit frame: fonts, text, titles, pieces.

The font is misc-fixed 6x10 (``glyphs.py``: Latin with its extensions, Greek
and Cyrillic; any other character drawn as a visible replacement, never an
exception), the same on every machine, and the same font scaled 2x and 3x for
what must be read across the table (scores are drawn at least 16 px high).
"""
from __future__ import annotations

import re

from functools import lru_cache

from PIL import Image, ImageDraw

from .glyphs import render, render_tight, table

from ..io import HEIGHT, WIDTH
from ..pieces import Color, Piece, Size

CHAR_W = 6
LINE_H = 10
TITLE_H = 11
ROWS = (HEIGHT - TITLE_H) // LINE_H  # 5 body rows under a title
BOX_ROWS = 6  # lines in a box (``Canvas.box``) that covers the whole screen but its rule
BOX_TOP = HEIGHT - BOX_ROWS * LINE_H
NEAR_MARK = WIDTH - 3
"""A text with a lit pixel in this column or further right, along a scroll mark (the
last column), is counted as clipped: it comes within 2 pixels of the mark (issue 39)."""


class ClipLog:
    """Every text the drawing layer had to cut (``fit``), draw past the right edge
    (``Canvas.text``), leave out below the last line (``Canvas.lines``) or draw
    up to a scroll mark (``Canvas.scrollbar``: a lit pixel of the text comes within
    2 pixels of it, in rows the mark runs along, issue 39).

    Nothing a player needs may be cut: the bench reports ``clipped_text_draws``
    over scripted games and a test fails on any. ``examples`` keeps the first
    few cut texts for the message.
    """

    def __init__(self) -> None:
        self.count = 0
        self.examples: list[str] = []

    def add(self, text: str) -> None:
        self.count += 1
        if len(self.examples) < 20:
            self.examples.append(text)

    def reset(self) -> None:
        self.count = 0
        self.examples.clear()


CLIPS = ClipLog()

DRAWN: list[str] | None = None
"""When a list (tests, the bench): every text drawn is appended to it."""


def font() -> object:
    """Load the font now (the app's warm-up calls this after the first frame)."""
    return table()


def new_frame() -> Image.Image:
    return Image.new("1", (WIDTH, HEIGHT), 0)


@lru_cache(maxsize=512)
def _big_glyphs(text: str, scale: int, tight: bool = False) -> Image.Image:
    if tight:
        return render_tight(text, scale)
    small = render(text)
    return small.resize((small.width * scale, LINE_H * scale), Image.Resampling.NEAREST)


def big_width(s: str, scale: int = 2, *, tight: bool = False) -> int:
    """The pixels ``s`` takes in the large font (``tight``: each character as wide as its ink)."""
    return _big_glyphs(s, scale, tight).width if tight else CHAR_W * scale * len(s)


class Canvas:
    """A frame plus drawing helpers. ``image`` is the 128x64 mode-"1" frame."""

    def __init__(self, image: Image.Image | None = None):
        self.image = image or new_frame()
        self.d = ImageDraw.Draw(self.image)
        self._texts: list[tuple[int, int, int, str]] = []  # (last column, top, bottom, text) of each text
        self._marks: list[tuple[int, int]] = []  # (top, bottom) of each scroll mark in the last column

    # ------------------------------------------------------------ text
    def text(self, x: int, y: int, s: str, *, invert: bool = False) -> None:
        if x + CHAR_W * len(s) > WIDTH + 1:
            CLIPS.add(s)
        if invert:
            self.d.rectangle((x - 1, y, x + CHAR_W * len(s), y + LINE_H - 1), fill=1)
        self._paste(x, y, s, 0 if invert else 1, invert=invert)

    def _paste(self, x: int, y: int, s: str, fill: int, *, invert: bool = False) -> None:
        if DRAWN is not None:
            DRAWN.append(s)
        if s:
            glyphs = render(s)
            self.image.paste(fill, (x, y), glyphs)
            if invert:  # the inverted bar reaches one column past the cells
                self._placed(x + CHAR_W * len(s), y, y + LINE_H - 1, s)
            else:
                box = glyphs.getbbox()
                if box is not None:
                    self._placed(x + box[2] - 1, y, y + LINE_H - 1, s)

    def _placed(self, right: int, top: int, bottom: int, s: str) -> None:
        """A text's last lit pixel is in column ``right``, between ``top`` and
        ``bottom``: counted when that is within 2 pixels of a scroll mark along it."""
        self._texts.append((right, top, bottom, s))
        if right >= NEAR_MARK and any(top <= b and a <= bottom for a, b in self._marks):
            CLIPS.add(s)

    def mark(self, top: int, bottom: int) -> None:
        """A scroll mark in the last column from ``top`` to ``bottom`` is drawn:
        a text with a lit pixel within 2 pixels of it, along it, is counted in ``CLIPS``."""
        self._marks.append((top, bottom))
        for right, a, b, s in self._texts:
            if right >= NEAR_MARK and a <= bottom and top <= b:
                CLIPS.add(s)

    def big(self, x: int, y: int, s: str, scale: int = 2, *, invert: bool = False, tight: bool = False) -> None:
        if DRAWN is not None:
            DRAWN.append(s)
        if x + big_width(s, scale, tight=tight) > WIDTH + scale:  # past the right edge: cut, counted
            CLIPS.add(s)
        g = _big_glyphs(s, scale, tight)
        if invert:
            self.d.rectangle((x, y, x + g.width - 1, y + g.height - 1), fill=1)
            self.image.paste(0, (x, y), g)
        else:
            self.image.paste(1, (x, y), g)
        box = (0, 0, g.width, g.height) if invert else g.getbbox()
        if box is not None:
            self._placed(x + box[2] - 1, y, y + g.height - 1, s)

    def center(self, y: int, s: str, *, scale: int = 1) -> None:
        w = CHAR_W * scale * len(s)
        x = max(0, (WIDTH - w) // 2)
        if scale == 1:
            self.text(x, y, s)
        else:
            self.big(x, y, s, scale)

    def title(self, s: str, right: str = "", *, y: int = 0) -> None:
        """An inverted title bar (at the top, or at ``y`` in a box); ``right`` is a
        short tag at its end (e.g. 2/7)."""
        self.d.rectangle((0, y, WIDTH - 1, y + TITLE_H - 2), fill=1)
        room = (WIDTH - 2) // CHAR_W - (len(right) + 1 if right else 0)
        self._paste(1, y, fit(s, room), 0)
        if right:
            self._paste(WIDTH - 1 - CHAR_W * len(right), y, right, 0)

    def box(self, lines: int) -> int:
        """A box over the lower part of the screen for ``lines`` lines of text (a
        message, a question): cleared, under a rule that falls just below the
        screen's row above it, the screen it answers still in view above. Returns
        the y of its first line. Only the box's pages change on the display bus
        (issue 13). The rule never cuts through what is drawn above it (a name in
        the large font): it goes up to the nearest blank pixel row (the one under a
        title bar at the most; on a screen without one, the top if need be)."""
        y0 = max(BOX_TOP, HEIGHT - lines * LINE_H)
        rule = y0 - 3
        # the scrollbar's column is not what the rule must not cut (a scrolled menu's bar
        # runs down every row: the box would cover the whole menu)
        while rule > 0 and self.image.crop((0, rule, WIDTH - 1, rule + 1)).getbbox() is not None:
            rule -= 1
        self.d.rectangle((0, rule, WIDTH - 1, HEIGHT - 1), fill=0)
        self.d.line((0, rule, WIDTH - 1, rule), fill=1)
        # what the box covers is gone: its texts and scroll marks no longer meet
        self._texts = [(r, a, min(b, rule - 1), s) for r, a, b, s in self._texts if a < rule]
        self._marks = [(a, min(b, rule - 1)) for a, b in self._marks if a < rule]
        return y0

    def row(self, i: int, s: str, *, selected: bool = False, x: int = 7) -> None:
        """Body row ``i`` (0..ROWS-1) under the title; the selected row gets a
        solid arrow in the left margin. (An arrow, not an inverted bar: moving
        the cursor then changes a few columns, not whole pages, on the bus.)"""
        y = TITLE_H + i * LINE_H
        if selected:
            self.d.polygon([(0, y + 1), (4, y + 4), (0, y + 7)], fill=1)
        self._paste(x, y, fit(s, (WIDTH - x) // CHAR_W), 1)

    def lines(self, text: str, y: int = TITLE_H, *, width: int = WIDTH // CHAR_W) -> int:
        """Word-wrapped text from ``y``; returns the y after the last line."""
        for line in wrap(text, width):
            if y > HEIGHT - LINE_H + 1:
                CLIPS.add(line)
                break
            self.text(1, y, line)
            y += LINE_H
        return y

    def scrollbar(self, first: int, shown: int, total: int, *, top: int = TITLE_H) -> None:
        if total <= shown:
            return
        self.mark(top, HEIGHT - 1)
        h = HEIGHT - top
        y0 = top + h * first // total
        y1 = top + max(h * (first + shown) // total, h * first // total + 3)
        self.d.line((WIDTH - 1, top, WIDTH - 1, HEIGHT - 1), fill=0)
        self.d.line((WIDTH - 1, y0, WIDTH - 1, min(HEIGHT - 1, y1)), fill=1)

    # ------------------------------------------------------------ pieces
    def pyramid(self, x: int, y_base: int, size: Size, *, filled: bool = True, scale: int = 1) -> int:
        """A pyramid seen from the side, base at ``y_base``; returns its width."""
        h = (6 + 4 * size.pips) * scale
        w = (4 + 4 * size.pips) * scale
        pts = [(x, y_base), (x + w // 2, y_base - h), (x + w, y_base)]
        self.d.polygon(pts, fill=1 if filled else 0, outline=1)
        return w

    def piece(self, x: int, y_base: int, piece: Piece, *, scale: int = 1) -> int:
        """A pyramid with its color letter underneath-right; returns the width used."""
        w = self.pyramid(x, y_base, piece.size, filled=piece.color not in (Color.WHITE, Color.CLEAR),
                         scale=scale)
        return w


def fit(s: str, n: int) -> str:
    """``s`` in at most ``n`` characters; a cut one ends with ``~`` and is counted in ``CLIPS``."""
    if len(s) <= n:
        return s
    CLIPS.add(s)
    return s[: max(0, n - 1)] + "~"


CLINGS_LEFT = frozenset("?!:;»")  # French sets these after a space; never alone at a line's start
CLINGS_RIGHT = frozenset("«")


PIECE_CODE = re.compile(f"[{''.join(c.letter for c in Color)}][{''.join(z.letter for z in Size)}][.,;]?")
"""A piece code in a text (``rL``, ``kS,``: ``str(Piece)``): a list of them is wrapped as one word."""
POINTS = re.compile(r"[+-]\d+[.,;]?")
"""Points won or lost (``+2``, ``-8,``): they stay with the word before them."""
COUNT = re.compile(r"\d+")
"""A count (``3`` in "3 pips", "1 pce"): it stays with the word after it."""


def words(para: str, width: int) -> list[str]:
    """The words of ``para`` for wrapping: a lone ``?``, ``!``, ``:``, ``;`` or
    ``»`` stays with the word before it and ``«`` with the word after it
    (French typography puts a space there: "Annuler : P1 garde 0 ?"), points
    (``+2``) stay with the word before them, a count with the word after it
    ("3 pips", "1 pce"), and a list of piece codes stays
    whole ("rL rM kS", never "rL rM" above "kS"), when they fit on a line of
    ``width``."""
    out: list[str] = []
    glue = code = False
    for w in para.split():
        is_code = PIECE_CODE.fullmatch(w) is not None
        clings = w in CLINGS_LEFT or POINTS.fullmatch(w) is not None
        if out and (glue or clings or (code and is_code)) and len(out[-1]) + 1 + len(w) <= width:
            out[-1] += " " + w
        else:
            out.append(w)
        glue = w in CLINGS_RIGHT or COUNT.fullmatch(w) is not None
        code = is_code and w[-1] not in ".,;"
    return out


def wrap(text: str, width: int) -> list[str]:
    out: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in words(para, width):
            while len(word) > width:
                if line:
                    out.append(line)
                    line = ""
                out.append(word[:width])
                word = word[width:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= width:
                line += " " + word
            else:
                out.append(line)
                line = word
        out.append(line)
    return out
