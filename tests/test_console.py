"""The console's line protocol, pure: no port, the app called directly
or through the app loop's queue."""
from __future__ import annotations

import json
import queue
import random
import threading
import time

import pytest

from companion.config import Settings
from companion.console import READ_ONLY, Console, braille, direct
from companion.loop import loop_runner, loop_waker
from companion.io import Key
from companion.journal import Journal
from companion.loop import Loop, STOP
from companion.records import parse_lines, replay
from companion.ui.app import App

from .test_export import clock, play_tally, tally  # noqa: F401  (fixture)


def make(read_only: bool = False):
    app = App(Journal(":memory:", clock=clock()), Settings(), rng=random.Random(5))
    return app, Console(direct(app), read_only=read_only)


def reply(console: Console, line: str) -> list[str]:
    out = console.handle(line)
    assert out and out[-1] == "" and all(out[:-1]), out   # status, non-empty body, empty end line
    assert out[0] == "OK" or out[0].startswith(("OK ", "ERR "))
    return out[:-1]


def test_help_lists_every_command():
    _, c = make()
    out = reply(c, "help")
    assert out[0] == "OK commands"
    for cmd in ("help", "status", "screen", "press", "games", "export", "events", "watch", "stop", "quit"):
        assert any(line.startswith(cmd) for line in out[1:]), cmd


def test_press_drives_the_app_and_status_reports_it():
    app, c = make()
    assert reply(c, "status")[1:] == ["screen: Pyramid Companion", "session: -", "player: -", "scores: -",
                                      "read-only: no"]
    out = reply(c, "press down, ok,ok")          # Tools > Pyramid die (spaces after commas are fine)
    assert out == ["OK pressed 3", "screen: Pyramid die"]
    assert app.top.session.game == "die"
    reply(c, "press ok")                          # roll
    st = reply(c, "status")
    assert st[2] == f"session: {app.top.session.id} die" and st[3] == "player: seat 1"
    assert len(app.top.session.state.rolls) == 1


def test_a_key_left_out_between_commas_presses_nothing():
    """"press up,,down" pressed two keys, the empty one skipped: a typo that
    drives the device on. It is refused whole, like an unknown key."""
    app, c = make()
    for line in ("press down,,ok", "press down, ,ok", "press ,down", "press down,"):
        out = reply(c, line)
        assert out[0].startswith("ERR an empty key"), (line, out)
    assert app.top.title == "Pyramid Companion" and app.top.index == 0  # nothing pressed
    assert reply(c, "press down ok")[0] == "OK pressed 2"  # spaces alone still separate keys


def test_press_reports_a_refusal_shown_on_the_screen():
    app, c = make()
    reply(c, "press down,ok,ok")                  # the die, no roll yet
    out = reply(c, "press hold-back")             # nothing to undo: a message, not a refusal error
    assert out[0] == "OK pressed 1"
    assert app.top.title == ""                    # the message screen


def test_screen_is_the_frame_in_braille():
    app, c = make()
    out = reply(c, "screen")
    assert out[0] == "OK screen" and len(out) == 17 and all(len(line) == 64 for line in out[1:])
    assert out[1:] == braille(app.frame())
    # the title bar is inverted: the first character cell row is mostly full dots
    assert out[1].count("\u28ff") >= 10
    img = app.frame()
    px = img.load()
    # one character <-> its 2x4 pixels (dot 1 is the top-left pixel)
    for cx, cy in ((0, 0), (10, 3), (40, 8)):
        ch = ord(out[1 + cy][cx]) - 0x2800
        assert bool(ch & 0x01) == bool(px[2 * cx, 4 * cy]) and bool(ch & 0x80) == bool(px[2 * cx + 1, 4 * cy + 3])


