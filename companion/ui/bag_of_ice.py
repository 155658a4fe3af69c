"""Bag of Ice screens: setup, the turn, the size choice, entries, scores, winner.

One ``BagOfIceScreen`` (a ``SessionScreen``) draws whatever the position
asks for, so a new game, Resume and History all land on the right screen:

* ``decide``: the turn screen: the active player and banked total, the turn
  score in large digits (the best arrangement of the pieces drawn, B-5), the
  pieces (the newest inverted), the chance that the next draw busts and the
  bank/draw hint (B-9), then "Roll & draw" (OK, one press; its line shows the
  expected final turn score under the best policy) and "Bank" (DOWN OK; its
  line shows the new total);
* ``size``: a two-size face: each size with its bust chance and expected
  final turn score (B-4, B-9);
* physical die and bag (B-8): ``roll`` asks the face rolled, ``draw`` the
  piece drawn (only pieces of the asked size that the bag still holds), and
  every turn phase offers "Rule broken: bust"; ``rolloff`` asks each
  roll-off roll (B-3), ``start`` who starts;
* ``over``: the winner (B-6).

After each action the device shows what happened on its own screen: the
roll-off rolls and who starts (B-3), the bank summary with each tree and its
value and the loose pieces (B-5), the bust (B-4, B-8). LEFT/RIGHT (or the
session menu) show the scoreboard, where OK shows a player's turns; hold OK
(or the session menu) shows the odds in full (B-9).
"""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..engine import Option as Choice
from ..engine import pick_chance
from ..games.bag_of_ice import (
    Bank, BagOfIceState, Broken, Face, Got, Phase, PickSize, Roll, Start, TurnResult, best_arrangement,
)
from ..games import boi_win
from ..games.boi_odds import Advice, advice_for
from ..games.boi_win import WinAdvice
from ..io import Key
from ..pieces import DieFace, Piece, Size
from ..session import Session
from .base import SessionScreen
from .common import Option, OptionsSetup, Report, draw_scoreboard, players_screen
from .draw import CHAR_W, LINE_H, ROWS, TITLE_H, WIDTH, Canvas, fit, wrap
from .widgets import ChoiceList, Item, Screen, stepped

if TYPE_CHECKING:  # pragma: no cover
    from .app import App

GAME = "bag_of_ice"
SIZE_WORD = {Size.SMALL: "small", Size.MEDIUM: "medium", Size.LARGE: "large"}
COLS = WIDTH // CHAR_W  # 21 characters on a line from x=1
TARGETS = list(range(10, 201, 10))  # B-6: 60 by default, a setting per game
BROKEN_LABEL = "Rule broken: bust"
TURN = (Phase.DECIDE, Phase.ROLL, Phase.SIZE, Phase.DRAW)  # a turn under way
ASKED = (Phase.DECIDE, Phase.SIZE)  # the player decides: the odds apply (B-9)
ROW_X = 6  # rows start here: 20 characters, then a free column and the scroll mark


# ---------------------------------------------------------------- text helpers


def pct(x: Fraction | float) -> str:
    """A chance as a percentage for a 21-character line: ``13.7%``."""
    v = float(x) * 100
    if v in (0.0, 100.0):
        return f"{v:.0f}%"
    return f"{v:.1f}%"


def avg(x: float) -> str:
    """An expected score in at most 5 characters."""
    return f"{x:.1f}" if x < 99.95 else f"{x:.0f}"


def pcs(pieces) -> str:
    """Pieces as text in the order given; ``-`` for none."""
    return " ".join(str(p) for p in pieces) if pieces else "-"


def spread(left: str, right: str, width: int = COLS) -> list[str]:
    """``left`` and ``right`` on one line of ``width``, right-aligned; when
    they do not fit, ``left`` wrapped and ``right`` on a line of its own."""
    if len(left) + 1 + len(right) <= width:
        return [left + right.rjust(width - len(left))]
    return wrap(left, width) + [right.rjust(width)]


def face_words(face: DieFace) -> str:
    return " or ".join(SIZE_WORD[s] for s in face.sizes)


