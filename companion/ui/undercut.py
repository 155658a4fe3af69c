"""Undercut screens: setup, scoring, the auction, the bid picker, scores, winner.

One ``UndercutScreen`` (a ``SessionScreen``) shows whatever the position asks
for, so a new game, Resume and History all land on the right screen:

* ``start`` (physical bag, random start): who starts;
* a pending draw with the physical bag (U-15): only the colors the bag can
  still give for the size being drawn;
* ``setup`` (full table, U-3): the size mixes worth 6 pips the bag can supply;
* ``scoring``: score sheet: Done / TREE / TRIPLETS / FOURSOME (a turn-in in
  2 or 3 presses); full table: the distinct turn-ins when there is a choice
  (the device applies a single one by itself, U-6);
* ``bidding`` (full table): every stack with its bidder, and Pass; a
  stack opens the ``BidPicker`` (this bid against the one to beat, U-9);
* ``auction`` (score sheet): who passed (U-11);
* ``tiebreak`` (score sheet, U-13): the tied players' hand pips / pieces;
* ``over``: the winner screen with the tiebreak (U-12, U-13).

After each action the device tells the table what it did on its own: the
pieces to take from the tray (virtual bag), undercut bids going back (U-10),
single turn-ins applied (U-6), the round summary after a pass (U-11), the end
being triggered (U-12). LEFT/RIGHT (or the session menu) show the score
screen (RIGHT again: the combo values); the session menu also shows each hand
(full table) and "Why (rules)": the rulings behind the screen (``why_lines``).

Words (issues 13 and 21): every text goes through the catalog when it is
drawn, in the words of the French rules (ARBRE, TRIPLET, QUADRUPLET, encoche,
empilement, enchère, sous-enchère, passer). Ruling ids stay out of titles and
instructions: they are in ``why_lines``. Whose turn it is, the scores and the
winner are drawn in the large font; names are shortened with ``short_names``
where a screen has less room, so 12-character names never cut an instruction.
Piece codes (``rL``: color letter, then size S/M/L) are used only in lists of
stacks and pieces; the "Why" page gives their legend.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..engine import Decision, Move, detail_code
from ..engine import Option as Choice
from ..games.undercut import END_SCORE, Kind, Phase, UndercutState, WinBy
from ..games.undercut_moves import (
    COMBOS, STACK_NAMES, Bid, Done, Got, HandPieces, HandPips, Pass, StartPlayer, Take, TurnIn,
    bid_value, canon,
)
from ..i18n import N_, _, ngettext
from ..io import Key
from ..names import NAME_MAX, reads_as, short_names
from ..pieces import Piece, Size
from ..session import Session
from .base import SessionScreen, state_as
from .common import OptionsSetup, Option, Report, choose, players_screen
from .draw import CHAR_W, HEIGHT, LINE_H, ROWS, TITLE_H, WIDTH, Canvas, fit, wrap
from .widgets import ChoiceList, Item, CursorScreen, Menu, Message, Screen, bound, stepped
from ..plugins.undercut import tie_words
from ..words.pieces import mix_words, piece_color_word, piece_size_word, pips_text

if TYPE_CHECKING:  # pragma: no cover
    from .host import Host as App  # the seam: what a screen may ask of the app

GAME = "undercut"
COMBO_WORD = {"TREE": N_("TREE"), "TRIPLETS": N_("TRIPLETS"), "FOURSOME": N_("FOURSOME")}
LINE = WIDTH // CHAR_W  # 21 characters in a line
BIG = 2  # the large font's scale: 12 px a character, 10 characters a line
BIG_CHARS = WIDTH // (CHAR_W * BIG)


# ---------------------------------------------------------------- words


def ours(screen: Screen) -> Screen:
    """Mark a shared widget as one of this game's screens (the word tests look at these)."""
    screen.owner = GAME
    return screen


def piece_words(p: Piece) -> str:
    """A piece in words: "large red" (grande rouge)."""
    return _("{size} {color}").format(size=piece_size_word(p.size), color=piece_color_word(p.color))


def pieces_words(pieces) -> str:
    """Pieces in words, larger first: "medium yellow, small green"."""
    return ", ".join(piece_words(p) for p in canon(pieces))


def combo_word(combo: str) -> str:
    return _(COMBO_WORD[combo])


def pieces_count(n: int) -> str:
    return ngettext("{n} piece", "{n} pieces", n).format(n=n)


def value_words(value: tuple[int, int]) -> str:
    """A bid's value (U-9) in words: "3 pips, 1 piece"; the marker alone: "marker only"."""
    if value == (0, 0):
        return _("marker only")
    return _("{pips}, {pieces}").format(pips=pips_text(value[0]), pieces=pieces_count(value[1]))


def value_forms(value: tuple[int, int]) -> list[str]:
    """A bid's value in words, as it may be written: whole words, never "pc" or
    "enc." (issue 34), and a space after the comma (issue 39: "2 pips,1 piece")."""
    return [value_words(value)]


def pcs(pieces) -> str:
    """Piece codes, larger first (``rL rM rS``, the codes of the lists); ``-`` for none."""
    items = canon(pieces)
    return " ".join(str(p) for p in items) if items else "-"


def stacks_left_without_bid(st: UndercutState) -> list[int]:
    """Stacks that still have no bid (U-11: no pass while there is one)."""
    return [k for k, b in enumerate(st.bids) if b is None]


