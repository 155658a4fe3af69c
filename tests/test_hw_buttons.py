"""GPIO buttons on gpiozero's own MockFactory: taps post on release, holds
post HOLD_* then RELEASE, directions post on press, and our own debounce."""
from __future__ import annotations

import queue

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.io import Key
from hardware.buttons import Debouncer, GpioButtons
from hardware.errors import HardwareError
from hardware.profiles import get_profile, load_profiles

HOLD = 0.15  # short hold time keeps the tests fast
WAIT = 2.0


@pytest.fixture
def factory():
    old = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = old


class Clock:
    """A settable clock for the debounce (time is the only thing faked here)."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def posted(q: queue.Queue, timeout: float = WAIT) -> Key:
    return q.get(timeout=timeout)


def nothing_more(q: queue.Queue, wait: float = 0.05) -> None:
    with pytest.raises(queue.Empty):
        q.get(timeout=wait)


def open_buttons(name: str, q: queue.Queue, **kw) -> GpioButtons:
    kw.setdefault("bounce_time", 0)
    return GpioButtons(get_profile(name), q.put, hold_time=HOLD, **kw)


def test_buttons_use_pull_ups_and_read_released(factory):
    q: queue.Queue = queue.Queue()
    with open_buttons("adafruit-oled-bonnet", q) as b:
        assert len(b.buttons) == 7
        for btn, spec in zip(b.buttons, b.profile.buttons):
            assert btn.pin.info.name == f"GPIO{spec.pin}"
            assert btn.pull_up is True
            assert not btn.is_pressed
    nothing_more(q)


def test_short_press_posts_on_release_only(factory):
    q: queue.Queue = queue.Queue()
    with open_buttons("adafruit-oled-bonnet", q):
        pin = factory.pin(5)  # button A
        pin.drive_low()
        nothing_more(q)  # nothing yet: it may still become a hold
        pin.drive_high()
        assert posted(q) is Key.OK
        nothing_more(q)


def test_hold_posts_hold_ok_then_release_and_no_ok(factory):
    q: queue.Queue = queue.Queue()
    with open_buttons("adafruit-oled-bonnet", q):
        pin = factory.pin(5)
        pin.drive_low()
        assert posted(q) is Key.HOLD_OK  # after hold_time, while still held
        pin.drive_high()
        assert posted(q) is Key.RELEASE
        nothing_more(q, HOLD * 2)


def test_hold_back_on_the_b_button(factory):
    q: queue.Queue = queue.Queue()
    with open_buttons("adafruit-oled-bonnet", q):
        pin = factory.pin(6)
        pin.drive_low()
        assert posted(q) is Key.HOLD_BACK
        pin.drive_high()
        assert posted(q) is Key.RELEASE
        pin.drive_low()
        pin.drive_high()
        assert posted(q) is Key.BACK


def test_directions_post_on_press_and_holding_adds_nothing(factory):
    q: queue.Queue = queue.Queue()
    with open_buttons("adafruit-oled-bonnet", q):
        for gpio, key in [(17, Key.UP), (22, Key.DOWN), (27, Key.LEFT), (23, Key.RIGHT)]:
            pin = factory.pin(gpio)
            pin.drive_low()
            assert posted(q) is key
            nothing_more(q, HOLD * 2)  # held past hold_time: no repeat, no hold
            pin.drive_high()
            nothing_more(q)


@pytest.mark.parametrize("name", list(load_profiles()))
def test_every_button_of_every_profile_posts_its_key(factory, name):
    q: queue.Queue = queue.Queue()
    profile = get_profile(name)
    with open_buttons(name, q):
        for spec in profile.buttons:
            pin = factory.pin(spec.pin)
            pin.drive_low()
            pin.drive_high()
            assert posted(q) is spec.key, spec.name
        nothing_more(q)


def test_waveshare_key3_is_a_hold_free_undo(factory):
    q: queue.Queue = queue.Queue()
    with open_buttons("waveshare-oled-hat-1.3", q):
        pin = factory.pin(16)
        pin.drive_low()
        assert posted(q) is Key.HOLD_BACK  # at once, no waiting
        pin.drive_high()
        nothing_more(q)


def test_debounced_button_ignores_contact_bounce(factory):
    """MockFactory ignores bounce_time, so our own debounce is driven with a
    settable clock: the chatter within the window after each edge is ignored."""
    q: queue.Queue = queue.Queue()
    clock = Clock()
    with open_buttons("diy", q, bounce_time=0.03, clock=clock):
        pin = factory.pin(22)  # OK
        pin.drive_low()                    # t=0: press taken
        for dt in (0.002, 0.004, 0.007):   # bounce on the way down
            clock.t += dt
            pin.drive_high()
            pin.drive_low()
        clock.t += 0.1
        pin.drive_high()                   # release taken: one OK
        clock.t += 0.003
        pin.drive_low()                    # bounce on the way up: ignored
        clock.t += 0.003
        pin.drive_high()
        assert posted(q) is Key.OK
        nothing_more(q)
        clock.t += 0.2                     # a real second press later counts
        pin.drive_low()
        clock.t += 0.1
        pin.drive_high()
        assert posted(q) is Key.OK
        nothing_more(q)


def test_without_debounce_the_same_chatter_counts_twice(factory):
    """The control for the test above: with bounce_time=0 a bounce on release is a second tap."""
    q: queue.Queue = queue.Queue()
    clock = Clock()
    with open_buttons("diy", q, bounce_time=0, clock=clock):
        pin = factory.pin(22)
        pin.drive_low()
        clock.t += 0.1
        pin.drive_high()
        clock.t += 0.003
        pin.drive_low()
        clock.t += 0.003
        pin.drive_high()
        assert [posted(q), posted(q)] == [Key.OK, Key.OK]


def test_debouncer_alone():
    clock = Clock()
    d = Debouncer(0.03, clock)
    assert d.accept(True)
    assert not d.accept(True)          # no change
    clock.t += 0.01
    assert not d.accept(False)         # inside the window
    clock.t += 0.03
    assert d.accept(False)
    assert not d.pressed
    clock.t += 0.029
    assert not d.accept(True)
    clock.t += 0.001
    assert d.accept(True)
    with pytest.raises(ValueError):
        Debouncer(-1)


def test_close_releases_the_pins(factory):
    q: queue.Queue = queue.Queue()
    b = open_buttons("diy", q)
    b.close()
    assert b.closed
    b.close()  # idempotent
    with open_buttons("diy", q):  # the pins are free again
        pass


def test_pin_in_use_is_a_hardware_error(factory):
    from gpiozero import Button
    q: queue.Queue = queue.Queue()
    other = Button(23)  # someone else holds the BACK pin
    try:
        with pytest.raises(HardwareError) as e:
            open_buttons("diy", q)
        assert "GPIO23" in str(e.value) and "gpio group" in str(e.value)
    finally:
        other.close()
    with open_buttons("diy", q):  # the pins taken before the failure were released
        pass


def test_a_tap_shorter_than_the_bounce_window_does_not_lose_the_next_press(factory):
    """A 20 ms tap of UP posted UP, its release (inside the 30 ms window)
    was taken for bounce, the button stayed "pressed", and the next real press
    of UP, a second later, was lost."""
    q: queue.Queue = queue.Queue()
    clock = Clock()
    with open_buttons("diy", q, bounce_time=0.03, clock=clock):
        up = factory.pin(17)
        up.drive_low()
        clock.t += 0.02
        up.drive_high()                    # inside the window: taken for bounce
        assert posted(q) is Key.UP
        nothing_more(q)
        clock.t += 1
        up.drive_low()                     # the next press counts
        assert posted(q) is Key.UP
        clock.t += 0.1
        up.drive_high()
        nothing_more(q)
        ok = factory.pin(22)
        ok.drive_low()
        clock.t += 0.02
        ok.drive_high()                    # a 20 ms tap of OK: bounce, nothing
        clock.t += 1
        ok.drive_low()
        clock.t += 0.1
        ok.drive_high()                    # a real tap: one OK
        assert posted(q) is Key.OK
        nothing_more(q)


def test_a_gpio_line_held_by_another_process_is_a_hardware_error(monkeypatch):
    """lgpio raises its own ``lgpio.error('GPIO busy')`` (not an OSError)
    when the running service holds the line; doctor and the board start showed
    a traceback. Emulated with a pin that raises such an error."""
    from .gpio_util import busy_factory
    f = busy_factory("GPIO22")
    try:
        with pytest.raises(HardwareError) as e:
            GpioButtons(get_profile("diy"), lambda k: None, pin_factory=f)
        assert "GPIO22" in str(e.value) and "systemctl stop companion" in str(e.value)
    finally:
        f.reset()
