"""The journal: durable, append-only, refuses what is not a journal."""
import os
import sqlite3

import pytest

from companion.errors import JournalWriteError, NotAJournalError
from companion.journal import APPLICATION_ID, Journal


def test_every_connection_uses_wal_and_full_sync(tmp_path):
    j = Journal(str(tmp_path / "j.db"))
    assert j._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    j.close()
    j = Journal(str(tmp_path / "j.db"))
    assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 2
    j.close()


def test_events_come_back_in_order_with_time_type_payload_schema(tmp_path):
    clock = iter(f"2026-01-01T00:00:0{i}" for i in range(9))
    j = Journal(str(tmp_path / "j.db"), clock=lambda: next(clock))
    sid = j.start_session("die", {})
    j.append(sid, "move", {"move": "roll"})
    j.append_many(sid, [("move", {"move": "face S"}), ("undo", {"undoes": 3})])
    j.close()
    j = Journal(str(tmp_path / "j.db"))
    ev = j.events(sid)
    assert [(e.seq, e.type, e.data) for e in ev] == [
        (2, "move", {"move": "roll"}), (3, "move", {"move": "face S"}), (4, "undo", {"undoes": 3})]
    assert ev[0].time == "2026-01-01T00:00:01"
    assert {r[0] for r in j._db.execute("SELECT schema FROM events")} == {1}
    info = j.session(sid)
    assert (info.game, info.events, info.ended) == ("die", 3, False)


