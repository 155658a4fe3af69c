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

import re
from functools import lru_cache
from typing import Any

from . import bgstats, chart, stats
from .engine import CHANCE, State
from .i18n import _, language as current_language
from . import plugins
from .export import (chart_of, is_hidden, player_names, score_sheet_png, scores_csv, secrets_before_the_end,
                     session_summary, summaries, summarize)
from .words import chart as chart_words
from .records import Event, dumps
from .shown import Shown
from .words import page
from .words.moves import move_words
from .words.table import result_words, waiting_words
from .words.titles import title_of

VERSION = 1
LAST_MOVES = 8  # the moves a projection carries, newest last

# ---------------------------------------------------------------- single events


def game_of(game: str) -> Any:
    """``game``'s plug-in (issue 45): the only way this module reaches a game."""
    plug = plugins.of(game)
    if plug is None:
        raise plugins.IncompletePlugin(f"game {game!r} is not registered (companion.games.GAMES)")
    return plug


def hidden_move(game: str, ended: bool, move: Any) -> bool:
    """A move text that is hidden information while the game is not over (V-1): the
    game's plug-in says which (a Bottoms Up secret color, BU-3)."""
    return not ended and game_of(game).hidden_move(move)


def hidden_event(info, e: Event) -> bool:
    """A journal event a view must not show as it is (V-1): a secret color (BU-3) of a
    session not over. A damaged session's ``end`` lies past its damage and is not the
    game's: the game goes on in the session that continues it (issue 34), so its
    secrets stay hidden."""
    return (not info.ended or info.damaged) and is_hidden(info.game, e)


def public_event(info, e: Event) -> dict[str, Any]:
    """A journal event as a view may show it (the console's ``events`` and ``watch``):
    the session by its number, a hidden move as ``secret ?``."""
    out = {"session": info.number, **e.to_json()}
    if hidden_event(info, e):
        out["move"] = "secret ?"
    return out


# ---------------------------------------------------------------- the session's view


def _names(state: State, setup: dict[str, Any]) -> list[str]:
    return player_names(state, setup, max(len(state.scores()), 0))


def _moves(session, ended: bool) -> list[str]:
    """The last live moves (undone ones left out), oldest first, each worded in
    the position it was played in, as the History screen words it."""
    fold = session.fold
    plug = game_of(session.game)
    out = []
    for k in range(min(LAST_MOVES, len(fold.moves)), 0, -1):
        played, before = fold.moves[-k], fold.states[-1 - k]
        if hidden_move(session.game, ended, played.text):
            out.append(plug.hidden_words())
        else:
            out.append(plug.shown_move_words(before, played.move) or move_words(before, played.move))
    return out


def view(session, shown: Shown = Shown.GAME, settings: Any = None, *, number: int | None = None) -> dict[str, Any]:
    """The public projection of ``session`` (a ``Session``) as it stands.

    ``shown``: what the device's screen shows over the game (``companion.shown``,
    declared by its screens, published by the app): the page follows it, never
    runs ahead of it (no winner while a page of what the last move did covers it,
    nobody to play while the device shows what a move did, asks the table or goes
    round for the secret colors); ``settings``: the device's (its Bag of Ice hints
    and advice, as its screen gives them)."""
    st = session.state
    ended = bool(session.finished or st.is_terminal())
    names = _names(st, session.setup)
    scores = list(st.scores())
    who = st.current_player  # decision().who, without its options
    to_act = who if who >= 0 else None
    waiting = waiting_words(st, names)
    crowned = ended and shown.crowns  # the device shows its winner
    if not ended and not shown.names_a_player:
        to_act = None
        if shown is Shown.SECRETS:  # BU-3: the table passes the device round
            waiting = page.secret_tour_words()
        elif shown is Shown.MOVE:  # e.g. a bust still on the device's screen (B-4)
            waiting = page.move_page_words()
    elif ended and not crowned:  # e.g. Undercut's "End triggered" page is still up
        waiting = page.end_pending_words()
    out: dict[str, Any] = {
        "version": VERSION,
        "seq": session.last_seq,
        "lang": current_language(),
        "playing": True,  # the device's screen plays this session (False: between games, V-4)
        "session": _session_of(session, number, ended),
        "players": [{"seat": i, "name": n, "score": scores[i] if i < len(scores) else None}
                    for i, n in enumerate(names)],
        "to_act": to_act,
        "device_acts": who == CHANCE,
        "waiting": waiting,
        "result": result_words(st, names) if crowned else None,
        "winners": list(getattr(st.outcome(), "winners", ()) or ()) if crowned else [],
        "end": end_of(st, names) if crowned else None,
        # issue 50: the BG Stats link and the chart, at the end only (V-1)
        "after": after_of(session, number) if crowned else None,
        "change": change_of(session, names),
        "moves": _moves(session, ended),
        "labels": labels(),
    }
    out["table"] = game_of(session.game).table(st, names, ended, settings)
    out["piece_names"] = piece_names_in(out["table"])
    return typeset_view(out)


