"""The pieces' words, one table for every view (issues 13, 21 and 40).

Marked here once for the catalog and translated when drawn: a size or a
color on its own (``size_word``, ``color_word``: a row, a title), the same
as an adjective of a piece (``piece_size_word``, ``piece_color_word``:
French gives them the gender of *pièce*, "petite verte"), a pyramid die
face (B-2), a number of pips and an Undercut size mix (U-3).
"""
from __future__ import annotations

from typing import Callable

from ..i18n import N_, _, ngettext, pgettext
from ..pieces import Color, Size

SIZE_WORDS = {Size.SMALL: N_("small"), Size.MEDIUM: N_("medium"), Size.LARGE: N_("large")}
COLOR_WORDS = {Color.RED: N_("red"), Color.YELLOW: N_("yellow"), Color.GREEN: N_("green"),
               Color.BLUE: N_("blue"), Color.BLACK: N_("black"), Color.WHITE: N_("white"),
               Color.CYAN: N_("cyan"), Color.PURPLE: N_("purple"), Color.ORANGE: N_("orange"),
               Color.CLEAR: N_("clear")}
# Said of a piece: the catalog's context "piece" (written out, so the catalog extracts each).
_PIECE_SIZE: dict[Size, Callable[[], str]] = {
    Size.SMALL: lambda: pgettext("piece", "small"), Size.MEDIUM: lambda: pgettext("piece", "medium"),
    Size.LARGE: lambda: pgettext("piece", "large")}
_PIECE_COLOR: dict[Color, Callable[[], str]] = {
    Color.RED: lambda: pgettext("piece", "red"), Color.YELLOW: lambda: pgettext("piece", "yellow"),
    Color.GREEN: lambda: pgettext("piece", "green"), Color.BLUE: lambda: pgettext("piece", "blue"),
    Color.BLACK: lambda: pgettext("piece", "black"), Color.WHITE: lambda: pgettext("piece", "white"),
    Color.CYAN: lambda: pgettext("piece", "cyan"), Color.PURPLE: lambda: pgettext("piece", "purple"),
    Color.ORANGE: lambda: pgettext("piece", "orange"), Color.CLEAR: lambda: pgettext("piece", "clear")}


def size_word(size: Size) -> str:
    """small / medium / large."""
    return _(SIZE_WORDS[size])


def color_word(color: Color) -> str:
    """A color on its own (``vert``): a secret color, a row, the bag's drawn piece."""
    return _(COLOR_WORDS[color])


def piece_size_word(size: Size) -> str:
    """A size said of a piece (French: petite, moyenne, grande)."""
    return _PIECE_SIZE[size]()


def piece_color_word(color: Color) -> str:
    """A color said of a piece (French: the piece's gender, ``verte``)."""
    return _PIECE_COLOR[color]()


def face_words(sizes: tuple[Size, ...]) -> str:
    """A pyramid die face in words: ``small``, ``small or large`` (B-2)."""
    if len(sizes) == 1:
        return size_word(sizes[0])
    a, b = sizes
    return _("{a} or {b}").format(a=size_word(a), b=size_word(b))


def pips_text(n: int) -> str:
    return ngettext("{n} pip", "{n} pips", n).format(n=n)


def size_count(n: int, size: Size) -> str:
    """``n`` pieces of one size: "2 small" (2 petites)."""
    if size == Size.SMALL:
        return ngettext("{n} small", "{n} small", n).format(n=n)
    if size == Size.MEDIUM:
        return ngettext("{n} medium", "{n} medium", n).format(n=n)
    return ngettext("{n} large", "{n} large", n).format(n=n)


def mix_words(mix: str) -> str:
    """A 6-pip size mix (U-3) in words: "one of each size", "1 large + 3 small"."""
    if sorted(mix) == sorted("LMS"):
        return _("one of each size")
    parts = [size_count(mix.count(s.letter), s) for s in (Size.LARGE, Size.MEDIUM, Size.SMALL)
             if mix.count(s.letter)]
    out = parts[0]
    for part in parts[1:]:
        out = _("{first} + {second}").format(first=out, second=part)
    return out
