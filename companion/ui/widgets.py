"""The small widget set every screen is built from.

A screen draws itself on a ``Canvas`` and handles logical ``Key`` events with
access to the ``App`` (push, pop, replace, message, confirm, sessions). Every
widget works with UP, DOWN, OK and BACK alone; LEFT/RIGHT are shortcuts.

Widgets: ``Menu`` (scrolling list), ``NumberPicker`` (names: ``keyboard.NameKeyboard``),
``Confirm``, ``Message``, and ``ChoiceList``: the one cursor list every game
screen draws a decision's options with (rows of ``Item``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Concatenate, ParamSpec, Sequence

from ..i18n import _
from ..io import Key
from ..shown import Shown
from .draw import BOX_ROWS, CHAR_W, CLIPS, LINE_H, ROWS, TITLE_H, WIDTH, Canvas, fit, wrap

if TYPE_CHECKING:  # pragma: no cover
    from .host import Host as App  # the seam: what a screen may ask of the app


class Screen:
    """Base class: override ``render`` and ``on_key``."""

    title = ""
    owner: str | None = None  # the game a shared widget was made for (ui.undercut.ours marks them)
    overlay = False
    """Drawn as a box over the screen under it (``App.frame`` draws that one first)."""
    keeps_hold_back = False
    """Hold BACK here is this screen's own key: over a game it does not ask the
    game's undo (``App._undo_from_above``)."""
    shows: Shown | None = None
    """What this screen shows over the game, for the views off the device (issue 45);
    None: nothing of its own (a question, a list), what lies under it counts."""

    def declared(self) -> Shown | None:
        """What the screen shows now (``shows``; a screen whose content changes says so)."""
        return self.shows

    @property
    def private(self) -> bool:
        """Drawn now, this screen would show a player's private information (a
        secret color while OK is held): no box is drawn over it with it in view."""
        return False

    def render(self, c: Canvas) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def on_key(self, key: Key, app: "App") -> None:
        if key == Key.BACK:
            app.pop()

    def on_show(self, app: "App") -> None:
        """Called each time the screen comes (back) on top."""


@dataclass
class Item:
    label: str
    action: Callable[["App"], Any] | None = None
    value: Any = None
    enabled: bool = True
    right: str = ""
    leader: bool = False
    """A dotted leader from the label to its ``right`` value (an option and its
    value, issue 39: "Secret colors device" read as one phrase)."""


P = ParamSpec("P")


def bound(action: Callable[Concatenate["App", P], Any], *args: P.args, **kwargs: P.kwargs) -> Callable[["App"], Any]:
    """An ``Item`` action calling ``action(app, *args, **kwargs)`` with the values
    given now (a loop's variable, say): what ``lambda app, i=i: f(app, i)`` does,
    in a form the type checker can follow."""
    def act(app: "App") -> Any:
        return action(app, *args, **kwargs)
    return act


def scrolled(index: int, top: int, shown: int) -> int:
    """The first visible row of a list showing ``shown`` rows, moved as little
    as needed for the cursor row ``index`` to be among them."""
    if index < top:
        return index
    if index >= top + shown:
        return index - shown + 1
    return top


def stepped(index: int, key: Key, n: int, page: int = 0) -> int:
    """The cursor over ``n`` rows after UP/DOWN (wrapping) or, with ``page``,
    LEFT/RIGHT (a page, stopping at the ends); other keys leave it."""
    if key == Key.UP:
        return (index - 1) % n
    if key == Key.DOWN:
        return (index + 1) % n
    if page and key == Key.LEFT:
        return max(0, index - page)
    if page and key == Key.RIGHT:
        return min(n - 1, index + page)
    return index


def item_text(it: Item, room: int) -> str:
    """An item's label in ``room`` characters, its ``right`` text right-aligned."""
    if not it.right:
        return it.label
    left = room - len(it.right) - 1
    return fit(it.label, left).ljust(left) + " " + it.right


def leader(c: Canvas, x: int, y: int, text: str, right: int) -> None:
    """Dots on the baseline between a row's label and its last ``right`` characters
    (the value), one every 2 pixels, 2 pixels clear of each: a single space between
    them still shows two dots."""
    start = len(text) - right  # the value's first cell
    end = len(text[:start].rstrip())  # the label's cells
    if end <= 0 or start <= end:
        return
    for px in range(x + CHAR_W * end + 1, x + CHAR_W * start - 2, 2):
        c.d.point((px, y + 7), fill=1)


class ChoiceList:
    """The shared cursor list of the game screens: ``Item`` rows drawn in
    body rows under the title, scrolled to the cursor. UP/DOWN move
    (wrapping), OK runs the item's action. The cursor goes back to the
    default row whenever the position (``sync``'s state) changes.

    ``x``: where labels start; ``mark``: ``"bar"`` (the screen's scroll bar)
    or ``"side"`` (a small mark beside the rows only)."""

    ROOM = 20  # characters of a row from x=7 (or 6): a free column before the last one

    @staticmethod
    def room(rows: int, shown: int = ROWS, x: int = 7) -> int:
        """The characters of a row from ``x`` in a list of ``rows`` rows showing
        ``shown``: with a scroll mark, the cells stop before the column beside it
        (text within 2 pixels of the mark is counted as clipped, issues 34 and 39): 19 from x=7
        (the font's letters leave their cell's last column blank)."""
        return (WIDTH - x - (2 if rows > shown else 0)) // CHAR_W

    def __init__(self, *, x: int = 7, mark: str = "bar"):
        self.index = 0
        self.top = 0
        self.x = x
        self.mark = mark
        self._state: Any = None
        self._extra: Any = None

    def reset(self) -> None:
        """The next ``sync`` puts the cursor on the default row."""
        self._state = None

    def sync(self, state: Any, items: Sequence[Item], default: int = 0, extra: Any = None) -> bool:
        """Follow the position: a new ``state`` object (or a new ``extra``)
        puts the cursor on ``default``; returns ``True`` when it did."""
        fresh = state is not self._state or extra != self._extra
        if fresh:
            self._state, self._extra = state, extra
            self.index, self.top = default, 0
        self.index = min(self.index, max(0, len(items) - 1))
        return fresh

    def render(self, c: Canvas, items: Sequence[Item], first: int = 0, n: int = ROWS, *,
               cursor: bool = True) -> None:
        """The rows from body row ``first``, ``n`` of them; ``cursor``: the arrow on the
        cursor's row (``False``: the cursor is on a row of the screen's own, above)."""
        self.top = scrolled(self.index, self.top, n)
        room = self.room(len(items), n, self.x)
        for i, it in enumerate(items[self.top:self.top + n]):
            label = fit(item_text(it, room), room)
            c.row(first + i, label if it.enabled else f"({label})",
                  selected=cursor and self.top + i == self.index, x=self.x)
            if it.leader and it.right and it.enabled:
                leader(c, self.x, TITLE_H + (first + i) * LINE_H, label, len(it.right))
        if self.mark == "bar":  # beside the list's rows (not the lines above them)
            c.scrollbar(self.top, n, len(items), top=TITLE_H + first * LINE_H)
        elif len(items) > n:  # a small scroll mark beside the rows
            y0 = TITLE_H + first * LINE_H
            h = n * LINE_H
            c.mark(y0, y0 + h - 2)
            c.d.line((WIDTH - 1, y0, WIDTH - 1, y0 + h - 2), fill=0)
            a = y0 + h * self.top // len(items)
            b = y0 + h * (self.top + n) // len(items) - 2
            c.d.line((WIDTH - 1, a, WIDTH - 1, max(a + 2, b)), fill=1)

    def key(self, key: Key, items: Sequence[Item], app: "App") -> bool:
        """UP/DOWN/OK on the list; ``False`` for any other key."""
        if not items:
            return False
        if key in (Key.UP, Key.DOWN):
            self.index = stepped(self.index, key, len(items))
            return True
        if key == Key.OK:
            it = items[self.index]
            if not it.enabled:
                app.message(_("{item}: not available now").format(item=it.label))
            elif it.action is not None:
                it.action(app)
            return True
        return False


class CursorScreen(Screen):
    """A screen whose cursor is its ``ChoiceList``'s (``self.list``)."""

    list: ChoiceList

    @property
    def index(self) -> int:
        return self.list.index

    @index.setter
    def index(self, value: int) -> None:
        self.list.index = value


class Menu(CursorScreen):
    """A scrolling list. UP/DOWN move (wrapping), LEFT/RIGHT page, OK selects,
    BACK leaves (or calls ``on_back``). The title's right side shows
    ``right``, else the cursor's place in a list longer than the screen
    when the title leaves room for it."""

    def __init__(self, title: str, items: Sequence[Item] | Callable[[], Sequence[Item]],
                 *, on_back: Callable[["App"], Any] | None = None, index: int = 0,
                 on_select: Callable[["App", Item], Any] | None = None, footer: str = "", right: str = ""):
        self.title = title
        self._items = items
        self.list = ChoiceList()
        self.list.index = index
        self.on_back = on_back
        self.on_select = on_select
        self.footer = footer
        self.right = right

    @property
    def items(self) -> list[Item]:
        return list(self._items() if callable(self._items) else self._items)

    def heading(self) -> tuple[str, str]:
        return self.title, self.right

    def footer_lines(self) -> list[str]:
        """The lines under the list (``footer``; a menu may draw them from its cursor)."""
        return self.footer.split("\n") if self.footer else []

    def shown(self) -> int:
        return ROWS - len(self.footer_lines())

    def render(self, c: Canvas) -> None:
        items = self.items
        self.index = min(self.index, max(0, len(items) - 1))
        n = self.shown()
        title, right = self.heading()
        if not right and len(items) > n:
            right = f"{self.index + 1}/{len(items)}"
            if len(title) + 1 + len(right) > (WIDTH - 2) // CHAR_W:
                right = ""  # the title is not cut for it: the scroll bar shows the place too
        c.title(title, right)
        self.list.render(c, items, 0, n)
        footer = self.footer_lines()
        for i, line in enumerate(footer):
            c.row(ROWS - len(footer) + i, line)

    def on_key(self, key: Key, app: "App") -> None:
        items = self.items
        if key == Key.BACK or (key == Key.OK and not items):
            self._back(app)
        elif key in (Key.LEFT, Key.RIGHT) and items:
            self.index = stepped(self.index, key, len(items), page=self.shown())
        elif key == Key.OK and self.on_select and items[self.index].enabled:
            self.on_select(app, items[self.index])
        else:
            self.list.key(key, items, app)

    def _back(self, app: "App") -> None:
        if self.on_back:
            self.on_back(app)
        else:
            app.pop()


class NumberPicker(Screen):
    """Pick an integer: UP/DOWN +-step, stopping at the ends (``lo``/``hi`` or the
    first and last of ``choices``); OK done, BACK cancel. LEFT/RIGHT step as the
    "-" and "+" drawn at the sides say: one step where the values are few (a
    player count: LEFT from 3 gave 1, issue 48), else ten, and the sides then
    read "-10" and "+10"."""

    FEW = 20  # at most this many values: LEFT/RIGHT step by one

    def __init__(self, title: str, value: int, lo: int, hi: int, on_done: Callable[["App", int], Any],
                 *, step: int = 1, fmt: Callable[[int], str] = str, hint: str = "",
                 choices: Sequence[int] | None = None):
        self.title = title
        self.choices = list(choices) if choices else None
        self.value = value
        self.lo, self.hi, self.step = lo, hi, step
        self.on_done = on_done
        self.fmt = fmt
        self.hint = hint

    @property
    def side_step(self) -> int:
        """The steps LEFT and RIGHT take: 1 on a small range, else 10."""
        n = len(self.choices) if self.choices else (self.hi - self.lo) // max(1, self.step) + 1
        return 1 if n <= self.FEW else 10

    def _move(self, d: int) -> None:
        if self.choices:
            i = self.choices.index(self.value) if self.value in self.choices else 0
            self.value = self.choices[max(0, min(len(self.choices) - 1, i + d))]  # stops at the ends
        else:
            self.value = max(self.lo, min(self.hi, self.value + d * self.step))

    def render(self, c: Canvas) -> None:
        c.title(self.title)
        s = self.fmt(self.value)
        c.center(TITLE_H + 8, s, scale=2 if len(s) <= 10 else 1)
        minus, plus = ("-", "+") if self.side_step == 1 else ("-10", "+10")
        c.text(2, TITLE_H + 8, minus)
        c.text(WIDTH - 2 - len(plus) * CHAR_W, TITLE_H + 8, plus)
        c.center(54, self.hint or _("OK: set, BACK: cancel"))

    def on_key(self, key: Key, app: "App") -> None:
        if key == Key.UP:
            self._move(1)
        elif key == Key.DOWN:
            self._move(-1)
        elif key == Key.RIGHT:
            self._move(self.side_step)
        elif key == Key.LEFT:
            self._move(-self.side_step)
        elif key == Key.OK:
            app.pop()
            self.on_done(app, self.value)
        elif key == Key.BACK:
            app.pop()


