"""The whole board: open_board on gpiozero's MockFactory and a recording luma
bus, idle blank and the waking press through the real app loop, doctor, and
the command line without hardware."""
from __future__ import annotations

import os
import queue
import subprocess
import sys

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from luma.core.interface.serial import i2c

from companion.io import Key
from companion.loop import Loop
from hardware.board import Board, open_board
from hardware.doctor import doctor
from hardware.errors import HardwareError
from hardware.profiles import get_profile

from .screens_util import make_app
from .test_hw_oled import DISPLAYOFF, DISPLAYON, I2CRecorder, packed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def factory():
    old = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = old


def board_on_mocks(q: queue.Queue, name: str = "adafruit-oled-bonnet", **kw) -> tuple[Board, I2CRecorder]:
    rec = I2CRecorder()
    b = open_board(name, post=q.put, serial=i2c(bus=rec, address=0x3C), bounce_time=0, hold_time=0.2, **kw)
    rec.take()
    return b, rec


def test_open_board_wires_display_and_buttons(factory):
    q: queue.Queue = queue.Queue()
    b, rec = board_on_mocks(q)
    with b:
        assert b.profile.name == "adafruit-oled-bonnet"
        factory.pin(5).drive_low()
        factory.pin(5).drive_high()
        assert q.get(timeout=2) is Key.OK
    assert b.closed and b.buttons.closed
    assert rec.take() == ([DISPLAYOFF], b"")  # close blanked the display
    b.close()  # idempotent


def test_unknown_board_lists_the_known_ones():
    with pytest.raises(HardwareError) as e:
        open_board("bonnet", post=lambda k: None)
    assert "adafruit-oled-bonnet" in str(e.value) and "diy" in str(e.value)


def test_button_failure_closes_the_display_again(factory):
    from gpiozero import Button
    taken = Button(23)
    rec = I2CRecorder()
    try:
        with pytest.raises(HardwareError):
            open_board("diy", post=lambda k: None, serial=i2c(bus=rec, address=0x3C))
    finally:
        taken.close()
    assert rec.transfers[-1] == (0x00, bytes([DISPLAYOFF]))


def test_idle_blank_and_the_waking_press_on_the_hardware(factory, tmp_path):
    """Idle time blanks with luma's hide(); the button press that wakes the
    screen turns it on, resends the whole frame and does nothing else."""
    app = make_app(tmp_path)
    q: queue.Queue = queue.Queue()
    b, rec = board_on_mocks(q)
    t = [0.0]
    loop = Loop(app, b.display, q, idle_blank_s=300, clock=lambda: t[0])
    with b:
        loop.show()
        first = app.frame()
        assert rec.take()[1] == packed(first)
        t[0] = 299
        loop.step(None)
        assert rec.transfers == []
        t[0] = 301
        loop.step(None)
        assert rec.take() == ([DISPLAYOFF], b"")
        assert b.display.blanked
        factory.pin(22).drive_low()  # joystick down
        factory.pin(22).drive_high()
        loop.step(q.get(timeout=2))
        cmds, data = rec.take()
        assert cmds[0] == DISPLAYON and data == packed(first)  # same screen, sent whole
        assert app.top.index == 0  # the waking press did nothing else
        factory.pin(22).drive_low()
        loop.step(q.get(timeout=2))
        assert app.top.index == 1
        assert rec.take()[1]  # the moved cursor went out
    app.journal.close()


def test_doctor_on_this_machine_says_what_to_fix():
    lines: list[str] = []
    rc = doctor(get_profile("adafruit-oled-bonnet"), out=lines.append, dev_root="/nonexistent-dev")
    text = "\n".join(lines)
    assert rc == 1
    assert "FIX  /nonexistent-dev/i2c-1 does not exist" in text and "raspi-config" in text
    assert "GPIO" in text and "Traceback" not in text


def test_doctor_all_good_with_usable_nodes_mock_pins_and_a_display(factory, tmp_path):
    (tmp_path / "i2c-1").write_bytes(b"")
    (tmp_path / "gpiochip0").write_bytes(b"")
    lines: list[str] = []
    rec = I2CRecorder()
    rc = doctor(get_profile("diy"), out=lines.append, dev_root=str(tmp_path), pin_factory=factory,
                serial=i2c(bus=rec, address=0x3C))
    assert rc == 0, "\n".join(lines)
    assert lines[-1] == "all good"
    assert rec.transfers[-1] == (0x00, bytes([DISPLAYOFF]))  # the display was switched off again


def test_doctor_reports_an_absent_display(factory, tmp_path):
    import errno
    (tmp_path / "i2c-1").write_bytes(b"")
    (tmp_path / "gpiochip0").write_bytes(b"")
    lines: list[str] = []
    rec = I2CRecorder(fail=OSError(errno.EREMOTEIO, "Remote I/O error"))
    rc = doctor(get_profile("diy"), out=lines.append, dev_root=str(tmp_path), pin_factory=factory,
                serial=i2c(bus=rec, address=0x3C))
    assert rc == 1
    assert any("does not answer at address 0x3c" in line for line in lines)


def _run_cli(*args: str, tmp_path) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), XDG_CONFIG_HOME=str(tmp_path / "cfg"),
               HOME=str(tmp_path))
    env.pop("GPIOZERO_PIN_FACTORY", None)
    env.pop("NOTIFY_SOCKET", None)
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=str(tmp_path), env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(os.path.exists("/dev/i2c-1"), reason="this machine has an I2C bus")
def test_companion_with_the_bonnet_and_no_hardware_prints_the_fix(tmp_path):
    p = _run_cli("--board", "adafruit-oled-bonnet", tmp_path=tmp_path)
    assert p.returncode != 0
    assert "Traceback" not in p.stderr + p.stdout
    assert "raspi-config" in p.stderr and "I2C" in p.stderr


def test_companion_boards_lists_the_profiles(tmp_path):
    p = _run_cli("boards", tmp_path=tmp_path)
    assert p.returncode == 0, p.stderr
    for name in ("adafruit-oled-bonnet", "waveshare-oled-hat-1.3", "diy"):
        assert name in p.stdout


def test_doctor_next_to_a_running_service_leaves_its_display_alone(tmp_path):
    """Run as the set-up guide says while the service held the pins, doctor
    showed a traceback (lgpio's own 'GPIO busy' error), and it opened the live
    panel first, switching it off under the running app. The buttons come
    first; lines held by another process mean the display is not touched."""
    from .gpio_util import busy_factory
    (tmp_path / "i2c-1").write_bytes(b"")
    (tmp_path / "gpiochip0").write_bytes(b"")
    busy = busy_factory("GPIO22")
    lines: list[str] = []
    rec = I2CRecorder()
    try:
        rc = doctor(get_profile("diy"), out=lines.append, dev_root=str(tmp_path), pin_factory=busy,
                    serial=i2c(bus=rec, address=0x3C))
    finally:
        busy.reset()
    text = "\n".join(lines)
    assert rc == 1 and "Traceback" not in text
    assert "GPIO busy" in text and "systemctl stop companion" in text
    assert "display not tried" in text and rec.transfers == []  # not a byte to the live panel
