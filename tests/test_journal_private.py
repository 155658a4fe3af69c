"""The journal at rest: readable by the device's user alone wherever
the companion runs, off systemd too (it holds Bottoms Up's ``secret X`` moves)."""
from __future__ import annotations

import logging
import os
import stat

import pytest

from companion.journal import Journal


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def open_umask():
    old = os.umask(0o022)  # a desktop's: files 0644, folders 0755
    yield
    os.umask(old)


def test_a_new_journal_its_wal_and_its_folder_are_private(tmp_path, open_umask, monkeypatch):
    state = tmp_path / "state" / "companion"
    monkeypatch.setenv("STATE_DIRECTORY", str(state))
    path = state / "journal.db"
    j = Journal(str(path))
    j.start_session("die", {})
    assert os.path.exists(str(path) + "-wal") and os.path.exists(str(path) + "-shm")
    assert mode(state) == 0o700
    assert (mode(path), mode(str(path) + "-wal"), mode(str(path) + "-shm")) == (0o600, 0o600, 0o600)
    j.close()


def test_an_existing_journal_is_tightened_at_start_and_the_log_says_so_once(tmp_path, open_umask,
                                                                             monkeypatch, caplog):
    state = tmp_path / "companion"
    monkeypatch.setenv("STATE_DIRECTORY", str(state))
    path = str(state / "journal.db")
    j = Journal(path)
    j.start_session("die", {})
    j.close()
    os.chmod(state, 0o755)
    os.chmod(path, 0o644)  # as an older version left them
    caplog.set_level(logging.INFO, logger="companion.journal")
    j = Journal(path)
    assert (mode(state), mode(path)) == (0o700, 0o600)
    assert j.sessions() and j.sessions()[0].game == "die"  # nothing lost
    j.close()
    lines = [r for r in caplog.records if r.name == "companion.journal"]
    assert len(lines) == 1 and "644" in lines[0].getMessage() and "755" in lines[0].getMessage()
    Journal(path).close()
    assert len([r for r in caplog.records if r.name == "companion.journal"]) == 1  # once: nothing to say now


def test_a_folder_the_user_named_is_left_as_it_is(tmp_path, open_umask, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "elsewhere"))
    folder = tmp_path / "mine"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    j = Journal(str(folder / "j.db"))
    j.close()
    assert mode(folder) == 0o755 and mode(folder / "j.db") == 0o600
