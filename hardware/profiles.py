"""Board profiles: which display, which bus, which pin is which button.

One source of truth: ``hardware/boards.toml`` (package data). The wiring
tables and diagrams in ``wiring/`` are generated from it
(``python -m hardware.wiring_gen``).

    >>> p = get_profile("adafruit-oled-bonnet")
    >>> p.display.driver, p.display.address
    ('ssd1306', 60)
    >>> [b.name for b in p.buttons if b.key is Key.OK]
    ['A', 'joystick center']
"""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from companion.io import Key

from .errors import HardwareError

# BCM GPIO number -> physical pin on the 40-pin header.
HEADER = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23,
    12: 32, 13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40,
    22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13,
}
GROUND_PINS = (6, 9, 14, 20, 25, 30, 34, 39)
POWER_3V3_PINS = (1, 17)
POWER_5V_PINS = (2, 4)

I2C1_PINS = {2: "I2C1 SDA", 3: "I2C1 SCL"}
SPI0_PINS = {10: "SPI0 MOSI", 11: "SPI0 SCLK"}
SPI0_CE = {0: 8, 1: 7}
UART_PINS = {14: "UART TXD", 15: "UART RXD"}
ID_EEPROM_PINS = {0: "ID_SD", 1: "ID_SC"}

MODES = ("tap", "press")
DRIVERS = ("ssd1306", "sh1106")
BUSES = ("i2c", "spi")


@dataclass(frozen=True)
class ButtonSpec:
    """One physical button: BCM ``pin`` to GND, posting ``key`` (see boards.toml for ``mode``)."""

    name: str
    pin: int
    key: Key
    mode: str = "tap"
    hold: Key | None = None

    @property
    def header_pin(self) -> int:
        return HEADER[self.pin]

    def describe(self) -> str:
        """What the button does, for tables: ``OK (hold: HOLD_OK)``."""
        k = self.key.name
        if self.mode == "press":
            return f"{k} (on press)"
        return f"{k}, hold: {self.hold.name}" if self.hold else k


@dataclass(frozen=True)
class DisplaySpec:
    driver: str          # "ssd1306" | "sh1106"
    bus: str             # "i2c" | "spi"
    port: int = 1        # I2C bus number or SPI port
    address: int = 0x3C  # I2C only
    device: int = 0      # SPI chip select (CE0 / CE1)
    dc: int | None = None   # SPI data/command GPIO
    rst: int | None = None  # SPI reset GPIO
    width: int = 128
    height: int = 64

    @property
    def device_node(self) -> str:
        """The /dev node the bus needs."""
        return f"/dev/i2c-{self.port}" if self.bus == "i2c" else f"/dev/spidev{self.port}.{self.device}"

    def bus_pins(self) -> dict[int, str]:
        """BCM pin -> function for the display's bus lines (power and ground excluded)."""
        if self.bus == "i2c":
            return dict(I2C1_PINS)
        pins = dict(SPI0_PINS)
        pins[SPI0_CE[self.device]] = f"SPI0 CE{self.device} (display CS)"
        if self.dc is not None:
            pins[self.dc] = "display DC (data/command)"
        if self.rst is not None:
            pins[self.rst] = "display RST (reset)"
        return pins

    def describe(self) -> str:
        if self.bus == "i2c":
            return f"{self.driver.upper()} on I2C bus {self.port} at 0x{self.address:02X}"
        return f"{self.driver.upper()} on SPI{self.port} CE{self.device}, DC GPIO{self.dc}, RST GPIO{self.rst}"


