"""The generic blocks a game's public table is drawn from (issue 45): the page's
script (``web_assets/app.js``) lays each out by its ``kind`` and knows no game,
as Datasette builds its HTML from the JSON it serves. Every word in a block is
already in the device's language; every piece is a code (``rS``).

* ``facts``: rows of ``term`` and ``value`` (a text or a number) or ``pieces``;
* ``heading``: a heading over what follows;
* ``list``: items, each a ``text`` or ``parts`` (a ``tag``, a ``cls``, a
  ``text`` and/or ``pieces`` drawn at ``scale``);
* ``grid``: a table with a ``head`` and ``rows`` of ``cells`` (a row's ``cls``);
* ``stacks``: stacks of pieces drawn upwards, each with its ``caption``;
* ``note``: a sentence.

A block's ``cls`` names it for the style sheet (``facts``, ``stacks``, ...).
Besides ``blocks`` a table may give ``marks`` (one per seat or None: a piece and
a word beside that seat's score) and ``data`` (set on the page's body as
``data-*``, for tests and styles).
"""
from __future__ import annotations

from typing import Any, Sequence

Block = dict[str, Any]


def facts(rows: Sequence[tuple[str, Any]], cls: str = "facts") -> Block:
    """Rows of ``(term, value)``; a value ``None`` or ``""`` is left out, a list is pieces."""
    out = []
    for term, value in rows:
        if value is None or value == "":
            continue
        out.append({"term": term, "pieces": list(value)} if isinstance(value, list) else {"term": term, "value": value})
    return {"kind": "facts", "cls": cls, "rows": out}


def heading(text: str) -> Block:
    return {"kind": "heading", "text": text}


def part(text: Any = None, *, tag: str = "span", cls: str = "", pieces: Sequence[str] | None = None,
         scale: float | None = None) -> dict[str, Any]:
    """A piece of a list item: a ``tag`` holding ``text``, then ``pieces`` (or pieces alone)."""
    out: dict[str, Any] = {"tag": tag}
    if cls:
        out["cls"] = cls
    if text is not None:
        out["text"] = text
    if pieces is not None:
        out["pieces"] = list(pieces)
        if scale is not None:
            out["scale"] = scale
    return out


def pieces(codes: Sequence[str], scale: float | None = None) -> dict[str, Any]:
    """Pieces on their own in a list item."""
    out: dict[str, Any] = {"pieces": list(codes)}
    if scale is not None:
        out["scale"] = scale
    return out


def listing(cls: str, items: Sequence[dict[str, Any] | str]) -> Block:
    """A list: each item a text, or a dict ``{"parts": [...]}``."""
    return {"kind": "list", "cls": cls, "items": [{"text": i} if isinstance(i, str) else i for i in items]}


def grid(cls: str, head: Sequence[str], rows: Sequence[dict[str, Any]]) -> Block:
    return {"kind": "grid", "cls": cls, "head": list(head), "rows": list(rows)}


def stacks(cls: str, items: Sequence[dict[str, Any]], scale: float = 1.3) -> Block:
    """Stacks drawn upwards: each ``{"caption", "pieces" (bottom first), "changed"}``."""
    return {"kind": "stacks", "cls": cls, "scale": scale, "stacks": list(items)}


def note(text: str) -> Block:
    return {"kind": "note", "cls": "note", "text": text}