def _session_of(session, number: int | None, ended: bool) -> dict[str, Any]:
    n = number if number is not None else session.id
    title = title_of(session.game)
    # "Undercut #3", "Undercut n°3" in French: as the device's titles write a game's number
    return {"id": session.id, "number": n, "game": session.game, "title": title, "over": ended,
            "label": _("{game} #{n}").format(game=title, n=n)}


# the projection's parts that are a player's own text (a name), never typeset
_AS_TYPED = frozenset({"players", "names", "piece_names"})


def typeset_view(v: dict[str, Any]) -> dict[str, Any]:
    """The projection's words as the page prints them in its language (French: a narrow
    no-break space before ":" ";" "!" "?" "%", "n°3"; ``page.typeset``); names as typed."""
    lang = v.get("lang") or current_language()
    if lang != "fr":
        return v

    def walk(x: Any) -> Any:
        if isinstance(x, str):
            return page.typeset(x, lang)
        if isinstance(x, dict):
            return {k: (y if k in _AS_TYPED else walk(y)) for k, y in x.items()}
        if isinstance(x, list):
            return [walk(y) for y in x]
        return x
    return {k: (y if k in _AS_TYPED or k == "labels" else walk(y)) for k, y in v.items()}


PIECE_CODE = re.compile(r"^[a-z][SML]$")


def piece_names_in(table: dict[str, Any]) -> dict[str, str]:
    """The pieces the table shows, in words (a screen reader's "purple medium" for
    ``pM``): only those shown, so no word of a piece that is not on the page (a
    secret color's, V-1: the plug-in's table has none before the end) is in the
    projection."""
    codes: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            if PIECE_CODE.match(x):
                codes.add(x)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)
    walk(table)
    return {c: page.piece_words(c) for c in sorted(codes)}


def view_key(session, shown: Shown, settings: Any = None) -> Any:
    """What, beside the journal's position and the language, changes the projection:
    what the device's screen shows over the game, and what of its game beside the
    journal changes its table (the game's plug-in's ``view_key``: the Bag of Ice turn
    solved for the win, B-10, and the settings that change what its screen says)."""
    extra = game_of(session.game).view_key(session.state, settings)
    return (shown, extra)


def end_of(st: State, names: list[str]) -> dict[str, Any] | None:
    """The end of the game as the winner screens say it: the winner(s), the rule
    that made them win and the players in final order with their places (ties
    share one), each from the game's plug-in (U-13/U-14, B-6, BU-12)."""
    outcome = st.outcome()
    if outcome is None:
        return None
    winners = [i for i in outcome.winners if 0 <= i < len(names)]
    plug = game_of(st.game)
    ranking = plug.ranking(st, winners)
    return {"title": page.win_title(len(winners)), "names": [names[i] for i in winners],
            "reason": plug.win_reason(st, outcome), "order": [seat for seat, _place in ranking],
            "places": [place for _seat, place in ranking], "mark": page.winner_mark()}


