"""Write the golden Bottoms Up playthroughs (full 90-piece games, 4 and 6 players).

    .venv/bin/python tests/golden/bottoms_up/make_golden.py

Seeded random play through the engine: chance outcomes by ``pick_chance``,
player moves at random among the legal ones; after six choices in one turn
the active player sends a yellow piece to open space (ending the cascade,
BU-9). The records are in the record format of docs/records.md.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from companion import records  # noqa: E402
from companion.engine import pick_chance  # noqa: E402
from companion.games.bottoms_up import new_game  # noqa: E402

HERE = Path(__file__).resolve().parent
GAMES = {
    "full-4p.jsonl": ({"players": ["Ann", "Bob", "Cat", "Dan"]}, 4),
    "full-6p.jsonl": ({"players": ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"], "lone_pieces_count": True}, 6),
}


def play(setup: dict, seed: int) -> list[str]:
    rng = random.Random(seed)
    s = new_game(setup)
    moves: list[str] = []
    in_turn = 0
    while not s.is_terminal():
        if s.is_chance_node():
            m = pick_chance(s, rng)
        elif s.pending is not None and s.pending.kind == "yellow" and in_turn >= 6:
            m = s.pending.options[-1]  # yellow open
        else:
            m = rng.choice(s.legal_moves())
        s = s.apply(m)
        moves.append(str(m))
        in_turn = in_turn + 1 if s.pending is not None else 0
    return moves


def main() -> None:
    for name, (setup, seed) in GAMES.items():
        moves = play(setup, seed)
        events = [records.Event(i, "move", {"move": m}) for i, m in enumerate(moves, 1)]
        (HERE / name).write_text(records.dumps("bottoms_up", setup, events), encoding="utf-8")
        print(name, len(moves), "moves")


if __name__ == "__main__":
    main()
