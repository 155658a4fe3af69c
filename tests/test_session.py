"""Sessions: durable play, undo as an appended event, resume as a replay."""
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


def test_history_grows_incrementally_and_equals_a_fresh_refold(journal):
    """history() goes on from its last call; a resumed copy (fresh re-fold) agrees line for line."""
    s = Session.start(journal, "die", {}, random.Random(7))
    s.play("roll")
    first = s.history()
    assert len(first) == 2 and not any(h.undone for h in first)
    s.play("roll")
    s.undo()
    s.play("roll")
    again = Session.resume(journal, s.id, random.Random(0)).history()
    assert s.history() == again
    assert [h.undone for h in again] == [False, False, True, True, False, False]


def test_last_line_is_what_undo_reaches_first(journal):
    s = Session.start(journal, "die", {}, random.Random(3))
    assert s.last_line() is None
    s.play("roll")
    s.play("roll")
    live = [h.line for h in s.history() if not h.undone]
    assert s.last_line() == live[-1]
    s.undo()
    live = [h.line for h in s.history() if not h.undone]
    assert s.last_line() == live[-1]
    s.undo()
    assert s.last_line() is None


def test_undo_names_the_decision_only_when_the_device_played_on_past_one_draw(journal):
    """A roll and its face are one decision said by the face; two rolls back to back
    are two decisions: the undo takes back the last one only."""
    s = Session.start(journal, "die", {}, random.Random(3))
    assert not s.undo_names_decision() and s.undo_first_line() is None
    s.play("roll")  # the decision and its chance outcome
    assert s.undo_span() == 2 and not s.undo_names_decision()
    s.play("roll")
    assert s.undo_span() == 2 and not s.undo_names_decision()


def test_unfinished_sees_play_made_behind_the_apps_back(journal):
    """The main menu's Resume list: answered from the open session, yet a session
    another writer (the serial console, a second process) finished is dropped."""
    from companion.ui.app import App
    app = App(journal, rng=random.Random(1))
    s = app.start_session("die", {})
    assert app.unfinished() == [s.id]
    other = Session.resume(journal, s.id, random.Random(2))  # another writer on the same journal
    other.end("closed elsewhere")
    assert app.unfinished() == []
    t = app.start_session("die", {})
    t.play("roll")
    assert app.unfinished() == [t.id]


def test_unfinished_does_not_replay_the_open_session(journal, monkeypatch):
    from companion.ui.app import App
    app = App(journal, rng=random.Random(1))
    s = app.start_session("die", {})
    s.play("roll")

    def no_replay(*a, **k):
        raise AssertionError("the open session was replayed from the journal")
    monkeypatch.setattr(Session, "resume", no_replay)
    assert app.unfinished() == [s.id]


def test_a_stale_copy_of_a_session_cannot_write(journal):
    """Two copies of one session (say the screen's and one opened for its history):
    once one has written, the other is refused and the journal stays a clean fold."""
    from companion.errors import StaleSessionError
    a = Session.start(journal, "die", {}, random.Random(1))
    b = Session.resume(journal, a.id, random.Random(2))
    a.play("roll")
    n = journal.count()
    for act in (lambda: b.play("roll"), lambda: b.end("x")):
        with pytest.raises(StaleSessionError):
            act()
    assert journal.count() == n
    again = Session.resume(journal, a.id, random.Random(3))
    assert again.state.to_json() == a.state.to_json()
    again.play("roll")  # a fresh copy writes on
    assert journal.count() == n + 2
    with pytest.raises(StaleSessionError):  # now `a` is the stale one, with a move it would undo
        a.undo()
    assert journal.count() == n + 2
    assert Session.resume(journal, a.id, random.Random(4)).state.to_json() == again.state.to_json()


def test_an_undone_roll_comes_out_the_same_when_rolled_again_even_after_a_resume(journal):
    """Undo fixes a wrong press, it does not re-roll: a player could undo a Bag of Ice
    bust in two presses and rolled a better piece. A device outcome taken back comes
    out the same when the same position draws again, in play and after a resume
    (the journal holds what was taken back), whatever the generator says."""
    for seed in range(5):
        s = Session.start(journal, "die", {}, random.Random(seed))
        s.play("roll")
        face = s.state.rolls[-1]
        s.undo()
        s.play("roll")
        assert s.state.rolls[-1] == face
        s.undo()
        again = Session.resume(journal, s.id, random.Random(seed + 100))
        again.play("roll")
        assert again.state.rolls[-1] == face


def test_an_undone_bag_of_ice_bust_stays_a_bust_B4(journal):
    """B-4: a red piece busts and the turn ends. Undoing the bust and rolling again
    gives the same face and, with the same size, the same red piece."""
    from companion.games.bag_of_ice import Phase

    def ann_draws_on(s):  # Ann rolls (the first size on two-size faces) until her turn ends
        for _ in range(12):
            st = s.state
            if st.phase == Phase.SIZE:
                s.play(st.legal_moves()[0])
            elif st.phase == Phase.DECIDE and st.active == 0:
                s.play("roll")
            else:
                return

    for seed in range(40):
        s = Session.start(journal, "bag_of_ice", {"players": ["Ann", "Bob"], "start": 0}, random.Random(seed))
        ann_draws_on(s)
        if s.state.active == 1 and s.state.totals[0] == 0 and s.history()[-1].text.startswith("got r"):
            bust = s.history()[-1].text
            s.undo()  # back to before the last draw's decision
            while s.state.phase != Phase.DECIDE or s.state.active != 0:
                s.undo()
            ann_draws_on(s)
            assert s.history()[-1].text == bust and s.state.active == 1
            return
    pytest.fail("no bust in 40 seeds")
