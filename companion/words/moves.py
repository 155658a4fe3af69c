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
from ..i18n import N_, _, ngettext
from .pieces import face_words, mix_words, piece_color_word, piece_size_word, pips_text, size_word
from .table import plain

COMBO = {"TREE": N_("TREE"), "TRIPLETS": N_("TRIPLETS"), "FOURSOME": N_("FOURSOME")}


def move_words(st: State, m: Move) -> str:
    """``m`` played in ``st``, in words (see the module docstring)."""
    # start-up: the engines (Undercut 64 ms, Bottoms Up 31, Bag of Ice 33 on a PC) load when a move of theirs is worded
    wording = {"bag_of_ice": _boi, "undercut": _undercut, "bottoms_up": _bu,
               "die": _tools, "bag": _tools, "pick": _tools}.get(st.game)
    words = wording(st, m) if wording is not None else None
    return words if words is not None else plain(st.describe(m))


def _name(players, seat) -> str:
    return players[seat] if seat is not None and 0 <= seat < len(players) else "?"


def _boi(st: Any, m: Move) -> str | None:
    from ..games import bag_of_ice as boi  # start-up (see move_words)
    who = _name(st.players, st.active)
    if isinstance(m, boi.Start):
        return _("{name} starts").format(name=_name(st.players, m.seat))
    if isinstance(m, boi.Face):
        face = face_words(m.face.sizes)
        if st.phase == boi.Phase.ROLLOFF:
            return _("{name} rolls {face} in the roll-off").format(name=_name(st.players, st.roller), face=face)
        return _("{name} rolls {face}").format(name=who, face=face)
    if isinstance(m, boi.Roll):
        return _("{name} rolls the die").format(name=who)
    if isinstance(m, boi.PickSize):
        return _("{name} picks {size}").format(name=who, size=size_word(m.size))
    if isinstance(m, boi.Got):
        if m.piece.color == st.colors[0]:  # B-4: the bust color
            return _("{name} busts on {piece}").format(name=who, piece=m.piece)
        return _("{name} draws {piece}").format(name=who, piece=m.piece)
    if isinstance(m, boi.Bank):
        n = st.turn_score() if st.phase == boi.Phase.DECIDE else 0
        won = st.active is not None and st.totals[st.active] + n >= st.target  # B-6
        return (_("{name} banks {n} and wins") if won else _("{name} banks {n}")).format(name=who, n=n)
    if isinstance(m, boi.Broken):  # B-8: a broken rule is a bust
        return _("{name} breaks a rule: bust").format(name=who)
    return None


def _tools(st: Any, m: Move) -> str | None:
    """The die, the bag and the start-player pick, in the screens' words."""
    from ..games import tools  # start-up (see move_words)
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


def seat_name(st: Any, seat: int) -> str:
    """A seat of the start-player pick: its name from the setup, else "Player 3"."""
    names = getattr(st, "names", ())
    return names[seat] if seat < len(names) else _("Player {n}").format(n=seat + 1)


def _undercut(st: Any, m: Move) -> str | None:
    from ..games import undercut as uc  # start-up (see move_words)
    from ..games.undercut_moves import COMBOS, STACK_NAMES
    who = _name(st.players, st.active)
    if isinstance(m, uc.StartPlayer):
        return _("{name} starts").format(name=_name(st.players, m.seat))
    if isinstance(m, uc.Got):
        d = st.pending_draw()
        if d is None:
            return None
        if "stack" in d:
            return _("{piece} drawn for stack {stack}").format(piece=m.piece, stack=d["stack"])
        return _("{piece} drawn for {name}").format(piece=m.piece, name=_name(st.players, d["seat"]))
    if isinstance(m, uc.Take):
        return _("{name} takes {mix}").format(name=who, mix=mix_words(m.mix))  # U-3, in words
    if isinstance(m, uc.TurnIn):
        n = st.values[COMBOS.index(m.combo)]
        return ngettext("{name} turns in a {combo}: +{n} point", "{name} turns in a {combo}: +{n} points", n).format(
            name=who, combo=_(COMBO[m.combo]), n=n)
    if isinstance(m, uc.Done):
        return _("{name}: no more combos").format(name=who)
    if isinstance(m, uc.Bid):
        if m.stack >= len(STACK_NAMES):
            return None
        what = " ".join(map(str, m.pieces)) if m.pieces else _("marker only")
        return _("{name} bids {pieces} on stack {stack}").format(name=who, pieces=what, stack=STACK_NAMES[m.stack])
    if isinstance(m, uc.Pass):  # U-11: a pass scores 1 (score sheet: who passed)
        if m.seat is not None:
            return _("{name} passes: +1").format(name=_name(st.players, m.seat))
        if m.size is not None:
            return _("{name} passes: +1, draws a {size}").format(name=who, size=piece_size_word(m.size))
        return _("{name} passes: +1").format(name=who)
    if isinstance(m, uc.HandPips):  # U-13: the tiebreak's hand counts
        return ngettext("{name} holds {n} pip", "{name} holds {n} pips", m.pips).format(name=who, n=m.pips)
    if isinstance(m, uc.HandPieces):
        return ngettext("{name} holds {n} piece", "{name} holds {n} pieces", m.count).format(name=who, n=m.count)
    return None


def _bu(st: Any, m: Move) -> str | None:
    from ..games import bottoms_up as bu  # start-up (see move_words)
    who = _name(st.players, st.active)
    if isinstance(m, bu.Secret):
        return _("{name}'s secret color is drawn").format(name=who)
    if isinstance(m, bu.Reveal):
        return _("{name} reveals {color}").format(name=who, color=_(m.color.value))
    if isinstance(m, bu.Place):
        if m.target is None:
            return _("{name} puts {piece} down alone").format(name=who, piece=m.piece)
        return _("{name} places {piece} on {label}").format(name=who, piece=m.piece, label=m.target)
    at = st.pending_at()
    if at is None:
        return None
    g, _i, piece = at
    if isinstance(m, bu.BlueChoice):  # BU-8: blue recolors, the size stays
        return _("{name}: blue turns {piece} into {new}").format(name=who, piece=piece,
                                                                 new=bu.Piece(m.color, piece.size))
    if isinstance(m, bu.YellowChoice):  # BU-8, BU-9: open space ends the move
        if m.target is None:
            return _("{name}: yellow moves {piece} to open space").format(name=who, piece=piece)
        return _("{name}: yellow moves {piece} onto {label}").format(name=who, piece=piece, label=m.target)
    return None
