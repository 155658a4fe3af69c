"""Per-event checksums: every stored event is verified when it is read."""
import json
import sqlite3

import pytest

from companion.journal import EVENT_SCHEMA, Journal, row_crc


def _flip(path, needle: bytes, new: bytes) -> None:
    """Replace one byte inside an event's stored text on disk; the text stays valid JSON."""
    data = bytearray(open(path, "rb").read())
    assert data.count(needle) == 1, needle
    i = data.index(needle)
    data[i:i + len(needle)] = new
    open(path, "wb").write(bytes(data))


def _journal(path):
    j = Journal(path)
    a = j.start_session("die", {})
    j.append(a, "move", {"move": "roll"})
    b = j.start_session("die", {"note": "second"})
    for n in (11, 12, 13, 14):
        j.append(b, "move", {"move": f"score {n}"})
    c = j.start_session("die", {})
    j.append(c, "move", {"move": "roll"})
    j.close()  # the last connection checkpoints: every row is in the main file
    return a, b, c


@pytest.mark.parametrize("needle,new", [(b'"score 13"', b'"score 18"'),  # a digit: still valid JSON
                                        (b'"score 13"', b'"score_13"'),
                                        (b'"note":"second"', b'"note":"secund"')])
def test_a_byte_changed_inside_valid_json_is_caught(tmp_path, needle, new):
    path = str(tmp_path / "j.db")
    a, b, c = _journal(path)
    _flip(path, needle, new)
    with Journal(path) as j:
        assert j._db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        for row in j._db.execute("SELECT payload FROM events"):
            json.loads(row[0])  # SQLite and JSON see nothing wrong
        if needle.startswith(b'"note"'):  # the start itself: the session cannot be replayed at all
            assert [s.id for s in j.sessions()] == [c, a]
        else:
            assert [e.data["move"] for e in j.events(b)] == ["score 11", "score 12"]
            assert j.damaged(b) and j.session(b).damaged
        assert [e.data for e in j.events(a)] == [{"move": "roll"}] == [e.data for e in j.events(c)]
        assert not j.damaged(a) and not j.session(a).damaged and not j.session(c).damaged


def test_an_undamaged_journal_reads_back_whole(tmp_path):
    path = str(tmp_path / "j.db")
    a, b, c = _journal(path)
    with Journal(path) as j:
        assert [len(j.events(s)) for s in (a, b, c)] == [1, 4, 1]
        assert not any(s.damaged for s in j.sessions())


def _raw_insert(j, seq, session, typ, data, crc):
    j._db.execute("INSERT INTO events(seq, session, time, type, payload, schema, crc) VALUES (?,?,?,?,?,?,?)",
                  (seq, session, "t", typ, json.dumps(data, separators=(",", ":")), EVENT_SCHEMA, crc))


def test_a_row_filed_under_another_session_breaks_only_its_own(tmp_path):
    """A hit on a row's ``session`` moves it into another session: that one skips it (it does
    not chain on), its own session sees the gap at its next row and stops there."""
    j = Journal(str(tmp_path / "j.db"))
    a = j.start_session("die", {})
    b = j.start_session("die", {})
    e1 = j.append(a, "move", {"move": "roll"})
    e2 = j.append(b, "move", {"move": "roll"})
    prev_a, prev_b = (j._db.execute("SELECT crc FROM events WHERE seq=?", (e.seq,)).fetchone()[0] for e in (e1, e2))
    seq = j.count() + 1
    # the row belongs to a (its CRC chains from a's last row) but says session b
    _raw_insert(j, seq, b, "move", {"move": "face S"},
                row_crc(prev_a, seq, a, "t", "move", '{"move":"face S"}', EVENT_SCHEMA))
    _raw_insert(j, seq + 1, b, "move", {"move": "face M"},
                row_crc(prev_b, seq + 1, b, "t", "move", '{"move":"face M"}', EVENT_SCHEMA))
    # a's next row chains from the lost one: a stops before it
    lost = row_crc(prev_a, seq, a, "t", "move", '{"move":"face S"}', EVENT_SCHEMA)
    _raw_insert(j, seq + 2, a, "move", {"move": "face L"},
                row_crc(lost, seq + 2, a, "t", "move", '{"move":"face L"}', EVENT_SCHEMA))
    assert [e.data["move"] for e in j.events(b)] == ["roll", "face M"] and not j.damaged(b)
    assert [e.data["move"] for e in j.events(a)] == ["roll"] and j.damaged(a)
    assert {s.id: s.damaged for s in j.sessions()} == {a: True, b: False}
    j.close()