def _scores_at(st: State) -> tuple[int, ...]:
    try:
        return tuple(st.scores())
    except Exception:
        return ()


def change_of(session, names: list[str]) -> dict[str, Any] | None:
    """The last thing that changed the score or the turn's fate, as the device
    makes it stand out: a score change (the seats and by how much), a Bag of Ice
    bust (the device's BUST!, B-4, B-8), the end of an Undercut round, an undo
    ("undone: ..."). It stays until the next such change; ``None`` before any."""
    fold = session.fold
    plug = game_of(session.game)
    events = getattr(session, "events", [])
    if events and events[-1].type == "undo":
        undone = []
        for e in reversed(events):  # the undo events at the end: one undo or a few in a row
            if e.type != "undo":
                break
            undone.append(e.data.get("undoes"))
        line = _undone_line(session, undone)
        return {"kind": "undo", "seq": events[-1].seq, "text": page.undone_text(line),
                "seats": [], "deltas": []}
    ended = bool(session.finished or session.state.is_terminal())
    n = len(fold.moves)
    # the moves already looked at, when none was a change since (a Bottoms Up game scores only
    # at its end: without this every press would look back SCAN_BACK moves)
    seen = _SCANNED.get(session.id)
    low = max(0, n - SCAN_BACK)
    if seen is not None and seen[2] == ended and 0 < seen[0] <= n and fold.moves[seen[0] - 1] is seen[1]:
        if seen[3] is None:
            low = max(low, seen[0])
    _SCANNED[session.id] = (n, fold.moves[-1] if n else None, ended, None)
    for k in range(n, low, -1):
        before, after, played = fold.states[k - 1], fold.states[k], fold.moves[k - 1]
        if hidden_move(session.game, ended, played.text):
            continue
        sb, sa = _scores_at(before), _scores_at(after)
        scored = sb != sa and len(sb) == len(sa)

        def words(before: Any = before, move: Any = played.move) -> str:
            return move_words(before, move)
        # the game's own verdict first (a Bag of Ice bust, B-4, B-8; an Undercut round's end
        # that scored nothing), then a score change
        verdict = plug.standout(before, after, scored, words)
        if verdict is not None:
            kind, text, seats = verdict
            deltas = []
        elif scored:
            kind = "score"
            seats = [i for i in range(len(sa)) if i < len(sb) and sa[i] != sb[i]]
            deltas = [sa[i] - sb[i] for i in seats]
            text = page.score_change_text(words(), [(names[i] if i < len(names) else "?", d)
                                                    for i, d in zip(seats, deltas)])
        else:
            continue
        _SCANNED[session.id] = (n, fold.moves[-1], ended, k)
        return {"kind": kind, "seq": played.seq, "text": text, "seats": seats, "deltas": deltas}
    return None


_SCANNED: dict[Any, tuple[int, Any, bool, int | None]] = {}  # session id: (moves, last move, ended, change)
SCAN_BACK = 400  # moves looked back for the last change (a Bag of Ice turn is a few dozen)


def _undone_line(session, undone: list[Any]) -> str:
    """The player decision the last undo took back, in words (the device's undo question)."""
    by_seq = {e.seq: e for e in getattr(session, "events", []) if e.type == "move"}
    first = min((s for s in undone if s in by_seq), default=None)
    if first is None:
        return "?"
    text = by_seq[first].data.get("move", "")
    if hidden_move(session.game, bool(session.finished or session.state.is_terminal()), text):
        return game_of(session.game).hidden_words()
    st = session.state
    try:
        return move_words(st, st.parse_move(text))
    except Exception:
        return str(text)


