"""gpiozero's MockFactory with one line held by another process, as lgpio says it."""
from __future__ import annotations

from gpiozero.pins.mock import MockFactory, MockPin


class error(Exception):
    """The shape of ``lgpio.error``: a plain ``Exception`` subclass (lgpio is a Pi library)."""


def busy_factory(pin_name: str = "GPIO22") -> MockFactory:
    """A MockFactory whose ``pin_name`` raises ``error('GPIO busy')`` when claimed,
    as gpiozero's lgpio pin does when the running service holds the line."""

    class BusyPin(MockPin):
        def __init__(self, factory, info, *a, **kw):
            if info.name == pin_name:
                raise error("GPIO busy")
            super().__init__(factory, info, *a, **kw)

    return MockFactory(pin_class=BusyPin)
