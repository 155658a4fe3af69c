"""The display writer: the loop never waits on the bus, a frame
not sent yet is replaced by a newer one, blank/contrast keep their order, a
failing bus is retried with the newest frame, and the real partial-update
driver on a recording bus still diffs against what the controller holds."""
from __future__ import annotations

import threading
import time

from PIL import Image, ImageDraw

from companion.display_writer import DisplayWriter


class SlowDisplay:
    """A display whose show takes as long as a 100 kHz full frame, recording the order of calls."""

    def __init__(self, delay: float = 0.05, fail: int = 0):
        self.delay = delay
        self.fail = fail
        self.calls: list[tuple[str, object]] = []
        self.gate = threading.Event()
        self.gate.set()

    def show(self, image) -> None:
        self.gate.wait(5)
        if self.fail:
            self.fail -= 1
            raise OSError("I2C NACK")
        time.sleep(self.delay)
        self.calls.append(("frame", image))

    def blank(self) -> None:
        self.calls.append(("blank", None))

    def set_contrast(self, level: int) -> None:
        self.calls.append(("contrast", level))

    def close(self) -> None:
        self.calls.append(("close", None))


def frame(n: int) -> Image.Image:
    img = Image.new("1", (128, 64))
    ImageDraw.Draw(img).text((0, 0), str(n), fill=1)
    return img


def test_show_returns_at_once_and_a_burst_sends_the_first_and_the_last():
    d = SlowDisplay(delay=0.2)
    w = DisplayWriter(d)
    d.gate.clear()  # the bus is stuck until the gate opens
    frames = [frame(i) for i in range(10)]
    for f in frames:
        w.show(f)  # returns although nothing can be sent yet
    assert d.calls == []
    d.gate.set()
    assert w.flush(timeout=5)
    sent = [arg for kind, arg in d.calls if kind == "frame"]
    assert sent[-1] is frames[-1] and len(sent) <= 2 and w.dropped >= 8
    w.close()
    assert d.calls[-1] == ("close", None)


def test_blank_and_contrast_keep_their_order_with_frames():
    d = SlowDisplay(delay=0.0)
    w = DisplayWriter(d)
    d.gate.clear()
    a, b = frame(1), frame(2)
    w.show(a)
    w.set_contrast(10)
    w.show(b)
    w.blank()
    d.gate.set()
    w.flush(timeout=5)
    kinds = [k for k, _ in d.calls]
    assert kinds[-3:] == ["contrast", "frame", "blank"] and d.calls[-2][1] is b


def test_a_failing_bus_is_retried_with_the_newest_frame():
    d = SlowDisplay(delay=0.0, fail=3)
    w = DisplayWriter(d, retry_s=0.01)
    f = frame(5)
    w.show(f)
    deadline = time.monotonic() + 5
    while not d.calls and time.monotonic() < deadline:
        time.sleep(0.01)
    assert d.calls == [("frame", f)] and w.errors == 3 and w.failing == 0


def test_the_partial_driver_diffs_against_what_was_sent():
    """Frames dropped by the writer were never sent: the next transfer is the
    diff from the last frame the controller got, so the panel ends exact."""
    from bench.bus import RecordingBus, pages
    from luma.core.interface.serial import i2c
    from hardware.oled import OledDisplay
    from hardware.partial import PartialSSD1306
    from tests.oled_model import ControllerModel

    bus = RecordingBus()
    device = PartialSSD1306(i2c(bus=bus, address=0x3C))
    oled = OledDisplay(device)
    model = ControllerModel("ssd1306", seed=1)
    w = DisplayWriter(oled)
    frames = [frame(i) for i in range(30)]
    with w._cv:  # the writer cannot take a frame meanwhile: all but one are replaced unsent
        for f in frames:
            w.show(f)
    w.flush(timeout=10)
    for control, data in bus.transfers:
        model.feed(control, data)
    assert w.dropped > 0 and model.errors == []
    assert model.panel() == pages(frames[-1])


def test_a_rotation_keeps_its_order_with_frames_and_only_reaches_a_display_that_turns():
    class Turning(SlowDisplay):
        def set_rotation(self, degrees: int) -> None:
            self.calls.append(("rotation", degrees))

    d = Turning(delay=0.0)
    w = DisplayWriter(d)
    d.gate.clear()
    a, b = frame(1), frame(2)
    w.show(a)
    w.set_rotation(180)
    w.show(b)
    d.gate.set()
    w.flush(timeout=5)
    assert [k for k, _ in d.calls][-2:] == ["rotation", "frame"] and ("rotation", 180) in d.calls
    w.close()
    plain = SlowDisplay(delay=0.0)
    w = DisplayWriter(plain)
    w.set_rotation(180)  # the terminal keeps its way up: nothing to forward
    w.flush(timeout=5)
    assert plain.calls == []
    w.close()
