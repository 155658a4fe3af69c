"""The scoreboard page's words, without a browser: tied players
share a place (1, 1, 3) in a shared Bottoms Up win (BU-12) and a tied Undercut
(U-13), whose tie-break figures the page gives as the device's winner screen
does (U-14); French typography by the catalog's rules (a narrow no-break space
before ":" ";" "!" "?" "%", "n°3"); a marker-only Undercut bid said in words;
a change line that does not say its change twice; the page's <noscript> in
French too."""
from __future__ import annotations

import re
from importlib import resources
from typing import Any

import pytest

from companion import public
from companion.i18n import language, set_language
from companion.journal import Journal
from companion.words import page
from tests.web_util import finished, play

NNBSP = "\u202f"


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


def strings(x: Any, skip=("players", "names", "piece_names")):
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for k, v in x.items():
            if k not in skip:
                yield from strings(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from strings(v)


# ---------------------------------------------------------------- ties share a place


def test_a_shared_bottoms_up_win_shares_the_first_place_BU12(journal):
    for seed in range(1, 40):
        s = finished(journal, "bottoms_up", {"players": ["Ann", "Bob", "Cy", "Di"]}, seed)
        if len(s.state.outcome().winners) > 1:
            break
    else:
        pytest.skip("no shared win among the seeds")
    end = public.view(s)["end"]
    k = len(end["names"])
    assert end["places"][:k] == [1] * k  # 1, 1 ...
    assert end["places"][k] == k + 1     # ... then 3: the next place skips
    scores = [p["score"] for p in public.view(s)["players"]]
    for a, b, pa, pb in zip(end["order"], end["order"][1:], end["places"], end["places"][1:]):
        assert (pa == pb) == (scores[a] == scores[b]), (end, scores)


def test_a_tied_undercut_gives_the_tiebreak_figures_and_ranks_by_them_U13_U14(journal):
    found = []
    for seed in range(1, 60):  # seeded games whose lowest score is tied (U-13)
        s = finished(journal, "undercut", {"players": ["Ann", "Bob", "Cy", "Di", "Eve"], "level": "full"}, seed)
        if len(s.state.tied) > 1:
            found.append(s)
        if len(found) >= 3:
            break
    if not found:
        pytest.skip("no tied game among the seeds")
    for s in found:
        v = public.view(s)
        end, st = v["end"], s.state
        names = [p["name"] for p in v["players"]]
        # the winner screen's figures: each tied player's hand pips ("Ann 5 pips")
        pieces = "fewest pieces" in st.detail
        tied = [i for i in st.tied if not pieces or st.hands[i].pips() == min(st.hands[j].pips() for j in st.tied)]
        want = [f"{names[i]} {len(st.hands[i]) if pieces else st.hands[i].pips()} " for i in tied]
        figures = end["reason"].split(" · ", 2)[-1]  # "lowest score wins · tie broken by pips · Ann 5 pips · ..."
        assert all(w in figures for w in want), (end["reason"], want)
        assert len(figures.split(" · ")) == len(tied)
        # the winners share the first place
        k = len(st.winners)
        assert end["places"][:k] == [1] * k and sorted(end["order"][:k]) == sorted(st.winners)


def test_no_tiebreak_figures_without_a_tie(journal):
    s = finished(journal, "undercut", {"players": ["Ann", "Bob", "Cy"]}, 5)
    assert not s.state.tied or len(s.state.tied) == 1
    assert public.view(s)["end"]["reason"] == "lowest score wins"


# ---------------------------------------------------------------- French typography


def test_french_typography_throughout_the_projection(journal, french):
    views = []
    for game, n in (("undercut", 3), ("bag_of_ice", 2), ("bottoms_up", 4)):
        s = play(journal, game, {"players": ["Ann", "Bob", "Cy", "Di"][:n]}, 5, moves=25)
        views.append(public.view(s, settings=None))
        views.append(public.view(finished(journal, game, {"players": ["Ann", "Bob", "Cy", "Di"][:n]}, 5)))
    seen = set()
    for v in views:
        for text in strings(v):
            if "://" in text:  # an address (the BG Stats link) is left as it is
                assert page.typeset(text, "fr") == text
                continue
            assert not re.search(r"(^|[^\u202f])[:;!?](\s|$)", text) or "://" in text, text
            assert not re.search(r"[^\u202f]%", text), text
            assert "#" not in text, text
            seen.update(ch for ch in ":;!?%" if NNBSP + ch in text)
    assert {":", "%"} <= seen  # the rule was applied, not merely never needed
    assert views[1]["session"]["label"].startswith("Undercut n°")
    assert public.labels()["colon"] == NNBSP + ": " and public.labels()["numbered"] == "{game} n°{n}"


def test_english_is_left_as_it_is(journal):
    s = finished(journal, "undercut", {"players": ["Ann", "Bob", "Cy"]}, 5)
    v = public.view(s)
    assert not any(NNBSP in t for t in strings(v))
    assert v["session"]["label"] == f"Undercut #{v['session']['number']}" and public.labels()["colon"] == ": "


@pytest.mark.parametrize("text, want", [
    ("Gagnant: P2", "Gagnant\u202f: P2"), ("Mise : 3", "Mise\u202f: 3"), ("13,7%", "13,7\u202f%"),
    ("PERDU !", "PERDU\u202f!"), ("a; b? c", "a\u202f; b\u202f? c"), ("Undercut #3", "Undercut n°3"),
    ("12:30", "12:30"), ("http://x", "http://x"), ("https://a.b/c?d=1 #3 !", "https://a.b/c?d=1 #3 !"),
])
def test_typeset(text, want):
    assert page.typeset(text, "fr") == want
    assert page.typeset(text, "en") == text


def test_the_noscript_text_is_in_french_too():
    html = resources.files("companion").joinpath("web_assets", "index.html").read_text()
    ns = html[html.index("<noscript>"):html.index("</noscript>")]
    assert 'lang="fr"' in ns and "JavaScript" in ns.split('lang="fr"')[1]


# ---------------------------------------------------------------- words


def test_a_marker_only_bid_says_so(journal):
    s = play(journal, "undercut", {"players": ["Ann", "Bob", "Cy"], "level": "full"}, 5, moves=0)
    pick_bids = []
    import random
    pick = random.Random(3)
    for _ in range(400):
        st = s.state
        if st.is_terminal():
            break
        zero = [m for m in st.legal_moves() if type(m).__name__ == "Bid" and not m.pieces]
        moves = zero or list(st.legal_moves())
        if st.current_player >= 0:
            s.play(pick.choice(moves))
        bids = [x["bid"] for x in public.view(s)["table"]["stacks"] if x.get("bid")]
        pick_bids += [b for b in bids if not b["pieces"]]
        if pick_bids:
            break
    assert pick_bids, "no marker-only bid was played"
    stacks = next(b for b in public.view(s)["table"]["blocks"] if b.get("cls") == "stacks")
    words = [p["text"] for it in stacks["items"] for p in it["parts"] if p.get("cls") == "bid" and not p.get("pieces")]
    assert words and all(w.startswith("Bid: ") and w.strip().endswith(", marker only") for w in words), words
    assert page.bid_words("Ann", False) == "Bid: Ann"


def test_a_change_line_does_not_say_its_change_twice():
    assert page.score_change_text("Ann turns in a TREE: +2 points", [("Ann", 2)]) == "Ann turns in a TREE: +2 points"
    assert page.score_change_text("Ann banks", [("Ann", 3)]) == "Ann banks · Ann +3"
    assert page.score_change_text("Ann passes: +1", [("Ann", 1), ("Bob", -2)]) == "Ann passes: +1 · Bob -2"
