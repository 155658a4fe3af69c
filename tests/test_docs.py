"""The docs stay true to the code."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_records_md_carries_every_game_section():
    p = subprocess.run([sys.executable, str(ROOT / "docs" / "build_records.py"), "--check"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    text = (ROOT / "docs" / "records.md").read_text()
    for f in sorted((ROOT / "docs").glob("records-*.md")):
        assert f.read_text().strip() in text, f.name


def test_readme_quick_start_is_two_commands_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text()
    block = readme.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [ln.split("#")[0].strip() for ln in block.strip().splitlines()]
    assert commands == ["./run", "./run test"]
    assert "./run test" in (ROOT / ".ci" / "run").read_text()
