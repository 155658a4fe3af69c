"""A seat's own view (issue 41, RULINGS V-3): the addresses the device hands to
one Bottoms Up player while that player holds the device to see their secret
color, so the player's phone can show that color again at any time.

``Seats`` is the registry of the seat addresses given out. Each is a token of
96 random bits (``secrets.token_urlsafe(12)``) that stands in place of the
device's secret in the page's address (``http://HOST:PORT/TOKEN/``), valid for
one seat of one game. It lives in memory only: it is never written to the
journal, a log, an export, the public page or the console (V-3), so a restart
of the device ends every seat address (the player scans again).

A seat's page belongs to its game (V-3, amended 2026-11-29). Its token lives
until the device's address is renewed (``clear``) or the device restarts, and
its color (``Seat.ended``) ends:

* when its game ends, played to its end or ended early (``end_game``, and
  ``prune`` on the game the device shows): the page then shows that game's
  final public view (every color is public then, BU-3), or, for a game ended
  early, that the game is not being played;
* when the game is undone to before the colors were drawn: the seat has no
  color any more, and its token ends at once (``prune``; the page is told).

While the device plays another game, or none, the page says that its game is
not being played and shows no board and no color (``companion.public.seat_view``);
a game kept for later brings the color back when resumed.

What a seat page adds (``seat_part``) is that seat's own color, its name and
the game's number: nothing that depends on another seat's color (V-3). The
registry is told the color when the token is made (the device draws the code
beside that color), and the color of a seat cannot change but by an undo to
before the draw, which ends the token.
"""
from __future__ import annotations

import hmac
import secrets as _secrets
import threading
from dataclasses import dataclass, replace
from typing import Any, Callable

from . import plugins

TOKEN_BYTES = 12  # 96 random bits, as the device's own secret
ENDED_KEPT = 64   # seat pages kept after their color ended (each shows its game's end); older ones end


def new_token() -> str:
    return _secrets.token_urlsafe(TOKEN_BYTES)


@dataclass(frozen=True)
class Seat:
    """One seat address: the session (its journal id), the seat, what its page adds,
    its game and whether its color has ended (its game ended)."""
    session_id: int
    seat: int
    part: dict[str, Any]   # ``{"seat", "name", "color", "number"}``: the seat page's addition
    game: str = ""         # the game's record name: its plug-in words the part
    ended: bool = False


def seat_view(session: Any, seat: int) -> dict[str, Any] | None:
    """What seat ``seat`` alone may see of ``session`` (V-3): its game's plug-in says
    (boardgame.io's ``playerView``; a Bottoms Up secret color drawn by the device,
    BU-3); None when the seat sees nothing more than the table."""
    plug = plugins.of(session.game)
    return None if plug is None else plug.seat_view(session.state, seat)


def seat_part(session: Any, seat: int, number: int | None = None) -> dict[str, Any] | None:
    """What seat ``seat``'s page adds to the public view of ``session`` (V-3): the seat,
    its player's name, what that seat alone sees (its own secret color) and the
    game's number; None if the seat sees nothing more (another game, colors kept at
    the table, an undo to before the draw)."""
    own = seat_view(session, seat)
    if own is None:
        return None
    players = list(getattr(session.state, "players", ()))
    return {"seat": seat, "name": players[seat] if seat < len(players) else f"P{seat + 1}",
            **own, "number": number if number is not None else session.id}


class Seats:
    """The seat addresses given out (see the module's docstring). Thread-safe: the
    device's loop makes and ends them, the page's server looks them up."""

    def __init__(self, make_token: Callable[[], str] = new_token) -> None:
        self._make = make_token
        self._lock = threading.Lock()
        self._live: dict[str, Seat] = {}
        self.version = 0  # moves with every token made or ended (the Board's key)

    def __len__(self) -> int:
        with self._lock:
            return len(self._live)

    def token_for(self, session: Any, seat: int, number: int | None = None) -> str | None:
        """The token of ``seat`` in ``session``, made on first use; None if the seat has
        no color the device drew (nothing to hand over)."""
        part = seat_part(session, seat, number)
        if part is None:
            return None
        with self._lock:
            for token, s in self._live.items():
                if s.session_id == session.id and s.seat == seat and s.part == part and not s.ended:
                    return token
            token = self._make()
            self._live[token] = Seat(session.id, seat, part, session.game)
            self.version += 1
            return token

    def lookup(self, token: str) -> Seat | None:
        """The seat of ``token``, or None. Every live token is compared in constant
        time, so the answer's time tells nothing of a near miss."""
        found = None
        with self._lock:
            items = list(self._live.items())
        raw = token.encode("utf-8", "surrogateescape")
        for t, s in items:
            if hmac.compare_digest(t.encode("ascii"), raw):
                found = s
        return found

    def prune(self, session: Any) -> list[str]:
        """Follow ``session`` (the one the device's screen plays): its game over ends its
        seats' colors (``end_game``); a seat that no longer sees what its page was made
        for (an undo to before the draw) loses its token. Returns the tokens that ended."""
        if bool(getattr(session, "finished", False) or session.state.is_terminal()):
            self.end_game(session.id)
        ended = []
        with self._lock:
            for token, s in list(self._live.items()):
                if s.session_id != session.id or s.ended:
                    continue
                own = seat_view(session, s.seat)
                if own is None or any(s.part.get(k) != v for k, v in own.items()):
                    del self._live[token]
                    ended.append(token)
            self.version += bool(ended)
        return ended

    def end_game(self, session_id: int) -> bool:
        """Session ``session_id``'s game has ended (played out or ended early): its seats'
        colors end, their pages stay (they show the game's end). True if any ended."""
        with self._lock:
            changed = False
            for token, s in list(self._live.items()):
                if s.session_id == session_id and not s.ended:
                    self._live[token] = replace(s, ended=True)
                    changed = True
            old = [t for t, s in self._live.items() if s.ended]
            for token in old[:-ENDED_KEPT]:  # the oldest pages of games long over end
                del self._live[token]
            self.version += changed
        return changed

    def sessions(self) -> set[int]:
        """The sessions that have seat pages."""
        with self._lock:
            return {s.session_id for s in self._live.values()}

    def clear(self) -> list[str]:
        """End every token (the device's address was renewed)."""
        with self._lock:
            ended = list(self._live)
            self._live.clear()
            self.version += 1
        return ended

    def items(self) -> list[tuple[str, Seat]]:
        with self._lock:
            return list(self._live.items())
