"""The players' numbers per game (companion/stats.py), from the same
summaries the History screen and the exports use, counted as History counts."""
from __future__ import annotations

import random

from companion import export, stats
from companion.journal import Journal
from companion.session import Session
from tests.bgstats_util import SETUPS, minute_clock, play_to_end


def by_hand(items, name, game):
    """What the Players numbers must be, from the replayed summaries written out."""
    mine = [s for s in items if s.game == game and s.termination is not None and not s.error and name in s.players]
    scores = [s.scores[s.players.index(name)] for s in mine]
    low = game == "undercut"
    return {"plays": len(mine), "wins": sum(name in s.winners for s in mine),
            "best": (min(scores) if low else max(scores)) if scores else None,
            "last": max((s.created[:10] for s in mine), default="")}


def test_numbers_per_name_and_game_match_the_records_by_hand():
    j = Journal(":memory:", clock=minute_clock())
    for seed, game in enumerate(["undercut", "bag_of_ice", "bottoms_up", "bag_of_ice", "undercut"], 1):
        play_to_end(j, game, seed)
    play_to_end(j, "bag_of_ice", 9, moves=5)            # open: no play
    play_to_end(j, "undercut", 9, moves=5).end()        # ended early: no play
    items = export.summaries(j)
    out = stats.player_stats(items)
    assert {p.name for p in out} == {"Ann", "Bob", "Cy", "Dee"}
    for p in out:
        for g in p.games:
            want = by_hand(items, p.name, g.game)
            assert (g.plays, g.wins, g.best, g.last) == (want["plays"], want["wins"], want["best"], want["last"])
            assert g.share == round(100 * g.wins / g.plays)
        assert [g.game for g in p.games] == [g for g in SETUPS if by_hand(items, p.name, g)["plays"]]
    # the same totals as the History screen's Player totals
    totals = {t.name: (t.games, t.wins) for t in export.name_totals(items)}
    assert {p.name: (p.plays, p.wins) for p in out} == totals
    assert [p.name for p in out] == [t.name for t in export.name_totals(items)]


def test_undercut_s_best_score_is_the_lowest_U13():
    j = Journal(":memory:", clock=minute_clock())
    for seed in (1, 2, 3):
        play_to_end(j, "undercut", seed)
    items = export.summaries(j)
    for p in stats.player_stats(items):
        (g,) = p.games
        assert g.best == min(s.scores[s.players.index(p.name)] for s in items)


def test_the_last_evening_starts_after_the_last_long_pause():
    now = {"t": ""}
    j = Journal(":memory:", clock=lambda: now["t"])
    # three games: one on the 1st, two on the 2nd (two hours apart)
    for seed, start in enumerate(("2026-05-01T20", "2026-05-02T20", "2026-05-02T22"), 1):
        now["t"] = start + ":00:00.000+00:00"
        play_to_end(j, "bag_of_ice", seed, {"players": ["Ann", "Bob"], "target": 12, "die": "virtual"})
    items = export.summaries(j)
    evening = stats.evening(items)
    assert sorted(s.created[:13] for s in evening) == ["2026-05-02T20", "2026-05-02T22"]
    last = stats.player_stats(items, "evening")
    assert sum(p.games[0].plays for p in last) == 2 * 2 and {p.games[0].last for p in last} == {"2026-05-02"}


def test_a_damaged_game_kept_and_played_on_counts_once_as_history_counts_it(tmp_path):
    """A damaged session (F1) is no play; the session that continues it, played to its
    end, is one: as the History screen's totals count them."""
    path = str(tmp_path / "j.db")
    j = Journal(path, clock=minute_clock())
    s = Session.start(j, "bag_of_ice", {"players": ["Ann", "Bob"], "target": 12, "die": "physical"},
                      random.Random(1))
    s.play("roll")
    s.play("face S")
    sid = s.id
    j._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    j.close()
    data = bytearray(open(path, "rb").read())
    i = data.index(b'"face S"') + 2
    data[i] = 1
    open(path, "wb").write(bytes(data))
    j = Journal(path, clock=minute_clock(22))
    assert j.session(sid).damaged
    cont = j.fork(sid)
    kept = Session.resume(j, cont.session, random.Random(2))
    items = export.summaries(j)
    assert stats.player_stats(items) == []  # neither the damaged game nor its open continuation is a play yet
    rng = random.Random(3)
    while not kept.state.is_terminal():
        legal = list(kept.state.legal_moves())
        banks = [m for m in legal if str(m).startswith("bank")]
        kept.play(rng.choice(banks if banks and rng.random() < 0.5 else legal))
    items = export.summaries(j)
    out = stats.player_stats(items)
    assert sum(p.plays for p in out) == 2  # one game, two players: counted once
    assert {p.name: (p.plays, p.wins) for p in out} == {t.name: (t.games, t.wins)
                                                        for t in export.name_totals(items)}
