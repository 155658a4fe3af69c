"""Exports of a session beyond its JSON record: scores per turn as CSV, a PNG
score sheet, and the one-line summaries the History screen and the serial
console list.

Everything here is generic over ``State``: a session is folded (records.Fold)
and ``state.scores()`` is read after each move in effect. Player names come
from the state's ``players`` attribute when it is a sequence of names (or of
objects with a ``name``), else from ``setup["players"]`` when that is a list
of names, else ``P1..Pn``. Pure: no file is read or written here (the caller
decides where bytes go).
"""
from __future__ import annotations

import dataclasses

import csv
import io
import os
import re
import tempfile
import weakref
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Sequence

from PIL import Image, ImageDraw, ImageFont

from . import plugins
from . import chart as _chart
from . import games
from .engine import CHANCE, Move, State
from .errors import CompanionError
from .names import seated_apart, short_names
from .records import Event, Fold, new_state
from .words.titles import title_of

__all__ = [
    "GameSummary", "ScoreRow", "chart_of", "game_over", "is_hidden", "player_names", "score_rows", "scores_csv",
    "secrets_before_the_end", "summarize", "summaries", "session_summary", "score_sheet", "sheet_lines",
]


def _names_from(value: Any, n: int) -> list[str] | None:
    if not isinstance(value, (list, tuple)) or len(value) != n or not value:
        return None
    out = []
    for v in value:
        name = v if isinstance(v, str) else getattr(v, "name", None)
        if not isinstance(name, str):
            return None
        out.append(name)
    return out


def player_names(state: State, setup: dict[str, Any] | None = None, n: int | None = None) -> list[str]:
    """One name per seat (``n`` seats, default ``len(state.scores())``)."""
    if n is None:
        n = len(state.scores())
    return (_names_from(getattr(state, "players", None), n)
            or _names_from((setup or {}).get("players"), n)
            or [f"P{i + 1}" for i in range(n)])


def _clean(text: str) -> str:
    """No line breaks in a CSV field or a table cell (one row is one line)."""
    return " ".join(str(text).split())


# ---------------------------------------------------------------- scores per turn


@dataclass(frozen=True)
class ScoreRow:
    """The scores after a move that changed them."""

    turn: int              # the turn (Undercut: round) it was played in (State.turn_number), else the row's number
    seq: int | None        # the move event's seq in the journal / record (None: a move a record implied)
    player: str            # who made it: a name, "chance" or "" (no seat)
    move: str              # the move's text form
    description: str       # the move described in its position
    scores: tuple[int, ...]


def _seat_name(state: State, move: Move, names: Sequence[str]) -> str:
    """Who a row is credited to (``State.credited_seat``): a name, "chance" or ""."""
    p = state.credited_seat(move)
    if p is None:
        return "chance" if state.current_player == CHANCE else ""
    return names[p] if 0 <= p < len(names) else ""


def score_rows(fold: Fold) -> list[ScoreRow]:
    """One row per move in effect that changed a score or ended a turn
    (``State.turns_completed``; a Bag of Ice bust scores 0 but is a turn),
    with the running totals after it."""
    rows: list[ScoreRow] = []
    states = fold.states
    names = player_names(states[-1])
    last = tuple(states[0].scores())
    last_turns = states[0].turns_completed()
    for i, (seq, move) in enumerate(fold.moves, 1):
        before, after = states[i - 1], states[i]
        sc = tuple(after.scores())
        turns = after.turns_completed()
        if sc != last or turns != last_turns:
            desc = before.describe(move)
            end = after.describe_end() if after.is_terminal() and not before.is_terminal() else None
            if end:  # Bottoms Up scores at the end: the row says so, not that the last move scored
                desc = f"{desc}; {end}"
            # numbered by the turn (or round) it happened in, not by move
            turn = before.turn_number()
            rows.append(ScoreRow(turn if turn is not None else len(rows) + 1, seq,
                                 _seat_name(before, move, names), str(move), _clean(desc), sc))
        last, last_turns = sc, turns
    return rows


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(text: str) -> str:
    """A text cell that no spreadsheet runs (OWASP, CSV injection): one that
    starts with ``= + - @``, a tab or a carriage return gets a ``'`` in front,
    which spreadsheets show as text and do not evaluate (issue 38: a player
    named ``=1+1`` or ``@SUM(A1)`` on the device's keyboard). The name stays
    readable; numbers are written as numbers, untouched."""
    text = _clean(text)
    return "'" + text if text.startswith(FORMULA_START) else text


