"""A frame as braille text (issue 40: below the views): the serial console's
``screen`` and the terminal simulator draw the 128x64 frame with it."""
from __future__ import annotations

from PIL import Image

_DOTS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08),
         (1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))


def braille(image: Image.Image) -> list[str]:
    """A 1-bit frame as braille text: 2x4 pixels per character (128x64 -> 16 lines of 64)."""
    px = image.convert("1").load()
    assert px is not None  # an image made in memory always has its pixels
    w, h = image.size
    lines = []
    for y in range(0, h, 4):
        row = []
        for x in range(0, w, 2):
            bits = 0
            for dx, dy, bit in _DOTS:
                if x + dx < w and y + dy < h and px[x + dx, y + dy]:
                    bits |= bit
            row.append(chr(0x2800 + bits))
        lines.append("".join(row))
    return lines
