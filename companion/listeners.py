"""The page's snapshots and the callbacks told when they change: the page's
server reads them and wakes its streams with the callbacks.
``companion.web.Board`` (the device's process, which makes them) and
``hardware.web_child.Mirror`` (the page's own process, issue 38, which gets
them over its channel) are both a ``SnapshotStore``, the ``Snapshots`` that
``companion.web.WebApp`` serves. It imports nothing of the web stack, so the
page's unit condition stays light."""
from __future__ import annotations

import secrets
import threading
from typing import Callable, Protocol

Snap = tuple[str, str]  # (tag, JSON text): the stream's event id and ETag, and what the page draws


class Snapshots(Protocol):
    """What the page's server reads: the public page's snapshot, a seat page's (None for
    a token that is no seat's), and a callback when either changed."""

    def snapshot(self) -> Snap: ...

    def seat_snapshot(self, token: str) -> Snap | None: ...

    def listen(self, fn: Callable[[], None]) -> Callable[[], None]: ...


class Listeners:
    """Callbacks told when a snapshot changed (the page's server wakes its streams
    with them). Each callback must only hand over (e.g. ``loop.call_soon_threadsafe``)."""

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


class SnapshotStore(Listeners):
    """The newest public snapshot and every seat page's (by token), swapped whole under
    the lock; the listeners are told when anything changed. The one implementation of
    ``Snapshots`` for the device's ``Board`` and the page process's ``Mirror``."""

    def __init__(self, snap: Snap = ("0", "{}")) -> None:
        super().__init__()
        self._snap: Snap = snap
        self._seat_snaps: dict[str, Snap] = {}

    def snapshot(self) -> Snap:
        with self._lock:
            return self._snap

    def seat_snapshots(self) -> dict[str, Snap]:
        """Every seat page's ``(tag, text)`` by token, as made now."""
        with self._lock:
            return dict(self._seat_snaps)

    def seat_snapshot(self, token: str) -> Snap | None:
        """``(tag, json_text)`` of seat page ``token`` (issue 41, RULINGS V-3); None for a
        token that is not (or no longer) a seat's. Every known token is compared in
        constant time (a near miss takes as long as a far one)."""
        with self._lock:
            items = list(self._seat_snaps.items())
        raw = token.encode("utf-8", "surrogateescape")
        found = None
        for t, snap in items:
            if secrets.compare_digest(t.encode("ascii", "replace"), raw):
                found = snap
        return found

    def _store(self, snap: Snap | None = None, seats: dict[str, Snap] | None = None) -> bool:
        """Swap in a new public snapshot and/or seat snapshots; tell the listeners if
        anything changed. True if it did."""
        with self._lock:
            new_snap = self._snap if snap is None else snap
            new_seats = self._seat_snaps if seats is None else seats
            changed = new_snap != self._snap or new_seats != self._seat_snaps
            self._snap, self._seat_snaps = new_snap, new_seats
            listeners = list(self._listeners) if changed else []
        self._tell(listeners)
        return changed
