"""Fault injection: each fault a table can meet, injected into the real app.

    python -m bench.faults [--rounds N]

* display: the OLED raises OSError now and then (I2C glitch, loose cable)
  while keys keep coming; the loop must keep running and redraw once the
  display answers again (luma's real ssd1306 driver on a bus that fails);
* disk full and read-only journal: a play is refused with a plain message,
  nothing half-written, play resumes when the disk is back;
* corrupt and foreign journal files at start: moved aside untouched, a new
  journal started;
* the serial port vanishing and coming back (when the console is there).

Prints its figures last as one JSON line.
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import random
import sqlite3
import sys
import tempfile

from luma.core.interface.serial import i2c

from companion.config import Settings
from companion.io import Key
from companion.journal import Journal
from companion.loop import Loop
from companion.ui.app import App


class GlitchyBus:
    """smbus2's write_i2c_block_data that fails with EREMOTEIO when told to."""

    def __init__(self, rnd: random.Random, rate: float):
        self.rnd, self.rate = rnd, rate
        self.failures = 0
        self.writes = 0

    def write_i2c_block_data(self, addr, control, data):
        if self.rnd.random() < self.rate:
            self.failures += 1
            raise OSError(121, "Remote I/O error")
        self.writes += 1


class LumaDisplay:
    """The minimal Display over a luma device (hardware/oled.py is the real one)."""

    def __init__(self, device):
        self.device = device

    def show(self, image):
        self.device.display(image)  # luma raises DeviceNotFoundError on EREMOTEIO: the loop copes

    def blank(self):
        self.device.hide()

    def set_contrast(self, level):
        self.device.contrast(level)

    def close(self):
        pass


def display_glitches(rounds: int, rnd: random.Random) -> dict:
    from hardware.partial import PartialSSD1306
    bus = GlitchyBus(rnd, 0.0)
    device = PartialSSD1306(i2c(bus=bus, address=0x3C))
    bus.rate = 0.05
    d = tempfile.mkdtemp(prefix="faults-")
    app = App(Journal(os.path.join(d, "j.db")), Settings(), rng=random.Random(1))
    loop = Loop(app, LumaDisplay(device), queue.Queue(), idle_blank_s=0)
    keys = [Key.DOWN, Key.OK, Key.OK] + [Key.OK] * rounds
    for k in keys:
        loop.step(k)
    bus.rate = 0.0
    loop.step(None)  # a quiet tick: redraw if the last frame failed
    recovered = loop.display_errors == 0
    app.journal.close()
    return {"display_errors_injected": bus.failures, "display_recovered": recovered,
            "presses_during_glitches": len(keys)}


def disk_faults() -> dict:
    d = tempfile.mkdtemp(prefix="faults-")
    app = App(Journal(os.path.join(d, "j.db")), Settings(), rng=random.Random(1))
    for k in (Key.DOWN, Key.OK, Key.OK):
        app.handle(k)
    session = app.top.session
    survived = 0
    for pragma, word in (("max_page_count={pages}", "full"), ("query_only=ON", "read-only")):
        db = app.journal._db
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        before = (len(session.state.rolls), app.journal.count())
        for _ in range(50):  # until a play is refused
            db.execute("PRAGMA " + pragma.format(pages=pages))
            app.handle(Key.OK)
            if app.top.title == "Not saved":
                break
            pages = db.execute("PRAGMA page_count").fetchone()[0]
            before = (len(session.state.rolls), app.journal.count())
        refused_plainly = app.top.title == "Not saved" and word in app.top.text
        unchanged = (len(session.state.rolls), app.journal.count()) == before
        app.handle(Key.OK)  # close the message
        db.execute("PRAGMA max_page_count=1073741823")
        db.execute("PRAGMA query_only=OFF")
        app.handle(Key.OK)
        works_again = len(session.state.rolls) == before[0] + 1
        survived += refused_plainly and unchanged and works_again
    app.journal.close()
    return {"disk_faults_injected": 2, "disk_faults_survived": survived}


def bad_journals() -> dict:
    from companion.cli import open_journal
    survived = 0
    cases = 0
    for content in (b"garbage" * 100, "sqlite-foreign"):
        cases += 1
        d = tempfile.mkdtemp(prefix="faults-")
        path = os.path.join(d, "companion", "journal.db")
        os.makedirs(os.path.dirname(path))
        if content == "sqlite-foreign":
            db = sqlite3.connect(path)
            db.execute("CREATE TABLE t(x)")
            db.commit()
            db.close()
        else:
            open(path, "wb").write(content)
        original = open(path, "rb").read()
        old = os.environ.get("XDG_STATE_HOME"), os.environ.get("STATE_DIRECTORY")
        os.environ["XDG_STATE_HOME"] = d
        os.environ.pop("STATE_DIRECTORY", None)
        stderr = sys.stderr
        sys.stderr = open(os.devnull, "w")
        try:
            j = open_journal(None)
            j.start_session("die", {})
            j.close()
        finally:
            sys.stderr.close()
            sys.stderr = stderr
            for key, value in zip(("XDG_STATE_HOME", "STATE_DIRECTORY"), old):
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
        aside = [f for f in os.listdir(os.path.dirname(path)) if ".bad-" in f and not f.endswith(("-wal", "-shm"))]
        kept = len(aside) == 1 and open(os.path.join(os.path.dirname(path), aside[0]), "rb").read() == original
        survived += kept
    return {"bad_journals_injected": cases, "bad_journals_kept_aside": survived}




def run(rounds: int, seed: int) -> dict:
    rnd = random.Random(seed)
    out: dict = {}
    out.update(display_glitches(rounds, rnd))
    out.update(disk_faults())
    out.update(bad_journals())
    injected = out["display_errors_injected"] + out["disk_faults_injected"] + out["bad_journals_injected"]
    survived = (out["display_errors_injected"] if out["display_recovered"] else 0) \
        + out["disk_faults_survived"] + out["bad_journals_kept_aside"]
    out.update({"faults_injected": injected, "faults_survived": survived})
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.faults", description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    r = run(a.rounds, a.seed)
    print(json.dumps(r))
    return 0 if r["faults_injected"] == r["faults_survived"] else 1


if __name__ == "__main__":
    sys.exit(main())
