"""Sessions: durable play, undo as an appended event, resume as a replay (issue 2)."""
import random

import pytest

from companion.errors import IllegalMoveError
from companion.journal import Journal
from companion.session import Session


@pytest.fixture
def journal(tmp_path):
    j = Journal(str(tmp_path / "j.db"))
    yield j
    j.close()


def test_die_roll_is_recorded_then_undone_and_the_undone_roll_stays_in_history(journal):
    s = Session.start(journal, "die", {}, random.Random(5))
    s.play("roll")  # the device picks the face at once: a chance outcome, recorded
    face = s.state.rolls[-1]
    assert [e.type for e in journal.events(s.id)] == ["move", "move"]
    undone = s.undo()
    assert len(undone) == 2 and s.state.rolls == ()  # the roll and its outcome
    hist = s.history()
    assert [(h.text, h.undone) for h in hist] == [("roll", True), (f"face {face}", True)]
    assert [e.type for e in journal.events(s.id)] == ["move", "move", "undo", "undo"]


def test_resume_is_a_replay_of_the_journal(journal):
    s = Session.start(journal, "bag", {"preset": "bag_of_ice"}, random.Random(2))
    s.play("draw M")
    s.play("keep")
    s.play("draw any")
    s.undo()
    again = Session.resume(journal, s.id, random.Random(99))
    assert again.state.to_json() == s.state.to_json()
    assert len(again.state.bag) == 20


def test_refused_move_writes_nothing(journal):
    s = Session.start(journal, "bag", {"preset": "undercut"}, random.Random(2))
    n = journal.count()
    with pytest.raises(IllegalMoveError):
        s.play("keep")
    assert journal.count() == n


def test_physical_draws_wait_for_the_table(journal):
    s = Session.start(journal, "bag", {"preset": "undercut", "bag": "physical"}, random.Random(2))
    s.play("draw L")
    assert s.state.is_chance_node()  # the table draws and enters the piece
    s.play("got kL")
    assert str(s.state.held) == "kL"
    s.undo()  # back to the entry, not further
    assert s.state.is_chance_node()


def test_undo_with_nothing_to_undo_is_refused(journal):
    s = Session.start(journal, "die", {}, random.Random(1))
    with pytest.raises(IllegalMoveError):
        s.undo()


def test_record_text_replays_to_the_same_state(journal):
    from companion import records
    s = Session.start(journal, "die", {}, random.Random(3))
    for _ in range(4):
        s.play("roll")
    s.undo()
    rec = records.parse_lines(s.record_text().splitlines())
    assert records.replay(rec).fold.state == s.state
