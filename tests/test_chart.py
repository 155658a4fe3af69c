"""The chart of a game (companion/chart.py, export.chart_of): each
player's score over the turns (Undercut: rounds), from the same rows as the CSV,
as SVG with a table beside it, and on the PNG sheet; at the end only (V-1)."""
from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from companion import chart, export, i18n
from companion.journal import Journal
from tests.bgstats_util import SETUPS, minute_clock, play_to_end

SVG = "{http://www.w3.org/2000/svg}"


def finished(game: str, seed: int = 1):
    j = Journal(":memory:", clock=minute_clock())
    play_to_end(j, game, seed)
    info = j.sessions()[0]
    return j, info, export.session_summary(j, info)


def by_hand_points(summary, setup):
    """Each turn's scores read from the CSV the export writes: the last row of the turn."""
    rows = list(csv.reader(io.StringIO(export.scores_csv(summary.fold, setup))))
    n = len(summary.players)
    out = {0: tuple(summary.fold.states[0].scores())}
    for r in rows[1:]:
        out[int(r[0])] = tuple(int(v) for v in r[-n:])
    return sorted(out.items())


@pytest.mark.parametrize("game", list(SETUPS))
def test_the_chart_has_a_point_per_turn_from_the_csv_rows_and_ends_on_the_result(game):
    j, info, summary = finished(game)
    c = export.chart_of(summary)
    assert c is not None
    assert list(c.points) == by_hand_points(summary, info.setup)
    assert c.points[-1][1] == summary.scores and c.points[0][0] == 0
    assert c.names == summary.players and c.unit == ("round" if game == "undercut" else "turn")
    assert c.lowest_wins == (game == "undercut")
    assert [c.names[w] for w in c.winners] == list(summary.winners)


@pytest.mark.parametrize("lang, low, high", [("en", "lower is better", "higher is better"),
                                             ("fr", "plus bas, c'est mieux", "plus haut, c'est mieux")])
def test_the_chart_says_which_way_is_better_in_english_and_french(lang, low, high):
    i18n.set_language(lang)
    for game in ("undercut", "bag_of_ice"):
        _j, _i, summary = finished(game)
        c = export.chart_of(summary)
        assert c is not None
        assert c.better == (low if game == "undercut" else high)
        root = ET.fromstring(chart.svg(c))
        assert root.find(f"{SVG}desc").text == c.better
        assert root.find(f"{SVG}title").text == c.title
    assert c.title == ("Scores par tour" if lang == "fr" else "Scores by turn")


@pytest.mark.parametrize("game", list(SETUPS))
def test_the_svg_has_a_line_per_player_through_every_point_and_a_table_of_the_same_numbers(game):
    _j, _i, summary = finished(game)
    c = export.chart_of(summary)
    assert c is not None
    root = ET.fromstring(chart.svg(c))
    assert root.get("role") == "img"
    lines = root.findall(f"{SVG}polyline")
    assert len(lines) == len(c.names)
    for i, line in enumerate(lines):
        pts = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
        assert len(pts) == len(c.points)
        assert [x for x, _y in pts] == sorted(x for x, _y in pts)
        # a higher score is drawn higher (smaller y), whatever way is better
        ys, scores = [y for _x, y in pts], c.series(i)
        for a in range(len(pts)):
            for b in range(len(pts)):
                if scores[a] > scores[b]:
                    assert ys[a] < ys[b]
    table = ET.fromstring(chart.table_html(c))
    head = [th.text for th in table.find("thead").iter("th")]
    assert head[1:] == list(c.names)
    body = [[td.text for td in tr.findall("td")] for tr in table.find("tbody").findall("tr")]
    assert body == [[str(v) for v in s] for _t, s in c.points]
    assert c.better in table.find("caption").text


def test_names_are_escaped_in_the_svg_and_the_table():
    c = chart.build("turn", ["<b>Ann</b>", "Bob & Co"], (0, 0), [(1, (3, 1))], False, [0])
    assert "<b>" not in chart.figure_html(c)
    root = ET.fromstring(chart.svg(c))
    assert [t.text for t in root.iter(f"{SVG}text")][-2:] == ["<b>Ann</b>", "Bob & Co"]


@pytest.mark.parametrize("game", list(SETUPS))
def test_no_chart_before_the_end_V1(game):
    j = Journal(":memory:", clock=minute_clock())
    s = play_to_end(j, game, 1, moves=4)
    assert export.chart_of(export.session_summary(j, j.sessions()[0])) is None
    s.end()  # ended by the players: over, its chart shows what was played
    assert export.chart_of(export.session_summary(j, j.sessions()[0])) is not None


def test_the_png_sheet_carries_the_chart_under_the_result():
    _j, _i, summary = finished("bag_of_ice")
    c = export.chart_of(summary)
    assert c is not None
    img = export.score_sheet(summary).convert("RGB")
    colors = {chart.PALETTE[i] for i in range(len(c.names))}
    rgb = {tuple(int(h[k:k + 2], 16) for k in (1, 3, 5)) for h in colors}
    bottom = img.crop((0, img.height - chart.png_height(c), img.width, img.height))
    seen = {c for _n, c in bottom.getcolors(1 << 20)}
    assert rgb <= seen  # every player's line is drawn in the chart's band
    # an open game: no chart, the sheet as before
    j = Journal(":memory:", clock=minute_clock())
    play_to_end(j, "bag_of_ice", 1, moves=4)
    open_sheet = export.score_sheet(export.session_summary(j, j.sessions()[0]))
    assert not rgb & {c for _n, c in open_sheet.convert("RGB").getcolors(1 << 20)}
    assert isinstance(img, Image.Image)
