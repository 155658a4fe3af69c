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
* ``bidding`` (full table): every stack with its current bid, and Pass; a
  stack opens the ``BidPicker`` (this bid against the one to beat, U-9);
* ``auction`` (score sheet): who passed (U-11);
* ``tiebreak`` (score sheet, U-13): the tied players' hand pips / pieces;
* ``over``: the winner screen with the tiebreak (U-12, U-13).

After each action the device tells the table what it did on its own: the
pieces to take from the tray (virtual bag), undercut bids going back (U-10),
single turn-ins applied (U-6), the round summary after a pass (U-11), the end
being triggered (U-12). LEFT/RIGHT (or the session menu) show the score
screen; the session menu also shows each hand (full table).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from ..engine import Decision, Move
from ..engine import Option as Choice
from ..games.undercut import END_SCORE, Kind, Phase, UndercutState
from ..games.undercut_moves import (
    COMBOS, STACK_NAMES, Bid, Done, Got, HandPieces, HandPips, Pass, Take, TurnIn,
    bid_value, canon,
)
from ..io import Key
from ..pieces import Piece, Size
from ..session import Session
from .base import SessionScreen
from .common import OptionsSetup, Option, Report, choose, players_screen
from .draw import CHAR_W, HEIGHT, LINE_H, ROWS, TITLE_H, WIDTH, Canvas, fit, wrap
from .widgets import ChoiceList, Item, Menu, Screen, stepped

if TYPE_CHECKING:  # pragma: no cover
    from .app import App

GAME = "undercut"
SIZE_WORD = {Size.SMALL: "small", Size.MEDIUM: "medium", Size.LARGE: "large"}
COMBO_SHORT = {"TREE": "TRE", "TRIPLETS": "TRI", "FOURSOME": "FOU"}


# ---------------------------------------------------------------- text helpers


def pcs(pieces) -> str:
    """Pieces as text, larger first (the order of move texts); ``-`` for none."""
    items = canon(pieces)
    return " ".join(str(p) for p in items) if items else "-"


def value_short(value: tuple[int, int]) -> str:
    """A bid value ``(pips, pieces)`` in 5 to 7 characters: ``3p/1pc``."""
    return f"{value[0]}p/{value[1]}pc"


def stacks_left_without_bid(st: UndercutState) -> list[int]:
    """Stacks that still have no bid (U-11: no pass while there is one)."""
    return [k for k, b in enumerate(st.bids) if b is None]


def winners_text(st: UndercutState) -> str:
    return " & ".join(st.players[i] for i in st.winners)


# ---------------------------------------------------------------- setup


def setup_screen(app: "App") -> Screen:
    """Players (3 to 5, U-2), names, then level (U-14), bag (U-15) and start player."""
    return players_screen("Undercut", 4, 3, 5, lambda a, names: a.push(options_screen(names)),
                          hint="3 to 5 players (U-2)")


def options_screen(names: list[str]) -> Screen:
    opts = [
        Option("level", "Level", [("full", "full"), ("sheet", "score")]),
        Option("bag", "Bag", [("virtual", "virtual"), ("physical", "physical")]),
        Option("start", "Start", [(fit(n, 7), i) for i, n in enumerate(names)] + [("random", "random")]),
    ]
    return OptionsSetup("Undercut: options", opts, lambda app, v: start_game(app, names, v))


def start_game(app: "App", names: list[str], values: dict[str, Any]) -> None:
    setup: dict[str, Any] = {"players": list(names), "level": values["level"], "start": values["start"]}
    if values["level"] == "full":
        setup["bag"] = values["bag"]
    session = app.start_session(GAME, setup)
    app.home()
    screen = UndercutScreen(session)
    app.push(screen)
    st: UndercutState = session.state
    if values["start"] == "random" and st.start is not None:
        app.message(f"{st.players[st.start]} starts (drawn at random).", title="Start player")


