"""A finished game as a play for BG Stats (companion/bgstats.py).

The schema below is written from the fields BG Stats' "push plays from other
apps" link takes, as docs/web.md lists them ("Log this play in BG Stats"): every
field the play holds must be one of them, of its type, and the required ones
must be there. Ranks are checked against the records (the replay's outcome and
scores, ranked by hand), the link by a round trip of its URL encoding.
"""
from __future__ import annotations

import datetime as dt
import json
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from companion import bgstats, export, games, records
from companion.journal import Journal
from tests.bgstats_util import SETUPS, minute_clock, play_on, play_to_end

# the documented fields: name -> (types, required)
GAME_FIELDS = {"name": (str, True), "bggId": (int, False), "highestWins": (bool, False),
               "noPoints": (bool, False), "sourceGameId": (str, False), "cooperative": (bool, False)}
PLAYER_FIELDS = {"name": (str, True), "score": ((int, float, str), False), "rank": (int, False),
                 "winner": (bool, False), "startPlayer": (bool, False), "role": (str, False),
                 "sourcePlayerId": (str, False), "seatOrder": (int, False), "team": (str, False),
                 "newPlayer": (bool, False)}
PLAY_FIELDS = {"sourceName": (str, True), "sourcePlayId": (str, False), "game": (dict, True),
               "playDate": (str, True), "durationMin": (int, False), "location": (str, False),
               "comments": (str, False), "board": (str, False), "players": (list, True)}
UTC = dt.timezone.utc


def check(fields: dict, obj: dict, where: str) -> None:
    assert set(obj) <= set(fields), f"{where}: fields BG Stats does not take: {set(obj) - set(fields)}"
    for key, (types, required) in fields.items():
        if required:
            assert key in obj, f"{where}: {key} is required"
        if key in obj:
            value = obj[key]
            assert isinstance(value, types) and not (types is int and isinstance(value, bool)), (where, key, value)


def finished(game: str, seed: int = 1):
    j = Journal(":memory:", clock=minute_clock())
    s = play_to_end(j, game, seed)
    assert s.state.is_terminal()
    info = j.sessions()[0]
    return j, info, export.session_summary(j, info)


def by_hand_ranks(scores, winners, lowest_wins):
    """Competition ranking written out: the winners share 1, then each seat is
    1 + the seats before it in the rule's order, equal seats sharing."""
    order = sorted(range(len(scores)), key=lambda i: (i not in winners, scores[i] * (1 if lowest_wins else -1)))
    out = [0] * len(scores)
    for place, i in enumerate(order):
        prev = order[place - 1] if place else None
        same = prev is not None and (prev in winners) == (i in winners) and scores[prev] == scores[i]
        out[i] = out[prev] if same else place + 1
    return out


