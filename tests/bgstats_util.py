"""Finished games of the three games, played to their end in a journal with a clock
that moves one minute per event, so dates and durations are known (for the BG Stats play, the chart, the players)."""
from __future__ import annotations

import random

from companion.journal import Journal
from companion.session import Session

SETUPS = {
    "undercut": {"players": ["Ann", "Bob", "Cy"], "level": "full"},
    "bag_of_ice": {"players": ["Ann", "Bob", "Cy"], "target": 20, "die": "virtual"},
    "bottoms_up": {"players": ["Ann", "Bob", "Cy", "Dee"], "secret": "device", "stash": 1},
}


def minute_clock(start_hour: int = 20):
    n = iter(range(10**6))

    def now() -> str:
        k = next(n)
        return f"2026-05-01T{start_hour + k // 60:02d}:{k % 60:02d}:00.000+00:00"
    return now


def play_to_end(journal: Journal, game: str, seed: int = 1, setup: dict | None = None,
                moves: int = -1) -> Session:
    """A game of ``game`` with random legal moves: to its end (``moves=-1``) or ``moves`` presses in."""
    s = Session.start(journal, game, dict(setup or SETUPS[game]), random.Random(seed))
    return play_on(s, seed, moves)


def play_on(s: Session, seed: int = 1, moves: int = -1) -> Session:
    """``s`` played on with random legal moves: to its end (``moves=-1``) or ``moves`` presses."""
    rng = random.Random(seed)
    n = 0
    while not s.finished and not s.state.is_terminal() and moves != n:
        legal = list(s.state.legal_moves())
        banks = [m for m in legal if str(m).startswith("bank")]  # Bag of Ice: a bank now and then
        if banks and rng.random() < 0.5:
            legal = banks
        s.play(rng.choice(legal))
        n += 1
    return s
