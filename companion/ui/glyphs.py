"""The screens' font: misc-fixed 6x10 with Latin, Greek and Cyrillic.

Every character is 6 pixels wide and the line 10 high (capitals 7 pixels),
so a line holds 21 characters and ``len(text) * 6`` is a text's width. A
character the font lacks (Chinese, an emoji...) is drawn one cell wide as a
box holding its code point's 21 bits (``missing_glyph``), and never raises:
two such characters never draw alike, so neither do two names ("李华" and
"王芳" were both "□□" on every screen, issue 34). ``render`` caches whole
strings, so a screen redrawn with the same words pastes one image per text.

The glyphs come from ``fonts/fixed6x10.bin`` (built by
``python -m companion.ui.fonts.build`` from X.Org's public-domain misc-fixed
font; the format is described there). A damaged file is refused at load with
its checksum, never drawn as garbage.
"""
from __future__ import annotations

import struct
import unicodedata
import zlib
from functools import lru_cache
from pathlib import Path

from PIL import Image

FONT_FILE = Path(__file__).parent / "fonts" / "fixed6x10.bin"
REPLACEMENT = "\ufffd"


class FontFileError(ValueError):
    """The packaged font file is missing, damaged or of an unknown version."""


def _rows(*art: str) -> bytes:
    """A cell drawn as text: ``#`` lit, one string a row (10), six columns."""
    assert len(art) == 10 and all(len(r) == 6 for r in art)
    return bytes(int(r.replace("#", "1").replace(".", "0"), 2) << 2 for r in art)


OVERRIDES: dict[str, bytes] = {
    # misc-fixed's stroked L draws its stroke as a short bar across the stem, which
    # reads as a "t" on the screen ("Łukasz" read "tukasz", issue 39): a rising stroke
    # through the stem, from left of it to two cells right of it
    "Ł": _rows("......", ".#....", ".#....", ".#.#..", ".##...", "##....", ".#....", ".#####", "......", "......"),
    # misc-fixed's A with a ring is its A with a circumflex, cell for cell ("Åsa" drew "Âsa"):
    # a ring over a narrower A
    "Å": _rows("..#...", ".#.#..", "..#...", ".#.#..", "#...#.", "#####.", "#...#.", "#...#.", "......", "......"),
    "ł": _rows("......", ".##...", "..#...", "..#.#.", "..##..", ".##...", "..#...", ".###..", "......", "......"),
}
"""Glyphs drawn here instead of the font file's, where the file's read as another letter."""


@lru_cache(maxsize=1)
def table() -> tuple[int, int, dict[str, bytes]]:
    """``(width, height, {character: rows})`` from the packaged font."""
    try:
        data = FONT_FILE.read_bytes()
    except OSError as e:
        raise FontFileError(f"font file {FONT_FILE}: {e}") from None
    if len(data) < 16 or data[:4] != b"PTCF" or zlib.crc32(data[:-4]) != struct.unpack("<I", data[-4:])[0]:
        raise FontFileError(f"font file {FONT_FILE} is damaged (checksum)")
    version, w, h, _base, n = struct.unpack_from("<BBBBI", data, 4)
    if version != 1:
        raise FontFileError(f"font file {FONT_FILE}: unknown version {version}")
    glyphs: dict[str, bytes] = {}
    off = 12
    for _ in range(n):
        (cp,) = struct.unpack_from("<I", data, off)
        glyphs[chr(cp)] = data[off + 4: off + 4 + h]
        off += 4 + h
    glyphs.update(OVERRIDES)
    return w, h, glyphs


def has_glyph(ch: str) -> bool:
    return ch in table()[2]


def displayable(text: str) -> str:
    """``text`` as it will be drawn: NFC, each character the font lacks as U+FFFD."""
    glyphs = table()[2]
    return "".join(ch if ch in glyphs else REPLACEMENT for ch in unicodedata.normalize("NFC", text))


def missing_glyph(ch: str) -> bytes:
    """The cell of a character the font lacks: a 5x9 box whose 3x7 inside holds the
    code point's 21 bits (the highest top left, row by row), so that no two such
    characters draw alike. Rows as the font's: 6 bits of each byte, high bit first."""
    cp = ord(ch)
    rows = [0b11111000]
    for r in range(7):
        bits = (cp >> (18 - 3 * r)) & 0b111
        rows.append(0b10001000 | bits << 4)
    rows += [0b11111000, 0]
    return bytes(rows)


@lru_cache(maxsize=1024)
def _glyph(ch: str) -> Image.Image:
    """One character's cell as an image (``missing_glyph`` for one the font lacks)."""
    w, h, glyphs = table()
    rows = glyphs.get(ch) or missing_glyph(ch)
    return Image.frombytes("1", (w, h), bytes(rows))  # 6 bits used of each row byte, high bit first


@lru_cache(maxsize=2048)
def render(text: str) -> Image.Image:
    """``text`` as a mode-"1" image, 6 pixels a character by 10 (lit pixels = 1)."""
    w, h, _glyphs = table()
    shown = unicodedata.normalize("NFC", text)
    im = Image.new("1", (max(1, w * len(shown)), h), 0)
    for i, ch in enumerate(shown):
        if ch != " ":
            im.paste(_glyph(ch), (i * w, 0))
    return im


@lru_cache(maxsize=256)
def render_tight(text: str, scale: int = 1) -> Image.Image:
    """``text`` as ``render`` draws it ``scale`` times larger, but each character only as
    wide as its ink and one blank pixel column between them (a space: ``2 * scale``):
    a word that just misses its room in the large font ("yellow" beside a QR code,
    issue 48) still fits, in the same height."""
    w, h, _glyphs = table()
    cells = []
    for ch in unicodedata.normalize("NFC", text):
        g = _glyph(ch)
        box = g.getbbox()
        cell = g.crop((box[0], 0, box[2], h)) if box and ch != " " else Image.new("1", (2, h), 0)
        cells.append(cell.resize((cell.width * scale, h * scale), Image.Resampling.NEAREST))
    width = sum(c.width for c in cells) + max(0, len(cells) - 1)
    im = Image.new("1", (max(1, width), h * scale), 0)
    x = 0
    for c in cells:
        im.paste(c, (x, 0))
        x += c.width + 1
    return im
