"""Undercut in the power-cut harness (bench/powercut.py): both tracking
levels (U-14). A full-table game with the virtual bag, and a score-sheet
game (turn-ins, passes), each played with OK-heavy keys and an undo now and
then."""
from bench.powercut import register

START = "ok,ok,ok,ok,ok"
PLAY = ["ok"] * 10 + ["right", "ok", "hold-back", "ok"]

# Level "score" is the second value of the options screen's first row.
SHEET_START = "ok,ok,ok,ok,down,right,up,ok"
SHEET_PLAY = ["ok"] * 6 + ["down", "ok", "ok", "ok"] + ["down", "down", "ok"] + ["hold-back", "ok"]

register("undercut", START, PLAY)
register("undercut-sheet", SHEET_START, SHEET_PLAY)