def big_line(c: Canvas, y: int, text: str) -> None:
    """A line in the large font when it fits the width, else centred in the small one."""
    if len(text) <= BIG_CHARS:
        c.center(y, text, scale=BIG)
    else:
        c.center(y + 5, fit(text, LINE))


# ---------------------------------------------------------------- setup


def setup_screen(app: "App") -> Screen:
    """Players (3 to 5, U-2), names, then level (U-14), bag (U-15) and start player."""
    return players_screen(_("Undercut"), 4, 3, 5, lambda a, names: a.push(options_screen(names)),
                          hint=_("3 to 5 players"))


def options_screen(names: list[str]) -> Screen:
    start = _("Starts")
    right = ChoiceList.ROOM - 1 - len(start)
    shown = short_names(names, right)
    opts = [
        Option("level", _("Level"), [(_("full table"), "full"), (_("score sheet"), "score")]),
        # U-14, U-15: at the score-sheet level the device never draws nor checks a piece
        Option("bag", _("Bag"), [(_("virtual"), "virtual"), (_("physical"), "physical")],
               when=lambda v: v["level"] == "full"),
        Option("start", start, [(s, i) for i, s in enumerate(shown)] + [(_("random"), "random")]),
    ]
    return ours(OptionsSetup(_("Undercut: options"), opts, lambda app, v: start_game(app, names, v),
                             start_label=_("Start game")))


def start_game(app: "App", names: list[str], values: dict[str, Any]) -> None:
    setup: dict[str, Any] = {"players": list(names), "level": values["level"], "start": values["start"]}
    if values["level"] == "full":
        setup["bag"] = values.get("bag", "virtual")
    session = app.start_session(GAME, setup)
    app.home()
    screen = UndercutScreen(session)
    app.push(screen)
    st = state_as(UndercutState, session.state)
    if values["start"] == "random" and st.start is not None:
        app.push(ours(Message(_("{name} starts (drawn at random).").format(name=st.players[st.start]),
                              title=_("Start player"))))


def play_screen(app: "App", session: Session) -> Screen:
    return UndercutScreen(session)


def last_pages(session: Session) -> list[Screen]:
    """The pages the last decision showed (``UndercutScreen.do``: a round summary, the
    moves played for players, the stacks), in order, for a resume (screens.open_session)."""
    n0 = len(session.fold.moves) - session.undo_span()
    return [ours(Report(title, lines)) for title, lines in reports(session, steps_since(session, n0))]


# ---------------------------------------------------------------- reports


@dataclass
class Step:
    before: UndercutState
    move: Move
    after: UndercutState


def steps_since(session: Session, n0: int) -> list[Step]:
    f = session.fold
    out = []
    for i in range(n0, len(f.moves)):
        before = state_as(UndercutState, f.states[i])
        out.append(Step(before, f.moves[i].move, state_as(UndercutState, f.states[i + 1])))
    return out


def round_summary(before: UndercutState, drawn: Piece | None, *, virtual: bool = False) -> tuple[str, list[str]]:
    """The summary of an auction's resolution (U-11), from the position just
    before it resolves (the passer's draw pending or done): the pass, who took
    which stack, what went back to the bag, who starts the next round. It holds
    at most two screens (OK shows its end, the next closes it): where the
    sentences would take more (5 players, long names), each stack takes one
    line, "Alexandr A: gL bM rS", the names shortened alike (``short_names``)."""
    passer = before.start if before.start is not None else before.active
    taken = [(k, bid[0], stack) for k, (stack, bid) in enumerate(zip(before.stacks, before.bids))
             if bid is not None]  # a pass needs every stack bid (U-11)
    to_bag = [p for bid in before.bids if bid is not None for p in bid[1]]
    width = LINE - 1  # a page longer than the screen keeps a free column for the scroll bar

    def lines_with(names: Sequence[str], compact: bool) -> list[str]:
        if drawn is None:
            first = _("{name} passed: +1, the bag is empty.")
        elif virtual:
            first = _("{name} passed: +1, takes a {piece} from the tray.")
        else:
            first = _("{name} passed: +1, drew a {piece}.")
        out = [first.format(name=names[passer], piece=piece_words(drawn) if drawn else "")]
        for k, seat, stack in taken:
            line = _("{name} {stack}: {pieces}") if compact else _("{name} takes {stack}: {pieces}")
            out.append(line.format(name=names[seat], stack=STACK_NAMES[k], pieces=pcs(stack)))
        if to_bag:
            out.append(_("Back to the bag: {pieces}").format(pieces=pcs(to_bag)))
        out.append(_("{name} starts round {n}.").format(name=names[passer], n=before.round + 1))
        return out

    def height(lines: list[str]) -> int:
        return sum(1 if len(t) <= width else len(wrap(t, width)) for t in lines)

    lines = lines_with(before.players, False)
    if height(lines) > 2 * ROWS:
        room = width - max(len(_("{name} {stack}: {pieces}").format(name="", stack=STACK_NAMES[k], pieces=pcs(st)))
                           for k, _seat, st in taken)
        short = short_names(before.players, max(1, room))
        lines = lines_with(before.players, True)
        lines[1:1 + len(taken)] = lines_with(short, True)[1:1 + len(taken)]
        if height(lines) > 2 * ROWS:
            lines = lines_with(short, True)
    return _("Round {n} over").format(n=before.round), lines


