"""Player names: cleaned once where they enter, shortened one way everywhere.

A name is NFC-normalised (so "é" typed two ways is one name), has its control
characters and line breaks removed and its spaces folded, and holds at most
``NAME_MAX`` = 12 characters: the longest that fits beside a score on the
128-pixel screen with the 6-pixel font (21 characters a line: 12 for the
name, a space and 8 for the figures). Every screen lays out names of that
length; where a screen has less room it uses ``short_names``, which cuts
every player's name the same way and keeps them distinct from each other.

>>> clean_name("  Ann\\n  Marie ")
'Ann Marie'
>>> short_names(["Alexandra", "Alexander", "Bob"], 4)
('Alea', 'Alex', 'Bob')
"""
from __future__ import annotations

import unicodedata
from typing import Sequence

__all__ = ["NAME_MAX", "clean_name", "short_names"]

NAME_MAX = 12


def clean_name(text: str, limit: int = NAME_MAX) -> str:
    """``text`` as a player name: NFC, no control characters, single spaces, at most ``limit``."""
    s = unicodedata.normalize("NFC", str(text))
    s = "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") or ch.isspace() else ch
                for ch in s if unicodedata.category(ch) not in ("Cf", "Cs", "Co"))
    s = " ".join(s.split())
    return s[:limit].rstrip()


def _cut(name: str, n: int) -> str:
    return name if len(name) <= n else name[:n]


def short_names(names: Sequence[str], width: int) -> tuple[str, ...]:
    """Every name in at most ``width`` characters, the same cut for the same table, and
    distinct whenever the full names are.

    A name that fits stays whole. A longer one is cut to its first ``width``
    characters; where two cut names collide, their last character becomes the
    first character that tells the full names apart (then a seat number).
    """
    if width <= 0:
        return tuple("" for _ in names)
    out = [_cut(n, width) for n in names]
    for _round in range(3):
        groups: dict[str, list[int]] = {}
        for i, s in enumerate(out):
            groups.setdefault(s, []).append(i)
        clashes = [idx for idx in groups.values() if len(idx) > 1]
        if not clashes:
            break
        for idx in clashes:
            full = [names[i] for i in idx]
            if len(set(full)) < len(full):
                continue  # the same full name twice: nothing can tell them apart
            for i in idx:
                if len(names[i]) <= width or width < 2:
                    continue
                stem = out[i][: width - 1]
                rest = names[i][width - 1:]
                taken = {out[j] for j in range(len(out)) if j != i}
                pick = next((stem + ch for ch in rest if not ch.isspace() and stem + ch not in taken), None)
                if pick is None:
                    digit = str(i + 1)
                    pick = out[i][: width - len(digit)] + digit
                out[i] = pick
    return tuple(out)