@dataclass(frozen=True)
class BoardProfile:
    name: str
    title: str
    display: DisplaySpec
    buttons: tuple[ButtonSpec, ...]
    source: str = ""
    product: str = ""
    parts: tuple[str, ...] = ()
    wired: bool = False  # built with jumper wires (a DIY build), not a HAT on the header

    def keys(self) -> set[Key]:
        """Every logical key the board can post."""
        out = {b.key for b in self.buttons} | {b.hold for b in self.buttons if b.hold}
        if any(b.mode == "tap" and b.hold for b in self.buttons):
            out.add(Key.RELEASE)
        return out

    def pin_table(self) -> list[tuple[int, int, str]]:
        """(BCM pin, header pin, function) for every signal line, in header order."""
        rows = [(bcm, HEADER[bcm], fn) for bcm, fn in self.display.bus_pins().items()]
        rows += [(b.pin, b.header_pin, f"button {b.name}: {b.describe()}") for b in self.buttons]
        return sorted(rows, key=lambda r: r[1])


def _key(value, where: str) -> Key:
    try:
        return Key.parse(str(value))
    except ValueError as e:
        raise HardwareError(f"boards.toml: {where}: {e}") from None


def _profile(name: str, d: dict) -> BoardProfile:
    try:
        disp = d["display"]
        display = DisplaySpec(driver=disp["driver"], bus=disp["bus"], port=int(disp.get("port", 1 if disp["bus"] == "i2c" else 0)),
                              address=int(disp.get("address", 0x3C)), device=int(disp.get("device", 0)),
                              dc=disp.get("dc"), rst=disp.get("rst"),
                              width=int(disp.get("width", 128)), height=int(disp.get("height", 64)))
        buttons = []
        for i, b in enumerate(d["buttons"]):
            where = f"[{name}] button {b.get('name', i)}"
            mode = b.get("mode", "tap")
            if mode not in MODES:
                raise HardwareError(f"boards.toml: {where}: mode must be one of {', '.join(MODES)}")
            hold = _key(b["hold"], where) if "hold" in b else None
            if hold and mode != "tap":
                raise HardwareError(f"boards.toml: {where}: only tap buttons have a hold key")
            buttons.append(ButtonSpec(name=str(b["name"]), pin=int(b["pin"]), key=_key(b["key"], where),
                                      mode=mode, hold=hold))
        p = BoardProfile(name=name, title=d["title"], display=display, buttons=tuple(buttons),
                         source=" ".join(d.get("source", "").split()), product=d.get("product", ""),
                         parts=tuple(d.get("parts", ())), wired=d.get("wired", False) is True)
    except KeyError as e:
        raise HardwareError(f"boards.toml: [{name}] lacks {e}") from None
    _check(p)
    return p


def _check(p: BoardProfile) -> None:
    """Reject profiles that cannot work: unknown driver, shared pins, missing keys."""
    bad = lambda msg: HardwareError(f"boards.toml: [{p.name}] {msg}")  # noqa: E731
    if p.display.driver not in DRIVERS:
        raise bad(f"display driver must be one of {', '.join(DRIVERS)}")
    if p.display.bus not in BUSES:
        raise bad(f"display bus must be one of {', '.join(BUSES)}")
    if p.display.bus == "spi" and p.display.device not in SPI0_CE:
        raise bad("SPI device must be 0 (CE0) or 1 (CE1)")
    if p.display.bus == "spi" and p.display.dc is None:  # 4-wire SPI: luma needs the D/C line (QA 4)
        raise bad("an SPI display needs its DC (data/command) GPIO: dc = N in [display]")
    used = dict(p.display.bus_pins())
    for b in p.buttons:
        if b.pin not in HEADER:
            raise bad(f"button {b.name}: GPIO{b.pin} is not on the 40-pin header")
        if b.pin in used:
            raise bad(f"button {b.name}: GPIO{b.pin} is already used by {used[b.pin]}")
        used[b.pin] = f"button {b.name}"
    for b in p.buttons:
        if b.pin in UART_PINS:  # issue 33: a table wired a button there and it never worked
            raise bad(_uart_refusal(b, used, p.display.bus_pins()))
    missing = {Key.UP, Key.DOWN, Key.OK, Key.BACK} - p.keys()
    if missing:
        raise bad(f"has no button for {', '.join(sorted(k.name for k in missing))}")


