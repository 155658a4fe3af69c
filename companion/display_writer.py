"""The display writer: the loop hands frames over and never waits on the bus.

At the Pi's default 100 kHz I2C a full frame holds the bus for about 93 ms;
drawn from the loop's own thread, presses made meanwhile waited (issue 16).
``DisplayWriter`` wraps any ``Display`` and sends from a thread of its own:

* ``show(frame)`` returns at once; a frame not yet sent when a newer one
  arrives is dropped (the newer one shows what the older would have, and
  more), so a burst of presses costs one transfer, not one each;
* ``blank``, ``set_contrast`` and ``set_rotation`` keep their order with the frames;
* the wrapped display keeps its own model of what the controller holds, so
  partial updates still diff against what was really sent (a dropped frame
  was never sent);
* a transfer that fails is retried with the newest frame after
  ``retry_s`` (the bus may come back, ``hardware.oled`` recovers the
  controller); ``failing`` says so until one succeeds.

Pure Python and ``threading``: no hardware library.
"""
from __future__ import annotations

import threading
from collections import deque
from typing import Any

__all__ = ["DisplayWriter"]


class DisplayWriter:
    """A ``Display`` that sends on its own thread; see the module docstring."""

    def __init__(self, display: Any, *, retry_s: float = 0.5, name: str = "display-writer"):
        self.inner = display
        self.retry_s = retry_s
        self.sent = 0       # frames sent
        self.dropped = 0    # frames replaced by a newer one before they were sent
        self.errors = 0     # failed operations, in all
        self.failing = 0    # failed operations since the last success
        self.last_error = ""
        self._ops: deque[tuple[str, Any]] = deque()
        self._cv = threading.Condition()
        self._busy = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    # ------------------------------------------------------------ the Display API (any thread)

    def show(self, image: Any) -> None:
        self._put("frame", image)

    def blank(self) -> None:
        self._put("blank", None)

    def set_contrast(self, level: int) -> None:
        self._put("contrast", level)

    def set_rotation(self, degrees: int) -> None:
        """Forwarded in order with the frames, when the wrapped display can turn."""
        if hasattr(self.inner, "set_rotation"):
            self._put("rotation", degrees)

    def close(self) -> None:
        """Send what is pending, stop the thread, close the display."""
        self.flush(timeout=5)
        with self._cv:
            self._closed = True
            self._cv.notify_all()
        self._thread.join(timeout=5)
        self.inner.close()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every operation handed over is done; ``False`` on timeout."""
        with self._cv:
            return self._cv.wait_for(lambda: not self._ops and not self._busy, timeout=timeout)

    # ------------------------------------------------------------ the thread

    def _put(self, kind: str, arg: Any) -> None:
        with self._cv:
            if kind == "frame" and self._ops and self._ops[-1][0] == "frame":
                self._ops[-1] = (kind, arg)  # not sent yet: the newer frame replaces it
                self.dropped += 1
            else:
                self._ops.append((kind, arg))
            self._cv.notify_all()

    def _run(self) -> None:
        while True:
            with self._cv:
                self._cv.wait_for(lambda: self._ops or self._closed)
                if not self._ops:
                    return  # closed and nothing left
                kind, arg = self._ops.popleft()
                self._busy = True
            ok = self._do(kind, arg)
            with self._cv:
                self._busy = False
                if not ok and kind == "frame" and not self._closed:
                    # retry with the newest frame: this one unless a newer came meanwhile
                    if not (self._ops and self._ops[0][0] == "frame"):
                        self._ops.appendleft((kind, arg))
                    self._cv.notify_all()
                    self._cv.wait(timeout=self.retry_s)
                    continue
                self._cv.notify_all()

    def _do(self, kind: str, arg: Any) -> bool:
        try:
            if kind == "frame":
                self.inner.show(arg)
                self.sent += 1
            elif kind == "blank":
                self.inner.blank()
            elif kind == "rotation":
                self.inner.set_rotation(arg)
            else:
                self.inner.set_contrast(arg)
        except Exception as e:  # the display is a boundary: an I2C glitch, a loose cable
            self.errors += 1
            self.failing += 1
            self.last_error = f"{type(e).__name__}: {e}"
            return False
        self.failing = 0
        return True
