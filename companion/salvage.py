"""Salvage a journal SQLite cannot open (issue 14): malformed pages, a damaged header.

SQLite refuses a file whose pages are malformed, and through SQL a damaged
page can hide every row below it. Here the file is read page by page without
SQLite: every page is parsed as a table leaf, every cell that decodes to an
``events`` row is a candidate, and each session keeps its candidates that
verify (``journal.verify_rows``: the chained CRC, or the JSON of a schema-1
row) up to its first damage. So damage to one page loses that page's events
(and what follows them in their sessions), never the rest of the file.

Events still only in the ``-wal`` file are folded in first by a checkpoint of
a scratch copy when SQLite can still do that; otherwise only the main file is
read.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import struct
import tempfile
from dataclasses import dataclass, field

from .journal import APPLICATION_ID, Journal, Row, verify_rows

MAX_CELLS = 8192  # more cell pointers than any page can hold: a damaged count


@dataclass
class Salvage:
    rows: list[Row] = field(default_factory=list)  # the verified rows, in seq order
    sessions: int = 0
    cut: list[int] = field(default_factory=list)  # sessions kept only up to their damage
    highest: int = 0  # the highest seq seen: events up to it that were not kept are lost

    @property
    def lost(self) -> int:
        return max(self.highest - len(self.rows), 0)


def _varint(b: bytes, i: int) -> tuple[int, int]:
    v = 0
    for k in range(8):
        c = b[i + k]
        v = (v << 7) | (c & 0x7F)
        if c < 0x80:
            return v, i + k + 1
    return (v << 8) | b[i + 8], i + 9


def _value(t: int, b: bytes, i: int):
    if t == 0:
        return None, i
    if 1 <= t <= 6:
        n = (1, 2, 3, 4, 6, 8)[t - 1]
        if i + n > len(b):
            raise IndexError
        return int.from_bytes(b[i:i + n], "big", signed=True), i + n
    if t == 7:
        return struct.unpack(">d", b[i:i + 8])[0], i + 8
    if t in (8, 9):
        return t - 8, i
    if t >= 12:
        n = (t - 12) // 2
        if i + n > len(b):
            raise IndexError
        raw = b[i:i + n]
        return (raw.decode("utf-8", "surrogateescape") if t % 2 else raw), i + n
    raise ValueError("reserved serial type")


def _record(payload: bytes) -> list:
    size, i = _varint(payload, 0)
    if not 2 <= size <= len(payload):
        raise ValueError("bad header")
    types = []
    while i < size:
        t, i = _varint(payload, i)
        types.append(t)
    out, j = [], size
    for t in types:
        v, j = _value(t, payload, j)
        out.append(v)
    return out


def _cells(data: bytes, page_size: int, usable: int, pgno: int):
    """(rowid, record payload) of every cell the page holds as a table leaf, leniently."""
    base = (pgno - 1) * page_size
    page = data[base:base + page_size]
    if len(page) < page_size:
        page = page + bytes(page_size - len(page))
    hdr = 100 if pgno == 1 else 0
    count = int.from_bytes(page[hdr + 3:hdr + 5], "big")
    for k in range(min(max(count, 1) + 64, MAX_CELLS)):  # a damaged count: read on while pointers look valid
        at = hdr + 8 + 2 * k
        if at + 2 > usable:
            break
        ptr = int.from_bytes(page[at:at + 2], "big")
        if not hdr + 8 < ptr < usable:
            if k >= count:
                break
            continue
        try:
            size, i = _varint(page, ptr)
            rowid, i = _varint(page, i)
            x = usable - 35
            if size <= x:
                payload = page[i:i + size]
            else:  # the rest is on overflow pages
                m = ((usable - 12) * 32 // 255) - 23
                local = m + (size - m) % (usable - 4)
                local = local if local <= x else m
                buf = bytearray(page[i:i + local])  # grows by the overflow pages below
                nxt = int.from_bytes(page[i + local:i + local + 4], "big")
                seen = set()
                while len(buf) < size and nxt and nxt not in seen and nxt * page_size <= len(data):
                    seen.add(nxt)
                    o = (nxt - 1) * page_size
                    nxt = int.from_bytes(data[o:o + 4], "big")
                    buf += data[o + 4:o + usable][:size - len(buf)]
                payload = bytes(buf)
            if len(payload) == size:
                yield rowid, payload
        except (IndexError, ValueError):
            continue


def read_rows(data: bytes) -> list[Row]:
    """Every ``events`` row found in the file's bytes (duplicates removed), by seq."""
    ps = int.from_bytes(data[16:18], "big") if len(data) >= 100 else 0
    ps = 65536 if ps == 1 else ps
    if ps < 512 or ps > 65536 or ps & (ps - 1):
        ps = 4096  # the header's page size is damaged: SQLite's default
    reserved = data[20] if len(data) > 20 and data[20] < 64 else 0
    usable = ps - reserved
    found: dict[tuple, None] = {}
    for pgno in range(1, (len(data) + ps - 1) // ps + 1):
        for rowid, payload in _cells(data, ps, usable, pgno):
            try:
                rec = _record(payload)
            except (IndexError, ValueError, struct.error):
                continue
            if len(rec) not in (6, 7) or rec[0] is not None:
                continue
            rec = rec + [None] * (7 - len(rec))
            if type(rec[1]) is not int or not all(isinstance(v, str) for v in rec[2:5]):
                continue
            found[(rowid, *rec[1:])] = None
    return sorted(found, key=lambda r: r[0])


def _with_wal(path: str) -> bytes:
    """The file's bytes, with what its ``-wal`` holds folded in when SQLite can still do that."""
    if not os.path.exists(path + "-wal"):
        with open(path, "rb") as f:
            return f.read()
    with tempfile.TemporaryDirectory(prefix="companion-salvage-") as d:
        copy = os.path.join(d, "j.db")
        shutil.copyfile(path, copy)
        shutil.copyfile(path + "-wal", copy + "-wal")
        try:
            db = sqlite3.connect(copy)
            try:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                db.close()
        except sqlite3.Error:
            pass
        with open(copy, "rb") as f:
            merged = f.read()
        with open(path, "rb") as f:
            original = f.read()
    return merged if len(merged) >= len(original) else original


def salvage(path: str) -> Salvage:
    """Read what can be read of the journal at ``path`` (never written)."""
    rows = read_rows(_with_wal(path))
    out = Salvage(highest=max((r[0] for r in rows), default=0))
    by_session: dict[int, list[Row]] = {}
    for r in rows:
        by_session.setdefault(r[1], []).append(r)
    for sid, srows in sorted(by_session.items()):
        srows = [r for r in srows if r[0] >= sid]  # one whose seq was hit can sort before its start
        if not srows or srows[0][0] != sid or srows[0][3] != "start":
            continue  # its start is lost: nothing of it can be replayed
        good, cut = verify_rows(srows, sid)
        if not good:
            continue
        out.rows += good
        out.sessions += 1
        if cut:
            out.cut.append(sid)
    out.rows.sort(key=lambda r: r[0])
    return out


def write_journal(found: Salvage, dest: str) -> None:
    """A new journal at ``dest`` (written beside it, then renamed into place) holding the
    salvaged rows as they were stored: same seqs, times and CRCs, so every session keeps
    its id and its chain still verifies."""
    tmp = os.path.join(os.path.dirname(os.path.abspath(dest)), f".{os.path.basename(dest)}.{os.getpid()}.salvage")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(tmp + suffix):
            os.unlink(tmp + suffix)
    j = Journal(tmp)
    try:
        db = j._db
        db.execute("BEGIN IMMEDIATE")
        db.executemany("INSERT INTO events(seq, session, time, type, payload, schema, crc) VALUES (?,?,?,?,?,?,?)",
                       found.rows)
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    finally:
        j.close()
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.replace(tmp, dest)
