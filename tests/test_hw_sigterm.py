"""SIGTERM in a child process running the board the way ``companion --board``
does (board opened, app loop running, SIGTERM puts STOP on the queue): the
display is blanked on the bus, the buttons are released, the journal closed."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHILD = textwrap.dedent("""
    import json, queue, signal, sys
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory
    from luma.core.interface.serial import i2c
    from companion.loop import Loop, STOP
    from hardware.board import open_board
    sys.path.insert(0, {root!r})
    from tests.screens_util import make_app
    import pathlib

    log = open({log!r}, "w", buffering=1)

    class Bus:  # what luma's i2c calls on smbus2; each transfer goes to the log
        def write_i2c_block_data(self, addr, control, data):
            log.write(json.dumps([control, list(data)]) + "\\n")

    Device.pin_factory = MockFactory()
    inputs = queue.Queue()
    app = make_app(pathlib.Path({tmp!r}))
    board = open_board("adafruit-oled-bonnet", post=inputs.put, serial=i2c(bus=Bus(), address=0x3C))
    loop = Loop(app, board.display, inputs, idle_blank_s=0, tick_s=0.05)
    signal.signal(signal.SIGTERM, lambda s, f: inputs.put(STOP))
    log.write('"running"\\n')
    try:
        loop.run()
    finally:
        board.close()
        app.journal.close()
        try:
            app.journal.count()
            journal_closed = False
        except Exception:  # sqlite3.ProgrammingError: cannot operate on a closed database
            journal_closed = True
        log.write(json.dumps({{"buttons_closed": board.buttons.closed, "journal_closed": journal_closed}}) + "\\n")
        log.write('"exit"\\n')
""")


def test_sigterm_blanks_the_display_and_releases_everything(tmp_path):
    log = tmp_path / "bus.log"
    code = CHILD.format(root=ROOT, log=str(log), tmp=str(tmp_path))
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=str(tmp_path), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        import time
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if log.exists() and '"running"' in log.read_text():
                break
            if proc.poll() is not None:
                break
            time.sleep(0.05)
        time.sleep(0.3)  # the loop's first frame
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines[-1] == "exit"
    status = lines[-2]
    assert status == {"buttons_closed": True, "journal_closed": True}
    transfers = [t for t in lines if isinstance(t, list)]
    running_at = lines.index("running")
    after = [t for t in lines[running_at:] if isinstance(t, list)]
    assert any(control == 0x40 for control, _ in after)        # a frame was shown
    assert transfers[-1] == [0x00, [0xAE]]                    # and the last thing on the bus: display off
