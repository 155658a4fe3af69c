"""The OLED: ``OledDisplay`` implements ``companion.io.Display`` over luma.oled.

* Drivers: luma's ``ssd1306`` (I2C) and ``sh1106`` (SPI or I2C), through the
  partial-update subclasses of ``hardware.partial`` (only changed page/column
  ranges go on the bus); ``partial=False`` gives luma's plain drivers.
* A frame identical to the previous one is never sent.
* ``blank()`` turns the panel off with luma's ``hide()``; the next ``show()``
  turns it on with ``show()`` and sends the whole frame.
* Rotation 0 or 180 degrees (luma ``rotate`` 0 or 2); contrast 0..255.
* After any bus error (a failed frame, contrast, blank or wake), the next
  call first resynchronises the controller: two NOPs (a transfer cut after a
  command byte leaves the chip waiting for its arguments), then the contrast,
  the display on/off state and the addressing mode are sent again, and the
  frame goes out whole (the partial drivers' shadow is forgotten).
* ``open_display(profile)`` turns every "no device" case (luma's
  ``DeviceNotFoundError`` / ``DevicePermissionError``, a missing
  ``/dev/i2c-1`` or ``/dev/spidev0.0``, an ``OSError`` from an absent chip)
  into a ``HardwareError`` whose message is the fix.

For SPI the D/C and reset lines are driven through gpiozero
(``GpiozeroGPIO``, the small part of the RPi.GPIO API luma uses), so the
same pin factory as the buttons serves them: lgpio on Bookworm (incl. the
Pi 5, where RPi.GPIO does not work), RPi.GPIO elsewhere, MockFactory in tests.
"""
from __future__ import annotations

import contextlib
import errno
import os
from typing import Any

from PIL import Image

from .errors import (HardwareError, gpio_unavailable, i2c_missing, i2c_no_answer, i2c_permission, spi_missing,
                     spi_permission)
from .profiles import BoardProfile, DisplaySpec

SPIDEV_FIX = ("Fix: sudo apt install python3-spidev (the .venv that ./run makes on a Pi sees it); "
              "or .venv/bin/pip install spidev, which builds it (needs gcc and python3-dev)")
"""What to do when spidev does not import (QA 4: './run setup' skips the backends once lgpio imports)."""

ROTATIONS = {0: 0, 180: 2}


class GpiozeroGPIO:
    """The RPi.GPIO subset luma's ``spi`` uses (setup/output/cleanup, BCM
    numbering), on gpiozero ``DigitalOutputDevice``s."""

    BCM = 11
    OUT = 0
    IN = 1
    LOW = 0
    HIGH = 1

    def __init__(self, pin_factory: Any = None) -> None:
        self.pin_factory = pin_factory
        # gpiozero DigitalOutputDevices (gpiozero ships no type information)
        self.devices: dict[int, Any] = {}

    def setmode(self, mode) -> None:
        pass

    def setwarnings(self, flag) -> None:
        pass

    def setup(self, pin: int, direction, **kw) -> None:
        from gpiozero import DigitalOutputDevice  # the hardware libraries load when a display opens
        if pin not in self.devices:
            self.devices[pin] = DigitalOutputDevice(pin, initial_value=False, pin_factory=self.pin_factory)

    def output(self, pin: int, value) -> None:
        self.devices[pin].value = bool(value)

    def cleanup(self, pins=None) -> None:
        for pin in list(self.devices if pins is None else pins):
            dev = self.devices.pop(pin, None)
            if dev is not None:
                dev.close()


@contextlib.contextmanager
def _bus_errors():
    """luma reports a failed transfer as ``DeviceNotFoundError``; the app loop
    treats ``OSError`` as a bus glitch (keeps running, redraws): translate."""
    from luma.core.error import Error  # the hardware libraries load when a display opens
    try:
        yield
    except Error as e:
        raise OSError(errno.EIO, f"display bus error: {e}") from None


