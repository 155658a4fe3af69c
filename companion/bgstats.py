"""A finished game as a play for BG Stats, the play logger: its JSON and the link
that opens BG Stats' import dialog with it (issue 50; the fields in
docs/web.md, "Log this play in BG Stats").

BG Stats takes one play per link: ``https://app.bgstatsapp.com/createPlay.html?data=``
then the play's JSON, URL-encoded. Opened on a phone with BG Stats installed, the
app shows what it will import and matches the game and the players by the ids
given (``sourceGameId``, ``sourcePlayerId``) once it has matched them the first time.

Built from the same summary the History screen, the exports and ``games`` use
(``export.GameSummary``: the session folded, its outcome), and from the journal's
event times for the date and the duration, so every number is one of theirs.
Only a game over by its rules gives a play: a game ended early, or undone to
before its end, has no outcome and no link. Generic over games: what differs
(BoardGameGeek's id, whether the lowest score wins) is in the game's ``GameSpec``;
a seat's secret color (Bottoms Up, BU-3) is read from the final state's
``secret_colors`` and only once the game is over (RULINGS V-1). Pure.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
from typing import Any, Sequence
from urllib.parse import quote

from . import games, plugins
from .errors import CompanionError
from .export import GameSummary
from .records import Event

__all__ = ["APP_NAME", "LINK", "play", "play_link", "ranks", "player_id", "game_id"]

LINK = "https://app.bgstatsapp.com/createPlay.html?data="
"""BG Stats' link for a play pushed from another app (the ``bgstats://`` scheme opens the
same page in the app itself; the https one also works where the app is not installed)."""

APP_NAME = "Pyramid Table Companion"
"""``sourceName``: who sends the play. Part of how BG Stats remembers its matches: never changed."""


def game_id(game: str) -> str:
    """``sourceGameId``: the game's record name under this app's name (``pyramid-companion:undercut``):
    the same on every device and every import, so BG Stats matches the game by itself the second time."""
    return f"pyramid-companion:{game}"


def _norm(name: str) -> str:
    return " ".join(name.split()).casefold()


def player_id(name: str) -> str:
    """``sourcePlayerId``: from the roster name, the same for "Ann" in every game and on
    every import (case and spacing aside), so BG Stats matches the player by itself
    the second time. The roster keeps names, not ids: the id is a digest of the name."""
    return "pc-" + hashlib.sha256(_norm(name).encode("utf-8")).hexdigest()[:16]


def ranks(scores: Sequence[int], winners: Sequence[int], lowest_wins: bool) -> list[int]:
    """Each seat's rank, 1 the best: the winners first (a shared win shares rank 1; a
    tie the rules broke, U-13/U-14, is no longer a tie), then by score the rule's way;
    equal places share a rank and the next rank skips (1, 2, 2, 4)."""
    place = dict(plugins.ranked(list(scores), list(winners), low_wins=lowest_wins))  # the page's places
    return [place[i] for i in range(len(scores))]


def _time(text: str | None) -> _dt.datetime | None:
    if not text:
        return None
    try:
        t = _dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=_dt.timezone.utc)


def _start_player(summary: GameSummary) -> int | None:
    """The seat that began the game: the state's ``start_player`` once drawn, else the first
    seat to act after the chance moves that open the game (None when neither is known)."""
    fold = summary.fold
    assert fold is not None
    for st in fold.states:
        try:
            start = st.to_json().get("start_player")
        except CompanionError:  # pragma: no cover - to_json of a folded state does not fail
            start = None
        if isinstance(start, int) and not isinstance(start, bool):
            return start
        if st.current_player >= 0:
            return st.current_player
    return None


def _roles(summary: GameSummary) -> list[str | None]:
    """Each seat's role in words (a secret color), by its game's plug-in: only once the
    game is over (V-1); else none."""
    fold = summary.fold
    assert fold is not None
    plug = plugins.of(summary.game)
    return [] if plug is None else list(plug.roles(fold.state))


def play(summary: GameSummary, events: Sequence[Event], *, tz: _dt.tzinfo | None = None) -> dict[str, Any] | None:
    """The play as BG Stats reads it, or ``None`` when the game is not over by its rules
    (ended early, undone to before its end, unreadable, a tool). ``events``: the
    session's events as the journal holds them (their times give the duration).
    ``tz``: the zone ``playDate`` is written in (default: the device's own)."""
    fold = summary.fold
    if summary.error or fold is None or summary.termination is None or not fold.state.is_terminal():
        return None
    outcome = fold.state.outcome()
    if outcome is None or not summary.scores:  # pragma: no cover - a terminal game has both
        return None
    try:
        spec = games.spec(summary.game)
    except CompanionError:  # pragma: no cover - it folded, so it is known
        return None
    scores = list(summary.scores)
    names = list(summary.players)
    winners = [w for w in outcome.winners if 0 <= w < len(scores)]
    rank = ranks(scores, winners, spec.lowest_wins)
    start = _start_player(summary)
    roles = _roles(summary)
    game: dict[str, Any] = {"name": spec.title, "sourceGameId": game_id(summary.game),
                            "highestWins": not spec.lowest_wins, "noPoints": False}
    if spec.bgg_id is not None:
        game["bggId"] = spec.bgg_id
    begun = _time(summary.created)
    out: dict[str, Any] = {"sourceName": APP_NAME,
                           "sourcePlayId": f"{game_id(summary.game)}:{summary.created}",
                           "game": game}
    if begun is not None:
        out["playDate"] = begun.astimezone(tz).strftime("%Y-%m-%d %H:%M:%S")
        last = fold.moves[-1].seq if fold.moves else None
        ended = next((_time(e.time) for e in events if e.seq == last), None)
        if ended is not None and ended >= begun:
            out["durationMin"] = round((ended - begun).total_seconds() / 60)
    players = []
    for i, name in enumerate(names):
        p: dict[str, Any] = {"name": name, "sourcePlayerId": player_id(name), "score": scores[i],
                             "rank": rank[i], "winner": i in winners, "startPlayer": i == start}
        if i < len(roles) and roles[i]:
            p["role"] = roles[i]
        players.append(p)
    out["players"] = players
    return out


def play_link(summary: GameSummary, events: Sequence[Event], *, tz: _dt.tzinfo | None = None) -> str | None:
    """The link that opens BG Stats' import dialog with the play, or ``None`` (see ``play``)."""
    data = play(summary, events, tz=tz)
    if data is None:
        return None
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return LINK + quote(text, safe="")