def after_of(session, number: int | None = None) -> dict[str, Any] | None:
    """What the page offers once a game is over (issue 50): the link that logs the play
    in BG Stats (``bgstats.play_link``: a game over by its rules only) and the chart of
    the game (``export.chart_of``) with the address of its SVG; ``None`` before the end
    (V-1) or for a session the journal does not know."""
    journal = getattr(session, "journal", None)
    if journal is None or not (session.finished or session.state.is_terminal()):
        return None
    try:
        info = journal.session(session.id)
    except Exception:  # a journal that cannot say when the game began: no link, no chart
        return None
    s = summarize(session.id, session.game, session.setup, info.created, session.events,
                  number=number or getattr(session, "number", 0) or 0)
    c = chart_of(s)
    return {"bgstats": bgstats.play_link(s, session.events),
            "chart": c.to_json() if c is not None else None,
            "chart_svg": f"chart/{s.shown}.svg" if c is not None else None}


def chart_svg(journal, number: int) -> bytes | None:
    """Game ``#number``'s chart as an SVG file, or ``None`` while the game is not over
    (V-1) or has no scores; ``KeyError`` for an unknown number."""
    info = journal.by_number(number)
    c = chart_of(session_summary(journal, info))
    return chart.svg(c, ident=f"chart{number}").encode() if c is not None else None


def history_extra(journal, info, s) -> dict[str, Any]:
    """A finished game's line in the history: its BG Stats link and its chart (issue 50)."""
    c = chart_of(s)
    return {"bgstats": bgstats.play_link(s, journal.events(info.id)) if s.termination else None,
            "chart": c.to_json() if c is not None else None,
            "chart_svg": f"chart/{s.shown}.svg" if c is not None else None}


def players_view(journal, scope: str = "all") -> dict[str, Any]:
    """The Players page (issue 50): each roster name's numbers per game
    (``stats.player_stats``), over the journal or the last evening."""
    scope = "evening" if scope == "evening" else "all"
    return {"lang": current_language(), "scope": scope, "scope_words": chart_words.scope_words(scope),
            "other_scope": "all" if scope == "evening" else "evening",
            "other_words": chart_words.scope_words("all" if scope == "evening" else "evening"),
            "headings": chart_words.players_headings(), "title": chart_words.players_title(),
            "labels": labels(),
            "players": [p.to_json() for p in stats.player_stats(summaries(journal), scope)]}


def idle_view(seq: int, last: dict[str, Any] | None = None) -> dict[str, Any]:
    """The projection when no session is being played (the main menu), RULINGS V-4:
    what a view opened at this moment shows. ``last``: the view of the game the
    device just left; if that game was over, its final result stays, marked as
    finished (``playing`` false, nobody to act), until another game starts. A game
    left unfinished (kept for later, or ended early) is not shown."""
    if last is not None and last.get("session") and last["session"].get("over"):
        return typeset_view({**last, "seq": seq, "playing": False, "to_act": None, "device_acts": False,
                             "waiting": _("No game is being played."), "lang": current_language(),
                             "labels": labels()})
    return {"version": VERSION, "seq": seq, "lang": current_language(), "playing": False, "session": None,
            "players": [], "to_act": None, "device_acts": False, "waiting": _("No game is being played."),
            "result": None, "winners": [], "end": None, "change": None, "moves": [], "labels": labels(),
            "table": {}, "piece_names": {}}


# ---------------------------------------------------------------- a seat's own page (V-3)

SEAT_LIVE, SEAT_OVER, SEAT_AWAY, SEAT_ENDED = "live", "over", "away", "ended"


def seat_view(base: dict[str, Any], seat: dict[str, Any], state: str) -> dict[str, Any]:
    """Seat page ``seat`` (``companion.seats.seat_part``) over ``base``, the view of its
    own game (RULINGS V-3, amended 2026-11-29): ``state`` says what its color box
    shows: ``live`` (its game is being played: the seat's color, for its player to
    hold to see), ``over`` (the game was played out: every color is public now,
    BU-3), ``away`` (a game kept for later, not being played now: no color until
    it is resumed) or ``ended`` (ended early: the color has ended)."""
    part: dict[str, Any] = {"seat": seat["seat"], "name": seat["name"], "number": seat["number"], "state": state}
    if state == SEAT_LIVE:  # what that seat alone sees, worded by its game's plug-in
        part.update({k: v for k, v in seat.items() if k not in part})
    return {**base, "seat": part}


