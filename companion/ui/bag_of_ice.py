"""Bag of Ice screens: setup, the turn, the size choice, entries, scores, winner.

One ``BagOfIceScreen`` (a ``SessionScreen``) draws whatever the position
asks for, so a new game, Resume and History all land on the right screen:

* ``decide``: the turn screen: whose turn and the turn score in the large
  font (the best arrangement of the pieces drawn, B-5), the pieces (the
  newest inverted), the chance that the next draw busts and the bank/draw
  hint (B-9; "bank" when banking reaches the target), then "Roll & draw"
  (OK, one press; its line shows the expected final turn score under the
  best policy, or the chance to win, B-10) and "Bank" (DOWN OK; its line
  shows the new total). When banking wins the game (B-6) the cursor starts
  on Bank and DOWN keeps it there: OK and DOWN OK both bank the win;
* ``size``: a two-size face: each size with its bust chance and expected
  final turn score (B-4, B-9);
* physical die and bag (B-8): ``roll`` asks the face rolled, ``draw`` the
  piece drawn (only pieces of the asked size that the bag still holds), and
  every turn phase offers "Rule broken: bust"; ``rolloff`` asks each
  roll-off roll (B-3), ``start`` who starts;
* ``over``: the winner and the total in the large font (B-6).

After each action the device shows what happened on its own screen: the
roll-off rolls and who starts (B-3), the bank summary with each tree and its
value and the loose pieces (B-5), the bust (B-4, B-8). LEFT/RIGHT (or the
session menu) show the scoreboard, which says whose turn it is while the
game goes on ("to play: Ann"), where OK shows a player's turns; hold OK
(or the session menu) shows the odds in full (B-9).

Words (issues 13 and 21): every text goes through the catalog
(``companion.i18n``) when it is drawn; ruling ids stay in this code and the
session menu's "Why (rules)" page (``why_lines``), never in a title or a
row; sizes, colours and faces are words, piece codes (``yL``) only in the
lists of pieces, with their legend on the odds and Why pages; a name is
shortened with ``names.short_names`` (alike and distinct) wherever a screen
has less room than 12 characters, so instructions and numbers are never cut.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine import Option as Choice
from ..engine import pick_chance
from ..games.bag_of_ice import (
    Bank, BagOfIceState, Broken, Face, Got, Phase, PickSize, Roll, Start, TurnResult, best_arrangement,
)
from ..games import boi_win
from ..games.boi_odds import Advice, advice_for, table
from ..games.boi_win import WinAdvice
from ..i18n import N_, _, ngettext
from ..io import Key
from ..names import SHORT, short_names
from ..pieces import Color, DieFace, Piece, Size
from ..session import Session
from ..shown import Shown
from .base import SessionScreen, close_scores, state_as
from .common import Option, OptionsSetup, Report, draw_scoreboard, players_screen
from .draw import CHAR_W, HEIGHT, LINE_H, ROWS, TITLE_H, WIDTH, Canvas, fit, wrap
from .widgets import ChoiceList, Item, Screen, item_text, stepped
from ..plugins.bag_of_ice import bust_cause, bust_lost, bust_word
from ..words import pieces as words
from ..words.pieces import color_word, pips_text, size_word
from ..words.table import apart, avg, hint_word, pct

if TYPE_CHECKING:  # pragma: no cover
    from .host import Host as App  # the seam: what a screen may ask of the app

GAME = "bag_of_ice"
COLS = WIDTH // CHAR_W  # 21 characters on a line from x=1
TITLE_COLS = (WIDTH - 2) // CHAR_W  # 21 characters in a title bar
TARGETS = list(range(10, 201, 10))  # B-6: 60 by default, a setting per game
BROKEN_LABEL = N_("Rule broken: bust")  # B-8
TURN = (Phase.DECIDE, Phase.ROLL, Phase.SIZE, Phase.DRAW)  # a turn under way
ASKED = (Phase.DECIDE, Phase.SIZE)  # the player decides: the odds apply (B-9)
ROW_X = 6  # rows start here: 20 characters, then a free column and the scroll mark
BIG_NAME = 7  # characters of a name in the large font beside the turn score (3 digits)


# ---------------------------------------------------------------- text helpers


def pcs(pieces) -> str:
    """Pieces as codes in the order given (the legend: ``LEGEND``); ``-`` for none."""
    return " ".join(str(p) for p in pieces) if pieces else "-"


def first_fit(*texts: str, width: int = COLS) -> str:
    """The first of ``texts`` (longest wording first) that fits ``width``; the last, cut, else."""
    for t in texts:
        if len(t) <= width:
            return t
    return fit(texts[-1], width)


def spread(left: str, right: str, width: int = COLS) -> list[str]:
    """``left`` and ``right`` on one line of ``width``, right-aligned; when
    they do not fit, ``left`` wrapped and ``right`` on a line of its own."""
    if len(left) + 1 + len(right) <= width:
        return [left + right.rjust(width - len(left))]
    return wrap(left, width) + [right.rjust(width)]


def face_words(face: DieFace) -> str:
    """A die face in words: ``small``, ``small or large`` (B-2)."""
    return words.face_words(face.sizes)


def name_of(st: BagOfIceState, seat: int | None) -> str:
    return st.players[seat] if seat is not None else "?"


def short_of(st: BagOfIceState, seat: int | None, width: int) -> str:
    """A player's name in ``width`` characters, cut alike and distinct from the others (names.short_names)."""
    if seat is None:
        return "?"
    return short_names(st.players, max(1, width))[seat]


