"""Game records: JSON lines of a session's events, the same for every game.

The format is specified in ``docs/records.md`` (version ``RECORD_VERSION``).
In short::

    {"format": "pyramid-companion-record", "version": 1, "game": "bag_of_ice", "setup": {...}}
    {"seq": 1, "type": "move", "move": "roll"}
    {"seq": 2, "type": "move", "move": "face S/M"}
    {"seq": 3, "type": "undo", "undoes": 2}

A session is a fold of its events: ``move`` applies a move text to the
current state, ``undo`` takes back the latest move still in effect (and
names its ``seq`` as a check), ``end`` closes the session early.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Sequence

from .engine import Move, State
from .errors import CompanionError, IllegalMoveError, InvalidMoveError, RecordError, SetupError

FORMAT = "pyramid-companion-record"
RECORD_VERSION = 1
EVENT_TYPES = ("move", "undo", "end")


@dataclass(frozen=True)
class Event:
    """One event of a session: ``type`` is ``move``, ``undo`` or ``end``."""

    seq: int
    type: str
    data: dict[str, Any] = field(default_factory=dict)
    time: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": self.seq, "type": self.type, **self.data}
        if self.time is not None:
            out["time"] = self.time
        return out


class Played(NamedTuple):
    """A move in effect: its event's seq (``None`` for a forced move a
    replayed record left out, see ``replay``) and the ``Move`` applied."""

    seq: int | None
    move: Move

    @property
    def text(self) -> str:
        """The move's text form (what the journal and records hold)."""
        return str(self.move)


@dataclass
class Fold:
    """The running fold of a session's events: states after each effective move.

    ``states[0]`` is the start; ``states[-1]`` the current position. ``moves``
    holds a ``Played`` (seq, ``Move``) for every move in effect: ``moves[i]``
    was played in ``states[i]`` and led to ``states[i + 1]``; ``undone`` the
    seqs taken back (they stay in the history).
    """

    states: list[State]
    moves: list[Played] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)
    ended: bool = False

    @property
    def state(self) -> State:
        return self.states[-1]

    def copy(self) -> "Fold":
        """An independent fold at the same point (the states themselves are immutable)."""
        return Fold(list(self.states), list(self.moves), list(self.undone), self.ended)

    def apply(self, event: Event) -> None:
        """Fold one more event in; raises a ``CompanionError`` and changes nothing if it does not fit."""
        if self.ended:
            raise RecordError("event after the session ended")
        if event.type == "move":
            text = event.data.get("move")
            if not isinstance(text, str):
                raise RecordError("a move event needs a \"move\" text")
            state = self.state
            move = state.parse_move(text)
            new = state.apply(move)
            self.states.append(new)
            self.moves.append(Played(event.seq, move))
        elif event.type == "undo":
            if not self.moves:
                raise IllegalMoveError("nothing to undo")
            target = event.data.get("undoes")
            last_seq = self.moves[-1].seq
            # journal events all have a seq; replay() pops the implied moves (seq None) before an undo
            assert last_seq is not None
            if target is not None and target != last_seq:
                raise IllegalMoveError(
                    f"undo names event {target}, but the latest move in effect is event {last_seq}")
            self.moves.pop()
            self.states.pop()
            self.undone.append(last_seq)
        elif event.type == "end":
            self.ended = True
        else:
            raise RecordError(f"unknown event type {event.type!r} (known: {', '.join(EVENT_TYPES)})")


def new_state(game: str, setup: dict[str, Any]) -> State:
    from . import games
    return games.spec(game).new(setup)


def fold(game: str, setup: dict[str, Any], events: Iterable[Event]) -> Fold:
    f = Fold(states=[new_state(game, setup)])
    for e in events:
        f.apply(e)
    return f


# ---------------------------------------------------------------- files


@dataclass
class Record:
    game: str
    setup: dict[str, Any]
    events: list[Event]
    header: dict[str, Any] = field(default_factory=dict)
    lines: list[int] = field(default_factory=list)  # line number of each event
    header_line: int = 1  # line number of the header


def header_json(game: str, setup: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"format": FORMAT, "version": RECORD_VERSION, "game": game, "setup": setup, **extra}


def dumps(game: str, setup: dict[str, Any], events: Sequence[Event], **extra: Any) -> str:
    """A record as text: header line, then one line per event."""
    lines = [json.dumps(header_json(game, setup, **extra), sort_keys=False)]
    lines += [json.dumps(e.to_json()) for e in events]
    return "\n".join(lines) + "\n"


MAX_LINE = 1 << 20
"""A record line longer than this (1 MiB) is refused: no real event is that long."""
MAX_EVENTS = 1_000_000
"""Events per record at most (a long real game has a few thousand)."""


def _short(text: str, n: int = 200) -> str:
    """A text quoted in a message, cut so that a huge one is not echoed back whole."""
    return text if len(text) <= n else text[:n] + f"... ({len(text)} characters)"


