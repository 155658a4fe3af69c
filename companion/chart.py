"""The chart of a game (issue 50): each player's score over the turns (Undercut:
rounds), one line per player, as the score keepers' apps draw it.

``Chart`` is the data (``export.chart_of`` builds it from the same score rows as
the CSV and the PNG sheet, so every point is one of theirs); this module draws
it: as SVG with a text table beside it for a screen reader (the page), and onto
a Pillow image (the PNG export). Undercut's scores fall toward the win (the
lowest wins, U-13): the chart says which way is better. Generic over games.
Pure: nothing is read or written here.

Not drawn on the device's 128x64 screen: see docs/web.md ("The chart of a
game"): at 128x64 in one color, three to twelve lines that cross cannot be told
apart, and a legend naming them leaves no room for the lines.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any, Sequence

from .words import chart as words

__all__ = ["Chart", "build", "svg", "table_html", "figure_html", "draw", "PALETTE", "DASHES"]

PALETTE = ("#0b5cad", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490",
           "#a16207", "#be185d", "#4d7c0f", "#1e3a8a", "#9a3412", "#374151")
"""One color per seat (12: Bag of Ice's most, B-3), dark enough on white (3:1 and more)."""
DASHES = ("", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3", "8 3 2 3")
"""A dash pattern per seat besides the color: lines told apart without color too."""


@dataclass(frozen=True)
class Chart:
    unit: str                                       # what the x axis counts: "turn" or "round"
    names: tuple[str, ...]
    points: tuple[tuple[int, tuple[int, ...]], ...]  # (turn, every seat's score after it); turn 0: the start
    lowest_wins: bool
    winners: tuple[int, ...] = ()

    @property
    def title(self) -> str:
        return words.chart_title(self.unit)

    @property
    def better(self) -> str:
        return words.better_words(self.lowest_wins)

    def series(self, seat: int) -> list[int]:
        return [scores[seat] for _turn, scores in self.points]

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "unit_word": words.unit_word(self.unit), "start_word": words.start_word(),
                "title": self.title, "better": self.better, "lowest_wins": self.lowest_wins,
                "names": list(self.names), "winners": list(self.winners),
                "turns": [t for t, _s in self.points], "scores": [list(s) for _t, s in self.points]}


def build(unit: str, names: Sequence[str], start: Sequence[int], rows: Sequence[tuple[int, Sequence[int]]],
          lowest_wins: bool, winners: Sequence[int] = ()) -> Chart:
    """A chart from the start's scores and the score rows (turn, scores after): the
    scores at the end of each turn (the last row of that turn)."""
    by_turn: dict[int, tuple[int, ...]] = {}
    for turn, scores in rows:
        by_turn[int(turn)] = tuple(scores)
    points = [(0, tuple(start))] + sorted((t, s) for t, s in by_turn.items() if t > 0)
    return Chart(unit, tuple(names), tuple(points), lowest_wins, tuple(winners))


# ---------------------------------------------------------------- geometry


def _scale(chart: Chart, box: tuple[float, float, float, float]):
    """Functions from (turn, score) to a point in ``box`` (left, top, right, bottom)."""
    left, top, right, bottom = box
    turns = [t for t, _s in chart.points]
    values = [v for _t, s in chart.points for v in s] or [0]
    lo, hi = min(0, min(values)), max(1, max(values))
    t0, t1 = min(turns), max(max(turns), min(turns) + 1)

    def x(t: float) -> float:
        return left + (right - left) * (t - t0) / (t1 - t0)

    def y(v: float) -> float:
        return bottom - (bottom - top) * (v - lo) / (hi - lo)
    return x, y, lo, hi


def _ticks(lo: int, hi: int, n: int = 5) -> list[int]:
    step = max(1, -(-(hi - lo) // n))
    for nice in (1, 2, 5, 10, 20, 25, 50, 100):
        if nice >= step:
            step = nice
            break
    first = lo - lo % step
    return [v for v in range(first, hi + step, step) if lo <= v <= hi] or [lo, hi]


# ---------------------------------------------------------------- SVG and its table


def svg(chart: Chart, width: int = 640, height: int = 380, ident: str = "chart") -> str:
    """The chart as an SVG element: named by its ``<title>`` (which way is better in its
    ``<desc>``), one polyline per player (color and dash), a legend under it."""
    n = len(chart.names)
    legend_rows = -(-n // 3)
    # sized for a phone, where 640 units are drawn about 360 CSS px wide: 20-unit text reads at 11 px and more
    pad_l, pad_r, pad_t = 52, 16, 48
    pad_b = 40 + 30 * legend_rows
    x, y, lo, hi = _scale(chart, (pad_l, pad_t, width - pad_r, height - pad_b))
    title, better = escape(chart.title), escape(chart.better)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart-svg" viewBox="0 0 {width} {height}" '
           f'role="img" aria-labelledby="{ident}-t {ident}-d" font-family="sans-serif" font-size="20">',
           f'<title id="{ident}-t">{title}</title><desc id="{ident}-d">{better}</desc>',
           f'<text x="{8}" y="26" font-size="22" font-weight="bold" fill="#111">{title}</text>',
           f'<text x="{width - pad_r}" y="26" text-anchor="end" fill="#333" class="chart-better">'
           f'{"↓" if chart.lowest_wins else "↑"} {better}</text>']
    for v in _ticks(lo, hi):
        yy = y(v)
        out.append(f'<line x1="{pad_l}" y1="{yy:.1f}" x2="{width - pad_r}" y2="{yy:.1f}" stroke="#ddd"/>'
                   f'<text x="{pad_l - 8}" y="{yy + 7:.1f}" text-anchor="end" fill="#333">{v}</text>')
    turns = [t for t, _s in chart.points]
    every = max(1, -(-len(turns) // 12))
    for k, t in enumerate(turns):
        if k % every == 0 or k == len(turns) - 1:
            out.append(f'<text x="{x(t):.1f}" y="{height - pad_b + 24}" text-anchor="middle" fill="#333">{t}</text>')
    for i in range(n):
        color, dash = PALETTE[i % len(PALETTE)], DASHES[i % len(DASHES)]
        pts = " ".join(f"{x(t):.1f},{y(s[i]):.1f}" for t, s in chart.points)
        width_px = 3.5 if i in chart.winners else 2
        out.append(f'<polyline class="chart-line" data-seat="{i}" fill="none" stroke="{color}" '
                   f'stroke-width="{width_px}"{f" stroke-dasharray={chr(34)}{dash}{chr(34)}" if dash else ""} '
                   f'points="{pts}"/>')
    for i, name in enumerate(chart.names):
        col, row = i % 3, i // 3
        lx, ly = 8 + col * ((width - 8 - pad_r) // 3), height - pad_b + 58 + row * 30
        color, dash = PALETTE[i % len(PALETTE)], DASHES[i % len(DASHES)]
        out.append(f'<line x1="{lx}" y1="{ly - 7}" x2="{lx + 30}" y2="{ly - 7}" stroke="{color}" stroke-width="4"'
                   f'{f" stroke-dasharray={chr(34)}{dash}{chr(34)}" if dash else ""}/>'
                   f'<text x="{lx + 36}" y="{ly}" fill="#111">{escape(_fit(name, 14))}</text>')
    out.append("</svg>")
    return "".join(out)


def _fit(name: str, n: int) -> str:
    """A legend's name in a third of the width: cut with "~" past ``n`` characters (the
    table beside the chart has it whole)."""
    return name if len(name) <= n else name[:n - 1] + "~"


def table_html(chart: Chart) -> str:
    """The chart's numbers as a table: one row per turn (the start first), one column per player."""
    caption = escape(words.chart_table_caption(chart.title, chart.better))
    head = "".join(f'<th scope="col">{escape(n)}</th>' for n in chart.names)
    rows = []
    for t, scores in chart.points:
        label = escape(words.start_word()) if t == 0 else str(t)
        rows.append(f'<tr><th scope="row">{label}</th>' + "".join(f"<td>{v}</td>" for v in scores) + "</tr>")
    return (f'<table class="chart-table"><caption>{caption}</caption><thead><tr>'
            f'<th scope="col">{escape(words.unit_word(chart.unit))}</th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def figure_html(chart: Chart, ident: str = "chart") -> str:
    """The SVG and its table side by side, in one ``<figure>``."""
    return f'<figure class="chart">{svg(chart, ident=ident)}{table_html(chart)}</figure>'


# ---------------------------------------------------------------- PNG


def draw(d: Any, chart: Chart, box: tuple[int, int, int, int], font: Any, small: Any) -> None:
    """The chart onto a Pillow ``ImageDraw`` in ``box`` (left, top, right, bottom): title,
    which way is better, the lines and a legend."""
    left, top, right, bottom = box
    n = len(chart.names)
    legend_rows = -(-n // 3)
    d.text((left, top), chart.title, font=font, fill=(20, 20, 20))
    better = chart.better
    d.text((right - d.textlength(better, font=small), top + 4), better, font=small, fill=(60, 60, 60))
    plot = (left + 40, top + 36, right - 8, bottom - 26 - 24 * legend_rows)
    x, y, lo, hi = _scale(chart, plot)
    for v in _ticks(lo, hi):
        yy = y(v)
        d.line((plot[0], yy, plot[2], yy), fill=(221, 221, 221))
        d.text((plot[0] - 6 - d.textlength(str(v), font=small), yy - 9), str(v), font=small, fill=(60, 60, 60))
    turns = [t for t, _s in chart.points]
    every = max(1, -(-len(turns) // 12))
    for k, t in enumerate(turns):
        if k % every == 0 or k == len(turns) - 1:
            d.text((x(t) - d.textlength(str(t), font=small) / 2, plot[3] + 4), str(t), font=small, fill=(60, 60, 60))
    for i in range(n):
        color = PALETTE[i % len(PALETTE)]
        pts = [(x(t), y(s[i])) for t, s in chart.points]
        w = 4 if i in chart.winners else 2
        if len(pts) > 1:
            d.line(pts, fill=color, width=w)
        for px, py in pts:
            d.ellipse((px - 3, py - 3, px + 3, py + 3), fill=color)
    for i, name in enumerate(chart.names):
        col, row = i % 3, i // 3
        lx = left + 40 + col * ((right - left - 40) // 3)
        ly = bottom - 24 * legend_rows + row * 24
        d.line((lx, ly + 10, lx + 26, ly + 10), fill=PALETTE[i % len(PALETTE)], width=4)
        d.text((lx + 32, ly), name, font=small, fill=(20, 20, 20))


def png_height(chart: Chart) -> int:
    """Pixels the chart takes on the PNG sheet."""
    return 300 + 24 * (-(-len(chart.names) // 3))