def titled(template: str, st: BagOfIceState, seat: int | None, right: str = "") -> str:
    """A title ``template`` (translated, with ``{name}``) whose name is shortened to leave the rest whole."""
    room = TITLE_COLS - (len(right) + 1 if right else 0) - len(template.replace("{name}", ""))
    return template.replace("{name}", short_of(st, seat, room))


def others_line(st: BagOfIceState, winner: int, width: int = COLS) -> str:
    """The other players by total on the winner screen's last line: all of
    them with the longest names that fit ("Ann 41  Bob 30  Dee 25"); where
    they cannot all fit, the first ones and "+N" for the rest, never a total
    left out without a sign (the scoreboard, OK, has them all)."""
    others = sorted((i for i in range(st.n) if i != winner), key=lambda i: (-st.totals[i], i))
    for w in range(6, 2, -1):
        short = short_names(st.players, w)
        for sep in ("  ", " "):
            line = sep.join(f"{short[i]} {st.totals[i]}" for i in others)
            if len(line) <= width:
                return line
    short = short_names(st.players, 4)
    for k in range(len(others) - 1, 0, -1):
        line = " ".join(f"{short[i]} {st.totals[i]}" for i in others[:k]) + f" +{len(others) - k}"
        if len(line) <= width:
            return line
    return f"+{len(others)}"


def packed(entries: list[str], width: int = COLS - 1) -> list[str]:
    """``entries`` on as few lines of ``width`` as they fill, two spaces apart, none split."""
    lines = [""]
    for e in entries:
        if lines[-1] and len(lines[-1]) + 2 + len(e) > width:
            lines.append("")
        lines[-1] += ("  " if lines[-1] else "") + e
    return lines


def legend() -> list[str]:
    """What the piece codes mean (the codes stay where a list of pieces needs them)."""
    colors = [f"{c.letter} {color_word(c)}" for c in (Color.YELLOW, Color.GREEN, Color.CYAN, Color.PURPLE,
                                                        Color.RED)]
    sizes = [f"{s.letter} {size_word(s)}" for s in (Size.SMALL, Size.MEDIUM, Size.LARGE)]
    return [_("pieces: colour, then size")] + packed(colors) + packed(sizes)


def rolloff_lines(st: BagOfIceState) -> list[str]:
    """Who starts, then every roll-off roll, round by round (B-3)."""
    lines: list[str] = []
    if st.start is not None and st.rolloff:
        best = max(f.pips for s, f in st.rolloff[-1] if s == st.start)
        lines.append(ngettext("{name} starts: {n} pip", "{name} starts: {n} pips", best).format(
            name=st.players[st.start], n=best))
    short = short_names(st.players, 9)
    for k, rnd in enumerate(st.rolloff):
        if not rnd:
            continue
        if k:
            lines.append(_("tie: round {n}").format(n=k + 1))
        for seat, face in rnd:
            lines.append(f"{short[seat]:<9} {pips_text(face.pips)}")
    return lines


def start_lines(st: BagOfIceState) -> list[str]:
    assert st.start is not None
    return [_("{name} starts (drawn at random).").format(name=st.players[st.start])]


def turn_line(k: int, t: TurnResult, st: BagOfIceState) -> str:
    """A player's ``k``-th finished turn: ``turn 3: +15 gL gM gS``,
    ``turn 4: bust on rM, lost 12``, ``turn 5: rule broken, lost 3`` (B-4, B-8)."""
    if t.bust:
        kept = t.pieces if t.bust_on == "broken" else t.pieces[:-1]
        lost = best_arrangement(kept, st.colors).score
        if t.bust_on == "broken":
            return _("turn {k}: rule broken, lost {n}").format(k=k, n=lost)
        if not lost:  # B-4: busted on the first draw, nothing to lose ("-0" said nothing)
            return _("turn {k}: bust").format(k=k)
        return _("turn {k}: bust, lost {n}").format(k=k, n=lost)
    if not t.pieces:
        return _("turn {k}: nothing drawn").format(k=k)
    return _("turn {k}: +{n} {pieces}").format(k=k, n=t.score, pieces=pcs(t.pieces))


def history_lines(st: BagOfIceState, seat: int) -> list[str]:
    """A player's banks and busts, then every turn, oldest first."""
    turns = st.turns_of(seat)
    banks = sum(1 for t in turns if not t.bust)
    busts = len(turns) - banks
    lines = [(ngettext("{n} bank", "{n} banks", banks).format(n=banks) + ", "
              + ngettext("{n} bust", "{n} busts", busts).format(n=busts)) if turns else _("no turn yet")]
    lines += [turn_line(k, t, st) for k, t in enumerate(turns, 1)]
    if st.phase not in (Phase.OVER, Phase.START, Phase.ROLLOFF) and st.active == seat:
        lines.append(_("now: {n}").format(n=st.turn_score()) + (f" {pcs(st.drawn)}" if st.drawn else ""))
    return lines


def tree_text(pieces, kind: str) -> str:
    if kind == "mixed":  # B-5: not all of one colour
        return _("tree {pieces}").format(pieces=pcs(pieces))
    try:
        return _("{colour} tree").format(colour=color_word(Color(kind)))
    except ValueError:
        return _("tree {pieces}").format(pieces=pcs(pieces))


