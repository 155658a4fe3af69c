"""The companion command's subcommands say what went wrong and lose nothing: replay --json
always prints JSON, backup never replaces what is not an earlier backup, doctor lists every
bad setting, history says what a damaged journal kept."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main

from .test_hw_board import factory  # noqa: F401  (fixture)

DATA = Path(__file__).parent / "data"


# ---------------------------------------------------------------- replay --json always prints JSON


def test_replay_json_of_a_missing_file_prints_one_json_object(tmp_path, capsys):
    missing = str(tmp_path / "nonexist.jsonl")
    assert main(["replay", missing, "--json"]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out) == {"ok": False, "file": missing, "line": None, "error": "no such file"}
    assert "no such file" in err


def test_replay_without_json_prints_nothing_on_stdout_for_a_missing_file(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nonexist.jsonl")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "no such file" in err


def test_replay_json_of_an_unreadable_file_prints_one_json_object(tmp_path, capsys):
    assert main(["replay", str(tmp_path), "--json"]) == 1  # a directory
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and out["line"] == 1 and "directory" in out["error"]


def test_a_record_with_a_utf8_bom_is_read(tmp_path, capsys):
    """Notepad saves a byte order mark: it was refused as 'not JSON (Unexpected UTF-8 BOM ...)'."""
    bom = tmp_path / "bom.jsonl"
    bom.write_bytes(b"\xef\xbb\xbf" + (DATA / "die_good.jsonl").read_bytes())
    assert main(["replay", str(bom), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is True and out["state"]["rolls"] == ["S/L", "L"]


# ---------------------------------------------------------------- history of a continued damaged session


def test_history_says_a_damaged_session_was_continued(tmp_path, capsys):
    from companion.journal import Journal

    from .test_journal_checksum import _damaged_die_session
    path = str(tmp_path / "j.db")
    sid, other = _damaged_die_session(path)
    assert main(["history", "--journal", path]) == 0
    before = {int(ln.split()[0]): ln for ln in capsys.readouterr().out.splitlines()}
    assert before[sid].endswith("open  damaged: replay stops at the damage")  # not continued yet
    with Journal(path) as j:
        (c,) = j.continue_damaged()
    assert main(["history", "--journal", path]) == 0
    lines = {int(ln.split()[0]): ln for ln in capsys.readouterr().out.splitlines()}
    # the sessions by their numbers: the die is #1, the other #2, the continued game #3
    sid, other, new = 1, 2, 3
    assert lines[sid].endswith(f"events  ended  damaged, continued as #{new}"), lines[sid]
    assert lines[new].endswith(f"open  continues #{sid}"), lines[new]
    assert "damaged" not in lines[other] and "continue" not in lines[other]


# ---------------------------------------------------------------- backup never replaces a file it would lose


def _die_journal(path, rolls=3):
    from companion.journal import Journal
    with Journal(path) as j:
        sid = j.start_session("die", {})
        for _ in range(rolls):
            j.append(sid, "move", {"move": "roll"})
    return path


def _events(path):
    from companion.journal import Journal
    with Journal(path, read_only=True) as j:
        return j.count()


def test_backup_refuses_to_replace_a_text_file_unless_forced(tmp_path, capsys):
    src = _die_journal(str(tmp_path / "j.db"))
    notes = tmp_path / "notes.txt"
    notes.write_text("notes\n")
    assert main(["backup", str(notes), "--journal", src]) == 2
    assert notes.read_text() == "notes\n"
    err = capsys.readouterr().err
    assert "is not a journal" in err and "nothing was written" in err and "--force" in err
    assert main(["backup", str(notes), "--journal", src, "--force"]) == 0
    assert _events(str(notes)) == 4


def test_backup_refuses_to_replace_another_journal(tmp_path, capsys):
    src = _die_journal(str(tmp_path / "j.db"))
    other = _die_journal(str(tmp_path / "other.db"), rolls=5)
    before = open(other, "rb").read()
    assert main(["backup", other, "--journal", src]) == 2
    assert open(other, "rb").read() == before
    assert "not an earlier backup of this journal" in capsys.readouterr().err


def test_backup_replaces_an_earlier_backup_of_the_same_journal(tmp_path, capsys):
    from companion.journal import Journal
    src = _die_journal(str(tmp_path / "j.db"))
    dest = str(tmp_path / "bk.db")
    assert main(["backup", dest, "--journal", src]) == 0
    old = str(tmp_path / "old.db")
    assert main(["backup", old, "--journal", src]) == 0
    with Journal(src) as j:
        j.append(1, "move", {"move": "roll"})
    assert main(["backup", dest, "--journal", src]) == 0 and _events(dest) == 5  # an earlier one: replaced
    assert main(["backup", dest, "--journal", src]) == 0 and _events(dest) == 5  # the same one again
    # a backup holding more than an older copy of the journal is not replaced by that copy
    assert main(["backup", dest, "--journal", old]) == 2 and _events(dest) == 5
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    assert main(["backup", str(empty), "--journal", src]) == 0 and _events(str(empty)) == 5


def test_backup_never_writes_over_the_journal_itself_or_a_folder(tmp_path, capsys):
    src = _die_journal(str(tmp_path / "j.db"))
    before = open(src, "rb").read()
    assert main(["backup", src, "--journal", src, "--force"]) == 2
    assert main(["backup", str(tmp_path), "--journal", src, "--force"]) == 2
    assert open(src, "rb").read() == before
    err = capsys.readouterr().err
    assert "the journal itself" in err and "is a folder" in err and "--force" not in err


# ---------------------------------------------------------------- doctor says every settings problem, checks the board


@pytest.fixture
def good_board(monkeypatch, tmp_path, factory):  # noqa: F811
    """``companion doctor`` on a board whose every check passes (mock pins, a recorded display)."""
    import hardware.doctor
    from luma.core.interface.serial import i2c

    from .test_hw_oled import I2CRecorder
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "i2c-1").write_bytes(b"")
    (dev / "gpiochip0").write_bytes(b"")
    real = hardware.doctor.doctor
    monkeypatch.setattr(hardware.doctor, "doctor", lambda profile, **kw: real(
        profile, dev_root=str(dev), pin_factory=factory, serial=i2c(bus=I2CRecorder(), address=0x3C), **kw))


def test_doctor_lists_every_bad_setting_and_still_checks_the_board(tmp_path, capsys, good_board):
    cfg = tmp_path / "bad.toml"
    cfg.write_text('hold_time = "fast"\ncontrast = 999\nboard = "diy"\ncolour = "red"\n')
    assert main(["--config", str(cfg), "doctor"]) == 1
    out = capsys.readouterr().out
    assert "FIX  settings: " in out and "contrast must be 0..255" in out
    assert "hold_time must be a number" in out and "unknown key 'colour'" in out
    assert "the display answers" in out and "buttons claimed" in out  # the board was checked
    assert out.rstrip().endswith("3 thing(s) to fix")
    cfg.write_text('board = "diy"\n')
    assert main(["--config", str(cfg), "doctor"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("all good")


def test_doctor_without_a_board_still_says_the_settings_problems(tmp_path, capsys):
    cfg = tmp_path / "bad.toml"
    cfg.write_text("contrast = 999\nrotation = 90\n")
    assert main(["--config", str(cfg), "doctor"]) == 2
    err = capsys.readouterr().err
    assert "contrast must be 0..255" in err and "rotation must be 0 or 180" in err and "no board configured" in err


def test_a_board_that_cannot_open_still_says_the_settings_problems(tmp_path, capsys, monkeypatch):
    import hardware.board
    from hardware.errors import HardwareError

    def no_board(*a, **kw):
        raise HardwareError("/dev/i2c-1 does not exist")
    monkeypatch.setattr(hardware.board, "open_board", no_board)
    cfg = tmp_path / "bad.toml"
    cfg.write_text("contrast = 999\nrotation = 90\n")
    assert main(["--config", str(cfg), "--board", "diy", "--journal", str(tmp_path / "j.db")]) == 1
    err = capsys.readouterr().err
    assert "contrast must be 0..255" in err and "rotation must be 0 or 180" in err and "i2c-1" in err
