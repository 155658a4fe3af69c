"""Key mashing: random presses and holds through every screen.

    python -m bench.mash --presses 100000 [--seed N] [--journal PATH]

Drives the real app (the headless simulator's path: ``App.handle`` then
``App.frame`` for every key) and checks that no key raises, every frame
renders at 128x64, and every session the app played replays from the journal
to the same state. Prints its figures last as one JSON line.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
import traceback

from companion.config import Settings
from companion.io import HEIGHT, WIDTH, Key
from companion.journal import Journal
from companion.session import Session
from companion.ui.app import App

# BACK is common at a real table, but too many BACKs keep the walk at the top.
WEIGHTS = {Key.UP: 14, Key.DOWN: 18, Key.LEFT: 4, Key.RIGHT: 4, Key.OK: 30, Key.BACK: 12,
           Key.HOLD_OK: 3, Key.HOLD_BACK: 3, Key.RELEASE: 2}


class TrackingApp(App):
    """The app, remembering every session object it opened (a session can be
    opened more than once, e.g. to list its moves from History)."""

    def __init__(self, *a, **kw):
        self.played: dict[int, list[Session]] = {}
        super().__init__(*a, **kw)

    def start_session(self, game, setup):
        s = super().start_session(game, setup)
        self.played.setdefault(s.id, []).append(s)
        return s

    def resume_session(self, session_id):
        s = super().resume_session(session_id)
        self.played.setdefault(s.id, []).append(s)
        return s


def mash(presses: int, seed: int, journal_path: str) -> dict:
    rnd = random.Random(seed)
    keys, weights = list(WEIGHTS), list(WEIGHTS.values())
    journal = Journal(journal_path)
    app = TrackingApp(journal, Settings(), rng=random.Random(seed))
    crashes, bad_frames, messages = 0, 0, 0
    first_crash = None
    screens: set[str] = set()
    t0 = time.perf_counter()
    for i in range(presses):
        key = rnd.choices(keys, weights)[0]
        try:
            before = len(app.stack)
            app.handle(key)
            img = app.frame()
            if img.size != (WIDTH, HEIGHT) or img.mode != "1":
                bad_frames += 1
            screens.add(type(app.top).__name__ + ":" + getattr(app.top, "title", ""))
            if app.top.__class__.__name__ == "Message" and len(app.stack) > before:
                messages += 1
        except Exception:  # a crash: count it, keep the first, go on from home
            crashes += 1
            if first_crash is None:
                first_crash = f"press {i} ({key.value}): " + traceback.format_exc(limit=6)
            app.home()
    elapsed = time.perf_counter() - t0
    mismatches = 0
    for sid, copies in app.played.items():
        # The copy that wrote last holds every journal event (a stale copy
        # cannot write: StaleSessionError); it must equal a fresh replay.
        n = len(journal.events(sid))
        current = [c for c in copies if len(c.events) == n]
        again = Session.resume(journal, sid, random.Random())
        if not current or any(c.state.to_json() != again.state.to_json() for c in current):
            mismatches += 1
            print(f"session {sid} ({again.game}): the app's state differs from the journal's replay",
                  file=sys.stderr)
    result = {
        "presses": presses, "crashes": crashes, "bad_frames": bad_frames,
        "replay_mismatches": mismatches, "sessions": len(journal.sessions()),
        "events": journal.count(), "screens_seen": len(screens), "refusal_messages": messages,
        "integrity": journal.integrity(), "seconds": round(elapsed, 2), "seed": seed,
    }
    journal.close()
    if first_crash:
        print(first_crash, file=sys.stderr)
    return result


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.mash", description=__doc__.splitlines()[0])
    p.add_argument("--presses", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--journal", help="journal file (default: a temporary one)")
    a = p.parse_args(argv)
    path = a.journal or os.path.join(tempfile.mkdtemp(prefix="mash-"), "journal.db")
    r = mash(a.presses, a.seed, path)
    print(json.dumps(r))
    return 0 if (r["crashes"], r["bad_frames"], r["replay_mismatches"]) == (0, 0, 0) else 1


if __name__ == "__main__":
    sys.exit(main())