def bank_lines(before: BagOfIceState, after: BagOfIceState) -> list[str]:
    """The arrangement that scored (B-5): each tree and its value, the loose
    pieces, then the new total (and the win, B-6)."""
    arr = before.arrangement()
    seat = before.active
    assert seat is not None
    lines: list[str] = []
    for t in arr.trees:  # 20 wide: a free column before the scroll bar of a long summary
        lines += spread(tree_text(t.pieces, t.kind), f"+{t.points}", COLS - 1)
    if arr.loose:
        lines += spread(ngettext("loose {pieces}", "loose {pieces}", len(arr.loose)).format(pieces=pcs(arr.loose)),
                        f"+{sum(p.pips for p in arr.loose)}", COLS - 1)
    if not before.drawn:
        lines.append(_("nothing drawn: +0"))
    old, new = before.totals[seat], after.totals[seat]
    lines.append(_("total {old} + {n} = {new}").format(old=old, n=arr.score, new=new))
    if after.is_terminal():
        lines.append(_("{name} wins!").format(name=after.players[seat]))
    return lines


# ---------------------------------------------------------------- setup


def warm_up() -> None:
    """Build the exact odds table (B-9) before the first turn screen needs it;
    the app calls this once its first frame is on the display."""
    table()


def setup_screen(app: "App") -> Screen:
    """Players (1 = solo practice, 2 to 12, B-3), names, then target, die and
    bag, start player: the players and names screens are the other games'
    (``players_screen``), titled alike ("Bag of Ice: names")."""
    return players_screen(_("Bag of Ice"), 3, 1, 12, lambda a, names: a.push(options_screen(names)),
                          hint=_("1 = solo, 2 to 12"))


def options_screen(names: list[str]) -> Screen:
    opts = [
        Option("target", _("Target"), [(str(v), v) for v in TARGETS], index=TARGETS.index(60)),
        Option("source", _("Die & bag"), [(_("virtual"), "virtual"), (_("physical"), "physical")]),
    ]
    if len(names) > 1:
        label = _("Start")
        short = short_names(names, 20 - 1 - len(label))
        opts.append(Option("start", label, [(_("roll-off"), "rolloff"), (_("random"), "random")]
                           + [(short[i], i) for i in range(len(names))]))
    return OptionsSetup(_("Bag of Ice: options"), opts, lambda app, v: start_game(app, names, v),
                        start_label=_("Start game"))


def start_game(app: "App", names: list[str], values: dict[str, Any]) -> None:
    src = values["source"]
    setup: dict[str, Any] = {"players": list(names), "target": values["target"],
                             "start": values.get("start", 0), "die": src, "bag": src}
    session = app.start_session(GAME, setup)
    app.home()
    screen = BagOfIceScreen(session)
    app.push(screen)
    st = state_as(BagOfIceState, session.state)
    if st.phase == Phase.START:  # physical: the device still picks at random (undo: the table names one)
        screen.do(app, pick_chance(st, session.rng))
    elif st.rolloff and st.start is not None:  # virtual roll-off: every roll at once (B-3)
        app.push(Summary(_("Roll-off"), rolloff_lines(st), shows=Shown.MOVE))
    elif values.get("start") == "random" and st.start is not None:  # virtual: already picked (B-3)
        app.push(Summary(_("Start player"), start_lines(st), shows=Shown.MOVE))


def play_screen(app: "App", session: Session) -> Screen:
    return BagOfIceScreen(session)


def last_pages(session: Session) -> list[Screen]:
    """The screens the last decision showed (``BagOfIceScreen.do``: the roll-off, a bank
    or a bust), in order, for a resume (screens.open_session)."""
    return result_screens(session, len(session.fold.moves) - session.undo_span())


# ---------------------------------------------------------------- result screens


def pass_hold_back(key: Key, app: "App") -> bool:
    """Hold BACK on a result screen: close it and ask the game screen to undo."""
    if key != Key.HOLD_BACK:
        return False
    app.pop()
    app.top.on_key(key, app)
    return True


class Summary(Report):
    """A result page (roll-off, start player, bank summary); OK closes it,
    hold BACK closes it and asks to undo."""

    def on_key(self, key: Key, app: "App") -> None:
        if not pass_hold_back(key, app):
            super().on_key(key, app)


