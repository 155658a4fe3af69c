"""The table tools (the die, the bag, the start-player pick) as the shared layers see
them: their moves and what they wait for, in the screens' words. A tool is no
game: it has no table, no winner, no ranking and nothing hidden, but it answers
every part a game's plug-in has (``PARTS``), so no shared code asks which it is."""
from __future__ import annotations

from typing import Any, Callable

from ..engine import Move, Outcome, State
from ..games import tools
from ..i18n import _
from ..words.moves import seat_name
from .open_table import hidden_move, hidden_words, roles, seat_view, seat_words  # noqa: F401  (V-1, V-3: nothing hidden)
from . import ranked
from ..words.pieces import face_words, piece_color_word, piece_size_word, pips_text, size_word


def move_words(st: Any, m: Move) -> str | None:
    """The die, the bag and the start-player pick, in the screens' words."""
    if isinstance(m, tools.Roll):
        return _("roll the die")
    if isinstance(m, tools.Face):
        return _("rolled {face} ({pips})").format(face=face_words(m.face.sizes), pips=pips_text(m.face.pips))
    if isinstance(m, tools.Draw):
        return _("draw a {size} piece").format(size=size_word(m.size)) if m.size else _("draw a piece of any size")
    if isinstance(m, tools.Got):  # both said of the piece: French "verte, petite"
        return _("drew {color} {size}").format(color=piece_color_word(m.piece.color),
                                               size=piece_size_word(m.piece.size))
    if isinstance(m, tools.Keep):
        return _("kept the piece")
    if isinstance(m, tools.Return):
        return _("put the piece back")
    if isinstance(m, tools.Refill):
        return _("put the kept pieces back")
    if isinstance(m, tools.Pick):
        return _("pick a start player")
    if isinstance(m, tools.Start):
        return _("{name} starts").format(name=seat_name(st, m.seat))
    return None


def waiting_words(st: Any, kind: str, name: str | None) -> str | None:
    """A tool with no players to name: what to do with the device's buttons."""
    if name is not None or kind == "chance":  # the device's own draws: the shared words
        return None
    return {"die": lambda: _("Roll the die with the device's buttons."),
            "bag": lambda: _("Draw from the bag with the device's buttons."),
            "pick": lambda: _("Pick the start player with the device's buttons.")}.get(st.game, lambda: None)()


def shown_move_words(st: Any, m: Move) -> str | None:
    return None


def win_reason(st: Any, outcome: Outcome) -> str:
    return ""


def standout(before: Any, after: Any, scored: bool, words: Callable[[], str]) -> tuple[str, str, list[int]] | None:
    return None


def table(st: Any, names: list[str], ended: bool, settings: Any = None) -> dict[str, Any]:
    return {"blocks": []}


def ranking(st: State, winners: list[int]) -> list[tuple[int, int]]:
    return ranked(list(st.scores()), winners, low_wins=False)






def view_key(st: Any, settings: Any) -> Any:
    return ()