def test_games_export_and_events(tally):
    app, c = make()
    s = play_tally(app.journal, ["roll", "gain 2", "pass", "roll", "gain 3"])
    out = reply(c, "games")
    assert out == ["OK 1 games", f"#{s.id}  2026-05-01 12:00  Tally  Ann, Bob  won by Ann"]
    js = [json.loads(line) for line in reply(c, "games json")[1:]]
    assert js[0]["players"] == ["Ann", "Bob"] and js[0]["winners"] == ["Ann"] and js[0]["scores"] == [5, 0]
    rec = reply(c, f"export {s.id} json")
    assert rec[0] == f"OK export {s.id} json"
    assert replay(parse_lines(rec[1:])).to_json()["scores"] == [5, 0]
    assert rec[1:] == s.record_text().splitlines()
    csv_lines = reply(c, f"export {s.id} CSV")[1:]
    assert csv_lines[0] == "turn,seq,player,move,description,Ann,Bob" and len(csv_lines) == 3
    ev = reply(c, f"events {s.id} 4")
    assert ev[0] == "OK 2 events"
    assert [json.loads(line)["move"] for line in ev[1:]] == ["roll", "gain 3"]
    assert all(json.loads(line)["session"] == s.id for line in ev[1:])
    assert reply(c, f"events {s.id}")[0] == "OK 5 events"


@pytest.mark.parametrize("line, reason", [
    ("frobnicate", "unknown command 'frobnicate'"),
    ("press", "press needs keys"),
    ("press up,jump", "unknown key 'jump'"),
    ("press " + ",".join(["up"] * 65), "at most 64 keys"),
    ("status now", "status takes no arguments"),
    ("screen 2", "screen takes no arguments"),
    ("games all", "usage: games [json]"),
    ("export 1", "usage: export ID json|csv"),
    ("export 1 png", "usage: export ID json|csv"),
    ("export ../../etc/passwd json", "bad session id"),
    ("export 99 json", "no session 99"),
    ("events", "usage: events ID [SINCE]"),
    ("events 1 -3", "SINCE must be a seq number"),
    ("watch 1 2", "usage: watch [ID]"),
    ("watch 42", "no session 42"),
    ("sh -c ls", "unknown command 'sh'"),
])
def test_wrong_commands_get_err_and_change_nothing(line, reason):
    app, c = make()
    reply(c, "press down,ok,ok,ok")               # a die session with a roll
    before = (app.journal.count(), len(app.stack), app.top.session.state)
    out = reply(c, line)
    assert len(out) == 1 and out[0].startswith("ERR ") and reason in out[0], out
    assert (app.journal.count(), len(app.stack), app.top.session.state) == before
    assert not c.watching


def test_read_only_refuses_press_and_allows_reading():
    app, c = make(read_only=True)
    assert reply(c, "press down,ok") == ["ERR " + READ_ONLY]
    assert app.top.title == "Pyramid Companion" and app.journal.count() == 0
    assert reply(c, "status")[-1] == "read-only: yes"
    for line in ("help", "screen", "games", "watch"):
        assert reply(c, line)[0].startswith("OK")
        c.watching = False


def test_watch_streams_new_events_until_any_line(tally):
    app, c = make()
    s = play_tally(app.journal, ["roll"])
    assert reply(c, f"watch {s.id}") == [f"OK watching session {s.id}; send any line to stop"]
    assert c.poll() == []
    s.play("gain 2")
    s.play("pass")
    lines = [json.loads(line) for line in c.poll()]
    assert [(e["seq"], e["move"]) for e in lines] == [(3, "gain 2"), (4, "pass")]
    assert c.poll() == []
    assert reply(c, "anything at all") == ["OK stopped"]    # the line is not run as a command
    s.play("roll")
    assert c.poll() == [] and not c.watching


def test_watch_everything_includes_sessions_started_meanwhile(tally):
    app, c = make()
    s1 = play_tally(app.journal, [])
    reply(c, "watch")
    s1.play("pass")
    s2 = play_tally(app.journal, ["roll"])
    got = [json.loads(line) for line in c.poll()]
    assert [(e["session"], e["type"]) for e in got] == [(s1.number, "move"), (s2.number, "start"), (s2.number, "move")]
    assert got[1]["game"] == "tally" and got[1]["setup"]["players"] == ["Ann", "Bob"]
    assert reply(c, "stop") == ["OK stopped"]


