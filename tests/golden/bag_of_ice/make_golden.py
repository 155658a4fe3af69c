"""Write the golden Bag of Ice playthrough (3 players, roll-off start, target 60).

    .venv/bin/python tests/golden/bag_of_ice/make_golden.py

Seeded play through the engine: chance outcomes by ``pick_chance``; Ann
follows the B-9 hint (and its size choice), Bob banks once his turn is worth
12 or more, Cat rolls at random (banks with chance 1/3) and picks sizes at
random. The record is in the record format of docs/records.md.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from companion import records  # noqa: E402
from companion.engine import pick_chance  # noqa: E402
from companion.games.bag_of_ice import Bank, PickSize, Roll, new_game  # noqa: E402
from companion.games.boi_odds import advice_for  # noqa: E402

HERE = Path(__file__).resolve().parent
GAMES = {
    "game-3p.jsonl": ({"players": ["Ann", "Bob", "Cat"], "start": "rolloff"}, 11),
}


def choose(s, rng: random.Random):
    seat = s.current_player
    if s.phase == "size":
        if seat == 0:
            return PickSize(advice_for(s).size_choice[s.face])
        return rng.choice(s.legal_moves())
    if seat == 0:
        return Roll() if advice_for(s).hint == "draw" else Bank()
    if seat == 1:
        return Bank() if s.turn_score() >= 12 else Roll()
    return Bank() if rng.random() < 1 / 3 else Roll()


def play(setup: dict, seed: int) -> list[str]:
    rng = random.Random(seed)
    s = new_game(setup)
    moves: list[str] = []
    while not s.is_terminal():
        m = pick_chance(s, rng) if s.is_chance_node() else choose(s, rng)
        s = s.apply(m)
        moves.append(str(m))
    return moves


def main() -> None:
    for name, (setup, seed) in GAMES.items():
        moves = play(setup, seed)
        events = [records.Event(i, "move", {"move": m}) for i, m in enumerate(moves, 1)]
        (HERE / name).write_text(records.dumps("bag_of_ice", setup, events), encoding="utf-8")
        print(name, len(moves), "moves")


if __name__ == "__main__":
    main()
