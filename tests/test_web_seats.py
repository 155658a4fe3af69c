"""A seat's own page (issue 41, RULINGS V-3): the address the device hands to one
Bottoms Up player, what it shows (the public page plus that seat's color, and
nothing that depends on another seat's color), and when it ends (the game's end,
an undo to before the colors were drawn, a renewal of the device's address)."""
from __future__ import annotations

import json
import random
import time

import pytest
from starlette.testclient import TestClient

from companion import public
from companion.journal import Journal
from companion.seats import Seats, new_token, seat_part
from companion.session import Session
from companion.web import Board, WebApp, new_secret
from hardware.web_server import WebServer
from tests.test_web import Stream, free_port

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


class FakeApp:
    def __init__(self, *sessions) -> None:
        self.stack = [type("Playing", (), {"session": s})() for s in sessions]


# the device's draw with these seeds (Session.start draws every seat's color): seat 1
# is yellow in both, the other seats differ
SEED_A, SEED_B = 0, 9   # yellow white red green / yellow black green blue


def bottoms_up(tmp_path, name: str, seed: int = SEED_A, moves: int = 12) -> tuple[Journal, Session]:
    """A Bottoms Up game with the device's colors drawn by ``seed``, then ``moves``
    moves chosen the same way whatever the colors (the first legal move's text)."""
    j = Journal(str(tmp_path / f"{name}.db"))
    s = Session.start(j, "bottoms_up", {"players": PLAYERS, "secret": "device"}, random.Random(seed))
    for _ in range(moves):
        st = s.state
        if st.is_terminal():
            break
        s.play(str(sorted(st.legal_moves(), key=str)[0]))
    return j, s


def client_for(j: Journal, s: Session, secret: str = "") -> tuple[TestClient, WebApp, Board]:
    board = Board()
    board.publish(FakeApp(s))
    app = WebApp(board, j.path, secret or new_secret())
    return TestClient(app), app, board


def hand_over(board: Board, s: Session, seat: int) -> str:
    """What the device does when a player holds OK on their color: the seat's token
    made, and the loop's publish after the press."""
    token = board.seats.token_for(s, seat, 1)
    board.publish(FakeApp(s))
    return token


def test_a_token_has_96_random_bits_and_is_kept_per_seat(tmp_path):
    tokens = {new_token() for _ in range(300)}
    assert len(tokens) == 300 and all(len(t) == 16 for t in tokens)
    j, s = bottoms_up(tmp_path, "a")
    seats = Seats()
    t0 = seats.token_for(s, 0)
    assert t0 and seats.token_for(s, 0) == t0 and seats.token_for(s, 1) != t0
    assert seats.lookup(t0).seat == 0 and seats.lookup("x" * 16) is None
    assert seats.lookup("é" * 16) is None  # no 500 on a non-ASCII guess
    j.close()


def test_no_token_without_a_color_the_device_drew(tmp_path):
    j = Journal(str(tmp_path / "j.db"))
    s = Session.start(j, "bottoms_up", {"players": PLAYERS, "secret": "physical"}, random.Random(1))
    assert seat_part(s, 0) is None and Seats().token_for(s, 0) is None  # colors kept at the table
    s2 = Session.start(j, "undercut", {"players": PLAYERS}, random.Random(1))
    assert seat_part(s2, 0) is None and Seats().token_for(s2, 0) is None  # no secret colors at all
    j.close()


def test_the_seat_page_is_the_public_page_plus_its_own_color(tmp_path):
    j, s = bottoms_up(tmp_path, "a")
    c, app, board = client_for(j, s)
    token = hand_over(board, s, 1)
    seat = c.get(f"/{token}/state.json").json()
    pub = c.get(f"/{app.secret}/state.json").json()
    assert seat.pop("seat") == {"seat": 1, "name": "Bob", "color": "white", "number": 1, "color_word": "white",
                                "state": "live"}
    assert seat == pub                                   # nothing else differs
    assert "white" not in json.dumps(pub)                # V-1: the public page never has it
    for path in ("", "history", "static/app.js", "history.json"):
        assert c.get(f"/{token}/{path}").status_code == 200, path
    assert c.post(f"/{token}/state.json").status_code == 405  # V-2: it only looks
    j.close()


