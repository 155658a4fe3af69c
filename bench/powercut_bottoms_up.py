"""Bottoms Up in the power-cut harness (bench/powercut.py): 4 players, the
device's secret colors, OK-heavy play (keys of bench/scripts_bottoms_up.py)."""
from bench.powercut import register
from bench.scripts_bottoms_up import START as _START, TOUR

START = ",".join(_START)
PLAY = TOUR + ["ok"] * 10 + ["right", "ok", "back", "ok", "ok", "hold-back", "ok"]

register("bottoms_up", START, PLAY)
