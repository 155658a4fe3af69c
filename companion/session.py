"""A session: one game (or tool) being played, backed by the journal.

``Session.play`` checks a move against the current state (pure), makes the
event durable in the journal, and only then folds it in: an event is on disk
before any screen confirms it, and a move the rules refuse or the disk cannot
record changes nothing.

Chance outcomes are picked by the session's injected ``random.Random`` when
the setup says the device draws (virtual die/bag); otherwise the table enters
them like any other move.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from .engine import Move, State, pick_chance
from .errors import IllegalMoveError
from .journal import Journal
from .records import Event, Fold, Played, dumps, new_state, seat_of

# Setup keys whose value "physical" means the table, not the device, draws.
PHYSICAL_KEYS = ("bag", "die", "secret")


def device_draws(setup: dict[str, Any]) -> bool:
    """True unless the setup says the table draws physically (U-15, B-8, BU-3)."""
    return not any(setup.get(k) == "physical" for k in PHYSICAL_KEYS)


@dataclass
class HistoryLine:
    seq: int
    text: str
    line: str
    undone: bool
    time: str | None


class Session:
    """A journal-backed fold of one session's events."""

    def __init__(self, journal: Journal, session_id: int, game: str, setup: dict[str, Any],
                 rng: random.Random, events: list[Event] | None = None):
        self.journal = journal
        self.id = session_id
        self.number = journal.number(session_id)  # what the table sees: "#3" (issue 34)
        self.game = game
        self.setup = setup
        self.rng = rng
        self.auto_chance = device_draws(setup)
        self.fold = Fold(states=[new_state(game, setup)])
        self.events: list[Event] = []
        # history(): lines described so far, and the re-fold that describes them
        self._lines: list[HistoryLine] = []
        self._line_stack: list[State] | None = None
        self._lines_upto = 0
        # the device's chance outcomes taken back by an undo, by the position they were
        # drawn in: drawn again there, the same comes out (``_device_steps``)
        self._redraw: dict[State, Move] = {}
        for e in events or ():
            self._fold_event(e)

    # ------------------------------------------------------------ opening

    @classmethod
    def start(cls, journal: Journal, game: str, setup: dict[str, Any], rng: random.Random) -> "Session":
        new_state(game, setup)  # validate before anything is written (SetupError)
        sid = journal.start_session(game, setup)
        s = cls(journal, sid, game, setup, rng)
        s.advance()
        return s

    @classmethod
    def resume(cls, journal: Journal, session_id: int, rng: random.Random) -> "Session":
        info = journal.session(session_id)
        return cls(journal, session_id, info.game, info.setup, rng, journal.events(session_id))

    # ------------------------------------------------------------ state

    @property
    def state(self) -> State:
        return self.fold.state

    @property
    def ended(self) -> bool:
        return self.fold.ended

    @property
    def finished(self) -> bool:
        return self.fold.ended or self.state.is_terminal()

    def waiting_for_device(self, state: State | None = None) -> bool:
        """The position waits on something the app resolves alone."""
        st = state or self.state
        return (st.is_chance_node() and self.auto_chance) or st.forced_move() is not None

    # ------------------------------------------------------------ playing

    def play(self, move: Move | str) -> State:
        """Check and apply one move, then what the device resolves alone
        (virtual draws, forced moves); all of it is made durable in one
        transaction before the new state is taken. Refused: nothing changes."""
        if self.fold.ended:
            raise IllegalMoveError("this session has ended")
        st = self.state
        m = st.parse_move(move) if isinstance(move, str) else move
        new = st.apply(m)  # raises and changes nothing if illegal
        self._commit([(m, new)] + self._device_steps(new))
        return self.state

    def advance(self) -> None:
        """Apply device-resolved steps from the current position, if any."""
        steps = self._device_steps(self.state)
        if steps:
            self._commit(steps)

    def _device_steps(self, st: State, limit: int = 10_000) -> list[tuple[Move, State]]:
        """The virtual chance outcomes and forced moves that follow ``st`` (pure
        but for the injected generator's picks)."""
        out: list[tuple[Move, State]] = []
        for _ in range(limit):
            if st.is_terminal():
                break
            if st.is_chance_node() and self.auto_chance:
                # an undo fixes a wrong press, it never re-rolls: a roll or draw taken back
                # comes out the same when the same position draws again (a bust stays a bust)
                m = self._redraw.get(st) or pick_chance(st, self.rng)
            elif (fm := st.forced_move()) is not None:
                m = fm
            else:
                break
            st = st.apply(m)
            out.append((m, st))
        return out

    @property
    def last_seq(self) -> int:
        """The seq of this copy's latest event (the session id before any)."""
        return self.events[-1].seq if self.events else self.id

    def _commit(self, steps: list[tuple[Move, State]]) -> None:
        # Durable first; refused (StaleSessionError) if another copy of this
        # session wrote since this one was opened: its state would be stale.
        # every move says who made it: the seat to act before it (docs/records.md), forced
        # moves included; a chance outcome is nobody's and has no "seat"
        items: list[tuple[str, dict[str, Any]]] = []
        before = self.state
        for m, after in steps:
            seat = seat_of(before)
            items.append(("move", {"move": str(m)} if seat is None else {"move": str(m), "seat": seat}))
            before = after
        events = self.journal.append_many(self.id, items, after=self.last_seq)
        for event, (move, state) in zip(events, steps):
            self._redraw.pop(self.fold.states[-1], None)  # drawn again: no longer taken back
            self.fold.states.append(state)
            self.fold.moves.append(Played(event.seq, move))
            self.events.append(event)

    def undo(self) -> list[int]:
        """Undo the last player decision: every chance outcome and forced move
        after it, and the decision itself, in one durable transaction.
        Returns the undone seqs (they stay in the history)."""
        if not self.fold.moves:
            raise IllegalMoveError("nothing to undo")
        n = self.undo_span()
        targets: list[int] = []
        for p in reversed(self.fold.moves[-n:]):
            assert p.seq is not None  # a session folds its journal's events: every move has a seq
            targets.append(p.seq)
        events = self.journal.append_many(self.id, [("undo", {"undoes": t}) for t in targets], after=self.last_seq)
        for e in events:
            self._fold_event(e)
        self.advance()  # only does something back at the very start (e.g. a random start pick)
        return targets

    def _fold_event(self, e: Event) -> None:
        """Fold one journal event in (at resume and after an undo), keeping the
        device's outcomes an undo took back (``_redraw``): the same walk at
        resume as in play, so a resumed session draws as the running one would."""
        if self.auto_chance:
            if e.type == "move":
                self._redraw.pop(self.fold.states[-1], None)
            elif e.type == "undo" and self.fold.moves:
                before = self.fold.states[-2]
                if before.is_chance_node():
                    self._redraw[before] = self.fold.moves[-1].move
        self.fold.apply(e)
        self.events.append(e)

    def undo_span(self) -> int:
        """How many live moves an undo takes back: the last player decision and
        every chance outcome and forced move after it (0 at the start)."""
        n = 0
        states = self.fold.states
        while n < len(self.fold.moves):
            n += 1
            before = states[-1 - n]
            if not self.waiting_for_device(before) or len(states) - 1 - n == 0:
                break
        return n

    def undo_names_decision(self) -> bool:
        """Whether the undo question should name the player decision first:
        the undo goes back before a decision the device played on from
        (draws, forced moves). A decision followed by its one chance outcome
        (a die roll, a draw) is said by that outcome alone."""
        span = self.undo_span()
        return span > 2 or (span == 2 and not self.fold.states[-2].is_chance_node())

    def undo_first_line(self, describe: "Callable[[State, Move], str] | None" = None) -> str | None:
        """The player decision an undo takes back (the first of ``undo_span``
        moves), described in its position as ``last_line`` does; None at the start."""
        return self._line(self.undo_span(), describe)

    def end(self, reason: str = "closed") -> None:
        if not self.fold.ended:
            e = self.journal.append(self.id, "end", {"reason": reason}, after=self.last_seq)
            self.fold.apply(e)
            self.events.append(e)

    # ------------------------------------------------------------ history

    def history(self, describe: "Callable[[State, Move], str] | None" = None) -> list[HistoryLine]:
        """Every move ever played, undone ones marked, described in context.

        Each move is described in the position it was played in (a re-fold of
        the events, undone ones included). ``describe(state, move)`` words the
        lines (the screens' language); default: the engine's ``describe``,
        whose lines are kept, so a call costs only the events since the last.
        """
        undone = set(self.fold.undone)
        if describe is not None:
            stack = [new_state(self.game, self.setup)]
            return [HistoryLine(e.seq, e.data["move"], describe(st, m), e.seq in undone, e.time)
                    for st, m, e in _in_context(self.events, stack)]
        if self._line_stack is None:
            self._line_stack = [new_state(self.game, self.setup)]
        for st, m, e in _in_context(self.events[self._lines_upto:], self._line_stack):
            # a move the device played for the player says so (U-6, U-14, BU-13)
            line = st.describe_forced(m) if st.forced_move() == m else st.describe(m)
            self._lines.append(HistoryLine(e.seq, e.data["move"], line, False, e.time))
        self._lines_upto = len(self.events)
        return [HistoryLine(h.seq, h.text, h.line, h.seq in undone, h.time) for h in self._lines]

    def last_line(self, describe: "Callable[[State, Move], str] | None" = None) -> str | None:
        """The live move an undo would reach first, described in its position
        (what the undo prompt shows; ``describe`` as for ``history``), or None
        at the start. Constant time."""
        return self._line(1, describe)

    def _line(self, k: int, describe: "Callable[[State, Move], str] | None") -> str | None:
        """The ``k``-th live move from the end, described in its position; None if there is none."""
        if not 0 < k <= len(self.fold.moves):
            return None
        before, move = self.fold.states[-1 - k], self.fold.moves[-k].move
        return describe(before, move) if describe is not None else before.describe(move)

    def record_text(self) -> str:
        """This session as a game record (docs/records.md)."""
        info = self.journal.session(self.id)
        return dumps(self.game, self.setup, self.events, session=info.number, created=info.created)


def _in_context(events: list[Event], stack: list[State]) -> "Iterator[tuple[State, Move, Event]]":
    """Each move event with the position it was played in, undone ones included;
    ``stack`` holds the live positions and is advanced (undo events pop it)."""
    for e in events:
        if e.type == "move":
            st = stack[-1]
            m = st.parse_move(e.data["move"])
            yield st, m, e
            stack.append(st.apply(m))
        elif e.type == "undo":
            stack.pop()
