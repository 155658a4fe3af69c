"""Build ``fixed6x10.bin``, the screens' font, from X.Org's misc-fixed 6x10.

    sudo apt-get install xfonts-base       # Debian / Raspberry Pi OS
    python -m companion.ui.fonts.build    # rewrites companion/ui/fonts/fixed6x10.bin

The source is ``/usr/share/fonts/X11/misc/6x10.pcf.gz`` (package xfonts-base,
X.Org font-misc-misc, "Public domain terminal emulator font. Share and
enjoy."), read with Pillow's FreeType. Only a development machine runs this:
the device reads the packed file (``glyphs.py``), which needs nothing but the
package itself.

Kept: the blocks players' names and the screens' words use, where the font
has a glyph: Latin (Basic, Latin-1, Extended-A and -B, Extended Additional),
Greek, Cyrillic, general punctuation, currency, arrows, a few mathematical
and geometric signs, and U+FFFD. Any other character is drawn as the
replacement glyph by ``glyphs.py``, never an exception.

File format (version 1): ``b"PTCF"``, version (u8), cell width (u8), cell
height (u8), baseline (u8), glyph count (u32 LE), then per glyph the code
point (u32 LE) and ``height`` bytes, one per row, the leftmost pixel in the
high bit; last, the CRC-32 of everything before it (u32 LE).
"""
from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

SOURCE = "/usr/share/fonts/X11/misc/6x10.pcf.gz"
OUT = Path(__file__).with_name("fixed6x10.bin")
W, H, BASELINE = 6, 10, 8
RANGES = [
    (0x0020, 0x007E), (0x00A0, 0x024F), (0x0370, 0x03FF), (0x0400, 0x04FF),
    (0x1E00, 0x1EFF), (0x2010, 0x205E), (0x20A0, 0x20BF), (0x2190, 0x21FF),
    (0x2200, 0x22FF), (0x25A0, 0x25FF), (0x2600, 0x266F), (0x2713, 0x2718), (0xFFFD, 0xFFFD),
]


def rows(font: ImageFont.FreeTypeFont, ch: str) -> bytes:
    im = Image.new("1", (W, H), 0)
    ImageDraw.Draw(im).text((0, 0), ch, font=font, fill=1)
    out = bytearray()
    for y in range(H):
        b = 0
        for x in range(W):
            if im.getpixel((x, y)):
                b |= 0x80 >> x
        out.append(b)
    return bytes(out)


def build(source: str = SOURCE) -> bytes:
    font = ImageFont.truetype(source, H, layout_engine=ImageFont.Layout.BASIC)
    missing = rows(font, "\U0010FFFD")  # what FreeType draws for a code point the font lacks
    glyphs: list[tuple[int, bytes]] = []
    for lo, hi in RANGES:
        for cp in range(lo, hi + 1):
            r = rows(font, chr(cp))
            if cp == 0x20 or r != missing:
                glyphs.append((cp, r))
    body = b"PTCF" + struct.pack("<BBBBI", 1, W, H, BASELINE, len(glyphs))
    body += b"".join(struct.pack("<I", cp) + r for cp, r in glyphs)
    return body + struct.pack("<I", zlib.crc32(body))


def main() -> int:
    data = build()
    OUT.write_bytes(data)
    n = struct.unpack_from("<I", data, 8)[0]
    print(f"wrote {OUT.name}: {n} glyphs, {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
