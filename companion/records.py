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

from . import games
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
            check_seat(state, event.data)
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


def seat_of(state: State) -> int | None:
    """The ``"seat"`` a move event made in ``state`` carries: the seat to act
    (``current_player``, 0-based), or ``None`` at a chance node or once the game is over
    (nobody's seat: the device or the table enters a chance outcome)."""
    p = state.current_player
    return p if p >= 0 else None


def _seat_name(state: State, seat: int) -> str:
    players = getattr(state, "players", None)
    if isinstance(players, (tuple, list)) and 0 <= seat < len(players) and isinstance(players[seat], str):
        return f"seat {seat} ({players[seat]})"
    return f"seat {seat}"


def check_seat(state: State, data: dict[str, Any]) -> None:
    """Refuse a move event whose ``"seat"`` is not the seat to act in ``state``
    (``IllegalMoveError``, with who is to act); an event without ``"seat"`` passes.
    Once the game is over the move itself is refused with the rules' reason."""
    if "seat" not in data:
        return
    seat = data["seat"]
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise RecordError(f"\"seat\" must be a seat number (0-based), not {_short(json.dumps(seat), 40)}")
    to_act = state.current_player
    if to_act == seat or state.is_terminal():
        return
    if to_act < 0:
        raise IllegalMoveError(f"the move is marked {_seat_name(state, seat)}, but it is a chance outcome "
                               "(a draw or a roll): no seat makes it, so it carries no \"seat\"")
    raise IllegalMoveError(f"the move is marked {_seat_name(state, seat)}, but {_seat_name(state, to_act)} "
                           "is to act")


def new_state(game: str, setup: dict[str, Any]) -> State:
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
    ambiguous: list[dict[str, Any]] = field(default_factory=list)  # lines that fit another reading too
    ambiguous_complete: bool = True  # every other reading was tried (within REREAD_LIMIT)

    def to_json(self) -> dict[str, Any]:
        """The replay's JSON object (docs/records.md, "Replay output")."""
        return {
            "ok": True,
            "format": FORMAT,
            "version": RECORD_VERSION,
            "game": self.record.game,
            "events": len(self.record.events),
            "moves_in_effect": len(self.fold.moves),
            "implied_moves": self.implied,
            "ambiguous": self.ambiguous,
            "ambiguous_complete": self.ambiguous_complete,
            "undone": self.fold.undone,
            "ended": self.fold.ended,
            **_result_json(self.fold.state),
            "state": self.fold.state.to_json(),
        }


