"""The scoreboard page without a browser: what the public
projection (companion/public.py, V-1) now carries for the page and where it comes
from: the winner crowned with the rule's reason (U-13/U-14, B-6, BU-12), the last
change that stands out (a score, a Bag of Ice bust, an undo), the Bag of Ice
screen's odds and advice taken from the device's own code (B-9, B-10), the
roll-off in pips, the Bottoms Up secret colors named and what each scored (BU-3,
BU-11), pieces in words, the page following the device's screen, French words,
no ruling ids in what players read."""
from __future__ import annotations

import random
import re
from typing import Any

import pytest

from companion import public
from companion.shown import Shown
from companion.engine import CHANCE
from companion.games import boi_win
from companion.games.boi_odds import advice_for
from companion.i18n import language, set_language
from companion.journal import Journal
from companion.session import Session
from companion.ui import bag_of_ice as boi_ui
from companion.words import page
from companion.words.pieces import color_word, size_word
from companion.web import Board
from tests.web_util import finished

RULING_ID = re.compile(r"\b(U|B|BU|V)-\d+\b")


@pytest.fixture
def journal(tmp_path):
    j = Journal(str(tmp_path / "j.db"))
    yield j
    j.close()


@pytest.fixture
def french():
    old = language()
    set_language("fr")
    yield
    set_language(old)


