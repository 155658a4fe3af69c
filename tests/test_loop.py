"""The app loop: one thread, one queue, idle blank, the waking press."""
import io
import queue
import threading
import time

from companion.io import Key
from companion.loop import STOP, Call, Loop
from hardware.sim import TerminalDisplay

from .screens_util import make_app


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_idle_blank_then_the_waking_press_does_nothing_else(tmp_path):
    app = make_app(tmp_path)
    out = io.StringIO()
    display = TerminalDisplay(out)
    clock = Clock()
    loop = Loop(app, display, queue.Queue(), idle_blank_s=300, clock=clock)
    loop.show()
    clock.t = 299
    loop.step(None)
    assert not loop.blanked
    clock.t = 301
    loop.step(None)
    assert loop.blanked and display.blanked
    loop.step(Key.DOWN)  # wakes only: the cursor does not move
    assert not loop.blanked and app.top.index == 0
    loop.step(Key.DOWN)
    assert app.top.index == 1


def test_unchanged_frame_is_not_redrawn(tmp_path):
    app = make_app(tmp_path)
    display = TerminalDisplay(io.StringIO())
    loop = Loop(app, display, queue.Queue(), idle_blank_s=0)
    loop.show()
    loop.show()
    assert display.frames_sent == 1
    loop.step(Key.DOWN)
    assert display.frames_sent == 2


def test_loop_runs_in_one_thread_fed_by_a_queue_and_stops(tmp_path):
    app = make_app(tmp_path)
    q = queue.Queue()
    beats = []
    loop = Loop(app, TerminalDisplay(io.StringIO()), q, idle_blank_s=0, tick_s=0.05,
                heartbeat=lambda: beats.append(1))
    t = threading.Thread(target=loop.run)
    t.start()
    for k in (Key.DOWN, Key.DOWN, Key.OK):  # History
        q.put(k)
    q.put(STOP)
    t.join(timeout=10)
    assert not t.is_alive()
    assert app.top.title == "History" and len(beats) >= 4


class FlakyDisplay(TerminalDisplay):
    """The simulator's display with an I2C-like glitch every other frame."""

    def __init__(self):
        super().__init__(io.StringIO())
        self.calls = 0

    def show(self, image):
        self.calls += 1
        if self.calls % 2:
            raise OSError(121, "Remote I/O error")
        super().show(image)


def test_display_glitch_does_not_stop_the_loop_and_the_screen_is_redrawn(tmp_path):
    app = make_app(tmp_path)
    d = FlakyDisplay()
    loop = Loop(app, d, queue.Queue(), idle_blank_s=0)
    loop.step(Key.DOWN)  # the frame fails
    assert loop.display_errors == 1 and d.frames_sent == 0
    loop.step(None)      # the next tick redraws
    assert loop.display_errors == 0 and d.frames_sent == 1


def test_other_threads_reach_the_app_only_through_calls_on_the_queue(tmp_path):
    from companion.loop import Call
    app = make_app(tmp_path)
    q = queue.Queue()
    loop = Loop(app, TerminalDisplay(io.StringIO()), q, idle_blank_s=0, tick_s=0.05)
    t = threading.Thread(target=loop.run)
    t.start()
    seen = Call(lambda a: threading.current_thread() is t)
    boom = Call(lambda a: 1 / 0)
    q.put(seen)
    q.put(boom)
    assert seen.future.result(timeout=5) is True
    try:
        boom.future.result(timeout=5)
        raise AssertionError("the exception should reach the caller")
    except ZeroDivisionError:
        pass
    q.put(STOP)
    t.join(timeout=5)
    assert not t.is_alive()


def test_warm_up_comes_after_the_first_frame_and_readies_the_games(tmp_path, monkeypatch):
    """Start-up is not slowed (the first frame goes out first); then the games'
    modules and their own slow starts (the Bag of Ice odds table, B-9) load, so
    no first press waits for them."""
    import sys
    from companion.games import boi_odds
    app = make_app(tmp_path)
    display = TerminalDisplay(io.StringIO())
    q = queue.Queue()
    loop = Loop(app, display, q, idle_blank_s=0, tick_s=0.05)
    monkeypatch.setattr(boi_odds, "_TABLE", None)
    frames_at_warm_up = []
    real = app.warm_up

    def watched():
        frames_at_warm_up.append(display.frames_sent)
        real()
    app.warm_up = watched
    q.put(STOP)
    loop.run()
    assert frames_at_warm_up == [1]
    assert boi_odds._TABLE is not None
    assert {"companion.ui.undercut", "companion.ui.bag_of_ice", "companion.ui.bottoms_up"} <= set(sys.modules)


def test_slow_preparation_runs_off_the_loop_thread_and_then_redraws(tmp_path):
    # a Bag of Ice turn is solved for the win after the frame, never in a press
    app = make_app(tmp_path)
    q = queue.Queue()
    display = TerminalDisplay(io.StringIO())
    loop = Loop(app, display, q, idle_blank_s=0, tick_s=0.05)
    started, release = threading.Event(), threading.Event()
    where = []

    def job():
        where.append(threading.current_thread().name)
        started.set()
        release.wait(5)

    t = threading.Thread(target=loop.run, name="loop")
    t.start()
    q.put(Call(lambda a: a.prepare(job)))
    assert started.wait(5)
    q.put(Key.DOWN)  # handled while the job still runs: the loop is not waiting on it
    deadline = time.monotonic() + 5
    while app.top.index != 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert app.top.index == 1
    release.set()
    q.put(STOP)
    t.join(timeout=10)
    assert where == ["companion-prepare"]


def test_a_preparation_s_then_runs_on_the_loop_thread_after_the_job(tmp_path):
    # "Search longer" searches on a worker thread; its verdict is pushed by the loop's thread
    app = make_app(tmp_path)
    q = queue.Queue()
    loop = Loop(app, TerminalDisplay(io.StringIO()), q, idle_blank_s=0, tick_s=0.05)
    seen = []
    done = threading.Event()

    def then(a):
        seen.append(("then", threading.current_thread().name, a is app))
        done.set()

    t = threading.Thread(target=loop.run, name="loop")
    t.start()
    q.put(Call(lambda a: a.prepare(lambda: seen.append(("job", threading.current_thread().name, None)), then)))
    assert done.wait(5)
    q.put(STOP)
    t.join(timeout=10)
    assert seen == [("job", "companion-prepare", None), ("then", "loop", True)]


def test_an_idle_device_checkpoints_the_journal(tmp_path):
    """After a minute without a press, journal.db alone holds every event."""
    import os

    from companion.journal import Journal
    from companion.loop import IDLE_CHECKPOINT_S
    app = make_app(tmp_path)
    path = app.journal.path
    clock = Clock()
    loop = Loop(app, TerminalDisplay(io.StringIO()), queue.Queue(), idle_blank_s=0, clock=clock)
    loop.show()
    for k in ("down", "ok", "ok", "ok", "ok"):  # a die: rolled by the device
        loop.step(Key.parse(k))
    n = app.journal.count()
    assert n >= 2 and os.path.getsize(path + "-wal") > 0
    clock.t = IDLE_CHECKPOINT_S - 1
    loop.step(None)
    assert os.path.getsize(path + "-wal") > 0
    clock.t = IDLE_CHECKPOINT_S + 1
    loop.step(None)
    assert os.path.getsize(path + "-wal") == 0
    alone = tmp_path / "alone.db"
    alone.write_bytes(open(path, "rb").read())
    with Journal(str(alone), read_only=True) as j:
        assert j.count() == n
