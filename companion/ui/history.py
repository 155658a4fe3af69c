"""The History screen: past sessions per kind (number, players, result) and
per-name totals (finished games played, games won).

Reached from the main menu. With no sessions it shows the same empty list as
before. The summaries come from ``companion.export.summaries`` (each session
folded once and cached until it changes).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n import _, ngettext
from ..export import GameSummary, name_totals, summaries
from ..stats import player_stats
from ..words import chart as chart_words
from ..games import GAMES, TOOLS
from ..names import listed, short_names
from ..words.titles import session_title, title_of
from .base import history_screen
from .draw import fit
from .widgets import ChoiceList, Item, Menu, bound

if TYPE_CHECKING:  # pragma: no cover
    from .host import Host as App  # the seam: what a screen may ask of the app


def _kinds_in_order() -> list[str]:
    return [*GAMES, *TOOLS]


class HistoryScreen(Menu):
    """Top level: "Player totals", then one entry per game kind with its count."""

    def __init__(self) -> None:
        super().__init__(_("History"), self._items)
        self.sessions: list[GameSummary] = []

    def on_show(self, app: "App") -> None:
        self.sessions = summaries(app.journal)

    def _items(self) -> list[Item]:
        if not self.sessions:
            return [Item(_("(no sessions yet)"))]
        items = []
        totals = name_totals(self.sessions)
        if totals:
            items.append(Item(_("Player totals"), lambda app: app.push(TotalsScreen(totals, self.sessions))))
        order = _kinds_in_order()
        kinds = sorted({s.game for s in self.sessions}, key=lambda g: (order.index(g) if g in order else 99, g))
        for g in kinds:
            mine = [s for s in self.sessions if s.game == g]
            items.append(Item(title_of(g), bound(_open_kind, g, mine), right=str(len(mine))))
        return items


class TotalsScreen(Menu):
    """Per name: wins/games over finished games, most wins first; OK on a name opens
    that player's numbers per game (``PlayerScreen``)."""

    def __init__(self, totals, sessions: list[GameSummary] | None = None) -> None:
        self.totals = totals
        self.sessions = sessions or []
        super().__init__(_("Wins/games"), [Item(t.name, bound(_open_player, t.name, self.sessions),
                                                right=f"{t.wins}/{t.games}") for t in totals])


def _open_player(app: "App", name: str, sessions: list[GameSummary]) -> None:
    app.push(PlayerScreen(name, sessions))


class PlayerScreen(Menu):
    """One player's numbers per game (issue 50, companion/stats.py): plays and wins,
    the win share, the best score and the last play's date; the first row switches
    between the whole journal and the last evening."""

    def __init__(self, name: str, sessions: list[GameSummary], scope: str = "all") -> None:
        self.name = name
        self.sessions = sessions
        self.scope = scope
        super().__init__(name, self._rows)

    def _toggle(self, app: "App") -> None:
        self.scope = "evening" if self.scope == "all" else "all"

    def _rows(self) -> list[Item]:
        heads = chart_words.players_headings()
        items = [Item(chart_words.scope_words(self.scope), self._toggle)]
        mine = next((p for p in player_stats(self.sessions, self.scope) if p.name == self.name), None)
        for g in (mine.games if mine else ()):
            items.append(Item(g.title, right=f"{g.wins}/{g.plays}"))
            items.append(Item(" " + heads["share"], right=f"{g.share}%"))
            items.append(Item(" " + heads["best"], right=str(g.best)))
            items.append(Item(" " + heads["last"], right=g.last[5:]))
        return items


RESULT_MAX = 8  # characters of a row's result (the winner shortened alike), the rest for the label


def session_label(s: GameSummary, room: int = ChoiceList.ROOM) -> str:
    """A session's row label in what ``room`` leaves beside its result, in one form
    for every game (issue 39): its number, as the device says it everywhere, then
    its players shortened alike ("#3 Ann,Bob,Cy", "#4 Maximilienne +4"), or how
    many when no list of them reads ("#5 5 players"); a session without players
    (a tool) has its day and time. Never cut (QA #15)."""
    left = room - len(session_result(s)) - 1
    head = f"#{s.shown} "
    if not s.players:
        return head + f"{s.created[5:10]} {s.created[11:16]}"[:max(0, left - len(head))].rstrip()
    text = listed(s.players, left - len(head), least=3, seps=(",",))
    if text is None:
        text = ngettext("{n} player", "{n} players", len(s.players)).format(n=len(s.players))
    return head + text


def session_result(s: GameSummary) -> str:
    """The winner (shortened alike to ``RESULT_MAX``), "tie", "end" or "open"."""
    if s.error:
        return "?"
    if s.winners:
        if len(s.winners) > 1:
            return _("tie")
        winner = s.winners[0]
        if winner in s.players and len(winner) > RESULT_MAX:
            return short_names(list(s.players), RESULT_MAX)[s.players.index(winner)]
        return fit(winner, RESULT_MAX)
    return _("end") if s.finished else _("open")


class KindScreen(Menu):
    """The sessions of one kind, newest first: the number and the players, the winner at the right."""

    def __init__(self, game: str, sessions: list[GameSummary]) -> None:
        self.game = game
        self.sessions = sessions
        super().__init__(title_of(game), [
            Item(session_label(s), bound(open_summary, s), right=session_result(s))
            for s in sessions])


def _open_kind(app: "App", game: str, sessions: list[GameSummary]) -> None:
    app.push(KindScreen(game, sessions))


def open_summary(app: "App", s: GameSummary) -> None:
    """One session: result, scores, moves; Resume when it can go on."""
    items: list[Item] = []
    if not s.finished and not s.error:
        items.append(Item(_("Resume"), lambda a: (a.home(), a.open_session(s.id))))
    if s.error:
        items.append(Item(s.error[:40]))
    else:
        items.append(Item(_("Moves"), lambda a: a.push(history_screen(a.resume_session(s.id)))))
    if s.winners:
        items.append(Item(ngettext("Winner: {names}", "Winners: {names}", len(s.winners)).format(
            names=", ".join(s.winners))))
    for name, score in zip(s.players, s.scores):
        items.append(Item(name, right=str(score)))
    items.append(Item(f"{s.date}"))
    moves = ngettext("{n} move", "{n} moves", s.moves).format(n=s.moves)
    items.append(Item(_("{moves}, ended").format(moves=moves) if s.ended else moves))
    app.push(Menu(session_title(s.game, s.shown), items))