def test_other_seats_colors_change_no_byte_of_a_seats_page(tmp_path):
    """The differential test: two games alike but for the other seats' colors."""
    ja, a = bottoms_up(tmp_path, "a")
    jb, b = bottoms_up(tmp_path, "b", SEED_B)
    assert not a.state.is_terminal() and a.last_seq == b.last_seq
    out = []
    secret = new_secret()  # the same device (a seat page links to the device's public pages)
    for j, s in ((ja, a), (jb, b)):
        c, app, board = client_for(j, s, secret)
        token = hand_over(board, s, 0)
        got = {}
        for path in ("", "state.json", "history.json", "export/1.json", "export/1.csv", "export/1.png"):
            r = c.get(f"/{token}/{path}")
            got[path] = (r.status_code, r.content)
        port = free_port()
        with WebServer(app, "127.0.0.1", port) as srv:
            assert srv.started.wait(10)
            st = Stream(port, f"/{token}/events")
            assert st.wait(1)
            got["events"] = st.events
            st.close()
        out.append(got)
    assert out[0] == out[1]
    assert out[0]["export/1.json"][0] == 403  # the record of an unfinished game holds secrets
    ja.close()
    jb.close()


def test_the_public_page_is_the_same_with_and_without_seat_pages(tmp_path):
    j, s = bottoms_up(tmp_path, "a")
    c, app, board = client_for(j, s)
    before = {p: c.get(f"/{app.secret}/{p}").content for p in ("", "state.json", "history.json")}
    for seat in range(4):
        assert c.get(f"/{hand_over(board, s, seat)}/state.json").status_code == 200
    board.publish(FakeApp(s))
    after = {p: c.get(f"/{app.secret}/{p}").content for p in ("", "state.json", "history.json")}
    assert before == after
    j.close()


def test_a_color_that_is_gone_ends_the_seats_address(tmp_path):
    """An undo to before the draw would take the seat's color away. This device never
    does it (an undo to before the first small keeps the colors drawn, BU-3), so
    the rule is tried on the state such an undo would leave."""
    import dataclasses
    j, s = bottoms_up(tmp_path, "a", moves=0)
    c, app, board = client_for(j, s)
    gone, kept = hand_over(board, s, 3), hand_over(board, s, 0)
    undone = dataclasses.replace(s.state, secrets=s.state.secrets[:3] + (None,))
    undo = type("Undone", (), {"id": s.id, "finished": False, "state": undone, "last_seq": s.last_seq + 1,
                                "fold": s.fold, "setup": s.setup, "game": s.game})()
    assert board.seats.prune(undo) == [gone]
    board.publish(FakeApp(s))
    assert c.get(f"/{gone}/state.json").status_code == 404
    assert c.get(f"/{kept}/state.json").status_code == 200  # seat 1 keeps its color and its page
    j.close()


def test_the_end_of_the_game_ends_the_color_and_the_page_keeps_the_final_view(tmp_path):
    """V-3 (amended 2026-11-29): at the game's end the seat page shows the public final
    view with the winner, on a reload and on its stream too, and over the next game;
    only its box says the color has ended."""
    j, s = bottoms_up(tmp_path, "a", moves=0)
    c, app, board = client_for(j, s)
    token = hand_over(board, s, 2)
    rng = random.Random(2)
    for _ in range(5000):              # played out by seeded choices
        if s.state.is_terminal():
            break
        s.play(str(rng.choice(sorted(s.state.legal_moves(), key=str))))
    board.publish(FakeApp(s))
    tag, text = board.seat_snapshot(token)
    view = json.loads(text)
    assert view.pop("seat") == {"seat": 2, "name": "Cy", "number": 1, "state": "over"}
    assert view == json.loads(board.snapshot()[1]) and view["end"]  # the public final view, its winner
    r = c.get(f"/{token}/state.json")
    assert r.status_code == 200 and r.json()["end"] == view["end"]    # a fresh load too
    port = free_port()
    with WebServer(app, "127.0.0.1", port) as srv:
        assert srv.started.wait(10)
        st = Stream(port, f"/{token}/events")
        assert st.wait(1)
        assert json.loads(st.events[0][1])["seat"]["state"] == "over"
        assert all(kind != "gone" for kind, _data in st.events)
        st.close()
    s2 = Session.start(j, "bottoms_up", {"players": PLAYERS, "secret": "device"}, random.Random(SEED_B))
    board.publish(FakeApp())               # the main menu, then the next game
    board.publish(FakeApp(s2))
    later = json.loads(board.seat_snapshot(token)[1])
    assert later["session"]["id"] == s.id and later["end"] == view["end"] and later["playing"] is False
    assert later["seat"]["state"] == "over" and json.loads(board.snapshot()[1])["session"]["id"] == s2.id
    j.close()