def _result_json(state: State) -> dict[str, Any]:
    outcome = state.outcome()
    return {
        "terminal": state.is_terminal(),
        "current_player": state.current_player,
        "scores": list(state.scores()),
        "outcome": outcome.to_json() if outcome else None,
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


def _forced_chains(state: State, fits: Callable[[State], bool]) -> list[list[tuple[str, State]]]:
    """Every chain of the forced moves from ``state`` (shortest first) after
    which ``fits`` holds: the readings of a record that left them out."""
    out: list[list[tuple[str, State]]] = []
    steps: list[tuple[str, State]] = []
    for step in _forced_steps(state):
        steps.append(step)
        if fits(step[1]):
            out.append(list(steps))
    return out


def _fits(event: Event) -> Callable[[State], bool]:
    """Whether ``event`` (a move) can be applied in a state: its text is a legal
    move there and its ``"seat"``, if it has one, is the seat to act."""
    text = event.data.get("move")

    def check(st: State) -> bool:
        try:
            check_seat(st, event.data)
            st.apply(st.parse_move(str(text)))
        except (InvalidMoveError, IllegalMoveError, RecordError):
            return False
        return True
    return check


REREAD_LIMIT = 10000
"""Events ``replay`` may fold again while it tries other readings of a record
that left forced moves out (a guard: real records need a handful)."""


@dataclass
class _Choice:
    """A move event that reads more than one way: folded at event index ``k``
    from ``before`` (the fold and implied moves in front of it), with the forced
    moves of ``taken`` left out in front of it, and ``others`` still to try."""

    k: int
    before: tuple[Fold, list[dict[str, Any]]]
    taken: list[tuple[str, State]]
    others: list[list[tuple[str, State]]]


class _Replay:
    """The fold of one record with its readings (see ``replay``)."""

    def __init__(self, record: Record):
        self.record = record
        self.events = list(zip(record.events, record.lines))
        self.rereads = 0

    def run(self, f: Fold, implied: list[dict[str, Any]], i: int,
            choices: list[_Choice]) -> tuple[Fold, list[dict[str, Any]]]:
        """Fold the events from index ``i`` on, trying the other readings of the
        move events in ``choices`` (and of those met on the way) when an event
        does not fit; returns the fold and implied moves of the first reading
        that fits every event, and leaves in ``choices`` the events that read
        another way too, with their readings not tried. Raises the
        ``RecordError`` of the reading that went furthest if none fits."""
        events = self.events
        furthest: RecordError | None = None
        while i < len(events):
            event, line = events[i]
            try:
                if event.type == "undo":
                    while f.moves and f.moves[-1].seq is None:  # implied moves go with the move they followed
                        f.moves.pop()
                        f.states.pop()
                text = event.data.get("move") if event.type == "move" else None
                chains = (_forced_chains(f.state, _fits(event))
                          if isinstance(text, str) and not f.ended and f.state.forced_move() is not None else [])
                before = (f.copy(), list(implied)) if chains else None
                taken: list[tuple[str, State]] = []
                try:
                    f.apply(event)
                except (InvalidMoveError, IllegalMoveError) as e:
                    if not chains:
                        raise RecordError(f"event {event.seq}: {_short(str(e), 300)}", line) from None
                    taken = chains.pop(0)
                    _add_implied(f, implied, taken, line)
                    f.apply(event)
                if chains and before is not None:
                    choices.append(_Choice(i, before, taken, chains))
                i += 1
            except RecordError as e:
                error = e if e.line == line else RecordError(e.reason, line)
            except CompanionError as e:
                error = RecordError(f"event {event.seq}: {_short(str(e), 300)}", line)
            else:
                continue
            if furthest is None or (error.line or 0) > (furthest.line or 0):
                furthest = error  # the reading that went furthest says what is wrong
            while choices and not choices[-1].others:
                choices.pop()
            if not choices or self.rereads > REREAD_LIMIT:
                raise furthest
            c = choices[-1]
            f, implied = c.before[0].copy(), list(c.before[1])
            c.taken = c.others.pop(0)
            _add_implied(f, implied, c.taken, events[c.k][1])
            f.apply(events[c.k][0])
            self.rereads += i - c.k + 1
            i = c.k + 1
        return f, implied

    def finish(self, f: Fold, implied: list[dict[str, Any]]) -> None:
        """The forced moves at the end of the record (the device never stops in front of one)."""
        if not f.ended:
            rec = self.record
            line = (rec.lines[-1] + 1) if rec.lines else rec.header_line + 1
            _add_implied(f, implied, list(_forced_steps(f.state)), line)

    def other_readings(self, choices: list[_Choice], f: Fold) -> tuple[list[dict[str, Any]], bool]:
        """The move events of ``choices`` where another reading fits the whole
        record too: ``[{"line", "move", "readings"}]``, the taken reading first;
        and whether every reading was tried (False: ``REREAD_LIMIT`` ran out)."""
        out: list[dict[str, Any]] = []
        for c in choices:
            event, line = self.events[c.k]
            fitting = []
            for chain in c.others:
                if self.rereads > REREAD_LIMIT:
                    return out, False
                g, implied = c.before[0].copy(), list(c.before[1])
                _add_implied(g, implied, chain, line)
                try:
                    g.apply(event)
                    self.rereads += len(self.events) - c.k
                    g, implied = self.run(g, implied, c.k + 1, [])
                except CompanionError:
                    continue
                self.finish(g, implied)
                fitting.append(_reading(c.before[0], chain, g))
            if fitting:
                out.append({"line": line, "move": event.data.get("move"),
                            "readings": [_reading(c.before[0], c.taken, f), *fitting]})
        return out, True


def _add_implied(f: Fold, implied: list[dict[str, Any]], steps: list[tuple[str, State]], line: int) -> None:
    for text, st in steps:
        f.states.append(st)
        f.moves.append(Played(None, f.states[-2].parse_move(text)))  # no seq: not in the record
        implied.append({"before_line": line, "move": text})


def _reading(before: Fold, chain: list[tuple[str, State]], end: Fold) -> dict[str, Any]:
    """One reading of a move event: the forced moves it leaves out in front of
    it, the seat it is then read as made by, and where the whole record ends."""
    at = chain[-1][1] if chain else before.state
    return {"left_out": [text for text, _ in chain], "seat": seat_of(at), **_result_json(end.state)}


def replay(record: Record) -> ReplayResult:
    """Fold a whole record; the first event that does not fit raises
    ``RecordError`` with its line number and the rules' reason.

    A move event with a ``"seat"`` must be made by the seat to act, else it
    is refused with who is to act (``check_seat``).

    The device writes every move it applies by itself (a forced move: the
    only turn-in, U-6; a choice with one option, BU-13) into the journal. A
    record written by hand may leave such moves out: where an event fits only
    after them, and at the end of the record, they are applied as the device
    would and listed in ``implied_moves``; an undo takes the implied moves
    after the move it undoes with it, as the device's undo does.

    A move whose text is also that of the forced move in front of it reads
    two ways: that forced move itself, or the next decision's move with the
    forced move left out. Its ``"seat"``, where given, decides. Without one,
    the first reading (fewest moves left out) is taken; when a later event
    then does not fit, the other is tried (and so on back), and the record
    is refused only when no reading fits, with the error of the reading that
    went furthest (the first one's, when none went further). Where another
    reading fits the whole record too, ``ambiguous`` in the result lists the
    line and every reading that fits (docs/records.md)."""
    try:
        f = Fold(states=[new_state(record.game, record.setup)])
    except SetupError as e:
        raise RecordError(f"bad setup: {e}", record.header_line) from None
    except (TypeError, ValueError, KeyError, AttributeError) as e:  # a value of the wrong kind
        raise RecordError(f"bad setup: {_short(str(e), 120)}", record.header_line) from None
    r = _Replay(record)
    choices: list[_Choice] = []
    f, implied = r.run(f, [], 0, choices)
    r.finish(f, implied)
    ambiguous, complete = r.other_readings([c for c in choices if c.others], f)
    return ReplayResult(record, f, implied, ambiguous, complete)


def iter_events(objs: Iterable[dict[str, Any]]) -> Iterator[Event]:
    for o in objs:
        yield Event(o["seq"], o["type"], {k: v for k, v in o.items() if k not in ("seq", "type", "time")},
                    o.get("time"))
