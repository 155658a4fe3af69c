"""The one error the hardware layer raises: a plain fix for a person.

Its message is what ``companion`` prints (no traceback): what is wrong and the
command that fixes it (enable I2C/SPI with raspi-config, the address to check
with i2cdetect, the groups the user needs).
"""
from __future__ import annotations

import getpass


class HardwareError(Exception):
    """A board, bus, display or button problem, with the fix in the message."""


def _user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no passwd entry (containers)
        return "$USER"


def groups_fix(groups: str) -> str:
    """The command that adds the current user to ``groups`` (comma separated)."""
    return f"sudo usermod -aG {groups} {_user()} (then log out and in, or reboot)"


def i2c_missing(port: int, address: int) -> HardwareError:
    return HardwareError(
        f"no I2C bus: /dev/i2c-{port} does not exist.\n"
        f"Fix: enable I2C with 'sudo raspi-config' > Interface Options > I2C "
        f"(or add 'dtparam=i2c_arm=on' to /boot/firmware/config.txt) and reboot; "
        f"then 'i2cdetect -y {port}' should show the display at 0x{address:02x}.")


def i2c_permission(port: int) -> HardwareError:
    return HardwareError(
        f"no permission to use /dev/i2c-{port}.\n"
        f"Fix: add the user to the i2c group: {groups_fix('i2c')}.")


def i2c_no_answer(port: int, address: int, detail: str = "") -> HardwareError:
    extra = f" ({detail})" if detail else ""
    return HardwareError(
        f"the display does not answer at address 0x{address:02x} on I2C bus {port}{extra}.\n"
        f"Fix: check the wiring or that the board is seated on the header (power off first); "
        f"run 'i2cdetect -y {port}': it should show {address:02x}. If it shows 3d, "
        f"the display is at 0x3D: set the address in the board profile.")


def spi_missing(port: int, device: int) -> HardwareError:
    return HardwareError(
        f"no SPI bus: /dev/spidev{port}.{device} does not exist.\n"
        f"Fix: enable SPI with 'sudo raspi-config' > Interface Options > SPI "
        f"(or add 'dtparam=spi=on' to /boot/firmware/config.txt) and reboot.")


def spi_permission(port: int, device: int) -> HardwareError:
    return HardwareError(
        f"no permission to use /dev/spidev{port}.{device}.\n"
        f"Fix: add the user to the spi and gpio groups: {groups_fix('spi,gpio')}.")


def gpio_unavailable(detail: str) -> HardwareError:
    return HardwareError(
        f"cannot use the GPIO pins for the buttons ({detail}).\n"
        f"Fix: on a Raspberry Pi install the pin library ('./run setup' installs lgpio; "
        f"or 'sudo apt install python3-lgpio'), add the user to the gpio group: "
        f"{groups_fix('gpio')}; to force a library set GPIOZERO_PIN_FACTORY=lgpio "
        f"(Raspberry Pi OS Bookworm) or rpigpio (older systems).")
