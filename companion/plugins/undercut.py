"""Undercut as the shared layers see it (issue 45; the parts are listed in
``companion/plugins/__init__.py``): its moves, waits and verdicts in words, its
win reason (U-13, U-14), its public table (V-1), its ranking (the lowest score
wins) and its hidden information (none a view must hide: the full table's hands
are on the table, V-1)."""
from __future__ import annotations

from typing import Any, Callable

from ..engine import Move, Outcome, State, detail_code
from ..games import undercut as uc
from ..games.undercut_moves import COMBOS, STACK_NAMES
from ..i18n import _, ngettext
from ..words import page
from ..words.moves import COMBO
from ..words.pieces import mix_words, piece_size_word
from ..words.table import name_of
from .open_table import hidden_move, hidden_words, roles, seat_view, seat_words  # noqa: F401  (V-1, V-3: nothing hidden)
from . import blocks, ranked


def move_words(st: Any, m: Move) -> str | None:
    who = name_of(st.players, st.active)
    if isinstance(m, uc.StartPlayer):
        return _("{name} starts").format(name=name_of(st.players, m.seat))
    if isinstance(m, uc.Got):
        d = st.pending_draw()
        if d is None:
            return None
        if "stack" in d:
            return _("{piece} drawn for stack {stack}").format(piece=m.piece, stack=d["stack"])
        return _("{piece} drawn for {name}").format(piece=m.piece, name=name_of(st.players, d["seat"]))
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
            return _("{name} passes: +1").format(name=name_of(st.players, m.seat))
        if m.size is not None:
            return _("{name} passes: +1, draws a {size}").format(name=who, size=piece_size_word(m.size))
        return _("{name} passes: +1").format(name=who)
    if isinstance(m, uc.HandPips):  # U-13: the tiebreak's hand counts
        return ngettext("{name} holds {n} pip", "{name} holds {n} pips", m.pips).format(name=who, n=m.pips)
    if isinstance(m, uc.HandPieces):
        return ngettext("{name} holds {n} piece", "{name} holds {n} pieces", m.count).format(name=who, n=m.count)
    return None


def shown_move_words(st: Any, m: Move) -> str | None:
    return None


def waiting_words(st: Any, kind: str, name: str | None) -> str | None:
    chance = {
        "start": lambda: _("The device picks the start player."),
        "hand_draw": lambda: _("The device deals the hands."),
        "stack_draw": lambda: _("The device draws the stacks."),
        "pass_draw": lambda: _("The device draws for the player who passed."),
    }
    if kind in chance:
        return chance[kind]()
    text = {
        "take": lambda: _("{name} takes a mix of sizes."),
        "turn_in": lambda: _("{name} turns in a combo."),
        "sheet": lambda: _("{name} says what they turn in."),
        "bid": lambda: _("{name} bids or passes."),
        "who_passed": lambda: _("Who passed?"),
        "hand_pips": lambda: _("{name}: pips left in hand?"),
        "hand_pieces": lambda: _("{name}: pieces left in hand?"),
    }.get(kind)
    return text().format(name=name or "?") if text is not None else None


def tie_words(code: str) -> str | None:
    """How a tie on score was broken (U-13, U-14 as amended), as the winner screen says it."""
    words = {uc.WinBy.PIPS.value: lambda: _("tie broken by pips"), uc.WinBy.PIECES.value: lambda: _("tie broken by pieces"),
             uc.WinBy.SHARED.value: lambda: _("same pips and pieces")}.get(code)
    return words() if words is not None else None


def win_reason(st: Any, outcome: Outcome) -> str:
    """The lowest score wins (U-13), how a tie was broken, and the tie-break's figures
    as the winner screen gives them ("Ann 5 pips · Bob 8 pips", U-14)."""
    tie = tie_words(detail_code(outcome.detail))
    figures = tie_figures(st, detail_code(outcome.detail)) if tie else None
    return _("lowest score wins") + (f" · {tie}" if tie else "") + (f" · {figures}" if figures else "")