def strings(x: Any):
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from strings(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from strings(v)


# ---------------------------------------------------------------- the winner crowned


@pytest.mark.parametrize("game, n, why, low", [
    ("undercut", 3, "lowest score wins", True),
    ("bag_of_ice", 2, "first to reach 60 points wins", False),
    ("bottoms_up", 4, "highest score wins", False),
])
@pytest.mark.parametrize("seed", [5, 11])
def test_the_winner_is_crowned_with_the_rules_reason_and_the_final_order(journal, game, n, why, low, seed):
    s = finished(journal, game, {"players": ["Ann", "Bob", "Cy", "Di"][:n]}, seed)
    v = public.view(s)
    end = v["end"]
    out = s.state.outcome()
    names = [p["name"] for p in v["players"]]
    assert end["names"] == [names[i] for i in out.winners]
    assert end["title"] == ("Shared win" if len(out.winners) > 1 else "Winner")
    assert end["reason"].startswith(why)
    scores = [p["score"] for p in v["players"]]
    order = end["order"]
    assert sorted(order) == list(range(n))
    assert set(order[:len(out.winners)]) == set(out.winners)  # the winners first
    rest = [scores[i] for i in order[len(out.winners):]]
    assert rest == sorted(rest, reverse=not low)  # then by score, the rule's way
    assert v["result"] and v["winners"] == list(out.winners)


def test_an_undercut_tie_says_how_it_was_broken(journal):
    for seed in range(1, 60):  # a seeded game whose lowest score is tied (U-13, U-14)
        s = finished(journal, "undercut", {"players": ["Ann", "Bob", "Cy", "Di", "Eve"], "level": "full"}, seed)
        if len(s.state.tied) > 1:
            break
    else:
        pytest.skip("no tied game among the seeds")
    reason = public.view(s)["end"]["reason"]
    assert reason.startswith("lowest score wins · ")
    assert reason.split(" · ")[1] in ("tie broken by pips", "tie broken by pieces", "same pips and pieces")


# ---------------------------------------------------------------- what changed the score


def boi_until(s: Session, pick: random.Random, done, limit: int = 3000) -> None:
    for _ in range(limit):
        if done(s) or s.state.is_terminal():
            return
        s.play(pick.choice(list(s.state.legal_moves())))
    raise AssertionError("never reached")


def test_a_score_a_bust_and_an_undo_stand_out_until_the_next_change(journal):
    s = Session.start(journal, "bag_of_ice", {"players": ["Ann", "Bob", "Cy"]}, random.Random(2))
    pick = random.Random(3)
    boi_until(s, pick, lambda s: s.state.history and s.state.history[-1].bust)
    ch = public.view(s)["change"]
    bust = s.state.history[-1]
    assert ch["kind"] == "bust" and ch["text"].startswith("BUST! ")  # the device's BUST! screen
    assert ch["seats"] == [bust.seat]
    boi_until(s, pick, lambda s: s.state.history and not s.state.history[-1].bust and s.state.history[-1].score)
    banked = s.state.history[-1]
    ch = public.view(s)["change"]
    assert ch["kind"] == "score" and ch["seats"] == [banked.seat] and ch["deltas"] == [banked.score]
    assert f"+{banked.score}" in ch["text"]
    # the next draws change no score: the bank stays marked
    s.play(next(m for m in s.state.legal_moves() if str(m) == "roll"))
    assert public.view(s)["change"] == ch
    s.undo()
    ch2 = public.view(s)["change"]
    assert ch2["kind"] == "undo" and ch2["text"].startswith("undone: ")
    assert "rolls" in ch2["text"]  # the decision taken back, in words


def test_an_undercut_score_change_names_the_seats_and_deltas(journal):
    s = finished(journal, "undercut", {"players": ["Ann", "Bob", "Cy"]}, 5)
    ch = public.view(s)["change"]
    assert ch is not None and ch["kind"] in ("score", "round")
    if ch["kind"] == "score":
        assert ch["seats"] and all(d != 0 for d in ch["deltas"])


# ---------------------------------------------------------------- Bag of Ice = the device's screen


def test_the_bag_of_ice_odds_and_advice_are_the_devices(journal, monkeypatch):
    s = Session.start(journal, "bag_of_ice", {"players": ["Ann", "Bob"]}, random.Random(4))
    pick = random.Random(5)
    boi_until(s, pick, lambda s: str(s.state.phase.value) == "decide" and s.state.drawn)
    st = s.state
    adv = advice_for(st)
    monkeypatch.setattr(boi_win, "_SOLVED", {})  # this turn not solved yet (another test may have)
    t = public.view(s)["table"]
    assert t["bust"] == boi_ui.pct(adv.bust_chance)
    assert t["advice"] == boi_ui.hint_word(adv.hint) and not t["to_win"]  # B-9 until the turn is solved
    board = Board()
    before = public.view_key(s, Shown.GAME)
    boi_win.prepare(st)  # what the device does off the press path
    assert public.view_key(s, Shown.GAME) != before  # the page is made again when the device's screen changes
    w = boi_win.win_advice(st)
    t = public.view(s)["table"]
    assert t["to_win"] and t["win"] == {"bank": boi_ui.pct(w.bank), "draw": boi_ui.pct(w.draw)}  # B-10
    assert t["advice"] == boi_ui.hint_word(w.hint)
    hints_off = type("S", (), {"boi_hints": False, "boi_advice": "win"})()
    assert public.view(s, settings=hints_off)["table"]["advice"] is None  # as the device with hints off
    turn_only = type("S", (), {"boi_hints": True, "boi_advice": "turn"})()
    assert public.view(s, settings=turn_only)["table"]["win"] is None
    board.set(0, public.view(s))


def test_a_size_choice_advises_a_size_as_the_device_does(journal):
    s = Session.start(journal, "bag_of_ice", {"players": ["Ann", "Bob", "Cy"]}, random.Random(6))
    boi_until(s, random.Random(7), lambda s: str(s.state.phase.value) == "size")
    st = s.state
    adv = advice_for(st)
    t = public.view(s)["table"]
    assert t["advice"] == size_word(adv.size_choice[st.face])  # not "draw"
    assert [x["size"] for x in t["sizes"]] == [size_word(z) for z in st.face.sizes]
    assert [x["bust"] for x in t["sizes"]] == [boi_ui.pct(adv.per_size[z].bust_chance) for z in st.face.sizes]


def test_the_roll_off_is_said_in_pips(journal):
    s = Session.start(journal, "bag_of_ice", {"players": ["Ann", "Bob", "Cy", "Di"], "start": "rolloff"},
                      random.Random(3))
    assert s.state.rolloff  # B-3: the device rolled the roll-off
    v = public.view(s)
    rolled = [m for m in v["moves"] if "roll-off" in m]
    assert rolled and all(re.search(r"rolls \d+ pips? in the roll-off", m) for m in rolled)
    assert all(r["text"].endswith(("pip", "pips")) for r in v["table"]["rolloff"])


# ---------------------------------------------------------------- Bottoms Up at the end


def test_bottoms_up_names_the_secret_colors_and_what_each_scored(journal):
    s = finished(journal, "bottoms_up", {"players": ["Ann", "Bob", "Cy", "Di"]}, 5)
    t = public.view(s)["table"]
    st = s.state
    assert t["secret_words"] == [color_word(c) for c in st.secrets]
    breakdown = st.score_breakdown()
    assert [len(x) for x in t["scored"]] == [len(x) for x in breakdown]
    for seat, lines in enumerate(t["scored"]):
        for line, g in zip(lines, breakdown[seat]):
            assert line.startswith(f"{g['label']}: ") and f"{g['points']} point" in line
    live = Session.start(journal, "bottoms_up", {"players": ["Ann", "Bob", "Cy"]}, random.Random(1))
    t = public.view(live)["table"]
    assert t["secret_colors"] is None and t["secret_words"] is None and t["scored"] is None  # BU-3


def test_pieces_in_words():
    assert page.piece_words("pM") == "purple medium"
    assert page.piece_words("kL") == "black large"
    assert "pieces" not in public.labels()  # only the pieces a table shows are named (V-1)
    assert public.piece_names_in({"drawn": ["yS", "pM"], "phase": "decide"}) == {
        "pM": "purple medium", "yS": "yellow small"}
    # a secret color once public is a mark beside its seat's score (a generic block: the page names no game)
    assert public.piece_names_in({"marks": [{"cls": "secret", "piece": "wM", "text": "white"}, None],
                                  "field": []}) == {"wM": "white medium"}


# ---------------------------------------------------------------- the page follows the device's screen


def _showing(journal, *screens):
    """What the app publishes (``App.showing``) with ``screens`` over its main menu."""
    from companion.ui.app import App
    app = App(journal)
    app.stack[1:] = list(screens)
    return app.showing()


def test_no_winner_while_the_device_still_shows_what_happened(journal):
    from companion.ui.undercut import UndercutScreen, last_pages
    s = finished(journal, "undercut", {"players": ["Ann", "Bob", "Cy"]}, 5)
    game = UndercutScreen(s)
    pages = last_pages(s)  # what the last move did (e.g. "End triggered", U-12), over the winner
    assert pages and _showing(journal, game, *reversed(pages)) == (s, Shown.MOVE)
    v = public.view(s, Shown.MOVE)
    assert v["end"] is None and v["result"] is None and v["winners"] == []
    assert _showing(journal, game) == (s, Shown.GAME)
    assert public.view(s, Shown.GAME)["end"] is not None


def test_no_play_while_the_players_pass_the_device_for_their_secret_colors(journal):
    from companion.ui.bottoms_up import BottomsUpScreen, SecretTour
    s = Session.start(journal, "bottoms_up", {"players": ["Ann", "Bob", "Cy"], "secret": "device"},
                      random.Random(1))
    game, tour = BottomsUpScreen(s), SecretTour(s)
    assert _showing(journal, game, tour) == (s, Shown.SECRETS)
    v = public.view(s, Shown.SECRETS)
    assert v["to_act"] is None and "secret colors" in v["waiting"]
    # the round again, mid-game, from the session's menu: the page says so too
    assert _showing(journal, game, SecretTour(s, from_menu=True)) == (s, Shown.SECRETS)
    tour.final = True  # everyone has seen: play begins
    assert _showing(journal, game, tour) == (s, Shown.GAME)


# ---------------------------------------------------------------- words


def test_french_pages_say_it_as_the_device_does(journal, french):
    s = finished(journal, "undercut", {"players": ["Ann", "Bob", "Cy"]}, 5)
    v = public.view(s)
    assert {c["name"] for c in v["table"]["combos"]} <= {"ARBRE", "TRIPLET", "QUADRUPLET"}
    assert v["end"]["reason"].startswith("le plus bas gagne")
    die = Session.start(journal, "die", {}, random.Random(1))
    d = public.view(die)
    assert d["session"]["title"] == "Dé pyramide" and "?" not in d["waiting"]
    assert page.piece_words("gS") == "petite verte"


@pytest.mark.parametrize("game, setup", [
    ("undercut", {"players": ["Ann", "Bob", "Cy"]}),
    ("bag_of_ice", {"players": ["Ann", "Bob"]}),
    ("bottoms_up", {"players": ["Ann", "Bob", "Cy", "Di"]}),
])
def test_no_ruling_ids_in_what_players_read(journal, game, setup):
    s = Session.start(journal, game, setup, random.Random(9))
    pick = random.Random(10)
    seen = 0
    for step in range(3000):
        if step % 5 == 0 or s.state.is_terminal():
            for text in strings({k: v for k, v in public.view(s).items() if k != "table"}):
                assert not RULING_ID.search(text), text
            seen += 1
        if s.state.is_terminal():
            break
        if s.state.current_player != CHANCE:
            s.play(pick.choice(list(s.state.legal_moves())))
    assert seen > 3
    for text in strings(public.labels()):
        assert not RULING_ID.search(text), text
