"""Faults the app must survive without losing or inventing anything."""
import queue
import threading
import time

from companion.io import Key
from companion.loop import Call, Loop, STOP

from .screens_util import make_app, press
from .test_loop import FlakyDisplay


def fill_disk(app) -> None:
    """Stand-in for a full disk: SQLite may not grow the file any more."""
    db = app.journal._db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count={pages}")


def test_disk_full_refuses_the_play_plainly_and_keeps_state(tmp_path):
    app = make_app(tmp_path)
    press(app, "down,ok,ok")  # the die
    session = app.top.session
    for _ in range(200):  # fill the last pages with real rolls first
        try:
            fill_disk(app)
            session.play("roll")
        except Exception:
            break
    rolls_before = len(session.state.rolls)
    events_before = app.journal.count()
    press(app, "ok")
    assert app.top.title == "Not saved" and "full" in app.top.text
    assert len(session.state.rolls) == rolls_before and app.journal.count() == events_before
    # space comes back: play goes on
    app.journal._db.execute("PRAGMA max_page_count=1073741823")
    press(app, "ok,ok")
    assert len(session.state.rolls) == rolls_before + 1


def test_read_only_journal_refuses_plainly(tmp_path):
    app = make_app(tmp_path)
    press(app, "down,ok,ok")
    session = app.top.session
    app.journal._db.execute("PRAGMA query_only=ON")
    press(app, "ok")
    assert app.top.title == "Not saved" and "read-only" in app.top.text
    assert session.state.rolls == () and app.journal.events(session.id) == []


def test_a_stuck_loop_stops_the_watchdog_pings(tmp_path):
    app = make_app(tmp_path)
    q: queue.Queue = queue.Queue()
    beats: list[float] = []
    loop = Loop(app, FlakyDisplay(), q, idle_blank_s=0, tick_s=0.02, heartbeat=lambda: beats.append(time.monotonic()))
    t = threading.Thread(target=loop.run, daemon=True)
    t.start()
    time.sleep(0.2)
    assert len(beats) >= 3  # healthy: pings
    release = threading.Event()
    q.put(Call(lambda a: release.wait(5)))  # the loop hangs in a handler
    time.sleep(0.1)
    n = len(beats)
    time.sleep(0.3)
    assert len(beats) == n  # stuck: no pings, so systemd's watchdog fires
    release.set()
    time.sleep(0.2)
    assert len(beats) > n  # healthy again
    q.put(STOP)
    t.join(timeout=5)
