"""Key scripts for the benchmarks: from a fresh main menu through each kind of session.

Each game adds its scripts in its own module ``bench/scripts_<game>.py``,
which sets ``GAME_SCRIPTS[name] = function(quick) -> list of key names``
(keys as in ``companion sim --keys``) when imported.
"""
from __future__ import annotations

import importlib
import pkgutil

TOOL_SCRIPTS = {
    "die": ["down", "ok", "ok"] + ["ok"] * 30 + ["hold-back", "down", "ok", "ok"] + ["ok"] * 10 + ["back"],
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
    """A session of n move events for the resume benchmark (a long die session)."""
    faces = ["S", "M", "L", "S/M", "S/L", "M/L"]
    moves: list[str] = []
    i = 0
    while len(moves) < n:
        moves += ["roll", f"face {faces[i % 6]}"]
        i += 1
    return "die", {}, moves[:n - (n % 2)]