def name_of(st: BagOfIceState, seat: int | None) -> str:
    return st.players[seat] if seat is not None else "?"


def rolloff_lines(st: BagOfIceState) -> list[str]:
    """Who starts, then every roll-off roll, round by round (B-3)."""
    lines: list[str] = []
    if st.start is not None and st.rolloff:
        best = max(f.pips for s, f in st.rolloff[-1] if s == st.start)
        lines.append(f"{st.players[st.start]} starts: {best} pips")
    for k, rnd in enumerate(st.rolloff):
        if not rnd:
            continue
        if k:
            lines.append(f"tie: round {k + 1}")
        for seat, face in rnd:
            lines.append(f"{st.players[seat]:<8} {face.label:<4} {face.pips} pip{'s' if face.pips > 1 else ''}")
    return lines


def turn_line(k: int, t: TurnResult, st: BagOfIceState) -> str:
    """A player's ``k``-th finished turn (its round): ``R3 +15: gL gM gS``,
    ``R4 bust rM, lost 12``, ``R5 rule broken, lost 3`` (B-8)."""
    if t.bust:
        kept = t.pieces if t.bust_on == "broken" else t.pieces[:-1]
        lost = best_arrangement(kept, st.colors).score
        what = "rule broken" if t.bust_on == "broken" else f"bust {t.bust_on}"
        return f"R{k} {what}, lost {lost}"
    return f"R{k} +{t.score}: {pcs(t.pieces)}" if t.pieces else f"R{k} +0: nothing drawn"


def history_lines(st: BagOfIceState, seat: int) -> list[str]:
    """A player's total, banks and busts, then every turn, oldest first."""
    turns = st.turns_of(seat)
    banks = sum(1 for t in turns if not t.bust)
    lines = [f"{banks} banked, {len(turns) - banks} bust" if turns else "no turn yet"]
    lines += [turn_line(k, t, st) for k, t in enumerate(turns, 1)]
    if st.phase not in (Phase.OVER, Phase.START, Phase.ROLLOFF) and st.active == seat:
        lines.append(f"now: {st.turn_score()}" + (f" {pcs(st.drawn)}" if st.drawn else ""))
    return lines


def bank_lines(before: BagOfIceState, after: BagOfIceState) -> list[str]:
    """The arrangement that scored (B-5): each tree and its value, the loose
    pieces, then the new total (and the win, B-6)."""
    arr = before.arrangement()
    seat = before.active
    assert seat is not None
    lines: list[str] = []
    for t in arr.trees:  # 20 wide: a free column before the scroll bar of a long summary
        lines += spread(f"{pcs(t.pieces)} {t.kind}", f"+{t.points}", COLS - 1)
    if arr.loose:
        lines += spread(f"loose {pcs(arr.loose)}", f"+{sum(p.pips for p in arr.loose)}", COLS - 1)
    if not before.drawn:
        lines.append("nothing drawn: +0 (B-4)")
    old, new = before.totals[seat], after.totals[seat]
    lines.append(f"total {old} + {arr.score} = {new}")
    if after.is_terminal():
        lines.append(f"{after.players[seat]} wins! (B-6)")
    return lines


# ---------------------------------------------------------------- setup


def warm_up() -> None:
    """Build the exact odds table (B-9) before the first turn screen needs it;
    the app calls this once its first frame is on the display."""
    from ..games.boi_odds import table
    table()


def setup_screen(app: "App") -> Screen:
    """Players (1 = solo practice, 2 to 12, B-3), names, then target, die and
    bag, start player."""
    return players_screen("Bag of Ice", 3, 1, 12, lambda a, names: a.push(options_screen(names)),
                          hint="solo=1, 2 to 12 (B-3)")


def options_screen(names: list[str]) -> Screen:
    opts = [
        Option("target", "Target", [(str(v), v) for v in TARGETS], index=TARGETS.index(60)),
        Option("source", "Die & bag", [("virtual", "virtual"), ("physical", "physical")]),
    ]
    if len(names) > 1:
        opts.append(Option("start", "Start", [("roll-off", "rolloff"), ("random", "random")]
                           + [(fit(n, 8), i) for i, n in enumerate(names)]))
    return OptionsSetup("Bag of Ice: options", opts, lambda app, v: start_game(app, names, v))


