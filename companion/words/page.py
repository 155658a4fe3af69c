"""What the scoreboard page says beside the moves (issue 37), in the words the
device's screens use: the winner and the rule that made them win, the last
change that stands out (a score, a Bag of Ice bust, a round's end, an undo),
the roll-off in pips, a piece in words (for a screen reader), an Undercut
combo's name, what a Bottoms Up player scored for, a game's result in the
history, and what the device's screen is busy with when the page must wait
for it. The projection (``companion.public``) puts them in; the page only
shows them.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..i18n import _, language, ngettext
from ..pieces import Color, Size
from .moves import COMBO
from .pieces import color_word, piece_color_word, piece_size_word, pips_text

# Undercut's outcome details (U-13, U-14 as amended) as its winner screen says them
UNDERCUT_TIE = {
    "tie on score broken by fewest pips in hand (U-13)": lambda: _("tie broken by pips"),
    "tie on score and pips broken by fewest pieces in hand (U-13)": lambda: _("tie broken by pieces"),
    "shared win: tied on score, pips and pieces (U-13)": lambda: _("same pips and pieces"),
}


def secret_tour_words() -> str:
    """While the players pass the device round for their secret colors (BU-3)."""
    return _("The players pass the device round to see their secret colors.")


def end_pending_words() -> str:
    """While a page of what happened still covers the device's winner screen."""
    return _("The game is over: the device shows what happened.")


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


def color_words(color: Any) -> str:
    """A secret color by its name (``"red"``) in words, as the device's winner screen names it."""
    try:
        return color_word(Color.parse(str(color)))
    except Exception:  # not a color: said as it is
        return str(color or "?")


def combo_word(name: str) -> str:
    """An Undercut combo's name as the device says it (TREE: ARBRE in French)."""
    return _(COMBO[name]) if name in COMBO else name


def win_reason(game: str, detail: str, winners: int, target: int | None = None) -> str:
    """The rule that made the winner(s) win, as the winner screens say it."""
    if game == "undercut":
        tie = UNDERCUT_TIE.get(detail)
        return _("lowest score wins") + (f" · {tie()}" if tie else "")
    if game == "bag_of_ice":
        return _("first to reach {n} points wins").format(n=target) if target else ""
    if game == "bottoms_up":
        return _("highest score wins") + (" · " + _("ties share the win") if winners > 1 else "")
    return ""


def win_title(winners: int) -> str:
    return _("Shared win") if winners > 1 else _("Winner")


def winner_mark() -> str:
    return _("winner")


def bust_text(move: str, lost: int) -> str:
    """A Bag of Ice bust as the device's BUST! screen says it (B-4, B-8)."""
    text = _("BUST!") + " " + move
    if lost:
        text += " · " + ngettext("{n} point lost", "{n} points lost", lost).format(n=lost)
    return text


def round_over_text(n: int, move: str) -> str:
    return _("Round {n} is over.").format(n=n) + " " + move


def score_change_text(move: str, changes: list[tuple[str, int]]) -> str:
    """The move that changed scores, and by how much for whom: "Ann banks 3 · Ann +3";
    a change the move's words already say ("Ann turns in a TREE: +2 points") is not
    said twice."""
    said = [(name, d) for name, d in changes if not (name in move and f"+{d}" in move)]
    return move + (" · " + ", ".join(f"{name} {d:+d}" for name, d in said) if said else "")


def places(order: list[int], keys: list[Any], winners: list[int]) -> list[int]:
    """Each seat's place in the final ``order`` (winners first, then by the rule's
    ``keys``: a score, or a score and the tie-break's figures): tied players share a
    place and the next place skips ("1, 1, 3"). The winners all share the first (a
    shared win, BU-12, U-13); the others share theirs with an equal key."""
    won = set(winners)
    out: list[int] = []
    for k, seat in enumerate(order):
        before = order[k - 1] if k else None
        if before is not None and ((seat in won and before in won)
                                   or (seat not in won and before not in won and keys[seat] == keys[before])):
            out.append(out[-1])
        else:
            out.append(k + 1)
    return out


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


def typeset(text: str, lang: str) -> str:
    """``text`` as the page prints it in ``lang``: French puts a narrow no-break space
    before ":" ";" "!" "?" and "%" (so a line never starts with one) and writes a
    number "n°3"; English is left as it is."""
    if lang != "fr" or not text:
        return text
    return _FRENCH_NUMBER.sub(r"n°\1", _FRENCH_SIGNS.sub("\u202f\\1", text))


def undone_text(move: str) -> str:
    return _("undone: {move}").format(move=move)


def rolloff_text(name: str, pips: int) -> str:
    """A roll-off roll as the device's roll-off screen says it: its pips (B-3)."""
    return _("{name} rolls {pips} in the roll-off").format(name=name, pips=pips_text(pips))


def scored_line(stack: str, piece: str, points: int) -> str:
    """What a Bottoms Up stack scored for its owner (BU-11): "A: red large, 3 points"."""
    return _("{stack}: {piece}, {points}").format(
        stack=stack, piece=piece_words(piece), points=ngettext("{n} point", "{n} points", points).format(n=points))


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
