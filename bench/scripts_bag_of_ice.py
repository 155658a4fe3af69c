"""Bag of Ice key scripts for the benchmarks (see bench/scripts.py).

From a fresh main menu: New game, Bag of Ice, 3 players, the defaults
(target 60, virtual die and bag, roll-off), dismiss the roll-off; then
OK-heavy play: OK rolls and draws (and takes the smaller size on a two-size
face, and closes the bank summary or the bust screen), DOWN OK banks (or
takes the larger size), with a look at the scoreboard and the odds (hold OK)
and an undo (hold BACK, Yes) now and then.
"""
from bench.scripts import GAME_SCRIPTS

# the roll-off page (7 lines with the bench's generator) takes two OKs: its end, then closed
START = ["ok", "down", "ok", "ok", "ok", "ok", "ok", "ok"]
STRETCH = (["ok"] * 5 + ["down", "ok"] + ["ok"] * 4 + ["right", "ok", "ok", "left"]
           + ["hold-ok", "release"] + ["ok"] * 3 + ["down", "ok", "hold-back", "ok"])

# The power-cut harness (bench/powercut_bag_of_ice.py): from the main menu to
# a new game, then these keys in a loop.
POWERCUT_START = "ok,down,ok,ok,ok,ok"
POWERCUT_PLAY = ["ok"] * 6 + ["down", "ok"] + ["ok"] * 3 + ["right", "ok", "hold-back", "ok"]


def bag_of_ice_keys(quick: bool) -> list[str]:
    return START + STRETCH * (2 if quick else 10) + ["back", "ok", "ok", "back"]


GAME_SCRIPTS["bag_of_ice"] = bag_of_ice_keys
