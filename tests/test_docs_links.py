"""The docs a reader follows: every relative link in README.md and docs/ leads
somewhere (a file, and for #anchor a heading in it), every image exists, and the
README stays a front page with plain sentences (docs/prose_stats.py prints the
figures checked here)."""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

_spec = importlib.util.spec_from_file_location("prose_stats", ROOT / "docs" / "prose_stats.py")
assert _spec and _spec.loader
prose_stats = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("prose_stats", prose_stats)  # its dataclass looks its module up there
_spec.loader.exec_module(prose_stats)

_LINK = re.compile(r"(!?)\[(?:[^\]]|\](?!\())*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HTML_SRC = re.compile(r"<(?:img|a)\s[^>]*(?:src|href)=\"([^\"]+)\"")


def _without_code(text: str) -> str:
    """The text with fenced code blocks and inline code removed: a link in code is an example."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def links(path: Path) -> list[tuple[bool, str]]:
    """(is an image, target) of every link and image in a Markdown file."""
    text = _without_code(path.read_text(encoding="utf-8"))
    out = [(m.group(1) == "!", m.group(2)) for m in _LINK.finditer(text)]
    out += [(True, m.group(1)) for m in _HTML_SRC.finditer(text)]
    return out


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = _LINK.sub(lambda m: m.group(0).split("](")[0].lstrip("!["), heading)
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file, the second of a name as name-1 as GitHub does."""
    seen: dict[str, int] = {}
    out = set()
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    for line in text.splitlines():
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        s = slug(m.group(1))
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f"{s}-{n}")
    return out


def broken(path: Path, root: Path = ROOT) -> list[str]:
    """What is wrong with the relative links and images of one Markdown file."""
    bad = []
    name = path.relative_to(root)
    for image, target in links(path):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
            continue  # https:, mailto: ...: not this repository's
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        what = "image" if image else "link"
        if not dest.exists():
            bad.append(f"{name}: {what} {target}: no {file_part}")
        elif image and not dest.is_file():
            bad.append(f"{name}: image {target}: not a file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            bad.append(f"{name}: link {target}: no heading #{anchor} in {dest.name}")
    return bad


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_image_resolves(path):
    bad = broken(path)
    assert not bad, "\n".join(bad)


def test_a_broken_link_a_missing_heading_and_a_missing_image_are_found(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "there.md").write_text("# Here it is\n\n## Here it is\n")
    page = tmp_path / "docs" / "page.md"
    page.write_text("[ok](there.md#here-it-is) [ok too](there.md#here-it-is-1) [self](#top)\n"
                    "# Top\n[gone](nowhere.md) [no heading](there.md#elsewhere)\n"
                    "![no picture](img/none.png) [web](https://example.org/x) `[code](nowhere.md)`\n")
    found = broken(page, tmp_path)
    assert found == ["docs/page.md: link nowhere.md: no nowhere.md",
                     "docs/page.md: link there.md#elsewhere: no heading #elsewhere in there.md",
                     "docs/page.md: image img/none.png: no img/none.png"]


def test_headings_anchor_as_on_github():
    assert slug("What `./run` does on ARM Linux") == "what-run-does-on-arm-linux"
    assert slug("A seat's own page") == "a-seats-own-page"
    assert slug("Bag of Ice") == "bag-of-ice"


def test_the_readme_is_a_front_page_and_the_guides_read_plainly():
    readme = prose_stats.prose(ROOT / "README.md")
    assert readme.lines < prose_stats.README_MAX_LINES, readme.lines
    assert readme.words < prose_stats.README_MAX_WORDS, readme.words
    files = prose_stats.default_files()
    assert len(files) >= 6  # the README and its guides: the games, the page, the Pi
    mean = prose_stats.mean_of([prose_stats.prose(f) for f in files])
    assert mean < prose_stats.MEAN_SENTENCE_MAX, f"{mean:.1f} words a sentence"


def test_the_prose_figures_count_sentences_not_code_or_tables():
    text = ("Intro line one. Two words!\n\n```sh\nnot a sentence at all here\n```\n\n"
            "| a | b |\n| --- | --- |\n\n- an item without a stop\n- [a link](x.md) counts by its text.\n")
    counts = [n for b in prose_stats.blocks(text) for n in prose_stats.sentences(b)]
    assert counts == [3, 2, 5, 6]


def test_the_readme_names_no_ruling_or_issue_ids_and_nests_no_parentheses():
    text = _without_code((ROOT / "README.md").read_text(encoding="utf-8"))
    assert not re.findall(r"\b(?:U|B|BU|V)-\d+\b|\bissue \d+", text)
    prose = re.sub(r"\]\([^)]*\)", "]", text)  # a link's target is not a parenthesis a reader reads
    depth = deepest = 0
    for ch in prose:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        deepest = max(deepest, depth)
    assert deepest <= 1


def test_the_readme_and_guides_send_players_to_settings_for_the_language():
    """French is Settings > Language, the device's first setting: no reader is told to edit a file."""
    for path in prose_stats.default_files():
        assert 'language = "fr"' not in path.read_text(encoding="utf-8"), path.name
    bag_of_ice = (ROOT / "README.md").read_text(encoding="utf-8").split("### Bag of Ice", 1)[1].split("\n#", 1)[0]
    assert "Settings > Language" in bag_of_ice