def test_end_session_and_leave_kept_take_the_seat_page_off_the_next_game(tmp_path):
    """V-3: while the device plays another game or none, a seat page says its game is
    not being played, with no board and no color; a kept game's page comes back."""
    j, s = bottoms_up(tmp_path, "a")
    c, app, board = client_for(j, s)
    token = hand_over(board, s, 1)
    other = Session.start(j, "bottoms_up", {"players": PLAYERS, "secret": "device"}, random.Random(SEED_B))
    board.publish(FakeApp())                 # Leave (kept): the main menu
    away = json.loads(board.seat_snapshot(token)[1])
    assert away["seat"] == {"seat": 1, "name": "Bob", "number": 1, "state": "away"}
    assert away["players"] == [] and away["table"] == {} and away["session"]["id"] == s.id
    board.publish(FakeApp(other))            # another game: never its board under this address
    assert json.loads(board.seat_snapshot(token)[1]) == {**away, "seq": json.loads(board.snapshot()[1])["seq"]}
    board.publish(FakeApp(s))                # resumed: the color is back
    assert json.loads(board.seat_snapshot(token)[1])["seat"]["color"] == "white"
    s.end("ended by the players")            # End session > Yes
    board.publish(FakeApp())
    ended = json.loads(board.seat_snapshot(token)[1])
    assert ended["seat"]["state"] == "ended" and ended["players"] == [] and "white" not in json.dumps(ended)
    board.publish(FakeApp(other))
    assert json.loads(board.seat_snapshot(token)[1])["seat"]["state"] == "ended"
    assert c.get(f"/{token}/state.json").status_code == 200
    j.close()


def test_renewal_ends_every_seat_address(tmp_path):
    j, s = bottoms_up(tmp_path, "a")
    c, app, board = client_for(j, s)
    tokens = [hand_over(board, s, i) for i in range(4)]
    board.end_seats()               # what PageService.renew does, with the server's renew
    app.renew(new_secret())
    assert all(c.get(f"/{t}/state.json").status_code == 404 for t in tokens)
    j.close()


def test_the_devices_renewal_ends_every_seat_page(tmp_path):
    from bench.live import LiveTable
    from bench.scripts_bottoms_up import START
    import urllib.error
    import urllib.request
    with LiveTable(str(tmp_path)) as t:
        t.press(*START, "hold-ok")
        t.settle()
        url = t.call(lambda app: app.top.address)
        assert urllib.request.urlopen(url + "state.json", timeout=5).status == 200
        t.press("release")
        t.call(lambda app: app.web.renew(app))
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(url + "state.json", timeout=5)
        assert e.value.code == 404


@pytest.mark.parametrize("path", ["/%C3%A9/state.json", "/" + "A" * 16 + "/state.json"])
def test_a_wrong_token_is_a_bare_404(tmp_path, path):
    j, s = bottoms_up(tmp_path, "a")
    c, _app, board = client_for(j, s)
    hand_over(board, s, 0)
    assert c.get(path).status_code == 404
    j.close()


def test_no_seat_address_in_the_journal_the_logs_or_the_exports(tmp_path, caplog, capfd):
    import glob
    import logging
    import urllib.request
    from bench.live import LiveTable
    from bench.scripts_bottoms_up import START, TOUR
    caplog.set_level(logging.DEBUG)
    with LiveTable(str(tmp_path)) as t:
        tokens = []
        t.press(*START)
        for _ in range(4):                 # every player looks, and each seat's page is opened
            t.press("hold-ok")
            t.settle()
            url = t.call(lambda app: app.top.address)
            tokens.append(url.rstrip("/").rsplit("/", 1)[1])
            assert urllib.request.urlopen(url + "state.json", timeout=5).status == 200
            urllib.request.urlopen(url, timeout=5).read()
            t.press("release")
        t.press(*TOUR[8:], *["ok"] * 10)
        t.settle()
        exports = [public_export(t, fmt) for fmt in ("csv", "png")]
    assert len(set(tokens)) == 4
    stored = b"".join(open(f, "rb").read() for f in glob.glob(str(tmp_path / "journal.db*")))
    logged = caplog.text + "".join(capfd.readouterr())
    for token in tokens:
        assert token.encode() not in stored and token not in logged
        assert all(token.encode() not in e for e in exports)


def public_export(t, fmt: str) -> bytes:
    from companion.journal import Journal
    with Journal(t.journal.path, read_only=True) as j:
        return public.export(j, 1, fmt)