def tray_page(players: tuple[str, ...], seat: int, pieces: list[Piece]) -> tuple[str, list[str]]:
    """The pieces a player takes from the tray at setup (virtual bag, U-3, U-15): the
    name in the title, then one line per kind of piece with its count ("small green
    ×2"), so that every piece is on the page without scrolling (at most 5 kinds: 6
    smalls in 5 colors, or a medium and 4 smalls); OK closes it."""
    template = _("{name} takes:")
    room = WIDTH // CHAR_W - len(template.format(name=""))
    title = template.format(name=short_names(list(players), room)[seat])
    kinds: dict[Piece, int] = {}
    for p in canon(pieces):
        kinds[p] = kinds.get(p, 0) + 1
    return title, ["  " + piece_words(p) + (f" ×{n}" if n > 1 else "") for p, n in kinds.items()]


def reports(session: Session, steps: list[Step]) -> list[tuple[str, list[str]]]:
    """What the device did (or the table must do) after the last action, as
    pages of (title, lines), in order."""
    pages: list[tuple[str, list[str]]] = []
    virtual = session.auto_chance
    tray: dict[int, list[Piece]] = {}
    stacks_drawn = False
    auto_turnins: list[str] = []

    def only_one_move() -> None:  # the device's moves so far, as one page
        if auto_turnins:
            pages.append((_("Only one move"), auto_turnins[:]))
            auto_turnins.clear()

    for i, s in enumerate(steps):
        m, b = s.move, s.before
        if isinstance(m, Got) and b.draw_for is not None:
            kind, idx = b.draw_for
            if kind == "hand" and virtual:  # U-3, U-15: the device drew the colors
                tray.setdefault(idx, []).append(m.piece)
                if not s.after.pending or s.after.draw_for != b.draw_for:
                    pages.append(tray_page(b.players, idx, tray.pop(idx)))
            elif kind == "stack":
                stacks_drawn = True
            elif kind == "pass":
                pages.append(round_summary(b, m.piece, virtual=virtual))
        elif isinstance(m, Pass) and b.full and m.size is None:
            pages.append(round_summary(replace_start(b), None))
        elif isinstance(m, Bid) and (old_bid := b.bids[m.stack]) is not None:  # U-10
            old_seat, old_pieces = old_bid
            who = b.players[old_seat]
            line = (ngettext("{name} takes back the marker and {pieces}.", "{name} takes back the marker and {pieces}.",
                             len(old_pieces)).format(name=who, pieces=pieces_words(old_pieces))
                    if old_pieces else _("{name} takes back the marker.").format(name=who))
            pages.append((_("Bid undercut"), [line]))
        if i > 0 and b.current_player >= 0 and b.forced_move() == m:
            # played by the device: the player had only this move (U-6, U-14 as amended)
            auto_turnins.append(forced_line(b, m))
            if isinstance(m, TurnIn) and m.pieces:  # which pieces go back to the bag (issue 13)
                auto_turnins.append("  " + _("back to the bag: {pieces}").format(pieces=pcs(m.pieces)))
        if s.after.end_triggered and not b.end_triggered:  # U-12
            only_one_move()  # the moves that reached the end come before it is said
            seat = next(j for j, p in enumerate(s.after.points) if p >= END_SCORE)
            pts = s.after.points[seat]
            why = (_("This scoring phase is the last.") if b.phase == Phase.SCORING
                   else _("One more scoring phase, then the end."))
            pages.append((_("End triggered"), [
                ngettext("{name} has {n} point.", "{name} has {n} points.", pts).format(
                    name=s.after.players[seat], n=pts), why]))
    only_one_move()
    if stacks_drawn and virtual:  # U-7
        last = steps[-1].after
        pages.append((_("Stacks from the tray"), stack_lines(last.stacks) or [_("No stack: the bag is empty.")]))
    return pages


def stack_lines(stacks) -> list[str]:
    """The stacks the table takes from the tray (virtual bag, U-7), in words (QA #10).
    Each stack is a large, a medium and a small: a first line names the sizes in
    that order and each stack's line its colors ("large/medium/small",
    "A: red/red/black"), on one page; a row too long for a line goes on under
    itself ("B: yellow/yellow/", "   yellow"), two screens at most. Where a stack
    lacks a size (the bag ran out of it), each piece is named in full, a line each."""
    order = (Size.LARGE, Size.MEDIUM, Size.SMALL)
    head = "/".join(piece_size_word(z) for z in order)
    rows = [f"{STACK_NAMES[k]}: " + "/".join(piece_color_word(p.color) for p in canon(stack))
            for k, stack in enumerate(stacks)]
    whole = all(tuple(p.size for p in canon(stack)) == order for stack in stacks)
    if stacks and whole and all(len(t) <= LINE for t in [head, *rows]):
        return [head, *rows]
    if stacks and whole and len(head) < LINE:  # a long row goes on under itself: two screens at most
        out = [head]
        for k, stack in enumerate(stacks):
            lead = f"{STACK_NAMES[k]}: "
            words = [piece_color_word(p.color) for p in canon(stack)]
            line = lead + words[0]
            for w in words[1:]:
                if len(line) + 1 + len(w) <= LINE - 1:
                    line += "/" + w
                else:
                    out.append(line + "/")
                    line = " " * len(lead) + w
            out.append(line)
        if all(len(t) < LINE for t in out):
            return out
    lines: list[str] = []
    for k, stack in enumerate(stacks):
        lead = f"{STACK_NAMES[k]}: "
        for i, p in enumerate(canon(stack)):
            lines.append((lead if i == 0 else " " * len(lead)) + piece_words(p))
    return lines


