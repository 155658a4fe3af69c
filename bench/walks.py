"""The walks the measures share (issue 40): the scripted UI events on fresh
apps (``ui_events``, ``scripted_keys``) and ``percentile``. ``bench/__main__``,
``pixel``, ``rss`` and ``web`` import them from here; none imports
``__main__`` back.
"""
from __future__ import annotations

import os
import random
import tempfile

from bench.scripts import all_scripts
from companion.config import Settings
from companion.io import Key
from companion.journal import Journal
from companion.ui.app import App


def percentile(values: list[float], q: float) -> float:
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def scripted_keys(quick: bool) -> list[list[str]]:
    """Key scripts (from a fresh main menu) covering the screens of every kind."""
    return all_scripts(quick)


def ui_events(quick: bool):
    """Yield (app, key) for every scripted event, on fresh apps and journals."""
    for script in scripted_keys(quick):
        d = tempfile.mkdtemp(prefix="bench-")
        j = Journal(os.path.join(d, "j.db"))
        app = App(j, Settings(), rng=random.Random(3))
        app.warm_up()  # as the app loop does right after its first frame
        yield app, None
        for name in script:
            yield app, Key.parse(name)
        j.close()
