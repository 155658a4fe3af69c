"""The journal: an append-only SQLite log of every session's events.

* WAL mode and ``synchronous=FULL`` on every connection, so a committed
  event survives a power cut; ``append`` returns only after the commit, and
  the app confirms on screen only after ``append`` returns.
* Append-only: triggers refuse UPDATE and DELETE. A session is the fold of
  its events; undo is an appended ``undo`` event.
* A file that is not a companion journal (corrupt, foreign SQLite, any other
  file) raises ``NotAJournalError`` and is never written to.

Schema (version ``SCHEMA_VERSION``)::

    events(seq INTEGER PRIMARY KEY, session INTEGER, time TEXT, type TEXT,
           payload TEXT JSON, schema INTEGER, crc INTEGER)

``crc`` (schema 2, issue 14) is a CRC-32 chained through the session: the
CRC of the row's stored text (seq, session, time, type, schema, payload)
continued from the CRC of the session's previous row (0 for a ``start``).
Every row is verified when it is read: a flipped byte anywhere in it, or a
row missing from the middle of a session, breaks the chain there, and the
session's replay ends before it (``SessionInfo.damaged``). A journal of
schema 1 gets the column when it is opened for writing; its old rows have
no CRC and are verified as before, by the validity of their JSON.

A session starts with a ``start`` event (payload ``{"game", "setup"}``)
whose ``seq`` is the session id; its later events carry that id in
``session``. Other types: ``move``, ``undo``, ``end`` (see records.py).

The table knows a session by its number (``Journal.number``, issue 34): 1, 2,
3 ... in the order the ``start`` events were written; the ids have gaps.
"""
from __future__ import annotations

import datetime as _dt
import json
import logging
import os
import sqlite3
import zlib
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence
from urllib.parse import quote

from .errors import JournalBusyError, JournalError, JournalWriteError, NotAJournalError, StaleSessionError
from .records import Event

log = logging.getLogger("companion.journal")