class BustScreen(Screen):
    """The bust, impossible to miss (B-4, B-8): BUST in large letters, what
    busted, the points lost and who is next. OK (or any key) closes it."""

    shows = Shown.MOVE

    def __init__(self, before: BagOfIceState, after: BagOfIceState, result: TurnResult):
        self.before = before
        self.result = result
        self.lost = before.turn_score()
        self.next = after.active

    def lines(self) -> tuple[int, list[str]]:
        """The band's height and the lines under it: what busted, the points lost,
        who is next, with the whole names (QA #6). Where "what busted" does not
        fit one line with the whole name (French: "Élodie-Marie pioche rS"), it
        takes two under a lower band; a name is shortened alike (``titled``)
        only where neither fits."""
        r, st = self.result, self.before
        # the bust's words are the Bag of Ice plug-in's (issue 45): the page says it alike
        template = bust_cause(r.bust_on)  # B-4, B-8
        lost = bust_lost(self.lost) or _("the turn scores 0")
        nxt = _("next: {name}").replace("{name}", name_of(st, self.next))
        if len(nxt) > COLS:
            nxt = titled(_("next: {name}"), st, self.next)
        why = template.replace("{name}", name_of(st, r.seat))
        if len(why) <= COLS:
            return 34, [why, lost, nxt]
        name, rest = name_of(st, r.seat), template.replace("{name}", "", 1).strip(" :")
        two = [name, rest] if template.startswith("{name}") else wrap(why, COLS)
        if len(two) == 2 and all(len(t) <= COLS for t in two):
            return 24, [*two, lost, nxt]
        return 34, [titled(template, st, r.seat), lost, nxt]

    def render(self, c: Canvas) -> None:
        top, lines = self.lines()
        c.d.rectangle((0, 0, WIDTH - 1, top - 1), fill=1)
        word = bust_word()
        scale = 3 if top > 24 and len(word) * CHAR_W * 3 <= WIDTH else 2
        w = len(word) * CHAR_W * scale
        c.big(max(0, (WIDTH - w) // 2), 3 if scale == 3 else (top - LINE_H * scale) // 2, word, scale, invert=True)
        for i, line in enumerate(lines):
            c.text(1, top + i * LINE_H, first_fit(line))

    def on_key(self, key: Key, app: "App") -> None:
        if pass_hold_back(key, app):
            return
        if key in (Key.OK, Key.BACK, Key.LEFT, Key.RIGHT):
            app.pop()


def result_screens(session: Session, n0: int) -> list[Screen]:
    """What happened since move ``n0``, as screens to show in order: the
    roll-off (B-3), a device start pick, a bank summary (B-5) or a bust."""
    f = session.fold
    out: list[Screen] = []
    for i in range(n0, len(f.moves)):
        b = state_as(BagOfIceState, f.states[i])
        a = state_as(BagOfIceState, f.states[i + 1])
        m = f.moves[i].move
        if b.phase == Phase.ROLLOFF and a.phase != Phase.ROLLOFF:
            out.append(Summary(_("Roll-off"), rolloff_lines(a), shows=Shown.MOVE))
        elif isinstance(m, Start):
            out.append(Summary(_("Start player"), start_lines(a), shows=Shown.MOVE))
        if len(a.history) > len(b.history):
            t = a.history[-1]
            if t.bust:
                out.append(BustScreen(b, a, t))
            else:  # B-5: the arrangement scored
                out.append(Summary(titled(_("{name} banks {n}").format(n=t.score, name="{name}"), b, t.seat),
                                   bank_lines(b, a),  # the bank that wins says who won (B-6)
                                   shows=Shown.WINNER if a.is_terminal() else Shown.MOVE))
    return out


# ---------------------------------------------------------------- scores


def board_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """The names as ``draw_scoreboard`` lays them out, shortened alike before it
    would cut them (its cells: 1 to 6 players large, 7 to 12 small in two columns)."""
    n = len(names)
    if n > 6:
        return short_names(names, 5)
    cols = min(3, n) if n != 4 else 2
    # the turn mark takes a column where that leaves the names their one short form,
    # else draw_scoreboard underlines the player instead (issue 48)
    return short_names(names, max((WIDTH // cols) // CHAR_W - 2, min(SHORT, (WIDTH // cols) // CHAR_W - 1)))


class ScoreScreen(Screen):
    """Every total in large digits (small text beyond 6 players); UP/DOWN
    pick a player, OK shows that player's turns, LEFT/RIGHT/BACK close.
    While the game goes on it says whose turn it is underneath ("to play: Ann"):
    on the last line under one row of totals (up to 3 players) or the small
    text (7 to 10), or as the title over two rows (4 to 6), where the target
    gives way; 11 and 12 fill the screen: a ">" after the total (issue 48: its
    keys were taken with nothing saying the game waits for someone)."""

    def __init__(self, session: Session):
        self.session = session
        st = state_as(BagOfIceState, session.state)
        self.index = st.winner if st.winner is not None else (st.active or 0)

    def render(self, c: Canvas) -> None:
        st = state_as(BagOfIceState, self.session.state)
        y = TITLE_H
        turn = None if st.is_terminal() else st.active
        # whose turn it is, by name or its one short form (names.SHORT), never cut tighter
        playing = titled(_("to play: {name}"), st, turn) if turn is not None else ""
        footer = bool(playing) and (st.n <= 3 or 6 < st.n <= 10)  # a free last line: it says it
        if st.n > 6:  # small text in two columns of six (five over the last line) under no title
            y = 0
        elif playing and st.n > 3:  # two rows of totals fill the screen: the title says it
            hint = _("OK: turns")
            c.title(playing, hint if len(playing) + 1 + len(hint) <= TITLE_COLS else "")
        else:
            c.title(_("Target {n}").format(n=st.target), _("OK: turns"))
        marks = [">" if i == turn else "" for i in range(st.n)]
        draw_scoreboard(c, board_names(st.players), st.totals, y=y, mark=self.index, marks=marks,
                        bottom=HEIGHT - LINE_H if footer else HEIGHT)
        if footer:  # (11 or 12 players fill the screen: the ">" after a total marks the turn)
            c.text(1, HEIGHT - LINE_H, playing)

    def on_key(self, key: Key, app: "App") -> None:
        st = state_as(BagOfIceState, self.session.state)
        if key in (Key.UP, Key.DOWN):
            self.index = stepped(self.index, key, st.n)
        elif key == Key.OK:
            app.push(Report(titled(_("{name}: {n}").format(n=st.totals[self.index], name="{name}"), st, self.index),
                            history_lines(st, self.index)))
        elif key == Key.BACK:
            close_scores(app)
        elif key in (Key.LEFT, Key.RIGHT):
            app.pop()


# ---------------------------------------------------------------- odds (B-9)


def win_lines(st: BagOfIceState, w: WinAdvice, hints: bool) -> list[str]:
    """The chances to win the game (B-10), before B-9's figures on the odds screen."""
    if st.phase == Phase.SIZE and st.face is not None:
        lines = [_("chance to win, per size:")]
        lines += [f"{size_word(s):<7} {pct(w.per_size[s])}" for s in st.face.sizes]
        if hints:
            lines.append(_("to win: {size}").format(size=size_word(w.size_choice[st.face])))
    else:
        lines = [_("bank: win {p}").format(p=pct(w.bank)), _("draw: win {p}").format(p=pct(w.draw))]
        if hints:
            lines.append(_("to win: {hint}").format(hint=hint_word(w.hint)))
    return lines + [_("(both play to win)"), _("- best turn score -")]


def odds_lines(st: BagOfIceState, adv: Advice, hints: bool) -> list[str]:
    """The odds before a decision in full (B-9), exact fractions included."""
    if st.phase == Phase.SIZE and st.face is not None:
        lines = [_("rolled {face}, per size:").format(face=face_words(st.face))]
        for s in st.face.sizes:
            o = adv.per_size[s]
            lines.append(_("{size}: bust {p}").format(size=size_word(s), p=pct(o.bust_chance)))
            lines.append("  " + ngettext("{reds} red of {left}", "{reds} red of {left}", o.left).format(
                reds=o.reds, left=o.left))
            lines.append(_("  then avg {n}").format(n=avg(o.expected)))
        if hints:
            lines.append(_("hint: {size}").format(size=size_word(adv.size_choice[st.face])))
    else:
        b = adv.bust_chance
        lines = [_("bust chance {p}").format(p=pct(b)),
                 _("exactly {a}/{b}").format(a=b.numerator, b=b.denominator)]
        lines += [_("{size}: {red}").format(size=size_word(s), red=ngettext(
            "{reds} red of {left}", "{reds} red of {left}", o.left).format(reds=o.reds, left=o.left))
            for s, o in sorted(adv.per_size.items())]
        lines += [_("roll on: avg {n}").format(n=avg(adv.expected_continue)),
                  _("bank: {n}").format(n=adv.bank_score)]
        if hints:
            lines.append(_("hint: {hint}").format(hint=hint_word(adv.hint)))
    lines.append(_("avg: expected final turn score with the best play, a bust = 0"))
    return lines + legend()


class OddsScreen(Report):
    """The odds in full; shown while OK is held (closes on release)."""

    def on_key(self, key: Key, app: "App") -> None:
        if key == Key.RELEASE:
            app.pop()
        else:
            super().on_key(key, app)


# ---------------------------------------------------------------- the game screen


class BagOfIceScreen(SessionScreen):
    """Every phase of a Bag of Ice game (see the module docstring)."""

    def __init__(self, session: Session):
        super().__init__(session)
        self.list = ChoiceList(x=ROW_X, mark="side")
        self._seen: BagOfIceState | None = None
        self._advice: tuple[BagOfIceState, Advice] | None = None

    # ------------------------------------------------------------ playing

    def do(self, app: "App", move) -> None:
        """Play a move; on success show what happened (bank, bust, roll-off).
        A refusal raises (the app shows the reason, nothing changes)."""
        n0 = len(self.session.fold.moves)
        self.session.play(move)
        self.request_solve(app)
        for screen in reversed(result_screens(self.session, n0)):
            app.push(screen)

    # ------------------------------------------------------------ win advice (B-10)

    advice_mode = "win"  # the boi_advice setting, read when shown and at each key

    def win_applies(self) -> bool:
        """The win advice is the one given: the setting, two players, a target <= 100."""
        st: BagOfIceState = self.state
        return self.advice_mode == "win" and boi_win.applies(st) and st.active is not None

    def request_solve(self, app: "App") -> None:
        """Solve the new turn for the win, off the press path (after the frame)."""
        st: BagOfIceState = self.state
        if self.win_applies() and self.turn_live() and not boi_win.is_solved(st):
            app.prepare(lambda: boi_win.prepare(st))

    def win(self) -> WinAdvice | None:
        """The win advice at this decision once the turn is solved, else ``None`` (B-9's shows)."""
        st: BagOfIceState = self.state
        if not self.win_applies() or st.phase not in ASKED or not boi_win.is_solved(st):
            return None
        if self._win is None or self._win[0] is not st:
            self._win = (st, boi_win.win_advice(st))
        return self._win[1]

    _win: tuple[BagOfIceState, WinAdvice] | None = None

    def play(self, app: "App", move) -> None:  # SessionScreen API
        self.do(app, move)

    def after_undo(self, app: "App") -> None:
        """Undone back to the start, the device rolls the roll-off (or picks
        the start player) again at once: show the new result (B-3)."""
        self.request_solve(app)
        before, st = self._seen, self.state
        self._seen = None
        if before is None or st.start is None or (before.rolloff, before.start) == (st.rolloff, st.start):
            return
        if st.rolloff:
            app.push(Summary(_("Roll-off again"), rolloff_lines(st), shows=Shown.MOVE))
        elif before.start is not None:
            app.push(Summary(_("Start player"), start_lines(st), shows=Shown.MOVE))

    def advice(self) -> Advice:
        st = self.state
        if self._advice is None or self._advice[0] is not st:
            self._advice = (st, advice_for(st))
        return self._advice[1]

    def turn_live(self) -> bool:
        return self.state.phase in TURN

    def broken(self, app: "App") -> None:
        st: BagOfIceState = self.state
        app.confirm(_("A rule was broken: {name} busts?").format(name=name_of(st, st.active)),
                    lambda a: self.do(a, Broken()), yes=_("Bust"), no=_("Cancel"), title=_("Rule broken"))

    def menu_items(self, app: "App") -> list[Item]:
        items = [Item(_("Scores"), lambda a: (a.pop(), a.push(ScoreScreen(self.session))))]
        if self.state.phase in ASKED:
            items.append(Item(_("Odds"), lambda a: (a.pop(), self.show_odds(a))))
        if self.state.physical and self.turn_live():
            items.append(Item(_(BROKEN_LABEL), lambda a: (a.pop(), self.broken(a))))
        return items

    def session_title(self) -> str:
        return _("Bag of Ice #{n}").format(n=self.session.number)

    def why_lines(self) -> list[str]:
        """The rulings behind what the screen shows now (the session menu's "Why" page)."""
        st: BagOfIceState = self.state
        ph = st.phase
        out: list[str] = []
        if ph in (Phase.ROLLOFF, Phase.START):
            out.append(_("B-3: everybody rolls, the highest pip total starts; a tie rolls again"))
        if ph in TURN:
            out.append(_("B-4: roll, then draw a piece of that size; red busts the turn"))
            out.append(_("B-1: the bag's pieces, as colour and size:"))
            out += legend()[1:]
        if ph == Phase.DECIDE:
            out.append(_("B-5: banking scores the best arrangement: trees, then loose pips"))
        if ph in (Phase.ROLL, Phase.SIZE, Phase.DRAW):
            out.append(_("B-2: the die shows small, medium, large or two sizes"))
        if st.physical and ph in TURN:
            out.append(_("B-8: a rule broken at the table busts"))
        if ph in ASKED:
            out.append(_("B-9: exact odds from the bag; the hint banks when banking wins"))
            if self.win_applies():
                out.append(_("B-10: two players: the advice plays to win the game"))
        out.append(_("B-6: the first to reach the target ({n}) wins at once").format(n=st.target))
        return out

    def show_odds(self, app: "App") -> None:
        st: BagOfIceState = self.state
        lines = odds_lines(st, self.advice(), app.settings.boi_hints)
        w = self.win()
        if w is not None:
            lines = win_lines(st, w, app.settings.boi_hints) + lines
        title = _("Odds: {name}").replace("{name}", name_of(st, st.active))
        if len(title) <= TITLE_COLS:
            app.push(OddsScreen(title, lines))
        elif len(name_of(st, st.active)) + 1 + len(_("odds")) <= TITLE_COLS:  # the whole name (QA #6)
            app.push(OddsScreen(name_of(st, st.active), lines, right=_("odds")))
        else:
            app.push(OddsScreen(titled(_("Odds: {name}"), st, st.active), lines))

    # ------------------------------------------------------------ rows of the decision

    def item(self, o: Choice) -> Item:
        """A decision's option as a row (the device pick and the bank's figures aside)."""
        st: BagOfIceState = self.state
        m = o.move

        def act(a: "App") -> None:
            self.do(a, m)
        if isinstance(m, Broken):
            return Item(_(BROKEN_LABEL), self.broken)
        if isinstance(m, Start):  # B-3: the table names the start player
            return Item(st.players[m.seat], act)
        if isinstance(m, Face) and st.phase == Phase.ROLLOFF:  # B-3: the pip totals decide
            return Item(face_words(m.face), act, right=str(m.face.pips))
        if isinstance(m, Face):  # B-2
            return Item(face_words(m.face), act)
        if isinstance(m, Got):  # B-8: the piece drawn, its colour in words
            n = st.bag.count(m.piece)
            bust = m.piece.color == st.colors[0]
            return Item(f"{color_word(m.piece.color)} {m.piece}", act,
                        right=_("BUST") if bust else ngettext("{n} left", "{n} left", n).format(n=n))
        if isinstance(m, PickSize):  # B-9: bust chance and expected score (or win chance, B-10) per size
            per = self.advice().per_size
            o_ = per[m.size]
            w = self.win()
            figure = (apart(w.per_size[m.size], w.per_size.values()) if w is not None
                      else avg(o_.expected))
            risk = apart(o_.bust_chance, [x.bust_chance for x in per.values()])
            return Item(size_word(m.size), act, right=f"{risk:>5} {figure:>5}")
        if isinstance(m, Roll):
            w = self.win()
            right = (self.win_text(w.draw) if w is not None
                     else _("avg {n}").format(n=avg(self.advice().expected_continue)))
            return Item(_("Roll & draw"), act, right=right)
        if isinstance(m, Bank):
            label, right = self.bank_row()
            return Item(label, act, right=right)
        return Item(o.label, act)

    def bank_labels(self) -> list[str]:
        """The Bank row's label, longest first: the points and the total they make (B-5)."""
        st: BagOfIceState = self.state
        n = self.advice().bank_score
        new = st.totals[st.active or 0] + n
        return [_("Bank +{n} = {total}").format(n=n, total=new), _("Bank +{n}={total}").format(n=n, total=new),
                _("Bank +{n}").format(n=n)]

    def bank_row(self) -> tuple[str, str]:
        """The Bank row: its label (with the total after banking) and, right, the
        chance to win (B-10) or WIN (B-6). Where "win 48%" and the total do not fit
        together (French "Garder +2 = 2"), the chance is said "48%", under the Roll
        row's "gagne 54%": the total stays (issue 34)."""
        st: BagOfIceState = self.state
        new = st.totals[st.active or 0] + self.advice().bank_score
        w = self.win()
        labels = self.bank_labels()
        right = ""
        if w is not None and new < st.target:  # B-10: the chance to win of each
            right = self.win_text(w.bank)
            if len(labels[1]) + 1 + len(right) > ChoiceList.ROOM:
                right = f"{round(w.bank * 100)}%"
        elif new >= st.target:  # B-6
            right = _("WIN")
        return first_fit(*labels, width=ChoiceList.ROOM - (len(right) + 1 if right else 0)), right

    @staticmethod
    def win_text(p: float) -> str:
        return _("win {p}").format(p=f"{round(p * 100)}%")

    def rows(self) -> list[Item]:
        st: BagOfIceState = self.state
        d = self.decision()
        options = list(d.options)
        if d.kind == Phase.DRAW:  # physical: the asked size, non-bust colors first (B-8)
            order = list(st.colors[1:]) + [st.colors[0]]
            options.sort(key=lambda o: order.index(o.move.piece.color) if isinstance(o.move, Got) else len(order))
        rows = [self.item(o) for o in options]
        if d.kind == Phase.START:  # physical, after an undo of the device's pick: the table names one
            rows.append(Item(_("Device picks"), lambda a: self.do(a, pick_chance(self.state, self.session.rng))))
        return rows

    def winning_bank_row(self) -> int:
        """The row of Bank when banking reaches the target now (B-6), else 0."""
        st: BagOfIceState = self.state
        if st.phase != Phase.DECIDE or st.active is None:
            return 0
        options = self.decision().options
        bank = next((i for i, o in enumerate(options) if isinstance(o.move, Bank)), None)
        if bank is None or st.totals[st.active] + self.advice().bank_score < st.target:
            return 0
        return bank

    def advised_size_row(self) -> tuple[int, Size | None]:
        """On a two-size face with the hints shown, the row of the size the
        screen advises (to win, B-10, else B-9's hint) and that size; else (0, None)."""
        st: BagOfIceState = self.state
        if st.phase != Phase.SIZE or st.face is None or not self.show_hints:
            return 0, None
        w = self.win()
        size = (w or self.advice()).size_choice.get(st.face)
        options = self.decision().options
        row = next((i for i, o in enumerate(options) if isinstance(o.move, PickSize) and o.move.size == size), 0)
        return row, size

    def sync(self) -> list[Item]:
        """The rows of the position; the cursor goes back to the first row
        (Roll & draw...) whenever the position changes; on Bank when banking
        now wins the game (B-6, where B-9's hint is "bank"): the habitual
        single OK must not roll a win away (QA #11); on a two-size face, on
        the size the hint line advises (issue 48: it sat on the smaller)."""
        rows = self.rows()
        size_row, size = self.advised_size_row()
        self.list.sync(self.state, rows, default=self.winning_bank_row() or size_row, extra=size)
        self._seen = self.state  # what after_undo compares with (B-3)
        return rows

    # ------------------------------------------------------------ render

    def render(self, c: Canvas) -> None:
        st: BagOfIceState = self.state
        rows = self.sync()
        if st.phase == Phase.OVER:
            self.render_winner(c)
        elif st.phase == Phase.DECIDE:
            self.render_turn(c, rows)
        elif st.phase == Phase.SIZE:
            self.render_size(c, rows)
        else:
            self.render_entry(c, rows)

    def big_band(self, c: Canvas) -> None:
        """Whose turn and the turn score in the large font, across the table (B-5)."""
        st: BagOfIceState = self.state
        score = str(self.advice().bank_score)
        c.big(WIDTH - len(score) * 2 * CHAR_W, 0, score, 2)
        who = short_of(st, st.active, BIG_NAME) if st.n > 1 else _("turn {n}").format(n=st.turn)  # solo: the turn
        c.big(0, 0, first_fit(who, width=BIG_NAME), 2)

    def hint_line(self, c: Canvas, y: int) -> None:
        """The chance that the next draw busts and the hint (B-9) or the advice to win (B-10)."""
        adv = self.advice()
        p = pct(adv.bust_chance)
        w = self.win()
        if not self.show_hints:
            line = first_fit(_("next draw: bust {p}").format(p=p), _("bust {p}").format(p=p))
        elif w is not None:
            # the line always says the advice plays to win (B-10), not for the turn score
            # (B-9): where the bust chance does not fit with it (French), it gives way
            h = hint_word(w.hint)
            line = first_fit(_("bust {p}  win: {hint}").format(p=p, hint=h),
                             _("bust {p}, {hint}").format(p=p, hint=h),
                             _("to win: {hint}").format(hint=h))
        else:
            h = hint_word(adv.hint)
            line = first_fit(_("bust {p}  hint {hint}").format(p=p, hint=h),
                             _("bust {p}, {hint}").format(p=p, hint=h))
        c.text(1, y, line)

    def render_turn(self, c: Canvas, rows: list[Item]) -> None:
        """The turn screen: who and the turn score (large), the pieces,
        bust chance and hint (B-9), then the actions (the bank's line says the new total)."""
        st: BagOfIceState = self.state
        self.big_band(c)
        self.draw_pieces(c, 0, TITLE_H + LINE_H, st.drawn)
        self.hint_line(c, TITLE_H + 2 * LINE_H)
        self.list.render(c, rows, 3, 2)

    @staticmethod
    def draw_pieces(c: Canvas, x: int, y: int, drawn: tuple[Piece, ...]) -> None:
        """This turn's pieces in draw order on one line, the newest inverted;
        more than seven: ``+N`` for the oldest not shown."""
        if not drawn:
            c.text(x + 1, y, first_fit(_("nothing drawn yet")))
            return
        cap = (WIDTH - x + CHAR_W) // (3 * CHAR_W)  # 7 pieces of 2 letters and a space
        tokens = [str(p) for p in drawn]
        if len(tokens) > cap:
            hidden = len(tokens) - (cap - 1)
            tokens = [f"+{hidden}"] + tokens[-(cap - 1):]
        for i, t in enumerate(tokens):
            newest = i == len(tokens) - 1
            c.text(x + 1 + i * 3 * CHAR_W, y, t, invert=newest)

    def render_size(self, c: Canvas, rows: list[Item]) -> None:
        """A two-size face: each size with its bust chance and expected final
        turn score, or chance to win (B-4, B-9, B-10)."""
        st: BagOfIceState = self.state
        adv = self.advice()
        self.big_band(c)
        w = self.win()
        bust = _("bust")
        figure = _("win") if w is not None else _("avg")
        head = Item(_("size?"), right=f"{bust:>5} {figure:>5}")
        c.row(1, fit(item_text(head, ChoiceList.ROOM), ChoiceList.ROOM), x=ROW_X)
        self.list.render(c, rows, 2, 2)
        if self.show_hints and st.face is not None and w is not None:
            now = _("to win: {size}").format(size=size_word(w.size_choice[st.face]))
        elif self.show_hints and st.face is not None:
            now = _("hint: {size}").format(size=size_word(adv.size_choice[st.face]))
        else:
            now = _("rolled {face}").format(face=face_words(st.face)) if st.face is not None else ""
        c.text(1, TITLE_H + 4 * LINE_H, first_fit(now))

    def render_entry(self, c: Canvas, rows: list[Item]) -> None:
        """Physical die and bag: the face rolled, the piece drawn, a roll-off
        roll or the start player, entered by the table (B-3, B-8)."""
        st: BagOfIceState = self.state
        ph = st.phase
        footer = ""
        if ph == Phase.START:
            title, right = _("Who starts?"), ""
        elif ph == Phase.ROLLOFF:
            seat = st.roller
            rnd = st.rolloff[-1] if st.rolloff else ()
            right = f"{len(rnd) + 1}/{len(st.contenders)}"
            title = titled(_("Roll-off: {name}"), st, seat, right)
            if rnd:
                best = max(f.pips for _s, f in rnd)
                tops = [s for s, f in rnd if f.pips == best]
                head = _("high {n}:").format(n=best)
                short = short_names(st.players, max(3, (COLS - len(head)) // len(tops) - 1))
                footer = first_fit(head + " " + " ".join(short[s] for s in tops),
                                   ngettext("high {n}: {k} player", "high {n}: {k} players", len(tops)).format(
                                       n=best, k=len(tops)))
            elif len(st.rolloff) > 1:
                footer = _("tie: round {n}").format(n=len(st.rolloff))
            else:
                footer = first_fit(_("highest roll starts"))
        elif ph == Phase.ROLL:
            right = _("face?")
            title = titled(_("{name} rolled"), st, st.active, right)
            footer = (first_fit(_("turn {n}: {pieces}").format(n=st.turn_score(), pieces=pcs(st.drawn)),
                                _("turn score {n}").format(n=st.turn_score()))
                      if st.drawn else first_fit(_("nothing drawn yet")))
        else:  # draw
            assert st.size is not None and st.face is not None
            right = size_word(st.size)
            title = titled(_("{name} drew"), st, st.active, right)
        c.title(title, right)
        n = ROWS - (1 if footer else 0)
        self.list.render(c, rows, 0, n)
        if footer:
            c.text(1, TITLE_H + n * LINE_H, footer)

    def render_winner(self, c: Canvas) -> None:
        """The winner's name and total in the large font (B-6), then the others by total."""
        st: BagOfIceState = self.state
        w = st.winner
        assert w is not None
        c.title(_("Winner"), _("turn {n}").format(n=st.turn))
        c.center(TITLE_H + 1, short_of(st, w, WIDTH // (2 * CHAR_W)), scale=2)
        total = str(st.totals[w])
        c.big(1, TITLE_H + 21, total, 2)
        x = 1 + len(total) * 2 * CHAR_W + CHAR_W
        room = (WIDTH - x) // CHAR_W
        c.text(x, TITLE_H + 21, first_fit(ngettext("point", "points", st.totals[w]), width=room))
        c.text(x, TITLE_H + 31, first_fit(_("target {n}").format(n=st.target), str(st.target), width=room))
        c.text(1, TITLE_H + 42, others_line(st, w))

    # ------------------------------------------------------------ keys

    show_hints = True  # the boi_hints setting (B-9), read when shown and at each key

    def on_show(self, app: "App") -> None:
        self.show_hints = app.settings.boi_hints
        self.advice_mode = app.settings.boi_advice
        self.request_solve(app)

    def on_key(self, key: Key, app: "App") -> None:
        self.show_hints = app.settings.boi_hints
        self.advice_mode = app.settings.boi_advice
        super().on_key(key, app)

    def on_game_key(self, key: Key, app: "App") -> None:
        st: BagOfIceState = self.state
        rows = self.sync()
        if key in (Key.LEFT, Key.RIGHT):
            app.push(ScoreScreen(self.session))
        elif key == Key.HOLD_OK:
            if st.phase in ASKED:
                self.show_odds(app)
        elif st.is_terminal():
            if key == Key.OK:
                app.push(ScoreScreen(self.session))
        elif key == Key.DOWN and 0 < self.winning_bank_row() == self.index:
            pass  # DOWN keeps the cursor on a winning Bank: the DOWN, OK habit still banks (QA #11)
        else:
            self.list.key(key, rows, app)