def forced_line(b: UndercutState, m: Move) -> str:
    """A move the device played for a player, in one short line (the history has the long
    form, ``describe_forced``)."""
    who = b.players[b.active]
    if isinstance(m, TurnIn):
        return _("{name}: {combo} +{n}").format(name=who, combo=combo_word(m.combo),
                                                 n=b.values[COMBOS.index(m.combo)])
    if isinstance(m, Pass):
        if m.size:
            return _("{name} passes and draws a {size}").format(name=who, size=piece_size_word(m.size))
        return _("{name} passes").format(name=who)
    if isinstance(m, Bid):
        return _("{name}: zero bid on {stack}").format(name=who, stack=STACK_NAMES[m.stack])
    if isinstance(m, HandPieces):
        return ngettext("{name}: {n} piece in hand", "{name}: {n} pieces in hand", m.count).format(
            name=who, n=m.count)
    if isinstance(m, HandPips):
        return ngettext("{name}: {n} pip in hand", "{name}: {n} pips in hand", m.pips).format(
            name=who, n=m.pips)
    if isinstance(m, Take):
        return _("{name} takes {mix}").format(name=who, mix=mix_words(m.mix))
    if isinstance(m, Done):
        return _("{name}: no combo").format(name=who)
    return str(m)  # pragma: no cover - every forced move is above


def replace_start(st: UndercutState) -> UndercutState:
    """The position as the pass leaves it (the passer is the start player, U-11)."""
    return replace(st, start=st.active)


# ---------------------------------------------------------------- score screen