class OledDisplay:
    """A luma device as a ``Display`` (see the module docstring)."""

    def __init__(self, device, *, gpio: GpiozeroGPIO | None = None, contrast: int | None = None):
        self.device = device
        self.gpio = gpio
        self.width, self.height = device.width, device.height
        self._last: bytes | None = None  # the last frame sent, packed
        self._blanked = False
        self._closed = False
        self._contrast = contrast        # the level last asked for, sent again after a bus error
        self._resync = False             # a bus error happened: resynchronise before the next transfer
        self.frames_sent = 0
        self.resyncs = 0

    def _bus_call(self, fn, *args) -> None:
        """``fn(*args)`` on the device; a bus error marks the controller for a resync."""
        if self._resync:
            self._recover()
        try:
            with _bus_errors():
                fn(*args)
        except OSError:
            self._resync = True
            self._invalidate()
            raise

    def _recover(self) -> None:
        from .partial import RESYNC, SET_MEMORY_MODE  # partial imports luma: loaded when a display opens
        dev = self.device
        try:
            with _bus_errors():
                dev.command(*RESYNC)
                if self._contrast is not None:
                    dev.contrast(self._contrast)
                if hasattr(dev, "resync"):
                    dev.resync()                         # partial drivers: page mode again, shadow gone
                elif type(dev).__name__ == "ssd1306":
                    dev.command(SET_MEMORY_MODE, 0x00)   # luma's own driver writes in horizontal mode
                if self._blanked:
                    dev.hide()
                else:
                    dev.show()
        except OSError:
            self._invalidate()
            raise
        self._resync = False
        self.resyncs += 1
        self._invalidate()

    @property
    def blanked(self) -> bool:
        return self._blanked

    def show(self, image: Image.Image) -> None:
        if image.size != (self.width, self.height):
            raise ValueError(f"frame is {image.size[0]}x{image.size[1]}, the display {self.width}x{self.height}")
        if image.mode != "1":
            image = image.convert("1")
        if self._blanked:
            self._bus_call(self.device.show)   # panel on; partial drivers also forget their shadow
            self._blanked = False
            self._invalidate()
        data = image.tobytes()
        if data == self._last and not self._resync:
            return
        # a failure leaves half a frame and maybe a half command: resync, resend all next time
        self._bus_call(self.device.display, image)
        self._last = data
        self.frames_sent += 1

    def _invalidate(self) -> None:
        self._last = None
        inv = getattr(self.device, "invalidate", None)
        if inv:
            inv()

    def blank(self) -> None:
        if not self._blanked:
            self._bus_call(self.device.hide)
            self._blanked = True

    def set_contrast(self, level: int) -> None:
        if not 0 <= int(level) <= 255:
            raise ValueError("contrast must be 0..255")
        self._contrast = int(level)  # kept even if this transfer fails: the resync sends it
        self._bus_call(self.device.contrast, int(level))

    def set_rotation(self, degrees: int) -> None:
        """0 or 180, from the next frame (Settings > Rotation on a running device):
        luma turns each frame by its ``rotate`` in ``preprocess``; the frame
        sent last is forgotten so that the next one goes out turned."""
        if degrees not in ROTATIONS:
            raise ValueError(f"rotation must be 0 or 180, not {degrees}")
        self.device.rotate = ROTATIONS[degrees]
        self._last = None

    def close(self) -> None:
        """Blank, then release the bus and the D/C, RST lines (idempotent)."""
        if self._closed:
            return
        self._closed = True
        try:
            self.blank()
        except OSError:
            pass
        self.device.persist = True  # luma's cleanup would otherwise clear (a whole frame) and hide again
        try:
            self.device.cleanup()
        except Exception:
            pass
        if self.gpio is not None:
            self.gpio.cleanup()


def _device_class(spec: DisplaySpec, partial: bool):
    if partial:
        from .partial import PartialSH1106, PartialSSD1306  # partial imports luma: loaded when a display opens
        return {"ssd1306": PartialSSD1306, "sh1106": PartialSH1106}[spec.driver]
    from luma.oled.device import sh1106, ssd1306  # the hardware libraries load when a display opens
    return {"ssd1306": ssd1306, "sh1106": sh1106}[spec.driver]


