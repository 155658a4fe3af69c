"""The two interfaces between the core and the outside world.

* Input: every source (GPIO buttons, simulator keys, serial console) turns
  what happens into logical ``Key`` events and puts them on one
  ``queue.Queue``. Only the app loop's thread reads that queue and owns the
  app state.
* Output: a ``Display`` shows 128x64 1-bit PIL images (mode ``"1"``).

Adapters live in ``hardware/``; the core never imports a hardware library.
"""
from __future__ import annotations

import enum
from typing import Protocol, runtime_checkable

WIDTH, HEIGHT = 128, 64


class Key(str, enum.Enum):
    """A logical button event. Every screen works with UP, DOWN, OK, BACK alone;
    LEFT/RIGHT are shortcuts; holds (about 0.8 s) are HOLD_OK and HOLD_BACK;
    RELEASE is sent when a held button is let go (press-to-show screens)."""

    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"
    OK = "ok"
    BACK = "back"
    HOLD_OK = "hold-ok"
    HOLD_BACK = "hold-back"
    RELEASE = "release"

    @classmethod
    def parse(cls, name: str) -> "Key":
        """A key from its name (``up``, ``hold-ok``...); ``ValueError`` names the known ones."""
        t = name.strip().lower().replace("_", "-")
        for k in cls:
            if k.value == t:
                return k
        raise ValueError(f"unknown key {name!r}; known keys: {', '.join(k.value for k in cls)}")


def key_names(text: str) -> list[str]:
    """The key names of a key list: ``"down,down,ok hold-back"`` (commas or
    spaces separate, ``"down, ok"`` too). An empty name between commas (``ok,,ok``,
    a leading or trailing comma) is a key left out, a typo: ``ValueError``
    naming the item. An empty text is no key. The simulator's ``--keys`` and the
    serial console's ``press`` read key lists with it."""
    if not text.strip():
        return []
    out: list[str] = []
    for k, item in enumerate(text.split(","), 1):
        names = item.split()
        if not names:
            raise ValueError(f"empty key name (key list item {k} of {text!r})")
        out += names
    return out


@runtime_checkable
class Display(Protocol):
    """Something that shows 128x64 1-bit frames."""

    def show(self, image) -> None:
        """Show a 128x64 mode-"1" PIL image. May skip a frame equal to the last one."""

    def blank(self) -> None:
        """Turn the panel off (idle, shutdown); the next ``show`` turns it on again."""

    def set_contrast(self, level: int) -> None:
        """Contrast 0..255."""

    def close(self) -> None:
        """Release the device (blank first)."""