def test_journal_is_append_only(tmp_path):
    j = Journal(str(tmp_path / "j.db"))
    sid = j.start_session("die", {})
    j.append(sid, "move", {"move": "roll"})
    for sql in ("UPDATE events SET type='x'", "DELETE FROM events"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            j._db.execute(sql)
    assert j.count() == 2


@pytest.mark.parametrize("content", [b"hello, this is not a database" * 10, b"SQLite format 3\x00" + b"\xff" * 200])
def test_corrupt_file_is_refused_and_left_untouched(tmp_path, content):
    p = tmp_path / "j.db"
    p.write_bytes(content)
    with pytest.raises(NotAJournalError, match="left untouched"):
        Journal(str(p))
    assert p.read_bytes() == content
    assert not (tmp_path / "j.db-wal").exists()


def test_foreign_sqlite_file_is_refused_and_left_untouched(tmp_path):
    p = tmp_path / "other.db"
    db = sqlite3.connect(p)
    db.execute("CREATE TABLE notes(x)")
    db.execute("INSERT INTO notes VALUES (1)")
    db.commit()
    db.close()
    before = p.read_bytes()
    with pytest.raises(NotAJournalError):
        Journal(str(p))
    assert p.read_bytes() == before


def test_application_id_marks_our_files(tmp_path):
    p = tmp_path / "j.db"
    Journal(str(p)).close()
    assert int.from_bytes(p.read_bytes()[68:72], "big") == APPLICATION_ID


def test_write_failure_raises_and_keeps_nothing_half_written(tmp_path):
    j = Journal(str(tmp_path / "j.db"))
    sid = j.start_session("die", {})
    j._db.execute("PRAGMA query_only=ON")  # stands in for a read-only disk
    with pytest.raises(JournalWriteError, match="not recorded|could not record"):
        j.append(sid, "move", {"move": "roll"})
    j._db.execute("PRAGMA query_only=OFF")
    assert j.events(sid) == []


def _damage_payload(path, needle: bytes, at: int = 0) -> None:
    """Flip one byte inside an event's stored text on disk (F1): the file still passes quick_check."""
    data = bytearray(open(path, "rb").read())
    i = data.index(needle) + at
    data[i] = ord("\x01")
    open(path, "wb").write(bytes(data))


def _checkpointed_journal(path):
    j = Journal(path)
    a = j.start_session("die", {})
    j.append(a, "move", {"move": "roll"})
    b = j.start_session("die", {"note": "second"})
    for face in ("face S", "face M", "face L"):
        j.append(b, "move", {"move": face})
    c = j.start_session("die", {})
    j.append(c, "move", {"move": "roll"})
    j._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    j.close()
    return a, b, c


def test_f1_a_damaged_event_ends_only_its_sessions_replay(tmp_path):
    path = str(tmp_path / "j.db")
    a, b, c = _checkpointed_journal(path)
    _damage_payload(path, b'"face M"', 2)
    j = Journal(path)
    assert j._db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert [e.data["move"] for e in j.events(b)] == ["face S"]  # the intact part, up to the damage
    assert j.damaged(b) and j.session(b).damaged
    assert not j.damaged(a) and not j.session(c).damaged
    assert [e.data for e in j.events(a)] == [{"move": "roll"}] == [e.data for e in j.events(c)]
    j.close()


def test_f1_a_damaged_start_loses_only_that_session(tmp_path):
    path = str(tmp_path / "j.db")
    a, b, c = _checkpointed_journal(path)
    _damage_payload(path, b'"note"', 0)
    j = Journal(path)
    assert [s.id for s in j.sessions()] == [c, a]
    j.close()


def test_f4_a_locked_journal_is_in_use_never_moved_aside(tmp_path, monkeypatch):
    from companion.cli import open_journal
    from companion.errors import JournalBusyError
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    path = str(tmp_path / "journal.db")
    j = Journal(path)
    sid = j.start_session("die", {})
    j.close()
    holder = sqlite3.connect(path)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(JournalBusyError, match="in use by another process"):
            open_journal(None)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not any(".bad-" in n for n in os.listdir(tmp_path))
    with open_journal(None) as j:
        assert [s.id for s in j.sessions()] == [sid]


def test_f4_names_moved_aside_never_collide(tmp_path, monkeypatch):
    from companion.cli import open_journal
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    for _ in range(3):
        (tmp_path / "journal.db").write_bytes(b"not a journal at all")
        open_journal(None).close()
    kept = [n for n in os.listdir(tmp_path) if ".bad-" in n]
    assert len(kept) == 3 and all((tmp_path / n).read_bytes() == b"not a journal at all" for n in kept)


def test_f4_read_only_commands_never_create_or_move_a_journal(tmp_path, monkeypatch, capsys):
    """History and export on a missing path create nothing; on a foreign file move nothing."""
    from companion.cli import main
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    assert main(["history"]) == 0
    assert main(["history", "--journal", str(tmp_path / "nonexistent" / "zz.db")]) != 0
    assert main(["export", "1", "--journal", str(tmp_path / "nope.db")]) != 0
    assert main(["history", "--journal", "/etc/passwd/j.db"]) != 0
    assert sorted(os.listdir(tmp_path)) == []
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "journal.db").write_bytes(b"garbage")
    assert main(["history"]) != 0 and main(["export", "1"]) != 0
    assert os.listdir(tmp_path / "state") == ["journal.db"]
    err = capsys.readouterr().err
    assert "Traceback" not in err and "no journal at" in err


def test_f10_a_session_end_checkpoints_and_backup_copies_everything(tmp_path):
    """Deleting -wal after a session's end, or a backup, loses no event."""
    from companion.cli import main
    path = str(tmp_path / "j.db")
    j = Journal(path)
    sid = j.start_session("die", {})
    for _ in range(21):
        j.append(sid, "move", {"move": "roll"})
    assert main(["backup", str(tmp_path / "copy.db"), "--journal", path]) == 0  # while the app holds it open
    j.append(sid, "end", {"reason": "over"})
    alone = tmp_path / "alone.db"
    alone.write_bytes(open(path, "rb").read())  # journal.db alone, without its -wal
    j.close()
    with Journal(str(alone)) as k:
        assert len(k.events(sid)) == 22
    with Journal(str(tmp_path / "copy.db"), read_only=True) as k:
        assert len(k.events(sid)) == 21
