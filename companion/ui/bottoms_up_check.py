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

from ..engine import Move
from ..games.bottoms_up import BottomsUpState, Place, label_of
from ..games.bu_check import CheckResult, check
from ..i18n import _
from ..io import Key
from ..pieces import Piece
from ..plugins.bottoms_up import check_verdict
from ..words.pieces import color_word
from .bottoms_up_parts import LINE_CHARS, ROW_CHARS, Pages, PieceGrid, field_lines, stack_text
from .common import choose
from .draw import LINE_H, TITLE_H, Canvas, wrap
from .widgets import Item, Menu, Screen, bound

if TYPE_CHECKING:  # pragma: no cover
    from .host import Host as App  # the seam: what a screen may ask of the app


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
        c.title(_("{label}: {color} size?").format(label=self.short, color=color_word(color))
                if self.grid.size and color else self.title)
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

    def on_back(self, app: "App") -> None:
        app.pop()


class TableField(ListScreen):
    """The table's field after ``placement``, to edit, then check (BU-13).
    ``placement`` is ``None`` for a turn already under way (issue 15): the
    field as it stands at the pending choice, checked from there.

    The verdict's way on is handed back: ``on_record(app, placement,
    choices)`` records the turn, ``on_resolve(app, placement)`` lets the
    device resolve it step by step."""

    def __init__(self, state: BottomsUpState, placement: Place | None,
                 on_record: Callable[["App", Place | None, Sequence[Move]], Any],
                 on_resolve: Callable[["App", Place | None], Any]):
        super().__init__()
        self.placement = placement
        self.on_record = on_record
        self.on_resolve = on_resolve
        st = state
        self.before = st
        self.groups: list[tuple[str, list[Piece]]] = [(g.label, list(g.pieces)) for g in st.field_groups()]
        for label, pieces in self.groups:
            if placement is not None and label == placement.target:
                pieces.append(placement.piece)
        self.edited: set[str] = set()
        self.title = _("Table's field")

    def heading(self) -> tuple[str, str]:  # BU-13
        if self.placement is None:
            return _("Table's stacks"), ""  # beside a list position up to "10/12" (BU-13)
        return _("Table: {piece} on {target}").format(piece=self.placement.piece,
                                                      target=self.placement.target), ""

    def rows(self) -> list[Item]:
        out = [Item(_("Check it"), self.run_check)]
        for k, (label, pieces) in enumerate(self.groups):
            text = stack_text(label, pieces, ROW_CHARS - 1)
            out.append(Item(("*" if label in self.edited else " ") + text, bound(self.edit, k)))
        out.append(Item(_("+ new lone piece"), self.add_group))
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
        app.push(PiecePicker(_("New lone piece {label}").format(label=label), label, got))

    def run_check(self, app: "App") -> None:
        table = self.table()
        if not table:
            app.message(_("The table's field is empty: enter the stacks it built."), title=_("Check mode"))
            return
        result = check(self.before, self.placement, table)
        app.push(verdict(self, result))

    def search_longer(self, app: "App") -> None:
        """The table asked for a longer search (issue 15): ``LONGER`` times the
        budget, off the press path; the verdict replaces the waiting screen."""
        wait = Searching(self)
        app.push(wait)
        table = self.table()

        def job() -> None:
            wait.result = check(self.before, self.placement, table, max_positions=LONGER_POSITIONS,
                                time_limit=LONGER_GUARD_S)

        def then(a: "App") -> None:
            if a.top is wait and wait.result is not None:
                a.replace(verdict(self, wait.result))
        app.prepare(job, then)

    def on_back(self, app: "App") -> None:
        if self.edited:
            app.confirm(_("Drop the stacks entered?"), lambda a: a.pop(), title=_("Check mode"),
                        yes=_("Drop"), no=_("Keep"))
        else:
            app.pop()

    # ------------------------------------------------------------ after the verdict

    def record(self, app: "App", choices: Sequence[Move]) -> None:
        """Record the turn: the placement and the verdict's ``choices``."""
        self.on_record(app, self.placement, choices)

    def resolve(self, app: "App") -> None:
        """Leave check mode and let the device resolve, asking each choice."""
        self.on_resolve(app, self.placement)


LONGER_POSITIONS = 3000
"""The budget of "Search longer": ten times ``check``'s 300 positions, about
0.7 s here and a few seconds on a Pi Zero 2 W (docs/performance.md)."""
LONGER_GUARD_S = 60.0
"""Only a guard: the budget is counted in positions, so the answer is the same on every machine."""


class Searching(Screen):
    """Waiting for "Search longer"; BACK stops waiting (the verdict is dropped)."""

    def __init__(self, field: TableField):
        self.field = field
        self.result: CheckResult | None = None

    def render(self, c: Canvas) -> None:
        c.title(_("Check: searching"))
        lines = wrap(_("Searching up to {n} positions: a few seconds.").format(n=LONGER_POSITIONS),
                     LINE_CHARS) + wrap(_("BACK: stop waiting"), LINE_CHARS)
        for i, line in enumerate(lines):
            c.text(1, TITLE_H + i * LINE_H, line)

    def on_key(self, key: Key, app: "App") -> None:
        if key == Key.BACK:
            app.pop()


class StackEditor(ListScreen):
    """One stack of the table's field, bottom to top: OK on a piece changes or
    removes it, "+ piece on top" adds one; "Done" goes back."""

    def __init__(self, field: TableField, k: int):
        super().__init__()
        self.field = field
        self.k = k
        self.title = _("Stack")

    @property
    def label(self) -> str:
        return self.field.groups[self.k][0]

    @property
    def pieces(self) -> list[Piece]:
        return self.field.groups[self.k][1]

    def heading(self) -> tuple[str, str]:
        return _("Stack {label}, bottom up").format(label=self.label), ""

    def rows(self) -> list[Item]:
        out = [Item(_("Done"), self.done)]
        n = len(self.pieces)
        for i, p in enumerate(self.pieces):
            where = _(" (bottom)") if i == 0 and n > 1 else _(" (top)") if i == n - 1 and n > 1 else ""
            out.append(Item(f"{i + 1}. {p}{where}", bound(self.change, i)))
        out.append(Item(_("+ piece on top"), self.add))
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
        app.push(PiecePicker(_("{label}: change {piece} ({n})").format(label=self.label, piece=self.pieces[i],
                                                                        n=i + 1), self.label, got,
                             extra=[_("remove {piece}").format(piece=self.pieces[i])]))

    def add(self, app: "App") -> None:
        def got(a: "App", p: Piece | str) -> None:
            if isinstance(p, Piece):
                self.pieces.append(p)
                self.touched()
                self.index = len(self.pieces)
        app.push(PiecePicker(_("{label}: new top piece").format(label=self.label), self.label, got))

    def done(self, app: "App") -> None:
        if not self.pieces:  # a stack with no piece left is gone
            del self.field.groups[self.k]
            self.field.index = 0
        app.pop()

    def on_back(self, app: "App") -> None:
        self.done(app)


def verdict(field: TableField, r: CheckResult) -> Pages:
    """The answer of check mode; OK offers what to do next. Its words (the verdict, the
    first difference, the choices) are the Bottoms Up plug-in's (issue 45), so any view
    says a check's result alike; this lays them out on the OLED."""
    said = check_verdict(r)
    title = said["title"]
    lines = [line for sentence in said["said"] for line in wrap(sentence, LINE_CHARS)]
    if r.reachable:
        def then(app: "App") -> None:
            choose(app, title, [(_("Record this turn"), "record"), (_("Edit the field"), "edit")],
                   lambda a, v: field.record(a, r.moves) if v == "record" else None)
    else:
        lines.append(said["legal"])
        lines += field_lines(r.result)
        lines += wrap(said["choices"], LINE_CHARS)

        options = [(_("Edit the field"), "edit"), (_("Resolve step by step"), "resolve"),
                   (_("Record legal result"), "record")]
        if not r.complete and r.explored < LONGER_POSITIONS:
            options.insert(0, (_("Search longer"), "longer"))  # the answer is open: the table may wait for more

        def then(app: "App") -> None:
            choose(app, title, options,
                   lambda a, v: (field.record(a, r.moves) if v == "record"
                                 else field.resolve(a) if v == "resolve"
                                 else field.search_longer(a) if v == "longer" else None))
    lines.append(_("OK: what next"))
    # the verdict in the large font, legible from across the table (issue 13); OK reads it
    # through before what next: the difference and the legal result are below
    return Pages(title, lines, then=then, banner=said["banner"], read_through=True)  # BU-13
