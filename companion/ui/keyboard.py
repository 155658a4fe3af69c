"""Typing a name with four buttons: a grid of characters around a home key.

::

    ┌──────────────────────────┐
    │ Player 2 name       abc  │   title; the page on the right
    │ Ann_                     │   the name as typed
    │ -  v  h  r  e  l  u  f  é│
    │ p  g  o  i [a] n  s  d  b│   the cursor starts on the home key
    │ '  y  k  m  OK t  j  z  q│
    │ ⊠  .  w  ←  c  ⎵  x  Aa …│   cancel, delete, space, case, more
    └──────────────────────────┘

UP/DOWN/LEFT/RIGHT move the cursor (wrapping at the edges), OK types the
character under it, and the cursor goes back home, so every letter is
reached from the same place. The letters sit by how often they appear in
names: the commonest next to home, the rare ones at the edges. Hold OK is a
shortcut for OK on "OK". BACK deletes the last character (shown at once);
on an empty name it leaves, like "×", which keeps the name as it was.

The first letter and every letter after a space or a hyphen are capitals;
"Aa" switches the case of the next letter (a letter without a capital of
its own, "ß" or "ΐ", stays as it is: every key is one character). "…" shows
the next page: Latin accents (two pages), Cyrillic (two), Greek (two), then
digits and signs. The two accent pages have a key in every cell, so an arrow
moves one drawn key, their commonest letters next to "…", where the cursor
stands when they show. A letter typed on a script's second page brings its first
page back ("Ł" of "Łukasz": a–z again; "ш" of "Маша": абв), so a name with
one such letter costs the "…" presses once. The name
is cleaned as every name is (``names.clean_name``: NFC, at most 12
characters); a full name refuses more letters with a message.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..i18n import _
from ..io import Key
from ..names import NAME_MAX, clean_name
from .draw import CHAR_W, LINE_H, TITLE_H, WIDTH, Canvas, fit
from .glyphs import has_glyph
from .widgets import Screen

if TYPE_CHECKING:  # pragma: no cover
    from .host import Host as App  # the seam: what a screen may ask of the app

COLS, ROWS = 9, 4
HOME = (1, 4)
CELL_W = WIDTH // COLS  # 14 px
GRID_X = (WIDTH - COLS * CELL_W) // 2
GRID_Y = TITLE_H + LINE_H + 1

DELETE, DONE, CANCEL, SPACE, SHIFT, MORE = "\x01", "\x02", "\x03", " ", "\x05", "\x06"
CONTROLS = (DELETE, DONE, CANCEL, SPACE, SHIFT, MORE)
CONTROL_LABELS = {DELETE: "←", DONE: "OK", SHIFT: "Aa", MORE: "…"}  # space and cancel are drawn

# Each page: (tag shown in the title, characters from the commonest down).
# Latin: the order of letters in first names across European languages.
PAGES: tuple[tuple[str, str], ...] = (
    ("abc", "aeinrlosmtchugdkjvfpbyzwx-é'q."),
    ("àé", "éèàçëöüäñáóíøåæâêîôûúœßšžòùýðþ"),
    ("ął", "łąęćńśźżčřďťňůğşıőűìïãõÿěăėțāū"),
    ("абв", "аеинорстлвкмдпуяыьгзбчйхж"),
    ("юяё", "шюцщэфъёіїєґў"),
    ("αβγ", "αειονρστλκμδπυηγθχφβωζξψςάέίόή"),
    ("ώύ", "ύώϊϋΐΰ"),
    ("123", "1234567890-'.&+()!?/:#*@"),
)
HOME_PAGE = {1: 0, 2: 0, 4: 3, 6: 5}
"""The page a letter typed on another page goes back to: Latin accents to a–z,
the second Cyrillic and Greek pages to their first; the others stay."""


def capital(ch: str) -> str:
    """``ch`` as a capital key: its upper case when that is one character the font
    draws ("ΐ".upper() is three code points, "ß".upper() is "SS"), else ``ch``."""
    up = ch.upper()
    return up if len(up) == 1 and has_glyph(up) else ch




def _by_distance(origin: tuple[int, int]) -> list[tuple[int, int]]:
    """The cells by distance from ``origin`` (the wrapped grid's distance), ties broken row by row."""
    return sorted(((r, c) for r in range(ROWS) for c in range(COLS)),
                  key=lambda rc: (min(abs(rc[0] - origin[0]), ROWS - abs(rc[0] - origin[0]))
                                  + min(abs(rc[1] - origin[1]), COLS - abs(rc[1] - origin[1])), rc))


# Controls on fixed cells (the same on every page), two to four moves from home.
_CONTROL_CELLS = {DONE: (2, 4), DELETE: (3, 3), SPACE: (3, 5), SHIFT: (3, 7), MORE: (3, 8), CANCEL: (3, 0)}
# a-z, the two Latin accent pages and the first Greek one have a key in every cell: an
# arrow moves the cursor one drawn key, as the grid shows (issue 48: on the accent page,
# blank cells skipped made a first try at "Ł" type another letter)


def page_grid(page: int) -> list[list[str]]:
    """The 4x9 grid of a page, the controls fixed: its characters by distance from
    home, or, on the Latin accent pages, from "…", where the cursor stands when they
    show (a letter typed there brings a-z back: none of theirs is typed from home)."""
    grid = [["" for _ in range(COLS)] for _ in range(ROWS)]
    for ch, (r, c) in _CONTROL_CELLS.items():
        grid[r][c] = ch
    origin = _CONTROL_CELLS[MORE] if HOME_PAGE.get(page) == 0 else HOME
    free = [rc for rc in _by_distance(origin) if not grid[rc[0]][rc[1]]]
    for ch, (r, c) in zip(PAGES[page][1], free):
        grid[r][c] = ch
    return grid


_GRIDS = [page_grid(p) for p in range(len(PAGES))]


def _wrap_step(pos: tuple[int, int], key: Key) -> tuple[int, int]:
    r, c = pos
    if key == Key.UP:
        r = (r - 1) % ROWS
    elif key == Key.DOWN:
        r = (r + 1) % ROWS
    elif key == Key.LEFT:
        c = (c - 1) % COLS
    elif key == Key.RIGHT:
        c = (c + 1) % COLS
    return r, c


def find(ch: str, page: int) -> tuple[int, int] | None:
    """Where ``ch`` is on ``page``."""
    grid = _GRIDS[page]
    return next(((r, c) for r in range(ROWS) for c in range(COLS) if grid[r][c] == ch), None)


def step(page: int, pos: tuple[int, int], key: Key) -> tuple[int, int]:
    """Where an arrow key takes the cursor on ``page``: the next cell that holds a
    key in that direction (the grid wraps), over blank cells, which cannot be
    selected (issue 39: OK on a blank cell of the "ął" page typed nothing)."""
    grid = _GRIDS[page]
    nxt = _wrap_step(pos, key)
    while not grid[nxt[0]][nxt[1]] and nxt != pos:
        nxt = _wrap_step(nxt, key)
    return nxt


def path_to(ch: str, page: int = 0, start: tuple[int, int] = HOME) -> list[Key] | None:
    """The presses from ``start`` that press ``ch`` on ``page`` (moves, then OK), or ``None``.
    The shortest way over the wrapped grid (blank cells skipped, as the arrows skip
    them): what a player who knows the grid presses."""
    goal = find(ch, page)
    if goal is None:
        return None
    paths: dict[tuple[int, int], list[Key]] = {start: []}
    frontier = [start]
    while goal not in paths and frontier:
        nxt = []
        for pos in frontier:
            for key in (Key.DOWN, Key.UP, Key.RIGHT, Key.LEFT):
                there = step(page, pos, key)
                if there not in paths:
                    paths[there] = paths[pos] + [key]
                    nxt.append(there)
        frontier = nxt
    return paths[goal] + [Key.OK] if goal in paths else None


class NameKeyboard(Screen):
    """Type a player's name; ``on_done(app, name)`` gets the cleaned name (never empty).

    ``taken`` are names already seated: a name equal to one of them is refused
    with a message, so two players never share a name.
    """

    def __init__(self, title: str, initial: str, on_done: Callable[["App", str], Any], *,
                 taken: tuple[str, ...] = (), max_len: int = NAME_MAX):
        self.title = title
        self.text = clean_name(initial, max_len)
        self.max_len = max_len
        self.on_done = on_done
        self.taken = tuple(t.casefold() for t in taken)
        self.page = 0
        self.pos = HOME
        self.shift = False  # the next letter in the other case than the automatic one

    # ------------------------------------------------------------ state
    def _capital_next(self) -> bool:
        auto = not self.text or self.text[-1] in " -"
        return auto != self.shift

    def cell(self, r: int, c: int) -> str:
        return _GRIDS[self.page][r][c]

    def label(self, ch: str) -> str:
        if ch in (SPACE, CANCEL):
            return ""
        if ch in CONTROL_LABELS:
            return CONTROL_LABELS[ch]
        return capital(ch) if self._capital_next() else ch

    # ------------------------------------------------------------ drawing
    def render(self, c: Canvas) -> None:
        tag = PAGES[self.page][0]
        c.title(self.title, tag)
        shown = self.text + ("_" if len(self.text) < self.max_len else "")
        c.text(1, TITLE_H, fit(shown, WIDTH // CHAR_W))
        for r in range(ROWS):
            y = GRID_Y + r * LINE_H
            for col in range(COLS):
                ch = self.cell(r, col)
                lab = self.label(ch)
                x0 = GRID_X + col * CELL_W
                x = x0 + (CELL_W - CHAR_W * len(lab)) // 2
                sel = (r, col) == self.pos
                if sel:
                    c.d.rectangle((x0, y, x0 + CELL_W - 1, y + LINE_H - 1), fill=1)
                if ch == SPACE:  # a space bar: ⎵
                    x0, x1, yb = x0 + 3, x0 + 10, y + 7
                    ink = 0 if sel else 1
                    c.d.line((x0, yb, x1, yb), fill=ink)
                    c.d.line((x0, yb - 2, x0, yb), fill=ink)
                    c.d.line((x1, yb - 2, x1, yb), fill=ink)
                elif ch == CANCEL:  # a crossed box, unlike any letter
                    ink = 0 if sel else 1
                    bx, by = x0 + 3, y + 1
                    c.d.rectangle((bx, by, bx + 7, by + 7), outline=ink)
                    c.d.line((bx + 2, by + 2, bx + 5, by + 5), fill=ink)
                    c.d.line((bx + 2, by + 5, bx + 5, by + 2), fill=ink)
                elif lab:
                    c.text(x, y, lab, invert=sel)

    # ------------------------------------------------------------ keys
    def on_key(self, key: Key, app: "App") -> None:
        if key in (Key.UP, Key.DOWN, Key.LEFT, Key.RIGHT):
            self.pos = step(self.page, self.pos, key)
        elif key == Key.OK:
            self._press(self.cell(*self.pos), app)
        elif key == Key.HOLD_OK:
            self._press(DONE, app)
        elif key == Key.BACK:
            if self.text:
                self.text = self.text[:-1]
                self.shift = False
            else:
                app.pop()

    def _press(self, ch: str, app: "App") -> None:
        if ch == DONE:
            self._finish(app)
        elif ch == CANCEL:
            app.pop()
        elif ch == DELETE:
            self.text = self.text[:-1]
            self.shift = False
        elif ch == SHIFT:
            self.shift = not self.shift
        elif ch == MORE:
            self.page = (self.page + 1) % len(PAGES)
        else:
            if len(self.text) >= self.max_len:
                app.message(_("A name holds at most {n} characters.").format(n=self.max_len))
                return
            if ch == SPACE and (not self.text or self.text.endswith(" ")):
                return  # no leading or double spaces: nothing to type
            self.text += capital(ch) if self._capital_next() and ch != SPACE else ch
            self.shift = False
            self.pos = HOME  # every character is typed from home
            if ch != SPACE:
                self.page = HOME_PAGE.get(self.page, self.page)

    def _finish(self, app: "App") -> None:
        name = clean_name(self.text, self.max_len)
        if not name:
            app.message(_("A name needs at least one letter."))
            return
        if name.casefold() in self.taken:
            app.message(_("{name} is already playing: pick another name.").format(name=name))
            return
        app.pop()
        self.on_done(app, name)


def presses_for(name: str, *, hold_done: bool = True) -> list[Key]:
    """The presses a player who knows the grid makes to type ``name`` from an empty
    entry and finish it: hold OK (or, with ``hold_done=False``, the "OK" key).
    The bench's ``presses_name_mean`` and its test use this."""
    keys: list[Key] = []
    page = 0
    text = ""
    pos = HOME

    def press(target: str) -> None:
        nonlocal pos
        keys.extend(path_to(target, page, pos) or [])
        pos = HOME if target not in CONTROLS or target == SPACE else find(target, page) or HOME

    for ch in name:
        auto_capital = not text or text[-1] in " -"
        want = ch.lower() if ch.isupper() else ch
        shift_needed = ch.isalpha() and (ch.isupper() != auto_capital)
        target_page = next((p for p in range(len(PAGES)) if any(want in row for row in _GRIDS[p])), None)
        if want == " ":
            target_page = page
        if target_page is None:
            raise ValueError(f"{ch!r} is on no page of the keyboard")
        while page != target_page:
            press(MORE)
            page = (page + 1) % len(PAGES)
        if shift_needed:
            press(SHIFT)
        press(want)
        text += ch
        if want != " ":
            page = HOME_PAGE.get(page, page)
    if hold_done:
        keys.append(Key.HOLD_OK)
    else:
        press(DONE)
    return keys

