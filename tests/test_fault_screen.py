"""The fault screen: a start-up that fails after the display is up says why on it."""
from __future__ import annotations

import sqlite3

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from luma.core.interface.serial import i2c

from companion import cli
from companion.ui.draw import Canvas
from companion.ui.widgets import Message

from .test_hw_oled import I2CRecorder, packed


@pytest.fixture
def board_on_recorder(monkeypatch):
    """The real open_board on gpiozero's MockFactory and a recording I2C bus."""
    import hardware.board
    old = Device.pin_factory
    Device.pin_factory = MockFactory()
    rec = I2CRecorder()
    real = hardware.board.open_board
    monkeypatch.setattr(hardware.board, "open_board",
                        lambda name, **kw: real(name, serial=i2c(bus=rec, address=0x3C), bounce_time=0, **kw))
    monkeypatch.setattr(cli, "FAULT_WAIT_S", 0)
    try:
        yield rec
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = old


def _expected(e) -> bytes:
    c = Canvas()
    Message(cli.fault_text(e)[1], title=cli.fault_text(e)[0]).render(c)
    return packed(c.image)


def test_a_journal_that_cannot_open_is_shown_on_the_display(tmp_path, board_on_recorder, capsys):
    other = tmp_path / "other.db"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE notes(x)")
    db.commit()
    db.close()
    rc = cli.main(["--board", "adafruit-oled-bonnet", "--journal", str(other),
                   "--config", str(tmp_path / "none.toml")])
    assert rc == 1
    err = capsys.readouterr().err
    assert "cannot start" in err and "another program" in err and "Traceback" not in err
    from companion.errors import NotAJournalError
    from companion.journal import Journal
    with pytest.raises(NotAJournalError) as info:
        Journal(str(other))
    cmds, data = board_on_recorder.take()
    assert _expected(info.value) in data  # the fault screen reached the display, pixel for pixel
    title, text = cli.fault_text(info.value)
    assert title == "Journal problem" and "OK retries" in text


def test_a_busy_journal_says_so_and_what_to_do():
    from companion.errors import JournalBusyError
    title, text = cli.fault_text(JournalBusyError("x is in use by another process"))
    assert title == "Journal busy" and "Close it" in text
    title, text = cli.fault_text(RuntimeError("boom"))
    assert title == "Cannot start" and "RuntimeError: boom" in text and "journalctl" in text
