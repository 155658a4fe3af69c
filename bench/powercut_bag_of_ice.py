"""Bag of Ice in the power-cut harness (bench/powercut.py): a virtual game
played with OK-heavy keys, banks and an undo now and then
(keys: bench/scripts_bag_of_ice.py)."""
from bench.powercut import register
from bench.scripts_bag_of_ice import POWERCUT_PLAY, POWERCUT_START

register("bag_of_ice", POWERCUT_START, POWERCUT_PLAY)
