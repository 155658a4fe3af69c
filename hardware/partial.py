"""Partial display updates on top of luma.oled's SSD1306 and SH1106 drivers.

luma's drivers send the whole frame (about 1 KB) on every ``display()``:
about 93 ms on the Pi's default 100 kHz I2C. These subclasses keep the
controller's memory as they last wrote it (a shadow) and send, for each
8-pixel page that changed, only the runs of changed columns (``changed_runs``),
the first addressed with the three page-addressing commands (page, column
low, column high), each further run on the same page with the two column
commands only (the page does not change as data is written, SSD1306 10.1.3,
SH1106 "page address"); two runs closer than ``JOIN`` unchanged columns are
sent as one, which costs no more than addressing the second:

* an unchanged frame sends nothing;
* the first frame, and the first after ``show()`` (wake) or ``invalidate()``
  (after a bus error, a reset), is sent whole;
* after a bus error ``resync()`` (called by ``hardware.oled.OledDisplay``)
  puts the controller's command parser back in step and restores the page
  addressing mode a stray byte may have changed;
* packing uses Pillow (transpose + ``tobytes``), not a per-pixel Python loop.

Everything else (init sequences, contrast, hide/show, rotation via
``preprocess``) is luma's own. The SSD1306 is switched to page addressing
mode (``0x20 0x02``) before the first frame; the SH1106 only has that mode.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PIL import Image
from luma.oled.device import sh1106, ssd1306

SET_MEMORY_MODE = 0x20
PAGE_ADDRESSING = 0x02
NOP = 0xE3
RESYNC = (NOP, NOP)
"""Sent first after a bus error. A transfer cut after a command byte leaves the chip
waiting for that command's arguments (2 at most among the commands the drivers send:
0x21, 0x22); the NOPs complete it, so the bytes that follow are read as commands
again (SSD1306 10.1.20, SH1106 21: NOP). What the NOPs may have set as arguments
(the contrast, the addressing mode) is then sent again."""


def pack_pages(image: Image.Image, pages: int) -> list[bytes]:
    """A mode-"1" image as the controller stores it: ``pages`` rows of column
    bytes, bit 0 = the page's top pixel."""
    # After flipping and transposing, each image column becomes a row whose
    # bytes are the pages from bottom to top, most significant bit first:
    # exactly the controller's byte with bit 0 at the top.
    data = image.transpose(Image.Transpose.FLIP_TOP_BOTTOM).transpose(Image.Transpose.TRANSPOSE).tobytes()
    return [data[pages - 1 - p::pages] for p in range(pages)]


JOIN = 2
"""Unchanged columns between two changed runs of a page are re-sent when there are
at most this many: re-addressing the second run costs two command bytes."""


def changed_runs(old: bytes, new: bytes, join: int = JOIN) -> list[tuple[int, int]]:
    """The first and last index of each run of differing bytes of two equal-length
    byte strings, runs separated by at most ``join`` equal bytes taken as one."""
    if old == new:
        return []
    x = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(len(new), "big")
    runs: list[tuple[int, int]] = []
    for m in _NONZERO.finditer(x):
        a, b = m.start(), m.end() - 1
        if runs and a - runs[-1][1] - 1 <= join:
            runs[-1] = (runs[-1][0], b)
        else:
            runs.append((a, b))
    return runs


_NONZERO = re.compile(rb"[^\x00]+")


if TYPE_CHECKING:
    class _LumaDevice:
        """What the mixin uses of the luma device it is combined with (luma ships no types)."""

        mode: str
        size: tuple[int, int]
        _pages: int

        def preprocess(self, image: Image.Image) -> Image.Image: ...
        def command(self, *cmd: int) -> None: ...
        def data(self, data: list[int]) -> None: ...
        def show(self) -> None: ...
else:
    _LumaDevice = object  # at run time the mixin's base is the luma device after it in the MRO


class _Partial(_LumaDevice):
    """Mixin over a luma device with page addressing (see module docstring)."""

    _shadow: list[bytes] | None = None
    _column_offset = 0
    bytes_sent = 0  # command + data bytes handed to the bus since creation

    def invalidate(self) -> None:
        """Forget the shadow: the next frame is sent whole."""
        self._shadow = None

    def resync(self) -> None:
        """After a bus error: forget the shadow and the addressing mode set (the caller
        sends ``RESYNC`` and the settings, see ``hardware.oled.OledDisplay``)."""
        self._shadow = None

    def _prepare(self) -> None:
        """Put the controller in page addressing mode (once)."""

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode
        assert image.size == self.size
        image = self.preprocess(image)
        pages = pack_pages(image, self._pages)
        shadow = self._shadow
        try:
            self._send(pages, shadow)
        except BaseException:
            # A bus error mid-frame leaves the panel's memory unknown: send the next frame whole.
            self._shadow = None
            raise
        self._shadow = pages

    def _send(self, pages: list[bytes], shadow: list[bytes] | None) -> None:
        if shadow is None:
            self._prepare()
        for p, new in enumerate(pages):
            runs = [(0, len(new) - 1)] if shadow is None else changed_runs(shadow[p], new)
            for i, (c0, c1) in enumerate(runs):
                col = c0 + self._column_offset
                if i == 0:
                    self.command(0xB0 | p, col & 0x0F, 0x10 | (col >> 4))
                else:  # same page: the page pointer stays while data is written
                    self.command(col & 0x0F, 0x10 | (col >> 4))
                self.data(list(new[c0:c1 + 1]))
                self.bytes_sent += (3 if i == 0 else 2) + c1 - c0 + 1

    def show(self) -> None:
        super().show()
        self.invalidate()


class PartialSSD1306(_Partial, ssd1306):
    """luma's ``ssd1306`` sending only what changed."""

    _page_mode = False

    def resync(self) -> None:
        super().resync()
        self._page_mode = False  # a NOP may have been taken as 0x20's argument: set page mode again

    def _prepare(self) -> None:
        if not self._page_mode:
            self.command(SET_MEMORY_MODE, PAGE_ADDRESSING)
            self._page_mode = True
        self._column_offset = self._colstart


class PartialSH1106(_Partial, sh1106):
    """luma's ``sh1106`` sending only what changed (RAM columns start at the page address offset, 2)."""

    def _prepare(self) -> None:
        self._column_offset = self._page_address_offset
