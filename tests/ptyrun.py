"""Drive the interactive simulator in a real pseudo-terminal (tests only)."""
from __future__ import annotations

import os
import select
import subprocess
import sys
import time

FRAME = b"\x1b[H\x1b[2J"


class PtyCompanion:
    def __init__(self, *args: str, env: dict | None = None):
        self.master, slave = os.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "companion", *args], stdin=slave, stdout=slave,
                                     stderr=slave, env={**os.environ, **(env or {})}, close_fds=True)
        os.close(slave)
        self.out = b""

    def read_until_frames(self, n: int, timeout: float = 20.0) -> int:
        """Read until at least ``n`` frames have been drawn in total; returns the count."""
        deadline = time.monotonic() + timeout
        while self.frames() < n and time.monotonic() < deadline:
            r, _, _ = select.select([self.master], [], [], 0.1)
            if r:
                try:
                    self.out += os.read(self.master, 65536)
                except OSError:
                    break
        return self.frames()

    def frames(self) -> int:
        return self.out.count(FRAME)

    def last_frame(self) -> str:
        return self.out.rsplit(FRAME, 1)[-1].decode("utf-8", "replace")

    def press(self, data: bytes, timeout: float = 20.0) -> None:
        """Send key bytes and wait for the frame they cause."""
        n = self.frames()
        os.write(self.master, data)
        if self.read_until_frames(n + 1, timeout) <= n:
            raise TimeoutError(f"no new frame after {data!r}; output so far: {self.out[-500:]!r}")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        os.close(self.master)
