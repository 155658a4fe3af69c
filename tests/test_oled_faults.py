"""The display after a bus fault, against a controller model that can catch a
real mistake. The real luma drivers, through ``open_display`` as
the device uses it, on a recording I2C bus that feeds tests/oled_model.py."""
from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw, ImageOps
from luma.core.interface.serial import i2c

from bench.bus import pages
from hardware.oled import open_display
from hardware.partial import PartialSH1106, PartialSSD1306
from hardware.profiles import DisplaySpec

from .oled_model import ControllerModel, ModelError


class CutBus:
    """smbus2's ``write_i2c_block_data`` feeding a controller model; ``cut`` makes
    transfer number ``n`` (counted from the last ``arm``) deliver only its first
    ``k`` bytes and then fail, as a glitch on the wire does."""

    def __init__(self, kind: str, seed: int = 1):
        self.model = ControllerModel(kind, seed=seed)
        self.log: list[tuple[int, bytes]] = []
        self.cut: tuple[int, int] | None = None
        self.count = 0

    def arm(self, n: int, k: int) -> None:
        self.cut, self.count = (n, k), 0

    def write_i2c_block_data(self, addr, control, data):
        data = bytes(data)
        if self.cut is not None:
            n, k = self.cut
            if self.count == n:
                self.cut = None
                self.model.feed(control, data[:k])
                raise OSError(5, "Input/output error")
            self.count += 1
        self.log.append((control, data))
        self.model.feed(control, data)


def spec(kind: str) -> DisplaySpec:
    return DisplaySpec(driver=kind, bus="i2c", address=0x3C)


def frame(seed: int) -> Image.Image:
    rnd = random.Random(seed)
    img = Image.new("1", (128, 64))
    d = ImageDraw.Draw(img)
    for _ in range(6):
        x, y = rnd.randrange(120), rnd.randrange(56)
        d.rectangle((x, y, x + rnd.randrange(40), y + rnd.randrange(20)), fill=rnd.randint(0, 1))
    d.text((rnd.randrange(60), rnd.randrange(40)), f"frame {seed}", fill=1)
    return img


DRIVERS = [("ssd1306", True), ("sh1106", True), ("ssd1306", False), ("sh1106", False)]


def shows(bus: CutBus, img: Image.Image) -> bool:
    return bus.model.on and bus.model.panel() == pages(img)


# ---------------------------------------------------------------- the model itself


@pytest.mark.parametrize("kind, partial", DRIVERS)
def test_the_panel_shows_every_frame_on_every_driver(kind, partial):
    bus = CutBus(kind)
    disp = open_display(spec(kind), serial=i2c(bus=bus, address=0x3C), partial=partial)
    for s in range(8):
        img = frame(s)
        disp.show(img)
        assert shows(bus, img), s
    disp.set_contrast(77)
    assert bus.model.contrast == 77


def test_ram_starts_random_and_the_sh1106_has_132_columns_behind_an_offset():
    m = ControllerModel("sh1106", seed=3)
    assert len(m.ram[0]) == 132 and any(m.ram[0]) and m.panel_offset == 2
    assert ControllerModel("sh1106", seed=4).ram != m.ram


def test_page_commands_do_nothing_outside_page_mode_on_the_ssd1306():
    m = ControllerModel("ssd1306")
    m.feed(0x00, bytes([0x20, 0x00, 0xB3, 0x05, 0x12]))  # horizontal mode: page and nibbles ignored
    assert (m.page, m.col) == (0, 0)
    m.feed(0x00, bytes([0x20, 0x02, 0xB3, 0x05, 0x12]))
    assert (m.page, m.col) == (3, 0x25)


