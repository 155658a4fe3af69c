"""A model of the SSD1306 and SH1106 controllers, driven by the bytes on the bus.

No OLED is attached here, so the only evidence that the bytes are right is a
model of the controller, written from the datasheets, not from the drivers:

* SSD1306: Solomon Systech, "SSD1306 Advance Information", Rev 1.1 (2008),
  section 10 (command descriptions) and 8.7 (GDDRAM); the charge pump
  command from the application note in its appendix.
* SH1106: Sino Wealth, "SH1106 132 X 64 Dot Matrix OLED/PLED Segment/Common
  Driver with Controller", V2.3, "Commands" 1 to 21.

Each rule below names its section. What the model does:

* RAM: 8 pages of 128 (SSD1306) or 132 (SH1106) column bytes, bit 0 = the
  page's top row. It starts random, as at power-on (SSD1306 8.7, SH1106:
  the display data RAM is not initialised by a reset).
* Commands and their argument bytes (SSD1306 table 9-1; SH1106 commands 1-21).
  An argument still awaited when a transfer ends is taken from the next
  command byte, in the next transfer too: the chip has no notion of where a
  bus transfer was cut.
* Addressing (SSD1306 10.1.3 to 10.1.5, 10.1.13): page mode (the reset
  mode) takes 0xB0-0xB7 and the column nibbles 0x00-0x1F; horizontal and
  vertical modes take 0x21/0x22 ranges and ignore the page-mode commands;
  mode 3 is invalid. Wrap rules: page mode: the column wraps from 127 to
  the start column and the page stays (10.1.3); horizontal: past the end
  column to the start column and the next page, past the end page to the
  start page; vertical: the page first, then the column.
* SH1106 has page addressing only (commands 1, 2, 12): the column counter
  runs over 132 RAM columns; a write past column 131 is an error. The panel
  shows RAM columns from the offset the module is wired for (2 on the
  common 1.3" 128x64 modules).
* Undefined commands are recorded in ``errors`` (SH1106: 0x20-0x22, 0x26-0x2F,
  0x8D, 0xA3 are SSD1306 commands the SH1106 does not have; an SH1106 takes
  each such byte as undefined and the next byte as a command of its own).
* What the panel shows (``panel()``): segment remap 0xA0/0xA1 (SSD1306
  10.1.8, SH1106 6), COM scan 0xC0/0xC8 (10.1.14, SH1106 13), start line
  0x40-0x7F (10.1.6, SH1106 4), display offset 0xD3 (10.1.15, SH1106 14),
  inverse 0xA6/0xA7 (10.1.10, SH1106 8), entire display on 0xA4/0xA5
  (10.1.9, SH1106 7), display on/off 0xAE/0xAF (10.1.12, SH1106 11). The
  modules are wired so that remapped segments (0xA1) and a reversed COM scan
  (0xC8), what luma sets, show RAM column 0 at the left and row 0 at the
  top: ``panel()`` is the frame as a person sees it.
"""
from __future__ import annotations

import random

# SSD1306 table 9-1: commands followed by N argument bytes.
SSD1306_ARGS = {0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1,
                0xDB: 1, 0x8D: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2}
# SH1106 commands with a second byte: contrast (5), multiplex (9), DC-DC (10), offset (14),
# clock (15), pre-charge (16), COM pads (17), VCOM (18).
SH1106_ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
# Single-byte commands of each (besides the ranges handled in _apply).
SSD1306_SINGLE = {0x2E, 0x2F, 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE3}
SH1106_SINGLE = {0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE0, 0xEE, 0xE3,
                 0x30, 0x31, 0x32, 0x33}


class ModelError(AssertionError):
    """A byte stream no real controller would take as the driver meant it."""


