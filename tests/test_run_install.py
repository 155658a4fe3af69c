"""`sudo ./run install [--board NAME]` and `sudo ./run uninstall`:
systemd/README.md's manual steps in one command, idempotent. The real ./run
runs on a copy of the tree with the system stubbed as in test_run_setup.py:
apt-get, useradd, usermod, userdel, getent, systemctl and runuser are small
shell scripts keeping their state in files, and every path ./run install
writes is under RUN_ROOT (a temporary directory standing for /)."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from tests.test_run_setup import RASPBERRY_PI_OS, Machine

BOARDS = ["adafruit-oled-bonnet", "waveshare-oled-hat-1.3", "diy", "diy-sh1106"]
UNITS = ["companion.service", "companion-page.service"]
ANALYZE = shutil.which("systemd-analyze")


def pi(tmp_path: Path) -> Machine:
    """A Raspberry Pi OS on a Pi, as root (sudo ./run ...)."""
    return Machine(tmp_path, arch="aarch64", archive=RASPBERRY_PI_OS + ["i2c-tools"], pi=True, uid=0, headers=True)


def snapshot(root: Path) -> dict[str, tuple]:
    """Every file and directory under ``root``: mode, owner and content."""
    out = {}
    for p in sorted(root.rglob("*")):
        st = p.lstat()
        digest = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else None
        out[str(p.relative_to(root))] = (stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid, st.st_mtime_ns, digest)
    return out


def acts(m: Machine, start: int = 0) -> list[str]:
    """What ./run did to the system from log line ``start`` on (queries left out)."""
    return [line for line in m.log[start:] if not re.match(r"systemctl (is-active|is-enabled)", line)]


def test_install_does_the_eight_steps(tmp_path):
    m = pi(tmp_path)
    r = m.run("install", "--board", "waveshare-oled-hat-1.3")
    assert r.returncode == 0, r.stderr
    app, root = m.root / "opt/companion", m.root
    # 1. apt: the I2C tools (and setup's Pi backends)
    assert ["i2c-tools"] in m.apt_installs()
    # 2. the tree in /opt/companion: root's, 0644 and 0755 for what is executable
    for rel, mode in [("run", 0o755), ("pyproject.toml", 0o644), ("hardware/boards.toml", 0o644),
                      ("systemd/companion.service", 0o644)]:
        st = (app / rel).stat()
        assert stat.S_IMODE(st.st_mode) == mode and st.st_uid == os.getuid(), rel
        assert (app / rel).read_bytes() == (m.tree / rel).read_bytes()
    assert stat.S_IMODE((app / "systemd").stat().st_mode) == 0o755
    # 3. ./run setup there
    assert (app / ".venv/bin/companion").exists() and m.lock_install() is not None
    # 4. the system user, in the four device groups
    log = m.log
    assert "useradd --system --home-dir /var/lib/companion --no-create-home --shell /usr/sbin/nologin " \
           "--user-group companion" in log
    assert "usermod -aG gpio,i2c,spi,dialout companion" in log
    # 5. the board in the env file
    env = root / "etc/companion/companion.env"
    assert env.read_text() == "COMPANION_BOARD=waveshare-oled-hat-1.3\n"
    assert stat.S_IMODE(env.stat().st_mode) == 0o644 and env.stat().st_uid == os.getuid()
    # 6. doctor as that user, before anything is enabled
    doctor = log.index("companion doctor --board waveshare-oled-hat-1.3")
    assert log[doctor - 1] == "runuser companion in /tmp"
    enable = log.index("systemctl enable --quiet companion.service")
    assert doctor < enable
    # 7. the two units, as they are in the tree, 0644
    for u in UNITS:
        f = root / "etc/systemd/system" / u
        assert f.read_bytes() == (m.tree / "systemd" / u).read_bytes()
        assert stat.S_IMODE(f.stat().st_mode) == 0o644 and f.stat().st_uid == os.getuid()
    # 8. daemon-reload, enable, start
    assert log.index("systemctl daemon-reload") < enable < log.index("systemctl restart companion.service")
    # what it did and how to undo it
    assert "done:" in r.stderr and "undo: sudo ./run uninstall" in r.stderr
    assert "keeps the journal" in r.stderr


def test_a_second_install_changes_nothing(tmp_path):
    m = pi(tmp_path)
    assert m.run("install", "--board", "diy").returncode == 0
    before, n = snapshot(m.root), len(m.log)
    r = m.run("install")  # the board is the env file's
    assert r.returncode == 0, r.stderr
    assert snapshot(m.root) == before
    assert acts(m, n) == [], acts(m, n)
    assert "nothing changed" in r.stderr and "board: diy" in r.stderr


def test_an_install_after_a_pull_updates_in_place_and_restarts(tmp_path):
    m = pi(tmp_path)
    assert m.run("install", "--board", "diy").returncode == 0
    app = m.root / "opt/companion"
    (m.tree / "stale.txt").write_text("old\n")
    assert m.run("install").returncode == 0
    assert (app / "stale.txt").exists()
    # the pull: a unit changes, a file goes away, one is new
    unit = m.tree / "systemd/companion.service"
    unit.write_text(unit.read_text().replace("RestartSec=15", "RestartSec=20"))
    (m.tree / "stale.txt").unlink()
    (m.tree / "new.txt").write_text("new\n")
    n = len(m.log)
    r = m.run("install")
    assert r.returncode == 0, r.stderr
    assert "RestartSec=20" in (m.root / "etc/systemd/system/companion.service").read_text()
    assert not (app / "stale.txt").exists() and (app / "new.txt").read_text() == "new\n"
    done = acts(m, n)
    assert done.index("systemctl stop companion.service") < done.index("companion doctor --board diy") \
        < done.index("systemctl daemon-reload") < done.index("systemctl restart companion.service")
    assert not any(line.startswith(("useradd", "usermod", "systemctl enable")) for line in done)
    assert "(2 files new or changed, 1 removed)" in r.stderr


def test_install_asks_for_the_board_with_a_short_list(tmp_path):
    m = pi(tmp_path)
    r = m.run("install", stdin="2\n")
    assert r.returncode == 0, r.stderr
    for k, name in enumerate(BOARDS, 1):
        assert f"{k}. {name}" in r.stderr
    assert "Waveshare 1.3inch OLED HAT" in r.stderr
    assert (m.root / "etc/companion/companion.env").read_text() == "COMPANION_BOARD=waveshare-oled-hat-1.3\n"


def test_install_with_no_one_to_answer_lists_the_boards_and_changes_nothing(tmp_path):
    m = pi(tmp_path)
    r = m.run("install")  # stdin empty: no answer
    assert r.returncode == 2
    assert "sudo ./run install --board NAME" in r.stderr
    assert all(name in r.stderr for name in BOARDS)
    assert m.log == [] and not m.root.exists()
    r = m.run("install", "--board", "nonesuch")
    assert r.returncode == 2 and "no board named nonesuch" in r.stderr and "diy-sh1106" in r.stderr
    assert m.log == []


def test_install_needs_root(tmp_path):
    m = Machine(tmp_path, arch="aarch64", archive=RASPBERRY_PI_OS, pi=True, uid=1000)
    for verb in ("install", "uninstall"):
        r = m.run(verb, "--board", "diy") if verb == "install" else m.run(verb)
        assert r.returncode == 1 and f"sudo ./run {verb}" in r.stderr
    assert m.log == []


def test_a_failing_doctor_enables_nothing(tmp_path):
    m = pi(tmp_path)
    r = m.run("install", "--board", "diy", FAKE_DOCTOR_RC="1")
    assert r.returncode == 1
    assert "doctor found something to fix" in r.stderr and "sudo ./run install again" in r.stderr
    assert not any(line.startswith(("systemctl enable", "systemctl restart", "systemctl start")) for line in m.log)
    assert not (m.root / "etc/systemd/system/companion.service").exists()
    r = m.run("install")  # fixed: the next install goes on
    assert r.returncode == 0, r.stderr
    assert "systemctl enable --quiet companion.service" in m.log


def test_uninstall_removes_the_units_and_the_user_and_keeps_the_journal(tmp_path):
    m = pi(tmp_path)
    assert m.run("install", "--board", "diy").returncode == 0
    journal = m.root / "var/lib/companion/journal.db"
    journal.parent.mkdir(parents=True)
    journal.write_bytes(b"SQLite format 3\0")
    n = len(m.log)
    r = m.run("uninstall")
    assert r.returncode == 0, r.stderr
    done = acts(m, n)
    assert done[0] == "systemctl disable --now --quiet companion.service companion-page.service"
    assert "userdel companion" in done and "systemctl daemon-reload" in done
    assert not any((m.root / "etc/systemd/system" / u).exists() for u in UNITS)
    assert not (m.root / "etc/companion").exists()
    assert journal.read_bytes() == b"SQLite format 3\0" and "kept: the journal" in r.stderr
    n = len(m.log)
    r = m.run("uninstall")
    assert r.returncode == 0 and "nothing to remove" in r.stderr and acts(m, n) == []
    assert m.run("install", "--board", "diy").returncode == 0  # and back again


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_the_units_as_installed_verify(tmp_path):
    """systemd-analyze verify on the two units install wrote, their /opt/companion
    pointed at the test's root (where the program and its venv are)."""
    m = pi(tmp_path)
    assert m.run("install", "--board", "diy").returncode == 0
    (m.root / "opt/companion/.venv/bin/python").chmod(0o755)
    out = tmp_path / "verify"
    out.mkdir()
    for u in UNITS:
        text = (m.root / "etc/systemd/system" / u).read_text()
        (out / u).write_text(text.replace("/opt/companion", str(m.root / "opt/companion")))
    p = subprocess.run([ANALYZE, "verify", *(str(out / u) for u in UNITS)], capture_output=True, text=True,
                       timeout=120)
    ours = [line for line in (p.stdout + p.stderr).splitlines() if "companion" in line]
    assert p.returncode == 0 and ours == [], p.stdout + p.stderr


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_from_a_clone_only_the_tracked_files_are_installed(tmp_path):
    """A clone owned by its login user, installed by root: git's tracked files
    (safe.directory: git would refuse the clone otherwise), not the scratch
    files beside them, nor .git."""
    m = pi(tmp_path)
    git = shutil.which("git")
    (m.bin / "git").symlink_to(git)
    quiet = {"capture_output": True, "check": True, "cwd": m.tree}
    subprocess.run([git, "init", "-q"], **quiet)
    subprocess.run([git, "add", "."], **quiet)
    subprocess.run([git, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "t"], **quiet)
    (m.tree / "scratch.txt").write_text("not tracked\n")
    r = m.run("install", "--board", "diy")
    assert r.returncode == 0, r.stderr
    app = m.root / "opt/companion"
    assert (app / "run").exists() and (app / "systemd/companion-page.service").exists()
    assert not (app / "scratch.txt").exists() and not (app / ".git").exists()
    assert "scratch.txt" not in (app / ".installed-by-run").read_text()
