"""A model of the SSD1306 / SH1106 display RAM, driven by the bytes on the bus.

Used to prove that partial updates leave the controller showing exactly the
frame: it interprets the command stream (addressing modes, page/column
commands, and the argument counts of the other commands) and the data writes.
"""
from __future__ import annotations

# Commands followed by N argument bytes (both controllers; SH1106 extras included).
ARGS = {0x81: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0x8D: 1, 0xAD: 1,
        0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2}


# Addressing-mode commands the SH1106 does not have (it only has page addressing).
SSD1306_ONLY = {0x20, 0x21, 0x22}


class ControllerModel:
    def __init__(self, kind: str, columns: int = 128, pages: int = 8):
        self.kind = kind
        self.ram_cols = 132 if kind == "sh1106" else columns
        self.pages = pages
        self.ram = [bytearray(self.ram_cols) for _ in range(pages)]
        self.mode = 2 if kind == "sh1106" else 0  # ssd1306 resets to page mode; luma sets horizontal
        self.page = 0
        self.col = 0
        self.col_range = (0, columns - 1)
        self.page_range = (0, pages - 1)
        self.on = False
        self._pending: list[int] = []
        self._need = 0

    def feed(self, control: int, payload: bytes) -> None:
        if control == 0x00:
            for b in payload:
                self._command_byte(b)
        elif control == 0x40:
            for b in payload:
                self._data_byte(b)
        else:
            raise AssertionError(f"unknown control byte {control:#x}")

    def _command_byte(self, b: int) -> None:
        if self._need:
            self._pending.append(b)
            self._need -= 1
            if not self._need:
                self._apply(self._pending)
            return
        if b in ARGS and not (self.kind == "sh1106" and b in SSD1306_ONLY):
            self._pending = [b]
            self._need = ARGS[b]
            return
        self._apply([b])

    def _apply(self, cmd: list[int]) -> None:
        c = cmd[0]
        if self.kind == "sh1106" and c in SSD1306_ONLY:
            return  # not an SH1106 command (luma sends 0x20 in its init): ignored
        if c == 0x20:
            self.mode = cmd[1] & 0x03
        elif c == 0x21:
            self.col_range = (cmd[1], cmd[2])
            self.col = cmd[1]
        elif c == 0x22:
            self.page_range = (cmd[1] & 7, cmd[2] & 7)
            self.page = cmd[1] & 7
        elif 0xB0 <= c <= 0xB7:
            self.page = c & 7
        elif c <= 0x0F:
            self.col = (self.col & 0xF0) | c
        elif 0x10 <= c <= 0x1F:
            self.col = (self.col & 0x0F) | ((c & 0x0F) << 4)
        elif c == 0xAE:
            self.on = False
        elif c == 0xAF:
            self.on = True

    def _data_byte(self, b: int) -> None:
        if self.col < self.ram_cols:
            self.ram[self.page][self.col] = b
        if self.mode == 2:  # page addressing: the column advances, the page stays
            self.col = min(self.col + 1, self.ram_cols - 1)
            return
        c0, c1 = self.col_range
        p0, p1 = self.page_range
        if self.col >= c1:
            self.col = c0
            self.page = p0 if self.page >= p1 else self.page + 1
        else:
            self.col += 1

    def visible(self, offset: int = 0, width: int = 128) -> list[bytes]:
        return [bytes(row[offset:offset + width]) for row in self.ram]