def _check_node(spec: DisplaySpec) -> None:
    """The bus device node exists and we may use it."""
    node = spec.device_node
    if not os.path.exists(node):
        raise i2c_missing(spec.port, spec.address) if spec.bus == "i2c" else spi_missing(spec.port, spec.device)
    if not os.access(node, os.R_OK | os.W_OK):
        raise i2c_permission(spec.port) if spec.bus == "i2c" else spi_permission(spec.port, spec.device)


def _not_found(spec: DisplaySpec, detail: str = "", check_node: bool = True) -> HardwareError:
    if check_node and not os.path.exists(spec.device_node):
        return i2c_missing(spec.port, spec.address) if spec.bus == "i2c" else spi_missing(spec.port, spec.device)
    if spec.bus == "i2c":
        return i2c_no_answer(spec.port, spec.address, detail)
    return HardwareError(
        f"the SPI display does not respond ({detail or 'no device'}).\n"
        f"Fix: check that the HAT is seated on the header (power off first) and that SPI is enabled "
        f"('sudo raspi-config' > Interface Options > SPI).")


def open_display(profile: BoardProfile | DisplaySpec, rotation: int = 0, contrast: int | None = None, *,
                 serial=None, pin_factory=None, partial: bool = True) -> OledDisplay:
    """Open the profile's OLED. ``serial``: an already built luma serial
    interface (tests: ``luma.core.interface.serial.i2c(bus=recorder)``); when
    given, the device nodes are not checked. Raises ``HardwareError`` with the fix."""
    spec = profile.display if isinstance(profile, BoardProfile) else profile
    if rotation not in ROTATIONS:
        raise HardwareError(f"rotation must be 0 or 180, not {rotation}")
    if contrast is not None and not 0 <= contrast <= 255:
        raise HardwareError(f"contrast must be 0..255, not {contrast}")
    # the hardware libraries load when a display opens (the simulator and the doctor's other checks never do)
    from luma.core.error import DeviceNotFoundError, DevicePermissionError, UnsupportedPlatform
    gpio = None
    real_bus = serial is None
    try:
        if serial is None:
            _check_node(spec)
            if spec.bus == "i2c":
                from luma.core.interface.serial import i2c  # luma loads when a display opens
                serial = i2c(port=spec.port, address=spec.address)
            else:
                try:
                    import spidev  # noqa: F401  (luma imports it lazily; say so plainly)
                except ImportError:
                    raise HardwareError("the spidev library is missing (needed for SPI displays).\n"
                                        + SPIDEV_FIX) from None
                from luma.core.interface.serial import spi  # luma loads when a display opens
                gpio = GpiozeroGPIO(pin_factory)
                serial = spi(gpio=gpio, port=spec.port, device=spec.device,
                             gpio_DC=spec.dc, gpio_RST=spec.rst)
        device = _device_class(spec, partial)(serial, width=spec.width, height=spec.height,
                                              rotate=ROTATIONS[rotation])
        if contrast is not None:
            device.contrast(contrast)
    except HardwareError:
        if gpio:
            gpio.cleanup()
        raise
    except DevicePermissionError:
        if gpio:
            gpio.cleanup()
        raise i2c_permission(spec.port) if spec.bus == "i2c" else spi_permission(spec.port, spec.device) from None
    except (DeviceNotFoundError, UnsupportedPlatform) as e:
        if gpio:
            gpio.cleanup()
        raise _not_found(spec, str(e), real_bus) from None
    except OSError as e:
        if gpio:
            gpio.cleanup()
        if e.errno in (errno.EACCES, errno.EPERM):
            raise i2c_permission(spec.port) if spec.bus == "i2c" else spi_permission(spec.port, spec.device) from None
        raise _not_found(spec, os.strerror(e.errno) if e.errno else str(e), real_bus) from None
    except Exception as e:
        # gpiozero errors for the D/C, RST lines (no pin factory, pin busy)
        if gpio:
            gpio.cleanup()
        if type(e).__module__.split(".")[0] in ("gpiozero", "lgpio", "RPi", "pigpio"):
            # lgpio raises its own lgpio.error ("GPIO busy": the service holds the line, QA 4)
            raise gpio_unavailable(f"display D/C and RST lines: {e}") from None
        raise
    return OledDisplay(device, gpio=gpio, contrast=contrast)
