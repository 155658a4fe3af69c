"""Player names: cleaned once where they enter, shortened one way everywhere.

A name is NFC-normalised (so "é" typed two ways is one name), has its control
characters and line breaks removed and its spaces folded, and holds at most
``NAME_MAX`` = 12 characters: the longest that fits beside a score on the
128-pixel screen with the 6-pixel font (21 characters a line: 12 for the
name, a space and 8 for the figures). Every screen lays out names of that
length; where a screen has less room it uses ``short_names``: one rule for
every screen that gives a name ONE short form, whatever the room (issue 48:
"Maximilienne" was "Maximilien", "Maximilie", "Maxim", "Maxi" and "Maximi"
on five screens, and "Maximilien" is another player's name): its first
``SHORT - 1`` characters and ``CUT``, the mark of a cut ("Maxim~"), so that a
short form never reads as another whole name. A screen with less room than
``SHORT`` gives up its other words first (a title's "turn 10").

>>> clean_name("  Ann\\n  Marie ")
'Ann Marie'
>>> short_names(["Maximilienne", "Bob"], 10)
('Maxim~', 'Bob')
>>> short_names(["Marie-Claire", "Marie-Claude", "Marie-Chloé", "Bob"], 9)
('M-Claire', 'M-Claude', 'M-Chloé', 'Bob')
"""
from __future__ import annotations

import functools
import re
import unicodedata
from typing import Callable, Sequence

__all__ = ["CUT", "NAME_MAX", "SHORT", "clean_name", "seated_apart", "short_names"]

NAME_MAX = 12
SHORT = 6
"""The width of every name's one short form: five characters and the cut mark (the
room of a name over a score in a third of the screen)."""
CUT = "~"
"""Ends (or, between two parts, joins) a name cut short: the font's mark of a cut (``draw.fit``)."""


def clean_name(text: str, limit: int = NAME_MAX) -> str:
    """``text`` as a player name: NFC, no control characters, single spaces, at most ``limit``."""
    s = unicodedata.normalize("NFC", str(text))
    s = "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") or ch.isspace() else ch
                for ch in s if unicodedata.category(ch) not in ("Cf", "Cs", "Co"))
    s = " ".join(s.split())
    return s[:limit].rstrip()


_SEPARATORS = " -"


def _cut(name: str, n: int) -> str:
    """``name`` in at most ``n`` characters: whole, else its start (a trailing space or
    hyphen dropped: "Élodie-" reads as a typo) and the cut mark ("Maxim~")."""
    if len(name) <= n:
        return name
    if n < 3:  # no room for a mark that leaves a letter to read
        return name[:n]
    head = name[:n - 1]
    return (head.rstrip(_SEPARATORS) or head) + CUT


def _initials(name: str) -> str:
    """Every word but the last cut to its initial: "Marie-Claire" -> "M-Claire"."""
    words = re.split(r"([ -]+)", name)
    if len(words) < 3:
        return name
    return "".join(w[:1] if k % 2 == 0 and k < len(words) - 1 else w for k, w in enumerate(words))


def _common(a: str, b: str) -> int:
    return next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def _elide(name: str, others: Sequence[str], width: int, letters: int) -> str:
    """The start of ``name`` and, at the end, up to ``letters`` letters from where
    it first differs from every one of ``others`` ("Maximilienne" beside
    "Maximiliana" in 8: "Maxienne"), ``width`` characters in all."""
    d = max((_common(name, o) for o in others), default=0)
    tail = name[d:d + min(letters, width - 2)].rstrip(_SEPARATORS)
    if not tail or width < 4:
        return _cut(name, width)
    if d + len(tail) >= len(name) and len(name[:d]) + len(tail) <= width:
        return name[:d] + tail if name[:d] + tail == name else _cut(name, width)
    head = name[:width - len(tail) - 1].rstrip(_SEPARATORS) or name[:width - len(tail) - 1]
    return head + CUT + tail


def reads_as(short: str, name: str) -> bool:
    """``short`` is ``name``'s start, or the start of its initials form ("M-Claire"
    for "Marie-Claire"): a table reads it as that player at a glance. Forms that
    take letters from the middle ("Maen" for "Maximilienne") do not."""
    if CUT in short[:-1]:  # letters from the middle: "Max~enne"
        return False
    if short.endswith(CUT):
        if len(short) < min(SHORT, len(name)):  # tighter than the name's one short form (issue 48)
            return False
        short = short[:-1]
    return name.startswith(short) or _initials(name).startswith(short)


def listed(names: Sequence[str], room: int, *, least: int = 1, seps: Sequence[str] = (", ", ","),
           more: bool = True) -> str | None:
    """Every player in one line of at most ``room`` characters ("Ann, Bob, Cy",
    "Élo,Max,Zoë"), the longest forms first, each shortened alike and read as
    its player (``reads_as``); else (with ``more``) the first ones and how many
    more ("Maximilienne +4": similar names in 3 or 4 letters, "Maen", "Maan",
    name nobody); else the tightest list down to ``least`` characters a name.
    ``None`` when nothing fits. The rows of the main menu and of History."""
    for w in range(NAME_MAX, max(least, SHORT) - 1, -1):  # a name's one short form, not a tighter one
        short = short_names(names, w)
        if not all(reads_as(x, n) for x, n in zip(short, names)) or len(set(short)) < len(set(names)):
            continue
        for sep in seps:
            if len(text := sep.join(short)) <= room:
                return text
    for k in range(len(names) - 1 if more else 0, 0, -1):
        for w in range(NAME_MAX, SHORT - 1, -1):
            short = short_names(names, w)
            text = ", ".join(short[:k]) + f" +{len(names) - k}"
            if len(text) <= room and all(reads_as(x, n) for x, n in zip(short[:k], names)):
                return text
    for w in range(NAME_MAX, least - 1, -1):
        for sep in seps:
            if len(text := sep.join(short_names(names, w))) <= room:
                return text
    return None