def test_quit_and_bye_and_empty_lines():
    _, c = make()
    assert reply(c, "quit") == ["OK bye"] and reply(c, "BYE") == ["OK bye"]
    assert c.handle("") == [] and c.handle("   ") == []
    assert reply(c, "stop") == ["OK not watching"]


def test_own_output_echoed_back_is_ignored():
    """A host whose tty echoes (or a wire in loopback) sends our lines back:
    they must not be taken for commands (no ERR storm)."""
    _, c = make()
    out = c.handle("help")
    for line in out:
        assert c.handle(line) == []
    assert c.handle("ERR unknown command 'x' (try: help)") == []


def test_backspaces_typed_in_a_terminal_are_applied():
    _, c = make()
    assert reply(c, "stattus\x7f\x7f\x7fus")[0] == "OK status"
    assert reply(c, "hex\x08lp")[0] == "OK commands"


def test_a_bug_in_a_command_is_an_err_not_a_crash():
    def broken(fn, redraw=False):
        raise RuntimeError("boom")
    c = Console(broken)
    assert c.handle("status") == ["ERR internal error (RuntimeError)", ""]


# ---------------------------------------------------------------- through the loop


class FakeDisplay:
    def __init__(self):
        self.frames = 0
        self.blanks = 0

    def show(self, image):
        self.frames += 1

    def blank(self):
        self.blanks += 1

    def set_contrast(self, level):
        pass

    def close(self):
        pass


@pytest.fixture
def running_loop():
    app = App(Journal(":memory:"), Settings(), rng=random.Random(5))
    inputs: queue.Queue = queue.Queue()
    loop = Loop(app, FakeDisplay(), inputs, idle_blank_s=0, tick_s=0.05)
    t = threading.Thread(target=loop.run, daemon=True)
    t.start()
    yield loop
    inputs.put(STOP)
    t.join(timeout=2)


def test_console_through_the_loop_queue(running_loop):
    loop = running_loop
    c = Console(loop_runner(loop, timeout=2), wake=loop_waker(loop), read_only=False)
    assert c.handle("press down,ok,ok,ok")[:2] == ["OK pressed 4", "screen: Pyramid die"]
    assert loop.app.top.session.state.rolls                 # the roll happened on the loop thread
    assert c.handle("status")[3] == "player: seat 1"


def test_console_press_wakes_a_blanked_display_and_is_not_eaten():
    app = App(Journal(":memory:"), Settings(), rng=random.Random(5))
    inputs: queue.Queue = queue.Queue()
    now = [0.0]
    loop = Loop(app, FakeDisplay(), inputs, idle_blank_s=10, clock=lambda: now[0], tick_s=0.02)
    t = threading.Thread(target=loop.run, daemon=True)
    t.start()
    try:
        now[0] = 100.0
        deadline = time.monotonic() + 2
        while not loop.blanked and time.monotonic() < deadline:
            time.sleep(0.01)
        assert loop.blanked
        c = Console(loop_runner(loop, timeout=2), wake=loop_waker(loop), read_only=False)
        assert c.handle("press down")[:1] == ["OK pressed 1"]
        assert app.top.index == 1 and not loop.blanked   # the press acted and the display woke
        assert loop.last_input == 100.0
    finally:
        inputs.put(STOP)
        t.join(timeout=2)


def test_a_stuck_loop_gives_err_busy_and_the_call_is_cancelled():
    app = App(Journal(":memory:"), Settings())
    loop = Loop(app, FakeDisplay(), queue.Queue())           # never run
    c = Console(loop_runner(loop, timeout=0.1))
    assert c.handle("status") == ["ERR busy (the app did not answer)", ""]
    call = loop.inputs.get_nowait()
    assert call.future.cancelled()


