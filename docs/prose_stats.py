"""How readable the README and the guides are: each file's sentences and mean
sentence length in words, and the README's lines and words.

    python docs/prose_stats.py            # README.md and docs/guide/*.md
    python docs/prose_stats.py FILE...    # those files

tests/test_docs_links.py checks these figures against the limits below, so the
README stays a front page a newcomer reads in minutes.

What counts as prose: paragraphs and list items. Code blocks, tables, headings,
images, HTML comments and link targets are left out; a link counts by its text.
A sentence ends at ".", "!" or "?" before a space or the end of its paragraph or
list item; a paragraph or list item that ends without one is a sentence too.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

README_MAX_LINES = 200
README_MAX_WORDS = 1800
MEAN_SENTENCE_MAX = 22  # words, over the README and the guides together


@dataclass(frozen=True)
class Prose:
    path: Path
    lines: int
    words: int  # every word of the file, as `wc -w` counts
    sentences: tuple[int, ...]  # words per sentence

    @property
    def mean(self) -> float:
        return sum(self.sentences) / len(self.sentences) if self.sentences else 0.0


_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+")


def blocks(text: str) -> list[str]:
    """The paragraphs and list items of a Markdown text, each as one line."""
    text = _COMMENT.sub("", text)
    out: list[str] = []
    cur: list[str] = []
    fence = False

    def flush():
        if cur:
            out.append(" ".join(cur))
            cur.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("```"):
            flush()
            fence = not fence
            continue
        if fence or raw.startswith("    ") and not cur and not _ITEM.match(raw):
            continue  # code, fenced or indented
        if not line or line.startswith("#") or line.startswith("|"):
            flush()
            continue
        if line.startswith("![") and line.endswith(")"):
            flush()
            continue  # an image on its own
        if _ITEM.match(raw):
            flush()
            line = _ITEM.sub("", raw).strip()
        cur.append(line)
    flush()
    return out


def sentences(block: str) -> list[int]:
    """Words per sentence of one paragraph or list item."""
    block = _LINK.sub(lambda m: m.group(1), block)
    out = []
    for s in _END.split(block):
        n = len(s.split())
        if n:
            out.append(n)
    return out


def prose(path: Path) -> Prose:
    text = path.read_text(encoding="utf-8")
    counts: list[int] = []
    for b in blocks(text):
        counts += sentences(b)
    return Prose(path, len(text.splitlines()), len(text.split()), tuple(counts))


def default_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]


def mean_of(ps: list[Prose]) -> float:
    every = [n for p in ps for n in p.sentences]
    return sum(every) / len(every) if every else 0.0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    files = [Path(a) for a in args] or default_files()
    ps = [prose(f) for f in files]
    width = max(len(_name(p.path)) for p in ps)
    print(f"{'file':<{width}}  lines  words  sentences  mean  longest")
    for p in ps:
        print(f"{_name(p.path):<{width}}  {p.lines:5}  {p.words:5}  {len(p.sentences):9}  {p.mean:4.1f}"
              f"  {max(p.sentences, default=0):7}")
    print(f"mean sentence length, all {len(ps)} files: {mean_of(ps):.1f} words (limit {MEAN_SENTENCE_MAX})")
    readme = next((p for p in ps if p.path.name == "README.md"), None)
    if readme:
        print(f"README.md: {readme.lines} lines (limit {README_MAX_LINES}), "
              f"{readme.words} words (limit {README_MAX_WORDS})")
    return 0


def _name(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    sys.exit(main())