@pytest.mark.parametrize("game", list(SETUPS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_play_of_a_finished_game_holds_only_the_documented_fields_and_the_records_numbers(game, seed):
    j, info, summary = finished(game, seed)
    events = j.events(info.id)
    data = bgstats.play(summary, events, tz=UTC)
    assert data is not None
    check(PLAY_FIELDS, data, "play")
    check(GAME_FIELDS, data["game"], "game")
    for p in data["players"]:
        check(PLAYER_FIELDS, p, "player")
    # against the records: the record the device exports, replayed as the referee does
    rec = records.parse_lines(records.dumps(info.game, info.setup, events).splitlines())
    out = records.replay(rec).to_json()
    spec = games.spec(game)
    assert data["game"]["name"] == spec.title and data["game"]["highestWins"] == (game != "undercut")
    assert ("bggId" in data["game"]) == (game == "bag_of_ice")
    assert data["game"].get("bggId", 349057) == 349057
    assert [p["name"] for p in data["players"]] == SETUPS[game]["players"]
    assert [p["score"] for p in data["players"]] == out["scores"]
    winners = out["outcome"]["winners"]
    assert [p["winner"] for p in data["players"]] == [i in winners for i in range(len(out["scores"]))]
    assert [p["rank"] for p in data["players"]] == by_hand_ranks(out["scores"], winners, game == "undercut")
    assert sum(p["startPlayer"] for p in data["players"]) == 1
    # the date and the duration from the journal's event times (one minute per event here)
    assert data["playDate"] == "2026-05-01 20:00:00"
    last = next(e for e in events if e.seq == summary.fold.moves[-1].seq)
    minutes = int(last.time[11:13]) * 60 + int(last.time[14:16]) - 20 * 60
    assert data["durationMin"] == minutes > 0


@pytest.mark.parametrize("game", list(SETUPS))
def test_the_link_round_trips_its_url_encoding(game):
    j, info, summary = finished(game)
    link = bgstats.play_link(summary, j.events(info.id), tz=UTC)
    assert link is not None and link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    parts = urlsplit(link)
    assert list(parse_qs(parts.query)) == ["data"]
    assert " " not in link and "{" not in link and '"' not in link  # all of the JSON is encoded
    assert json.loads(parse_qs(parts.query)["data"][0]) == bgstats.play(summary, j.events(info.id), tz=UTC)
    assert json.loads(unquote(link.split("?data=", 1)[1])) == bgstats.play(summary, j.events(info.id), tz=UTC)


def test_accented_names_survive_the_round_trip():
    j = Journal(":memory:", clock=minute_clock())
    play_to_end(j, "bag_of_ice", 1, {"players": ["Chloé", "Zoë & Co", "李华"], "target": 20, "die": "virtual"})
    info = j.sessions()[0]
    link = bgstats.play_link(export.session_summary(j, info), j.events(info.id), tz=UTC)
    assert link is not None
    names = [p["name"] for p in json.loads(parse_qs(urlsplit(link).query)["data"][0])["players"]]
    assert names == ["Chloé", "Zoë & Co", "李华"]


def test_the_ids_are_stable_so_a_second_import_matches_by_itself():
    _, _, one = finished("bag_of_ice", 1)
    j2 = Journal(":memory:", clock=minute_clock(21))
    play_to_end(j2, "bag_of_ice", 2, {"players": ["Cy", "ann", "Bob"], "target": 20, "die": "virtual"})
    info2 = j2.sessions()[0]
    a = bgstats.play(one, [], tz=UTC)
    b = bgstats.play(export.session_summary(j2, info2), j2.events(info2.id), tz=UTC)
    assert a and b and a["game"]["sourceGameId"] == b["game"]["sourceGameId"] == "pyramid-companion:bag_of_ice"
    ids_a = {p["name"]: p["sourcePlayerId"] for p in a["players"]}
    ids_b = {p["name"]: p["sourcePlayerId"] for p in b["players"]}
    assert ids_a["Bob"] == ids_b["Bob"] and ids_a["Cy"] == ids_b["Cy"]
    assert ids_a["Ann"] == ids_b["ann"] == bgstats.player_id(" ANN ")  # case and spacing aside
    assert len(set(ids_a.values())) == 3
    assert a["sourcePlayId"] != b["sourcePlayId"]


def test_ties_share_a_rank_and_the_next_rank_skips():
    assert bgstats.ranks([5, 7, 7, 3], [1, 2], False) == [3, 1, 1, 4]
    assert bgstats.ranks([5, 7, 5, 3], [1], False) == [2, 1, 2, 4]
    # Undercut: lowest wins; a tie the rules broke (U-13, fewest pips) is no longer a tie
    assert bgstats.ranks([4, 4, 10], [1], True) == [2, 1, 3]
    assert bgstats.ranks([2, 4, 4, 10], [0], True) == [1, 2, 2, 4]


def test_bottoms_up_secret_colors_go_in_role_once_the_game_is_over_V1():
    j, info, summary = finished("bottoms_up")
    data = bgstats.play(summary, j.events(info.id), tz=UTC)
    assert data is not None
    colors = summary.fold.state.to_json()["secret_colors"]
    from companion.pieces import Color  # the color words are the catalog's
    from companion.words.pieces import color_word
    assert [p.get("role") for p in data["players"]] == [color_word(Color(c)) for c in colors]


@pytest.mark.parametrize("game", list(SETUPS))
def test_no_play_before_the_end_nor_for_a_game_ended_early_or_undone_V1(game):
    j = Journal(":memory:", clock=minute_clock())
    s = play_to_end(j, game, 1, moves=3)
    info = j.sessions()[0]
    summary = export.session_summary(j, info)
    assert bgstats.play(summary, j.events(info.id)) is None and bgstats.play_link(summary, []) is None
    s.end()
    summary = export.session_summary(j, j.sessions()[0])
    assert summary.finished and bgstats.play_link(summary, j.events(info.id)) is None  # ended early
    # finished, then its last move undone: back before the end, no link
    j2 = Journal(":memory:", clock=minute_clock())
    s2 = play_to_end(j2, game, 1)
    assert bgstats.play_link(export.session_summary(j2, j2.sessions()[0]), []) is not None
    s2.undo()
    summary2 = export.session_summary(j2, j2.sessions()[0])
    assert not summary2.fold.state.is_terminal() and bgstats.play_link(summary2, j2.events(s2.id)) is None


def test_play_date_is_written_in_the_zone_asked():
    j, info, summary = finished("undercut")
    data = bgstats.play(summary, j.events(info.id), tz=dt.timezone(dt.timedelta(hours=1)))
    assert data is not None and data["playDate"] == "2026-05-01 21:00:00"


@pytest.mark.parametrize("game", list(SETUPS))
def test_the_projection_carries_the_link_and_the_chart_only_once_over_V1(game):
    """The page's projection (companion/public.py): no ``after`` before the end, so no
    link, no chart and no secret color as a role anywhere in it; at the end, the link
    of the same play ``bgstats.play`` builds, and the chart of the records."""
    from companion import public
    j = Journal(":memory:", clock=minute_clock())
    s = play_to_end(j, game, 1, moves=6)
    v = public.view(s)
    assert v["after"] is None and "createPlay" not in json.dumps(v)
    info = j.sessions()[0]
    assert public.history_extra(j, info, export.session_summary(j, info)) == \
        {"bgstats": None, "chart": None, "chart_svg": None}
    with pytest.raises(KeyError):
        public.chart_svg(j, 99)
    assert public.chart_svg(j, s.number) is None
    play_on(s, 2)
    assert s.state.is_terminal()
    v = public.view(s)
    after = v["after"]
    info = j.sessions()[0]
    summary = export.session_summary(j, info)
    want = bgstats.play(summary, j.events(info.id))
    assert want is not None and json.loads(parse_qs(urlsplit(after["bgstats"]).query)["data"][0]) == want
    assert after["chart"]["scores"][-1] == list(summary.scores)
    assert after["chart_svg"] == f"chart/{s.number}.svg" and public.chart_svg(j, s.number).startswith(b"<svg")
