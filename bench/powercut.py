"""Power-cut harness: SIGKILL the companion at random moments, restart, check.

    python -m bench.powercut --kills 200 [--seed N] [--doc docs/reliability.md]

Each cycle starts a child process (the app driven like the headless
simulator) on one shared journal. The child plays a scripted session (every
kind in SCRIPTS, in turn): from the main menu it resumes the unfinished
session if there is one, else starts the script's session, then presses keys.
After every key it prints the number of events in the journal and a hash of
the frame it shows. The parent kills it with SIGKILL after a random number of
keys, at a random moment, and then checks:

* every event the screen had confirmed is in the journal (events_lost);
* ``PRAGMA integrity_check`` is ok;
* the restarted app, resuming the session, shows the same frame as the one
  on screen before the kill, when the kill fell between confirmed frames and
  that frame was the session's own screen (screens_compared / mismatched);
  the pages of the last decision a resume shows again over it are closed
  with BACK first.

Prints its figures last as one JSON line.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

# kind -> (keys from the main menu to start a session, keys used while playing)
SCRIPTS: dict[str, tuple[str, list[str]]] = {
    "die": ("down,ok,ok", ["ok"] * 8 + ["hold-back", "ok"]),
    "bag": ("down,ok,down,ok,down,ok", ["ok", "ok", "down", "ok", "down", "ok", "ok", "hold-back", "ok"]),
    "pick": ("down,ok,down,down,ok,ok", ["ok"] * 5),
}


def register(kind: str, start: str, play: list[str]) -> None:
    """Games add their scripts from their own ``bench/powercut_<game>.py``
    (keys as in ``companion sim --keys``): ``start`` leads from a fresh main
    menu into a new session, ``play`` keys are then pressed in a loop."""
    SCRIPTS[kind] = (start, play)


def _load_game_scripts() -> None:
    import importlib
    import pkgutil
    import bench
    for m in pkgutil.iter_modules(bench.__path__):
        if m.name.startswith("powercut_"):
            importlib.import_module(f"bench.{m.name}")
    # Run as ``python -m bench.powercut`` this module is ``__main__``, apart
    # from the ``bench.powercut`` the game modules register with: take theirs.
    registry = importlib.import_module("bench.powercut").SCRIPTS
    if registry is not SCRIPTS:
        SCRIPTS.update(registry)


# ---------------------------------------------------------------- child


def child(journal_path: str, kind: str, seed: int, presses: int) -> int:
    from companion.config import Settings
    from companion.io import Key
    from companion.journal import Journal
    from companion.ui.app import App
    from companion.ui.base import SessionScreen
    journal = Journal(journal_path)
    app = App(journal, Settings(), rng=random.Random(seed))
    rnd = random.Random(seed)
    start, play = SCRIPTS[kind]

    def report() -> None:
        img = app.frame()
        on_session = isinstance(app.top, SessionScreen)
        sys.stdout.write(f"F {journal.count()} {hashlib.sha1(img.tobytes()).hexdigest()} {int(on_session)}\n")
        sys.stdout.flush()

    report()
    items = app.top.items
    keys = ["ok"] if items and items[0].label == "Resume" else start.split(",")
    for k in keys:
        app.handle(Key.parse(k))
        report()
    for i in range(presses):
        app.handle(Key.parse(play[i % len(play)] if rnd.random() < 0.7 else rnd.choice(play)))
        report()
    return 0


def resumed_frame(journal_path: str) -> str | None:
    """Start a fresh app on the journal, resume, and hash the frame (None: nothing to resume)."""
    from companion.config import Settings
    from companion.journal import Journal
    from companion.ui.app import App
    journal = Journal(journal_path)
    try:
        app = App(journal, Settings(), rng=random.Random(0))
        items = app.top.items
        if not items or items[0].label != "Resume":
            return None
        from companion.io import Key
        from companion.ui.base import SessionScreen
        app.handle(Key.OK)
        for _ in range(10):  # a resume shows the last decision's pages again: closed, the game screen
            if isinstance(app.top, SessionScreen):
                break
            app.handle(Key.BACK)
        return hashlib.sha1(app.frame().tobytes()).hexdigest()
    finally:
        journal.close()


# ---------------------------------------------------------------- parent


def run(kills: int, seed: int, workdir: str) -> dict:
    from companion.journal import Journal
    rnd = random.Random(seed)
    path = os.path.join(workdir, "journal.db")
    kinds = list(SCRIPTS)
    stats = {"kills": 0, "events_confirmed": 0, "events_lost": 0, "integrity_failures": 0,
             "screens_compared": 0, "screens_mismatched": 0, "kinds": kinds}
    for n in range(kills):
        kind = kinds[n % len(kinds)]
        presses = rnd.randint(2, 40)
        p = subprocess.Popen([sys.executable, "-m", "bench.powercut", "--child", kind, "--journal", path,
                              "--seed", str(rnd.randrange(10**6)), "--presses", str(presses)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines: list[str] = []
        target = rnd.randint(1, presses + 3)
        while len(lines) < target:
            line = p.stdout.readline()
            if not line:
                break
            lines.append(line)
        time.sleep(rnd.random() * 0.004)  # kill between two frames, or in the middle of one
        p.send_signal(signal.SIGKILL)
        p.wait()
        err = p.stderr.read()
        if p.returncode not in (-signal.SIGKILL, 0):
            raise RuntimeError(f"child failed: {err[-2000:]}")
        stats["kills"] += 1
        frames = [ln.split() for ln in lines if ln.startswith("F ")]
        if not frames:
            continue
        _, confirmed, frame, on_session = frames[-1]
        confirmed = int(confirmed)
        j = Journal(path)
        present = j.count()
        if j.integrity() != "ok":
            stats["integrity_failures"] += 1
        j.close()
        stats["events_confirmed"] = max(stats["events_confirmed"], confirmed)
        if present < confirmed:
            stats["events_lost"] += confirmed - present
        # The resumed game screen must equal the game screen as first shown
        # with exactly the events now in the journal: popups over it (a
        # message, the session menu) are not resumed, and cursor moves made
        # after it are not events, so a resumed screen starts at its default.
        shown = [f for _, c, f, s in frames if s == "1" and int(c) == present]
        if present == confirmed and shown:
            got = resumed_frame(path)
            if got is not None:
                stats["screens_compared"] += 1
                if got != shown[0]:
                    stats["screens_mismatched"] += 1
    return stats


def write_doc(path: str, stats: dict) -> None:
    """Replace the power-cut block of docs/reliability.md with these figures."""
    begin, end = "<!-- powercut:begin -->", "<!-- powercut:end -->"
    block = (f"{begin}\n```json\n{json.dumps(stats, indent=1)}\n```\n"
             f"Produced by `python -m bench.powercut --kills {stats['kills']}` on "
             f"{time.strftime('%Y-%m-%d')}.\n{end}")
    text = open(path, encoding="utf-8").read() if os.path.exists(path) else "# Reliability\n\n"
    if begin in text:
        text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
    else:
        text += "\n## Power cuts\n\n" + block + "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.powercut", description=__doc__.splitlines()[0])
    p.add_argument("--kills", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--doc", help="write the figures into this Markdown file (docs/reliability.md)")
    p.add_argument("--child", metavar="KIND", help=argparse.SUPPRESS)
    p.add_argument("--journal", help=argparse.SUPPRESS)
    p.add_argument("--presses", type=int, default=20, help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    _load_game_scripts()
    if a.child:
        return child(a.journal, a.child, a.seed, a.presses)
    with tempfile.TemporaryDirectory(prefix="powercut-") as d:
        t0 = time.perf_counter()
        stats = run(a.kills, a.seed, d)
        stats["seconds"] = round(time.perf_counter() - t0, 1)
    if a.doc:
        write_doc(a.doc, stats)
    print(json.dumps(stats))
    bad = stats["events_lost"] or stats["integrity_failures"] or stats["screens_mismatched"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