def parse_lines(lines: Iterable[str]) -> Record:
    """Read a record; ``RecordError`` names the line of anything malformed."""
    header: dict[str, Any] | None = None
    header_line = 1
    events: list[Event] = []
    numbers: list[int] = []
    last_seq = 0
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if len(line) > MAX_LINE:
            raise RecordError(f"a line of {len(line)} characters: longer than any event (1 MiB)", n)
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise RecordError(f"not JSON ({e.msg})", n) from None
        except RecursionError:
            raise RecordError("not a record line: nested too deeply", n) from None
        except ValueError as e:  # e.g. an integer of more than 4,300 digits
            raise RecordError(f"not a record line: {_short(str(e), 80)}", n) from None
        if len(events) >= MAX_EVENTS:
            raise RecordError(f"more than {MAX_EVENTS} events: not a game record", n)
        if not isinstance(obj, dict):
            raise RecordError("each line must be a JSON object", n)
        if header is None:
            if obj.get("format") != FORMAT:
                raise RecordError(f"not a game record (first line needs \"format\": \"{FORMAT}\")", n)
            v = obj.get("version")
            if not isinstance(v, int) or isinstance(v, bool):  # JSON true is not a version (QA 5)
                raise RecordError("the header needs an integer \"version\"", n)
            if v < 1:
                raise RecordError(f"record version {v} does not exist: versions start at 1 "
                                  f"(this companion reads 1 to {RECORD_VERSION})", n)
            if v > RECORD_VERSION:
                raise RecordError(f"record version {v} is newer than this companion reads ({RECORD_VERSION})", n)
            if not isinstance(obj.get("game"), str):
                raise RecordError("the header needs a \"game\" name", n)
            if not isinstance(obj.get("setup", {}), dict):
                raise RecordError("\"setup\" must be an object", n)
            header = obj
            header_line = n
            continue
        typ = obj.get("type")
        if typ not in EVENT_TYPES:
            raise RecordError(f"unknown event type {typ!r} (known: {', '.join(EVENT_TYPES)})", n)
        seq = obj.get("seq", last_seq + 1)
        if not isinstance(seq, int) or isinstance(seq, bool) or seq <= last_seq:
            raise RecordError(f"\"seq\" must be an integer above {last_seq}", n)
        last_seq = seq
        data = {k: v for k, v in obj.items() if k not in ("seq", "type", "time")}
        time = obj.get("time")
        events.append(Event(seq, typ, data, time if isinstance(time, str) else None))
        numbers.append(n)
    if header is None:
        raise RecordError("empty record: no header line", 1)
    return Record(header["game"], header.get("setup", {}), events, header, numbers, header_line)


def _bounded_lines(f) -> Iterator[str]:
    """Lines of at most ``MAX_LINE`` + 1 characters: a file without line breaks (``/dev/zero``)
    is refused at its first line instead of being read into memory whole."""
    while True:
        line = f.readline(MAX_LINE + 1)
        if not line:
            return
        yield line


def read(path: str) -> Record:
    """A record file; every problem (a directory, a device, bad bytes...) is a ``RecordError``."""
    try:
        # utf-8-sig: a leading byte order mark (Notepad writes one) is skipped (QA 3 L4)
        with open(path, encoding="utf-8-sig") as f:
            return parse_lines(_bounded_lines(f))
    except UnicodeDecodeError:
        raise RecordError("the file is not UTF-8 text (a binary file?)", 1) from None
    except IsADirectoryError:
        raise RecordError("this is a directory, not a record file", 1) from None
    except FileNotFoundError:
        raise
    except OSError as e:
        raise RecordError(f"cannot read it: {e.strerror or e}", 1) from None


@dataclass
class ReplayResult:
    record: Record
    fold: Fold
    implied: list[dict[str, Any]] = field(default_factory=list)  # forced moves the record left out

    def to_json(self) -> dict[str, Any]:
        state = self.fold.state
        outcome = state.outcome()
        return {
            "ok": True,
            "format": FORMAT,
            "version": RECORD_VERSION,
            "game": self.record.game,
            "events": len(self.record.events),
            "moves_in_effect": len(self.fold.moves),
            "implied_moves": self.implied,
            "undone": self.fold.undone,
            "ended": self.fold.ended,
            "terminal": state.is_terminal(),
            "current_player": state.current_player,
            "scores": list(state.scores()),
            "outcome": outcome.to_json() if outcome else None,
            "state": state.to_json(),
        }


IMPLIED_LIMIT = 64  # forced moves in a row, at most (a guard; real games need a handful)


def _forced_steps(state: State) -> Iterator[tuple[str, State]]:
    """The forced moves (``State.forced_move``: U-6, BU-13) the device applies
    by itself from ``state``, one by one, with the state after each."""
    st = state
    for _ in range(IMPLIED_LIMIT):
        fm = st.forced_move()
        if fm is None:
            return
        st = st.apply(fm)
        yield str(fm), st


