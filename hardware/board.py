"""A whole board: its OLED and its buttons, opened from a profile.

    with open_board("adafruit-oled-bonnet", post=inputs.put) as board:
        loop = Loop(app, board.display, inputs, ...)
        loop.run()
    # closed: display blanked (luma hide()), buttons released

The display is opened first (its message is the most useful when nothing is
connected); if the buttons then fail, the display is closed again before the
``HardwareError`` propagates.
"""
from __future__ import annotations

from typing import Callable

from companion.io import Key

from .buttons import DEFAULT_BOUNCE_S, GpioButtons
from .oled import OledDisplay, open_display
from .profiles import BoardProfile, get_profile


class Board:
    def __init__(self, profile: BoardProfile, display: OledDisplay, buttons: GpioButtons):
        self.profile = profile
        self.display = display
        self.buttons = buttons
        self.closed = False

    def close(self) -> None:
        """Blank the display and release the bus and every pin (idempotent)."""
        if self.closed:
            return
        self.closed = True
        try:
            self.buttons.close()
        finally:
            self.display.close()

    def __enter__(self) -> "Board":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_board(name_or_profile: str | BoardProfile, *, post: Callable[[Key], None], rotation: int = 0,
               contrast: int | None = None, hold_time: float = 0.8, pin_factory=None,
               bounce_time: float = DEFAULT_BOUNCE_S, serial=None) -> Board:
    """Open the board's display and buttons. ``post`` receives every ``Key``
    (from gpiozero's threads). ``serial``: an injected luma serial interface
    (tests). Raises ``HardwareError`` with the fix."""
    profile = get_profile(name_or_profile) if isinstance(name_or_profile, str) else name_or_profile
    display = open_display(profile, rotation=rotation, contrast=contrast, serial=serial, pin_factory=pin_factory)
    try:
        buttons = GpioButtons(profile, post, hold_time=hold_time, bounce_time=bounce_time, pin_factory=pin_factory)
    except BaseException:
        display.close()
        raise
    return Board(profile, display, buttons)
