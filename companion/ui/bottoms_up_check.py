"""Bottoms Up check mode (BU-13): the table enters the stacks it built.

Flow, from the session menu's "Check mode": the usual piece grid and target
picker, then ``TableField``: the field as it is once the piece is placed,
before any recalculation. The table changes the stacks its recalculation
changed (``StackEditor``: change or remove a piece, add one on top; "+ new
lone piece" for a piece moved to open space or spawned by green; a stack
with no piece left disappears) and picks "Check it". The verdict
(``bu_check.check``): the rules reach that field (and with which choices),
or not, with one legal result and the first difference. Then: record the
turn (the placement and the choices that give the verdict's result), edit
again, or resolve it step by step with the device.
"""
from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..games.bottoms_up import BottomsUpState, Place, label_of
from ..games.bu_check import CheckResult, check
from ..io import Key
from ..pieces import Piece
from .bottoms_up import (
    LINE_CHARS, ROW_CHARS, Pages, PieceGrid, field_lines, stack_text,
)
from .common import choose
from .draw import Canvas, fit, wrap
from .widgets import Item, Menu, Screen

if TYPE_CHECKING:  # pragma: no cover
    from .app import App


class PiecePicker(Screen):
    """Any piece (the table's, not the stash's): the ``PieceGrid`` without
    counts; ``extra`` rows (e.g. "remove it") follow the colors."""

    def __init__(self, title: str, short: str, on_pick: Callable[["App", Piece | str], Any],
                 extra: Sequence[str] = ()):
        self.title = title
        self.short = short
        self.on_pick = on_pick
        self.grid = PieceGrid(None, extra)

    def render(self, c: Canvas) -> None:
        color = self.grid.color
        c.title(f"{self.short}: {color.value} size?" if self.grid.size and color else self.title)
        self.grid.render(c)

    def on_key(self, key: Key, app: "App") -> None:
        picked = self.grid.key(key)
        if picked == "back":
            app.pop()
        elif picked is not None:
            app.pop()
            self.on_pick(app, picked)


class ListScreen(Menu):
    """A ``Menu`` of ``rows()`` under ``heading()``; BACK calls ``on_back``."""

    def __init__(self) -> None:
        super().__init__("", self.rows, on_back=self.on_back)

    def rows(self) -> list[Item]:  # pragma: no cover - abstract
        raise NotImplementedError

    def on_back(self, app: "App") -> None:  # type: ignore[override]
        app.pop()


class TableField(ListScreen):
    """The table's field after ``placement``, to edit, then check (BU-13).

    The verdict's way on is handed back: ``on_record(app, placement,
    choices)`` records the turn, ``on_resolve(app, placement)`` lets the
    device resolve it step by step."""

    def __init__(self, state: BottomsUpState, placement: Place,
                 on_record: Callable[["App", Place, Sequence[str]], Any],
                 on_resolve: Callable[["App", Place], Any]):
        super().__init__()
        self.placement = placement
        self.on_record = on_record
        self.on_resolve = on_resolve
        st = state
        self.before = st
        self.groups: list[tuple[str, list[Piece]]] = [(g.label, list(g.pieces)) for g in st.field_groups()]
        for label, pieces in self.groups:
            if label == placement.target:
                pieces.append(placement.piece)
        self.edited: set[str] = set()
        self.title = "Table's field"

    def heading(self) -> tuple[str, str]:
        return f"Table: {self.placement.piece} on {self.placement.target}", "BU-13"

    def rows(self) -> list[Item]:
        out = [Item("Check it", self.run_check)]
        for k, (label, pieces) in enumerate(self.groups):
            text = stack_text(label, pieces, ROW_CHARS - 1)
            out.append(Item(("*" if label in self.edited else " ") + text, lambda a, k=k: self.edit(a, k)))
        out.append(Item("+ new lone piece", self.add_group))
        return out

    def table(self) -> list[str]:
        return [f"{label}: " + " ".join(map(str, pieces)) for label, pieces in self.groups if pieces]

    def edit(self, app: "App", k: int) -> None:
        app.push(StackEditor(self, k))

    def add_group(self, app: "App") -> None:
        used = {label for label, _ in self.groups}
        label = next(label_of(i) for i in itertools.count() if label_of(i) not in used)

        def got(a: "App", p: Piece | str) -> None:
            if isinstance(p, Piece):
                self.groups.append((label, [p]))
                self.edited.add(label)
                self.index = len(self.groups)
        app.push(PiecePicker(f"New lone piece {label}", label, got))

    def run_check(self, app: "App") -> None:
        table = self.table()
        if not table:
            app.message("The table's field is empty: enter the stacks it built.")
            return
        result = check(self.before, self.placement, table)
        app.push(verdict(self, result))

    def on_back(self, app: "App") -> None:
        if self.edited:
            app.confirm("Drop the stacks entered?", lambda a: a.pop())
        else:
            app.pop()

    # ------------------------------------------------------------ after the verdict

    def record(self, app: "App", choices: Sequence[str]) -> None:
        """Record the turn: the placement and the verdict's ``choices``."""
        self.on_record(app, self.placement, choices)

    def resolve(self, app: "App") -> None:
        """Leave check mode and let the device resolve, asking each choice."""
        self.on_resolve(app, self.placement)