def scores_csv(fold: Fold, setup: dict[str, Any] | None = None) -> str:
    """CSV (RFC 4180, ``\\r\\n`` rows): ``turn,seq,player,move,description``
    then one column per player (named by the header) with the running score.
    The first column is named by what it counts (``State.turn_unit``): ``round``
    in Undercut, ``turn`` in the other games. Every text cell goes through
    ``csv_cell`` (no formula runs when a spreadsheet opens it)."""
    state = fold.state
    names = player_names(state, setup)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow([state.turn_unit(), "seq", "player", "move", "description", *[csv_cell(n) for n in names]])
    for r in score_rows(fold):
        w.writerow([r.turn, r.seq, csv_cell(r.player), csv_cell(r.move), csv_cell(r.description), *r.scores])
    return out.getvalue()


# ---------------------------------------------------------------- summaries


@dataclass(frozen=True)
class GameSummary:
    """One session in a line: what the History screen and ``games`` show."""

    id: int
    game: str
    title: str
    created: str
    players: tuple[str, ...]
    scores: tuple[int, ...]
    finished: bool          # over by the rules, or ended by the players
    ended: bool             # closed with an ``end`` event
    winners: tuple[str, ...]
    termination: str | None
    moves: int
    detail: str = ""        # the outcome's detail (e.g. a ruling that decided it)
    error: str = ""         # the session could not be folded (e.g. a game missing in this version)
    fold: Fold | None = field(default=None, compare=False, repr=False)
    number: int = 0         # what the table sees, "#3" (``Journal.number``; 0: not known, the id is shown)

    @property
    def shown(self) -> int:
        """The session's number as the device, ``history`` and the exports show it ("#3")."""
        return self.number or self.id

    @property
    def date(self) -> str:
        """``YYYY-MM-DD HH:MM`` (UTC, as the journal stores it)."""
        return self.created[:16].replace("T", " ")

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "number": self.shown, "game": self.game, "title": self.title,
                "created": self.created, "players": list(self.players), "scores": list(self.scores),
                "finished": self.finished, "ended": self.ended, "winners": list(self.winners), "termination": self.termination,
                "moves": self.moves, "detail": self.detail, **({"error": self.error} if self.error else {})}

    def result_text(self) -> str:
        if self.error:
            return "unreadable"
        if self.winners:
            return "won by " + ", ".join(self.winners)
        if self.finished:
            return "ended"
        return "open"


def summarize(session_id: int, game: str, setup: dict[str, Any], created: str,
              events: Sequence[Event], *, number: int = 0) -> GameSummary:
    """``number``: the session's number as the table sees it (``Journal.number``)."""
    title = title_of(game, translated=False)
    try:
        f = Fold(states=[new_state(game, setup)])
        for e in events:
            f.apply(e)
    except CompanionError as e:
        names = setup.get("players")
        players = tuple(n for n in names if isinstance(n, str)) if isinstance(names, list) else ()
        return GameSummary(session_id, game, title, created, players, (), False,
                           any(e.type == "end" for e in events), (), None, 0, error=str(e), number=number)
    state = f.state
    scores = tuple(state.scores())
    if scores:
        names = player_names(state, setup)
    else:  # no scores (a tool): names only if the session has some
        raw = getattr(state, "players", None)
        names = (_names_from(raw, len(raw)) if isinstance(raw, (list, tuple)) else None) or \
            (_names_from(setup.get("players"), len(setup["players"]))
             if isinstance(setup.get("players"), list) else None) or []
    oc = state.outcome()
    winners = tuple(names[w] for w in oc.winners if 0 <= w < len(names)) if oc else ()
    return GameSummary(session_id, game, title, created, tuple(names), scores,
                       f.ended or state.is_terminal(), f.ended, winners,
                       oc.termination.value if oc else None, len(f.moves),
                       detail=oc.detail if oc else "", fold=f, number=number)


def is_hidden(game: str, event: Event) -> bool:
    """A move event that is hidden information of ``game`` while it is not over (V-1):
    its plug-in's ``hidden_move`` (a Bottoms Up secret color, BU-3)."""
    plug = plugins.of(game)
    return event.type == "move" and plug is not None and plug.hidden_move(event.data.get("move"))


def game_over(fold: Fold | None) -> bool:
    """The game of these events has ended: by its rules, or by an ``end`` event among
    them (not one past a damage: the game goes on in the session that continues it)."""
    return fold is not None and (fold.ended or fold.state.is_terminal())


def secrets_before_the_end(summary: GameSummary, events: Sequence[Event]) -> int:
    """How many hidden moves (a Bottoms Up secret color, BU-3) a record of ``events``
    would show while the game is not over (RULINGS V-1: such an export needs an explicit
    flag); 0 once it has ended. The CSV and the PNG sheet never hold one: a hidden move
    scores nothing, so it is no row."""
    return 0 if game_over(summary.fold) else sum(is_hidden(summary.game, e) for e in events)


