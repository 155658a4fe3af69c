"""Console control: read-only by default; pressing buttons needs
the players' OK on the device (pair) or an explicit setting; bad serial
settings and a port that never opens are reported in one line."""
from __future__ import annotations

import random

import serial

from companion import config
from companion.console import READ_ONLY, Console, direct
from companion.journal import Journal
from companion.ui.app import App
from companion.ui.widgets import Confirm
from hardware.serial_console import SerialConsole


def make(tmp_path):
    app = App(Journal(str(tmp_path / "j.db")), rng=random.Random(1))
    app.home()
    return app, Console(direct(app))  # the defaults: read-only


def test_read_only_by_default_in_the_settings_and_the_console():
    assert config.Settings().read_only is True
    assert Console(lambda fn, redraw=False: fn(None)).read_only is True


def test_pairing_needs_a_player_to_choose_allow_on_the_device(tmp_path):
    app, c = make(tmp_path)
    assert c.handle("press down") == ["ERR " + READ_ONLY, ""]
    reply = c.handle("pair")
    assert reply[0].startswith("OK pairing") and isinstance(app.top, Confirm)
    assert app.top.index == 0  # Refuse is preselected: a stray OK refuses
    # the console cannot answer its own prompt
    assert c.handle("press down,ok") == ["ERR " + READ_ONLY, ""]
    assert isinstance(app.top, Confirm)
    from companion.io import Key
    app.handle(Key.DOWN)  # a player, on the device
    app.handle(Key.OK)
    assert c.paired and c.handle("status")[-2] == "read-only: no (paired)"
    assert c.handle("press down")[0] == "OK pressed 1"
    assert c.handle("unpair") == ["OK control: read-only", ""]
    assert c.handle("press down") == ["ERR " + READ_ONLY, ""]


def test_refusing_on_the_device_keeps_the_console_read_only(tmp_path):
    from companion.io import Key
    app, c = make(tmp_path)
    c.handle("pair")
    app.handle(Key.OK)  # Refuse
    assert not c.paired and c.handle("press ok") == ["ERR " + READ_ONLY, ""]


def test_a_new_link_drops_the_pairing(tmp_path):
    app, c = make(tmp_path)
    c.paired = True
    sc = SerialConsole("loop://", c, backoff=(0.01, 0.02))
    sc._open()
    try:
        assert not c.paired
    finally:
        sc._close_port()


def test_a_bad_baud_is_refused_and_replaced_by_the_default_on_the_device(tmp_path):
    p = tmp_path / "companion.toml"
    p.write_text("serial_baud = -5\n")
    try:
        config.load(str(p))
    except config.ConfigError as e:
        assert "serial_baud" in str(e)
    else:
        raise AssertionError("a baud of -5 was accepted")
    settings, _path, problems = config.load_lenient(str(p))
    assert settings.serial_baud == 115200 and any("serial_baud" in m for m in problems)


def test_a_port_that_never_opens_is_reported_once_not_per_retry(tmp_path, capsys):
    app, c = make(tmp_path)

    def never(*a, **kw):
        raise serial.SerialException("could not open port /dev/ttyNOPE")
    sc = SerialConsole("/dev/ttyNOPE", c, opener=never, backoff=(0.001, 0.002))
    for _ in range(12):
        try:
            sc._open()
        except serial.SerialException as e:
            sc._fail(e)
    err = capsys.readouterr().err.strip().splitlines()
    assert 1 <= len(err) <= 3 and all("cannot open /dev/ttyNOPE" in line and "retrying" in line for line in err)
