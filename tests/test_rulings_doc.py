"""docs/rulings.md defines every ruling the code and the tests cite,
so the repository stands on its own."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CITE = re.compile(r"\b(BU|U|B|V)-(\d+)\b")


def defined() -> set[str]:
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    return {m.group(1) for m in re.finditer(r"^### ((?:BU|U|B|V)-\d+) ", text, re.M)}


def cited() -> dict[str, str]:
    out: dict[str, str] = {}
    for folder in ("companion", "hardware", "bench", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            for m in CITE.finditer(path.read_text(encoding="utf-8")):
                out.setdefault(f"{m.group(1)}-{m.group(2)}", str(path.relative_to(ROOT)))
    return out


def test_every_cited_ruling_is_defined():
    missing = {rid: where for rid, where in cited().items() if rid not in defined()}
    assert not missing, f"cited but not in docs/rulings.md: {missing}"


def test_the_page_defines_the_three_games_rulings_in_order():
    ids = defined()
    assert {f"U-{i}" for i in range(1, 16)} <= ids
    assert {f"B-{i}" for i in range(1, 11)} <= ids
    assert {f"BU-{i}" for i in range(1, 14)} <= ids
    assert {"V-1", "V-2"} <= ids  # what the views may show


def test_no_docstring_sends_the_reader_outside_the_repository():
    for folder in ("companion", "hardware"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "shared/rules" not in text and "shared/STYLE" not in text, path