class ControllerModel:
    """One controller; feed it what the bus carries (``feed`` for I2C, ``write`` for SPI)."""

    def __init__(self, kind: str, *, columns: int = 128, pages: int = 8, panel_offset: int | None = None,
                 seed: int = 0, strict: bool = False):
        if kind not in ("ssd1306", "sh1106"):
            raise ValueError(kind)
        self.kind = kind
        self.width = columns
        self.pages = pages
        self.ram_cols = 132 if kind == "sh1106" else columns
        self.panel_offset = (2 if kind == "sh1106" else 0) if panel_offset is None else panel_offset
        rnd = random.Random(seed)
        self.ram = [bytearray(rnd.randrange(256) for _ in range(self.ram_cols)) for _ in range(pages)]
        # reset state: SSD1306 10.1.3 (page mode), SH1106 (page mode only)
        self.mode = 2
        self.page = 0
        self.col = 0
        self.col_start = 0          # page mode: the column set by the nibbles
        self.col_range = (0, columns - 1)
        self.page_range = (0, pages - 1)
        self.contrast = 0x7F if kind == "ssd1306" else 0x80
        self.seg_remap = False
        self.com_reversed = False
        self.start_line = 0
        self.offset = 0
        self.inverse = False
        self.all_on = False
        self.on = False
        self.errors: list[str] = []
        self.strict = strict
        self._cmd: list[int] = []
        self._need = 0

    # ------------------------------------------------------------ the bus
    def feed(self, control: int, payload: bytes) -> None:
        """One I2C transfer after the address: control byte 0x00 (commands) or 0x40 (data)
        (SSD1306 8.1.5, SH1106 I2C interface)."""
        if control & 0x3F:
            self._error(f"control byte {control:#04x}")
        self.write(bool(control & 0x40), payload)

    def write(self, data: bool, payload: bytes) -> None:
        """Bytes with the D/C line high (data) or low (commands), SPI or I2C alike."""
        for b in payload:
            if data:
                self._data_byte(b)
            else:
                self._command_byte(b)

    def _error(self, what: str) -> None:
        self.errors.append(what)
        if self.strict:
            raise ModelError(what)

    # ------------------------------------------------------------ commands
    def _command_byte(self, b: int) -> None:
        if self._need:
            self._cmd.append(b)
            self._need -= 1
            if not self._need:
                self._apply(self._cmd)
            return
        args = (SSD1306_ARGS if self.kind == "ssd1306" else SH1106_ARGS).get(b, 0)
        if args:
            self._cmd, self._need = [b], args
            return
        self._apply([b])

    def _apply(self, cmd: list[int]) -> None:
        c = cmd[0]
        ssd = self.kind == "ssd1306"
        if c <= 0x0F:                                   # SSD1306 10.1.1, SH1106 1: column low nibble
            if ssd and self.mode != 2:
                return                                  # page-mode only on the SSD1306
            self.col = self.col_start = (self.col & 0xF0) | c
        elif c <= 0x1F:                                 # SSD1306 10.1.2, SH1106 2: column high nibble
            if ssd and self.mode != 2:
                return
            self.col = self.col_start = (self.col & 0x0F) | ((c & 0x0F) << 4)
        elif 0x40 <= c <= 0x7F:                         # 10.1.6, SH1106 4
            self.start_line = c & 0x3F
        elif 0xB0 <= c <= 0xB7:                         # 10.1.13, SH1106 12: page
            if ssd and self.mode != 2:
                return
            self.page = c & 0x07
        elif c == 0x81:
            self.contrast = cmd[1]
        elif c in (0xA0, 0xA1):
            self.seg_remap = c == 0xA1
        elif c in (0xA4, 0xA5):
            self.all_on = c == 0xA5
        elif c in (0xA6, 0xA7):
            self.inverse = c == 0xA7
        elif c in (0xAE, 0xAF):
            self.on = c == 0xAF
        elif c in (0xC0, 0xC8):
            self.com_reversed = c == 0xC8
        elif c == 0xD3:
            self.offset = cmd[1] & 0x3F
        elif ssd and c == 0x20:                         # 10.1.3
            if cmd[1] & 0x03 == 3:
                self._error("memory addressing mode 3 is invalid (SSD1306 10.1.3)")
            self.mode = cmd[1] & 0x03
        elif ssd and c == 0x21:                         # 10.1.4
            self.col_range = (cmd[1] & 0x7F, cmd[2] & 0x7F)
            self.col = self.col_range[0]
        elif ssd and c == 0x22:                         # 10.1.5
            self.page_range = (cmd[1] & 0x07, cmd[2] & 0x07)
            self.page = self.page_range[0]
        elif c in (0xA8, 0xD5, 0xD9, 0xDA, 0xDB, 0xAD, 0x8D, 0xE3) and (
                c in (SSD1306_ARGS if ssd else SH1106_ARGS) or c == 0xE3):
            pass                                        # timing and power settings, NOP: no effect here
        elif c in (SSD1306_SINGLE if ssd else SH1106_SINGLE) or (ssd and c in SSD1306_ARGS):
            pass                                        # scrolling and the like: not used by the drivers
        else:
            self._error(f"undefined {self.kind} command {c:#04x}")

    # ------------------------------------------------------------ data
    def _data_byte(self, b: int) -> None:
        if self._need:
            self._error(f"data while command {self._cmd[0]:#04x} awaits {self._need} argument byte(s)")
        if self.col >= self.ram_cols:
            self._error(f"data past the last RAM column ({self.ram_cols - 1})")
            return
        self.ram[self.page][self.col] = b
        if self.kind == "sh1106":                       # SH1106 1, 2: the counter increments
            self.col += 1
            return
        if self.mode == 2:                              # SSD1306 10.1.3: page mode
            self.col = self.col_start if self.col >= self.width - 1 else self.col + 1
            return
        c0, c1 = self.col_range
        p0, p1 = self.page_range
        if self.mode == 0:                              # horizontal
            if self.col >= c1:
                self.col = c0
                self.page = p0 if self.page >= p1 else self.page + 1
            else:
                self.col += 1
        else:                                           # vertical
            if self.page >= p1:
                self.page = p0
                self.col = c0 if self.col >= c1 else self.col + 1
            else:
                self.page += 1

    # ------------------------------------------------------------ the panel
    def ram_pixel(self, col: int, row: int) -> int:
        return (self.ram[row // 8][col] >> (row % 8)) & 1

    def panel(self) -> list[bytes]:
        """What the panel shows, as 8 pages of ``width`` column bytes (bit 0 = top):
        compare with the frame packed the same way. All dark while the display is off."""
        rows = self.pages * 8
        out = [bytearray(self.width) for _ in range(self.pages)]
        if not self.on:
            return [bytes(p) for p in out]
        for y in range(rows):
            com = y if self.com_reversed else rows - 1 - y       # module wiring: 0xC8 is upright
            row = (com + self.start_line + self.offset) % rows
            for x in range(self.width):
                seg = x if self.seg_remap else self.width - 1 - x  # module wiring: 0xA1 is upright
                v = 1 if self.all_on else self.ram_pixel(seg + self.panel_offset, row)
                if self.inverse:
                    v ^= 1
                if v:
                    out[y // 8][x] |= 1 << (y % 8)
        return [bytes(p) for p in out]

    def visible(self, offset: int | None = None, width: int | None = None) -> list[bytes]:
        """The RAM window the panel shows, without remap or scan (the old model's view)."""
        o = self.panel_offset if offset is None else offset
        w = self.width if width is None else width
        return [bytes(row[o:o + w]) for row in self.ram]
