"""A live table for the page's tests and benchmarks (issue 32): the app and its
loop on a thread of their own, as the device runs them (a display that only
counts frames), and the scoreboard page served on loopback. Keys go in the
way the simulator's key reader puts them, on the loop's queue.

    with LiveTable(tmp_dir) as t:
        t.press("down", "ok")      # handled in order; t.settle() waits for them
        t.url                      # http://127.0.0.1:PORT/SECRET/
"""
from __future__ import annotations

import os
import queue
import random
import socket
import threading
from typing import Any

from companion.config import Settings
from companion.io import Key
from companion.journal import Journal
from companion.loop import Call, Loop, STOP
from companion.ui.app import App


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class CountingDisplay:
    """A display that keeps nothing but the count of frames it was shown."""

    def __init__(self) -> None:
        self.frames = 0

    def show(self, image) -> None:
        self.frames += 1

    def blank(self) -> None:
        pass

    def set_contrast(self, level: int) -> None:
        pass

    def close(self) -> None:
        pass


class LiveTable:
    def __init__(self, folder: str, *, seed: int = 7, clients: int = 32, page: bool = True,
                 settings: Settings | None = None):
        self.journal = Journal(os.path.join(folder, "journal.db"))
        if settings is None:
            secret = ""
            if page:  # the web stack is imported only with the page (bench.web's memory figure)
                from companion.web import new_secret
                secret = new_secret()
            settings = Settings(web="127.0.0.1", web_port=free_port(), web_secret=secret,
                                web_clients=clients, idle_blank_s=0)
        self.settings = settings
        self.app = App(self.journal, self.settings, rng=random.Random(seed))
        self.display = CountingDisplay()
        self.inputs: queue.Queue = queue.Queue()
        self.loop = Loop(self.app, self.display, self.inputs, idle_blank_s=0)
        self.page: Any = None
        if page:
            from hardware.web_server import PageService
            self.page = PageService(self.app, simulator=True).start(self.loop)
        if self.page is not None:
            self.app.web = self.page
            if not self.page.server.started.wait(15):
                raise RuntimeError(f"the page did not start: {self.page.server.last_error}")
        self.thread = threading.Thread(target=self.loop.run, name="live-table-loop", daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        assert self.page is not None
        return self.page.address

    def press(self, *names: str) -> None:
        for name in names:
            self.inputs.put(Key.parse(name))

    def call(self, fn, timeout: float = 30) -> Any:
        """``fn(app)`` on the loop's thread, after every key put before it; then the
        page's own process has what the board made by then (a page opened right
        after sees it; on the device nothing waits for that)."""
        c = Call(fn, redraw=False)
        self.inputs.put(c)
        out = c.future.result(timeout=timeout)
        sync = getattr(getattr(self.page, "server", None), "wait_synced", None)
        if sync is not None:
            sync()
        return out

    def settle(self) -> None:
        self.call(lambda app: None)

    def close(self) -> None:
        self.inputs.put(STOP)
        self.thread.join(10)
        if self.page is not None:
            self.page.close()
        self.journal.close()

    def __enter__(self) -> "LiveTable":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
