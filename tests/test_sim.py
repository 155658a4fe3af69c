"""The simulator: headless keys and a real pty session; kill-and-resume."""
import os
import random
import signal

import pytest
from PIL import Image

from companion.cli import main
from companion.journal import Journal
from companion.session import Session
from hardware.sim import braille, decode_keys
from companion.io import Key

from .ptyrun import PtyCompanion


def test_headless_keys_screenshot_and_text(tmp_path, capsys):
    shot = tmp_path / "die.png"
    assert main(["sim", "--journal", str(tmp_path / "j.db"), "--seed", "1",
                 "--keys", "down,ok,ok,ok", "--screenshot", str(shot), "--text"]) == 0
    img = Image.open(shot)
    assert img.size == (128, 64)
    text = capsys.readouterr().out
    assert len(text.splitlines()) == 32 and "\u2588" in text
    j = Journal(str(tmp_path / "j.db"))
    (info,) = j.sessions()
    assert info.game == "die" and [e.data["move"] for e in j.events(info.id)][0] == "roll"


def test_unknown_key_name_is_refused_with_a_message(tmp_path, capsys):
    assert main(["sim", "--journal", str(tmp_path / "j.db"), "--keys", "up,jump"]) == 2
    err = capsys.readouterr().err
    assert "unknown key 'jump'" in err and "hold-back" in err
    assert not (tmp_path / "j.db").exists() or Journal(str(tmp_path / "j.db")).count() == 0


def test_terminal_key_decoding():
    keys, rest = decode_keys(b"\x1b[A\x1b[Bx\r\x7fob\x1b[D\x1b[Cq")
    assert keys == [Key.UP, Key.DOWN, Key.OK, Key.BACK, Key.HOLD_OK, Key.HOLD_BACK, Key.LEFT, Key.RIGHT, None]
    assert rest == b""
    keys, rest = decode_keys(b"\x1b[")
    assert keys == [] and rest == b"\x1b["


def test_braille_maps_every_pixel():
    img = Image.new("1", (128, 64), 0)
    img.putpixel((0, 0), 1)
    img.putpixel((127, 63), 1)
    lines = braille(img)
    assert len(lines) == 16 and all(len(l) == 64 for l in lines)
    assert lines[0][0] == chr(0x2801) and lines[15][63] == chr(0x2880)
    assert sum(ch != chr(0x2800) for l in lines for ch in l) == 2


def _env(tmp_path):
    return {"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
            "COMPANION_CONFIG": ""}


def test_interactive_simulator_in_a_pty(tmp_path):
    c = PtyCompanion("sim", "--journal", str(tmp_path / "j.db"), "--seed", "3", env=_env(tmp_path))
    try:
        assert c.read_until_frames(1) >= 1
        c.press(b"\x1b[B")   # down: Tools
        c.press(b"\r")       # Tools menu
        c.press(b"\r")       # Pyramid die
        c.press(b"\r")       # roll
        assert "Pyramid die" not in c.last_frame()  # the frame is drawn in braille
        os.write(c.master, b"q")
        c.proc.wait(timeout=10)
        assert c.proc.returncode == 0
    finally:
        c.close()
    j = Journal(str(tmp_path / "j.db"))
    (info,) = j.sessions()
    assert [e.data["move"] for e in j.events(info.id)][0] == "roll"


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_sigkill_mid_session_loses_no_confirmed_event(tmp_path, seed):
    """Every event whose frame was drawn is in the journal after a SIGKILL."""
    path = str(tmp_path / "j.db")
    rnd = random.Random(seed)
    c = PtyCompanion("sim", "--journal", path, "--seed", str(seed), env=_env(tmp_path))
    try:
        c.read_until_frames(1)
        for key in (b"\x1b[B", b"\r", b"\r"):
            c.press(key)
        confirmed = 0
        for _ in range(rnd.randint(3, 12)):
            c.press(b"\r")  # roll; the frame comes after the commit
            confirmed += 1
        os.write(c.master, b"\r" * rnd.randint(0, 3))  # unconfirmed presses in flight
        os.kill(c.proc.pid, signal.SIGKILL)
        c.proc.wait(timeout=10)
    finally:
        c.close()
    j = Journal(path)
    assert j.integrity() == "ok"
    (info,) = j.sessions()
    s = Session.resume(j, info.id, random.Random())
    assert len(s.state.rolls) >= confirmed
    j.close()
    # Restart: the main menu offers Resume first, and it opens the die with its rolls.
    assert main(["sim", "--journal", path, "--keys", "ok", "--text"]) == 0
    j = Journal(path)
    assert len(j.sessions()) == 1  # resumed, not a new session


