"""Engine fuzz through the journal: hypothesis stateful tests, one
machine per game, playing random legal moves, random illegal ones and undos
on a journal-backed ``Session``.

After every step:
* an illegal move raised its precise error (``InvalidMoveError``,
  ``IllegalMoveError`` or ``AmbiguousMoveError``, all ``ValueError``) and
  changed neither the state nor the journal;
* the game's conservation invariant holds (U-14: 75 Undercut pieces; B-1/B-7:
  21 Bag of Ice pieces in bag + drawn; Bottoms Up: stash + field + destroyed
  = the set);
* a fresh replay of the journal gives exactly the session's state.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from companion.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from companion.journal import Journal
from companion.pieces import Bag
from companion.session import Session

REFUSALS = (InvalidMoveError, IllegalMoveError, AmbiguousMoveError)
GARBAGE = ["", " ", "xyzzy", "bid", "bid ZZ kL", "got", "got qL", "place", "place rS on", "undo", "pass 0",
           "face X", "size", "start -1", "start 99", "roll roll", "bank 3", "\u00e9", "take", "done done"]


def _undercut_census(s) -> bool:
    from companion.games.undercut import DEFAULT_COLORS
    return s.level != "full" or s.piece_census() == Bag.full_sets(DEFAULT_COLORS, 5)  # U-14


def _boi_census(s) -> bool:
    return len(s.bag) + len(s.drawn) == 21  # B-1, B-7


def _bu_census(s, total: int) -> bool:
    return len(s.stash) + sum(len(g.slots) for g in s.groups) + len(s.destroyed) == total


class SessionFuzz(RuleBasedStateMachine):
    """Subclasses set ``game``, an ``@initialize`` rule ``start`` calling
    ``_start(setup, seed)``, and ``conserved(state)``."""

    game = ""

    def __init__(self) -> None:
        super().__init__()
        self.journal = Journal(":memory:")
        self.session: Session | None = None
        self.seen: set[str] = set(GARBAGE)  # move texts met so far: illegal later, most of them

    def conserved(self, state) -> bool:
        raise NotImplementedError

    def _start(self, setup, seed) -> None:
        self.session = Session.start(self.journal, self.game, setup, random.Random(seed))

    @property
    def playing(self) -> bool:
        return self.session is not None and not self.session.finished

    @precondition(lambda self: self.playing)
    @rule(i=st.integers(0, 10**6))
    def legal(self, i):
        st_ = self.session.state
        moves = st_.legal_moves()
        assert moves, "a live position with no legal move"
        m = moves[i % len(moves)]
        assert st_.parse_move(str(m)) == m  # the text form round-trips
        self.seen.update(str(x) for x in moves)
        self.session.play(m)

    @precondition(lambda self: self.session is not None)
    @rule(i=st.integers(0, 10**6))
    def illegal(self, i):
        s = self.session
        legal = {str(m) for m in s.state.legal_moves()} if not s.state.is_terminal() else set()
        pool = sorted(self.seen - legal)
        text = pool[i % len(pool)]
        before, n = s.state.to_json(), self.journal.count()
        try:
            s.play(text)
        except REFUSALS:
            assert s.state.to_json() == before, f"refused {text!r} but the state changed"
            assert self.journal.count() == n, f"refused {text!r} but the journal grew"

    @precondition(lambda self: self.session is not None and bool(self.session.fold.moves))
    @rule()
    def undo(self):
        self.session.undo()

    @invariant()
    def conservation_holds(self):
        if self.session is not None:
            assert self.conserved(self.session.state)

    @invariant()
    def journal_replays_to_the_same_state(self):
        if self.session is not None:
            again = Session.resume(self.journal, self.session.id, random.Random(0))
            assert again.state.to_json() == self.session.state.to_json()

    def teardown(self):
        self.journal.close()


NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


class UndercutFuzz(SessionFuzz):
    game = "undercut"

    @initialize(setup=st.builds(
        lambda n, level, bag, start: {"players": NAMES[:n], "level": level, "bag": bag, "start": start},
        st.integers(3, 5), st.sampled_from(["full", "score"]), st.sampled_from(["virtual", "physical"]),
        st.sampled_from([0, 1, "random"])), seed=st.integers(0, 2**32 - 1))
    def start(self, setup, seed):
        self._start(setup, seed)

    def conserved(self, state):
        return _undercut_census(state)


class BagOfIceFuzz(SessionFuzz):
    game = "bag_of_ice"

    @initialize(setup=st.builds(
        lambda n, src, start, target: {"players": NAMES[:n], "die": src, "bag": src, "start": start,
                                       "target": target},
        st.integers(1, 6), st.sampled_from(["virtual", "physical"]), st.sampled_from([0, "random", "rolloff"]),
        st.sampled_from([10, 60])), seed=st.integers(0, 2**32 - 1))
    def start(self, setup, seed):
        self._start(setup, seed)

    def conserved(self, state):
        return _boi_census(state)


class BottomsUpFuzz(SessionFuzz):
    game = "bottoms_up"

    @initialize(setup=st.builds(
        lambda n, per, secret: {"players": NAMES[:n], "stash": per, "secret": secret},
        st.integers(2, 6), st.sampled_from([1, 2]), st.sampled_from(["device", "physical"])),
        seed=st.integers(0, 2**32 - 1))
    def start(self, setup, seed):
        self.total = 18 * setup["stash"]
        self._start(setup, seed)

    def conserved(self, state):
        return _bu_census(state, self.total)


FUZZ = settings(max_examples=25, stateful_step_count=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

TestUndercutFuzz = UndercutFuzz.TestCase
TestUndercutFuzz.settings = FUZZ
TestBagOfIceFuzz = BagOfIceFuzz.TestCase
TestBagOfIceFuzz.settings = FUZZ
TestBottomsUpFuzz = BottomsUpFuzz.TestCase
TestBottomsUpFuzz.settings = FUZZ
