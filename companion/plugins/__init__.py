"""A game is a plug-in (issue 45): one module per game, beside its engine's, holds
everything the shared layers need of that game, as boardgame.io's ``Game`` objects
and OpenSpiel's registered games do. The registry (``companion.games.GAMES``) names
it; ``of(game)`` loads it and checks it has every part (``PARTS``), so a game
registered without one fails at once, by name, and never falls back silently.

The parts (module-level names of the plug-in):

* ``move_words(state, move)``: a move in the catalog's words, in the position it
  was played in (the History, the undo question, the page's last moves);
* ``shown_move_words(state, move)``: where the page says a move otherwise than
  the History (Bag of Ice's roll-off in pips, B-3), else None;
* ``waiting_words(state, kind, name)``: what the position waits for, by the
  ``decision_kind`` (the device's draws included), or None;
* ``win_reason(state, outcome)``: the rule that made the winner(s) win, in words
  (``Outcome.detail`` is a code, worded here);
* ``standout(before, after, words)``: a change the device makes stand out other
  than a score (a Bag of Ice bust, an Undercut round's end): ``(kind, text,
  seats)`` or None;
* ``table(state, names, ended, settings)``: the game's public table (V-1): its
  facts as data, and ``blocks`` (``companion.plugins.blocks``) the page draws with
  no game name in its script;
* ``ranking(state, winners)``: the seats in final order with their places (ties
  share a place);
* ``hidden_move(text)``: a move text that is hidden information while the game is
  not over (V-1), and ``hidden_words()``: what a view says in its place;
* ``seat_view(state, seat)``: what one seat may see beyond the public view (V-3,
  boardgame.io's ``playerView``), or None; ``seat_words(part)``: that part with
  its words in the language of the moment (the seat page's);
* ``view_key(state, settings)``: what beside the journal changes the table (the
  device's settings that change what its screen says);
* ``roles(state)``: each seat's role in words once the game is over (BG Stats'
  ``role``: a Bottoms Up secret color, public only then, V-1), else [].

This package sits with ``companion/words/`` (it words things, and imports the
words and the core): the projection, the exports and the page import it, never
the reverse. ``words.moves`` and ``words.table`` reach it through the registry.
"""
from __future__ import annotations

from types import ModuleType

from ..games import GAMES, TOOLS, plugin

# what every game's plug-in has (and a tool's: trivially, a tool has no table)
PARTS = ("move_words", "shown_move_words", "waiting_words", "win_reason", "standout", "table", "ranking",
         "hidden_move", "hidden_words", "seat_view", "seat_words", "view_key", "roles")


class IncompletePlugin(TypeError):
    """A game registered without one of the parts the shared layers need of it."""


_CHECKED: dict[str, ModuleType] = {}





def of(game: str) -> ModuleType | None:
    """The plug-in of ``game`` (a game's or a tool's record name), checked whole
    (``IncompletePlugin`` names what it lacks); None for a name not registered."""
    hit = _CHECKED.get(game)
    entry = GAMES.get(game) or TOOLS.get(game)
    if hit is not None and entry is not None and hit.__name__ == entry.plugin:
        return hit
    module = plugin(game)
    if module is None:
        return None
    missing = [p for p in PARTS if not callable(getattr(module, p, None))]
    if missing:
        raise IncompletePlugin(f"game {game!r} is registered without {', '.join(missing)} "
                               f"in its plug-in {module.__name__} (see companion/plugins/__init__.py)")
    _CHECKED[game] = module
    return module


def ranked(scores: list[int], winners: list[int], *, low_wins: bool) -> list[tuple[int, int]]:
    """``(seat, place)`` in final order: the winners first (place 1, shared), then by
    score (the lowest first if ``low_wins``); equal scores share a place, and the
    next place counts the seats before it (1, 1, 3)."""
    won = set(winners)

    def key(i: int) -> tuple[bool, int]:
        return (i not in won, scores[i] if low_wins else -scores[i])
    order = sorted(range(len(scores)), key=lambda i: (*key(i), i))
    out: list[tuple[int, int]] = []
    for k, seat in enumerate(order):
        place = out[-1][1] if out and key(order[k - 1]) == key(seat) else k + 1
        out.append((seat, place))
    return out

