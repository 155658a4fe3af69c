"""``companion doctor``: check a board as far as this machine allows and say what to fix.

Checks, in order: the settings file (every bad value is one thing to fix; the
board is checked all the same, with that key's default, as the app does); the bus device node (``/dev/i2c-1`` or ``/dev/spidev0.0``)
and whether this user may open it; the GPIO device nodes and the gpio group;
which pin libraries import (lgpio, RPi.GPIO) and ``GPIOZERO_PIN_FACTORY``;
spidev for SPI boards; whether the buttons can be claimed and none reads as
pressed at rest; whether the display answers (it is opened, shows a blank
frame, and is switched off again). Stop the companion service first
(``sudo systemctl stop companion``): a running app holds the pins. When the
buttons' lines are held by another process, the display is not tried: the
running app's panel is left as it is.

Exit code 0 only if every check passed.
"""
from __future__ import annotations

import grp
import importlib
import os
from typing import Callable, Sequence

from .buttons import GpioButtons
from .errors import HardwareError, groups_fix
from .oled import SPIDEV_FIX, open_display
from .profiles import BoardProfile


def _group_of(path: str) -> str:
    try:
        return grp.getgrgid(os.stat(path).st_gid).gr_name
    except (KeyError, OSError):
        return "?"


def _my_groups() -> set[str]:
    names = set()
    for gid in set(os.getgroups()) | {os.getegid()}:
        try:
            names.add(grp.getgrgid(gid).gr_name)
        except KeyError:
            pass
    return names


def _try_import(name: str) -> str | None:
    """None if ``name`` imports, else the reason."""
    try:
        importlib.import_module(name)
        return None
    except Exception as e:  # RPi.GPIO raises RuntimeError off a Pi
        return f"{type(e).__name__}: {e}"


class Report:
    def __init__(self, out: Callable[[str], None]):
        self.out = out
        self.problems = 0

    def ok(self, text: str) -> None:
        self.out(f"  ok   {text}")

    def fix(self, text: str) -> None:
        self.problems += 1
        lines = text.splitlines()
        self.out(f"  FIX  {lines[0]}")
        for line in lines[1:]:
            self.out(f"       {line}")

    def note(self, text: str) -> None:
        self.out(f"  --   {text}")


def _check_node(r: Report, path: str, group: str, what: str, enable: str) -> bool:
    if not os.path.exists(path):
        r.fix(f"{path} does not exist: {what} is off.\n{enable}")
        return False
    if not os.access(path, os.R_OK | os.W_OK):
        owner = _group_of(path)
        member = owner in _my_groups()
        r.fix(f"{path} exists but this user may not open it (group {owner}"
              f"{'' if member else ', you are not a member'}).\nFix: {groups_fix(group)}")
        return False
    r.ok(f"{path} is there and usable")
    return True


def i2c_clock_hz(port: int, dt_root: str = "/proc/device-tree") -> int | None:
    """The I2C bus clock the device tree sets for bus ``port`` (aliases/i2cN ->
    its node's clock-frequency, a big-endian u32), or None when not found."""
    try:
        with open(os.path.join(dt_root, "aliases", f"i2c{port}"), "rb") as f:
            node = f.read().rstrip(b"\0").decode("ascii").lstrip("/")
        with open(os.path.join(dt_root, node, "clock-frequency"), "rb") as f:
            raw = f.read()
    except (OSError, UnicodeDecodeError):
        return None
    return int.from_bytes(raw[:4], "big") if len(raw) >= 4 else None


