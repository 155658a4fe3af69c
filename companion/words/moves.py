"""A move in words (issue 21; below the views since issue 40): what the undo
question, the History's move list and the projection's last moves (the page,
the console) show, in the language of the moment.

The engines' ``describe`` lines are English (the records', the console's and
the logs' vocabulary). ``move_words(state, move)`` says the same in the
catalog's words, from the move's type and fields in the position it was
played in; piece codes (``rS``) and stack labels stay as they are on the
table (the legend is on the Why pages). A move it does not know falls back to
``describe`` without its ruling notes.
"""
from __future__ import annotations

from typing import Any

from ..engine import Move, State
from .. import plugins
from ..i18n import N_, _
from .table import plain

COMBO = {"TREE": N_("TREE"), "TRIPLETS": N_("TRIPLETS"), "FOURSOME": N_("FOURSOME")}


def move_words(st: State, m: Move) -> str:
    """``m`` played in ``st``, in words (see the module docstring): each game's or
    tool's plug-in words its own moves (issue 45)."""
    # start-up: a plug-in loads its engine (Undercut 64 ms, Bottoms Up 31, Bag of Ice 33 on a PC)
    # when a move of its game is first worded; through the registry: the plug-ins import this module
    plug = plugins.of(st.game)
    words = plug.move_words(st, m) if plug is not None else None
    return words if words is not None else plain(st.describe(m))


def seat_name(st: Any, seat: int) -> str:
    """A seat of the start-player pick: its name from the setup, else "Player 3"."""
    names = getattr(st, "names", ())
    return names[seat] if seat < len(names) else _("Player {n}").format(n=seat + 1)
