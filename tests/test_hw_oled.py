"""The OLED adapter on the real luma ``ssd1306`` and ``sh1106`` drivers,
writing to a recording bus: the bytes a frame sends, nothing for an unchanged
frame, rotation, blank/wake, contrast, and the missing-device messages.

The I2C recorder implements what luma's ``i2c`` class calls on an smbus2 bus
(``write_i2c_block_data(addr, control, data)``: control 0x00 = commands,
0x40 = display data). The SPI recorder implements what luma's ``spi`` calls
on spidev (``open``, ``max_speed_hz``, ``writebytes``, ``close``); the D/C line
is a gpiozero MockFactory pin, read at each write to split commands from data.
"""
from __future__ import annotations

import errno
import os
import random

import pytest
from PIL import Image, ImageDraw
from gpiozero.pins.mock import MockFactory
from luma.core.interface.serial import i2c, spi

from hardware.errors import HardwareError
from hardware.oled import GpiozeroGPIO, OledDisplay, open_display
from hardware.profiles import get_profile

CMD, DATA = 0x00, 0x40
DISPLAYOFF, DISPLAYON, SETCONTRAST = 0xAE, 0xAF, 0x81


class I2CRecorder:
    """smbus2's write_i2c_block_data, recording (control, bytes)."""

    def __init__(self, fail: OSError | None = None):
        self.transfers: list[tuple[int, bytes]] = []
        self.fail = fail
        self.addresses: set[int] = set()

    def write_i2c_block_data(self, addr, control, data):
        if self.fail:
            raise self.fail
        self.addresses.add(addr)
        self.transfers.append((control, bytes(data)))

    def close(self):
        pass

    def take(self) -> tuple[list[int], bytes]:
        """(command bytes, data bytes) since the last take."""
        cmds = [b for c, d in self.transfers if c == CMD for b in d]
        data = b"".join(d for c, d in self.transfers if c == DATA)
        self.transfers.clear()
        return cmds, data


class SpiRecorder:
    """spidev's SpiDev as luma's spi uses it; D/C read from the mock pin."""

    def __init__(self, dc_pin):
        self.dc_pin = dc_pin
        self.transfers: list[tuple[int, bytes]] = []
        self.opened = None
        self.closed = False
        self.max_speed_hz = 0

    def open(self, port, device):
        self.opened = (port, device)

    def writebytes(self, data):
        self.transfers.append((DATA if self.dc_pin.state else CMD, bytes(data)))

    def close(self):
        self.closed = True

    take = I2CRecorder.take