class StackEditor(ListScreen):
    """One stack of the table's field, bottom to top: OK on a piece changes or
    removes it, "+ piece on top" adds one; "Done" goes back."""

    def __init__(self, field: TableField, k: int):
        super().__init__()
        self.field = field
        self.k = k
        self.title = "Stack"

    @property
    def label(self) -> str:
        return self.field.groups[self.k][0]

    @property
    def pieces(self) -> list[Piece]:
        return self.field.groups[self.k][1]

    def heading(self) -> tuple[str, str]:
        return f"Stack {self.label}, bottom up", ""

    def rows(self) -> list[Item]:
        out = [Item("Done", self.done)]
        n = len(self.pieces)
        for i, p in enumerate(self.pieces):
            where = " (bottom)" if i == 0 and n > 1 else " (top)" if i == n - 1 and n > 1 else ""
            out.append(Item(f"{i + 1}. {p}{where}", lambda a, i=i: self.change(a, i)))
        out.append(Item("+ piece on top", self.add))
        return out

    def touched(self) -> None:
        self.field.edited.add(self.label)

    def change(self, app: "App", i: int) -> None:
        def got(a: "App", p: Piece | str) -> None:
            if isinstance(p, Piece):
                self.pieces[i] = p
            else:  # remove it: the pieces above drop
                del self.pieces[i]
            self.touched()
        app.push(PiecePicker(f"{self.label}: change {self.pieces[i]} ({i + 1})", self.label, got,
                             extra=[f"remove {self.pieces[i]}"]))

    def add(self, app: "App") -> None:
        def got(a: "App", p: Piece | str) -> None:
            if isinstance(p, Piece):
                self.pieces.append(p)
                self.touched()
                self.index = len(self.pieces)
        app.push(PiecePicker(f"{self.label}: new top piece", self.label, got))

    def done(self, app: "App") -> None:
        if not self.pieces:  # a stack with no piece left is gone
            del self.field.groups[self.k]
            self.field.index = 0
        app.pop()

    def on_back(self, app: "App") -> None:
        self.done(app)


def verdict(field: TableField, r: CheckResult) -> Pages:
    """The answer of check mode; OK offers what to do next."""
    choices = ", ".join(r.choices) if r.choices else "none needed"
    if r.reachable:
        lines = wrap("The rules reach the table's field.", LINE_CHARS) + wrap(f"choices: {choices}", LINE_CHARS)
        title = "Check: right"

        def then(app: "App") -> None:
            choose(app, "Check: right", [("Record this turn", "record"), ("Edit the field", "edit")],
                   lambda a, v: field.record(a, r.choices) if v == "record" else None)
    else:
        lines = wrap(f"Not reachable. First difference: {r.difference}", LINE_CHARS)
        if not r.complete:
            lines += wrap(f"(searched every way with up to {r.depth} choices)", LINE_CHARS)
        lines.append("A legal result:")
        lines += field_lines(r.result)
        lines += wrap(f"its choices: {choices}", LINE_CHARS)
        title = "Check: differs"

        def then(app: "App") -> None:
            choose(app, "Check: differs", [("Edit the field", "edit"), ("Resolve step by step", "resolve"),
                                           ("Record legal result", "record")],
                   lambda a, v: (field.record(a, r.choices) if v == "record"
                                 else field.resolve(a) if v == "resolve" else None))
    lines.append("OK: what next")
    return Pages(title, [fit(x, LINE_CHARS) for x in lines], right="BU-13", then=then)