def test_a_whole_bag_of_ice_game_through_press_then_csv_and_record():
    """A Bag of Ice game from the main menu to its winner, every key
    sent as a console `press` line; then the console's CSV export has a row per
    turn and its record replays to the scores the device shows."""
    from companion.ui.base import SessionScreen
    app, c = make()
    out = reply(c, "press " + "ok,down,ok,ok,ok,ok")  # New game, Bag of Ice, 3 players, names, defaults
    assert out[0] == "OK pressed 6"
    session = next(s.session for s in app.stack if isinstance(s, SessionScreen))
    assert session.game == "bag_of_ice" and session.setup["target"] == 60
    for _ in range(3000):
        st = session.state
        if st.is_terminal():
            break
        on_game = isinstance(app.top, SessionScreen)
        # On the turn screen: bank at 8 points or more (DOWN OK), else roll and draw (OK).
        # Anywhere else (roll-off, size choice, bank summary, bust screen): OK.
        keys = "down,ok" if on_game and st.phase == "decide" and st.turn_score() >= 8 else "ok"
        out = reply(c, f"press {keys}")
        assert out[0] == f"OK pressed {len(keys.split(','))}" and not any(x.startswith("refused") for x in out)
    st = session.state
    assert st.is_terminal() and max(st.scores()) >= 60  # B-6
    status = reply(c, "status")
    assert any("bag_of_ice" in line or "Bag of Ice" in line for line in status), status
    rec = reply(c, f"export {session.id} json")
    replayed = replay(parse_lines(rec[1:])).to_json()
    assert replayed["scores"] == list(st.scores()) and replayed["outcome"]["winners"] == list(st.outcome().winners)
    rows = reply(c, f"export {session.id} csv")[1:]
    header, n = rows[0].split(","), st.n
    assert n == 3 and header[-n:] == ["P1", "P2", "P3"]
    last = rows[-1].split(",")
    assert [int(x) for x in last[-n:]] == list(st.scores())  # the running totals end at the final scores
    busts = sum(t.bust for t in st.history)
    assert len(rows) - 1 == len(st.history) and busts > 0  # a row per turn, busts included (B-4)
    assert sum(",bust" in r or "bust" in r.split(",")[4] for r in rows[1:]) >= busts


def test_f3_bottoms_up_secrets_never_leave_over_the_console_before_the_end():
    """BU-3: events, export json and watch hide a secret colour while the game is on."""
    app, console = make(read_only=True)
    sid = app.journal.start_session("bottoms_up", {"players": ["A", "B"], "secret": "device"})
    assert reply(console, "watch")[0].startswith("OK watching")
    app.journal.append(sid, "move", {"move": "secret R"})
    watched = "\n".join(console.poll())
    assert "secret ?" in watched and "secret R" not in watched
    console.handle("stop")
    shown = "\n".join(reply(console, f"events {sid}"))
    assert "secret ?" in shown and "secret R" not in shown
    assert reply(console, f"export {sid} json")[0].startswith("ERR ")
    app.journal.append(sid, "end", {"reason": "over"})
    assert "secret R" in "\n".join(reply(console, f"events {sid}"))  # over: nothing is hidden any more
    assert "secret R" in "\n".join(reply(console, f"export {sid} json"))


def test_secrets_of_a_damaged_game_stay_hidden_while_it_goes_on_as_a_new_session_V1(tmp_path):
    """RULINGS V-1: a damaged Bottoms Up game
    goes on as a new session and the damaged one gets an ``end`` event past its damage.
    That end is not the game's: its secret colors stay hidden in both sessions."""
    from companion.session import Session
    path = str(tmp_path / "j.db")
    j = Journal(path)
    s = Session.start(j, "bottoms_up", {"players": ["A", "B", "C", "D"], "secret": "device", "stash": 1},
                      random.Random(3))
    for _ in range(3):
        s.play(s.state.legal_moves()[0])
    j.close()
    data = bytearray(open(path, "rb").read())
    i = data.rindex(b'"move":"place ')
    data[i + 8] = ord("P")  # the last placement's stored text is damaged
    open(path, "wb").write(bytes(data))
    j = Journal(path)
    (c,) = j.continue_damaged()
    assert j.session(s.id).ended and j.session(s.id).damaged
    app = App(j, Settings(), rng=random.Random(5))
    console = Console(direct(app), read_only=True)
    for sid in (j.number(s.id), j.number(c.session)):
        assert reply(console, f"export {sid} json")[0].startswith("ERR "), sid
        shown = "\n".join(reply(console, f"events {sid}"))
        assert "secret ?" in shown and '"secret ' not in shown.replace('"secret ?"', ""), sid
