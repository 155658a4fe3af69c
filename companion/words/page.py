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

from functools import lru_cache
from typing import Any

from ..i18n import _, ngettext
from ..pieces import Color, Size
from .pieces import piece_color_word, piece_size_word


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
    """The move that changed scores, and by how much for whom: "Ann banks 3 · Ann +3"."""
    return move + " · " + ", ".join(f"{name} {d:+d}" for name, d in changes)


def undone_text(move: str) -> str:
    return _("undone: {move}").format(move=move)


def summary_result(s: Any) -> str:
    """A game's result in the history, as the device's History screen says it."""
    if s.error:
        return _("cannot be read")
    if s.winners:
        return ngettext("Winner: {names}", "Winners: {names}", len(s.winners)).format(names=", ".join(s.winners))
    if s.finished:
        return _("ended")
    return _("being played")