def draw_scores(c: Canvas, st: UndercutState) -> None:
    """The score screen: every score in 16 px digits under its name (the start
    player's name inverted), the round in the title, END when triggered (U-12)."""
    c.title(_("Scores, round {n}").format(n=st.round), _("END") if st.end_triggered else "")
    n = st.n
    cols = n if n <= 3 else (2 if n == 4 else 3)
    rows = -(-n // cols)
    w = WIDTH // cols
    h = (HEIGHT - TITLE_H) // rows
    names = short_names(st.players, w // CHAR_W - 1)
    for i, (name, pts) in enumerate(zip(names, st.points)):
        r, k = divmod(i, cols)
        x0, y0 = k * w, TITLE_H + r * h
        c.text(x0 + 2, y0, name, invert=(i == st.start))
        c.big(x0 + 2, y0 + 9, str(pts), BIG)


def draw_combo_values(c: Canvas, st: UndercutState) -> None:
    """The three combo values (U-4), each word in full and its value in 16 px digits."""
    c.title(_("Combo values"))
    rh = (HEIGHT - TITLE_H) // 3
    for j, combo in enumerate(COMBOS):
        y = TITLE_H + 1 + j * rh
        c.text(2, y + 4, combo_word(combo))
        v = str(st.values[j])
        c.big(WIDTH - 2 - CHAR_W * BIG * len(v), y - 1, v, BIG)


class ScoreScreen(Screen):
    """The scores at a glance; LEFT/RIGHT/UP/DOWN: the combo values and back;
    OK or BACK closes it."""

    def __init__(self, session: Session):
        self.session = session
        self.page = 0

    def render(self, c: Canvas) -> None:
        (draw_combo_values if self.page else draw_scores)(c, state_as(UndercutState, self.session.state))

    def on_key(self, key: Key, app: "App") -> None:
        if key in (Key.OK, Key.BACK):
            app.pop()
        elif key in (Key.LEFT, Key.RIGHT, Key.UP, Key.DOWN):
            self.page = 1 - self.page


def hands_menu(session: Session) -> Screen:
    """Each hand (full table): pips and pieces; OK shows the pieces in words."""
    def show_hand(app: "App", name: str, lines: list[str]) -> None:
        app.push(ours(Report(_("Hand of {name}").format(name=name), lines)))

    def items() -> list[Item]:
        st = state_as(UndercutState, session.state)
        rights = [pips_text(h.pips()) for h in st.hands]
        shown = short_names(st.players, ChoiceList.ROOM - 1 - max(map(len, rights)))
        out = []
        for i, name in enumerate(st.players):
            h = st.hands[i]
            lines = [_("{pips}, {pieces}").format(pips=pips_text(h.pips()), pieces=pieces_count(len(h)))]
            counts: dict[Piece, int] = {}
            for p in canon(h):
                counts[p] = counts.get(p, 0) + 1
            lines += [piece_words(p) + (f" x{k}" if k > 1 else "") for p, k in counts.items()]
            if not len(h):
                lines.append(_("empty hand"))
            out.append(Item(shown[i], bound(show_hand, name, lines), right=rights[i]))
        return out
    return ours(Menu(_("Hands"), items))


# ---------------------------------------------------------------- the game screen

TITLES = {Kind.TAKE: N_("Take 6 pips"), Kind.TURN_IN: N_("Turn in which combo?"), Kind.BID: N_("Bid or pass"),
          Kind.SHEET: N_("Scoring phase"), Kind.WHO_PASSED: N_("Who passed? +1"), Kind.START: N_("Who starts?")}
WITH_NAME = (Kind.TAKE, Kind.TURN_IN, Kind.BID, Kind.SHEET, Kind.HAND_DRAW, Kind.PASS_DRAW, Kind.STACK_DRAW)
"""The decisions drawn with a large line (whose turn it is, or the stack drawn) above the list."""


class UndercutScreen(SessionScreen):
    """Every phase of an Undercut game (see the module docstring)."""

    def __init__(self, session: Session):
        super().__init__(session)
        self.list = ChoiceList(mark="side")
        self.number = 0  # the tiebreak entry (U-13)

    # ------------------------------------------------------------ playing

    def do(self, app: "App", move: Move | str, *, pops: int = 0) -> None:
        """Play a move; on success close ``pops`` screens and report what the
        device did on its own. A refusal raises (the app shows the reason)."""
        n0 = len(self.session.fold.moves)
        self.session.play(move)
        for _i in range(pops):
            app.pop()
        for title, lines in reversed(reports(self.session, steps_since(self.session, n0))):
            app.push(ours(Report(title, lines)))

    def play(self, app: "App", move) -> None:  # SessionScreen API
        self.do(app, move)

    def after_undo(self, app: "App") -> None:
        self.list.reset()

    def menu_items(self, app: "App") -> list[Item]:
        items = [Item(_("Scores"), lambda a: (a.pop(), a.push(ScoreScreen(self.session))))]
        if self.state.full:
            items.append(Item(_("Hands"), lambda a: (a.pop(), a.push(hands_menu(self.session)))))
        return items

    def session_title(self) -> str:
        return _("Undercut #{id}").format(id=self.session.number)

    def why_lines(self) -> list[str]:
        """The rulings behind what the screen shows now (the session menu's "Why" page)."""
        st: UndercutState = self.state
        d = self.decision()
        k = d.kind
        out: list[str] = []
        if k == Kind.TAKE:
            out.append(_("U-3: take sizes worth 6 pips; the colors come from the bag at random."))
        if k in (Kind.HAND_DRAW, Kind.STACK_DRAW, Kind.PASS_DRAW):
            out.append(_("U-15: enter the color drawn; only what the bag still holds is offered."))
        if k == Kind.STACK_DRAW:
            out.append(_("U-7: one stack fewer than players, each a large, a medium and a small."))
        if k in (Kind.TURN_IN, Kind.SHEET):
            out += [_("U-4: a turn-in scores the combo's value, then the value rises by 1."),
                    _("U-5: TREE: large, medium, small of one color. TRIPLETS: three identical pieces. "
                      "FOURSOME: four colors of one size."),
                    _("U-6: turn in every combo in the hand; one possible turn-in is played for you.")]
        if k == Kind.BID:
            out += [_("U-8: the start player bids first, then clockwise; a bidder's turn is skipped."),
                    _("U-9: a bid must be lower: fewer pips, or as many pips in fewer pieces. "
                      "The marker alone bids zero."),
                    _("U-10: an undercut bid goes back to its owner at once."),
                    _("U-11: no pass while a stack has no bid.")]
        if k in (Kind.WHO_PASSED, Kind.PASS_DRAW) or (k == Kind.BID and not stacks_left_without_bid(st)):
            out.append(_("U-11: the passer scores 1, draws a piece and starts the next round; "
                         "each stack goes to its bidder."))
        if k in (Kind.HAND_PIPS, Kind.HAND_PIECES):
            out.append(_("U-13: a tie on score goes to the fewest pips in hand, then the fewest pieces."))
        if d.is_over or st.end_triggered:
            out.append(_("U-12: at 10 points the game ends after a full scoring phase."))
        if d.is_over:
            out.append(_("U-13: the lowest score wins; ties: fewest pips, then fewest pieces in hand."))
        if st.full:
            out.append(_("rL: a piece code, color letter then size (S small, M medium, L large)."))
        return out

    # ------------------------------------------------------------ rows of the decision

    def header(self, d: Decision | None = None) -> tuple[str, str]:
        """The title and the large line (whose turn it is, or the stack being drawn)."""
        st: UndercutState = self.state
        d = d or self.decision()
        if d.kind in (Kind.HAND_DRAW, Kind.STACK_DRAW, Kind.PASS_DRAW):
            draw = st.pending_draw() or {}
            title = _("{size} drawn: color?").format(size=piece_size_word(st.pending[0]))
            if d.kind == Kind.STACK_DRAW:
                return title, _("Stack {name}").format(name=draw["stack"])
            return title, short_names(st.players, BIG_CHARS)[draw["seat"]]
        title = _(TITLES[d.kind]) if d.kind in TITLES else ""
        if d.kind not in WITH_NAME or not st.players:
            return title, ""
        if d.kind == Kind.SHEET:  # the player's score beside the name
            pts = str(st.points[st.active])
            return title, f"{short_names(st.players, BIG_CHARS - 1 - len(pts))[st.active]} {pts}"
        return title, short_names(st.players, BIG_CHARS)[st.active]

    def item(self, o: Choice) -> Item:
        """A decision's option as a row; the auction's stacks are rows of their own (``rows``)."""
        st: UndercutState = self.state
        m = o.move

        def act(a: "App") -> None:
            self.do(a, m)
        if isinstance(m, Got):  # physical bag (U-15): only what the bag can still give
            assert st.bag is not None  # a draw: the full level, which tracks the bag
            n = st.bag.count(m.piece)
            return Item(piece_color_word(m.piece.color), act,
                        right=ngettext("{n} in bag", "{n} in bag", n).format(n=n))
        if isinstance(m, Take):
            return Item(mix_words(m.mix), act)
        if isinstance(m, TurnIn):
            v = st.values[COMBOS.index(m.combo)]
            right = f"+{v}"
            label = combo_word(m.combo)
            if st.full and m.pieces:
                room = ChoiceList.ROOM - 1 - len(right)
                colors = [p.color.letter for p in canon(m.pieces)]
                size = m.pieces[0].size.letter
                # U-5: a FOURSOME is four pieces of one size in four colors; when the hand
                # offers the same colors in two sizes, the colors alone would not tell the rows apart
                if m.combo == "FOURSOME" and any(
                        isinstance(other.move, TurnIn) and other.move.combo == "FOURSOME" and other.move.pieces
                        and other.move.pieces[0].size != m.pieces[0].size for other in self.decision().options):
                    shorter = [f"{size}: {' '.join(colors)}", f"{size}: {''.join(colors)}", f"{size}:{''.join(colors)}"]
                else:
                    shorter = [" ".join(colors), "".join(colors)]
                for pieces in (pcs(m.pieces), *shorter):
                    if len(label) + 1 + len(pieces) <= room:
                        label = f"{label} {pieces}"
                        break
            return Item(label, act, right=right)
        if isinstance(m, Done):
            return Item(_("Done: no combo"), act)
        if isinstance(m, Pass) and m.seat is not None:
            return Item(st.players[m.seat], act, right=str(st.points[m.seat]))
        if isinstance(m, Pass):  # pragma: no cover - the auction's pass is a row of its own
            return Item(_("Pass"), act)
        if isinstance(m, StartPlayer):  # the table names who starts
            return Item(st.players[m.seat], act)
        return Item(str(m), act)  # pragma: no cover - every option is above

    def rows(self, d: Decision | None = None) -> list[Item]:
        st: UndercutState = self.state
        d = d or self.decision()
        if d.kind == Kind.BID:  # the stacks with their bidders, then Pass: a stack opens the picker
            out = []
            labels = [f"{STACK_NAMES[k]} {pcs(stack)}" for k, stack in enumerate(st.stacks)]
            free = _("no bid")
            shown = ROWS - 2 if self.header(d)[1] else ROWS
            room = ChoiceList.room(len(labels) + 1, shown) - 1 - max([len(s) for s in labels] + [1])
            names = short_names(st.players, room)
            for k, label in enumerate(labels):
                b = st.bids[k]
                right = free if b is None else names[b[0]]
                out.append(Item(label, bound(self.open_bid, k), right=right))
            out.append(Item(_("Pass: +1 and draw"), self.ask_pass))
            return out
        options = list(d.options)
        if d.kind == Kind.SHEET:  # Done first: a stray OK scores nothing
            options = options[-1:] + options[:-1]
        elif d.is_chance and d.kind != Kind.START:  # physical bag (U-15): in the game's color order
            def color_order(o: Choice) -> int:
                assert isinstance(o.move, Got)  # the bag's draws: every chance move but the start pick
                return st.colors.index(o.move.piece.color)
            options.sort(key=color_order)
        return [self.item(o) for o in options]

    def default_index(self, d: Decision, rows: list[Item]) -> int:
        st: UndercutState = self.state
        if d.kind == Kind.BID:
            missing = stacks_left_without_bid(st)
            return missing[0] if missing else len(rows) - 1
        if d.kind == Kind.WHO_PASSED:  # U-11: the list in seat order, the cursor on its first seat
            return 0  # every round alike: k DOWNs name seat k + 1 (not the last passer, QA #13)
        if d.kind == Kind.TAKE:
            return next((i for i, o in enumerate(d.options) if isinstance(o.move, Take) and sorted(o.move.mix) == sorted("LMS")), 0)
        return 0

    # ------------------------------------------------------------ auction actions

    def open_bid(self, app: "App", stack: int) -> None:
        app.push(BidPicker(self.state, stack, lambda a, bid: self.do(a, bid, pops=1)))

    def ask_pass(self, app: "App") -> None:
        st: UndercutState = self.state
        missing = stacks_left_without_bid(st)
        if missing:  # U-11
            names = ", ".join(STACK_NAMES[k] for k in missing)
            app.push(ours(Message(_("Every stack needs a bid before a pass. No bid on: {stacks}.").format(
                stacks=names), title=_("Cannot pass"))))
            return
        assert st.bag is not None  # the auction: the full level, which tracks the bag
        sizes = st.bag.sizes_available()
        if not sizes:
            self.do(app, Pass())
            return
        choose(app, _("Pass: which size?"), [
            (ngettext("{size} ({n} in bag)", "{size} ({n} in bag)", st.bag.count_size(s)).format(
                size=piece_size_word(s), n=st.bag.count_size(s)), s) for s in sizes],
            lambda a, s: self.do(a, Pass(size=s)))
        ours(app.top)

    # ------------------------------------------------------------ tiebreak (score sheet, U-13)

    def tiebreak_bounds(self, d: Decision) -> tuple[int, int]:
        def answer(m: Move) -> int:
            if isinstance(m, HandPips):
                return m.pips
            assert isinstance(m, HandPieces)  # the tiebreak asks for pips, then for pieces (U-13)
            return m.count
        vals = [answer(m) for m in d.moves]
        return (min(vals), max(vals)) if vals else (0, 0)

    # ------------------------------------------------------------ render

    def sync(self) -> tuple[Decision, list[Item]]:
        d = self.decision()
        rows = self.rows(d)
        if self.list.sync(self.state, rows, self.default_index(d, rows)) and \
                d.kind in (Kind.HAND_PIPS, Kind.HAND_PIECES):
            self.number = self.tiebreak_bounds(d)[0]
        return d, rows

    def render(self, c: Canvas) -> None:
        d, rows = self.sync()
        if d.is_over:
            self.render_winner(c)
            return
        if d.kind in (Kind.HAND_PIPS, Kind.HAND_PIECES):
            self.render_tiebreak(c, d)
            return
        title, big = self.header(d)
        c.title(title)
        if big:  # whose turn it is, in the large font; three rows of the list under it
            big_line(c, TITLE_H, big)
            self.list.render(c, rows, 2, ROWS - 2)
        else:
            self.list.render(c, rows, 0, ROWS)

    def render_tiebreak(self, c: Canvas, d: Decision) -> None:
        st: UndercutState = self.state
        c.title(_("Pips in hand?") if d.kind == Kind.HAND_PIPS else _("Pieces in hand?"))
        big_line(c, TITLE_H, short_names(st.players, BIG_CHARS)[st.active])
        c.center(TITLE_H + 21, str(self.number), scale=BIG)
        c.text(2, TITLE_H + 21, "-")
        c.text(WIDTH - 8, TITLE_H + 21, "+")
        pts = st.points[st.tied[0]]
        c.center(HEIGHT - LINE_H, fit(ngettext("tied on {n} point", "tied on {n} points", pts).format(n=pts), LINE))

    def render_winner(self, c: Canvas) -> None:
        st: UndercutState = self.state
        k = len(st.winners)
        c.title(_("Shared win") if k > 1 else _("Winner"))
        if k == 1:
            big_line(c, TITLE_H + 1, short_names(st.players, BIG_CHARS)[st.winners[0]])
        else:  # the winners in two small lines
            per = -(-k // 2)
            width = (LINE - 2 * (per - 1)) // per
            names = short_names(st.players, width)
            won = [names[i] for i in st.winners]
            for r in range(2):
                part = won[r * per:(r + 1) * per]
                if part:
                    c.center(TITLE_H + 1 + r * LINE_H, ", ".join(part))
        pts = st.points[st.winners[0]]
        c.center(TITLE_H + 22, fit(ngettext("{n} point", "{n} points", pts).format(n=pts), LINE))
        # how the tie was broken (U-13, U-14): the outcome's code, worded by the game's plug-in
        stage = detail_code(st.detail)
        why = tie_words(stage)
        y = TITLE_H + 32
        if st.tied and why:
            c.center(y, fit(why, LINE))
            pips = {i: st.tb_pips[i] if st.tb_pips else st.hands[i].pips() for i in st.tied}
            seats = list(st.tied)
            if stage == WinBy.PIECES:  # only the hands still tied on pips went on to count pieces:
                # the others' figures are pips, which beside pieces would read as pieces
                least = min(p for p in pips.values() if p is not None)
                seats = [i for i in seats if pips[i] == least]
            figures = []
            for i in seats:
                cnt = st.tb_pieces[i] if st.tb_pieces else (len(st.hands[i]) if st.full else None)
                figures.append(cnt if stage == WinBy.PIECES and cnt is not None else pips[i])
            digits = max(len(str(f)) for f in figures)
            width = (LINE - (len(figures) - 1)) // len(figures) - 1 - digits
            names = short_names(st.players, max(1, width))
            # only forms a table reads as their players ("Mud" for Marie-Claude is none):
            # else the figures are on the scores page, which OK opens
            if width >= 2 and all(reads_as(names[i], st.players[i]) for i in seats):
                c.center(y + LINE_H, " ".join(f"{names[i]} {f}" for i, f in zip(seats, figures)))
                return
        else:
            c.center(y, fit(_("lowest score wins"), LINE))
        c.center(y + LINE_H, fit(_("OK: all scores"), LINE))

    # ------------------------------------------------------------ keys

    def on_game_key(self, key: Key, app: "App") -> None:
        d, rows = self.sync()
        if d.is_over:
            if key in (Key.OK, Key.LEFT, Key.RIGHT):
                app.push(ScoreScreen(self.session))
            return
        if d.kind in (Kind.HAND_PIPS, Kind.HAND_PIECES):
            lo, hi = self.tiebreak_bounds(d)
            step = {Key.UP: 1, Key.DOWN: -1, Key.RIGHT: 10, Key.LEFT: -10}.get(key)
            if step:
                self.number = max(lo, min(hi, self.number + step))
            elif key == Key.OK:
                self.do(app, HandPips(self.number) if d.kind == Kind.HAND_PIPS else HandPieces(self.number))
            return
        if key in (Key.LEFT, Key.RIGHT):
            app.push(ScoreScreen(self.session))
        else:
            self.list.key(key, rows, app)


# ---------------------------------------------------------------- bid picker


class BidPicker(CursorScreen):
    """Pick the pieces of a bid on one stack (U-9).

    The first lines are the bid to beat; the "Bid" row shows this bid's value,
    and the title whether it is lower. OK on a piece adds one more of it
    (after all you hold: back to none) and brings the cursor back to the Bid
    row; OK there places the bid. The marker alone is the zero bid (U-9).
    BACK cancels.
    """

    def __init__(self, state: UndercutState, stack: int, on_bid: Callable[["App", Bid], Any]):
        st = self.state = state
        self.on_bid = on_bid
        self.stack = stack
        self.seat = st.active
        self.have = sorted(st.hands[st.active].items(), key=lambda pc: (pc[0].pips, str(pc[0])))
        self.chosen = [0] * len(self.have)
        self.list = ChoiceList(mark="side")  # the pieces' rows, under the Bid row
        self._index = 0  # 0: the Bid row; k: the list's piece k - 1

    def pieces(self) -> tuple[Piece, ...]:
        return tuple(p for (p, _n), k in zip(self.have, self.chosen) for _i in range(k))

    def verdict(self) -> tuple[bool, str]:
        """Whether this bid may go on the stack, and the word for it (language-free key)."""
        beat = self.state.bid_to_beat(self.stack)
        v = bid_value(self.pieces())
        if beat is None:
            return True, "any"
        return (v < beat), ("lower" if v < beat else "too high")

    def verdict_text(self) -> str:
        ok, word = self.verdict()
        return {"any": _("any bid"), "lower": _("lower"), "too high": _("too high")}[word]

    def render(self, c: Canvas) -> None:
        st = self.state
        c.title(_("Bid on {stack}").format(stack=STACK_NAMES[self.stack]), self.verdict_text())
        b = st.bids[self.stack]
        if b is None:
            beat = [_("No bid yet.")]
        else:
            beat = self.beat_lines(b[0], bid_value(b[1]))
        for i, line in enumerate(beat):
            c.text(1, TITLE_H + i * LINE_H, fit(line, LINE))
        # the Bid row (OK places the bid) stays in view over the pieces' list, the
        # whole row's width, beside no scroll mark; a value too long for "Bid: " in
        # front of it has the label on a line of its own over it (issue 39)
        mine = value_words(bid_value(self.pieces()))
        first = len(beat)
        label = _("Bid: {value}").format(value=mine)
        x = self.list.x
        if len(label) > (WIDTH - x) // CHAR_W:
            c.text(x, TITLE_H + first * LINE_H, _("Bid:"))
            first += 1
            label = mine
        c.row(first, fit(label, (WIDTH - x) // CHAR_W), selected=self._index == 0, x=x)
        rows = [Item(piece_words(p), right=f"{k}/{n}") for (p, n), k in zip(self.have, self.chosen)]
        self.list.index = max(0, self._index - 1)
        self.list.render(c, rows, first + 1, ROWS - first - 1, cursor=self._index > 0)

    @property
    def index(self) -> int:
        """The cursor: 0 on the Bid row, 1 + k on the hand's piece k."""
        return self._index

    @index.setter
    def index(self, value: int) -> None:
        self._index = value

    def beat_lines(self, seat: int, value: tuple[int, int]) -> list[str]:
        """The bid to beat and who holds it, in two lines in every language (QA #9):
        the value in shorter words, then the holder's name shortened alike
        (``short_names``), before anything is left out."""
        st = self.state
        names = [st.players[seat]] + [short_names(st.players, w)[seat] for w in range(NAME_MAX - 1, 2, -1)]
        for name in dict.fromkeys(names):
            for v in value_forms(value):  # wrap keeps a number with its word: "1 pièce"
                lines = wrap(_("To beat: {value} ({name})").format(value=v, name=name), LINE)
                if len(lines) <= 2:
                    return lines
        lines = wrap(_("To beat: {value}").format(value=value_forms(value)[-1]), LINE)
        return lines[:1] + [" ".join(lines[1:])] if len(lines) > 2 else lines  # (then cut, and counted)

    def on_key(self, key: Key, app: "App") -> None:
        n = len(self.have) + 1
        if key in (Key.UP, Key.DOWN):
            self.index = stepped(self.index, key, n)
        elif key in (Key.BACK, Key.LEFT):
            app.pop()
        elif key == Key.OK or key == Key.RIGHT:
            if self.index == 0:
                if key == Key.OK and not self.verdict()[0]:  # U-9, said here in the screens' words
                    app.message(_("A bid must be lower than the one to beat: fewer pips, or as many pips "
                                  "in fewer pieces."), title=_("Too high"))
                elif key == Key.OK:
                    self.on_bid(app, Bid(self.stack, self.pieces()))
                return
            j = self.index - 1
            have = self.have[j][1]
            self.chosen[j] = (self.chosen[j] + 1) % (have + 1)
            if self.chosen[j]:
                self.index = 0
