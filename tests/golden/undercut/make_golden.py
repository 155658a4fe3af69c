"""Regenerate the Undercut golden playthroughs (full-table level, 3, 4, 5 players).

    .venv/bin/python tests/golden/undercut/make_golden.py

A seeded driver: chance outcomes through ``pick_chance`` with a seeded
``random.Random``, players choose at random (passing with some probability
once every stack has a bid). Each move event carries an extra ``"player"``
key (the seat that acted, -1 for a chance outcome); replay ignores it, the
golden test uses it for its independent recount of the scores.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from companion.engine import pick_chance  # noqa: E402
from companion.games import spec  # noqa: E402
from companion.games.undercut import Pass  # noqa: E402
from companion.records import Event, dumps  # noqa: E402

GAMES = {
    "full-3p.jsonl": (3, {"players": ["Ann", "Bob", "Cat"], "level": "full", "bag": "virtual", "start": 0}),
    "full-4p.jsonl": (4, {"players": ["Ann", "Bob", "Cat", "Dan"], "level": "full", "bag": "physical",
                          "start": 2}),
    "full-5p.jsonl": (5, {"players": ["Ann", "Bob", "Cat", "Dan", "Eve"], "level": "full",
                          "bag": "virtual", "start": "random",
                          "colors": ["red", "yellow", "green", "blue", "white"]}),
}


def play(seed: int, setup: dict) -> list[Event]:
    rng = random.Random(seed)
    s = spec("undercut").new(setup)
    events: list[Event] = []
    while not s.is_terminal():
        who = s.current_player
        if s.is_chance_node():
            m = pick_chance(s, rng)
        else:
            moves = s.legal_moves()
            passes = [m for m in moves if isinstance(m, Pass)]
            if passes and rng.random() < 0.35:
                m = rng.choice(passes)
            else:
                m = rng.choice([m for m in moves if not isinstance(m, Pass)] or passes)
        s = s.apply(m)
        events.append(Event(len(events) + 1, "move", {"move": str(m), "player": who}))
    return events


def main() -> None:
    here = Path(__file__).parent
    for name, (seed, setup) in GAMES.items():
        text = dumps("undercut", setup, play(seed, setup))
        (here / name).write_text(text, encoding="utf-8")
        print(name, len(text.splitlines()) - 1, "events")


if __name__ == "__main__":
    main()