def chart_of(summary: GameSummary) -> "_chart.Chart | None":
    """The chart of a game that is over (by its rules or ended by the players), from
    its score rows (the CSV's): ``None`` for a game still being played (RULINGS V-1: at
    the end only), an unreadable one or one without scores (a tool)."""
    fold = summary.fold
    if summary.error or fold is None or not summary.scores or not game_over(fold):
        return None
    try:
        lowest = games.spec(summary.game).lowest_wins
    except CompanionError:  # pragma: no cover - it folded, so it is known
        lowest = False
    names = list(summary.players)
    winners = [names.index(w) for w in summary.winners if w in names]
    return _chart.build(fold.state.turn_unit(), names, tuple(fold.states[0].scores()),
                        [(r.turn, r.scores) for r in score_rows(fold)], lowest, winners)


_CACHE: "weakref.WeakKeyDictionary[Any, dict]" = weakref.WeakKeyDictionary()


def session_summary(journal, info) -> GameSummary:
    """The summary of one ``SessionInfo``, cached per journal until the session changes."""
    try:
        cache = _CACHE.setdefault(journal, {})
    except TypeError:  # not weak-referenceable: no cache
        cache = {}
    key = (info.id, info.events, info.last_time, info.number)
    hit = cache.get(info.id)
    if hit is not None and hit[0] == key:
        return hit[1]
    s = summarize(info.id, info.game, info.setup, info.created, journal.events(info.id), number=info.number)
    if info.ended and not s.ended:
        # an end event the replay does not reach: a damaged session the device continued
        # as a new one (its end lies past the damage). It is over: never offered to resume
        s = dataclasses.replace(s, ended=True, finished=True)
    cache[info.id] = (key, s)
    return s


def summaries(journal) -> list[GameSummary]:
    """Every session of the journal, newest first."""
    return [session_summary(journal, info) for info in journal.sessions()]


@dataclass(frozen=True)
class NameTotals:
    name: str
    games: int
    wins: int


def name_totals(items: Sequence[GameSummary]) -> list[NameTotals]:
    """Per player name: finished games played and won (most wins first, then name).
    Only sessions finished by the rules (with a result) count."""
    games: dict[str, int] = {}
    wins: dict[str, int] = {}
    for s in items:
        if s.error or s.termination is None:
            continue
        for n in set(s.players):
            games[n] = games.get(n, 0) + 1
        for n in set(s.winners):
            wins[n] = wins.get(n, 0) + 1
    return sorted((NameTotals(n, g, wins.get(n, 0)) for n, g in games.items()),
                  key=lambda t: (-t.wins, -t.games, t.name.lower()))


# ---------------------------------------------------------------- PNG score sheet

SHEET_WIDTH = 800
MOVE_MIN_W = 196  # pixels the move column keeps on a PNG sheet, however many players (5 keep columns of 100)
SCORE_MIN_W = 64  # the narrowest score column (a name on two lines, a 3-digit score)
MAX_SHEET_ROWS = 60


def sheet_lines(summary: GameSummary) -> dict[str, Any]:
    """What the score sheet shows, as data (the drawing only lays it out)."""
    fold = summary.fold
    rows = score_rows(fold) if fold is not None else []
    names = list(summary.players) if summary.scores else []
    shown = rows[-MAX_SHEET_ROWS:]
    return {
        "title": f"{summary.title}  #{summary.shown}",
        "subtitle": f"{summary.date} UTC  -  {summary.moves} moves",
        "header": ["#", "move", *names],
        "rows": [[str(r.turn), (r.player + ": " if r.player and r.player != "chance"
                                and r.player not in r.description else "") + r.description,
                  *[str(v) for v in r.scores]] for r in shown],
        "skipped": len(rows) - len(shown),
        "totals": ["", "total", *[str(v) for v in summary.scores]],
        "result": ((f"Winner: {', '.join(summary.winners)}" if summary.winners
                    else "Finished" if summary.finished else "Not finished")
                   # a dash, not parentheses: a detail cites its ruling in its own "(U-13)" (QA 3 L8)
                   + (f" - {summary.detail}" if summary.detail else "")),
        "winners": [names.index(w) for w in summary.winners if w in names],
    }


