"""Profiles against the boards' pin tables and against wiring/ (generated
from boards.toml: a regeneration in memory must equal the committed files)."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.io import Key
from hardware import wiring_gen
from hardware.errors import HardwareError
from hardware.profiles import HEADER, get_profile, load_profiles, package_profiles

WIRING = Path(__file__).resolve().parent.parent / "wiring"

# The boards' pin tables (checked against vendor docs; see each profile's source).
EXPECTED = {
    "adafruit-oled-bonnet": {"A": 5, "B": 6, "joystick up": 17, "joystick down": 22, "joystick left": 27,
                             "joystick right": 23, "joystick center": 4},
    "waveshare-oled-hat-1.3": {"joystick up": 6, "joystick down": 19, "joystick left": 5, "joystick right": 26,
                               "joystick press": 13, "KEY1": 21, "KEY2": 20, "KEY3": 16},
}
KEYS = {
    "adafruit-oled-bonnet": {"A": Key.OK, "B": Key.BACK, "joystick center": Key.OK, "joystick up": Key.UP,
                             "joystick down": Key.DOWN, "joystick left": Key.LEFT, "joystick right": Key.RIGHT},
    "waveshare-oled-hat-1.3": {"KEY1": Key.OK, "KEY2": Key.BACK, "KEY3": Key.HOLD_BACK, "joystick press": Key.OK,
                               "joystick up": Key.UP, "joystick down": Key.DOWN},
}


def test_the_packaged_profiles():
    assert list(package_profiles()) == ["adafruit-oled-bonnet", "waveshare-oled-hat-1.3", "diy", "diy-sh1106"]
    assert package_profiles()["diy-sh1106"].display.driver == "sh1106"
    assert package_profiles()["diy-sh1106"].buttons == package_profiles()["diy"].buttons


@pytest.mark.parametrize("name", list(EXPECTED))
def test_pins_match_the_boards_pin_tables(name):
    p = get_profile(name)
    assert {b.name: b.pin for b in p.buttons} == EXPECTED[name]
    keys = {b.name: b.key for b in p.buttons}
    for button, key in KEYS[name].items():
        assert keys[button] is key


def test_displays():
    bonnet, hat, diy, diy_sh1106 = (p.display for p in package_profiles().values())
    assert (diy_sh1106.driver, diy_sh1106.bus, diy_sh1106.address) == ("sh1106", "i2c", 0x3C)
    assert (bonnet.driver, bonnet.bus, bonnet.port, bonnet.address) == ("ssd1306", "i2c", 1, 0x3C)
    assert (hat.driver, hat.bus, hat.port, hat.device, hat.dc, hat.rst) == ("sh1106", "spi", 0, 0, 24, 25)
    assert (diy.driver, diy.bus, diy.address) == ("ssd1306", "i2c", 0x3C)
    assert bonnet.device_node == "/dev/i2c-1" and hat.device_node == "/dev/spidev0.0"


def test_ok_and_back_have_holds():
    for p in load_profiles().values():
        holds = {b.hold for b in p.buttons if b.hold}
        assert {Key.HOLD_OK, Key.HOLD_BACK} <= holds | {b.key for b in p.buttons}, p.name
        assert {Key.UP, Key.DOWN, Key.OK, Key.BACK} <= p.keys(), p.name


def test_diy_avoids_bus_and_uart_pins():
    reserved = {0, 1, 2, 3, 7, 8, 9, 10, 11, 14, 15}
    diy = get_profile("diy")
    assert [b.name for b in diy.buttons] == ["UP", "DOWN", "OK", "BACK"]
    assert not {b.pin for b in diy.buttons} & reserved


def test_every_profile_names_its_source():
    for p in load_profiles().values():
        assert len(p.source) > 40 and p.parts, p.name
    assert "1.3inch OLED HAT User Manual" in get_profile("waveshare-oled-hat-1.3").source
    assert "adafruit-128x64-oled-bonnet" in get_profile("adafruit-oled-bonnet").source


def test_header_map_is_the_40_pin_layout():
    assert HEADER[2] == 3 and HEADER[3] == 5 and HEADER[4] == 7 and HEADER[21] == 40 and HEADER[26] == 37
    assert len(set(HEADER.values())) == 28


def test_unknown_board():
    with pytest.raises(HardwareError) as e:
        get_profile("nope")
    assert "adafruit-oled-bonnet, waveshare-oled-hat-1.3, diy" in str(e.value)


def test_bad_profiles_are_refused():
    base = '[x]\ntitle="x"\n[x.display]\ndriver="ssd1306"\nbus="i2c"\n'
    btn = '[[x.buttons]]\nname="{n}"\npin={p}\nkey="{k}"\n'
    four = "".join(btn.format(n=k, p=p, k=k) for k, p in [("up", 17), ("down", 27), ("ok", 22), ("back", 23)])
    assert load_profiles(base + four)["x"].buttons[0].pin == 17
    with pytest.raises(HardwareError, match="I2C1 SDA"):
        load_profiles(base + four + btn.format(n="e", p=2, k="left"))
    with pytest.raises(HardwareError, match="already used"):
        load_profiles(base + four + btn.format(n="e", p=17, k="left"))
    with pytest.raises(HardwareError, match="no button for BACK"):
        load_profiles(base + four.replace('"back"', '"left"'))
    with pytest.raises(HardwareError, match="unknown key"):
        load_profiles(base + four.replace('"back"', '"menu"'))
    spi = base.replace('bus="i2c"', 'bus="spi"')
    with pytest.raises(HardwareError, match="needs its DC"):  # accepted, then failed at start
        load_profiles(spi + four)
    assert load_profiles(spi + "dc=24\nrst=25\n" + four)["x"].display.dc == 24


def test_wiring_files_agree_with_the_profiles():
    files = wiring_gen.render_all()
    assert sorted(files) == sorted(f"{n}.{ext}" for n in load_profiles() for ext in ("md", "svg"))
    for fname, text in files.items():
        committed = WIRING / fname
        assert committed.exists(), f"wiring/{fname} missing: run python -m hardware.wiring_gen"
        assert committed.read_text(encoding="utf-8") == text, f"wiring/{fname} is stale: run python -m hardware.wiring_gen"
    assert wiring_gen.main(["--check"]) == 0


@pytest.mark.parametrize("name", list(load_profiles()))
def test_wiring_table_rows_are_the_profile_pins(name):
    p = get_profile(name)
    md = (WIRING / f"{name}.md").read_text(encoding="utf-8")
    for b in p.buttons:
        assert f"| GPIO{b.pin} | {HEADER[b.pin]} | button {b.name}:" in md
    for bcm in p.display.bus_pins():
        assert f"| GPIO{bcm} | {HEADER[bcm]} |" in md
    root = ET.fromstring((WIRING / f"{name}.svg").read_text(encoding="utf-8"))
    assert root.tag.endswith("svg")
    labels = [t.text for t in root.iter() if t.tag.endswith("text")]
    for b in p.buttons:
        assert any(lbl and lbl.startswith(f"GPIO{b.pin}: button {b.name}") for lbl in labels), b.name


def test_check_mode_notices_a_stale_file(tmp_path):
    assert wiring_gen.main(["--dir", str(tmp_path)]) == 0
    (tmp_path / "diy.md").write_text("old", encoding="utf-8")
    assert wiring_gen.main(["--check", "--dir", str(tmp_path)]) == 1


def test_pi_setup_mentions_the_essentials():
    text = (WIRING / "pi-setup.md").read_text(encoding="utf-8")
    for needle in ("raspi-config", "dtparam=i2c_arm_baudrate=400000", "93 ms", "dtparam=spi=on",
                   "usermod -aG gpio,i2c,spi,dialout", "i2cdetect -y 1"):
        assert needle in text


def test_every_diy_build_says_to_wire_it_and_lists_the_buttons_grounds():
    """diy-sh1106's page said "This board plugs on the Pi's 40-pin header:
    no wires to connect" and left out the buttons' ground pins: the generator
    knew only the name "diy". A profile says it is wired (boards.toml)."""
    from hardware.profiles import package_profiles
    from hardware.wiring_gen import markdown
    profiles = package_profiles()
    wired = {name for name, p in profiles.items() if p.wired}
    assert {"diy", "diy-sh1106"} <= wired and "adafruit-oled-bonnet" not in wired
    for name, p in profiles.items():
        page = markdown(p)
        assert ("jumper wire" in page) == p.wired and ("no wires to connect" in page) != p.wired, name
        assert ("| - | 9 | GND (to the ground rail" in page) == p.wired, name
