"""Bad record files get one line, exit 1 and no traceback."""
from __future__ import annotations

import json
import os

import pytest

from companion.cli import main

HEADER = '{"format": "pyramid-companion-record", "version": 1, "game": "die", "setup": {}}'


def run(capsys, path):
    code = main(["replay", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("content, error", [
    ("[" * 100000, "nested too deeply"),
    ('{"format": "pyramid-companion-record", "version": 1' + "0" * 5000 + ', "game": "die"}', "4300 digits"),
    ('{"format": "pyramid-companion-record", "version": 1, "game": "bag", "setup": {"preset": []}}',
     "bad setup"),
])
def test_malformed_records_are_refused_with_a_reason(tmp_path, capsys, content, error):
    p = tmp_path / "r.jsonl"
    p.write_text(content + "\n", encoding="utf-8")
    code, out = run(capsys, p)
    assert code == 1 and out["line"] == 1 and error in out["error"]


def test_a_directory_a_device_and_a_binary_file(tmp_path, capsys):
    code, out = run(capsys, tmp_path)
    assert code == 1 and "directory" in out["error"]
    if os.path.exists("/dev/zero"):
        code, out = run(capsys, "/dev/zero")  # no line break ever: refused at 1 MiB, not read whole
        assert code == 1 and "longer than any event" in out["error"]
    b = tmp_path / "b.jsonl"
    b.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    code, out = run(capsys, b)
    assert code == 1 and out["line"] == 1 and "not UTF-8" in out["error"]  # was file:None:


def test_a_huge_move_text_is_not_echoed_back_whole(tmp_path, capsys):
    p = tmp_path / "r.jsonl"
    p.write_text(HEADER + "\n" + json.dumps({"seq": 1, "type": "move", "move": "x" * 500000}) + "\n",
                 encoding="utf-8")
    code, out = run(capsys, p)
    assert code == 1 and out["line"] == 2 and len(out["error"]) < 1000
