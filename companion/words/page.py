"""What the scoreboard page says beside the moves (issue 37), in the words the
device's screens use: the winner's title, the last change that stands out (a
score, an undo), a piece in words (for a screen reader), a game's result in
the history, and what the device's screen is busy with when the page must wait
for it. What only one game says (the rule that made its winner win, a Bag of
Ice bust, an Undercut round's end, a combo's name, what a Bottoms Up player
scored for) is that game's plug-in's (``companion/plugins/``, issue 45). The
projection (``companion.public``) puts them in; the page only shows them.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..i18n import _, language, ngettext
from ..pieces import Color, Size
from .pieces import piece_color_word, piece_size_word, pips_text


def secret_tour_words() -> str:
    """While the players pass the device round for their secret colors (BU-3)."""
    return _("The players pass the device round to see their secret colors.")


def end_pending_words() -> str:
    """While a page of what happened still covers the device's winner screen."""
    return _("The game is over: the device shows what happened.")


def move_page_words() -> str:
    """While the device shows what a move did, before the game goes on."""
    return _("The device shows what happened.")


def piece_words(code: str) -> str:
    """A piece code in words, for a screen reader: ``pM`` is "purple medium"
    (French: "moyenne violette", the device's adjectives of a piece)."""
    try:
        c, z = Color.parse(code[0]), Size.parse(code[1])
    except Exception:  # not a piece code: said as it is
        return code
    return _("{color} {size}").format(color=piece_color_word(c), size=piece_size_word(z))


def piece_names(lang: str) -> dict[str, str]:
    """Every piece code in words (``piece_words``) in language ``lang`` (the current one)."""
    return dict(_piece_names(lang))


@lru_cache(maxsize=8)
def _piece_names(lang: str) -> tuple[tuple[str, str], ...]:
    return tuple((c.letter + z.letter, piece_words(c.letter + z.letter)) for c in Color for z in Size)


def win_title(winners: int) -> str:
    return _("Shared win") if winners > 1 else _("Winner")


def winner_mark() -> str:
    return _("winner")


def score_change_text(move: str, changes: list[tuple[str, int]]) -> str:
    """The move that changed scores, and by how much for whom: "Ann banks 3 · Ann +3";
    a change the move's words already say ("Ann turns in a TREE: +2 points") is not
    said twice."""
    said = [(name, d) for name, d in changes if not (name in move and f"+{d}" in move)]
    return move + (" · " + ", ".join(f"{name} {d:+d}" for name, d in said) if said else "")


def tiebreak_words(names: list[str], seats: list[int], figures: list[int], pieces: bool) -> str:
    """An Undercut tie's figures as the winner screen gives them (U-13, U-14): each
    tied player's hand pips, or pieces when the pips tied too: "Ann 5 pips · Bob 8 pips"."""
    return " · ".join(f"{names[i]} " + (ngettext("{n} piece", "{n} pieces", f).format(n=f) if pieces else pips_text(f))
                      for i, f in zip(seats, figures))


def bid_words(name: str, marker_only: bool) -> str:
    """Who bid on an Undercut stack, and "marker only" for the zero bid (U-9: the
    pieces of any other bid are drawn beside it)."""
    return f"{_('Bid')}: {name}" + (", " + _("marker only") if marker_only else "")


# the signs French sets off with a narrow no-break space (before) on the page: the
# device's catalog writes a plain space, or none in a tight "13,7%"
_FRENCH_SIGNS = re.compile(r"(?<=\S)[ \u00a0]?([:;!?%])(?=\s|$|[)»,.])")
_FRENCH_NUMBER = re.compile(r"(?<![\w°])#(\d)")
_SIGNS = re.compile(r"[:;!?%#]")


def typeset(text: str, lang: str) -> str:
    """``text`` as the page prints it in ``lang``: French puts a narrow no-break space
    before ":" ";" "!" "?" and "%" (so a line never starts with one) and writes a
    number "n°3"; English is left as it is."""
    if lang != "fr" or not text or not _SIGNS.search(text) or "://" in text:  # most texts have none; an address stays
        return text
    return _FRENCH_NUMBER.sub(r"n°\1", _FRENCH_SIGNS.sub("\u202f\\1", text))


def undone_text(move: str) -> str:
    return _("undone: {move}").format(move=move)


def summary_result(s: Any) -> str:
    """A game's result in the history, as the device's History screen says it."""
    if s.error:
        return _("cannot be read")
    if s.winners:  # typeset for the page (French: "Gagnant : Ann" with a narrow no-break space)
        return typeset(ngettext("Winner: {names}", "Winners: {names}", len(s.winners)).format(
            names=", ".join(s.winners)), language())
    if s.finished:
        return _("ended")
    return _("being played")