def test_page_mode_wraps_the_column_and_keeps_the_page_horizontal_mode_moves_on():
    m = ControllerModel("ssd1306")
    m.feed(0x00, bytes([0x20, 0x02, 0xB1, 0x0E, 0x17]))  # page 1, column 126
    m.feed(0x40, bytes([1, 2, 3]))                       # 126, 127, then back to the start column
    assert m.ram[1][126:128] == bytes([3, 2]) and m.page == 1
    m = ControllerModel("ssd1306")
    m.feed(0x00, bytes([0x20, 0x00, 0x21, 126, 127, 0x22, 6, 7]))
    m.feed(0x40, bytes([9, 8, 7, 6, 5]))                 # page 6, page 7, then page 6 again
    assert m.ram[6][126:] == bytes([5, 8]) and m.ram[7][126:] == bytes([7, 6])
    assert (m.page, m.col) == (6, 127)


def test_undefined_commands_are_flagged():
    m = ControllerModel("sh1106")
    m.feed(0x00, bytes([0x8D, 0x14]))  # the SSD1306 charge pump: undefined on the SH1106...
    assert m.errors == ["undefined sh1106 command 0x8d"]
    assert m.col == 0x40  # ...and 0x14 is then a column command of its own
    with pytest.raises(ModelError):
        ControllerModel("sh1106", strict=True).feed(0x00, bytes([0x20, 0x00]))
    with pytest.raises(ModelError):
        ControllerModel("ssd1306", strict=True).feed(0x00, bytes([0x20, 0x03]))


def test_the_partial_drivers_send_nothing_undefined_after_luma_init():
    for kind in ("ssd1306", "sh1106"):
        bus = CutBus(kind)
        disp = open_display(spec(kind), serial=i2c(bus=bus, address=0x3C))
        init_errors = list(bus.model.errors)  # luma's own SH1106 init sends 0x20 and 0x8D
        for s in range(5):
            disp.show(frame(s))
        disp.set_contrast(10)
        disp.blank()
        disp.show(frame(9))
        assert bus.model.errors == init_errors


def test_remap_scan_offset_and_inverse_change_what_the_panel_shows():
    m = ControllerModel("ssd1306")
    m.ram = [bytearray(128) for _ in range(8)]  # a known RAM instead of power-on noise
    m.feed(0x00, bytes([0x20, 0x02, 0xB0, 0x00, 0x10, 0xA1, 0xC8, 0xAF]))
    m.feed(0x40, bytes([0x01]))  # RAM column 0, row 0
    upright = m.panel()
    assert upright[0][0] & 1
    m.feed(0x00, bytes([0xA0]))
    assert m.panel()[0][127] & 1 and not m.panel()[0][0] & 1
    m.feed(0x00, bytes([0xA1, 0xC0]))
    assert m.panel()[7][0] & 0x80
    m.feed(0x00, bytes([0xC8, 0xD3, 1]))
    assert m.panel()[7][0] & 0x80  # offset 1: row 0 moves to the last line
    m.feed(0x00, bytes([0xD3, 0, 0xA7]))
    assert not m.panel()[0][0] & 1 and m.panel()[0][1] & 1


# ---------------------------------------------------------------- recovery after a cut


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
def test_a_cut_contrast_sequence_leaves_the_frame(kind):
    # A fresh display; the set_contrast(40) transfer is cut after the control byte and
    # 0x81; then any frame. Before: 0xB0|page was taken as the contrast value and page 0
    # landed on the wrong page until its columns changed.
    bus = CutBus(kind)
    disp = open_display(spec(kind), serial=i2c(bus=bus, address=0x3C))
    bus.arm(0, 1)
    with pytest.raises(OSError):
        disp.set_contrast(40)
    img = frame(5)
    disp.show(img)
    assert shows(bus, img) and bus.model.contrast == 40 and not bus.model._need


def test_luma_full_frame_ssd1306_survives_a_cut_range_command():
    bus = CutBus("ssd1306")
    disp = open_display(spec("ssd1306"), serial=i2c(bus=bus, address=0x3C), partial=False)
    disp.show(frame(1))
    for k in range(6):  # 0x21 a b 0x22 c d, cut after k bytes
        bus.arm(0, k)
        with pytest.raises(OSError):
            disp.show(frame(10 + k))
        img = frame(20 + k)
        disp.show(img)
        assert shows(bus, img), k