APPLICATION_ID = 0x50594443  # "PYDC"
SCHEMA_VERSION = 2  # the file's (user_version); 2 added the crc column
EVENT_SCHEMA = 1  # the payloads' format, stored in each row's ``schema``
SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE events(
    seq INTEGER PRIMARY KEY,
    session INTEGER NOT NULL,
    time TEXT NOT NULL,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    schema INTEGER NOT NULL,
    crc INTEGER
);
CREATE INDEX events_session ON events(session, seq);
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
"""


def utc_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


def default_path() -> str:
    """``$STATE_DIRECTORY`` (systemd), else ``$XDG_STATE_HOME/companion``, else ``~/.local/state/companion``."""
    base = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if not base:
        xdg = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
        base = os.path.join(xdg, "companion")
    return os.path.join(base, "journal.db")


@dataclass(frozen=True)
class SessionInfo:
    id: int
    game: str
    setup: dict[str, Any]
    created: str
    last_time: str
    events: int
    ended: bool
    damaged: bool = False  # an event's stored text is unreadable: replay stops before it
    continues: int | None = None  # the damaged session this one continues (``fork``)
    number: int = 0  # 1, 2, 3 ... in the order the sessions were started: what the table sees (``Journal.number``)


def _decode(payload: Any) -> dict[str, Any] | None:
    """A stored payload as a dict, or None when its text is damaged (F1)."""
    try:
        data = json.loads(payload)
    except (ValueError, TypeError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


Row = tuple  # (seq, session, time, type, payload, schema, crc) as stored


def row_crc(prev: int, seq: Any, session: Any, time: Any, typ: Any, payload: Any, schema: Any) -> int:
    """The chained CRC-32 of one stored row (see the module's docstring)."""
    text = f"{seq}\x1f{session}\x1f{time}\x1f{typ}\x1f{schema}\x1f{payload}"
    return zlib.crc32(text.encode("utf-8", "surrogatepass"), prev)


def check_row(row: Row, session: int, prev: int) -> int | None:
    """The row's CRC to chain the next one from if ``row`` is intact as an event of
    ``session`` following a row whose CRC was ``prev``; None if it is damaged (or
    not this session's). A row without CRC (schema 1) is checked by its JSON."""
    seq, sess, t, typ, payload, schema, crc = row
    if not (isinstance(t, str) and isinstance(typ, str) and isinstance(payload, str) and type(seq) is int):
        return None
    if crc is None:
        return 0 if sess == session and _decode(payload) is not None else None
    if type(crc) is not int or row_crc(prev, seq, session, t, typ, payload, schema) != crc:
        return None
    return crc if _decode(payload) is not None else None


def verify_rows(rows: Sequence[Row], session: int) -> tuple[list[Row], bool]:
    """The intact start of a session's rows (its ``start`` row first, in seq order)
    and whether anything was cut off.

    A row that fails its check is damaged and ends the session there, unless the
    next row chains on from the one before it: then the failing row is one of
    another session filed here by damage (its ``session`` was hit) and is skipped."""
    good: list[Row] = []
    prev = 0
    i = 0
    while i < len(rows):
        nxt = check_row(rows[i], session, prev)
        if nxt is not None:
            good.append(rows[i])
            prev = nxt
            i += 1
            continue
        if i + 1 < len(rows) and rows[i + 1][6] is not None and check_row(rows[i + 1], session, prev) is not None:
            i += 1  # an intruder: the session's own chain (a CRC, not JSON alone) goes on past it
            continue
        return good, True
    return good, False


class _Scan:
    """The damage state of every session, kept up to date incrementally: rows are
    append-only, so each is verified once, in seq order (``Journal.sessions``)."""

    def __init__(self) -> None:
        self.upto = 0
        self.prev: dict[int, int] = {}  # session -> CRC to chain its next row from
        self.pending: dict[int, Row] = {}  # session -> a failing row not yet judged (damage or intruder)
        self.bad: set[int] = set()  # sessions whose chain broke
        self.bad_start: set[int] = set()
        self.rows: dict[int, int] = {}  # session -> rows that say so, as the table (not the index) holds them
        self.numbers: dict[int, int] = {}  # session id -> its number (``Journal.number``)
        self.ids: list[int] = []  # the session ids in the order they were started

    def feed(self, rows: Iterable[Row]) -> None:
        for row in rows:
            seq, sess = row[0], row[1]
            self.rows[sess] = self.rows.get(sess, 0) + 1
            self.upto = max(self.upto, seq if type(seq) is int else self.upto)
            if row[3] == "start" and sess == seq:
                self.ids.append(seq)
                self.numbers[seq] = len(self.ids)
                crc = check_row(row, seq, 0)
                if crc is None:
                    self.bad_start.add(seq)
                else:
                    self.prev[seq] = crc
                continue
            if sess not in self.prev or sess in self.bad:
                continue  # an orphan (its session's start is gone) or past the damage
            crc = check_row(row, sess, self.prev[sess])
            if sess in self.pending:
                failed = self.pending.pop(sess)
                if crc is None or row[6] is None:  # only a CRC proves the chain went on past it
                    self.bad.add(sess)
                    continue
                del failed  # it was an intruder: the chain goes on past it
            if crc is None:
                self.pending[sess] = row
            else:
                self.prev[sess] = crc

    def damaged(self, session: int) -> bool:
        return session in self.bad or session in self.pending


@dataclass(frozen=True)
class Continued:
    """A damaged session's intact part, copied into a new session to play on (``Journal.fork``)."""
    damaged: int  # the damaged session's id
    session: int  # the new session's id
    game: str
    kept: int  # events before the damage, copied
    lost: int  # events from the damage on, left unread in the old session


class _Ref:
    """In ``Journal._insert``'s data: the seq of the batch's row ``index``, known only inside."""

    def __init__(self, index: int):
        self.index = index


def check_file(path: str) -> None:
    """Refuse (``NotAJournalError``) a file that is not an SQLite database at all.

    Whether an SQLite file is ours is asked through SQLite (``PRAGMA
    application_id``), never from the raw header: in WAL mode the newest
    header may still be in the ``-wal`` file after a power cut.
    """
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError as e:
        raise NotAJournalError(f"cannot read {path}: {e.strerror}") from None
    if not head.startswith(SQLITE_MAGIC):
        raise NotAJournalError(f"{path} is not a companion journal (not an SQLite file); it was left untouched")


def make_private(path: str) -> None:
    """The journal readable by this user alone, wherever the companion runs (issue 47:
    it holds Bottoms Up's ``secret X`` moves). A missing folder is made 0700 and a
    missing journal 0600 before SQLite opens it (its ``-wal`` and ``-shm`` files take
    the journal's mode); a journal, its ``-wal`` or ``-shm``, or the companion's own
    state folder that others may read is tightened, and the log says so once."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, mode=0o700, exist_ok=True)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    wide = [(p, 0o600) for p in (path, path + "-wal", path + "-shm")]
    if folder == os.path.dirname(os.path.abspath(default_path())):  # ours: a folder a user named is theirs
        wide.append((folder, 0o700))
    told = []
    for p, mode in wide:
        try:
            was = os.stat(p).st_mode & 0o777
            if was & 0o077:
                os.chmod(p, was & mode)
                told.append(f"{os.path.basename(p) or p} {was:o}")
        except OSError:
            continue  # not there (no -wal yet), or not ours to change: SQLite says what matters
    if told:
        log.warning("journal: others could read %s (%s); now for this user alone",
                    folder, ", ".join(told))


class Journal:
    """The durable log. One connection, used by the app loop's thread.

    >>> j = Journal(":memory:")
    >>> sid = j.start_session("die", {})
    >>> j.append(sid, "move", {"move": "roll"}).seq
    2
    """

    def __init__(self, path: str, *, clock: Callable[[], str] = utc_now, read_only: bool = False):
        """``read_only``: for history, export and replay (issue 14, F4/F7): the
        file must exist; nothing is created, moved or written."""
        self.path = path
        self.clock = clock
        self.read_only = read_only
        self._scan = _Scan()
        self._crc_col = "crc"  # "NULL" when reading a schema-1 journal read-only
        if read_only and path != ":memory:" and not os.path.isfile(path):
            raise NotAJournalError(f"no journal at {path}")
        if path != ":memory:":
            check_file(path)
            if not read_only:
                try:
                    make_private(path)
                except OSError as e:
                    raise JournalError(f"cannot create the journal's folder for {path}: {e.strerror}") from None
        try:
            if read_only and path != ":memory:":
                self._db = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True,
                                           isolation_level=None, check_same_thread=False)
            else:
                self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            # damaged text is read as it is (and then fails its check), never an error mid-query
            self._db.text_factory = lambda b: b.decode("utf-8", "surrogateescape")
            self._init_schema()  # reads first: a foreign file is refused before anything is written
            if not read_only:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
        except sqlite3.OperationalError as e:
            self._close_quietly()
            if _is_busy(e):
                raise JournalBusyError(f"{path} is in use by another process; try again shortly") from None
            raise NotAJournalError(f"{path} is not a usable companion journal ({e}); it was left untouched") from None
        except sqlite3.DatabaseError as e:
            self._close_quietly()
            raise NotAJournalError(f"{path} is not a usable companion journal ({e}); it was left untouched") from None
        except UnicodeDecodeError:  # a damaged schema text
            self._close_quietly()
            raise NotAJournalError(f"{path} is damaged (its schema's text); it was left untouched") from None

    def _close_quietly(self) -> None:
        try:
            self._db.close()
        except Exception:
            pass

    def _init_schema(self) -> None:
        db = self._db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app_id == 0 and not tables and self.read_only:
            raise NotAJournalError(f"{self.path} is an empty file, not a companion journal")
        if app_id == 0 and not tables:
            # A new file: schema and identity are written before WAL is switched
            # on, so they are in the main file's header from the start.
            db.execute("PRAGMA synchronous=FULL")
            db.executescript("BEGIN IMMEDIATE;" + _SCHEMA + f"PRAGMA application_id={APPLICATION_ID};"
                             f"PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
            return
        if app_id != APPLICATION_ID or "events" not in tables:
            raise NotAJournalError(
                f"{self.path} is an SQLite file of another program (application id {app_id:#x}); "
                "it was left untouched")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise NotAJournalError(
                f"{self.path} was written by a newer companion (schema {version}); it was left untouched")
        # integrity_check, not quick_check: it also compares the session index with the
        # table (a damaged index passes quick_check, then hides rows or fails mid-query);
        # about twice the time (35 ms for 100,000 events on a laptop)
        ok = db.execute("PRAGMA integrity_check(1)").fetchone()[0]
        if ok != "ok":
            raise NotAJournalError(f"{self.path} is damaged ({ok}); it was left untouched")
        columns = {r[1] for r in db.execute("PRAGMA table_info(events)")}
        if not {"seq", "session", "time", "type", "payload", "schema"} <= columns:
            raise NotAJournalError(f"{self.path} is damaged (the events table's columns); it was left untouched")
        if "crc" not in columns:
            if self.read_only:
                self._crc_col = "NULL"
            else:  # schema 1 -> 2: old rows keep no CRC and are checked by their JSON
                db.executescript("BEGIN IMMEDIATE; ALTER TABLE events ADD COLUMN crc INTEGER;"
                                 f"PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")

    # ------------------------------------------------------------ writing

    def _insert(self, rows: Iterable[tuple[int | None, str, dict[str, Any]] | tuple[int | None, str, dict[str, Any], str]],
                expect_last: tuple[int, int] | None = None) -> list[Event]:
        """Insert rows (session or None for a new session's start; an optional fourth
        item is the time to store, else now) in one transaction.

        ``expect_last = (session, seq)``: write only if ``seq`` is still that
        session's latest event (its id when it has none), checked inside the
        same transaction; else ``StaleSessionError`` and nothing is written."""
        db = self._db
        out: list[Event] = []
        try:
            db.execute("BEGIN IMMEDIATE")
            if expect_last is not None:
                want_session, want_seq = expect_last
                (latest,) = db.execute("SELECT MAX(seq) FROM events WHERE session=?", (want_session,)).fetchone()
                if latest != want_seq:
                    db.execute("ROLLBACK")
                    raise StaleSessionError(
                        f"session {want_session} was changed elsewhere since it was opened; open it again")
            (seq,) = db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()
            prevs: dict[int, int] = {}
            seqs: list[int] = []
            for session, typ, data, *when in rows:
                seq += 1
                seqs.append(seq)
                t = when[0] if when else self.clock()
                sess = seq if session is None else session
                if isinstance(session, _Ref):
                    sess = seqs[session.index]
                data = {k: seqs[v.index] if isinstance(v, _Ref) else v for k, v in data.items()}
                if sess not in prevs:
                    last = db.execute("SELECT crc FROM events WHERE session=? ORDER BY seq DESC LIMIT 1",
                                      (sess,)).fetchone()
                    prevs[sess] = (last[0] or 0) if last else 0
                payload = json.dumps(data, separators=(",", ":"))
                crc = prevs[sess] = row_crc(prevs[sess], seq, sess, t, typ, payload, EVENT_SCHEMA)
                db.execute("INSERT INTO events(seq, session, time, type, payload, schema, crc)"
                           " VALUES (?,?,?,?,?,?,?)", (seq, sess, t, typ, payload, EVENT_SCHEMA, crc))
                out.append(Event(seq, typ, dict(data), t))
            db.execute("COMMIT")
            if any(e.type == "end" for e in out):
                self.checkpoint()  # a session's end: its events reach the main file (F10)
        except sqlite3.Error as e:
            if db.in_transaction:
                try:
                    db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            raise JournalWriteError(_write_reason(e)) from None
        return out

    def start_session(self, game: str, setup: dict[str, Any]) -> int:
        """Durably start a session; its id is the seq of its ``start`` event."""
        return self._insert([(None, "start", {"game": game, "setup": setup})])[0].seq

    def append(self, session: int, type: str, data: dict[str, Any], *, after: int | None = None) -> Event:
        """Durably append one event; returns after the commit. ``after``: see ``append_many``."""
        return self._insert([(session, type, data)], None if after is None else (session, after))[0]

    def append_many(self, session: int, items: Sequence[tuple[str, dict[str, Any]]], *,
                    after: int | None = None) -> list[Event]:
        """Durably append several events in one transaction (all or none).

        ``after``: the seq the caller believes is the session's latest event
        (the session id if none); if another writer appended since, nothing is
        written and ``StaleSessionError`` is raised."""
        return self._insert([(session, t, d) for t, d in items], None if after is None else (session, after))

    def fork(self, session: int) -> Continued:
        """Play on after damage (issue 14): a new session that starts with the same game
        and setup (its start says ``"continues": session``) and copies, with their
        times, the damaged session's events before the damage; undo events name the
        copies. The damaged session gets an ``end`` event (reason ``damaged``, naming
        the new session), so it is no longer offered to resume; its rows stay as they
        are (the journal is append-only) and ``export`` still gives its intact part.
        All in one transaction."""
        info = self.session(session)
        events, _ = self._verified(session)
        (total,) = self._db.execute("SELECT COUNT(*) - 1 FROM events WHERE session=?", (session,)).fetchone()
        index = {e.seq: i + 1 for i, e in enumerate(events)}
        rows: list[tuple] = [(None, "start", {"game": info.game, "setup": info.setup, "continues": session},
                              info.created)]
        for e in events:
            data = dict(e.data)
            if e.type == "undo" and data.get("undoes") in index:
                data["undoes"] = _Ref(index[data["undoes"]])
            rows.append((_Ref(0), e.type, data, e.time or self.clock()))
        rows.append((session, "end", {"reason": "damaged", "continued_as": _Ref(0)}))
        new = self._insert(rows)[0].seq
        return Continued(session, new, info.game, len(events), max(total - len(events), 0))

    def continue_damaged(self) -> list[Continued]:
        """Fork every damaged session not yet ended (the device does this at start)."""
        return [self.fork(s.id) for s in self.sessions() if s.damaged and not s.ended][::-1]

    # ------------------------------------------------------------ reading

    def events(self, session: int) -> list[Event]:
        """The session's events after its ``start``, in order.

        Every row is verified (its chained CRC, or its JSON for a schema-1
        row): a damaged event ends the list, and the intact part before it is
        returned; see ``damaged`` and ``fork``."""
        return self._verified(session)[0]

    def _verified(self, session: int) -> tuple[list[Event], bool]:
        rows = self._rows(session)
        good, cut = verify_rows(rows, session)
        self._refresh()
        if cut or len(rows) != self._scan.rows.get(session, 0):
            # the session index may be what is damaged (quick_check does not compare it
            # with the table, and a row it misses at the end breaks no chain): read the table
            other, other_cut = verify_rows(self._rows(session, indexed=False), session)
            if len(other) > len(good) or not other_cut:
                good, cut = other, other_cut
        if not good or good[0][0] != session:
            return [], True
        return [Event(r[0], r[3], _decode(r[4]) or {}, r[2]) for r in good[1:]], cut

    def _rows(self, session: int, *, indexed: bool = True) -> list[Row]:
        return self._db.execute(
            f"SELECT seq, session, time, type, payload, schema, {self._crc_col} FROM events"
            f"{'' if indexed else ' NOT INDEXED'} WHERE session=? ORDER BY seq", (session,)).fetchall()

    def _refresh(self) -> None:
        """Verify the rows appended since the last call (by anyone), in table order."""
        self._scan.feed(self._db.execute(
            f"SELECT seq, session, time, type, payload, schema, {self._crc_col} FROM events WHERE seq > ? ORDER BY seq",
            (self._scan.upto,)))

    def damaged(self, session: int) -> bool:
        """Whether the session's replay stops at a damaged event."""
        return self._verified(session)[1]

    def session(self, session: int) -> SessionInfo:
        for s in self.sessions(where_id=session):
            return s
        raise KeyError(session)

    def number(self, session: int) -> int:
        """The session's number (issue 34): 1, 2, 3 ... in the order the sessions were
        started, what the device, ``history``, the exports and the console show ("#3")
        and what ``export`` takes. The id (the seq of the ``start`` event) has gaps:
        the third game could be #722. A start whose text is damaged keeps its number,
        so the numbers after it never move. KeyError if there is no such session."""
        self._refresh()
        return self._scan.numbers[session]

    def by_number(self, number: int) -> SessionInfo:
        """The session shown as ``#number`` (``number``); KeyError if there is none."""
        self._refresh()
        if not 0 < number <= len(self._scan.ids):
            raise KeyError(number)
        return self.session(self._scan.ids[number - 1])

    def sessions(self, *, where_id: int | None = None) -> list[SessionInfo]:
        """Every session, newest first."""
        self._refresh()
        q = ("SELECT s.seq, s.payload, s.time, MAX(e.time), COUNT(e.seq) - 1,"
             " SUM(e.type = 'end') FROM events s JOIN events e ON e.session = s.seq"
             " WHERE s.type = 'start'")
        args: tuple = ()
        if where_id is not None:
            q += " AND s.seq = ?"
            args = (where_id,)
        q += " GROUP BY s.seq ORDER BY s.seq DESC"
        out = []
        for sid, payload, created, last, n, ended in self._db.execute(q, args).fetchall():
            p = _decode(payload)
            if (sid in self._scan.bad_start or sid not in self._scan.prev or p is None
                    or not isinstance(p.get("game"), str) or not isinstance(p.get("setup", {}), dict)):
                continue  # a damaged start: nothing of the session can be replayed; the others are untouched
            cont = p.get("continues")
            out.append(SessionInfo(sid, p["game"], p.get("setup", {}), created, last, n, bool(ended),
                                   self._scan.damaged(sid), cont if type(cont) is int else None,
                                   self._scan.numbers.get(sid, 0)))
        return out

    def checkpoint(self) -> bool:
        """Copy the WAL into the main file (issue 14, F10): after it, losing the
        ``-wal`` file or copying ``journal.db`` alone loses nothing. False if a
        reader kept part of it back (tried again at the next checkpoint)."""
        if self.read_only or self.path == ":memory:":
            return True
        try:
            busy, _, _ = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error:
            return False
        return not busy

    def backup(self, dest: str) -> int:
        """A consistent copy at ``dest`` through SQLite's backup API, written
        beside it and renamed into place; returns its number of events."""
        folder = os.path.dirname(os.path.abspath(dest))
        tmp = os.path.join(folder, f".{os.path.basename(dest)}.{os.getpid()}.tmp")
        try:
            out = sqlite3.connect(tmp)
            try:
                self._db.backup(out)
                out.execute("PRAGMA journal_mode=DELETE")
                (n,) = out.execute("SELECT COUNT(*) FROM events").fetchone()
            finally:
                out.close()
            with open(tmp, "rb") as f:
                os.fsync(f.fileno())
            os.replace(tmp, dest)
        except (OSError, sqlite3.Error) as e:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise JournalError(f"cannot back up to {dest}: {getattr(e, 'strerror', None) or e}") from None
        return n

    def count(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0]

    def integrity(self) -> str:
        return self._db.execute("PRAGMA integrity_check").fetchone()[0]

    def close(self) -> None:
        self._close_quietly()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _is_busy(e: sqlite3.Error) -> bool:
    """A lock held by another connection (F4), not damage: SQLITE_BUSY or SQLITE_LOCKED."""
    code = getattr(e, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    msg = str(e).lower()
    return "locked" in msg or "busy" in msg


def _write_reason(e: sqlite3.Error) -> str:
    msg = str(e).lower()
    if "full" in msg:
        return "the journal's disk is full: this play was not recorded"
    if "readonly" in msg or "read-only" in msg:
        return "the journal is read-only: this play was not recorded"
    return f"the journal could not record this play ({e})"