def start_game(app: "App", names: list[str], values: dict[str, Any]) -> None:
    src = values["source"]
    setup: dict[str, Any] = {"players": list(names), "target": values["target"],
                             "start": values.get("start", 0), "die": src, "bag": src}
    session = app.start_session(GAME, setup)
    app.home()
    screen = BagOfIceScreen(session)
    app.push(screen)
    st: BagOfIceState = session.state
    if st.phase == Phase.START:  # physical: the device still picks at random (undo: the table names one)
        screen.do(app, pick_chance(st, session.rng))
    elif st.rolloff and st.start is not None:  # virtual roll-off: every roll at once (B-3)
        app.push(Summary("Roll-off (B-3)", rolloff_lines(st)))
    elif values.get("start") == "random" and st.start is not None:  # virtual: already picked
        app.push(Summary("Start player", [f"{st.players[st.start]} starts (drawn at random, B-3)."]))


def play_screen(app: "App", session: Session) -> Screen:
    return BagOfIceScreen(session)


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

    def __init__(self, before: BagOfIceState, after: BagOfIceState, result: TurnResult):
        self.name = name_of(before, result.seat)
        self.result = result
        self.lost = before.turn_score()
        self.total = after.totals[result.seat]
        self.next = name_of(after, after.active)

    def render(self, c: Canvas) -> None:
        c.d.rectangle((0, 0, WIDTH - 1, 33), fill=1)
        w = 5 * CHAR_W * 3
        c.big((WIDTH - w) // 2, 3, "BUST!", 3, invert=True)
        r = self.result
        why = f"{self.name}: rule broken (B-8)" if r.bust_on == "broken" else f"{self.name} drew {r.bust_on} (B-4)"
        lost = f"turn lost: {self.lost} points" if self.lost else "turn scores 0"
        lines = [why, lost, f"total {self.total}, next: {self.next}"]
        for i, line in enumerate(lines):
            c.text(1, 34 + i * LINE_H, fit(line, COLS))

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
        b: BagOfIceState = f.states[i]
        a: BagOfIceState = f.states[i + 1]
        m = f.moves[i].move
        if b.phase == Phase.ROLLOFF and a.phase != Phase.ROLLOFF:
            out.append(Summary("Roll-off (B-3)", rolloff_lines(a)))
        elif isinstance(m, Start):
            out.append(Summary("Start player", [f"{a.players[m.seat]} starts (drawn at random, B-3)."]))
        if len(a.history) > len(b.history):
            t = a.history[-1]
            if t.bust:
                out.append(BustScreen(b, a, t))
            else:
                out.append(Summary(f"{b.players[t.seat]} banks {t.score}", bank_lines(b, a), right="B-5"))
    return out


# ---------------------------------------------------------------- scores


class ScoreScreen(Screen):
    """Every total in large digits (small text beyond 6 players); UP/DOWN
    pick a player, OK shows that player's turns, LEFT/RIGHT/BACK close."""

    def __init__(self, session: Session):
        self.session = session
        st: BagOfIceState = session.state
        self.index = st.winner if st.winner is not None else (st.active or 0)

    def render(self, c: Canvas) -> None:
        st: BagOfIceState = self.session.state
        y = TITLE_H
        if st.n > 6:  # small text in two columns of six under no title: names stay readable
            y = 0
        else:
            c.title(f"Scores to {st.target}", "OK:turns")
        marks = [">" if i == st.active and not st.is_terminal() else "" for i in range(st.n)]
        draw_scoreboard(c, st.players, st.totals, y=y, mark=self.index, marks=marks)

    def on_key(self, key: Key, app: "App") -> None:
        st: BagOfIceState = self.session.state
        if key in (Key.UP, Key.DOWN):
            self.index = stepped(self.index, key, st.n)
        elif key == Key.OK:
            app.push(Report(f"{st.players[self.index]}: {st.totals[self.index]}", history_lines(st, self.index)))
        elif key in (Key.BACK, Key.LEFT, Key.RIGHT):
            app.pop()


# ---------------------------------------------------------------- odds (B-9)


def win_lines(st: BagOfIceState, w: WinAdvice, hints: bool) -> list[str]:
    """The chances to win the game (B-10), before B-9's figures on the odds screen."""
    if st.phase == Phase.SIZE and st.face is not None:
        lines = ["chance to win, per size:"]
        lines += [f"{SIZE_WORD[s]:<6} {pct(w.per_size[s])}" for s in st.face.sizes]
        if hints:
            lines.append(f"to win: {SIZE_WORD[w.size_choice[st.face]]}")
    else:
        lines = [f"bank: win {pct(w.bank)}", f"draw: win {pct(w.draw)}"]
        if hints:
            lines.append(f"to win: {w.hint}")
    return lines + ["(both play to win)", "- best turn score -"]


def odds_lines(st: BagOfIceState, adv: Advice, hints: bool) -> list[str]:
    """The odds before a decision in full (B-9), exact fractions included."""
    if st.phase == Phase.SIZE and st.face is not None:
        lines = [f"rolled {st.face}, per size:"]
        for s in st.face.sizes:
            o = adv.per_size[s]
            lines.append(f"{SIZE_WORD[s]:<6} bust {o.reds}/{o.left} {pct(o.bust_chance)}")
            lines.append(f"{'':<7}then avg {avg(o.expected)}")
        if hints:
            lines.append(f"hint: {SIZE_WORD[adv.size_choice[st.face]]}")
    else:
        b = adv.bust_chance
        lines = [f"bust chance {pct(b)}", f"exactly {b.numerator}/{b.denominator}",
                 "  ".join(f"{s.letter} {o.reds}/{o.left}" for s, o in sorted(adv.per_size.items())),
                 f"roll on: avg {avg(adv.expected_continue)}",
                 f"bank: {adv.bank_score}" + (f"  hint: {adv.hint}" if hints else "")]
    lines.append("1/7: reds left / pieces left of that size")
    lines.append("avg: expected final turn score with the best play, a bust = 0")
    return lines


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
            app.push(Summary("Roll-off again (B-3)", rolloff_lines(st)))
        elif before.start is not None:
            app.push(Summary("Start player", [f"{st.players[st.start]} starts (drawn at random, B-3)."]))

    def advice(self) -> Advice:
        st = self.state
        if self._advice is None or self._advice[0] is not st:
            self._advice = (st, advice_for(st))
        return self._advice[1]

    def turn_live(self) -> bool:
        return self.state.phase in TURN

    def broken(self, app: "App") -> None:
        st: BagOfIceState = self.state
        app.confirm(f"{BROKEN_LABEL} for {name_of(st, st.active)} (B-8)?", lambda a: self.do(a, Broken()))

    def menu_items(self, app: "App") -> list[Item]:
        items = [Item("Scores", lambda a: (a.pop(), a.push(ScoreScreen(self.session))))]
        if self.state.phase in ASKED:
            items.append(Item("Odds", lambda a: (a.pop(), self.show_odds(a))))
        if self.state.physical and self.turn_live():
            items.append(Item(BROKEN_LABEL, lambda a: (a.pop(), self.broken(a))))
        return items

    def session_title(self) -> str:
        return f"Bag of Ice #{self.session.id}"

    def show_odds(self, app: "App") -> None:
        st: BagOfIceState = self.state
        lines = odds_lines(st, self.advice(), app.settings.boi_hints)
        w = self.win()
        if w is not None:
            lines = win_lines(st, w, app.settings.boi_hints) + lines
        app.push(OddsScreen("Odds", lines, right=name_of(st, st.active)))

    # ------------------------------------------------------------ rows of the decision

    def item(self, o: Choice) -> Item:
        """A decision's option as a row (the device pick and the bank's figures aside)."""
        st: BagOfIceState = self.state
        m = o.move

        def act(a: "App") -> None:
            self.do(a, m)
        if isinstance(m, Broken):
            return Item(BROKEN_LABEL, self.broken)
        if isinstance(m, Face) and st.phase == Phase.ROLLOFF:  # B-3: the pip totals decide
            pips = m.face.pips
            return Item(f"{m.face.label:<4}", act, right=f"{pips} pip{'s' if pips > 1 else ''}")
        if isinstance(m, Face):
            return Item(f"{m.face.label:<4}{face_words(m.face)}", act)
        if isinstance(m, Got):
            n = st.bag.count(m.piece)
            bust = m.piece.color == st.colors[0]
            return Item(f"{m.piece.color.value} {m.piece}", act,
                        right="BUST" if bust else (f"{n} left" if n > 1 else ""))
        if isinstance(m, PickSize):
            o_ = self.advice().per_size[m.size]
            w = self.win()
            chance = f"{o_.reds}/{o_.left} {round(float(o_.bust_chance) * 100):>3}%"
            figure = f"{round(w.per_size[m.size] * 100):>3}%" if w is not None else f"{avg(o_.expected):>4}"
            return Item(f"{SIZE_WORD[m.size]:<6} {chance} {figure}", act)
        if isinstance(m, Roll):
            w = self.win()
            right = f"win {round(w.draw * 100)}%" if w is not None else f"avg {avg(self.advice().expected_continue)}"
            return Item("Roll & draw", act, right=right)
        if isinstance(m, Bank):
            adv = self.advice()
            new = st.totals[st.active or 0] + adv.bank_score
            w = self.win()
            if w is not None and new < st.target:  # B-10: the chance to win of each
                return Item(f"Bank +{adv.bank_score}={new}", act, right=f"win {round(w.bank * 100)}%")
            return Item(f"Bank +{adv.bank_score} = {new}" + (" WIN" if new >= st.target else ""), act)
        return Item(o.label, act)

    def rows(self) -> list[Item]:
        st: BagOfIceState = self.state
        d = self.decision()
        options = list(d.options)
        if d.kind == Phase.DRAW:  # physical: the asked size, non-bust colors first (B-8)
            order = list(st.colors[1:]) + [st.colors[0]]
            options.sort(key=lambda o: order.index(o.move.piece.color) if isinstance(o.move, Got) else len(order))
        rows = [self.item(o) for o in options]
        if d.kind == Phase.START:  # physical, after an undo of the device's pick: the table names one
            rows.append(Item("Device picks", lambda a: self.do(a, pick_chance(self.state, self.session.rng))))
        return rows

    def sync(self) -> list[Item]:
        """The rows of the position; the cursor goes back to the first row
        (Roll & draw, the smaller size...) whenever the position changes."""
        rows = self.rows()
        self.list.sync(self.state, rows)
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

    def render_turn(self, c: Canvas, rows: list[Item]) -> None:
        """The turn screen: who, banked total, turn score (large), pieces,
        bust chance and hint (B-9), then the actions."""
        st: BagOfIceState = self.state
        seat = st.active
        assert seat is not None
        adv = self.advice()
        right = f"{st.totals[seat]}/{st.target}"
        if st.n == 1:
            right = f"T{st.turn} " + right
        c.title(st.players[seat], right)
        score = str(adv.bank_score)
        c.big(1, TITLE_H + 1, score, 2)
        self.draw_pieces(c, 42, TITLE_H, st.drawn)
        odds = f"bust {pct(adv.bust_chance)}"
        w = self.win()
        if w is not None:  # B-10: the advice to win, said as such
            line = (odds + f"  win: {w.hint}") if self.show_hints else f"next draw: {odds}"
        else:
            line = (odds + f"  hint {adv.hint}") if self.show_hints else f"next draw: {odds}"
        c.text(1, TITLE_H + 2 * LINE_H, fit(line, COLS))
        self.list.render(c, rows, 3, 2)

    @staticmethod
    def draw_pieces(c: Canvas, x: int, y: int, drawn: tuple[Piece, ...]) -> None:
        """This turn's pieces in draw order on two lines, the newest inverted;
        more than ten: ``+N`` for the oldest not shown."""
        if not drawn:
            c.text(x + 1, y, "nothing")
            c.text(x + 1, y + LINE_H, "drawn yet")
            return
        per_line = (WIDTH - x + CHAR_W) // (3 * CHAR_W)  # 5 pieces of 2 letters and a space
        cap = 2 * per_line
        tokens = [str(p) for p in drawn]
        if len(tokens) > cap:
            hidden = len(tokens) - (cap - 1)
            tokens = [f"+{hidden}"] + tokens[-(cap - 1):]
        for i, t in enumerate(tokens):
            r, k = divmod(i, per_line)
            newest = i == len(tokens) - 1
            c.text(x + 1 + k * 3 * CHAR_W, y + r * LINE_H, t, invert=newest)

    def render_size(self, c: Canvas, rows: list[Item]) -> None:
        """A two-size face: each size with its bust chance (reds left /
        pieces left) and expected final turn score (B-4, B-9)."""
        st: BagOfIceState = self.state
        adv = self.advice()
        c.title(f"{name_of(st, st.active)} rolled {st.face}", "size?")
        w = self.win()
        c.row(0, f"{'size':<7}{'bust':<10}{'win' if w is not None else 'avg':>3}", x=ROW_X)
        self.list.render(c, rows, 1, 3)
        now = f"turn {adv.bank_score}"
        if self.show_hints and st.face is not None and w is not None:
            now += f"  to win: {SIZE_WORD[w.size_choice[st.face]]}"
        elif self.show_hints and st.face is not None:
            now += f"  hint: {SIZE_WORD[adv.size_choice[st.face]]}"
        else:
            now += " so far"
        c.text(1, TITLE_H + 4 * LINE_H, fit(now, COLS))

    def render_entry(self, c: Canvas, rows: list[Item]) -> None:
        """Physical die and bag: the face rolled, the piece drawn, a roll-off
        roll or the start player, entered by the table (B-3, B-8)."""
        st: BagOfIceState = self.state
        ph = st.phase
        who = name_of(st, st.active)
        footer = ""
        if ph == Phase.START:
            title, right = "Who starts?", "B-3"
        elif ph == Phase.ROLLOFF:
            seat = st.roller
            rnd = st.rolloff[-1] if st.rolloff else ()
            title, right = f"Roll-off: {name_of(st, seat)}", f"{len(rnd) + 1}/{len(st.contenders)}"
            if rnd:
                best = max(f.pips for _, f in rnd)
                tops = [st.players[s] for s, f in rnd if f.pips == best]
                footer = f"high {best}: " + ", ".join(tops)
            elif len(st.rolloff) > 1:
                footer = f"tie: round {len(st.rolloff)}"
            else:
                footer = "highest pips starts"
        elif ph == Phase.ROLL:
            title, right = f"{who} rolled:", "face?"
            footer = f"turn {st.turn_score()}: {pcs(st.drawn)}" if st.drawn else "nothing drawn yet"
        else:  # draw
            assert st.size is not None and st.face is not None
            title, right = f"{who} drew a {SIZE_WORD[st.size]}", st.face.label
        c.title(title, right)
        n = ROWS - (1 if footer else 0)
        self.list.render(c, rows, 0, n)
        if footer:
            c.text(1, TITLE_H + n * LINE_H, fit(footer, COLS))

    def render_winner(self, c: Canvas) -> None:
        st: BagOfIceState = self.state
        w = st.winner
        assert w is not None
        c.title("Winner (B-6)", f"turn {st.turn}")
        name = st.players[w]
        c.center(TITLE_H + 2, name, scale=2 if len(name) * 12 <= WIDTH else 1)
        c.center(TITLE_H + 23, f"{st.totals[w]} points, target {st.target}")
        others = sorted((i for i in range(st.n) if i != w), key=lambda i: (-st.totals[i], i))
        lines = [""]
        for i in others:  # the others by total, two lines at most (all: OK, the scoreboard)
            cell = f"{fit(st.players[i], 6)} {st.totals[i]}"
            if lines[-1] and len(lines[-1]) + 2 + len(cell) > COLS:
                lines.append("")
            lines[-1] += ("  " if lines[-1] else "") + cell
        for k, line in enumerate(lines[:2]):
            c.text(1, TITLE_H + 33 + k * LINE_H, line)

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
        else:
            self.list.key(key, rows, app)
