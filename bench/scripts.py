"""Key scripts for the benchmarks: from a fresh main menu through each kind of session.

Each game adds its scripts in its own module ``bench/scripts_<game>.py``,
which sets ``GAME_SCRIPTS[name] = function(quick) -> list of key names``
(keys as in ``companion sim --keys``) when imported.
"""
from __future__ import annotations

import importlib
import pkgutil

TOOL_SCRIPTS = {
    "die": ["down", "ok", "ok"] + ["ok"] * 30 + ["hold-back", "ok"] + ["ok"] * 10 + ["back"],
    "bag": ["down", "ok", "down", "ok", "ok"] + ["ok", "ok", "down", "ok", "down", "ok", "ok", "down", "down", "ok", "ok"] * 6,
    "menus": ["down", "down", "ok", "back", "down", "down", "down", "ok", "down", "down", "up", "ok", "back",
              "back", "up", "ok", "ok", "back", "ok", "down", "down", "back"],
}
GAME_SCRIPTS: dict = {}


def _load_games() -> None:
    import bench
    for m in pkgutil.iter_modules(bench.__path__):
        if m.name.startswith("scripts_"):
            importlib.import_module(f"bench.{m.name}")


def all_scripts(quick: bool) -> list[list[str]]:
    _load_games()
    out = [keys for keys in TOOL_SCRIPTS.values()]
    for fn in GAME_SCRIPTS.values():
        out.append(fn(quick))
    return out


def long_session_events(n: int) -> tuple[str, dict, list[str]]:
    """A game of n move events for the resume benchmark: Bag of Ice, 12
    players, a target far away, each turn banked at 12 points or more (or
    bust); the die faces and draws picked by a seeded generator."""
    import random

    from companion.engine import pick_chance
    from companion.games import spec
    from companion.games.bag_of_ice import MAX_TARGET
    rng = random.Random(4)
    setup = {"players": [f"P{i + 1}" for i in range(12)], "target": MAX_TARGET}
    st = spec("bag_of_ice").new(setup)
    moves: list[str] = []
    while len(moves) < n:
        if st.is_terminal():
            raise ValueError(f"the game ended after {len(moves)} events")
        if st.is_chance_node():
            m = pick_chance(st, rng)
        else:
            by_text = {str(x): x for x in st.legal_moves()}
            want = "bank" if st.turn_score() >= 12 else "roll"
            m = by_text.get(want) or by_text.get("roll") or rng.choice(list(by_text.values()))
        st = st.apply(m)
        moves.append(str(m))
    return "bag_of_ice", setup, moves
