"""The hidden-information parts of a plug-in for a game that hides nothing
(V-1: every move is made in the open; V-3: no seat sees more than the table).
A game without secrets imports them by name, so it still declares each part
(``companion.plugins.PARTS``) and the conformance test still sees them all."""
from __future__ import annotations

from typing import Any


def hidden_move(text: str) -> bool:
    return False  # V-1: nothing the record holds is hidden from the table


def hidden_words() -> str:
    return "?"  # never said: no move is hidden


def seat_view(st: Any, seat: int) -> dict[str, Any] | None:
    return None  # no seat sees more than the table (V-3)


def seat_words(part: dict[str, Any]) -> dict[str, Any]:
    return part


def roles(st: Any) -> list[str | None]:
    return []  # no seat has a role (BG Stats' ``role``)
