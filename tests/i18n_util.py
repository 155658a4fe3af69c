"""Find texts drawn without the catalog.

Play with ``set_language(PSEUDO)`` and ``draw.DRAWN = []``: every marked text
comes back with its ASCII letters swapped for accented look-alikes, so an
ASCII word left in a drawn text is a text the code did not mark, unless it is
a player name, a piece code (``rS``), a label or a key name the screens use
as such. ``untranslated(drawn, names)`` lists the offenders."""
from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Iterable, Iterator

from companion import i18n
from companion.ui import draw

WORD = re.compile(r"[A-Za-z]{2,}")
PIECE = re.compile(r"^[rygbkwcpRYGBKWCP][SMLsml]$")
LANGUAGE_FREE = {"OK", "Aa", "abc", PSEUDO_CODE := "qps"}
"""Button and key names printed on them, the keyboard's case key and letter page, the pseudo code."""
FILE = re.compile(r"\S+\.(db|toml|csv|png|json)\b")  # file names are the user's


def untranslated(drawn: Iterable[str], names: Iterable[str] = ()) -> list[str]:
    names_words = {w for n in names for w in WORD.findall(n)}
    out = []
    for text in drawn:
        for w in WORD.findall(FILE.sub("", text)):
            if PIECE.match(w) or w in LANGUAGE_FREE or any(n.startswith(w) for n in names_words):
                # a name, or a name shortened to fit (names.short_names)
                continue
            if re.fullmatch(r"[A-Z]{1,2}", w):  # a field label (A, B, ..., AA) or a stack name
                continue
            out.append(text)
            break
    return out


@contextmanager
def pseudo_language() -> Iterator[list[str]]:
    """Draw in the pseudo-language and collect every text drawn."""
    old_lang, old_drawn = i18n.language(), draw.DRAWN
    i18n.set_language(i18n.PSEUDO)
    draw.DRAWN = drawn = []
    try:
        yield drawn
    finally:
        draw.DRAWN = old_drawn
        i18n.set_language(old_lang)