def short_names(names: Sequence[str], width: int) -> tuple[str, ...]:
    """``_short_names`` (below), remembered: screens ask it for the same table
    and width on every frame, and a list of names tries many widths."""
    return _short_names(tuple(names), width)


@functools.lru_cache(maxsize=512)
def _short_names(names: tuple[str, ...], width: int) -> tuple[str, ...]:
    """Every name in at most ``width`` characters, the same rule for every
    screen, recognisable, and distinct whenever the full names are; a cut
    always marked (``CUT``), never a digit added.

    1. A name that fits stays whole.
    2. A longer one has ONE short form, whatever the room (``SHORT`` = 6 or
       the room if less): its first characters (a trailing space or hyphen
       dropped) and the mark: "Maximilienne" -> "Maxim~" (issue 48: the
       screens drew it five ways, one of them "Maximilien", another name).
    3. Names whose short forms collide are told apart, in up to ``SHORT + 2``
       characters where the room allows, the first of these that makes the
       whole table distinct:
       a. every word but the last cut to its initial, then cut as in 2.:
          "Marie-Claire", "Marie-Claude", "Marie-Chloé" -> "M-Claire",
          "M-Claude", "M-Chloé";
       b. a.'s form keeps its start, the mark, and the letters where it
          first differs from the others': "Jean Dupont", "Jean Dupond",
          "Jean Durand" -> "J Dup~t", "J Dup~d", "J D~ran";
       c. the same from the full name: "Maximilienne", "Maximiliana" ->
          "Max~enne", "Maxi~ana";
       d. c. with more (then fewer) letters at the end, name by name.
    Only two identical full names stay identical.
    """
    if width <= 0:
        return tuple("" for _ in names)
    room = width
    width = min(room, SHORT)  # a name cut short has one form whatever the room (issue 48)
    out = [n if len(n) <= room else _cut(n, width) for n in names]
    for _round in range(len(names)):
        groups: dict[str, list[int]] = {}
        for i, s in enumerate(out):
            groups.setdefault(s, []).append(i)
        clashes = [idx for idx in groups.values() if len(set(names[i] for i in idx)) > 1]
        if not clashes:
            break
        for idx in clashes:
            cut = [i for i in idx if len(names[i]) > room and out[i] == _cut(names[i], width)]
            if not cut:
                cut = [i for i in idx if len(names[i]) > room]
            if not cut:
                continue
            # names alike are told apart in up to two more characters where the room allows
            wide = min(room, SHORT + 2)
            full = {i: names[i] for i in idx}
            others = {i: [full[j] for j in idx if full[j] != full[i]] for i in cut}
            short_words = {i: _initials(full[i]) for i in cut}
            short_others = {i: [_initials(full[j]) for j in idx if full[j] != full[i]] for i in cut}
            half = max(1, wide // 2)
            tiers = [
                {i: _cut(short_words[i], wide) for i in cut},
                {i: _elide(short_words[i], short_others[i], wide, half) for i in cut},
                {i: _elide(full[i], others[i], wide, half) for i in cut},
            ]
            rest = {out[j] for j in range(len(out)) if j not in cut}
            for tier in tiers:
                forms = [tier[i] for i in cut]
                if len(set(forms)) == len(set(full[i] for i in cut)) and not rest & set(forms):
                    for i in cut:
                        out[i] = tier[i]
                    break
            else:  # d. name by name, any number of letters from the end
                taken = set(rest)
                for i in cut:
                    tries = [_elide(full[i], others[i], wide, t) for t in range(half, wide)]
                    tries += [_elide(full[i], others[i], wide, t) for t in range(half - 1, 0, -1)]
                    tries += [full[i][:wide - t - 1] + CUT + full[i][len(full[i]) - t:] for t in range(1, wide - 1)]
                    out[i] = next((f for f in tries if f not in taken), out[i])
                    taken.add(out[i])
    return tuple(out)


def seated_apart(names: Sequence[str], drawable: Callable[[str], bool]) -> tuple[str, ...]:
    """Every name, with its seat's number after it ("李华 (1)", "王芳 (2)") where it
    would draw like another name of the table in a font whose characters are
    ``drawable`` (the ones it lacks all drawn as one box): names must stay
    distinct wherever they are shown (issue 34). The others stay as they are.

    >>> seated_apart(["李华", "王芳", "Ann"], lambda ch: ch.isascii())
    ('李华 (1)', '王芳 (2)', 'Ann')
    """
    drawn = ["".join(ch if drawable(ch) else "\ufffd" for ch in n).casefold() for n in names]
    return tuple(f"{n} ({i + 1})" if drawn.count(drawn[i]) > 1 else n for i, n in enumerate(names))
