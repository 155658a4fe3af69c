"""The app loop: the one thread that owns the app state.

Every input source puts ``Key`` events on one queue. The loop takes them one
at a time, lets the app handle each, and hands the new frame to the display.

* Idle blank: after ``idle_blank_s`` without input the display is blanked
  (OLED burn-in); the press that wakes it does nothing else.
* Watchdog: ``heartbeat()`` is called on every loop turn, so a stuck loop
  stops the pings (systemd then restarts the unit).
* ``stop`` (a ``threading.Event``) ends the loop; SIGTERM sets it.
"""
from __future__ import annotations

import queue
import threading
import time
from concurrent.futures import Future, TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import ConsoleError
from .io import Display, Key
from .ui.app import App

STOP = object()  # put on the queue to end the loop from another thread


@dataclass
class Call:
    """Run ``fn(app)`` on the loop's thread (the only one that touches the app)
    and deliver its result, or its exception, through ``future``.

    This is how other threads (the serial console) read or change the app::

        call = Call(lambda app: app.screen_text())
        inputs.put(call)
        text = call.future.result(timeout=2)
    """

    fn: Callable[[Any], Any]
    future: Future = field(default_factory=Future)
    redraw: bool = True


IDLE_CHECKPOINT_S = 60  # no press for this long: the journal's WAL goes into the main file (issue 14, F10)


class Loop:
    def __init__(self, app: App, display: Display, inputs: "queue.Queue", *,
                 idle_blank_s: float = 300, clock: Callable[[], float] = time.monotonic,
                 heartbeat: Callable[[], object] | None = None, tick_s: float = 1.0):
        self.app = app
        self.display = display
        self.inputs = inputs
        self.idle_blank_s = idle_blank_s
        self.clock = clock
        self.heartbeat = heartbeat or (lambda: None)
        self.tick_s = tick_s
        self.blanked = False
        self.checkpointed = True  # since the last press
        self.last_input = clock()
        self.stop = threading.Event()
        self.display_errors = 0
        self.last_display_error = ""
        self._settings = app.settings  # as the display was set up; changes apply at once
        app.background = self.in_background
        # called with the app after every press and call, on this thread (the scoreboard
        # page's Board.publish): each must be quick and never raise into the loop
        self.watchers: list[Callable[[App], object]] = []
        self.watcher_errors = 0
        self.last_watcher_error = ""

    def apply_settings(self) -> None:
        """Settings changed on the device (Settings > Contrast, Rotation, Screen
        off) take effect at once, not at the next start (QA 4): the contrast and
        the rotation go to the display (a display that cannot turn, the
        terminal, keeps its way up), the idle time to this loop."""
        s, old = self.app.settings, self._settings
        if s is old:
            return
        self._settings = s
        if s.idle_blank_s != old.idle_blank_s:
            self.idle_blank_s = s.idle_blank_s
        try:
            if s.contrast != old.contrast:
                self.display.set_contrast(s.contrast)
            turn = getattr(self.display, "set_rotation", None)
            if s.rotation != old.rotation and turn is not None:
                turn(s.rotation)
        except Exception as e:  # the display is a boundary: the next show retries and says so
            self.display_errors += 1
            self.last_display_error = f"{type(e).__name__}: {e}"

    def in_background(self, job: Callable[[], None], then: Callable[[Any], Any] | None = None) -> None:
        """Run ``job`` on a worker thread, then ``then(app)`` (if given) and a redraw on
        the loop's thread (a press is never delayed by it). The job must only fill
        caches: the app stays this thread's."""
        def work() -> None:
            try:
                job()
            finally:
                self.inputs.put(Call(then or (lambda app: None)))
        threading.Thread(target=work, name="companion-prepare", daemon=True).start()

    def show(self) -> None:
        frame = self.app.frame()
        try:
            self.display.show(frame)
            # a DisplayWriter never raises here: its thread's failures since its last success
            self.display_errors = getattr(self.display, "failing", 0)
            if self.display_errors:
                self.last_display_error = getattr(self.display, "last_error", "")  # a DisplayWriter's
        except Exception as e:  # the display is a boundary: an I2C glitch, a loose cable
            # Keep running; the next tick redraws (adapters raise OSError, but a
            # driver's own error type must not stop the table either).
            self.display_errors += 1
            self.last_display_error = f"{type(e).__name__}: {e}"

    def step(self, key: Key | None) -> None:
        """One loop turn: a key (or None for a timeout tick)."""
        now = self.clock()
        if key is not None:
            self.last_input = now
            self.checkpointed = False
            if self.blanked:
                self.blanked = False  # the waking press does nothing else
                self.show()
                return
            self.app.handle(key)
            self.apply_settings()
            self.show()
            self.tell_watchers()
        elif self.display_errors:
            self.show()
        if not self.checkpointed and now - self.last_input >= IDLE_CHECKPOINT_S:
            # idle: a copy of journal.db alone (or a lost -wal) now holds every event
            self.checkpointed = self.app.journal.checkpoint()
        if (not self.blanked and self.idle_blank_s and now - self.last_input >= self.idle_blank_s):
            try:
                self.display.blank()
                self.blanked = True
            except Exception:
                self.display_errors += 1

    def run(self) -> None:
        self.show()
        self.tell_watchers()
        self.app.warm_up()  # after the first frame: start-up is not slowed, the first press does not wait
        while not self.stop.is_set():
            self.heartbeat()
            try:
                item = self.inputs.get(timeout=self.tick_s)
            except queue.Empty:
                item = None
            if item is STOP:
                break
            if isinstance(item, Call):
                self.call(item)
            else:
                self.step(item)

    def call(self, item: Call) -> None:
        if not item.future.set_running_or_notify_cancel():
            return
        try:
            result = item.fn(self.app)
        except BaseException as e:  # delivered to the caller, never kills the loop
            item.future.set_exception(e)
        else:
            item.future.set_result(result)
        self.apply_settings()
        if item.redraw and not self.blanked:
            self.show()
        self.tell_watchers()

    def tell_watchers(self) -> None:
        for watch in self.watchers:
            try:
                watch(self.app)
            except Exception as e:  # a view's failure never stops the table
                self.watcher_errors += 1
                self.last_watcher_error = f"{type(e).__name__}: {e}"


# ---------------------------------------------------------------- the serial console on the loop


def loop_runner(loop, timeout: float = 5.0) -> Callable[..., Any]:
    """A runner for another thread: each call is a ``Call`` on the loop's queue,
    waited for at most ``timeout`` seconds (then it is cancelled and the
    command answers ``ERR busy``)."""

    def run(fn: Callable[[Any], Any], redraw: bool = False) -> Any:
        call = Call(fn, redraw=redraw)
        loop.inputs.put(call)
        try:
            return call.future.result(timeout=timeout)
        except FutureTimeout:
            call.future.cancel()
            raise ConsoleError("busy (the app did not answer)") from None
    return run


def loop_waker(loop) -> Callable[[], None]:
    """Called on the loop's thread before console presses: they count as
    input like a button (the idle timer restarts, a blank display wakes) and,
    unlike a button, the first press after a blank is not eaten by the wake-up
    (the console user cannot see the panel)."""
    def wake() -> None:
        loop.last_input = loop.clock()
        loop.blanked = False
    return wake