def packed(img: Image.Image, rotate180: bool = False) -> bytes:
    """The controller's page layout, pixel by pixel: for each 8-row page,
    one byte per column, bit 0 = the page's top row."""
    px = img.load()
    w, h = img.size
    at = (lambda x, y: px[w - 1 - x, h - 1 - y]) if rotate180 else (lambda x, y: px[x, y])
    return b"".join(bytes(sum(1 << b for b in range(8) if at(x, p * 8 + b)) for x in range(w))
                    for p in range(h // 8))


def frame(seed: int) -> Image.Image:
    rnd = random.Random(seed)
    img = Image.new("1", (128, 64))
    d = ImageDraw.Draw(img)
    for _ in range(12):
        x, y = rnd.randrange(120), rnd.randrange(56)
        d.rectangle((x, y, x + rnd.randrange(30), y + rnd.randrange(12)), fill=1)
    d.text((3, 3), "Undercut 12", fill=1)
    return img


def i2c_display(board="adafruit-oled-bonnet", **kw) -> tuple[OledDisplay, I2CRecorder]:
    rec = I2CRecorder()
    disp = open_display(get_profile(board), serial=i2c(bus=rec, address=0x3C), **kw)
    rec.take()  # the init sequence
    return disp, rec


@pytest.fixture
def mock_factory():
    f = MockFactory()
    yield f
    f.reset()


def spi_display(factory, **kw) -> tuple[OledDisplay, SpiRecorder]:
    profile = get_profile("waveshare-oled-hat-1.3")
    gpio = GpiozeroGPIO(factory)
    rec = SpiRecorder(factory.pin(profile.display.dc))
    serial = spi(spi=rec, gpio=gpio, port=0, device=0, gpio_DC=profile.display.dc, gpio_RST=profile.display.rst)
    disp = open_display(profile, serial=serial, **kw)
    disp.gpio = gpio
    rec.take()
    return disp, rec


# ------------------------------------------------------------------ SSD1306


@pytest.mark.parametrize("partial", [True, False])
def test_ssd1306_frame_bytes_are_the_packed_frame(partial):
    disp, rec = i2c_display(partial=partial)
    img = frame(1)
    disp.show(img)
    cmds, data = rec.take()
    assert data == packed(img)
    assert len(data) == 1024
    assert rec.addresses == {0x3C}


@pytest.mark.parametrize("partial", [True, False])
def test_unchanged_frame_sends_nothing(partial):
    disp, rec = i2c_display(partial=partial)
    img = frame(2)
    disp.show(img)
    rec.take()
    disp.show(img.copy())
    disp.show(img.convert("L").convert("1"))  # equal pixels, another object
    assert rec.transfers == []
    assert disp.frames_sent == 1


def test_partial_update_sends_only_the_changed_columns():
    disp, rec = i2c_display()
    img = frame(3)
    disp.show(img)
    rec.take()
    img2 = img.copy()
    img2.putpixel((40, 20), 1 - img.getpixel((40, 20)))  # page 2, column 40
    disp.show(img2)
    cmds, data = rec.take()
    assert cmds == [0xB0 | 2, 40 & 0x0F, 0x10 | (40 >> 4)]
    assert data == packed(img2)[2 * 128 + 40:2 * 128 + 41]


def test_rotation_180_sends_the_turned_frame():
    img = frame(4)
    upright, rec0 = i2c_display()
    turned, rec180 = i2c_display(rotation=180)
    upright.show(img)
    turned.show(img)
    d0, d180 = rec0.take()[1], rec180.take()[1]
    assert d180 == packed(img, rotate180=True)
    assert d180 != d0
    # turning twice is the identity: the first byte of a turned frame is the last pixel column's, bits reversed
    assert d180[0] == int(f"{d0[-1]:08b}"[::-1], 2)


def test_blank_sends_display_off_and_wake_resends_the_whole_frame():
    disp, rec = i2c_display()
    img = frame(5)
    disp.show(img)
    rec.take()
    disp.blank()
    assert rec.take() == ([DISPLAYOFF], b"")
    disp.blank()  # already off: nothing
    assert rec.transfers == []
    disp.show(img)  # the same frame: still sent whole after a wake
    cmds, data = rec.take()
    assert cmds[0] == DISPLAYON
    assert data == packed(img)


def test_contrast():
    disp, rec = i2c_display()
    disp.set_contrast(200)
    assert rec.take() == ([SETCONTRAST, 200], b"")
    with pytest.raises(ValueError):
        disp.set_contrast(256)
    rec2 = I2CRecorder()
    open_display(get_profile("diy"), contrast=17, serial=i2c(bus=rec2, address=0x3C))
    cmds, _ = rec2.take()
    assert cmds[-2:] == [SETCONTRAST, 17]


def test_close_blanks_once_and_is_idempotent():
    disp, rec = i2c_display()
    disp.show(frame(6))
    rec.take()
    disp.close()
    assert rec.take() == ([DISPLAYOFF], b"")  # no clearing frame after it
    disp.close()
    assert rec.transfers == []


def test_bus_error_mid_frame_forces_a_full_resend():
    disp, rec = i2c_display()
    img = frame(7)
    disp.show(img)
    rec.take()
    img2 = frame(8)
    rec.fail = OSError(errno.EREMOTEIO, "Remote I/O error")
    with pytest.raises(OSError):
        disp.show(img2)
    rec.fail = None
    rec.take()
    disp.show(img2)
    assert rec.take()[1] == packed(img2)


def test_wrong_frame_size_is_refused():
    disp, _ = i2c_display()
    with pytest.raises(ValueError):
        disp.show(Image.new("1", (64, 32)))


# ------------------------------------------------------------------ SH1106


def test_sh1106_over_i2c_addresses_each_page_at_column_2():
    rec = I2CRecorder()
    disp = open_display(get_profile("adafruit-oled-bonnet").display.__class__(driver="sh1106", bus="i2c"),
                        serial=i2c(bus=rec, address=0x3C))
    rec.take()
    img = frame(9)
    disp.show(img)
    cmds, data = rec.take()
    assert data == packed(img)
    assert cmds == [c for p in range(8) for c in (0xB0 | p, 0x02, 0x10)]


@pytest.mark.parametrize("partial", [True, False])
def test_sh1106_over_spi_with_gpiozero_dc_line(mock_factory, partial):
    disp, rec = spi_display(mock_factory, partial=partial)
    img = frame(10)
    disp.show(img)
    cmds, data = rec.take()
    assert data == packed(img)
    assert [c for c in cmds if c & 0xF0 == 0xB0] == [0xB0 | p for p in range(8)]
    disp.show(img)
    assert rec.transfers == []
    disp.blank()
    assert rec.take() == ([DISPLAYOFF], b"")


def test_sh1106_spi_rotation_180(mock_factory):
    disp, rec = spi_display(mock_factory, rotation=180)
    img = frame(11)
    disp.show(img)
    assert rec.take()[1] == packed(img, rotate180=True)


def test_spi_close_releases_dc_and_reset_lines(mock_factory):
    disp, rec = spi_display(mock_factory)
    assert sorted(disp.gpio.devices) == [24, 25]
    assert mock_factory.pin(25).state  # reset released (high) after luma's reset pulse
    disp.close()
    assert disp.gpio.devices == {} and rec.closed
    from gpiozero import DigitalOutputDevice
    DigitalOutputDevice(24, pin_factory=mock_factory).close()  # the pin is free again


# ------------------------------------------------------------------ errors


def test_bad_rotation_and_contrast_are_refused():
    with pytest.raises(HardwareError, match="rotation"):
        open_display(get_profile("diy"), rotation=90, serial=i2c(bus=I2CRecorder(), address=0x3C))
    with pytest.raises(HardwareError, match="contrast"):
        open_display(get_profile("diy"), contrast=300, serial=i2c(bus=I2CRecorder(), address=0x3C))


def test_absent_chip_names_the_address_and_i2cdetect():
    """luma turns the bus's EREMOTEIO into DeviceNotFoundError; we turn that into the fix."""
    rec = I2CRecorder(fail=OSError(errno.EREMOTEIO, "Remote I/O error"))
    with pytest.raises(HardwareError) as e:
        open_display(get_profile("diy"), serial=i2c(bus=rec, address=0x3C))
    msg = str(e.value)
    assert "0x3c" in msg and "i2cdetect -y 1" in msg
    assert "Traceback" not in msg


@pytest.mark.skipif(os.path.exists("/dev/i2c-1"), reason="this machine has an I2C bus")
def test_missing_i2c_bus_names_raspi_config():
    with pytest.raises(HardwareError) as e:
        open_display(get_profile("adafruit-oled-bonnet"))
    msg = str(e.value)
    assert "/dev/i2c-1" in msg and "raspi-config" in msg and "I2C" in msg
    assert e.value.__cause__ is None and e.value.__context__ is None  # raised plainly, no chained traceback


@pytest.mark.skipif(os.path.exists("/dev/spidev0.0"), reason="this machine has an SPI bus")
def test_missing_spi_bus_names_raspi_config():
    with pytest.raises(HardwareError) as e:
        open_display(get_profile("waveshare-oled-hat-1.3"))
    assert "/dev/spidev0.0" in str(e.value) and "SPI" in str(e.value) and "raspi-config" in str(e.value)


def test_settings_changed_on_a_running_device_reach_the_panel(tmp_path):
    """Settings > Contrast, Rotation and Screen off were saved but the
    running device kept the old ones until a restart. The loop now applies them
    to the real luma driver (here on a recording bus) right after the press."""
    from companion.config import Settings
    from companion.io import Key
    from companion.journal import Journal
    from companion.loop import Loop
    from companion.ui.app import App
    disp, rec = i2c_display(board="diy", contrast=128, partial=False)  # whole frames: easy to compare
    app = App(Journal(str(tmp_path / "j.db")), Settings(contrast=128), rng=random.Random(1))
    loop = Loop(app, disp, None, idle_blank_s=300, clock=lambda: 0.0)
    loop.show()
    for k in (Key.DOWN, Key.DOWN, Key.DOWN, Key.OK, Key.DOWN, Key.OK):  # Settings > Contrast
        loop.step(k)
    rec.take()
    for k in (Key.UP, Key.UP, Key.OK):  # two steps up, OK
        loop.step(k)
    level = app.settings.contrast
    assert level != 128
    cmds, _data = rec.take()
    assert [0x81, level] == cmds[cmds.index(0x81):cmds.index(0x81) + 2]  # SSD1306 set contrast
    # Screen off: the loop blanks after the new delay
    loop.step(Key.DOWN)
    loop.step(Key.OK)
    loop.step(Key.DOWN)
    loop.step(Key.OK)
    assert loop.idle_blank_s == app.settings.idle_blank_s != 300
    # Rotation: the next frame goes out turned
    loop.step(Key.DOWN)
    rec.take()
    loop.step(Key.OK)
    assert app.settings.rotation == 180 and disp.device.rotate == 2
    img = app.frame()
    assert rec.take()[1] == packed(img, rotate180=True)  # the frame after the press, turned
    app.journal.close()
