"""What the scoreboard page gives away (RULINGS V-1): whole seeded
games of each kind, played move by move; after every move every response
(the projection, the stream's data, the pages, the history, the downloads)
is searched for what the table may not see: a Bottoms Up secret color
before the end (BU-3), the seed, a future draw (the bag's contents), the
journal's path and the device's secret."""
from __future__ import annotations

import random

import pytest
from starlette.testclient import TestClient

from companion import public
from companion.engine import CHANCE
from companion.journal import Journal
from companion.session import Session
from companion.web import Board, WebApp, new_secret

SEED = 987654321
GAMES = [
    ("undercut", {"players": ["Ann", "Bob", "Cy"]}),
    ("undercut", {"players": ["Ann", "Bob", "Cy", "Di", "Eve"], "level": "full"}),
    ("bag_of_ice", {"players": ["Ann", "Bob"]}),
    ("bottoms_up", {"players": ["Ann", "Bob", "Cy", "Di"]}),
    ("bottoms_up", {"players": ["Ann", "Bob", "Cy", "Di", "Eve"], "secret": "device"}),
]


def secrets_of(s: Session) -> list[str]:
    """The texts that would give a secret color away: each ``secret X`` record line."""
    return [str(p.move) for p in s.fold.moves if str(p.move).startswith("secret ")]


def responses(c: TestClient, secret: str, sid: int) -> dict[str, str]:
    out = {}
    for path in ("", "tv", "history", "static/app.js", "static/history.js", "state.json", "history.json",
                 f"export/{sid}.csv", f"export/{sid}.json"):
        r = c.get(f"/{secret}/{path}")
        assert r.status_code in (200, 403), (path, r.status_code)
        out[path] = r.text
    png = c.get(f"/{secret}/export/{sid}.png")
    assert png.status_code == 200
    out["png"] = png.content.decode("latin-1")
    return out


@pytest.mark.parametrize("game, setup", GAMES)
def test_no_response_gives_a_secret_away(tmp_path, game, setup):
    path = str(tmp_path / "journal.db")
    j = Journal(path)
    s = Session.start(j, game, setup, random.Random(SEED))
    board = Board()
    secret = new_secret()
    pick = random.Random(SEED + 1)
    checked = 0
    with TestClient(WebApp(board, path, secret)) as c:
        for step in range(400):
            st = s.state
            if st.is_terminal():
                break
            if st.current_player != CHANCE:
                s.play(pick.choice(list(st.legal_moves())))
            v = public.view(s)
            board.set(v["seq"], v)
            if step % 7 and not s.state.is_terminal():
                continue  # every 7th position, and the last: the whole site is read
            over = s.state.is_terminal()
            hidden = [] if over else secrets_of(s)
            for where, text in responses(c, secret, s.id).items():
                for bad in hidden:
                    assert bad not in text, (where, bad)
                assert str(SEED) not in text, where
                assert path not in text and str(tmp_path) not in text, where
                assert secret not in text, where
                assert '"bag":{' not in text.replace(" ", ""), where  # what is in the bag tells the draws
            if not over:
                table = c.get(f"/{secret}/state.json").json()["table"]
                assert table.get("secret_colors") is None
            checked += 1
        assert s.state.is_terminal(), "the random game should end"
        if game == "bottoms_up":
            final = c.get(f"/{secret}/state.json").json()
            assert final["table"]["secret_colors"] and all(final["table"]["secret_colors"])  # BU-3: at the end
            assert c.get(f"/{secret}/export/{s.id}.json").status_code == 200
    assert checked >= 3
    j.close()


def test_an_unfinished_game_with_secret_colors_refuses_its_record(tmp_path):
    path = str(tmp_path / "journal.db")
    j = Journal(path)
    s = Session.start(j, "bottoms_up", {"players": ["Ann", "Bob", "Cy", "Di"]}, random.Random(SEED))
    secret = new_secret()
    with TestClient(WebApp(Board(), path, secret)) as c:
        r = c.get(f"/{secret}/export/{s.id}.json")
        assert r.status_code == 403 and "BU-3" in r.text
        hist = c.get(f"/{secret}/history.json").json()
        assert hist["games"][0]["hidden"] is True
    j.close()
