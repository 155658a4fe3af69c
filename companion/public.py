"""The one public projection of a session (RULINGS V-1): what every view off
the device may show, and nothing more.

The serial console, the scoreboard page on the table's phones and TV (issue
32) and anything else that shows a game away from the OLED read this
projection and never the engine's state: a secret is kept out here, once,
not in each view. What it holds:

* the session: its journal id, the game and its title, whether it is over;
* every player's name and score, whose turn it is, what the device waits
  for in plain words (from ``State.decision()``), the result once over;
* the last moves, as the History screen words them (``move_words``);
* each game's public table: Undercut's combo values, round, end trigger,
  stacks, bids and (at the full-table level) hands; Bag of Ice's banked
  totals, the turn's draws and total, the die face, the bust chance and the
  advice the device's odds screen gives (B-9, B-10); Bottoms Up's field and
  stash.

Never: a Bottoms Up secret color before the end (BU-3), not even in a move's
text; the random generator's seed or state, or anything that tells a future
draw (the bag's contents by kind are left out, its count is kept); a path, a
setting or a device secret. ``hidden_event`` and ``public_event`` are the
same rule for single journal events (the console's ``events`` and ``watch``).

The projection is a plain JSON-able dict with a ``version``; the page's
texts come with it (``labels``), already in the device's language, so no
view translates or computes a rule of its own.
"""
from __future__ import annotations

from typing import Any

from .engine import CHANCE, State
from .i18n import _, language as current_language
from .export import (is_secret, is_secret_text, player_names, score_sheet_png, scores_csv,
                     secrets_before_the_end, session_summary)
from .records import Event, dumps
from .words.moves import move_words
from .words.table import HINT_WORD, result_words, waiting_words
from .words.titles import title_of

VERSION = 1
LAST_MOVES = 8  # the moves a projection carries, newest last

# ---------------------------------------------------------------- single events


def hidden_move(ended: bool, move: Any) -> bool:
    """A move text that is hidden information while the game is not over:
    Bottoms Up's secret colors (BU-3, V-1)."""
    return not ended and is_secret_text(move)


def hidden_event(info, e: Event) -> bool:
    """A journal event a view must not show as it is (V-1): a secret color (BU-3) of a
    session not over. A damaged session's ``end`` lies past its damage and is not the
    game's: the game goes on in the session that continues it (issue 34), so its
    secrets stay hidden."""
    return (not info.ended or info.damaged) and is_secret(e)


def public_event(info, e: Event) -> dict[str, Any]:
    """A journal event as a view may show it (the console's ``events`` and ``watch``):
    the session by its number, a hidden move as ``secret ?``."""
    out = {"session": info.number, **e.to_json()}
    if hidden_event(info, e):
        out["move"] = "secret ?"
    return out


# ---------------------------------------------------------------- the session's view


def session_of(app) -> Any:
    """The session of the top-most screen that plays one, or None (the main menu)."""
    for screen in reversed(app.stack):
        s = getattr(screen, "session", None)
        if s is not None and hasattr(s, "fold"):
            return s
    return None


def _names(state: State, setup: dict[str, Any]) -> list[str]:
    return player_names(state, setup, max(len(state.scores()), 0))


def _moves(session, ended: bool) -> list[str]:
    """The last live moves (undone ones left out), oldest first, each worded in
    the position it was played in, as the History screen words it."""
    fold = session.fold
    out = []
    for k in range(min(LAST_MOVES, len(fold.moves)), 0, -1):
        played, before = fold.moves[-k], fold.states[-1 - k]
        if hidden_move(ended, played.text):
            out.append(_("Secret color drawn."))
        else:
            out.append(move_words(before, played.move))
    return out


