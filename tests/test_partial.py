"""Partial display updates on the real luma drivers: only the
changed pages and columns go on the bus, nothing for an unchanged frame, a
full frame after a wake, and the controller's memory, modelled from the bytes
sent, always equals the frame."""
import random

import pytest
from PIL import Image, ImageDraw
from luma.core.interface.serial import i2c

from bench.bus import RecordingBus, ideal_bytes, pages
from hardware.partial import PartialSH1106, PartialSSD1306, changed_runs, pack_pages

from .oled_model import ControllerModel


class ModelBus(RecordingBus):
    """smbus2's write_i2c_block_data feeding a controller model."""

    def __init__(self, kind):
        super().__init__()
        self.model = ControllerModel(kind)

    def write_i2c_block_data(self, addr, control, data):
        super().write_i2c_block_data(addr, control, data)
        self.model.feed(control, bytes(data))


DRIVERS = [("ssd1306", PartialSSD1306, 0), ("sh1106", PartialSH1106, 2)]


def random_frame(rnd: random.Random, base: Image.Image | None = None) -> Image.Image:
    img = base.copy() if base is not None and rnd.random() < 0.8 else Image.new("1", (128, 64))
    d = ImageDraw.Draw(img)
    for _ in range(rnd.randint(0, 4)):
        x0, y0 = rnd.randrange(128), rnd.randrange(64)
        x1, y1 = min(127, x0 + rnd.randrange(40)), min(63, y0 + rnd.randrange(20))
        d.rectangle((x0, y0, x1, y1), fill=rnd.randint(0, 1))
    if rnd.random() < 0.3:
        img.putpixel((rnd.randrange(128), rnd.randrange(64)), rnd.randint(0, 1))
    return img


def test_pack_pages_matches_a_pixel_by_pixel_packing():
    rnd = random.Random(3)
    img = random_frame(rnd)
    px = img.load()
    expected = [bytes(sum(1 << b for b in range(8) if px[x, p * 8 + b]) for x in range(128)) for p in range(8)]
    assert pack_pages(img, 8) == expected == pages(img)


@pytest.mark.parametrize("kind, cls, offset", DRIVERS)
@pytest.mark.parametrize("rotate", [0, 2])
@pytest.mark.parametrize("seed", range(4))
def test_controller_memory_always_equals_the_frame(kind, cls, offset, rotate, seed):
    rnd = random.Random(seed * 10 + rotate)
    bus = ModelBus(kind)
    dev = cls(i2c(bus=bus, address=0x3C), rotate=rotate)
    img = None
    for step in range(60):
        img = random_frame(rnd, img)
        if rnd.random() < 0.05:
            dev.hide()
            dev.show()  # a wake: the next frame is sent whole
        bus.take()
        dev.display(img)
        sent = bus.take()
        shown = img.rotate(180) if rotate == 2 else img
        assert bus.model.panel() == pages(shown), f"step {step}"
        assert sent >= 0


@pytest.mark.parametrize("kind, cls, offset", DRIVERS)
def test_unchanged_frame_sends_nothing_and_a_change_sends_the_ideal(kind, cls, offset):
    bus = ModelBus(kind)
    dev = cls(i2c(bus=bus, address=0x3C))
    img = Image.new("1", (128, 64))
    ImageDraw.Draw(img).text((10, 20), "hello", fill=1)
    dev.display(img)
    bus.take()
    dev.display(img.copy())
    assert bus.take() == 0
    prev = pages(img)
    img2 = img.copy()
    img2.putpixel((40, 30), 1)
    img2.putpixel((90, 31), 1)
    dev.display(img2)
    # two changed columns of one page far apart: two runs, the second addressed by its column only
    assert bus.take() == ideal_bytes(prev, pages(img2)) == (3 + 1) + (2 + 1)
    img3 = img2.copy()
    img3.putpixel((90, 31), 0)
    img3.putpixel((93, 30), 1)  # two unchanged columns between 90 and 93: sent again, cheaper than addressing
    prev = pages(img2)
    dev.display(img3)
    assert bus.take() == ideal_bytes(prev, pages(img3)) == 3 + 4
    img4 = img3.copy()
    for x in (10, 12, 50, 53, 80, 84):  # gaps of 1 and 2 joined, a gap of 3 addressed
        img4.putpixel((x, 40), 1)
    prev = pages(img3)
    dev.display(img4)
    assert bus.take() == ideal_bytes(prev, pages(img4)) == (3 + 3) + (2 + 4) + (2 + 1) + (2 + 1)


