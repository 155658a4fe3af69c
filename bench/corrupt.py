"""Corruption harness (issue 14): damaged journals never brick the device.

    python -m bench.corrupt [--trials N] [--seed S] [--quick]

Builds a real journal by playing scripted games of all three games (and a
die) through the session API: random legal moves, some undos, one game
ended. It is closed (so every event is in the main file), then each trial
damages a copy at a seeded random place: one byte replaced, one bit flipped,
or the file truncated. The device app is started on the copy at the default
path, in-process (``cli.build_app``, as ``companion`` does), and must render
its first frame.

Each damaged byte is traced, from the undamaged file's pages, to the event
rows it touches (the cell, its pointer, or its page's header). Those rows'
sessions are "the damaged ones"; the first damaged row of each is its damage
point. Then, comparing what the started app holds with the original events:

  starts                       trials where the app started and drew a frame (goal: all)
  sessions_lost_other          sessions not touched by the damage that lost or changed
                               any event (goal 0)
  events_lost_before_damage    events before a damaged session's damage point that
                               are missing (goal 0)
  wrong_replays                sessions whose events are not an exact start of the
                               original ones: something hidden or changed (goal 0)

A damaged session counts as kept through its continuation (the new session
the app starts for it) or, after a salvage, through itself.
Prints its figures last as one JSON line.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time
import traceback

SETUPS = [
    ("undercut", {"players": ["Ann", "Bob", "Cat"], "level": "score", "start": 0}),
    ("bag_of_ice", {"players": ["Ann", "Bob", "Cy"], "start": 0}),
    ("bottoms_up", {"players": ["Ann", "Bob", "Cy", "Dee"]}),
    ("undercut", {"players": ["Dana", "Eve", "Finn"], "level": "full", "start": 0}),
    ("bag_of_ice", {"players": ["Eve", "Finn"], "start": 0}),
    ("bottoms_up", {"players": ["Eve", "Finn", "Gus"]}),
    ("die", {}),
]


def build_journal(path: str, moves: int, seed: int) -> None:
    from companion.journal import Journal
    from companion.session import Session
    rng = random.Random(seed)
    j = Journal(path)
    for k, (game, setup) in enumerate(SETUPS):
        s = Session.start(j, game, setup, random.Random(seed + k))
        for _ in range(moves):
            if s.finished:
                break
            if s.fold.moves and rng.random() < 0.08:
                s.undo()
                continue
            legal = s.state.legal_moves()
            if not legal:
                break
            s.play(rng.choice(legal))
        if k == 0:
            s.end("over")
    j.close()


def _normal(events) -> list:
    """(type, data) with an undo's target as an index into the list: comparable across copies."""
    where = {e.seq: i for i, e in enumerate(events)}
    out = []
    for e in events:
        data = dict(e.data)
        if e.type == "undo":
            data["undoes"] = where.get(data.get("undoes"), "?")
        out.append((e.type, json.dumps(data, sort_keys=True)))
    return out


def originals(path: str) -> dict[int, tuple[list, list[int]]]:
    """session -> (normalized events, their seqs)."""
    from companion.journal import Journal
    with Journal(path, read_only=True) as j:
        return {s.id: (_normal(j.events(s.id)), [e.seq for e in j.events(s.id)]) for s in j.sessions()}