def view(session, *, number: int | None = None) -> dict[str, Any]:
    """The public projection of ``session`` (a ``Session``) as it stands."""
    st = session.state
    ended = bool(session.finished or st.is_terminal())
    names = _names(st, session.setup)
    scores = list(st.scores())
    who = st.current_player  # decision().who, without its options
    to_act = who if who >= 0 else None
    out: dict[str, Any] = {
        "version": VERSION,
        "seq": session.last_seq,
        "lang": current_language(),
        "playing": True,  # the device's screen plays this session (False: between games, V-4)
        "session": {"id": session.id, "number": number if number is not None else session.id,
                    "game": session.game, "title": title_of(session.game, translated=False), "over": ended},
        "players": [{"seat": i, "name": n, "score": scores[i] if i < len(scores) else None}
                    for i, n in enumerate(names)],
        "to_act": to_act,
        "device_acts": who == CHANCE,
        "waiting": waiting_words(st, names),
        "result": result_words(st, names) if ended else None,
        "winners": list(getattr(st.outcome(), "winners", ()) or ()) if ended else [],
        "moves": _moves(session, ended),
        "labels": labels(),
    }
    table = {"undercut": _undercut, "bag_of_ice": _bag_of_ice, "bottoms_up": _bottoms_up}.get(session.game)
    out["table"] = table(st, ended) if table is not None else {}
    return out


def idle_view(seq: int, last: dict[str, Any] | None = None) -> dict[str, Any]:
    """The projection when no session is being played (the main menu), RULINGS V-4:
    what a view opened at this moment shows. ``last``: the view of the game the
    device just left; if that game was over, its final result stays, marked as
    finished (``playing`` false, nobody to act), until another game starts. A game
    left unfinished (kept for later, or ended early) is not shown."""
    if last is not None and last.get("session") and last["session"].get("over"):
        return {**last, "seq": seq, "playing": False, "to_act": None, "device_acts": False,
                "waiting": _("No game is being played."), "lang": current_language(), "labels": labels()}
    return {"version": VERSION, "seq": seq, "lang": current_language(), "playing": False, "session": None,
            "players": [], "to_act": None, "device_acts": False, "waiting": _("No game is being played."),
            "result": None, "winners": [], "moves": [], "labels": labels(), "table": {}}


def labels() -> dict[str, str]:
    """The page's fixed words, in the device's language."""
    return {
        "scores": _("Scores"), "waiting": _("Now"), "moves": _("Last moves"), "history": _("History"),
        "round": _("Round"), "combos": _("Combo values"), "end": _("End of the game triggered"),
        "stacks": _("Stacks"), "bid": _("Bid"), "hands": _("Hands"), "bag": _("In the bag"),
        "banked": _("Banked"), "turn": _("This turn"), "drawn": _("Drawn"), "face": _("Die"),
        "bust": _("Bust chance"), "advice": _("Advice"), "field": _("Field"), "stash": _("Stash"),
        "target": _("Target"), "live": _("live"), "offline": _("reconnecting…"), "over": _("Game over"),
        "finished": _("finished"),
        "downloads": _("Downloads"), "no_game": _("No game is being played."), "turn_of": _("to play"),
        "secret": _("Secret colors stay hidden until the end (BU-3)."),
        "scoreboard": _("Scoreboard"),
        "expired": _("This address is no longer valid: scan the QR code on the device again."),
        # a seat's own page (issue 41, V-3)
        "your_color": _("Your color"), "seat_hold": _("Hold to see"), "seat_release": _("Release to hide"),
        "seat_tap_hide": _("Tap to hide"),
        "seat_hint": _("Hold the button to see your color, or tap it (tap again to hide)."),
        "seat_ended": _("The game is over: every color is on the scoreboard, and this seat's page has ended."),
    }


# ---------------------------------------------------------------- each game's table


