"""Bottoms Up key scripts for the benchmarks (see bench/scripts.py).

From a fresh main menu: New game, Bottoms Up, 4 players, the device draws
the secret colors (each player holds OK to see theirs, BU-3); then OK-heavy
play: at every screen OK does the common thing (the first color and size
left, on A; the first option of a blue or yellow choice; close the turn's
result: OK shows the end of a long one, OK again closes it), a medium now and
then (RIGHT on a color), a look at the field view (BACK closes it) and an undo
(hold BACK, Yes).
"""
from bench.scripts import GAME_SCRIPTS

START = ["ok", "down", "down", "ok", "ok", "ok", "ok"]
TOUR = ["hold-ok", "release"] * 4 + ["ok"]
STRETCH = (["ok"] * 12 + ["right", "ok", "ok", "ok", "ok"] + ["back", "down", "ok", "down", "back"]
           + ["ok"] * 6 + ["hold-back", "ok"])  # the field view: the session menu's second entry


def bottoms_up_keys(quick: bool) -> list[str]:
    return START + TOUR + STRETCH * (2 if quick else 10) + ["back", "down", "down", "down", "ok", "ok", "back"]


GAME_SCRIPTS["bottoms_up"] = bottoms_up_keys