def script(disp, imgs):
    """The operations a session makes: frames, a contrast change, a blank and a wake."""
    yield lambda: disp.show(imgs[0])
    yield lambda: disp.show(imgs[1])
    yield lambda: disp.set_contrast(40)
    yield lambda: disp.show(imgs[2])
    yield lambda: disp.blank()
    yield lambda: disp.show(imgs[3])
    yield lambda: disp.set_contrast(200)
    yield lambda: disp.show(imgs[4])


def transfers_of_script(kind: str, partial: bool) -> list[tuple[int, bytes]]:
    bus = CutBus(kind)
    disp = open_display(spec(kind), serial=i2c(bus=bus, address=0x3C), partial=partial)
    bus.log.clear()
    for op in script(disp, [frame(i) for i in range(5)]):
        op()
    return list(bus.log)


@pytest.mark.parametrize("kind, partial", DRIVERS)
def test_a_cut_at_every_byte_of_every_command_is_healed_by_the_next_frame(kind, partial):
    log = transfers_of_script(kind, partial)
    cases = []
    for n, (control, data) in enumerate(log):
        if control == 0x00:
            cases += [(n, k) for k in range(len(data) + 1)]  # every byte position of a command
        else:
            cases += [(n, k) for k in sorted({0, 1, len(data) // 2, len(data)})]  # data: a few
    assert len(cases) > 40
    imgs = [frame(i) for i in range(5)]
    for n, k in cases:
        bus = CutBus(kind, seed=n)
        disp = open_display(spec(kind), serial=i2c(bus=bus, address=0x3C), partial=partial)
        bus.arm(n, k)
        for op in script(disp, imgs):
            try:
                op()
            except OSError:
                pass
        final = frame(99)
        disp.show(final)
        assert shows(bus, final), (n, k, log[n])
        assert bus.model.contrast == 200 and not bus.model._need, (n, k)
        assert disp.resyncs == 1


# ---------------------------------------------------------------- mutation check


class NoPageMode(PartialSSD1306):
    def _prepare(self):
        self._column_offset = self._colstart  # never switches to page addressing


class OffsetZero(PartialSH1106):
    def _prepare(self):
        self._column_offset = 0  # forgets the SH1106's 2 hidden columns


class OneShort(PartialSSD1306):
    def data(self, data):
        super().data(data[:-1])  # every column range one short


class PagesReversed(PartialSH1106):
    def command(self, *cmd):
        if len(cmd) == 3 and 0xB0 <= cmd[0] <= 0xB7:
            cmd = (0xB0 | (7 - (cmd[0] & 7)),) + cmd[1:]
        super().command(*cmd)


def panel_always_right(cls, kind: str) -> bool:
    bus = CutBus(kind)
    dev = cls(i2c(bus=bus, address=0x3C))
    rnd = random.Random(2)
    img = Image.new("1", (128, 64))
    for s in range(12):
        img = frame(s) if rnd.random() < 0.5 else ImageOps.invert(img.convert("L")).convert("1")
        dev.display(img)
        if bus.model.panel() != pages(img):
            return False
    return True


def test_the_model_passes_the_real_drivers_and_fails_each_broken_one():
    assert panel_always_right(PartialSSD1306, "ssd1306")
    assert panel_always_right(PartialSH1106, "sh1106")
    for cls, kind in [(NoPageMode, "ssd1306"), (OffsetZero, "sh1106"), (OneShort, "ssd1306"),
                      (PagesReversed, "sh1106")]:
        assert not panel_always_right(cls, kind), cls.__name__


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
def test_the_same_frame_after_a_cut_command_is_sent_again(kind):
    # the frame did not change, but a cut contrast or blank leaves the chip mid-command:
    # the next show() must resync and send, not skip it as unchanged
    bus = CutBus(kind)
    disp = open_display(spec(kind), serial=i2c(bus=bus, address=0x3C))
    img = frame(3)
    disp.show(img)
    bus.arm(0, 1)
    with pytest.raises(OSError):
        disp.set_contrast(90)
    disp.show(img)
    assert shows(bus, img) and bus.model.contrast == 90 and not bus.model._need