def _forced_chain(state: State, fits: Callable[[State], bool] | None) -> list[tuple[str, State]] | None:
    """The forced moves from ``state``: with ``fits``, the shortest chain after
    which ``fits`` holds, or None; without, the whole chain."""
    if fits is None:
        return list(_forced_steps(state))
    chains = _forced_chains(state, fits, first=True)
    return chains[0] if chains else None


def _forced_chains(state: State, fits: Callable[[State], bool], *, first: bool = False) -> list[list[tuple[str, State]]]:
    """Every chain of the forced moves from ``state`` (shortest first) after
    which ``fits`` holds: the readings of a record that left them out."""
    out: list[list[tuple[str, State]]] = []
    steps: list[tuple[str, State]] = []
    for step in _forced_steps(state):
        steps.append(step)
        if fits(step[1]):
            out.append(list(steps))
            if first:
                break
    return out


def _fits(text: str) -> Callable[[State], bool]:
    def check(st: State) -> bool:
        try:
            st.apply(st.parse_move(text))
        except (InvalidMoveError, IllegalMoveError):
            return False
        return True
    return check


REREAD_LIMIT = 10000
"""Events ``replay`` may fold again while it tries another reading of a record
that left forced moves out (a guard: real records need a handful)."""


def replay(record: Record) -> ReplayResult:
    """Fold a whole record; the first event that does not fit raises
    ``RecordError`` with its line number and the rules' reason.

    The device writes every move it applies by itself (a forced move: the
    only turn-in, U-6; a choice with one option, BU-13) into the journal. A
    record written by hand may leave such moves out: where an event fits only
    after them, and at the end of the record, they are applied as the device
    would and listed in ``implied_moves``; an undo takes the implied moves
    after the move it undoes with it, as the device's undo does.

    A move whose text is also that of the forced move in front of it reads
    two ways: that forced move itself, or the next decision's move with the
    forced move left out. The first reading is taken; when a later event
    then does not fit, the other is tried (and so on back), and the record
    is refused only when no reading fits, with the error of the reading that
    went furthest (the first one's, when none went further)."""
    try:
        f = Fold(states=[new_state(record.game, record.setup)])
    except SetupError as e:
        raise RecordError(f"bad setup: {e}", record.header_line) from None
    except (TypeError, ValueError, KeyError, AttributeError) as e:  # a value of the wrong kind
        raise RecordError(f"bad setup: {_short(str(e), 120)}", record.header_line) from None
    implied: list[dict[str, Any]] = []

    def add_implied(steps: list[tuple[str, State]], line: int) -> None:
        for text, st in steps:
            f.states.append(st)
            f.moves.append(Played(None, f.states[-2].parse_move(text)))  # no seq: not in the record
            implied.append({"before_line": line, "move": text})

    def snapshot() -> tuple[Fold, list[dict[str, Any]]]:
        return f.copy(), list(implied)

    # where another reading is left: (event index, the fold and implied moves before it, chains)
    readings: list[tuple[int, tuple[Fold, list[dict[str, Any]]], list[list[tuple[str, State]]]]] = []
    furthest: RecordError | None = None
    rereads = 0
    i = 0
    events = list(zip(record.events, record.lines))
    while i < len(events):
        event, line = events[i]
        try:
            if event.type == "undo":
                while f.moves and f.moves[-1].seq is None:  # implied moves go with the move they followed
                    f.moves.pop()
                    f.states.pop()
            text = event.data.get("move") if event.type == "move" else None
            chains = (_forced_chains(f.state, _fits(text))
                      if isinstance(text, str) and not f.ended and f.state.forced_move() is not None else [])
            before = snapshot() if chains else None
            try:
                f.apply(event)
            except (InvalidMoveError, IllegalMoveError) as e:
                if not chains:
                    raise RecordError(f"event {event.seq}: {_short(str(e), 300)}", line) from None
                add_implied(chains.pop(0), line)
                f.apply(event)
            if chains and before is not None:
                readings.append((i, before, chains))
            i += 1
        except RecordError as e:
            error = e if e.line == line else RecordError(e.reason, line)
        except CompanionError as e:
            error = RecordError(f"event {event.seq}: {_short(str(e), 300)}", line)
        else:
            continue
        if furthest is None or (error.line or 0) > (furthest.line or 0):
            furthest = error  # the reading that went furthest says what is wrong
        while readings and not readings[-1][2]:
            readings.pop()
        if not readings or rereads > REREAD_LIMIT:
            raise furthest
        k, (saved, saved_implied), chains = readings[-1]
        f, implied = saved.copy(), list(saved_implied)
        add_implied(chains.pop(0), events[k][1])
        f.apply(events[k][0])
        rereads += i - k + 1
        i = k + 1
    if not f.ended:
        add_implied(_forced_chain(f.state, None) or [], (record.lines[-1] + 1) if record.lines else record.header_line + 1)
    return ReplayResult(record, f, implied)


def iter_events(objs: Iterable[dict[str, Any]]) -> Iterator[Event]:
    for o in objs:
        yield Event(o["seq"], o["type"], {k: v for k, v in o.items() if k not in ("seq", "type", "time")},
                    o.get("time"))