class Message(Screen):
    """A word-wrapped message in a box over the screen it answers (issue 13);
    OK or BACK closes it (and calls ``then``); UP/DOWN scroll a long one."""

    overlay = True

    def __init__(self, text: str, *, title: str = "", then: Callable[["App"], Any] | None = None):
        self.title = title
        self.text = text
        self.then = then
        self.offset = 0

    def render(self, c: Canvas) -> None:
        lines = wrap(self.text, WIDTH // CHAR_W)
        room = BOX_ROWS - (1 if self.title else 0)
        if len(lines) > room:  # a free column before the scroll bar
            lines = wrap(self.text, WIDTH // CHAR_W - 1)
        self.offset = max(0, min(self.offset, len(lines) - room))
        shown = lines[self.offset:self.offset + room]
        y = c.box(len(shown) + (1 if self.title else 0))
        if self.title:
            c.title(self.title, y=y)
            y += LINE_H
        top = y
        for line in shown:
            c.text(1, y, line)
            y += LINE_H
        if len(lines) > room:
            c.scrollbar(self.offset, room, len(lines), top=top)

    def on_key(self, key: Key, app: "App") -> None:
        if key == Key.DOWN:
            self.offset += 1
        elif key == Key.UP:
            self.offset = max(0, self.offset - 1)
        elif key in (Key.OK, Key.BACK, Key.LEFT, Key.RIGHT):
            app.pop()
            if self.then:
                self.then(app)


class Confirm(Menu):
    """A yes/no question in a box over the screen it is about (issue 13): its
    title, the question, then the two answers side by side (UP/DOWN or
    LEFT/RIGHT move between them). "No" is preselected so a stray OK is harmless."""

    overlay = True
    QUESTION_LINES = BOX_ROWS - 2

    def __init__(self, question: str, on_yes: Callable[["App"], Any], *, yes: str | None = None,
                 no: str | None = None, title: str | None = None, preselect_yes: bool = False):
        yes, no, title = yes or _("Yes"), no or _("No"), title or _("Confirm")
        self.question = question
        self.on_yes = on_yes

        def do_yes(app: "App") -> None:
            app.pop()
            on_yes(app)

        super().__init__(title, [Item(no, lambda app: app.pop()), Item(yes, do_yes)],
                         index=1 if preselect_yes else 0)

    def render(self, c: Canvas) -> None:
        lines = wrap(self.question, WIDTH // CHAR_W)
        titled = len(lines) <= self.QUESTION_LINES  # a long question takes the title's line
        room = self.QUESTION_LINES + (0 if titled else 1)
        for cut in lines[room:]:
            CLIPS.add(cut)
        lines = lines[:room]
        y = c.box(len(lines) + 1 + (1 if titled else 0))
        if titled:
            c.title(self.title, y=y)
            y += LINE_H
        for line in lines:
            c.text(1, y, line)
            y += LINE_H
        first, second = (it.label for it in self.items)
        x2 = max(WIDTH // 2, 8 + CHAR_W * len(first) + 12)  # the second answer after the first
        for i, (x, label) in enumerate(((8, fit(first, (x2 - 20) // CHAR_W)),
                                        (x2, fit(second, (WIDTH + 1 - x2) // CHAR_W)))):
            if i == self.index:
                c.d.polygon([(x - 7, y + 1), (x - 3, y + 4), (x - 7, y + 7)], fill=1)
            c.text(x, y, label)


class Question(Confirm):
    """A ``Confirm`` that reports its answer: ``answer(app, True)`` on yes,
    ``answer(app, False)`` when its own keys take it off the stack otherwise
    (no, BACK). The serial console's pairing question (``App.ask``)."""

    def __init__(self, question: str, answer: Callable[["App", bool], Any], **kw: Any):
        self.answer = answer
        self.allowed = False
        super().__init__(question, self._allow, **kw)

    def _allow(self, app: "App") -> None:
        self.allowed = True
        self.answer(app, True)

    def on_key(self, key: Key, app: "App") -> None:
        super().on_key(key, app)
        if not self.allowed and self not in app.stack:  # no, or BACK
            self.answer(app, False)
