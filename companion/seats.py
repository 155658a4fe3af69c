"""A seat's own view (issue 41, RULINGS V-3): the addresses the device hands to
one Bottoms Up player while that player holds the device to see their secret
color, so the player's phone can show that color again at any time.

``Seats`` is the registry of the seat addresses given out. Each is a token of
96 random bits (``secrets.token_urlsafe(12)``) that stands in place of the
device's secret in the page's address (``http://HOST:PORT/TOKEN/``), valid for
one seat of one game. It lives in memory only: it is never written to the
journal, a log, an export, the public page or the console (V-3), so a restart
of the device ends every seat address (the player scans again).

A token ends (``prune``):

* when its game ends (played to its end, or ended early): an open seat page
  then gets the public page's final view (every color is public then, BU-3)
  and is told that the address has ended;
* when the game is undone to before the colors were drawn (the seat has no
  color any more);
* when the device's address is renewed (``clear``).

What a seat page shows (``seat_part``) is what the public page shows plus that
seat's own color, its name and the game's number: nothing that depends on
another seat's color (V-3). The registry is told the color when the token is
made (the device draws the code beside that color), and the color of a seat
cannot change but by an undo to before the draw, which ends the token.
"""
from __future__ import annotations

import hmac
import secrets as _secrets
import threading
from dataclasses import dataclass
from typing import Any, Callable

from . import plugins

TOKEN_BYTES = 12  # 96 random bits, as the device's own secret


def new_token() -> str:
    return _secrets.token_urlsafe(TOKEN_BYTES)


@dataclass(frozen=True)
class Seat:
    """One seat address: the session (its journal id), the seat, and what its page adds."""
    session_id: int
    seat: int
    part: dict[str, Any]   # ``{"seat", "name", "color", "number"}``: the seat page's addition
    game: str = ""         # the game's record name: its plug-in words the part (issue 45)


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
                if s.session_id == session.id and s.seat == seat and s.part == part:
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
        """End the tokens of ``session`` (the one the device's screen plays) that no
        longer hold: its game is over, or the seat's color is gone (an undo to before
        the draw). Returns the ended tokens."""
        over = bool(getattr(session, "finished", False) or session.state.is_terminal())
        ended = []
        with self._lock:
            for token, s in list(self._live.items()):
                if s.session_id != session.id:
                    continue
                own = seat_view(session, s.seat)
                if over or own is None or any(s.part.get(k) != v for k, v in own.items()):
                    del self._live[token]
                    ended.append(token)
            self.version += bool(ended)
        return ended

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