def _undercut(st: Any, ended: bool) -> dict[str, Any]:
    j = st.to_json()
    full = j.get("level") == "full"
    return {
        "level": j.get("level"), "round": j.get("round"), "phase": j.get("phase"),
        "combo_values": j.get("combo_values"), "end_triggered": j.get("end_triggered"),
        "stacks": [{"name": s["name"], "pieces": list(s["pieces"]),
                    "bid": ({"seat": s["bid"]["seat"], "pieces": list(s["bid"]["pieces"]),
                             "pips": s["bid"]["pips"], "count": s["bid"]["count"]} if s.get("bid") else None)}
                   for s in j.get("stacks", [])],
        # the hands as the full-table screens show them (V-1); the score sheet has none
        "hands": [list(h) for h in j.get("hands", [])] if full else None,
        "bag_count": j.get("bag_count"),
    }


def _bag_of_ice(st: Any, ended: bool) -> dict[str, Any]:
    j = st.to_json()
    out: dict[str, Any] = {
        "target": j.get("target"), "turn": j.get("turn"), "phase": j.get("phase"),
        "banked": list(j.get("totals", [])), "active": j.get("active_player"),
        "drawn": list(j.get("drawn", [])), "turn_total": j.get("turn_score"),
        "arrangement": j.get("arrangement"), "face": j.get("face"), "bag_count": j.get("bag_count"),
        "bust_chance": None, "advice": None,
    }
    if not ended and str(j.get("phase")) in ("decide", "size") and st.active is not None:
        # the odds the device's screen shows (B-9; B-10's winning bank)
        from .games.boi_odds import advice_for  # start-up: the Bag of Ice engine and odds (27 ms) load for its table
        adv = advice_for(st)
        out["bust_chance"] = float(adv.bust_chance)
        out["bust_percent"] = round(float(adv.bust_chance) * 100)
        out["advice"] = _(HINT_WORD.get(adv.hint, adv.hint))
    return out


def _bottoms_up(st: Any, ended: bool) -> dict[str, Any]:
    j = st.to_json()
    return {
        "phase": j.get("phase"), "turn": j.get("turn"),
        "field": [{"label": s["label"], "pieces": list(s["pieces"])} for s in j.get("field", [])],
        "changed": list(j.get("changed", [])),
        "stash": dict(j.get("stash", {})), "stash_count": j.get("stash_count"),
        "destroyed_count": j.get("destroyed_count"),
        # BU-3: the secret colors only once the game is over
        "secret_colors": list(j.get("secret_colors", [])) if ended else None,
        "breakdown": j.get("breakdown") if ended else None,
    }




# ---------------------------------------------------------------- downloads


def holds_hidden(journal, info, events=None) -> bool:
    """True while session ``info`` is not over and a record of it would show a secret
    color (BU-3, V-1): the same rule as ``companion export`` without ``--with-secrets``."""
    events = journal.events(info.id) if events is None else events
    return secrets_before_the_end(session_summary(journal, info), events) > 0


class HiddenInformation(PermissionError):
    """An export that would show a secret color of an unfinished game (V-1)."""


def export(journal, number: int, fmt: str) -> bytes:
    """Session ``#number`` (``Journal.number``, what the table sees) exported as a view
    off the device may give it away (V-1): ``json`` (its game record; refused with
    ``HiddenInformation`` while an unfinished game holds a secret color), ``csv``
    (scores per turn) or ``png`` (the score sheet; neither ever holds a secret color).
    ``KeyError`` for an unknown number."""
    info = journal.by_number(number)
    session_id = info.id
    if fmt == "json":
        events = journal.events(session_id)
        if holds_hidden(journal, info, events):
            raise HiddenInformation(f"game #{number} is not over and holds secret colors (BU-3): "
                                    "its record can be downloaded once it has ended")
        return dumps(info.game, info.setup, events, session=info.number, created=info.created).encode()
    s = session_summary(journal, info)
    if s.fold is None:
        raise ValueError(f"session {session_id} cannot be read: {s.error}")
    if fmt == "csv":
        return scores_csv(s.fold, info.setup).encode()
    if fmt == "png":
        return score_sheet_png(s)
    raise ValueError(f"unknown export format {fmt!r} (json, csv or png)")