SHEET_FONTS = ("DejaVuSans.ttf", "FreeSans.ttf", "LiberationSans-Regular.ttf")
"""Fonts with the accented Latin, Greek and Cyrillic letters of names, tried in order
(Pillow finds them in the system's font folders: fonts-dejavu-core on Debian and
Raspberry Pi OS); Pillow's own font has no accented letter (Chloé drew as Chlo□)."""


@lru_cache(maxsize=None)
def _font(size: int):  # cached: a system font is looked up by walking the font folders
    for name in SHEET_FONTS:
        try:
            return ImageFont.truetype(name, size)
        except (OSError, ImportError):
            continue
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError, ImportError):  # Pillow without FreeType: the bitmap font
        return ImageFont.load_default()


def _clip(d, text: str, font, width: float) -> str:
    """``text`` cut with ``~`` to fit ``width`` pixels in ``font``."""
    if d.textlength(text, font=font) <= width:
        return text
    while text and d.textlength(text + "~", font=font) > width:
        text = text[:-1]
    return text + "~"


MAX_MOVE_LINES = 4


def _wrap(d, text: str, font, width: float, max_lines: int = MAX_MOVE_LINES) -> list[str]:
    """``text`` on lines of at most ``width`` pixels in ``font``, broken between
    words (a word too long for a line is broken in it); past ``max_lines``
    the last line is cut with ``~``."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if d.textlength(trial, font=font) <= width:
            line = trial
            continue
        if line:
            lines.append(line)
        while d.textlength(word, font=font) > width and len(word) > 1:
            k = len(word) - 1
            while k > 1 and d.textlength(word[:k], font=font) > width:
                k -= 1
            lines.append(word[:k])
            word = word[k:]
        line = word
    if line or not lines:
        lines.append(line)
    if len(lines) > max_lines:
        lines = lines[:max_lines - 1] + [_clip(d, " ".join(lines[max_lines - 1:]), font, width)]
    return lines


def _name_lines(d, name: str, font, width: float) -> list[str] | None:
    """A player's name on one line, else on two broken after a space or a
    hyphen ("Élodie-" / "Marie"); ``None`` when it does not fit so."""
    if d.textlength(name, font=font) <= width:
        return [name]
    for k in range(len(name) - 1, 0, -1):
        if name[k - 1] in " -":
            first, second = name[:k].rstrip(), name[k:].lstrip()
            if first and second and all(d.textlength(x, font=font) <= width for x in (first, second)):
                return [first, second]
    return None


def _header_names(d, names: Sequence[str], width: float) -> tuple[Any, list[list[str]]]:
    """The players' names over their columns, all in one size: the largest in
    which every one fits whole (on up to two lines); else the smallest, with
    the names shortened alike and distinct (``short_names``)."""
    for size in (20, 18, 16, 14, 13):
        font = _font(size)
        lines = [_name_lines(d, n, font, width) for n in names]
        if all(x is not None for x in lines):
            return font, [x for x in lines if x is not None]
    font = _font(13)
    # else shortened alike and distinct (names.short_names), as on the screens, never cut to a "~"
    for k in range(max(map(len, names), default=1), 0, -1):
        short = short_names(list(names), k)
        lines = [_name_lines(d, n, font, width) for n in short]
        if all(x is not None for x in lines):
            return font, [x for x in lines if x is not None]
    return font, [[_clip(d, n, font, width)] for n in names]


def _drawable(font) -> Callable[[str], bool]:
    """Whether ``font`` has a character: its mask differs from that of one no font has."""
    def mask(ch: str) -> tuple[tuple[int, int], bytes]:
        m = font.getmask(ch)
        return m.size, bytes(m)
    none = mask("\U0010fffd")

    def drawable(ch: str) -> bool:
        return ch.isspace() or mask(ch) != none
    return drawable


def _seated(data: dict[str, Any], players: Sequence[str], font) -> dict[str, Any]:
    """The sheet's texts with a seat's number after each name that would draw like
    another in ``font`` ("李华 (1)", "王芳 (2)": the font lacks both, issue 34)."""
    apart = dict(zip(players, seated_apart(players, _drawable(font))))
    apart = {n: a for n, a in apart.items() if n != a}
    if not apart:
        return data
    pattern = re.compile("|".join(re.escape(n) for n in sorted(apart, key=len, reverse=True)))

    def mark(v: Any) -> Any:
        if isinstance(v, str):
            return pattern.sub(lambda m: apart[m.group(0)], v)
        if isinstance(v, list):
            return [mark(x) for x in v]
        return v
    return {k: mark(v) for k, v in data.items()}


def score_sheet(summary: GameSummary, width: int = SHEET_WIDTH):
    """A white PNG-ready RGB image: title, players, one row per score change
    (what happened wrapped on up to four lines, so the combo turned in is
    read whole), totals (the winners' column marked) and the result. The
    players' names head their columns in one size: the largest all of them
    fit in."""
    big, mid, small = _font(30), _font(20), _font(18)
    data = _seated(sheet_lines(summary), summary.players, small)
    pad, row_h, line_h = 24, 30, 22
    n_players = len(data["header"]) - 2
    # the move keeps room to be read (MOVE_MIN_W): more players narrow the score columns
    # (to SCORE_MIN_W), then widen the sheet (Bag of Ice seats up to 12, B-3)
    col_w = min(100, max(SCORE_MIN_W, (width - 2 * pad - 56 - MOVE_MIN_W) // n_players)) if n_players else 0
    width = max(width, 2 * pad + 56 + MOVE_MIN_W + col_w * n_players)
    x_turn, x_move = pad, pad + 56
    x_scores = width - pad - col_w * n_players
    move_w = max(80, x_scores - x_move - 8)
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    head, head_lines = _header_names(measure, data["header"][2:], col_w - 12)
    head_h = row_h + (getattr(head, "size", 14) + 3) * (max(map(len, head_lines), default=1) - 1)
    wrapped = [_wrap(measure, cells[1], small, move_w) for cells in data["rows"]]
    heights = [row_h + line_h * (len(w) - 1) for w in wrapped]
    body = sum(heights) + (row_h if data["skipped"] else 0)
    chart = chart_of(summary)
    chart_h = _chart.png_height(chart) + 24 if chart is not None else 0
    height = pad + 44 + 30 + 16 + head_h + row_h + body + 16 + 40 + chart_h + pad
    img = Image.new("RGB", (width, height), "white")
    d = ImageDraw.Draw(img)
    ink, grey, mark = (20, 20, 20), (110, 110, 110), (255, 236, 150)
    y = pad
    d.text((pad, y), data["title"], font=big, fill=ink)
    y += 44
    d.text((pad, y), data["subtitle"], font=small, fill=grey)
    y += 30 + 16

    def line(cells: list[str], y: int, font, fill=ink, *, move: list[str] | None = None) -> None:
        d.text((x_turn, y), cells[0], font=font, fill=fill)
        for k, text in enumerate(move if move is not None else [_clip(d, cells[1], font, move_w)]):
            d.text((x_move, y + line_h * k), text, font=font, fill=fill)
        for i, v in enumerate(cells[2:]):  # a value stays in its column
            right = x_scores + col_w * (i + 1) - 10
            v = _clip(d, v, font, col_w - 14)
            d.text((right - d.textlength(v, font=font), y), v, font=font, fill=fill)

    for i in data["winners"]:
        d.rectangle((x_scores + col_w * i, y - 4, x_scores + col_w * (i + 1) - 2,
                     y + head_h + row_h + body + 2), fill=mark)
    line(data["header"][:2], y, mid)
    step = getattr(head, "size", 14) + 3
    for i, name in enumerate(head_lines):  # the names, one size, right-aligned over their scores
        right = x_scores + col_w * (i + 1) - 10
        for k, text in enumerate(name):
            d.text((right - d.textlength(text, font=head), y + step * k + 2), text, font=head, fill=ink)
    y += head_h
    d.line((pad, y - 4, width - pad, y - 4), fill=ink, width=2)
    if data["skipped"]:
        line(["", f"... {data['skipped']} earlier changes", *[""] * n_players], y, small, grey)
        y += row_h
    for k, (cells, move, h) in enumerate(zip(data["rows"], wrapped, heights)):
        if k % 2:
            d.rectangle((pad, y - 3, x_scores - 4, y + h - 6), fill=(240, 240, 240))
        line(cells, y, small, move=move)
        y += h
    d.line((pad, y - 4, width - pad, y - 4), fill=ink, width=2)
    line(data["totals"], y, mid)
    y += row_h + 16
    d.text((pad, y), data["result"], font=mid, fill=ink)
    y += 40 + 24
    if chart is not None:  # the game as a picture: each player's score over the turns (issue 50)
        _chart.draw(d, chart, (pad, y, width - pad, y + _chart.png_height(chart)), mid, small)
    return img


def score_sheet_png(summary: GameSummary) -> bytes:
    buf = io.BytesIO()
    score_sheet(summary).save(buf, format="PNG")
    return buf.getvalue()


def write_atomic(path: str, data: str | bytes) -> None:
    """Write ``data`` to ``path`` all or nothing (issue 14, F9): a temporary
    file beside it, fsync, rename into place, fsync the folder. ``OSError``
    if it cannot; an existing file is then left as it was."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass
