"""Bytes on the display bus, counted with the real luma.oled drivers.

A ``RecordingBus`` stands in for smbus2: luma's own ``i2c`` interface class
calls ``write_i2c_block_data(addr, control, bytes)`` on it, exactly as it
would on the Pi. We count the command and data bytes (not the address and
control bytes, the same on every transfer).

``ideal_bytes(prev, new)`` is the update a perfect driver would send,
computed here independently of the driver: for each 8-pixel page that
changed, the fewest bytes that write every changed column: three addressing
commands (page, column low, column high) before the page's first run, two
(the column) before each further run, and a gap of unchanged columns either
re-sent or skipped by a new address, whichever is fewer bytes.
"""
from __future__ import annotations

from PIL import Image
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306

ADDRESSING = 3  # page + column low + column high


class RecordingBus:
    """smbus2's write_i2c_block_data, recording (control byte, payload) transfers."""

    def __init__(self) -> None:
        self.transfers: list[tuple[int, bytes]] = []

    def write_i2c_block_data(self, addr: int, control: int, data) -> None:
        self.transfers.append((control, bytes(data)))

    def take(self) -> int:
        n = sum(len(d) for _, d in self.transfers)
        self.transfers.clear()
        return n


def pages(img: Image.Image) -> list[bytes]:
    """The frame as the controller stores it: 8 pages of 128 column bytes."""
    px = img.convert("1").load()
    w, h = img.size
    out = []
    for p in range(h // 8):
        out.append(bytes(sum(1 << b for b in range(8) if px[x, p * 8 + b]) for x in range(w)))
    return out


def ideal_bytes(prev: list[bytes] | None, new: list[bytes]) -> int:
    if prev is None:
        return sum(ADDRESSING + len(p) for p in new)
    total = 0
    for a, b in zip(prev, new):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if diff:
            total += ADDRESSING + 1
            for x, y in zip(diff, diff[1:]):
                total += min(y - x, 2 + 1)  # re-send the gap and y, or re-address (2) and send y
    return total


class BusMeter:
    """One display driver on a recording bus."""

    def __init__(self, name: str, factory) -> None:
        self.name = name
        self.bus = RecordingBus()
        self.device = factory(i2c(bus=self.bus, address=0x3C))
        self.bus.take()  # the init sequence is not a UI event
        self.prev: list[bytes] | None = None

    @classmethod
    def all(cls) -> list["BusMeter"]:
        return [cls(name, f) for name, f in drivers()]

    def reset(self) -> None:
        self.prev = None

    def send(self, img: Image.Image) -> int:
        """Hand a frame to the driver (what the app does on a press); returns the bytes sent."""
        self.device.display(img)
        return self.bus.take()

    def ideal(self, img: Image.Image) -> int:
        """The ideal update from the previous frame given to ``ideal`` to this one (not on the press path)."""
        new = pages(img)
        ideal = ideal_bytes(self.prev, new)
        self.prev = new
        return ideal

    def show(self, img: Image.Image) -> tuple[int, int]:
        """Hand a frame to the driver; returns (bytes sent, ideal bytes)."""
        return self.send(img), self.ideal(img)


def drivers():
    """The drivers the companion uses: its partial-update ones when present, else luma's."""
    try:
        from hardware.partial import PartialSH1106, PartialSSD1306
        return [("ssd1306+partial", PartialSSD1306), ("sh1106+partial", PartialSH1106)]
    except ImportError:
        return [("ssd1306", ssd1306), ("sh1106", sh1106)]
