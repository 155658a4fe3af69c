"""Callbacks told when a snapshot changed: the page's server wakes its streams
with them. ``companion.web.Board`` (the device's process) and
``hardware.web_child.Mirror`` (the page's own process, issue 38) share it; it
imports nothing of the web stack, so the page's unit condition stays light."""
from __future__ import annotations

import threading
from typing import Callable


class Listeners:
    """Callbacks told when a snapshot changed (the page's server wakes its streams
    with them): the part that ``Board`` and the page process's ``Mirror`` share.
    Each callback must only hand over (e.g. ``loop.call_soon_threadsafe``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: list[Callable[[], None]] = []

    def listen(self, fn: Callable[[], None]) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(fn)

        def stop() -> None:
            with self._lock:
                if fn in self._listeners:
                    self._listeners.remove(fn)
        return stop

    @staticmethod
    def _tell(listeners: list[Callable[[], None]]) -> None:
        for fn in listeners:
            try:
                fn()
            except Exception:  # a server that is going away: its loop is closed
                pass
