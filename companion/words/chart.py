"""What the chart of a game says (issue 50): its title by what it counts, which way
is better (Undercut's scores fall toward the win, U-13), the table's headings for
a screen reader, and the Players page's headings. Below every view: the page,
the PNG export and the History screen take their words from here."""
from __future__ import annotations

from ..i18n import _


def chart_title(unit: str) -> str:
    """"Scores by round" (Undercut counts rounds) or "Scores by turn"."""
    return _("Scores by round") if unit == "round" else _("Scores by turn")


def unit_word(unit: str) -> str:
    """The table's first column: "Round" or "Turn"."""
    return _("Round") if unit == "round" else _("Turn")


def better_words(lowest_wins: bool) -> str:
    """Which way is better on the chart."""
    return _("lower is better") if lowest_wins else _("higher is better")


def start_word() -> str:
    """The chart's first point, before anything scored."""
    return _("start")


def chart_table_caption(title: str, better: str) -> str:
    return _("{title} ({better}), as a table").format(title=title, better=better)


def players_title() -> str:
    return _("Players")


def players_headings() -> dict[str, str]:
    """The Players page's and screen's columns."""
    return {"name": _("Name"), "game": _("Game"), "plays": _("Plays"), "wins": _("Wins"),
            "share": _("Win share"), "best": _("Best score"), "last": _("Last played")}


def scope_words(scope: str) -> str:
    """Over what the Players numbers are counted."""
    return _("last evening") if scope == "evening" else _("all games")


def bgstats_words() -> str:
    """The link that opens BG Stats' import dialog with the play."""
    return _("Log this play in BG Stats")
