"""Bag of Ice as the shared layers see it (issue 45; the parts are listed in
``companion/plugins/__init__.py``): its moves, waits and verdicts in words (a
bust, B-4, B-8), its win reason (the first to the target, B-6), its public table
(V-1: the banked totals, the turn's draws, the die, the bust chance and the
advice the device's odds screen gives, B-9, B-10; the bag's count, never its
contents), its ranking and its hidden information (none)."""
from __future__ import annotations

from typing import Any, Callable

from ..engine import Move, Outcome, State
from ..games import bag_of_ice as boi
from ..i18n import _, ngettext
from ..words.pieces import face_words, pips_text, size_word
from ..words.table import avg, hint_word, name_of, pct
from .open_table import hidden_move, hidden_words, roles, seat_view, seat_words  # noqa: F401  (V-1, V-3: nothing hidden)
from . import blocks, ranked


def move_words(st: Any, m: Move) -> str | None:
    who = name_of(st.players, st.active)
    if isinstance(m, boi.Start):
        return _("{name} starts").format(name=name_of(st.players, m.seat))
    if isinstance(m, boi.Face):
        face = face_words(m.face.sizes)
        if st.phase == boi.Phase.ROLLOFF:
            return _("{name} rolls {face} in the roll-off").format(name=name_of(st.players, st.roller), face=face)
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


def shown_move_words(st: Any, m: Move) -> str | None:
    """A roll-off roll as the device's roll-off screen says it: its pips (B-3)."""
    if st.phase != boi.Phase.ROLLOFF or not isinstance(m, boi.Face):
        return None
    return rolloff_text(name_of(st.players, st.roller), m.face.pips)


def rolloff_text(name: str, pips: int) -> str:
    return _("{name} rolls {pips} in the roll-off").format(name=name, pips=pips_text(pips))


def waiting_words(st: Any, kind: str, name: str | None) -> str | None:
    text = {
        "start": lambda: _("The device picks the start player."),
        "rolloff": lambda: _("The device rolls the roll-off."),
        "roll": lambda: _("The device rolls the die."),
        "draw": lambda: _("The device draws from the bag."),
        "decide": lambda: _("{name} draws or banks."),
        "size": lambda: _("{name} picks a size."),
    }.get(kind)
    return text().format(name=name or "?") if text is not None else None


def win_reason(st: Any, outcome: Outcome) -> str:
    """The first to reach the target wins (B-6)."""
    return _("first to reach {n} points wins").format(n=st.target) if st.target else ""


def bust_word() -> str:
    """The bust's own word, large on the device's BUST! screen (B-4, B-8)."""
    return _("BUST!")


def bust_cause(bust_on: Any) -> str:
    """What busted, with a ``{name}`` for the player: the bust color's piece drawn (B-4)
    or a rule broken (B-8)."""
    if bust_on == "broken":  # B-8
        return _("{name}: rule broken")
    return _("{name} drew {piece}").format(piece=bust_on, name="{name}")  # B-4


def bust_lost(lost: int) -> str | None:
    """The points the bust lost; None when the turn had scored none."""
    return ngettext("{n} point lost", "{n} points lost", lost).format(n=lost) if lost else None


def bust_text(move: str, lost: int) -> str:
    """A bust as the page says it, in the BUST! screen's words (B-4, B-8)."""
    points = bust_lost(lost)
    return bust_word() + " " + move + (" · " + points if points else "")


def standout(before: Any, after: Any, scored: bool, words: Callable[[], str]) -> tuple[str, str, list[int]] | None:
    """A bust stands out on the page as the device's BUST! screen (B-4, B-8)."""
    if len(after.history) > len(before.history) and after.history[-1].bust:
        seat = after.history[-1].seat
        return "bust", bust_text(words(), before.turn_score()), ([seat] if seat is not None else [])
    return None


def ranking(st: State, winners: list[int]) -> list[tuple[int, int]]:
    """The winner first, then the highest total first (B-6)."""
    return ranked(list(st.scores()), winners, low_wins=False)






def view_key(st: Any, settings: Any) -> Any:
    """The turn solved for the win (B-10: the device's screen then shows the chances)
    and the settings that change what its screen says."""
    # start-up: the Bag of Ice win table loads when a Bag of Ice table is shown
    from ..games import boi_win
    try:
        solved = boi_win.applies(st) and st.active is not None and boi_win.is_solved(st)
    except Exception:
        solved = False
    return (solved, getattr(settings, "boi_hints", True), getattr(settings, "boi_advice", "win"))


