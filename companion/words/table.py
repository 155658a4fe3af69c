"""What a position waits for, who won, a hint and an engine's own text, in
the words every view shows (issue 40): the projection's ``waiting`` and
``result`` (the page, the console), the odds screen's and the page's advice
(B-9, B-10), and the engines' English texts without their ruling notes.
"""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from ..engine import CHANCE, TERMINAL, State
from .. import plugins
from ..i18n import N_, _, pgettext

HINT_WORD = {"draw": N_("draw"), "bank": N_("bank")}  # boi_odds/boi_win hint values (B-9, B-10)
RULING_NOTE = re.compile(r"\s*\([^()]*\b(?:U|B|BU)-\d+[^()]*\)")


def plain(text: str) -> str:
    """An engine's text for a screen: without its ruling notes ("(U-9)", "(take MIX, U-3)"),
    which stay in the code, the tests, the logs and the Why pages (issue 13)."""
    return RULING_NOTE.sub("", text)


def decimal(text: str) -> str:
    """``text`` with the language's decimal mark (French: a comma)."""
    return text.replace(".", pgettext("decimal mark", "."))


def pct(x: Fraction | float) -> str:
    """A chance as a percentage for a 21-character line: ``13.7%`` (B-9, B-10)."""
    v = float(x) * 100
    if v in (0.0, 100.0):
        return f"{v:.0f}%"
    return decimal(f"{v:.1f}%")


def avg(x: float) -> str:
    """An expected score in at most 5 characters."""
    return decimal(f"{x:.1f}" if x < 99.95 else f"{x:.0f}")


def hint_word(hint: str) -> str:
    return _(HINT_WORD[hint]) if hint in HINT_WORD else hint


def name_of(players: Any, seat: Any) -> str:
    """A seat's name, or "?" for no seat."""
    return players[seat] if seat is not None and 0 <= seat < len(players) else "?"


def waiting_words(state: State, names: list[str]) -> str:
    """What the position waits for, in plain words: ``decision()``'s ``who`` and
    ``kind``, read without building its options (an Undercut auction has thousands).
    Each game words its own waits (its plug-in's ``waiting_words``, issue 45)."""
    who = state.current_player
    if who == TERMINAL:
        return _("The game is over.")
    k = state.decision_kind()
    kind = str(getattr(k, "value", k))
    name = names[who] if 0 <= who < len(names) else None
    # through the registry (issue 45): the plug-ins import this module
    plug = plugins.of(getattr(state, "game", ""))
    text = plug.waiting_words(state, kind, name) if plug is not None else None
    if text is not None:
        return text
    if who == CHANCE:
        return _("The device draws.")
    return _("{name} to play.").format(name=name or "?")


def result_words(state: State, names: list[str]) -> str | None:
    """Who won, in words, once the game is over."""
    outcome = state.outcome()
    if outcome is None:
        return state.describe_end()
    won = [names[i] for i in outcome.winners if 0 <= i < len(names)]
    if not won:
        return _("The game is over.")
    if len(won) == 1:
        return _("{name} wins.").format(name=won[0])
    return _("{names} share the win.").format(names=", ".join(won))
