"""Session numbers: the table sees 1, 2, 3 ... in the order the sessions
were started, the same on the device, in ``companion history``, in the exports and on
the serial console, and ``export N`` takes that number. The journal's ids (the seq of
each ``start`` event) have gaps: the third game played was "Undercut #722"."""
from __future__ import annotations

import json
import random

import pytest

from companion.cli import main
from companion.console import Console, direct
from companion.export import session_summary, sheet_lines
from companion.io import Key
from companion.journal import Journal
from companion.session import Session
from companion.ui.app import App
from companion.ui.screens import open_session

SHEET = {"players": ["Ann", "Bob", "Cat"], "level": "score", "start": 0}
WIN = ["tree", "tree", "triplets", "triplets", "done", "done", "done", "pips 5", "pips 7"]


def _three_sessions(path: str) -> tuple[Session, Session, Session]:
    """A die rolled 30 times, a won score-sheet Undercut, then an Undercut under way:
    sessions #1, #2, #3, whose ids are far apart."""
    j = Journal(path)
    rng = random.Random(1)
    die = Session.start(j, "die", {}, rng)
    for _ in range(30):
        die.play("roll")
    won = Session.start(j, "undercut", SHEET, rng)
    for m in WIN:
        won.play(m)
    third = Session.start(j, "undercut", SHEET, rng)
    third.play("tree")
    j.close()
    return die, won, third


def test_the_journal_numbers_sessions_in_the_order_they_were_started(tmp_path):
    path = str(tmp_path / "j.db")
    die, won, third = _three_sessions(path)
    assert (die.number, won.number, third.number) == (1, 2, 3)
    assert third.id > 60  # the id: the seq of its start event
    with Journal(path, read_only=True) as j:
        assert [s.number for s in j.sessions()] == [3, 2, 1]  # newest first
        assert j.by_number(3).id == third.id and j.number(won.id) == 2
        assert Session.resume(j, third.id, random.Random(1)).number == 3


def test_the_device_names_the_third_session_number_3(tmp_path):
    path = str(tmp_path / "j.db")
    _die, _won, third = _three_sessions(path)
    app = App(Journal(path), rng=random.Random(1))
    open_session(app, third.id)
    assert app.top.session_title() == "Undercut #3"
    app.handle(Key.BACK)  # the session menu
    assert app.top.title == "Undercut #3"


def test_history_the_exports_and_the_console_show_and_take_the_number(tmp_path, capsys):
    path = str(tmp_path / "j.db")
    _die, won, third = _three_sessions(path)
    assert main(["history", "--journal", path]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [int(line.split()[0]) for line in lines] == [3, 2, 1]
    assert "Undercut" in lines[0] and "open" in lines[0] and "won by" in lines[1]
    # the number history shows is the one export takes
    assert main(["export", "2", "--journal", path]) == 0
    record = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert record[0]["session"] == 2 and [e["move"] for e in record[1:]][:2] == WIN[:2]
    assert main(["export", "3", "--journal", path, "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("Ann,Bob,Cat")
    assert main(["export", str(third.id), "--journal", path]) == 2  # the id is no number shown anywhere
    assert "no session" in capsys.readouterr().err
    with Journal(path, read_only=True) as j:
        summary = session_summary(j, j.session(won.id))
        assert sheet_lines(summary)["title"].endswith("#2") and summary.to_json()["number"] == 2
    app = App(Journal(path), rng=random.Random(1))
    console = Console(direct(app))
    games = console.handle("games")
    assert games[1].startswith("#3 ") and games[2].startswith("#2 ") and games[3].startswith("#1 ")
    assert console.handle("export 2 json")[0] == "OK export 2 json"
    events = console.handle("events 3")
    assert json.loads(events[1])["session"] == 3 and json.loads(events[1])["move"] == "tree"
    assert console.handle("status")[2] == "session: -"
    open_session(app, third.id)
    assert console.handle("status")[2] == "session: 3 undercut"


def test_a_damaged_start_keeps_its_number_so_the_later_ones_never_move(tmp_path):
    """A session whose start text is damaged can no longer be replayed or listed, but
    the table has seen "#3" for the one after it: that stays #3."""
    from .test_journal_checksum import _flip, _journal
    path = str(tmp_path / "j.db")
    a, b, c = _journal(path)  # three die sessions; b's setup has a note
    with Journal(path, read_only=True) as j:
        assert [j.number(s) for s in (a, b, c)] == [1, 2, 3]
    _flip(path, b'"note":"second"', b'"note":"secund"')
    with Journal(path, read_only=True) as j:
        assert [s.id for s in j.sessions()] == [c, a]  # b is gone from the list
        assert [s.number for s in j.sessions()] == [3, 1] and j.by_number(3).id == c
        with pytest.raises(KeyError):  # a damaged session cannot be exported: no session #2
            j.by_number(2)
