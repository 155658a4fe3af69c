"""GPIO buttons: gpiozero ``Button``s from a board profile, posting logical keys.

Every button is wired between its GPIO and GND and uses the Pi's pull-up.
gpiozero calls back on its own threads; this adapter only ever calls
``post(key)`` (normally ``queue.Queue.put`` of the app's input queue).

What a button posts (its ``mode`` in boards.toml):

* ``tap`` (OK, BACK, joystick centre): a short press posts its key **on
  release**, so a hold never also counts as a press. Held for ``hold_time``
  (default 0.8 s) it posts its hold key (HOLD_OK / HOLD_BACK) at that moment,
  and RELEASE when let go (press-to-show screens).
* ``press`` (directions, the Waveshare KEY3 undo key): posts its key at once
  when pressed; holding it does nothing more (no auto-repeat: a stuck or held
  direction cannot run through a menu).

Debounce is our own (gpiozero's ``MockFactory`` ignores ``bounce_time`` and
the real factories differ): per button, an edge is taken only if it comes at
least ``bounce_time`` seconds after the last edge taken (``Debouncer``, with
an injectable clock); an edge into the state already held then means the
opposite edge was taken for bounce, and it counts as a new press or release.

Pin factory: gpiozero's own conventions. ``pin_factory=None`` uses
``GPIOZERO_PIN_FACTORY`` if set, else the first that loads of lgpio
(Raspberry Pi OS Bookworm, every Pi incl. the Pi 5), RPi.GPIO (older
systems), pigpio, native. Note: importing lgpio creates a FIFO in the working
directory, which must therefore be writable (the systemd unit uses the state
directory).
"""
from __future__ import annotations

import threading
import time
import warnings
from typing import Callable

from companion.io import Key

from .errors import HardwareError, gpio_unavailable
from .profiles import BoardProfile, ButtonSpec

DEFAULT_BOUNCE_S = 0.03


class Debouncer:
    """Accept an edge only if it comes ``window_s`` after the last accepted
    edge (and, before any, only if it changes the state). Not thread-safe on
    its own (callers lock)."""

    def __init__(self, window_s: float = DEFAULT_BOUNCE_S, clock: Callable[[], float] = time.monotonic):
        if window_s < 0:
            raise ValueError("bounce time must be 0 or more")
        self.window_s = window_s
        self.clock = clock
        self.pressed = False
        self._last: float | None = None

    def accept(self, pressed: bool) -> bool:
        now = self.clock()
        if self._last is not None and now - self._last < self.window_s:
            return False
        if pressed == self.pressed and self._last is None:
            return False
        # An edge into the state already held, after the window: the edge away from
        # it came inside the window and was taken for bounce, so the pin did leave
        # that state and this edge is a new press (or release). Taken, or a quick
        # tap would leave the state wrong and lose the next press (QA 4).
        self._last = now
        self.pressed = pressed
        return True


class _Channel:
    """One button's state machine (see the module docstring)."""

    def __init__(self, spec: ButtonSpec, post: Callable[[Key], None], debouncer: Debouncer):
        self.spec = spec
        self.post = post
        self.debouncer = debouncer
        self.held = False
        self.lock = threading.Lock()

    def pressed(self) -> None:
        with self.lock:
            if not self.debouncer.accept(True):
                return
            self.held = False
            if self.spec.mode == "press":
                self.post(self.spec.key)

    def released(self) -> None:
        with self.lock:
            if not self.debouncer.accept(False):
                return
            if self.spec.mode == "tap":
                self.post(Key.RELEASE if self.held else self.spec.key)
            self.held = False

    def hold(self) -> None:
        with self.lock:
            if self.spec.mode != "tap" or self.spec.hold is None or self.held or not self.debouncer.pressed:
                return
            self.held = True
            self.post(self.spec.hold)


class GpioButtons:
    """The profile's buttons as gpiozero ``Button``s posting ``Key``s.

    ``with GpioButtons(profile, queue.put) as b: ...`` or call ``close()``.
    ``clock`` (for the debounce) is injectable for tests.
    """

    def __init__(self, profile: BoardProfile, post: Callable[[Key], None], hold_time: float = 0.8,
                 bounce_time: float = DEFAULT_BOUNCE_S, pin_factory=None,
                 clock: Callable[[], float] = time.monotonic):
        try:
            # gpiozero loads when the buttons open: a missing or broken one becomes the message below
            from gpiozero import Button
            from gpiozero.exc import GPIOZeroError
        except ImportError as e:  # pragma: no cover - gpiozero is a dependency
            raise gpio_unavailable(f"gpiozero is not installed: {e}") from None
        self.profile = profile
        self.hold_time = hold_time
        self.buttons: list = []
        self.channels: list[_Channel] = []
        try:
            for spec in profile.buttons:
                ch = _Channel(spec, post, Debouncer(bounce_time, clock))
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # PinFactoryFallback chatter
                    btn = Button(spec.pin, pull_up=True, bounce_time=None, hold_time=hold_time,
                                 pin_factory=pin_factory)
                btn.when_pressed = ch.pressed
                btn.when_released = ch.released
                if spec.mode == "tap" and spec.hold is not None:
                    btn.when_held = ch.hold
                self.buttons.append(btn)
                self.channels.append(ch)
        except GPIOZeroError as e:
            self.close()
            raise gpio_unavailable(f"button {spec.name} on GPIO{spec.pin}: {e}") from None
        except Exception as e:  # the pin backends' own errors: lgpio.error, RPi.GPIO's RuntimeError...
            self.close()
            if isinstance(e, PermissionError):
                raise gpio_unavailable(f"no permission for GPIO{spec.pin}") from None
            hint = ""
            if "busy" in str(e).lower():  # lgpio: the line is claimed by another process
                hint = (" (another program holds it: the companion service? "
                        "sudo systemctl stop companion, then try again)")
            raise gpio_unavailable(f"button {spec.name} on GPIO{spec.pin}: {e}{hint}") from None

    def close(self) -> None:
        """Release every pin (idempotent)."""
        buttons, self.buttons = self.buttons, []
        for b in buttons:
            try:
                b.close()
            except Exception:
                pass

    @property
    def closed(self) -> bool:
        return not self.buttons

    def __enter__(self) -> "GpioButtons":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


__all__ = ["GpioButtons", "Debouncer", "DEFAULT_BOUNCE_S", "HardwareError"]