@pytest.mark.parametrize("name", ["nonexistent/x.png", "x.foo"])
def test_f7_a_bad_screenshot_path_is_one_line(tmp_path, capsys, name):
    """--screenshot to a missing folder or an unknown format: a message, not a traceback."""
    from companion.cli import main
    assert main(["sim", "--keys", "", "--journal", str(tmp_path / "j.db"),
                 "--screenshot", str(tmp_path / name)]) != 0
    err = capsys.readouterr().err
    assert "cannot save the screenshot" in err and "Traceback" not in err


@pytest.mark.parametrize("keys", ["ok,,ok", "ok,", ",ok", "ok, ,down"])
def test_an_empty_key_name_is_refused_like_an_unknown_one(tmp_path, capsys, keys):
    """``ok,,ok`` pressed two keys silently; an empty name is refused."""
    assert main(["sim", "--journal", str(tmp_path / "j.db"), "--keys", keys]) == 2
    err = capsys.readouterr().err
    assert "empty key name" in err and "hold-back" in err
    assert not (tmp_path / "j.db").exists() or Journal(str(tmp_path / "j.db")).count() == 0


def test_spaces_separate_keys_too(tmp_path):
    from hardware.sim import parse_key_list
    assert parse_key_list("down ok, hold-ok release") == [Key.DOWN, Key.OK, Key.HOLD_OK, Key.RELEASE]
    assert parse_key_list("") == parse_key_list("  ") == []


def test_a_terminal_too_small_for_the_frame_is_told_the_size_it_needs():
    """At 40 x 10 every line of the 66-column frame wrapped and scrolled:
    nothing was readable. The simulator says the size it needs instead."""
    import io

    from hardware.sim import NEED_COLS, NEED_ROWS, TerminalDisplay
    out = io.StringIO()
    d = TerminalDisplay(out)
    d.size = lambda: (40, 10)  # type: ignore[method-assign]
    d.show(Image.new("1", (128, 64), 1))
    text = out.getvalue()
    assert f"needs a terminal of {NEED_COLS} x {NEED_ROWS}" in " ".join(text.split())
    assert all(len(line) <= 40 for line in text.split("\r\n"))
    d.size = lambda: (80, 24)  # type: ignore[method-assign]
    out.truncate(0)
    d.redraw()  # a resize (or Ctrl-L) draws the last frame again
    assert chr(0x28FF) in out.getvalue() and "r=release" in out.getvalue()
    out.truncate(0)
    d.blank()
    assert "any key wakes it" in out.getvalue()  # an empty box looked like a hang


def test_a_terminal_without_utf8_is_told_why_nothing_shows():
    import io

    from hardware.sim import needs_utf8
    assert "UTF-8" in needs_utf8(io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    assert needs_utf8(io.TextIOWrapper(io.BytesIO(), encoding="utf-8")) is None


def test_an_arrow_key_split_across_two_reads_is_still_an_arrow():
    """Over ssh or tmux "\\x1b" and "[B" can come in two reads; the lone
    Esc was taken for BACK. It waits for the rest (a lone Esc is BACK once the
    reader's wait runs out)."""
    keys, rest = decode_keys(b"\x1b")
    assert keys == [] and rest == b"\x1b"
    keys, rest = decode_keys(rest + b"[B")
    assert keys == [Key.DOWN] and rest == b""
    keys, _ = decode_keys(b"\x1b" + b"\x00")  # what the reader does when nothing followed
    assert keys == [Key.BACK]


def test_the_simulator_redraws_when_the_terminal_is_resized(tmp_path):
    import fcntl
    import struct
    import termios
    c = PtyCompanion("sim", "--journal", str(tmp_path / "j.db"), "--seed", "3", env=_env(tmp_path))
    try:
        assert c.read_until_frames(1) == 1
        fcntl.ioctl(c.master, termios.TIOCSWINSZ, struct.pack("HHHH", 10, 40, 0, 0))
        assert c.read_until_frames(2) == 2  # drawn again for the new size: too small, said so
        assert "needs a terminal" in " ".join(c.last_frame().split())
        fcntl.ioctl(c.master, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        assert c.read_until_frames(3) == 3
        assert chr(0x2800) in c.last_frame()  # the frame again, in braille
        os.write(c.master, b"q")
        c.proc.wait(timeout=10)
    finally:
        c.close()


def test_the_page_address_is_written_under_the_frame_without_a_new_frame():
    """The scoreboard page's address: written in its line under the frame when the
    page comes up after the first frame (no frame drawn again), and with every frame after."""
    import io
    from PIL import Image
    from hardware.sim import TerminalDisplay
    out = io.StringIO()
    d = TerminalDisplay(out)
    d.show(Image.new("1", (128, 64)))
    before = out.getvalue()
    d.set_footer("Scoreboard page: http://127.0.0.1:8032/abc/")
    added = out.getvalue()[len(before):]
    assert "http://127.0.0.1:8032/abc/" in added and "\x1b[2J" not in added and d.frames_sent == 1
    d.show(Image.new("1", (128, 64), 1))
    assert out.getvalue().rstrip().endswith("Scoreboard page: http://127.0.0.1:8032/abc/")