def tie_figures(st: Any, code: str) -> str | None:
    """The tied players' figures, as the device's winner screen gives them (U-13, U-14):
    their hand pips; their pieces when the pips tied too (only the players still tied
    on pips went on to count pieces). None where a figure is unknown."""
    tied = list(getattr(st, "tied", ()) or ())
    if len(tied) < 2:
        return None
    players = list(st.players)

    def pips(i: int) -> int | None:
        return st.tb_pips[i] if st.tb_pips else (st.hands[i].pips() if st.full else None)

    def pieces(i: int) -> int | None:
        return st.tb_pieces[i] if st.tb_pieces else (len(st.hands[i]) if st.full else None)
    if any(pips(i) is None for i in tied):
        return None
    if code == uc.WinBy.PIECES.value:
        least = min(pips(i) for i in tied)  # type: ignore[type-var]
        tied = [i for i in tied if pips(i) == least]
        if any(pieces(i) is None for i in tied):
            return None
        return page.tiebreak_words(players, tied, [pieces(i) for i in tied], True)  # type: ignore[misc]
    return page.tiebreak_words(players, tied, [pips(i) for i in tied], False)  # type: ignore[misc]


def standout(before: Any, after: Any, scored: bool, words: Callable[[], str]) -> tuple[str, str, list[int]] | None:
    """The end of a round (U-12) stands out on the page as on the device, where the
    move that ended it changed no score (else the score change does)."""
    if not scored and after.round != before.round and before.round:
        return "round", _("Round {n} is over.").format(n=before.round) + " " + words(), []
    return None


def ranking(st: State, winners: list[int]) -> list[tuple[int, int]]:
    """The winners first, then the lowest score first (U-13); equal standings share a place."""
    return ranked(list(st.scores()), winners, low_wins=True)






def view_key(st: Any, settings: Any) -> Any:
    return ()


def combo_word(name: str) -> str:
    """A combo's name as the device says it (TREE: ARBRE in French)."""
    return _(COMBO[name]) if name in COMBO else name


def table(st: Any, names: list[str], ended: bool, settings: Any = None) -> dict[str, Any]:
    """Undercut's table: the combo values, the round, the end trigger, the stacks and
    bids, and at the full-table level the hands (V-1); the score sheet has none."""
    j = st.to_json()
    full = j.get("level") == "full"
    combos = j.get("combo_values") or {}
    stacks = [{"name": s["name"], "pieces": list(s["pieces"]),
               "bid": ({"seat": s["bid"]["seat"], "pieces": list(s["bid"]["pieces"]),
                        "pips": s["bid"]["pips"], "count": s["bid"]["count"]} if s.get("bid") else None)}
              for s in j.get("stacks", [])]
    hands = [list(h) for h in j.get("hands", [])] if full else None
    out: dict[str, Any] = {
        "level": j.get("level"), "round": j.get("round"), "phase": j.get("phase"),
        "combo_values": combos, "combos": [{"name": combo_word(k), "value": v} for k, v in combos.items()],
        "end_triggered": j.get("end_triggered"), "stacks": stacks, "hands": hands,
        "bag_count": j.get("bag_count"),
    }
    shown: list[blocks.Block] = [blocks.facts([(_("Round"), j.get("round")),
                                               (_("End of the game triggered"), "✓" if j.get("end_triggered") else None),
                                               (_("In the bag"), j.get("bag_count"))])]
    if out["combos"]:
        shown += [blocks.heading(_("Combo values")),
                  blocks.listing("combos", [{"parts": [blocks.part(c["name"], cls="combo"), blocks.part(c["value"], tag="b")]}
                                            for c in out["combos"]])]
    if stacks:
        items = []
        for s in stacks:
            parts = [blocks.part(s["name"], tag="b"), blocks.pieces(s["pieces"])]
            if s["bid"]:
                # "Bid: Ann", and "marker only" for the zero bid (U-9): never a bid with no value
                words = page.bid_words(name_of(names, s["bid"]["seat"]), not s["bid"]["pieces"])
                parts.append(blocks.part(words + " ", cls="bid", pieces=s["bid"]["pieces"], scale=0.8))
            items.append({"parts": parts})
        shown += [blocks.heading(_("Stacks")), blocks.listing("stacks", items)]
    if hands is not None:
        shown += [blocks.heading(_("Hands")),
                  blocks.listing("hands", [{"parts": [blocks.part(name_of(names, i), tag="b"), blocks.pieces(h, 0.8)]}
                                           for i, h in enumerate(hands)])]
    out["blocks"] = shown
    return out