def _schema_1_journal(path):
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE events(seq INTEGER PRIMARY KEY, session INTEGER NOT NULL, time TEXT NOT NULL,
            type TEXT NOT NULL, payload TEXT NOT NULL, schema INTEGER NOT NULL);
        CREATE INDEX events_session ON events(session, seq);
        PRAGMA application_id=1348027459; PRAGMA user_version=1;
        INSERT INTO events VALUES (1, 1, 't0', 'start', '{"game":"die","setup":{}}', 1);
        INSERT INTO events VALUES (2, 1, 't1', 'move', '{"move":"roll"}', 1);
        INSERT INTO events VALUES (3, 3, 't2', 'start', '{"game":"die","setup":{}}', 1);
        INSERT INTO events VALUES (4, 3, 't3', 'move', '{"move":"roll"', 1);
        INSERT INTO events VALUES (5, 3, 't4', 'move', '{"move":"roll"}', 1);
    """)
    db.commit()
    db.close()


def test_an_old_journal_opens_read_only_and_is_migrated_when_written(tmp_path):
    path = str(tmp_path / "old.db")
    _schema_1_journal(path)
    with Journal(path, read_only=True) as j:  # read-only: no column added, old rows checked by JSON
        assert [len(j.events(s)) for s in (1, 3)] == [1, 0]
        assert {s.id: s.damaged for s in j.sessions()} == {1: False, 3: True}
    with Journal(path) as j:
        assert j._db.execute("PRAGMA user_version").fetchone()[0] == 2
        j.append(1, "move", {"move": "face S"})
        assert [e.data["move"] for e in j.events(1)] == ["roll", "face S"]
        assert j._db.execute("SELECT crc IS NOT NULL FROM events WHERE seq=6").fetchone()[0] == 1
    _flip(path, b'"face S"', b'"face M"')
    with Journal(path) as j:
        assert [e.data["move"] for e in j.events(1)] == ["roll"] and j.damaged(1)


# ---------------------------------------------------------------- playing on after damage


def _damaged_die_session(path):
    """A die session (faces entered by the table) of 9 events, one undone, with damage in
    its 8th; a second session intact."""
    import random
    from companion.session import Session
    j = Journal(path)
    s = Session.start(j, "die", {"die": "physical"}, random.Random(1))
    for m in ("roll", "face S", "roll", "face M"):
        s.play(m)
    s.undo()
    for m in ("face L", "roll", "face S/M", "roll"):
        s.play(m)
    other = Session.start(j, "die", {}, random.Random(1))
    other.play("roll")
    j.close()
    data = bytearray(open(path, "rb").read())
    i = data.index(b'"face S/M"')
    data[i + 8] = ord("L")  # still valid JSON, still a legal move
    open(path, "wb").write(bytes(data))
    return s.id, other.id


def test_a_damaged_session_goes_on_as_a_new_one_with_its_intact_part(tmp_path):
    import random
    from companion.session import Session
    path = str(tmp_path / "j.db")
    sid, other = _damaged_die_session(path)
    with Journal(path) as j:
        intact = [(e.type, e.data) for e in j.events(sid)]
        assert len(intact) == 7 and j.session(sid).damaged
        (c,) = j.continue_damaged()
        assert (c.damaged, c.kept, c.lost) == (sid, 7, 2)
        assert j.session(sid).ended and [(e.type, e.data) for e in j.events(sid)] == intact  # unchanged, over
        assert j.continue_damaged() == []  # once
        new = Session.resume(j, c.session, random.Random(1))
        assert [(e.type, e.data.get("move")) for e in new.events] == [
            ("move", "roll"), ("move", "face S"), ("move", "roll"), ("move", "face M"), ("undo", None),
            ("move", "face L"), ("move", "roll")]
        assert new.events[4].data["undoes"] == new.events[3].seq  # the undo names the copy
        assert [e.time for e in new.events] == [e.time for e in j.events(sid)]
        new.play("face S")  # played on from the last good event
        new.undo()
        assert len(j.events(c.session)) == 9 and not j.session(c.session).damaged
        assert not j.session(other).damaged and len(j.events(other)) >= 1


def test_the_device_continues_a_damaged_game_and_says_so(tmp_path, capsys):
    from companion.cli import build_app, main, parser
    path = str(tmp_path / "j.db")
    sid, other = _damaged_die_session(path)
    assert main(["export", str(sid), "--journal", path, "-o", str(tmp_path / "old.json")]) == 0
    old = [json.loads(line) for line in open(tmp_path / "old.json") if line.startswith("{")]
    app = build_app(parser().parse_args(["sim", "--journal", path]))
    try:
        # by their numbers: the die was #1, the other #2, the game goes on as #3
        assert app.top.title == "Damaged journal" and "#1 was damaged after 7 events" in app.top.text
        assert "they go on as #3" in app.top.text and "2 later events were lost" in app.top.text
        new = app.journal.sessions()[0].id
        assert sid not in app.unfinished() and new in app.unfinished() and app.journal.number(new) == 3
        new = 3
    finally:
        app.journal.close()
    assert "was damaged" in capsys.readouterr().err
    assert main(["export", str(new), "--journal", path, "-o", str(tmp_path / "new.json")]) == 0
    moves = lambda rec: [r.get("move") for r in rec if r.get("type") in ("move", "undo")]  # noqa: E731
    got = [json.loads(line) for line in open(tmp_path / "new.json") if line.startswith("{")]
    assert moves(got) == moves(old) and len(moves(old)) == 7


# ---------------------------------------------------------------- a continued damaged game, in the singular


def test_a_continued_damaged_game_with_one_lost_event_says_so_in_the_singular(tmp_path):
    from companion.cli import continue_damaged
    from companion.journal import Journal

    path = str(tmp_path / "k.db")
    with Journal(path) as j:
        a = j.start_session("die", {"die": "physical"})
        j.append(a, "move", {"move": "roll"})
        j.append(a, "move", {"move": "face S"})
    data = bytearray(open(path, "rb").read())
    i = data.index(b'"face S"')
    data[i + 6] = ord("M")  # the last event damaged: 1 kept, 1 lost
    open(path, "wb").write(bytes(data))
    with Journal(path) as j:
        (line,) = continue_damaged(j)
    assert "was damaged after 1 event: it goes on as" in line and "1 later event was lost." in line