def test_changed_runs():
    a = bytes(128)
    assert changed_runs(a, a) == []
    b = bytearray(a)
    for i in (0, 3, 4, 10, 127):
        b[i] = 0x81
    assert changed_runs(a, bytes(b)) == [(0, 4), (10, 10), (127, 127)]
    assert changed_runs(a, bytes(b), join=0) == [(0, 0), (3, 4), (10, 10), (127, 127)]
    assert changed_runs(a, bytes(b), join=200) == [(0, 127)]


@pytest.mark.parametrize("kind, cls, offset", DRIVERS)
def test_full_frame_after_wake(kind, cls, offset):
    bus = ModelBus(kind)
    dev = cls(i2c(bus=bus, address=0x3C))
    img = Image.new("1", (128, 64))
    dev.display(img)
    dev.hide()
    dev.show()
    bus.take()
    dev.display(img)
    assert bus.take() == 8 * (3 + 128)


@pytest.mark.parametrize("kind, offset", [("ssd1306", 0), ("sh1106", 2)])
def test_the_model_agrees_with_luma_own_full_frame_drivers(kind, offset):
    """The model is checked against luma's unmodified drivers, so it can catch a wrong partial update."""
    from luma.oled.device import sh1106, ssd1306
    bus = ModelBus(kind)
    dev = (ssd1306 if kind == "ssd1306" else sh1106)(i2c(bus=bus, address=0x3C))
    rnd = random.Random(9)
    img = None
    for _ in range(10):
        img = random_frame(rnd, img)
        dev.display(img)
        assert bus.model.panel() == pages(img)


def test_the_model_catches_a_missed_page():
    class Broken(PartialSSD1306):
        def display(self, image):
            shadow = self._shadow
            super().display(image)
            if shadow is not None:  # pretend page 3 was written although it was skipped
                self._shadow = self._shadow[:3] + [bytes(128)] + self._shadow[4:]
    bus = ModelBus("ssd1306")
    dev = Broken(i2c(bus=bus, address=0x3C))
    a = Image.new("1", (128, 64))
    b = a.copy()
    ImageDraw.Draw(b).rectangle((0, 24, 127, 31), fill=1)  # page 3
    dev.display(b)
    dev.display(b)
    dev.display(a)
    dev.display(b)  # the shadow says page 3 is blank, so it is "changed"... and sent: still right
    c = a.copy()
    dev.display(c)  # the shadow claims page 3 is blank: nothing sent, the panel keeps b's page 3
    assert bus.model.visible() != pages(c)


def test_a_bus_error_mid_frame_is_healed_by_the_next_frame():
    """A glitch leaves half a frame in the panel: the next frame is sent whole."""
    class GlitchBus(ModelBus):
        fail_after = None

        def write_i2c_block_data(self, addr, control, data):
            if self.fail_after is not None:
                if self.fail_after == 0:
                    raise OSError(121, "Remote I/O error")
                self.fail_after -= 1
            super().write_i2c_block_data(addr, control, data)

    bus = GlitchBus("ssd1306")
    dev = PartialSSD1306(i2c(bus=bus, address=0x3C))
    rnd = random.Random(4)
    a = random_frame(rnd)
    dev.display(a)
    from PIL import ImageOps
    b = ImageOps.invert(a.convert("L")).convert("1")  # every page changes
    bus.fail_after = 3  # page 0 addressed and written, page 1 addressed, then the bus fails
    with pytest.raises(Exception):
        dev.display(b)
    bus.fail_after = None
    dev.display(a)  # back to a: a diff against the old shadow would send nothing
    assert bus.model.visible() == pages(a)
