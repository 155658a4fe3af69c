"""User boards.toml files (/etc/companion, ~/.config/companion) add or
override board profiles without editing the package."""
from __future__ import annotations

import re

import pytest

from companion import cli
from hardware import profiles
from hardware.errors import HardwareError

SH1106 = """
[diy.display]
address = 0x3D

[my-sh1106]
title = "My SH1106 module"

[my-sh1106.display]
driver = "sh1106"
bus = "i2c"
address = 0x3C

[[my-sh1106.buttons]]
name = "UP"
pin = 17
key = "up"
mode = "press"

[[my-sh1106.buttons]]
name = "DOWN"
pin = 27
key = "down"
mode = "press"

[[my-sh1106.buttons]]
name = "OK"
pin = 22
key = "ok"

[[my-sh1106.buttons]]
name = "BACK"
pin = 23
key = "back"
"""


@pytest.fixture
def user_file(tmp_path, monkeypatch):
    path = tmp_path / "companion" / "boards.toml"
    path.parent.mkdir()
    monkeypatch.setattr(profiles, "user_board_files", lambda: [tmp_path / "etc-none.toml", path])
    return path


def test_without_user_files_the_package_profiles(user_file):
    got = profiles.load_profiles_with_origin()
    assert {origin for _, origin in got.values()} == {"package"}
    assert got["diy"][0].display.address == 0x3C


def test_user_file_overrides_a_setting_and_adds_a_profile(user_file):
    user_file.write_text(SH1106)
    got = profiles.load_profiles_with_origin()
    diy, origin = got["diy"]
    assert diy.display.address == 0x3D and diy.display.driver == "ssd1306"
    assert origin == f"package + {user_file}"
    mine, origin = got["my-sh1106"]
    assert mine.display.driver == "sh1106" and origin == str(user_file)
    assert profiles.get_profile("my-sh1106").display.driver == "sh1106"


def test_boards_command_shows_the_origin(user_file, capsys):
    user_file.write_text(SH1106)
    assert cli.main(["boards"]) == 0
    out = capsys.readouterr().out
    assert "my-sh1106" in out and f"[{user_file}]" in out and "[package]" in out


def test_bad_user_file_is_named(user_file, capsys):
    user_file.write_text("[diy.display]\naddress = \n")
    with pytest.raises(HardwareError, match=str(user_file)):
        profiles.load_profiles_with_origin()
    assert cli.main(["boards"]) == 1
    assert str(user_file) in capsys.readouterr().err


def test_bad_value_says_where_it_came_from(user_file):
    user_file.write_text('[diy.display]\ndriver = "st7735"\n')
    with pytest.raises(HardwareError, match="from package \\+ "):
        profiles.load_profiles_with_origin()


def _device_tree(root, hz):
    (root / "aliases").mkdir(parents=True)
    (root / "aliases" / "i2c1").write_bytes(b"/soc/i2c@7e804000\0")
    node = root / "soc" / "i2c@7e804000"
    node.mkdir(parents=True)
    (node / "clock-frequency").write_bytes(hz.to_bytes(4, "big"))


@pytest.mark.parametrize("hz,advice", [(100_000, True), (400_000, False)])
def test_doctor_reads_the_i2c_clock_and_names_the_pin_factory(tmp_path, hz, advice):
    from gpiozero.pins.mock import MockFactory
    from hardware.doctor import doctor, i2c_clock_hz
    dev, dt = tmp_path / "dev", tmp_path / "dt"
    dev.mkdir()
    (dev / "i2c-1").write_bytes(b"")
    (dev / "gpiochip0").write_bytes(b"")
    _device_tree(dt, hz)
    assert i2c_clock_hz(1, str(dt)) == hz
    lines: list[str] = []
    doctor(profiles.get_profile("diy"), out=lines.append, dev_root=str(dev), dt_root=str(dt),
           pin_factory=MockFactory())
    text = "\n".join(lines)
    assert f"I2C bus clock is {hz // 1000} kHz" in text
    assert ("i2c_arm_baudrate=400000" in text) is advice
    assert "pin factory in use: MockFactory" in text


def test_i2c_clock_absent_is_none(tmp_path):
    from hardware.doctor import i2c_clock_hz
    assert i2c_clock_hz(1, str(tmp_path)) is None


def test_wiring_is_generated_from_the_package_profiles_only(user_file):
    from hardware import wiring_gen
    user_file.write_text(SH1106)
    files = wiring_gen.render_all()
    assert "my-sh1106.md" not in files and "diy.md" in files
    assert "at 0x3C." in files["diy.md"] and "at 0x3D." not in files["diy.md"]


@pytest.mark.parametrize("pin, what", [(14, "UART TXD"), (15, "UART RXD")])
def test_a_button_on_the_serial_console_pins_is_refused_with_the_fix(user_file, capsys, pin, what):
    """A user's boards.toml put OK on GPIO 15, the UART's RXD; with the
    serial port on, the login console drives it and the button never works.
    The profile is refused, saying why and which free GPIOs to use instead."""
    user_file.write_text(SH1106.replace("pin = 22", f"pin = {pin}"))
    with pytest.raises(HardwareError) as e:
        profiles.load_profiles_with_origin()
    msg = str(e.value)
    assert f"[my-sh1106] button OK: GPIO{pin} (header pin {profiles.HEADER[pin]})" in msg
    assert f"serial console's {what}" in msg and str(user_file) in msg
    # the fix names free GPIOs: none of them taken, none on a bus or the UART
    free = [int(g) for g in re.findall(r"GPIO(\d+) \(pin", msg.split("e.g.")[1])]
    assert len(free) == 4
    assert not set(free) & {17, 27, 23, 14, 15, 2, 3, 0, 1, 7, 8, 9, 10, 11}
    assert cli.main(["boards"]) == 1
    assert "Move the button to a free GPIO" in capsys.readouterr().err


def test_the_package_boards_put_no_button_on_the_uart():
    for p in profiles.package_profiles().values():
        assert not {b.pin for b in p.buttons} & set(profiles.UART_PINS), p.name
