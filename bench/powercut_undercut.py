"""Undercut in the power-cut harness (bench/powercut.py): a full-table game
with the virtual bag, played with OK-heavy keys and an undo now and then."""
import sys

from bench.powercut import register

START = "ok,ok,ok,ok,ok"
PLAY = ["ok"] * 10 + ["right", "ok", "hold-back", "down", "ok", "ok"]

register("undercut", START, PLAY)
# Run as ``python -m bench.powercut`` the harness is ``__main__``, a module
# apart from the ``bench.powercut`` imported above: register there too.
_main = sys.modules.get("__main__")
if getattr(getattr(_main, "__spec__", None), "name", None) == "bench.powercut":
    _main.register("undercut", START, PLAY)
