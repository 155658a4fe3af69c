"""The systemd unit: systemd-analyze verify (where the tool exists), the
settings the device needs, and the offline security exposure."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parent.parent / "systemd" / "companion.service"
PAGE_UNIT = UNIT.parent / "companion-page.service"
README = UNIT.parent / "README.md"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")


def settings(unit: Path = UNIT) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in unit.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "[")):
            k, _, v = line.partition("=")
            out.setdefault(k, []).append(v)
    return out


def test_unit_has_the_settings_the_device_needs():
    s = settings()
    one = {k: v[-1] for k, v in s.items()}
    assert one["Type"] == "notify" and one["NotifyAccess"] == "main"
    assert one["User"] == "companion"
    assert set(one["SupplementaryGroups"].split()) == {"gpio", "i2c", "spi", "dialout"}
    assert one["StateDirectory"] == "companion"
    assert one["WorkingDirectory"] == "%S/companion"  # the state directory: writable, for lgpio's FIFO
    assert one["Restart"] == "on-failure" and int(one["RestartSec"]) >= 2
    # never give up after N restarts; retry with a delay instead
    assert one["StartLimitIntervalSec"] == "0" and "StartLimitBurst" not in one and int(one["RestartSec"]) >= 10
    assert int(one["WatchdogSec"]) >= 10
    assert one["ExecStart"] == "/opt/companion/.venv/bin/companion --board ${COMPANION_BOARD}"
    assert one["EnvironmentFile"] == "-/etc/companion/companion.env"
    assert one["NoNewPrivileges"] == "yes" and one["RestrictAddressFamilies"] == "AF_UNIX"
    assert one["DevicePolicy"] == "closed"
    allowed = " ".join(s["DeviceAllow"])
    for dev in ("char-i2c", "char-spi", "char-gpiochip", "/dev/gpiomem", "/dev/ttyGS0", "/dev/serial0"):
        assert dev in allowed
    assert one["WantedBy"] == "multi-user.target"


@needs_analyze
def test_systemd_analyze_verify(tmp_path):
    """verify checks the ExecStart binary exists; /opt/companion is not installed
    here, so a copy points ExecStart at /bin/true and must verify cleanly, and the
    real unit may only complain about that binary."""
    copy = tmp_path / "companion.service"
    copy.write_text(re.sub(r"^ExecStart=.*$", "ExecStart=/bin/true", UNIT.read_text(), flags=re.M))
    p = subprocess.run([ANALYZE, "verify", str(copy)], capture_output=True, text=True, timeout=60)
    ours = [line for line in (p.stdout + p.stderr).splitlines() if "companion" in line]
    assert p.returncode == 0 and ours == [], p.stdout + p.stderr
    real = tmp_path / "real" / "companion.service"
    real.parent.mkdir()
    real.write_text(UNIT.read_text())
    p = subprocess.run([ANALYZE, "verify", str(real)], capture_output=True, text=True, timeout=60)
    ours = [line for line in (p.stdout + p.stderr).splitlines() if "companion" in line]
    assert all("/opt/companion/.venv/bin/companion" in line and "not executable" in line for line in ours), ours


@needs_analyze
@pytest.mark.parametrize("unit", [UNIT, PAGE_UNIT], ids=lambda u: u.name)
def test_security_exposure_is_at_most_1(tmp_path, unit):  # every unit that runs a process
    p = subprocess.run([ANALYZE, "security", "--offline=yes", str(unit)], capture_output=True, text=True,
                       timeout=60)
    m = re.search(rf"Overall exposure level for {re.escape(unit.name)}: ([0-9.]+)", p.stdout + p.stderr)
    if m is None:
        pytest.skip("this systemd-analyze has no offline security check")
    assert float(m.group(1)) <= 1.0


@needs_analyze
def test_the_page_unit_verifies(tmp_path):
    copy = tmp_path / "companion-page.service"
    text = re.sub(r"^(ExecStart|ExecCondition)=.*$", r"\1=/bin/true", PAGE_UNIT.read_text(), flags=re.M)
    copy.write_text(text)
    (tmp_path / "companion.service").write_text(
        re.sub(r"^ExecStart=.*$", "ExecStart=/bin/true", UNIT.read_text(), flags=re.M))
    p = subprocess.run([ANALYZE, "verify", str(copy)], capture_output=True, text=True, timeout=60)
    ours = [line for line in (p.stdout + p.stderr).splitlines() if "companion" in line]
    assert p.returncode == 0 and ours == [], p.stdout + p.stderr


def test_nothing_listens_but_the_page_unit_and_it_reads_the_settings():
    """No socket unit listens whatever the settings say; the page is a unit of
    its own that binds where the settings say, and is skipped when web = "off"."""
    shipped = sorted(x.name for x in UNIT.parent.iterdir())
    assert not [x for x in shipped if x.endswith(".socket")], shipped
    dev = {k: v[-1] for k, v in settings().items()}
    assert dev["PrivateNetwork"] == "yes" and dev["RestrictAddressFamilies"] == "AF_UNIX"
    assert dev["Wants"] == "companion-page.service" and "companion.socket" not in UNIT.read_text()
    assert dev["Environment"] and "COMPANION_PAGE_SOCKET=%t/companion/page.sock" in settings()["Environment"]
    page = {k: v[-1] for k, v in settings(PAGE_UNIT).items()}
    assert page["ExecCondition"].endswith("-m hardware.web_child --enabled")
    assert page["ExecStart"].endswith("-m hardware.web_child --connect %t/companion/page.sock")
    assert page["BindsTo"] == "companion.service" and page["User"] == "companion"
    assert page["IPAddressDeny"] == "any" and "192.168.0.0/16" in page["IPAddressAllow"]
    assert page["PrivateDevices"] == "yes" and "SupplementaryGroups" not in page


@pytest.mark.parametrize("web, code", [("off", 1), ("auto", 0), ("127.0.0.1", 0)])
def test_the_page_units_condition_follows_the_web_setting(tmp_path, web, code):
    import os
    import sys
    cfg = tmp_path / "companion.toml"
    cfg.write_text(f'web = "{web}"\n')
    root = str(UNIT.parent.parent)
    env = {**os.environ, "COMPANION_CONFIG": str(cfg), "PYTHONPATH": root}
    p = subprocess.run([sys.executable, "-m", "hardware.web_child", "--enabled"], env=env, cwd=str(tmp_path),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == code, p.stderr


def test_under_the_units_the_page_listens_at_the_settings_address_only(tmp_path, monkeypatch):
    """The device's unit (COMPANION_PAGE_SOCKET) and the page's (web_child --connect), as
    systemd starts them: web = an address means that address, on web_port."""
    import http.client
    import os
    import random
    import socket
    import sys
    from companion.config import Settings
    from companion.journal import Journal
    from companion.ui.app import App
    from hardware.web_server import PageService
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    path = str(tmp_path / "page.sock")
    monkeypatch.setenv("COMPANION_PAGE_SOCKET", path)
    j = Journal(str(tmp_path / "j.db"))
    app = App(j, Settings(web="127.0.0.1", web_port=port, web_secret="a" * 16), rng=random.Random(1))
    app.save_settings = lambda settings: None  # type: ignore[method-assign]
    page = PageService(app, simulator=False)
    page.server.start()
    root = str(UNIT.parent.parent)
    child = subprocess.Popen([sys.executable, "-m", "hardware.web_child", "--connect", path],
                             env={**os.environ, "PYTHONPATH": root}, cwd=str(tmp_path))
    try:
        assert page.server.started.wait(30), page.server.last_error
        assert os.stat(path).st_mode & 0o077 == 0  # only the service's user may connect
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("GET", f"/{'a' * 16}/state.json")
        assert c.getresponse().status == 200
        other = socket.socket()
        other.settimeout(2)
        with pytest.raises(OSError):  # 127.0.0.2 is this machine too, but not the address set
            other.connect(("127.0.0.2", port))
        other.close()
    finally:
        page.close()
        child.wait(10)
        j.close()


def test_readme_covers_install_from_a_fresh_pi():
    text = README.read_text()
    for needle in ("useradd", "gpio,i2c,spi,dialout", "/opt/companion", "./run setup",
                   "systemctl enable --now companion", "/etc/companion/companion.env", "journalctl -u companion",
                   "raspi-config", "companion doctor"):
        assert needle in text, needle
