"""QA pass 3, command-line items (/work/qa_find3.md: L1, L3, L4, L7, L8 c/d)."""
from __future__ import annotations

import json
from pathlib import Path

from companion.cli import main

DATA = Path(__file__).parent / "data"


# ---------------------------------------------------------------- L4: replay --json always prints JSON


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


# ---------------------------------------------------------------- L3: history of a continued damaged session


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
    assert lines[sid].endswith(f"events  ended  damaged, continued as #{c.session}"), lines[sid]
    assert lines[c.session].endswith(f"open  continues #{sid}"), lines[c.session]
    assert "damaged" not in lines[other] and "continue" not in lines[other]
