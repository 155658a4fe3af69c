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