def play_screen(app: "App", session: Session) -> Screen:
    return UndercutScreen(session)


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
        before = f.states[i]
        out.append(Step(before, f.moves[i].move, f.states[i + 1]))
    return out


def round_summary(before: UndercutState, drawn: Piece | None) -> tuple[str, list[str]]:
    """The one-screen summary of an auction's resolution (U-11), from the
    position just before it resolves (the passer's draw pending or done)."""
    passer = before.start if before.start is not None else before.active
    name = before.players[passer]
    lines = [f"{fit(name, 8)} +1, " + (f"drew {drawn}" if drawn else "bag empty")]
    to_bag: list[Piece] = []
    compact = len(before.stacks) + 2 > ROWS
    pairs = []
    for k, (stack, bid) in enumerate(zip(before.stacks, before.bids)):
        if bid is None:  # pragma: no cover - a pass needs every stack bid (U-11)
            continue
        who = before.players[bid[0]]
        to_bag.extend(bid[1])
        if compact:
            pairs.append(f"{STACK_NAMES[k]}>{fit(who, 7)}")
        else:
            lines.append(f"{fit(who, 5)} takes {STACK_NAMES[k]} {pcs(stack)}")
    for i in range(0, len(pairs), 2):
        lines.append("  ".join(pairs[i:i + 2]))
    lines.append(f"to bag: {pcs(to_bag)}")
    return f"R{before.round} over: {fit(name, 8)} starts", lines


def reports(session: Session, steps: list[Step]) -> list[tuple[str, list[str]]]:
    """What the device did (or the table must do) after the last action, as
    pages of (title, lines), in order."""
    pages: list[tuple[str, list[str]]] = []
    virtual = session.auto_chance
    tray: dict[int, list[Piece]] = {}
    stacks_drawn = False
    auto_turnins: list[str] = []
    for i, s in enumerate(steps):
        m, b = s.move, s.before
        if isinstance(m, Got) and b.draw_for is not None:
            kind, idx = b.draw_for
            if kind == "hand" and virtual:
                tray.setdefault(idx, []).append(m.piece)
                if not s.after.pending or s.after.draw_for != b.draw_for:
                    pages.append(("Setup draw", [f"{b.players[idx]}: take {pcs(tray.pop(idx))} from the tray"]))
            elif kind == "stack":
                stacks_drawn = True
            elif kind == "pass":
                title, lines = round_summary(b, m.piece)
                if virtual:
                    lines[0] = f"{fit(b.players[idx], 8)} +1, tray: {m.piece}"
                pages.append((title, lines))
        elif isinstance(m, Pass) and b.full and m.size is None:
            pages.append(round_summary(replace_start(b), None))
        elif isinstance(m, Bid) and b.bids[m.stack] is not None:
            old_seat, old_pieces = b.bids[m.stack]  # type: ignore[misc]
            back = pcs(old_pieces) if old_pieces else "nothing"
            pages.append(("Undercut (U-10)", [f"{b.players[old_seat]} takes back the marker and {back}"]))
        if i > 0 and b.current_player >= 0 and b.forced_move() == m:
            # played by the device: the player had only this move (U-6, U-14 as amended)
            auto_turnins.append(forced_line(b, m))
            if isinstance(m, TurnIn) and m.pieces:  # which pieces go back to the bag (issue 13)
                auto_turnins.append(f"  back: {pcs(m.pieces)}")
        if s.after.end_triggered and not b.end_triggered:
            who = next(j for j, p in enumerate(s.after.points) if p >= END_SCORE)
            why = ("this scoring phase is the last" if b.phase == Phase.SCORING
                   else "one more scoring phase, then the end")
            pages.append(("End triggered", [f"U-12: {s.after.players[who]} has {s.after.points[who]}: {why}."]))
    if auto_turnins:
        pages.append(("Only one move", auto_turnins))
    if stacks_drawn and virtual:
        last = steps[-1].after
        lines = [f"{STACK_NAMES[k]}: {pcs(st)}" for k, st in enumerate(last.stacks)]
        pages.append(("Stacks: from the tray", lines or ["no stack (bag empty)"]))
    return pages