def away_view(seq: int, session_id: int, game: str, number: int) -> dict[str, Any]:
    """The view of a seat page whose game the device is not playing (kept for later or
    ended early, V-3): the game's name and number and that it is not being played
    now; no board, no scores, nothing of the game the device plays instead."""
    return typeset_view({**idle_view(seq), "session": {"id": session_id, "number": number, "game": game,
                                                       "title": title_of(game), "over": False,
                                                       "label": _("{game} #{n}").format(game=title_of(game), n=number)},
                         "waiting": _("This game is not being played now.")})


def kept_view(seq: int, final: dict[str, Any]) -> dict[str, Any]:
    """A game played out, shown on its seat pages once the device has left it (V-3,
    V-4): its final view (the winner, every color), marked as finished, nobody to act."""
    return typeset_view({**final, "seq": seq, "playing": False, "to_act": None, "device_acts": False,
                         "lang": current_language(), "labels": labels()})


def labels() -> dict[str, Any]:
    """The page's fixed words, in the device's language (made once a language)."""
    return _labels(current_language())


@lru_cache(maxsize=8)
def _labels(lang: str) -> dict[str, Any]:
    return {k: page.typeset(v, lang) for k, v in _label_words().items()} | {
        # what the page puts between a label and its value ("Bid: Ann"), by the language's rule
        "colon": page.typeset("x: ", lang)[1:]}


def _label_words() -> dict[str, Any]:
    return {
        "scores": _("Scores"), "waiting": _("Now"), "moves": _("Last moves"), "history": _("History"),
        "round": _("Round"), "combos": _("Combo values"), "end": _("End of the game triggered"),
        "stacks": _("Stacks"), "bid": _("Bid"), "hands": _("Hands"), "bag": _("In the bag"),
        "banked": _("Banked"), "turn": _("This turn"), "drawn": _("Drawn"), "face": _("Die"),
        "bust": _("Bust chance"), "advice": _("Advice"), "field": _("Field"), "stash": _("Stash"),
        "target": _("Target"), "live": _("live"), "offline": _("reconnecting…"), "over": _("Game over"),
        "finished": _("finished"),
        "downloads": _("Downloads"), "no_game": _("No game is being played."), "turn_of": _("to play"),
        "secret": _("Secret colors stay hidden until the end."),
        "scoreboard": _("Scoreboard"),
        "expired": _("This address is no longer valid: scan the QR code on the device again."),
        "gone": _("The device cannot be reached: the scores shown may be old."),
        "full": _("Too many pages are open on this device: close one, this page tries again."),
        "winner": _("winner"), "numbered": _("{game} #{n}"),
        "scored": _("Scored"), "win_bank": _("bank: win"), "win_draw": _("draw: win"),
        "size": _("size?"), "avg": _("avg"), "win": _("win"), "to_win": _("to win"), "rolloff": _("Roll-off"),
        "json": _("record (JSON lines)"),
        "csv": _("scores (CSV)"), "png": _("score sheet (PNG)"), "tv": _("TV page"), "phone": _("Phone page"),
        # a seat's own page (issue 41, V-3)
        "your_color": _("Your color"), "seat_hold": _("Hold to see"), "seat_release": _("Release to hide"),
        "seat_tap_hide": _("Tap to hide"),
        "seat_hint": _("Hold the button to see your color, or tap it (tap again to hide)."),
        "seat_over": _("The game is over: every color is on the scoreboard."),
        "seat_away": _("This game is not being played now: your color comes back when it is resumed."),
        "seat_ended": _("This game has ended, and your color with it."),
        "bgstats": chart_words.bgstats_words(), "players": chart_words.players_title(),
        "chart": _("Chart of the game"),
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
