"""Building blocks the game screens share: setup flows, choices, score boards.

* ``choose(app, title, options, on_pick)``: a menu of ``(label, value)``;
  OK picks (the menu closes first), BACK cancels.
* ``players_screen``: how many players, then their seats (``PlayersSetup``:
  the roster's names in order by default; a seat takes another roster name
  or a new one, which joins the roster), then ``on_done(app, names)``.
* ``OptionsSetup``: a list of named options, each cycling through its
  values with OK (round to the first after the last), LEFT/RIGHT one lower
  or higher, stopping at the ends; and a "Start" item.
* ``draw_scoreboard``: every player's score in large digits (16 px).
* ``Report``: a page of short lines under a title (what the device did, a
  summary); UP/DOWN scroll, OK shows its end, then closes it; RIGHT the next
  page until the end (LEFT the page before), then closes it; BACK closes it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..config import change
from ..i18n import _
from ..io import Key
from ..names import SHORT, short_names
from ..shown import Shown
from .draw import CHAR_W, HEIGHT, LINE_H, ROWS, TITLE_H, WIDTH, Canvas, wrap
from .keyboard import NameKeyboard
from .widgets import Item, Menu, NumberPicker, Screen, bound

if TYPE_CHECKING:  # pragma: no cover
    from .host import Host as App  # the seam: what a screen may ask of the app


def choose(app: "App", title: str, options: Sequence[tuple[str, Any]],
           on_pick: Callable[["App", Any], Any], *, index: int = 0, footer: str = "") -> None:
    """Push a menu of options; picking one pops it and calls ``on_pick(app, value)``."""
    def pick(a: "App", it: Item) -> None:
        a.pop()
        on_pick(a, it.value)
    app.push(Menu(title, [Item(label, value=value) for label, value in options], on_select=pick,
                  index=index, footer=footer))


ROSTER_MAX = 24
"""Names the roster keeps (Settings > Player names edits it)."""


def player_defaults(app: "App", n: int) -> list[str]:
    saved = list(app.settings.players)
    return [saved[i] if i < len(saved) else f"P{i + 1}" for i in range(n)]


class PlayersSetup(Menu):
    """Names of ``n`` players: each row opens a name entry; "Start" finishes."""

    def __init__(self, title: str, names: list[str], on_done: Callable[["App", list[str]], Any],
                 *, done_label: str = "", on_back: Callable[["App"], Any] | None = None):
        self.names = names
        self.done = on_done
        self.done_label = done_label or _("Next >")
        super().__init__(title, self._rows, on_back=on_back)

    def _rows(self) -> list[Item]:
        rows = [Item(f"{i + 1}. {n}", bound(self._edit, i)) for i, n in enumerate(self.names)]
        return [Item(self.done_label, self._finish)] + rows

    def _edit(self, app: "App", i: int) -> None:
        """Seat ``i``: a name from the roster (the names kept in the settings)
        not seated yet, or "New name" (last) typed on the keyboard, which
        joins the roster for the next games."""
        others = tuple(self.names[:i] + self.names[i + 1:])

        def seat(a: "App", name: str) -> None:
            self.names[i] = name

        def typed(a: "App", name: str) -> None:
            seat(a, name)
            roster = list(a.settings.players)
            if name not in roster and len(roster) < ROSTER_MAX:
                a.save_settings(change(a.settings, players=tuple(roster + [name])))
        free = [n for n in app.settings.players if n not in others]
        if not free:
            app.push(NameKeyboard(_("Player {n} name").format(n=i + 1), "", typed, taken=others))
            return
        items = [Item(n, value=n, right="<" if n == self.names[i] else "") for n in free]
        items.append(Item(_("New name"), lambda a: (a.pop(), a.push(
            NameKeyboard(_("Player {n} name").format(n=i + 1), "", typed, taken=others)))))
        here = next((k for k, it in enumerate(items) if it.value == self.names[i]), 0)

        def pick(a: "App", it: Item) -> None:
            if it.value is None:
                assert it.action is not None
                it.action(a)
                return
            a.pop()
            seat(a, it.value)
        app.push(Menu(_("Player {n}").format(n=i + 1), items, on_select=pick, index=here))

    def _finish(self, app: "App") -> None:
        self.done(app, list(self.names))


def players_screen(title: str, default: int, lo: int, hi: int,
                   on_done: Callable[["App", list[str]], Any], *, hint: str = "") -> Screen:
    """The number of players (``lo`` to ``hi``), then their names, then
    ``on_done(app, names)``: the first screens of every game's setup. BACK from
    the names goes back to the count, as it was set (issue 48: it skipped it)."""
    def got_count(a: "App", n: int) -> None:
        a.push(PlayersSetup(_("{game}: names").format(game=_(title)), player_defaults(a, n), on_done,
                            on_back=lambda b: (b.pop(), b.push(picker))))
    picker = NumberPicker(_("{game}: players").format(game=_(title)), default, lo, hi, got_count,
                          hint=hint or _("{lo} to {hi} players").format(lo=lo, hi=hi))
    return picker


@dataclass
class Option:
    key: str
    label: str
    values: list[tuple[str, Any]]  # (shown, value)
    index: int = 0
    when: Callable[[dict[str, Any]], bool] | None = None  # offered only when the other values make it count
    descending: bool = False  # values listed high to low: RIGHT still raises, LEFT lowers (OK goes down the list)

    @property
    def value(self) -> Any:
        return self.values[self.index][1]


class OptionsSetup(Menu):
    """Options cycling with OK (RIGHT/LEFT too); the first row starts."""

    def __init__(self, title: str, options: list[Option], on_start: Callable[["App", dict[str, Any]], Any],
                 *, start_label: str = ""):
        self.options = options
        self.on_start = on_start
        self.start_label = start_label or _("Start game")
        super().__init__(title, self._rows)

    def _rows(self) -> list[Item]:
        rows = [Item(self.start_label, lambda app: self.on_start(app, self.values()))]
        for o in self.shown_options():
            rows.append(Item(o.label, bound(self._next_value, o), right=o.values[o.index][0], leader=True))
        return rows

    def shown_options(self) -> list[Option]:
        """The options offered now: one whose ``when`` says it changes nothing is hidden."""
        values = {o.key: o.value for o in self.options}
        return [o for o in self.options if o.when is None or o.when(values)]

    def values(self) -> dict[str, Any]:
        """The options offered now (a hidden one is left out)."""
        return {o.key: o.value for o in self.shown_options()}

    def _next_value(self, app: "App", o: Option) -> None:
        self._cycle(o, 1)

    @staticmethod
    def _cycle(o: Option, d: int) -> None:
        """OK: the next value, round to the first after the last (OK alone reaches every value)."""
        o.index = (o.index + d) % len(o.values)

    @staticmethod
    def _step(o: Option, d: int) -> None:
        """LEFT/RIGHT: one value lower or higher, stopping at the ends (issue 33: LEFT from a
        target of 10 gave 200)."""
        o.index = max(0, min(len(o.values) - 1, o.index + d))

    def on_key(self, key, app: "App") -> None:
        if key in (Key.LEFT, Key.RIGHT) and self.index > 0:
            # RIGHT raises a number and LEFT lowers it on every option (QA 3: the Bottoms Up
            # stash, listed from 90 down, went the other way from the Bag of Ice target)
            o = self.shown_options()[self.index - 1]
            up = 1 if key == Key.RIGHT else -1
            self._step(o, -up if o.descending else up)
            return
        super().on_key(key, app)


def draw_scoreboard(c: Canvas, names: Sequence[str], scores: Sequence[int], *, y: int = TITLE_H,
                    mark: int | None = None, marks: Sequence[str] = (), bottom: int = HEIGHT) -> None:
    """Scores in 16 px digits: up to 3 per row, 2 rows (6 players); more use small text.

    ``mark`` underlines one seat (e.g. the start or active player); ``marks``
    are one-character tags drawn after names (in small text, in the column
    after the score). The board fills the screen from ``y`` down to ``bottom``.
    """
    n = len(names)
    if n > 6:  # small text, in as many columns as needed (12 players: 2 x 6 with y=0)
        per_col = max(1, (bottom - y) // 10)
        cols = -(-n // per_col)
        chars = (WIDTH // cols) // CHAR_W - 1
        short = short_names(list(names), chars - 4)  # shortened alike and distinct, never cut
        for i, (name, s) in enumerate(zip(short, scores)):
            col, row = divmod(i, per_col)
            x = col * (WIDTH // cols)
            text = f"{name:<{chars - 4}}{s:>4}"
            c.text(x + 1, y + row * 10, text, invert=(i == mark))
            if i < len(marks) and marks[i]:  # the column kept free after each score
                c.text(x + 1 + CHAR_W * chars + 1, y + row * 10, marks[i][:1])
        return
    cols = min(3, n) if n != 4 else 2
    w = WIDTH // cols
    rows = (n + cols - 1) // cols
    h = (HEIGHT - y) // max(rows, 1)
    room = w // CHAR_W - 1
    tagged = room - max((len(t) for t in marks), default=0)
    # a tag after the names would cut one tighter than its one short form (names.SHORT):
    # the tagged name is underlined instead (issue 48: "Maxi~>" beside "Maxim~" elsewhere)
    under = any(len(n) > tagged for n in names) and tagged < SHORT
    short = short_names(list(names), room if under else tagged)
    for i, (name, s) in enumerate(zip(short, scores)):
        r, k = divmod(i, cols)
        x0, y0 = k * w, y + r * h
        tag = marks[i] if i < len(marks) else ""
        label = name if under else name + tag
        c.text(x0 + 1, y0, label, invert=(i == mark))
        if under and tag:
            c.d.line((x0 + 1, y0 + LINE_H - 1, x0 + CHAR_W * len(name), y0 + LINE_H - 1), fill=0 if i == mark else 1)
        c.big(x0 + 2, y0 + 10, str(s), 2)


class Report(Screen):
    """A page of short lines (up to 5 under a title, UP/DOWN scroll the
    rest); OK shows the end while the last lines have not been on screen
    yet, then closes it; RIGHT turns to the next page while there is one
    (LEFT to the one before), then closes it; BACK closes it. A ``banner`` (a verdict: the
    result of a check) is drawn in the large font above the lines, legible
    from across the table (issue 13)."""

    def __init__(self, title: str, lines: list[str], *, right: str = "", banner: str = "",
                 shows: Shown | None = None):
        # what it shows over the game: a check's verdict (its banner), or as told (a page of
        # what a move did says ``Shown.MOVE``); else nothing of its own (a list looked at)
        self.shows = shows or (Shown.VERDICT if banner else None)
        self.title = title
        self.right = right
        self.banner = banner
        self.shown = ROWS - 2 if banner else ROWS
        self.lines = self._fit(lines, WIDTH // CHAR_W)
        if len(self.lines) > self.shown:  # keep a free column before the scroll bar
            self.lines = self._fit(lines, WIDTH // CHAR_W - 1)
        self.offset = 0
        self.seen_to = self.shown  # lines[:seen_to] have been on screen

    @staticmethod
    def _fit(lines: list[str], width: int) -> list[str]:
        """A line that fits keeps its spacing (columns); a longer one is wrapped."""
        return [w for line in lines for w in ([line] if len(line) <= width else wrap(line, width))]

    def render(self, c: Canvas) -> None:
        c.title(self.title, self.right)
        first = ROWS - self.shown
        if self.banner:
            c.center(TITLE_H + 1, self.banner, scale=2)
        for i, line in enumerate(self.lines[self.offset:self.offset + self.shown]):
            c.text(1, TITLE_H + (first + i) * LINE_H, line)
        c.scrollbar(self.offset, self.shown, len(self.lines))

    def unseen(self) -> bool:
        """Lines below the page shown that have never been on screen."""
        return self.seen_to < len(self.lines)

    def on_key(self, key: Key, app: "App") -> None:
        if key == Key.DOWN and self.offset + self.shown < len(self.lines):
            self.offset += 1
        elif key == Key.UP:
            self.offset = max(0, self.offset - 1)
        elif key == Key.OK and self.unseen():
            # a long report (a 5-player round summary, 4 turn-ins on "Only one move") is not
            # closed before its end was shown: the first OK shows the end, the next closes it
            # (issue 39: one screen an OK took three); UP scrolls back
            self.offset = len(self.lines) - self.shown
        elif key == Key.RIGHT and self.offset + self.shown < len(self.lines):
            # RIGHT pages down, as on every other page (issue 39: it closed the roll-off
            # page before its other rolls were shown); LEFT pages back up
            self.offset = min(self.offset + self.shown, len(self.lines) - self.shown)
        elif key == Key.LEFT and self.offset > 0:
            self.offset = max(0, self.offset - self.shown)
        elif key in (Key.OK, Key.BACK, Key.LEFT, Key.RIGHT):
            app.pop()
        self.seen_to = max(self.seen_to, self.offset + self.shown)