def byte_map(data: bytes) -> list[tuple[int, int, int, set[int]]]:
    """(start, end, page base, seqs): byte ranges of the file that hold event rows:
    each page's header and pointer array (all its rows), each pointer and each cell."""
    from companion import salvage
    ps = int.from_bytes(data[16:18], "big")
    out = []
    for pg in range(1, len(data) // ps + 1):
        base = (pg - 1) * ps
        page = data[base:base + ps]
        hdr = 100 if pg == 1 else 0
        if page[hdr] != 0x0D:
            continue
        count = int.from_bytes(page[hdr + 3:hdr + 5], "big")
        rows = set()
        for k in range(count):
            ptr = int.from_bytes(page[hdr + 8 + 2 * k:hdr + 10 + 2 * k], "big")
            size, i = salvage._varint(page, ptr)
            rowid, i = salvage._varint(page, i)
            try:
                rec = salvage._record(page[i:i + size])
            except (IndexError, ValueError):
                continue
            if len(rec) != 7:
                continue  # a schema row of page 1
            rows.add(rowid)
            out.append((base + hdr + 8 + 2 * k, base + hdr + 10 + 2 * k, base, {rowid}))
            out.append((base + ptr, base + i + size, base, {rowid}))
        if rows:
            out.append((base + hdr, base + hdr + 8, base, rows))
    return out


def touched(spans, start: int, end: int) -> set[int]:
    """Seqs of the rows whose bytes overlap [start, end)."""
    hit: set[int] = set()
    for a, b, _, seqs in spans:
        if a < end and start < b:
            hit |= seqs
    return hit


def views(journal) -> dict[int, list]:
    """What the started app holds: original session id -> its normalized events (through
    its continuation when it has one)."""
    from companion.journal import _decode
    cont = {}
    for seq, payload in journal._db.execute("SELECT seq, payload FROM events WHERE type='start'"):
        p = _decode(payload) or {}
        if isinstance(p.get("continues"), int):
            cont[p["continues"]] = seq
    out = {}
    for s in journal.sessions():
        out[s.id] = _normal(journal.events(cont.get(s.id, s.id)))
    return out


def trial(src: str, data: bytes, spans, orig, rng: random.Random, mode: str) -> dict:
    from companion.cli import build_app, parser
    d = tempfile.mkdtemp(prefix="bench-corrupt-")
    try:
        bad = bytearray(data)
        if mode == "truncate":
            at = rng.randrange(0, len(data))
            bad = bad[:at]
            hit = touched(spans, at, len(data))
        else:
            at = rng.randrange(0, len(data))
            if mode == "bit":
                bad[at] ^= 1 << rng.randrange(8)
            else:
                bad[at] = (bad[at] + rng.randrange(1, 256)) % 256
            hit = touched(spans, at, at + 1)
        with open(os.path.join(d, "journal.db"), "wb") as f:
            f.write(bytes(bad))
        os.environ["STATE_DIRECTORY"] = d
        out = {"mode": mode, "at": at, "started": False, "lost_other": 0, "lost_before": 0, "wrong": 0,
               "hit_rows": len(hit)}
        try:
            app = build_app(parser().parse_args(["sim", "--config", os.path.join(d, "none.toml")]))
            img = app.frame()
            out["started"] = img.size == (128, 64)
        except Exception as e:  # the figure: a start that failed
            out["error"] = f"{type(e).__name__}: {e}"
            out["trace"] = traceback.format_exc()[-600:]
            return out
        try:
            got = views(app.journal)
        finally:
            app.journal.close()
        for sid, (events, seqs) in orig.items():
            view = got.get(sid, [])
            if view != events[:len(view)]:
                out["wrong"] += 1
                continue
            damaged_at = [s for s in [sid] + seqs if s in hit]
            if damaged_at:
                before = sum(1 for s in seqs if s < min(damaged_at))
                out["lost_before"] += max(before - len(view), 0)
            elif len(view) < len(events):
                out["lost_other"] += 1
        return out
    finally:
        shutil.rmtree(d, ignore_errors=True)


def run(trials: int, seed: int, moves: int) -> dict:
    import contextlib
    import io
    t0 = time.time()
    work = tempfile.mkdtemp(prefix="bench-corrupt-src-")
    saved = os.environ.get("STATE_DIRECTORY")
    try:
        src = os.path.join(work, "journal.db")
        build_journal(src, moves, seed)
        orig = originals(src)
        with open(src, "rb") as f:
            data = f.read()
        spans = byte_map(data)
        rng = random.Random(seed)
        results = []
        with contextlib.redirect_stderr(io.StringIO()):  # the app's own lines about the damage
            for k in range(trials):
                results.append(trial(src, data, spans, orig, rng, ("byte", "bit", "truncate")[k % 3]))
    finally:
        if saved is None:
            os.environ.pop("STATE_DIRECTORY", None)
        else:
            os.environ["STATE_DIRECTORY"] = saved
        shutil.rmtree(work, ignore_errors=True)
    failures = [r for r in results if not r["started"] or r["lost_other"] or r["lost_before"] or r["wrong"]]
    return {
        "trials": trials,
        "starts": sum(r["started"] for r in results),
        "starts_pct": round(100 * sum(r["started"] for r in results) / max(trials, 1), 1),
        "sessions_lost_other": sum(r["lost_other"] for r in results),
        "events_lost_before_damage": sum(r["lost_before"] for r in results),
        "wrong_replays": sum(r["wrong"] for r in results),
        "trials_hitting_event_rows": sum(1 for r in results if r["hit_rows"]),
        "journal_bytes": len(data),
        "journal_sessions": len(orig),
        "journal_events": sum(len(e) for e, _ in orig.values()),
        "games": sorted({g for g, _ in SETUPS}),
        "seed": seed,
        "failures": failures[:5],
        "seconds": round(time.time() - t0, 1),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.corrupt", description=__doc__.splitlines()[0])
    p.add_argument("--trials", type=int)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quick", action="store_true", help="short mode (CI): 150 trials")
    a = p.parse_args(argv)
    fig = run(a.trials or (150 if a.quick else 1500), a.seed, 60)
    print(json.dumps(fig))
    ok = (fig["starts"] == fig["trials"] and fig["sessions_lost_other"] == 0
          and fig["events_lost_before_damage"] == 0 and fig["wrong_replays"] == 0)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