# pins a button should not take: the display buses, the UART, the ID EEPROM lines
_SPECIAL_PINS = {**I2C1_PINS, **SPI0_PINS, 9: "SPI0 MISO", **{g: f"SPI0 CE{ce}" for ce, g in SPI0_CE.items()},
                 **UART_PINS, **ID_EEPROM_PINS}


def _uart_refusal(b: ButtonSpec, used: dict[int, str], bus: dict[int, str]) -> str:
    """Why a button may not sit on the UART pins (GPIO 14/15), and the fix: free GPIOs to move it to."""
    taken = set(used) | set(bus)
    free = [g for g in sorted(HEADER, key=lambda g: HEADER[g]) if g not in taken and g not in _SPECIAL_PINS]
    where = ", ".join(f"GPIO{g} (pin {HEADER[g]})" for g in free[:4])
    return (f"button {b.name}: GPIO{b.pin} (header pin {HEADER[b.pin]}) is the serial console's "
            f"{UART_PINS[b.pin]}: with the serial port on (raspi-config), the Pi's login console and "
            "the companion's own console (docs/console.md, /dev/serial0) drive it, and a button there "
            f"reads noise or nothing. Move the button to a free GPIO, e.g. {where}, and set "
            f"pin = N for it in boards.toml")


@lru_cache(maxsize=None)
def _load(text: str) -> dict[str, BoardProfile]:
    data = tomllib.loads(text)
    return {name: _profile(name, d) for name, d in data.items()}


def user_board_files() -> list[Path]:
    """The user's boards.toml files, in the order they apply (a later one wins):
    /etc/companion/boards.toml, then $XDG_CONFIG_HOME (~/.config)/companion/boards.toml."""
    config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return [Path("/etc/companion/boards.toml"), Path(config_home) / "companion" / "boards.toml"]


def _merge(base: dict, over: dict) -> dict:
    """``over`` on top of ``base``: tables merge key by key, anything else replaces."""
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def load_profiles_with_origin() -> dict[str, tuple[BoardProfile, str]]:
    """Every profile with where it comes from: the package's boards.toml, then
    the user's files (user_board_files), which add profiles or override the
    settings they name (e.g. only ``[diy.display] address = 0x3D``)."""
    text = resources.files("hardware").joinpath("boards.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    origin = {name: "package" for name in data}
    for path in user_board_files():
        try:
            user = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
            raise HardwareError(f"{path}: {e}") from None
        for name, d in user.items():
            if not isinstance(d, dict):
                raise HardwareError(f"{path}: {name!r} must be a table ([{name}])")
            data[name] = _merge(data[name], d) if name in data else d
            origin[name] = f"{origin[name]} + {path}" if name in origin else str(path)
    out = {}
    for name, d in data.items():
        try:
            prof = _profile(name, d)
        except HardwareError as e:
            raise HardwareError(f"{e} (from {origin[name]})") from None
        except (TypeError, ValueError, AttributeError) as e:
            raise HardwareError(f"boards.toml: [{name}] has a bad value: {e} (from {origin[name]})") from None
        out[name] = (prof, origin[name])
    return out


def package_profiles() -> dict[str, BoardProfile]:
    """The profiles shipped in the package's boards.toml only (wiring/ is generated from these)."""
    return dict(_load(resources.files("hardware").joinpath("boards.toml").read_text(encoding="utf-8")))


def load_profiles(text: str | None = None) -> dict[str, BoardProfile]:
    """Every profile in boards.toml (or in ``text``), by name, in file order;
    without ``text``, with the user's boards.toml files applied."""
    if text is None:
        return {name: p for name, (p, _) in load_profiles_with_origin().items()}
    return dict(_load(text))


def get_profile(name: str) -> BoardProfile:
    """The profile called ``name``; a HardwareError lists the known ones."""
    profiles = load_profiles()
    try:
        return profiles[name.strip()]
    except KeyError:
        raise HardwareError(f"unknown board {name!r}; known boards: {', '.join(profiles)} "
                            f"(see: companion boards)") from None
