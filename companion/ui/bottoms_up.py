"""Bottoms Up screens: setup, secret colors, turns, choices, results, field, scores.

One ``BottomsUpScreen`` (a ``SessionScreen``) shows whatever the position asks
for, so a new game, Resume and History all land on the right screen:

* ``opening`` (BU-4): the active seat's small, from the colors still in the
  stash (OK on a color picks its small at once);
* a turn (BU-5): the ``PieceGrid`` (a row per color still in the stash with
  its counts per size: UP/DOWN the color, OK, then ``SizeStage``: UP/DOWN
  the size, OK; RIGHT on a color row takes its second size, LEFT its largest), then the piece
  in play it goes on (``TargetPicker``: stacks by label, pieces bottom to
  top). The device then resolves the recalculation (BU-7..BU-9);
* a pending choice (BU-8, BU-13): the new color of a piece hit by blue (only
  colors in the stash) or where a piece hit by yellow goes (any other group,
  or open space). A choice with one option is applied by the device;
* after a turn: ``turn_pages``, the resulting stacks (changed ones marked
  ``*``) and the step log to compare with the table;
* ``reveal`` (physical secret colors, BU-3): each seat enters its color;
* ``over``: the winner (BU-12); OK shows every score with its breakdown (BU-11).

Secret colors drawn by the device (BU-3) are shown by ``SecretTour``: a
neutral "pass the device to ..." view; hold OK to see, release to hide. It
opens after the draw and from the session menu's Secret colors, and nowhere
else: on the turn, size, target and choice screens a hold of OK (a slow press)
counts as OK, so a color is never shown to the table by accident.

Only the journal decides what the game screen shows: the size stage, a
secret tour and the pickers are screens of their own, so a resumed session (after a
power cut) shows the very same game screen.

The session menu (BACK) adds Field view, Check mode (BU-13, in
``bottoms_up_check``), Last turn, Secret colors and Scores.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..engine import Move
from ..engine import Option as Choice
from ..games.bottoms_up import (
    COLORS, BlueChoice, BottomsUpState, Kind, Phase, Place, Reveal, Secret, Step, StepKind,
    YellowChoice,
)
from ..i18n import _, ngettext, pgettext
from ..io import Key
from ..names import reads_as, short_names
from ..pieces import Piece, Size
from ..session import Session
from ..shown import Shown
from .base import SessionScreen, close_scores, state_as
from .bottoms_up_check import TableField
from .bottoms_up_parts import LINE_CHARS, ROW_CHARS, SIZES, Pages, PieceGrid, field_lines, log_lines, stack_text
from .common import Option, OptionsSetup, draw_scoreboard, players_screen
from .draw import CHAR_W, HEIGHT, LINE_H, ROWS, TITLE_H, WIDTH, Canvas, big_width, wrap
from .join import draw_qr, qr_matrix
from .widgets import ChoiceList, Item, Menu, Message, Screen
from ..words.pieces import color_word, piece_color_word, piece_size_word

if TYPE_CHECKING:  # pragma: no cover
    from .host import Host as App  # the seam: what a screen may ask of the app

GAME = "bottoms_up"
STASH_SIZES = (90, 72, 54, 36, 18)  # pieces in the stash: 5 to 1 of each color and size
TITLE_CHARS = (WIDTH - 2) // CHAR_W  # 21: a title bar


def piece_words(p: Piece) -> str:
    """``small red`` / ``petite rouge``: a piece in words where there is room."""
    return _("{size} {color}").format(size=piece_size_word(p.size), color=piece_color_word(p.color))


def legend_lines() -> list[str]:
    """What the piece codes of the stacks mean (the codes are the records' own)."""
    return [_("piece codes:"), _("r red, y yellow,"), _("g green, b blue,"), _("k black, w white;"),
            _("S small, M medium,"), _("L large")]


def _named(template: str, names: Sequence[str], seat: int, room: int, kw: dict[str, Any]) -> tuple[str, bool]:
    """``template`` with the seat's name shortened to fit ``room`` characters
    (``short_names``: alike for every seat), and whether the table reads that
    form as the player (``reads_as``: "M-Claire" yes, "Mi" no)."""
    short = short_names(names, max(1, room - len(template.format(name="", **kw))))[seat]
    return template.format(name=short, **kw), reads_as(short, names[seat])


def named(template: str | Sequence[str], names: Sequence[str], seat: int, room: int = TITLE_CHARS,
          **kw: Any) -> str:
    """A translated ``template`` with ``{name}``: the seat's name, shortened
    the same way for every seat (``short_names``) so that the whole text
    fits ``room`` characters (a local helper: nothing shared needed).
    ``template`` may be a list of wordings, longest first: the first one
    that leaves room for a form read as the player is used, else the first."""
    templates = [template] if isinstance(template, str) else list(template)
    tried = [_named(t, names, seat, room, kw) for t in templates]
    return next((text for text, reads in tried if reads), tried[0][0])


def named_title(template: str, names: Sequence[str], seat: int, right: str, **kw: Any) -> tuple[str, str]:
    """A title bar's text and ``right`` tag: the tag is left out when keeping
    it would shorten the seat's name past reading ("M-Cir: rS on A  turn 1"
    becomes "Marie-Claire: rS on A")."""
    text, reads = _named(template, names, seat, title_room(right), kw)
    if right and not reads:
        return _named(template, names, seat, TITLE_CHARS, kw)[0], ""
    return text, right


def slow_ok(key: Key) -> Key:
    """A hold of OK as an OK, on the turn, size, target and choice screens.
    BU-3: a secret color is shown only where a player asks for it (the session
    menu's Secret colors), never by a slow press the whole table can see."""
    return Key.OK if key == Key.HOLD_OK else key


def title_room(right: str = "") -> int:
    """Characters a title bar has beside its ``right`` tag."""
    return TITLE_CHARS - (len(right) + 1 if right else 0)


# ---------------------------------------------------------------- text helpers


def stash_lines(st: BottomsUpState) -> list[str]:
    """Stash counts by color and size (two colors a line) and the destroyed pieces."""
    out = [ngettext("stash: {n} piece", "stash: {n} pieces", len(st.stash)).format(n=len(st.stash)),
           "  S M L    S M L"]
    cells = [f"{c.letter} " + " ".join(str(st.stash.count(Piece(c, z))) for z in SIZES) for c in COLORS]
    for i in range(0, len(cells), 2):
        out.append("  ".join(cells[i:i + 2]))
    gone = st.destroyed
    out += wrap(ngettext("destroyed: {n} piece", "destroyed: {n} pieces", len(gone)).format(n=len(gone))
                + (" " + " ".join(str(p) for p in gone) if gone else ""), LINE_CHARS)
    return out


def _how(how: Sequence[str]) -> str:
    """Why a piece takes an effect other than its upper piece's (BU-8 items 4, 5)."""
    if not how:
        return ""
    if how[0] == "reflect":
        return _(" (white {upper} reflects its own color)").format(upper=how[1])
    if how[0] == "white":
        return _(" (white takes the effect of {upper})").format(upper=how[1])
    return _(" ({upper} then takes its own effect)").format(upper=how[1])


def step_words(step: Step, players: Sequence[str] = ()) -> str:
    """A step of the recalculation log in the language of the screens, built
    from ``Step.args`` (the engine's ``Step.text`` stays English, for the
    records). A step without args (an old record) shows its text."""
    a, label, k = step.args, step.label, step.kind
    if not a and k not in (StepKind.START, StepKind.END, StepKind.SKIP):
        return step.text
    f = dict(label=label)
    if k == StepKind.PLACE:
        if a[0] == "lone":
            return _("{label}: {name} puts {piece} down alone").format(name=a[1], piece=a[2], **f)
        return _("{label}: {name} puts {piece} on {below}").format(name=a[1], piece=a[2], below=a[3], **f)
    if k == StepKind.SKIP:
        return _("a queued stack is gone: skipped")
    if k == StepKind.START:
        return _("{label}: its turn to be recalculated").format(**f)
    if k == StepKind.END:
        return _("the stash is empty: the game is over") if a else _("{label}: recalculated").format(**f)
    if k == StepKind.IMMUNE:
        return _("{label}: black {lower} is immune to {upper}").format(lower=a[0], upper=a[1], **f)
    if k == StepKind.SHRINK:
        return _("{label}: {piece} shrinks to {new}").format(piece=a[0], new=a[1], **f) + _how(a[2:])
    if k == StepKind.DESTROY:
        text = (_("{label}: {piece} is destroyed (a small)") if a[0] == "small"
                else _("{label}: {piece} is destroyed (no smaller one left)")).format(piece=a[1], **f)
        return text + _how(a[3:]) + (_("; the pieces above drop") if a[2] else "")
    if k == StepKind.SPAWN:
        return _("{label}: {piece} brings a new lone {new} as {group}").format(
            piece=a[0], new=a[1], group=a[2], **f) + _how(a[3:])
    if k == StepKind.GROW:
        return _("{label}: {piece} grows to {new}").format(piece=a[0], new=a[1], **f) + _how(a[2:])
    if k == StepKind.RECOLOR:
        return _("{label}: blue turns {piece} into {new}").format(piece=a[0], new=a[1], **f)
    if k == StepKind.MOVE:
        drop = _("; the pieces above drop") if a[3] else ""
        if a[0] == "open":
            return _("{label}: yellow moves {piece} to open space as {group}").format(
                piece=a[1], group=a[2], **f) + drop
        return _("{label}: yellow moves {piece} onto {target}").format(piece=a[1], target=a[2], **f) + drop + \
            _("; {target} is recalculated later").format(target=a[2])
    if k == StepKind.CHOICE:
        text = (_("{label}: blue on {piece}: choose the color") if a[0] == "blue"
                else _("{label}: yellow on {piece}: choose where")).format(piece=a[1], **f)
        return text + _how(a[2:])
    if k == StepKind.NONE:
        v = a[0]
        if v == "black":
            return _("{label}: black {upper} does nothing to {lower}").format(upper=a[1], lower=a[2], **f)
        if v == "white":
            return _("{label}: white {upper} does nothing to white {lower}").format(upper=a[1], lower=a[2], **f)
        if v == "nospawn":
            return _("{label}: {piece}: no {new} left to bring, nothing happens").format(
                piece=a[1], new=a[2], **f) + _how(a[3:])
        if v == "nogrow":
            return _("{label}: {piece} cannot grow: no {new} left").format(piece=a[1], new=a[2], **f) + _how(a[3:])
        if v == "norecolor":
            return _("{label}: {piece} keeps its color: no other left").format(piece=a[1], **f) + _how(a[2:])
    return step.text  # pragma: no cover - every kind is above


def name_of(st: BottomsUpState, seat: int | None = None) -> str:
    return st.players[st.active if seat is None else seat]


# ---------------------------------------------------------------- setup


def setup_screen(app: "App") -> Screen:
    """Players (2 to 6; 4 to 6 recommended, BU-2), names, then the options."""
    return players_screen(_("Bottoms Up"), 4, 2, 6, lambda a, names: a.push(options_screen(a, names)),
                          hint=_("4 to 6 is best"))  # BU-2


def options_screen(app: "App", names: list[str]) -> Screen:
    lone = app.settings.bu_lone_pieces
    score, no_score = pgettext("lone pieces", "score"), pgettext("lone pieces", "no score")
    stash = [(ngettext("{n} piece", "{n} pieces", n).format(n=n), n // 18) for n in STASH_SIZES]
    opts = [
        Option("secret", pgettext("option", "Secret colors"), [(_("device"), "device"), (_("table"), "physical")]),
        Option("stash", _("Stash"), stash, descending=True),  # OK: a shorter game; RIGHT/LEFT: more/fewer
        # BU-11's house rule, worded as in Settings (the catalog's context "lone pieces")
        Option("lone", _("Lone pieces"), [(score, True), (no_score, False)] if lone
               else [(no_score, False), (score, True)]),
    ]
    screen = OptionsSetup(_("Bottoms Up: options"), opts, lambda a, v: start_game(a, names, v),
                          start_label=_("Start game"))
    if not 4 <= len(names) <= 6:  # BU-2: allowed, with a warning
        screen.footer = _("best with 4 to 6")
    return screen


def start_game(app: "App", names: list[str], values: dict[str, Any]) -> None:
    setup: dict[str, Any] = {"players": list(names), "secret": values["secret"], "stash": values["stash"],
                             "lone_pieces_count": values["lone"]}
    session = app.start_session(GAME, setup)
    app.home()
    app.push(BottomsUpScreen(session))
    if values["secret"] == "device":  # BU-3: each player sees their own color, privately
        app.push(SecretTour(session))


def play_screen(app: "App", session: Session) -> Screen:
    return BottomsUpScreen(session)


def last_pages(session: Session) -> list[Screen]:
    """The turn's result the last decision showed (``BottomsUpScreen.after_move``,
    BU-13), for a resume (screens.open_session); none after an opening placement
    or while a choice is pending. Right after the device's secret draw: the
    tour of the secret colors (BU-3), which was under way."""
    st = state_as(BottomsUpState, session.state)
    if st.secret_mode == "device" and st.phase == Phase.OPENING and not st.groups and \
            all(isinstance(p.move, Secret) for p in session.fold.moves):
        # BU-3: the device stopped while the players were looking at their colors; who
        # had looked is not in the journal, so the tour starts again from the first seat
        return [SecretTour(session)]
    before = state_as(BottomsUpState, session.fold.states[len(session.fold.moves) - session.undo_span()])
    turn = completed_turn(session)
    if state_as(BottomsUpState, session.state).pending is None and before.phase == Phase.PLAY \
            and turn is not None and session.fold.moves:
        return [turn_pages(session, *turn)]
    return []


# ---------------------------------------------------------------- secret colors (BU-3)


def draw_secret(c: Canvas, st: BottomsUpState, seat: int, address: str | None = None,
                show_color: bool = True) -> None:
    """The private view: a seat's secret color in big letters. With ``address`` (the
    seat's own page, issue 41, RULINGS V-3) its QR code fills the left, and the
    color (unless ``show_color`` is off: the code alone) is written beside it."""
    color = st.secrets[seat]
    word = color_word(color) if color else "?"  # lower case reads best at 3x
    if address is None:
        c.title(named(_("{name}'s color"), st.players, seat))  # BU-3
        c.center(TITLE_H + 6, word, scale=3 if len(word) <= 7 else 2)
        c.center(TITLE_H + 41, _("release to hide"))
        return
    left = draw_qr(c, qr_matrix(address)) + 3
    room = (WIDTH - left) // CHAR_W
    name = short_names(st.players, room)[seat]
    c.text(left, 0, name[:room])
    if show_color:  # large, as every color: "yellow" just misses the room, drawn tight (issue 48)
        if big_width(word) <= WIDTH - left:
            c.big(left, 9, word, scale=2)
        elif big_width(word, tight=True) <= WIDTH - left:
            c.big(left, 9, word, scale=2, tight=True)
        else:
            c.text(left, 14, word[:room])
        # each line at most 10 cells: the room beside a 62-pixel code
        hint = _("scan with\nyour phone\nlet go to\nhide it").split("\n")
    else:
        hint = _("scan with\nyour phone\nto see\nyour color\nlet go to\nhide it").split("\n")
    step = 9  # rows one pixel closer than a list's: name, color and four lines in 64
    y = HEIGHT - step * len(hint)
    for line in hint:
        c.text(left, y, line[:room])
        y += step


def seat_address(link: Any, session: Session, seat: int) -> str | None:
    """The seat page's address from the page's link (``app.web``), or None when the
    page is off or fails (the color alone is shown then, as before issue 41)."""
    if link is None or not hasattr(link, "seat_address"):
        return None
    problem: str = getattr(link, "problem", "")
    if problem:
        return None
    try:
        return link.seat_address(session, seat)
    except Exception:  # the page's trouble never keeps a player from their color
        return None


class SecretTour(Screen):
    """Each player in turn sees their secret color (BU-3), privately.

    Neutral view: "pass the device to NAME"; that player holds OK to see the
    color and releases to hide it, and the view moves on to the next player
    who has not looked (a short OK says so in a box; a hold there shows the
    color too). After the last one: "everyone has seen", OK closes. UP/DOWN
    pick another player (to look again). Opened from the session menu
    (``from_menu``) it works the same way (issue 39), starting with the
    active player and going round the table from there; BACK goes back to
    the game at any time. No key here ever plays a move."""

    keeps_hold_back = True  # no gesture here ever changes the game (issue 39)

    def __init__(self, session: Session, seat: int = 0, *, from_menu: bool = False):
        self.session = session
        self.seat = seat
        self.first = seat  # the seat the pass starts from (the active player, from the menu)
        self.from_menu = from_menu
        self.seen: set[int] = set()
        self.showing = False
        self.final = False
        self.title = _("Secret colors")
        self.address: str | None = None  # the seat page's, while OK is held (issue 41)
        self.show_color = True

    def declared(self) -> Shown | None:
        """The round for the colors (BU-3), at the start or from the menu; once
        everyone has seen, play begins."""
        return Shown.GAME if self.final else Shown.SECRETS

    @property
    def n(self) -> int:
        return state_as(BottomsUpState, self.session.state).n

    def render(self, c: Canvas) -> None:
        st = state_as(BottomsUpState, self.session.state)
        if self.showing:
            draw_secret(c, st, self.seat, self.address, self.show_color)
            return
        if self.final:  # BU-3
            c.title(_("Secret colors"))
            c.center(TITLE_H + 1, _("Everyone has seen"))
            c.center(TITLE_H + 11, _("their color."))
            if self.from_menu:  # back to the player whose turn it is
                c.center(TITLE_H + 26, named(_("Pass to {name}:"), st.players, st.active, LINE_CHARS))
                c.center(TITLE_H + 38, _("the game: OK"))
            else:
                c.center(TITLE_H + 26, named(_("Pass to {name}:"), st.players, 0, LINE_CHARS))
                c.center(TITLE_H + 38, _("first small: OK"))
            return
        right = f"{self.seat + 1}/{self.n}"
        c.title(_("Secret colors"), right)
        c.center(TITLE_H + 1, _("Pass the device to"))
        big = short_names(st.players, WIDTH // (2 * CHAR_W))[self.seat]  # whose turn: large
        c.center(TITLE_H + 12, big, scale=2)
        c.center(TITLE_H + 32, _("hold OK: your color"))
        c.center(TITLE_H + 42, _("release: hide it"))

    @property
    def private(self) -> bool:
        return self.showing

    def on_key(self, key: Key, app: "App") -> None:
        if key == Key.HOLD_OK:
            self.showing = not self.final
            if self.showing:  # the seat's own page beside the color, when the page is on (V-3)
                link = getattr(app, "web", None)
                self.address = seat_address(link, self.session, self.seat)
                self.show_color = bool(getattr(app.settings, "bu_seat_color", True)) or self.address is None
        elif key == Key.RELEASE:
            if not self.showing:
                return
            self.showing = False
            self.seen.add(self.seat)
            if len(self.seen) == self.n:
                self.final = True
            else:  # the next player round the table who has not looked yet
                self.seat = next(k % self.n for k in range(self.seat + 1, self.seat + self.n + 1)
                                 if k % self.n not in self.seen)
        elif key in (Key.UP, Key.DOWN):
            self.showing = False
            if self.final:
                self.final = False
                self.seat = self.first
            else:
                self.seat = (self.seat + (1 if key == Key.DOWN else -1)) % self.n
        elif key == Key.OK:
            self.showing = False
            if self.final or len(self.seen) == self.n:
                app.pop()
                return
            st = state_as(BottomsUpState, self.session.state)
            order = [(self.first + k) % self.n for k in range(self.n)]
            left = ", ".join(name_of(st, i) for i in order if i not in self.seen)
            app.push(HoldToSee(_("{name}: hold OK to see your color, release to hide it. Still to look: {names}.")
                               .format(name=name_of(st, self.seat), names=left), title=_("Secret colors")))
        elif key == Key.BACK:
            self.showing = False  # BACK while OK is still held: hide before anything else
            if self.final or self.from_menu or len(self.seen) == self.n:
                app.pop()
            else:
                app.confirm(_("Not everyone has seen their color. Close anyway? (Menu > Secret colors)"),
                            lambda a: a.pop(), title=_("Secret colors"), yes=_("Close"), no=_("Stay"))


class HoldToSee(Message):
    """The tour's "hold OK to see your color" box (BU-3): it says to hold OK, so a
    hold of OK while it is open does what it says (issue 34): the box closes and
    the tour under it shows the color until the release. OK or BACK close it."""

    def on_key(self, key: Key, app: "App") -> None:
        if key == Key.HOLD_OK:
            app.pop()
            app.top.on_key(key, app)
        else:
            super().on_key(key, app)


def presses_for_place(st: BottomsUpState, move: Place) -> list[Key]:
    """The fewest presses for a placement from a fresh turn screen: the color
    row (UP/DOWN from the first, lists wrap), the size (OK alone when one is
    left; else OK, OK for the first, RIGHT for the second, LEFT for the last),
    then the target (OK on the first group; RIGHT, LEFT pick the next and
    the last; others UP/DOWN then OK). ``presses_bu_place_mean`` in the bench."""
    def walk(i: int, n: int) -> list[Key]:
        return [Key.DOWN] * i if i <= n - i else [Key.UP] * (n - i)
    p = move.piece
    sizes_all = (Size.SMALL,) if st.phase == Phase.OPENING else SIZES
    rows = [c for c in COLORS if any(st.stash.count(Piece(c, z)) for z in sizes_all)]
    keys = walk(rows.index(p.color), len(rows))
    sizes = [z for z in sizes_all if st.stash.count(Piece(p.color, z))]
    j = sizes.index(p.size)
    keys += [Key.OK] if len(sizes) == 1 else [Key.OK, Key.OK] if j == 0 else [Key.RIGHT] if j == 1 else [Key.LEFT]
    if move.target is not None:
        labels = [g.label for g in st.field_groups()]
        t, n = labels.index(move.target), len(labels)
        if t == 0:
            keys.append(Key.OK)
        elif t == 1 % n:
            keys.append(Key.RIGHT)
        elif t == n - 1:
            keys.append(Key.LEFT)
        else:
            keys += walk(t - 1, n) + [Key.RIGHT] if t - 1 <= n - t - 1 else walk(t + 1, n) + [Key.LEFT]
    return keys


# ---------------------------------------------------------------- turn results


def last_turn_start(session: Session, end: int | None = None) -> int | None:
    """Index (in ``fold.moves``) of the placement that began the turn under
    way or last played before ``end``; ``None`` before the first turn."""
    f = session.fold
    end = len(f.moves) if end is None else end
    for i in range(end - 1, -1, -1):
        if state_as(BottomsUpState, f.states[i]).is_turn_start(f.moves[i].move):
            return i
    return None


def turn_log(session: Session, start: int, end: int | None = None) -> tuple[list[str], set[str]]:
    """The step log of moves ``start..end`` (a placement and its choices) and
    the labels they changed that are still on the field. A choice the device
    made alone (one option, BU-13) says so."""
    f = session.fold
    end = len(f.moves) if end is None else end
    lines: list[str] = []
    changed: set[str] = set()
    seen: dict[tuple[str, ...], int] = {}  # the field after each choice of the turn
    for i in range(start, end):
        before, after = state_as(BottomsUpState, f.states[i]), state_as(BottomsUpState, f.states[i + 1])
        forced = before.pending is not None and len(before.pending.options) == 1
        first = True
        for step in after.last_steps:
            if step.kind == StepKind.CHOICE:  # the resolution line follows it
                continue
            text = step_words(step, before.players)
            if forced and first:  # BU-13: a one-option choice is the device's
                text += _(" (the only option)")
            first = False
            lines.append(text)
        changed |= set(after.last_changed)
        field = tuple(after.field_lines())
        if after.pending is not None and field in seen:
            # a cascade that comes back to a field it had: say so, open space can end it (BU-9)
            k = seen[field]
            lines.append(_("the field is as after choice {k} again: open space can end it").format(k=k) if k
                         else _("the field is as after the placement again: open space can end it"))
        seen.setdefault(field, i - start)
    live = {g.label for g in state_as(BottomsUpState, f.states[end]).groups}
    return lines, changed & live


def removed_stacks(session: Session, start: int, end: int | None = None,
                   held: dict[str, int] | None = None) -> dict[str, list[Piece]]:
    """The stacks that moves ``start..end`` took off the field, each with the
    pieces destroyed there (BU-6, BU-8 item 5: red on white destroys both), so
    the result names what the table must take off. ``held`` (when given) gets
    each stack's last number of pieces (the plural of "its pieces moved")."""
    f = session.fold
    held = {} if held is None else held
    end = len(f.moves) if end is None else end
    had = {g.label for g in state_as(BottomsUpState, f.states[start]).groups}
    destroyed: dict[str, list[Piece]] = {}
    for i in range(start, end):
        for g in state_as(BottomsUpState, f.states[i]).groups:
            held[g.label] = len(g.slots)
        after = state_as(BottomsUpState, f.states[i + 1])
        had |= set(after.last_changed)
        for step in after.last_steps:
            if step.kind == StepKind.DESTROY:  # args: (why, piece, ...)
                destroyed.setdefault(step.label, []).append(Piece.parse(str(step.args[1])))
    live = {g.label for g in state_as(BottomsUpState, f.states[end]).groups}
    return {label: destroyed.get(label, []) for label in sorted(had - live, key=lambda x: (len(x), x))}


def gone_lines(gone: dict[str, list[Piece]], held: dict[str, int] | None = None) -> list[str]:
    """``*B: gone, wS rS destroyed``: a stack the turn took off, marked as changed
    (``held``: how many pieces each had, for "its piece moved" or "its pieces moved")."""
    out = []
    for label, pieces in gone.items():
        if pieces:
            text = ngettext("{label}: gone, {pieces} destroyed", "{label}: gone, {pieces} destroyed",
                            len(pieces)).format(label=label, pieces=" ".join(map(str, pieces)))
        else:  # its pieces moved away (BU-8 yellow)
            n = (held or {}).get(label, 2)
            text = ngettext("{label}: gone, its piece moved", "{label}: gone, its pieces moved", n).format(label=label)
        first, *rest = wrap(text, LINE_CHARS - 1)
        out.append("*" + first)  # continuation lines under the first piece, as a stack's
        if rest:
            indent = " " * (first.find(":") + 3)  # "*B: " (French "*B : ")
            out += [indent + w for w in wrap(" ".join(rest), LINE_CHARS - len(indent))]
    return out


def completed_turn(session: Session) -> tuple[int, int] | None:
    """``(start, end)`` move indexes of the last complete turn (a placement
    and its choices), before a turn still waiting for a choice."""
    end = len(session.fold.moves)
    if state_as(BottomsUpState, session.state).pending is not None:
        end = last_turn_start(session) or 0
    start = last_turn_start(session, end)
    return None if start is None else (start, end)


def turn_pages(session: Session, start: int, end: int | None = None, *, so_far: bool = False,
               shows: Shown | None = Shown.MOVE) -> Pages:
    """The resulting stacks (changed ones marked ``*``) and the step log of
    the turn that began with move ``start`` (BU-13)."""
    f = session.fold
    end = len(f.moves) if end is None else end
    before = state_as(BottomsUpState, f.states[start])
    st = state_as(BottomsUpState, f.states[end])
    lines, changed = turn_log(session, start, end)
    m = f.moves[start].move
    assert isinstance(m, Place)
    right = "" if so_far else _("turn {n}").format(n=before.turn)
    if so_far:
        template = _("{name}: {piece} on {target}, so far") if m.target else _("{name}: {piece}, so far")
    else:
        template = _("{name}: {piece} on {target}") if m.target else _("{name}: {piece}")
    title, right = named_title(template, before.players, before.active, right, piece=m.piece, target=m.target)
    held: dict[str, int] = {}
    gone = gone_lines(removed_stacks(session, start, end, held), held)

    def page(width: int) -> list[str]:
        out = field_lines(st, changed, marks=True, gone=gone, width=width)
        out.append(_("steps so far:") if so_far else _("steps:"))
        return out + log_lines(lines, width)
    out = page(LINE_CHARS)
    if len(out) > ROWS:  # a scroll bar: every line one cell shorter, wrapped once at that width
        out = page(LINE_CHARS - 1)
    return Pages(title, out, right=right, shows=shows)  # what a turn did (looked back at: nothing new)


def field_view(st: BottomsUpState) -> Pages:
    """Every piece in play, the stash by color and size, the destroyed pieces."""
    in_play = sum(len(g.slots) for g in st.groups)
    return Pages(ngettext("In play: {n}", "In play: {n}", in_play).format(n=in_play),
                 field_lines(st) + stash_lines(st) + legend_lines(), right=_("turn {n}").format(n=st.turn))


# ---------------------------------------------------------------- scores (BU-11, BU-12)


def top_of(st: BottomsUpState, label: str) -> Piece:
    """The top piece of the group ``label`` (a scoring group of ``score_breakdown``)."""
    g = st.group(label)
    assert g is not None
    return g.top


def score_lines(st: BottomsUpState) -> list[str]:
    """Per player: color and score, then what scored for them (BU-11)."""
    out = [_("stacks + lone pieces") if st.lone_count else _("only stacks score")]  # 20: beside a scroll bar
    breakdown = st.score_breakdown()
    scores = st.final_scores()
    short = short_names(st.players, 9)
    for i in range(st.n):
        secret = st.secrets[i]
        color = color_word(secret) if secret else "?"
        out.append(f"{short[i]:<10}{color:<7}{scores[i]:>3}")
        # one line per top piece that scored, in words: "B large green: 3"
        out += [" " + _("{label} {piece}: {n}").format(label=b["label"], piece=piece_words(top_of(st, b["label"])),
                                                      n=b["points"]) for b in breakdown[i]]
        if not breakdown[i]:
            out.append(" " + _("no top piece of their color"))
    return out


def breakdown_screen(st: BottomsUpState) -> Pages:
    """Each player's color, score and what scored for them (BU-11)."""
    return Pages(_("Scores"), score_lines(st), shows=Shown.SCORED)


class ScoreBoard(Screen):
    """Every score in the large font, for the table to read (BU-11, BU-12);
    OK (or RIGHT, DOWN) shows the breakdown, BACK closes."""

    def __init__(self, st: BottomsUpState):
        self.st = st
        self.title = _("Scores")

    def render(self, c: Canvas) -> None:
        st = self.st
        c.title(_("Scores"), _("OK: details"))
        cols = min(3, st.n) if st.n != 4 else 2  # as draw_scoreboard lays them out
        room = (WIDTH // cols) // CHAR_W - 1
        draw_scoreboard(c, short_names(st.players, room), st.final_scores())

    def on_key(self, key: Key, app: "App") -> None:
        if key in (Key.OK, Key.RIGHT, Key.DOWN):
            app.pop()
            app.push(breakdown_screen(self.st))
        elif key == Key.BACK:
            close_scores(app)
        elif key == Key.LEFT:
            app.pop()


def scores_screen(st: BottomsUpState) -> Screen:
    return ScoreBoard(st)


# ---------------------------------------------------------------- the target picker


class TargetPicker(Menu):
    """The piece in play the taken piece goes on (BU-5): every group by its
    label, pieces bottom to top (the top is where it goes). UP/DOWN and OK
    as in any list; RIGHT (LEFT) picks the row below (above) the cursor in
    one press, as RIGHT and LEFT pick a size on the grid."""

    def on_key(self, key: Key, app: "App") -> None:
        items = self.items
        key = slow_ok(key)
        if key in (Key.LEFT, Key.RIGHT) and items:
            self.index = (self.index + (1 if key == Key.RIGHT else -1)) % len(items)
            key = Key.OK
        super().on_key(key, app)

    def __init__(self, state: BottomsUpState, piece: Piece, on_pick: Callable[["App", Place], Any],
                 *, check: bool = False):
        self.piece = piece

        def pick(app: "App", it: Item) -> None:
            app.pop()
            on_pick(app, Place(piece, it.value))
        title = _("Table: {piece} on:") if check else _("Put {piece} on:")  # check mode: BU-13
        super().__init__(title.format(piece=piece),
                         # a cell kept free before the scroll mark (issue 34)
                         [Item(stack_text(g.label, g.pieces, ROW_CHARS - 1), value=g.label)
                          for g in state.field_groups()],
                         on_select=pick)  # BU-5


# ---------------------------------------------------------------- the game screen


class BottomsUpScreen(SessionScreen):
    """Every phase of a Bottoms Up game (see the module docstring)."""

    def __init__(self, session: Session):
        super().__init__(session)
        self.grid: PieceGrid | None = None
        self.list = ChoiceList()
        self.check = False  # check mode (BU-13): the next placement is checked against the table

    # ------------------------------------------------------------ playing

    def do(self, app: "App", move: Move | str, *, pops: int = 0) -> None:
        """Play a move; on success close ``pops`` screens; when a turn is
        complete, show its result (BU-13). A refusal raises (the app shows it)."""
        before: BottomsUpState = self.state
        self.session.play(move)
        for _k in range(pops):
            app.pop()
        self.after_move(app, before)

    def after_move(self, app: "App", before: BottomsUpState) -> None:
        """A turn just completed: its result (opening placements need none)."""
        turn = completed_turn(self.session)
        if self.state.pending is None and before.phase == Phase.PLAY and turn is not None:
            app.push(turn_pages(self.session, *turn))

    def play(self, app: "App", move) -> None:  # SessionScreen API
        self.do(app, move)

    def placed(self, app: "App", move: Place) -> None:
        """A placement picked (BU-5): play it, or in check mode enter the table's field."""
        if self.check:
            app.push(TableField(self.state, move, self.record_checked, self.resolve_checked))
            return
        self.do(app, move)

    def back_here(self, app: "App") -> None:
        """Leave check mode and close the screens above this one."""
        self.check = False
        while app.top is not self:
            app.pop()

    def record_checked(self, app: "App", placement: Place | None, choices: Sequence[Move]) -> None:
        """Check mode's verdict recorded: the placement and its choices (the
        device applies one-option choices by itself: those are skipped here)."""
        before: BottomsUpState = self.state
        shadow = before
        if placement is not None:  # None: checked from a choice already pending
            shadow = before.apply(placement)
            self.session.play(placement)
        for m in choices:
            if shadow.forced_move() is None:
                self.session.play(m)
            shadow = shadow.apply(m)
        self.back_here(app)
        self.after_move(app, before)

    def resolve_checked(self, app: "App", placement: Place | None) -> None:
        """Check mode left: the device resolves the placement, asking each choice
        (from a choice already pending: back to that choice)."""
        self.back_here(app)
        if placement is not None:
            self.do(app, placement)

    def after_undo(self, app: "App") -> None:
        self.list.reset()
        self.check = False
        st: BottomsUpState = self.state
        if st.secret_mode == "device" and st.phase == Phase.OPENING and not st.groups and \
                all(isinstance(p.move, Secret) for p in self.session.fold.moves):
            # BU-3: back before the first small. The secret draw comes out as it was (an
            # undo never draws again: session.py), so nobody has a new color to look at
            app.message(_("Back to the start. Each player keeps the secret color drawn: an undo "
                          "never draws again. To see it: session menu, Secret colors."),
                        title=_("Secret colors"))

    def menu_items(self, app: "App") -> list[Item]:
        st: BottomsUpState = self.state
        kind = self.decision().kind
        items = [Item(_("Field view"), lambda a: (a.pop(), a.push(field_view(self.state))))]
        if kind == Kind.PLACE and st.groups:  # BU-13
            items.append(Item(_("Check mode"), lambda a: (a.pop(), self.enter_check(a))))
        elif kind in (Kind.BLUE, Kind.YELLOW):  # a turn under way: the table's stacks from here (issue 15)
            items.append(Item(_("Check the rest"), lambda a: (a.pop(), self.check_rest(a))))
        turn = completed_turn(self.session)
        if turn is not None:
            items.append(Item(_("Last turn"), lambda a: (a.pop(), a.push(turn_pages(self.session, *turn, shows=None)))))
        if st.secret_mode == "device" and kind != Kind.OVER:
            # first: a player's own color in 3 presses (BACK, OK, hold OK), the pass then goes
            # round the table (issue 39)
            items.insert(0, Item(_("Secret colors"), lambda a: (a.pop(), a.push(SecretTour(
                self.session, st.active, from_menu=True)))))
        if kind == Kind.OVER:
            items.insert(0, Item(_("Scores"), lambda a: (a.pop(), a.push(scores_screen(self.state)))))
        return items

    def session_title(self) -> str:
        return _("Bottoms Up #{n}").format(n=self.session.number)

    def why_lines(self) -> list[str]:
        """The rulings behind what the screen shows now (the session menu's "Why")."""
        st: BottomsUpState = self.state
        kind = self.decision().kind
        out: list[str] = []
        if kind == Kind.OPENING:
            out += [_("BU-4: each player puts down a small, as a lone piece"),
                    _("BU-3: each player has a secret color")]
        elif kind == Kind.PLACE:
            out += [_("BU-5: take any piece from the stash and put it on a piece in play"),
                    _("BU-7: the stack is recalculated from the bottom up"),
                    _("BU-10: the game ends when the stash is empty")]
            if self.check:
                out.append(_("BU-13: check mode: the device says if the rules reach the table's stacks"))
        elif kind == Kind.BLUE:
            out += [_("BU-8: blue changes the piece's color: pick one the stash still has"),
                    _("BU-6: the piece goes back to the stash, its replacement comes from it")]
        elif kind == Kind.YELLOW:
            out += [_("BU-8: yellow moves the piece onto another piece in play or to open space"),
                    _("BU-9: a piece moved to open space queues nothing; stacks queued before "
                      "are still recalculated")]
        elif kind == Kind.REVEAL:
            out += [_("BU-3: the colors drawn at the table are entered now"),
                    _("BU-11: the top piece of a stack scores for its color")]
        elif kind == Kind.OVER:
            out += [_("BU-11: the top piece of every stack scores 3, 2 or 1 (large, medium, small)"),
                    _("BU-12: the highest score wins; ties share the win")]
            if st.lone_count:
                out.append(_("BU-11: house rule: lone pieces score too"))
        if kind in (Kind.BLUE, Kind.YELLOW):
            out.append(_("BU-13: a choice with one option is made by the device"))
        return out

    def check_rest(self, app: "App") -> None:
        """Check mode from the pending choice: the table resolved the rest of the
        cascade by hand and enters the stacks it has now (issue 15)."""
        app.push(TableField(self.state, None, self.record_checked, self.resolve_checked))

    def enter_check(self, app: "App") -> None:
        self.check = True  # BU-13
        self.grid = None
        self.list.reset()
        app.message(_("Pick the piece and where it went, then enter the stacks the table built. BACK leaves."),
                    title=_("Check mode"))

    # ------------------------------------------------------------ rows of the decision

    def sync(self) -> list[Item]:
        rows = self.rows()
        d = self.decision()
        # a yellow choice lists open space first; the cursor starts on the first group
        yellow = d.kind == Kind.YELLOW and len(d.options) > 1
        if self.list.sync(self.state, rows, 1 if yellow else 0, extra=self.check):
            self.grid = self.make_grid()
        return rows

    def make_grid(self) -> PieceGrid | None:
        st: BottomsUpState = self.state
        kind = self.decision().kind
        if kind == Kind.OPENING:  # BU-4: a small
            return PieceGrid(st.stash.count, sizes=(Size.SMALL,))
        if kind == Kind.PLACE:
            return PieceGrid(st.stash.count)
        return None

    def item(self, o: Choice) -> Item:
        st: BottomsUpState = self.state
        m = o.move

        def act(a: "App") -> None:
            self.do(a, m)
        if isinstance(m, BlueChoice):
            at = st.pending_at()
            assert at is not None
            q = Piece(m.color, at[2].size)
            n = st.stash.count(q)
            # 19 characters at most ("bleu   bL 5 restent"): a cell free before the scroll mark (issue 34)
            return Item(f"{color_word(m.color):<7}{q} " + ngettext("{n} left", "{n} left", n).format(n=n), act)
        if isinstance(m, YellowChoice) and m.target is not None:
            tg = st.group(m.target)
            assert tg is not None
            head = _("onto {stack}")
            room = ROW_CHARS - 1 - len(head.format(stack=""))  # a cell free before the scroll mark
            return Item(head.format(stack=stack_text(m.target, tg.pieces, room)), act)
        if isinstance(m, YellowChoice):
            # BU-9: the piece stands alone and queues nothing; stacks queued before it are still
            # recalculated, so the row does not say "stop" (issue 39)
            return Item(_("open space (alone)"), act)  # 18: a free cell before the scroll mark
        if isinstance(m, Reveal):  # BU-3: the color drawn at the table
            return Item(color_word(m.color), act)
        return Item(o.label, act)  # pragma: no cover - every decision is above

    def rows(self) -> list[Item]:
        """The options of a pending choice, or the reveal entries."""
        d = self.decision()
        if d.kind not in (Kind.BLUE, Kind.YELLOW, Kind.REVEAL):
            return []
        options = list(d.options)
        if d.kind == Kind.YELLOW:  # open space first, always in view however many groups there are
            def open_space_first(o: Choice) -> bool:
                assert isinstance(o.move, YellowChoice)  # a yellow choice's options
                return o.move.target is not None
            options.sort(key=open_space_first)
        return [self.item(o) for o in options]

    # ------------------------------------------------------------ render

    def render(self, c: Canvas) -> None:
        st: BottomsUpState = self.state
        rows = self.sync()
        kind = self.decision().kind
        if kind == Kind.OVER:
            self.render_winner(c)
            return
        if kind in (Kind.OPENING, Kind.PLACE) and self.grid is not None:
            self.render_turn(c)
            return
        at = st.pending_at()
        if at is not None:
            g, i, p = at
            blue = kind == Kind.BLUE
            # BU-8: the active player's choice
            templates = ([_("{name}: new color for {piece}"), _("{name}: recolor {piece}")] if blue
                         else [_("{name}: move {piece} to"), _("{name}: move {piece}")])
            c.title(named(templates, st.players, st.active, piece=p))
            head = _("in {label}:") if blue else _("from {label}:")
            self.draw_context(c, head.format(label=g.label), g.pieces, i)
        elif kind == Kind.REVEAL:  # BU-3: colors drawn at the table
            c.title(named(_("{name}'s color?"), st.players, st.active))
            c.row(0, _("stash empty: reveal"), x=1)
        else:  # pragma: no cover - the secret draw is the device's (never waits)
            c.title(_("Bottoms Up"))
            c.center(30, _("drawing colors..."))
            return
        self.list.render(c, rows, 1, ROWS - 1)

    def draw_context(self, c: Canvas, head: str, pieces: Sequence[Piece], mark: int) -> None:
        """``in C: wS gM bL`` (``head`` is ``in C:``) with the piece a choice is about inverted; a
        tall stack is cut around it."""
        words = [str(p) for p in pieces]
        lo, hi = 0, len(words)
        room = LINE_CHARS - len(head) - 1
        while 3 * (hi - lo) - 1 > room and hi - lo > 1:
            if hi - 1 > mark:
                hi -= 1
            else:
                lo += 1
        x = 1
        c.text(x, TITLE_H, head)
        x += CHAR_W * (len(head) + 1)
        for k in range(lo, hi):
            c.text(x, TITLE_H, words[k], invert=(k == mark))
            x += CHAR_W * 3

    def render_turn(self, c: Canvas) -> None:
        """The turn screen: the stash by color and size (``PieceGrid``)."""
        st: BottomsUpState = self.state
        grid = self.grid
        assert grid is not None
        count = "" if self.check else str(len(st.stash))
        if grid.size is not None and grid.color is not None:
            text = _("Check: {color} size?") if self.check else _("{color}: size?")
            c.title(text.format(color=color_word(grid.color)), count)
        elif st.phase == Phase.OPENING:  # BU-4
            c.title(_("Put down a small"))
        elif self.check:  # BU-13
            c.title(_("Check: which piece?"))
        else:  # BU-5
            c.title(_("Take a piece"), count)
        # whose turn it is, large enough for the table to read
        c.center(TITLE_H, short_names(st.players, WIDTH // (2 * CHAR_W))[st.active], scale=2)
        grid.render(c, 2)

    def picked(self, app: "App", piece: Piece) -> None:
        """A piece taken from the stash: the opening small is placed at once
        (BU-4), as is a piece on an empty field (BU-5); else where it goes."""
        st: BottomsUpState = self.state
        if st.phase == Phase.OPENING or not st.groups:
            if self.check:
                app.message(_("Check mode needs a piece in play to place on."), title=_("Check mode"))
                return
            self.do(app, Place(piece))
        else:
            app.push(TargetPicker(st, piece, self.placed, check=self.check))

    def render_winner(self, c: Canvas) -> None:
        st: BottomsUpState = self.state
        win = st.winners()
        scores = st.final_scores()
        color = st.secrets[win[0]]
        if len(win) > 1:  # BU-12: ties share the win
            c.title(_("Shared win"))
        else:
            c.title(_("Winner: {color}").format(color=color_word(color)) if color else _("Winner"))
        if len(win) == 1:
            c.center(TITLE_H + 1, short_names(st.players, WIDTH // (2 * CHAR_W))[win[0]], scale=2)
        else:
            each = (LINE_CHARS - 2 * (len(win) - 1)) // len(win)
            short = short_names(st.players, each)
            c.center(TITLE_H + 6, ", ".join(short[i] for i in win), scale=1)
        n = scores[win[0]]
        points = (ngettext("{n} point each", "{n} points each", n) if len(win) > 1
                  else ngettext("{n} point", "{n} points", n)).format(n=n)
        c.center(TITLE_H + 21, points, scale=2 if len(points) * 2 * CHAR_W <= WIDTH else 1)
        c.center(HEIGHT - LINE_H, _("OK: every score"))

    # ------------------------------------------------------------ keys

    def on_key(self, key: Key, app: "App") -> None:
        if key == Key.BACK and self.check:  # leave check mode
            self.check = False
            self.list.reset()
            return
        super().on_key(key, app)

    def on_game_key(self, key: Key, app: "App") -> None:
        st: BottomsUpState = self.state
        rows = self.sync()
        kind = self.decision().kind
        key = slow_ok(key)
        if kind == Kind.OVER:
            if key in (Key.OK, Key.LEFT, Key.RIGHT):
                app.push(scores_screen(st))
            return
        grid = self.grid
        if grid is not None and kind in (Kind.OPENING, Kind.PLACE):
            picked = grid.key(key)
            if isinstance(picked, Piece):
                self.picked(app, picked)
            elif grid.size is not None:  # the color is chosen: now its size
                app.push(SizeStage(grid, self.render_turn, self.picked))
            return
        if key in (Key.LEFT, Key.RIGHT):
            start = last_turn_start(self.session)
            if st.pending is not None and start is not None:
                app.push(turn_pages(self.session, start, so_far=True))
            else:
                app.push(field_view(st))
        else:
            self.list.key(key, rows, app)


class SizeStage(Screen):
    """The size of the color picked on the turn screen: the same grid with
    the size cursor (UP/DOWN or LEFT/RIGHT over the sizes left, OK picks,
    BACK back to the colors). A screen of its own, so the game screen always
    shows what the journal holds; the piece picked goes to ``on_pick``."""

    def __init__(self, grid: PieceGrid, draw: Callable[[Canvas], Any], on_pick: Callable[["App", Piece], Any]):
        self.grid = grid
        self.draw = draw
        self.on_pick = on_pick
        self.title = _("Size")

    def render(self, c: Canvas) -> None:
        self.draw(c)

    def on_key(self, key: Key, app: "App") -> None:
        grid = self.grid
        key = slow_ok(key)
        if key in (Key.HOLD_BACK, Key.RELEASE):
            return
        picked = grid.key(key)
        if grid.size is None:
            app.pop()
        if isinstance(picked, Piece):
            self.on_pick(app, picked)