def doctor(profile: BoardProfile, out: Callable[[str], None] = print, *, dev_root: str = "/dev",
           pin_factory=None, serial=None, dt_root: str = "/proc/device-tree",
           settings_problems: Sequence[str] = (), settings=None) -> int:
    """Check ``profile`` on this machine; print what to fix; 0 only if all is well.
    ``settings_problems``: the settings file's bad values (``config.load_lenient``), each
    one a thing to fix; the board is checked all the same (the app uses their defaults).
    ``settings``: the scoreboard page is checked with them (its address, its port).
    ``dev_root``, ``dt_root``, ``pin_factory`` and ``serial`` exist for tests."""
    r = Report(out)
    spec = profile.display
    out(f"companion doctor: {profile.name} - {profile.title}")
    out(f"  display: {spec.describe()}")
    for problem in settings_problems:
        r.fix(f"settings: {problem}")

    # 1. the display's bus
    node = os.path.join(dev_root, os.path.basename(spec.device_node))
    if spec.bus == "i2c":
        bus_ok = _check_node(r, node, "i2c", "the I2C bus",
                             "Fix: sudo raspi-config > Interface Options > I2C > Yes, then reboot "
                             "(or 'dtparam=i2c_arm=on' in /boot/firmware/config.txt).")
        hz = i2c_clock_hz(spec.port, dt_root)
        if hz is None:
            r.note(f"I2C bus clock: not found in the device tree ({dt_root})")
        elif hz < 400_000:
            r.note(f"I2C bus clock is {hz // 1000} kHz: 400 kHz redraws the screen 4 times faster.\n"
                   f"Fix: 'dtparam=i2c_arm_baudrate=400000' in /boot/firmware/config.txt, then reboot "
                   f"(wiring/pi-setup.md)")
        else:
            r.ok(f"I2C bus clock is {hz // 1000} kHz")
    else:
        bus_ok = _check_node(r, node, "spi", "the SPI bus",
                             "Fix: sudo raspi-config > Interface Options > SPI > Yes, then reboot "
                             "(or 'dtparam=spi=on' in /boot/firmware/config.txt).")
        missing = _try_import("spidev")
        if missing:
            r.fix(f"the spidev library does not import ({missing}).\n{SPIDEV_FIX}")
            bus_ok = False
        else:
            r.ok("spidev imports")

    # 2. GPIO device nodes (lgpio uses /dev/gpiochip*, RPi.GPIO /dev/gpiomem)
    chips = sorted(n for n in os.listdir(dev_root) if n.startswith("gpiochip")) if os.path.isdir(dev_root) else []
    gpiomem = os.path.join(dev_root, "gpiomem")
    if not chips and not os.path.exists(gpiomem):
        r.fix(f"no GPIO device ({dev_root}/gpiochip* or {dev_root}/gpiomem): this does not look like "
              f"a Raspberry Pi.\nFix: run this on the Pi; elsewhere use the simulator: companion sim")
    else:
        usable = [n for n in chips if os.access(os.path.join(dev_root, n), os.R_OK | os.W_OK)]
        if os.path.exists(gpiomem) and os.access(gpiomem, os.R_OK | os.W_OK):
            usable.append("gpiomem")
        if usable:
            r.ok(f"GPIO devices usable: {', '.join(usable)}")
        else:
            r.fix(f"the GPIO devices exist but this user may not open them.\nFix: {groups_fix('gpio')}")

    # 3. pin libraries
    forced = os.environ.get("GPIOZERO_PIN_FACTORY", "")
    libs = {"lgpio": _try_import("lgpio"), "RPi.GPIO": _try_import("RPi.GPIO")}
    for lib, why in libs.items():
        (r.ok if why is None else r.note)(f"{lib} {'imports' if why is None else 'does not import: ' + why}")
    if forced:
        r.note(f"GPIOZERO_PIN_FACTORY={forced} (gpiozero uses only that one)")
    if pin_factory is None and all(libs.values()) and forced not in ("native", "mock"):
        r.fix("no pin library imports.\nFix: ./run setup on the Pi installs lgpio "
              "(Raspberry Pi OS Bookworm; or: sudo apt install python3-lgpio); "
              "on older systems RPi.GPIO")

    # 4. the buttons can be claimed, none pressed at rest (first: a line held by another
    # process means the service runs, and then the display in use is left alone, QA 4)
    busy = False
    try:
        with GpioButtons(profile, lambda key: None, pin_factory=pin_factory) as b:
            stuck = [spec_.name for spec_, btn in zip(profile.buttons, b.buttons) if btn.is_pressed]
            if stuck:
                r.fix(f"button(s) read as pressed at rest: {', '.join(stuck)}.\n"
                      f"Fix: check the wiring (each button between its GPIO and GND, see wiring/{profile.name}.md)")
            else:
                r.ok(f"{len(b.buttons)} buttons claimed, all released: "
                     + ", ".join(f"{s.name}=GPIO{s.pin}" for s in profile.buttons))
            if b.buttons:
                r.ok(f"pin factory in use: {type(b.buttons[0].pin_factory).__name__}")
    except HardwareError as e:
        busy = any(w in str(e).lower() for w in ("in use", "busy", "already"))
        said = "systemctl stop companion" in str(e)  # buttons.py names the service for lgpio's "GPIO busy"
        r.fix(str(e) + ("\nIf the companion service is running, stop it first: sudo systemctl stop companion"
                        if busy and not said else ""))

    # 5. the display answers (opened, shown, switched off: never while the service uses it)
    if busy:
        r.note("display not tried: the companion seems to be running (its buttons are in use)")
    elif bus_ok or serial is not None:
        try:
            d = open_display(profile, serial=serial, pin_factory=pin_factory)
        except HardwareError as e:
            r.fix(str(e))
        else:
            d.close()
            r.ok("the display answers (it was switched off again)")
    else:
        r.note("display not tried: fix its bus first")

    # 6. the scoreboard page (issue 32, docs/web.md): its address, and whether its port opens
    check_page(r, settings)

    out("all good" if r.problems == 0 else f"{r.problems} thing(s) to fix")
    return 0 if r.problems == 0 else 1


def check_page(r: Report, settings) -> None:
    """The page's address as a phone opens it, and whether its port can be opened here
    (taken by the running companion or its socket unit is fine: then it is serving)."""
    if settings is None:
        return
    if settings.web == "off":
        r.note('scoreboard page: off (the setting web = "off")')
        return
    from .web_server import lan_address, listen_host, port_free  # the web stack (uvicorn) loads for this check only
    host = listen_host(settings.web, simulator=False)
    shown = (lan_address() or "this-pi") if host in ("0.0.0.0", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    secret = settings.web_secret or "SECRET"
    address = f"http://{shown}:{settings.web_port}/{secret}/"
    why = port_free(host, settings.web_port)
    if why is None:
        r.ok(f"scoreboard page: port {settings.web_port} on {host} can be opened; the page will be at {address}"
             + ("" if settings.web_secret else " (SECRET: made at the first start)"))
    else:
        r.note(f"scoreboard page: port {settings.web_port} on {host} is in use ({why}): the running companion "
               f"or companion.socket holds it, or another program does (then set web_port)\n"
               f"       the page: {address}")

