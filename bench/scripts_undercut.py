"""Undercut key scripts for the benchmarks (see bench/scripts.py).

From a fresh main menu: New game, Undercut, 4 players, full table, virtual
bag; then OK-heavy play: at every screen OK does the common thing (take LMS,
dismiss the tray note, open the first stack without a bid and bid the
marker, pass with the first size, pick the first turn-in), with an undo
(hold BACK, Yes) now and then, and a look at the score screen.

The game is over during the third stretch (a score of 10, U-12), so the
full run plays three: a script pressing on after the end would measure a
finished game's screens, not play (tests/test_bench_scripts.py).
"""
from bench.scripts import GAME_SCRIPTS

START = ["ok", "ok", "ok", "ok", "ok"]
STRETCH = ["ok"] * 12 + ["right", "ok"] + ["ok"] * 6 + ["hold-back", "ok"]


def undercut_keys(quick: bool) -> list[str]:
    return START + STRETCH * (2 if quick else 3) + ["back", "down", "ok", "ok", "back"]


GAME_SCRIPTS["undercut"] = undercut_keys
