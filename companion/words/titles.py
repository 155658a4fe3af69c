"""A game's or a tool's title (issue 40): one function for the screens, the
console, the projection and the exports.

The titles are marked for the catalog where the games are listed
(``companion.games.GAMES`` and ``TOOLS``). The screens and the command line
show them translated; the exports, the summaries and the projection keep the
English title the records use (``translated=False``), which a screen
translates when it shows it.
"""
from __future__ import annotations

from ..games import GAMES, TOOLS
from ..i18n import _


def title_of(game: str, *, translated: bool = True) -> str:
    """``game``'s title (``undercut`` -> "Undercut"; an unknown name as it is)."""
    title = (GAMES.get(game) or TOOLS.get(game) or (game, game))[1]
    return _(title) if translated else title


def session_title(game: str, number: int) -> str:
    """"Undercut #3": a session by its game and its number, as History titles it and as
    the game's session menu says it (issue 39)."""
    return _("{game} #{n}").format(game=title_of(game), n=number)