def table(st: Any, names: list[str], ended: bool, settings: Any = None) -> dict[str, Any]:
    j = st.to_json()
    out: dict[str, Any] = {
        "target": j.get("target"), "turn": j.get("turn"), "phase": j.get("phase"),
        "banked": list(j.get("totals", [])), "active": j.get("active_player"),
        "drawn": list(j.get("drawn", [])), "turn_total": j.get("turn_score"),
        "arrangement": j.get("arrangement"), "face": j.get("face"), "bag_count": j.get("bag_count"),
        "bust_chance": None, "advice": None, "odds": None, "rolloff": _rolloff(st),
    }
    if not ended and str(j.get("phase")) in ("decide", "size") and st.active is not None:
        out.update(odds_view(st, settings))
    playing = out["phase"] != "over"
    rows: list[tuple[str, Any]] = [(_("Target"), out["target"]), (_("Drawn"), out["drawn"] or None)]
    if out["active"] is not None and playing:
        rows.append((_("This turn"), out["turn_total"]))
    rows.append((_("Bust chance"), out.get("bust")))
    if out.get("win"):
        rows += [(_("bank: win"), out["win"]["bank"]), (_("draw: win"), out["win"]["draw"])]
    rows += [(_("to win") if out.get("to_win") else _("Advice"), out["advice"]), (_("In the bag"), out["bag_count"])]
    shown: list[blocks.Block] = [blocks.facts(rows)]
    if out.get("sizes"):
        advised = out.get("size_advice")
        shown.append(blocks.grid("sizes", [_("size?"), _("Bust chance"), _("win") if out.get("to_win") else _("avg")],
                                 [{"cells": [f"{s['size']} ◀" if s["size"] == advised else s["size"], s["bust"],
                                             s["win"] if out.get("to_win") else s["avg"]],
                                   **({"cls": "advised"} if s["size"] == advised else {})} for s in out["sizes"]]))
    if out["rolloff"] and out["phase"] == "rolloff":
        shown += [blocks.heading(_("Roll-off")),
                  blocks.listing("rolloff", [f"{name_of(names, r['seat'])}: {r['text']}" for r in out["rolloff"]])]
    out["blocks"] = shown
    if out["turn_total"] is not None and playing:
        out["data"] = {"turnTotal": out["turn_total"]}
    return out


def _rolloff(st: Any) -> list[dict[str, Any]] | None:
    """The roll-off's last round as the device shows it: each roll's pips (B-3)."""
    rolls = st.rolloff
    if not rolls:
        return None
    return [{"seat": seat, "pips": face.pips, "text": pips_text(face.pips)} for seat, face in rolls[-1]]


def odds_view(st: Any, settings: Any = None) -> dict[str, Any]:
    """What the device's Bag of Ice screen says before a decision, from the same code
    (companion/ui/bag_of_ice.py, B-9 and B-10): the bust chance, the advice (to win the
    game once the turn is solved for two players, else for the turn score), the chances
    to win of banking and drawing, and on a two-size face each size's figures and the
    size advised. Hints off (the ``boi_hints`` setting): no advice, as on the device."""
    # start-up: the Bag of Ice odds and win tables load when a Bag of Ice table is shown
    from ..games import boi_win
    from ..games.boi_odds import advice_for
    adv = advice_for(st)
    hints = getattr(settings, "boi_hints", True)
    mode = getattr(settings, "boi_advice", "win")
    win = None
    if mode == "win" and boi_win.applies(st) and boi_win.is_solved(st):
        win = boi_win.win_advice(st)
    phase = str(getattr(st.phase, "value", st.phase))
    out: dict[str, Any] = {"bust_chance": float(adv.bust_chance), "bust_percent": round(float(adv.bust_chance) * 100),
                           "bust": pct(adv.bust_chance), "to_win": win is not None, "advice": None,
                           "win": None, "sizes": None, "size_advice": None}
    if phase == "size" and st.face is not None:
        out["sizes"] = [{"size": size_word(z), "bust": pct(adv.per_size[z].bust_chance),
                         "avg": avg(adv.per_size[z].expected),
                         "win": pct(win.per_size[z]) if win is not None else None} for z in st.face.sizes]
        if hints:
            chosen = (win.size_choice if win is not None else adv.size_choice)[st.face]
            out["size_advice"] = size_word(chosen)
            out["advice"] = size_word(chosen)
        return out
    if win is not None:
        out["win"] = {"bank": pct(win.bank), "draw": pct(win.draw)}
    if hints:
        out["advice"] = hint_word(win.hint if win is not None else adv.hint)
    return out
