"""SQLite-level damage at the default path: every readable session is salvaged
into a new journal, the damaged file is kept aside, and the app says what was lost."""
import os
import sqlite3

import pytest

from companion import salvage
from companion.journal import Journal


def _journal(path, sessions=30, moves=12):
    j = Journal(path)
    ids = []
    for k in range(sessions):
        sid = j.start_session("die", {"die": "physical", "note": f"session {k}"})
        for i in range(moves):
            j.append(sid, "move", {"move": "roll" if i % 2 == 0 else "face S"})
        ids.append(sid)
    j.close()
    return ids


def _pages(path):
    """{page number: seqs of the events rows it holds} from the undamaged file."""
    data = open(path, "rb").read()
    ps = int.from_bytes(data[16:18], "big")
    out = {}
    for pg in range(1, len(data) // ps + 1):
        seqs = [rowid for rowid, payload in salvage._cells(data, ps, ps, pg)
                if len(payload) > 20 and b"move" in payload or b"start" in payload]
        if seqs:
            out[pg] = seqs
    return out, ps


def _events(j, ids):
    return {sid: [(e.type, e.data) for e in j.events(sid)] for sid in ids if sid in {s.id for s in j.sessions()}}


@pytest.mark.parametrize("how", ["type", "pointers", "header"])
def test_malformed_pages_are_salvaged_and_the_file_kept_aside(tmp_path, monkeypatch, how):
    from companion.cli import build_app, parser
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    path = str(tmp_path / "journal.db")
    ids = _journal(path)
    with Journal(path) as j:
        before = _events(j, ids)
    pages, ps = _pages(path)
    data = bytearray(open(path, "rb").read())
    if how in ("type", "pointers"):
        pg = sorted(pages)[len(pages) // 2]
        base = (pg - 1) * ps
        data[base] = 0x07  # not a page type: SQLite calls the file malformed
        if how == "pointers":  # and no cell can be found: the page's events are lost
            data[base:base + 8 + 2 * len(pages[pg])] = bytes(8 + 2 * len(pages[pg]))
            hit = set(pages[pg])
        else:
            hit = set()  # the salvage reads the page as a leaf all the same
    else:
        hit = set()
        data[0:16] = b"\x00" * 16  # the magic is gone: not even an SQLite file to SQLite
    open(path, "wb").write(bytes(data))
    if how != "header":
        db = sqlite3.connect(path)
        try:
            with pytest.raises(sqlite3.DatabaseError):
                assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        finally:
            db.close()
    app = build_app(parser().parse_args(["sim"]))
    try:
        after = _events(app.journal, ids)
        text = app.top.text
    finally:
        app.journal.close()
    aside = [n for n in os.listdir(tmp_path) if ".bad-" in n and not n.endswith(("-wal", "-shm"))]
    assert len(aside) == 1 and open(tmp_path / aside[0], "rb").read() == bytes(data)  # kept, untouched
    assert "The journal was damaged" in text and aside[0] in text
    damaged = {sid for sid in ids if any(seq in hit for seq in range(sid, sid + 13))}
    assert bool(damaged) == (how == "pointers")  # a page holds rows of a few sessions
    for sid in ids:
        if sid in damaged:  # cut at the damaged page: what came before it is all there
            first_lost = min(seq for seq in hit if sid <= seq <= sid + 12)
            assert after.get(sid, []) == before[sid][:max(first_lost - sid - 1, 0)] or (
                first_lost == sid and sid not in after)
        else:
            assert after[sid] == before[sid], sid
    lost = sum(len(before[s]) - len(after.get(s, [])) for s in ids) + sum(1 for s in ids if s not in after)
    assert f"{lost} event{'' if lost == 1 else 's'} could not be read" in text


def test_a_file_with_nothing_to_salvage_is_moved_aside_and_a_new_journal_started(tmp_path, monkeypatch):
    from companion.cli import open_journal
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    (tmp_path / "journal.db").write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)
    notes = []
    with open_journal(None, notes) as j:
        assert j.sessions() == []
    assert "a new journal was started" in notes[-1]
    assert len([n for n in os.listdir(tmp_path) if ".bad-" in n]) == 1


def test_events_still_in_the_wal_are_salvaged(tmp_path):
    path = str(tmp_path / "journal.db")
    ids = _journal(path, sessions=3, moves=4)
    j = Journal(path)
    j.append(ids[0], "move", {"move": "roll"})  # only in the -wal
    copy = tmp_path / "copy"
    copy.mkdir()
    for s in ("", "-wal"):
        open(copy / f"journal.db{s}", "wb").write(open(path + s, "rb").read())
    j.close()
    found = salvage.salvage(str(copy / "journal.db"))
    assert (found.sessions, len(found.rows), found.cut, found.lost) == (3, 16, [], 0)


@pytest.mark.parametrize("needle,new", [(b"time TEXT", b"tame TEXT"), (b"payload TEXT", b"payl\xe0ad TEXT")])
def test_a_damaged_schema_text_is_salvaged(tmp_path, monkeypatch, needle, new):
    """Found by bench.corrupt: a byte of the CREATE TABLE text made every later query fail."""
    from companion.cli import open_journal
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    path = str(tmp_path / "journal.db")
    ids = _journal(path, sessions=3, moves=4)
    data = open(path, "rb").read()
    open(path, "wb").write(data.replace(needle, new, 1))
    notes = []
    with open_journal(None, notes) as j:
        assert [len(j.events(s)) for s in ids] == [4, 4, 4]
    assert "Saved 3 sessions (15 events); 0 events could not be read." in notes


# ---------------------------------------------------------------- what salvage says, in the singular


def test_salvage_says_1_session_and_1_event_in_the_singular(tmp_path, monkeypatch):
    from companion.cli import open_journal
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    path = str(tmp_path / "journal.db")
    _journal(path, sessions=1, moves=0)
    data = open(path, "rb").read()
    open(path, "wb").write(data.replace(b"time TEXT", b"tame TEXT", 1))  # its schema's text damaged
    notes: list[str] = []
    open_journal(None, notes).close()
    assert "Saved 1 session (1 event); 0 events could not be read." in notes