def forced_line(b: UndercutState, m: Move) -> str:
    """A move the device played for a player, in one short line (the history has the long
    form, ``describe_forced``)."""
    who = fit(b.players[b.active], 6)
    if isinstance(m, TurnIn):
        return f"{who} {m.combo} +{b.values[COMBOS.index(m.combo)]}"
    if isinstance(m, Pass):
        return f"{who} passes, draws {m.size.name.lower()}" if m.size else f"{who} passes"
    if isinstance(m, Bid):
        return f"{who}: zero bid on {STACK_NAMES[m.stack]}"
    if isinstance(m, HandPieces):
        return f"{who}: {m.count} pieces"
    return fit(b.describe(m), 20)


def replace_start(st: UndercutState) -> UndercutState:
    """The position as the pass leaves it (the passer is the start player, U-11)."""
    from dataclasses import replace
    return replace(st, start=st.active)


# ---------------------------------------------------------------- score screen


def draw_scores(c: Canvas, st: UndercutState) -> None:
    """The score screen: every score and the three combo values in 16 px
    digits, the round and start player in the title, END when triggered."""
    start = st.players[st.start] if st.start is not None else "?"
    c.title(f"R{st.round} start {start}", "END" if st.end_triggered else "")
    n = st.n
    left = 84
    cols = 2 if n <= 4 else 3
    w = left // cols
    h = (HEIGHT - TITLE_H) // 2
    for i, (name, pts) in enumerate(zip(st.players, st.points)):
        r, k = divmod(i, cols)
        x0, y0 = k * w, TITLE_H + r * h
        c.text(x0 + 1, y0, fit(name, w // CHAR_W), invert=(i == st.start))
        c.big(x0 + 1, y0 + 10, str(pts), 2)
    c.d.line((left, TITLE_H, left, HEIGHT - 1), fill=1)
    rh = (HEIGHT - TITLE_H) // 3
    for j, combo in enumerate(COMBOS):
        y = TITLE_H + 1 + j * rh
        c.text(left + 2, y + 4, COMBO_SHORT[combo])
        v = str(st.values[j])
        c.big(WIDTH - 12 * len(v), y, v, 2)


class ScoreScreen(Screen):
    """The score screen at a glance; any key closes it."""

    def __init__(self, session: Session):
        self.session = session

    def render(self, c: Canvas) -> None:
        draw_scores(c, self.session.state)

    def on_key(self, key: Key, app: "App") -> None:
        if key in (Key.OK, Key.BACK, Key.LEFT, Key.RIGHT):
            app.pop()


def hands_menu(session: Session) -> Screen:
    """Each hand (full table): pips and pieces; OK shows the pieces."""
    def items() -> list[Item]:
        st: UndercutState = session.state
        out = []
        for i, name in enumerate(st.players):
            h = st.hands[i]
            text = f"{name}: {h.pips()} pips, {len(h)} pieces\n{pcs(h) if len(h) else 'empty hand'}"
            out.append(Item(fit(name, 9), (lambda app, t=text, n=name: app.push(Report(f"Hand of {n}", t.split("\n")))),
                            right=f"{h.pips()}p/{len(h)}pc"))
        return out
    return Menu("Hands", items)


# ---------------------------------------------------------------- the game screen

TITLES = {Kind.TAKE: "{name}: take 6 pips", Kind.TURN_IN: "{name}: turn in", Kind.BID: "{name}: bid or pass",
          Kind.SHEET: "{name} ({points}) scores", Kind.WHO_PASSED: "Who passed? +1", Kind.START: "Who starts?"}
RIGHTS = {Kind.TAKE: "U-3", Kind.TURN_IN: "U-6", Kind.WHO_PASSED: "U-11"}


class UndercutScreen(SessionScreen):
    """Every phase of an Undercut game (see the module docstring)."""

    def __init__(self, session: Session):
        super().__init__(session)
        self.list = ChoiceList()
        self.number = 0  # the tiebreak entry (U-13)

    # ------------------------------------------------------------ playing

    def do(self, app: "App", move: Move | str, *, pops: int = 0) -> None:
        """Play a move; on success close ``pops`` screens and report what the
        device did on its own. A refusal raises (the app shows the reason)."""
        n0 = len(self.session.fold.moves)
        self.session.play(move)
        for _ in range(pops):
            app.pop()
        for title, lines in reversed(reports(self.session, steps_since(self.session, n0))):
            app.push(Report(title, lines))

    def play(self, app: "App", move) -> None:  # SessionScreen API
        self.do(app, move)

    def after_undo(self, app: "App") -> None:
        self.list.reset()

    def menu_items(self, app: "App") -> list[Item]:
        items = [Item("Scores", lambda a: (a.pop(), a.push(ScoreScreen(self.session))))]
        if self.state.full:
            items.append(Item("Hands", lambda a: (a.pop(), a.push(hands_menu(self.session)))))
        return items

    def session_title(self) -> str:
        return f"Undercut #{self.session.id}"

    # ------------------------------------------------------------ rows of the decision

    def header(self, d: Decision | None = None) -> tuple[str, str]:
        st: UndercutState = self.state
        d = d or self.decision()
        if d.kind in (Kind.HAND_DRAW, Kind.STACK_DRAW, Kind.PASS_DRAW):
            draw = st.pending_draw() or {}
            size = SIZE_WORD[st.pending[0]]
            if d.kind == Kind.STACK_DRAW:
                return f"Stack {draw['stack']}: {size} drawn", ""
            left = draw["left"]
            more = f"{left} more" if d.kind == Kind.HAND_DRAW and left > 1 else ""
            return f"{st.players[draw['seat']]} drew {size}", more
        name = st.players[st.active] if st.players else ""
        title = TITLES.get(d.kind, "").format(name=name, points=st.points[st.active] if st.points else 0)
        right = RIGHTS.get(d.kind, f"R{st.round}" if d.kind in (Kind.SHEET, Kind.BID) else "")
        return title, right

    def item(self, o: Choice) -> Item:
        """A decision's option as a row; the auction's stacks are rows of their own (``rows``)."""
        st: UndercutState = self.state
        m = o.move

        def act(a: "App") -> None:
            self.do(a, m)
        if isinstance(m, Got):  # physical bag (U-15): only what the bag can still give
            return Item(f"{m.piece.color.value} {m.piece}", act, right=f"{st.bag.count(m.piece)} in bag")
        if isinstance(m, Take):
            return Item(o.label, act, right=f"{len(m.mix)} pcs")
        if isinstance(m, TurnIn):
            v = st.values[COMBOS.index(m.combo)]
            label = f"{COMBO_SHORT[m.combo]} {pcs(m.pieces)}" if st.full else m.combo
            return Item(label, act, right=f"+{v}")
        if isinstance(m, Done):
            return Item("Done: no combo", act)
        if isinstance(m, Pass) and m.seat is not None:
            return Item(o.label, act, right=str(st.points[m.seat]))
        return Item(o.label, act)

    def rows(self, d: Decision | None = None) -> list[Item]:
        st: UndercutState = self.state
        d = d or self.decision()
        if d.kind == Kind.BID:  # the stacks with their bids, then Pass: a stack opens the picker
            out = []
            for k, stack in enumerate(st.stacks):
                b = st.bids[k]
                right = "no bid" if b is None else f"{fit(st.players[b[0]], 3)} {bid_value(b[1])[0]}/{len(b[1])}"
                out.append(Item(f"{STACK_NAMES[k]} {pcs(stack)}", lambda a, k=k: self.open_bid(a, k), right=right))
            out.append(Item("Pass: +1, draw", self.ask_pass))
            return out
        options = list(d.options)
        if d.kind == Kind.SHEET:  # Done first: a stray OK scores nothing
            options = options[-1:] + options[:-1]
        elif d.is_chance and d.kind != Kind.START:  # physical bag (U-15): in the game's color order
            options.sort(key=lambda o: st.colors.index(o.move.piece.color))  # type: ignore[attr-defined]
        return [self.item(o) for o in options]

    def default_index(self, d: Decision, rows: list[Item]) -> int:
        st: UndercutState = self.state
        if d.kind == Kind.BID:
            missing = stacks_left_without_bid(st)
            return missing[0] if missing else len(rows) - 1
        if d.kind == Kind.WHO_PASSED:
            return st.start or 0
        if d.kind == Kind.TAKE:
            return next((i for i, r in enumerate(rows) if r.label == "L M S"), 0)
        return 0

    # ------------------------------------------------------------ auction actions

    def open_bid(self, app: "App", stack: int) -> None:
        app.push(BidPicker(self.state, stack, lambda a, bid: self.do(a, bid, pops=1)))

    def ask_pass(self, app: "App") -> None:
        st: UndercutState = self.state
        missing = stacks_left_without_bid(st)
        if missing:
            names = ", ".join(STACK_NAMES[k] for k in missing)
            app.message(f"U-11: every stack needs a bid before a pass. No bid on {names}.", title="Cannot pass")
            return
        sizes = st.bag.sizes_available()
        if not sizes:
            self.do(app, Pass())
            return
        choose(app, f"{fit(st.players[st.active], 6)}: +1, draw", [
            (f"{SIZE_WORD[s]:<7}{st.bag.count_size(s):>3} left", s) for s in sizes],
            lambda a, s: self.do(a, Pass(size=s)))

    # ------------------------------------------------------------ tiebreak (score sheet, U-13)

    def tiebreak_bounds(self, d: Decision) -> tuple[int, int]:
        vals = [m.pips if isinstance(m, HandPips) else m.count for m in d.moves]  # type: ignore[attr-defined]
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
        st: UndercutState = self.state
        d, rows = self.sync()
        if d.is_over:
            self.render_winner(c)
            return
        if d.kind in (Kind.HAND_PIPS, Kind.HAND_PIECES):
            self.render_tiebreak(c, d)
            return
        c.title(*self.header(d))
        n = ROWS
        footer = ""
        if d.kind == Kind.SHEET:
            n, footer = ROWS - 1, " ".join(f"{fit(p, 3)}:{s}" for p, s in zip(st.players, st.points))
        self.list.render(c, rows, 0, n)
        if d.kind == Kind.BID and len(rows) < ROWS:
            h = st.hands[st.active]
            footer = f"hand {h.pips()}p: {pcs(h)}"
        if footer:
            c.row(ROWS - 1, fit(footer, 21), x=1)

    def render_tiebreak(self, c: Canvas, d: Decision) -> None:
        st: UndercutState = self.state
        stage = "pips" if d.kind == Kind.HAND_PIPS else "pieces"
        c.title(f"{st.players[st.active]}: hand {stage}", "U-13")
        c.center(TITLE_H + 4, str(self.number), scale=3)
        c.text(2, TITLE_H + 12, "-")
        c.text(WIDTH - 8, TITLE_H + 12, "+")
        tied = ", ".join(fit(st.players[i], 5) for i in st.tied)
        c.text(1, 44, fit(f"tied on {st.points[st.tied[0]]}: {tied}", 21))
        c.text(1, 54, "fewest pips wins" if stage == "pips" else "pips tied: fewest pcs")

    def render_winner(self, c: Canvas) -> None:
        st: UndercutState = self.state
        shared = len(st.winners) > 1
        c.title("Shared win" if shared else "Winner", f"R{st.round}")
        name = winners_text(st)
        scale = 2 if len(name) * 12 <= WIDTH else 1
        c.center(TITLE_H + 2, name, scale=scale)
        c.text(1, TITLE_H + 20, fit(f"score {st.points[st.winners[0]]}, lowest wins", 21))
        short = {"tie on score broken by fewest pips in hand (U-13)": "tie: fewest pips",
                 "tie on score and pips broken by fewest pieces in hand (U-13)": "tie: fewest pieces",
                 "shared win: tied on score, pips and pieces (U-13)": "tied pips+pieces"}
        if st.tied:
            why = "U-13 " + short.get(st.detail, st.detail)
            tb = []
            for i in st.tied:
                pips = st.tb_pips[i] if st.tb_pips else st.hands[i].pips()
                cnt = st.tb_pieces[i] if st.tb_pieces else (len(st.hands[i]) if st.full else None)
                tb.append(f"{fit(st.players[i], 4)} {pips}p" + (f"/{cnt}pc" if cnt is not None else ""))
            line2 = " ".join(tb)
        else:
            why = "U-13: lowest score"
            line2 = " ".join(f"{fit(p, 4)} {s}" for p, s in zip(st.players, st.points))
        y = TITLE_H + 31
        for line in (wrap(why, 21)[:1] + [line2]):
            c.text(1, y, fit(line, 21))
            y += LINE_H

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


class BidPicker(Screen):
    """Pick the pieces of a bid on one stack (U-9).

    The first line is the bid to beat; the "Bid" row shows this bid's value
    and whether it is lower. OK on a piece adds one more of it (after all you
    hold: back to none) and brings the cursor back to the Bid row; OK there
    places the bid. The marker alone is the zero bid (U-9). BACK cancels.
    """

    def __init__(self, state: UndercutState, stack: int, on_bid: Callable[["App", Bid], Any]):
        st = self.state = state
        self.on_bid = on_bid
        self.stack = stack
        self.seat = st.active
        self.have = sorted(st.hands[st.active].items(), key=lambda pc: (pc[0].pips, str(pc[0])))
        self.chosen = [0] * len(self.have)
        self.list = ChoiceList()

    @property
    def index(self) -> int:
        return self.list.index

    @index.setter
    def index(self, value: int) -> None:
        self.list.index = value

    def pieces(self) -> tuple[Piece, ...]:
        return tuple(p for (p, _), k in zip(self.have, self.chosen) for _ in range(k))

    def verdict(self) -> tuple[bool, str]:
        beat = self.state.bid_to_beat(self.stack)
        v = bid_value(self.pieces())
        if beat is None:
            return True, "any"
        return (v < beat), ("lower" if v < beat else "too high")

    def render(self, c: Canvas) -> None:
        st = self.state
        c.title(f"{st.players[self.seat]}: bid on {STACK_NAMES[self.stack]}", "U-9")
        b = st.bids[self.stack]
        if b is None:
            beat = "beat: no bid yet"
        else:
            beat = f"beat: {value_short(bid_value(b[1]))} {st.players[b[0]]}"
        c.text(1, TITLE_H, fit(beat, 21))
        ok, word = self.verdict()
        mine = self.pieces()
        rows = [Item(f"Bid {value_short(bid_value(mine))}" if mine else "Bid marker only", right=word)]
        rows += [Item(f"{p} {SIZE_WORD[p.size]}", right=f"{k}/{n}") for (p, n), k in zip(self.have, self.chosen)]
        self.list.render(c, rows, 1, ROWS - 1)

    def on_key(self, key: Key, app: "App") -> None:
        n = len(self.have) + 1
        if key in (Key.UP, Key.DOWN):
            self.index = stepped(self.index, key, n)
        elif key in (Key.BACK, Key.LEFT):
            app.pop()
        elif key == Key.OK or key == Key.RIGHT:
            if self.index == 0:
                if key == Key.OK:
                    self.on_bid(app, Bid(self.stack, self.pieces()))
                return
            j = self.index - 1
            have = self.have[j][1]
            self.chosen[j] = (self.chosen[j] + 1) % (have + 1)
            if self.chosen[j]:
                self.index = 0
